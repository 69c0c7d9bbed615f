/* test_bw_timeline.c - the Blackwell timeline (model/src/bw_timeline.h) against a
 * reference written from docs/blackwell_mma.md's rules alone. The reference keeps each
 * port as one busy flag per cycle of the whole run and never forgets a cycle; an
 * operation scans for the first idle cycles from its earliest start on. The model keeps
 * gaps and forgets those no later operation can reach. After every operation the two
 * must agree on every time the timeline holds:
 *  - random programs that leave idle cycles thousands of cycles behind the ports' fronts
 *    and then start copies back there (one window left alone while the other runs);
 *  - every operation tc_conv times on docs/blackwell_mma.md's ResNet layer, the four rows
 *    of its table: the test is linked with --wrap for the tc_bwt_ calls, so the wrappers
 *    see conv.c's calls and replay each on the reference.
 * Also: a window or D region out of range is refused, and a port that cannot grow its
 * gap list gives TC_ENOMEM (realloc is wrapped too), which tc_conv passes on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tcsim.h"
#include "bw_timeline.h"

#include "check.h"
#include "bw_conv_args.h"

/* ------------------------------------------------------------- the reference */

typedef struct ref_port {
    unsigned char *busy; /* cycle c taken */
    uint64_t len;        /* flags allocated */
    uint64_t low;        /* every cycle before it taken: where scans may start */
} ref_port;

typedef struct ref_timeline {
    ref_port smem, tmem;
    uint64_t array, end;
    uint64_t win_ready[2], win_read[2];
    uint64_t d_ready[2], d_done[2], d_drained[2];
} ref_timeline;

static ref_timeline ref;
static int ref_on;        /* the wrappers replay the calls on the reference */
static int ref_broken;    /* the first disagreement was reported: stop checking */
static unsigned long ref_ops;
static size_t most_gaps;  /* the most gaps the model's ports kept, for the log */

static uint64_t umax(uint64_t a, uint64_t b) { return a > b ? a : b; }

static void ref_free(void)
{
    free(ref.smem.busy);
    free(ref.tmem.busy);
    memset(&ref, 0, sizeof ref);
}

static void ref_need(ref_port *p, uint64_t c)
{
    if (c < p->len)
        return;
    uint64_t len = p->len ? p->len : 4096;
    while (len <= c)
        len *= 2;
    unsigned char *b = calloc(len, 1);
    if (!b) {
        fprintf(stderr, "test_bw_timeline: out of memory\n");
        exit(1);
    }
    if (p->len)
        memcpy(b, p->busy, p->len);
    free(p->busy);
    p->busy = b;
    p->len = len;
}

/* The first `n` idle cycles from `from` on; the cycle after the last (`from` if n = 0). */
static uint64_t ref_take(ref_port *p, uint64_t from, uint64_t n)
{
    uint64_t end = from;
    for (uint64_t c = umax(from, p->low); n; c++) {
        ref_need(p, c);
        if (!p->busy[c]) {
            p->busy[c] = 1;
            n--;
            end = c + 1;
        }
    }
    while (p->low < p->len && p->busy[p->low])
        p->low++;
    return end;
}

static void ref_note(uint64_t t) { ref.end = umax(ref.end, t); }

/* docs/blackwell_mma.md: shared memory delivers 128 B, four 256-bit rows, per cycle */
static void ref_copy(unsigned w, uint64_t rows)
{
    uint64_t start = umax(ref.win_read[w], ref.win_ready[w]);
    ref.win_ready[w] = ref_take(&ref.smem, start, rows / 4 + (rows % 4 != 0));
    ref_note(ref.win_ready[w]);
}

static void ref_shift(unsigned w, uint64_t cycles)
{
    uint64_t start = umax(ref.win_read[w], ref.win_ready[w]);
    ref.win_ready[w] = ref_take(&ref.tmem, start, cycles);
    ref_note(ref.win_ready[w]);
}

static void ref_mma(unsigned w, unsigned r, const tc_bw_cost *c)
{
    uint64_t start = umax(ref.array, umax(ref.win_ready[w], ref.d_ready[r]));
    uint64_t s = ref_take(&ref.smem, start, c->smem_cycles);
    uint64_t t = ref_take(&ref.tmem, start, c->tmem_cycles);
    uint64_t end = umax(start + c->array_passes, umax(s, t));
    ref.array = ref.win_read[w] = ref.d_done[r] = end;
    ref_note(end);
}

