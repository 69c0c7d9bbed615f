#!/usr/bin/env python3
"""cli_fuzz.py - random command lines and inputs for tcsim and gemm_sim, held to the
rules every command states in its --help and cli/cli.h:

  - it ends on its own (no hang: each run has a time limit) and never by a signal;
  - exit status 0, or 2 for bad input or usage (1 only where a command documents it:
    vectors/demo "some result differs", emit-pkg --check "differs");
  - a failing run says why on stderr, in a first line that starts with the program's
    name, "line N:" (`tcsim dot`'s input) or a file or folder the command line named;
  - nothing from a sanitizer on stderr (the CI runs this under ASan+UBSan too);
  - what a message echoes is quoted (cli/cli_quote.c): no stderr line longer than
    MAX_LINE bytes (a bad word of 3000 bytes is cut), no raw control character;
  - the same command line and input give the same stdout and status (a sample rerun).

Each run starts from a valid command line with random values (the combinations of
`tcsim list`, files and input lines of the right shape) and applies none to three
mutations: a value replaced by another option value or a wrong one (empty, signs,
overflow, not a number, a long word), an option dropped, repeated or left without its
value, an unknown option or stray word, a damaged input line. Reproducible from --seed;
a failure prints the command line and input to run it again.

usage: cli_fuzz.py --tcsim BIN [--gemm-sim BIN] [--vectors DIR] [--seed N] [--runs N]
                   [--limit SECONDS] [--work DIR]
"""
import argparse
import os
import random
import shlex
import shutil
import struct
import subprocess
import sys
import time

# The longest message line: a file name quoted (200 characters and its length), a word
# (40 and its length) and the message's own text fit with room to spare.
MAX_LINE = 500
SANITIZER_MARKS = ("AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer",
                   "runtime error:")

# Values that are wrong for almost any option: empty, signs, overflow, not numbers,
# an option name, whitespace, a long word, a letter that is not ASCII.
BAD = ["", "-1", "-0", "0", "+1", "x", "0x", "0x-1", "1.5", "1e3", "nan", " 1", "1 ",
       "18446744073709551615", "18446744073709551616", "99999999999999999999999",
       "4294967296", "2147483648", "--arch", "-", "--", "A" * 3000, "\u00e9", "fp16 "]

ARCHS = ["volta", "turing", "ampere", "ada", "hopper", "blackwell"]
GPUS = ["v100", "a100", "rtx3070ti", "rtx2080ti", "h100"]
FMTS = ["fp16", "bf16", "tf32", "fp32", "e4m3", "e5m2", "e3m2", "e2m3", "e2m1", "int8",
        "uint8", "int4", "uint4", "s32", "ue8m0", "ue4m3", "b1", "fp64"]
SMALL = ["1", "2", "3", "4", "8", "16", "0", "7"]


def ints(*extra):
    return SMALL + [str(x) for x in extra]


# Commands fuzzed on their own (--only), outside the shared seeded sequence: a command
# added to it changes every other command's runs (seed 1 then finds what it did not).
ONLY_ALONE = ("gemm",)


