#!/usr/bin/env bash
# ./tessera bench ocbus: modelled cycles per open-collector bus operation (docs/ocbus.md) against
# the number of harts, from 2 to 4,096 (2x2 boards of 1,024): ACWT, arbitration and the ACWT
# barrier, every hart taking part, with every hart arriving at once (simultaneous) and with one
# hart late in each episode (jittered: 200 iterations of work), at cpi 1 and at cpi = threads
# per core; and host seconds per operation (simulator speed).
#
# Writes, with the columns operation,harts,arrival,cycles_per_op,host_s_per_op:
#   build/bench/ocbus.csv          cpi 1
#   build/bench/ocbus-cpi-tpc.csv  cpi = threads per core (4; 2 for the 2-hart machine)
#   build/bench/ocbus.svg          cycles per operation against harts
#
# Counting. apps/ocbus_bench_* runs each operation back to back (ACWT and the barrier 50 times,
# arbitration 5 times) on every hart; thread 0 reads its cycle counter around them and divides.
# Host seconds: between thread 0's "start" line and its result line, as they reach this script,
# divided likewise. Settle time: the default 10 cycles, 8 lines.
source "$(dirname "$0")/lib.sh"

all_shapes="2:tiles-x=1,tiles-y=1,cores-per-tile=1,threads-per-core=2
4:tiles-x=1,tiles-y=1,cores-per-tile=1,threads-per-core=4
16:tiles-x=2,tiles-y=2,cores-per-tile=1,threads-per-core=4
64:tiles-x=4,tiles-y=4,cores-per-tile=1,threads-per-core=4
256:tiles-x=4,tiles-y=4,cores-per-tile=4,threads-per-core=4
1024:tiles-x=8,tiles-y=8,cores-per-tile=4,threads-per-core=4
4096:boards-x=2,boards-y=2,tiles-x=8,tiles-y=8,cores-per-tile=4,threads-per-core=4"
# --quick: up to 256 harts.
shapes=$(by_quick "$all_shapes" "$(head -n 5 <<<"$all_shapes")")

# measure <harts> <shape> <arrival> <cpi> <csv>: one run, its rows (per_operation_run, lib.sh)
measure() {
    local harts=$1 shape=$2 arrival=$3 cpi=$4 csv=$5 stamped op t0 line t1 episodes cycles
    local what="ocbus_bench_$arrival on $harts harts, cpi $cpi"
    stamped=$(boot_stamped "$apps/ocbus_bench_$arrival.elf" "$shape,cpi=$cpi")
    for op in acwt arbitration ocbus_barrier; do
        t0=$(expect_line "$what" " ocbus_bench: start $op\$" "$stamped" | awk '{ print $1 }')
        line=$(expect_line "$what" " ocbus_bench: $op harts " "$stamped")
        t1=${line%% *}
        [ "$(echo "$line" | awk '{ print $5 }')" = "$harts" ] || bench_fail "$what: ran on other harts: $line"
        episodes=$(echo "$line" | awk '{ print $9 }')
        cycles=$(echo "$line" | awk '{ print $11 }')
        per=$(awk -v c="$cycles" -v e="$episodes" 'BEGIN { printf "%.1f", c / e }')
        host=$(awk -v a="$t0" -v b="$t1" -v e="$episodes" 'BEGIN { printf "%.6f", (b - a) / e }')
        echo "$op,$harts,$arrival,$per,$host" >>"$csv"
        printf '  %-13s %5s harts  cpi %-2s %-13s %9s cycles/op  %10s host s/op\n' \
            "$op" "$harts" "$cpi" "$arrival" "$per" "$host"
    done
}

per_operation_run ocbus "Open-collector bus over every hart" measure
