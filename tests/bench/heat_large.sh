#!/usr/bin/env bash
# ./tessera bench heat_large [--quick] [--ranks N,...]: synchronous heat (apps/vertex/heat.h)
# at a tenth of the seeds' Fig. 8 size on the published 48-board cluster (issue 29): 600,000
# vertices, about 60,000,000 edges (a geometric graph of degree 49, every edge with its reverse),
# 16 steps, on 6x8 boards of 1,024 threads (49,152; tests/bench/host/cluster-6x8.props,
# partitions of 64 KiB). --quick: 2,000 vertices, degree 4, 2 steps on the small shape of bench
# host --quick. Once per number of QEMU processes of --ranks (default 1,2; docs/ranks.md: more
# than one runs the machine in time windows, TESSERA_RANKS=N), each on the same graph.
#
# The program is tests/bench/host's heat_sync, built against the tree's SDK for that shape; its
# host side generates the graph, places it (METIS), boots the machine, and checks every
# temperature against the host's reference. The run fails if one differs.
#
# Writes build/bench/heat_large.csv, a row per number of processes:
#   ranks,vertices,edges,steps,boards,harts,host_s,total_s,qemu_peak_mib,host_peak_mib,messages,
#   cycles
# host_s: the emulator, boot to exit (the program's own figure); total_s: the whole command,
# the graph's generation, placement and check included; qemu_peak_mib: peak resident memory of
# the largest QEMU process (getrusage of a wrapper that waits for it), host_peak_mib: the host
# program's (its own getrusage); messages and cycles: modelled (POLite's per-thread reports).
# The messages must be equal in every row (the bench fails otherwise); the cycles of one
# process (no windows) and of ranks (windows) may differ, those of any two rank counts above
# one may not (docs/ranks.md).
source "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
usage='usage: ./tessera bench heat_large [--quick] [--ranks N,...]'
rank_counts="1 2"
while [ $# -gt 0 ]; do
    case $1 in
    --ranks) [ $# -ge 2 ] || bench_fail "--ranks needs a list of process counts ($usage)" 2
        rank_counts=${2//,/ }; shift 2 ;;
    *) bench_fail "unexpected argument '$1' ($usage)" 2 ;;
    esac
done
for n in $rank_counts; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || bench_fail "--ranks: '$n' is not a number of processes ($usage)" 2
done
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

# A QEMU process's peak RSS (of the command and its waited-for descendants), in KiB, into the
# file $1: each rank's wrapper writes its own.
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
exec /usr/bin/python3 "$peak" "$out_dir/qemu.\$\$.peak" "$root/sdk/libexec/tessera/qemu-system-riscv32" "\$@"
EOF2
chmod +x "$wrapper"
boards=$(awk -F= '{ sub(/#.*/, "") } $1 == "boards-x" { x = $2 } $1 == "boards-y" { y = $2 }
    END { print x * y }' "$shape")

csv="$out_dir/heat_large.csv"
echo "ranks,vertices,edges,steps,boards,harts,host_s,total_s,qemu_peak_mib,host_peak_mib,messages,cycles" >"$csv"
declare -A cycles_of=()
messages_first=""
for n in $rank_counts; do
    echo "Running: $vertices vertices, degree $degree, $steps steps on $(harts "$shape") threads, $n QEMU process(es)"
    rm -f "$out_dir"/qemu.*.peak
    env_args=()
    [ "$n" -eq 1 ] || env_args+=(TESSERA_RANKS="$n")
    start=$(date +%s.%N)
    out=$(checked "heat_sync on $n ranks" env -C "$progs/heat_sync" TESSERA_QEMU="$wrapper" \
        "${env_args[@]}" ./run "$vertices" "$steps" "$degree")
    end=$(date +%s.%N)
    line=$(expect_line "heat_sync on $n ranks" "^heat " "$out")
    field() { awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' <<<"$line"; }
    qemu_mib=$(cat "$out_dir"/qemu.*.peak | awk '$1 > m { m = $1 } END { printf "%.0f", m / 1024 }')
    run_mib=$(expect_line "heat_sync on $n ranks" "^heat-host " "$out" | awk '{ print $3 }')
    total_s=$(printf '%.1f' "$(echo "$end - $start" | bc -l)")
    messages=$(field messages) cycles=$(field cycles)
    [ -n "$messages_first" ] || messages_first=$messages
    [ "$messages" = "$messages_first" ] ||
        bench_fail "heat_sync on $n ranks sent $messages messages, the first run $messages_first"
    [ "$n" -eq 1 ] || cycles_of[$cycles]=$n
    [ "${#cycles_of[@]}" -le 1 ] ||
        bench_fail "heat_sync's modelled cycles differ between rank counts above one: ${!cycles_of[*]}"
    echo "$n,$(field vertices),$(field edges),$steps,$boards,$(harts "$shape"),$(field host_s),$total_s,$qemu_mib,$run_mib,$messages,$cycles" >>"$csv"
done
rm -f "$peak" "$wrapper" "$out_dir"/*.peak
column -s, -t "$csv"
