/* cmd_tmem.c - `tcsim tmem-map` and `tcsim tmem-demo`: the Blackwell tensor memory
 * (seed 003 section 1.1; model/include/tcsim_tmem.h, rtl/tmem.sv).
 *
 * tmem-map prints where a (lane, column) word lives in each organization. tmem-demo runs
 * a fixed sequence of requests (cp, ld, st, shift, masked MMA D write, MMA A read) and
 * prints what each costs, one line per organization; with --engine rtl the cycles are
 * counted on the Verilated RTL and its contents are compared with the model's. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "cli_engine.h"

/* Option parsers for cli_parse_opts: the value s of opt into out. */
static int parse_banks(const char *cmd, const char *opt, const char *s, void *out)
{
    (void)opt;
    if (!strcmp(s, "8") || !strcmp(s, "4")) {
        *(unsigned *)out = (unsigned)(s[0] - '0');
        return 0;
    }
    fprintf(stderr, "tcsim %s: bad value for --banks '%s' (8 or 4)\n", cmd, CLI_WORD(s));
    return -1;
}

static int parse_lane(const char *cmd, const char *opt, const char *s, void *out)
{
    return cli_parse_uint(cmd, opt, s, 0, TC_TMEM_LANES - 1, out);
}

static int parse_col(const char *cmd, const char *opt, const char *s, void *out)
{
    return cli_parse_uint(cmd, opt, s, 0, TC_TMEM_COLS - 1, out);
}

/* --engine model|rtl: out (an int) is 1 for rtl. */
static int parse_engine(const char *cmd, const char *opt, const char *s, void *out)
{
    (void)opt;
    if (strcmp(s, "model") && strcmp(s, "rtl")) {
        fprintf(stderr, "tcsim %s: unknown --engine '%s' (model or rtl)\n", cmd, CLI_WORD(s));
        return -1;
    }
    *(int *)out = !strcmp(s, "rtl");
    return 0;
}

/* ------------------------------------------------------------- tmem-map */

static void map_help(const void *ctx)
{
    (void)ctx;
    printf("usage: tcsim tmem-map --lane L --col C [--banks 8|4]\n\n"
           "Where word (L, C) of the tensor memory lives: 128 lanes (0-127) x 512 "
           "columns (0-511)\nof 32 bits, 4 lane groups of 32 lanes, banks of 32 "
           "lanes:\n  group = L / 32, bank = C %% banks, row = C / banks\n"
           "for 8 banks x 64 rows and 4 banks x 128 rows per group (both unless "
           "--banks).\n");
}

static int map_run(int argc, char **argv)
{
    const char *cmd = "tmem-map";
    unsigned long long lane = 0, col = 0;
    int have_lane = 0, have_col = 0;
    unsigned only = 0;
    const cli_opt opt[] = {{.name = "--lane", .flag = &have_lane, .parse = parse_lane,
                            .dst = &lane},
                           {.name = "--col", .flag = &have_col, .parse = parse_col, .dst = &col},
                           {.name = "--banks", .parse = parse_banks, .dst = &only}};
    int st = cli_parse_opts(&(cli_opts){cmd, "option", 1, map_help, NULL,
                                        opt, CLI_COUNT(opt)}, argc, argv);
    if (st >= 0)
        return st;
    if (!have_lane || !have_col) {
        fprintf(stderr, "tcsim %s: %s is required (tcsim %s --help)\n", cmd,
                have_lane ? "--col" : "--lane", cmd);
        return CLI_USAGE;
    }
    for (unsigned banks = 8; banks >= 4; banks -= 4) {
        if (only && banks != only)
            continue;
        tc_tmem_loc l;
        if (tc_tmem_map(banks, (unsigned)lane, (unsigned)col, &l) != TC_OK) {
            fprintf(stderr, "tcsim %s: internal error mapping lane %llu col %llu\n", cmd, lane, col);
            return CLI_FAIL;
        }
        printf("lane %llu col %llu, %u banks x %u rows: group %u (lane %u of the group), "
               "bank %u, row %u\n",
               lane, col, banks, TC_TMEM_COLS / banks, l.group, l.group_lane, l.bank, l.row);
    }
    return CLI_OK;
}

