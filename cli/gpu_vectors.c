/* gpu_vectors.c - finds and loads measured results laid out as gpu_vectors.h says. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "gpu_vectors.h"

/* ---------------------------------------------------------------- folders */

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static void free_list(char **names, size_t n)
{
    for (size_t i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
}

/* The names in dir that do not start with a dot, sorted (a deterministic order); NULL
 * with errno when the folder cannot be read whole (a partial list would silently drop
 * sets). */
static char **list_dir(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    size_t cap = 16, len = 0;
    char **names = malloc(cap * sizeof *names);
    int err = names ? 0 : ENOMEM;
    while (!err) {
        errno = 0;
        struct dirent *e = readdir(d);
        if (!e) {
            err = errno;
            break;
        }
        if (e->d_name[0] == '.')
            continue;
        if (len == cap) {
            char **nn = realloc(names, (cap *= 2) * sizeof *names);
            if (!nn) {
                err = ENOMEM;
                break;
            }
            names = nn;
        }
        if (!(names[len] = strdup(e->d_name))) {
            err = ENOMEM;
            break;
        }
        len++;
    }
    closedir(d);
    if (err) {
        free_list(names, len);
        errno = err;
        return NULL;
    }
    qsort(names, len, sizeof *names, cmp_str);
    *n = len;
    return names;
}

/* list_dir, saying on stderr why a folder cannot be read. */
static char **list_dir_or_say(const char *dir, size_t *n)
{
    char **names = list_dir(dir, n);
    if (!names)
        fprintf(stderr, "%s: cannot read the folder: %s\n", CLI_PATH(dir), strerror(errno));
    return names;
}

/* dir/name into path; 0, or -1 (with a message) when it does not fit. */
static int path_join(char path[GV_PATH], const char *dir, const char *name)
{
    int len = snprintf(path, GV_PATH, "%s/%s", dir, name);
    if (len < 0 || len >= GV_PATH) {
        fprintf(stderr, "%s/%s: path too long\n", CLI_PATH(dir), CLI_PATH(name));
        return -1;
    }
    return 0;
}

static int is_file(const char *dir, const char *name)
{
    char path[GV_PATH];
    struct stat st;
    return path_join(path, dir, name) == 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Splits "<p>_<GPU>_<fmt>.txt" (p one letter) into GPU and format; 0 on success. */
static int parse_name(const char *file, char p, char *gpu, tc_fmt *f)
{
    size_t len = strlen(file);
    if (len < 7 || file[0] != p || file[1] != '_' || strcmp(file + len - 4, ".txt"))
        return -1;
    const char *base = file + 2;
    size_t blen = len - 6;
    for (int i = 0; i < TC_FMT_COUNT; i++) {
        const char *fn = tc_fmt_get((tc_fmt)i)->name;
        size_t fl = strlen(fn);
        if (blen > fl + 1 && base[blen - fl - 1] == '_' && !strncmp(base + blen - fl, fn, fl) &&
            blen - fl - 1 < GV_NAME) {
            memcpy(gpu, base, blen - fl - 1);
            gpu[blen - fl - 1] = 0;
            *f = (tc_fmt)i;
            return 0;
        }
    }
    return -1;
}

/* The one file <p>_<GPU>_<fmt>.txt of the folder (p 'b', or 's': sa_, whose sb_ must be
 * beside it); 0 with *fmt, -1 for none or several. */
static int other_file(const char *dir, char **files, size_t nf, char p, const char *gpu,
                      tc_fmt *fmt)
{
    int found = 0;
    for (size_t j = 0; j < nf; j++) {
        char g[GV_NAME];
        tc_fmt f;
        const char *name = p == 's' ? (strncmp(files[j], "sa_", 3) ? "" : files[j] + 1) : files[j];
        if (*name && !parse_name(name, p == 's' ? 'a' : p, g, &f) && !strcmp(g, gpu) &&
            is_file(dir, files[j])) {
            *fmt = f;
            found++;
        }
    }
    if (found == 1 && p == 's') {
        char sb[GV_PATH];
        snprintf(sb, sizeof sb, "sb_%s_%s.txt", gpu, tc_fmt_get(*fmt)->name);
        if (!is_file(dir, sb)) {
            fprintf(stderr, "%s/sa_%s_%s.txt: no %s beside it\n", CLI_PATH(dir), CLI_WORD(gpu),
                    tc_fmt_get(*fmt)->name, CLI_PATH(sb));
            return 1;
        }
    }
    return found == 1 ? 0 : -1;
}

/* A block-scaled set's kind (or a b1 set's op: b1 1): the one word of dir/kind_<GPU>.txt;
 * 0, or -1 with a message. */
static int read_kind(const char *dir, const char *gpu, int b1, char kind[GV_NAME])
{
    char name[GV_PATH], path[GV_PATH];
    snprintf(name, sizeof name, "kind_%s.txt", gpu);
    if (path_join(path, dir, name))
        return -1;
    FILE *f = fopen(path, "r");
    int ok = f && fscanf(f, "%31s", kind) == 1;
    if (f)
        fclose(f);
    if (b1 && !(ok && (!strcmp(kind, "and") || !strcmp(kind, "xor")))) {
        fprintf(stderr, "%s: a b1 set (a_%s_b1.txt) needs its popc op (and or xor) in this "
                        "file\n", CLI_PATH(path), CLI_WORD(gpu));
        return -1;
    }
    if (!ok)
        fprintf(stderr, "%s: a block-scaled set (sa_%s_*.txt) needs its kind (mxf8f6f4, mxf4 "
                        "or mxf4nvf4) in this file\n", CLI_PATH(path), CLI_WORD(gpu));
    return ok ? 0 : -1;
}

/* The sets of one folder, appended to sets[*n]. */
static int scan_folder(const char *dir, gv_set *sets, size_t cap, size_t *n)
{
    size_t nf;
    char **files = list_dir_or_say(dir, &nf);
    if (!files)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < nf && rc == 0; i++) {
        char gpu[GV_NAME], name[GV_PATH];
        tc_fmt in;
        if (files[i][0] != 'a' || !is_file(dir, files[i]))
            continue;
        if (parse_name(files[i], 'a', gpu, &in)) {
            fprintf(stderr, "%s/%s: expected a_<GPU>_<format>.txt with a format tcsim knows "
                            "(tcsim list)\n", CLI_PATH(dir), CLI_PATH(files[i]));
            rc = -1;
            break;
        }
        snprintf(name, sizeof name, "b_%s_%s.txt", gpu, tc_fmt_get(in)->name);
        tc_fmt in_b = in, scale = TC_FMT_COUNT;
        if (!is_file(dir, name) && other_file(dir, files, nf, 'b', gpu, &in_b)) {
            fprintf(stderr, "%s/%s: no %s beside it\n", CLI_PATH(dir), CLI_PATH(files[i]),
                    CLI_PATH(name));
            rc = -1;
            break;
        }
        char kind[GV_NAME] = "";
        int scaled = other_file(dir, files, nf, 's', gpu, &scale);
        if (scaled > 0 || (scaled == 0 && read_kind(dir, gpu, 0, kind)) ||
            (in == TC_FMT_B1 && read_kind(dir, gpu, 1, kind))) {
            rc = -1;
            break;
        }
        if (scaled < 0)
            scale = TC_FMT_COUNT;
        size_t found = 0;
        for (size_t j = 0; j < nf && rc == 0; j++) {
            char dgpu[GV_NAME];
            tc_fmt out;
            if (parse_name(files[j], 'd', dgpu, &out) || strcmp(dgpu, gpu))
                continue;
            if (!is_file(dir, files[j])) { /* a folder read as a file reads as empty */
                fprintf(stderr, "%s/%s: cannot read: not a regular file\n", CLI_PATH(dir),
                        CLI_PATH(files[j]));
                rc = -1;
                break;
            }
            if (*n == cap) {
                fprintf(stderr, "%s: more than %zu sets\n", CLI_PATH(dir), cap);
                rc = -1;
                break;
            }
            gv_set *s = &sets[(*n)++];
            memset(s, 0, sizeof *s);
            snprintf(s->dir, sizeof s->dir, "%s", dir);
            snprintf(s->gpu, sizeof s->gpu, "%s", gpu);
            /* format names are short and kind at most 31 characters (read_kind), so
             * the name fits; the length is checked all the same, as -Wformat-truncation
             * asks when it cannot see that */
            int len = snprintf(s->name, sizeof s->name, "%s%s%s_%s", tc_fmt_get(in)->name,
                               in_b != in ? "x" : in == TC_FMT_B1 ? "." : "",
                               in_b != in ? tc_fmt_get(in_b)->name
                                          : in == TC_FMT_B1 ? kind : "",
                               tc_fmt_get(out)->name);
            if (len < 0 || (size_t)len >= sizeof s->name) {
                fprintf(stderr, "%s/%s: the set's name is longer than %d characters\n",
                        CLI_PATH(dir), CLI_PATH(files[j]), GV_NAME - 1);
                rc = -1;
                break;
            }
            s->in = in;
            s->out = out;
            s->mixed = in_b != in;
            s->in_b = in_b;
            s->scaled = scale != TC_FMT_COUNT;
            s->scale = scale;
            snprintf(s->kind, sizeof s->kind, "%s", kind);
            /* c in the output format if given, else fp32 (rounded when loaded) */
            snprintf(name, sizeof name, "c_%s_%s.txt", gpu, tc_fmt_get(out)->name);
            s->c_fmt = is_file(dir, name) ? out : TC_FMT_FP32;
            /* fp64 (DMMA): every file binary64, c too (no fp32 c to round) */
            if ((in == TC_FMT_FP64) != (out == TC_FMT_FP64) ||
                (out == TC_FMT_FP64 && (in_b != in || s->c_fmt != out))) {
                fprintf(stderr, "%s/%s: an fp64 set is a_, b_, c_ and d_%s_fp64.txt together "
                                "(binary64 patterns)\n", CLI_PATH(dir), CLI_PATH(files[j]),
                        CLI_WORD(gpu));
                rc = -1;
                break;
            }
            snprintf(name, sizeof name, "c_%s_fp32.txt", gpu);
            if (s->c_fmt == TC_FMT_FP32 && !is_file(dir, name)) {
                if (out == TC_FMT_FP32)
                    fprintf(stderr, "%s/%s: no %s beside it\n", CLI_PATH(dir),
                            CLI_PATH(files[j]), CLI_PATH(name));
                else
                    fprintf(stderr, "%s/%s: no c_%s_%s.txt or %s beside it\n", CLI_PATH(dir),
                            CLI_PATH(files[j]), CLI_WORD(gpu), tc_fmt_get(out)->name,
                            CLI_PATH(name));
                rc = -1;
            }
            found++;
        }
        if (rc == 0 && !found) {
            fprintf(stderr, "%s/%s: no d_%s_<format>.txt (the GPU's results) beside it\n",
                    CLI_PATH(dir), CLI_PATH(files[i]), CLI_WORD(gpu));
            rc = -1;
        }
    }
    free_list(files, nf);
    return rc;
}

int gv_find(const char *root, gv_set *sets, size_t cap, size_t *n)
{
    *n = 0;
    if (scan_folder(root, sets, cap, n))
        return -1;
    size_t ne = 0;
    char **entries = list_dir_or_say(root, &ne);
    int rc = entries ? 0 : -1;
    for (size_t i = 0; i < ne && rc == 0; i++) {
        char sub[GV_PATH];
        struct stat st;
        if (path_join(sub, root, entries[i]))
            rc = -1;
        else if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode))
            rc = scan_folder(sub, sets, cap, n);
    }
    free_list(entries, ne);
    if (rc == 0 && *n == 0) {
        fprintf(stderr, "%s: no a_<GPU>_<format>.txt in it or its sub-folders\n", CLI_PATH(root));
        rc = -1;
    }
    return rc;
}

