/*
 * tcsim_tmem.h - Blackwell-style tensor memory: the golden model of rtl/tmem.sv.
 *
 * Seed 003 section 1.1: 128 lanes x 512 columns of 32-bit words (256 KiB) per SM, in
 * 4 lane groups of 32 lanes (one per warp quarter). Each group has `banks` banks of
 * 512/banks rows; a bank row holds one column of the group's 32 lanes:
 *
 *     group = lane / 32     bank = col % banks     row = col / banks
 *
 * banks = 8 (8 x 64 rows, seed 003 Figure 5) moves a slice of 8 columns in one cycle;
 * banks = 4 (4 x 128 rows, the cheaper organization) needs two.
 *
 * Two levels of API over one engine:
 *  - cycle level, tc_tmem_clock(): the five request ports of the RTL, one clock at a time,
 *    with the same arbitration, handshake and register timing (the testbench drives the
 *    Verilated RTL and this function with the same inputs and compares every cycle);
 *  - operation level, tc_tmem_ld() etc.: one request on an idle memory, run through the
 *    same engine until it completes; *cycles is what it cost.
 *
 * Windows: a request names a start column c; slot k of its window is column (c+k) % 512,
 * so windows start anywhere and wrap from column 511 to 0.
 * Data layout, everywhere: slot-major, the word of (slot k, lane l) at [k*L + l], with
 * L = 128 for the 128-lane operations and 32 for ld/st (lane l of the group).
 *
 * Cycles per request (rtl/tmem.sv has the same table):
 *
 *   operation                          columns   8 x 64   4 x 128
 *   MMA D write (disable-output-lane)  8         1        2
 *   MMA A read                         8         1        2
 *   shift                              8         1        2
 *   cp .128x256b                       8         1        2
 *   ld / st .32x32b (one warp quarter) n = 1..8  1        1 if n <= 4, else 2
 *
 * i.e. ceil(n / banks). .32x32b.xN is ceil(N/8) ld/st requests of up to 8 columns.
 * Read results appear the cycle after the last cycle of the request.
 *
 * Shift (tcgen05.shift, seed 003 1.1.1 and Algorithm 3.b): within the 8-column window,
 * new[l] = old[l-1] for lanes l = 1..127, across group boundaries. Lane 0 - the "last
 * lane, Lane[0]" of seed 003 Figure 4, the one no neighbour writes - keeps its word, so
 * it equals lane 1 afterwards until software loads a new row there. Lane 127's old word
 * is lost.
 *
 * Contents start at zero in the model; the RTL's are undefined until written.
 */
/* A part of tcsim.h: included on its own, it brings in tcsim.h, which includes it
 * back in its place (its declarations need tcsim.h's types, and tcsim.h its). */
#ifndef TCSIM_H
#include "tcsim.h"
#else
#ifndef TCSIM_TMEM_H
#define TCSIM_TMEM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TC_TMEM_LANES        128
#define TC_TMEM_COLS         512
#define TC_TMEM_GROUPS       4
#define TC_TMEM_GROUP_LANES  32
#define TC_TMEM_SLICE        8    /* columns per cp / MMA / shift request, max per ld/st */
#define TC_TMEM_WIDE_WORDS   (TC_TMEM_SLICE * TC_TMEM_LANES)        /* 1024: a 128-lane slice */
#define TC_TMEM_QUARTER_WORDS (TC_TMEM_SLICE * TC_TMEM_GROUP_LANES) /* 256: a 32-lane slice */

/* ------------------------------------------------------------- address map */

typedef struct tc_tmem_loc {
    unsigned group;       /* lane / 32: the warp quarter that owns the lane */
    unsigned group_lane;  /* lane % 32: the word within the bank row */
    unsigned bank;        /* col % banks, within the group */
    unsigned row;         /* col / banks */
} tc_tmem_loc;

/* Where (lane, col) lives for an organization of `banks` (8 or 4) banks per group.
 * TC_EINVAL for any other bank count, lane >= 128, col >= 512 or a NULL out. */
