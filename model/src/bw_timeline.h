/* bw_timeline.h - the cycle accounting of a sequence of Blackwell tensor-core operations
 * (internal to the model; bw_timing.c implements it, conv.c uses it).
 *
 * Three resources: the FEDP array, which runs the MMAs one after the other in program
 * order; the shared-memory port (row copies into tensor memory, the MMAs' B rows) and
 * the tensor-memory port (shift, D zeroing and read-out, the MMAs' A/C/D requests),
 * which serve one operation-cycle per cycle each: an operation takes the earliest idle
 * cycles of its port from its earliest start on, however far back they lie (an
 * operation issued later may fill the idle cycles that an earlier one left, as copy
 * engines running beside the MMA do). A port keeps its idle cycles as gaps before a
 * frontier; a gap is forgotten only when no later operation can start before its end,
 * which the timeline knows because every earliest start is a maximum of times that only
 * grow (bw_timing.c). Two A windows and up to two D regions let the copies for the next
 * MMA overlap the current one. An operation waits for the data it depends on:
 *  - a row copy or shift into window w waits for the MMAs reading w (write after read)
 *    and for the window's earlier copies/shifts;
 *  - an MMA waits for its window's copies/shifts and its D region's zeroing;
 *  - zeroing D region r waits for the read-out of its previous tile.
 * The array does no arithmetic here and the arithmetic knows nothing of this. */
#ifndef TCSIM_BW_TIMELINE_H
#define TCSIM_BW_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include "tcsim.h"

#define BW_WINDOWS 2
#define BW_DREGIONS 2

typedef struct bw_gap {
    uint64_t from, to;            /* idle cycles [from, to) */
} bw_gap;

typedef struct bw_port {
    uint64_t frontier;            /* every cycle from here on is idle */
    bw_gap *gap;                  /* idle cycles before the frontier, in order: */
    size_t head, n, cap;          /* gap[head .. n) */
} bw_port;

typedef struct bw_timeline {
    bw_port smem, tmem;
    uint64_t array;               /* when the array is next free */
    uint64_t end;                 /* the latest end of any operation */
    unsigned dregions;            /* D regions in use, 1 or 2 */
    uint64_t win_ready[BW_WINDOWS];  /* window written: its copies and shifts done */
    uint64_t win_read[BW_WINDOWS];   /* the last MMA reading the window done */
    uint64_t d_ready[BW_DREGIONS];   /* D region zeroed */
    uint64_t d_done[BW_DREGIONS];    /* the last MMA writing the region done */
    uint64_t d_drained[BW_DREGIONS]; /* the region read out */
} bw_timeline;

/* An empty timeline whose operations use windows 0..BW_WINDOWS-1 and D regions
 * 0..dregions-1 (1 or 2): a window or region that is declared and never used only keeps
 * the ports from forgetting gaps. tc_bwt_free releases the gaps. The operations return
 * TC_ENOMEM when a port cannot grow its gap list (the timeline is then unusable but
 * safe to free), TC_EINVAL for a window or region out of range. */
void tc_bwt_init(bw_timeline *t, unsigned dregions);
void tc_bwt_free(bw_timeline *t);
/* `rows` 256-bit rows copied from shared memory into window `win`. */
tc_status tc_bwt_copy_rows(bw_timeline *t, unsigned win, uint64_t rows);
/* A tcgen05.shift of window `win` costing `cycles` on the tensor-memory port. */
tc_status tc_bwt_shift(bw_timeline *t, unsigned win, uint64_t cycles);
/* An MMA reading window `win` and accumulating into D region `dreg`. */
tc_status tc_bwt_mma(bw_timeline *t, unsigned win, unsigned dreg, const tc_bw_cost *cost);
/* Zeroing / reading out D region `dreg`: `cycles` on the tensor-memory port. */
tc_status tc_bwt_d_zero(bw_timeline *t, unsigned dreg, uint64_t cycles);
tc_status tc_bwt_d_read(bw_timeline *t, unsigned dreg, uint64_t cycles);
/* Cycles from the first issue until the last result: every resource idle, plus the
 * FEDP pipeline's latency once (the last MMA's results leave the array). */
uint64_t tc_bwt_total(const bw_timeline *t);

#endif