const cli_cmd cmd_tmem_map = {
    "tmem-map", "where a tensor-memory word lives: group, bank, row (seed 003)", map_run
};

/* ------------------------------------------------------------- tmem-demo */

/* One organization under one engine: the model alone, or the RTL with the model beside
 * it (same inputs) so that its contents can be compared at the end. */
typedef struct demo {
    unsigned banks;
    tc_tmem *model;
    const engine_tmem_ops *ops;  /* --engine rtl: the registry's "tmem" engine */
    void *rtl;                   /* and its instance */
    int mismatch;
} demo;

/* Presents one request until ready; returns the cycles of the engine that counts (the
 * RTL when there is one) and leaves the read results in *out. */
static unsigned demo_request(demo *d, const tc_tmem_inputs *in, tc_tmem_port port,
                             tc_tmem_outputs *out)
{
    unsigned n = 0, n_model = 0;
    tc_tmem_outputs o = { 0 };
    do {
        if (tc_tmem_clock(d->model, in, &o) != TC_OK) {
            d->mismatch = 1;  /* the script's own inputs are valid: cannot happen */
            break;
        }
        n_model++;
    } while (!(o.ready & (1u << port)) && n_model < 64);
    *out = o;
    n = n_model;
    if (d->rtl) {
        tc_tmem_outputs r;
        n = 0;
        do {
            d->ops->cycle(d->rtl, in, &r);
            n++;
        } while (!(r.ready & (1u << port)) && n < 64);
        if (n != n_model)
            d->mismatch = 1;
        if (port == TC_TMEM_PORT_A && memcmp(r.a_rdata, o.a_rdata, TC_TMEM_WIDE_WORDS * 4))
            d->mismatch = 1;
        if (port == TC_TMEM_PORT_LS && !in->ls_store &&
            memcmp(r.ls_rdata, o.ls_rdata, TC_TMEM_QUARTER_WORDS * 4))
            d->mismatch = 1;
        out->a_rdata = o.a_rdata;  /* keep the model's (stable) copies for the checks */
    }
    return n;
}

/* .32x32b.xN as ceil(N/8) ld/st requests of up to 8 columns. */
static unsigned demo_shape(demo *d, int store, unsigned group, unsigned col, unsigned num,
                           const uint32_t *src, uint32_t *dst)
{
    unsigned cycles = 0;
    for (unsigned done = 0; done < num; done += TC_TMEM_SLICE) {
        unsigned n = num - done < TC_TMEM_SLICE ? num - done : TC_TMEM_SLICE;
        tc_tmem_inputs in = { .ls_valid = 1, .ls_store = store, .ls_group = group,
                              .ls_col = (col + done) % TC_TMEM_COLS, .ls_ncols = n,
                              .ls_data = store ? src + done * TC_TMEM_GROUP_LANES : NULL };
        tc_tmem_outputs o;
        cycles += demo_request(d, &in, TC_TMEM_PORT_LS, &o);
        if (dst && o.ls_rdata)
            memcpy(dst + done * TC_TMEM_GROUP_LANES, o.ls_rdata,
                   (size_t)n * TC_TMEM_GROUP_LANES * sizeof *dst);
    }
    return cycles;
}

enum { STEP_CP, STEP_LD8, STEP_LD128, STEP_ST4, STEP_SHIFT, STEP_SHIFT2, STEP_MMA_D, STEP_MMA_A,
       N_STEPS };
static const char *const step_name[N_STEPS] = {
    "cp", "ld .x8", "ld .x128", "st .x4", "shift", "shift x2", "mma-d", "mma-a"
};
static const char *const step_what[N_STEPS] = {
    "tcgen05.cp .128x256b: 128 lanes x 8 columns from shared memory, at column 8",
    "tcgen05.ld .32x32b.x8: warp quarter 1 reads columns 8-15 of its 32 lanes",
    "tcgen05.ld .32x32b.x128: 128 columns, 16 requests of 8",
    "tcgen05.st .32x32b.x4: warp quarter 2 writes 4 columns at 510 (wraps to 0, 1)",
    "tcgen05.shift: columns 8-15, every lane to the next one (lane 0 kept)",
    "two back-to-back shifts of the same columns",
    "MMA D write, 8 columns at 16, lanes 0-31 disabled (disable-output-lane)",
    "MMA A read of columns 8-15 (after 3 shifts lane n holds lane n-3's word)",
};

