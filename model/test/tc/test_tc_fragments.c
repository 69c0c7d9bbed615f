/* test_tc_fragments.c - the Volta fragment mappings and HMMA set/step semantics of
 * model/src/fragments.c against the seeds, element by element.
 *
 *  1. mma.m8n8k4 (.f16 A/B both layouts, C/D .f16 and .f32), lane by lane, against
 *     seed 002 (PTX ISA 9.7.14.5.1): the row/col formulas under Figures 46-52 and the
 *     table of which lanes take part in which MMA computation, transcribed below.
 *  2. wmma m16n16k16 against seed 001 III-B/E: each A/B element held by two lanes of
 *     different threadgroups, each C element by one; Table II (octets and the sub-tiles
 *     they load); "the first four rows of A are loaded by threadgroups 0 and 2"; the
 *     load patterns of Figure 7 (row-major: 16 consecutive elements; column-major: four
 *     blocks of four consecutive elements, 64 elements apart); A row-major distributed as
 *     B column-major and vice versa; C: a 4 x 8 sub-tile per threadgroup (Figure 10a),
 *     independent of the layout.
 *  3. HMMA sets and steps against Table III and Figure 10: what each (set, step) of
 *     threadgroups X and X+4 multiplies, read from the arguments tc_hmma_exec gives
 *     the FEDP.
 */
#include <stdio.h>
#include <string.h>
#include "tcsim.h"

#include "check.h"

static tc_frag_spec spec(tc_shape sh, tc_operand op, tc_layout lay, tc_fmt acc)
{
    tc_frag_spec s = {TC_ARCH_VOLTA, sh, op, lay, acc};
    return s;
}

/* ------------------------------------------------------------ 1. seed 002 tables */

/* "MMA computation 1: Threads with %laneid 0-3 (low group) and 16-19 (high group)",
 * computation 2: 4-7 and 20-23, 3: 8-11 and 24-27, 4: 12-15 and 28-31. */
static const unsigned seed002_lanes[4][8] = {
    {0, 1, 2, 3, 16, 17, 18, 19},
    {4, 5, 6, 7, 20, 21, 22, 23},
    {8, 9, 10, 11, 24, 25, 26, 27},
    {12, 13, 14, 15, 28, 29, 30, 31},
};

/* The formulas of seed 002, as written there (rows and columns of one 8x8x4 MMA). */
static void seed002(tc_operand op, tc_layout lay, tc_fmt acc, unsigned lane, unsigned i,
                    unsigned *row, unsigned *col)
{
    unsigned lo = lane < 16;
    if (op == TC_OPERAND_A && lay == TC_LAYOUT_ROW) {        /* Figure 46 */
        *row = lo ? lane % 4 : (lane % 4) + 4;               /* row = %laneid % 4 [+4] */
        *col = i;                                            /* col = i for ai */
    } else if (op == TC_OPERAND_A) {                         /* Figure 47 */
        *row = lo ? i % 4 : (i % 4) + 4;
        *col = lane % 4;
    } else if (op == TC_OPERAND_B && lay == TC_LAYOUT_ROW) { /* Figure 48 */
        *row = lane % 4;
        *col = lo ? i : i + 4;
    } else if (op == TC_OPERAND_B) {                         /* Figure 49 */
        *row = i;
        *col = lo ? lane % 4 : (lane % 4) + 4;
    } else if (acc == TC_FMT_FP16) {                         /* Figure 50 */
        *row = lo ? lane % 4 : (lane % 4) + 4;
        *col = i;
    } else {                                                 /* Figures 51, 52 */
        unsigned x = (lane & 1u) + (i & 2u);                 /* X = (%laneid & 0b1) + (i & 0b10) */
        *row = lo ? x : x + 4;
        *col = (i & 4u) + (lane & 2u) + (i & 1u);
    }
}

/* Lane 5 with .f32 C, worked out by hand from the formulas: (row, col) of c0..c7. */
static const unsigned lane5_f32[8][2] = {
    {1, 0}, {1, 1}, {3, 0}, {3, 1}, {1, 4}, {1, 5}, {3, 4}, {3, 5}};

