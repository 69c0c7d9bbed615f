#!/bin/sh
# waves_unwritable_test.sh FEDP_TB TMEM_TB: a waveform the testbench cannot write is an
# error that names it, never a PASSED run without it (both used to print PASSED, and
# tmem_tb "waves ... tmem8.fst", having written nothing); fedp_tb --fst on an instance
# Verilated without trace is an error too (it warned and ran).
fedp_tb=$1 tmem_tb=$2
fail=0
check() { # check STATUS MESSAGE COMMAND...
    want=$1 msg=$2; shift 2
    err=$("$@" 2>&1 >/dev/null); st=$?
    if [ "$st" != "$want" ] || ! printf '%s\n' "$err" | grep -qF -- "$msg"; then
        echo "FAIL: $* -> status $st (want $want), stderr lacks '$msg': $err"
        fail=1
    fi
}
check 1 "cannot write '/nonexistent/fedp.fst'" \
    "$fedp_tb" --instance ampere_half --count 10 --random-only --fst /nonexistent/fedp.fst
check 2 "volta_fp16 was Verilated without trace" \
    "$fedp_tb" --instance volta_fp16 --count 10 --random-only --fst /tmp/never.fst
check 1 "tmem_tb: --trace: cannot write '/nonexistent/tmem8.fst'" \
    "$tmem_tb" --trace /nonexistent
[ $fail = 0 ] && echo PASSED || echo FAILED
exit $fail
