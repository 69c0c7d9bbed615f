/* bench_clock.h - the benchmarks' clocks (tb/ and model/test/ benchmarks): process CPU
 * time, the rate of one core whatever else the machine runs, and any other clock (the
 * tensor-memory benchmark also reports wall time). The includer defines
 * _POSIX_C_SOURCE (199309L or later) before its first #include, for clock_gettime. */
#ifndef TCSIM_BENCH_CLOCK_H
#define TCSIM_BENCH_CLOCK_H

#include <time.h>

/* Seconds on clock c (CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID, ...). */
static inline double bench_seconds(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU seconds of this process. */
static inline double bench_cpu_seconds(void)
{
    return bench_seconds(CLOCK_PROCESS_CPUTIME_ID);
}

#endif
