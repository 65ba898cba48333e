#!/usr/bin/python3
"""Plots the reflex benchmark as an SVG: modelled cycles per reflex barrier against the number of
harts (both axes log 2), one line per arrival (simultaneous, jittered) and cpi (1 solid,
threads per core dashed). Standard library only.

usage: reflex_plot.py <reflex.csv> <reflex-cpi-tpc.csv> <out.svg>
"""
import csv
import math
import sys

COLOURS = {"simultaneous": "#1f77b4", "jittered": "#d62728"}
W, H = 820, 520
LEFT, RIGHT, TOP, BOTTOM = 80, 220, 50, 60


def read(path):
    lines = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            lines.setdefault(r["arrival"], []).append((int(r["harts"]), float(r["cycles_per_op"])))
    return lines


def main():
    cpi1, tpc, out = read(sys.argv[1]), read(sys.argv[2]), sys.argv[3]
    series = [(a, pts, "") for a, pts in cpi1.items()] + [(a, pts, "6 4") for a, pts in tpc.items()]
    xs = sorted({h for _, pts, _ in series for h, _ in pts})
    ys = [v for _, pts, _ in series for _, v in pts]
    xlo, xhi = math.log2(min(xs)), math.log2(max(xs))
    ylo, yhi = math.floor(math.log2(min(ys))), math.ceil(math.log2(max(ys)))

    def px(h):
        return LEFT + (W - LEFT - RIGHT) * (math.log2(h) - xlo) / max(xhi - xlo, 1)

    def py(v):
        return TOP + (H - TOP - BOTTOM) * (1 - (math.log2(v) - ylo) / max(yhi - ylo, 1))

    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{(LEFT + W - RIGHT) / 2}" y="24" text-anchor="middle" font-size="15">reflex barrier: modelled cycles per barrier (B 4, 1 cycle per hop)</text>']
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
    s.append(f'<text x="{(LEFT + W - RIGHT) / 2}" y="{H - 18}" text-anchor="middle">harts in the ring (log 2)</text>')
    s.append(f'<text x="18" y="{(TOP + H - BOTTOM) / 2}" text-anchor="middle" transform="rotate(-90 18 {(TOP + H - BOTTOM) / 2})">cycles per barrier (log 2)</text>')
    for arrival, pts, dash in series:
        pts = sorted(pts)
        path = " ".join(f"{px(h):.1f},{py(v):.1f}" for h, v in pts)
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        s.append(f'<polyline points="{path}" fill="none" stroke="{COLOURS[arrival]}" stroke-width="2"{extra}/>')
        for h, v in pts:
            s.append(f'<circle cx="{px(h):.1f}" cy="{py(v):.1f}" r="3" fill="{COLOURS[arrival]}"/>')
    lx, ly = W - RIGHT + 20, TOP + 10
    for i, (label, colour, dash) in enumerate([
            ("simultaneous, cpi 1", COLOURS["simultaneous"], ""),
            ("jittered, cpi 1", COLOURS["jittered"], ""),
            ("simultaneous, cpi = tpc", COLOURS["simultaneous"], "6 4"),
            ("jittered, cpi = tpc", COLOURS["jittered"], "6 4")]):
        y = ly + 20 * i
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        s.append(f'<line x1="{lx}" y1="{y}" x2="{lx + 24}" y2="{y}" stroke="{colour}" stroke-width="2"{extra}/>')
        s.append(f'<text x="{lx + 30}" y="{y + 4}">{label}</text>')
    s.append(f'<text x="{lx}" y="{ly + 100}" font-size="11">back to back: ~2 hops per hart</text>')
    s.append(f'<text x="{lx}" y="{ly + 114}" font-size="11">(flit round the ring + release)</text>')
    s.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(s) + "\n")


if __name__ == "__main__":
    main()
