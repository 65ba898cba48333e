#!/usr/bin/env bash
# ./tessera bench ranks [--quick] [--ranks N,...]: one machine over several QEMU processes
# (docs/ranks.md), against one process, on Tinsel's 3x2 cluster (6 boards, 6,144 threads):
#   heat   GALS heat transfer (apps/vertex/heat_async.cc with the host program of ./tessera bench
#          host, tests/bench/host/heat_run.cpp), 20,000 vertices, 200,000 edges, 20 steps,
#          through HostLink (TESSERA_RANKS=N); every vertex checked against the host reference
#   idle   the tinselIdle loop (apps/idle_bench, hardware detector) booted with qemu-cmd.sh
# each run as one process with windows off (the default; its modelled figures differ: no
# windows), one process with windows on (the reference: the same modelled figures as every
# ranked run), and over N ranks (default 2: this machine's cores; --ranks 2,3 for more). Three
# timed runs each, interleaved, the median; one more of each with the trace events
# tessera_run_windows and tessera_run_memory, for the number of windows and each process's peak
# resident memory. A ranked run whose modelled figures differ
# from one process with windows ends the bench.
#
# --quick (TESSERA_BENCH_QUICK=1): heat on 2,000 vertices for 4 steps, one timed run each.
#
# Writes
#   build/bench/ranks.csv          ranks,boards,harts,app,host_s,speedup,windows,
#                                  host_us_per_window,modelled_cycles,mode,peak_rss_mib
#                                  (mode: off = one process, windows off (windows 0); on =
#                                  windows on, ranks over shared memory; tcp = over TCP;
#                                  speedup: over one process with windows on;
#                                  peak_rss_mib: the largest of the ranks' peak resident
#                                  memory)
#   build/bench/ranks.svg          host seconds against ranks, per app
#   build/bench/ranks-summary.txt  the table, and the projection of the 48-board cluster from
#                                  the measured costs (tests/bench/ranks_report.py)
source "$(dirname "$0")/lib.sh"

bench_start=$SECONDS
rank_counts=2
while [ $# -gt 0 ]; do
    case $1 in
    --ranks) [ $# -ge 2 ] || bench_fail "--ranks needs N,..." 2; rank_counts=$2; shift 2 ;;
    --ranks=*) rank_counts=${1#--ranks=}; shift ;;
    *) bench_fail "unexpected argument '$1' (usage: ./tessera bench ranks [--quick] [--ranks N,...])" 2 ;;
    esac
