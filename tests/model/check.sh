#!/usr/bin/env bash
# Exhaustive model check of termination detection (tests/model/termdet.pml,
# docs/model-check.md) with spin.
#
#   tests/model/check.sh [-w DIR] [CASE...]     (no CASE: every case)
#   tests/model/check.sh -l                      (list the cases)
#
# Each case generates pan with spin -a, compiles it and runs a full search
# (never bitstate) in DIR/CASE (default: a fresh directory under /tmp, kept
# for its trail). A run of the real protocol passes if the search completes
# with no error. A run of a broken variant passes if spin finds an error of
# the expected kind; its counterexample is printed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
model=$here/termdet.pml

# name | kind | spin -D flags | what must be found (broken variants)
# kind: safety (assertions, deadlocks), liveness (LTL `live`, acceptance
# cycles), broken-safety, broken-liveness.
# Bounds (NB boards, TPB threads per board, MSGS messages in all, host
# included) keep each run under about 1.5 GB and a minute on 2 cores.
cases=(
    "safety_2_boards|safety|-DNB=2 -DTPB=2 -DMSGS=3|"
    "safety_3_boards|safety|-DNB=3 -DTPB=1 -DMSGS=3|"
    "safety_3_boards_2_threads|safety|-DNB=3 -DTPB=2 -DMSGS=1|"
    "liveness_2_boards|liveness|-DNB=2 -DTPB=2 -DMSGS=2|"
    "liveness_3_boards|liveness|-DNB=3 -DTPB=1 -DMSGS=2|"
    "no_send_disable_is_caught|broken-safety|-DNB=2 -DTPB=2 -DMSGS=2 -DNO_SEND_DISABLE|VIOLATED: P3 tinselIdle returns 0"
    "no_host_disable_is_caught|broken-safety|-DNB=2 -DTPB=2 -DMSGS=2 -DNO_HOST_DISABLE|VIOLATED: P3"
    "no_colour_is_caught|broken-safety|-DNB=2 -DTPB=2 -DMSGS=2 -DNO_COLOUR|VIOLATED: P1"
    "no_host_colour_is_caught|broken-safety|-DNB=2 -DTPB=2 -DMSGS=2 -DNO_HOST_COLOUR|VIOLATED: P1"
    "no_latch_is_caught|broken-safety|-DNB=2 -DTPB=2 -DMSGS=2 -DNO_LATCH|VIOLATED: P3 tinselIdle returns 0"
    "no_stall_wake_is_caught|broken-liveness|-DNB=2 -DTPB=2 -DMSGS=2 -DNO_STALL_WAKE|acceptance cycle"
)

# pan's limits: 2000 MB, a 2^24-slot hash table, no depth bound in practice.
memlim_mb=2000
hash_bits=24
max_depth=100000

workdir=
usage() {
    sed -n '5,7p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
while getopts "w:lh" opt; do
    case $opt in
    w) workdir=$OPTARG ;;
    l) for c in "${cases[@]}"; do echo "${c%%|*}"; done; exit 0 ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))

SPIN=${SPIN:-spin}
CC=${CC:-cc}
command -v "$SPIN" >/dev/null || {
    echo "check.sh: $SPIN not found (Debian package: spin)" >&2
    exit 1
}
if [ -z "$workdir" ]; then
    workdir=$(mktemp -d /tmp/tessera-model.XXXXXX)
fi
mkdir -p "$workdir"

field() { # field N "a|b|c"
    local IFS='|'
    # shellcheck disable=SC2206
    local f=($2)
    echo "${f[$1]:-}"
}

define() { # define NAME "flags": the value of -DNAME=V
    sed -n "s/.*-D$1=\([0-9]*\).*/\1/p" <<<"$2"
}