def grammar(vectors):
    """Per program and command: [(option or None for a positional, values)]; values is
    a list of strings or a callable(work_dir, rng) giving one."""
    dirs = [vectors, "no_such_dir", "."] if vectors else ["no_such_dir", "."]
    return {
        "dot": [("--arch", ARCHS), ("--in", FMTS), ("--out", FMTS),
                ("--in-a", FMTS), ("--in-b", FMTS),
                ("--instr", ["mma", "wgmma", "tcgen05"]),
                ("--kind", ["mxf8f6f4", "mxf4", "mxf4nvf4", "f16"]),
                ("--scale", ["ue8m0", "ue4m3", "fp16"]), ("--block", ints(32, 64)),
                ("--engine", ["model", "rtl"])],
        "list": [],
        "demo": [("--vectors", dirs)],
        "vectors": [(None, dirs), ("--arch", ARCHS), ("--instr", ["mma", "wgmma", "tcgen05"]),
                    ("--gpu", ["A100", "V100", "B200", "a100"]), ("--show", ints(1000)),
                    ("--engine", ["model"])],
        "hmma-trace": [("--arch", ARCHS), ("--acc", ["f32", "f16", "fp32"]),
                       ("--shape", ["m16n16k16", "m8n8k4", "m16n8k16"]),
                       ("--engine", ["model"])],
        "mma": [("--arch", ARCHS), ("--shape", ["m16n16k16", "m8n8k4"]),
                ("--acc", ["f32", "f16"]), ("--a", matrix_file), ("--b", matrix_file),
                ("--c", matrix_file), ("--layout", ["row", "col", "row,col", "col,row", "r"]),
                ("--a-layout", ["row", "col"]), ("--b-layout", ["row", "col"]),
                ("--engine", ["model"])],
        "tmem-map": [("--lane", ints(127, 128, 31, 32)), ("--col", ints(511, 512)),
                     ("--banks", ["8", "4", "2", "16"])],
        "tmem-demo": [("--engine", ["model"]), ("--banks", ["8", "4", "2"])],
        "emit-pkg": [("-o", ["out.sv", "-", "no_dir/out.sv"]),
                     ("--check", ["out.sv", "no_such.sv", "."])],
        "timing": [("--arch", ARCHS + GPUS), ("--op", ["mma.m16n8k16", "mma.m16n8k8",
                    "mma.m8n8k4", "mma.m8n8k16", "mma.sp.m16n8k32", "mma.m16n8k32",
                    "wmma.m16n16k16", "wmma.m32n8k16", "wmma.m8n8k32", "mma.m0n8k8",
                    "mma.m16n8k", "wmma"]),
                   ("--in", FMTS), ("--acc", ["fp32", "fp16", "s32", "bf16"]),
                   ("--warps", ints(32, 64, 65, 1000)), ("--ilp", ints(5, 64, 1000)),
                   ("--iters", ints(200, 1000)), ("--list", None), ("--progress", None)],
        "conv": [("--n", ints()), ("--h", ints(9)), ("--w", ints(9)), ("--c", ints(32, 33)),
                 ("--k", ints(32, 33)), ("--r", ints()), ("--s", ints()),
                 ("--stride", ints()), ("--pad", ints()), ("--dilation", ints()),
                 ("--algo", ["1", "2", "3", "4"]),
                 ("--kind", ["f16", "tf32", "f8f6f4", "i8", "mxf4"]),
                 ("--in", FMTS), ("--out", FMTS), ("--banks", ["8", "4", "3"]),
                 ("--seed", ints(12345)), ("--act", hex_file), ("--wgt", hex_file),
                 ("--engine", ["model"]), ("--progress", None)],
        "gemm": [("--arch", ARCHS), ("--in", FMTS), ("--out", FMTS),
                 ("--instr", ["mma", "wgmma", "tcgen05"]),
                 ("--kind", ["mxf8f6f4", "mxf4", "mxf4nvf4", "f16"]),
                 ("--scale", ["ue8m0", "ue4m3", "fp16"]), ("--block", ints(32, 64)),
                 ("--a", npy_file), ("--b", npy_file), ("--c", npy_file),
                 ("--scale-a", npy_file), ("--scale-b", npy_file),
                 ("-o", ["d.npy", "no_dir/d.npy", ".", "/dev/null"]),
                 ("--threads", ints(4096, 4097))],
        "gemm_sim": [("--gpu", GPUS), ("--m", ints(32, 64, 17)), ("--n", ints(32, 64, 17)),
                     ("--k", ints(32, 64, 17)), ("--sms", ints()), ("--warps", ints(32, 33)),
                     ("--wm", ints(32, 16, 24)), ("--wn", ints(32, 16, 24)),
                     ("--policy", ["lrr", "gto", "rr"]), ("--check", None),
                     ("--quiet", None), ("--json", ["fig.json", "no_dir/fig.json"])],
    }


def hex_words(rng, count):
    return " ".join(rng.choice(["3c00", "0", "7c00", "fc00", "7e00", "3f800000", "1",
                                "ffff", "x", "123456789", "0x3c00"])
                    for _ in range(count))


def write_lines(work, name, lines):
    """A text file of the lines in the work folder; its path."""
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.write("".join(line + "\n" for line in lines))
    return path


def matrix_file(work, rng):
    name = "m%d.txt" % rng.randrange(1000)
    rows, cols = rng.choice([(16, 16), (8, 4), (4, 8), (32, 4), (8, 8), (1, 1), (0, 0),
                             (16, 15)])
    head = ["# a comment", ""] if rng.random() < 0.2 else []
    return write_lines(work, name, head + [hex_words(rng, cols) for _ in range(rows)])


