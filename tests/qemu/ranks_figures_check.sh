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

figures() {
    "$@" 2>"$errors" | grep , | cut -d, -f"$fields"
    echo "exit status ${PIPESTATUS[0]}"
    if grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error: ' "$errors"; then
        echo "sanitizer report: $(grep -Em1 'ERROR: (Address|Leak)Sanitizer|runtime error: ' "$errors")"
    fi
}

reference=$(TESSERA_HOSTLINK_PROPERTIES=windows=on figures "$@")
if [ "$(tail -n 1 <<<"$reference")" != "exit status 0" ] || [ "$(wc -l <<<"$reference")" -lt 2 ]; then
    echo "FAILED: in one process: $(tail -n 1 <<<"$reference")"
    tail -n 20 "$errors"
    exit 1
fi
for n in ${counts//,/ }; do
    out=$(TESSERA_RANKS=$n figures "$@")
    if [ "$out" != "$reference" ]; then
        echo "FAILED: $n ranks differ from one process:"
        diff <(echo "$reference") <(echo "$out") | head -n 20
        echo "--- stderr:"
        tail -n 20 "$errors"
        exit 1
    fi
done
echo "ok: one process and $counts ranks, the same figures in $(($(wc -l <<<"$reference") - 1)) lines"
