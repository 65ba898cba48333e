#!/usr/bin/env bash
# ./tessera bench shake: the parallel SHAKE (docs/shake.md) on rings of 8 to 128 threads, one
# molecule for every ring, with each ACWT method (ring2: one message twice around; ringp: P
# messages once around; ocbus: the open-collector bus), at cpi 1 and at cpi = threads per core
# (4: every thread of a core sharing its pipeline, as on Tinsel). Every run is compared with the
# host reference bit for bit; a run that differs fails the bench.
#
# Modelled cycles per SHAKE iteration on the critical path: compute from the last thread to
# begin the iteration to the last vote; check from the last vote to the last thread that knows
# the verdict. Host seconds are the runs' wall time, apart.
#
# Writes:
#   build/bench/shake.csv, shake-cpi-tpc.csv  ring,method,iterations,compute_cycles,check_cycles,
#                                             check_share
#   build/bench/shake-host.csv                ring,method,cpi,host_s
#   build/bench/shake.svg                     the check's share against the ring size
#   build/bench/shake-summary.txt             beside the published expectation (printed too)
#
#   ./tessera bench shake [particles] [chain|ring|branched] [steps]   (default 6144 chain 4)
#
# 6,144 particles are 96 per thread at 64 threads; each thread's image then needs up to 107 KB
# at 8 threads, so partitions are 1 MiB (a quarter of each holds the image).
source "$(dirname "$0")/lib.sh"

run="$TESSERA_REPO/build/host/tests/qemu/shake/shake-run"
[ -x "$run" ] || bench_fail "no $run (./tessera build)"
particles=${1:-$(by_quick 6144 768)}
shape=${2:-chain}
steps=${3:-4}
rings=$(by_quick "8 16 32 64 128" "8 16")
bench_start=$SECONDS
export TESSERA_QEMU

header="ring,method,iterations,compute_cycles,check_cycles,check_share"
echo "ring,method,cpi,host_s" >"$out_dir/shake-host.csv"
for cpi in 1 tpc; do
    csv="$out_dir/shake.csv"
    [ "$cpi" = tpc ] && csv="$out_dir/shake-cpi-tpc.csv"
    echo "$header" >"$csv"
    for ring in $rings; do
        # shake-run compares every run with the host reference bit for bit and prints a row
        # only for a run that equals it; any other ends it with a non-zero status.
        rows=$(checked "shake-run, ring $ring, cpi $cpi" "$run" --generate "$shape" --particles "$particles" --ring "$ring" \
            --steps "$steps" --method all --cpi "$cpi" --partition-kib 1024 --csv)
        echo "$rows" | cut -d, -f1-6 >>"$csv"
        echo "$rows" | awk -F, -v cpi="$cpi" '{ print $1 "," $2 "," cpi "," $7 }' \
            >>"$out_dir/shake-host.csv"
    done
done
/usr/bin/python3 "$(dirname "$0")/shake_report.py" "$out_dir" "$particles" "$shape" "$steps"
echo "($((SECONDS - bench_start)) s)"
