#!/bin/sh
# args_test.sh FEDP_TB TMEM_TB TC_WARP_TB BW_TB [BASELINE_TB]: every testbench answers --help with its
# usage on stdout and status 0, and refuses a bad argument with status 2 and a message
# naming it, before it runs anything. A numeric option is digits only: strtoull alone
# read "-1" as 2^64 - 1 and "abc" as 0, so a typo ran another test than the one asked
# for and still said PASSED (bw_tb and tc_warp_tb did; --help was a bad argument there).
fail=0
# check STATUS STREAM TEXT COMMAND...: the status, and TEXT in stdout (out) or stderr (err)
check() {
    want=$1 stream=$2 text=$3; shift 3
    out=$("$@" 2>/tmp/tb_args_err.$$); st=$?
    err=$(cat /tmp/tb_args_err.$$)
    if [ "$stream" = out ]; then got=$out; else got=$err; fi
    if [ "$st" != "$want" ] || ! printf '%s\n' "$got" | grep -qF -- "$text"; then
        echo "FAIL: $* -> status $st (want $want), std$stream lacks '$text': $out | $err"
        fail=1
    fi
}
for tb in "$@"; do
    name=$(basename "$tb")
    case $name in
        baseline_tb_set*) name=baseline_tb pre="" count=--count ;;
        fedp_tb) pre="--instance volta_fp16" count=--count ;;
        tmem_tb) pre="" count=--commands ;;
        *) pre="" count=--count ;;
    esac
    check 0 out "usage: $name" "$tb" --help
    check 0 out "usage: $name" "$tb" -h
    check 2 err "$name: bad value for --seed 'abc'" "$tb" $pre --seed abc
    check 2 err "$name: bad value for $count '-1'" "$tb" $pre $count -1
    check 2 err "$name: bad value for $count '12x'" "$tb" $pre $count 12x
    check 2 err "$name: bad value for --seed '0x'" "$tb" $pre --seed 0x
    check 2 err "$name: bad value for --seed '0x-1'" "$tb" $pre --seed 0x-1
    check 2 err "$name: bad value for --seed '0x 1'" "$tb" $pre --seed '0x 1'
    check 2 err "$name: bad value for --seed '18446744073709551616'" \
        "$tb" $pre --seed 18446744073709551616
    check 2 err "$name: unknown option '--bogus'" "$tb" --bogus 1
    check 2 err "usage: $name" "$tb" --bogus 1
    check 2 err "--seed" "$tb" $pre --seed
done
# Decimal unless 0x: 010 is ten (strtoull's base 0 read it as octal eight); tmem_tb prints
# the seed it runs.
for tb in "$@"; do
    if [ "$(basename "$tb")" = tmem_tb ]; then
        check 0 out "tmem_tb: seed 10, 0 random" "$tb" --seed 010 --commands 0 --only map
        check 0 out "tmem_tb: seed 16, 0 random" "$tb" --seed 0x10 --commands 0 --only map
        # the word width: 32 or 4 bits, 4 without waveforms
        check 0 out "--word-width 32|4" "$tb" --help
        check 2 err "tmem_tb: bad value for --word-width '8' (32 or 4)" "$tb" --word-width 8
        check 2 err "tmem_tb: --word-width 4 has no waveform build" "$tb" --word-width 4 --trace .
        check 0 out "0 random requests per organization, 4-bit words" \
            "$tb" --word-width 4 --commands 0 --only map
    fi
done
# tc_warp_tb's count is an unsigned int: the first value past it is refused, not wrapped.
for tb in "$@"; do
    [ "$(basename "$tb")" = tc_warp_tb ] &&
        check 2 err "tc_warp_tb: bad value for --count '4294967296' (an integer from 0 to 4294967295)" \
            "$tb" --count 4294967296
done
rm -f /tmp/tb_args_err.$$
[ $fail = 0 ] && echo PASSED || echo FAILED
exit $fail
