/* test_gemm_a100.c - the A100 results (data/vectors/a100: four sets of 5,000) through
 * tc_gemm, bit for bit: each case is D (1 x 1) = A (1 x k) * B (k x 1) + C, once on the
 * widest SIMD path this CPU runs and once on the portable one.
 *
 *   test_gemm_a100 [VECTOR_DIR]
 */
#include <stdio.h>
#include <stdlib.h>
#include "a100_vectors.h"

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : TCSIM_DATA_DIR "/vectors/a100";
    int fails = 0;
    for (size_t j = 0; j < 4; j++) {
        const a100_set *s = &a100_sets[j];
        const tc_profile *p;
        a100_cases cs;
        if (tc_profile_find(TC_ARCH_AMPERE, TC_INSTR_MMA, s->in, s->out, &p) != TC_OK ||
            a100_load(root, s, &cs)) {
            fprintf(stderr, "%s: no ampere profile or no vectors\n", s->name);
            return 1;
        }
        size_t bad = 0;
        for (unsigned simd = TC_SIMD_AUTO; simd <= TC_SIMD_PORTABLE; simd++) {
            tc_gemm_opts o = {.threads = 1, .simd = simd};
            for (size_t i = 0; i < cs.n; i++) {
                uint32_t d = 0;
                tc_matrix A = {cs.a + i * cs.k, TC_LAYOUT_ROW, 0};
                tc_matrix B = {cs.b + i * cs.k, TC_LAYOUT_COL, 0}; /* k x 1: column-major */
                tc_matrix C = {&cs.c[i], TC_LAYOUT_ROW, 0};
                tc_matrix_out D = {&d, TC_LAYOUT_ROW, 0};
                if (tc_gemm(p, 1, 1, cs.k, &A, &B, &C, &D, &o) != TC_OK || d != cs.d[i]) {
                    if (bad++ < 10)
                        fprintf(stderr, "  %s case %zu simd %u: tc_gemm %08x, A100 %08x\n",
                                s->name, i, simd, d, cs.d[i]);
                }
            }
        }
        printf("%-10s %-24s %zu cases: %zu mismatches through tc_gemm\n", s->name, p->name,
               cs.n, bad);
        fails += bad != 0;
        a100_free(&cs);
    }
    printf(fails ? "FAILED\n" : "PASSED\n");
    return fails ? 1 : 0;
}