static void ref_d_zero(unsigned r, uint64_t cycles)
{
    ref.d_ready[r] = ref_take(&ref.tmem, umax(ref.d_done[r], ref.d_drained[r]), cycles);
    ref_note(ref.d_ready[r]);
}

static void ref_d_read(unsigned r, uint64_t cycles)
{
    ref.d_drained[r] = ref_take(&ref.tmem, ref.d_done[r], cycles);
    ref_note(ref.d_drained[r]);
}

/* ------------------------------------------------------------- model against reference */

static void agree(const bw_timeline *t, const char *op)
{
    ref_ops++;
    size_t gaps = (t->smem.n - t->smem.head) + (t->tmem.n - t->tmem.head);
    most_gaps = gaps > most_gaps ? gaps : most_gaps;
    if (ref_broken)
        return;
    int same = t->array == ref.array && t->end == ref.end &&
               tc_bwt_total(t) == ref.end + 4; /* the FEDP pipeline's 4 stages, once */
    for (unsigned i = 0; i < 2; i++)
        same = same && t->win_ready[i] == ref.win_ready[i] && t->win_read[i] == ref.win_read[i] &&
               t->d_ready[i] == ref.d_ready[i] && t->d_done[i] == ref.d_done[i] &&
               t->d_drained[i] == ref.d_drained[i];
    CHECK(same,
          "operation %lu (%s): model array %llu end %llu win_ready %llu/%llu d_ready %llu/%llu,"
          " reference array %llu end %llu win_ready %llu/%llu d_ready %llu/%llu",
          ref_ops, op, (unsigned long long)t->array, (unsigned long long)t->end,
          (unsigned long long)t->win_ready[0], (unsigned long long)t->win_ready[1],
          (unsigned long long)t->d_ready[0], (unsigned long long)t->d_ready[1],
          (unsigned long long)ref.array, (unsigned long long)ref.end,
          (unsigned long long)ref.win_ready[0], (unsigned long long)ref.win_ready[1],
          (unsigned long long)ref.d_ready[0], (unsigned long long)ref.d_ready[1]);
    ref_broken = !same;
}

/* The wrappers: conv.c's calls and this file's go through them (ld --wrap). Each makes
 * the model's call, then, when the model took it, the same on the reference, and
 * compares. */
void __real_tc_bwt_init(bw_timeline *t, unsigned dregions);
void __wrap_tc_bwt_init(bw_timeline *t, unsigned dregions);
void __wrap_tc_bwt_init(bw_timeline *t, unsigned dregions)
{
    __real_tc_bwt_init(t, dregions);
    if (ref_on) {
        ref_free();
        ref_broken = 0;
        ref_ops = 0;
        most_gaps = 0;
    }
}

#define REPLAYED(name, params, args, ref_call)        \
    tc_status __real_tc_bwt_##name params;            \
    tc_status __wrap_tc_bwt_##name params;            \
    tc_status __wrap_tc_bwt_##name params             \
    {                                                 \
        tc_status st = __real_tc_bwt_##name args;     \
        if (ref_on && st == TC_OK) {                  \
            ref_call;                                 \
            agree(t, #name);                          \
        }                                             \
        return st;                                    \
    }

REPLAYED(copy_rows, (bw_timeline *t, unsigned win, uint64_t rows), (t, win, rows),
         ref_copy(win, rows))
REPLAYED(shift, (bw_timeline *t, unsigned win, uint64_t cycles), (t, win, cycles),
         ref_shift(win, cycles))
REPLAYED(mma, (bw_timeline *t, unsigned win, unsigned dreg, const tc_bw_cost *c),
         (t, win, dreg, c), ref_mma(win, dreg, c))
REPLAYED(d_zero, (bw_timeline *t, unsigned dreg, uint64_t cycles), (t, dreg, cycles),
         ref_d_zero(dreg, cycles))
REPLAYED(d_read, (bw_timeline *t, unsigned dreg, uint64_t cycles), (t, dreg, cycles),
         ref_d_read(dreg, cycles))

/* realloc fails while this is set (the gap lists are the only reallocs in the link) */
static int realloc_fails;
void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n) { return realloc_fails ? NULL : __real_realloc(p, n); }

