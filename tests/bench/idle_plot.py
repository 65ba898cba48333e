#!/usr/bin/python3
"""Plots build/bench/idle.csv as an SVG: round trips per modelled second against the number of
boards, one line per method (16 threads per board), the hardware estimates dashed, and the
2x3-board runs at 1,024 threads per board as open markers.

usage: idle_plot.py <idle.csv> <out.svg>
"""
import csv
import sys

import plotting

METHODS = ["hw-origin", "hw-centre", "sw-clocktree", "sw-safra"]


def main():
    src, out = sys.argv[1], sys.argv[2]
    sweep, reference, estimates, meshes = {}, {}, {}, {}
    with open(src, newline="") as f:
        for r in csv.DictReader(f):
            boards = int(r["boards_x"]) * int(r["boards_y"])
            meshes[boards] = f"{boards}\n{r['boards_x']}x{r['boards_y']}"
            small = int(r["threads"]) // boards <= 64
            if r["method"].startswith("hw") and not r["estimate_per_s"]:
                continue  # the master on the only board: a round trip of 0 cycles, no rate
            rate = float(r["round_trips_per_s"])
            (sweep if small else reference).setdefault(r["method"], []).append((boards, rate))
            if r["estimate_per_s"] and small:
                estimates.setdefault(r["method"], []).append((boards, float(r["estimate_per_s"])))
    mhz = plotting.default_clock_mhz()
    fig, (ax,) = plotting.figure("Idle synchronisation: round trips per modelled second "
                                 f"(L = 150 cycles; modelled at {mhz} MHz)", width=7.4)
    styles = plotting.Styles(METHODS + [("estimate", m) for m in METHODS if m in estimates])
    plotting.lines(ax, [(m, f"{m}, 16 threads/board", sweep[m]) for m in METHODS if m in sweep],
                   styles)
    plotting.lines(ax, [(("estimate", m), f"{m}, estimate", estimates[m]) for m in METHODS
                        if m in estimates], styles, dashed=True, markerfacecolor="none")
    for m in METHODS:
        for boards, rate in reference.get(m, []):
            ax.plot([boards], [rate], linestyle="none", markersize=9, markerfacecolor="none",
                    markeredgewidth=1.5, **styles[m])
    ax.plot([], [], linestyle="none", marker="s", markersize=9, markerfacecolor="none",
            color="#555555", label="open, large: 1,024 threads/board")
    ax.set_xticks(sorted(meshes), [meshes[b] for b in sorted(meshes)])
    ax.set_xlabel("boards (mesh)")
    plotting.log10_y(ax)
    ax.set_ylabel("round trips per modelled second")
    plotting.legend(fig, [ax], notes=["hw: 3 round trips per synchronisation",
                                      "software: waves (clock tree) or laps (Safra)"])
    plotting.save(fig, out)


if __name__ == "__main__":
    main()
