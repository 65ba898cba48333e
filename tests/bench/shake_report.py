#!/usr/bin/python3
"""The parallel SHAKE bench's report (tests/bench/shake.sh): the convergence check's share of
each SHAKE iteration against the ring size, per ACWT method, beside the published expectation
(about 40% at 64 processors with messages; negligible with the open-collector bus). Writes
shake.svg (plotting.py) and shake-summary.txt (printed too).

usage: shake_report.py <bench dir> <particles> <molecule shape> <steps>
"""
import csv
import math
import os
import sys

import plotting

METHODS = {"ring2": "one message twice around", "ringp": "P messages once around",
           "ocbus": "open-collector bus"}
CPIS = {"1": "shake.csv", "threads per core": "shake-cpi-tpc.csv"}
PUBLISHED = (64, 0.40)  # ring size, check share: the published expectation with messages


def read(path):
    rows = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            rows[(int(r["ring"]), r["method"])] = r
    return rows


def crossing(points, level):
    """The ring size (log-2 interpolated) where the share first reaches `level`, or None."""
    for (p0, s0), (p1, s1) in zip(points, points[1:]):
        if s0 < level <= s1:
            f = (level - s0) / (s1 - s0)
            return 2 ** (math.log2(p0) + f * (math.log2(p1) - math.log2(p0)))
    return None


def plot(out, series, rings):
    mhz = plotting.default_clock_mhz()
    fig, (ax,) = plotting.figure("Parallel SHAKE: the convergence check's share of each iteration "
                                 f"(modelled cycles; modelled at {mhz} MHz)", width=7.4)
    styles = plotting.Styles(series)
    for (method, cpi), pts in series.items():
        label = f"{method}, cpi {cpi}" if cpi == "1" else f"{method}, cpi = {cpi}"
        plotting.lines(ax, [((method, cpi), label, [(p, 100 * v) for p, v in pts])], styles,
                       dashed=cpi != "1")
    ax.plot([PUBLISHED[0]], [100 * PUBLISHED[1]], linestyle="none", marker="*", markersize=13,
            color="black", label=f"published: ~{100 * PUBLISHED[1]:.0f}% at {PUBLISHED[0]}, "
                                 "with messages")
    plotting.log2_x(ax, rings)
    ax.set_ylim(0, 100)
    ax.yaxis.set_major_formatter(plotting.ticker.PercentFormatter())
    ax.set_xlabel("threads in the ring")
    ax.set_ylabel("check / (compute + check), modelled cycles")
    plotting.legend(fig, [ax], notes=[f"{m}: {label}" for m, label in METHODS.items()])
    plotting.save(fig, out)


def main():
    out_dir, particles, shape, steps = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    data = {cpi: read(os.path.join(out_dir, name)) for cpi, name in CPIS.items()}
    rings = sorted({p for p, _ in data["1"]})
    lines = [f"Parallel SHAKE, {shape} of {particles} particles, {steps} steps: modelled cycles "
             "per iteration on the critical path (compute + check = check share)."]
    series = {}
    for cpi, rows in data.items():
        lines.append("")
        lines.append(f"cpi {cpi}:")
        lines.append("  ring  " + "".join(f"{m:>28}" for m in METHODS))
        for p in rings:
            cells = ""
            for m in METHODS:
                r = rows[(p, m)]
                share = float(r["check_share"])
                cells += f"{float(r['compute_cycles']):>10.0f} +{float(r['check_cycles']):>8.0f} = {100 * share:5.1f}%"
                series.setdefault((m, cpi), []).append((p, share))
            lines.append(f"  {p:>4}  {cells}")
        iterations = {rows[(p, m)]["iterations"] for p in rings for m in METHODS}
        lines.append(f"  iterations, every ring and method: {', '.join(sorted(iterations))}")
    lines.append("")
    ones = data["1"]
    for m in ("ring2", "ringp"):
        at = crossing(series[(m, "1")], PUBLISHED[1])
        per_hop = [float(ones[(p, m)]["check_cycles"]) / p for p in rings]
        lines.append(f"{m}: the check costs {min(per_hop):.0f} to {max(per_hop):.0f} cycles per "
                     f"thread of the ring; its share reaches 40% at "
                     f"{'about %.0f threads' % at if at else 'no ring measured'} "
                     f"(published: about 64 processors).")
    bus = [float(ones[(p, "ocbus")]["check_cycles"]) for p in rings]
    worst = max(float(ones[(p, "ocbus")]["check_share"]) for p in rings)
    lines.append(f"ocbus: the check costs {min(bus):.0f} to {max(bus):.0f} cycles whatever the "
                 f"ring (3 settle times and the driver), at most {100 * worst:.1f}% of an "
                 "iteration: negligible, as published.")
    per_particle = [float(ones[(p, "ocbus")]["compute_cycles"]) * p / particles for p in rings]
    lines.append(f"Compute: {min(per_particle):.0f} to {max(per_particle):.0f} cycles per particle "
                 "per iteration, spread over the ring; the share with messages is "
                 "(cycles per thread x P) / (that + compute), so it doubles roughly every time P "
                 "doubles while it is small.")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out_dir, "shake-summary.txt"), "w") as f:
        f.write(text)
    print(text, end="")
    plot(os.path.join(out_dir, "shake.svg"), series, rings)
    print(f"wrote {out_dir}/shake.csv, shake-cpi-tpc.csv, shake-host.csv, shake.svg, "
          "shake-summary.txt")


if __name__ == "__main__":
    main()
