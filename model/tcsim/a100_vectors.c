/* a100_vectors.c - loads the A100 vectors into the model's bit patterns. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "a100_vectors.h"

const a100_set a100_sets[4] = {
    {"fp16_fp32", "fp16", TC_FMT_FP16, TC_FMT_FP32, 8},
    {"fp16_fp16", "fp16", TC_FMT_FP16, TC_FMT_FP16, 8},
    {"bf16_fp32", "bf16", TC_FMT_BF16, TC_FMT_FP32, 8},
    {"tf32_fp32", "tf32", TC_FMT_TF32, TC_FMT_FP32, 4},
};

/* Reads every whitespace-separated word of a file, in hex (base 16) or binary (base 2). */
static uint32_t *read_words(const char *path, int base, size_t *n)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return NULL;
    }
    size_t cap = 1024, len = 0;
    uint32_t *w = malloc(cap * sizeof *w);
    char tok[64];
    while (w && fscanf(f, "%63s", tok) == 1) {
        char *end;
        unsigned long v = strtoul(tok, &end, base);
        if (*end || v > 0xffffffffUL) {
            fprintf(stderr, "%s: bad word '%s'\n", path, tok);
            free(w);
            w = NULL;
            break;
        }
        if (len == cap) {
            uint32_t *nw = realloc(w, (cap *= 2) * sizeof *w);
            if (!nw) {
                free(w);
                w = NULL;
                break;
            }
            w = nw;
        }
        w[len++] = (uint32_t)v;
    }
    fclose(f);
    *n = len;
    return w;
}

static uint32_t *read_file(const char *root, const char *dir, const char *file, int base,
                           size_t *n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/%s", root, dir, file);
    return read_words(path, base, n);
}

int a100_load(const char *root, const a100_set *s, a100_cases *out)
{
    char fa[64], fb[64], fd[64];
    const char *in = tc_fmt_get(s->in)->name;
    snprintf(fa, sizeof fa, "a_A100_%s.txt", in);
    snprintf(fb, sizeof fb, "b_A100_%s.txt", in);
    snprintf(fd, sizeof fd, "d_A100_%s.txt", tc_fmt_get(s->out)->name);
    size_t na, nb, nc, nd;
    memset(out, 0, sizeof *out);
    out->a = read_file(root, s->dir, fa, 16, &na);
    out->b = read_file(root, s->dir, fb, 16, &nb);
    out->c = read_file(root, s->dir, "c_A100_fp32.txt", 2, &nc);
    out->d = read_file(root, s->dir, fd, 2, &nd);
    if (!out->a || !out->b || !out->c || !out->d || na != nb || na != nc * s->k || nc != nd) {
        fprintf(stderr, "%s: inconsistent or missing vector files under %s/%s\n", s->name,
                root, s->dir);
        a100_free(out);
        return -1;
    }
    out->n = nc;
    out->k = s->k;
    /* a and b are fp32 patterns of values exact in the input format */
    for (size_t i = 0; i < na; i++) {
        if (tc_convert_exact(TC_FMT_FP32, out->a[i], s->in, &out->a[i]) != TC_OK ||
            tc_convert_exact(TC_FMT_FP32, out->b[i], s->in, &out->b[i]) != TC_OK) {
            fprintf(stderr, "%s: case %zu: input not exact in %s\n", s->name, i / s->k, in);
            a100_free(out);
            return -1;
        }
    }
    if (s->out == TC_FMT_FP16) {
        for (size_t i = 0; i < nc; i++) {
            /* NUMERICS.md: for fp16 output, c is rounded RNE to fp16 first */
            if (tc_convert_rne(TC_FMT_FP32, out->c[i], TC_FMT_FP16, &out->c[i]) != TC_OK ||
                tc_convert_exact(TC_FMT_FP32, out->d[i], TC_FMT_FP16, &out->d[i]) != TC_OK) {
                fprintf(stderr, "%s: case %zu: d is not an fp16 value\n", s->name, i);
                a100_free(out);
                return -1;
            }
        }
    }
    return 0;
}

void a100_free(a100_cases *c)
{
    free(c->a);
    free(c->b);
    free(c->c);
    free(c->d);
    memset(c, 0, sizeof *c);
}
