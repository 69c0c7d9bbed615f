/* tc_warp_tb.c - the Verilated warp top (rtl/tc_warp.sv, two rtl/tensor_core.sv) against
 * the model, bit for bit and cycle for cycle.
 *
 * For every configuration (m16n16k16 and m8n8k4, mixed and FP16 mode, A and B row or
 * column-major): directed operands, then random ones (tame values, then every class).
 * Each instruction:
 *   - D from the RTL == D from the model's HMMA sets and steps (tc_hmma_run), lane by
 *     lane, and the model's D == an element-wise chain of tc_dot in k order;
 *   - the RTL's trace (per HMMA: set, step, dispatch cycle, first beat, accumulator
 *     written; the cycle D is readable) == the model's timing (tc_volta_hmma_timing);
 * and the RTL's wmma.mma cycles are Figure 9 of seed 001 (both modes), with the
 * Verilated fedp's LATENCY equal to the model's TC_FEDP_LATENCY. Directed runs on DUTs of
 * their own: writes and starts while busy (check_writes_while_busy), a start in the first
 * cycle after reset and the idle warp after done (check_start_after_reset).
 *
 * usage: tc_warp_tb [--seed N] [--count N] [--fst FILE]
 *   --count: random instructions per configuration (default 8);
 *   --fst:   write one wmma.mma (mixed precision, A row-major, B column-major) as an FST
 *            waveform to FILE and check it, instead of the rest.
 * Prints PASSED or FAILED; exit status 0 only when everything matched.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tc_warp_dut.h"
#include "tc_warp_engine.h"
#include "test_args.h"
#include "scoreboard.h"
#include "test_random.h"   /* testkit: the stream the model's tests use */

static tk_score score = {.print_max = 20}; /* testkit scoreboard: mismatches by bucket */
static unsigned long seed = 1;

#define FAIL(bucket, ...) tk_fail(&score, (bucket), __VA_ARGS__)

static const char *cfg_name(const tc_hmma_cfg *c, char *buf, size_t n)
{
    snprintf(buf, n, "%s acc %s A %s B %s", tc_shape_name(c->shape), tc_fmt_get(c->acc)->name,
             tc_layout_name(c->a_layout), tc_layout_name(c->b_layout));
    return buf;
}

