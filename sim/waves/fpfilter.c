/* fpfilter - a GTKWave "Translate Filter Process" that shows floating-point buses as
 * numbers.
 *
 *   fpfilter FMT        FMT: any float or scale format of the model (`tcsim list`):
 *                       fp32, tf32, fp16, bf16, e4m3, e5m2, e3m2, e2m3, e2m1, ue8m0, ue4m3
 *
 * GTKWave starts the program once, writes one value per line on its standard input, as
 * the trace shows it (hex, MSB first, no prefix), and waits for exactly one line back, so
 * every input line gets an answer, flushed at once, even when it is not a number. A bus
 * wider than one value is a packed vector of FMT values (a_i[127:0] is eight fp16 values,
 * element i in bits [16i+15:16i], as the RTL slices [i*W +: W]); it prints them element 0
 * first, separated by spaces. Lines with X or Z (or anything not hex) come back unchanged.
 *
 * In a .gtkw save file (the views in sim/waves/), a line `^>1 build/sim/waves/fpfilter fp32`
 * before a trace with the flag TR_PTRANSLATED (0x4000) selects it; GTKWave finds the
 * program with `which`, so the path is relative to the directory gtkwave runs in.
 *
 * The values come from the model's own format table and decoder (tc_fmt_parse,
 * tc_decode), not from a second copy of the formats written here: a format added to the
 * table is shown without a change to this file.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcsim.h"

/* A bus of up to 1024 bits (wider signals are not traced: --trace-max-width). */
#define MAX_DIGITS 256

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Significant digits that identify every value of a p-bit significand uniquely:
 * 1 + ceil(p * log10(2)) (fp32 9, fp16 5, bf16 4, e4m3 3), so the reader sees the
 * value, not a long exact binary expansion. */
static int digits_for(const tc_fmt_info *fi)
{
    unsigned p = fi->man_bits + 1;
    return 1 + (int)((p * 30103u + 99999u) / 100000u);
}

/* One value of `fi` (bits of its width) into out. */
static void print_value(tc_fmt f, const tc_fmt_info *fi, uint32_t bits, char *out, size_t n)
{
    tc_value v;
    if (tc_decode(f, bits, &v) != TC_OK) {
        snprintf(out, n, "?");
        return;
    }
    if (v.kind == TC_VAL_NAN) {
        snprintf(out, n, "NaN");
        return;
    }
    if (v.kind == TC_VAL_INF) {
        snprintf(out, n, "%sInf", v.sign ? "-" : "+");
        return;
    }
    /* Exact in a double: at most 24 significand bits, exponents within +-160. The exact
     * decimal when it is short (57344, 0.015625), else the digits that identify it. */
    double x = ldexp((double)v.sig, v.exp - (int)fi->man_bits);
    int prec = digits_for(fi);
    if (x == floor(x) && x < 1e9) { /* whole numbers whole: -10, not -1e+01 */
        snprintf(out, n, "%s%.0f", v.sign ? "-" : "", x);
        return;
    }
    for (int p = 1; p <= prec + 3; p++) {
        char buf[320]; /* room for any %g of a double (the compiler checks) */
        snprintf(buf, sizeof buf, "%.*g", p, x);
        if (strtod(buf, NULL) == x) {
            prec = p;
            break;
        }
    }
    snprintf(out, n, "%s%.*g", v.sign ? "-" : "", prec, x);
}

/* Translate one line (without its newline) into out. */
static void translate(tc_fmt f, const tc_fmt_info *fi, const char *line, char *out, size_t n)
{
    size_t len = strlen(line);
    int nibble[MAX_DIGITS];
    size_t digits = 0;
    for (size_t i = 0; i < len; i++) {
        int h = hexval((unsigned char)line[i]);
        if (h < 0 || digits == MAX_DIGITS) {
            snprintf(out, n, "%s", line); /* X, Z, or not a bus value: as it came */
            return;
        }
        nibble[digits++] = h;
    }
    if (digits == 0) {
        out[0] = '\0';
        return;
    }
    /* Bit k of the bus (k = 0 is the LSB, the last hex digit). */
#define BUS_BIT(k) ((nibble[digits - 1 - (k) / 4] >> ((k) % 4)) & 1)
    /* The trace pads the bus to whole hex digits: up to 3 bits above its MSB. A 6-bit
     * value comes as 2 digits, three of them (18 bits) as 5: what is left over after
     * whole elements is padding when it is narrower than a digit. */
    size_t bits = digits * 4, width = fi->width;
    size_t lanes = bits <= width        ? 1
                   : bits % width < 4 ? bits / width
                                        : (bits + width - 1) / width;
    size_t used = 0;
    out[0] = '\0';
    for (size_t lane = 0; lane < lanes; lane++) {
        uint32_t word = 0;
        for (size_t b = 0; b < width; b++) {
            size_t k = lane * width + b;
            if (k < bits)
                word |= (uint32_t)BUS_BIT(k) << b;
        }
        char one[320]; /* as buf in print_value */
        print_value(f, fi, word, one, sizeof one);
        int w = snprintf(out + used, n - used, "%s%s", lane ? " " : "", one);
        if (w < 0 || (size_t)w >= n - used)
            break;
        used += (size_t)w;
    }
#undef BUS_BIT
}

int main(int argc, char **argv)
{
    tc_fmt f;
    const tc_fmt_info *fi = NULL;
    if (argc == 2 && tc_fmt_parse(argv[1], &f) == TC_OK)
        fi = tc_fmt_get(f);
    if (!fi || fi->cls == TC_CLASS_INT) {
        fprintf(stderr, "usage: fpfilter FMT   (a float or scale format: fp32 tf32 fp16 bf16 "
                        "e4m3 e5m2 e3m2 e2m3 e2m1 ue8m0 ue4m3)\n"
                        "reads one hex bus value per line, prints its value(s)\n");
        return 2;
    }
    char line[MAX_DIGITS + 64], out[MAX_DIGITS * 16];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        translate(f, fi, line, out, sizeof out);
        puts(out);
        fflush(stdout); /* GTKWave waits for this line before it sends the next */
    }
    return 0;
}
