// rebuild_check.cpp - prints rebuild_top's output for input 5 (Verilator needs C++ here).
#include <cstdio>
#include "Vrebuild_top.h"

int main()
{
    Vrebuild_top top;
    top.in_i = 5;
    top.eval();
    std::printf("%u\n", static_cast<unsigned>(top.out_o));
    top.final();
    return 0;
}
