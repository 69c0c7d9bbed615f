#!/usr/bin/env python3
"""sim/test_report_html.py - build/reports/index.html from a small real run, checked.

    test_report_html.py --work DIR [--timing-tables EXE] [--browser]

The run: a real sim/regress of a short list (jobs that pass, and in the second case one
that fails on purpose), a real sim/coverage.py run (a list whose jobs drop made-up
Verilator counters with a known answer, merged and rendered by verilator_coverage and
genhtml), test_timing_tables' real output when EXE is given, and hand-made synthesis
reports and a wave picture (the whole synthesis and the RTL testbenches are too slow for
a test). sim/report_html.py writes the page; the reports folder is then moved elsewhere
and checked there: no script and no absolute or remote link, every link and image
resolves to a file that exists, every module measured has its genhtml page, the failed
case is named in words at the top, failures come first with their seeds and a rerun
command that does fail again. With --browser, headless Chromium loads the moved page: its
screenshot is not blank, every link it resolves is an existing file, every image loaded
(naturalWidth > 0), the failure banner is the first thing on the page.
Exit 0 passed, 1 failed, 77 skipped (a tool missing: the message has the install line).
"""
import argparse
import html.parser
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib
from urllib.parse import unquote, urlparse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FAILS = []


def fail(msg):
    print(f"FAIL: {msg}")
    FAILS.append(msg)


def skip(msg):
    print(f"SKIPPED: {msg}")
    sys.exit(77)


def png(path, w, h, pixel):
    """A PNG written with zlib (RGB, filter 0): pixel(x, y) -> (r, g, b)."""
    raw = b"".join(b"\0" + bytes(c for x in range(w) for c in pixel(x, y)) for y in range(h))

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def png_pixels(path):
    """Decodes an 8-bit RGB/RGBA non-interlaced PNG (what Chromium writes): rows of
    pixel tuples."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        n, t = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if t == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and not interlace, "unexpected PNG format"
            bpp = 3 if ctype == 2 else 4
        elif t == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return rows


def point(f, path, line, page, hier, comment, count):
    """One counter in Verilator's coverage format."""
    kind = page.split("/")[0]
    f.write(f"C '\x01t\x02{kind}\x01page\x02{page}\x01f\x02{path}\x01l\x02{line}\x01n\x020"
            f"\x01o\x02{comment}\x01h\x02{hier}\x01S\x02{line}\x01' {count}\n")


def synth_block(name, top, source, area, stages, depth=None):
    p = {"L": 4, "F": 23}
    if depth is not None:
        p["Depth"] = depth
    return {"name": name, "top": top, "source": source, "params": p, "area_um2": area,
            "nand2_eq": area / 24, "cells": 100, "flops": 10,
            "critical_path_ns": max(stages.values()), "fmax_mhz": 1000 / max(stages.values()),
            "stages": {k: {"path_ns": v, "flops": 5} for k, v in stages.items()}}


