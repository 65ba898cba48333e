#!/usr/bin/env bash
# Traces one run with tessera-trace (the tool behind ./tessera trace, with its
# default events) and checks the result as a user of the trace would:
#
#   trace_test.sh <tessera-trace> --status N [trace_check.py options] -- command...
#
# The run goes through expect.sh: the exit status must be the guest's (N), and
# a sanitizer report fails it. Then the JSON must have been written (also for
# a failing guest) and pass trace_check.py, and QEMU's log must hold none of
# the verbose events, which are off by default.
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
"$here/expect.sh" --status "$status" -- "$trace" -o "$dir/run.json" --log "$dir/qemu.log" -- "$@" ||
    exit 1
[ -s "$dir/run.json" ] || { echo "FAILED: no trace written"; exit 1; }
if grep -q '^verbose_tessera_' "$dir/qemu.log"; then
    echo "FAILED: the default events include verbose ones: $(grep -m1 '^verbose_tessera_' "$dir/qemu.log")"
    exit 1
fi
echo "QEMU log: $(wc -l <"$dir/qemu.log") lines; JSON: $(wc -c <"$dir/run.json") bytes"
python3 "$here/trace_check.py" "$dir/run.json" "${checks[@]}"
