#!/usr/bin/env bash
# ./tessera bench host [--quick] [--against <commit>]... [--workloads w,...] [--runs N]: where the
# emulator's host time goes,
# on one core, for five workloads (issue 29; docs/machine.md "Where host time goes"):
#   compute    the compute-only loop of apps/bench_mips (6 instructions a turn), one hart
#   pingpong   two threads on different boards bounce a one-flit message, the rest returned
#   idle       tinselIdle back to back on every thread (termination detection, no messages)
#   heat_sync  heat transfer (apps/vertex/heat.h), synchronous, on a geometric random graph
#   heat_async the same, GALS
#   boot       the cluster booted with nothing to do (its fixed cost, inside every row but compute)
# --workloads runs only those (boot among them or not), for a quicker side-by-side of one change.
# on the 3x2 cluster (6,144 threads; boards/tessera/cluster-3x2.props): 100,000,000 loop turns,
# 20,000 round trips, 2,000 synchronisations, heat on 20,000 vertices (200,000 edges) for 100
# steps. --quick (TESSERA_BENCH_QUICK=1): 3x2 boards of 16 threads (96), 2,000,000 turns, 2,000
# round trips, 50 synchronisations, heat on 2,000 vertices for 4 steps.
#
# Every workload is a program in Tinsel's dialect (tests/bench/host/), built against an SDK:
# the tree's own (./tessera sdk), and with --against, each commit's, built by its own ./tessera in
# a git worktree under build/bench-host/<commit>/ (kept for the next run; its QEMU comes from
# the QEMU cache, keyed by its inputs). So each build runs the same source with its own runtime,
# HostLink and QEMU. The runs interleave: each workload, 3 times (--quick: once; --runs N: N
# times, for a machine whose speed moves more between runs), each build in turn; host_s is the
# median. Every run is checked (exit status, its output, heat against the
# host reference); a build's modelled results (the programs' cycle and message counts) are
# compared with the tree's and the summary says where they differ.
#
# Counting, per run:
#   host_s       wall time of the QEMU process from start to exit (heat: from HostLink's boot to
#                the machine's exit, the graph's generation, placement and check left out)
#   guest_instr  instructions retired by every hart (the clock model's icount), and
#   csr_ops      the harts' mailbox CSR operations (each an exit from translated code; one that
#                blocks and is retried counts again), and
#   messages     messages sent, a multicast counting once per copy (the host's included): all
#                three from the machine's trace event tessera_run_counts at its exit
#                (docs/tracing.md), in the extra run below, not in the timed ones (any trace
#                event on costs the idle loop about 7% of its host time); empty for a build whose
#                QEMU has no such event
#   guest_share  perf record (cpu-clock at 999 Hz) of one more run of the same workload (the
#                extra run, which also traces the counts; without perf, it runs plain): of
#                the samples in the QEMU process, the share whose code is translated guest code
#                (TCG's code buffer, which has no file behind it; QEMU's own code, its libraries
#                and the kernel count as host), and the shares of the machine's code, the rest
#                of QEMU, locks, libraries and the kernel (host_profile.awk has the classes).
#                Empty where perf is missing or not permitted. The top symbols of each profile
#                go to host-profile-<build>.txt.
#
# Writes
#   build/bench/host.csv         build,commit,workload,harts,guest_instr,host_s,guest_mips,
#                                csr_ops,host_ns_per_csr,messages,host_ns_per_message,
#                                guest_share,machine_share,qemu_share,lock_share,
#                                library_share,kernel_share,modelled (a row per build
#                                and workload;
#                                modelled: what the program printed, host time left out)
#   build/bench/host-ratio.csv   workload,build,baseline,host_s,baseline_host_s,speedup,
#                                modelled_equal (with --against: the tree over each commit)
#   build/bench/host-summary.txt the table and ratios (printed too)
#   build/bench/host-profile-<build>.txt  perf's top symbols per workload
source "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
bench_start=$SECONDS
against=()
only=""
runs_opt=""
while [ $# -gt 0 ]; do
    case $1 in
    --against) [ $# -ge 2 ] || bench_fail "--against needs a commit" 2; against+=("$2"); shift 2 ;;
    --against=*) against+=("${1#--against=}"); shift ;;
    --workloads) [ $# -ge 2 ] || bench_fail "--workloads needs a list" 2; only=$2; shift 2 ;;
    --workloads=*) only=${1#--workloads=}; shift ;;
    --runs) [ $# -ge 2 ] || bench_fail "--runs needs a number" 2; runs_opt=$2; shift 2 ;;
    --runs=*) runs_opt=${1#--runs=}; shift ;;
    *) bench_fail "unexpected argument '$1' (usage: ./tessera bench host [--quick] [--against <commit>]... [--workloads w,...] [--runs N])" 2 ;;
    esac
