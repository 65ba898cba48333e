#!/usr/bin/env bash
# Partition independence of HostLink programs (docs/ranks.md): a program that boots the machine
# through HostLink, run in one process with time windows and then over N ranks (TESSERA_RANKS=N);
# its modelled figures, the comma-separated fields <fields> of every line of its output (cut -f),
# must be the same. Its host times are left out that way.
#   ranks_figures_check.sh <N,...> <fields> -- <program> [args...]
set -uo pipefail
counts=$1 fields=$2
shift 3
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT

# run <n> <program> [args...]: one process with windows for 1, else n ranks.
run() {
    local n=$1
    shift
    if [ "$n" = 1 ]; then
        TESSERA_HOSTLINK_PROPERTIES=windows=on figures "$@"
    else
        TESSERA_RANKS=$n figures "$@"
    fi
}

figures() {
    "$@" 2>"$errors" | grep , | cut -d, -f"$fields"
    echo "exit status ${PIPESTATUS[0]}"
    if grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error: ' "$errors"; then
        echo "sanitizer report: $(grep -Em1 'ERROR: (Address|Leak)Sanitizer|runtime error: ' "$errors")"
    fi
}

reference_ok() {
    [ "$(tail -n 1 <<<"$1")" = "exit status 0" ] && [ "$(wc -l <<<"$1")" -ge 2 ]
}

source "$(dirname "$0")/partition_compare.sh"
partition_compare ranks "$counts" "$errors" "$@"
echo "ok: one process and $counts ranks, the same figures in $(($(wc -l <<<"$reference") - 1)) lines"