/* The demo's script; cycles[s] gets each step's cost, *ok the data checks. */
static int demo_script(demo *d, unsigned cycles[N_STEPS], int *ok)
{
    static uint32_t wide[TC_TMEM_WIDE_WORDS], quarter[128 * TC_TMEM_GROUP_LANES];
    tc_tmem_outputs o = { 0 };
    *ok = 1;
    /* tags: slot k, lane l -> 0xc0kk00ll */
    for (unsigned k = 0; k < TC_TMEM_SLICE; k++)
        for (unsigned l = 0; l < TC_TMEM_LANES; l++)
            wide[k * TC_TMEM_LANES + l] = 0xc0000000u | (k << 16) | l;
    tc_tmem_inputs cp = { .cp_valid = 1, .cp_col = 8, .cp_data = wide };
    cycles[STEP_CP] = demo_request(d, &cp, TC_TMEM_PORT_CP, &o);

    cycles[STEP_LD8] = demo_shape(d, 0, 1, 8, 8, NULL, quarter);
    if (quarter[5] != (0xc0000000u | (32 + 5)))  /* lane 37, column 8 */
        *ok = 0;
    cycles[STEP_LD128] = demo_shape(d, 0, 1, 0, 128, NULL, quarter);

    for (unsigned i = 0; i < 4 * TC_TMEM_GROUP_LANES; i++)
        quarter[i] = 0x5a000000u | i;
    cycles[STEP_ST4] = demo_shape(d, 1, 2, 510, 4, quarter, NULL);

    tc_tmem_inputs sh = { .shift_valid = 1, .shift_col = 8 };
    cycles[STEP_SHIFT] = demo_request(d, &sh, TC_TMEM_PORT_SHIFT, &o);
    cycles[STEP_SHIFT2] = demo_request(d, &sh, TC_TMEM_PORT_SHIFT, &o);
    cycles[STEP_SHIFT2] += demo_request(d, &sh, TC_TMEM_PORT_SHIFT, &o);

    for (unsigned i = 0; i < TC_TMEM_WIDE_WORDS; i++)
        wide[i] = 0xd0000000u | i;
    tc_tmem_inputs dw = { .d_valid = 1, .d_col = 16, .d_data = wide,
                          .d_disable = { 0xffffffffu, 0, 0, 0 } };
    cycles[STEP_MMA_D] = demo_request(d, &dw, TC_TMEM_PORT_D, &o);
    uint32_t w0 = 0, w40 = 0;
    tc_tmem_peek(d->model, 0, 16, &w0);
    tc_tmem_peek(d->model, 40, 16, &w40);
    if (w0 != 0 || w40 != wide[40])  /* lane 0 disabled (still 0), lane 40 written */
        *ok = 0;

    tc_tmem_inputs a = { .a_valid = 1, .a_col = 8 };
    cycles[STEP_MMA_A] = demo_request(d, &a, TC_TMEM_PORT_A, &o);
    /* after 3 shifts lane n of column 8 holds the tag of lane max(0, n-3) */
    for (unsigned l = 0; l < TC_TMEM_LANES; l++)
        if (!o.a_rdata || o.a_rdata[l] != (0xc0000000u | (l >= 3 ? l - 3 : 0)))
            *ok = 0;
    return 0;
}

static void tmem_demo_help(const void *ctx)
{
    (void)ctx;
    printf("usage: tcsim tmem-demo [--engine model|rtl] [--banks 8|4]\n\n"
           "Runs a fixed sequence of tensor-memory requests and prints the cycles of "
           "each,\nfor 8 banks x 64 rows and 4 banks x 128 rows per lane group "
           "(seed 003):\n");
    for (int s = 0; s < N_STEPS; s++)
        printf("  %-9s %s\n", step_name[s], step_what[s]);
    printf("\n--engine rtl counts the cycles on the Verilated rtl/tmem.sv and compares "
           "its\nread data and contents with the model's.\n");
}

