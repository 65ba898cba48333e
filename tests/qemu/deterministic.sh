#!/usr/bin/env bash
# Runs a command twice and fails unless both runs print exactly the same
# standard output (the deterministic mode promises the same output and cycle
# counts; stderr carries QEMU warnings that may differ).
set -uo pipefail
a=$(timeout 300 "$@" </dev/null 2>/dev/null); sa=$?
b=$(timeout 300 "$@" </dev/null 2>/dev/null); sb=$?
if [ "$sa" -ne 0 ] || [ "$sb" -ne 0 ]; then
    echo "FAILED: exit statuses $sa and $sb"; echo "$a" | tail -n 20; exit 1
fi
if [ "$a" != "$b" ]; then
    echo "FAILED: the two runs differ:"
    diff <(echo "$a") <(echo "$b") | head -n 20
    exit 1
fi
echo "ok: two runs, identical output ($(echo "$a" | wc -l) lines)"
