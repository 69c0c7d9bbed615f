#!/usr/bin/env python3
"""sim/report_html.py - build/reports/index.html: the main job (`./run main`) at a glance.

    sim/report_html.py --reports build/reports [--step NAME=STATUS:SECONDS ...]

Written from the reports the main job's steps left under the reports folder, nothing
else: each step's status and time (the --step arguments, as sim/summary.py takes them,
with logs/NAME.log when ./run kept one), the tests of each regression from its JUnit XML
(failures first, with their seeds and the command that reruns each), coverage per module
linking into genhtml's pages (coverage/summary.json, coverage/html/), the wave pictures
(waves/*.png), the synthesis tables (synth*.json) and plots (plots/*.png, drawn with
matplotlib: sim/plots.py), and the timing model beside the published tables
(timing-tables.txt: test_timing_tables' output). A failed step or a missing or unreadable
report is named in words at the top of the page and where its section would be.

The page has no script, fetches nothing from elsewhere and links only relatively, so a
copy of the reports folder moved anywhere still works. Exit status: 0 page written (even
when it reports failures), 2 bad usage.
"""
import argparse
import glob
import html
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from urllib.parse import quote

HERE = os.path.dirname(os.path.abspath(__file__))
MPL_INSTALL = "apt-get install -y python3-matplotlib"
DEBIAN_PYTHON = "/usr/bin/python3"

# The regressions of the main job, each with its own JUnit XML.
REGRESSIONS = [("junit.xml", "default regression (sim/regress, sim/regress.list)"),
               ("coverage/junit.xml", "coverage runs (sim/coverage.py, sim/coverage.list)")]


def ensure_matplotlib():
    """Debian's python3-matplotlib belongs to /usr/bin/python3; a python3 earlier on PATH
    (a venv, pyenv) may lack it: then this script reruns under Debian's. Returns the
    reason there are no plots, or None."""
    try:
        import matplotlib  # noqa: F401
        return None
    except ImportError:
        pass
    if (os.path.exists(DEBIAN_PYTHON) and os.path.realpath(sys.executable)
            != os.path.realpath(DEBIAN_PYTHON) and not os.environ.get("TCSIM_REPORT_REEXEC")):
        ok = subprocess.run([DEBIAN_PYTHON, "-c", "import matplotlib"],
                            stderr=subprocess.DEVNULL).returncode == 0
        if ok:
            os.environ["TCSIM_REPORT_REEXEC"] = "1"
            os.execv(DEBIAN_PYTHON, [DEBIAN_PYTHON, os.path.abspath(__file__)] + sys.argv[1:])
    return (f"no plots: matplotlib is not installed for {sys.executable} "
            f"(Debian package python3-matplotlib). As root: {MPL_INSTALL}")


def esc(s):
    return html.escape(str(s), quote=True)


def href(path):
    """A relative link to a file of the reports folder (path relative to it)."""
    return quote(path.replace(os.sep, "/"))


class Page:
    def __init__(self, reports):
        self.rep = reports
        self.body = []
        self.problems = []     # (words, anchor): the top of the page lists them

    def add(self, s):
        self.body.append(s)

    def error(self, words, anchor):
        self.problems.append((words, anchor))
        self.add(f'<p class="error"><strong>ERROR:</strong> {esc(words)}</p>')

    def path(self, rel):
        return os.path.join(self.rep, rel)

    def link(self, rel, text=None):
        if os.path.exists(self.path(rel)):
            return f'<a href="{href(rel)}">{esc(text or rel)}</a>'
        return f'{esc(text or rel)} <span class="missing">(missing)</span>'


def table(head, rows, cls=""):
    """rows are lists of cells already escaped (HTML)."""
    h = "".join(f"<th>{esc(c)}</th>" for c in head)
    r = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="{cls}"><thead><tr>{h}</tr></thead><tbody>{r}</tbody></table>'


def parse_steps(specs):
    steps = []
    for s in specs:
        m = re.fullmatch(r"([\w-]+)=(\d+):(\d+)", s)
        if not m:
            print(f"report_html: bad --step '{s}': expected NAME=STATUS:SECONDS", file=sys.stderr)
            sys.exit(2)
        steps.append((m.group(1), int(m.group(2)), int(m.group(3))))
    return steps


