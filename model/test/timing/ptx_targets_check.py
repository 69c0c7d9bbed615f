#!/usr/bin/env python3
"""ptx_targets_check.py TCSIM - hold the library's PTX target table against ptxas.

For every row `tcsim timing --list-ptx` prints (form, shape, formats, first target
sm_NN, and for the b1 forms the op), write the instruction into a PTX kernel and
assemble it with ptxas three times: with `.target sm_NN` and with the newest target
(sm_100) it must assemble, with the target before sm_NN it must fail with
ptxas's "requires .target" message (a malformed kernel fails with another one, and
fails the check). ptxas is $PTXAS, else `ptxas` on PATH, else
/usr/local/cuda/bin/ptxas; without one the check is skipped (exit 77): Debian has no
package for it, so a machine without the CUDA toolkit skips it.
"""
import os
import shutil
import subprocess
import sys
import tempfile

# Targets in order; a row's "target before" is the one ahead of it here.
TARGETS = [60, 70, 72, 75, 80, 86, 89, 90]
LATEST = 100  # Blackwell's target: the last arch of the library
PTX_TYPE = {"fp16": "f16", "bf16": "bf16", "tf32": "tf32", "e4m3": "e4m3", "e5m2": "e5m2",
            "int8": "s8", "uint8": "u8", "int4": "s4", "uint4": "u4", "b1": "b1",
            "fp32": "f32", "s32": "s32", "fp64": "f64"}
BITS = {"fp16": 16, "bf16": 16, "tf32": 32, "e4m3": 8, "e5m2": 8, "int8": 8, "uint8": 8,
        "int4": 4, "uint4": 4, "b1": 1, "fp32": 32, "s32": 32, "fp64": 64}


def regs(count, base, kind="r"):
    return "{" + ",".join("%%%s%d" % (kind, base + i) for i in range(count)) + "}"


def instruction(form, m, n, k, fin, acc, op=""):
    """The PTX text of one row, with register vectors as wide as its fragments. fin is
    a's format, or a pair "int8xuint8" (a x b); op is a b1 row's "and.popc"/"xor.popc"."""
    fa, fb = fin.split("x") if "x" in fin else (fin, fin)
    a_regs = m * k * BITS[fa] // 1024
    b_regs = k * n * BITS[fb] // 1024
    c_regs = m * n * BITS[acc] // 1024
    t_a, t_b, t_acc = PTX_TYPE[fa], PTX_TYPE[fb], PTX_TYPE[acc]
    suffix = "." + op if op else ""
    if fin == "fp64":   # DMMA: fragments of .f64 registers, m*k/32 elements of a per thread
        head = "mma.sync.aligned.m%dn%dk%d.row.col.f64.f64.f64.f64" % (m, n, k)
        return "%s %s, %s, %s, %s;" % (head, regs(m * n // 32, 0, "fd"),
                                       regs(m * k // 32, 100, "fd"), regs(k * n // 32, 200, "fd"),
                                       regs(m * n // 32, 300, "fd"))
    if form == "wmma":
        if fin == "fp16":   # Volta's fragments: every thread holds 16 halves of a and b
            a_regs = b_regs = 8
            types = "%s.%s" % (t_acc, t_acc)
        else:
            types = "%s.%s.%s.%s" % (t_acc, t_a, t_b, t_acc)
        head = "wmma.mma.sync.aligned.row.col.m%dn%dk%d.%s%s" % (m, n, k, types, suffix)
        extra = ""
    else:
        if (m, n, k) == (8, 8, 4):   # four 8x8x4 products, one per quad pair
            a_regs = b_regs = 2
            c_regs = 8 if BITS[acc] == 32 else 4
        if form == "mma.sp":
            a_regs //= 2
        head = "%s.sync.aligned.m%dn%dk%d.row.col.%s.%s.%s.%s%s" % (
            form, m, n, k, t_acc, t_a, t_b, t_acc, suffix)
        extra = ", %r400, 0x0" if form == "mma.sp" else ""
    return "%s %s, %s, %s, %s%s;" % (head, regs(c_regs, 0), regs(max(a_regs, 1), 100),
                                     regs(max(b_regs, 1), 200), regs(c_regs, 300), extra)


def assemble(ptxas, text, target):
    """(ok, message) of ptxas on a kernel holding `text`, written for .target sm_<target>."""
    kernel = (".version 8.7\n.target sm_%d\n.address_size 64\n"
              ".visible .entry k()\n{\n  .reg .b32 %%r<500>;\n  .reg .f64 %%fd<500>;\n  %s\n"
              "  ret;\n}\n" % (target, text))
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "k.ptx")
        with open(src, "w") as f:
            f.write(kernel)
        # Code for the lowest GPU ptxas knows: .target still decides which features parse.
        r = subprocess.run([ptxas, "-arch", "sm_%d" % max(target, 75), src, "-o",
                            os.path.join(d, "k.cubin")], capture_output=True, text=True)
    return r.returncode == 0, (r.stdout + r.stderr).strip()


def find_ptxas():
    for p in (os.environ.get("PTXAS"), shutil.which("ptxas"), "/usr/local/cuda/bin/ptxas"):
        if p and os.access(p, os.X_OK):
            return p
    return None


def main():
    if len(sys.argv) != 2:
        print("usage: ptx_targets_check.py TCSIM", file=sys.stderr)
        return 2
    ptxas = find_ptxas()
    if not ptxas:
        print("SKIPPED: no ptxas ($PTXAS, PATH, /usr/local/cuda/bin)")
        return 77
    listing = subprocess.run([sys.argv[1], "timing", "--list-ptx"], capture_output=True,
                             text=True, check=True).stdout.splitlines()
    rows = [line.split() for line in listing[1:]]
    failures = 0
    for row in rows:
        form, shape, fin, acc, first = row[:5]
        op = row[5] if len(row) > 5 else ""
        m, rest = shape[1:].split("n")
        n, k = rest.split("k")
        sm = int(first[len("sm_"):])
        text = instruction(form, int(m), int(n), int(k), fin, acc, op)
        # its first target, and the newest one ptxas here knows: every later target has
        # it (sm_90, sm_100 keep .xor.popc and the int4 mma, say)
        bad = [(t, msg) for t, (ok, msg) in ((t, assemble(ptxas, text, t)) for t in (sm, LATEST))
               if not ok]
        if bad:
            print("FAIL: %s %s %s %s %s: does not assemble for sm_%d:\n  %s\n  %s"
                  % (form, shape, fin, acc, op, bad[0][0], text, bad[0][1]))
            failures += 1
            continue
        before = TARGETS[TARGETS.index(sm) - 1]
        ok, msg = assemble(ptxas, text, before)
        if ok or "requires .target" not in msg:
            print("FAIL: %s %s %s %s %s: for sm_%d ptxas says %s" % (
                form, shape, fin, acc, op, before, "nothing" if ok else repr(msg)))
            failures += 1
    print("%d rows against %s: %d failed" % (len(rows), ptxas, failures))
    print("FAILED" if failures or not rows else "PASSED")
    return 1 if failures or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
