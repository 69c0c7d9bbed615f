/* bw_conv_args.h - the convolution most of the Blackwell tests and the benchmark run:
 * fp16 activations and weights into fp32 (kind f16), through tc_bw_mma (no engine).
 * Included by test_bw_conv.c, test_bw_timeline.c and bw_conv_bench.c. */
#ifndef TCSIM_TEST_BW_CONV_ARGS_H
#define TCSIM_TEST_BW_CONV_ARGS_H

#include <string.h>
#include "tcsim.h"

/* The arguments of an f16 -> fp32 convolution of shape sh on `banks` tensor-memory
 * banks (0: the default, 8). */
static inline tc_conv_args bw_f16_conv(const tc_conv_shape *sh, tc_conv_algo algo,
                                       unsigned banks)
{
    tc_conv_args ca;
    memset(&ca, 0, sizeof ca);
    ca.shape = *sh;
    ca.kind = TC_BW_F16;
    ca.in = TC_FMT_FP16;
    ca.out = TC_FMT_FP32;
    ca.algo = algo;
    ca.banks = banks;
    return ca;
}

#endif
