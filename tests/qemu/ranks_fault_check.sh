#!/usr/bin/env bash
# Faults of a run over ranks (docs/ranks.md): each case checks that every rank ends within
# seconds, with one line that says why, and that no QEMU is left behind.
#   ranks_fault_check.sh <case> <qemu-cmd.sh> <qemu> <firmware-apps-dir>
# Cases:
#   killed     a rank killed (SIGKILL) mid-run: one line naming it and its boards
#   no_start   a rank whose QEMU fails to start: its own error line, the other rank ends too
#   too_many   more ranks than boards: one line, nothing starts
#   bad_grid   a ranks-grid= that does not tile the mesh, or is not the ranks: one line each,
#              nothing runs
#   no_mpirun  no mpirun on the PATH: one line, nothing starts
#   deadlock   a deadlock across ranks: one report, as one process gives it, and status 125
set -uo pipefail
case_name=$1 cmd=$2 qemu=$3 apps=$4
elf=$apps/deadlock_full_buffers.elf
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

fail() {
    echo "FAILED ($case_name): $*"
    echo "--- stdout:"; tail -n 20 "$out"
    echo "--- stderr:"; tail -n 20 "$err"
    exit 1
}

# The QEMU processes running $elf (rank order unknown), by waiting on /proc, never on time.
qemus() {
    local pid
    for pid in $(pgrep -f -- "-kernel $elf" || true); do
        [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = qemu-system-ris ] && echo "$pid"
    done
}
# Waits (up to $1 seconds) until `$2` succeeds.
wait_for() {
    local deadline=$((SECONDS + $1))
    until eval "$2"; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.1
    done
}
no_qemu_left() { [ -z "$(qemus)" ]; }

case $case_name in
killed)
    "$cmd" --ranks 2 "$qemu" "$elf" boards-x=3,deadlock=off >"$out" 2>"$err" &
    run=$!
    # Both ranks up and past MPI's start: each has its environment's rank.
    wait_for 60 '[ "$(qemus | wc -l)" -eq 2 ]' || fail "two QEMU processes never ran"
    victim=
    for pid in $(qemus); do
        grep -qz '^OMPI_COMM_WORLD_RANK=1$' "/proc/$pid/environ" && victim=$pid
    done
    [ -n "$victim" ] || fail "no QEMU process of rank 1"
    # Rank 0 has split the mesh: the map the report names boards from is written.
    map=$(tr '\0' '\n' <"/proc/$victim/environ" | sed -n 's/^TESSERA_RANKS_MAP=//p')
    [ -n "$map" ] || fail "qemu-cmd.sh gave the ranks no map file"
    wait_for 60 '[ -s "$map" ]' || fail "rank 0 never wrote the ranks' map"
    kill -KILL "$victim"
    wait_for 20 '! kill -0 $run 2>/dev/null' || fail "the run did not end within 20 s"
    wait "$run"
    status=$?
    [ "$status" -ne 0 ] || fail "exit status 0"
    grep -qx 'tessera: rank 1 (board (2,0)) died (signal 9 (Killed)); every rank stopped' "$err" ||
        fail "no line naming rank 1 and its boards"
    [ "$(grep -c '^tessera: rank' "$err")" -eq 1 ] || fail "more than one line about ranks"
    ;;
no_start)
    # Rank 1's QEMU is given an option it refuses: an MPMD run, as qemu-cmd.sh would form it.
    # The last of its MPMD parts is rank 1's.
    read -r -a good < <("$cmd" --print --ranks 2 "$qemu" "$elf" boards-x=2,deadlock=off)
    timeout 60 "${good[@]}" -no-such-option >"$out" 2>"$err"
    status=$?
    [ "$status" -ne 0 ] && [ "$status" -ne 124 ] || fail "exit status $status"
    grep -q 'no-such-option' "$err" || fail "rank 1's QEMU did not say why"
    ;;
too_many)
    "$cmd" --ranks 3 "$qemu" "$elf" boards-x=2 >"$out" 2>"$err"
    status=$?
    [ "$status" -ne 0 ] || fail "exit status 0"
    [ "$(wc -l <"$err")" -eq 1 ] && grep -q 'more ranks than the machine' "$err" ||
        fail "not one line about the ranks"
    ;;
bad_grid)
    # The check is the same on every rank: rank 0 alone says it.
    for grid in 1x2:'does not tile the mesh' 3x1:'columns times rows are not the ranks'; do
        timeout 60 "$cmd" --ranks 2 "$qemu" "$elf" "boards-x=3,ranks-grid=${grid%%:*}" \
            >"$out" 2>"$err"
        status=$?
        [ "$status" -ne 0 ] && [ "$status" -ne 124 ] || fail "ranks-grid=${grid%%:*}: exit status $status"
        lines=$(grep -v '^==[0-9]*==WARNING: ASan' "$err")
        [ "$(wc -l <<<"$lines")" -eq 1 ] && grep -q "ranks=2, ranks-grid=${grid%%:*} on 3x1 boards: .*${grid#*:}" <<<"$lines" ||
            fail "ranks-grid=${grid%%:*}: not one line that says why"
        [ ! -s "$out" ] || fail "ranks-grid=${grid%%:*}: the machine ran"
    done
    ;;
no_mpirun)
    # A PATH with the shell and the tools qemu-cmd.sh uses, but no mpirun.
    bin=$(mktemp -d)
    for tool in bash id nproc; do ln -s "$(command -v "$tool")" "$bin/$tool"; done
    PATH=$bin "$cmd" --ranks 2 "$qemu" "$elf" boards-x=2 >"$out" 2>"$err"
    status=$?
    [ "$status" -ne 0 ] || fail "exit status 0"
    rm -r "$bin"
    [ "$(wc -l <"$err")" -eq 1 ] && grep -q "needs Open MPI's mpirun" "$err" ||
        fail "not one line about mpirun"
    ;;
deadlock)
    # One report for the whole machine, the one a single process gives.
    report() {
        grep -v '^qemu-system-riscv32: terminating\|^==[0-9]*==WARNING: ASan' |
            sed 's/^qemu-system-riscv32: //'
    }
    timeout 120 "$cmd" "$qemu" "$elf" boards-x=2,windows=on 2>&1 >/dev/null | report >"$out"
    timeout 120 "$cmd" --ranks 2 "$qemu" "$elf" boards-x=2 >/dev/null 2>"$err"
    status=$?
    [ "$status" -eq 125 ] || fail "exit status $status, not 125 (deadlock)"
    grep -q 'threads 0x0-0x1f (32): mailbox wait-until can-send' "$out" ||
        fail "one process's report does not name every thread's wait"
    diff "$out" <(report <"$err") >/dev/null || {
        diff "$out" <(report <"$err") | head -n 10
        fail "the ranks' report differs from one process's"
    }
    ;;
*)
    echo "ranks_fault_check.sh: no case '$case_name'" >&2
    exit 2
    ;;
esac
# Under the sanitize preset: any sanitizer report fails.
if grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error: |SUMMARY: UndefinedBehaviorSanitizer' "$err"; then
    fail "sanitizer report: $(grep -Em1 'ERROR: (Address|Leak)Sanitizer|runtime error: ' "$err")"
fi
wait_for 20 no_qemu_left || fail "QEMU processes left behind: $(qemus)"
echo "ok ($case_name)"
