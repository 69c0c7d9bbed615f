/* timing_check.h - the limits of timing parameters that come from a caller (internal to
 * the model, not installed): timing.c checks Volta's HMMA pipeline, gpu_timing.c a GPU's
 * timing.txt parameters; sim.c checks the configuration it is given. */
#ifndef TCSIM_TIMING_CHECK_H
#define TCSIM_TIMING_CHECK_H

#include "tcsim_tc.h"
#include "tcsim_timing.h"

/* timing.c - TC_OK if Volta's HMMA pipeline parameters are ones it can run (each stage
 * count within the model's 64 stages, and so is the longest pipe), else TC_EINVAL. */
tc_status tc_volta_timing_check(const tc_volta_timing *t);

/* gpu_timing.c - TC_OK if every field of g is within what timing.txt's parser accepts
 * (each key's maximum, no zero divisor, a known arch), else TC_EINVAL: parameters that
 * come from a caller rather than the parser (tc_sim_config.timing, tc_op_timing_of)
 * are held to the same limits, which keep every cycle count within its integer. */
tc_status tc_gpu_timing_check(const tc_gpu_timing *g);

#endif
