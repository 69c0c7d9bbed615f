// coverage_smoke_tb.cpp - a thin driver of tmem_bank Verilated with --coverage, for
// test_coverage_rtl.sh: a few hundred writes and reads, then the counters to argv[1].
// Real Verilator counters of a real block, small enough to build in a test.
#include "Vtmem_bank.h"
#include "verilated.h"
#include "verilated_cov.h"

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    VerilatedContext ctx;
    Vtmem_bank m(&ctx);
    for (unsigned i = 0; i < 300; i++) {
        m.clk_i = 0;
        m.addr_i = i % 7;
        m.we_i = i & 1;
        m.wmask_i = 0xffu >> (i % 3);
        m.wdata_i = 0x9e3779b97f4a7c15ull * i;
        m.eval();
        m.clk_i = 1;
        m.eval();
    }
    ctx.coveragep()->write(argv[1]);
    return 0;
}
