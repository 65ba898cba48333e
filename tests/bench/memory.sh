#!/usr/bin/env bash
# ./tessera bench memory: host memory per hart of -M tessera. Boots hello on one reference
# board (1,024 harts) and on the 3x2-board reference cluster (6,144 harts), takes each run's
# peak RSS, and reports the KiB per hart as the difference between the two over the difference
# in harts. With heaptrack installed (apt-get install heaptrack) it repeats both runs under
# heaptrack and lists where the bytes go: heap allocated per hart by part of QEMU (soft TLB,
# jump cache, gdbstub, IRQ lines, properties, the CPU objects). About 1 minute (without
# heaptrack 15 s).
#
# Writes build/bench/memory.csv (harts,peak_rss_kib,boot_s) and, with heaptrack,
# build/bench/memory-breakdown.csv (part,kib_per_hart). docs/machine.md ("What limits the
# size") has the figures.
source "$(dirname "$0")/lib.sh"

props() { sed 's/#.*//' "$TESSERA_REPO/boards/tessera/$1.props" | paste -sd, | sed 's/,,*/,/g; s/^,//; s/,$//'; }

bench_start=$SECONDS
# --quick: 256 and 1,024 harts.
if [ "$quick" = 1 ]; then
    shapes=("256:tiles-x=4,tiles-y=4,cores-per-tile=4,threads-per-core=4" "1024:$(props reference-board)")
else
    shapes=("1024:$(props reference-board)" "6144:$(props cluster-3x2)")
fi
/usr/bin/python3 "$(dirname "$0")/memory.py" "$qemu_cmd" "$TESSERA_QEMU" "$apps/hello.elf" \
    "$out_dir" "${shapes[@]}"
wrote "$out_dir"/memory*.csv
