# Shared by the benchmark scripts: run firmware on the tessera machine in the deterministic mode,
# check every run before anything of it is recorded, and time it.
#   TESSERA_REPO, TESSERA_QEMU  come from ./tessera bench (or ./tessera figures).
#   TESSERA_BENCH_OUT           where the outputs land (default build/bench).
#   TESSERA_BENCH_QUICK=1       the small shapes (./tessera bench --quick, ./tessera figures --quick).
#
# A bench fails loudly: the first run that fails (exit status, missing or wrong output) ends it
# with that status and one line naming the run, and nothing it wrote reaches the output folder.
# Every bench writes into a private folder that replaces its files in the output folder only
# when the bench ends with status 0.
set -euo pipefail
shopt -s inherit_errexit

bench_name=$(basename "$0" .sh)
apps="$TESSERA_REPO/build/firmware/apps"
bench_out="${TESSERA_BENCH_OUT:-$TESSERA_REPO/build/bench}"
quick="${TESSERA_BENCH_QUICK:-0}"
mkdir -p "$bench_out"
out_dir=$(mktemp -d "$bench_out/.$bench_name.XXXXXX")
# The runs' stderr, kept for the line that names a failed run.
run_logs="$bench_out/logs"
mkdir -p "$run_logs"

bench_end() {
    local status=$1
    if [ "$status" -eq 0 ] && [ -n "$(ls -A "$out_dir")" ]; then
        mv -f "$out_dir"/* "$bench_out"/
    fi
    rm -rf "$out_dir"
}
trap 'bench_end $?' EXIT

# The QEMU command line, formed in one place for ./tessera, the tests and here.
qemu_cmd="$TESSERA_REPO/boards/tessera/qemu-cmd.sh"

# bench_fail <message> [status]: the one line, then the bench ends.
bench_fail() {
    echo "$bench_name bench: $1" >&2
    exit "${2:-1}"
}

# checked <what> <command...>: runs the command with its stdout passed on and its stderr kept
# in build/bench/logs; a non-zero status ends the bench with that status and one line.
checked() {
    local what=$1 log status=0
    shift
    log="$run_logs/$bench_name-$(echo "$what" | tr -c 'A-Za-z0-9_.=-' '_' | cut -c1-80).log"
    "$@" 2>"$log" || status=$?
    [ "$status" -eq 0 ] || bench_fail "$what: exit status $status (stderr: ${log#"$TESSERA_REPO"/})" "$status"
}

# boot <app-elf> <machine options> [qemu args]: prints the guest's output; a guest whose verdict
# is not success ends the bench.
boot() {
    local elf=$1 machine=$2
    shift 2
    checked "$(basename "$elf" .elf) on $machine" "$qemu_cmd" "$TESSERA_QEMU" "$elf" "$machine" -- "$@"
}

# boot_stamped <app-elf> <machine options>: boot, with each line of the guest's output prefixed
# by the host time it arrived (for host time between two lines of one run, boot excluded).
boot_stamped() {
    boot "$@" | while IFS= read -r line; do echo "$(date +%s.%N) $line"; done
}

# expect_line <what> <regex> <output>: the first line of <output> that matches, or the bench ends.
expect_line() {
    local line
    line=$(grep -E -m1 -- "$2" <<<"$3") || bench_fail "$1: no line matches /$2/; its last lines: $(tail -n 2 <<<"$3" | tr '\n' '|')"
    echo "$line"
}

# median_seconds <runs> <what> <command...>: runs the command <runs> times, output discarded,
# and prints the median wall seconds. A failing run ends the bench; it is never timed.
median_seconds() {
    local runs=$1 what=$2 i start end times=()
    shift 2
    for ((i = 0; i < runs; i++)); do
        start=$(date +%s.%N)
        checked "$what" "$@" >/dev/null
        end=$(date +%s.%N)
        times+=("$(echo "$end - $start" | bc -l)")
    done
    printf '%s\n' "${times[@]}" | median
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# "${clean_env[@]}" <command>: a child ./tessera (an SDK build) that sees none of the bench's
# settings, so that each build finds its own.
clean_env=(env -u TESSERA_QEMU -u TESSERA_REPO -u TESSERA_BENCH_OUT -u TESSERA_BENCH_QUICK)

# by_quick <full> <quick>: the first in a normal run, the second with TESSERA_BENCH_QUICK=1.
by_quick() { if [ "$quick" = 1 ]; then echo "$2"; else echo "$1"; fi; }

# harts <file>: the threads of a machine shape (a property file; the machine's defaults for
# what it leaves out).
harts() {
    awk -F= '{ sub(/#.*/, "") } NF == 2 { v[$1] = $2 } END {
        d["boards-x"] = 1; d["boards-y"] = 1; d["tiles-x"] = 2; d["tiles-y"] = 2
        d["cores-per-tile"] = 1; d["threads-per-core"] = 4; n = 1
        for (k in d) n *= (k in v) ? v[k] : d[k]
        print n }' "$1"
}

# wrote <files...>: the closing line, naming the files where they land.
wrote() {
    local f names=()
    for f in "$@"; do names+=("$(basename "$f")"); done
    echo "wrote ${names[*]} in ${bench_out#"$TESSERA_REPO"/} ($((SECONDS - ${bench_start:-0})) s)"
}

# The benches of one operation over every hart (ocbus, reflex): per_operation_run <name> <title>
# <measure>, with $shapes ("harts:properties" lines) set, calls
# `<measure> <harts> <properties> <arrival> <cpi> <csv>` for each shape and each arrival
# (simultaneous, jittered), at cpi 1 into <name>.csv and at cpi = threads per core into
# <name>-cpi-tpc.csv (columns operation,harts,arrival,cycles_per_op,host_s_per_op), each pass
# under "<title>, cpi ...:", then plots both with tests/bench/<name>_plot.py into <name>.svg.
per_operation_run() {
    local name=$1 title=$2 measure=$3 label csv cpi harts shape arrival
    local csv1="$out_dir/$name.csv" csv_tpc="$out_dir/$name-cpi-tpc.csv" svg="$out_dir/$name.svg"
    local header="operation,harts,arrival,cycles_per_op,host_s_per_op"
    echo "$header" >"$csv1"
    echo "$header" >"$csv_tpc"
    bench_start=$SECONDS
    for label in 1 tpc; do
        csv=$csv1
        [ "$label" = tpc ] && csv=$csv_tpc
        echo "$title, cpi ${label/tpc/= threads per core} (modelled cycles; host seconds):"
        while IFS=: read -r harts shape; do
            cpi=1
            [ "$label" = tpc ] && cpi=$(echo "$shape" | sed 's/.*threads-per-core=\([0-9]*\).*/\1/')
            for arrival in simultaneous jittered; do
                "$measure" "$harts" "$shape" "$arrival" "$cpi" "$csv"
            done
        done <<<"$shapes"
    done
    /usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/${name}_plot.py" "$csv1" "$csv_tpc" "$svg"
    wrote "$csv1" "$csv_tpc" "$svg"
}
