/* bw_timeline.h - the cycle accounting of a sequence of Blackwell tensor-core operations
 * (internal to the model; bw_timing.c implements it, conv.c uses it).
 *
 * Three resources: the FEDP array, which runs the MMAs one after the other in program
 * order; the shared-memory port (row copies into tensor memory, the MMAs' B rows) and
 * the tensor-memory port (shift, D zeroing and read-out, the MMAs' A/C/D requests),
 * which serve one operation-cycle per cycle each, any cycle the port is idle from the
 * operation's earliest start on (an operation issued later may fill the idle cycles
 * that an earlier one left, as copy engines running beside the MMA do). A port keeps
 * its idle cycles from `base` on, BW_PORT_WINDOW of them: when an operation needs a
 * cycle past the window, base moves to that cycle - BW_PORT_WINDOW / 2, and after each
 * operation it moves past the taken cycles at its front; a cycle before base counts as
 * taken, so an operation never fills a gap more than BW_PORT_WINDOW cycles behind the
 * latest one (docs/blackwell_mma.md's figures depend on this rule). Two A windows and
 * up to two D regions let the copies for the next MMA overlap the current one. An
 * operation waits for the data it depends on:
 *  - a row copy or shift into window w waits for the MMAs reading w (write after read)
 *    and for the window's earlier copies/shifts;
 *  - an MMA waits for its window's copies/shifts and its D region's zeroing;
 *  - zeroing D region r waits for the read-out of its previous tile.
 * The array does no arithmetic here and the arithmetic knows nothing of this. */
#ifndef TCSIM_BW_TIMELINE_H
#define TCSIM_BW_TIMELINE_H

#include <stdint.h>
#include "tcsim.h"

#define BW_PORT_WINDOW 4096

typedef struct bw_port {
    uint64_t base;                    /* every cycle before base is taken */
    uint8_t busy[BW_PORT_WINDOW];     /* cycle base + i taken */
} bw_port;

typedef struct bw_timeline {
    bw_port smem, tmem;
    uint64_t array;               /* when the array is next free */
    uint64_t end;                 /* the latest end of any operation */
    uint64_t win_ready[2];        /* window written: its copies and shifts done */
    uint64_t win_read[2];         /* the last MMA reading the window done */
    uint64_t d_ready[2];          /* D region zeroed */
    uint64_t d_done[2];           /* the last MMA writing the region done */
    uint64_t d_drained[2];        /* the region read out */
} bw_timeline;

void tc_bwt_init(bw_timeline *t);
/* `rows` 256-bit rows copied from shared memory into window `win`. */
void tc_bwt_copy_rows(bw_timeline *t, unsigned win, uint64_t rows);
/* A tcgen05.shift of window `win` costing `cycles` on the tensor-memory port. */
void tc_bwt_shift(bw_timeline *t, unsigned win, uint64_t cycles);
/* An MMA reading window `win` and accumulating into D region `dreg`. */
void tc_bwt_mma(bw_timeline *t, unsigned win, unsigned dreg, const tc_bw_cost *cost);
/* Zeroing / reading out D region `dreg`: `cycles` on the tensor-memory port. */
void tc_bwt_d_zero(bw_timeline *t, unsigned dreg, uint64_t cycles);
void tc_bwt_d_read(bw_timeline *t, unsigned dreg, uint64_t cycles);
/* Cycles from the first issue until the last result: every resource idle, plus the
 * FEDP pipeline's latency once (the last MMA's results leave the array). */
uint64_t tc_bwt_total(const bw_timeline *t);

#endif
