#!/usr/bin/env bash
# ./tessera bench native [--quick] [--emulator-steps N]: native mode against the emulator, same
# machine, same program (docs/native.md). Heat transfer, GALS (apps/vertex/heat_async.cc with the
# host program of ./tessera bench host, tests/bench/host/heat_run.cpp, both unchanged) on
# Tinsel's 3x2 cluster (6,144 threads), a geometric graph of 20,000 vertices (200,000 edges with
# their reverses), 1,000 steps:
#   native    tests/native's native_heat_async: device code built for the host, harts as fibers
#             on the hosted machine, HostLink in-process; a worker per host core, each with a
#             part of the boards and a mailbox model of its own (docs/native.md, "Parts")
#   native, one worker  the same with TESSERA_NATIVE_WORKERS=1: one model, one worker (what
#             the parts gain, side by side)
#   emulator  tests/native's emulated_heat_async: the same host program, booting
#             vertex_heat_async-cluster3x2 (the firmware build) on -M tessera through HostLink
# Each run checks every vertex against the host reference (its exit status). The emulator runs
# N steps (default: the same 1,000; fewer scales its host time linearly, and the summary says
# so), and native runs N steps too, so that the modelled message counts of the two can be
# compared; the speedup is the emulator's host seconds (scaled to the native run's steps) over
# native's. --quick: 2,000 vertices, 20 steps, the emulator 20.
#
# host_s is heat_run's own figure: from HostLink's boot to the machine's end (the graph's
# generation, placement and check left out).
#
# Writes build/bench/native.csv (mode,workers,vertices,edges,steps,messages,host_s,modelled_cycles) and
# build/bench/native-summary.txt (printed too).
source "$(dirname "$0")/lib.sh"

bench_start=$SECONDS

vertices=$(by_quick 20000 2000)
steps=$(by_quick 1000 20)
emulator_steps=$steps
while [ $# -gt 0 ]; do
    case $1 in
    --emulator-steps) [ $# -ge 2 ] || bench_fail "--emulator-steps needs a number" 2
        emulator_steps=$2; shift 2 ;;
    --emulator-steps=*) emulator_steps=${1#--emulator-steps=}; shift ;;
    *) bench_fail "unexpected argument '$1' (usage: ./tessera bench native [--quick] [--emulator-steps N])" 2 ;;
    esac
done
[[ $emulator_steps =~ ^[1-9][0-9]*$ ]] || bench_fail "--emulator-steps $emulator_steps: a positive number" 2

bin="$TESSERA_REPO/build/host/tests/native"
image="$apps/vertex_heat_async-cluster3x2"
for f in "$bin/native_heat_async" "$bin/emulated_heat_async" "$image.code.v" "$image.data.v"; do
    [ -e "$f" ] || bench_fail "$f is missing (./tessera build builds it)"
done
work=$(mktemp -d)
trap 'rm -rf "$work"; bench_end $?' EXIT
ln -s "$image.code.v" "$work/code.v"
ln -s "$image.data.v" "$work/data.v"

csv="$out_dir/native.csv"
echo "mode,workers,vertices,edges,steps,messages,host_s,modelled_cycles" >"$csv"
workers=$(nproc)
# run <mode> <workers> <program> <steps>: one checked run; prints its line and appends its row.
declare -A host_s messages
run() {
    local mode=$1 w=$2 program=$3 n=$4 out line
    out=$(checked "$mode heat_async $vertices $n" env -C "$work" TESSERA_NATIVE_WORKERS="$w" \
        "$program" "$vertices" "$n")
    line=$(expect_line "$mode heat_async" "^heat async " "$out")
    # heat async vertices V edges E steps S messages M cycles C host_s H
    read -r _ _ _ v _ e _ _ _ m _ c _ h <<<"$line"
    host_s[$mode-$n]=$h
    messages[$mode-$n]=$m
    echo "$mode,$w,$v,$e,$n,$m,$h,$c" >>"$csv"
    local who="$w worker(s)"
    [ "$mode" != emulator ] || who="one process"
    printf '  %-8s %-12s %6s steps  %9.3f s  messages %s\n' "$mode" "$who" "$n" "$h" "$m"
}

echo "heat_async on the 3x2 cluster (6,144 threads), $vertices vertices:"
run native "$workers" "$bin/native_heat_async" "$steps"
[ "$emulator_steps" = "$steps" ] || run native "$workers" "$bin/native_heat_async" "$emulator_steps"
[ "$workers" = 1 ] || run native1 1 "$bin/native_heat_async" "$steps"
run emulator 1 "$bin/emulated_heat_async" "$emulator_steps"

[ "${messages[native-$emulator_steps]}" = "${messages[emulator-$emulator_steps]}" ] ||
    bench_fail "native sent ${messages[native-$emulator_steps]} messages in $emulator_steps steps, the emulator ${messages[emulator-$emulator_steps]}"

{
    echo "native mode against the emulator: heat_async, $vertices vertices, 3x2 cluster (6,144 threads)"
    echo "  every vertex equal to the reference in every run; messages equal at $emulator_steps steps (${messages[native-$emulator_steps]})"
    echo "  native,   $steps steps: ${host_s[native-$steps]} s ($workers workers)"
    if [ "$workers" != 1 ]; then
        awk -v one="${host_s[native1-$steps]}" -v n="${host_s[native-$steps]}" -v w="$workers" \
            'BEGIN { printf "  native, one worker: %.3f s (%d workers over parts: %.2fx)\n", one, w, one / n }'
    fi
    if [ "$emulator_steps" = "$steps" ]; then
        echo "  emulator, $steps steps: ${host_s[emulator-$steps]} s"
        awk -v e="${host_s[emulator-$steps]}" -v n="${host_s[native-$steps]}" \
            'BEGIN { printf "  speedup: %.1fx (emulator over native, host seconds)\n", e / n }'
    else
        awk -v e="${host_s[emulator-$emulator_steps]}" -v es="$emulator_steps" -v s="$steps" \
            -v n="${host_s[native-$steps]}" 'BEGIN {
            printf "  emulator, %d steps: %.3f s, scaled to %d steps: %.1f s\n", es, e, s, e * s / es
            printf "  speedup: %.1fx (emulator scaled over native, host seconds)\n", e * s / es / n }'
    fi
    echo "  host: $(nproc) cores, load average $(uptime | sed 's/.*load average: //') at the end"
} | tee "$out_dir/native-summary.txt"
wrote "$out_dir/native.csv" "$out_dir/native-summary.txt"
