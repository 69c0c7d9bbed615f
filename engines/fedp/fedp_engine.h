/* fedp_engine.h - FEDP steps through the Verilated RTL, as a tc_step_fn, for
 * `tcsim dot --engine rtl` and anything else that chains steps with tc_dot_engine.
 *
 *   const tc_profile *sp;  fedp_engine *e;
 *   tc_profile_step_of(p, &sp);  fedp_engine_open(sp, &e);
 *   tc_dot_engine(p, k, a, b, c, &d, fedp_engine_step, e);
 *   fedp_engine_close(e);
 */
#ifndef FEDP_ENGINE_H
#define FEDP_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include "tcsim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fedp_engine fedp_engine;

/* Opens the Verilated instance that implements step_profile (an FEDP profile).
 * TC_EUNSUPPORTED if no instance does, TC_EINVAL for NULL arguments, TC_ENOMEM. */
tc_status fedp_engine_open(const tc_profile *step_profile, fedp_engine **out);

/* One FEDP step (a tc_step_fn; ctx is the fedp_engine *): n <= L products of
 * patterns, a of step_profile->in and b of its in_b, c and *d of step_profile->out. The
 * profile must be one the engine's instance implements (TC_EUNSUPPORTED otherwise); TC_ESHAPE for n > L,
 * TC_EFORMAT for patterns wider than their format. */
tc_status fedp_engine_step(void *ctx, const tc_profile *step_profile, size_t n,
                           const uint32_t *a, const uint32_t *b, uint32_t c, uint32_t *d);

void fedp_engine_close(fedp_engine *e);

#ifdef __cplusplus
}
#endif
#endif
