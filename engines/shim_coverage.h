// shim_coverage.h - the shims' one call into Verilator's coverage: write the counters of
// a model's context when it is freed, in a build Verilated with --coverage
// (-DTCSIM_COVERAGE=ON; sim/coverage.py merges the files). Elsewhere it is empty.
//
// Where: $TCSIM_COVERAGE_DIR/<block>-<pid>-<n>.dat, one file per context, so that
// parallel runs of sim/regress and several models in one process never share a file;
// no file when the variable is unset (a coverage build run by hand writes nothing).
#ifndef SHIM_COVERAGE_H
#define SHIM_COVERAGE_H

#include "verilated.h"

#if VM_COVERAGE
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include "verilated_cov.h"

inline void shim_coverage_write(VerilatedContext *ctx, const char *block)
{
    static std::atomic<unsigned> serial{0};
    const char *dir = std::getenv("TCSIM_COVERAGE_DIR");
    if (!dir || !*dir)
        return;
    char path[4096];
    std::snprintf(path, sizeof path, "%s/%s-%ld-%u.dat", dir, block, long(getpid()),
                  serial++);
    ctx->coveragep()->write(path);
}
#else
inline void shim_coverage_write(VerilatedContext *, const char *) {}
#endif

#endif
