#!/usr/bin/env python3
"""cli_tty_test.py TCSIM TCSIM_MODEL_FAULT - the progress report of `tcsim conv --progress` (cli_progress.c)
with stderr on a terminal (a pseudo-terminal from the pty module) and on a pipe.

docs/tcsim.md "Long runs", docs/blackwell_mma.md "tcsim conv": a line per tenth done, or
on a terminal one line rewritten each hundredth ("tcsim conv:  40% of 900 MMAs, 39 s"); the
total is one MMA per tile (128 output pixels), r, channel chunk (one instruction's K
channels: 16 for fp16), output-channel chunk (256) and s; stdout is the same with or
without it. The layer here: N = 1, H = W = 24, C = 64, K = 16, 3 x 3, pad 1: 24 x 24
output pixels = 576, 5 tiles; 64 / 16 = 4 channel chunks; 1 output-channel chunk:
5 * 3 * 4 * 1 * 3 = 180 MMAs, so a hundredth is less than two MMAs and the terminal's
report has a line for every hundredth, each tenth on a pipe.

A run that fails part way (tcsim_model_fault, whose 91st MMA runs out of memory) ends the
terminal's line before its message, so that the message starts a line of its own.
"""
import os
import pty
import re
import subprocess
import sys
import threading
import tty

tcsim, tcsim_fault = sys.argv[1], sys.argv[2]
TOTAL = 180
LAYER = ["conv", "--n", "1", "--h", "24", "--w", "24", "--c", "64", "--k", "16", "--r", "3",
         "--s", "3", "--pad", "1", "--algo", "3"]


def line_re(cmd, what):  # "%3u%%" as in the docs
    return re.compile(r"tcsim %s: ([ \d]{2}\d)%% of (\d+) %s, \d+ s" % (cmd, what))


LINE = line_re("conv", "MMAs")
fails = 0


def fail(msg):
    global fails
    fails += 1
    print("FAIL: " + msg)


def on_pty(args, prog=None, env=None):
    """Runs PROG (tcsim) ARGS, with ENV added to the environment, with stderr on a raw pseudo-terminal (no '\\n' -> '\\r\\n'), stdout on
    a pipe. Returns (status, stdout, the bytes the terminal received)."""
    master, slave = pty.openpty()
    tty.setraw(slave)
    got = []

    def read():  # while it runs: a full terminal buffer would block tcsim
        while True:
            try:
                d = os.read(master, 65536)
            except OSError:  # EIO: every writer has closed the terminal
                break
            if not d:
                break
            got.append(d)
    t = threading.Thread(target=read)
    t.start()
    p = subprocess.Popen([prog or tcsim, *args], stdout=subprocess.PIPE, stderr=slave,
                         env=dict(os.environ, **(env or {})))
    os.close(slave)
    try:
        out, _ = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate()
    t.join(10)
    os.close(master)
    return p.returncode, out, b"".join(got)


