#!/usr/bin/env python3
"""sim/coverage.py - line and toggle coverage of rtl/ under the random regressions.

    sim/coverage.py --build BUILD_COV --reports DIR [--seeds N] [-j J]
    sim/coverage.py --report-only DAT... --reports DIR

BUILD_COV is a build directory configured with -DTCSIM_COVERAGE=ON (every block
Verilated with --coverage; engines/shim_coverage.h writes one .dat per model when
$TCSIM_COVERAGE_DIR is set). The runs are the entries of sim/coverage.list, through
sim/regress (seeds, -j, JUnit XML as any regression). Then:

  DIR/merged.dat     every run's counters, merged by verilator_coverage --write
  DIR/annotated/     the RTL sources annotated by verilator_coverage --annotate:
                     lines marked %000000 were never reached
  DIR/summary.txt    first line `line coverage: NN.N%` for the files of rtl/ as a whole,
                     then toggle coverage, a table per module, and the lines never reached
  DIR/summary.json   the same figures per module, with each module's source file and its
                     genhtml page (read by sim/report_html.py)
  DIR/coverage.info  the rtl/ files' counters as lcov tracefile (verilator_coverage
                     --write-info; Verilator's line, branch and toggle points as DA lines)
  DIR/html/          genhtml's browsable per-file, per-line report of coverage.info
                     (Debian package lcov; without it the exact apt-get line is printed
                     and the exit status is 1, the summary still written)
  DIR/junit.xml      the JUnit XML of the coverage runs (never BUILD/reports/junit.xml,
                     the default regression's)

A coverage point counts once however many instances it has: a line of fedp.sv is covered
when any of the 32 FEDPs of tc_warp, or any fedp instance, reached it (the same rule as
verilator_coverage's annotation). "line" is Verilator's line and branch points, "toggle"
its toggle points (signals up to --coverage-max-width, 256 bits by default).
Exit status: 0 done, 1 a run or a tool failed, 2 bad usage.
"""
import argparse
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RTL = os.path.join(ROOT, "rtl") + os.sep


def parse_dat(path, points):
    """Adds the points of one coverage file: key (kind, module, file, line, what) -> max
    count over instances. Lines: C '<\\x01key\\x02value...>' count."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.startswith("C '"):
                continue
            end = line.rfind("'")
            fields = dict(kv.split("\x02", 1) for kv in line[3:end].split("\x01") if "\x02" in kv)
            count = int(line[end + 1:].strip() or 0)
            page = fields.get("page", "")
            kind, _, module = page.partition("/")
            module = module.split("__")[0]   # fedp__pi1, fedp_decode__F4_M3: one module
            kind = {"v_line": "line", "v_branch": "line", "v_toggle": "toggle"}.get(kind)
            if kind is None:
                continue            # user cover points: none in rtl/ today
            key = (kind, module, fields.get("f", ""), int(fields.get("l", 0) or 0),
                   fields.get("n", ""), fields.get("o", ""), fields.get("S", ""))
            points[key] = max(points.get(key, 0), count)


def pct(hit, total):
    return 100.0 * hit / total if total else 100.0


def cell(hit, total, width):
    """A module's figure: "95.7%  45/47", or "-" where it has no point of that kind."""
    if not total:
        return f"{'-':>7} {'':>{width}}"
    return f"{pct(hit, total):6.1f}% {f'{hit}/{total}':>{width}}"


