/* test_bw_cli.c - `tcsim conv` as a user runs it: the exact output format, results from
 * file inputs checked against values worked out by hand (and their FNV-1a checksum
 * computed here), the three algorithms agreeing on random inputs, and the usage errors
 * (exit status 2, a message naming the argument). Arguments: the tcsim binary and a
 * work directory. */
#define _POSIX_C_SOURCE 200809L /* popen */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "check.h"

static const char *tcsim, *work;

/* Run tcsim with args; stdout into out, the exit status returned; stderr into err. */
static int run(const char *args, char *out, size_t outsz, char *err, size_t errsz)
{
    char cmd[2048], errpath[1024];
    snprintf(errpath, sizeof errpath, "%s/stderr.txt", work);
    snprintf(cmd, sizeof cmd, "'%s' conv %s 2>'%s'", tcsim, args, errpath);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t n = fread(out, 1, outsz - 1, p);
    out[n] = 0;
    int st = pclose(p);
    FILE *e = fopen(errpath, "r");
    n = e ? fread(err, 1, errsz - 1, e) : 0;
    err[n] = 0;
    if (e)
        fclose(e);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static uint64_t fnv(const uint32_t *w, size_t n)
{
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 4; b++) {
            h ^= (w[i] >> (8 * b)) & 0xff;
            h *= 1099511628211ull;
        }
    return h;
}