tc_status tc_tmem_map(unsigned banks, unsigned lane, unsigned col, tc_tmem_loc *out);

/* ------------------------------------------------------------- cost table */

/* Request ports of rtl/tmem.sv. The value is the priority: lower wins a conflict. */
typedef enum tc_tmem_port {
    TC_TMEM_PORT_D = 0,   /* MMA result (D) write, 128 lanes, per-lane disable */
    TC_TMEM_PORT_A,       /* MMA operand (A) read, 128 lanes */
    TC_TMEM_PORT_SHIFT,   /* tcgen05.shift */
    TC_TMEM_PORT_CP,      /* tcgen05.cp .128x256b copy-in */
    TC_TMEM_PORT_LS,      /* tcgen05.ld / st .32x32b of one warp quarter */
    TC_TMEM_PORT_COUNT
} tc_tmem_port;

typedef enum tc_tmem_op {
    TC_TMEM_OP_MMA_D = 0, TC_TMEM_OP_MMA_A, TC_TMEM_OP_SHIFT, TC_TMEM_OP_CP,
    TC_TMEM_OP_LD, TC_TMEM_OP_ST, TC_TMEM_OP_COUNT
} tc_tmem_op;

const char *tc_tmem_port_name(tc_tmem_port p);  /* "d", "a", "shift", "cp", "ls"; NULL if out of range */
const char *tc_tmem_op_name(tc_tmem_op op);     /* "mma-d", "mma-a", "shift", "cp", "ld", "st"; NULL if out of range */

/* Cycles one request costs on an idle memory. ncols is 1..8 for ld/st and is ignored
 * (always 8) for the others. TC_EINVAL on a bad bank count, op or ncols. */
tc_status tc_tmem_op_cycles(unsigned banks, tc_tmem_op op, unsigned ncols, unsigned *cycles);

/* ------------------------------------------------------------- the memory */

typedef struct tc_tmem tc_tmem;

/* A zero-filled memory of `banks` (8 or 4) banks per group, idle. */
tc_status tc_tmem_new(unsigned banks, tc_tmem **out);
void tc_tmem_free(tc_tmem *m);               /* NULL is fine */
unsigned tc_tmem_banks(const tc_tmem *m);    /* 0 for NULL */
uint64_t tc_tmem_cycle_count(const tc_tmem *m); /* clocks since tc_tmem_new */

/* rst_ni: abandon a request in progress and clear the read-valid flags. The contents
 * and the read-data registers are kept, as in the RTL. */
void tc_tmem_reset(tc_tmem *m);

/* Direct access, outside the clocked model (no cycles): logical and physical views. */
tc_status tc_tmem_peek(const tc_tmem *m, unsigned lane, unsigned col, uint32_t *out);
tc_status tc_tmem_poke(tc_tmem *m, unsigned lane, unsigned col, uint32_t value);
/* The 32 words of one bank row: out[i] is lane 32*group + i. */
tc_status tc_tmem_bank_row(const tc_tmem *m, unsigned group, unsigned bank, unsigned row,
                           uint32_t out[TC_TMEM_GROUP_LANES]);

/* ------------------------------------------------------------- cycle level */

/* The inputs of rtl/tmem.sv during one cycle. The payload of a port is read only when
 * its valid is set or when the memory is in the second cycle of that port's request
 * (as the RTL does: the requester must hold the payload until ready). */
typedef struct tc_tmem_inputs {
    int d_valid;                       /* MMA D write */
    unsigned d_col;
    uint32_t d_disable[TC_TMEM_LANES / 32];  /* bit l%32 of word l/32: lane l not written */
    const uint32_t *d_data;            /* TC_TMEM_WIDE_WORDS */
    int a_valid;                       /* MMA A read */
    unsigned a_col;
    int shift_valid;                   /* shift */
    unsigned shift_col;
    int cp_valid;                      /* cp .128x256b */
    unsigned cp_col;
    const uint32_t *cp_data;           /* TC_TMEM_WIDE_WORDS */
    int ls_valid;                      /* ld / st .32x32b */
    int ls_store;                      /* 1 st, 0 ld */
    unsigned ls_group;                 /* 0..3 */
    unsigned ls_col;
    unsigned ls_ncols;                 /* 1..8 */
    const uint32_t *ls_data;           /* st: TC_TMEM_QUARTER_WORDS (slots >= ncols unused) */
} tc_tmem_inputs;