def section_steps(page, steps):
    page.add('<h2 id="steps">Steps of the main job</h2>')
    if not steps:
        page.add('<p>No step status was given (run by `./run main`, which passes them).</p>')
        return
    rows = []
    for name, rc, sec in steps:
        status = "passed" if rc == 0 else f"FAILED (exit status {rc})"
        cls = "ok" if rc == 0 else "bad"
        log = f"logs/{name}.log"
        rows.append([esc(name), f'<span class="{cls}">{esc(status)}</span>', f"{sec} s",
                     page.link(log, "log") if os.path.exists(page.path(log)) else "-"])
        if rc:
            page.problems.append((f"step {name} failed (exit status {rc})", "steps"))
    rows.append(["<strong>total</strong>", "", f"{sum(s[2] for s in steps)} s", ""])
    page.add(table(["step", "status", "time", "output"], rows))
    for name, rc, _ in steps:
        log = page.path(f"logs/{name}.log")
        if rc and os.path.exists(log):
            with open(log, encoding="utf-8", errors="replace") as f:
                tail = f.read()[-3000:]
            page.add(f'<p class="error">End of the failed step {esc(name)}\'s output '
                     f'({page.link(f"logs/{name}.log")}):</p><pre>{esc(tail)}</pre>')


def seed_of(case):
    m = re.fullmatch(r"seed (\d+)", case.get("name", ""))
    return m.group(1) if m else "-"


