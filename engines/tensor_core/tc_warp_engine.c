/* tc_warp_engine.c - tc_warp_engine.h over the shim (tc_warp_dut.h). */
#include <stdlib.h>
#include <string.h>
#include "tc_warp_dut.h"
#include "tc_warp_engine.h"

struct tc_warp_engine {
    tcw *dut;
};

tc_status tc_warp_engine_open(const char *fst_path, tc_warp_engine **out)
{
    if (!out)
        return TC_EINVAL;
    tc_warp_engine *e = malloc(sizeof *e);
    if (!e)
        return TC_ENOMEM;
    e->dut = tcw_new(fst_path);
    if (!e->dut) {
        free(e);
        return fst_path ? TC_EIO : TC_ENOMEM;
    }
    *out = e;
    return TC_OK;
}

void tc_warp_engine_close(tc_warp_engine *e)
{
    if (e)
        tcw_free(e->dut);
    free(e);
}

uint64_t tc_warp_engine_cycles(const tc_warp_engine *e)
{
    return e ? tcw_cycles(e->dut) : 0;
}

unsigned tc_warp_engine_fedp_latency(void)
{
    return tcw_fedp_latency();
}

/* Element i of a 16-bit fragment sits in half i%2 of register i/2. */
static void pack16(const uint32_t frag[TC_WARP_LANES][TC_FRAG_MAX], unsigned n, unsigned reg,
                   uint32_t data[TCW_LANES])
{
    for (unsigned l = 0; l < TCW_LANES; l++)
        data[l] = 2 * reg < n ? (frag[l][2 * reg] | frag[l][2 * reg + 1] << 16) : 0;
}

/* pack16 undone, for the n elements a fragment has. */
static void unpack16(const uint32_t data[TCW_LANES], unsigned n, unsigned reg,
                     uint32_t frag[TC_WARP_LANES][TC_FRAG_MAX])
{
    for (unsigned l = 0; l < TCW_LANES && 2 * reg < n; l++) {
        frag[l][2 * reg] = data[l] & 0xffffu;
        frag[l][2 * reg + 1] = data[l] >> 16;
    }
}

static int fits(const uint32_t frag[TC_WARP_LANES][TC_FRAG_MAX], unsigned n, unsigned width)
{
    for (unsigned l = 0; l < TC_WARP_LANES; l++)
        for (unsigned i = 0; i < n; i++)
            if (width < 32 && frag[l][i] >> width)
                return 0;
    return 1;
}

tc_status tc_warp_engine_run(tc_warp_engine *e, const tc_hmma_cfg *cfg, tc_warp_frags *w,
                             tc_hmma_event *ev, size_t cap, size_t *n, uint64_t *done)
{
    unsigned sets, steps;
    tc_status st = tc_hmma_geometry(cfg, &sets, &steps, NULL);
    if (st != TC_OK)
        return st;
    if (!e || !w || !ev || !n || !done)
        return TC_EINVAL;
    unsigned total = sets * steps;
    if (cap < total)
        return TC_ESHAPE;
    int f16 = cfg->acc == TC_FMT_FP16;
    unsigned nab = 4 * sets; /* A and B elements per lane */
    if (!fits(w->a, nab, 16) || !fits(w->b, nab, 16) || !fits(w->c, 8, f16 ? 16 : 32))
        return TC_EFORMAT;

    uint32_t data[TCW_LANES];
    for (unsigned r = 0; r < TCW_REGS; r++) {
        pack16(w->a, nab, r, data);
        tcw_write(e->dut, TCW_OP_A, r, data);
        pack16(w->b, nab, r, data);
        tcw_write(e->dut, TCW_OP_B, r, data);
        if (f16) {
            pack16(w->c, 8, r, data);
        } else {
            for (unsigned l = 0; l < TCW_LANES; l++)
                data[l] = w->c[l][r];
        }
        tcw_write(e->dut, TCW_OP_C, r, data);
    }

    tcw_start(e->dut, f16, cfg->a_layout == TC_LAYOUT_COL, cfg->b_layout == TC_LAYOUT_COL,
              cfg->shape == TC_SHAPE_M8N8K4);
    tcw_out o;
    tcw_clock(e->dut, &o); /* the start cycle: the sequencer takes the instruction */
    unsigned dispatched = 0, beats = 0, prev_pending = 0;
    int finished = 0;
    for (uint64_t c = 0; c < 1000 && !finished; c++) {
        tcw_clock(e->dut, &o);
        /* a pair's bit falling: its last writer (the latest HMMA of that step) is done
         * (before this cycle's dispatch, which may take the pair again) */
        for (unsigned p = 0; p < 4; p++)
            if ((prev_pending >> p & 1u) && !(o.pending >> p & 1u))
                for (unsigned i = dispatched; i-- > 0;)
                    if (ev[i].step == p) {
                        ev[i].written = c;
                        break;
                    }
        prev_pending = o.pending;
        if (o.dispatch) {
            if (dispatched == total)
                return TC_EIO; /* more HMMAs than the instruction has */
            ev[dispatched].set = o.set;
            ev[dispatched].step = o.step;
            ev[dispatched].dispatch = c;
            dispatched++;
        }
        if (o.beat_first && beats < dispatched)
            ev[beats++].first_beat = c;
        if (o.done) {
            *done = c;
            finished = 1;
        }
    }
    if (!finished || dispatched != total || beats != total)
        return TC_EIO;

    tc_volta_timing t;
    tc_volta_timing_default(&t);
    for (unsigned i = 0; i < total; i++)
        ev[i].cumulative = t.issue_offset +
                           (i + 1 < total ? ev[i + 1].dispatch : *done) - ev[0].dispatch;
    *n = total;

    tc_warp_read_frags(e->dut, f16, nab, w);
    return TC_OK;
}

void tc_warp_read_frags(tcw *d, int f16, unsigned nab, tc_warp_frags *w)
{
    uint32_t data[TCW_LANES];
    for (unsigned r = 0; r < TCW_REGS; r++) {
        tcw_read(d, TCW_OP_C, r, data);
        if (f16) {
            unpack16(data, 8, r, w->c);
        } else {
            for (unsigned l = 0; l < TCW_LANES; l++)
                w->c[l][r] = data[l];
        }
        tcw_read(d, TCW_OP_A, r, data);
        unpack16(data, nab, r, w->a);
        tcw_read(d, TCW_OP_B, r, data);
        unpack16(data, nab, r, w->b);
    }
}
