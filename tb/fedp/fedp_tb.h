/* fedp_tb.h - the parts of the FEDP testbench (fedp_tb.c: the command line and the
 * checks of the instance table) shared between its files: the operation in flight and
 * the scoreboard (fedp_tb_scoreboard.c: the cycle, the ring, mismatches, the A100
 * vectors), the stimulus (fedp_tb_directed.c, fedp_tb_random.c) and the stage replay
 * (fedp_tb_replay.c). */
#ifndef TCSIM_FEDP_TB_H
#define TCSIM_FEDP_TB_H

#include <stddef.h>
#include <stdint.h>
#include "fedp_dut.h"
#include "fmt_values.h"
#include "scoreboard.h"
#include "splitmix.h"

/* One operation: driven, in flight, checked. */
typedef struct op {
    int valid;
    const tc_profile *p;
    unsigned in, in_b, out;  /* format selects driven (a, b, c/d): p's, except for the
                                unsupported ones */
    size_t n;
    uint32_t a[TC_MAX_L], b[TC_MAX_L], c, expect;
    const char *gen;  /* the generator that made it */
    uint64_t index;   /* its number in the run */
} op;

/* The testbench: the instance, the stream, the operations in flight and the counts. */
typedef struct tb {
    fedp_dut *dut;
    const fedp_params *q;
    uint64_t seed;
    tk_rng r;
    op ring[16];         /* operations in flight, by cycle modulo the latency */
    unsigned lat;
    uint64_t cycle, issued, checked, dropped;
    tk_score score;      /* mismatches by bucket; how many to print */
    int have_bad;
    op first_bad;
} tb;

/* ---- fedp_tb_scoreboard.c */

/* o emptied for profile p, from generator gen: L zero products, p's format selects. */
void clear_op(op *o, const tc_profile *p, const char *gen);
/* Fills the expected result from the model; a model error is a testbench bug (exit 2). */
void expect(op *o);
/* One clock cycle: drive o (a bubble if !o->valid), step, and check what is due. */
void cycle(tb *t, const op *o);
/* o issued as the next operation, its expected result from the model. */
void issue(tb *t, op *o);
/* A cycle without an operation; its inputs are garbage that must not matter. */
void bubble(tb *t, const tc_profile *p);
/* Bubbles until nothing is in flight. */
void drain(tb *t, const tc_profile *p);
/* rst_ni low for `cycles` rising edges with operations offered: all are dropped. */
void reset_midstream(tb *t, const tc_profile *p, unsigned cycles);
/* The A100 vectors under root through the instance: the sets run, or -1. */
int a100(tb *t, const char *root);

/* ---- fedp_tb_directed.c */

/* Every directed case of profile p, issued. */
void directed(tb *t, const tc_profile *p);

/* ---- fedp_tb_random.c */

/* A random operation of profile p, from a generator drawn by its share. */
void random_op(tb *t, const tc_profile *p, op *o);
/* N random operations per profile: back to back, with bubbles, with resets. */
void random_stream(tb *t, const tc_profile *const *ps, size_t np, uint64_t count);
/* N random `tcsim dot` input lines for profile args (arch instr in_a in_b out); 2 if
 * none. */
int dot_cases(char **args, uint64_t n, uint64_t seed);

/* ---- fedp_tb_replay.c */

/* Runs o alone and compares each stage register with the model's trace: 0 agree, 1 a
 * stage differs (named when verbose), -1 nothing to compare. */
int replay(tb *t, const op *o, int verbose);
/* The replay itself under test: n random operations per profile; the exit status. */
int replay_check(tb *t, const tc_profile *const *ps, size_t np, uint64_t n);

#endif