static void test_m8n8k4(void)
{
    struct { tc_operand op; tc_layout lay; tc_fmt acc; unsigned n; } kinds[] = {
        {TC_OPERAND_A, TC_LAYOUT_ROW, TC_FMT_FP32, 4}, {TC_OPERAND_A, TC_LAYOUT_COL, TC_FMT_FP32, 4},
        {TC_OPERAND_B, TC_LAYOUT_ROW, TC_FMT_FP32, 4}, {TC_OPERAND_B, TC_LAYOUT_COL, TC_FMT_FP32, 4},
        {TC_OPERAND_C, TC_LAYOUT_ROW, TC_FMT_FP16, 8}, {TC_OPERAND_C, TC_LAYOUT_ROW, TC_FMT_FP32, 8},
    };
    for (unsigned k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        tc_frag_spec s = spec(TC_SHAPE_M8N8K4, kinds[k].op, kinds[k].lay, kinds[k].acc);
        unsigned n = 0;
        CHECK(tc_frag_count(&s, &n) == TC_OK && n == kinds[k].n, "m8n8k4 kind %u: count %u", k, n);
        for (unsigned comp = 0; comp < 4; comp++)
            for (unsigned j = 0; j < 8; j++) {
                unsigned lane = seed002_lanes[comp][j];
                for (unsigned i = 0; i < kinds[k].n; i++) {
                    tc_frag_elem e;
                    unsigned row, col;
                    seed002(kinds[k].op, kinds[k].lay, kinds[k].acc, lane, i, &row, &col);
                    CHECK(tc_frag_map(&s, lane, i, &e) == TC_OK && e.tile == comp &&
                              e.row == row && e.col == col,
                          "m8n8k4 op %d layout %d acc %d lane %u elem %u: tile %u (%u,%u), "
                          "seed 002: computation %u (%u,%u)", kinds[k].op, kinds[k].lay,
                          kinds[k].acc, lane, i, e.tile, e.row, e.col, comp + 1, row, col);
                }
            }
    }
    tc_frag_spec s = spec(TC_SHAPE_M8N8K4, TC_OPERAND_C, TC_LAYOUT_ROW, TC_FMT_FP32);
    for (unsigned i = 0; i < 8; i++) {
        tc_frag_elem e;
        tc_frag_map(&s, 5, i, &e);
        CHECK(e.row == lane5_f32[i][0] && e.col == lane5_f32[i][1], "lane 5 c%u", i);
    }
}

/* --------------------------------------------------------------- 2. wmma 16x16x16 */

/* Table II: octet, its threadgroups, the sub-tile of A ([rows, all k]) and of B
 * ([all k, columns]) its threads load. */
static const unsigned table2[4][6] = {
    /* octet tg tg  A rows    B cols */
    {0, 0, 4, 0, 7, 0},
    {1, 1, 5, 8, 15, 0},
    {2, 2, 6, 0, 7, 8},
    {3, 3, 7, 8, 15, 8},
};