def hex_file(work, rng):
    name = "h%d.txt" % rng.randrange(1000)
    return write_lines(work, name, [hex_words(rng, rng.choice([0, 1, 16, 144, 2304, 3000]))])


def npy_bytes(rng, rows, cols, descr, data):
    """A .npy file of NumPy's layout (version 1.0, 2.0 or 3.0, C or Fortran order) of the
    words data (row-major)."""
    size = {"|u1": 1, "<u2": 2, "<u4": 4, "<f2": 2, "<f4": 4}.get(descr, 2)
    fortran = rng.random() < 0.3
    if fortran:
        data = [data[i * cols + j] for j in range(cols) for i in range(rows)]
    head = ("{'descr': '%s', 'fortran_order': %s, 'shape': (%d, %d), }" %
            (descr, fortran, rows, cols)).encode()
    major = rng.choice([1, 2, 3])
    pre = 10 if major == 1 else 12
    head += b" " * (-(pre + len(head) + 1) % 64) + b"\n"
    ln = struct.pack("<H" if major == 1 else "<I", len(head))
    body = b"".join((w & ((1 << 8 * size) - 1)).to_bytes(size, "little") for w in data)
    return b"\x93NUMPY" + bytes([major, 0]) + ln + head + body


def npy_file(work, rng):
    """A small .npy matrix, sometimes with a wrong dtype, a byte changed or cut short."""
    name = os.path.join(work, "n%d.npy" % rng.randrange(1000))
    rows, cols = rng.choice([(1, 1), (2, 3), (3, 2), (4, 32), (32, 4), (2, 64), (0, 2)])
    descr = rng.choice(["|u1", "<u2", "<u4", "<f2", "<f4", ">u2", "<i4"])
    raw = bytearray(npy_bytes(rng, rows, cols, descr,
                              [rng.getrandbits(16) for _ in range(rows * cols)]))
    if rng.random() < 0.3:
        j = rng.randrange(len(raw))
        raw[j:j + rng.randrange(1, 4)] = rng.choice([b"", b"\xff", b"(", b"9999999999"])
    with open(name, "wb") as f:
        f.write(bytes(raw))
    return name


def rand_word(rng, bits):
    """A bit pattern of a bits-wide format, biased to the special encodings."""
    if rng.random() < 0.3:
        return "%x" % rng.choice([0, (1 << bits) - 1, 1 << (bits - 1), (1 << (bits - 1)) - 1])
    return "%x" % rng.getrandbits(bits)


FMT_BITS = {"fp32": 32, "tf32": 32, "fp16": 16, "bf16": 16, "e4m3": 8, "e5m2": 8,
            "e3m2": 6, "e2m3": 6, "e2m1": 4, "ue8m0": 8, "ue4m3": 8, "int8": 8,
            "uint8": 8, "int4": 4, "uint4": 4, "s32": 32, "b1": 1, "fp64": 64}


