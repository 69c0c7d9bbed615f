/* bw_tmem_check.h - what the tcgen05.mma tests check after an instruction: every word of
 * tensor memory against the words expected, the first differences named. Included by
 * one test program each (after check.h, whose CHECK counts the failures). */
#ifndef TCSIM_TEST_BW_TMEM_CHECK_H
#define TCSIM_TEST_BW_TMEM_CHECK_H

#include <stdint.h>
#include "check.h"
#include "tcsim.h"

enum { BW_LANES = 128, BW_COLS = 512 }; /* the tensor memory of one CTA */

/* The words of t that differ from want; the first three reported with `what` (the case)
 * and the word that was there before the instruction. */
static inline unsigned bw_tmem_differ(const tc_tmem *t, uint32_t want[BW_LANES][BW_COLS],
                                      uint32_t before[BW_LANES][BW_COLS], const char *what)
{
    unsigned bad = 0;
    for (unsigned l = 0; l < BW_LANES; l++)
        for (unsigned c = 0; c < BW_COLS; c++) {
            uint32_t got;
            tc_tmem_peek(t, l, c, &got);
            if (got != want[l][c] && bad++ < 3)
                CHECK(0, "%s: lane %u col %u: %08x, wanted %08x (was %08x)", what, l, c, got,
                      want[l][c], before[l][c]);
        }
    return bad;
}

#endif
