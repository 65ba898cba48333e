#!/usr/bin/env bash
# Partition independence of HostLink programs (docs/ranks.md): every vertex app, synchronous and
# GALS, through HostLink (its preload, go(), the messages to the host), in one process with time
# windows and then over N ranks (TESSERA_RANKS=N); every modelled figure of every run the same.
#   ranks_check.sh <vertex_apps_bench> <vertices> <N,...>
set -uo pipefail
bench=$1 vertices=$2 counts=$3
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT

# app,version,seed,vertices,edges,time_steps,messages,cycles: the host's times left out.
figures() {
    "$bench" apps "$vertices" 1 2>"$errors" | cut -d, -f1-8
    echo "exit status ${PIPESTATUS[0]}"
    if grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error: ' "$errors"; then
        echo "sanitizer report: $(grep -Em1 'ERROR: (Address|Leak)Sanitizer|runtime error: ' "$errors")"
    fi
}

reference=$(TESSERA_HOSTLINK_PROPERTIES=windows=on figures)
if [ "$(tail -n 1 <<<"$reference")" != "exit status 0" ] || [ "$(wc -l <<<"$reference")" -lt 3 ]; then
    echo "FAILED: in one process: $(tail -n 1 <<<"$reference")"
    tail -n 20 "$errors"
    exit 1
fi
for n in ${counts//,/ }; do
    out=$(TESSERA_RANKS=$n figures)
    if [ "$out" != "$reference" ]; then
        echo "FAILED: $n ranks differ from one process:"
        diff <(echo "$reference") <(echo "$out") | head -n 20
        echo "--- stderr:"
        tail -n 20 "$errors"
        exit 1
    fi
done
echo "ok: one process and $counts ranks, the same figures for $(($(wc -l <<<"$reference") - 2)) runs"
