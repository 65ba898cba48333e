#!/usr/bin/env bash
# Partition independence over processes (docs/ranks.md): runs an image on one process with time
# windows, then on each given number of ranks under mpirun. Fails unless every run exits as the
# one-process run does and prints the same output byte for byte (console-ids=on: every thread's
# lines, modelled figures included, in the order of modelled time that windows give).
#   ranks_check.sh <ranks,...> -- <qemu-cmd.sh> <qemu> <elf> <properties> [-- qemu args]
# TESSERA_MPI_TRANSPORT=tcp runs the ranks over TCP, as between hosts.
set -uo pipefail
ranks=${1:?usage: ranks_check.sh <ranks,...> -- <qemu-cmd.sh> <qemu> <elf> <properties>}
shift 2
cmd=$1 qemu=$2 elf=$3 props=$4
shift 4
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT

run() {
    local out status n=$1
    shift
    out=$(timeout 300 "$cmd" --ranks "$n" "$qemu" "$elf" "$props,console-ids=on,windows=on" \
        "$@" </dev/null 2>"$errors")
    status=$?
    printf '%s\n' "$out"
    echo "exit status $status"
}

reference=$(run 1 "$@")
if [ -z "$(echo "$reference" | sed '$d')" ]; then
    echo "FAILED: one process printed nothing ($(echo "$reference" | tail -n 1))"
    tail -n 20 "$errors"
    exit 1
fi
for n in ${ranks//,/ }; do
    out=$(run "$n" "$@")
    if [ "$out" != "$reference" ]; then
        echo "FAILED: $n ranks differ from one process:"
        diff <(echo "$reference") <(echo "$out") | head -n 20
        echo "--- stderr of the $n ranks:"
        tail -n 20 "$errors"
        exit 1
    fi
done
echo "ok: 1 process and ${ranks} ranks, identical output ($(echo "$reference" | wc -l) lines," \
    "$(echo "$reference" | tail -n 1))"
