#!/usr/bin/env bash
# cli_fuzz_fake.sh - a stand-in for tcsim that breaks one of cli_fuzz.py's rules, chosen
# by $CLI_FUZZ_FAKE, so that a test can show cli_fuzz.py fails on each (a fuzz that
# cannot fail checks nothing). `list` answers with one profile row, as tcsim prints it.
if [ "${1:-}" = list ]; then
    echo "ampere     mma      fp16   fp32  fedp        8  24 rz         -132   23 -           fake"
    exit 0
fi
case "${CLI_FUZZ_FAKE:-}" in
    signal)    kill -SEGV $$ ;;
    status)    echo "tcsim: fake" >&2; exit 3 ;;
    silent)    exit 2 ;;
    hang)      exec sleep 30 ;;
    sanitizer) echo "==1==ERROR: AddressSanitizer: heap-buffer-overflow" >&2 ;;
    random)    echo "$RANDOM$RANDOM" ;;
    long)      printf 'tcsim: bad word %0600d\n' 0 >&2; exit 2 ;;
    control)   printf 'tcsim: bad word \033[2J\n' >&2; exit 2 ;;
esac
exit 0
