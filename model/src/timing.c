/* timing.c - cycle-level timing of the Volta tensor-core pipeline (tcsim_tc.h).
 *
 * The pipeline is simulated one clock at a time with the registers rtl/tensor_core.sv
 * has: fetch stages, the beat counter that feeds the FEDPs, the FEDP and write-back
 * registers, a scoreboard bit per accumulator pair. No cycle count is written down
 * here: Figure 9's sequences come out of the stage counts in tc_volta_timing and the
 * set/step dependencies (step p of set s+1 reads the pair step p of set s writes).
 * This file does no arithmetic. */
#include <string.h>
#include "tcsim.h"
#include "timing_check.h"
#include "volta_hmma.h"

void tc_volta_timing_default(tc_volta_timing *t)
{
    if (!t)
        return;
    /* The register file is read in the dispatch cycle; the operands cross to the tensor
     * core and are written into the buffers two cycles later. */
    t->operand_fetch = 3;
    t->fedp_latency = TC_FEDP_LATENCY;
    t->f16_pack = 1;
    t->writeback = 2;
    t->fedps_per_tg = 4;
    /* Fitted on T(1) of Figure 9, where one value fits both modes (10 = 8 + 2 beats,
     * 12 = 8 + 4 beats); the seed gives no breakdown of it. */
    t->issue_offset = 8;
}

enum { MAX_STAGES = 64, MAX_HMMA = 16, MAX_PAIRS = 8 };

typedef struct slot {
    int id;       /* HMMA index, -1 for an empty stage */
    int last;     /* the HMMA's last beat (its write clears the scoreboard) */
} slot;

tc_status tc_volta_timing_check(const tc_volta_timing *t)
{
    /* Each stage count alone first, so that their sum cannot wrap; then the longest
     * pipe (fp16 accumulation, with the pack register) must fit the model's. */
    if (t->operand_fetch < 1 || t->operand_fetch > MAX_STAGES || t->writeback < 1 ||
        t->writeback > MAX_STAGES || t->fedp_latency < 1 || t->fedp_latency > MAX_STAGES ||
        t->f16_pack > MAX_STAGES || t->fedps_per_tg < 1 || t->fedps_per_tg > 32 ||
        t->fedp_latency + t->f16_pack + t->writeback - 1 > MAX_STAGES)
        return TC_EINVAL;
    return TC_OK;
}

unsigned tc_volta_step_beats(const tc_volta_timing *t, unsigned steps)
{
    /* A half's 4 x 8 accumulator, 1/steps of it per step, fedps_per_tg outputs a beat. */
    unsigned outputs = 32 / steps;
    return (outputs + t->fedps_per_tg - 1) / t->fedps_per_tg;
}

tc_status tc_volta_hmma_timing(const tc_volta_timing *t, const tc_hmma_cfg *cfg,
                               tc_hmma_event *ev, size_t cap, size_t *n, uint64_t *done)
{
    tc_volta_timing def;
    if (!t) {
        tc_volta_timing_default(&def);
        t = &def;
    }
    unsigned sets, steps;
    tc_status st = tc_hmma_geometry(cfg, &sets, &steps, NULL);
    if (st != TC_OK)
        return st;
    if (!ev || !n || !done)
        return TC_EINVAL;
    unsigned total = sets * steps;
    if (cap < total)
        return TC_ESHAPE;
    if (tc_volta_timing_check(t) != TC_OK)
        return TC_EINVAL;
    unsigned pack = cfg->acc == TC_FMT_FP16 ? t->f16_pack : 0;
    /* Stages behind the FEDP inputs: the FEDP's registers, the pack register, then the
     * result register; the last of them writes the register file at the end of its cycle. */
    unsigned depth = t->fedp_latency + pack + t->writeback - 1;
    unsigned beats = tc_volta_step_beats(t, steps);

    slot fetch[MAX_STAGES], pipe[MAX_STAGES];
    for (unsigned i = 0; i < MAX_STAGES; i++)
        fetch[i].id = pipe[i].id = -1;
    int pending[MAX_PAIRS] = {0};
    int beat_id = -1;          /* HMMA whose beats enter the FEDPs */
    unsigned beat_j = 0;
    unsigned busy = 0;         /* cycles until the FEDPs can take another HMMA's beats */
    unsigned next = 0, in_flight = 0;
    uint64_t last_write = 0;

    for (uint64_t c = 0; next < total || in_flight; c++) {
        if (c > 100000)
            return TC_EINVAL; /* a parameter set that never finishes */
        /* ---- this cycle, from the registers' values */
        int disp = -1;
        if (next < total && busy == 0 && !pending[next % steps])
            disp = (int)next;
        slot beat = {-1, 0};
        if (beat_id >= 0)
            beat = (slot){beat_id, beat_j + 1 == beats};
        slot wr = pipe[depth - 1];
        /* The HMMA in the last fetch stage: its buffers are written at this edge. */
        unsigned f = t->operand_fetch;
        slot fetched = f == 1 ? (slot){disp, 0} : fetch[f - 2];

        if (beat.id >= 0 && beat_j == 0)
            ev[beat.id].first_beat = c;

        /* ---- the clock edge at the end of the cycle */
        if (wr.id >= 0 && wr.last) {
            pending[wr.id % steps] = 0;
            ev[wr.id].written = c + 1;
            last_write = c + 1;
            in_flight--;
        }
        if (disp >= 0) {
            pending[disp % steps] = 1;
            ev[disp].set = (unsigned)disp / steps;
            ev[disp].step = (unsigned)disp % steps;
            ev[disp].dispatch = c;
            next++;
            in_flight++;
            busy = beats - 1;
        } else if (busy) {
            busy--;
        }
        memmove(&pipe[1], &pipe[0], (depth - 1) * sizeof pipe[0]);
        pipe[0] = beat;
        if (beat_id >= 0 && ++beat_j == beats)
            beat_id = -1;
        if (fetched.id >= 0) {
            if (beat_id >= 0)
                return TC_EINVAL; /* the dispatch rule keeps beats apart: cannot happen */
            beat_id = fetched.id;
            beat_j = 0;
        }
        if (f > 1) { /* fetch[k] holds the HMMA in fetch stage k+1 */
            memmove(&fetch[1], &fetch[0], (f - 2) * sizeof fetch[0]);
            fetch[0] = (slot){disp, 0};
        }
    }

    uint64_t d0 = ev[0].dispatch;
    for (unsigned i = 0; i < total; i++)
        ev[i].cumulative = t->issue_offset +
                           (i + 1 < total ? ev[i + 1].dispatch : last_write) - d0;
    *n = total;
    *done = last_write;
    return TC_OK;
}
