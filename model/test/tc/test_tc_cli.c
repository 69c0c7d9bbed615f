/* test_tc_cli.c TCSIM WORKDIR - `tcsim mma` and `tcsim hmma-trace` as a user runs them.
 *
 *  - hmma-trace prints Figure 9 (seed 001) for both modes;
 *  - mma on random matrices, every layout, both modes and shapes, == `tcsim dot` run on
 *    each element's row of A, column of B and c (the documented k order);
 *  - bad input: status 2 and a message naming the argument, file and line.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int fails;
static const char *tcsim;
static char out_buf[1 << 16], err_buf[1 << 12];

static void slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
}

/* Runs `tcsim ARGS`, keeping stdout and stderr; returns the exit status. */
static int run(const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' %s >out.txt 2>err.txt", tcsim, args);
    int rc = system(cmd);
    slurp("out.txt", out_buf, sizeof out_buf);
    slurp("err.txt", err_buf, sizeof err_buf);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void expect(int cond, const char *what)
{
    if (!cond) {
        printf("FAIL %s\n  stdout: %.300s\n  stderr: %.300s\n", what, out_buf, err_buf);
        fails++;
    }
}

static uint64_t rng = 88172645463325252u;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)rng;
}

static void write_matrix(const char *path, unsigned rows, unsigned cols, const uint32_t *m,
                         int digits)
{
    FILE *f = fopen(path, "w");
    fprintf(f, "# %u x %u\n", rows, cols);
    for (unsigned i = 0; i < rows; i++)
        for (unsigned j = 0; j < cols; j++)
            fprintf(f, "%s%0*x%c", j == 0 && i % 2 ? "0x" : "", digits, m[i * cols + j],
                    j + 1 < cols ? ' ' : '\n');
    fclose(f);
}

static uint32_t fp16(void)
{
    uint32_t r = rnd();
    return (r & 0x8000u) | ((10 + (r >> 16) % 10) << 10) | (r & 0x3ffu);
}

static void mma_vs_dot(const char *shape, unsigned M, unsigned N, unsigned K, int f16,
                       const char *layout)
{
    uint32_t A[256], B[256], C[256];
    for (unsigned i = 0; i < M * K; i++)
        A[i] = fp16();
    for (unsigned i = 0; i < K * N; i++)
        B[i] = fp16();
    for (unsigned i = 0; i < M * N; i++)
        C[i] = f16 ? fp16() : (rnd() & 0x80000000u) | ((120u + rnd() % 16) << 23) | (rnd() & 0x7fffff);
    write_matrix("a.txt", M, K, A, 4);
    write_matrix("b.txt", K, N, B, 4);
    write_matrix("c.txt", M, N, C, f16 ? 4 : 8);
    char args[512];
    snprintf(args, sizeof args, "mma --arch volta --shape %s --acc %s --a a.txt --b b.txt "
             "--c c.txt --layout %s", shape, f16 ? "f16" : "f32", layout);
    char what[600];
    snprintf(what, sizeof what, "tcsim %s", args);
    int rc = run(args);
    expect(rc == 0, what);
    if (rc != 0)
        return;
    uint32_t D[256];
    unsigned nd = 0;
    for (char *s = out_buf, *end; nd < M * N; s = end, nd++) {
        D[nd] = (uint32_t)strtoul(s, &end, 16);
        if (end == s)
            break;
    }
    expect(nd == M * N, "mma printed M x N values");
    /* the same elements through `tcsim dot`, one line each: row of A, column of B, c */
    FILE *f = fopen("dot.txt", "w");
    for (unsigned i = 0; i < M; i++)
        for (unsigned j = 0; j < N; j++) {
            for (unsigned k = 0; k < K; k++)
                fprintf(f, "%04x ", A[i * K + k]);
            for (unsigned k = 0; k < K; k++)
                fprintf(f, "%04x ", B[k * N + j]);
            fprintf(f, "%x\n", C[i * N + j]);
        }
    fclose(f);
    snprintf(args, sizeof args, "dot --arch volta --in fp16 --out %s <dot.txt",
             f16 ? "fp16" : "fp32");
    expect(run(args) == 0, "tcsim dot");
    char *s = out_buf;
    for (unsigned e = 0; e < M * N && e < nd; e++) {
        char *end;
        uint32_t d = (uint32_t)strtoul(s, &end, 16);
        if (end == s || d != D[e]) {
            printf("FAIL %s: D(%u,%u) = %x, tcsim dot %x\n", what, e / N, e % N, D[e], d);
            fails++;
            break;
        }
        s = end;
    }
}