/* One instruction on the RTL and the model; returns 0 if everything matched. */
static int check_one(tc_warp_engine *e, const tc_hmma_cfg *cfg, const uint32_t *A,
                     const uint32_t *B, const uint32_t *C, const char *what)
{
    char nm[96];
    cfg_name(cfg, nm, sizeof nm);
    uint64_t before = tk_score_total(&score);
    tc_warp_frags rtl, model;
    tc_frag_spec sa = {TC_ARCH_VOLTA, cfg->shape, TC_OPERAND_A, cfg->a_layout, cfg->acc};
    tc_frag_spec sb = {TC_ARCH_VOLTA, cfg->shape, TC_OPERAND_B, cfg->b_layout, cfg->acc};
    tc_frag_spec sc = {TC_ARCH_VOLTA, cfg->shape, TC_OPERAND_C, TC_LAYOUT_ROW, cfg->acc};
    memset(&model, 0, sizeof model);
    tc_frag_load(&sa, A, model.a);
    tc_frag_load(&sb, B, model.b);
    tc_frag_load(&sc, C, model.c);
    rtl = model;

    tc_hmma_event er[16], em[16];
    size_t nr = 0, nm_ = 0;
    uint64_t dr = 0, dm = 0;
    tc_status st = tc_warp_engine_run(e, cfg, &rtl, er, 16, &nr, &dr);
    if (st != TC_OK) {
        FAIL(TK_B_CHECK, "%s, %s: RTL run: %s", nm, what, tc_strerror(st));
        return -1;
    }
    if ((st = tc_hmma_run(cfg, &model, NULL, NULL)) != TC_OK ||
        (st = tc_volta_hmma_timing(NULL, cfg, em, 16, &nm_, &dm)) != TC_OK) {
        FAIL(TK_B_CHECK, "%s, %s: model: %s", nm, what, tc_strerror(st));
        return -1;
    }

    /* D, lane by lane; A and B as the RTL's registers hold them after the instruction */
    for (unsigned l = 0; l < TC_WARP_LANES; l++)
        for (unsigned i = 0; i < 8; i++)
            if (rtl.c[l][i] != model.c[l][i])
                FAIL(tk_bucket_of(cfg->acc, model.c[l][i]),
                     "%s, %s: lane %u D element %u: RTL %08x, model %08x", nm, what, l, i,
                     rtl.c[l][i], model.c[l][i]);
    for (unsigned l = 0; l < TC_WARP_LANES; l++)
        for (unsigned i = 0; i < TC_FRAG_MAX; i++)
            if (rtl.a[l][i] != model.a[l][i] || rtl.b[l][i] != model.b[l][i])
                FAIL(TK_B_WORD,
                     "%s, %s: lane %u A/B element %u changed: RTL %04x/%04x, loaded %04x/%04x", nm,
                     what, l, i, rtl.a[l][i], rtl.b[l][i], model.a[l][i], model.b[l][i]);
    /* the model's D against the tc_dot chain */
    unsigned M, N, K, T;
    tc_shape_dims(cfg->shape, &M, &N, &K, &T);
    uint32_t D[4 * 256];
    tc_frag_store(&sc, rtl.c, D);
    const tc_profile *p;
    if (tc_profile_find(TC_ARCH_VOLTA, TC_INSTR_MMA, TC_FMT_FP16, cfg->acc, &p) != TC_OK) {
        FAIL(TK_B_CHECK, "%s, %s: no volta profile", nm, what);
        return -1;
    }
    for (unsigned t = 0; t < T; t++)
        for (unsigned i = 0; i < M; i++)
            for (unsigned j = 0; j < N; j++) {
                uint32_t d = tile_dot_ref(p, M, N, K, A, B, C, t, i, j);
                if (d != D[(t * M + i) * N + j])
                    FAIL(tk_bucket_of(p->out, d),
                         "%s, %s: tile %u D(%u,%u) RTL %08x, tc_dot chain %08x", nm, what, t, i, j,
                         D[(t * M + i) * N + j], d);
            }
    /* the trace, cycle for cycle */
    if (nr != nm_ || dr != dm)
        FAIL(TK_B_TIMING, "%s, %s: RTL %zu HMMAs done at %llu, model %zu at %llu", nm, what, nr,
             (unsigned long long)dr, nm_, (unsigned long long)dm);
    for (size_t i = 0; i < nr && i < nm_; i++)
        if (er[i].set != em[i].set || er[i].step != em[i].step ||
            er[i].dispatch != em[i].dispatch || er[i].first_beat != em[i].first_beat ||
            er[i].written != em[i].written || er[i].cumulative != em[i].cumulative)
            FAIL(TK_B_TIMING,
                 "%s, %s: HMMA %zu: RTL set %u step %u dispatch %llu beat %llu written %llu "
                 "T %llu; model %u %u %llu %llu %llu %llu",
                 nm, what, i, er[i].set, er[i].step, (unsigned long long)er[i].dispatch,
                 (unsigned long long)er[i].first_beat, (unsigned long long)er[i].written,
                 (unsigned long long)er[i].cumulative, em[i].set, em[i].step,
                 (unsigned long long)em[i].dispatch, (unsigned long long)em[i].first_beat,
                 (unsigned long long)em[i].written, (unsigned long long)em[i].cumulative);
    return tk_score_total(&score) != before;
}

/* Seed 001 Figure 9a (mixed precision) and 9b (FP16): cumulative cycles per HMMA. */
static const unsigned fig9a[16] = {10, 12, 14, 18, 20, 22, 24, 28, 30, 32, 34, 38, 40, 42, 44, 54};
static const unsigned fig9b[8] = {12, 21, 25, 34, 38, 47, 51, 64};