/* ---------------------------------------------------------------- files */

/* What a word of a file means: fp32 bits converted exactly to `to`, or rounded RNE; or
 * (raw) a bit pattern of `to` itself (the scale factors). */
typedef struct word_conv {
    tc_fmt to;
    int round;
    int raw;
} word_conv;

/* Parses one word of `bits` (32, or 64 for fp64): hex (at most bits / 4 digits, 0x
 * optional) or `bits` binary digits. */
static int parse_word(const char *tok, unsigned bits, uint64_t *out)
{
    size_t len = strlen(tok);
    if (len == bits && strspn(tok, "01") == bits) {
        uint64_t v = 0;
        for (size_t i = 0; i < bits; i++)
            v = v << 1 | (uint64_t)(tok[i] - '0');
        *out = v;
        return 0;
    }
    const char *h = (tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) ? tok + 2 : tok;
    size_t hl = strlen(h);
    if (hl == 0 || hl > bits / 4 || strspn(h, "0123456789abcdefABCDEF") != hl)
        return -1;
    *out = (uint64_t)strtoull(h, NULL, 16);
    return 0;
}

/* A word of an integer format's file: the value as a 32-bit two's-complement word,
 * which must lie in the format's range (int8 ffffff80..0000007f). */
static tc_status int_from_word(uint32_t w, tc_fmt to, uint32_t *out)
{
    return tc_int_pattern(to, (int32_t)w, out);
}

