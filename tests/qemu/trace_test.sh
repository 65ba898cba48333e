#!/usr/bin/env bash
# Traces one run with tessera-trace (the tool behind ./tessera trace, with its
# default events) and checks the result as a user of the trace would:
#
#   trace_test.sh <tessera-trace> --status N [trace_check.py options] -- command...
#
# The exit status must be the guest's (N), the JSON must be written (also for
# a failing guest) and pass trace_check.py, and QEMU's log must hold none of
# the verbose events, which are off by default. A sanitizer report fails it.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
trace=$1
shift
status=0
checks=()
while [ $# -gt 0 ]; do
    case $1 in
    --status) status=$2; shift 2 ;;
    --) shift; break ;;
    *) checks+=("$1"); shift ;;
    esac
done

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
timeout --kill-after=10 300 "$trace" -o "$dir/run.json" --log "$dir/qemu.log" -- "$@" \
    >"$dir/out" 2>"$dir/err" </dev/null
actual=$?

command=("$@")
fail() {
    echo "FAILED: $*" >&2
    echo "--- command: $trace -o run.json -- ${command[*]}" >&2
    echo "--- stdout (last 10 lines):" >&2; tail -n 10 "$dir/out" >&2
    echo "--- stderr (last 10 lines):" >&2; tail -n 10 "$dir/err" >&2
    exit 1
}

[ "$actual" -eq 124 ] && fail "timed out"
if grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error: |SUMMARY: UndefinedBehaviorSanitizer' "$dir/err"; then
    fail "sanitizer report: $(grep -Em1 'ERROR: (Address|Leak)Sanitizer|runtime error: ' "$dir/err")"
fi
[ "$actual" -eq "$status" ] || fail "exit status $actual, expected the guest's $status"
[ -s "$dir/run.json" ] || fail "no trace written"
if grep -q '^verbose_tessera_' "$dir/qemu.log"; then
    fail "the default events include verbose ones: $(grep -m1 '^verbose_tessera_' "$dir/qemu.log")"
fi
echo "QEMU log: $(wc -l <"$dir/qemu.log") lines; JSON: $(wc -c <"$dir/run.json") bytes"
python3 "$here/trace_check.py" "$dir/run.json" "${checks[@]}" || fail "the trace does not check"
