#!/usr/bin/python3
"""Plots the open-collector bus benchmark as an SVG: modelled cycles per operation against the
number of harts (both axes log 2), one colour per operation (ACWT, arbitration, barrier), solid
for simultaneous arrival and dashed for jittered, at cpi 1 (the cpi = threads per core CSV is
the same shape, higher). Standard library only.

usage: ocbus_plot.py <ocbus.csv> <ocbus-cpi-tpc.csv> <out.svg>
"""
import csv
import math
import sys

COLOURS = {"acwt": "#1f77b4", "arbitration": "#2ca02c", "ocbus_barrier": "#d62728"}
DASH = {"simultaneous": "", "jittered": "6 4"}
W, H = 820, 520
LEFT, RIGHT, TOP, BOTTOM = 80, 230, 50, 60


def read(path):
    series = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = (r["operation"], r["arrival"])
            series.setdefault(key, []).append((int(r["harts"]), float(r["cycles_per_op"])))
    return series


def main():
    series, out = read(sys.argv[1]), sys.argv[3]
    xs = sorted({h for pts in series.values() for h, _ in pts})
    ys = [v for pts in series.values() for _, v in pts]
    xlo, xhi = math.log2(min(xs)), math.log2(max(xs))
    ylo, yhi = math.floor(math.log2(min(ys))), math.ceil(math.log2(max(ys)))

    def px(h):
        return LEFT + (W - LEFT - RIGHT) * (math.log2(h) - xlo) / max(xhi - xlo, 1)

    def py(v):
        return TOP + (H - TOP - BOTTOM) * (1 - (math.log2(v) - ylo) / max(yhi - ylo, 1))

    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{(LEFT + W - RIGHT) / 2}" y="24" text-anchor="middle" font-size="15">open-collector bus: modelled cycles per operation (cpi 1, settle 10)</text>']
    for e in range(ylo, yhi + 1):
        y = py(2 ** e)
        s.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{W - RIGHT}" y2="{y:.1f}" stroke="#ddd"/>')
        s.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{2 ** e}</text>')
    for h in xs:
        x = px(h)
        s.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{H - BOTTOM}" stroke="#eee"/>')
        s.append(f'<text x="{x:.1f}" y="{H - BOTTOM + 16}" text-anchor="middle">{h}</text>')
    s.append(f'<line x1="{LEFT}" y1="{H - BOTTOM}" x2="{W - RIGHT}" y2="{H - BOTTOM}" stroke="black"/>')
    s.append(f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{H - BOTTOM}" stroke="black"/>')
    s.append(f'<text x="{(LEFT + W - RIGHT) / 2}" y="{H - 18}" text-anchor="middle">harts (log 2)</text>')
    s.append(f'<text x="18" y="{(TOP + H - BOTTOM) / 2}" text-anchor="middle" transform="rotate(-90 18 {(TOP + H - BOTTOM) / 2})">cycles per operation (log 2)</text>')
    for (op, arrival), pts in sorted(series.items()):
        pts = sorted(pts)
        path = " ".join(f"{px(h):.1f},{py(v):.1f}" for h, v in pts)
        dash = DASH[arrival]
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        s.append(f'<polyline points="{path}" fill="none" stroke="{COLOURS[op]}" stroke-width="2"{extra}/>')
        for h, v in pts:
            s.append(f'<circle cx="{px(h):.1f}" cy="{py(v):.1f}" r="3" fill="{COLOURS[op]}"/>')
    lx, ly = W - RIGHT + 20, TOP + 10
    i = 0
    for op in COLOURS:
        for arrival in DASH:
            y = ly + 20 * i
            extra = f' stroke-dasharray="{DASH[arrival]}"' if DASH[arrival] else ""
            s.append(f'<line x1="{lx}" y1="{y}" x2="{lx + 24}" y2="{y}" stroke="{COLOURS[op]}" stroke-width="2"{extra}/>')
            s.append(f'<text x="{lx + 30}" y="{y + 4}">{op}, {arrival}</text>')
            i += 1
    s.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(s) + "\n")


if __name__ == "__main__":
    main()