done

root="$TESSERA_REPO/build/bench-host"
mkdir -p "$root"
quick_suffix=$(by_quick "" "-quick")
runs=$(by_quick 3 1)
if [ -n "$runs_opt" ]; then
    [[ $runs_opt =~ ^[1-9][0-9]*$ ]] || bench_fail "--runs $runs_opt: a whole number of runs, 1 or more" 2
    runs=$runs_opt
fi
vertices=$(by_quick 20000 2000)
steps=$(by_quick 100 4)
workloads="boot compute pingpong idle heat_sync heat_async"
if [ -n "$only" ]; then
    for w in ${only//,/ }; do
        case " $workloads " in *" $w "*) ;; *) bench_fail "--workloads: no workload '$w' (one of: $workloads)" 2 ;; esac
    done
    workloads=${only//,/ }
fi

# ---- The builds: the tree's own, then each --against commit ----
labels=() commits=() dirs=()
head=$(git -C "$TESSERA_REPO" rev-parse --short=10 HEAD)
[ -z "$(git -C "$TESSERA_REPO" status --porcelain --untracked-files=no)" ] || head="$head+changes"
labels+=(tree) commits+=("$head") dirs+=("$root/tree")
for c in "${against[@]}"; do
    sha=$(git -C "$TESSERA_REPO" rev-parse --verify --quiet "$c^{commit}") ||
        bench_fail "--against $c: no such commit" 2
    labels+=("${sha:0:10}") commits+=("${sha:0:10}") dirs+=("$root/${sha:0:10}")
done


# prepare <index>: the build's SDK and the bench's programs built against it.
prepare() {
    local i=$1 dir=${dirs[$1]} label=${labels[$1]}
    mkdir -p "$dir"
    if [ "$i" -eq 0 ]; then
        checked "the tree's SDK" "${clean_env[@]}" "$TESSERA_REPO/tessera" sdk "$dir/sdk" >/dev/null
    else
        if [ ! -e "$dir/src/.git" ]; then
            rm -rf "$dir/src"
            checked "a worktree of $label" git -C "$TESSERA_REPO" worktree add --detach \
                "$dir/src" "${commits[$i]}" >/dev/null
        fi
        echo "  building $label in ${dir#"$TESSERA_REPO"/}/src (once; later runs reuse it)"
        checked "the SDK of $label" "${clean_env[@]}" "$dir/src/tessera" sdk "$dir/sdk" >/dev/null
    fi
    checked "configuring the programs for $label" cmake -S "$here/host" \
        -B "$dir/programs$quick_suffix" -G Ninja -DCMAKE_PREFIX_PATH="$dir/sdk" \
        -DBENCH_HOST_QUICK="$(by_quick OFF ON)" >/dev/null
    checked "building the programs for $label" cmake --build "$dir/programs$quick_suffix" -j 2 \
        >/dev/null
}

echo "Builds:"
for i in "${!labels[@]}"; do
    prepare "$i"
    printf '  %-12s %s\n' "${labels[$i]}" "${commits[$i]} (${dirs[$i]#"$TESSERA_REPO"/}/sdk)"
done

# The QEMU every run boots, through boards/tessera/qemu-cmd.sh and HostLink (TESSERA_QEMU):
# the build's own, with the counts event on and, for the profile run, under perf record.
wrapper="$root/qemu$quick_suffix.sh"
cat >"$wrapper" <<'EOF'
#!/usr/bin/env bash
# ./tessera bench host's QEMU: BENCH_QEMU with its counts traced into BENCH_COUNTS (if set),
# under perf record into BENCH_PERF (if set).
args=("$@")
[ -z "${BENCH_COUNTS:-}" ] || args+=(-trace tessera_run_counts -D "$BENCH_COUNTS")
[ -z "${BENCH_PERF:-}" ] || exec perf record -q -F 999 -o "$BENCH_PERF" -- "$BENCH_QEMU" "${args[@]}"
exec "$BENCH_QEMU" "${args[@]}"
EOF
chmod +x "$wrapper"

counts_of=()
for i in "${!labels[@]}"; do
    qemu="${dirs[$i]}/sdk/libexec/tessera/qemu-system-riscv32"
    if "$qemu" -trace help 2>/dev/null | grep -qx tessera_run_counts; then counts_of+=(1); else counts_of+=(0); fi
done

perf_ok=0
perf_why="perf is not installed (./tessera figures installs linux-perf)"
if command -v perf >/dev/null; then
    if perf record -q -o "$root/perf-check.data" -- true 2>/dev/null; then
        perf_ok=1
    else
        perf_why="perf record is not permitted (/proc/sys/kernel/perf_event_paranoid is $(cat /proc/sys/kernel/perf_event_paranoid))"
    fi
    rm -f "$root/perf-check.data"
fi

# props <file>: its key=value lines, comments dropped, as one comma-joined argument.
props() { sed 's/#.*//' "$1" | grep -v '^[[:space:]]*$' | paste -sd, -; }
cluster_props() {
    if [ "$quick" = 1 ]; then echo "$here/host/quick.props"
    else echo "${dirs[$1]}/sdk/share/tessera/boards/cluster-3x2.props"; fi
}

raw="$out_dir/host-runs.tsv"
printf 'index\tworkload\tharts\tkind\thost_s\tguest_instr\tcsr_ops\tmessages\tprofile\tmodelled\n' >"$raw"

# run <index> <workload> <time|perf|count>: one checked run; appends its row to host-runs.tsv.
# time: timed, nothing traced; perf: under perf record, with the counts; count: the counts alone
# (where perf cannot run).
run() {
    local i=$1 w=$2 kind=$3 label=${labels[$1]} progs="${dirs[$1]}/programs$quick_suffix"
    local sdk="${dirs[$1]}/sdk" counts="$root/counts$quick_suffix" perf_data="" shape out line
    local start end host_s modelled share=""
    [ "$kind" = perf ] && perf_data="$root/profile$quick_suffix-$label-$w.data"
    [ -z "$perf_data" ] || rm -f "$perf_data" "$perf_data.old"
    rm -f "$counts"
    export BENCH_QEMU="$sdk/libexec/tessera/qemu-system-riscv32" BENCH_PERF="$perf_data"
    # The counts come from the extra run: the trace event that gives them costs a timed run up to
    # a tenth of its host time (the idle loop), and an older build has no such event.
    export BENCH_COUNTS=""
    [ "$kind" = time ] || [ "${counts_of[$i]}" = 0 ] || BENCH_COUNTS="$counts"
    shape=$(cluster_props "$i")
    start=$(date +%s.%N)
    case $w in
    boot | pingpong | idle)
        local elf="$progs/$w/$w.elf"
        [ "$w" = boot ] && elf="$progs/boot/boot.elf"
        out=$(checked "$w on $label" "$sdk/libexec/tessera/qemu-cmd.sh" "$wrapper" "$elf" "$(props "$shape")")
        ;;
    compute)
        shape="$here/host/one-hart.props"
        out=$(checked "$w on $label" "$sdk/libexec/tessera/qemu-cmd.sh" "$wrapper" "$progs/$w/$w.elf" "$(props "$shape")")
        ;;
    heat_*)
        out=$(checked "$w on $label" env -C "$progs/$w" TESSERA_QEMU="$wrapper" ./run "$vertices" "$steps")
        ;;
    esac
    end=$(date +%s.%N)
    case $w in
    heat_*)
        line=$(expect_line "$w on $label" "^heat " "$out")
        host_s=$(awk '{ for (i = 1; i < NF; i++) if ($i == "host_s") print $(i + 1) }' <<<"$line")
        modelled=${line% host_s *}
        ;;
    *)
        modelled=$(expect_line "$w on $label" "^$w:" "$out")
        host_s=$(echo "$end - $start" | bc -l)
        ;;
    esac
    local instr="" ops="" msgs=""
    if [ -n "$BENCH_COUNTS" ]; then
        line=$(grep 'tessera_run_counts' "$counts" | tail -n 1) ||
            bench_fail "$w on $label: no tessera_run_counts line in its trace"
        read -r instr ops msgs < <(awk '{ for (i = 1; i < NF; i++) v[$i] = $(i + 1) }
            END { print v["retired"], v["mailbox_csr_ops"], v["messages"] }' <<<"$line")
    fi
    if [ "$kind" = perf ]; then
        share=$(perf script -i "$perf_data" -F comm,ip,sym,dso 2>/dev/null |
            awk -f "$here/host_profile.awk") ||
            bench_fail "$w on $label: perf recorded no sample of QEMU"
        {
            echo "== $w (${labels[$i]}, ${commits[$i]}): samples, then the shares of guest," \
                "machine, QEMU, locks, libraries, kernel (host_profile.awk): $share"
            echo "   top symbols of the QEMU process (perf report --sort comm,dso,sym):"
            perf report -i "$perf_data" --stdio -q --sort comm,dso,sym 2>/dev/null |
                grep -m 25 ' qemu-system' || true
            echo
        } >>"$out_dir/host-profile-$label.txt"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$i" "$w" "$(harts "$shape")" "$kind" \
        "$host_s" "$instr" "$ops" "$msgs" "$share" "$modelled" >>"$raw"
    printf '  %-10s %-12s %-5s %9.3f s  %s\n' "$w" "$label" "$kind" "$host_s" "$modelled"
}

echo "Runs (each workload $runs time(s) per build, interleaved, then once $([ "$perf_ok" = 1 ] && echo "under perf" || echo "more") for the counts):"
for w in $workloads; do
    for ((r = 0; r < runs; r++)); do
        for i in "${!labels[@]}"; do run "$i" "$w" time; done
    done
    for i in "${!labels[@]}"; do run "$i" "$w" "$([ "$perf_ok" = 1 ] && echo perf || echo count)"; done
done

labels_arg=$(IFS=,; echo "${labels[*]}")
commits_arg=$(IFS=,; echo "${commits[*]}")
counts_arg=$(IFS=,; echo "${counts_of[*]}")
/usr/bin/python3 "$here/host_report.py" "$out_dir" "$labels_arg" "$commits_arg" "$counts_arg" \
    "$([ "$perf_ok" = 1 ] && echo "" || echo "$perf_why")" \
    "$(by_quick "full: 3x2 cluster of 6,144 threads, heat on $vertices vertices for $steps steps" \
        "quick: 3x2 boards of 16 threads, heat on $vertices vertices for $steps steps")" \
    "$(uptime | sed 's/.*load average: //')"
wrote "$out_dir/host.csv" "$out_dir/host-ratio.csv" "$out_dir/host-summary.txt"
