/* probe_main.c - tcsim-probe: lists the forms of a target, or measures the GPU it runs on
 * and writes what it measured (probe.h; docs/timing.md "The probe"). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "probe.h"

enum { MAX_FORMS = 512, MAX_POINTS = 512 };

static void usage(FILE *f)
{
    fprintf(f,
        "usage: tcsim-probe --list [--sm NN]\n"
        "       tcsim-probe --out DIR [--cases N] [--seed S] [--iters N] [--date TEXT]\n\n"
        "--list prints the forms the probe measures on target sm_NN (default: the GPU's),\n"
        "with 'numerics' and 'timing' where this build has a kernel for them.\n"
        "--out measures the GPU: for each numerics form N random cases (default 5000) in\n"
        "the test generators' families, written under DIR/vectors/ as `tcsim vectors`\n"
        "reads them; seed 004's latency and warps x ILP throughput loops for each timing\n"
        "form, written as DIR/timing.txt (`tcsim timing --params`) with the model's\n"
        "prediction beside each point; DIR/gpu.txt: GPU, driver, clock, date.\n");
}

static int parse_u(const char *opt, const char *s, unsigned long long max,
                   unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (!isdigit((unsigned char)*s) || *end || errno || v > max) {
        fprintf(stderr, "tcsim-probe: bad value for %s '%s' (an integer up to %llu)\n", opt,
                s, max);
        return -1;
    }
    *out = v;
    return 0;
}

static void print_list(unsigned sm, const probe_form *forms, size_t n)
{
    printf("sm_%u (%s): %zu forms\n%-31s %-10s %-5s %-8s %s\n", sm,
           tc_arch_name(probe_arch_of_sm(sm)), n, "form", "in", "acc", "numerics", "timing");
    for (size_t i = 0; i < n; i++) {
        char op[64], in[32];
        probe_form_op(&forms[i], op, sizeof op);
        probe_form_in(&forms[i], in, sizeof in);
        printf("%-31s %-10s %-5s %-8s %s\n", op, in,
               tc_fmt_get(forms[i].acc)->name, forms[i].numerics ? "yes" : "-",
               forms[i].timing ? "yes" : "-");
    }
}

/* "NVIDIA H100 80GB HBM3" -> "H100": the word tcsim vectors maps to an arch. */
static void short_name(const char *name, char *out, size_t size)
{
    if (!strncmp(name, "NVIDIA ", 7))
        name += 7;
    size_t n = 0;
    while (n + 1 < size && isalnum((unsigned char)name[n])) {
        out[n] = name[n];
        n++;
    }
    out[n] = 0;
}

/* Runs cases [0, n) of form f (n a multiple of the form's cases per instruction) on the
 * device into d: mma.sync through register fragments (probe_frag.c), wgmma and
 * tcgen05.mma through tiles. ws: scratch for PROBE_LANES * PROBE_MAX_REGS words per mma
 * (four arrays) or one m x k + k x n + 2 m x n tile set per wgmma or tcgen05.mma. 0, or
 * -1 with a message. */