static void test_wmma(void)
{
    for (int acc = 0; acc < 2; acc++)
        for (int lay = 0; lay < 2; lay++)
            for (int op = 0; op < 3; op++) {
                tc_fmt af = acc ? TC_FMT_FP16 : TC_FMT_FP32;
                tc_frag_spec s = spec(TC_SHAPE_M16N16K16, (tc_operand)op, (tc_layout)lay, af);
                unsigned n = 0;
                CHECK(tc_frag_count(&s, &n) == TC_OK && n == (op == TC_OPERAND_C ? 8u : 16u),
                      "wmma op %d count %u", op, n);
                /* holders of each element: count and threadgroups */
                unsigned count[16][16] = {{0}}, tg[16][16][2];
                int octet_has[4][16][16] = {{{0}}};
                for (unsigned l = 0; l < 32; l++)
                    for (unsigned i = 0; i < n; i++) {
                        tc_frag_elem e;
                        CHECK(tc_frag_map(&s, l, i, &e) == TC_OK && e.tile == 0 && e.row < 16 &&
                                  e.col < 16, "wmma map lane %u elem %u", l, i);
                        if (e.row >= 16 || e.col >= 16)
                            continue;
                        if (count[e.row][e.col] < 2)
                            tg[e.row][e.col][count[e.row][e.col]] = l / 4;
                        count[e.row][e.col]++;
                        octet_has[(l / 4) % 4][e.row][e.col] = 1;
                    }
                for (unsigned r = 0; r < 16; r++)
                    for (unsigned c = 0; c < 16; c++) {
                        if (op == TC_OPERAND_C)
                            CHECK(count[r][c] == 1, "C (%u,%u) held %u times", r, c, count[r][c]);
                        else
                            CHECK(count[r][c] == 2 && tg[r][c][0] != tg[r][c][1],
                                  "op %d (%u,%u): held %u times, not by two threadgroups", op,
                                  r, c, count[r][c]);
                    }
                /* Table II: exactly the octet's sub-tile, for A and B */
                for (unsigned o = 0; op != TC_OPERAND_C && o < 4; o++)
                    for (unsigned r = 0; r < 16; r++)
                        for (unsigned c = 0; c < 16; c++) {
                            int want = op == TC_OPERAND_A
                                           ? r >= table2[o][3] && r <= table2[o][4]
                                           : c >= table2[o][5] && c <= table2[o][5] + 7;
                            CHECK(octet_has[o][r][c] == want,
                                  "Table II: octet %u (threadgroups %u, %u) op %d (%u,%u): %d",
                                  o, table2[o][1], table2[o][2], op, r, c, octet_has[o][r][c]);
                        }
                /* III-B: the first four rows of A: threadgroups 0 and 2 */
                if (op == TC_OPERAND_A)
                    for (unsigned c = 0; c < 16; c++)
                        for (unsigned r = 0; r < 4; r++)
                            CHECK((tg[r][c][0] == 0 && tg[r][c][1] == 2) ||
                                      (tg[r][c][0] == 2 && tg[r][c][1] == 0),
                                  "A (%u,%u) not in threadgroups 0 and 2", r, c);
            }

    /* Figure 7 load patterns, in memory order (row-major: address r*16+c; column-major
     * c*16+r). A row-major: 16 consecutive elements; column-major: four blocks of four
     * consecutive elements, each block 64 elements after the one before. */
    for (int lay = 0; lay < 2; lay++) {
        tc_frag_spec s = spec(TC_SHAPE_M16N16K16, TC_OPERAND_A, (tc_layout)lay, TC_FMT_FP32);
        for (unsigned l = 0; l < 32; l++) {
            unsigned addr[16];
            for (unsigned i = 0; i < 16; i++) {
                tc_frag_elem e;
                tc_frag_map(&s, l, i, &e);
                addr[i] = lay == TC_LAYOUT_ROW ? e.row * 16 + e.col : e.col * 16 + e.row;
            }
            for (unsigned i = 1; i < 16; i++) {
                unsigned step = lay == TC_LAYOUT_ROW || i % 4 ? 1 : 64 - 3;
                CHECK(addr[i] == addr[i - 1] + step, "A %s lane %u elem %u: address %u after %u",
                      lay ? "col" : "row", l, i, addr[i], addr[i - 1]);
            }
        }
    }
    /* Inside its threadgroup's segment, A row-major is distributed as B column-major
     * (transposed), and vice versa. Which threadgroups hold which segment differs (A by
     * rows, B by columns: Table II) */
    for (int lay = 0; lay < 2; lay++) {
        tc_frag_spec sa = spec(TC_SHAPE_M16N16K16, TC_OPERAND_A, (tc_layout)lay, TC_FMT_FP32);
        tc_frag_spec sb = spec(TC_SHAPE_M16N16K16, TC_OPERAND_B, (tc_layout)!lay, TC_FMT_FP32);
        for (unsigned l = 0; l < 32; l++)
            for (unsigned i = 0; i < 16; i++) {
                tc_frag_elem ea, eb;
                tc_frag_map(&sa, l, i, &ea);
                tc_frag_map(&sb, l, i, &eb);
                CHECK(ea.row % 4 == eb.col % 4 && ea.col == eb.row, "A %d vs B %d lane %u elem %u", lay,
                      !lay, l, i);
            }
    }
    /* C: threadgroup g holds the 4 x 8 sub-tile rows (g%2)*8 + (g/4)*4, columns
     * ((g%4)/2)*8 (threadgroup 0: rows 0:3, columns 0:7, Figure 10a), whatever the
     * layout; fp32 and fp16 distribute it differently inside the threadgroup. */
    int differ = 0;
    for (unsigned l = 0; l < 32; l++) {
        unsigned g = l / 4, r0 = (g % 2) * 8 + (g / 4) * 4, c0 = ((g % 4) / 2) * 8;
        for (unsigned i = 0; i < 8; i++) {
            tc_frag_elem e32, e16, e32c;
            tc_frag_spec s32 = spec(TC_SHAPE_M16N16K16, TC_OPERAND_C, TC_LAYOUT_ROW, TC_FMT_FP32);
            tc_frag_spec s16 = spec(TC_SHAPE_M16N16K16, TC_OPERAND_C, TC_LAYOUT_ROW, TC_FMT_FP16);
            tc_frag_spec s32c = spec(TC_SHAPE_M16N16K16, TC_OPERAND_C, TC_LAYOUT_COL, TC_FMT_FP32);
            tc_frag_map(&s32, l, i, &e32);
            tc_frag_map(&s16, l, i, &e16);
            tc_frag_map(&s32c, l, i, &e32c);
            CHECK(e32.row >= r0 && e32.row < r0 + 4 && e32.col >= c0 && e32.col < c0 + 8,
                  "C fp32 lane %u elem %u outside its threadgroup's 4x8", l, i);
            CHECK(e16.row >= r0 && e16.row < r0 + 4 && e16.col >= c0 && e16.col < c0 + 8,
                  "C fp16 lane %u elem %u outside its threadgroup's 4x8", l, i);
            CHECK(e32c.row == e32.row && e32c.col == e32.col, "C depends on the layout");
            differ |= e32.row != e16.row || e32.col != e16.col;
        }
    }
    CHECK(differ, "C fp32 and fp16 distributions are the same");

    /* One set of wmma is one m8n8k4: elements 4s..4s+3 of A and B of octet o's lanes
     * are the m8n8k4 fragment of the octet's k slice s; C matches outright. */
    for (int op = 0; op < 3; op++)
        for (int lay = 0; lay < 2; lay++) {
            tc_frag_spec sw = spec(TC_SHAPE_M16N16K16, (tc_operand)op, (tc_layout)lay, TC_FMT_FP32);
            tc_frag_spec s8 = spec(TC_SHAPE_M8N8K4, (tc_operand)op, (tc_layout)lay, TC_FMT_FP32);
            unsigned n8;
            tc_frag_count(&s8, &n8);
            for (unsigned l = 0; l < 32; l++) {
                unsigned o = (l / 4) % 4;
                unsigned r0 = op == TC_OPERAND_B ? 0 : (o % 2) * 8;
                unsigned c0 = op == TC_OPERAND_A ? 0 : (o / 2) * 8;
                for (unsigned s = 0; s < (op == TC_OPERAND_C ? 1u : 4u); s++)
                    for (unsigned i = 0; i < n8; i++) {
                        tc_frag_elem ew, e8;
                        tc_frag_map(&sw, l, (op == TC_OPERAND_C ? 0 : 4 * s) + i, &ew);
                        tc_frag_map(&s8, l, i, &e8);
                        unsigned kr = op == TC_OPERAND_B ? 4 * s : 0, kc = op == TC_OPERAND_A ? 4 * s : 0;
                        CHECK(ew.row == r0 + kr + e8.row && ew.col == c0 + kc + e8.col,
                              "op %d layout %d lane %u set %u elem %u: wmma (%u,%u), m8n8k4 "
                              "(%u,%u)", op, lay, l, s, i, ew.row, ew.col, e8.row, e8.col);
                    }
            }
        }

    /* load then store is the identity, every kind */
    uint32_t mat[4 * 256], back[4 * 256], frag[32][TC_FRAG_MAX];
    for (unsigned i = 0; i < 4 * 256; i++)
        mat[i] = i * 2654435761u;
    for (int sh = 0; sh < 2; sh++)
        for (int op = 0; op < 3; op++)
            for (int lay = 0; lay < 2; lay++) {
                tc_frag_spec s = spec((tc_shape)sh, (tc_operand)op, (tc_layout)lay, TC_FMT_FP16);
                unsigned m, n, k, t;
                tc_shape_dims((tc_shape)sh, &m, &n, &k, &t);
                size_t sz = (size_t)t * (op == TC_OPERAND_A ? m * k : op == TC_OPERAND_B ? k * n : m * n);
                memset(back, 0, sizeof back);
                for (unsigned l = 0; l < 32; l++)
                    for (unsigned i = 0; i < TC_FRAG_MAX; i++)
                        frag[l][i] = 0xdeadbeefu;
                CHECK(tc_frag_load(&s, mat, frag) == TC_OK && tc_frag_store(&s, frag, back) == TC_OK,
                      "load/store");
                /* tcsim_tc.h: "unused entries untouched" (count: wmma A/B 16, C 8;
                 * m8n8k4 A/B 4, C 8) */
                unsigned cnt = op == TC_OPERAND_C ? 8 : sh == TC_SHAPE_M16N16K16 ? 16 : 4;
                for (unsigned l = 0; l < 32; l++)
                    for (unsigned i = cnt; i < TC_FRAG_MAX; i++)
                        CHECK(frag[l][i] == 0xdeadbeefu, "shape %d op %d: load wrote unused "
                              "entry %u of lane %u", sh, op, i, l);
                CHECK(!memcmp(mat, back, sz * sizeof *mat), "shape %d op %d layout %d: store "
                      "after load differs", sh, op, lay);
            }

    /* bad arguments */
    tc_frag_spec s = spec(TC_SHAPE_M16N16K16, TC_OPERAND_A, TC_LAYOUT_ROW, TC_FMT_FP32);
    tc_frag_elem e;
    CHECK(tc_frag_map(&s, 32, 0, &e) == TC_EINVAL, "lane 32");
    CHECK(tc_frag_map(&s, 0, 16, &e) == TC_EINVAL, "element 16");
    /* tcsim.h: a NULL pointer or an out-of-range value is TC_EINVAL */
    unsigned cnt = 0;
    CHECK(tc_frag_map(&s, 0, 0, NULL) == TC_EINVAL, "NULL element");
    CHECK(tc_frag_count(&s, NULL) == TC_EINVAL, "NULL count");
    {
        static uint32_t fr[32][TC_FRAG_MAX];
        CHECK(tc_frag_load(&s, NULL, fr) == TC_EINVAL && tc_frag_store(&s, fr, NULL) == TC_EINVAL,
              "load / store with a NULL matrix");
    }
    s.op = TC_OPERAND_COUNT;
    CHECK(tc_frag_count(&s, &cnt) == TC_EINVAL && tc_frag_map(&s, 0, 0, &e) == TC_EINVAL,
          "operand %d", TC_OPERAND_COUNT);
    s.op = TC_OPERAND_A;
    s.arch = TC_ARCH_AMPERE;
    CHECK(tc_frag_map(&s, 0, 0, &e) == TC_EUNSUPPORTED, "ampere");
    s = spec(TC_SHAPE_M16N16K16, TC_OPERAND_C, TC_LAYOUT_ROW, TC_FMT_BF16);
    CHECK(tc_frag_map(&s, 0, 0, &e) == TC_EFORMAT, "bf16 accumulator");
    s = spec(TC_SHAPE_COUNT, TC_OPERAND_A, TC_LAYOUT_ROW, TC_FMT_FP32);
    CHECK(tc_frag_map(&s, 0, 0, &e) == TC_EINVAL, "bad shape");
    /* tcsim_tc.h: "layout is ignored for C": any value maps as row does */
    for (int sh = 0; sh < 2; sh++) {
        tc_frag_spec sr = spec((tc_shape)sh, TC_OPERAND_C, TC_LAYOUT_ROW, TC_FMT_FP32);
        tc_frag_spec sx = spec((tc_shape)sh, TC_OPERAND_C, TC_LAYOUT_COUNT, TC_FMT_FP32);
        unsigned n = 0;
        CHECK(tc_frag_count(&sx, &n) == TC_OK && n == 8, "shape %d: C with layout %d", sh,
              TC_LAYOUT_COUNT);
        for (unsigned l = 0; l < 32; l++)
            for (unsigned i = 0; i < 8; i++) {
                tc_frag_elem er, ex;
                tc_frag_map(&sr, l, i, &er);
                CHECK(tc_frag_map(&sx, l, i, &ex) == TC_OK && ex.tile == er.tile &&
                          ex.row == er.row && ex.col == er.col,
                      "shape %d: C layout %d lane %u elem %u", sh, TC_LAYOUT_COUNT, l, i);
            }
    }
    /* a layout that is neither row nor col is an out-of-range value (tcsim.h: TC_EINVAL)
     * for A and B, whose element places depend on it */
    for (int op = TC_OPERAND_A; op <= TC_OPERAND_B; op++) {
        s = spec(TC_SHAPE_M8N8K4, (tc_operand)op, TC_LAYOUT_COUNT, TC_FMT_FP32);
        unsigned n = 0;
        CHECK(tc_frag_count(&s, &n) == TC_EINVAL, "op %d, layout %d: count", op, TC_LAYOUT_COUNT);
        CHECK(tc_frag_map(&s, 0, 0, &e) == TC_EINVAL, "op %d, layout %d: map", op, TC_LAYOUT_COUNT);
    }
}

