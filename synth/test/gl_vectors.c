/* gl_vectors.c - random FEDP operations and their results from the golden model, for the
 * gate-level simulation of a mapped fedp netlist (synth/test/gate_level.sh).
 *
 *   gl_vectors ARCH INSTR FMT[,FMT...] COUNT SEED
 *
 * The formats are the instance's input formats; every (input, output) pair with an FEDP
 * profile on (ARCH, INSTR) is drawn at random, so one file covers both output modes.
 * First line: "# L <L> ELEM_W <bits> C_W <bits>" (the instance's port widths). Then one
 * operation per line, hex: in_fmt out_fmt a b c d, where a and b pack the L elements as
 * the RTL does (element i's value bits at [i*ELEM_W +: ELEM_W]) and d is
 * tc_fedp_step's result. Exit 2 on bad arguments.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fmt_values.h"
#include "tcsim.h"

/* The seed's stream (testkit/splitmix.h); [0, n) as the remainder of one draw. */
static tk_rng rng_state;
static unsigned rnd_below(unsigned n) { return tk_mod(&rng_state, n); }

static void put_packed(const uint32_t *v, unsigned n, unsigned w)
{
    /* n values of w bits, element 0 at the bottom, as one hex number. */
    unsigned total = n * w, digits = (total + 3) / 4;
    for (int d = (int)digits - 1; d >= 0; d--) {
        unsigned nib = 0;
        for (unsigned b = 0; b < 4; b++) {
            unsigned bit = (unsigned)d * 4 + b;
            if (bit < total && ((v[bit / w] >> (bit % w)) & 1u))
                nib |= 1u << b;
        }
        putchar("0123456789abcdef"[nib]);
    }
}

int main(int argc, char **argv)
{
    tc_arch arch;
    tc_instr instr;
    if (argc != 6 || tc_arch_parse(argv[1], &arch) != TC_OK ||
        tc_instr_parse(argv[2], &instr) != TC_OK) {
        fprintf(stderr, "usage: gl_vectors ARCH INSTR FMT[,FMT...] COUNT SEED\n");
        return 2;
    }
    tc_fmt ins[TC_FMT_COUNT];
    unsigned n_in = 0, elem_w = 0, c_w = 0, L = 0;
    const tc_profile *rows[TC_FMT_COUNT][2] = {{0}};
    static const tc_fmt outs[2] = {TC_FMT_FP32, TC_FMT_FP16};
    char list[256];
    if (strlen(argv[3]) >= sizeof list) {
        fprintf(stderr, "gl_vectors: format list too long\n");
        return 2;
    }
    strcpy(list, argv[3]);
    for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
        if (tc_fmt_parse(t, &ins[n_in]) != TC_OK) {
            fprintf(stderr, "gl_vectors: unknown format '%s'\n", t);
            return 2;
        }
        unsigned vb = tk_value_bits(tc_fmt_get(ins[n_in]));
        elem_w = vb > elem_w ? vb : elem_w;
        for (int o = 0; o < 2; o++) {
            const tc_profile *p;
            if (tc_profile_find(arch, instr, ins[n_in], outs[o], &p) == TC_OK &&
                p->kind == TC_KIND_FEDP) {
                rows[n_in][o] = p;
                L = p->L;
                unsigned cw = tk_value_bits(tc_fmt_get(outs[o]));
                c_w = cw > c_w ? cw : c_w;
            }
        }
        if (!rows[n_in][0] && !rows[n_in][1]) {
            fprintf(stderr, "gl_vectors: no FEDP profile for %s %s %s\n", argv[1], argv[2], t);
            return 2;
        }
        n_in++;
    }
    char *end;
    unsigned long count = strtoul(argv[4], &end, 0);
    if (*end || !count) {
        fprintf(stderr, "gl_vectors: bad COUNT '%s'\n", argv[4]);
        return 2;
    }
    rng_state.s = strtoull(argv[5], &end, 0);
    if (*end) {
        fprintf(stderr, "gl_vectors: bad SEED '%s'\n", argv[5]);
        return 2;
    }

    printf("# L %u ELEM_W %u C_W %u\n", L, elem_w, c_w);
    uint32_t a[TC_MAX_L], b[TC_MAX_L], aw[TC_MAX_L], bw[TC_MAX_L];
    for (unsigned long k = 0; k < count; k++) {
        unsigned i_in = rnd_below(n_in);
        int o;
        do o = (int)rnd_below(2); while (!rows[i_in][o]);
        const tc_profile *p = rows[i_in][o];
        const tc_fmt_info *fi = tc_fmt_get(p->in), *fo = tc_fmt_get(p->out);
        /* Per operation a mix: mostly tame values near one binade, some fully random,
         * some sprinkled with specials, and some exact cancellations of pairs. */
        unsigned r = rnd_below(10);
        int ebase = 1 + (int)rnd_below((1u << fi->exp_bits) - 2u);
        for (unsigned i = 0; i < L; i++) {
            int mode = r < 4 ? 1 : r < 7 ? 0 : (rnd_below(8) ? 1 : 2);
            a[i] = tk_draw(&rng_state, fi, mode, ebase);
            b[i] = tk_draw(&rng_state, fi, mode, ebase);
            if (r == 9 && (i & 1u)) { /* a_i*b_i = -(a_{i-1}*b_{i-1}) */
                a[i] = a[i - 1];
                b[i] = b[i - 1] ^ (1u << (tk_value_bits(fi) - 1));
            }
            aw[i] = a[i] << fi->ignore_low;
            bw[i] = b[i] << fi->ignore_low;
        }
        int cmode = r < 4 ? 1 : r < 7 ? 0 : (rnd_below(4) ? 1 : 2);
        /* c near the products' scale: twice the element exponent, in c's bias */
        int cbase = 2 * (ebase - fi->bias) + fo->bias;
        uint32_t c = tk_draw(&rng_state, fo, cmode, cbase);
        uint32_t d;
        tc_status st = tc_fedp_step(p, L, aw, bw, c, &d, NULL);
        if (st != TC_OK) {
            fprintf(stderr, "gl_vectors: tc_fedp_step(%s): %s\n", p->name, tc_strerror(st));
            return 1;
        }
        printf("%x %x ", (unsigned)p->in, (unsigned)p->out);
        put_packed(a, L, elem_w);
        putchar(' ');
        put_packed(b, L, elem_w);
        printf(" %0*" PRIx32 " %0*" PRIx32 "\n", (int)(c_w / 4), c, (int)(c_w / 4), d);
    }
    return 0;
}
