/* fault_shim.c - a tensor core that gets one element wrong, to show that gemm_sim --check
 * can fail. Linked into gemm_sim_fault with -Wl,--wrap=tc_sim_issue, it lets the model
 * compute D and then flips one bit of one element, chosen by the environment:
 *
 *   GEMM_SIM_FAULT=N:E:B   the N-th mma issued (from 0), element E of its row-major D
 *                          (m x n of the mma), bit B (0..31)
 *
 * Without GEMM_SIM_FAULT the program is gemm_sim. The test, not gemm_sim, knows where
 * the element lands in the GEMM's D (examples/gemm_sim_test.sh, fault). */
#include <stdio.h>
#include <stdlib.h>
#include "tcsim.h"

/* The linker's --wrap sends gemm_sim's calls of tc_sim_issue to __wrap_tc_sim_issue,
 * and __real_tc_sim_issue to the library's. */
tc_status __real_tc_sim_issue(tc_sim *s, const tc_sim_op *op, uint64_t *ticket);
tc_status __wrap_tc_sim_issue(tc_sim *s, const tc_sim_op *op, uint64_t *ticket);

tc_status __wrap_tc_sim_issue(tc_sim *s, const tc_sim_op *op, uint64_t *ticket)
{
    static unsigned long issued;
    tc_status st = __real_tc_sim_issue(s, op, ticket);
    const char *f = getenv("GEMM_SIM_FAULT");
    unsigned long n, e;
    unsigned b;
    if (st != TC_OK || !f)
        return st;
    if (sscanf(f, "%lu:%lu:%u", &n, &e, &b) != 3 || b > 31 || !op->D ||
        e >= (unsigned long)op->mma.m * op->mma.n) {
        fprintf(stderr, "fault_shim: GEMM_SIM_FAULT '%s' is not N:E:B with E < m x n, "
                        "B < 32, on an mma with data\n", f);
        exit(2);
    }
    if (issued++ == n)
        op->D[e] ^= UINT32_C(1) << b;
    return st;
}