/* ------------------------------------------------------------ 3. sets and steps */

/* Table III, for threadgroup X (half 0) and X+4 (half 1) of an octet, mixed precision:
 * set s multiplies the rows [r0 : r0+1] of the threadgroup's A sub-tile (a..d for X,
 * e..h for X+4; k slice s) by the B sub-tile of the octet named in the table: A..D are
 * columns 0:3, E..H columns 4:7 (Figure 12b). */
static const struct { unsigned set, step, r0; char b; } table3[16] = {
    {1, 0, 0, 'A'}, {1, 1, 2, 'A'}, {1, 2, 0, 'E'}, {1, 3, 2, 'E'},
    {2, 0, 0, 'B'}, {2, 1, 2, 'B'}, {2, 2, 0, 'F'}, {2, 3, 2, 'F'},
    {3, 0, 0, 'C'}, {3, 1, 2, 'C'}, {3, 2, 0, 'G'}, {3, 3, 2, 'G'},
    {4, 0, 0, 'D'}, {4, 1, 2, 'D'}, {4, 2, 0, 'H'}, {4, 3, 2, 'H'},
};

/* A, B, C whose fp16 values name their place: A(r,k) = r*16 + k + 1, B(k,c) =
 * 512 + k*16 + c, C(r,c) = 1024 + r*16 + c (all exact small integers in fp16). The
 * FEDP step below records what it is given. */
