#!/usr/bin/python3
"""The barrier benchmark's report (tests/bench/barrier.sh): reads the time-stamped guest output
of apps/barrier_bench at cpi 1 and 4 (barrier_cpi1.log, barrier_cpi4.log), writes the CSVs, one
SVG per arrival pattern (plotting.py) and the closing summary.

usage: barrier_report.py <build/bench>
"""
import csv
import os
import re
import sys

import plotting

COLUMNS = ["algorithm", "p", "arrival", "cycles_per_episode", "messages_per_episode",
           "predicted_cycles", "host_s_per_episode", "chosen"]
HARDWARE = ["idle", "ocbus", "reflex", "controller"]
NOT_SOFTWARE = HARDWARE + ["auto", "delay-only"]


def parse(path):
    """Rows of one run, and the calibration figures."""
    begins, rows, calibration = {}, [], {}
    for line in open(path):
        stamp, _, text = line.rstrip("\n").partition(" ")
        fields = dict(re.findall(r"(\w+)=(\S+)", text))
        if "barrier-bench: begin" in text:
            begins[(fields["name"], fields["p"], fields["arrival"])] = float(stamp)
        elif "barrier-bench: calibration" in text:
            for key in ("send_cycles", "receive_cycles"):
                if key in fields:
                    calibration[key] = int(fields[key]) / int(fields["count"])
        elif "barrier-bench: name=" in text:
            key = (fields["name"], fields["p"], fields["arrival"])
            episodes = int(fields["episodes"])
            cycles = int(fields["cycles"]) / episodes
            if fields["arrival"] == "jittered" and fields["name"] == "central":
                # The reference row: the latest arrival's delay alone, once per P.
                rows.append({
                    "algorithm": "delay-only", "chosen": "", "p": int(fields["p"]),
                    "arrival": "jittered",
                    "cycles_per_episode": round(int(fields["jitter_cycles"]) / episodes, 1),
                    "messages_per_episode": 0, "predicted_cycles": 0,
                    "host_s_per_episode": 0})
            rows.append({
                "algorithm": fields["name"], "chosen": fields["chosen"], "p": int(fields["p"]),
                "arrival": fields["arrival"], "cycles_per_episode": round(cycles, 1),
                "messages_per_episode": round(int(fields["messages"]) / episodes, 2),
                "predicted_cycles": int(fields["predicted"]),
                "host_s_per_episode": round((float(stamp) - begins[key]) / episodes, 6)})
    return rows, calibration


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)


def svg(path, runs, arrival):
    """Modelled cycles per episode against P, one panel per cpi, a colour and marker per barrier
    (the same in every panel and in both arrivals' figures)."""
    mhz = plotting.default_clock_mhz()
    fig, axes = plotting.figure(f"Barriers, {arrival} arrival: modelled cycles per episode "
                                f"(groups of the 256-hart mesh; modelled at {mhz} MHz)",
                                panels=len(runs), height=4.2)
    names = dict.fromkeys(r["algorithm"] for rows in runs.values() for r in rows
                          if r["algorithm"] != "delay-only")
    styles = plotting.Styles(list(names) + ["delay-only"])
    for ax, (cpi, rows) in zip(axes, runs.items()):
        at = [r for r in rows if r["arrival"] == arrival]

        def points(name):
            return [(r["p"], max(r["cycles_per_episode"], 1.0)) for r in at
                    if r["algorithm"] == name]
        plotting.lines(ax, [(n, n, points(n)) for n in names if points(n)], styles)
        if points("delay-only"):  # the reference: the latest arrival's delay alone
            plotting.lines(ax, [("delay-only", "delay-only (the latest arrival's delay)",
                                 points("delay-only"))], styles, dashed=True)
        plotting.log2_x(ax, [r["p"] for r in at if r["p"] & (r["p"] - 1) == 0])
        ax.set_title(f"cpi {cpi}")
        ax.set_xlabel("group size P (harts)")
    plotting.log10_y(axes[0])
    axes[0].set_ylabel("modelled cycles per barrier episode")
    plotting.microseconds_axis(axes[-1], mhz)
    plotting.legend(fig, axes, title="barrier")
    plotting.save(fig, path)


def summary(rows, calibration, cpi):
    out = []
    largest = max(r["p"] for r in rows)
    for arrival in ("simultaneous", "jittered"):
        at = {r["algorithm"]: r for r in rows if r["p"] == largest and r["arrival"] == arrival}
        software = {n: r for n, r in at.items() if n not in NOT_SOFTWARE}
        best = min(software.values(), key=lambda r: r["cycles_per_episode"])
        out.append(f"cpi {cpi}, {arrival}, P = {largest}: best software algorithm "
                   f"{best['algorithm']} ({best['cycles_per_episode']:.0f} cycles per episode)")
        for name in HARDWARE:
            if name in at:
                hw = at[name]["cycles_per_episode"]
                out.append(f"  {name:10s} {hw:9.0f} cycles, "
                           f"{best['cycles_per_episode'] / max(hw, 1):6.1f}x faster than {best['algorithm']}")
    picks = hits = 0
    for arrival in ("simultaneous", "jittered"):
        for p in sorted({r["p"] for r in rows}):
            group = [r for r in rows if r["p"] == p and r["arrival"] == arrival]
            software = [r for r in group if r["algorithm"] not in NOT_SOFTWARE]
            auto = [r for r in group if r["algorithm"] == "auto"]
            if not software or not auto or p == 1:
                continue
            best = min(r["cycles_per_episode"] for r in software)
            chosen = [r for r in software if r["algorithm"] == auto[0]["chosen"]]
            picks += 1
            # The measured best, within 2% (ties between algorithms that send the same messages).
            hits += bool(chosen) and chosen[0]["cycles_per_episode"] <= best * 1.02
    out.append(f"cpi {cpi}: auto picked the measured best software algorithm (within 2%) in "
               f"{hits} of {picks} cases (P > 1, both arrivals)")
    if calibration:
        out.append(f"cpi {cpi}: calibration: {calibration.get('send_cycles', 0):.1f} cycles per "
                   f"send, {calibration.get('receive_cycles', 0):.1f} per receive")
    return out


def main():
    out_dir = sys.argv[1]
    runs = {cpi: parse(os.path.join(out_dir, f"barrier_cpi{cpi}.log")) for cpi in (1, 4)}
    write_csv(os.path.join(out_dir, "barrier.csv"), runs[1][0])
    write_csv(os.path.join(out_dir, "barrier_cpi4.csv"), runs[4][0])
    for arrival in ("simultaneous", "jittered"):
        svg(os.path.join(out_dir, f"barrier-{arrival}.svg"), {cpi: runs[cpi][0] for cpi in (1, 4)},
            arrival)
    lines = []
    for cpi in (1, 4):
        lines += summary(*runs[cpi], cpi)
    text = "\n".join(lines) + "\n"
    open(os.path.join(out_dir, "barrier-summary.txt"), "w").write(text)
    print(text, end="")
    print(f"wrote {out_dir}/barrier.csv, barrier_cpi4.csv, barrier-simultaneous.svg, "
          f"barrier-jittered.svg, barrier-summary.txt")


if __name__ == "__main__":
    main()
