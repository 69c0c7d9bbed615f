/* bw_desc.h - the start of a random Blackwell tcgen05.mma case, shared by the model's
 * test (model/test/bw/test_bw_mma.c) and the RTL testbench (tb/blackwell/bw_tb.c): a
 * descriptor with every field zero but the kind and the three formats of the mix drawn,
 * so that both programs describe the same instruction before they draw the rest. */
#ifndef TCSIM_BW_DESC_H
#define TCSIM_BW_DESC_H

#include "tcsim.h"

static inline tc_bw_mma_desc bw_desc_of_mix(tc_bw_kind kind, tc_fmt in, tc_fmt out,
                                            tc_fmt scale)
{
    return (tc_bw_mma_desc){.kind = kind, .in = in, .out = out, .scale = scale};
}

#endif