static uint16_t fp16_int(unsigned v)
{
    unsigned e = 0;
    while ((v >> e) > 1)
        e++;
    return (uint16_t)((e + 15) << 10 | ((v << 10 >> e) & 0x3ffu));
}
static unsigned int_fp16(uint32_t h)
{
    unsigned e = (h >> 10) - 15;
    return (unsigned)((1024u | (h & 0x3ffu)) << e >> 10);
}

typedef struct seen {
    unsigned calls;
    unsigned a_row[256], b_col[256], c_at[256], k0[256];
    int bad;
} seen;

static tc_status record(void *ctx, const tc_profile *p, size_t n, const uint32_t *a,
                        const uint32_t *b, uint32_t c, uint32_t *d)
{
    seen *s = ctx;
    unsigned ar = int_fp16(a[0]) - 1, bc = int_fp16(b[0]) - 512;
    for (size_t k = 0; k < n; k++)
        if (int_fp16(a[k]) - 1 != ar + k || int_fp16(b[k]) - 512 != bc + 16 * k)
            s->bad = 1; /* the four terms are not one row of A and one column of B, k in order */
    if (bc / 16 != ar % 16)
        s->bad = 1; /* A's and B's k do not start together */
    if (s->calls < 256) {
        s->a_row[s->calls] = ar / 16;
        s->k0[s->calls] = ar % 16;
        s->b_col[s->calls] = bc % 16;
        s->c_at[s->calls] = p->out == TC_FMT_FP16 ? int_fp16(c) - 1024 : c;
    }
    s->calls++;
    *d = c;
    return TC_OK;
}

