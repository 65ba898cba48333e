#!/usr/bin/env bash
# ./tessera bench debug: the host time of debugging a large machine (docs/debugging.md, "Costs"):
# ./tessera debug's launcher with gdb in batch mode (tests/bench/debug_costs.py) on
# apps/debug_probe, on the default shape (16 harts), one reference board (1,024) and the 3x2
# reference cluster (6,144): attaching to the gdb prompt, `info threads`, `thread-id` (first use,
# then again), and on the first two shapes a thread-specific breakpoint at a place every hart
# passes, then `blocked`. About 2 minutes (--quick: 16 and 64 harts).
#
# Writes build/bench/debug.csv with the columns harts,operation,host_s.
source "$(dirname "$0")/lib.sh"
bench_start=$SECONDS

props() { sed 's/#.*//' "$TESSERA_REPO/boards/tessera/$1.props" | paste -sd, | sed 's/,,*/,/g; s/^,//; s/,$//'; }
shapes=$(by_quick "16:1:$(props default) 1024:1:$(props reference-board) 6144:0:$(props cluster-3x2)" \
    "16:1:$(props default) 64:1:tiles-x=2,tiles-y=2,cores-per-tile=4,threads-per-core=4")
csv="$out_dir/debug.csv"
echo "harts,operation,host_s" >"$csv"
for shape in $shapes; do
    IFS=: read -r harts break props <<<"$shape"
    # The last hart's thread id, as the machine numbers its harts (ids are sparse).
    hello=$(checked "hello on $harts harts" "$qemu_cmd" "$TESSERA_QEMU" "$apps/hello.elf" "$props")
    last=$(sed -n 's/^hello from thread \(0x[0-9a-f]*\):.*/\1/p' <<<"$hello" |
        while read -r id; do echo $((id)); done | sort -n | tail -n 1)
    [ -n "$last" ] || bench_fail "hello on $harts harts printed no thread id"
    last=$(printf '0x%x' "$last")
    report="$out_dir/report-$harts"
    COST_START=$(date +%s.%N) COST_LAST=$last COST_BREAK=$break COST_REPORT=$report \
        checked "gdb on $harts harts" "$TESSERA_REPO/boards/tessera/gdb/debug.sh" \
        --batch "$TESSERA_REPO/tests/bench/debug_costs.py" "$TESSERA_QEMU" \
        "$apps/debug_probe.elf" "$props" >/dev/null
    grep -qx done "$report" || bench_fail "gdb on $harts harts: the script did not finish"
    grep -v '^done$' "$report" | while read -r op s; do
        echo "$harts,$op,$s" >>"$csv"
        printf '  %6s harts  %-24s %8s s\n' "$harts" "$op" "$s"
    done
    rm -f "$report"
done
wrote "$csv"