def make_run(work, timing_exe, failing):
    """A reports folder as the main job leaves it; returns (reports, steps)."""
    rep = os.path.join(work, "build", "reports")
    os.makedirs(os.path.join(rep, "logs"))
    steps = []
    # the default regression: real sim/regress
    lst = os.path.join(work, "regress.list")
    with open(lst, "w") as f:
        f.write("ok 2 test {seed} -gt 0\n")
        if failing:
            f.write("boom 1 sh -c 'echo boom at seed {seed}; exit 3'\n")
    with open(os.path.join(rep, "logs", "regress.log"), "w") as log:
        rc = subprocess.run([sys.executable, os.path.join(HERE, "regress"), "--list", lst,
                             "--build", os.path.join(work, "build"), "-j", "1",
                             "--junit", os.path.join(rep, "junit.xml")],
                            stdout=log, stderr=subprocess.STDOUT).returncode
    steps.append(f"regress={rc}:3")
    # coverage: real sim/coverage.py on counters with a known answer (as test_coverage.sh)
    dat = os.path.join(work, "a.dat")
    a, b = os.path.join(ROOT, "rtl", "fedp.sv"), os.path.join(ROOT, "rtl", "tmem.sv")
    with open(dat, "w") as f:
        f.write("# SystemC::Coverage-3\n")
        point(f, a, 10, "v_line/fedp", "TOP.u0", "block", 5)
        point(f, a, 11, "v_line/fedp", "TOP.u0", "block", 0)
        point(f, a, 12, "v_branch/fedp", "TOP.u0", "if", 0)
        point(f, b, 7, "v_line/tmem", "TOP.m", "block", 9)
        point(f, a, 20, "v_toggle/fedp", "TOP.u0", "x:0->1", 1)
    covlist = os.path.join(work, "coverage.list")
    with open(covlist, "w") as f:
        f.write(f'cov 2 cp {dat} "$TCSIM_COVERAGE_DIR/a{{seed}}.dat"\n')
    os.makedirs(os.path.join(work, "build-cov"))
    with open(os.path.join(rep, "logs", "coverage.log"), "w") as log:
        rc = subprocess.run([sys.executable, os.path.join(HERE, "coverage.py"), "--build",
                             os.path.join(work, "build-cov"), "--list", covlist, "-j", "1",
                             "--reports", os.path.join(rep, "coverage")],
                            stdout=log, stderr=subprocess.STDOUT).returncode
    steps.append(f"coverage={rc}:2")
    # a wave picture, and the synthesis reports (hand-made numbers)
    os.makedirs(os.path.join(rep, "waves"))
    png(os.path.join(rep, "waves", "fedp.png"), 80, 40, lambda x, y: (3 * x, 6 * y, 128))
    blocks = [synth_block("fedp_volta_fp16", "fedp", "fedp:volta_fp16", 278200.0,
                          {"mul": 5.0, "align": 9.7, "round": 11.3}),
              synth_block("baseline_volta_fp16", "fma_chain", "fedp:volta_fp16", 480415.0,
                          {"fma": 24.3}),
              synth_block("fedp_ampere_half", "fedp", "fedp:ampere_half", 301000.0,
                          {"mul": 5.5, "align": 10.1})]
    comp = [{"profile": "volta_fp16", "fused": "fedp_volta_fp16",
             "baseline": "baseline_volta_fp16", "fused_area_um2": 278200.0,
             "baseline_area_um2": 480415.0, "area_ratio": 0.579, "area_target_met": True,
             "fused_worst_stage_ns": 11.3, "baseline_worst_stage_ns": 24.3,
             "stage_target_met": True, "fused_latency": 4, "baseline_latency": 4}]
    with open(os.path.join(rep, "synth.json"), "w") as f:
        json.dump({"blocks": {r["name"]: r for r in blocks}, "fused_vs_baseline": comp}, f)
    sweep = [synth_block(f"fedp_volta_fp16_d{d}", "fedp", "fedp:volta_fp16", 250000.0 + d * 9000,
                         {"s": 20.0 / d}, depth=d) for d in (2, 3, 4)]
    if not failing:  # the failing run has no depth sweep: the page says so, no plot
        with open(os.path.join(rep, "synth-sweep-plain-debian.json"), "w") as f:
            json.dump({"blocks": {r["name"]: r for r in sweep}}, f)
    with open(os.path.join(rep, "synth.md"), "w") as f:
        f.write("# Synthesis\n")
    steps.append("synth=0:40")
    # the timing model against the published tables
    out = os.path.join(rep, "timing-tables.txt")
    if timing_exe:
        with open(out, "w") as f:
            rc = subprocess.run([timing_exe, os.path.join(ROOT, "model", "test", "timing",
                                                          "tables.txt")], stdout=f).returncode
        steps.append(f"timing={rc}:1")
    else:
        with open(out, "w") as f:
            f.write("fig9 v100 acc fp16 (exact): 12/12 21/21 25/25\n"
                    "t1 rtx2080ti fp16->fp32 16x16x16: 42/44.0 (+4.8%) 56/60.0 (+7.1%)\n"
                    "t004 table 3 a100 mma.m16n8k16 fp16->fp32: latency 24.7/26.0 (+5.3%) | "
                    "(4,3) lat 27.4/26.1 (-4.7%) thr 897.6/942.3 (+5.0%)\n")
    return rep, ["build=0:100", "demo=0:1"] + steps