def section_regressions(page):
    page.add('<h2 id="tests">Tests (sim/regress)</h2>')
    for rel, title in REGRESSIONS:
        anchor = "tests-" + re.sub(r"\W", "-", rel)
        page.add(f'<h3 id="{anchor}">{esc(title)}: {page.link(rel)}</h3>')
        try:
            s = ET.parse(page.path(rel)).getroot()
        except (OSError, ET.ParseError) as e:
            page.error(f"{title}: no readable {rel}: {e}", anchor)
            continue
        n, f, e, sk = (int(s.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
        page.add(f"<p>{n} jobs: {n - f - e - sk} passed, {f} failed, {e} stopped (time "
                 f"budget), {sk} skipped, in {float(s.get('time', 0)):.0f} s.</p>")
        if f or e:
            page.problems.append((f"{title}: {f} failed, {e} stopped", anchor))
        bad, rest = [], []
        for c in s.findall("testcase"):
            fail = c.find("failure")
            err = c.find("error")
            skip = c.find("skipped")
            if fail is not None or err is not None:
                el = fail if fail is not None else err
                msg = el.get("message", "")
                rerun = msg[len("reproduce: "):] if msg.startswith("reproduce: ") else ""
                bad.append([esc(c.get("classname")), esc(seed_of(c)),
                            '<span class="bad">FAILED</span>' if fail is not None
                            else '<span class="bad">STOPPED</span>',
                            f'{float(c.get("time", 0)):.1f} s',
                            f"<code>{esc(rerun)}</code>" if rerun else esc(msg),
                            f"<details><summary>output</summary><pre>{esc(el.text or '')}"
                            "</pre></details>"])
            else:
                rest.append([esc(c.get("classname")), esc(seed_of(c)),
                             "skipped: " + esc(skip.get("message", "")) if skip is not None
                             else '<span class="ok">passed</span>',
                             f'{float(c.get("time", 0)):.1f} s'])
        if bad:
            page.add(table(["entry", "seed", "status", "time", "rerun", "output"], bad, "fail"))
        if rest:
            page.add(f"<details{' open' if len(rest) <= 20 else ''}><summary>{len(rest)} "
                     "jobs passed or skipped</summary>"
                     + table(["entry", "seed", "status", "time"], rest) + "</details>")


def section_coverage(page):
    page.add('<h2 id="coverage">Coverage (rtl/, Verilator line and toggle points)</h2>')
    page.add("<p>Reports: " + ", ".join([
        page.link("coverage/summary.txt"), page.link("coverage/html/index.html", "genhtml report"),
        page.link("coverage/coverage.info", "lcov tracefile")])
        + " (annotated sources: the folder coverage/annotated/)</p>")
    try:
        with open(page.path("coverage/summary.json"), encoding="utf-8") as f:
            d = json.load(f)
        mods = d["modules"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        page.error(f"no readable coverage/summary.json: {e}", "coverage")
        return
    page.add(f"<p>rtl/ as a whole: line {d['line_pct']}%, toggle {d['toggle_pct']}%.</p>")
    rows = []
    for m in mods:
        pages = [page.link(f"coverage/html/{fn}.gcov.html", fn) for fn in m["files"]]
        for fn in m["files"]:
            if not os.path.exists(page.path(f"coverage/html/{fn}.gcov.html")):
                page.problems.append((f"coverage: no genhtml page for {fn}", "coverage"))

        def cell(hit, tot):
            return "-" if not tot else f"{100.0 * hit / tot:.1f}% ({hit}/{tot})"
        rows.append([esc(m["module"]), cell(m["line_hit"], m["line"]),
                     cell(m["toggle_hit"], m["toggle"]), ", ".join(pages)])
    page.add(table(["module", "line", "toggle", "source (genhtml)"], rows))
    if d.get("not_measured"):
        page.add("<p>Not measured (in no coverage build): "
                 f"{esc(', '.join(d['not_measured']))}.</p>")


def section_waves(page):
    page.add('<h2 id="waves">Waves</h2>')
    pngs = sorted(glob.glob(page.path("waves/*.png")))
    if not pngs:
        page.error("no wave pictures (waves/*.png)", "waves")
        return
    for p in pngs:
        rel = os.path.relpath(p, page.rep)
        name = os.path.splitext(os.path.basename(p))[0]
        page.add(f'<figure><img src="{href(rel)}" alt="waves of {esc(name)}">'
                 f"<figcaption>{esc(name)} ({page.link(rel)})</figcaption></figure>")


def load_synth(page):
    """synth.json and every other synth*.json (the depth sweep's, other flows'): blocks."""
    docs = {}
    for p in sorted(glob.glob(page.path("synth*.json"))):
        rel = os.path.relpath(p, page.rep)
        try:
            with open(p, encoding="utf-8") as f:
                docs[rel] = json.load(f)
        except (OSError, ValueError) as e:
            page.error(f"unreadable {rel}: {e}", "synth")
    return docs


def slowest_stage(r):
    st = r.get("stages") or {}
    vals = [s["path_ns"] for s in st.values() if isinstance(s, dict) and "path_ns" in s]
    return max(vals) if vals else r.get("critical_path_ns", 0.0)


def is_fedp(r):
    return r.get("top", "").startswith("fedp") and "area_um2" in r


def plot(page, mpl_missing, name, fn, *data):
    """Draws plots/NAME.png with sim/plots.py's fn; an error in words where it fails."""
    if mpl_missing:
        page.error(mpl_missing, "plots")
        return
    import plots
    rel = f"plots/{name}.png"
    os.makedirs(page.path("plots"), exist_ok=True)
    try:
        getattr(plots, fn)(*data, page.path(rel))
    except Exception as e:  # any failure of the drawing is shown, the page still written
        page.error(f"plot {name}: {type(e).__name__}: {e}", "plots")
        return
    page.add(f'<figure><img src="{href(rel)}" alt="{esc(name)}"></figure>')


def section_synth(page, mpl_missing):
    page.add('<h2 id="synth">Synthesis (Yosys + OpenSTA, OSU 0.18 um)</h2>')
    docs = load_synth(page)
    page.add("<p>Reports: " + ", ".join(page.link(r) for r in
             sorted(set(docs) | {"synth.json", "synth.md"})) + "</p>")
    main = docs.get("synth.json")
    if not main or not isinstance(main.get("blocks"), dict):
        page.error("no readable synth.json with blocks", "synth")
        return
    rows = []
    for r in main["blocks"].values():
        if "area_um2" not in r:
            rows.append([esc(r.get("name")), esc("skipped: " + str(r.get("skipped", "")))]
                        + [""] * 6)
            continue
        p = r.get("params", {})
        stages = ", ".join(f"{k} {v['path_ns']:.2f}" for k, v in (r.get("stages") or {}).items()
                           if isinstance(v, dict) and "path_ns" in v)
        rows.append([esc(r["name"]), esc(" ".join(f"{k}={p[k]}" for k in ("L", "F", "Depth")
                                                  if k in p) or "-"),
                     f"{r['area_um2']:,.0f}", f"{r.get('nand2_eq', 0):,.0f}",
                     f"{r.get('flops', 0):,}", f"{r.get('critical_path_ns', 0):.2f}",
                     f"{r.get('fmax_mhz', 0):.0f}", esc(stages or "-")])
    page.add(table(["block", "parameters", "area um^2", "NAND2-eq", "flops", "critical ns",
                    "fmax MHz", "stages (ns)"], rows))
    comp = main.get("fused_vs_baseline") or []
    if comp:
        page.add("<h3>Fused dot product vs chained FMAs</h3>")
        page.add(table(["profile", "fused um^2", "baseline um^2", "area ratio",
                        "fused slowest stage ns", "baseline stage ns"],
                       [[esc(c["profile"]), f"{c['fused_area_um2']:,.0f}",
                         f"{c['baseline_area_um2']:,.0f}", f"{c['area_ratio']:.3f}",
                         f"{c['fused_worst_stage_ns']:.2f}",
                         f"{c['baseline_worst_stage_ns']:.2f}"] for c in comp]))
    page.add('<h3 id="plots">Plots</h3>')
    fedp = [(r["name"], r["area_um2"], slowest_stage(r)) for r in main["blocks"].values()
            if is_fedp(r)]
    plot(page, mpl_missing, "fedp_instances", "fedp_instances", fedp)
    # A series per report and profile (a sweep's flow may not be synth.json's, so their
    # figures are not mixed); a block without a Depth parameter is at the depth of its
    # registered stages (fedp.sv's default).
    series = {}
    for rel, doc in docs.items():
        for r in (doc.get("blocks") or {}).values():
            if not is_fedp(r):
                continue
            depth = (r.get("params") or {}).get("Depth", len(r.get("stages") or {}) or None)
            if depth is not None:
                key = f"{r.get('source', r['name']).split(':')[-1]} ({rel})"
                series.setdefault(key, {})[depth] = (depth, r["area_um2"], slowest_stage(r))
    series = {k: list(v.values()) for k, v in series.items() if len(v) >= 2}
    if series:
        plot(page, mpl_missing, "fedp_depth", "depth_sweep", series)
    else:
        page.add("<p>No depth sweep results (no FEDP profile synthesized at two depths "
                 "or more in synth*.json): no per-depth plot.</p>")
    if comp:
        plot(page, mpl_missing, "fused_vs_baseline", "fused_vs_baseline", comp)
    else:
        page.error("synth.json has no fused vs baseline comparison", "synth")


PAIR = re.compile(r"(\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)")


def parse_timing(text):
    """test_timing_tables' lines: 'published/model' pairs. Returns fig9 series and points
    (source, kind, published, model, held), and the lines in order for the table."""
    fig9, points, rows = [], [], []
    for line in text.splitlines():
        head, _, rest = line.partition(":")
        w = head.split()
        if not w or not rest:
            continue
        if w[0] == "fig9":
            pairs = [(float(a), float(b)) for a, b in PAIR.findall(rest)]
            fig9.append((f"{w[1]} acc {w[3]}", [p[0] for p in pairs], [p[1] for p in pairs]))
        elif w[0] in ("t1", "t1-x"):
            for a, b in PAIR.findall(rest):
                points.append(("seed 001 Table I", "latency", float(a), float(b), w[0] == "t1"))
        elif w[0] == "t004":
            src = f"seed 004 Table {w[2]}"
            for part in rest.split("|"):
                # "(not checked: ...)": a row whose latency and throughput disagree in
                # the table itself, not held against the model
                held = "not checked" not in part
                m = re.search(r"lat(?:ency)? " + PAIR.pattern, part)
                if m:
                    points.append((src, "latency", float(m.group(1)), float(m.group(2)), held))
                m = re.search(r"thr " + PAIR.pattern, part)
                if m:
                    points.append((src, "throughput", float(m.group(1)), float(m.group(2)), held))
        else:
            continue
        rows.append((head, rest.strip()))
    return fig9, points, rows


def section_timing(page, mpl_missing):
    page.add('<h2 id="timing">Timing model vs the published tables</h2>')
    rel = "timing-tables.txt"
    page.add(f"<p>From {page.link(rel)} (test_timing_tables on model/test/timing/tables.txt: "
             "seed 001 Fig. 9 and Table I, seed 004 Tables 3-7; each figure is "
             "published/model).</p>")
    try:
        with open(page.path(rel), encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        page.error(f"no readable {rel}: {e}", "timing")
        return
    fig9, points, rows = parse_timing(text)
    if not rows:
        page.error(f"{rel} has no comparison line", "timing")
        return
    fails = [ln for ln in text.splitlines() if "FAIL" in ln]
    for ln in fails:
        page.error(f"timing: {ln}", "timing")
    plot(page, mpl_missing, "timing_vs_published", "timing_vs_published", fig9, points)
    tail = [ln for ln in text.splitlines() if ln.strip() and not PAIR.search(ln.partition(":")[2])]
    page.add(f"<p>{esc(' '.join(tail))}</p>")
    page.add("<details><summary>every row</summary>" + table(
        ["row", "published/model"], [[esc(h), f"<code>{esc(r)}</code>"] for h, r in rows])
        + "</details>")


def section_files(page):
    page.add('<h2 id="files">Every report</h2><ul>')
    for p in sorted(os.listdir(page.rep)):
        if p == "index.html":
            continue
        if os.path.isdir(page.path(p)):
            idx = os.path.join(p, "index.html")
            page.add(f"<li>{page.link(idx) if os.path.exists(page.path(idx)) else esc(p)}/ "
                     f"(folder of {len(os.listdir(page.path(p)))} entries)</li>")
        else:
            page.add(f"<li>{page.link(p)}</li>")
    page.add("</ul>")


CSS = """body{font-family:sans-serif;margin:1.5em;max-width:1400px;color:#111}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:2px 6px;
font-size:90%;text-align:left;vertical-align:top}th{background:#eee}
.ok{color:#060}.bad{color:#b00;font-weight:bold}.error{color:#b00}
.missing{color:#b00}.banner{padding:.6em 1em;border:3px solid;margin-bottom:1em}
.banner.failed{border-color:#b00;background:#fee}.banner.passed{border-color:#060;background:#efe}
img{max-width:100%;border:1px solid #ccc}pre{background:#f6f6f6;overflow:auto;max-height:30em}
table.fail td{background:#fff0f0}"""


def main():
    ap = argparse.ArgumentParser(prog="sim/report_html.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--reports", required=True, help="the reports folder (build/reports)")
    ap.add_argument("--step", action="append", default=[], metavar="NAME=STATUS:SECONDS")
    args = ap.parse_args()
    if not os.path.isdir(args.reports):
        print(f"report_html: --reports {args.reports}: not a folder", file=sys.stderr)
        return 2
    page = Page(args.reports)
    steps = parse_steps(args.step)
    mpl_missing = ensure_matplotlib()
    if mpl_missing:
        print(f"report_html: {mpl_missing}", file=sys.stderr)
    sys.path.insert(0, HERE)
    if os.path.isdir(page.path("plots")):
        shutil.rmtree(page.path("plots"))
    section_steps(page, steps)
    section_regressions(page)
    section_coverage(page)
    section_waves(page)
    section_synth(page, mpl_missing)
    section_timing(page, mpl_missing)
    section_files(page)

    seen, probs = set(), []
    for words, anchor in page.problems:
        if words not in seen:
            seen.add(words)
            probs.append((words, anchor))
    if probs:
        banner = ('<div class="banner failed" id="status"><strong>MAIN JOB FAILED: '
                  f'{len(probs)} problem(s)</strong><ul>'
                  + "".join(f'<li><a href="#{a}">{esc(w)}</a></li>' for w, a in probs)
                  + "</ul></div>")
    else:
        banner = (f'<div class="banner passed" id="status"><strong>Main job passed:</strong> '
                  f"{len(steps)} steps, every report present.</div>")
    nav = " | ".join(f'<a href="#{a}">{t}</a>' for a, t in (
        ("steps", "steps"), ("tests", "tests"), ("coverage", "coverage"), ("waves", "waves"),
        ("synth", "synthesis"), ("timing", "timing"), ("files", "files")))
    doc = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
           "<title>tcsim main job</title>"
           f"<style>{CSS}</style></head><body>\n{banner}\n<h1>tcsim main job</h1>"
           f"<p>{nav}</p>\n" + "\n".join(page.body) + "\n</body></html>\n")
    out = page.path("index.html")
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        f.write(doc)
    os.replace(out + ".tmp", out)
    print(f"report_html: {out}" + (f" ({len(probs)} problem(s) named at the top)" if probs else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
