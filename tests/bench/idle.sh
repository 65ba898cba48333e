#!/usr/bin/env bash
# ./tessera bench idle: idle synchronisation round trips per modelled second, hardware
# (tinselIdle, master at the origin and at the centre) against the software baselines
# (asynchronous clock tree, Safra's token ring; firmware/termination), and the tight tinselIdle
# loop of the reference cluster (docs/idle.md, "Benchmark").
#
# Writes
#   build/bench/idle.csv       boards_x,boards_y,threads,method,syncs_per_s,round_trips_per_s,
#                              estimate_per_s
#   build/bench/idle.svg       round trips/s against boards, per method, with the estimate
#   build/bench/idle-cpi.csv   boards_x,boards_y,threads,cpi,method,syncs_per_s: the hardware
#                              and the software detectors as the threads of a core share its
#                              pipeline (cpi 1, 4 and 16 on 6x8 boards of 16 threads)
#   build/bench/idle-loop.csv  boards_x,boards_y,threads,syncs_per_s,host_s_per_sync
# and prints a summary. --quick (TESSERA_BENCH_QUICK=1): meshes up to 2x3, boards of 16 and 64
# threads, cpi 1 and 4.
#
# Counting. Modelled figures come from thread 0's 64-bit cycle counter (CSRs 0xc00/0xc80) at the
# modelled clock (240 MHz, L = 150). The hardware does 3 master<->boards round trips per
# synchronisation (detect, release, re-enable): round trips = 3 x synchronisations. A software
# round trip is one pass of the detection token through every thread and back to the master:
# a wave of the clock tree (token down, acknowledgements up) or a lap of Safra's ring, as
# counted by the master (Detector::round_trips()). Their release needs no round trip of its own:
# it rides on the next wave (clock tree) or runs just ahead of the next lap (Safra). The
# estimate 1/(2 L (x + y - 1)) is one hardware round trip with the master at the origin; for
# the centre the same with the centre board's farthest hop count (empty when that is 0: one
# board, no link to cross).
source "$(dirname "$0")/lib.sh"

clock_mhz=240
hop=150
timing="clock-mhz=$clock_mhz,board-hop-cycles=$hop"
small="tiles-x=2,tiles-y=2,cores-per-tile=1,threads-per-core=4"   # 16 threads per board
reference=$(by_quick "tiles-x=4,tiles-y=4,cores-per-tile=4,threads-per-core=16" \
    "tiles-x=2,tiles-y=2,cores-per-tile=1,threads-per-core=16")     # 1,024 per board (quick: 64)
meshes=$(by_quick "1x1 2x3 3x4 4x6 6x6 6x8" "1x1 2x3")
cpi_mesh=$(by_quick 6x8 2x3)
cpis=$(by_quick "1 4 16" "1 4")
methods="hw-origin hw-centre sw-clocktree sw-safra"

csv="$out_dir/idle.csv"
cpi_csv="$out_dir/idle-cpi.csv"
loop_csv="$out_dir/idle-loop.csv"
svg="$out_dir/idle.svg"
rows="$out_dir/idle-rows.txt"   # the summary's extra columns (syncs/s, host s)
echo "boards_x,boards_y,threads,method,syncs_per_s,round_trips_per_s,estimate_per_s" >"$csv"
echo "boards_x,boards_y,threads,cpi,method,syncs_per_s" >"$cpi_csv"
: >"$rows"

# field <name> <line>: the value after "<name>" in an idle_bench/idle_loop line.
field() { echo "$2" | awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }'; }

# estimate <x> <y> <master>: one hardware round trip per modelled second, or empty.
estimate() {
    awk -v x="$1" -v y="$2" -v m="$3" -v l="$hop" -v f="$clock_mhz" 'BEGIN {
        if (m == "origin") h = x + y - 1
        else {
            cx = int(x / 2); cy = int(y / 2)
            h = (cx > x - 1 - cx ? cx : x - 1 - cx) + (cy > y - 1 - cy ? cy : y - 1 - cy)
        }
        if (h > 0) printf "%.1f", f * 1e6 / (2 * l * h)
    }'
}

# per_s <count> <cycles>: a count per modelled second.
per_s() { awk -v n="$1" -v c="$2" -v f="$clock_mhz" 'BEGIN { printf "%.1f", n * f * 1e6 / c }'; }

# run_idle_bench <x> <y> <board shape> <method> [extra machine options]: the idle_bench result
# line of one checked run.
run_idle_bench() {
    local x=$1 y=$2 shape=$3 method=$4 extra=${5:-} app out
    case $method in
    hw-origin) app=idle_bench_hw extra="$extra,idle-master=origin" ;;
    hw-centre) app=idle_bench_hw extra="$extra,idle-master=centre" ;;
    sw-clocktree) app=idle_bench_clocktree ;;
    sw-safra) app=idle_bench_safra ;;
    esac
    out=$(boot "$apps/$app.elf" "boards-x=$x,boards-y=$y,$shape,$timing$extra")
    expect_line "$app on ${x}x$y boards" '^idle_bench:' "$out"
}

