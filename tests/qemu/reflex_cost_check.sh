#!/usr/bin/env bash
# Boots apps/reflex_cost on rings of 2..8 harts (boards-x = harts, one hart per board) and checks
# the modelled cost rule of the reflex barrier exactly: with every other member waiting, the
# root's barrier lasts a constant plus one hop latency per member.
# (Exactly so once the flit's trip round the ring outlasts the root's reading of its B waiting
# flits: long enough hops.)
#   reflex_cost_check.sh <hop_cycles> <cpi> -- <qemu-cmd.sh> <qemu> <reflex_cost.elf>
set -uo pipefail
hop=$1 cpi=$2
shift 3
qemu_cmd=$1 qemu=$2 elf=$3
fail=0
first=
for harts in 2 3 4 5 6 7 8; do
    out=$(timeout 120 "$qemu_cmd" "$qemu" "$elf" \
        "boards-x=$harts,tiles-x=1,tiles-y=1,cores-per-tile=1,threads-per-core=1,reflex-hop-cycles=$hop,cpi=$cpi" \
        </dev/null)
    status=$?
    cycles=$(echo "$out" | awk -v n="$harts" '$1 == "reflex_cost:" && $3 == n { print $5 }')
    if [ "$status" -ne 0 ] || [ -z "$cycles" ]; then
        echo "$out"
        echo "FAILED: $harts harts: exit status $status, no cost line"
        exit 1
    fi
    if [ -z "$first" ]; then
        first=$cycles
        echo "ok: 2 harts: $cycles cycles"
        continue
    fi
    want=$((first + (harts - 2) * hop))
    if [ "$cycles" -ne "$want" ]; then
        echo "FAILED: $harts harts: $cycles cycles, expected $first + ($harts - 2) x $hop = $want"
        fail=1
    else
        echo "ok: $harts harts: $cycles = $first + ($harts - 2) x $hop cycles"
    fi
done
exit $fail