static void write_file(const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", work, name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static unsigned long long field(const char *out, const char *key)
{
    const char *p = strstr(out, key);
    return p ? strtoull(p + strlen(key), NULL, 0) : ~0ull;
}

static void known_values(void)
{
    char out[4096], err[4096], args[1024], want[512];
    /* 1x1x3 channels: 1*1 + 2*1 + 3*1 = 6 (fp32 0x40c00000); the padding-free 1x1 filter */
    write_file("act.txt", "# fp16 1, 2, 3\n3c00 4000\n0x4200\n");
    write_file("wgt.txt", "3c00 3c00 3c00\n");
    uint32_t six = 0x40c00000u;
    for (int algo = 1; algo <= 3; algo++) {
        snprintf(args, sizeof args, "--n 1 --h 1 --w 1 --c 3 --k 1 --r 1 --s 1 --algo %d "
                 "--act %s/act.txt --wgt %s/wgt.txt", algo, work, work);
        int rc = run(args, out, sizeof out, err, sizeof err);
        CHECK(rc == 0, "algo %d: exit %d: %s", algo, rc, err);
        if (algo == 1)
            snprintf(want, sizeof want, "checksum: %016llx\nsmem_row_loads: 0\nshifts: 0\n"
                     "mmas: 0\ncycles: 0\n", (unsigned long long)fnv(&six, 1));
        else /* one row copied, one MMA of M 128, N 8: 4 array passes, at least */
            snprintf(want, sizeof want, "checksum: %016llx\nsmem_row_loads: 1\nshifts: 0\n"
                     "mmas: 1\ncycles: %llu\n", (unsigned long long)fnv(&six, 1),
                     field(out, "cycles: "));
        CHECK(!strcmp(out, want), "algo %d: output\n%s\nwanted\n%s", algo, out, want);
        if (algo > 1)
            CHECK(field(out, "cycles: ") >= 4 && field(out, "cycles: ") < 100, "cycles");
    }
    /* --kind f8f6f4 reads its first format, e4m3: 0x38 is 1.0 (0.5 in e5m2), 1+1+1 = 3 */
    write_file("act_f8.txt", "38 38 38\n");
    uint32_t three = 0x40400000u;
    snprintf(want, sizeof want, "checksum: %016llx\n", (unsigned long long)fnv(&three, 1));
    snprintf(args, sizeof args, "--n 1 --h 1 --w 1 --c 3 --k 1 --r 1 --s 1 --algo 1 "
             "--kind f8f6f4 --act %s/act_f8.txt --wgt %s/act_f8.txt", work, work);
    int rc8 = run(args, out, sizeof out, err, sizeof err);
    CHECK(rc8 == 0 && !strncmp(out, want, strlen(want)), "f8f6f4 as e4m3: %s%s", out, err);
    /* --in beside --kind is the format read: 0x38 as e5m2 is 0.5, 3 x 0.25 = 0.75 */
    uint32_t three_quarters = 0x3f400000u;
    snprintf(want, sizeof want, "checksum: %016llx\n",
             (unsigned long long)fnv(&three_quarters, 1));
    snprintf(args, sizeof args, "--n 1 --h 1 --w 1 --c 3 --k 1 --r 1 --s 1 --algo 1 "
             "--kind f8f6f4 --in e5m2 --act %s/act_f8.txt --wgt %s/act_f8.txt", work, work);
    rc8 = run(args, out, sizeof out, err, sizeof err);
    CHECK(rc8 == 0 && !strncmp(out, want, strlen(want)), "f8f6f4 with --in e5m2: %s%s", out,
          err);
    /* --in-a e2m1 --in-b e4m3 (issue 33): the activations are e2m1 (0x2 = 1.0, 0x3 = 1.5,
     * 0xc = -2), the weights e4m3 (0x38 = 1.0, 0x40 = 2.0, 0x44 = 3.0): 1 + 3 - 6 = -2,
     * fp32 0xc0000000, in every algorithm; the same words both as e4m3 are another sum */
    write_file("act_e2m1.txt", "2 3 c\n");
    write_file("wgt_e4m3.txt", "38 40 44\n");
    uint32_t minus_two = 0xc0000000u;
    snprintf(want, sizeof want, "checksum: %016llx\n", (unsigned long long)fnv(&minus_two, 1));
    for (int algo = 1; algo <= 3; algo++) {
        snprintf(args, sizeof args, "--n 1 --h 1 --w 1 --c 3 --k 1 --r 1 --s 1 --algo %d "
                 "--in-a e2m1 --in-b e4m3 --act %s/act_e2m1.txt --wgt %s/wgt_e4m3.txt", algo,
                 work, work);
        rc8 = run(args, out, sizeof out, err, sizeof err);
        CHECK(rc8 == 0 && !strncmp(out, want, strlen(want)), "algo %d, e2m1 x e4m3: %s%s", algo,
              out, err);
    }
    snprintf(args, sizeof args, "--n 1 --h 1 --w 1 --c 3 --k 1 --r 1 --s 1 --algo 2 "
             "--in e4m3 --act %s/act_e2m1.txt --wgt %s/wgt_e4m3.txt", work, work);
    rc8 = run(args, out, sizeof out, err, sizeof err);
    CHECK(rc8 == 0 && strncmp(out, want, strlen(want)), "e4m3 x e4m3 gave e2m1 x e4m3's: %s%s",
          out, err);
    /* --in-a int8 --in-b uint8: -1 * 255 = -255; as int8 x int8 it would be 1 */
    write_file("wgt_u8b.txt", "ff\n");
    uint32_t m255 = (uint32_t)-255;
    snprintf(want, sizeof want, "checksum: %016llx\n", (unsigned long long)fnv(&m255, 1));
    snprintf(args, sizeof args, "--n 1 --h 1 --w 1 --c 1 --k 1 --r 1 --s 1 --algo 3 --in-a int8 "
             "--in-b uint8 --act %s/wgt_u8b.txt --wgt %s/wgt_u8b.txt", work, work);
    rc8 = run(args, out, sizeof out, err, sizeof err);
    CHECK(rc8 == 0 && !strncmp(out, want, strlen(want)), "int8 x uint8: %s%s", out, err);
    /* --in uint8 is kind i8 (s32 out): 255 * 2 = 510 */
    write_file("act_u8.txt", "ff\n");
    write_file("wgt_u8.txt", "02\n");
    uint32_t u510 = 510;
    snprintf(want, sizeof want, "checksum: %016llx\n", (unsigned long long)fnv(&u510, 1));
    snprintf(args, sizeof args, "--n 1 --h 1 --w 1 --c 1 --k 1 --r 1 --s 1 --algo 1 --in uint8 "
             "--act %s/act_u8.txt --wgt %s/wgt_u8.txt", work, work);
    rc8 = run(args, out, sizeof out, err, sizeof err);
    CHECK(rc8 == 0 && !strncmp(out, want, strlen(want)), "uint8 as i8: %s%s", out, err);
    /* K 496, the most algorithms 2 and 3 take (tcsim conv's message): two output-channel
     * chunks of up to 256, so two MMAs for the one pixel, tap and channel chunk */
    int rck = run("--n 1 --h 1 --w 1 --c 8 --k 496 --r 1 --s 1 --algo 3 --seed 1", out,
                  sizeof out, err, sizeof err);
    CHECK(rck == 0 && field(out, "mmas: ") == 2, "--k 496 --algo 3: exit %d: %s%s", rck, out,
          err);
    /* 3x3 input, 3x3 filter of ones, pad 1, i8: the centre output is the sum of all nine
     * inputs 1..9 = 45, a corner 1+2+4+5 = 12 */
    write_file("act8.txt", "1 2 3 4 5 6 7 8 9\n");
    write_file("wgt8.txt", "1 1 1 1 1 1 1 1 1\n");
    uint32_t o[9] = {12, 21, 16, 27, 45, 33, 24, 39, 28};
    snprintf(want, sizeof want, "checksum: %016llx\n", (unsigned long long)fnv(o, 9));
    for (int algo = 1; algo <= 3; algo++) {
        snprintf(args, sizeof args, "--n 1 --h 3 --w 3 --c 1 --k 1 --r 3 --s 3 --pad 1 "
                 "--kind i8 --algo %d --act %s/act8.txt --wgt %s/wgt8.txt", algo, work, work);
        int rc = run(args, out, sizeof out, err, sizeof err);
        CHECK(rc == 0 && !strncmp(out, want, strlen(want)), "i8 3x3 algo %d: %s%s", algo, out, err);
    }
}

/* docs/blackwell_mma.md's example run (the defaults: seed 1, stride 1, 8 banks) and its
 * table of the same layer: the counts and cycles of both algorithms and organizations */
static void documented(void)
{
    static const struct {
        const char *opts, *want;
    } runs[] = {
        {"--algo 3", "checksum: 90d07872fdcba881\nsmem_row_loads: 37688\nshifts: 600\n"
                     "mmas: 900\ncycles: 30414\n"},
        {"--algo 3 --banks 4", "smem_row_loads: 37688\nshifts: 600\nmmas: 900\ncycles: 33986\n"},
        {"--algo 2 --banks 8", "smem_row_loads: 110224\nshifts: 0\nmmas: 900\ncycles: 42525\n"},
        {"--algo 2 --banks 4", "smem_row_loads: 110224\nshifts: 0\nmmas: 900\ncycles: 43506\n"},
    };
    char out[4096], err[4096], args[512];
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        snprintf(args, sizeof args, "--n 1 --h 56 --w 56 --c 64 --k 64 --r 3 --s 3 --pad 1 %s",
                 runs[i].opts);
        int rc = run(args, out, sizeof out, err, sizeof err);
        size_t lo = strlen(out), lw = strlen(runs[i].want);
        CHECK(rc == 0 && lo >= lw && !strcmp(out + lo - lw, runs[i].want),
              "%s: exit %d:\n%s\nwanted\n%s", args, rc, out, runs[i].want);
    }
}