/* fp32 bits w exactly as a pattern of `to`. tc_convert_exact converts into the IEEE
 * formats only; an fp8 input (e4m3: no Inf, one NaN per sign) is found among its 256
 * patterns instead, a NaN as the format's canonical one (added for the probe's fp8
 * vectors; the IEEE formats read as before). */
static tc_status exact_from_fp32(uint32_t w, tc_fmt to, uint32_t *out)
{
    tc_status st = tc_convert_exact(TC_FMT_FP32, w, to, out);
    if (st != TC_EINVAL || tc_fmt_get(to)->width > 8 || tc_fmt_get(to)->cls != TC_CLASS_FLOAT)
        return st;
    if ((w & 0x7f800000u) == 0x7f800000u && (w & 0x7fffffu)) {
        *out = tc_canonical_nan(to);
        return TC_OK;
    }
    for (uint32_t p = 0; p < 1u << tc_fmt_get(to)->width; p++) {
        uint32_t x;
        if (tc_convert_exact(to, p, TC_FMT_FP32, &x) == TC_OK && x == w) {
            *out = p;
            return TC_OK;
        }
    }
    return TC_EINVAL;
}

/* Reads a file of rows of *k words (*k == 0: the first row's count), converting each
 * (an fp64 file's words are binary64 patterns as they are). Returns the words (rows * k
 * of them, 64 bits wide for any format), or NULL with a message naming file and line. */
