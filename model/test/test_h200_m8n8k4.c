/* test_h200_m8n8k4.c - what the H200 measured for mma.m8n8k4 (data/vectors/h200/
 * mma_m8n8k4_fp16, 5,000 cases each of fp16 -> fp32 and fp16 -> fp16): Hopper has no
 * m8n8k4 datapath and runs the instruction as an emulation whose arithmetic is not its
 * FEDP's. Every result is this sequence of binary32 operations, each rounded to nearest
 * even (the products of fp16 values are exact in binary32):
 *     s = a0*b0;  s = s + a1*b1;  s = s + a2*b2;  s = s + a3*b3;  d = s + c
 * and for fp16 output d rounded to fp16 (nearest even) once more, c having been given
 * rounded to fp16. The sum is computed here with the compiler's float arithmetic (IEEE
 * binary32 where FLT_EVAL_METHOD is 0, as on x86-64), independent of the model, which
 * has one arithmetic per architecture, instruction and formats (its FEDP: these sets
 * are documented exceptions of h200_vectors). Any NaN matches any NaN. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "gpu_vectors.h"

static float as_float(tc_fmt f, uint32_t p)
{
    uint32_t w = p;
    float x;
    if (f != TC_FMT_FP32 && tc_convert_exact(f, p, TC_FMT_FP32, &w) != TC_OK)
        w = 0x7fc00000u;
    memcpy(&x, &w, sizeof x);
    return x;
}

static int same(float x, uint32_t want, tc_fmt out)
{
    float y = as_float(out, want);
    if (isnan(x) || isnan(y))
        return isnan(x) && isnan(y);
    uint32_t bx, by;
    memcpy(&bx, &x, sizeof bx);
    memcpy(&by, &y, sizeof by);
    return bx == by;
}

int main(int argc, char **argv)
{
    if (FLT_EVAL_METHOD != 0) {
        printf("SKIP: float arithmetic is not plain binary32 here (FLT_EVAL_METHOD %d)\n",
               (int)FLT_EVAL_METHOD);
        return 77;
    }
    const char *dir = argc > 1 ? argv[1] : TCSIM_DATA_DIR "/vectors/h200/mma_m8n8k4_fp16";
    gv_set sets[GV_MAX_SETS];
    size_t n = 0, checked = 0;
    int fail = gv_find(dir, sets, GV_MAX_SETS, &n) != 0 || n != 2;
    for (size_t s = 0; !fail && s < n; s++) {
        gv_cases cs;
        if (gv_load(&sets[s], &cs) || cs.k != 4) {
            fail = 1;
            break;
        }
        size_t bad = 0;
        for (size_t i = 0; i < cs.n; i++) {
            const uint32_t *a = cs.a + i * 4, *b = cs.b + i * 4;
            float sum = as_float(TC_FMT_FP16, a[0]) * as_float(TC_FMT_FP16, b[0]);
            for (int j = 1; j < 4; j++)
                sum = sum + as_float(TC_FMT_FP16, a[j]) * as_float(TC_FMT_FP16, b[j]);
            sum = sum + as_float(sets[s].out, cs.c[i]);
            uint32_t bits, d16;
            memcpy(&bits, &sum, sizeof bits);
            if (sets[s].out == TC_FMT_FP16) { /* one more rounding, to fp16 */
                if (tc_convert_rne(TC_FMT_FP32, bits, TC_FMT_FP16, &d16) != TC_OK) {
                    fail = 1;
                    break;
                }
                sum = as_float(TC_FMT_FP16, d16);
            }
            if (!same(sum, cs.d[i], sets[s].out) && bad++ < 5)
                printf("  %s case %zu: chain %08x, H200 %08x\n", sets[s].name, i + 1,
                       (unsigned)bits, (unsigned)cs.d[i]);
        }
        printf("%s: %zu cases, %zu differ from the fp32 chain\n", sets[s].name, cs.n, bad);
        checked += cs.n;
        fail |= bad != 0;
        gv_free(&cs);
    }
    printf("%zu results checked: %s\n", checked, fail || checked != 10000 ? "FAILED" : "PASSED");
    return fail || checked != 10000;
}