run_case() {
    local spec=$1 name kind flags expect dir out
    name=$(field 0 "$spec")
    kind=$(field 1 "$spec")
    flags=$(field 2 "$spec")
    expect=$(field 3 "$spec")
    dir=$workdir/$name
    rm -rf "$dir"
    mkdir -p "$dir"
    cd "$dir"

    local spin_flags cc_flags=(-O2 -w "-DMEMLIM=$memlim_mb")
    read -r -a spin_flags <<<"$flags"
    local pan_flags=("-m$max_depth" "-w$hash_bits")
    case $kind in
    safety) cc_flags+=(-DSAFETY) ;;
    broken-safety)
        # -DREACH -i: iterate to the shortest counterexample, which is
        # the one worth reading.
        cc_flags+=(-DSAFETY -DREACH)
        pan_flags+=(-i) ;;
    liveness | broken-liveness)
        # No fairness: the property is checked over every run, fair or not
        # (docs/model-check.md says why none is needed).
        spin_flags+=(-DLIVENESS)
        cc_flags+=(-DNOFAIR)
        pan_flags+=(-a) ;;
    esac

    "$SPIN" -a "${spin_flags[@]}" "$model" >spin.txt 2>&1 || {
        cat spin.txt >&2
        echo "$name: FAIL (spin -a)"
        return 1
    }
    "$CC" "${cc_flags[@]}" -o pan pan.c >cc.txt 2>&1 || {
        cat cc.txt >&2
        echo "$name: FAIL (compiling pan)"
        return 1
    }
    out=$dir/pan.txt
    # pan exits 0 whether or not it finds errors; the output decides.
    ./pan "${pan_flags[@]}" >"$out" 2>&1 || true

    local states transitions depth errors secs mem complete=yes
    states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$out")
    transitions=$(sed -n 's/^ *\([0-9.e+]*\) transitions.*/\1/p' "$out")
    depth=$(sed -n 's/.*depth reached \([0-9]*\),.*/\1/p' "$out")
    errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$out")
    secs=$(sed -n 's/^pan: elapsed time \([0-9.e+]*\) seconds.*/\1/p' "$out")
    mem=$(sed -n 's/^ *\([0-9.]*\)[[:space:]]*total actual memory usage.*/\1/p' "$out")
    if grep -qiE "search not completed|max search depth too small|reached -DMEMLIM|out of memory" "$out"; then
        complete=no
    fi

    local nb tpb msgs host=", host"
    nb=$(define NB "$flags")
    tpb=$(define TPB "$flags")
    msgs=$(define MSGS "$flags")
    [[ " $flags " == *" -DNO_HOST "* ]] && host=""
    local shape="$nb boards, $tpb threads per board, $msgs messages$host"
    local stats="${states:-?} states, ${transitions:-?} transitions, depth ${depth:-?}, ${secs:-?} s, ${mem:-?} MB"

    local verdict reason=""
    case $kind in
    safety | liveness)
        if [ -z "$errors" ] || [ -z "$depth" ]; then
            verdict=FAIL reason="pan did not finish (see $out)"
        elif [ "$errors" != 0 ]; then
            verdict=FAIL reason="errors: $errors"
        elif [ $complete != yes ]; then
            verdict=FAIL reason="search not complete"
        else
            verdict=PASS reason="errors: 0, complete"
        fi ;;
    broken-*)
        if [ -z "$errors" ] || [ "$errors" = 0 ]; then
            verdict=FAIL reason="the broken variant was not caught"
        else
            verdict=PASS reason="caught (errors: $errors)"
        fi ;;
    esac
    echo "$name: $shape | $stats | $verdict: $reason"

    if [[ $kind == broken-* && $verdict == PASS ]]; then
        local trail=(./*.trail)
        # Replay: the model's printf lines tell the story; drop spin's
        # dump of the variables.
        "$SPIN" -T -t -k "${trail[0]}" "${spin_flags[@]}" "$model" >replay.txt 2>&1 || true
        grep -vE '^[[:space:]]+[a-z_]+(\[[0-9]+\])? = |^#processes|^[[:space:]]*$|^[[:space:]]*[0-9]+:[[:space:]]+proc|^ltl |^Never claim|^spin: trail ends|^[0-9]+ processes' \
            replay.txt | sed 's/^/    /'
        if [ -n "$expect" ] && ! grep -qF "$expect" "$out" replay.txt; then
            echo "$name: FAIL: expected \"$expect\" in the counterexample"
            return 1
        fi
    fi
    [ $verdict = PASS ]
}

selected=("$@")
if [ ${#selected[@]} -eq 0 ]; then
    for c in "${cases[@]}"; do selected+=("${c%%|*}"); done
fi

status=0
for name in "${selected[@]}"; do
    spec=
    for c in "${cases[@]}"; do
        [ "${c%%|*}" = "$name" ] && spec=$c
    done
    if [ -z "$spec" ]; then
        echo "check.sh: no case $name (-l lists them)" >&2
        status=1
        continue
    fi
    (run_case "$spec") || status=1
done
exit $status
