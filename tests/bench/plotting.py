"""The benchmark plots' one look (tests/bench/*_plot.py, *_report.py, scale.py): matplotlib on the
Agg backend, written as SVG that is byte for byte the same for the same data (a fixed hash salt
for the element ids, no date).

Every series gets its own colour and marker, the same one in every panel of a figure; figures
of modelled time state the modelled clock, and can show a second axis in modelled
microseconds beside the cycles. The benches run at the machine's default clock, read here from
the machine description (hal/include/tessera/hw/machine_params.h) unless a bench says otherwise.
"""
import os
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import ticker  # noqa: E402

plt.rcParams.update({
    "svg.hashsalt": "tessera-bench",
    "svg.fonttype": "none",  # text stays text: smaller, searchable, no glyph outlines
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.titlesize": 10,
    "figure.titlesize": 11,
    "axes.grid": True,
    "axes.grid.which": "major",
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.axisbelow": True,
    "legend.frameon": False,
    "legend.fontsize": 8,
    "lines.linewidth": 1.5,
    "lines.markersize": 5,
})

COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf", "#000000", "#393b79", "#637939", "#e7ba52",
           "#a55194", "#843c39"]
MARKERS = ["o", "s", "^", "v", "D", "<", ">", "p", "h", "*", "X", "P", "d", "8", "H", "x"]

_MACHINE_PARAMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "hal",
                               "include", "tessera", "hw", "machine_params.h")


def default_clock_mhz():
    """The machine's default modelled clock (clock-mhz) in MHz, from the machine description."""
    with open(_MACHINE_PARAMS) as f:
        m = re.search(r'X\(clock_mhz, "clock-mhz",\s*\d+,\s*\d+,\s*\d+,\s*(\d+),', f.read())
    return int(m.group(1))


class Styles:
    """A colour and a marker per series key, in order of first use; never two keys alike."""

    def __init__(self, keys=()):
        self._of = {}
        for k in keys:
            self[k]

    def __getitem__(self, key):
        if key not in self._of:
            i = len(self._of)
            if i >= len(COLOURS):
                raise ValueError(f"more than {len(COLOURS)} series: {key}")
            self._of[key] = {"color": COLOURS[i], "marker": MARKERS[i]}
        return self._of[key]


def figure(title, panels=1, width=None, height=3.6, sharey=True):
    """A figure of `panels` axes side by side, with its title; returns (fig, [axes])."""
    fig, axes = plt.subplots(1, panels, figsize=(width or 3.6 + 3.4 * panels, height),
                             sharey=sharey, squeeze=False, layout="constrained")
    fig.suptitle(title)
    return fig, list(axes[0])


def _plain(value, _pos=None):
    return f"{value:,.0f}" if value >= 1 else f"{value:g}"


def log2_x(ax, values):
    """A log-2 x axis with a labelled tick at each of `values` (e.g. the harts measured)."""
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(ticker.FixedLocator(sorted(set(values))))
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(_plain))
    ax.xaxis.set_minor_locator(ticker.NullLocator())
    ax.tick_params(axis="x", labelrotation=0)
    for label in ax.get_xticklabels():
        label.set_fontsize(8 if len(set(values)) < 10 else 7)


def _log10_ticks(axis, lo, hi):
    subs = (1.0, 2.0, 5.0) if hi / lo < 1e3 else (1.0,)
    axis.set_major_locator(ticker.LogLocator(base=10, subs=subs))
    axis.set_major_formatter(ticker.FuncFormatter(_plain))
    axis.set_minor_formatter(ticker.NullFormatter())


def log10_y(ax):
    """A log-10 y axis with plain numbers; 1-2-5 steps when it spans under three decades."""
    ax.set_yscale("log")
    _log10_ticks(ax.yaxis, *ax.get_ylim())


def lines(ax, series, styles, dashed=False, **extra):
    """Draws series = [(key, label, [(x, y)])], each in its key's colour and marker."""
    for key, label, points in series:
        xs, ys = zip(*sorted(points))
        ax.plot(xs, ys, label=label, linestyle="--" if dashed else "-", **styles[key], **extra)


def microseconds_axis(ax, mhz, label="modelled µs"):
    """A second y axis on the right: the same modelled cycles in microseconds at `mhz`."""
    ax.spines["right"].set_visible(False)
    sec = ax.secondary_yaxis("right", functions=(lambda c: c / mhz, lambda us: us * mhz))
    sec.set_ylabel(f"{label} at {mhz} MHz")
    if ax.get_yscale() == "log":
        _log10_ticks(sec.yaxis, *ax.get_ylim())
    return sec


def legend(fig, axes, title=None, notes=()):
    """One legend for the figure, right of the panels, from every labelled artist (first
    occurrence of each label), with lines of notes under it."""
    handles, labels = [], []
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    for note in ([""] if notes else []) + list(notes):
        handles.append(matplotlib.lines.Line2D([], [], linestyle="none"))
        labels.append(note)
    fig.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.0, 0.92), title=title,
               alignment="left")


def save(fig, out):
    """Writes the figure as deterministic SVG (or PNG, by the name's ending) and closes it."""
    fig.savefig(out, metadata={"Date": None} if out.endswith(".svg") else None, dpi=120,
                bbox_inches="tight", pad_inches=0.1)
    plt.close(fig)
