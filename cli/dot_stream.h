/* dot_stream.h - the line-by-line engine behind `tcsim dot`, shared with `tcsim bench`
 * (which measures it on generated text) and the demo. */
#ifndef TCSIM_DOT_STREAM_H
#define TCSIM_DOT_STREAM_H

#include <stdio.h>
#include "engine_registry.h"
#include "tcsim.h"

typedef struct dot_options {
    tc_arch arch;
    tc_instr instr;
    tc_fmt in, out, scale;  /* scale: TC_FMT_COUNT unless block-scaled */
    const char *kind;       /* block-scaled kind name, or NULL */
    unsigned block;         /* scale block, 0 = the kind's default */
    int rtl;                /* --engine rtl */
    int has_in_b;           /* b in in_b (--in-a/--in-b); 0: b in `in` as a (zero-initialised
                             * options stay one-format) */
    tc_fmt in_b;
    tc_kind popc;           /* b1 (issue 33): TC_KIND_POPC_AND / _XOR (--popc), else 0 */
} dot_options;

typedef struct dot_stream {
    const tc_profile *p;
    int scaled;
    tc_step_fn step;        /* NULL: the model's own steps */
    const engine_step_ops *rtl;  /* --engine rtl: the registry's "fedp" engine */
    void *engine;           /* its instance behind step */
    uint64_t *words;        /* the parsed words of the current line */
    uint32_t *w32;          /* the same, checked and narrowed */
    size_t cap;
    int sparse;             /* lines in the --sparse layout (dot_sp_line) */
} dot_stream;

/* Finds the profile (and opens the RTL engine); prints why and returns -1 if it cannot. */
int dot_open(const char *cmd, const dot_options *o, dot_stream *ds);
void dot_close(dot_stream *ds);
/* One input line: 0 with *d set, 1 for an empty line, -1 after printing "line N: ...".
 * d is as wide as the profile's output: 64 bits for fp64 (the DMMA form), else the low
 * 32 bits hold it. */
int dot_line(dot_stream *ds, const char *line, unsigned long lineno, uint64_t *d);
/* The hex words of a line into ds->words, *count of them: 0, 1 for an empty line, -1
 * after printing "line N: ...". */
int dot_read_words(dot_stream *ds, const char *line, unsigned long lineno, size_t *count);
/* --sparse (dot_sparse.c): dot_sp_open, after dot_open, checks that the profile has an
 * mma.sp form and the options go with it (-1 after saying why) and switches ds to
 * dot_sp_line: dot_line for a line of a_stored, metadata words, b, c. */
int dot_sp_open(const char *cmd, const dot_options *o, dot_stream *ds);
int dot_sp_line(dot_stream *ds, const char *line, unsigned long lineno, uint32_t *d);
/* Every line of `in`, results to `out`; -1 at the first bad line or a read error (after
 * its message), 1 when writing `out` fails (not reported: the caller knows its stream). */
int dot_stream_run(dot_stream *ds, FILE *in, FILE *out);

#endif
