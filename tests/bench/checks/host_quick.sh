#!/usr/bin/env bash
# ./tessera bench host works end to end on its small shapes: the bench ends with status 0 (a
# failing run would end it with its own, lib.sh) and host.csv has every workload for the tree's
# build, with the machine's counts and sane values.
#   host_quick.sh        (TESSERA_REPO: the tree; TESSERA_QEMU: its QEMU)
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A wrong --runs is refused with status 2 before anything is built.
status=0
TESSERA_BENCH_OUT="$work" bash "$TESSERA_REPO/tests/bench/host.sh" --runs 0 2>"$work/err" || status=$?
if [ "$status" != 2 ] || ! grep -q -- "--runs 0" "$work/err"; then
    echo "host.sh --runs 0: status $status, said: $(cat "$work/err")" >&2
    exit 1
fi
TESSERA_BENCH_OUT="$work" TESSERA_BENCH_QUICK=1 bash "$TESSERA_REPO/tests/bench/host.sh"
/usr/bin/python3 - "$work/host.csv" <<'PY'
import csv, sys
rows = {r["workload"]: r for r in csv.DictReader(open(sys.argv[1])) if r["build"] == "tree"}
bad = []
def check(ok, what):
    if not ok:
        bad.append(what)
for w in ["boot", "compute", "pingpong", "idle", "heat_sync", "heat_async"]:
    r = rows.get(w)
    if r is None:
        bad.append(f"no row for {w}")
        continue
    check(float(r["host_s"]) > 0, f"{w}: host_s {r['host_s']}")
    check(int(r["guest_instr"] or 0) > 0, f"{w}: guest_instr {r['guest_instr']!r}")
    check(float(r["guest_mips"] or 0) > 0, f"{w}: guest_mips {r['guest_mips']!r}")
    check(int(r["csr_ops"] or 0) > 0, f"{w}: csr_ops {r['csr_ops']!r}")
    check(r["guest_share"] == "" or 0 <= float(r["guest_share"]) <= 1,
          f"{w}: guest_share {r['guest_share']!r}")
    check(r["modelled"] != "", f"{w}: no modelled result")
# The quick shapes (tests/bench/host/CMakeLists.txt): 2,000,000 turns of a 6-instruction loop,
# 2,000 round trips, 50 synchronisations, 2,000 heat vertices.
check(int(rows["compute"]["guest_instr"]) >= 6 * 2_000_000, "compute: too few instructions")
check(int(rows["pingpong"]["messages"]) >= 2 * 2000, "pingpong: too few messages")
check(int(rows["heat_async"]["messages"]) >= 2000, "heat_async: too few messages")
check(int(rows["heat_sync"]["messages"]) >= 2000, "heat_sync: too few messages")
# Built as a user's program is (the SDK's -O2): at -O0 a vertex's time step took about 5,500
# guest instructions, at -O2 about 950.
for w in ["heat_sync", "heat_async"]:
    per_vertex_step = int(rows[w]["guest_instr"]) / (2000 * 4)
    check(per_vertex_step < 2500, f"{w}: {per_vertex_step:.0f} guest instructions per vertex "
          "and step: not built with the SDK's optimisation flags?")
if bad:
    sys.exit("host.csv: " + "; ".join(bad))
print(f"host.csv: every workload, with counts (heat_async: {rows['heat_async']['messages']} "
      f"messages, {rows['heat_async']['host_ns_per_message']} host ns each)")
PY