static void random_agree(void)
{
    static const char *const shapes[] = {
        "--n 2 --h 9 --w 9 --c 20 --k 8 --r 3 --s 3 --pad 1",
        "--n 1 --h 12 --w 10 --c 40 --k 24 --r 5 --s 5 --pad 2 --stride 2",
        "--n 1 --h 12 --w 12 --c 16 --k 16 --r 3 --s 3 --pad 2 --dilation 2 --in bf16",
        "--n 1 --h 8 --w 8 --c 64 --k 16 --r 3 --s 3 --pad 1 --in e2m1 --out fp16",
        "--n 1 --h 8 --w 8 --c 40 --k 16 --r 3 --s 3 --pad 1 --in-a e2m1 --in-b e5m2",
        "--n 1 --h 6 --w 7 --c 36 --k 24 --r 3 --s 3 --in-a e4m3 --in-b e2m3 --out fp16",
        "--n 1 --h 6 --w 6 --c 40 --k 8 --r 3 --s 3 --pad 1 --in-a uint8 --in-b int8",
    };
    char out[3][4096], err[4096], args[1024];
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        for (int algo = 1; algo <= 3; algo++) {
            snprintf(args, sizeof args, "%s --algo %d --seed 7", shapes[s], algo);
            int rc = run(args, out[algo - 1], sizeof out[0], err, sizeof err);
            CHECK(rc == 0, "%s: exit %d: %s", args, rc, err);
        }
        CHECK(!strncmp(out[0], out[1], 27) && !strncmp(out[0], out[2], 27),
              "%s: checksums differ:\n%s%s%s", shapes[s], out[0], out[1], out[2]);
        CHECK(field(out[2], "smem_row_loads: ") <= field(out[1], "smem_row_loads: ") &&
              field(out[2], "mmas: ") == field(out[1], "mmas: "), "%s: algo 3 vs 2", shapes[s]);
    }
    /* another seed, other bits */
    char o2[4096];
    run("--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 3 --seed 1", out[0], sizeof out[0],
        err, sizeof err);
    run("--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 3 --seed 2", o2, sizeof o2, err,
        sizeof err);
    CHECK(strncmp(out[0], o2, 27), "seeds 1 and 2 give the same checksum");
    /* --seed is any 64-bit value, 0 included (--pad and --seed are the options from 0) */
    int rc = run("--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 3 --seed 0", o2, sizeof o2,
                 err, sizeof err);
    CHECK(rc == 0 && strncmp(out[0], o2, 27), "--seed 0: exit %d: %s%s", rc, o2, err);
}

