/* probe_write.c - what the probe writes: vectors in `tcsim vectors`' layout
 * (cli/gpu_vectors.h), the header of a run, and a timing record in timing.txt's format
 * with the measured points beside the model's predictions. */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include "probe.h"

static int say(const char *path, const char *what)
{
    fprintf(stderr, "tcsim-probe: %s: %s\n", path, what);
    return -1;
}

/* A pattern of fmt as a file's word: fp32 bits for a float format, the value as a
 * 32-bit two's-complement word for an integer one (cli/gpu_vectors.h). */
static uint32_t word_of(tc_fmt fmt, uint32_t p)
{
    uint32_t x;
    int32_t v;
    if (tc_fmt_get(fmt)->cls == TC_CLASS_INT)
        return tc_int_value(fmt, p, &v) == TC_OK ? (uint32_t)v : 0;
    if (tc_convert_exact(fmt, p, TC_FMT_FP32, &x) != TC_OK)
        x = 0x7fc00000u; /* a NaN of fmt: fp32 has no other exact image of it */
    return x;
}

/* Writes n rows of per words (patterns of fmt, as word_of's words in hex; or, w64 given,
 * binary64 patterns in 16 hex digits) to dir/name. */
static int write_rows(const char *dir, const char *name, tc_fmt fmt, size_t n, unsigned per,
                      const uint32_t *w, const uint64_t *w64)
{
    char path[1024];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return say(dir, "path too long");
    FILE *f = fopen(path, "w");
    if (!f)
        return say(path, strerror(errno));
    for (size_t i = 0; i < n; i++)
        for (unsigned j = 0; j < per; j++) {
            if (w64)
                fprintf(f, "%016llx", (unsigned long long)w64[i * per + j]);
            else
                fprintf(f, "%08x", (unsigned)word_of(fmt, w[i * per + j]));
            fputc(j + 1 < per ? ' ' : '\n', f);
        }
    if (fclose(f) != 0)
        return say(path, "cannot write");
    return 0;
}

int probe_write_vectors(const char *dir, const char *gpu, const probe_form *f, size_t n,
                        const uint32_t *a, const uint32_t *b, const uint32_t *c,
                        const uint32_t *d, int write_inputs)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return say(dir, strerror(errno));
    char name[256];
    const char *in = tc_fmt_get(f->in)->name;
    if (write_inputs) {
        snprintf(name, sizeof name, "a_%s_%s.txt", gpu, in);
        if (write_rows(dir, name, f->in, n, f->k, a, NULL))
            return -1;
        tc_fmt fb = probe_fmt_b(f);
        snprintf(name, sizeof name, "b_%s_%s.txt", gpu, tc_fmt_get(fb)->name);
        if (write_rows(dir, name, fb, n, f->k, b, NULL))
            return -1;
        /* c as the probe drew it: fp32 for the float accumulators, s32 for s32 */
        tc_fmt cf = f->acc == TC_FMT_S32 ? TC_FMT_S32 : TC_FMT_FP32;
        snprintf(name, sizeof name, "c_%s_%s.txt", gpu, tc_fmt_get(cf)->name);
        if (write_rows(dir, name, cf, n, 1, c, NULL))
            return -1;
    }
    snprintf(name, sizeof name, "d_%s_%s.txt", gpu, tc_fmt_get(f->acc)->name);
    return write_rows(dir, name, f->acc, n, 1, d, NULL);
}

int probe_write_vectors_f64(const char *dir, const char *gpu, const probe_form *f, size_t n,
                            const uint64_t *a, const uint64_t *b, const uint64_t *c,
                            const uint64_t *d)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return say(dir, strerror(errno));
    static const char p[4] = {'a', 'b', 'c', 'd'};
    const uint64_t *w[4] = {a, b, c, d};
    for (int i = 0; i < 4; i++) {
        char name[256];
        snprintf(name, sizeof name, "%c_%s_fp64.txt", p[i], gpu);
        if (write_rows(dir, name, TC_FMT_FP64, n, i < 2 ? f->k : 1, NULL, w[i]))
            return -1;
    }
    return 0;
}

/* dir/<p>_<gpu><suffix>.txt: n lines of per scale patterns of s, or (s NULL) the line
 * `word`. */
static int write_sf(const char *dir, const char *p, const char *gpu, const char *suffix,
                    size_t n, unsigned per, const uint32_t *s, const char *word)
{
    char path[1024];
    if (snprintf(path, sizeof path, "%s/%s_%s%s.txt", dir, p, gpu, suffix) >= (int)sizeof path)
        return say(dir, "path too long");
    FILE *out = fopen(path, "w");
    if (!out)
        return say(path, strerror(errno));
    for (size_t i = 0; s && i < n; i++)
        for (unsigned j = 0; j < per; j++)
            fprintf(out, "%02x%c", (unsigned)s[i * per + j], j + 1 < per ? ' ' : '\n');
    if (!s)
        fprintf(out, "%s\n", word);
    return fclose(out) == 0 ? 0 : say(path, "cannot write");
}