static int run_form(const probe_form *f, size_t n, const uint32_t *a, const uint32_t *b,
                    const uint32_t *c, const uint32_t *sa, const uint32_t *sb, uint32_t *d,
                    uint32_t *ws, size_t ws_words)
{
    char err[256];
    const size_t per = f->n, ninstr = n / per;
    int rc = 0;
    if (f->instr != TC_INSTR_MMA) {
        size_t mk = (size_t)f->m * f->k, kn = (size_t)f->k * f->n, mn = (size_t)f->m * f->n;
        size_t nsf = f->kind ? f->k / f->block : 0;
        uint32_t *A = ws, *B = A + ninstr * mk, *C = B + ninstr * kn, *D = C + ninstr * mn;
        uint32_t *SA = D + ninstr * mn, *SB = SA + ninstr * f->m * nsf;
        if ((mk + kn + 2 * mn + (f->m + f->n) * nsf) * ninstr > ws_words)
            return -1;
        for (size_t t = 0; rc == 0 && t < ninstr; t++)
            if (probe_tile_pack(f, a + t * per * f->k, b + t * per * f->k, c + t * per, A + t * mk,
                                B + t * kn, C + t * mn) != TC_OK)
                rc = -1;
        /* case j's scales on A's row j and B's column j; A's other rows are zero */
        memset(SA, 0, ninstr * f->m * nsf * sizeof *SA);
        for (size_t t = 0; nsf && t < ninstr; t++) {
            memcpy(SA + t * f->m * nsf, sa + t * per * nsf, per * nsf * sizeof *SA);
            memcpy(SB + t * f->n * nsf, sb + t * per * nsf, per * nsf * sizeof *SB);
        }
        if (rc == 0 && (nsf ? probe_dev_tile_scaled(f, ninstr, A, B, SA, SB, C, D, err, sizeof err)
                            : probe_dev_tile(f, ninstr, A, B, C, D, err, sizeof err))) {
            fprintf(stderr, "tcsim-probe: %s\n", err);
            rc = -1;
        }
        for (size_t t = 0; rc == 0 && t < ninstr; t++)
            probe_tile_diag(f, D + t * mn, d + t * per);
        return rc;
    }
    probe_frag fr;
    const size_t regs = PROBE_LANES * PROBE_MAX_REGS;
    uint32_t *ar = ws, *br = ar + ninstr * regs, *cr = br + ninstr * regs, *dr = cr + ninstr * regs;
    if (probe_frag_of(f, &fr) != TC_OK || 4 * ninstr * regs > ws_words)
        return -1;
    for (size_t t = 0; rc == 0 && t < ninstr; t++)
        if (probe_frag_pack_sp(f, (unsigned)(t % PROBE_SP_PATTERNS), a + t * per * f->k,
                               b + t * per * f->k, c + t * per,
                               ar + t * PROBE_LANES * fr.a_regs,
                               br + t * PROBE_LANES * fr.b_regs,
                               cr + t * PROBE_LANES * fr.c_regs) != TC_OK)
            rc = -1;
    if (rc == 0 && probe_dev_mma(f, ninstr, ar, br, cr, dr, err, sizeof err)) {
        fprintf(stderr, "tcsim-probe: %s\n", err);
        rc = -1;
    }
    for (size_t t = 0; rc == 0 && t < ninstr; t++)
        probe_frag_diag(f, dr + t * PROBE_LANES * fr.d_regs, d + t * per);
    return rc;
}

/* The folder of form f's vectors under dir: <op>_<in> with '.' as '_'
 * ("mma_m16n8k16_fp16", "tcgen05_mxf4_m128n16k64_e2m1_ue8m0"). 0, or -1 (said). */
static int form_dir(const char *dir, const probe_form *f, char *sub, size_t size)
{
    char op[64], in[32];
    probe_form_op(f, op, sizeof op);
    probe_form_in(f, in, sizeof in);
    if (snprintf(sub, size, "%s/%s_%s", dir, op, in) >= (int)size) {
        fprintf(stderr, "tcsim-probe: %s: path too long\n", dir);
        return -1;
    }
    for (char *p = sub + strlen(dir) + 1; *p; p++)
        *p = *p == '.' ? '_' : *p;
    return 0;
}

/* An fp64 (DMMA) form: cases [0, n) as binary64 patterns (probe_case_f64) through its
 * register fragments (two words an f64) and the device, the first `cases` written under
 * sub. ws as run_form's. 0; 1 when the device gave no results (said); -1 for the host's
 * own failures. */
static int numerics_f64(const char *sub, const char *gpu, const probe_form *f, size_t n,
                        size_t cases, uint64_t seed, uint32_t *ws, size_t ws_words)
{
    probe_frag fr;
    char err[256];
    const size_t ninstr = n / f->n, regs = PROBE_LANES * PROBE_MAX_REGS;
    uint64_t *a = malloc(n * f->k * sizeof *a), *b = malloc(n * f->k * sizeof *b);
    uint64_t *c = malloc(n * sizeof *c), *d = malloc(n * sizeof *d);
    uint32_t *ar = ws, *br = ar + ninstr * regs, *cr = br + ninstr * regs, *dr = cr + ninstr * regs;
    int rc = a && b && c && d && probe_frag_of(f, &fr) == TC_OK && 4 * ninstr * regs <= ws_words
                 ? 0 : -1;
    if (rc)
        fprintf(stderr, "tcsim-probe: %s: no memory or scratch for %zu fp64 cases\n", sub, n);
    for (size_t i = 0; rc == 0 && i < n; i++)
        probe_case_f64(f->k, seed, i, a + i * f->k, b + i * f->k, c + i);
    for (size_t t = 0; rc == 0 && t < ninstr; t++)
        if (probe_frag_pack_f64(f, a + t * f->n * f->k, b + t * f->n * f->k, c + t * f->n,
                                ar + t * PROBE_LANES * fr.a_regs, br + t * PROBE_LANES * fr.b_regs,
                                cr + t * PROBE_LANES * fr.c_regs) != TC_OK)
            rc = -1;
    if (rc == 0 && probe_dev_mma(f, ninstr, ar, br, cr, dr, err, sizeof err)) {
        fprintf(stderr, "tcsim-probe: %s\n", err);
        rc = 1;
    }
    for (size_t t = 0; rc == 0 && t < ninstr; t++)
        probe_frag_diag_f64(f, dr + t * PROBE_LANES * fr.d_regs, d + t * f->n);
    if (rc == 0)
        rc = probe_write_vectors_f64(sub, gpu, f, cases, a, b, c, d);
    free(a), free(b), free(c), free(d);
    return rc;
}

