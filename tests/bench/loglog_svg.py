"""A log-2 by log-2 line chart as SVG, for the benchmark plots (standard library only).

plot(out, title, xlabel, ylabel, series, legend, notes=()):
  series: (points [(x, y)], colour, dash) per line; dash "" for a solid line.
  legend: (label, colour, dash) per legend entry; notes: lines of small text under the legend.
"""
import math

W, H = 820, 520
LEFT, RIGHT, TOP, BOTTOM = 80, 230, 50, 60


def plot(out, title, xlabel, ylabel, series, legend, notes=()):
    xs = sorted({x for pts, _, _ in series for x, _ in pts})
    ys = [y for pts, _, _ in series for _, y in pts]
    xlo, xhi = math.log2(min(xs)), math.log2(max(xs))
    ylo, yhi = math.floor(math.log2(min(ys))), math.ceil(math.log2(max(ys)))

    def px(x):
        return LEFT + (W - LEFT - RIGHT) * (math.log2(x) - xlo) / max(xhi - xlo, 1)

    def py(y):
        return TOP + (H - TOP - BOTTOM) * (1 - (math.log2(y) - ylo) / max(yhi - ylo, 1))

    def stroke(colour, dash):
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        return f'stroke="{colour}" stroke-width="2"{extra}'

    mid_x, mid_y = (LEFT + W - RIGHT) / 2, (TOP + H - BOTTOM) / 2
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{mid_x}" y="24" text-anchor="middle" font-size="15">{title}</text>']
    for e in range(ylo, yhi + 1):
        y = py(2 ** e)
        s.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{W - RIGHT}" y2="{y:.1f}" stroke="#ddd"/>')
        s.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{2 ** e}</text>')
    for x in xs:
        sx = px(x)
        s.append(f'<line x1="{sx:.1f}" y1="{TOP}" x2="{sx:.1f}" y2="{H - BOTTOM}" stroke="#eee"/>')
        s.append(f'<text x="{sx:.1f}" y="{H - BOTTOM + 16}" text-anchor="middle">{x}</text>')
    s.append(f'<line x1="{LEFT}" y1="{H - BOTTOM}" x2="{W - RIGHT}" y2="{H - BOTTOM}" stroke="black"/>')
    s.append(f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{H - BOTTOM}" stroke="black"/>')
    s.append(f'<text x="{mid_x}" y="{H - 18}" text-anchor="middle">{xlabel}</text>')
    s.append(f'<text x="18" y="{mid_y}" text-anchor="middle" transform="rotate(-90 18 {mid_y})">{ylabel}</text>')
    for pts, colour, dash in series:
        pts = sorted(pts)
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)
        s.append(f'<polyline points="{path}" fill="none" {stroke(colour, dash)}/>')
        for x, y in pts:
            s.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{colour}"/>')
    lx, ly = W - RIGHT + 20, TOP + 10
    for i, (label, colour, dash) in enumerate(legend):
        y = ly + 20 * i
        s.append(f'<line x1="{lx}" y1="{y}" x2="{lx + 24}" y2="{y}" {stroke(colour, dash)}/>')
        s.append(f'<text x="{lx + 30}" y="{y + 4}">{label}</text>')
    for i, note in enumerate(notes):
        s.append(f'<text x="{lx}" y="{ly + 20 * len(legend) + 20 + 14 * i}" font-size="11">{note}</text>')
    s.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(s) + "\n")