def on_pipe(args):
    p = subprocess.run([tcsim, *args], capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def pcts(lines, what, line=LINE, total=TOTAL):
    """The percentages of progress lines; each must be the documented line of TOTAL."""
    got = []
    for x in lines:
        m = line.fullmatch(x)
        if not m or int(m.group(2)) != total:
            fail(f"{what}: {x!r} is not the progress line of {total} ({line.pattern})")
            return []
        got.append(int(m.group(1).strip()))
    return got


# 1. on a pipe, no --progress: nothing on stderr (a short run); the reference stdout
rc, ref, err = on_pipe(LAYER)
if rc != 0 or err:
    fail(f"conv without --progress: status {rc}, stderr {err[:200]!r}")
if b"mmas: %d\n" % TOTAL not in ref:
    fail(f"conv: stdout lacks 'mmas: {TOTAL}' (the total worked out by hand): {ref[:300]!r}")

# 2. on a pipe, --progress: a line per tenth, 10% .. 100%
rc, out, err = on_pipe(LAYER + ["--progress"])
if rc != 0 or out != ref:
    fail(f"conv --progress on a pipe: status {rc}, stdout differs: {out != ref}")
text = err.decode(errors="replace")
if "\r" in text or not text.endswith("\n"):
    fail(f"conv --progress on a pipe: not whole lines: {text[:300]!r}")
got = pcts(text.splitlines(), "pipe")
if got != list(range(10, 101, 10)):
    fail(f"conv --progress on a pipe: percentages {got}, expected 10, 20, .. 100")

# 3. on a terminal, --progress: one line rewritten ('\r' before each) each hundredth, the
#    last 100% and then the one newline of the whole report
rc, out, term = on_pty(LAYER + ["--progress"])
if rc != 0 or out != ref:
    fail(f"conv --progress on a terminal: status {rc}, stdout differs from a pipe's: "
         f"{out[:200]!r}")
text = term.decode(errors="replace")
if not text.startswith("\r"):
    fail(f"terminal: the report does not start with '\\r': {text[:80]!r}")
if not text.endswith("\n") or text.count("\n") != 1:
    fail(f"terminal: {text.count(chr(10))} newlines, expected one at the end: {text[-80:]!r}")
got = pcts(text.rstrip("\n").split("\r")[1:], "terminal")
if got:
    if got[-1] != 100:
        fail(f"terminal: the last update is {got[-1]}%, not 100%")
    # each hundredth once, in order: no update repeats one (a line per MMA is not a
    # report each hundredth) and none is left out (less than two MMAs a hundredth)
    if got != list(range(got[0], 101)) or got[0] > 1:
        fail(f"terminal: percentages {got[:12]}.. ({len(got)} updates), expected each "
             f"hundredth once, from 0 or 1 to 100")

# 4. on a terminal without --progress: a short run prints nothing
rc, out, term = on_pty(LAYER)
if rc != 0 or out != ref or term:
    fail(f"conv on a terminal without --progress: status {rc}, terminal got {term[:100]!r}")

# 5. tcsim timing on a terminal: the same report, of warps x ILP x iterations mma
#    (docs/timing.md): 2 x 2 x 500 = 2000; the benchmark reports each hundredth it passes
#    (completions come in batches: one may be passed over), the last 100%
args = ["timing", "--arch", "a100", "--op", "mma.m16n8k16", "--in", "fp16", "--acc", "fp32",
        "--warps", "2", "--ilp", "2", "--iters", "500"]
rc, ref, err = on_pipe(args)
rc2, out, term = on_pty(args + ["--progress"])
text = term.decode(errors="replace")
if rc or rc2 or err or out != ref:
    fail(f"timing: status {rc} / {rc2} (pty), stderr {err[:100]!r}, stdout differs: {out != ref}")
if not text.startswith("\r") or not text.endswith("\n") or text.count("\n") != 1:
    fail(f"timing on a terminal: not '\\r' updates and one final newline: {text[-80:]!r}")
got = pcts(text.rstrip("\n").split("\r")[1:], "timing", line_re("timing", "mma simulated"), 2000)
if not got or got[-1] != 100 or any(a >= b for a, b in zip(got, got[1:])):
    fail(f"timing on a terminal: percentages {got[:12]}.., expected increasing to 100")

# 6. a conv failing at its 91st MMA on a terminal: the updates up to 90 of 180 done (50%),
#    then the newline that ends the line, then the error on a line of its own; status 1
rc, out, term = on_pty(LAYER + ["--progress"], tcsim_fault, {"TCSIM_MODEL_FAULT": "bw_mma:91"})
text = term.decode(errors="replace")
report, _, rest = text.partition("\n")
if rc != 1 or out or rest != "tcsim conv: out of memory\n":
    fail(f"conv failing on a terminal: status {rc}, stdout {out[:100]!r}, after the report "
         f"{rest!r}, expected 'tcsim conv: out of memory' on a line of its own")
got = pcts(report.split("\r")[1:], "failing conv")
if not report.startswith("\r") or not got or got[-1] != 50:
    fail(f"conv failing on a terminal: the report {report[-80:]!r} does not end at 50%")

print("PASSED" if fails == 0 else f"FAILED ({fails})")
sys.exit(1 if fails else 0)
