# cli_harness.sh - sourced by the command-line tests (cli_test.sh, cli_io_test.sh): run a
# program with its stdin, keep its stdout and stderr in out.txt and err.txt of the
# current folder, check its status and messages, count failures.
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# run_with EXPECTED_STATUS STDIN PROGRAM ARGS... (STDIN in printf %b form)
run_with() {
    local want=$1 input=$2; shift 2
    printf '%b' "$input" | "$@" >out.txt 2>err.txt
    local rc=$?
    [ "$rc" = "$want" ] || fail "$* exited $rc, expected $want (stderr: $(head -c 300 err.txt))"
}
expect_err() { grep -qF -- "$1" err.txt || fail "stderr lacks '$1': $(head -c 300 err.txt)"; }

# The last command of a test: its verdict line and exit status.
finish() {
    [ "$fails" = 0 ] && echo PASSED || echo "FAILED ($fails)"
    [ "$fails" = 0 ]
}