static void check_figure9(tc_warp_engine *e)
{
    for (int f16 = 0; f16 < 2; f16++) {
        tc_hmma_cfg cfg = {TC_SHAPE_M16N16K16, TC_LAYOUT_ROW, TC_LAYOUT_COL,
                           f16 ? TC_FMT_FP16 : TC_FMT_FP32};
        tc_warp_frags w;
        memset(&w, 0, sizeof w);
        tc_hmma_event ev[16];
        size_t n = 0;
        uint64_t done;
        if (tc_warp_engine_run(e, &cfg, &w, ev, 16, &n, &done) != TC_OK) {
            FAIL(TK_B_CHECK, "Figure 9 run failed");
            continue;
        }
        const unsigned *fig = f16 ? fig9b : fig9a;
        printf("RTL Figure 9%c:", f16 ? 'b' : 'a');
        for (size_t i = 0; i < n; i++) {
            printf(" %llu", (unsigned long long)ev[i].cumulative);
            if (ev[i].cumulative != fig[i])
                FAIL(TK_B_TIMING, "Figure 9%c HMMA %zu (SET%u STEP%u): RTL %llu, seed %u",
                     f16 ? 'b' : 'a', i, ev[i].set + 1, ev[i].step,
                     (unsigned long long)ev[i].cumulative, fig[i]);
        }
        printf("\n");
        if (n != (f16 ? 8u : 16u))
            FAIL(TK_B_TIMING, "Figure 9: %zu HMMAs", n);
    }
}

static void fill_random(uint32_t *A, uint32_t *B, uint32_t *C, tc_fmt acc, int wild)
{
    for (unsigned i = 0; i < 1024; i++) {
        A[i] = rnd_fp16(wild);
        B[i] = rnd_fp16(wild);
        C[i] = rnd_acc(acc, wild);
    }
}

static void run_config(tc_warp_engine *e, const tc_hmma_cfg *cfg, unsigned count)
{
    uint32_t A[1024], B[1024], C[1024];
    int f16 = cfg->acc == TC_FMT_FP16;
    for (unsigned i = 0; i < 1024; i++) {
        A[i] = 0;
        B[i] = 0x3c00;
        C[i] = f16 ? 0x8000u : 0x80000000u;
    }
    check_one(e, cfg, A, B, C, "zeros, C = -0");
    for (unsigned i = 0; i < 1024; i++) {
        A[i] = i % 3 ? 0x3c00 : 0xbc00;
        C[i] = f16 ? 0x3c00 : 0x3f800000;
    }
    A[5] = 0x7c00;
    B[17] = 0;
    check_one(e, cfg, A, B, C, "+-1 sums, one Inf * 0");
    for (unsigned i = 0; i < 1024; i++) {
        A[i] = 0x7bff;
        B[i] = i % 2 ? 0x7bff : 0x5800;
    }
    check_one(e, cfg, A, B, C, "huge products");
    for (unsigned i = 0; i < 1024; i++) {
        A[i] = 0x0001 + i % 7;
        B[i] = i % 5 ? 0x0200 : 0x8400;
        C[i] = f16 ? 0x0003 : 0x00000100;
    }
    check_one(e, cfg, A, B, C, "subnormal products");
    /* distinct values everywhere: a misplaced element shows */
    for (unsigned i = 0; i < 1024; i++) {
        A[i] = 0x3c00 + (i % 256);
        B[i] = 0x3800 + ((i * 7) % 256);
        C[i] = f16 ? 0x4000u + i % 512 : 0x40000000u + i * 4099u;
    }
    check_one(e, cfg, A, B, C, "distinct values");
    for (unsigned r = 0; r < count; r++) {
        fill_random(A, B, C, cfg->acc, r % 4 == 3);
        check_one(e, cfg, A, B, C, r % 4 == 3 ? "random (every class)" : "random");
    }
}

/* Loads m into the DUT's registers (two fp16 a register; fp32 C one a lane), starts a
 * mixed-precision wmma.mma (A row-, B column-major) and clocks until done. In each of
 * the first `junk_clocks` clocks after the start cycle it writes `junk` to a register
 * instead (a write is a clock; operand and register rotate), or with `restart` raises
 * start_i again in them. With junk_clocks and no restart it also writes `junk` to every
 * register of operand 3 before the start. Returns the clocks after the start cycle up
 * to and including the one with done, 0 if done never came. */