/* Every numerics form: its cases through the device, written under dir. A form the
 * device fails is said and skipped; *failed counts them. -1 only for the host's own
 * failures (memory, files). */
static int numerics(const char *dir, const char *gpu, const probe_form *forms, size_t nf,
                    size_t cases, uint64_t seed, unsigned *failed)
{
    /* the most cases an instruction (the CTA pair's tcgen05.mma m256n32), the largest k
     * (b1 m16n8k256's), the most scratch words any form needs for 16 cases
     * (tcgen05.mma m128n16k64 with its scale factors: more than half the pair's m256n32k16
     * tiles, or two mma.sync's registers) */
    enum { MAX_PER = 32, MAX_K = 256, MAX_SF = 4,
           MAX_TILE16 = 128 * 64 + 64 * 16 + 2 * 128 * 16 + (128 + 16) * MAX_SF };
    size_t n = (cases + MAX_PER - 1) / MAX_PER * MAX_PER;
    size_t ws_words = n / 16 * MAX_TILE16;
    uint32_t *a = malloc(n * MAX_K * sizeof *a), *b = malloc(n * MAX_K * sizeof *b);
    uint32_t *c = malloc(n * sizeof *c), *d = malloc(n * sizeof *d);
    uint32_t *ws = malloc(ws_words * sizeof *ws), *x = malloc(n * MAX_K * sizeof *x);
    uint32_t *sa = malloc(n * MAX_SF * sizeof *sa), *sb = malloc(n * MAX_SF * sizeof *sb);
    int rc = a && b && c && d && ws && x && sa && sb ? 0 : -1;
    char sub[1024];
    const probe_form *prev = NULL; /* the last form written */
    if (rc)
        fprintf(stderr, "tcsim-probe: out of memory for %zu cases\n", cases);
    for (size_t fi = 0; rc == 0 && fi < nf; fi++) {
        const probe_form *f = &forms[fi];
        if (!f->numerics)
            continue;
        char op[64];
        probe_form_op(f, op, sizeof op);
        if (f->n > MAX_PER || f->k > MAX_K || n % f->n) {
            fprintf(stderr, "tcsim-probe: %s: no room for its cases\n", op);
            rc = -1;
            break;
        }
        if (form_dir(dir, f, sub, sizeof sub)) {
            rc = -1;
            break;
        }
        if (f->in == TC_FMT_FP64) { /* 64-bit words: a path of its own */
            int r = numerics_f64(sub, gpu, f, n, cases, seed, ws, ws_words);
            if (r == 1) {
                fprintf(stderr, "tcsim-probe: %s fp64 -> fp64: no results (skipped)\n", op);
                ++*failed;
            }
            rc = r < 0 ? -1 : 0;
            prev = f;
            continue;
        }
        for (size_t i = 0; i < n; i++)
            probe_case(f->in, f->k, seed, i, a + i * f->k, b + i * f->k, c + i);
        /* a mixed pair: b from the same case of B's format (a and c stay A's draw) */
        for (size_t i = 0; f->mixed && i < n; i++) {
            uint32_t unused_c;
            probe_case(f->in_b, f->k, seed, i, x + i * f->k, b + i * f->k, &unused_c);
        }
        unsigned nsf = f->kind ? f->k / f->block : 0;
        if (nsf > MAX_SF) {
            fprintf(stderr, "tcsim-probe: %s: no room for its scale factors\n", op);
            rc = -1;
            break;
        }
        for (size_t i = 0; nsf && i < n; i++) {
            probe_scales(f->scale, seed, i, 0, nsf, sa + i * nsf);
            probe_scales(f->scale, seed, i, 1, nsf, sb + i * nsf);
        }
        /* mma.sp: instruction t's cases keep 2:4 pattern t mod 6 of A (run_form) */
        for (size_t t = 0; f->sparse && t < n / f->n; t++)
            probe_sparsify(f, (unsigned)(t % PROBE_SP_PATTERNS), f->n, a + t * f->n * f->k);
        if (run_form(f, n, a, b, c, sa, sb, d, ws, ws_words)) {
            fprintf(stderr, "tcsim-probe: %s %s -> %s: no results (skipped)\n", op,
                    tc_fmt_get(f->in)->name, tc_fmt_get(f->acc)->name);
            ++*failed;
            continue;
        }
        /* the fp32 and fp16 accumulators of a shape share its cases: inputs once */
        int first = !prev || prev->instr != f->instr || prev->m != f->m || prev->n != f->n ||
                    prev->k != f->k || prev->in != f->in || prev->sparse != f->sparse ||
                    prev->op != f->op ||
                    probe_fmt_b(prev) != probe_fmt_b(f) || prev->kind != f->kind ||
                    prev->scale != f->scale;
        /* mma.sp: the kept k/2 terms of a and b, in k order (the dense arithmetic over
         * them is the contract's), and which they were */
        probe_form wf = *f;
        for (size_t t = 0; f->sparse && t < n / f->n; t++) {
            probe_sp_compress(f, (unsigned)(t % PROBE_SP_PATTERNS), f->n, a + t * f->n * f->k);
            probe_sp_compress(f, (unsigned)(t % PROBE_SP_PATTERNS), f->n, b + t * f->n * f->k);
        }
        if (f->sparse) { /* case j of instruction t now at (t*n + j) * k/2 */
            wf.k = f->k / 2;
            for (size_t t = 1; t < n / f->n; t++) {
                memmove(a + t * f->n * wf.k, a + t * f->n * f->k, f->n * wf.k * sizeof *a);
                memmove(b + t * f->n * wf.k, b + t * f->n * f->k, f->n * wf.k * sizeof *b);
            }
        }
        rc = probe_write_vectors(sub, gpu, &wf, cases, a, b, c, d, first);
        if (rc == 0 && first && nsf)
            rc = probe_write_scales(sub, gpu, f, cases, sa, sb);
        if (rc == 0 && first && f->sparse)
            rc = probe_write_sparse(sub, gpu, f, cases);
        if (rc == 0 && first && f->op)
            rc = probe_write_popc(sub, gpu, f);
        prev = f;
    }
    free(a), free(b), free(c), free(d), free(ws), free(x), free(sa), free(sb);
    return rc;
}

