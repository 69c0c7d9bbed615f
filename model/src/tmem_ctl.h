/* tmem_ctl.h - the control registers of the tensor memory, saved and restored around a
 * failed call (internal to the model, not installed; tmem.c implements it, bw_mma.c
 * uses it). */
#ifndef TCSIM_TMEM_CTL_H
#define TCSIM_TMEM_CTL_H

#include <stdint.h>
#include "tcsim_tmem.h"

/* tmem.c - the control registers of the tensor memory: what a request changes besides
 * the words. A caller that makes several requests and then fails (tc_bw_mma meets a bad
 * word after reading its operands) puts them back, so that the failed call changed
 * nothing: reads leave the words alone. */
typedef struct tmem_ctl {
    int busy;            /* in the second cycle of busy_port's request */
    unsigned busy_port;
    int a_rvalid, ls_rvalid;
    uint32_t a_rdata[TC_TMEM_WIDE_WORDS];
    uint32_t ls_rdata[TC_TMEM_QUARTER_WORDS];
    uint64_t cycles;
} tmem_ctl;
void tc_tmem_ctl_get(const tc_tmem *m, tmem_ctl *out);
void tc_tmem_ctl_set(tc_tmem *m, const tmem_ctl *ctl);

#endif
