/* fedp_tb_scoreboard.c - the FEDP testbench's scoreboard: operations issued one per
 * cycle into a ring, each expected result (the model's, or the A100's for its vectors)
 * checked LATENCY rising edges later, mismatches counted by bucket (testkit/scoreboard.h)
 * and the first few printed in hex with the seed. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "a100_vectors.h"
#include "fedp_tb.h"

/* -------------------------------------------------------------- the scoreboard */



static void print_op(const tb *t, const op *o, const char *what, uint32_t got, int got_valid)
{
    unsigned wi = (tc_fmt_get(o->p->in)->width + 3) / 4;
    unsigned wb = (tc_fmt_get(o->p->in_b)->width + 3) / 4;
    unsigned wo = (tc_fmt_get(o->p->out)->width + 3) / 4;
    printf("  MISMATCH (%s) seed %" PRIu64 " op %" PRIu64 " [%s] %s n=%zu\n", what, t->seed,
           o->index, o->gen, o->p->name, o->n);
    printf("    a:");
    for (size_t i = 0; i < o->n; i++)
        printf(" %0*x", (int)wi, o->a[i]);
    printf("\n    b:");
    for (size_t i = 0; i < o->n; i++)
        printf(" %0*x", (int)wb, o->b[i]);
    printf("\n    c: %0*x  expected: %0*x  rtl: %0*x%s\n", (int)wo, o->c, (int)wo, o->expect,
           (int)wo, got, got_valid ? "" : " (valid_o low)");
}

static void mismatch(tb *t, int bucket, const op *o, uint32_t got, int got_valid)
{
    if (tk_score_add(&t->score, bucket) && o->valid)
        print_op(t, o, tk_bucket_name(bucket), got, got_valid);
    else if (t->score.printed <= t->score.print_max)
        printf("  MISMATCH (valid/timing) seed %" PRIu64 " cycle %" PRIu64
               ": valid_o high with no operation due\n", t->seed, t->cycle);
    if (!t->have_bad && o->valid) {
        t->first_bad = *o;
        t->have_bad = 1;
    }
}

/* One clock cycle: drive o (a bubble if !o->valid), step, and check what is due. */
void cycle(tb *t, const op *o)
{
    dut_drive(t->dut, o->valid, (tc_fmt)o->in, (tc_fmt)o->in_b, (tc_fmt)o->out, o->n, o->a,
              o->b, o->c);
    t->ring[t->cycle % t->lat] = *o;
    t->issued += o->valid != 0;
    dut_step(t->dut);
    const op *due = &t->ring[(t->cycle + 1) % t->lat];
    uint32_t got;
    int v = dut_sample(t->dut, &got);
    if (v != due->valid)
        mismatch(t, TK_B_TIMING, due, got, v);
    else if (v) {
        t->checked++;
        if (got != due->expect)
            mismatch(t, tk_bucket_of(due->out == TC_FMT_FP16 ? TC_FMT_FP16 : TC_FMT_FP32,
                                  due->expect), due, got, v);
    }
    t->ring[(t->cycle + 1) % t->lat].valid = 0; /* done: no longer in flight */
    t->cycle++;
}

/* Fills the expected result; a model error is a testbench bug. */
void expect(op *o)
{
    tc_status st = tc_fedp_step(o->p, o->n, o->a, o->b, o->c, &o->expect, NULL);
    if (st != TC_OK) {
        fprintf(stderr, "fedp_tb: the model refused op %" PRIu64 " [%s] of %s: %s\n", o->index,
                o->gen, o->p->name, tc_strerror(st));
        exit(2);
    }
}

void issue(tb *t, op *o)
{
    o->valid = 1;
    o->index = t->issued;
    expect(o);
    cycle(t, o);
}

/* A cycle without an operation; its inputs are garbage that must not matter. */
void bubble(tb *t, const tc_profile *p)
{
    op o;
    memset(&o, 0, sizeof o);
    o.p = p;
    o.in = p->in;
    o.in_b = p->in_b;
    o.out = p->out;
    o.n = t->q->L;
    for (size_t i = 0; i < o.n; i++) {
        o.a[i] = tk_bits(&t->r, tc_fmt_get(p->in)->width);
        o.b[i] = tk_bits(&t->r, tc_fmt_get(p->in_b)->width);
    }
    o.c = tk_bits(&t->r, tc_fmt_get(p->out)->width);
    cycle(t, &o);
}

void drain(tb *t, const tc_profile *p)
{
    for (unsigned i = 0; i < t->lat; i++)
        bubble(t, p);
}

/* rst_ni low for `cycles` rising edges, with operations offered on valid_i meanwhile:
 * everything in flight and offered is dropped, so valid_o stays low until new work. */
void reset_midstream(tb *t, const tc_profile *p, unsigned cycles)
{
    for (unsigned i = 0; i < t->lat; i++)
        if (t->ring[i].valid)
            t->dropped++;
    memset(t->ring, 0, sizeof t->ring);
    dut_set_reset(t->dut, 0);
    for (unsigned i = 0; i < cycles; i++) {
        op o;
        memset(&o, 0, sizeof o);
        o.p = p;
        o.valid = 1; /* offered during reset: must be dropped */
        o.n = 0;
        dut_drive(t->dut, 1, p->in, p->in_b, p->out, 0, o.a, o.b, 0);
        dut_step(t->dut);
        uint32_t got;
        if (dut_sample(t->dut, &got)) {
            o.valid = 0;
            mismatch(t, TK_B_TIMING, &o, got, 1);
        }
        t->cycle++;
    }
    dut_set_reset(t->dut, 1);
    for (unsigned i = 0; i < t->lat; i++)
        t->ring[i].p = p;
}

void clear_op(op *o, const tc_profile *p, const char *gen)
{
    memset(o, 0, sizeof *o);
    o->p = p;
    o->in = p->in;
    o->in_b = p->in_b;
    o->out = p->out;
    o->n = p->L;
    o->gen = gen;
}

/* ----------------------------------------------------------------- A100 vectors */

/* The GPU's results, where the instance implements Ampere's profile of the set. */
int a100(tb *t, const char *root)
{
    size_t sets = 0;
    for (size_t j = 0; j < sizeof a100_sets / sizeof a100_sets[0]; j++) {
        const a100_set *s = &a100_sets[j];
        const tc_profile *p;
        if (tc_profile_find(TC_ARCH_AMPERE, TC_INSTR_MMA, s->in, s->out, &p) != TC_OK ||
            !fedp_implements(t->q, p) || s->k > p->L)
            continue;
        a100_cases cs;
        if (a100_load(root, s, &cs))
            return -1;
        uint64_t before = tk_score_total(&t->score);
        for (size_t i = 0; i < cs.n; i++) {
            op o;
            clear_op(&o, p, "A100");
            o.n = cs.k;
            memcpy(o.a, cs.a + i * cs.k, cs.k * sizeof *o.a);
            memcpy(o.b, cs.b + i * cs.k, cs.k * sizeof *o.b);
            o.c = cs.c[i];
            o.valid = 1;
            o.index = t->issued;
            o.expect = cs.d[i]; /* the hardware's result, not the model's */
            cycle(t, &o);
        }
        drain(t, p);
        uint64_t after = tk_score_total(&t->score);
        printf("  A100 %-10s through %-24s %zu cases, %" PRIu64 " mismatches\n", s->name,
               p->name, cs.n, after - before);
        a100_free(&cs);
        sets++;
    }
    return (int)sets;
}