int probe_write_scales(const char *dir, const char *gpu, const probe_form *f, size_t n,
                       const uint32_t *sa, const uint32_t *sb)
{
    char suffix[32];
    snprintf(suffix, sizeof suffix, "_%s", tc_fmt_get(f->scale)->name);
    unsigned nsf = f->k / f->block;
    return write_sf(dir, "sa", gpu, suffix, n, nsf, sa, NULL) ||
                   write_sf(dir, "sb", gpu, suffix, n, nsf, sb, NULL) ||
                   write_sf(dir, "kind", gpu, "", 0, 0, NULL, f->kind)
               ? -1
               : 0;
}

int probe_write_popc(const char *dir, const char *gpu, const probe_form *f)
{
    return write_sf(dir, "kind", gpu, "", 0, 0, NULL, f->op == TC_KIND_POPC_AND ? "and" : "xor");
}

int probe_write_sparse(const char *dir, const char *gpu, const probe_form *f, size_t cases)
{
    char path[1024];
    if (snprintf(path, sizeof path, "%s/sparse_%s.txt", dir, gpu) >= (int)sizeof path)
        return say(dir, "path too long");
    FILE *out = fopen(path, "w");
    if (!out)
        return say(path, strerror(errno));
    for (size_t i = 0; i < cases; i++) {
        unsigned k0, k1;
        probe_sp_kept((unsigned)(i / f->n % PROBE_SP_PATTERNS), &k0, &k1);
        fprintf(out, "keep %u %u\n", k0, k1);
    }
    return fclose(out) == 0 ? 0 : say(path, "cannot write");
}

int probe_write_header(const char *path, const probe_gpu *g, const char *date, uint64_t seed,
                       size_t cases)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return say(path, strerror(errno));
    fprintf(f, "gpu %s\ndriver %s\nsm %u\nsms %u\nclock_mhz %u\ndate %s\nseed %llu\n"
               "cases %zu\n", g->name, g->driver, g->sm, g->sms, g->clock_mhz, date,
            (unsigned long long)seed, cases);
    return fclose(f) == 0 ? 0 : say(path, "cannot write");
}

/* --------------------------------------------------------------- the record */

/* The model's prediction of a point under record r (tc_bench_mma / tc_bench_async). */
static tc_status predict(const tc_gpu_timing *r, const probe_point *p, tc_bench_result *out)
{
    /* a CTA pair's point is each SM's half: the model's cta_group 2 (tcsim_timing.h) */
    tc_mma_op op = {p->f.pair ? p->f.m / 2 : p->f.m, p->f.n, p->f.k, p->f.in, p->f.acc,
                    p->f.sparse};
    if (p->f.instr == TC_INSTR_MMA)
        return tc_bench_mma(r, &op, p->warps, p->ilp, p->iters, out);
    return tc_bench_async(r, &op, p->f.instr, p->warps, p->ilp, p->iters, out);
}

static unsigned key_bit(const char *key)
{
    for (unsigned i = 0; tc_gpu_timing_key(i); i++)
        if (!strcmp(tc_gpu_timing_key(i), key))
            return 1u << i;
    return 0;
}

/* The point of instr with warps and ilp (0: any; the fullest, warps x ilp largest),
 * of form `same` if given, else of the widest N among the first form's shape class. */
static const probe_point *find_point(const probe_point *pts, size_t n, tc_instr instr,
                                     unsigned warps, unsigned ilp, const probe_form *same)
{
    const probe_point *best = NULL;
    for (size_t i = 0; i < n; i++) {
        const probe_point *p = &pts[i];
        if (p->f.instr != instr || (warps && p->warps != warps) || (ilp && p->ilp != ilp) ||
            (same && memcmp(&p->f, same, sizeof *same)))
            continue;
        if (!best)
            best = p;
        else if (warps == 0 ? p->warps * p->ilp > best->warps * best->ilp
                            : !same && p->f.in == best->f.in && p->f.acc == best->f.acc &&
                                  p->f.n > best->f.n)
            best = p;
    }
    return best;
}

/* The single-warp, ILP-1 mma point the record is calibrated on: m16n8k16 fp16 -> fp32
 * where measured (the structure's own shape; Hopper runs m8n8k4 and fp8 mma.sync as
 * emulations the model does not time), else the first dense mma the model times. */