static unsigned load_and_run(tcw *d, const tc_warp_frags *m, const uint32_t *junk,
                             unsigned junk_clocks, int restart)
{
    uint32_t data[TCW_LANES];
    for (unsigned r = 0; r < TCW_REGS; r++) {
        for (unsigned l = 0; l < TCW_LANES; l++)
            data[l] = m->a[l][2 * r] | m->a[l][2 * r + 1] << 16;
        tcw_write(d, TCW_OP_A, r, data);
        for (unsigned l = 0; l < TCW_LANES; l++)
            data[l] = m->b[l][2 * r] | m->b[l][2 * r + 1] << 16;
        tcw_write(d, TCW_OP_B, r, data);
        for (unsigned l = 0; l < TCW_LANES; l++)
            data[l] = m->c[l][r];
        tcw_write(d, TCW_OP_C, r, data);
    }
    /* Operand 3 names no register file (tc_warp.sv: it writes nothing): junk written to
     * it while idle must not reach A, B or C, which the caller compares afterwards. */
    for (unsigned r = 0; junk_clocks && !restart && r < TCW_REGS; r++)
        tcw_write(d, TCW_OP_NONE, r, junk);
    tcw_start(d, 0, 0, 1, 0);
    tcw_out o;
    tcw_clock(d, &o);
    for (unsigned c = 0; c < 1000; c++) {
        if (c < junk_clocks && !restart) {
            tcw_write(d, c % 3, (c / 3) % TCW_REGS, junk);
            continue;
        }
        if (c < junk_clocks)
            tcw_start(d, 1, 1, 0, 1); /* another mode and shape: a taken start shows */
        tcw_clock(d, &o);
        if (o.done)
            return c + 1;
    }
    return 0;
}

/* The fragment registers take writes only while the warp is idle (rtl/tc_warp.sv): a
 * write during an instruction must change neither its D nor A and B. The engine loads
 * registers only while idle, so this drives the DUT itself: one wmma.mma run clean to
 * learn its length N, then again with a garbage write to A, B or C in every clock but
 * the last (done must come at the same clock); D against the model's tc_hmma_run, A and
 * B as loaded. Writes late in the run land after an accumulator's last write-back, where
 * a taken write would stay. Dropping the busy guard from the write enables passed every
 * other test (mutation testing). */
