/* engine_registry.h - the Verilated engines behind `--engine rtl`, found by name.
 *
 * A program that can run a computation on the RTL (tcsim's dot, vectors, bench,
 * hmma-trace, mma, tmem-demo, conv) asks the registry for the engine by name and kind,
 * and gets the engine's operations on the model's own types, or NULL when this build has
 * no such engine. The program needs no header of an engine, and no #ifdef: a build
 * without the RTL links the same registry with an empty table (engine_table_none.c),
 * a build with it the table of engines/ (engine_table.c).
 *
 *   const engine_entry *e = engine_find("fedp", ENGINE_STEP);
 *   if (!e) ...                                    // built without the RTL: say so
 *   void *ctx;  e->ops.step->open(step_profile, &ctx);
 *   tc_dot_engine(p, k, a, b, c, &d, e->ops.step->step, ctx);
 *   e->ops.step->close(ctx);
 *
 * Each kind is what one family of commands needs; an engine is opaque (void *) to its
 * user, and every `close` takes NULL.
 */
#ifndef ENGINE_REGISTRY_H
#define ENGINE_REGISTRY_H

#include <stddef.h>
#include <stdint.h>
#include "tcsim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum engine_kind {
    ENGINE_STEP,   /* FEDP steps as a tc_step_fn (tc_dot_engine): "fedp" */
    ENGINE_WARP,   /* one Volta warp instruction with its trace: "tc_warp" */
    ENGINE_TMEM,   /* the tensor memory, one clock at a time: "tmem" */
    ENGINE_BW_MMA  /* tcgen05.mma as a tc_bw_mma_fn (tc_conv): "bw" */
} engine_kind;

/* FEDP steps (engines/fedp/fedp_engine.h). open: the Verilated instance that implements
 * step_profile, TC_EUNSUPPORTED if none does. */
typedef struct engine_step_ops {
    tc_status (*open)(const tc_profile *step_profile, void **engine);
    tc_step_fn step;
    void (*close)(void *engine);
} engine_step_ops;

/* One wmma.mma / mma.m8n8k4 on the warp top (engines/tensor_core/tc_warp_engine.h):
 * run as tc_warp_engine_run. */
typedef struct engine_warp_ops {
    tc_status (*open)(void **engine);
    tc_status (*run)(void *engine, const tc_hmma_cfg *cfg, tc_warp_frags *w,
                     tc_hmma_event *ev, size_t cap, size_t *n, uint64_t *done);
    void (*close)(void *engine);
} engine_warp_ops;

/* The tensor memory of `banks` (8 or 4) banks, reset (engines/tmem/tmem_dut.h): cycle
 * and peek as tmem_dut_cycle and tmem_dut_peek. open: NULL on failure. */
typedef struct engine_tmem_ops {
    void *(*open)(unsigned banks);
    void (*cycle)(void *engine, const tc_tmem_inputs *in, tc_tmem_outputs *out);
    int (*peek)(const void *engine, unsigned lane, unsigned col, uint32_t *out);
    void (*close)(void *engine);
} engine_tmem_ops;

/* tcgen05.mma on the Verilated unit (engines/blackwell/bw_engine.h): mma is a
 * tc_bw_mma_fn whose ctx is the engine; rtl_cycles the unit's own cycles in total. */
typedef struct engine_bw_ops {
    tc_status (*open)(void **engine);
    tc_bw_mma_fn mma;
    uint64_t (*rtl_cycles)(const void *engine);
    void (*close)(void *engine);
} engine_bw_ops;

typedef struct engine_entry {
    const char *name;
    engine_kind kind;
    union {   /* the member of `kind` */
        const engine_step_ops *step;
        const engine_warp_ops *warp;
        const engine_tmem_ops *tmem;
        const engine_bw_ops *bw;
    } ops;
} engine_entry;

/* The engine called `name` of kind `kind`, or NULL when this build has none. */
const engine_entry *engine_find(const char *name, engine_kind kind);

/* Every engine of this build (none without the RTL), for listings and tests. */
size_t engine_list(const engine_entry **list);

#ifdef __cplusplus
}
#endif
#endif