/* Input files with lines longer than any buffer: 1024 words on one line (6 KiB) and a
 * long comment give the results of the same words one per line (a 4 KiB line buffer
 * once split a word in two at its edge and read a long comment's tail as data). */
static void long_lines(void)
{
    static const char *const shape = "--n 1 --h 1 --w 1 --c 1024 --k 1 --r 1 --s 1 --algo 1";
    enum { N = 1024 };
    static char one_line[N * 7 + 4200], many[N * 6 + 16];
    size_t a = 0, b = 0;
    a += (size_t)snprintf(one_line, sizeof one_line, "#");
    for (int i = 0; i < 4100; i++)
        one_line[a++] = i % 70 == 69 ? ' ' : 'x'; /* a comment of 4 KiB, hex-looking words */
    one_line[a++] = '\n';
    for (unsigned i = 0; i < N; i++) {
        unsigned w = 0x3c00u + (i % 61); /* fp16 near 1 */
        a += (size_t)snprintf(one_line + a, sizeof one_line - a, "%04x  ", w);
        b += (size_t)snprintf(many + b, sizeof many - b, "%04x\n", w);
    }
    one_line[a++] = '\n';
    one_line[a] = 0;
    write_file("long_act.txt", one_line);
    write_file("many_act.txt", many);
    write_file("long_wgt.txt", one_line);
    write_file("many_wgt.txt", many);
    char args[1024], o1[4096], o2[4096], err[4096];
    snprintf(args, sizeof args, "%s --act %s/long_act.txt --wgt %s/long_wgt.txt", shape, work,
             work);
    int rc = run(args, o1, sizeof o1, err, sizeof err);
    CHECK(rc == 0, "6 KiB lines: exit %d: %s", rc, err);
    snprintf(args, sizeof args, "%s --act %s/many_act.txt --wgt %s/many_wgt.txt", shape, work,
             work);
    rc = run(args, o2, sizeof o2, err, sizeof err);
    CHECK(rc == 0 && o1[0] && !strcmp(o1, o2), "one word a line: exit %d, '%s' vs '%s'", rc, o2,
          o1);
}

