#!/usr/bin/env bash
# The host link over ranks (docs/ranks.md): tessera-host prints what every thread sends it, with
# the machine in one process with time windows and then over N ranks; the output (every message
# and the cycle it reached the host) and the exit status must be the same. The host sends
# nothing: when its frames reach the machine depends on the host's own timing, one process or
# several (docs/ranks.md, the window rule), so their cycles are no fixed figure. hostlink_echo's
# thread 0 then waits for the host forever: a deadlock, found once the host has finished, the
# same report and status on every split.
#   ranks_check.sh <tessera-host> <qemu-cmd.sh> <qemu> <elf> <properties> <N,...>
set -uo pipefail
host=$1 cmd=$2 qemu=$3 elf=$4 props=$5 counts=$6
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT

run() {
    local ranks=()
    [ "$1" = 1 ] || ranks=(--ranks "$1")
    timeout 120 "$host" -- "$cmd" "${ranks[@]}" "$qemu" "$elf" "$props,windows=on" \
        </dev/null 2>"$errors"
    echo "exit status $?"
    grep -v '^==[0-9]*==WARNING: ASan' "$errors"
    if grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error: ' "$errors"; then
        echo "sanitizer report: $(grep -Em1 'ERROR: (Address|Leak)Sanitizer|runtime error: ' "$errors")"
    fi
}

reference_ok() {
    grep -q "^exit status 125$" <<<"$1" && grep -q "^host <- " <<<"$1"
}

source "$(dirname "$0")/../partition_compare.sh"
partition_compare ranks "$counts" "$errors"
echo "ok: one process and $counts ranks, the same $(grep -c '^host <- ' <<<"$reference") messages to the host"