static int demo_run(int argc, char **argv)
{
    const char *cmd = "tmem-demo";
    int rtl = 0;
    const engine_tmem_ops *ops = NULL;
    unsigned only = 0;
    const cli_opt opt[] = {{.name = "--engine", .parse = parse_engine, .dst = &rtl},
                           {.name = "--banks", .parse = parse_banks, .dst = &only}};
    int st = cli_parse_opts(&(cli_opts){cmd, "option", 1, tmem_demo_help, NULL,
                                        opt, CLI_COUNT(opt)}, argc, argv);
    if (st >= 0)
        return st;
    if (rtl) {
        const engine_entry *e = cli_engine(cmd, "tmem", ENGINE_TMEM,
                                           "tensor-memory RTL (configure with -DTCSIM_RTL=ON)");
        if (!e)
            return CLI_USAGE;
        ops = e->ops.tmem;
    }
    unsigned cycles[2][N_STEPS];
    unsigned orgs[2], n_orgs = 0;
    int status = CLI_OK;
    for (unsigned banks = 8; banks >= 4; banks -= 4) {
        if (only && banks != only)
            continue;
        demo d = { .banks = banks, .ops = ops };
        if (tc_tmem_new(banks, &d.model) != TC_OK) {
            fprintf(stderr, "tcsim %s: out of memory\n", cmd);
            return CLI_FAIL;
        }
        if (rtl && !(d.rtl = ops->open(banks))) {
            fprintf(stderr, "tcsim %s: cannot start the Verilated %u-bank tmem\n", cmd, banks);
            tc_tmem_free(d.model);
            return CLI_FAIL;
        }
        /* the RTL's storage is undefined until written: zero it like the model's */
        if (rtl) {
            static const uint32_t zero[TC_TMEM_WIDE_WORDS];
            tc_tmem_inputs z = { .cp_valid = 1, .cp_data = zero };
            tc_tmem_outputs o;
            for (unsigned c = 0; c < TC_TMEM_COLS; c += TC_TMEM_SLICE) {
                z.cp_col = c;
                demo_request(&d, &z, TC_TMEM_PORT_CP, &o);
            }
        }
        int ok;
        demo_script(&d, cycles[n_orgs], &ok);
        if (d.rtl) {
            for (unsigned l = 0; l < TC_TMEM_LANES && !d.mismatch; l++)
                for (unsigned c = 0; c < TC_TMEM_COLS; c++) {
                    uint32_t r = 0, m = 0;
                    ops->peek(d.rtl, l, c, &r);
                    tc_tmem_peek(d.model, l, c, &m);
                    if (r != m) {
                        d.mismatch = 1;
                        break;
                    }
                }
            ops->close(d.rtl);
        }
        tc_tmem_free(d.model);
        if (!ok) {
            fprintf(stderr, "tcsim %s: %u banks: the data checks of the demo failed\n", cmd, banks);
            status = CLI_FAIL;
        }
        if (d.mismatch) {
            fprintf(stderr, "tcsim %s: %u banks: the RTL differs from the model\n", cmd, banks);
            status = CLI_FAIL;
        }
        orgs[n_orgs++] = banks;
    }
    printf("tensor memory: 128 lanes x 512 columns x 32 bits, 4 groups of 32 lanes; cycles "
           "counted on the %s\n", rtl ? "Verilated RTL (rtl/tmem.sv), checked against the model"
                                      : "model");
    for (int s = 0; s < N_STEPS; s++)
        for (unsigned o = 0; o < n_orgs; o++)
            printf("%-10s %u banks x %u rows: %u cycle%s\n", step_name[s], orgs[o],
                   TC_TMEM_COLS / orgs[o], cycles[o][s], cycles[o][s] == 1 ? "" : "s");
    if (status == CLI_OK)
        printf("data checks: the ld sees the cp, the shifts move every lane to the next one "
               "(lane 0 kept),\nthe disabled lanes keep their words%s\n",
               rtl ? "; the RTL's read data and contents equal the model's" : "");
    return status;
}

const cli_cmd cmd_tmem_demo = {
    "tmem-demo", "cycles of cp, ld, st, shift and MMA ports, 8 vs 4 banks (seed 003)", demo_run
};
