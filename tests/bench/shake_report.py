#!/usr/bin/python3
"""The parallel SHAKE bench's report (tests/bench/shake.sh): the convergence check's share of
each SHAKE iteration against the ring size, per ACWT method, beside the published expectation
(about 40% at 64 processors with messages; negligible with the open-collector bus). Writes
shake.svg and shake-summary.txt (printed too). Standard library only.

usage: shake_report.py <bench dir> <particles> <molecule shape> <steps>
"""
import csv
import math
import os
import sys

METHODS = {"ring2": ("#d62728", "one message twice around"),
           "ringp": ("#ff7f0e", "P messages once around"),
           "ocbus": ("#1f77b4", "open-collector bus")}
CPIS = {"1": ("shake.csv", ""), "threads per core": ("shake-cpi-tpc.csv", "6 4")}
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
    W, H, L, R, T, B = 820, 500, 70, 250, 50, 60
    xlo, xhi = math.log2(min(rings)), math.log2(max(rings))

    def px(x):
        return L + (W - L - R) * (math.log2(x) - xlo) / max(xhi - xlo, 1)

    def py(share):
        return T + (H - T - B) * (1 - share)

    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
         'font-family="sans-serif" font-size="12">',
         '<rect width="100%" height="100%" fill="white"/>',
         f'<text x="{W / 2 - 60}" y="24" text-anchor="middle" font-size="14">parallel SHAKE: '
         'the convergence check\'s share of each iteration</text>']
    for k in range(0, 11, 2):
        y = py(k / 10)
        s.append(f'<line x1="{L}" y1="{y}" x2="{W - R}" y2="{y}" stroke="#ddd"/>')
        s.append(f'<text x="{L - 8}" y="{y + 4}" text-anchor="end">{k * 10}%</text>')
    for p in rings:
        s.append(f'<line x1="{px(p)}" y1="{T}" x2="{px(p)}" y2="{H - B}" stroke="#eee"/>')
        s.append(f'<text x="{px(p)}" y="{H - B + 18}" text-anchor="middle">{p}</text>')
    s.append(f'<text x="{(L + W - R) / 2}" y="{H - 16}" text-anchor="middle">threads in the '
             'ring (log 2)</text>')
    s.append(f'<text x="18" y="{(T + H - B) / 2}" text-anchor="middle" '
             f'transform="rotate(-90 18 {(T + H - B) / 2})">check / (compute + check)</text>')
    for (method, cpi), pts in series.items():
        colour, dash = METHODS[method][0], CPIS[cpi][1]
        d = " ".join(f"{px(p):.1f},{py(v):.1f}" for p, v in pts)
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        s.append(f'<polyline points="{d}" fill="none" stroke="{colour}" stroke-width="2"{extra}/>')
        for p, v in pts:
            s.append(f'<circle cx="{px(p):.1f}" cy="{py(v):.1f}" r="3" fill="{colour}"/>')
    x, y = px(PUBLISHED[0]), py(PUBLISHED[1])
    s.append(f'<path d="M{x - 7},{y} L{x},{y - 7} L{x + 7},{y} L{x},{y + 7} Z" fill="none" '
             'stroke="black" stroke-width="2"/>')
    ly = T + 10
    for method, (colour, label) in METHODS.items():
        for cpi, (_, dash) in CPIS.items():
            extra = f' stroke-dasharray="{dash}"' if dash else ""
            s.append(f'<line x1="{W - R + 15}" y1="{ly}" x2="{W - R + 45}" y2="{ly}" '
                     f'stroke="{colour}" stroke-width="2"{extra}/>')
            s.append(f'<text x="{W - R + 52}" y="{ly + 4}">{method}, cpi {cpi}</text>')
            ly += 20
    s.append(f'<path d="M{W - R + 23},{ly} L{W - R + 30},{ly - 7} L{W - R + 37},{ly} '
             f'L{W - R + 30},{ly + 7} Z" fill="none" stroke="black" stroke-width="2"/>')
    s.append(f'<text x="{W - R + 52}" y="{ly + 4}">published: ~40% at 64,</text>')
    s.append(f'<text x="{W - R + 52}" y="{ly + 20}">with messages</text>')
    s.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(s) + "\n")


def main():
    out_dir, particles, shape, steps = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    data = {cpi: read(os.path.join(out_dir, name)) for cpi, (name, _) in CPIS.items()}
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
