#!/usr/bin/env bash
# The host link over ranks (docs/ranks.md): tessera-host sends to thread 0 and prints what every
# thread sends it, with the machine in one process with time windows and then over N ranks; the
# output (every message and the cycle it reached the host) and the exit status must be the same.
#   ranks_check.sh <tessera-host> <qemu-cmd.sh> <qemu> <elf> <properties> <N,...>
set -uo pipefail
host=$1 cmd=$2 qemu=$3 elf=$4 props=$5 counts=$6
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT

run() {
    local ranks=()
    [ "$1" = 1 ] || ranks=(--ranks "$1")
    timeout 120 "$host" --send 0:1,2,3,4 -- "$cmd" "${ranks[@]}" "$qemu" "$elf" \
        "$props,windows=on" </dev/null 2>"$errors"
    echo "exit status $?"
    if grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error: ' "$errors"; then
        echo "sanitizer report: $(grep -Em1 'ERROR: (Address|Leak)Sanitizer|runtime error: ' "$errors")"
    fi
}

reference=$(run 1)
if [ "$(tail -n 1 <<<"$reference")" != "exit status 0" ] || ! grep -q "^host <- " <<<"$reference"; then
    echo "FAILED: in one process: $(tail -n 1 <<<"$reference")"
    tail -n 20 "$errors"
    exit 1
fi
for n in ${counts//,/ }; do
    out=$(run "$n")
    if [ "$out" != "$reference" ]; then
        echo "FAILED: $n ranks differ from one process:"
        diff <(echo "$reference") <(echo "$out") | head -n 20
        echo "--- stderr:"
        tail -n 20 "$errors"
        exit 1
    fi
done
echo "ok: one process and $counts ranks, the same $(grep -c '^host <- ' <<<"$reference") messages to the host"