static uint64_t *read_rows(const char *dir, const char *file, const word_conv *cv, size_t *k,
                           size_t *rows)
{
    char path[GV_PATH];
    if (path_join(path, dir, file))
        return NULL;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: cannot open: %s\n", CLI_PATH(path), strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0, line_no = 0, nrows = 0;
    uint64_t *w = malloc(cap * sizeof *w);
    const unsigned bits = cv->to == TC_FMT_FP64 ? 64 : 32;
    char *line = NULL;
    size_t line_cap = 0;
    int bad = !w;
    if (bad)
        fprintf(stderr, "%s: out of memory\n", CLI_PATH(path));
    long got = 0;
    while (!bad && (got = cli_getline(f, &line, &line_cap)) > 0) {
        line_no++;
        size_t words = 0;
        for (char *tok = strtok(line, " \t\r\n"); tok && !bad; tok = strtok(NULL, " \t\r\n")) {
            uint64_t v64;
            uint32_t v, c;
            if (parse_word(tok, bits, &v64)) {
                fprintf(stderr, "%s:%zu: word '%s' is neither hex (at most %u digits) nor %u "
                                "binary digits%s\n", CLI_PATH(path), line_no, CLI_WORD(tok),
                        bits / 4, bits, bits == 64 ? " (an fp64 pattern)" : "");
                bad = 1;
                break;
            }
            v = (uint32_t)v64;
            int is_int = tc_fmt_get(cv->to)->cls == TC_CLASS_INT;
            if (bits == 64) {
                c = 0; /* every 64-bit word is a binary64 pattern: kept whole below */
            } else if (cv->raw) {
                c = v;
                if (v >> tc_fmt_get(cv->to)->width) {
                    fprintf(stderr, "%s:%zu: word '%s' is not a %s bit pattern\n",
                            CLI_PATH(path), line_no, CLI_WORD(tok), tc_fmt_get(cv->to)->name);
                    bad = 1;
                    break;
                }
            }
            tc_status st = cv->raw || bits == 64 ? TC_OK
                           : is_int   ? int_from_word(v, cv->to, &c)
                           : cv->round ? tc_convert_rne(TC_FMT_FP32, v, cv->to, &c)
                                       : exact_from_fp32(v, cv->to, &c);
            if (st != TC_OK) {
                if (is_int)
                    fprintf(stderr, "%s:%zu: word '%s' (a 32-bit integer) is not a %s value\n",
                            CLI_PATH(path), line_no, CLI_WORD(tok), tc_fmt_get(cv->to)->name);
                else
                    fprintf(stderr, "%s:%zu: word '%s' (fp32 bits) is not %s %s value\n",
                            CLI_PATH(path), line_no, CLI_WORD(tok),
                            cv->round ? "rounded to an" : "exactly an",
                            tc_fmt_get(cv->to)->name);
                bad = 1;
                break;
            }
            if (len == cap) {
                uint64_t *nw = realloc(w, (cap *= 2) * sizeof *w);
                if (!nw) {
                    fprintf(stderr, "%s:%zu: out of memory\n", CLI_PATH(path), line_no);
                    bad = 1;
                    break;
                }
                w = nw;
            }
            w[len++] = bits == 64 ? v64 : c;
            words++;
        }
        if (bad || words == 0)
            continue;
        if (*k == 0)
            *k = words;
        if (words != *k) {
            fprintf(stderr, "%s:%zu: %zu words; expected %zu (%s)\n", CLI_PATH(path), line_no,
                    words, *k, nrows ? "as the lines before" : "one a line");
            bad = 1;
        }
        nrows++;
    }
    if (!bad && got < 0) { /* a folder opened as a file reads as EISDIR */
        const char *fault = cli_line_fault(errno);
        if (fault)
            fprintf(stderr, "%s:%zu: %s\n", CLI_PATH(path), line_no + 1, fault);
        else
            fprintf(stderr, "%s: cannot read: %s\n", CLI_PATH(path), strerror(errno));
        bad = 1;
    }
    free(line);
    fclose(f);
    if (!bad && nrows == 0) {
        fprintf(stderr, "%s: no cases\n", CLI_PATH(path));
        bad = 1;
    }
    if (bad) {
        free(w);
        return NULL;
    }
    *rows = nrows;
    return w;
}

