#!/usr/bin/env bash
# Partition independence (docs/ranks.md): runs an image with time windows in one piece, then
# split each given way, and fails unless every run exits as the first and prints the same:
#   groups  the boards in N groups that take turns in each window, in one process: every
#           thread's lines the same, in its own order (console-ids=on; threads in id order);
#   ranks   the boards over N processes under mpirun: the same output byte for byte (lines
#           come in the order of modelled time that windows give). TESSERA_MPI_TRANSPORT=tcp
#           runs the ranks over TCP, as between hosts.
#   traces  the boards over N processes, traced: tessera-trace ($TESSERA_TRACE) merges the
#           ranks' events into the same trace file, byte for byte, as one process's
#           (docs/tracing.md).
# Modelled figures are in the lines, so they must agree too.
#   partition_check.sh <groups|ranks|traces> <N,...> -- <qemu-cmd.sh> <qemu> <elf> <properties> [-- qemu args]
set -uo pipefail
usage="usage: partition_check.sh <groups|ranks|traces> <N,...> -- <qemu-cmd.sh> <qemu> <elf> <properties>"
kind=${1:?$usage} counts=${2:?$usage}
shift 3
cmd=$1 qemu=$2 elf=$3 props=$4
shift 4
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
# Seconds each run may take. Four ranks of the sanitizer build spinning on 2 busy cores have
# needed more than 300.
limit=${TESSERA_PARTITION_RUN_SECONDS:-600}

run() {
    local out status n=$1
    shift
    case $kind in
    groups)
        out=$(timeout "$limit" "$cmd" "$qemu" "$elf" \
            "$props,console-ids=on,windows=on,window-groups=$n" "$@" </dev/null 2>"$errors")
        status=$?
        printf '%s\n' "$out" | sort -s -k1,1
        ;;
    ranks)
        out=$(timeout "$limit" "$cmd" --ranks "$n" "$qemu" "$elf" "$props,console-ids=on,windows=on" \
            "$@" </dev/null 2>"$errors")
        status=$?
        printf '%s\n' "$out"
        ;;
    traces)
        local json ranks_args=()
        json=$(mktemp)
        [ "$n" = 1 ] || ranks_args=(--ranks "$n")
        timeout "$limit" "${TESSERA_TRACE:?the tessera-trace to run}" -o "$json" -- "$cmd" \
            "${ranks_args[@]}" "$qemu" "$elf" "$props,windows=on" "$@" </dev/null >/dev/null \
            2>"$errors"
        status=$?
        cat "$json"
        rm -f "$json"
        ;;
    *) echo "partition_check.sh: '$kind' is not groups, ranks or traces" >&2; exit 2 ;;
    esac
    echo "exit status $status"
    [ "$status" != 124 ] || echo "timed out: the run took more than $limit s"
    # Under the sanitize preset: any sanitizer report fails, whatever the output.
    if grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error: |SUMMARY: UndefinedBehaviorSanitizer' \
        "$errors"; then
        echo "sanitizer report: $(grep -Em1 'ERROR: (Address|Leak)Sanitizer|runtime error: ' "$errors")"
    fi
}

reference_ok() {
    [ "$(tail -n 1 <<<"$1")" = "exit status 0" ] && [ -n "$(sed '$d' <<<"$1")" ]
}

source "$(dirname "$0")/partition_compare.sh"
partition_compare "$kind" "$counts" "$errors" "$@"
echo "ok: one piece and ${counts} $kind, identical output ($(echo "$reference" | wc -l) lines)"
