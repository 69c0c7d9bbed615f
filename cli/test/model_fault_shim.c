/* model_fault_shim.c - tcsim whose model calls fail on demand, to show what a command
 * does when a call it makes on valid inputs fails (only a bug gets there, so no test
 * could reach those paths otherwise): `tcsim bench`'s measurements, `tcsim demo`'s
 * examples, `tcsim conv`'s progress report cut short. Linked into tcsim_model_fault with
 * -Wl,--wrap for tc_dot, tc_dot_batch, tc_mma_tile, dot_stream_run and tc_bw_mma:
 * TCSIM_MODEL_FAULT=single|batch|tile|lines makes that one fail (single: tc_dot) with
 * TC_EFORMAT, as a pattern too wide for its format would (dot_stream_run: -1, as for a
 * bad line); TCSIM_MODEL_FAULT=bw_mma:N makes the Nth tc_bw_mma of the run TC_ENOMEM.
 * Without it the program is tcsim. */
#include <stdlib.h>
#include <string.h>
#include "dot_stream.h"
#include "tcsim.h"

static int faulty(const char *which)
{
    const char *f = getenv("TCSIM_MODEL_FAULT");
    return f && !strcmp(f, which);
}

tc_status __real_tc_dot(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                        uint32_t c, uint32_t *d);
tc_status __wrap_tc_dot(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                        uint32_t c, uint32_t *d);
tc_status __wrap_tc_dot(const tc_profile *p, size_t k, const uint32_t *a, const uint32_t *b,
                        uint32_t c, uint32_t *d)
{
    return faulty("single") ? TC_EFORMAT : __real_tc_dot(p, k, a, b, c, d);
}

tc_status __real_tc_dot_batch(const tc_profile *p, size_t n, size_t k, const uint32_t *a,
                              const uint32_t *b, const uint32_t *c, uint32_t *d,
                              size_t *n_done);
tc_status __wrap_tc_dot_batch(const tc_profile *p, size_t n, size_t k, const uint32_t *a,
                              const uint32_t *b, const uint32_t *c, uint32_t *d,
                              size_t *n_done);
tc_status __wrap_tc_dot_batch(const tc_profile *p, size_t n, size_t k, const uint32_t *a,
                              const uint32_t *b, const uint32_t *c, uint32_t *d,
                              size_t *n_done)
{
    return faulty("batch") ? TC_EFORMAT : __real_tc_dot_batch(p, n, k, a, b, c, d, n_done);
}

tc_status __real_tc_mma_tile(const tc_profile *p, size_t M, size_t N, size_t K,
                             const uint32_t *A, const uint32_t *B, const uint32_t *C,
                             uint32_t *D);
tc_status __wrap_tc_mma_tile(const tc_profile *p, size_t M, size_t N, size_t K,
                             const uint32_t *A, const uint32_t *B, const uint32_t *C,
                             uint32_t *D);
tc_status __wrap_tc_mma_tile(const tc_profile *p, size_t M, size_t N, size_t K,
                             const uint32_t *A, const uint32_t *B, const uint32_t *C,
                             uint32_t *D)
{
    return faulty("tile") ? TC_EFORMAT : __real_tc_mma_tile(p, M, N, K, A, B, C, D);
}

int __real_dot_stream_run(dot_stream *ds, FILE *in, FILE *out);
int __wrap_dot_stream_run(dot_stream *ds, FILE *in, FILE *out);
int __wrap_dot_stream_run(dot_stream *ds, FILE *in, FILE *out)
{
    return faulty("lines") ? -1 : __real_dot_stream_run(ds, in, out);
}

tc_status __real_tc_bw_mma(tc_tmem *t, const tc_bw_mma_desc *d, tc_bw_cost *cost);
tc_status __wrap_tc_bw_mma(tc_tmem *t, const tc_bw_mma_desc *d, tc_bw_cost *cost);
tc_status __wrap_tc_bw_mma(tc_tmem *t, const tc_bw_mma_desc *d, tc_bw_cost *cost)
{
    static unsigned long calls;
    const char *f = getenv("TCSIM_MODEL_FAULT");
    if (f && !strncmp(f, "bw_mma:", 7) && ++calls == strtoul(f + 7, NULL, 10))
        return TC_ENOMEM;
    return __real_tc_bw_mma(t, d, cost);
}