done
[[ $rank_counts =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || bench_fail "--ranks $rank_counts: numbers, comma separated" 2
command -v mpirun >/dev/null || bench_fail "no mpirun (./tessera setup installs Open MPI)" 2

vertices=$(by_quick 20000 2000)
steps=$(by_quick 20 4)
repeats=$(by_quick 3 1)
shape="$TESSERA_REPO/boards/tessera/cluster-3x2.props"
props=$(sed 's/#.*//' "$shape" | awk 'NF' | paste -sd, -)
harts=$(harts "$shape")
boards=6
bin="$TESSERA_REPO/build/host/tests/native"
image="$apps/vertex_heat_async-cluster3x2"
for f in "$bin/emulated_heat_async" "$image.code.v" "$image.data.v" "$apps/idle_bench_hw.elf"; do
    [ -e "$f" ] || bench_fail "$f is missing (./tessera build builds it)"
done
work=$(mktemp -d)
trap 'rm -rf "$work"; bench_end $?' EXIT
ln -s "$image.code.v" "$work/code.v"
ln -s "$image.data.v" "$work/data.v"
# A QEMU that traces the windows of its rank into $work/windows.<rank> (BENCH_WINDOWS set).
cat >"$work/qemu.sh" <<EOF
#!/usr/bin/env bash
[ -z "\${BENCH_WINDOWS:-}" ] ||
    set -- "\$@" -trace tessera_run_windows -trace tessera_run_memory \
        -D "\$BENCH_WINDOWS.\${OMPI_COMM_WORLD_RANK:-0}"
exec "$TESSERA_QEMU" "\$@"
EOF
chmod +x "$work/qemu.sh"

# configs: "1 off", "1 on", "N on" for each N
configs=("1 off" "1 on")
for n in ${rank_counts//,/ }; do
    [ "$n" -le "$boards" ] || bench_fail "--ranks $n: more ranks than the cluster's $boards boards" 2
    [ "$n" = 1 ] || configs+=("$n on")
done
first_ranked=$(tr , '\n' <<<"$rank_counts" | awk '$1 > 1' | head -n 1)
[ -z "$first_ranked" ] || configs+=("$first_ranked tcp")

# run_app <app> <ranks> <windows>: one checked run; prints "<modelled figures>|<host s>".
run_app() {
    local app=$1 n=$2 win=$3 out line
    if [ "$win" = tcp ]; then
        TESSERA_MPI_TRANSPORT=tcp run_app "$app" "$n" on
        return
    fi
    case $app in
    heat)
        local env_args=(TESSERA_QEMU="$work/qemu.sh")
        if [ "$n" -gt 1 ]; then env_args+=(TESSERA_RANKS="$n"); fi
        if [ "$win" = on ] && [ "$n" = 1 ]; then env_args+=(TESSERA_HOSTLINK_PROPERTIES=windows=on); fi
        out=$(checked "heat $vertices on $n ranks, windows $win" \
            env -C "$work" "${env_args[@]}" "$bin/emulated_heat_async" "$vertices" "$steps")
        line=$(expect_line "heat on $n ranks" "^heat async " "$out")
        # heat async vertices V edges E steps S messages M cycles C host_s H
        read -r _ _ _ _ _ _ _ _ _ m _ c _ h <<<"$line"
        echo "messages $m cycles $c|$h"
        ;;
    idle)
        local ranks_args=() start end
        [ "$n" = 1 ] || ranks_args=(--ranks "$n")
        start=$(date +%s.%N)
        out=$(checked "idle on $n ranks, windows $win" "$qemu_cmd" "${ranks_args[@]}" \
            "$work/qemu.sh" "$apps/idle_bench_hw.elf" "$props,windows=$win")
        end=$(date +%s.%N)
        line=$(expect_line "idle on $n ranks" "^idle_bench: " "$out")
        # idle_bench: method hw threads T syncs K cycles C round_trips R clock_mhz F
        read -r _ _ _ _ _ _ k _ c _ <<<"$line"
        echo "syncs $k cycles $c|$(echo "$end - $start" | bc -l)"
        ;;
    esac
}

csv="$out_dir/ranks.csv"
echo "ranks,boards,harts,app,host_s,speedup,windows,host_us_per_window,modelled_cycles,mode,peak_rss_mib" >"$csv"
declare -A times figures windows memory
for app in heat idle; do
    echo "$app: $repeats timed run(s) of each of: ${configs[*]/%/;} (ranks, windows)"
    for ((r = 0; r < repeats; r++)); do
        for config in "${configs[@]}"; do
            read -r n win <<<"$config"
            result=$(run_app "$app" "$n" "$win")
            times[$app-$n-$win]+="${result#*|} "
            figures[$app-$n-$win]=${result%|*}
        done
    done
    # The windows: one more run of each, traced.
    for config in "${configs[@]}"; do
        read -r n win <<<"$config"
        rm -f "$work"/windows.*
        BENCH_WINDOWS="$work/windows" run_app "$app" "$n" "$win" >/dev/null
        windows[$app-$n-$win]=$(awk '/tessera_run_windows/ { for (i = 1; i < NF; i++)
            if ($i == "windows") w = $(i + 1) } END { print w + 0 }' "$work"/windows.0)
        [ "$win" = off ] || [ "${windows[$app-$n-$win]}" -gt 0 ] ||
            bench_fail "$app on $n ranks: no tessera_run_windows line in its trace"
        memory[$app-$n-$win]=$(awk '/tessera_run_memory/ { for (i = 1; i < NF; i++)
            if ($i == "peak_kib" && $(i + 1) > m) m = $(i + 1); seen++ }
            END { if (seen) printf "%.0f", m / 1024 }' "$work"/windows.*)
        [ -n "${memory[$app-$n-$win]}" ] ||
            bench_fail "$app on $n ranks: no tessera_run_memory line in its trace"
    done
    reference=${figures[$app-1-on]}
    base=$(printf '%s\n' ${times[$app-1-on]} | median)
    for config in "${configs[@]}"; do
        read -r n win <<<"$config"
        [ "$win" = off ] || [ "${figures[$app-$n-$win]}" = "$reference" ] ||
            bench_fail "$app on $n ranks: $(tr -d '\n' <<<"${figures[$app-$n-$win]}"), one process with windows: $reference"
        if [ "$win" != off ] && [ "${windows[$app-$n-$win]}" != "${windows[$app-1-on]}" ]; then
            bench_fail "$app on $n ranks: ${windows[$app-$n-$win]} windows, one process ${windows[$app-1-on]}"
        fi
        t=$(printf '%s\n' ${times[$app-$n-$win]} | median)
        w=${windows[$app-$n-$win]}
        cycles=$(sed -E 's/.*cycles ([0-9]+).*/\1/' <<<"${figures[$app-$n-$win]}")
        awk -v n="$n" -v b="$boards" -v h="$harts" -v a="$app" -v t="$t" -v base="$base" \
            -v w="$w" -v c="$cycles" -v mode="$win" -v mib="${memory[$app-$n-$win]}" 'BEGIN {
            printf "%d,%d,%d,%s,%.3f,%.2f,%d,%s,%d,%s,%d\n", n, b, h, a, t, base / t, w,
                   (w > 0 ? sprintf("%.1f", t * 1e6 / w) : ""), c, mode, mib }' >>"$csv"
    done
done

/usr/bin/python3 "$(dirname "$0")/ranks_report.py" "$csv" "$out_dir/ranks.svg" "$(nproc)" \
    "$(uptime | sed 's/.*load average: //')" | tee "$out_dir/ranks-summary.txt"
wrote "$csv" "$out_dir/ranks.svg" "$out_dir/ranks-summary.txt"
