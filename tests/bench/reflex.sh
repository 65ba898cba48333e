#!/usr/bin/env bash
# ./tessera bench reflex: modelled cycles per reflex barrier (docs/reflex.md) against the number
# of harts, from 2 to 4,096 (2x2 boards of 1,024), with every hart arriving at once
# (simultaneous) and with one hart late in each episode (jittered: 200 iterations of work), at
# cpi 1 and at cpi = threads per core; and host seconds per barrier (simulator speed).
#
# Writes, with the columns operation,harts,arrival,cycles_per_op,host_s_per_op:
#   build/bench/reflex.csv          cpi 1
#   build/bench/reflex-cpi-tpc.csv  cpi = threads per core (4; 2 for the 2-hart machine)
#   build/bench/reflex.svg          cycles per barrier against harts, both arrivals and cpis
#
# Counting. apps/reflex_bench_* runs 50 barriers back to back over a ring of every hart; the
# root (thread 0) reads its 64-bit cycle counter around them: cycles_per_op = cycles / 50. Back
# to back, each barrier carries the root's flit round the ring and then its release: about two
# hops per hart (one for a single barrier after the last arrival, the rule the qemu.reflex.cost_*
# tests check exactly). Host seconds: between the root's "start" line and its result line, as
# they reach this script, / 50. Defaults otherwise: B 4, one cycle per hop.
source "$(dirname "$0")/lib.sh"

episodes=50
all_shapes="2:tiles-x=1,tiles-y=1,cores-per-tile=1,threads-per-core=2
4:tiles-x=1,tiles-y=1,cores-per-tile=1,threads-per-core=4
8:tiles-x=2,tiles-y=1,cores-per-tile=1,threads-per-core=4
16:tiles-x=2,tiles-y=2,cores-per-tile=1,threads-per-core=4
32:tiles-x=2,tiles-y=2,cores-per-tile=2,threads-per-core=4
64:tiles-x=4,tiles-y=4,cores-per-tile=1,threads-per-core=4
128:tiles-x=4,tiles-y=4,cores-per-tile=2,threads-per-core=4
256:tiles-x=4,tiles-y=4,cores-per-tile=4,threads-per-core=4
512:tiles-x=8,tiles-y=4,cores-per-tile=4,threads-per-core=4
1024:tiles-x=8,tiles-y=8,cores-per-tile=4,threads-per-core=4
2048:boards-x=2,tiles-x=8,tiles-y=8,cores-per-tile=4,threads-per-core=4
4096:boards-x=2,boards-y=2,tiles-x=8,tiles-y=8,cores-per-tile=4,threads-per-core=4"
# --quick: up to 256 harts.
shapes=$(by_quick "$all_shapes" "$(head -n 8 <<<"$all_shapes")")

# measure <harts> <shape> <arrival> <cpi> <csv>: one run, its rows (per_operation_run, lib.sh)
measure() {
    local harts=$1 shape=$2 arrival=$3 cpi=$4 csv=$5 stamped t0 line t1 cycles per host
    local what="reflex_bench_$arrival on $harts harts, cpi $cpi"
    stamped=$(boot_stamped "$apps/reflex_bench_$arrival.elf" "$shape,cpi=$cpi")
    t0=$(expect_line "$what" ' reflex_bench: start' "$stamped" | awk '{ print $1 }')
    line=$(expect_line "$what" ' reflex_bench: harts ' "$stamped")
    t1=${line%% *}
    [ "$(echo "$line" | awk '{ print $4 }')" = "$harts" ] || bench_fail "$what: ran on other harts: $line"
    cycles=$(echo "$line" | awk '{ print $10 }')
    per=$(awk -v c="$cycles" -v e="$episodes" 'BEGIN { printf "%.1f", c / e }')
    host=$(awk -v a="$t0" -v b="$t1" -v e="$episodes" 'BEGIN { printf "%.6f", (b - a) / e }')
    echo "reflex_barrier,$harts,$arrival,$per,$host" >>"$csv"
    printf '  %5s harts  cpi %-2s %-13s %10s cycles/barrier  %10s host s/barrier\n' \
        "$harts" "$cpi" "$arrival" "$per" "$host"
}

per_operation_run reflex "Reflex barrier over every hart" measure