/* ------------------------------------------------------------- random programs */

static uint64_t rng_next(uint64_t *s) /* xorshift64* */
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

static unsigned below(uint64_t *s, unsigned n) { return (unsigned)(rng_next(s) % n); }

/* Phases of a few hundred operations in which the MMAs read one window only and the
 * other is left alone, so that its next copy starts where its last reader ended, far
 * behind the ports' fronts; array-bound MMAs (many passes, few port cycles) leave the
 * idle cycles such a copy fills. */
static void random_program(uint64_t seed, unsigned ops)
{
    uint64_t s = seed;
    unsigned dregions = 1 + below(&s, 2);
    bw_timeline t;
    tc_bwt_init(&t, dregions);
    unsigned hot = 0; /* the window the MMAs read in this phase */
    uint64_t far = 0; /* the largest distance back a copy started from the smem front */
    for (unsigned i = 0; i < ops && !ref_broken; i++) {
        if (below(&s, 300) == 0)
            hot ^= 1u;
        unsigned w = below(&s, 10) ? hot : hot ^ 1u, r = below(&s, dregions);
        tc_status st = TC_OK;
        switch (below(&s, 6)) {
        case 0:
        case 1: {
            uint64_t start = umax(t.win_read[w], t.win_ready[w]);
            if (t.smem.frontier > start && t.smem.frontier - start > far)
                far = t.smem.frontier - start;
            st = tc_bwt_copy_rows(&t, w, below(&s, 9) ? below(&s, 130) : below(&s, 4000));
            break;
        }
        case 2:
            st = tc_bwt_shift(&t, w, below(&s, 4));
            break;
        case 3:
        case 4: {
            tc_bw_cost c;
            memset(&c, 0, sizeof c);
            c.array_passes = 1 + below(&s, below(&s, 4) ? 64 : 2000);
            c.smem_cycles = below(&s, 70);
            c.tmem_cycles = below(&s, 70);
            st = tc_bwt_mma(&t, w, r, &c);
            break;
        }
        default:
            st = below(&s, 2) ? tc_bwt_d_zero(&t, r, below(&s, 70))
                              : tc_bwt_d_read(&t, r, below(&s, 70));
            break;
        }
        CHECK(st == TC_OK, "seed %llu operation %u: %s", (unsigned long long)seed, i,
              tc_strerror(st));
    }
    /* the programs must reach back further than a window of a few thousand cycles */
    CHECK(far > 8192, "seed %llu: copies started at most %llu cycles behind the front",
          (unsigned long long)seed, (unsigned long long)far);
    tc_bwt_free(&t);
}

/* ------------------------------------------------------------- tc_conv's timeline */

static void conv_layer(unsigned banks, tc_conv_algo algo)
{
    /* docs/blackwell_mma.md's measured layer */
    const tc_conv_shape sh = {1, 56, 56, 64, 64, 3, 3, 1, 1, 1};
    size_t na = (size_t)56 * 56 * 64, nw = (size_t)64 * 3 * 3 * 64, no = (size_t)56 * 56 * 64;
    uint32_t *act = malloc(na * 4), *wgt = malloc(nw * 4), *out = malloc(no * 4);
    if (!act || !wgt || !out) {
        fprintf(stderr, "test_bw_timeline: out of memory\n");
        exit(1);
    }
    tc_random_fill(TC_FMT_FP16, 1, na, act);
    tc_random_fill(TC_FMT_FP16, 2, nw, wgt);
    tc_conv_args ca = bw_f16_conv(&sh, algo, banks);
    tc_conv_stats st;
    memset(&st, 0, sizeof st);
    tc_status s = tc_conv(&ca, act, wgt, out, &st);
    CHECK(s == TC_OK, "conv algo %d, %u banks: %s", (int)algo, banks, tc_strerror(s));
    CHECK(st.cycles == ref.end + 4 && ref_ops > 900,
          "conv algo %d, %u banks: %llu cycles, the reference %llu after %lu operations",
          (int)algo, banks, (unsigned long long)st.cycles, (unsigned long long)(ref.end + 4),
          ref_ops);
    printf("conv algo %d, %u banks: %llu cycles, %lu timed operations, at most %zu gaps kept\n",
           (int)algo, banks, (unsigned long long)st.cycles, ref_ops, most_gaps);
    free(act);
    free(wgt);
    free(out);
}

