#!/usr/bin/env bash
# ./tessera bench heat_large [--quick]: synchronous heat (apps/vertex/heat.h) at a tenth of the
# seeds' Fig. 8 size on the published 48-board cluster (issue 29): 600,000 vertices, about
# 60,000,000 edges (a geometric graph of degree 49, every edge with its reverse), 16 steps, on
# 6x8 boards of 1,024 threads (49,152; tests/bench/host/cluster-6x8.props, partitions of
# 64 KiB). --quick: 2,000 vertices, degree 4, 2 steps on the small shape of bench host --quick.
#
# The program is tests/bench/host's heat_sync, built against the tree's SDK for that shape; its
# host side generates the graph, places it (METIS), boots the machine, and checks every
# temperature against the host's reference. The run fails if one differs.
#
# Writes build/bench/heat_large.csv:
#   vertices,edges,steps,boards,harts,host_s,total_s,qemu_peak_mib,host_peak_mib,messages,cycles
# host_s: the emulator, boot to exit (the program's own figure); total_s: the whole command,
# the graph's generation, placement and check included; peak resident memory of QEMU
# (getrusage of a wrapper that waits for it) and of the host program (its own getrusage);
# messages and cycles: modelled (POLite's per-thread reports).
source "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 0 ] || bench_fail "unexpected argument '$1' (usage: ./tessera bench heat_large [--quick])" 2
vertices=$(by_quick 600000 2000)
degree=$(by_quick 49 4)
steps=$(by_quick 16 2)
root="$TESSERA_REPO/build/bench-host/tree"
progs="$root/programs-large$(by_quick "" "-quick")"

echo "Building the tree's SDK and heat_sync for the shape"
checked "the tree's SDK" "${clean_env[@]}" "$TESSERA_REPO/tessera" sdk "$root/sdk" >/dev/null
checked "configuring heat_sync" cmake -S "$here/host" -B "$progs" -G Ninja \
    -DCMAKE_PREFIX_PATH="$root/sdk" -DBENCH_HOST_LARGE=ON \
    -DBENCH_HOST_QUICK="$(by_quick OFF ON)" >/dev/null
checked "building heat_sync" cmake --build "$progs" -j 2 >/dev/null
shape=$(by_quick "$here/host/cluster-6x8.props" "$here/host/quick.props")

# QEMU's peak RSS (of the command and its waited-for descendants), in KiB, into the file $1.
peak=$(mktemp "$out_dir/peak.XXXXXX.py")
cat >"$peak" <<'PY'
import resource, subprocess, sys
status = subprocess.call(sys.argv[2:])
with open(sys.argv[1], "w") as f:
    f.write(f"{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}\n")
sys.exit(status)
PY
wrapper="$out_dir/qemu.sh"
cat >"$wrapper" <<EOF2
#!/usr/bin/env bash
exec /usr/bin/python3 "$peak" "$out_dir/qemu.peak" "$root/sdk/libexec/tessera/qemu-system-riscv32" "\$@"
EOF2
chmod +x "$wrapper"

echo "Running: $vertices vertices, degree $degree, $steps steps on $(harts "$shape") threads"
start=$(date +%s.%N)
out=$(checked "heat_sync" env -C "$progs/heat_sync" TESSERA_QEMU="$wrapper" \
    ./run "$vertices" "$steps" "$degree")
end=$(date +%s.%N)
line=$(expect_line "heat_sync" "^heat " "$out")
field() { awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' <<<"$line"; }
qemu_mib=$(awk '{ printf "%.0f", $1 / 1024 }' "$out_dir/qemu.peak")
run_mib=$(expect_line "heat_sync" "^heat-host " "$out" | awk '{ print $3 }')
boards=$(awk -F= '{ sub(/#.*/, "") } $1 == "boards-x" { x = $2 } $1 == "boards-y" { y = $2 }
    END { print x * y }' "$shape")
total_s=$(printf '%.1f' "$(echo "$end - $start" | bc -l)")
rm -f "$peak" "$wrapper" "$out_dir"/*.peak
{
    echo "vertices,edges,steps,boards,harts,host_s,total_s,qemu_peak_mib,host_peak_mib,messages,cycles"
    echo "$(field vertices),$(field edges),$steps,$boards,$(harts "$shape"),$(field host_s),$total_s,$qemu_mib,$run_mib,$(field messages),$(field cycles)"
} >"$out_dir/heat_large.csv"
column -s, -t "$out_dir/heat_large.csv"