def profiles(tcsim):
    """The rows of `tcsim list`: (arch, instr, in, out, kind, L, scale)."""
    out = subprocess.run([tcsim, "list"], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        f = line.split()
        if len(f) > 10 and f[0] in ARCHS and f[5].isdigit():
            rows.append((f[0], f[1], f[2], f[3], f[4], int(f[5]), f[10]))
    if not rows:
        sys.exit("cli_fuzz: `tcsim list` printed no profile rows")
    return rows


def valid_dot(ctx, rng):
    arch, instr, fin, fout, kind, L, scale = rng.choice(ctx["profiles"])
    # a mixed pair shows as AxB (e4m3xe5m2): a in --in-a, b in --in-b
    fa, _, fb = fin.partition("x")
    fb = fb or fa
    if fa == fb:
        args = ["--arch", arch, "--in", fin, "--out", fout, "--instr", instr]
    else:
        args = ["--arch", arch, "--in-a", fa, "--in-b", fb, "--out", fout, "--instr", instr]
    if kind.endswith(".popc"):   # b1: the op is part of the form (issue 33)
        args += ["--popc", kind.split(".")[0]]
    block, sfmt = 0, None
    if scale != "-":
        sfmt, block = scale.split("/")[0], int(scale.split("/")[1])
        args += ["--kind", kind, "--scale", sfmt, "--block", str(block)]
    lines = []
    for _ in range(rng.randrange(1, 6)):
        k = block * rng.randrange(1, 4) if block else rng.choice([1, 2, L - 1, L, L + 1, 2 * L])
        k = max(k, 1)
        words = [rand_word(rng, FMT_BITS[f]) for f in (fa, fb) for _ in range(k)]
        if block:
            words += [rand_word(rng, 8) for _ in range(2 * (k // block))]
        words.append(rand_word(rng, FMT_BITS[fout]))
        lines.append(" ".join(words))
    return args, ("\n".join(lines) + "\n").encode()


def matrix(work, rng, name, rows, cols, bits):
    return write_lines(work, name, [" ".join(rand_word(rng, bits) for _ in range(cols))
                                    for _ in range(rows)])


def valid_mma(ctx, rng):
    shape, acc = rng.choice(["m16n16k16", "m8n8k4"]), rng.choice(["f32", "f16"])
    m, n, k = (16, 16, 16) if shape == "m16n16k16" else (8, 8, 4)
    tiles = rng.choice([1, 4]) if shape == "m8n8k4" else 1
    work = ctx["work"]
    return ["--arch", "volta", "--shape", shape, "--acc", acc,
            "--a", matrix(work, rng, "a.txt", m * tiles, k, 16),
            "--b", matrix(work, rng, "b.txt", k * tiles, n, 16),
            "--c", matrix(work, rng, "c.txt", m * tiles, n, 32 if acc == "f32" else 16),
            "--layout", rng.choice(["row", "col", "row,col", "col,row"])], b""


def valid_gemm(ctx, rng):
    # tcsim gemm takes one input format: the mixed pairs (AxB) are not its, nor the b1
    # ops (no --popc there yet)
    arch, instr, fin, fout, kind, L, scale = rng.choice(
        [r for r in ctx["profiles"] if "x" not in r[2] and not r[4].endswith(".popc")
         and r[2] != "fp64"])
    args = ["--arch", arch, "--in", fin, "--out", fout, "--instr", instr,
            "--threads", str(rng.randrange(0, 5)), "-o", "d.npy"]
    m, n = rng.randrange(1, 5), rng.randrange(1, 5)
    block = int(scale.split("/")[1]) if scale != "-" else 0
    k = block * rng.randrange(1, 3) if block else rng.choice([1, L - 1 or 1, L + 1, 2 * L])
    work, mats = ctx["work"], [("--a", m, k, fin), ("--b", k, n, fin), ("--c", m, n, fout)]
    if block:
        args += ["--kind", kind, "--scale", scale.split("/")[0], "--block", str(block)]
        mats += [("--scale-a", m, k // block, "ue8m0"), ("--scale-b", k // block, n, "ue8m0")]
    for opt, rows, cols, fmt in mats:
        bits = FMT_BITS[fmt]
        path = os.path.join(work, opt.strip("-") + ".npy")
        with open(path, "wb") as f:
            f.write(npy_bytes(rng, rows, cols, "|u1" if bits <= 8 else "<u2" if bits <= 16
                              else "<u4", [int(rand_word(rng, bits), 16)
                                           for _ in range(rows * cols)]))
        args += [opt, path]
    return args, b""


TIMING_OPS = [("mma.m16n8k16", "fp16", "fp32"), ("mma.m16n8k16", "fp16", "fp16"),
              ("mma.m16n8k8", "fp16", "fp32"), ("mma.m16n8k8", "bf16", "fp32"),
              ("mma.m16n8k8", "tf32", "fp32"), ("mma.m16n8k4", "tf32", "fp32"),
              ("mma.m8n8k16", "int8", "s32"), ("mma.m16n8k32", "int8", "s32"),
              ("mma.m16n8k64", "int4", "s32"), ("mma.sp.m16n8k32", "fp16", "fp32"),
              ("mma.m8n8k4", "fp16", "fp32"), ("wmma.m16n16k16", "fp16", "fp32"),
              ("wmma.m32n8k16", "int8", "s32")]


def valid_timing(ctx, rng):
    if rng.random() < 0.05:
        return ["--list"], b""
    op, fin, acc = rng.choice(TIMING_OPS)
    args = ["--arch", rng.choice(GPUS[:4] + ["volta", "ampere", "turing"]), "--op", op,
            "--in", fin, "--acc", acc]
    if not op.startswith("wmma."):  # the benchmark's options; a wmma refuses them
        args += ["--warps", str(rng.randrange(1, 17)), "--ilp", str(rng.randrange(1, 5)),
                 "--iters", str(rng.randrange(1, 100))]
    return args, b""


def valid_conv(ctx, rng):
    fin = rng.choice(["fp16", "bf16", "tf32", "e4m3", "e2m1", "int8"])
    return ["--n", str(rng.randrange(1, 3)), "--h", str(rng.randrange(1, 8)),
            "--w", str(rng.randrange(1, 8)), "--c", str(rng.choice([1, 3, 8, 16, 32])),
            "--k", str(rng.choice([1, 5, 8, 16, 32])), "--r", str(rng.randrange(1, 4)),
            "--s", str(rng.randrange(1, 4)), "--stride", str(rng.randrange(1, 3)),
            "--pad", str(rng.randrange(0, 2)), "--dilation", str(rng.randrange(1, 3)),
            "--algo", str(rng.randrange(1, 4)), "--in", fin,
            "--banks", rng.choice(["8", "4"]), "--seed", str(rng.randrange(1, 1000))], b""


def valid_gemm_sim(ctx, rng):
    wm, wn = rng.choice([16, 32, 64]), rng.choice([8, 16, 32])
    args = ["--gpu", rng.choice(GPUS[:4]), "--m", str(wm * rng.randrange(1, 4)),
            "--n", str(wn * rng.randrange(1, 4)), "--k", str(16 * rng.randrange(1, 5)),
            "--sms", str(rng.randrange(1, 3)), "--warps", str(rng.randrange(1, 9)),
            "--wm", str(wm), "--wn", str(wn), "--policy", rng.choice(["lrr", "gto"])]
    return args + [x for x in ("--check", "--quiet") if rng.random() < 0.5], b""


def valid_vectors(ctx, rng):
    arch = rng.choice(ARCHS)
    instr = {"hopper": ["mma", "wgmma"], "blackwell": ["mma", "tcgen05"]}.get(arch, ["mma"])
    args = [ctx["vectors"]] if ctx["vectors"] else []
    return args + ["--arch", arch, "--instr", rng.choice(instr),
                   "--show", str(rng.randrange(0, 4))], b""


VALID = {
    "dot": valid_dot,
    "list": lambda ctx, rng: ([], b""),
    "demo": lambda ctx, rng: (["--vectors", ctx["vectors"]] if ctx["vectors"] else [], b""),
    "vectors": valid_vectors,
    "hmma-trace": lambda ctx, rng: (["--arch", "volta", "--acc", rng.choice(["f32", "f16"]),
                                     "--shape", rng.choice(["m16n16k16", "m8n8k4"])], b""),
    "mma": valid_mma,
    "tmem-map": lambda ctx, rng: (["--lane", str(rng.randrange(128)), "--col",
                                   str(rng.randrange(512)), "--banks",
                                   rng.choice(["8", "4"])], b""),
    "tmem-demo": lambda ctx, rng: (["--banks", rng.choice(["8", "4"])], b""),
    "emit-pkg": lambda ctx, rng: (rng.choice([["-o", "out.sv"], ["--check", "out.sv"],
                                              ["-o", "-"], []]), b""),
    "timing": valid_timing,
    "conv": valid_conv,
    "gemm_sim": valid_gemm_sim,
    "gemm": valid_gemm,
}


def other_value(opts, opt, work, rng):
    """Another value for opt: one of its grammar's values (right or wrong there) or a
    value wrong almost anywhere."""
    values = dict(opts).get(opt)
    if values is None or rng.random() < 0.5:
        return rng.choice(BAD)
    return values(work, rng) if callable(values) else rng.choice(values)


def mutate(args, stdin, opts, work, rng):
    """One change to a command line (a list of words) or its input."""
    what = rng.random()
    flags = [i for i, w in enumerate(args) if w.startswith("-") and len(w) > 1]
    if what < 0.4 and flags:
        i = rng.choice(flags)
        if i + 1 < len(args) and not args[i + 1].startswith("--"):
            args[i + 1] = other_value(opts, args[i], work, rng)
        else:
            args.insert(i + 1, rng.choice(BAD))
    elif what < 0.55 and flags:
        i = rng.choice(flags)
        has_value = i + 1 < len(args) and not args[i + 1].startswith("--")
        del args[i:i + (2 if has_value and rng.random() < 0.8 else 1)]
    elif what < 0.65 and flags:
        i = rng.choice(flags)
        args += [args[i], other_value(opts, args[i], work, rng)]
    elif what < 0.8 and stdin:
        text = bytearray(stdin)
        j = rng.randrange(len(text))
        text[j:j + rng.randrange(1, 4)] = rng.choice([b"", b" ", b"zz", b"\x00", b"\r",
                                                      b"123456789abcdef01"])
        stdin = bytes(text)
    else:
        opt, values = rng.choice(opts) if opts and rng.random() < 0.7 else \
            (rng.choice(["--bogus", "stray", "-x", "--help"]), None)
        at = rng.randrange(len(args) + 1)
        if opt is None:                                   # a positional
            args.insert(at, other_value(opts, opt, work, rng))
        else:
            args[at:at] = [opt] + ([] if values is None else
                                   [other_value(opts, opt, work, rng)])
    return args, stdin


def command_line(prog, cmd, opts, ctx, rng):
    args, stdin = VALID[cmd](ctx, rng)
    args = list(args)
    for _ in range(rng.choice([0, 0, 0, 1, 1, 2, 3])):
        args, stdin = mutate(args, stdin, opts, ctx["work"], rng)
    return [prog] + ([] if cmd == "gemm_sim" else [cmd]) + args, stdin


def is_verdict(cmd, args, status):
    """Status 1 that is an answer, not a failure: some result or the file differs."""
    return status == 1 and (cmd in ("vectors", "demo") or
                            (cmd == "emit-pkg" and "--check" in args))


def allowed_status(cmd, args, err):
    if is_verdict(cmd, args, 1):
        return (0, 1, 2)
    if "cannot write" in err:
        return (0, 1, 2)                  # 1: an output the user named cannot be written
    return (0, 2)


def quote(word, most=200):
    """A word as cli_quote (cli/cli_quote.c) shows it in a message, file names at most
    200 characters: printable ASCII as it is, other bytes named, a longer word cut."""
    raw, out = word.encode("utf-8", "surrogateescape"), ""
    names = {0: "\\0", 9: "\\t", 10: "\\n", 13: "\\r", 92: "\\\\"}
    for c in raw:
        e = names.get(c, chr(c) if 0x20 <= c < 0x7f else "\\x%02x" % c)
        if len(out) + len(e) > most:
            return out + "... (%d bytes)" % len(raw)
        out += e
    return out


def names_culprit(first, argv):
    """A failure's first line names the program, an input line, or a file or folder
    given on the command line (a path's messages start with it: "dir/file:3: ...")."""
    if first.startswith((os.path.basename(argv[0]), "line ", "usage:")):
        return True
    return any(w and first.startswith(q + s)
               for w in argv[1:] for q in (quote(w.rstrip("/")), quote(w)) for s in (":", "/"))


def unquoted(err):
    """The rule of cli_quote broken on stderr: a line too long, or a raw control byte."""
    found = []
    longest = max(len(line) for line in err.split(b"\n"))
    if longest > MAX_LINE:
        found.append("a message line of %d bytes (at most %d: is a word not quoted?)" %
                     (longest, MAX_LINE))
    raw = [c for c in err if (c < 0x20 and c != 10) or c == 0x7f]
    if raw:
        found.append("a raw control character 0x%02x on stderr" % raw[0])
    return found


def run(argv, stdin, cwd, limit, env):
    t0 = time.monotonic()
    try:
        p = subprocess.run(argv, input=stdin, capture_output=True, cwd=cwd, timeout=limit,
                           env=env)
    except subprocess.TimeoutExpired:
        return None, b"", b"", time.monotonic() - t0
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t0


def problems(cmd, argv, status, out, err):
    if status is None:
        return ["did not end within the time limit"]
    text = err.decode("utf-8", "replace")
    found = []
    if status < 0:
        found.append("killed by signal %d" % -status)
    elif status not in allowed_status(cmd, argv, text):
        found.append("exit status %d (allowed: %s)" %
                     (status, allowed_status(cmd, argv, text)))
    if status > 0 and not is_verdict(cmd, argv, status):
        first = text.lstrip().split("\n", 1)[0]
        if not names_culprit(first, argv):
            found.append("a failure whose stderr names neither the program nor what is "
                         "wrong: %r" % first[:200])
    sanitizer = [m for m in SANITIZER_MARKS if m in text]
    if sanitizer:
        found.append("sanitizer report (%s)" % sanitizer[0])
    else:  # a sanitizer's report has long lines of its own
        found += unquoted(err)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tcsim", required=True)
    ap.add_argument("--gemm-sim")
    ap.add_argument("--vectors", help="a vectors folder laid out as data/vectors/a100")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=1500)
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per run")
    ap.add_argument("--work", default="cli_fuzz_work")
    ap.add_argument("--only", help="fuzz this one command (those of ONLY_ALONE are fuzzed "
                                   "only so)")
    a = ap.parse_args()
    if a.runs < 1 or a.limit <= 0:
        ap.error("--runs and --limit must be positive")

    # The runs start in the work folder: a program named by a relative path is found
    # from here, a bare name on PATH.
    a.tcsim, a.gemm_sim = [p if p is None or os.sep not in p else os.path.abspath(p)
                           for p in (a.tcsim, a.gemm_sim)]
    rng = random.Random(a.seed)
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    work = os.path.abspath(a.work)
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
    vectors = os.path.abspath(a.vectors) if a.vectors and os.path.isdir(a.vectors) else None
    g = grammar(vectors)
    ctx = {"work": work, "vectors": vectors, "profiles": profiles(a.tcsim)}
    if a.only and a.only not in g:
        ap.error("--only: no command %r" % a.only)
    cmds = [a.only] if a.only else \
        sorted(c for c in g if (c != "gemm_sim" or a.gemm_sim) and c not in ONLY_ALONE)

    failures, statuses, slowest, reruns = 0, {}, (0.0, None), 0
    t_start = time.monotonic()
    for i in range(a.runs):
        cmd = rng.choice(cmds)
        prog = a.gemm_sim if cmd == "gemm_sim" else a.tcsim
        argv, stdin = command_line(prog, cmd, g[cmd], ctx, rng)
        status, out, err, secs = run(argv, stdin, work, a.limit, env)
        found = problems(cmd, argv, status, out, err)
        if not found and status is not None and rng.random() < 0.1 and \
                "--progress" not in argv and cmd != "gemm_sim":
            reruns += 1
            again = run(argv, stdin, work, a.limit, env)
            if again[:2] != (status, out):
                found.append("not deterministic: status %s then %s, stdout %s" %
                             (status, again[0], "differs" if again[1] != out else "same"))
        statuses[(cmd, status)] = statuses.get((cmd, status), 0) + 1
        if secs > slowest[0]:
            slowest = (secs, argv)
        if found:
            failures += 1
            path = os.path.join(work, "fail%d.stdin" % i)
            with open(path, "wb") as f:
                f.write(stdin)
            print("FAIL run %d: %s" % (i, "; ".join(found)))
            print("  command: (cd %s && %s < %s)" % (shlex.quote(work),
                  " ".join(shlex.quote(x) for x in argv)[:2000], shlex.quote(path)))
            print("  stderr: %s" % err.decode("utf-8", "replace")[:600].replace("\n", "\n    "))
        if (i + 1) % 500 == 0:
            print("cli_fuzz: %d of %d runs, %d failing, %.0f s" %
                  (i + 1, a.runs, failures, time.monotonic() - t_start), flush=True)

    print("cli_fuzz: seed %d, %d runs (%d rerun), %.1f s; slowest %.2f s: %s" %
          (a.seed, a.runs, reruns, time.monotonic() - t_start, slowest[0],
           " ".join(shlex.quote(x) for x in (slowest[1] or []))[:300]))
    for cmd in cmds:
        parts = ["%s %d" % ("timeout" if s is None else "exit %d" % s, n)
                 for (c, s), n in sorted(statuses.items(), key=lambda kv: str(kv[0]))
                 if c == cmd]
        print("  %-10s %s" % (cmd, ", ".join(parts)))
    if failures:
        print("cli_fuzz: %d of %d runs broke a rule" % (failures, a.runs))
        return 1
    print("cli_fuzz: every run kept the rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