static void errors(void)
{
    static const struct {
        const char *args, *names;
    } cases[] = {
        {"--h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 1", "--n"},
        {"--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 4", "--algo"},
        {"--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3", "--algo"},
        {"--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 1 --bogus 1", "--bogus"},
        {"--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 1 --stride 0", "--stride"},
        {"--n 1 --h 2 --w 2 --c 8 --k 8 --r 3 --s 3 --algo 1", "filter"},
        {"--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 1 --kind i8 --out fp32", "i8"},
        {"--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 1 --in fp99", "fp99"},
        {"--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 1 --engine gpu", "--engine"},
        {"--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 1 --act /nonexistent --wgt x", "--act"},
        {"--n 1 --h 1 --w 1 --c 4 --k 1 --r 1 --s 1 --algo 1 --act @/wgt.txt --wgt @/wgt.txt",
         "needs 4"},
        {"--n 1 --h 1 --w 1 --c 3 --k 1 --r 1 --s 1 --algo 1 --act @/act.txt --wgt @/bad.txt",
         "bad.txt' line 1: word 2 'zz' is not a hex number"},
        /* a CR inside a line is named, not taken as a space (tcsim dot's and mma's rule) */
        {"--n 1 --h 1 --w 1 --c 3 --k 1 --r 1 --s 1 --algo 1 --act @/act.txt --wgt @/cr.txt",
         "cr.txt' line 1: word 1: a stray control character 0x0d after '3c00'"},
        {"--n 1 --h 1 --w 1 --c 1 --k 1 --r 1 --s 1 --algo 1 --act @/wide.txt --wgt @/wide.txt",
         "wide.txt' line 1: a word wider than the input format at '13c00' (fp16: 16 bits)"},
        /* algorithms 2 and 3 cut such a word to 16 bits and went on, exit 0 */
        {"--n 1 --h 1 --w 1 --c 1 --k 1 --r 1 --s 1 --algo 2 --act @/wide.txt --wgt @/wide.txt",
         "a word wider than the input format"},
        {"--n 1 --h 1 --w 1 --c 1 --k 1 --r 1 --s 1 --algo 3 --act @/wide.txt --wgt @/wide.txt",
         "a word wider than the input format"},
        {"--n 1 --h 1 --w 1 --c 1 --k 1 --r 1 --s 1 --algo 1 --act @/nul.txt --wgt @/wide.txt",
         "nul.txt' line 2: a NUL byte"},
        {"--n 1 --h 3 --w 3 --c 8 --k 500 --r 1 --s 1 --algo 3 --seed 1",
         "--k 500 with --algo 3: algorithms 2 and 3 keep a tile's whole D in tensor memory, "
         "K up to 496"},
        {"--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 1 --seed 010x", "--seed '010x'"},
        {"--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --algo 1", "missing --s"},
        /* the output alone over 2^28 words: 8192 x 8192 pixels x 8 channels = 2^29 */
        {"--n 1 --h 8192 --w 8192 --c 1 --k 8 --r 1 --s 1 --algo 1",
         "tensors of more than 2^28 words are not supported"},
        {"--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 1 --pad 4097",
         "bad value for --pad '4097' (an integer from 0 to 4096)"},
        {"--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 1 --banks 5",
         "bad value for --banks '5' (8 or 4)"},
        {"--n 1 --h 1 --w 1 --c 3 --k 1 --r 1 --s 1 --algo 1 --act @/act.txt --wgt @/act.txt "
         "--seed 1", "give --act and --wgt together, or --seed"},
        /* A/B pairs (issue 33): a pair the kind lacks names the instruction and the pair */
        {"--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 2 --in-a e4m3 --in-b fp16",
         "blackwell tcgen05.mma kind::f8f6f4 has no e4m3 x fp16 -> fp32 form (--in-a e4m3 "
         "--in-b fp16)"},
        {"--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 3 --in-a fp16 --in-b bf16",
         "blackwell tcgen05.mma kind::f16 has no fp16 x bf16 -> fp32 form"},
        {"--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 1 --in-a int8 --in-b e4m3 --out s32",
         "kind::i8 has no int8 x e4m3 -> s32 form"},
        {"--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 1 --kind f16 --in-a e2m1 "
         "--in-b e4m3", "kind::f16 has no e2m1 x e4m3 -> fp32 form"},
        {"--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 1 --in e4m3 --in-a e4m3 --in-b e2m1",
         "--in sets both formats"},
        {"--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 1 --in-b e2m1",
         "--in-a and --in-b go together"},
        {"--n 1 --h 5 --w 5 --c 8 --k 8 --r 3 --s 3 --algo 1 --in-a e4m3 --in-b e9m9", "e9m9"},
        /* each file is read in its own operand's format: e4m3 words are too wide for e2m1 */
        {"--n 1 --h 1 --w 1 --c 3 --k 1 --r 1 --s 1 --algo 2 --in-a e4m3 --in-b e2m1 "
         "--act @/wgt_e4m3.txt --wgt @/wgt_e4m3.txt",
         "wgt_e4m3.txt' line 1: a word wider than the input format at '38' (e2m1: 4 bits)"},
    };
    write_file("bad.txt", "3c00 zz 3c00\n");
    write_file("cr.txt", "3c00\r3c00 3c00\n");
    {   /* a NUL byte on line 2, with more words after it that would go unseen */
        char path[1024];
        snprintf(path, sizeof path, "%s/nul.txt", work);
        FILE *f = fopen(path, "w");
        if (f) {
            fwrite("# x\n3c00\0 3c00\n", 1, 16, f);
            fclose(f);
        }
    }
    write_file("wide.txt", "13c00\n"); /* 17 bits: not an fp16 pattern */
    char out[4096], err[4096], args[2048];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        /* @ stands for the work directory */
        const char *src = cases[i].args;
        size_t n = 0;
        for (; *src && n < sizeof args - 600; src++)
            n += (size_t)(*src == '@' ? snprintf(args + n, sizeof args - n, "%s", work)
                                      : snprintf(args + n, sizeof args - n, "%c", *src));
        int rc = run(args, out, sizeof out, err, sizeof err);
        CHECK(rc == 2 && strstr(err, cases[i].names) && !out[0],
              "'%s': exit %d, stdout '%s', stderr '%s' (wanted 2 and '%s')", args, rc, out, err,
              cases[i].names);
    }
    int rc = run("--help", out, sizeof out, err, sizeof err);
    CHECK(rc == 0 && strstr(out, "usage: tcsim conv"), "--help");
}

