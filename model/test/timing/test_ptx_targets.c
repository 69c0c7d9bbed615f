/* test_ptx_targets - the PTX target table (tc_ptx_instr_get, tc_ptx_find,
 * tc_arch_ptx_sm): its rows are well formed and found by their own op, the error paths,
 * and against the profile table: every instruction a GPU of timing.txt has is one the
 * structure times. The targets themselves are held against ptxas by
 * ptx_targets_check.py. */
#include <stdio.h>
#include <string.h>
#include "tcsim.h"
#include "check.h"

static int known_target(unsigned sm)
{
    return sm == 70 || sm == 72 || sm == 75 || sm == 80 || sm == 89 || sm == 90;
}

/* Volta's quad-pair mma.m8n8k4 is timed on Volta alone (tc_op_timing_of). */
static int timed_off_volta(const tc_ptx_instr *p)
{
    return !(p->m == 8 && p->n == 8 && p->k == 4);
}

int main(void)
{
    tc_ptx_instr p, q;
    size_t rows = 0;
    for (; tc_ptx_instr_get(rows, &p) == TC_OK; rows++) {
        tc_mma_op op = {p.m, p.n, p.k, p.in, p.acc, p.form == TC_PTX_MMA_SP};
        CHECK(p.form < TC_PTX_FORM_COUNT && known_target(p.sm) && tc_fmt_get(p.in) &&
                  tc_fmt_get(p.acc),
              "row %zu: form %d, sm %u, formats %d %d", rows, (int)p.form, p.sm, (int)p.in,
              (int)p.acc);
        /* Found by its own fields, and only once: lookup returns the first match. */
        CHECK(tc_ptx_lookup(&p, &q) == TC_OK && !memcmp(&p, &q, sizeof p),
              "row %zu (%s m%un%uk%u) is not what tc_ptx_lookup gives for it", rows,
              tc_ptx_form_name(p.form), p.m, p.n, p.k);
        /* ... and by its op where b is in a's format (for b1, the .xor.popc row) */
        if (p.in_b == p.in && p.op != TC_KIND_POPC_AND)
            CHECK(tc_ptx_find(&op, p.form == TC_PTX_WMMA, &q) == TC_OK &&
                      !memcmp(&p, &q, sizeof p),
                  "row %zu (%s m%un%uk%u) is not what tc_ptx_find gives for it", rows,
                  tc_ptx_form_name(p.form), p.m, p.n, p.k);
    }
    CHECK(rows >= 60, "%zu rows", rows);
    CHECK_COND(tc_ptx_instr_get(rows, &p) == TC_EUNSUPPORTED);
    CHECK_COND(tc_ptx_instr_get(0, NULL) == TC_EINVAL);

    /* Lookups: a later target's instruction, one no target has, and the errors; out is
     * left alone on failure. */
    tc_mma_op op = {16, 8, 16, TC_FMT_FP16, TC_FMT_FP32, 0};
    CHECK_COND(tc_ptx_find(&op, 0, &p) == TC_OK && p.form == TC_PTX_MMA && p.sm == 80);
    CHECK_COND(p.sm > tc_arch_ptx_sm(TC_ARCH_TURING) && p.sm <= tc_arch_ptx_sm(TC_ARCH_AMPERE));
    op.sparse = 1; /* mma.sp.m16n8k16: k the dense k */
    CHECK_COND(tc_ptx_find(&op, 0, &p) == TC_OK && p.form == TC_PTX_MMA_SP);
    CHECK_COND(tc_ptx_find(&op, 1, &p) == TC_EINVAL); /* no sparse wmma */
    op = (tc_mma_op){16, 16, 16, TC_FMT_FP16, TC_FMT_FP32, 0};
    CHECK_COND(tc_ptx_find(&op, 0, &p) == TC_EUNSUPPORTED); /* m16n16k16 is wmma alone */
    CHECK_COND(tc_ptx_find(&op, 1, &p) == TC_OK && p.form == TC_PTX_WMMA && p.sm == 70);
    op = (tc_mma_op){16, 8, 24, TC_FMT_FP16, TC_FMT_FP32, 0};
    memset(&q, 0x5a, sizeof q);
    memcpy(&p, &q, sizeof p);
    CHECK_COND(tc_ptx_find(&op, 0, &p) == TC_EUNSUPPORTED && !memcmp(&p, &q, sizeof p));
    /* issue 33: a pair and a b1 op by lookup; b1 by find is .xor.popc (sm_75) */
    tc_ptx_instr key = {TC_PTX_MMA, 8, 8, 16, TC_FMT_INT8, TC_FMT_S32, 0, TC_FMT_UINT8, 0};
    CHECK_COND(tc_ptx_lookup(&key, &p) == TC_OK && p.sm == 75 && p.in_b == TC_FMT_UINT8);
    key = (tc_ptx_instr){TC_PTX_MMA, 16, 8, 256, TC_FMT_B1, TC_FMT_S32, 0, TC_FMT_B1,
                         TC_KIND_POPC_AND};
    CHECK_COND(tc_ptx_lookup(&key, &p) == TC_OK && p.sm == 80);
    key.in_b = TC_FMT_INT8; /* no such pair */
    CHECK_COND(tc_ptx_lookup(&key, &p) == TC_EUNSUPPORTED);
    CHECK_COND(tc_ptx_lookup(NULL, &p) == TC_EINVAL && tc_ptx_lookup(&key, NULL) == TC_EINVAL);
    op = (tc_mma_op){8, 8, 128, TC_FMT_B1, TC_FMT_S32, 0};
    CHECK_COND(tc_ptx_find(&op, 0, &p) == TC_OK && p.op == TC_KIND_POPC_XOR && p.sm == 75);
    op = (tc_mma_op){8, 8, 16, TC_FMT_INT8, TC_FMT_S32, 0};
    CHECK_COND(tc_ptx_find(&op, 0, &p) == TC_OK && p.in_b == TC_FMT_INT8);
    CHECK_COND(tc_ptx_find(NULL, 0, &p) == TC_EINVAL);
    CHECK_COND(tc_ptx_find(&op, 0, NULL) == TC_EINVAL);

    /* Targets rise with the arch; a value that is no arch has none. */
    for (int a = 1; a < TC_ARCH_COUNT; a++)
        CHECK(tc_arch_ptx_sm((tc_arch)a) > tc_arch_ptx_sm((tc_arch)(a - 1)), "arch %d", a);
    CHECK_COND(tc_arch_ptx_sm(TC_ARCH_VOLTA) == 70 && tc_arch_ptx_sm(TC_ARCH_COUNT) == 0);
    CHECK_COND(!strcmp(tc_ptx_form_name(TC_PTX_MMA_SP), "mma.sp") &&
               !strcmp(tc_ptx_form_name(TC_PTX_FORM_COUNT), "?"));

    /* Two tables, one answer: every mma a GPU's target has, the structure times (the
     * profile table has its formats), so no instruction of a GPU is refused. wmma goes
     * through tc_wmma_cumulative's own shapes and is not asked here. */
    tc_gpu_timing g;
    unsigned timed = 0;
    for (size_t gi = 0; tc_gpu_timing_get(gi, &g) == TC_OK; gi++) {
        for (size_t i = 0; tc_ptx_instr_get(i, &p) == TC_OK; i++) {
            /* tc_op_timing_of has no 1-bit width: the b1 forms are not timed yet */
            if (p.form == TC_PTX_WMMA || p.sm > tc_arch_ptx_sm(g.arch) || p.in == TC_FMT_B1 ||
                (g.arch != TC_ARCH_VOLTA && !timed_off_volta(&p)))
                continue;
            tc_mma_op o = {p.m, p.n, p.k, p.in, p.acc, p.form == TC_PTX_MMA_SP};
            tc_op_timing t;
            if (p.in == TC_FMT_FP64) { /* DMMA: no structure or measurement to time it */
                CHECK(tc_op_timing_of(&g, &o, &t) == TC_EUNSUPPORTED, "%s times fp64 m%un%uk%u",
                      g.name, p.m, p.n, p.k);
                continue;
            }
            /* PTX keeps the int4 mma on sm_90 and sm_100, which have no int4 tensor-core
             * rate (the H100 and B200 datasheets list none) and no int4 profile: the
             * arithmetic has no such instruction to time there. */
            const tc_profile *prof;
            if (g.arch >= TC_ARCH_HOPPER &&
                tc_profile_find(g.arch, TC_INSTR_MMA, p.in, p.acc, &prof) != TC_OK)
                continue;
            tc_status st = tc_op_timing_of(&g, &o, &t);
            CHECK(st == TC_OK, "%s has %s.m%un%uk%u %s->%s (sm_%u) but does not time it: %s",
                  g.name, tc_ptx_form_name(p.form), p.m, p.n, p.k, tc_fmt_get(p.in)->name,
                  tc_fmt_get(p.acc)->name, p.sm, tc_strerror(st));
            timed++;
        }
    }
    CHECK(timed >= 60, "%u instructions timed", timed);

    printf("%zu rows, %u GPU instructions timed, %lu checks: %s\n", rows, timed, checks,
           failures ? "FAILED" : "PASSED");
    return failures ? 1 : 0;
}
