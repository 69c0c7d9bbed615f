"""sim/plots.py - the pictures of build/reports/index.html (sim/report_html.py draws them).

Each function takes data already read from a report and writes one PNG; it raises
(ValueError naming what is missing, or matplotlib's own error) when it cannot, and the
page shows that error where the picture would be. Needs matplotlib: Debian's
python3-matplotlib (for /usr/bin/python3). The Agg back end: no display needed.
"""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the back end is chosen)
from matplotlib.ticker import MaxNLocator  # noqa: E402

DPI = 96


def _save(fig, out):
    fig.tight_layout()
    fig.savefig(out, dpi=DPI)
    plt.close(fig)


def _bars(ax, names, values, ylabel, color):
    ax.bar(range(len(names)), values, color=color)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=35, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.grid(axis="y", alpha=0.3)


def fedp_instances(rows, out):
    """rows: (block, area um^2, slowest stage ns) of every FEDP block synthesized."""
    if not rows:
        raise ValueError("no FEDP block in the synthesis report")
    names = [r[0] for r in rows]
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    _bars(a, names, [r[1] / 1e3 for r in rows], "area (10^3 um^2)", "#4878a8")
    a.set_title("FEDP area per instance")
    _bars(b, names, [r[2] for r in rows], "slowest stage (ns)", "#c8723c")
    b.set_title("FEDP slowest pipeline stage per instance")
    _save(fig, out)


def depth_sweep(series, out):
    """series: profile -> [(depth, area um^2, slowest stage ns)], two depths or more each."""
    if not series:
        raise ValueError("no profile synthesized at two depths or more")
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    for prof in sorted(series):
        pts = sorted(series[prof])
        d = [p[0] for p in pts]
        a.plot(d, [p[1] / 1e3 for p in pts], marker="o", label=prof)
        b.plot(d, [p[2] for p in pts], marker="o", label=prof)
    a.set(xlabel="pipeline depth (stages)", ylabel="area (10^3 um^2)", title="FEDP area per depth")
    b.set(xlabel="pipeline depth (stages)", ylabel="slowest stage (ns)",
          title="FEDP slowest stage per depth")
    for ax in (a, b):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    _save(fig, out)


def fused_vs_baseline(rows, out):
    """rows: synth.json's fused_vs_baseline records (profile, fused/baseline area and
    slowest stage)."""
    if not rows:
        raise ValueError("no fused/baseline pair in the synthesis report")
    names = [r["profile"] for r in rows]
    x = range(len(rows))
    w = 0.4
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, key, label in ((a, "area_um2", "area (10^3 um^2)"),
                           (b, "worst_stage_ns", "slowest stage (ns)")):
        scale = 1e3 if key == "area_um2" else 1
        ax.bar([i - w / 2 for i in x], [r["fused_" + key] / scale for r in rows], w,
               label="fused FEDP", color="#4878a8")
        ax.bar([i + w / 2 for i in x], [r["baseline_" + key] / scale for r in rows], w,
               label="chained FMAs", color="#a0a0a0")
        ax.set_xticks(list(x))
        ax.set_xticklabels(names, rotation=35, ha="right", fontsize=8)
        ax.set_ylabel(label)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8)
    a.set_title("area: fused vs chained-FMA baseline")
    b.set_title("slowest stage: fused vs baseline")
    _save(fig, out)


def timing_vs_published(fig9, points, out):
    """fig9: [(label, published list, model list)] cumulative cycles after each HMMA;
    points: [(source, kind, published, model, held)] with kind 'latency' or 'throughput'
    (seed 001 Table I, seed 004 Tables 3-7); held is False for the rows the model is not
    held to (Table I rows it does not explain, rows inconsistent in the table itself)."""
    if not fig9 and not points:
        raise ValueError("no comparison in the timing report")
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.4))
    a = axes[0]
    for label, pub, mod in fig9:
        n = range(1, len(pub) + 1)
        line, = a.plot(n, pub, marker="o", linestyle="none", label=f"{label} published")
        a.plot(n, mod, color=line.get_color(), label=f"{label} model")
    a.set(xlabel="HMMA", ylabel="cumulative cycles", title="seed 001 Fig. 9 (Titan V)")
    a.grid(alpha=0.3)
    a.legend(fontsize=7)
    for ax, kind, unit in ((axes[1], "latency", "cycles"), (axes[2], "throughput", "FMA/clk/SM")):
        pts = [p for p in points if p[1] == kind]
        if not pts:
            ax.text(0.5, 0.5, f"no {kind} rows", ha="center", transform=ax.transAxes)
            continue
        for src in sorted({p[0] for p in pts}):
            sel = [p for p in pts if p[0] == src and p[4]]
            if sel:
                ax.scatter([p[2] for p in sel], [p[3] for p in sel], s=14, label=src)
        off = [p for p in pts if not p[4]]
        if off:
            ax.scatter([p[2] for p in off], [p[3] for p in off], s=30, marker="x",
                       color="red", label="not held to the model")
        hi = max(max(p[2], p[3]) for p in pts) * 1.05
        ax.plot([0, hi], [0, hi], color="black", linewidth=0.8)
        ax.fill_between([0, hi], [0, hi * 0.9], [0, hi * 1.1], color="grey", alpha=0.15,
                        label="within 10%")
        ax.set(xlabel=f"published ({unit})", ylabel=f"model ({unit})",
               title=f"{kind}: model vs published", xlim=(0, hi), ylim=(0, hi))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    _save(fig, out)