/* The words of a 32-bit format's file narrowed (read_rows kept each within 32 bits); w
 * is freed. NULL for a NULL w, or when memory runs out (said). */
static uint32_t *narrow(uint64_t *w, size_t n, const char *dir)
{
    uint32_t *x = w ? malloc((n ? n : 1) * sizeof *x) : NULL;
    if (w && !x)
        fprintf(stderr, "%s: out of memory\n", CLI_PATH(dir));
    for (size_t i = 0; x && i < n; i++)
        x[i] = (uint32_t)w[i];
    free(w);
    return x;
}

int gv_load(const gv_set *s, gv_cases *out)
{
    memset(out, 0, sizeof *out);
    const char *in = tc_fmt_get(s->in)->name, *o = tc_fmt_get(s->out)->name;
    char fa[GV_PATH], fb[GV_PATH], fc[GV_PATH], fd[GV_PATH];
    snprintf(fa, sizeof fa, "a_%s_%s.txt", s->gpu, in);
    const tc_fmt in_b = s->mixed ? s->in_b : s->in;
    snprintf(fb, sizeof fb, "b_%s_%s.txt", s->gpu, tc_fmt_get(in_b)->name);
    snprintf(fc, sizeof fc, "c_%s_%s.txt", s->gpu, tc_fmt_get(s->c_fmt)->name);
    snprintf(fd, sizeof fd, "d_%s_%s.txt", s->gpu, o);
    /* docs/contract.md: for fp16 output, an fp32 c is rounded RNE to fp16 first */
    word_conv cin = {s->in, 0, 0}, cinb = {in_b, 0, 0}, cc = {s->out, s->c_fmt != s->out, 0},
              cd = {s->out, 0, 0};
    size_t ka = 0, kb = 0, one_c = 1, one_d = 1, na = 0, nb = 0, nc = 0, nd = 0;
    uint64_t *a = read_rows(s->dir, fa, &cin, &ka, &na);
    uint64_t *b = a ? read_rows(s->dir, fb, &cinb, &kb, &nb) : NULL;
    uint64_t *c = b ? read_rows(s->dir, fc, &cc, &one_c, &nc) : NULL;
    uint64_t *d = c ? read_rows(s->dir, fd, &cd, &one_d, &nd) : NULL;
    if (d && (ka != kb || na != nb || na != nc || na != nd)) {
        fprintf(stderr, "%s: %s has %zu x %zu words, %s %zu x %zu, %s %zu, %s %zu: the files "
                        "must hold the same cases\n", CLI_PATH(s->dir), CLI_PATH(fa), na, ka,
                CLI_PATH(fb), nb, kb, CLI_PATH(fc), nc, CLI_PATH(fd), nd);
        free(d);
        d = NULL;
    }
    if (!d) {
        free(a), free(b), free(c);
        return -1;
    }
    out->n = na;
    out->k = ka;
    if (s->in == TC_FMT_FP64) { /* binary64 patterns, kept 64 bits wide */
        out->a64 = a, out->b64 = b, out->c64 = c, out->d64 = d;
        return 0;
    }
    out->a = narrow(a, na * ka, s->dir);
    out->b = narrow(b, na * ka, s->dir);
    out->c = narrow(c, na, s->dir);
    out->d = narrow(d, na, s->dir);
    if (!out->a || !out->b || !out->c || !out->d) {
        gv_free(out);
        return -1;
    }
    if (s->scaled) { /* the scale factors, as many cases */
        word_conv cs = {s->scale, 0, 1};
        size_t nsa = 0, nsb = 0, ksa = 0, ksb = 0;
        snprintf(fa, sizeof fa, "sa_%s_%s.txt", s->gpu, tc_fmt_get(s->scale)->name);
        snprintf(fb, sizeof fb, "sb_%s_%s.txt", s->gpu, tc_fmt_get(s->scale)->name);
        uint64_t *sa = read_rows(s->dir, fa, &cs, &ksa, &nsa); /* then nsa, ksa are set */
        out->sa = narrow(sa, nsa * ksa, s->dir);
        uint64_t *sb = out->sa ? read_rows(s->dir, fb, &cs, &ksb, &nsb) : NULL;
        out->sb = narrow(sb, nsb * ksb, s->dir);
        if (!out->sb || ksa != ksb || nsa != na || nsb != na || ka % ksa) {
            if (out->sb)
                fprintf(stderr, "%s: %s has %zu x %zu words, %s %zu x %zu: the scale factors "
                                "of the %zu cases, k / block (k = %zu) a line\n",
                        CLI_PATH(s->dir), CLI_PATH(fa), nsa, ksa, CLI_PATH(fb), nsb, ksb, na, ka);
            gv_free(out);
            return -1;
        }
        out->nsf = ksa;
    }
    return 0;
}

void gv_free(gv_cases *c)
{
    free(c->a);
    free(c->b);
    free(c->c);
    free(c->d);
    free(c->sa);
    free(c->sb);
    free(c->a64);
    free(c->b64);
    free(c->c64);
    free(c->d64);
    memset(c, 0, sizeof *c);
}