static void test_sets_steps(void)
{
    for (int acc = 0; acc < 2; acc++) {
        tc_fmt af = acc ? TC_FMT_FP16 : TC_FMT_FP32;
        unsigned sets, steps, beats;
        for (int la = 0; la < 2; la++)
            for (int lb = 0; lb < 2; lb++) {
                tc_hmma_cfg cfg = {TC_SHAPE_M16N16K16, (tc_layout)la, (tc_layout)lb, af};
                CHECK(tc_hmma_geometry(&cfg, &sets, &steps, &beats) == TC_OK && sets == 4 &&
                          steps == (acc ? 2u : 4u) && beats == (acc ? 4u : 2u),
                      "geometry acc %d: %u sets %u steps %u beats", acc, sets, steps, beats);
                uint32_t A[256], B[256], C[256];
                for (unsigned r = 0; r < 16; r++)
                    for (unsigned c = 0; c < 16; c++) {
                        A[r * 16 + c] = fp16_int(r * 16 + c + 1);
                        B[r * 16 + c] = fp16_int(512 + r * 16 + c);
                        C[r * 16 + c] = acc ? fp16_int(1024 + r * 16 + c) : r * 16 + c;
                    }
                tc_warp_frags w;
                tc_frag_spec sa = {TC_ARCH_VOLTA, cfg.shape, TC_OPERAND_A, cfg.a_layout, af};
                tc_frag_spec sb = {TC_ARCH_VOLTA, cfg.shape, TC_OPERAND_B, cfg.b_layout, af};
                tc_frag_spec sc = {TC_ARCH_VOLTA, cfg.shape, TC_OPERAND_C, TC_LAYOUT_ROW, af};
                tc_frag_load(&sa, A, w.a);
                tc_frag_load(&sb, B, w.b);
                tc_frag_load(&sc, C, w.c);
                for (unsigned s = 0; s < sets; s++)
                    for (unsigned p = 0; p < steps; p++) {
                        seen sn;
                        memset(&sn, 0, sizeof sn);
                        CHECK(tc_hmma_exec(&cfg, s, p, &w, record, &sn) == TC_OK, "exec");
                        /* every threadgroup writes its step's 8 (mixed) or 16 (fp16) outputs */
                        CHECK(sn.calls == 256 / steps && !sn.bad, "set %u step %u: %u FEDP "
                              "steps, bad terms %d", s, p, sn.calls, sn.bad);
                        int hit[16][16] = {{0}};
                        for (unsigned j = 0; j < sn.calls && j < 256; j++) {
                            unsigned r = sn.a_row[j], c = sn.b_col[j];
                            unsigned o = (r / 8) + 2 * (c / 8), h = (r % 8) / 4;
                            tc_hmma_access ac;
                            tc_hmma_access_of(&cfg, s, p, h, &ac);
                            CHECK(sn.k0[j] == 4 * s && ac.k0 == 4 * s, "set %u: k0 %u", s,
                                  sn.k0[j]);
                            CHECK(r % 8 >= ac.row0 && r % 8 < ac.row0 + ac.rows &&
                                      c % 8 >= ac.col0 && c % 8 < ac.col0 + ac.cols,
                                  "acc %d set %u step %u: output (%u,%u) of octet %u outside "
                                  "the access", acc, s, p, r, c, o);
                            CHECK(sn.c_at[j] == r * 16 + c, "c of (%u,%u) is C(%u)", r, c, sn.c_at[j]);
                            hit[r][c]++;
                        }
                        /* ... and the access sub-tiles of all octets are exactly what was hit */
                        for (unsigned r = 0; r < 16; r++)
                            for (unsigned c = 0; c < 16; c++) {
                                tc_hmma_access ac;
                                tc_hmma_access_of(&cfg, s, p, (r % 8) / 4, &ac);
                                int in = r % 8 >= ac.row0 && r % 8 < ac.row0 + ac.rows &&
                                         c % 8 >= ac.col0 && c % 8 < ac.col0 + ac.cols;
                                CHECK(hit[r][c] == in, "(%u,%u) hit %d times", r, c, hit[r][c]);
                            }
                    }
            }
        /* Table III (mixed) and Figure 10c (fp16), half by half */
        tc_hmma_cfg cfg = {TC_SHAPE_M16N16K16, TC_LAYOUT_ROW, TC_LAYOUT_ROW, af};
        for (unsigned h = 0; h < 2; h++) {
            if (!acc) {
                for (unsigned i = 0; i < 16; i++) {
                    tc_hmma_access ac;
                    tc_hmma_access_of(&cfg, table3[i].set - 1, table3[i].step, h, &ac);
                    unsigned bcol = table3[i].b >= 'E' ? 4 : 0;
                    unsigned bk = (unsigned)(table3[i].b - (bcol ? 'E' : 'A')) * 4;
                    CHECK(ac.row0 == 4 * h + table3[i].r0 && ac.rows == 2 && ac.k0 == bk &&
                              ac.col0 == bcol && ac.cols == 4 && ac.acc_pair == table3[i].step,
                          "Table III set %u step %u half %u", table3[i].set, table3[i].step, h);
                }
            } else {
                /* Figure 10c: each step, a 4x4 A sub-tile times a 4x4 B sub-tile: the
                 * octet's B columns 0:3 in step 0, 4:7 in step 1 */
                for (unsigned s = 0; s < 4; s++)
                    for (unsigned p = 0; p < 2; p++) {
                        tc_hmma_access ac;
                        tc_hmma_access_of(&cfg, s, p, h, &ac);
                        CHECK(ac.row0 == 4 * h && ac.rows == 4 && ac.k0 == 4 * s &&
                                  ac.col0 == 4 * p && ac.cols == 4 && ac.acc_pair == p,
                              "Figure 10c set %u step %u half %u", s, p, h);
                    }
            }
        }
    }
    tc_hmma_cfg bad = {TC_SHAPE_M16N16K16, TC_LAYOUT_ROW, TC_LAYOUT_ROW, TC_FMT_BF16};
    CHECK(tc_hmma_geometry(&bad, NULL, NULL, NULL) == TC_EFORMAT, "bf16 accumulator");
    /* a layout that is neither row nor col (tcsim.h: an out-of-range value, TC_EINVAL) */
    tc_hmma_cfg badl = {TC_SHAPE_M16N16K16, TC_LAYOUT_COUNT, TC_LAYOUT_ROW, TC_FMT_FP32};
    CHECK(tc_hmma_geometry(&badl, NULL, NULL, NULL) == TC_EINVAL, "A layout %d", TC_LAYOUT_COUNT);
    badl.a_layout = TC_LAYOUT_ROW;
    badl.b_layout = TC_LAYOUT_COUNT;
    CHECK(tc_hmma_geometry(&badl, NULL, NULL, NULL) == TC_EINVAL, "B layout %d", TC_LAYOUT_COUNT);
    tc_hmma_cfg ok = {TC_SHAPE_M8N8K4, TC_LAYOUT_ROW, TC_LAYOUT_ROW, TC_FMT_FP32};
    tc_hmma_access ac;
    CHECK(tc_hmma_access_of(&ok, 1, 0, 0, &ac) == TC_EINVAL, "m8n8k4 has one set");
    CHECK(tc_hmma_access_of(&ok, 0, 4, 0, &ac) == TC_EINVAL, "mixed has four steps");
    /* tcsim_tc.h: half is 0 (threadgroup X) or 1 (X+4); 2 is out of range (TC_EINVAL) */
    CHECK(tc_hmma_access_of(&ok, 0, 0, 2, &ac) == TC_EINVAL, "half 2");
    /* tc_hmma_exec: set and step within tc_hmma_geometry's counts (m8n8k4: one set;
     * m16n16k16: four; mixed: four steps), else TC_EINVAL with nothing written */
    {
        static tc_warp_frags w;
        memset(&w, 0, sizeof w);
        tc_hmma_cfg big = {TC_SHAPE_M16N16K16, TC_LAYOUT_ROW, TC_LAYOUT_ROW, TC_FMT_FP32};
        CHECK(tc_hmma_exec(&ok, 1, 0, &w, NULL, NULL) == TC_EINVAL, "exec m8n8k4 set 1");
        CHECK(tc_hmma_exec(&big, 4, 0, &w, NULL, NULL) == TC_EINVAL, "exec set 4");
        CHECK(tc_hmma_exec(&big, 0, 4, &w, NULL, NULL) == TC_EINVAL, "exec step 4");
        CHECK(tc_hmma_exec(&big, 0, 0, NULL, NULL, NULL) == TC_EINVAL, "exec NULL frags");
    }
}

