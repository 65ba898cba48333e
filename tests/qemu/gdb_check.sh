#!/usr/bin/env bash
# The gdb test (docs/debugging.md): apps/debug_probe under boards/tessera/gdb/debug.sh, gdb in
# batch mode running gdb_probe.py. gdb stops one thread by its Tinsel id on the csrr of
# tinselCycleCount(), steps it alone and reads its modelled cycle register; this script checks
# that the value gdb read is the one the guest printed, and that the run still ends well.
#   gdb_check.sh <thread id> <harts> <cpi> <names> -- <qemu> <elf> [key=value ...]
# <names>: thread names (without the halted/running mark) that info threads must show, joined
# by ';'.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
probe=$(printf '0x%x' "$1") harts=$2 cpi=$3 names=$4
shift 5
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

PROBE_ID=$probe PROBE_HARTS=$harts PROBE_CPI=$cpi PROBE_NAMES=$names PROBE_REPORT=$dir/report \
    timeout 300 "$here/../../boards/tessera/gdb/debug.sh" --batch "$here/gdb_probe.py" "$@" \
    >"$dir/out" 2>&1 </dev/null
status=$?
cat "$dir/out"
fail() {
    echo "FAILED: $*"
    exit 1
}
[ "$status" -eq 0 ] || fail "gdb exited with status $status"
# Under the sanitize preset QEMU carries ASan and UBSan (as in expect.sh).
if grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error: |SUMMARY: UndefinedBehaviorSanitizer' "$dir/out"; then
    fail "sanitizer report: $(grep -Em1 'ERROR: (Address|Leak)Sanitizer|runtime error: ' "$dir/out")"
fi
grep -qx passed "$dir/report" 2>/dev/null || fail "the gdb script did not finish"
gdb_cycle=$(awk '$1 == "gdb" && $2 == "cycle" { print $3 }' "$dir/report")
guest_cycle=$(awk -v t="$probe" '$1 == "thread" && $2 == t && $3 == "read" { print $5 }' "$dir/out")
[ -n "$gdb_cycle" ] && [ -n "$guest_cycle" ] || fail "no cycle count from gdb ('$gdb_cycle') or the guest ('$guest_cycle')"
[ "$gdb_cycle" = "$guest_cycle" ] ||
    fail "gdb read cycle $gdb_cycle, thread $probe printed $guest_cycle"
echo "ok: gdb read cycle $gdb_cycle, thread $probe printed $guest_cycle"
grep -qx "thread 0x0: the token came back after $harts hops" "$dir/out" ||
    fail "the token did not go round: the run did not pass"
echo "ok: the token went round once let go"