def summarize(points, out):
    """summary.txt: the rtl/ totals first, then per module, then where lines were missed."""
    rtl = {k: v for k, v in points.items() if os.path.abspath(k[2]).startswith(RTL)}
    tot = collections.Counter()
    per = collections.defaultdict(collections.Counter)
    files = collections.defaultdict(set)
    missed = collections.defaultdict(set)
    for (kind, module, fname, lineno, *_), count in rtl.items():  # _: column, comment, S
        tot[kind] += 1
        tot[kind + "_hit"] += count > 0
        per[module][kind] += 1
        per[module][kind + "_hit"] += count > 0
        files[module].add(os.path.relpath(os.path.abspath(fname), ROOT))
        if kind == "line" and count == 0:
            # the lines the point stands for ("S": "289-291,293"), else where it starts
            span = _[-1] or str(lineno)
            for part in span.split(","):
                a, _dash, b = part.partition("-")
                if a.isdigit():
                    missed[os.path.relpath(fname, ROOT)].update(range(int(a), int(b or a) + 1))
    if not tot["line"]:
        raise SystemExit("coverage: no line coverage points of rtl/ in the data")
    lines = [f"line coverage: {pct(tot['line_hit'], tot['line']):.1f}%",
             f"toggle coverage: {pct(tot['toggle_hit'], tot['toggle']):.1f}%",
             f"points: {tot['line_hit']}/{tot['line']} line, "
             f"{tot['toggle_hit']}/{tot['toggle']} toggle (rtl/, every instance merged)",
             "", f"{'module':<20} {'line':>7} {'points':>11} {'toggle':>7} {'points':>13}"]
    for m in sorted(per):
        c = per[m]
        lines.append(f"{m:<20} {cell(c['line_hit'], c['line'], 11)} "
                     f"{cell(c['toggle_hit'], c['toggle'], 13)}".rstrip())
    # rtl/ files no coverage build Verilates (a block without a testbench yet) are not in
    # the figures above: named here, so that nobody reads the figure as covering them
    seen = {os.path.abspath(k[2]) for k in rtl}
    unmeasured = sorted(os.path.relpath(f, ROOT) for f in glob.glob(os.path.join(RTL, "*.sv"))
                        if os.path.abspath(f) not in seen and not f.endswith("_pkg.sv"))
    lines += ["", "not measured (in no coverage build): " + (", ".join(unmeasured) or "none")]
    lines += ["", "lines never reached (see annotated/ for the code):"]
    for fname in sorted(missed):
        lines.append(f"  {fname}: {', '.join(str(n) for n in sorted(missed[fname]))}")
    if not missed:
        lines.append("  none")
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    doc = {"line_pct": round(pct(tot["line_hit"], tot["line"]), 1),
           "toggle_pct": round(pct(tot["toggle_hit"], tot["toggle"]), 1),
           "modules": [{"module": m, "files": sorted(files[m]),
                        "line": per[m]["line"], "line_hit": per[m]["line_hit"],
                        "toggle": per[m]["toggle"], "toggle_hit": per[m]["toggle_hit"]}
                       for m in sorted(per)],
           "not_measured": unmeasured}
    with open(os.path.splitext(out)[0] + ".json", "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    return lines


LCOV_INSTALL = "apt-get install -y lcov"


def rtl_only_info(src, dst):
    """Copies the records of an lcov tracefile whose source (SF:) is under rtl/: the
    testbench tops are not what is measured (as in summary.txt)."""
    keep, out = False, []
    with open(src, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("SF:"):
                keep = os.path.abspath(line[3:].strip()).startswith(RTL)
            if keep or line.startswith("TN:"):
                out.append(line)
            if line.startswith("end_of_record"):
                keep = False
    with open(dst, "w", encoding="utf-8") as f:
        f.writelines(out)


def lcov_html(vc, merged, reports):
    """coverage.info and html/ (genhtml) from merged.dat. Returns 0, or 1 when genhtml is
    missing (the apt-get line printed) or a tool failed."""
    html = os.path.join(reports, "html")
    shutil.rmtree(html, ignore_errors=True)
    raw = os.path.join(reports, "all.info")
    info = os.path.join(reports, "coverage.info")
    run([vc, "--write-info", raw, merged], stdout=subprocess.DEVNULL)
    rtl_only_info(raw, info)
    os.remove(raw)
    genhtml = shutil.which("genhtml")
    if not genhtml:
        print("coverage: genhtml not found, so no html/ report (Debian package lcov). "
              f"As root: {LCOV_INSTALL}", file=sys.stderr)
        return 1
    # --prefix: pages named rtl/<file>.gcov.html; sources read from rtl/ as they are now
    run([genhtml, "--quiet", "--output-directory", html, "--prefix", ROOT,
         "--title", "tcsim rtl/ (Verilator line, branch and toggle points)",
         "--ignore-errors", "source", info], stdout=subprocess.DEVNULL)
    return 0


def die(msg):
    print(f"coverage: {msg}", file=sys.stderr)
    sys.exit(2)


def check_args(args):
    """Bad usage is exit 2 here, before anything is created or run (not exit 1 from the
    sim/regress it would start, nor a verilator_coverage spinning on a folder)."""
    if args.jobs < 1:
        die(f"-j must be >= 1, got {args.jobs}")
    if args.seeds < 0:
        die(f"--seeds must be >= 0, got {args.seeds}")
    if args.build and not os.path.isdir(args.build):
        die(f"--build {args.build}: not a folder (configure it with -DTCSIM_COVERAGE=ON first)")
    for d in args.report_only or []:
        if not os.path.isfile(d):
            die(f"--report-only {d}: not a file" + (" (give the .dat files in it)"
                                                   if os.path.isdir(d) else ""))


def run(cmd, **kw):
    shown = cmd if len(cmd) < 12 else cmd[:6] + [f"... ({len(cmd) - 6} more)"]
    print("coverage: " + " ".join(shown), flush=True)
    p = subprocess.run(cmd, **kw)
    if p.returncode != 0:
        raise SystemExit(f"coverage: failed ({p.returncode}): {' '.join(cmd)}")


def main():
    ap = argparse.ArgumentParser(prog="sim/coverage.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", help="a build directory configured with -DTCSIM_COVERAGE=ON")
    ap.add_argument("--reports", required=True, help="where the reports go")
    ap.add_argument("--seeds", type=int, default=0, help="seeds per entry (default: the list's)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--list", default=os.path.join(ROOT, "sim", "coverage.list"))
    ap.add_argument("--report-only", nargs="+", metavar="DAT",
                    help="no runs: merge and report these coverage files")
    args = ap.parse_args()
    if bool(args.build) == bool(args.report_only):
        ap.error("give --build or --report-only")
    check_args(args)
    os.makedirs(args.reports, exist_ok=True)

    if args.report_only:
        dats = args.report_only
    else:
        dat_dir = os.path.join(os.path.abspath(args.build), "coverage-dat")
        shutil.rmtree(dat_dir, ignore_errors=True)
        os.makedirs(dat_dir)
        env = dict(os.environ, TCSIM_COVERAGE_DIR=dat_dir)
        cmd = [sys.executable, os.path.join(ROOT, "sim", "regress"), "--list", args.list,
               "--build", os.path.abspath(args.build), "-j", str(args.jobs),
               "--junit", os.path.join(args.reports, "junit.xml")]
        if args.seeds:
            cmd += ["--seeds", str(args.seeds)]
        run(cmd, env=env)
        dats = sorted(glob.glob(os.path.join(dat_dir, "*.dat")))
        if not dats:
            raise SystemExit(f"coverage: the runs wrote no .dat in {dat_dir}: "
                             "is the build configured with -DTCSIM_COVERAGE=ON?")

    merged = os.path.join(args.reports, "merged.dat")
    annotated = os.path.join(args.reports, "annotated")
    shutil.rmtree(annotated, ignore_errors=True)
    vc = shutil.which("verilator_coverage")
    if vc:
        run([vc, "--write", merged] + dats, stdout=subprocess.DEVNULL)
        run([vc, "--annotate", annotated, "--annotate-min", "1", merged],
            stdout=subprocess.DEVNULL)
        sources = [merged]
    else:
        print("coverage: verilator_coverage not found: no merged.dat, annotated/ or html/")
        sources = dats
    points = {}
    for d in sources:
        parse_dat(d, points)
    lines = summarize(points, os.path.join(args.reports, "summary.txt"))
    status = lcov_html(vc, merged, args.reports) if vc else 0
    print("\n".join(lines[:3 + 2 + 20]))
    print(f"coverage: {os.path.join(args.reports, 'summary.txt')}, {annotated}/"
          + ("" if status else f", {os.path.join(args.reports, 'html', 'index.html')}"))
    return status


if __name__ == "__main__":
    sys.exit(main())