class Refs(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs, self.srcs, self.ids, self.scripts, self.text = [], [], set(), 0, []

    def handle_starttag(self, tag, attrs):
        d = dict(attrs)
        if tag == "script":
            self.scripts += 1
        if "id" in d:
            self.ids.add(d["id"])
        if tag in ("a", "link") and "href" in d:
            self.hrefs.append(d["href"])
        if "src" in d:
            self.srcs.append(d["src"])

    def handle_data(self, data):
        self.text.append(data)


def check_static(index, failing, case):
    with open(index, encoding="utf-8") as f:
        doc = f.read()
    r = Refs()
    r.feed(doc)
    base = os.path.dirname(index)
    if r.scripts:
        fail(f"{case}: the page has {r.scripts} <script> element(s)")
    for u in r.hrefs + r.srcs:
        p = urlparse(u)
        if p.scheme or p.netloc or u.startswith("/"):
            fail(f"{case}: not a relative link: {u}")
            continue
        if not p.path:
            if p.fragment not in r.ids:
                fail(f"{case}: link #{p.fragment} has no element with that id")
            continue
        target = os.path.join(base, unquote(p.path))
        if not os.path.isfile(target):
            fail(f"{case}: link {u} does not resolve to a file ({target})")
    text = " ".join(" ".join(r.text).split())
    # the first words of the page's body say whether it failed
    body = doc.split("<body>", 1)[-1]
    first = " ".join(re.sub(r"<[^>]*>", " ", html.unescape(body.split("</div>", 1)[0])).split())
    if failing:
        if not (first.startswith("MAIN JOB FAILED") and "1 failed" in first
                and "step regress failed (exit status 1)" in first):
            fail(f"{case}: the top of the page does not name the failure: '{first[:200]}'")
    elif not first.startswith("Main job passed"):
        fail(f"{case}: the top of the page does not say it passed: '{first[:200]}'")
    # regression counts, known by construction of the list
    want = "3 jobs: 2 passed, 1 failed" if failing else "2 jobs: 2 passed, 0 failed"
    if want not in text:
        fail(f"{case}: no '{want}' in the tests section")
    if not re.search(r"coverage runs \(sim/coverage.py, sim/coverage.list\): coverage/junit.xml "
                     r"2 jobs: 2 passed, 0 failed", text):
        fail(f"{case}: the coverage runs' regression is not shown under its own name")
    if failing:
        # failures first: the failure table comes before the passed jobs; seed 1 and the
        # rerun command, which fails again with the job's own status
        m = re.search(r'<table class="fail">.*?<tr><td>boom</td><td>1</td>.*?<code>(.*?)</code>',
                      doc, re.S)
        if not m or doc.find('class="fail"') > doc.find("jobs passed or skipped"):
            fail(f"{case}: no failure row 'boom' seed 1 before the passed jobs")
        else:
            cmd = html.unescape(m.group(1))
            rc = subprocess.run(cmd, shell=True, stdout=subprocess.DEVNULL).returncode
            if rc != 3:
                fail(f"{case}: the rerun command '{cmd}' exited {rc}, the job exits 3")
    # coverage: the known answer, and a genhtml page for every module measured
    if "line 50.0%, toggle 100.0%" not in text:
        fail(f"{case}: coverage figures not 'line 50.0%, toggle 100.0%'")
    with open(os.path.join(base, "coverage", "summary.json")) as f:
        mods = json.load(f)["modules"]
    if sorted(m["module"] for m in mods) != ["fedp", "tmem"]:
        fail(f"{case}: modules measured: {[m['module'] for m in mods]}")
    for m in mods:
        for fn in m["files"]:
            rel = f"coverage/html/{fn}.gcov.html"
            if not os.path.isfile(os.path.join(base, rel)) or f'href="{rel}"' not in doc:
                fail(f"{case}: module {m['module']}: no genhtml page {rel} linked")
    for img in ("waves/fedp.png", "plots/fedp_instances.png", "plots/fused_vs_baseline.png",
                "plots/timing_vs_published.png") + (() if failing else ("plots/fedp_depth.png",)):
        if f'src="{img}"' not in doc:
            fail(f"{case}: no image {img} on the page")
    if failing and ("fedp_depth.png" in doc or "No depth sweep results" not in text):
        fail(f"{case}: without a depth sweep the page should say so and draw no depth plot")
    if 'class="error"' in doc and not failing:
        fail(f"{case}: an error on the page of a passing run: "
             f"{re.findall(r'<p class=.error.>(.*?)</p>', doc)[:3]}")


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def browser(exe, index, work, failing, case):
    url = "file://" + os.path.abspath(index)
    prof = os.path.join(work, "chrome-profile")
    flags = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--hide-scrollbars", f"--user-data-dir={prof}", "--window-size=1200,1600"]
    shot = os.path.join(work, f"{case}.png")
    p = subprocess.run(flags + [f"--screenshot={shot}", url], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=240)
    if not os.path.isfile(shot):
        fail(f"{case}: chromium wrote no screenshot ({p.returncode}): {p.stderr.decode()[-300:]}")
    else:
        rows = png_pixels(shot)
        counts = {}
        for row in rows[::4]:
            for px in row[::4]:
                counts[px] = counts.get(px, 0) + 1
        total = sum(counts.values())
        other = 1 - max(counts.values()) / total
        if len(counts) < 10 or other < 0.02:
            fail(f"{case}: the screenshot looks blank: {len(counts)} colours, "
                 f"{100 * other:.1f}% not the background")
        # the failure banner is red at the top left (only checked with the words above)
        if failing:
            top = rows[30][600]
            if not (top[0] > 200 and top[1] < 240 and top[2] < 240):
                fail(f"{case}: the top of the screenshot is not the failure banner: {top}")
    # the page's images and links as the browser sees them: a copy of the page with a
    # probe script (the page itself has none) that writes them into the DOM on load
    probe = os.path.join(os.path.dirname(index), "_probe.html")
    with open(index, encoding="utf-8") as f:
        doc = f.read()
    script = ("<script>window.addEventListener('load',function(){var o={imgs:[],links:[]};"
              "for(var i of document.images)o.imgs.push([i.getAttribute('src'),i.naturalWidth]);"
              "for(var a of document.links)o.links.push(a.href);"
              "var b=document.getElementById('status');o.top=b?b.getBoundingClientRect().top:-1;"
              "o.first=document.body.firstElementChild.innerText;"
              "var p=document.createElement('pre');p.id='probe';p.textContent=JSON.stringify(o);"
              "document.body.appendChild(p);});</script>")
    with open(probe, "w", encoding="utf-8") as f:
        f.write(doc.replace("</body>", script + "</body>"))
    p = subprocess.run(flags + ["--virtual-time-budget=20000", "--dump-dom",
                                "file://" + os.path.abspath(probe)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=240)
    os.remove(probe)
    m = re.search(r'<pre id="probe">(.*?)</pre>', p.stdout.decode("utf-8", "replace"), re.S)
    if not m:
        fail(f"{case}: the browser's DOM has no probe result ({p.returncode}): "
             f"{p.stderr.decode()[-300:]}")
        return
    o = json.loads(html.unescape(m.group(1)))
    if not o["imgs"]:
        fail(f"{case}: no image in the browser's page")
    for src, w in o["imgs"]:
        if not w:
            fail(f"{case}: image {src} did not load in the browser (naturalWidth 0)")
    for link in o["links"]:
        u = urlparse(link)
        if u.scheme != "file":
            fail(f"{case}: the browser resolves a link outside the file system: {link}")
        elif not u.fragment and not os.path.isfile(unquote(u.path)):
            fail(f"{case}: the browser's link {link} is no existing file")
    if o["top"] < 0 or o["top"] > 50:
        fail(f"{case}: the status banner is not at the top (top {o['top']})")
    if failing != o["first"].startswith("MAIN JOB FAILED"):
        fail(f"{case}: the first thing on the page reads '{o['first'][:120]}'")
    print(f"{case}: browser: {len(o['imgs'])} images loaded, {len(o['links'])} links resolved")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--work", required=True)
    ap.add_argument("--timing-tables", default="", help="test_timing_tables executable")
    ap.add_argument("--browser", action="store_true", help="also check in headless Chromium")
    args = ap.parse_args()
    if not shutil.which("verilator_coverage"):
        skip("verilator_coverage missing (Debian package verilator). As root: "
             "apt-get install -y verilator")
    if not shutil.which("genhtml"):
        skip("genhtml missing (Debian package lcov). As root: apt-get install -y lcov")
    if all(subprocess.run([py, "-c", "import matplotlib"], stderr=subprocess.DEVNULL).returncode
           for py in {sys.executable, "/usr/bin/python3"} if os.path.exists(py)):
        skip("matplotlib missing (Debian package python3-matplotlib). As root: "
             "apt-get install -y python3-matplotlib")
    exe = None
    if args.browser:
        exe = chromium()
        if not exe:
            skip("chromium missing, the page is not checked in a browser. As root: "
                 "apt-get install -y chromium")
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    for case, failing in (("passing", False), ("failing", True)):
        run = os.path.join(work, case)
        rep, steps = make_run(run, args.timing_tables, failing)
        p = subprocess.run([sys.executable, os.path.join(HERE, "report_html.py"), "--reports", rep]
                           + [a for s in steps for a in ("--step", s)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if p.returncode != 0:
            fail(f"{case}: report_html.py exited {p.returncode}: {p.stdout.decode()[-500:]}")
            continue
        # sim/summary.py: each regression under its own name, with its own counts
        p = subprocess.run([sys.executable, os.path.join(HERE, "summary.py"), "--reports", rep],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = p.stdout.decode()
        for title, want in (("default regression", "3 jobs: 2 passed, 1 failed" if failing
                             else "2 jobs: 2 passed, 0 failed"),
                            ("coverage runs", "2 jobs: 2 passed, 0 failed")):
            if not re.search(rf"== tests: {title} .*\n  {want}", out):
                fail(f"{case}: summary.py: no '{want}' under 'tests: {title}':\n{out[:600]}")
        # the page from a copy moved elsewhere, the original gone
        moved = os.path.join(work, case + "-moved", "somewhere", "reports")
        shutil.copytree(rep, moved)
        shutil.rmtree(rep)
        index = os.path.join(moved, "index.html")
        check_static(index, failing, case)
        if exe:
            browser(exe, index, os.path.join(work, case + "-moved"), failing, case)
    print("PASSED" if not FAILS else f"FAILED ({len(FAILS)})")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
