#!/usr/bin/env bash
# ./tessera bench mailbox: modelled message latency and link throughput,
# and simulator speed (host messages per second, guest MIPS against QEMU's
# stock virt machine). Writes build/bench/mailbox.csv (metric,value,unit).
source "$(dirname "$0")/lib.sh"
bench_start=$SECONDS
csv="$out_dir/mailbox.csv"
mesh3x3="boards-x=3,boards-y=3"
echo "metric,value,unit" > "$csv"
row() { echo "$1,$2,$3" >> "$csv"; printf '  %-32s %14s %s\n' "$1" "$2" "$3"; }

echo "Modelled (cycles at the modelled clock; identical on every run):"
pp=$(boot "$apps/pingpong.elf" "$mesh3x3")
for label in same_tile same_board far_corner; do
    rtt=$(expect_line "pingpong" "^rtt $label " "$pp" | awk '{ print $6 }')
    row "latency_$label" "$(echo "$rtt / 2" | bc -l | xargs printf '%.1f')" cycles
done
st=$(boot "$apps/stream.elf" "boards-x=2")
expect_line stream "^stream " "$st" >/dev/null
flits=$(echo "$st" | awk '$1 == "stream" { f += $5 } END { print f }')
span=$(echo "$st" | awk '$1 == "stream" { if (!s || $7 < s) s = $7; if ($9 > e) e = $9 } END { print e - s }')
row link_throughput "$(echo "$flits / $span" | bc -l | xargs printf '%.3f')" flits_per_cycle
row link_throughput_bytes "$(echo "$flits * 16 * 240 / $span" | bc -l | xargs printf '%.1f')" MB_per_s_at_240MHz

echo "Simulator speed (host time; noisy, compare ratios):"
alltoall_machine="boards-x=2,boards-y=2,tiles-x=2,tiles-y=2,cores-per-tile=4,threads-per-core=4"
# Each run is checked (alltoall verifies every message and exits non-zero otherwise).
runs=$(by_quick 3 1)
t=$(median_seconds "$runs" "alltoall on $alltoall_machine" \
    "$qemu_cmd" "$TESSERA_QEMU" "$apps/alltoall.elf" "$alltoall_machine")
row host_msgs_per_s "$(echo "256 * 16 / $t" | bc -l | xargs printf '%.0f')" messages_per_host_s
row alltoall_256_harts_host_s "$(printf '%.3f' "$t")" s

instructions=$((50000000 * 6))
mips() {
    local m=$1 t
    t=$(median_seconds "$runs" "bench_mips on -M $m" "$qemu_cmd" --machine "$m" "$TESSERA_QEMU" \
        "$apps/bench_mips_$m.elf")
    echo "$instructions / $t / 1000000" | bc -l
}
tessera_mips=$(mips tessera)
virt_mips=$(mips virt)
row mips_tessera "$(printf '%.1f' "$tessera_mips")" MIPS
row mips_virt "$(printf '%.1f' "$virt_mips")" MIPS
row mips_ratio_tessera_over_virt "$(echo "$tessera_mips / $virt_mips" | bc -l | xargs printf '%.3f')" ratio
wrote "$csv"