/* m8n8k4 with one operand's four tiles stacked in its file (4M rows of A or C, 4K of B) and
 * one tile in the others: the warp's four tiles are printed, the single tiles copied to
 * every octet. A or B stacked: tile t holds t+1 everywhere (fp16 1.0, 2.0, 3.0, 4.0), the
 * other 1.0, C 0: every element of D's tile t is four products t+1, 4(t+1) = 4, 8, 12, 16
 * (fp32 40800000, 41000000, 41400000, 41800000). C stacked: A = B = 1.0, C's tile t holds
 * t (0.0 .. 3.0): 4 + t = 4, 5, 6, 7 (40800000, 40a00000, 40c00000, 40e00000). */
static void mma_four_tiles(char stacked)
{
    static const uint32_t val[4] = {0x3c00, 0x4000, 0x4200, 0x4400};
    static const uint32_t c_val[4] = {0, 0x3f800000, 0x40000000, 0x40400000};
    static const uint32_t want_ab[4] = {0x40800000, 0x41000000, 0x41400000, 0x41800000};
    static const uint32_t want_c[4] = {0x40800000, 0x40a00000, 0x40c00000, 0x40e00000};
    const uint32_t *want = stacked == 'c' ? want_c : want_ab;
    uint32_t A[4 * 8 * 4], B[4 * 4 * 8], C[4 * 8 * 8];
    for (unsigned i = 0; i < 4 * 8 * 4; i++) {
        A[i] = stacked == 'a' ? val[i / 32] : 0x3c00;
        B[i] = stacked == 'b' ? val[i / 32] : 0x3c00;
    }
    for (unsigned i = 0; i < 4 * 8 * 8; i++)
        C[i] = stacked == 'c' ? c_val[i / 64] : 0;
    write_matrix("a4.txt", stacked == 'a' ? 32 : 8, 4, A, 4);
    write_matrix("b4.txt", stacked == 'b' ? 16 : 4, 8, B, 4);
    write_matrix("c4.txt", stacked == 'c' ? 32 : 8, 8, C, 8);
    char what[128];
    snprintf(what, sizeof what, "mma m8n8k4 with four tiles of %c: D's four tiles",
             stacked - 'a' + 'A');
    expect(run("mma --arch volta --shape m8n8k4 --acc f32 --a a4.txt --b b4.txt --c c4.txt")
               == 0, what);
    unsigned nd = 0;
    int ok = 1;
    for (char *s = out_buf, *end;; s = end, nd++) {
        uint32_t d = (uint32_t)strtoul(s, &end, 16);
        if (end == s)
            break;
        ok = ok && nd < 4 * 64 && d == want[nd / 64];
    }
    expect(ok && nd == 4 * 64, what);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_tc_cli TCSIM WORKDIR\n");
        return 2;
    }
    tcsim = argv[1];
    char mk[1024];
    snprintf(mk, sizeof mk, "mkdir -p '%s'", argv[2]);
    if (system(mk) != 0 || chdir(argv[2]) != 0) {
        fprintf(stderr, "cannot use %s\n", argv[2]);
        return 2;
    }

    /* Figure 9 of seed 001, as hmma-trace prints it */
    expect(run("hmma-trace --arch volta --acc f32") == 0 &&
               !strcmp(out_buf, "1 0 10\n1 1 12\n1 2 14\n1 3 18\n2 0 20\n2 1 22\n2 2 24\n"
                                "2 3 28\n3 0 30\n3 1 32\n3 2 34\n3 3 38\n4 0 40\n4 1 42\n"
                                "4 2 44\n4 3 54\n"),
           "hmma-trace --acc f32 is Figure 9a");
    expect(run("hmma-trace --arch volta --acc f16") == 0 &&
               !strcmp(out_buf, "1 0 12\n1 1 21\n2 0 25\n2 1 34\n3 0 38\n3 1 47\n4 0 51\n"
                                "4 1 64\n"),
           "hmma-trace --acc f16 is Figure 9b");
    /* --acc takes the format names as tcsim list spells them too */
    expect(run("hmma-trace --arch volta --acc fp32") == 0 && !strncmp(out_buf, "1 0 10\n", 7) &&
               strstr(out_buf, "4 3 54\n"), "hmma-trace --acc fp32 is --acc f32");
    expect(run("hmma-trace --help") == 0 && strstr(out_buf, "usage: tcsim hmma-trace"), "help");
    expect(run("mma --help") == 0 && strstr(out_buf, "usage: tcsim mma"), "mma help");

    /* mma == dot, element by element: each layout pair once per shape (the model's
     * tests cover every combination; this is the command line) */
    static const char *layouts[] = {"row", "col", "row,col", "col,row"};
    for (int f16 = 0; f16 < 2; f16++)
        for (int l = 0; l < 2; l++) {
            mma_vs_dot("m16n16k16", 16, 16, 16, f16, layouts[2 * f16 + l]);
            mma_vs_dot("m8n8k4", 8, 8, 4, f16, layouts[3 - 2 * f16 - l]);
        }
    mma_four_tiles('a');
    mma_four_tiles('b');
    mma_four_tiles('c');

    /* bad input: status 2, the message names what is wrong */
    struct { const char *args, *msg; } bad[] = {
        {"hmma-trace --arch volta", "--acc is required"},
        {"hmma-trace --arch volta --acc f64", "unknown --acc 'f64'"},
        {"hmma-trace --arch ampere --acc f32", "--arch 'ampere' has no HMMA.884 model"},
        {"hmma-trace --arch volta --acc f32 --shape m8n8k8", "unknown --shape 'm8n8k8'"},
        {"hmma-trace --arch volta --acc f32 --engine gpu", "unknown --engine 'gpu'"},
        {"hmma-trace --arch volta --acc f32 --frob", "unknown option '--frob'"},
        {"mma --arch volta --acc f32 --a a.txt --b b.txt", "--c FILE is required"},
        {"mma --arch volta --acc f32 --c c.txt", "--a FILE is required"},
        {"mma --arch volta --acc f32 --a nofile.txt --b b.txt --c c.txt",
         "--a nofile.txt: cannot open"},
        {"mma --arch volta --acc f32 --a a.txt --b b.txt --c c.txt --layout diag",
         "unknown --layout 'diag'"},
        /* a first layout of 16 characters does not fit the 15 of a name and its NUL */
        {"mma --arch volta --acc f32 --a a.txt --b b.txt --c c.txt --layout "
         "rowrowrowrowrowr,col", "unknown --layout 'rowrowrowrowrowr,col' (row, col, or A,B"},
        {"mma --arch volta --acc f32 --a bad1.txt --b b.txt --c c.txt",
         "--a bad1.txt: line 3: word 2 '3g00' is not a hex number"},
        {"mma --arch volta --acc f32 --a bad2.txt --b b.txt --c c.txt",
         "--a bad2.txt: line 2: 15 values; expected 16"},
        {"mma --arch volta --acc f32 --a bad3.txt --b b.txt --c c.txt",
         "--a bad3.txt: 2 rows; expected 16"},
        {"mma --arch volta --acc f32 --a bad4.txt --b b.txt --c c.txt",
         "--a bad4.txt: line 1: word 16 = 0x13c00 is wider than fp16"},
        {"mma --arch volta --shape m8n8k4 --acc f32 --a a.txt --b b.txt --c c.txt",
         "--a a.txt: line 2: 16 values; expected 4"},
        {"mma --arch volta --acc f32 --a bad5.txt --b b.txt --c c.txt",
         "--a bad5.txt: line 2: a NUL byte"},
        {"mma --arch volta --acc f32 --a bad6.txt --b b.txt --c c.txt",
         "--a bad6.txt: line 18: more than 16 rows"},
        {"mma --arch volta --acc f32 --a bad7.txt --b b.txt --c c.txt",
         "--a bad7.txt: line 1: word 1 '10000000000003c00' is wider than 64 bits"},
        {"mma --arch volta --acc f32 --a bad8.txt --b b.txt --c c.txt",
         "--a bad8.txt: line 1: word 2: a stray control character 0x0d after '3c00'"},
    };
    /* a valid m16n16k16 set of files first, then the broken ones */
    mma_vs_dot("m16n16k16", 16, 16, 16, 0, "row");
    static const char *row16 = "3c00 3c00 3c00 3c00 3c00 3c00 3c00 3c00 3c00 3c00 3c00 "
                               "3c00 3c00 3c00 3c00 3c00\n";
    FILE *f = fopen("bad1.txt", "w");
    fprintf(f, "# the bad word is on line 3\n%s3c00 3g00 %s", row16, row16);
    fclose(f);
    f = fopen("bad2.txt", "w");
    fprintf(f, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
    fclose(f);
    f = fopen("bad3.txt", "w");
    fprintf(f, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n\n0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
    fclose(f);
    f = fopen("bad4.txt", "w");
    fprintf(f, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 13c00\n");
    fclose(f);
    f = fopen("bad5.txt", "w"); /* 16 words, then a NUL that hides the rest of the line */
    fprintf(f, "%s3c00", row16);
    fputc('\0', f);
    fprintf(f, " 3c00\n");
    fclose(f);
    f = fopen("bad6.txt", "w"); /* a comment, then 17 rows: the 17th is named */
    fprintf(f, "# 17 rows\n");
    for (int i = 0; i < 17; i++)
        fputs(row16, f);
    fclose(f);
    f = fopen("bad7.txt", "w"); /* 17 digits: 1.0 after the 64 bits, were they kept */
    fprintf(f, "10000000000003c00 %s", row16 + 5);
    fclose(f);
    f = fopen("bad8.txt", "w"); /* a CR inside the line, not before its LF */
    fprintf(f, "3c00 3c00\r3c00%s", row16 + 14);
    fclose(f);
    /* Leading zeros are not digits that count, as in tcsim dot: 17 and more characters of
     * one value read as that value (they were refused as 'not a hex number'). */
    f = fopen("zeros.txt", "w");
    fprintf(f, "0x000000000000000003c00 00000000000000000003c00 %s", row16 + 10);
    for (int i = 1; i < 16; i++)
        fputs(row16, f);
    fclose(f);
    f = fopen("ones.txt", "w");
    for (int i = 0; i < 16; i++)
        fputs(row16, f);
    fclose(f);
    static char ones_out[sizeof out_buf];
    expect(run("mma --arch volta --acc f32 --a ones.txt --b ones.txt --c ones.txt") == 0,
           "mma on 1.0 everywhere");
    memcpy(ones_out, out_buf, sizeof out_buf);
    expect(run("mma --arch volta --acc f32 --a zeros.txt --b ones.txt --c ones.txt") == 0 &&
               !strcmp(out_buf, ones_out),
           "mma reads zero-padded words of 23 and 22 characters as the values they pad");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = run(bad[i].args);
        char what[512];
        snprintf(what, sizeof what, "tcsim %s: exit %d, expected 2 and '%s'", bad[i].args, rc,
                 bad[i].msg);
        expect(rc == 2 && strstr(err_buf, bad[i].msg), what);
    }
    printf("%s: %d failure(s)\n", fails ? "FAILED" : "PASSED", fails);
    return fails != 0;
}