/* Every timing form's points (warps x ILP: the first is the latency), written as
 * dir/timing.txt. A form the device fails is said and skipped; *failed counts them. */
static int timing(const char *dir, const char *name, const probe_gpu *g, const probe_form *forms,
                  size_t nf, unsigned iters, unsigned *failed)
{
    static const unsigned mma_pts[][2] = {{1, 1}, {4, 1}, {4, 4}, {8, 4}, {16, 4}};
    static const unsigned wg_pts[][2] = {{4, 1}, {4, 2}, {4, 4}, {8, 4}, {16, 4}};
    probe_point pts[MAX_POINTS];
    size_t n = 0;
    char err[256];
    for (size_t i = 0; i < nf; i++) {
        if (!forms[i].timing)
            continue;
        int wg = forms[i].instr != TC_INSTR_MMA;
        size_t np = wg ? sizeof wg_pts / sizeof wg_pts[0] : sizeof mma_pts / sizeof mma_pts[0];
        for (size_t j = 0; j < np && n < MAX_POINTS; j++) {
            probe_point *p = &pts[n];
            p->f = forms[i];
            p->warps = wg ? wg_pts[j][0] : mma_pts[j][0];
            p->ilp = wg ? wg_pts[j][1] : mma_pts[j][1];
            p->iters = iters;
            int rc = probe_dev_time(&p->f, p->warps, p->ilp, iters, &p->cycles, err, sizeof err);
            if (rc == 1) /* this point does not fit on an SM: the sweep ends there */
                break;
            if (rc) {
                char op[64];
                probe_form_op(&p->f, op, sizeof op);
                fprintf(stderr, "tcsim-probe: %s %s -> %s: %s (skipped)\n", op,
                        tc_fmt_get(p->f.in)->name, tc_fmt_get(p->f.acc)->name, err);
                ++*failed;
                break;
            }
            n++;
        }
    }
    char path[1100];
    snprintf(path, sizeof path, "%s/timing.txt", dir);
    FILE *f = strlen(dir) < 1024 ? fopen(path, "w") : NULL;
    if (!f) {
        fprintf(stderr, "tcsim-probe: %s: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = probe_write_record(f, name, g, pts, n);
    if (fclose(f) != 0)
        rc = -1;
    return rc;
}

int main(int argc, char **argv)
{
    const char *out = NULL, *date = NULL;
    unsigned long long sm = 0, cases = 5000, seed = 1, iters = 1000;
    int list = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--list")) {
            list = 1;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "tcsim-probe: unknown option or missing value '%s' "
                            "(tcsim-probe --help)\n", a);
            return 2;
        }
        const char *v = argv[++i];
        int bad = 0;
        if (!strcmp(a, "--sm"))
            bad = parse_u(a, v, 1000, &sm);
        else if (!strcmp(a, "--cases"))
            bad = parse_u(a, v, 10000000, &cases) || (cases == 0 && parse_u(a, "x", 0, &cases));
        else if (!strcmp(a, "--seed"))
            bad = parse_u(a, v, UINT64_MAX, &seed);
        else if (!strcmp(a, "--iters"))
            bad = parse_u(a, v, 1000000, &iters) || (iters == 0 && parse_u(a, "x", 0, &iters));
        else if (!strcmp(a, "--out"))
            out = v;
        else if (!strcmp(a, "--date"))
            date = v;
        else {
            fprintf(stderr, "tcsim-probe: unknown option '%s' (tcsim-probe --help)\n", a);
            return 2;
        }
        if (bad)
            return 2;
    }
    if (list == !!out) {
        fprintf(stderr, "tcsim-probe: one of --list and --out (tcsim-probe --help)\n");
        return 2;
    }
    static probe_form forms[MAX_FORMS];
    probe_gpu g;
    char err[256];
    if (list && sm) {
        if (probe_arch_of_sm((unsigned)sm) == TC_ARCH_COUNT) {
            fprintf(stderr, "tcsim-probe: --sm %llu is no target from sm_70 to sm_103\n", sm);
            return 2;
        }
        print_list((unsigned)sm, forms, probe_forms((unsigned)sm, forms, MAX_FORMS));
        return 0;
    }
    if (probe_dev_open(&g, err, sizeof err)) {
        fprintf(stderr, "tcsim-probe: %s%s\n", err, list ? " (--sm NN lists a target)" : "");
        return 1;
    }
    size_t nf = probe_forms(g.sm, forms, MAX_FORMS);
    if (nf > MAX_FORMS)
        nf = MAX_FORMS;
    if (list) {
        print_list(g.sm, forms, nf);
        return 0;
    }
    char gpu[64], name[64], path[1024], when[64], vdir[1024];
    short_name(g.name, gpu, sizeof gpu);
    if (!gpu[0])
        snprintf(gpu, sizeof gpu, "sm%u", g.sm);
    for (size_t i = 0; i <= strlen(gpu); i++)
        name[i] = (char)tolower((unsigned char)gpu[i]);
    if (!date) {
        time_t t = time(NULL);
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
        date = when;
    }
    if (strlen(out) > 900) {
        fprintf(stderr, "tcsim-probe: --out: path too long\n");
        return 2;
    }
    snprintf(path, sizeof path, "%s/gpu.txt", out);
    snprintf(vdir, sizeof vdir, "%s/vectors", out);
    if ((mkdir(out, 0777) && errno != EEXIST) || (mkdir(vdir, 0777) && errno != EEXIST)) {
        fprintf(stderr, "tcsim-probe: %s: %s\n", out, strerror(errno));
        return 1;
    }
    unsigned failed = 0;
    if (probe_write_header(path, &g, date, seed, (size_t)cases) ||
        numerics(vdir, gpu, forms, nf, (size_t)cases, seed, &failed) ||
        timing(out, name, &g, forms, nf, (unsigned)iters, &failed))
        return 1;
    printf("tcsim-probe: %s (sm_%u): %s/gpu.txt, %s/, %s/timing.txt\n", g.name, g.sm, out,
           vdir, out);
    if (failed)
        fprintf(stderr, "tcsim-probe: %u forms gave no results (above)\n", failed);
    return failed ? 1 : 0;
}
