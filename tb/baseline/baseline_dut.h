/* baseline_dut.h - C API over one Verilated fma_chain_tb_top (the chained-FMA baseline
 * behind its operand register). baseline_shim.cpp, compiled per Verilated set, is the
 * only C++ and exports `baseline_dut`.
 *
 * Cycle protocol: drive() sets the inputs, step() is one rising and one falling clock
 * edge, sample() reads the outputs after it. Slot j of a/b belongs to the operation
 * driven j cycles earlier (the chain is systolic); the result of an operation driven
 * before step t is sampled after step t + latency - 1.
 */
#ifndef BASELINE_DUT_H
#define BASELINE_DUT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct baseline_params {
    unsigned L;
    uint32_t in_fmts, out_fmts;  /* masks of tc_fmt codes */
    unsigned fp32_man_bits;
    unsigned elem_bits;          /* width of one a/b slot */
    unsigned latency;            /* rising edges from drive() to the result */
} baseline_params;

typedef struct baseline_dut_ops {
    baseline_params params;
    void *(*create)(void);
    void (*destroy)(void *impl);
    void (*set_reset)(void *impl, int rst_n);
    /* a, b: L value patterns (element value bits, tf32: its top 19 bits). */
    void (*drive)(void *impl, int valid, unsigned in_fmt, unsigned out_fmt,
                  const uint32_t *a, const uint32_t *b, uint32_t c);
    void (*step)(void *impl);
    int (*sample)(void *impl, uint32_t *d);  /* valid_o; *d = d_o */
} baseline_dut_ops;

extern const baseline_dut_ops baseline_dut;

#ifdef __cplusplus
}
#endif
#endif
