#!/usr/bin/env bash
# output.sh <path to ./tessera> <status> <args...>: runs ./tessera <args...>
# with stdout and stderr merged into one pipe, as a user's terminal or log
# has them, and checks that every line is whole and is either the guest's,
# the host tool's or Tessera's own: no QEMU informational line, no line
# spliced into another. Builds what is missing (./tessera does).
set -uo pipefail

tessera=$1 want=$2
shift 2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$tessera" "$@" >"$out" 2>&1 </dev/null
status=$?

fail() {
    echo "FAIL: ./tessera $*" >&2
    echo "--- merged output (last 30 lines):" >&2
    tail -n 30 "$out" >&2
    exit 1
}
[ "$status" -eq "$want" ] || fail "$*: exit status $status, expected $want"

# Every line a user may see, whole.
allowed=(
    '^$'
    # the guest's console (apps hello, pingpong, idle, trap, mbox_fault)
    '^hello from thread 0x[0-9a-f]+: board \([0-9]+,[0-9]+\) tile \([0-9]+,[0-9]+\) core [0-9]+ thread [0-9]+$'
    '^machine timing: cpi [0-9]+, tile hop [0-9]+, board hop [0-9]+, ocbus settle [0-9]+, reflex hop [0-9]+, barrier controller at tile \([0-9]+,[0-9]+\)$'
    '^rtt [a-z_]+ thread 0x[0-9a-f]+ cycles [0-9]+$'
    '^vote \(hw\): round [0-9]+: [a-z0-9 ]+ voted (true|false) -> [0-9]+$'
    '^TRAP hart 0x[0-9a-f]+ (cause [0-9]+ \([a-z ]+\) pc 0x[0-9a-f]{8} tval 0x[0-9a-f]{8}|mailbox fault [0-9]+ \([a-z ]+\) csr 0x[0-9a-f]{3})$'
    # tessera-host: messages threads sent to the host
    '^host <- thread 0x[0-9a-f]+ cycle [0-9]+:( 0x[0-9a-f]{8})+$'
    # Tessera's own diagnostics: the front door's, the machine's
    '^tessera: '
    '^qemu-system-riscv32: tessera(-[a-z]+)?: '
    '^  threads? 0x[0-9a-f]+.*: .*, since cycles? [0-9.]+$'
    # the vertex demo (tests/qemu/vertex/vertex_demo.cc) and PGraph's placement line
    '^Heat transfer on a geometric random graph: '
    '^(Synchronous|GALS) \(.*\):$'
    '^  (placement: |time steps [0-9]+, |host: |agreement: )'
    '^GALS took '
    '^PGraph: [0-9]+ devices on '
    '^-> both runs equal the reference \([0-9.]+ s host time\)$'
    # the SHAKE runner (apps/shake/run/shake_run.cc)
    '^shake: '
    # the demo's frame
    '^== '
    '^   \.\.\. \([0-9]+ lines in all\)$'
    '^-> guest verdict: success \([0-9.]+ s host time\)$'
    '^More: '
)
pattern=$(IFS='|'; echo "${allowed[*]}")
if stray=$(grep -Ev -- "$pattern" "$out"); then
    fail "$*: lines that are no one's whole line: $(head -n 3 <<<"$stray")"
fi
if grep -Eq 'info: |warning: |QEMU waiting for connection|icount sleep' "$out"; then
    fail "$*: a QEMU informational line: $(grep -Em1 'info: |warning: |QEMU waiting|icount sleep' "$out")"
fi
echo "ok: ./tessera $*: exit status $status; $(wc -l <"$out") whole lines"
