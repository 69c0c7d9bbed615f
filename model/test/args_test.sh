#!/bin/sh
# args_test.sh TIMING_TXT TEST_BATCH TEST_API_FUZZ TEST_TIMING_FUZZ TEST_TC_MMA TEST_BW_MMA:
# the model's test programs refuse a seed or count that is not digits (test_args.h) with
# status 2 and a message naming it, before they run: strtoul alone read "abc" as seed 0
# and "-1" as 2^64 - 1 rounds, and ran another test than the one asked for.
timing=$1; shift
fail=0
check() { # check TEXT COMMAND...: status 2, TEXT in stderr
    text=$1; shift
    err=$("$@" 2>&1 >/dev/null); st=$?
    if [ "$st" != 2 ] || ! printf '%s\n' "$err" | grep -qF -- "$text"; then
        echo "FAIL: $* -> status $st (want 2), stderr lacks '$text': $err"
        fail=1
    fi
}
batch=$1 api=$2 tfuzz=$3 tcmma=$4 bwmma=$5
check "test_batch: bad value for SEED 'abc'" "$batch" abc
check "test_batch: bad value for SEED '12x'" "$batch" 12x
check "usage: test_batch" "$batch" 1 2
check "test_api_fuzz: bad value for SEED '-1'" "$api" -1
check "test_api_fuzz: bad value for CALLS '0x'" "$api" 1 0x
check "test_timing_fuzz: bad value for SEED 'x'" "$tfuzz" "$timing" x
check "test_timing_fuzz: bad value for CASES '1e3'" "$tfuzz" "$timing" 1 1e3
check "test_tc_mma: bad value for ROUNDS '4294967296'" "$tcmma" 4294967296
check "test_bw_mma: bad value for ITERS '2147483648'" "$bwmma" 2147483648
check "test_bw_mma: bad value for ITERS '1.5'" "$bwmma" 1.5
[ $fail = 0 ] && echo PASSED || echo FAILED
exit $fail