static void check_writes_while_busy(void)
{
    tc_hmma_cfg cfg = {TC_SHAPE_M16N16K16, TC_LAYOUT_ROW, TC_LAYOUT_COL, TC_FMT_FP32};
    uint32_t A[1024], B[1024], C[1024];
    fill_random(A, B, C, cfg.acc, 0);
    tc_frag_spec sa = {TC_ARCH_VOLTA, cfg.shape, TC_OPERAND_A, cfg.a_layout, cfg.acc};
    tc_frag_spec sb = {TC_ARCH_VOLTA, cfg.shape, TC_OPERAND_B, cfg.b_layout, cfg.acc};
    tc_frag_spec sc = {TC_ARCH_VOLTA, cfg.shape, TC_OPERAND_C, TC_LAYOUT_ROW, cfg.acc};
    static tc_warp_frags model, loaded;
    memset(&model, 0, sizeof model);
    if (tc_frag_load(&sa, A, model.a) != TC_OK || tc_frag_load(&sb, B, model.b) != TC_OK ||
        tc_frag_load(&sc, C, model.c) != TC_OK) {
        FAIL(TK_B_CHECK, "writes while busy: fragments do not load");
        return;
    }
    loaded = model;
    tcw *d = tcw_new(NULL);
    if (!d) {
        FAIL(TK_B_CHECK, "writes while busy: cannot open the Verilated warp top");
        return;
    }
    uint32_t junk[TCW_LANES], data[TCW_LANES];
    for (unsigned l = 0; l < TCW_LANES; l++)
        junk[l] = 0x7c007c00u ^ (l * 0x01010101u); /* Inf and friends: D would show them */
    unsigned n = load_and_run(d, &loaded, junk, 0, 0);
    unsigned n_junk = n ? load_and_run(d, &loaded, junk, n - 1, 0) : 0;
    if (!n || n_junk != n)
        FAIL(TK_B_TIMING, "writes while busy: done after %u clocks clean, %u with writes", n,
             n_junk);
    if (tc_hmma_run(&cfg, &model, NULL, NULL) != TC_OK)
        FAIL(TK_B_CHECK, "writes while busy: the model's run failed");
    for (int restart = 0; restart < 2; restart++) {
        /* start_i is for an idle warp; one raised in every clock of a run (FP16, m8n8k4)
         * must leave the instruction as it is. Restarting the sequencer on it passed every
         * other test (mutation testing): the engine never starts a busy warp. */
        if (restart && n) {
            unsigned n_start = load_and_run(d, &loaded, junk, n - 1, 1);
            if (n_start != n)
                FAIL(TK_B_TIMING,
                     "start while busy: done after %u clocks clean, %u with a start in every "
                     "clock",
                     n, n_start);
        }
        unsigned bad = 0;
        for (unsigned r = 0; r < TCW_REGS; r++) {
            tcw_read(d, TCW_OP_C, r, data);
            for (unsigned l = 0; l < TCW_LANES; l++)
                bad += data[l] != model.c[l][r];
            tcw_read(d, TCW_OP_A, r, data);
            for (unsigned l = 0; l < TCW_LANES; l++)
                bad += data[l] != (loaded.a[l][2 * r] | loaded.a[l][2 * r + 1] << 16);
            tcw_read(d, TCW_OP_B, r, data);
            for (unsigned l = 0; l < TCW_LANES; l++)
                bad += data[l] != (loaded.b[l][2 * r] | loaded.b[l][2 * r + 1] << 16);
        }
        if (bad)
            FAIL(TK_B_WORD,
                 "%s while busy: %u of %u register words differ from the model's D and the "
                 "loaded A, B",
                 restart ? "start" : "writes", bad, 3 * TCW_REGS * TCW_LANES);
    }
    tcw_free(d);
}

/* The sequencer's state after reset and around done, which the engine never exercises: it
 * loads 24 registers (24 clocks) before each start and stops clocking at done.
 *   - start in the first cycle after reset, on the registers as reset left them (the shim
 *     randomizes state, so they hold arbitrary bit patterns): the trace (set, step, dispatch
 *     cycle of each HMMA, the done cycle) equals the model's tc_volta_hmma_timing, and D
 *     the model's tc_hmma_run on those registers. Dropping the reset of wait_q (cycles
 *     until the FEDPs take another HMMA) passed every other test (mutation testing): its
 *     random value delayed only a start within three cycles of reset.
 *   - busy_o from the first cycle after the start cycle up to done; done_o one cycle (the
 *     header: "one cycle: the first in which D is readable"), then an idle warp: no busy,
 *     done, dispatch, beat or pending bit, D unchanged, and a register write in the first
 *     cycle after done is taken (the port takes writes while idle).
 *   - FP16 mode keeps C/D in registers 0..3: registers 4..7 stay as they were (the engine
 *     never reads them back in FP16 mode). */
