#!/usr/bin/env python3
"""sim/summary.py - the one summary the main job (`./run main`) ends with.

    sim/summary.py --reports build/reports [--step NAME=STATUS:SECONDS ...]

Reads what the main job's steps wrote under the reports folder and prints: each step with
its status and time, each regression's counts under its own name (junit.xml: the default
regression; coverage/junit.xml: the coverage runs), coverage (coverage/summary.txt),
the area/timing table (synth.md), and the paths of the reports. The coverage summary is
checked, not only shown: its first line must read `line coverage: NN.N%`.
Exit status 1 when a step failed or a report is missing or malformed, else 0.
"""
import argparse
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET


# The regressions of the main job: JUnit XML (relative to the reports folder) and name.
REGRESSIONS = [("junit.xml", "default regression (sim/regress.list)"),
               (os.path.join("coverage", "junit.xml"), "coverage runs (sim/coverage.list)")]


def section(title):
    print(f"\n== {title}")


def main():
    ap = argparse.ArgumentParser(prog="sim/summary.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--reports", required=True)
    ap.add_argument("--step", action="append", default=[], metavar="NAME=STATUS:SECONDS")
    args = ap.parse_args()
    rep = args.reports
    problems = []

    section("main job")
    total = 0.0
    for s in args.step:
        m = re.fullmatch(r"([\w-]+)=(\d+):(\d+)", s)
        if not m:
            problems.append(f"bad --step '{s}'")
            continue
        name, rc, sec = m.group(1), int(m.group(2)), int(m.group(3))
        total += sec
        print(f"  {name:<12} {'ok' if rc == 0 else f'FAILED ({rc})':<12} {sec:>5} s")
        if rc:
            problems.append(f"step {name} failed")
    print(f"  {'total':<12} {'':<12} {int(total):>5} s")

    # Each regression has its own JUnit XML, reported under its own name (the coverage
    # runs' once overwrote the default regression's junit.xml, and were shown as it).
    junits = []
    for rel, title in REGRESSIONS:
        section(f"tests: {title}")
        junit = os.path.join(rep, rel)
        junits.append(junit)
        try:
            s = ET.parse(junit).getroot()
        except (OSError, ET.ParseError) as err:
            print(f"  no readable {junit}: {err}")
            problems.append(f"no results of the {title}")
            continue
        n, f, e, sk = (int(s.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
        print(f"  {n} jobs: {n - f - e - sk} passed, {f} failed, {e} stopped, {sk} skipped "
              f"in {float(s.get('time', 0)):.0f} s ({junit})")
        for c in s.findall("testcase"):
            if c.find("failure") is not None or c.find("error") is not None:
                print(f"  FAILED {c.get('classname')} {c.get('name')}")
        if f or e:
            problems.append(f"failures in the {title}")

    section("coverage (rtl/, Verilator line + toggle, random regressions)")
    cov = os.path.join(rep, "coverage", "summary.txt")
    try:
        lines = open(cov, encoding="utf-8").read().splitlines()
        if not lines or not re.fullmatch(r"line coverage: \d{1,3}\.\d%", lines[0]):
            problems.append(f"{cov}: first line is not 'line coverage: NN.N%'")
        table = []
        for ln in lines[:3]:
            print(f"  {ln}")
        for ln in lines[4:]:
            if not ln.strip():
                break
            table.append(ln)
        print("\n".join("  " + t for t in table))
        m = re.match(r"line coverage: ([\d.]+)%", lines[0] if lines else "")
        if m and float(m.group(1)) < 90.0:
            print(f"  below the 90% target: the lines never reached are listed in {cov}")
    except OSError as err:
        print(f"  no {cov}: {err}")
        problems.append("no coverage summary")

    section("synthesis (synth.md: Yosys + OpenSTA, OSU 0.18 um)")
    md = os.path.join(rep, "synth.md")
    try:
        rows = [ln for ln in open(md, encoding="utf-8").read().splitlines() if ln.startswith("|")]
        # the first table only: the per-block area and timing
        first = []
        for ln in rows:
            if first and ln.startswith("| profile"):
                break
            first.append(ln)
        print("\n".join("  " + r for r in first) if first else "  (no table)")
        if not first:
            problems.append(f"{md} has no table")
    except OSError as err:
        print(f"  no {md}: {err}")
        problems.append("no synthesis report")

    section("reports")
    for p in junits + [cov, os.path.join(rep, "coverage", "html", "index.html"),
              os.path.join(rep, "coverage", "annotated") + "/", md,
              os.path.join(rep, "index.html"),
              os.path.join(rep, "synth.json")] + sorted(glob.glob(os.path.join(rep, "waves", "*.png"))):
        print(f"  {p}{'' if os.path.exists(p.rstrip('/')) else '   (missing)'}")

    if problems:
        print("\nmain job: " + "; ".join(problems))
        return 1
    print("\nmain job: done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
