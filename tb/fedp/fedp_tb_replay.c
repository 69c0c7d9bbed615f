/* fedp_tb_replay.c - the FEDP testbench's stage replay: one operation run alone through
 * the instance, its MUL, ALIGN and ADD registers compared with the model's trace, which
 * names the stage where a mismatch is born; and the check of the replay itself. */
#include <inttypes.h>
#include <stdio.h>
#include "fedp_tb.h"

/* ------------------------------------------------------------- stage replay */

/* The fraction width the instance left-justifies every element to (fedp.sv's MB). */
static unsigned max_man_bits(uint32_t fmts)
{
    unsigned m = 0;
    for (unsigned f = 0; f < TC_FMT_COUNT; f++)
        if ((fmts >> f) & 1u && tc_fmt_get((tc_fmt)f)->man_bits > m)
            m = tc_fmt_get((tc_fmt)f)->man_bits;
    return m;
}

/* Steps the instance until *edge (rising edges after the operand register's) is want. */
static void step_to(tb *t, unsigned *edge, unsigned want)
{
    for (; *edge < want; ++*edge)
        dut_step(t->dut);
}

/* Runs op o alone and compares each stage register with the model's trace, naming the
 * first stage that differs: where a mismatch is born. Each is read at the edge after
 * which its cut's output holds the operation (fedp_params.stage_edge): a cut without
 * registers shows the stage's logic on the registers before it, so every depth replays.
 * Returns 0 when MUL, ALIGN and ADD agree, 1 when one differs, -1 when there is nothing
 * to compare (a special result). Quiet unless verbose. */
int replay(tb *t, const op *o, int verbose)
{
    tc_fedp_trace tr;
    uint32_t d;
    unsigned edge = 0;
    const tc_fmt_info *fi = tc_fmt_get(o->p->in), *fb = tc_fmt_get(o->p->in_b);
    if (tc_fedp_step(o->p, o->n, o->a, o->b, o->c, &d, &tr) != TC_OK)
        return -1;
    if (verbose)
        printf("  replay of op %" PRIu64 " stage by stage:\n", o->index);
    if (tr.special) {
        if (verbose)
            printf("    the model's result is special (code %d): no stage to compare\n",
                   tr.special);
        return -1;
    }
    dut_reset(t->dut);
    dut_drive(t->dut, 1, o->p->in, o->p->in_b, o->p->out, o->n, o->a, o->b, o->c);
    dut_step(t->dut); /* fedp_tb_top's operand register */
    dut_drive(t->dut, 0, o->p->in, o->p->in_b, o->p->out, 0, o->a, o->b, 0);
    fedp_stages s;
    /* each factor's fraction is left-justified to the instance's widest */
    unsigned lj = (unsigned)(2 * max_man_bits(t->q->in_fmts) - fi->man_bits - fb->man_bits);
    step_to(t, &edge, t->q->stage_edge[0]);
    dut_stages(t->dut, &s);
    for (size_t i = 0; i < o->n; i++) {
        if (tr.prod_zero[i] || tr.prod_sig[i] == 0)
            continue;
        if (s.mul_psig[i] != tr.prod_sig[i] << lj || s.mul_pexp[i] != tr.prod_exp[i]) {
            if (verbose)
                printf("    MUL differs at product %zu: rtl sig %" PRIx64 " exp %d, model sig %"
                       PRIx64 " exp %d (<< %u)\n", i, s.mul_psig[i], s.mul_pexp[i],
                       tr.prod_sig[i], tr.prod_exp[i], lj);
            return 1;
        }
    }
    step_to(t, &edge, t->q->stage_edge[1]);
    dut_stages(t->dut, &s);
    int any = 0;
    for (size_t i = 0; i <= o->n; i++)
        any |= !tr.prod_zero[i == o->n ? TC_MAX_L : i];
    if (any && s.align_e != tr.align_e) {
        if (verbose)
            printf("    ALIGN differs: rtl E %d, model E %d\n", s.align_e, tr.align_e);
        return 1;
    }
    for (size_t i = 0; i <= t->q->L; i++) {
        int64_t m = i == t->q->L ? tr.align_t[TC_MAX_L] : i < o->n ? tr.align_t[i] : 0;
        if (s.align_t[i] != m) {
            if (verbose)
                printf("    ALIGN differs at term %zu: rtl %" PRId64 ", model %" PRId64 "\n",
                       i, s.align_t[i], m);
            return 1;
        }
    }
    step_to(t, &edge, t->q->stage_edge[2]);
    dut_stages(t->dut, &s);
    if (s.add_sum != tr.add_sum) {
        if (verbose)
            printf("    ADD differs: rtl %" PRId64 ", model %" PRId64 "\n", s.add_sum,
                   tr.add_sum);
        return 1;
    }
    if (verbose)
        printf("    MUL, ALIGN and ADD agree: the difference is in NORM/ROUND or the selection\n");
    return 0;
}

/* The replay itself under test: on an instance that matches the model, every stage of
 * every replayed operation must agree with the trace (else replay would blame a stage
 * wrongly when a real mismatch is diagnosed). n random operations per profile. */
int replay_check(tb *t, const tc_profile *const *ps, size_t np, uint64_t n)
{
    uint64_t compared = 0, differ = 0;
    for (size_t j = 0; j < np; j++)
        for (uint64_t i = 0; i < n; i++) {
            op o;
            random_op(t, ps[j], &o);
            o.index = i;
            int r = replay(t, &o, 0);
            compared += r >= 0;
            if (r > 0 && differ++ == 0) {
                printf("  first that differs: seed %" PRIu64 ", %s, operation %" PRIu64
                       " [%s]\n", t->seed, ps[j]->name, i, o.gen);
                replay(t, &o, 1);
            }
        }
    printf("replay check: %" PRIu64 " operations replayed stage by stage, %" PRIu64
           " differ\n%s\n", compared, differ, differ || !compared ? "FAILED" : "PASSED");
    return differ || !compared;
}

