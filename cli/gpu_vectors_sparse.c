/* gpu_vectors_sparse.c - the keep lines of an mma.sp set, and its cases through
 * tc_dot_sp (gpu_vectors_sparse.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "gpu_vectors_sparse.h"

int gv_sparse_load(const gv_set *s, size_t n, gv_sparse *out)
{
    memset(out, 0, sizeof *out);
    char path[GV_PATH];
    if (snprintf(path, sizeof path, "%s/sparse_%s.txt", s->dir, s->gpu) >= (int)sizeof path) {
        fprintf(stderr, "%s: path too long\n", CLI_PATH(s->dir));
        return -1;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 1;
        fprintf(stderr, "%s: cannot open: %s\n", CLI_PATH(path), strerror(errno));
        return -1;
    }
    out->keep = malloc(2 * (n ? n : 1));
    char *line = NULL;
    size_t cap = 0, lines = 0;
    long got = 0;
    int bad = !out->keep;
    if (bad)
        fprintf(stderr, "%s: out of memory\n", CLI_PATH(path));
    while (!bad && (got = cli_getline(f, &line, &cap)) > 0) {
        unsigned i, j;
        char tail;
        lines++;
        if (sscanf(line, "keep %u %u %c", &i, &j, &tail) != 2 || i >= j || j > 3) {
            fprintf(stderr, "%s:%zu: expected 'keep I J' with 0 <= I < J <= 3\n",
                    CLI_PATH(path), lines);
            bad = 1;
        } else if (lines > n) {
            fprintf(stderr, "%s:%zu: more lines than the set's %zu cases\n", CLI_PATH(path),
                    lines, n);
            bad = 1;
        } else {
            out->keep[2 * (lines - 1)] = (unsigned char)i;
            out->keep[2 * (lines - 1) + 1] = (unsigned char)j;
        }
    }
    if (!bad && got < 0) {
        const char *fault = cli_line_fault(errno);
        fprintf(stderr, "%s:%zu: %s\n", CLI_PATH(path), lines + 1,
                fault ? fault : strerror(errno));
        bad = 1;
    }
    if (!bad && lines != n) {
        fprintf(stderr, "%s: %zu lines for the set's %zu cases\n", CLI_PATH(path), lines, n);
        bad = 1;
    }
    free(line);
    fclose(f);
    if (bad)
        gv_sparse_free(out);
    else
        out->n = n;
    return bad ? -1 : 0;
}

void gv_sparse_free(gv_sparse *sp)
{
    free(sp->keep);
    sp->keep = NULL;
    sp->n = 0;
}

tc_status gv_sparse_dot(const tc_profile *p, const gv_sparse *sp, const gv_cases *cs, size_t i,
                        uint32_t *d)
{
    unsigned ch = tc_sp_chunk(p->in);
    size_t k = 2 * cs->k, W = tc_sp_meta_words(p->in, k);
    if (ch != 4 || !W || i >= sp->n) /* keep lines are 2:4 patterns */
        return TC_EINVAL;
    uint32_t *meta = calloc(W, sizeof *meta), *b = malloc(k * sizeof *b);
    size_t *kept = malloc(cs->k * sizeof *kept);
    tc_status st = meta && b && kept ? TC_OK : TC_ENOMEM;
    /* one pattern for every chunk of the row: the nibble J:I (PTX: first index low) */
    uint32_t nib = sp->keep[2 * i] | (uint32_t)sp->keep[2 * i + 1] << 2;
    for (size_t q = 0; q < k / ch; q++)
        meta[q / 8] |= nib << (4 * (q % 8));
    if (st == TC_OK)
        st = tc_random_fill(p->in_b, i, k, b);
    if (st == TC_OK)
        st = tc_sp_kept(p->in, k, meta, kept);
    if (st == TC_OK) {
        for (size_t x = 0; x < cs->k; x++)
            b[kept[x]] = cs->b[i * cs->k + x];
        st = tc_dot_sp(p, k, cs->a + i * cs->k, meta, b, cs->c[i], d);
    }
    free(meta);
    free(b);
    free(kept);
    return st;
}
