#!/usr/bin/python3
"""./tessera bench ranks: the summary, the plot and the projection of the 48-board cluster.

usage: ranks_report.py <ranks.csv> <out.svg> <cores> <load average>

The projection is calibrated on the heat rows alone (docs/ranks.md, "What it costs"):
  c1  host seconds per window of one process with windows, the whole 6-board machine's work;
  sN  what a window costs N ranks beyond their share of that work, c_N - c1 / N: the
      synchronisation (the window's collectives) and the imbalance between the ranks, measured
      over shared memory, and over TCP (as between hosts) where the bench ran it.
The 48-board cluster with the same work per board (8 x the vertices) runs about as many windows
(modelled time per step stays), each 8 x c1 of work. On 48 cores, one board a rank: 8 c1 / 48
+ s, with s grown as the collectives' rounds, log2(ranks); on 6 hosts of 8 cores, the same with
the TCP figure. An estimate: it assumes the work splits as evenly over 48 boards as over 6.
"""
import csv
import math
import sys

import plotting

CLUSTER_BOARDS = 48


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def table(rows):
    out = ["app   ranks  transport     host s  speed-up  windows  host us/window  modelled cycles"]
    for r in rows:
        mode = {"off": "(no windows)", "on": "shared mem", "tcp": "tcp"}[r["mode"]]
        if r["ranks"] == "1" and r["mode"] == "on":
            mode = "(windows)"
        out.append(f"{r['app']:<5} {r['ranks']:>5}  {mode:<12} {float(r['host_s']):>8.2f}  "
                   f"{float(r['speedup']):>7.2f}x  {r['windows']:>7}  "
                   f"{r['host_us_per_window'] or '-':>14}  {int(r['modelled_cycles']):>15,}")
    return out


def projection(rows):
    heat = [r for r in rows if r["app"] == "heat"]
    one = next((r for r in heat if r["ranks"] == "1" and r["mode"] == "on"), None)
    off = next((r for r in heat if r["mode"] == "off"), None)
    ranked = [r for r in heat if int(r["ranks"]) > 1]
    if one is None or not ranked or int(one["windows"]) == 0:
        return ["(no projection: the heat rows of one process and of ranks are needed)"]
    windows = int(one["windows"])
    c1 = float(one["host_s"]) / windows
    per_board = c1 / 6
    out = [f"Projection, 48-board cluster (49,152 threads), GALS heat with 8 x the vertices "
           f"({windows:,} windows, as measured):",
           f"  measured: one process with windows {c1 * 1e3:.2f} ms a window "
           f"({per_board * 1e3:.2f} ms a board)"]
    sync = {}
    for r in ranked:
        n = int(r["ranks"])
        s = float(r["host_s"]) / windows - c1 / n
        sync.setdefault(r["mode"], []).append((n, s))
        out.append(f"  measured: {n} ranks over {'TCP' if r['mode'] == 'tcp' else 'shared memory'}"
                   f" {float(r['host_s']) / windows * 1e3:.2f} ms a window, "
                   f"{max(s, 0) * 1e6:.0f} us beyond an even share of the work")
    if any(s <= 0 for runs in sync.values() for _, s in runs):
        out.append("  (ranks ran at or below an even share of one process's time: each holds only "
                   "its boards' harts, whose state then fits the caches better, and that gain hides "
                   "the synchronisation; counted as none below, so the ranked figures are upper "
                   "bounds)")
    one_core = per_board * CLUSTER_BOARDS * windows
    out.append(f"  one process, one core: {one_core:,.0f} s with windows"
               + (f", about {one_core * float(off['host_s']) / float(one['host_s']):,.0f} s"
                  " without" if off else ""))
    for label, mode, hosts in (("48 ranks on 48 cores of one host", "on", 1),
                               ("48 ranks on 6 hosts of 8 cores", "tcp", 6)):
        measured = sync.get(mode) or sync.get("on")
        n, s = max(measured)
        s48 = max(s, 0) * math.log2(CLUSTER_BOARDS) / math.log2(n)
        t = (per_board + s48) * windows
        out.append(f"  {label}: {t:,.0f} s ({one_core / t:.0f}x one core; "
                   f"{s48 * 1e6:.0f} us a window of synchronisation, scaled from {n} ranks"
                   f"{' over TCP' if mode == 'tcp' and mode in sync else ''})")
    return out


def plot(rows, path):
    fig, axes = plotting.figure("Ranks: host seconds of one machine (3x2 boards, 6,144 threads) "
                                "over processes", panels=2, sharey=False)
    for ax, app in zip(axes, ("heat", "idle")):
        pts = sorted((int(r["ranks"]), float(r["host_s"])) for r in rows
                     if r["app"] == app and r["mode"] == "on")
        styles = plotting.Styles(["windows", "tcp"])
        plotting.lines(ax, [("windows", "windows on (shared memory)", pts)], styles)
        tcp = [(int(r["ranks"]), float(r["host_s"])) for r in rows
               if r["app"] == app and r["mode"] == "tcp"]
        if tcp:
            plotting.lines(ax, [("tcp", "over TCP", tcp)], styles, dashed=True)
        for r in rows:
            if r["app"] == app and r["mode"] == "off":
                ax.axhline(float(r["host_s"]), color="#7f7f7f", linewidth=1, linestyle=":",
                           label="one process, windows off")
        ax.set_title({"heat": "GALS heat, 20,000 vertices", "idle": "tinselIdle loop"}[app])
        ax.set_xlabel("ranks (QEMU processes)")
        ax.set_xticks(sorted({p[0] for p in pts + tcp}))
        ax.set_ylim(bottom=0)
    axes[0].set_ylabel("host seconds (median)")
    plotting.legend(fig, axes)
    plotting.save(fig, path)


def main():
    rows = read(sys.argv[1])
    lines = ["./tessera bench ranks: one machine over QEMU processes (Open MPI), 3x2 boards",
             *table(rows), "", *projection(rows),
             f"host: {sys.argv[3]} cores, load average {sys.argv[4]} at the end"]
    print("\n".join(lines))
    plot(rows, sys.argv[2])


if __name__ == "__main__":
    main()
