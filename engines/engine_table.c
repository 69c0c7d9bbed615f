/* engine_table.c - the registry of a build with the RTL: the four Verilated engines of
 * engines/, each adapted to its kind's operations (engine_registry.h).
 *
 * The adapters only convert the engines' typed handles to and from void *: they call
 * the engines' own functions, defined in other files, so that a test can still wrap
 * those by name (cli/test/engine_fault_shim.c, -Wl,--wrap=fedp_engine_step). */
#include "bw_engine.h"
#include "engine_registry.h"
#include "fedp_engine.h"
#include "tc_warp_engine.h"
#include "tmem_dut.h"

/* ------------------------------------------------------------------ fedp */

static tc_status fedp_open(const tc_profile *step_profile, void **engine)
{
    fedp_engine *e = NULL;
    tc_status st = fedp_engine_open(step_profile, &e);
    *engine = e;
    return st;
}

static void fedp_close(void *engine)
{
    fedp_engine_close(engine);
}

static const engine_step_ops fedp_ops = {fedp_open, fedp_engine_step, fedp_close};

/* ------------------------------------------------------------------ tc_warp */

static tc_status warp_open(void **engine)
{
    tc_warp_engine *e = NULL;
    tc_status st = tc_warp_engine_open(NULL, &e);
    *engine = e;
    return st;
}

static tc_status warp_run(void *engine, const tc_hmma_cfg *cfg, tc_warp_frags *w,
                          tc_hmma_event *ev, size_t cap, size_t *n, uint64_t *done)
{
    return tc_warp_engine_run(engine, cfg, w, ev, cap, n, done);
}

static void warp_close(void *engine)
{
    tc_warp_engine_close(engine);
}

static const engine_warp_ops warp_ops = {warp_open, warp_run, warp_close};

/* ------------------------------------------------------------------ tmem */

static void *tmem_open(unsigned banks)
{
    return tmem_dut_new(banks, NULL);
}

static void tmem_cycle(void *engine, const tc_tmem_inputs *in, tc_tmem_outputs *out)
{
    tmem_dut_cycle(engine, in, out);
}

static int tmem_peek(const void *engine, unsigned lane, unsigned col, uint32_t *out)
{
    return tmem_dut_peek(engine, lane, col, out);
}

static void tmem_close(void *engine)
{
    tmem_dut_free(engine);
}

static const engine_tmem_ops tmem_ops = {tmem_open, tmem_cycle, tmem_peek, tmem_close};

/* ------------------------------------------------------------------ bw */

static tc_status bw_open(void **engine)
{
    bw_engine *e = NULL;
    tc_status st = bw_engine_new(&e);
    *engine = e;
    return st;
}

static uint64_t bw_rtl_cycles(const void *engine)
{
    return bw_engine_rtl_cycles(engine);
}

static void bw_close(void *engine)
{
    bw_engine_free(engine);
}

static const engine_bw_ops bw_ops = {bw_open, bw_engine_mma, bw_rtl_cycles, bw_close};

/* ------------------------------------------------------------------ the table */

static const engine_entry table[] = {
    {"fedp", ENGINE_STEP, {.step = &fedp_ops}},
    {"tc_warp", ENGINE_WARP, {.warp = &warp_ops}},
    {"tmem", ENGINE_TMEM, {.tmem = &tmem_ops}},
    {"bw", ENGINE_BW_MMA, {.bw = &bw_ops}},
};

size_t engine_list(const engine_entry **list)
{
    *list = table;
    return sizeof table / sizeof table[0];
}
