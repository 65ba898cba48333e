#!/usr/bin/env bash
# ./tessera bench barrier: every barrier of the barrier library (docs/barriers.md), in the manner
# of EPCC syncbench and OSU osu_barrier: for each barrier and group size P (powers of two and
# 3, 5, 13, up to the whole 256-hart mesh of 2x2 boards), with simultaneous and with jittered
# arrival, modelled cycles per episode, barrier messages per episode, the model's prediction and
# host seconds per episode; at cpi 1 and at cpi = threads per core (4: Tinsel's cores share one
# pipeline among their threads).
#
# Writes, with the columns algorithm,p,arrival,cycles_per_episode,messages_per_episode,
# predicted_cycles,host_s_per_episode:
#   build/bench/barrier.csv           cpi 1
#   build/bench/barrier_cpi4.csv      cpi 4
#   build/bench/barrier-simultaneous.svg, barrier-jittered.svg   cycles per episode against P
#   build/bench/barrier-summary.txt   the closing summary (also printed)
#
# Counting (apps/barrier_bench): rank 0 of each group reads its cycle counter around 40
# episodes after 3 of warm-up. Jittered arrival: each member works 0..200 loop iterations
# (pseudo-random) before each episode; its rows include that wait for the latest arrival, and the
# row `delay-only` gives the latest arrival's delay alone (rank 0's cycles for that work), the
# reference to subtract, as EPCC syncbench subtracts its delay loop. Host seconds: between rank
# 0's "begin" line and its result line as they reach this script, / 40. The summary names what
# `auto` chose.
source "$(dirname "$0")/lib.sh"

machine="boards-x=2,boards-y=2,tiles-x=2,tiles-y=2,cores-per-tile=4,threads-per-core=4"
bench_start=$SECONDS
for cpi in 1 4; do
    stamped=$(boot_stamped "$apps/barrier_bench.elf" "$machine,cpi=$cpi")
    expect_line "barrier_bench at cpi $cpi" "barrier-bench: done" "$stamped" >/dev/null
    echo "$stamped" >"$out_dir/barrier_cpi$cpi.log"
done
/usr/bin/python3 "$(dirname "$0")/barrier_report.py" "$out_dir"
echo "($((SECONDS - bench_start)) s)"