static const probe_point *ref_latency(const tc_gpu_timing *r, const probe_point *pts, size_t n)
{
    const probe_point *first = NULL;
    for (size_t i = 0; i < n; i++) {
        const probe_point *p = &pts[i];
        tc_bench_result b;
        if (p->f.instr != TC_INSTR_MMA || p->f.sparse || p->warps != 1 || p->ilp != 1 ||
            predict(r, p, &b) != TC_OK)
            continue;
        if (p->f.m == 16 && p->f.k == 16 && p->f.in == TC_FMT_FP16 && p->f.acc == TC_FMT_FP32)
            return p;
        if (!first)
            first = p;
    }
    return first;
}

/* Moves *key by the measured less the predicted cycles per iteration of point p (a
 * latency point: the key adds to it one for one). 1 if it could. */
static int calibrate(tc_gpu_timing *r, const probe_point *p, unsigned *key)
{
    tc_bench_result b;
    if (predict(r, p, &b) != TC_OK)
        return 0;
    long long meas10 = (long long)((p->cycles * 10 + p->iters / 2) / p->iters);
    long long d10 = meas10 - (long long)b.latency_x10;
    long long v = (long long)*key + (d10 + (d10 >= 0 ? 5 : -5)) / 10;
    *key = v < 0 ? 0 : v > 100000 ? 100000 : (unsigned)v;
    return 1;
}

/* Cycles per instruction on a sub-core at the fullest point of p's form, and the
 * structure's beats for it (its interval without ii_extra and ii_min): 1 if the form
 * has a point with 4 warps a sub-core (every sub-core has warps to spare) that the
 * model times. */
static int issue_of(const tc_gpu_timing *r, const probe_point *pts, size_t n,
                    const probe_point *p, unsigned *per, unsigned *beats)
{
    const probe_point *full = find_point(pts, n, TC_INSTR_MMA, 0, 0, &p->f);
    tc_gpu_timing bare = *r;
    bare.ii_extra = bare.sparse_ii_extra = 0;
    bare.ii_min = bare.sparse_ii_min = 1;
    tc_mma_op op = {p->f.m, p->f.n, p->f.k, p->f.in, p->f.acc, p->f.sparse};
    tc_op_timing t;
    if (full != p || p->warps < 4 * r->subcores || tc_op_timing_of(&bare, &op, &t) != TC_OK)
        return 0;
    uint64_t per_x2 = 2 * p->cycles * r->subcores / ((uint64_t)p->iters * p->ilp * p->warps);
    *per = (unsigned)((per_x2 + 1) / 2);
    *beats = t.issue_interval;
    return 1;
}

/* The issue keys from every mma form's fullest point: an instruction takes its beats +
 * ii_extra (+ sparse_ii_extra if sparse) cycles of a sub-core, at least ii_min. The
 * fewest extra cycles any dense form shows is ii_extra, any sparse form's fewest more
 * is sparse_ii_extra: a form that takes more is held by the floor, or is an emulation
 * the structure does not time (Hopper's fp8 mma.sync, 2-3x slower). ii_min is the
 * fewest cycles of a dense form held above its beats + ii_extra, if that is no more than
 * a form that takes exactly its beats + ii_extra (so that no emulation passes for it). */
static void calibrate_issue(tc_gpu_timing *r, const probe_point *pts, size_t n)
{
    unsigned per, beats, extra = UINT_MAX, sp_extra = UINT_MAX, floor = UINT_MAX, exact = 0;
    for (size_t i = 0; i < n; i++)
        if (!pts[i].f.sparse && issue_of(r, pts, n, &pts[i], &per, &beats) &&
            (per > beats ? per - beats : 0) < extra)
            extra = per > beats ? per - beats : 0;
    if (extra == UINT_MAX)
        return;
    r->ii_extra = extra;
    r->uncalibrated &= ~key_bit("ii_extra");
    for (size_t i = 0; i < n; i++) {
        if (!issue_of(r, pts, n, &pts[i], &per, &beats))
            continue;
        unsigned over = per > beats + extra ? per - beats - extra : 0;
        if (pts[i].f.sparse && over < sp_extra)
            sp_extra = over;
        if (!pts[i].f.sparse && over && per < floor)
            floor = per;
        if (!pts[i].f.sparse && !over && per > exact)
            exact = per;
    }
    if (sp_extra != UINT_MAX) {
        r->sparse_ii_extra = sp_extra;
        r->uncalibrated &= ~key_bit("sparse_ii_extra");
    }
    if (floor <= exact) {
        r->ii_min = floor;
        r->uncalibrated &= ~key_bit("ii_min");
    }
}

