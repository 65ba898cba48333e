#!/usr/bin/env bash
# Boots apps/pingpong and checks that each modelled round trip exceeds the
# same-tile one by exactly twice the computed one-way latency of the route.
#   pingpong_check.sh <same_board_latency> <far_corner_latency> -- qemu command...
set -uo pipefail
want_board=$1 want_corner=$2
shift 3
out=$(timeout 300 "$@" </dev/null)
status=$?
echo "$out"
[ "$status" -eq 0 ] || { echo "FAILED: exit status $status"; exit 1; }
rtt() { echo "$out" | awk -v l="$1" '$1 == "rtt" && $2 == l { print $6 }'; }
same=$(rtt same_tile) board=$(rtt same_board) corner=$(rtt far_corner)
for v in "$same" "$board" "$corner"; do
    [ -n "$v" ] || { echo "FAILED: a round trip is missing"; exit 1; }
done
fail=0
check() {
    local name=$1 got=$2 want=$3
    if [ "$got" -ne $((2 * want)) ]; then
        echo "FAILED: rtt($name) - rtt(same_tile) = $got cycles, expected 2 x $want"
        fail=1
    else
        echo "ok: rtt($name) - rtt(same_tile) = $got = 2 x $want cycles"
    fi
}
check same_board $((board - same)) "$want_board"
check far_corner $((corner - same)) "$want_corner"
exit $fail
