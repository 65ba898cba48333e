#!/usr/bin/env bash
# ./tessera bench heat_large works end to end on its small shape: the bench ends with status 0
# (every temperature equal to the host's reference, on one QEMU process and on two) and
# heat_large.csv has a row for each with the shape's threads, sane figures and equal messages.
#   heat_large_quick.sh        (TESSERA_REPO: the tree; TESSERA_QEMU: its QEMU)
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
TESSERA_BENCH_OUT="$work" TESSERA_BENCH_QUICK=1 bash "$TESSERA_REPO/tests/bench/heat_large.sh"
/usr/bin/python3 - "$work/heat_large.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
if [r["ranks"] for r in rows] != ["1", "2"]:
    sys.exit(f"heat_large.csv: rows for ranks {[r['ranks'] for r in rows]}, not 1 and 2")
if rows[0]["messages"] != rows[1]["messages"]:
    sys.exit("heat_large.csv: the two runs sent different numbers of messages")
for r in rows:
    bad = [k for k, ok in [
        ("vertices", r["vertices"] == "2000"), ("harts", r["harts"] == "96"),
        ("steps", r["steps"] == "2"), ("edges", int(r["edges"]) > 2000),
        ("host_s", float(r["host_s"]) > 0), ("qemu_peak_mib", int(r["qemu_peak_mib"]) > 0),
        ("host_peak_mib", int(r["host_peak_mib"]) > 0), ("messages", int(r["messages"]) > 2000),
        ("cycles", int(r["cycles"]) > 0)] if not ok]
    if bad:
        sys.exit("heat_large.csv: unexpected " + ", ".join(f"{k}={r[k]}" for k in bad))
    print("heat_large.csv:", ", ".join(f"{k} {v}" for k, v in r.items()))
PY