int probe_write_record(FILE *out, const char *name, const probe_gpu *g,
                       const probe_point *pts, size_t n)
{
    tc_arch arch = probe_arch_of_sm(g->sm);
    tc_gpu_timing r;
    if (arch == TC_ARCH_COUNT || tc_gpu_timing_find(tc_arch_name(arch), &r) != TC_OK) {
        fprintf(stderr, "tcsim-probe: no timing record of sm_%u's arch to start from\n", g->sm);
        return -1;
    }
    snprintf(r.name, sizeof r.name, "%s", name);
    /* depth from the reference single-warp, ILP-1 mma point: the rest of the structure's
     * latency is its rate's (steps, beats) and the loop's, so the difference is depth's */
    const probe_point *lat = ref_latency(&r, pts, n);
    if (lat && calibrate(&r, lat, &r.depth))
        r.uncalibrated &= ~key_bit("depth");
    calibrate_issue(&r, pts, n);
    /* async_wait from the one-warpgroup, ILP-1 point of the widest wgmma (Blackwell:
     * tcgen05.mma's one-issuer point): its latency less the structure's is the wait's
     * round trip (wait_group, or commit to the mbarrier and its wait) */
    const probe_point *wg = find_point(pts, n, TC_INSTR_WGMMA, 4, 1, 0);
    if (!wg)
        wg = find_point(pts, n, TC_INSTR_TCGEN05, 4, 1, 0);
    if (wg && calibrate(&r, wg, &r.async_wait))
        r.uncalibrated &= ~key_bit("async_wait");
    const struct { const char *key; unsigned v;
    } kv[] = {
        {"subcores", r.subcores},
        {"tc_per_subcore", r.tc_per_subcore},
        {"fedps_per_tc", r.fedps_per_tc},
        {"fedp_len16", r.fedp_len16},
        {"acc32_rate_div", r.acc32_rate_div},
        {"step_k16", r.step_k16},
        {"depth", r.depth},
        {"drain_rows", r.drain_rows},
        {"step_fwd", r.step_fwd},
        {"acc32_extra", r.acc32_extra},
        {"ii_min", r.ii_min},
        {"sparse_ii_min", r.sparse_ii_min},
        {"warp_overhead", r.warp_overhead},
        {"measure_offset", r.measure_offset},
        {"acc32_buffer", r.acc32_buffer},
        {"volta_operand_fetch", r.volta.operand_fetch},
        {"volta_fedp_latency", r.volta.fedp_latency},
        {"volta_f16_pack", r.volta.f16_pack},
        {"volta_writeback", r.volta.writeback},
        {"volta_fedps_per_tg", r.volta.fedps_per_tg},
        {"async_wait", r.async_wait},
        {"ii_extra", r.ii_extra},
        {"sparse_ii_extra", r.sparse_ii_extra},
    };
    fprintf(out,
            "# Measured by tcsim-probe on %s (sm_%u, driver %s, %u SMs, SM clock %u MHz).\n"
            "# depth from the single-warp mma latency, the issue keys from every form's\n"
            "# fullest point, async_wait from the widest wgmma's (or tcgen05.mma's)\n"
            "# one-warpgroup latency, where measured;\n"
            "# '~' values are the built-in record's, not measured.\ngpu %s arch %s",
            g->name, g->sm, g->driver, g->sms, g->clock_mhz, name, tc_arch_name(arch));
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
        fprintf(out, "%s %s %s%u", i % 4 == 3 ? " \\\n   " : "", kv[i].key,
                r.uncalibrated & key_bit(kv[i].key) ? "~" : "", kv[i].v);
    fprintf(out, "\n# %-35s %5s %3s %10s %10s %10s %10s\n", "point (in>acc)", "warps", "ilp",
            "cyc/iter", "model", "FMA/clk/SM", "model");
    for (size_t i = 0; i < n; i++) {
        const probe_point *p = &pts[i];
        char op[64];
        tc_bench_result b;
        char fmts[16];
        probe_form_op(&p->f, op, sizeof op);
        snprintf(fmts, sizeof fmts, "%s>%s", tc_fmt_get(p->f.in)->name,
                 tc_fmt_get(p->f.acc)->name);
        uint64_t fmas = (uint64_t)probe_form_tiles(&p->f) * (p->f.pair ? p->f.m / 2 : p->f.m) *
                        p->f.n * p->f.k * p->ilp *
                        p->iters *
                        (p->f.instr == TC_INSTR_MMA ? p->warps : p->warps / 4);
        double lat = (double)p->cycles / p->iters, thr = p->cycles ? (double)fmas / p->cycles : 0;
        if (predict(&r, p, &b) == TC_OK)
            fprintf(out, "# %-24s %-10s %5u %3u %10.1f %10.1f %10.1f %10.1f\n", op,
                    fmts, p->warps, p->ilp, lat, b.latency_x10 / 10.0,
                    thr, b.fma_per_clk_x10 / 10.0);
        else
            fprintf(out, "# %-24s %-10s %5u %3u %10.1f %10s %10.1f %10s\n", op,
                    fmts, p->warps, p->ilp, lat, "-", thr, "-");
    }
    return ferror(out) ? -1 : 0;
}