# measure <x> <y> <board shape> <method>: one idle_bench run, one CSV row.
measure() {
    local x=$1 y=$2 shape=$3 method=$4 line start end
    start=$(date +%s.%N)
    line=$(run_idle_bench "$x" "$y" "$shape" "$method")
    end=$(date +%s.%N)
    local threads syncs cycles rts est rate syncs_per_s host
    threads=$(field threads "$line") syncs=$(field syncs "$line")
    cycles=$(field cycles "$line") rts=$(field round_trips "$line")
    case $method in
    # The protocol's three master<->boards round trips per synchronisation (docs/idle.md).
    hw-*) rts=$((3 * syncs)) est=$(estimate "$x" "$y" "${method#hw-}") ;;
    *) est="" ;;
    esac
    rate=$(per_s "$rts" "$cycles")
    syncs_per_s=$(per_s "$syncs" "$cycles")
    host=$(echo "$end - $start" | bc -l | xargs printf '%.1f')
    echo "$x,$y,$threads,$method,$syncs_per_s,$rate,$est" >>"$csv"
    echo "$x $y $threads $method $rate ${est:--} $syncs_per_s $syncs $cycles $host" >>"$rows"
    printf '  %-5s %6s  %-13s %12s rt/s  %10s est  %10s syncs/s  (%s syncs, %s cycles, %s s host)\n' \
        "${x}x$y" "$threads" "$method" "$rate" "${est:--}" "$syncs_per_s" "$syncs" "$cycles" "$host"
}

bench_start=$SECONDS
echo "Round trips per modelled second, 16 threads per board (2x2 tiles x 1 core x 4 threads):"
for mesh in $meshes; do
    for method in $methods; do
        measure "${mesh%x*}" "${mesh#*x}" "$small" "$method"
    done
done
echo "Round trips per modelled second, 2x3 boards of $reference:"
for method in $methods; do
    measure 2 3 "$reference" "$method"
done

echo "Synchronisations per modelled second as the threads of a core share its pipeline," \
    "${cpi_mesh} boards of 16 threads:"
for cpi in $cpis; do
    for method in hw-origin sw-clocktree sw-safra; do
        line=$(run_idle_bench "${cpi_mesh%x*}" "${cpi_mesh#*x}" "$small" "$method" ",cpi=$cpi")
        sps=$(per_s "$(field syncs "$line")" "$(field cycles "$line")")
        echo "${cpi_mesh%x*},${cpi_mesh#*x},$(field threads "$line"),$cpi,$method,$sps" >>"$cpi_csv"
        printf '  cpi %-3s %-13s %12s syncs/s\n' "$cpi" "$method" "$sps"
    done
done

echo "Tight tinselIdle loop (host time between two console lines of one run):"
echo "boards_x,boards_y,threads,syncs_per_s,host_s_per_sync" >"$loop_csv"
loop_row() {
    local x=$1 y=$2 published=$3 stamped line t0 t1 threads syncs cycles sps hps
    stamped=$(boot_stamped "$apps/idle_loop.elf" "boards-x=$x,boards-y=$y,$reference,$timing")
    t0=$(expect_line "idle_loop on ${x}x$y boards" ' idle_loop: start' "$stamped" | awk '{ print $1 }')
    line=$(expect_line "idle_loop on ${x}x$y boards" ' idle_loop: threads ' "$stamped")
    t1=${line%% *}
    line=${line#* }
    threads=$(field threads "$line") syncs=$(field syncs "$line") cycles=$(field cycles "$line")
    sps=$(per_s "$syncs" "$cycles")
    hps=$(awk -v a="$t0" -v b="$t1" -v s="$syncs" 'BEGIN { printf "%.5f", (b - a) / s }')
    echo "$x,$y,$threads,$sps,$hps" >>"$loop_csv"
    printf '  %-5s %6s threads  %10s syncs/s modelled (reference hardware: %s)  %s host s/sync (%s syncs)\n' \
        "${x}x$y" "$threads" "$sps" "$published" "$hps" "$syncs"
}
loop_row 3 2 40000
[ "$quick" = 1 ] || loop_row 3 4 26000

/usr/bin/python3 "$(dirname "$0")/idle_plot.py" "$csv" "$svg"
echo
echo "Summary (modelled at $clock_mhz MHz, L = $hop; rt = round trips; hw counts 3 per synchronisation):"
awk '
{ key = $1 "x" $2 "/" $3; m[key, $4] = $5; e[key, $4] = $6; s[key, $4] = $7; if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
END {
    printf "  %-11s %12s %12s %12s %12s %12s %12s %9s %9s\n", "boards/thr", "hw-origin", "estimate", "hw-centre", "estimate", "clocktree", "safra", "hw/ct", "hw/safra"
    for (i = 1; i <= n; i++) {
        k = order[i]
        printf "  %-11s %12s %12s %12s %12s %12s %12s %9.2f %9.2f\n", k, m[k, "hw-origin"], e[k, "hw-origin"], m[k, "hw-centre"], e[k, "hw-centre"], m[k, "sw-clocktree"], m[k, "sw-safra"], m[k, "hw-origin"] / m[k, "sw-clocktree"], m[k, "hw-origin"] / m[k, "sw-safra"]
    }
    printf "  synchronisations per modelled second (ratios: hw-origin over software):\n"
    printf "  %-11s %12s %12s %12s %12s %9s %9s\n", "boards/thr", "hw-origin", "hw-centre", "clocktree", "safra", "hw/ct", "hw/safra"
    for (i = 1; i <= n; i++) {
        k = order[i]
        printf "  %-11s %12s %12s %12s %12s %9.2f %9.2f\n", k, s[k, "hw-origin"], s[k, "hw-centre"], s[k, "sw-clocktree"], s[k, "sw-safra"], s[k, "hw-origin"] / s[k, "sw-clocktree"], s[k, "hw-origin"] / s[k, "sw-safra"]
    }
}' "$rows"
rm -f "$rows"
wrote "$csv" "$cpi_csv" "$svg" "$loop_csv"
