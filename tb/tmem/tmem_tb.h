/* tmem_tb.h - the parts of the tensor-memory testbench shared between its files:
 * tmem_tb.c (the command line, the organizations, the reset checks), tmem_tb_pair.c
 * (the RTL and the model side by side, compared every cycle: the scoreboard),
 * tmem_tb_directed.c (the directed tests) and tmem_tb_random.c (the random stream, the
 * waveform scenario, the handshake violation). */
#ifndef TCSIM_TMEM_TB_H
#define TCSIM_TMEM_TB_H

#include <stddef.h>
#include <stdint.h>
#include "scoreboard.h"
#include "splitmix.h"
#include "tmem_dut.h"

#define LANES TC_TMEM_LANES
#define COLS TC_TMEM_COLS
#define GL TC_TMEM_GROUP_LANES
#define SLICE TC_TMEM_SLICE
#define WIDE TC_TMEM_WIDE_WORDS
#define QUARTER TC_TMEM_QUARTER_WORDS
#define MAX_REPORTS 20

/* The run (tmem_tb.c): its seed, failures so far, the test and organization under way,
 * and the RTL's WordW (32 or 4). */
extern uint64_t g_seed;
extern tk_score g_score; /* testkit scoreboard: mismatches by bucket */
extern const char *g_test;
extern unsigned g_banks;
extern unsigned g_word_w;

/* A mismatch, counted in its bucket (TK_B_WORD: a stored word; TK_B_TIMING: a ready,
 * grant, rvalid or cycle count; TK_B_CHECK: anything else) and printed with the test,
 * organization and seed (the first MAX_REPORTS). */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void fail(int bucket, const char *fmt, ...);

/* The mismatches counted so far, all buckets. */
unsigned long tmem_fails(void);

/* The testbench's stream (testkit/splitmix.h) under the names its tests use: one draw,
 * and [0, n) as its remainder. */
typedef tk_rng rng;
static inline uint64_t rnd(rng *r) { return tk_next(r); }
static inline unsigned below(rng *r, unsigned n) { return tk_mod(r, n); }

typedef struct pair {
    tmem_dut *rtl;
    tc_tmem *model;
    unsigned banks;
    uint64_t cycle;
    /* The model's read results of the last cycle (rdata points into the model, valid until
     * its next clock): what the requester must still see during the next cycle. */
    int last_a_rvalid, last_ls_rvalid;
    const uint32_t *last_a_rdata, *last_ls_rdata;
} pair;

/* Expected contents, written by the tests themselves: the RTL and the model are both
 * checked against it. */
typedef struct image { uint32_t w[LANES][COLS]; } image;

/* The expected image of the directed tests (tmem_tb_directed.c). */
extern image g_img;
/* What a write of n columns from col (wrapping at COLS) leaves in g_img: column k of data
 * is data[k * LANES .. k * LANES + LANES), one word per lane. */
static inline void img_put(unsigned col, unsigned n, const uint32_t *data)
{
    for (unsigned k = 0; k < n; k++)
        for (unsigned l = 0; l < LANES; l++)
            g_img.w[l][(col + k) % COLS] = data[k * LANES + l];
}

/* ---- tmem_tb_pair.c */

/* n random data words, as the RTL holds them. */
void fill(rng *r, uint32_t *w, size_t n);
/* A word that names its place, so a misplaced word says where it came from. */
uint32_t tag(unsigned lane, unsigned col, unsigned salt);
int pair_open(pair *p, unsigned banks, const char *fst);
void pair_close(pair *p);
void pair_reset(pair *p);
/* One cycle of both with the same inputs, their outputs compared. */
tc_tmem_outputs pair_cycle(pair *p, const tc_tmem_inputs *in);
/* in held until port is ready: the cycles it took (*last: the outputs of the last). */
unsigned pair_request(pair *p, const tc_tmem_inputs *in, tc_tmem_port port,
                      tc_tmem_outputs *last);
/* Columns [col, col + ncols) (wrapping) of the RTL's banks against the model's. */
void compare_cols(pair *p, unsigned col, unsigned ncols, const char *what);
void compare_all(pair *p, const char *what);
/* Both memories against the image e. */
void expect_image(pair *p, const image *e, const char *what);
/* The whole memory written through cp with tagged words; e holds them. */
void fill_by_cp(pair *p, image *e, unsigned salt);
/* The cycles seed 003 gives a request of ncols columns with `banks` banks. */
unsigned spec_cycles(unsigned banks, unsigned ncols);

/* ---- tmem_tb_directed.c */

void test_map(pair *p);
void test_shift(pair *p);
void test_wrap(pair *p);
void test_masked(pair *p);
void test_cycles(pair *p);
void test_conflicts(pair *p);

/* ---- tmem_tb_random.c */

void test_random(pair *p, unsigned long n_commands);
void wave_scenario(pair *p);
int hold_violation(void);

#endif