/* The progress lines on stderr (not a terminal here: one line per tenth reached):
 * percentages rising to a last "100% of <total> MMAs"; their count returned, -1 if bad. */
static int progress_lines(const char *err, unsigned long long total)
{
    char tail[128];
    int lines = 0;
    unsigned last = 0;
    snprintf(tail, sizeof tail, "%% of %llu MMAs, ", total);
    for (const char *l = err; *l; lines++) {
        unsigned pct = 0;
        if (sscanf(l, "tcsim conv: %u", &pct) != 1 || pct > 100 || (lines && pct / 10 <= last / 10) ||
            !strstr(l, tail))
            return -1;
        last = pct;
        l = strchr(l, '\n');
        if (!l)
            return -1;
        l++;
    }
    return last == 100 ? lines : -1;
}

static void progress(void)
{
    char plain[4096], out[4096], err[4096];
    /* 2 x 9 x 9 pixels: 2 tiles of 128; 3 x 3 taps; 20 channels: 2 chunks of 16; 8 output
     * channels: 1 chunk. 2 * 3 * 1 * 2 * 3 = 36 MMAs, all with a lane inside the image. */
    const char *shape = "--n 2 --h 9 --w 9 --c 20 --k 8 --r 3 --s 3 --pad 1 --seed 7";
    for (int algo = 2; algo <= 3; algo++) {
        char args[256];
        snprintf(args, sizeof args, "%s --algo %d", shape, algo);
        int rc = run(args, plain, sizeof plain, err, sizeof err);
        CHECK(rc == 0 && !err[0], "algo %d: a short run reports nothing: exit %d, '%s'", algo,
              rc, err);
        CHECK(field(plain, "mmas: ") == 36, "algo %d: %llu MMAs, 36 by hand", algo,
              field(plain, "mmas: "));
        snprintf(args, sizeof args, "%s --algo %d --progress", shape, algo);
        rc = run(args, out, sizeof out, err, sizeof err);
        int n = progress_lines(err, 36);
        CHECK(rc == 0 && !strcmp(out, plain) && n >= 1 && n <= 10,
              "algo %d --progress: exit %d, stdout %s, stderr:\n%s", algo, rc,
              strcmp(out, plain) ? "differs" : "the same", err);
    }
    /* one pixel, pad 1: of the 9 taps only the centre reads the image; the 8 others have
     * every lane disabled and are skipped, and the report still ends at 100% */
    int rc = run("--n 1 --h 1 --w 1 --c 16 --k 8 --r 3 --s 3 --pad 1 --algo 2 --progress", out,
                 sizeof out, err, sizeof err);
    CHECK(rc == 0 && field(out, "mmas: ") == 1 && progress_lines(err, 9) >= 1,
          "skipped taps: exit %d, %s%s", rc, out, err);
    /* 2 x 8 x 8 = 128 pixels fill one tile exactly: one MMA for a 1x1 filter, 16 channels */
    rc = run("--n 2 --h 8 --w 8 --c 16 --k 8 --r 1 --s 1 --algo 2 --progress", out, sizeof out,
             err, sizeof err);
    CHECK(rc == 0 && field(out, "mmas: ") == 1 && progress_lines(err, 1) == 1,
          "one full tile: exit %d, %s%s", rc, out, err);
    /* K 256: one output-channel chunk of 256, not two */
    rc = run("--n 1 --h 1 --w 1 --c 16 --k 256 --r 1 --s 1 --algo 2 --progress", out, sizeof out,
             err, sizeof err);
    CHECK(rc == 0 && field(out, "mmas: ") == 1 && progress_lines(err, 1) == 1,
          "K 256: exit %d, %s%s", rc, out, err);
    /* Algorithm 1 runs no MMA: nothing to report */
    rc = run("--n 1 --h 3 --w 3 --c 16 --k 8 --r 3 --s 3 --pad 1 --algo 1 --progress", out,
             sizeof out, err, sizeof err);
    CHECK(rc == 0 && !err[0], "algo 1 --progress: exit %d, stderr '%s'", rc, err);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_bw_cli TCSIM WORKDIR\n");
        return 2;
    }
    tcsim = argv[1];
    work = argv[2];
    mkdir(work, 0777);
    known_values();
    documented();
    random_agree();
    long_lines();
    progress();
    errors();
    printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
}
