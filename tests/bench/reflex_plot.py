#!/usr/bin/python3
"""Plots the reflex benchmark as an SVG: modelled cycles per reflex barrier against the number of
harts (both axes log 2), one line per arrival (simultaneous, jittered) and cpi (1 solid,
threads per core dashed). Standard library only.

usage: reflex_plot.py <reflex.csv> <reflex-cpi-tpc.csv> <out.svg>
"""
import csv
import sys

from loglog_svg import plot

COLOURS = {"simultaneous": "#1f77b4", "jittered": "#d62728"}


def read(path):
    lines = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            lines.setdefault(r["arrival"], []).append((int(r["harts"]), float(r["cycles_per_op"])))
    return lines


def main():
    cpi1, tpc, out = read(sys.argv[1]), read(sys.argv[2]), sys.argv[3]
    series = [(pts, COLOURS[a], "") for a, pts in cpi1.items()] + \
             [(pts, COLOURS[a], "6 4") for a, pts in tpc.items()]
    legend = [("simultaneous, cpi 1", COLOURS["simultaneous"], ""),
              ("jittered, cpi 1", COLOURS["jittered"], ""),
              ("simultaneous, cpi = tpc", COLOURS["simultaneous"], "6 4"),
              ("jittered, cpi = tpc", COLOURS["jittered"], "6 4")]
    plot(out, "reflex barrier: modelled cycles per barrier (B 4, 1 cycle per hop)",
         "harts in the ring (log 2)", "cycles per barrier (log 2)", series, legend,
         ["back to back: ~2 hops per hart", "(flit round the ring + release)"])


if __name__ == "__main__":
    main()