/* ------------------------------------------------------------- errors */

static void refusals(void)
{
    bw_timeline t;
    tc_bwt_init(&t, 1);
    tc_bw_cost c;
    memset(&c, 0, sizeof c);
    c.array_passes = 1;
    CHECK(tc_bwt_copy_rows(&t, 2, 1) == TC_EINVAL, "window 2 copied into");
    CHECK(tc_bwt_shift(&t, 2, 1) == TC_EINVAL, "window 2 shifted");
    CHECK(tc_bwt_mma(&t, 2, 0, &c) == TC_EINVAL, "window 2 read");
    CHECK(tc_bwt_mma(&t, 0, 1, &c) == TC_EINVAL, "D region 1 of 1 written");
    CHECK(tc_bwt_d_zero(&t, 1, 1) == TC_EINVAL, "D region 1 of 1 zeroed");
    CHECK(tc_bwt_d_read(&t, 1, 1) == TC_EINVAL, "D region 1 of 1 read");
    CHECK(t.end == 0 && t.array == 0, "a refused operation moved the timeline");
    /* still usable: window 1 and region 0 work */
    CHECK(tc_bwt_copy_rows(&t, 1, 8) == TC_OK && t.win_ready[1] == 2, "copy after refusals");
    tc_bwt_free(&t);

    /* the first gap needs the list: a copy that cannot start at the front leaves one */
    tc_bwt_init(&t, 1);
    realloc_fails = 1;
    CHECK(tc_bwt_mma(&t, 0, 0, &c) == TC_OK, "an MMA without gaps");
    c.array_passes = 100;
    CHECK(tc_bwt_mma(&t, 0, 0, &c) == TC_OK, "an MMA without port cycles");
    CHECK(tc_bwt_copy_rows(&t, 0, 4) == TC_ENOMEM, "a gap with no memory for it");
    realloc_fails = 0;
    tc_bwt_free(&t);
    tc_bwt_free(&t); /* twice is safe */
}

/* tc_conv passes the timeline's TC_ENOMEM on (Algorithm 3 leaves gaps at once) */
static void conv_enomem(void)
{
    const tc_conv_shape sh = {1, 9, 9, 16, 16, 3, 3, 1, 1, 1};
    uint32_t act[9 * 9 * 16], wgt[16 * 9 * 16], out[9 * 9 * 16];
    tc_random_fill(TC_FMT_FP16, 3, 9 * 9 * 16, act);
    tc_random_fill(TC_FMT_FP16, 4, 16 * 9 * 16, wgt);
    tc_conv_args ca = bw_f16_conv(&sh, TC_CONV_SHIFT, 8);
    memset(out, 0xa5, sizeof out);
    realloc_fails = 1;
    tc_status s = tc_conv(&ca, act, wgt, out, NULL);
    realloc_fails = 0;
    CHECK(s == TC_ENOMEM, "conv with no memory for gaps: %s", tc_strerror(s));
    CHECK(out[0] == 0xa5a5a5a5u && out[9 * 9 * 16 - 1] == 0xa5a5a5a5u, "out written on failure");
    CHECK(tc_conv(&ca, act, wgt, out, NULL) == TC_OK, "conv after the failure");
}

int main(void)
{
    refusals();
    conv_enomem();
    ref_on = 1;
    for (uint64_t seed = 1; seed <= 40; seed++)
        random_program(seed, 4000);
    printf("random programs: 40 of 4000 operations\n");
    static const unsigned banks[2] = {8, 4};
    for (unsigned b = 0; b < 2; b++)
        for (int algo = 2; algo <= 3; algo++)
            conv_layer(banks[b], (tc_conv_algo)algo);
    ref_free();
    printf("%s: %lu checks, %d failures\n", failures ? "FAIL" : "ok", checks, failures);
    return failures != 0;
}
