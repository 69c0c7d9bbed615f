/* test_ptx_coverage - the PTX target table against the profile table (issue 33): every
 * form a target has is a form the arithmetic models, on every arch from that target on,
 * and every mma profile is an instruction of its arch's target.
 *
 * A row is found as the arithmetic finds it: a b1 row by its op (tc_profile_find_popc),
 * any other by its a and b formats and accumulator (tc_profile_find_ab), so the fp64
 * rows need nothing of their own. mma.sp and wmma rows map to the dense mma profile
 * (docs/contract.md: sparse is the dense arithmetic over the kept products). */
#include <stdio.h>
#include "tcsim.h"
#include "check.h"

static const char *fmt_name(tc_fmt f)
{
    const tc_fmt_info *fi = tc_fmt_get(f);
    return fi ? fi->name : "?";
}

static tc_status profile_of(tc_arch a, const tc_ptx_instr *p, const tc_profile **out)
{
    if (p->op)
        return tc_profile_find_popc(a, TC_INSTR_MMA, p->op, out);
    return tc_profile_find_ab(a, TC_INSTR_MMA, p->in, p->in_b, p->acc, out);
}

/* PTX keeps the 4-bit integer mma from sm_75 on, but Hopper and Blackwell run it off
 * the tensor cores (no int4 rate on their datasheets) and the library has no profile
 * for it there; the one exception, named. */
static int int4_off_tensor_cores(tc_arch a, const tc_ptx_instr *p)
{
    int int4 = p->in == TC_FMT_INT4 || p->in == TC_FMT_UINT4 || p->in_b == TC_FMT_INT4 ||
               p->in_b == TC_FMT_UINT4;
    return int4 && a >= TC_ARCH_HOPPER;
}

int main(void)
{
    tc_ptx_instr p;
    unsigned found = 0, skipped = 0, rows = 0;
    for (size_t i = 0; tc_ptx_instr_get(i, &p) == TC_OK; i++, rows++) {
        int any = 0;
        for (int a = 0; a < TC_ARCH_COUNT; a++) {
            if (p.sm > tc_arch_ptx_sm((tc_arch)a))
                continue;
            any = 1;
            const tc_profile *prof = NULL;
            tc_status st = profile_of((tc_arch)a, &p, &prof);
            if (int4_off_tensor_cores((tc_arch)a, &p)) {
                /* the exception must stay one: a profile here would be timed too */
                CHECK(st != TC_OK, "%s has an int4 mma profile: drop the exception",
                      tc_arch_name((tc_arch)a));
                skipped++;
                continue;
            }
            CHECK(st == TC_OK && prof->arch == (tc_arch)a && prof->in == p.in &&
                      prof->in_b == p.in_b && prof->out == p.acc,
                  "%s (from sm_%u) has %s.m%un%uk%u %sx%s->%s%s%s but no profile for it: %s",
                  tc_arch_name((tc_arch)a), p.sm, tc_ptx_form_name(p.form), p.m, p.n, p.k,
                  fmt_name(p.in), fmt_name(p.in_b), fmt_name(p.acc),
                  p.op == TC_KIND_POPC_AND ? " .and.popc" : "",
                  p.op == TC_KIND_POPC_XOR ? " .xor.popc" : "", tc_strerror(st));
            found++;
        }
        CHECK(any, "row %zu (sm_%u) is no arch's", i, p.sm);
    }

    /* The converse: every mma profile (the dot-product kinds; block-scaled ones are
     * tcgen05 alone) is some PTX form of its arch's target. */
    const tc_profile *prof;
    size_t n = tc_profile_table(&prof);
    unsigned mma = 0;
    for (size_t r = 0; r < n; r++) {
        const tc_profile *q = &prof[r];
        if (q->instr != TC_INSTR_MMA)
            continue;
        int has = 0;
        for (size_t i = 0; !has && tc_ptx_instr_get(i, &p) == TC_OK; i++) {
            int op = q->kind == TC_KIND_POPC_AND || q->kind == TC_KIND_POPC_XOR ? (int)q->kind : 0;
            has = p.sm <= tc_arch_ptx_sm(q->arch) && p.in == q->in && p.in_b == q->in_b &&
                  p.acc == q->out && (int)p.op == op;
        }
        CHECK(has, "profile %s: PTX for %s (sm_%u) has no such mma", q->name,
              tc_arch_name(q->arch), tc_arch_ptx_sm(q->arch));
        mma++;
    }

    /* The one-format find leaves the b1 forms to their op. */
    CHECK_COND(tc_profile_find(TC_ARCH_AMPERE, TC_INSTR_MMA, TC_FMT_B1, TC_FMT_S32, &prof) ==
               TC_EUNSUPPORTED);

    CHECK(rows >= 100 && found >= 350 && mma >= 80, "%u rows, %u forms found, %u mma profiles",
          rows, found, mma);
    printf("%u PTX rows, %u (arch, form) pairs with a profile, %u int4 on hopper/blackwell "
           "left out, %u mma profiles with a PTX form, %lu checks: %s\n", rows, found, skipped,
           mma, checks, failures ? "FAILED" : "PASSED");
    return failures ? 1 : 0;
}
