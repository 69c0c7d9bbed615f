/* a100_vectors.c - the A100 sets through the general reader. */
#include <stdio.h>
#include <string.h>
#include "a100_vectors.h"
#include "cli.h"

const a100_set a100_sets[4] = {
    {"fp16_fp32", "fp16", TC_FMT_FP16, TC_FMT_FP32, 8},
    {"fp16_fp16", "fp16", TC_FMT_FP16, TC_FMT_FP16, 8},
    {"bf16_fp32", "bf16", TC_FMT_BF16, TC_FMT_FP32, 8},
    {"tf32_fp32", "tf32", TC_FMT_TF32, TC_FMT_FP32, 4},
};

int a100_load(const char *root, const a100_set *s, a100_cases *out)
{
    gv_set g;
    memset(&g, 0, sizeof g);
    int len = snprintf(g.dir, sizeof g.dir, "%s/%s", root, s->dir);
    if (len < 0 || (size_t)len >= sizeof g.dir) {
        fprintf(stderr, "%s/%s: path too long\n", CLI_PATH(root), s->dir);
        return -1;
    }
    snprintf(g.gpu, sizeof g.gpu, "A100");
    snprintf(g.name, sizeof g.name, "%s", s->name);
    g.in = s->in;
    g.c_fmt = TC_FMT_FP32;
    g.out = s->out;
    if (gv_load(&g, out))
        return -1;
    if (out->k != s->k) {
        fprintf(stderr, "%s: k = %zu, expected %zu\n", CLI_PATH(g.dir), out->k, s->k);
        gv_free(out);
        return -1;
    }
    return 0;
}

void a100_free(a100_cases *c)
{
    gv_free(c);
}
