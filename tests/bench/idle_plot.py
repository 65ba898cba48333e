#!/usr/bin/python3
"""Plots build/bench/idle.csv as an SVG: round trips per modelled second against the number of
boards, one line per method (16 threads per board), the hardware estimates dashed, and the
2x3-board runs at 1,024 threads per board as open markers. Standard library only.

usage: idle_plot.py <idle.csv> <out.svg>
"""
import csv
import math
import sys

COLOURS = {
    "hw-origin": "#1f77b4",
    "hw-centre": "#2ca02c",
    "sw-clocktree": "#d62728",
    "sw-safra": "#9467bd",
}
W, H = 860, 540
LEFT, RIGHT, TOP, BOTTOM = 80, 250, 50, 60


def main():
    src, out = sys.argv[1], sys.argv[2]
    with open(src, newline="") as f:
        rows = list(csv.DictReader(f))
    sweep, reference = {}, {}
    estimates = {"hw-origin": {}, "hw-centre": {}}
    for r in rows:
        boards = int(r["boards_x"]) * int(r["boards_y"])
        per_board = int(r["threads"]) // boards
        rate = float(r["round_trips_per_s"])
        target = sweep if per_board <= 64 else reference
        target.setdefault(r["method"], []).append((boards, rate, r["boards_x"] + "x" + r["boards_y"]))
        if r["estimate_per_s"] and per_board <= 64:
            estimates[r["method"]][boards] = float(r["estimate_per_s"])
    values = [v for pts in list(sweep.values()) + list(reference.values()) for _, v, _ in pts]
    values += [v for e in estimates.values() for v in e.values()]
    lo = 10 ** math.floor(math.log10(min(values)))
    hi = 10 ** math.ceil(math.log10(max(values)))
    xs = sorted({b for pts in sweep.values() for b, _, _ in pts} | {b for pts in reference.values() for b, _, _ in pts})
    xmax = max(xs)

    def px(boards):
        return LEFT + (W - LEFT - RIGHT) * boards / xmax

    def py(v):
        return TOP + (H - TOP - BOTTOM) * (1 - (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)))

    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{W / 2 - 60}" y="24" text-anchor="middle" font-size="15">idle synchronisation: round trips per modelled second (240 MHz, L = 150)</text>']
    # Axes and grid.
    e = int(math.log10(lo))
    while 10 ** e <= hi:
        y = py(10 ** e)
        s.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{W - RIGHT}" y2="{y:.1f}" stroke="#ddd"/>')
        s.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">1e{e}</text>')
        e += 1
    for b in xs:
        x = px(b)
        s.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{H - BOTTOM}" stroke="#eee"/>')
        s.append(f'<text x="{x:.1f}" y="{H - BOTTOM + 16}" text-anchor="middle">{b}</text>')
    s.append(f'<line x1="{LEFT}" y1="{H - BOTTOM}" x2="{W - RIGHT}" y2="{H - BOTTOM}" stroke="black"/>')
    s.append(f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{H - BOTTOM}" stroke="black"/>')
    s.append(f'<text x="{(LEFT + W - RIGHT) / 2}" y="{H - 18}" text-anchor="middle">boards (meshes 1x1 2x3 3x4 4x6 6x6 6x8)</text>')
    s.append(f'<text x="18" y="{(TOP + H - BOTTOM) / 2}" text-anchor="middle" transform="rotate(-90 18 {(TOP + H - BOTTOM) / 2})">round trips / s (log)</text>')
    # Estimates, dashed.
    for method, est in estimates.items():
        pts = sorted(est.items())
        if len(pts) > 1:
            path = " ".join(f"{px(b):.1f},{py(v):.1f}" for b, v in pts)
            s.append(f'<polyline points="{path}" fill="none" stroke="{COLOURS[method]}" stroke-dasharray="6 4" stroke-width="1.5"/>')
    # Measured sweep, solid with dots.
    for method, pts in sweep.items():
        pts = sorted(pts)
        path = " ".join(f"{px(b):.1f},{py(v):.1f}" for b, v, _ in pts)
        s.append(f'<polyline points="{path}" fill="none" stroke="{COLOURS[method]}" stroke-width="2"/>')
        for b, v, _ in pts:
            s.append(f'<circle cx="{px(b):.1f}" cy="{py(v):.1f}" r="3.5" fill="{COLOURS[method]}"/>')
    # 1,024 threads per board: open squares.
    for method, pts in reference.items():
        for b, v, _ in pts:
            s.append(f'<rect x="{px(b) - 5:.1f}" y="{py(v) - 5:.1f}" width="10" height="10" fill="none" stroke="{COLOURS[method]}" stroke-width="2"/>')
    # Legend.
    lx, ly = W - RIGHT + 20, TOP + 10
    for i, method in enumerate(COLOURS):
        y = ly + 20 * i
        s.append(f'<line x1="{lx}" y1="{y}" x2="{lx + 24}" y2="{y}" stroke="{COLOURS[method]}" stroke-width="2"/>')
        s.append(f'<text x="{lx + 30}" y="{y + 4}">{method}</text>')
    y = ly + 20 * len(COLOURS) + 10
    for method in estimates:
        s.append(f'<line x1="{lx}" y1="{y}" x2="{lx + 24}" y2="{y}" stroke="{COLOURS[method]}" stroke-dasharray="6 4" stroke-width="1.5"/>')
        s.append(f'<text x="{lx + 30}" y="{y + 4}">estimate ({method})</text>')
        y += 20
    y += 10
    s.append(f'<circle cx="{lx + 12}" cy="{y}" r="3.5" fill="#555"/>')
    s.append(f'<text x="{lx + 30}" y="{y + 4}">16 threads/board</text>')
    y += 20
    s.append(f'<rect x="{lx + 7}" y="{y - 5}" width="10" height="10" fill="none" stroke="#555" stroke-width="2"/>')
    s.append(f'<text x="{lx + 30}" y="{y + 4}">2x3 boards, 1,024/board</text>')
    y += 30
    s.append(f'<text x="{lx}" y="{y}" font-size="11">hw: 3 round trips per sync;</text>')
    s.append(f'<text x="{lx}" y="{y + 14}" font-size="11">software: waves / laps</text>')
    s.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(s) + "\n")


if __name__ == "__main__":
    main()
