#!/usr/bin/python3
"""Plots the reflex benchmark as an SVG: modelled cycles per reflex barrier against the number of
harts (both axes logarithmic), one line per arrival (simultaneous, jittered) and cpi (1 solid,
threads per core dashed).

usage: reflex_plot.py <reflex.csv> <reflex-cpi-tpc.csv> <out.svg>
"""
import csv
import sys

import plotting


def read(path):
    lines = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            lines.setdefault(r["arrival"], []).append((int(r["harts"]), float(r["cycles_per_op"])))
    return lines


def main():
    cpi1, tpc, out = read(sys.argv[1]), read(sys.argv[2]), sys.argv[3]
    mhz = plotting.default_clock_mhz()
    fig, (ax,) = plotting.figure(f"Reflex barrier: modelled cycles per barrier "
                                 f"(B 4, 1 cycle per hop; modelled at {mhz} MHz)", width=7.2)
    styles = plotting.Styles()
    for data, cpi, dashed in ((cpi1, "cpi 1", False), (tpc, "cpi = threads per core", True)):
        plotting.lines(ax, [((a, cpi), f"{a}, {cpi}", pts) for a, pts in data.items()], styles,
                       dashed)
    plotting.log2_x(ax, [h for pts in cpi1.values() for h, _ in pts])
    plotting.log10_y(ax)
    ax.set_xlabel("harts in the ring")
    ax.set_ylabel("modelled cycles per barrier")
    plotting.microseconds_axis(ax, mhz)
    plotting.legend(fig, [ax], notes=["back to back: ~2 hops per hart", "(flit round the ring",
                                      " + release)"])
    plotting.save(fig, out)


if __name__ == "__main__":
    main()
