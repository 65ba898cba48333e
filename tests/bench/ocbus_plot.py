#!/usr/bin/python3
"""Plots the open-collector bus benchmark as an SVG: modelled cycles per operation against the
number of harts (both axes log 2), one colour per operation (ACWT, arbitration, barrier), solid
for simultaneous arrival and dashed for jittered, at cpi 1 (the cpi = threads per core CSV is
the same shape, higher). Standard library only.

usage: ocbus_plot.py <ocbus.csv> <ocbus-cpi-tpc.csv> <out.svg>
"""
import csv
import sys

from loglog_svg import plot

COLOURS = {"acwt": "#1f77b4", "arbitration": "#2ca02c", "ocbus_barrier": "#d62728"}
DASH = {"simultaneous": "", "jittered": "6 4"}


def main():
    series = {}
    with open(sys.argv[1], newline="") as f:
        for r in csv.DictReader(f):
            key = (r["operation"], r["arrival"])
            series.setdefault(key, []).append((int(r["harts"]), float(r["cycles_per_op"])))
    plot(sys.argv[3], "open-collector bus: modelled cycles per operation (cpi 1, settle 10)",
         "harts (log 2)", "cycles per operation (log 2)",
         [(pts, COLOURS[op], DASH[arrival]) for (op, arrival), pts in sorted(series.items())],
         [(f"{op}, {arrival}", COLOURS[op], DASH[arrival]) for op in COLOURS for arrival in DASH])


if __name__ == "__main__":
    main()
