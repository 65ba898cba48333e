#!/usr/bin/env bash
# ./tessera bench apps: the vertex apps (docs/vertex-api.md), each synchronous and asynchronous
# on the same graphs (five seeds), on 3x1 boards of 96 threads, at cpi 1 and at cpi 4 (the four
# threads of a core sharing its pipeline, as on Tinsel); and hardware against software
# termination detection for a synchronous app as the vertices per thread grow (the paper's
# Fig. 7). Every run is checked against the app's host reference.
#
# Writes:
#   build/bench/apps.csv, apps_cpi4.csv   app,version,seed,vertices,edges,time_steps,messages,
#                                          cycles,host_s,reference_host_s
#   build/bench/apps_termination.csv      app,detector,vertices_per_thread,vertices,time_steps,
#                                          messages,cycles,host_s (cpi 1)
#   build/bench/apps.svg                  messages and modelled cycles, sync against async
#   build/bench/apps-summary.txt          the comparisons with the published shape (printed too)
#   build/bench/apps.log                  where each run's graph was placed
#
#   ./tessera bench apps [vertices]       (default 3000)
source "$(dirname "$0")/lib.sh"

bench="$TESSERA_REPO/build/host/tests/qemu/vertex_apps_bench"
[ -x "$bench" ] || bench_fail "no $bench (./tessera build)"
vertices=${1:-$(by_quick 3000 300)}
seeds=$(by_quick 5 1)
bench_start=$SECONDS

export TESSERA_QEMU
log="$out_dir/apps.log"  # each run's placement line (PGraph)
# Every run is checked against the app's host reference by the bench program, which ends with a
# non-zero status at the first that differs.
TESSERA_HOSTLINK_PROPERTIES=cpi=1 checked "vertex_apps_bench apps at cpi 1" \
    "$bench" apps "$vertices" "$seeds" >"$out_dir/apps.csv"
TESSERA_HOSTLINK_PROPERTIES=cpi=4 checked "vertex_apps_bench apps at cpi 4" \
    "$bench" apps "$vertices" "$seeds" >"$out_dir/apps_cpi4.csv"
TESSERA_HOSTLINK_PROPERTIES=cpi=1 checked "vertex_apps_bench termination" \
    "$bench" termination "${TESSERA_BENCH_TERMINATION_APP:-heat_sync}" \
    $(by_quick "1 4 16 64" "1 4") >"$out_dir/apps_termination.csv"
cat "$run_logs"/apps-vertex_apps_bench_*.log >"$log"
/usr/bin/python3 "$(dirname "$0")/apps_report.py" "$out_dir"
echo "($((SECONDS - bench_start)) s)"
