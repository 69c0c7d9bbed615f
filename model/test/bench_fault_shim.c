/* bench_fault_shim.c - tcsim whose model calls fail on demand, to show what `tcsim
 * bench` does when a measurement cannot be made: the inputs it generates are valid, so
 * only a bug makes a call fail, and no test could reach that path otherwise. Linked into
 * tcsim_bench_fault with -Wl,--wrap for tc_dot, tc_dot_batch, tc_mma_tile and
 * dot_stream_run: TCSIM_BENCH_FAULT=single|batch|tile|lines makes that one fail
 * (TC_EFORMAT, as a generated pattern too wide for its format would; dot_stream_run's -1
 * as for a bad line). Without it the program is tcsim. */
#include <stdlib.h>
#include <string.h>
#include "dot_stream.h"

static int faulty(const char *which)
{
    const char *f = getenv("TCSIM_BENCH_FAULT");
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