/* A step function that fails on its fifth call: tcsim_tc.h, "On an error no accumulator
 * is written", for the steps run one by one through fn as for the batch. */
static tc_status fail_fifth(void *ctx, const tc_profile *p, size_t n, const uint32_t *a,
                            const uint32_t *b, uint32_t c, uint32_t *d)
{
    (void)p; (void)n; (void)a; (void)b;
    unsigned *calls = ctx;
    *d = c + 1; /* a write-back would show */
    return ++*calls == 5 ? TC_EIO : TC_OK;
}

static void test_exec_error(void)
{
    for (int acc = 0; acc < 2; acc++) {
        tc_hmma_cfg cfg = {TC_SHAPE_M16N16K16, TC_LAYOUT_ROW, TC_LAYOUT_COL,
                           acc ? TC_FMT_FP16 : TC_FMT_FP32};
        static tc_warp_frags w, before;
        for (unsigned l = 0; l < 32; l++)
            for (unsigned e = 0; e < TC_FRAG_MAX; e++) {
                w.a[l][e] = w.b[l][e] = 0x3c00;
                w.c[l][e] = 0x1000u * l + e;
            }
        before = w;
        unsigned calls = 0;
        CHECK(tc_hmma_exec(&cfg, 1, 1, &w, fail_fifth, &calls) == TC_EIO && calls == 5,
              "acc %d: the step function's error is returned (%u calls)", acc, calls);
        CHECK(!memcmp(w.c, before.c, sizeof w.c), "acc %d: an HMMA whose fifth step failed "
              "wrote accumulators", acc);
    }
}

/* The names of shapes and layouts (tcsim_tc.h): NULL past the last. */
static void test_names(void)
{
    CHECK_COND(!strcmp(tc_shape_name(TC_SHAPE_M8N8K4), "m8n8k4") &&
               tc_shape_name(TC_SHAPE_COUNT) == NULL);
    CHECK_COND(!strcmp(tc_layout_name(TC_LAYOUT_COL), "col") &&
               tc_layout_name(TC_LAYOUT_COUNT) == NULL);
}

int main(void)
{
    test_names();
    test_m8n8k4();
    test_wmma();
    test_sets_steps();
    test_exec_error();
    printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
    return failures != 0;
}