static void check_start_after_reset(void)
{
    uint64_t before = tk_score_total(&score);
    /* Each new DUT draws its reset state further along Verilator's random stream (one per
     * process, seeded the same way each run): eight draws make a missing reset show
     * whatever the first draw held, the same way on every run. The reset is the shortest
     * the RTL takes, one rising edge: with three, a register without its reset but
     * loaded from reset ones (the crossbar's xb_valid_q from the collector's valid) was
     * cleared by the second edge all the same, and its missing reset passed (mutation
     * T07). */
    for (int rep = 0; rep < 8; rep++) {
        int f16 = rep & 1;
        tc_hmma_cfg cfg = {TC_SHAPE_M16N16K16, TC_LAYOUT_ROW, TC_LAYOUT_COL,
                           f16 ? TC_FMT_FP16 : TC_FMT_FP32};
        const char *mode = f16 ? "FP16" : "mixed";
        tcw *d = tcw_new_reset(NULL, 1);
        if (!d) {
            FAIL(TK_B_CHECK, "start after reset: cannot open the Verilated warp top");
            return;
        }
        static tc_warp_frags model;
        uint32_t data[TCW_LANES], high[TCW_REGS][TCW_LANES];
        memset(&model, 0, sizeof model);
        tc_warp_read_frags(d, f16, 16, &model); /* reads are combinational: no clock */
        for (unsigned r = 0; r < TCW_REGS; r++)
            tcw_read(d, TCW_OP_C, r, high[r]);
        tc_hmma_event em[16];
        size_t nm = 0;
        uint64_t dm = 0;
        if (tc_volta_hmma_timing(NULL, &cfg, em, 16, &nm, &dm) != TC_OK ||
            tc_hmma_run(&cfg, &model, NULL, NULL) != TC_OK) {
            FAIL(TK_B_CHECK, "start after reset (%s): the model failed", mode);
            tcw_free(d);
            return;
        }

        tcw_start(d, f16, 0, 1, 0);
        tcw_out o;
        tcw_clock(d, &o); /* the start cycle */
        size_t nd = 0;
        uint64_t done = 0;
        int finished = 0;
        for (uint64_t c = 0; c < 1000 && !finished; c++) {
            tcw_clock(d, &o);
            if (!o.busy)
                FAIL(TK_B_TIMING, "start after reset (%s): busy_o low in cycle %llu, before done",
                     mode, (unsigned long long)c);
            if (o.dispatch) {
                if (nd >= nm || o.set != em[nd].set || o.step != em[nd].step ||
                    c != em[nd].dispatch)
                    FAIL(TK_B_TIMING,
                         "start after reset (%s): HMMA %zu: RTL set %u step %u dispatch %llu; "
                         "model %u %u %llu",
                         mode, nd, o.set, o.step, (unsigned long long)c, nd < nm ? em[nd].set : 0u,
                         nd < nm ? em[nd].step : 0u,
                         nd < nm ? (unsigned long long)em[nd].dispatch : 0ull);
                nd++;
            }
            if (o.done) {
                done = c;
                finished = 1;
            }
        }
        if (!finished || nd != nm || done != dm)
            FAIL(TK_B_TIMING,
                 "start after reset (%s): %zu HMMAs, done %s at %llu; model %zu at %llu", mode, nd,
                 finished ? "" : "never", (unsigned long long)done, nm, (unsigned long long)dm);
        for (unsigned c = 0; c < 8; c++) {
            tcw_clock(d, &o);
            if (o.busy || o.done || o.dispatch || o.beat_first || o.pending)
                FAIL(TK_B_TIMING,
                     "start after reset (%s): %u cycles after done: busy %d done %d dispatch %d "
                     "beat %d pending %x (an idle warp shows none)",
                     mode, c + 1, o.busy, o.done, o.dispatch, o.beat_first, o.pending);
        }
        unsigned bad = 0;
        for (unsigned r = 0; r < TCW_REGS; r++) {
            tcw_read(d, TCW_OP_C, r, data);
            for (unsigned l = 0; l < TCW_LANES; l++) {
                uint32_t want = !f16   ? model.c[l][r]
                                : r < 4 ? (model.c[l][2 * r] | model.c[l][2 * r + 1] << 16)
                                        : high[r][l];
                bad += data[l] != want;
            }
        }
        if (bad)
            FAIL(TK_B_WORD,
                 "start after reset (%s): %u of %u C/D register words differ from the model's "
                 "D (FP16: registers 4..7 from their contents before the run)",
                 mode, bad, TCW_REGS * TCW_LANES);
        tcw_free(d);
        if (tk_score_total(&score) != before)
            return; /* one report is enough */
    }

    /* A write in the first clock after done is taken: the warp is idle from there on. */
    tcw *d = tcw_new(NULL);
    if (!d) {
        FAIL(TK_B_CHECK, "write after done: cannot open the Verilated warp top");
        return;
    }
    tcw_start(d, 0, 0, 1, 1); /* mixed-precision mma.m8n8k4 */
    tcw_out o;
    tcw_clock(d, &o);
    unsigned c = 0;
    for (o.done = 0; !o.done && c < 1000; c++)
        tcw_clock(d, &o);
    uint32_t pat[TCW_LANES], data[TCW_LANES];
    for (unsigned l = 0; l < TCW_LANES; l++)
        pat[l] = 0x12345678u ^ l;
    tcw_write(d, TCW_OP_A, 3, pat);
    tcw_read(d, TCW_OP_A, 3, data);
    if (c >= 1000 || memcmp(pat, data, sizeof pat))
        FAIL(TK_B_TIMING, "write after done: %s",
             c >= 1000 ? "done never came" : "a write in the clock after done was lost");
    tcw_free(d);
}