/* What the RTL shows: ready and grant during the cycle; the read results as its
 * registers hold them after the cycle's clock edge. So a read whose last cycle is t has
 * ready and rvalid set in the outputs of cycle t (the RTL's rvalid_o is high during
 * cycle t+1). The rdata pointers point into the memory object and stay valid until the
 * next call that clocks it; the data mean something only while rvalid is set. */
typedef struct tc_tmem_outputs {
    unsigned ready;            /* bit (1u << port): that port's request completed */
    unsigned grant;            /* bit (1u << port): the port used the memory this cycle */
    int a_rvalid;              /* an A read completed in this cycle; */
    const uint32_t *a_rdata;   /* its TC_TMEM_WIDE_WORDS */
    int ls_rvalid;             /* an ld completed in this cycle; */
    const uint32_t *ls_rdata;  /* its TC_TMEM_QUARTER_WORDS, slots >= ncols 0 */
} tc_tmem_outputs;

/* One clock cycle. TC_EINVAL (state unchanged) if a port whose payload is read has a
 * column >= 512, a group >= 4, ncols outside 1..8 or a NULL data pointer. */
tc_status tc_tmem_clock(tc_tmem *m, const tc_tmem_inputs *in, tc_tmem_outputs *out);

/* ------------------------------------------------------------- operation level */
/* Each runs one request on an idle memory (TC_EINVAL if a two-cycle request is half
 * done) and returns its cost in *cycles (may be NULL). Data layouts as above. */

/* tcgen05.ld .32x32b of ncols (1..8) columns: out gets 32*ncols words. */
tc_status tc_tmem_ld(tc_tmem *m, unsigned group, unsigned col, unsigned ncols,
                     uint32_t *out, unsigned *cycles);
/* tcgen05.st .32x32b: in holds 32*ncols words. */
tc_status tc_tmem_st(tc_tmem *m, unsigned group, unsigned col, unsigned ncols,
                     const uint32_t *in, unsigned *cycles);
/* .32x32b.xN, N = num in {1, 2, 4, ..., 128}: ceil(N/8) requests on consecutive columns;
 * out / in hold 32*num words, column c of the shape at [c*32 + lane]. */
tc_status tc_tmem_ld_32x32b(tc_tmem *m, unsigned group, unsigned col, unsigned num,
                            uint32_t *out, unsigned *cycles);
tc_status tc_tmem_st_32x32b(tc_tmem *m, unsigned group, unsigned col, unsigned num,
                            const uint32_t *in, unsigned *cycles);
/* MMA D write of 8 columns x 128 lanes; disable may be NULL (all lanes written). */
tc_status tc_tmem_mma_d(tc_tmem *m, unsigned col, const uint32_t *d,
                        const uint32_t disable[TC_TMEM_LANES / 32], unsigned *cycles);
/* MMA A read of 8 columns x 128 lanes into a (TC_TMEM_WIDE_WORDS). */
tc_status tc_tmem_mma_a(tc_tmem *m, unsigned col, uint32_t *a, unsigned *cycles);
/* tcgen05.cp .128x256b: 128 lanes x 8 columns from src (TC_TMEM_WIDE_WORDS). */
tc_status tc_tmem_cp(tc_tmem *m, unsigned col, const uint32_t *src, unsigned *cycles);
/* tcgen05.shift of the 8-column window at col. */
tc_status tc_tmem_shift(tc_tmem *m, unsigned col, unsigned *cycles);

#ifdef __cplusplus
}
#endif
#endif /* TCSIM_TMEM_H */
#endif /* TCSIM_H */
