#!/usr/bin/python3
"""Plots the open-collector bus benchmark as an SVG: modelled cycles per operation against the
number of harts (both axes logarithmic), one line per operation (ACWT, arbitration, barrier) and
arrival (simultaneous solid, jittered dashed); cpi 1 on the left, cpi = threads per core on the
right.

usage: ocbus_plot.py <ocbus.csv> <ocbus-cpi-tpc.csv> <out.svg>
"""
import csv
import sys

import plotting

OPERATIONS = ["acwt", "arbitration", "ocbus_barrier"]
ARRIVALS = ["simultaneous", "jittered"]


def read(path):
    series = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = (r["operation"], r["arrival"])
            series.setdefault(key, []).append((int(r["harts"]), float(r["cycles_per_op"])))
    return series


def main():
    mhz = plotting.default_clock_mhz()
    fig, axes = plotting.figure("Open-collector bus: modelled cycles per operation "
                                f"(settle 10 cycles; modelled at {mhz} MHz)", panels=2)
    styles = plotting.Styles((op, a) for op in OPERATIONS for a in ARRIVALS)
    for ax, path, cpi in zip(axes, sys.argv[1:3], ("cpi 1", "cpi = threads per core")):
        data = read(path)
        for op in OPERATIONS:
            for arrival in ARRIVALS:
                if (op, arrival) in data:
                    plotting.lines(ax, [((op, arrival), f"{op}, {arrival}", data[(op, arrival)])],
                                   styles, dashed=arrival == "jittered")
        plotting.log2_x(ax, [h for pts in data.values() for h, _ in pts])
        ax.set_title(cpi)
        ax.set_xlabel("harts")
    plotting.log10_y(axes[0])
    axes[0].set_ylabel("modelled cycles per operation")
    plotting.microseconds_axis(axes[-1], mhz)
    plotting.legend(fig, axes)
    plotting.save(fig, sys.argv[3])


if __name__ == "__main__":
    main()