int main(int argc, char **argv)
{
    uint64_t seed64 = 1, count = 8;
    const char *fst = NULL;
    const test_opt opts[] = {{"--seed", &seed64, ULONG_MAX, NULL, NULL},
                             {"--count", &count, UINT_MAX, NULL, NULL},
                             {"--fst", NULL, 0, &fst, NULL},
                             {NULL, NULL, 0, NULL, NULL}};
    int parsed = test_parse_opts("tc_warp_tb", argc, argv, opts,
                                 "usage: tc_warp_tb [--seed N] [--count N] [--fst FILE]\n");
    if (parsed != TEST_RUN)
        return parsed;
    seed = (unsigned long)seed64;
    rng = 0x9e3779b97f4a7c15u ^ (seed * 0xbf58476d1ce4e5b9u);
    if (!rng)
        rng = 1;

    if (tc_warp_engine_fedp_latency() != TC_FEDP_LATENCY)
        FAIL(TK_B_CHECK, "rtl/fedp.sv LATENCY %u, model TC_FEDP_LATENCY %u",
             tc_warp_engine_fedp_latency(), TC_FEDP_LATENCY);

    /* Before the engine's model exists: Verilator 5.006 deadlocks freeing one of two
     * live models (VerilatedContextImp::scopeErase), so they never overlap. */
    if (!fst) {
        check_writes_while_busy();
        check_start_after_reset();
    }

    tc_warp_engine *e;
    tc_status st = tc_warp_engine_open(fst, &e);
    if (st != TC_OK) {
        printf("FAILED: cannot open the Verilated warp top: %s\n", tc_strerror(st));
        return 1;
    }
    if (fst) {
        /* one wmma.mma, mixed precision: the waveform of sim/waves/tensor_core.gtkw */
        tc_hmma_cfg cfg = {TC_SHAPE_M16N16K16, TC_LAYOUT_ROW, TC_LAYOUT_COL, TC_FMT_FP32};
        uint32_t A[1024], B[1024], C[1024];
        fill_random(A, B, C, cfg.acc, 0);
        check_one(e, &cfg, A, B, C, "traced");
        tc_warp_engine_close(e);
        FILE *f = fopen(fst, "rb");
        long size = 0;
        if (f) {
            fseek(f, 0, SEEK_END);
            size = ftell(f);
            fclose(f);
        }
        if (size < 1000)
            FAIL(TK_B_CHECK, "the waveform %s has %ld bytes", fst, size);
        printf("one wmma.mma traced to %s (%ld bytes)\n", fst, size);
        tk_score_print(&score);
        return tk_verdict(tk_score_total(&score));
    }

    check_figure9(e);
    unsigned configs = 0;
    for (unsigned ci = 0; ci < TK_HMMA_CFGS; ci++) {
        tc_hmma_cfg cfg = tk_hmma_cfg(ci);
        run_config(e, &cfg, (unsigned)count);
        configs++;
    }
    uint64_t cycles = tc_warp_engine_cycles(e);
    tc_warp_engine_close(e);
    printf("%u configurations x (5 directed + %u random) instructions, %llu cycles, seed %lu\n",
           configs, (unsigned)count, (unsigned long long)cycles, seed);
    tk_score_print(&score);
    return tk_verdict(tk_score_total(&score));
}
