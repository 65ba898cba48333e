#!/usr/bin/python3
"""./tessera bench host's tables from its runs (tests/bench/host.sh has the counting).

usage: host_report.py <out dir> <labels> <commits> <has counts> <why no perf> <shape> <load>

Reads <out dir>/host-runs.tsv (one row per run); writes host.csv (a row per build and workload:
median host time, counts, per-operation costs, guest share), host-ratio.csv (the tree against
each other build) and host-summary.txt, which it prints.
"""
import csv
import os
import statistics
import sys

WORKLOADS = ["boot", "compute", "pingpong", "idle", "heat_sync", "heat_async"]
COLUMNS = ["build", "commit", "workload", "harts", "guest_instr", "host_s", "guest_mips",
           "csr_ops", "host_ns_per_csr", "messages", "host_ns_per_message", "guest_share",
           "machine_share", "qemu_share", "lock_share", "library_share", "kernel_share",
           "modelled"]
# The classes of host_profile.awk after its sample count, in its order.
SHARES = ["guest_share", "machine_share", "qemu_share", "lock_share", "library_share",
          "kernel_share"]
RATIO_COLUMNS = ["workload", "build", "baseline", "host_s", "baseline_host_s", "speedup",
                 "modelled_equal"]


def number(text):
    return int(text) if text not in ("", None) else None


def per(seconds, count, scale):
    return f"{seconds * scale / count:.1f}" if count else ""


def main():
    out, labels, commits, has_counts, no_perf, shape, load = sys.argv[1:8]
    labels, commits = labels.split(","), commits.split(",")
    with open(os.path.join(out, "host-runs.tsv"), newline="") as f:
        runs = list(csv.DictReader(f, delimiter="\t"))

    rows = {}
    notes = []
    for i, label in enumerate(labels):
        for w in WORKLOADS:
            timed = [r for r in runs if r["index"] == str(i) and r["workload"] == w
                     and r["kind"] == "time"]
            if not timed:
                continue
            extra = [r for r in runs if r["index"] == str(i) and r["workload"] == w
                     and r["kind"] in ("perf", "count")]
            profiled = [r for r in extra if r["kind"] == "perf"]
            host_s = statistics.median(float(r["host_s"]) for r in timed)
            # The machine's counts are modelled, from the run that traced them (not the timed
            # ones): every run of a build gives the same.
            counts = {(r["guest_instr"], r["csr_ops"], r["messages"]) for r in extra} or {("", "", "")}
            if len(counts) > 1:
                notes.append(f"{w} on {label}: the machine's counts differ between runs "
                             f"({sorted(counts)}); the first is shown")
            instr, ops, msgs = (number(x) for x in sorted(counts)[0])
            modelled = {r["modelled"] for r in timed + extra}
            if len(modelled) > 1:
                notes.append(f"{w} on {label}: the modelled results differ between runs")
            shares = profiled[0]["profile"].split()[1:] if profiled else []
            rows[label, w] = {
                "build": label, "commit": commits[i], "workload": w, "harts": timed[0]["harts"],
                "guest_instr": "" if instr is None else instr,
                "host_s": f"{host_s:.3f}",
                "guest_mips": f"{instr / host_s / 1e6:.1f}" if instr else "",
                "csr_ops": "" if ops is None else ops,
                "host_ns_per_csr": per(host_s, ops, 1e9),
                "messages": "" if msgs is None else msgs,
                "host_ns_per_message": per(host_s, msgs, 1e9),
                **{name: shares[k] if shares else "" for k, name in enumerate(SHARES)},
                "modelled": sorted(modelled)[0],
            }

    with open(os.path.join(out, "host.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS, lineterminator="\n")
        w.writeheader()
        for label in labels:
            for workload in WORKLOADS:
                if (label, workload) in rows:
                    w.writerow(rows[label, workload])

    ratios = []
    tree = labels[0]
    for baseline in labels[1:]:
        for workload in WORKLOADS:
            a, b = rows.get((tree, workload)), rows.get((baseline, workload))
            if not a or not b:
                continue
            equal = a["modelled"] == b["modelled"]
            for key in ("guest_instr", "messages"):
                if a[key] != "" and b[key] != "" and a[key] != b[key]:
                    equal = False
            if not equal:
                notes.append(f"{workload}: modelled results differ between {tree} and {baseline}: "
                             f"'{a['modelled']}' (guest_instr {a['guest_instr'] or '-'}, "
                             f"messages {a['messages'] or '-'}) against '{b['modelled']}' "
                             f"(guest_instr {b['guest_instr'] or '-'}, messages "
                             f"{b['messages'] or '-'})")
            ratios.append({"workload": workload, "build": tree, "baseline": baseline,
                           "host_s": a["host_s"], "baseline_host_s": b["host_s"],
                           "speedup": f"{float(b['host_s']) / float(a['host_s']):.2f}",
                           "modelled_equal": "yes" if equal else "no"})
    with open(os.path.join(out, "host-ratio.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, RATIO_COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(ratios)

    lines = [f"Host time on one core ({shape}; load average {load} at the end;"
             f" host_s the median of the timed runs):"]
    head = (f"  {'workload':<10} {'build':<12} {'harts':>5} {'guest_instr':>13} {'host_s':>8} "
            f"{'MIPS':>7} {'csr_ops':>11} {'ns/csr':>7} {'messages':>10} {'ns/msg':>8} "
            f"{'guest':>6} {'machine':>7} {'QEMU':>5} {'locks':>5}")
    lines.append(head)
    for workload in WORKLOADS:
        for label in labels:
            r = rows.get((label, workload))
            if not r:
                continue
            def pct(name):
                return f"{float(r[name]) * 100:.0f}%" if r[name] else "-"
            lines.append(
                f"  {workload:<10} {label:<12} {r['harts']:>5} {r['guest_instr'] or '-':>13} "
                f"{r['host_s']:>8} {r['guest_mips'] or '-':>7} {r['csr_ops'] or '-':>11} "
                f"{r['host_ns_per_csr'] or '-':>7} {r['messages'] or '-':>10} "
                f"{r['host_ns_per_message'] or '-':>8} {pct('guest_share'):>6} "
                f"{pct('machine_share'):>7} {pct('qemu_share'):>5} {pct('lock_share'):>5}")
    for i, label in enumerate(labels):
        if has_counts.split(",")[i] == "0":
            lines.append(f"  ({label}: its QEMU has no tessera_run_counts event, so no counts)")
    if no_perf:
        lines.append(f"  (guest share: none, {no_perf})")
    if ratios:
        lines.append("Speed-up of the tree over each baseline (baseline host_s / tree host_s):")
        for r in ratios:
            lines.append(f"  {r['workload']:<10} over {r['baseline']:<12} {r['speedup']:>6}x"
                         f"  ({r['baseline_host_s']} s -> {r['host_s']} s; modelled results "
                         f"{'equal' if r['modelled_equal'] == 'yes' else 'DIFFER'})")
    lines += [f"Note: {n}" for n in notes]
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "host-summary.txt"), "w") as f:
        f.write(text)
    print(text, end="")


if __name__ == "__main__":
    main()
