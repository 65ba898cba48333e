#!/usr/bin/python3
"""Summarises ./tessera bench apps (build/bench/apps*.csv): per app, sync against async over the
seeds (mean messages, messages per sync time step, modelled cycles, host seconds, speed relative
to the host reference) at cpi 1 and 4, the published comparisons (Fig. 8), and hardware against
software termination (Fig. 7). Writes apps-summary.txt and apps.svg (plotting.py).

usage: apps_report.py <build/bench>
"""
import csv
import math
import os
import sys
from collections import defaultdict

import plotting

HATCH = {"sync": "", "async": "//"}  # a bar's marker: colour and fill pattern per version


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def means(rows):
    by = defaultdict(lambda: defaultdict(list))
    for r in rows:
        for k in ("vertices", "edges", "time_steps", "messages", "cycles", "host_s", "reference_host_s"):
            by[(r["app"], r["version"])][k].append(float(r[k]))
    return {key: {k: sum(v) / len(v) for k, v in cols.items()} for key, cols in by.items()}


def bars_svg(out, apps, m, seeds):
    """Two panels of grouped bars (log scale): messages and modelled cycles, sync and async."""
    mhz = plotting.default_clock_mhz()
    fig, axes = plotting.figure(f"Vertex apps, sync and async: mean of {seeds} seeds, cpi 1 "
                                f"(modelled at {mhz} MHz)", panels=2, sharey=False)
    styles = plotting.Styles(("sync", "async"))
    width = 0.38
    for ax, (metric, label) in zip(axes, (("messages", "messages per run"),
                                          ("cycles", "modelled cycles per run"))):
        for j, version in enumerate(("sync", "async")):
            style = styles[version]
            ax.bar([i + (j - 0.5) * width for i in range(len(apps))],
                   [max(m[(a, version)][metric], 1) for a in apps], width, label=version,
                   color=style["color"], hatch=HATCH[version], edgecolor="white", linewidth=0)
        ax.set_xticks(range(len(apps)), apps)
        ax.grid(axis="x", visible=False)
        ax.set_yscale("log")  # bars rise from the decade below the least
        ax.set_ylim(bottom=10 ** math.floor(math.log10(min(b.get_height() for b in ax.patches))))
        plotting.log10_y(ax)
        ax.set_ylabel(label)
        ax.set_xlabel("vertex app")
    plotting.microseconds_axis(axes[1], mhz)
    plotting.legend(fig, axes)
    plotting.save(fig, out)


def main():
    d = sys.argv[1]
    lines = []
    rows = load(os.path.join(d, "apps.csv"))
    seeds = len({r["seed"] for r in rows})  # the bench's --quick runs one
    cpi = {1: means(rows), 4: means(load(os.path.join(d, "apps_cpi4.csv")))}
    apps = []
    for a, _ in cpi[1]:
        if a not in apps:
            apps.append(a)
    for c in (1, 4):
        m = cpi[c]
        lines.append(f"cpi {c}: mean of {seeds} seeds")
        lines.append(f"  {'app':8} {'version':7} {'vertices':>8} {'steps':>6} {'messages':>10} {'msgs/step':>10} {'cycles':>11} {'host s':>7} {'ref s':>8} {'vs ref':>7}")
        for a in apps:
            steps = m[(a, "sync")]["time_steps"]
            for v in ("sync", "async"):
                r = m[(a, v)]
                speed = r["reference_host_s"] / r["host_s"] if r["host_s"] else 0
                lines.append(f"  {a:8} {v:7} {r['vertices']:8.0f} {r['time_steps']:6.0f} {r['messages']:10.0f} "
                             f"{r['messages'] / max(steps, 1):10.1f} {r['cycles']:11.0f} {r['host_s']:7.2f} "
                             f"{r['reference_host_s']:8.4f} {speed:7.4f}")
        lines.append("")
    m = cpi[1]
    lines.append("Published shape (Fig. 8) against this run (cpi 1, async / sync):")
    expect = {"pagerank": "equal messages", "heat": "equal messages", "mssp": "about 2x the messages",
              "snn": "hundreds of times the messages", "sssp": "finishes sooner (fewer cycles)"}
    for a in apps:
        msg = m[(a, "async")]["messages"] / m[(a, "sync")]["messages"]
        cyc = m[(a, "async")]["cycles"] / m[(a, "sync")]["cycles"]
        lines.append(f"  {a:8} published: async {expect.get(a, '-')}; measured: messages x{msg:.2f}, cycles x{cyc:.2f}")
    lines.append("")
    term = load(os.path.join(d, "apps_termination.csv"))
    if term:
        lines.append(f"Hardware against software termination (Fig. 7), {term[0]['app']}, cpi 1:")
        by = defaultdict(dict)
        for r in term:
            by[int(r["vertices_per_thread"])][r["detector"]] = float(r["cycles"])
        for vpt in sorted(by):
            hw, sw = by[vpt].get("hw"), by[vpt].get("clocktree")
            if hw and sw:
                lines.append(f"  {vpt:4} vertices per thread: hw {hw:12.0f} cycles, sw-clocktree {sw:12.0f}: speedup x{sw / hw:.2f}")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(d, "apps-summary.txt"), "w") as f:
        f.write(text)
    print(text, end="")
    bars_svg(os.path.join(d, "apps.svg"), apps, m, seeds)


if __name__ == "__main__":
    main()
