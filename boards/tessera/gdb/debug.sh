#!/usr/bin/env bash
# Starts -M tessera stopped and attaches gdb-multiarch: ./tessera debug and the gdb test
# (tests/qemu/gdb_check.sh) both come through here (docs/debugging.md).
#
#   boards/tessera/gdb/debug.sh [--batch SCRIPT] [-ex CMD]... <qemu> <elf> [key=value ...] [-- qemu args]
#
# QEMU boots <elf> through boards/tessera/qemu-cmd.sh (the deterministic mode), stopped before
# the first instruction (-S), with its gdbstub on a Unix socket in a private directory. gdb loads
# the ELF's symbols and tessera.py (settings and commands for many harts), then attaches. The
# guest's console goes to stdout; QEMU reads no stdin and runs in a session of its own, so the
# terminal and Ctrl-C belong to gdb. When gdb exits, QEMU is killed; the exit status is gdb's.
#   --batch SCRIPT  gdb in batch mode: run SCRIPT (gdb commands, or Python if it ends in .py)
#                   after attaching, then exit; ~/.gdbinit is not read
#   -ex CMD         a gdb command to run after attaching (repeatable)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
usage="usage: debug.sh [--batch SCRIPT] [-ex CMD]... <qemu> <elf> [key=value ...] [-- qemu args]"
die() {
    echo "debug.sh: $*" >&2
    exit 2
}

commands=() batch=()
while [ $# -gt 0 ]; do
    case $1 in
    --batch)
        [ $# -ge 2 ] || die "$usage"
        [ -f "$2" ] || die "no gdb script '$2'"
        if [[ $2 == *.py ]]; then
            # gdb 13 exits with status 0 after a Python script given to -x fails, but not
            # after a failing `python` command.
            export TESSERA_GDB_SCRIPT=$2
            batch=(-batch -nx -ex 'python import os, runpy
runpy.run_path(os.environ["TESSERA_GDB_SCRIPT"], run_name="__main__")')
        else
            batch=(-batch -nx -x "$2")
        fi
        shift 2
        ;;
    -ex)
        [ $# -ge 2 ] || die "$usage"
        commands+=(-ex "$2")
        shift 2
        ;;
    *) break ;;
    esac
done
[ $# -ge 2 ] || die "$usage"
qemu=$1 elf=$2
shift 2
[ -f "$elf" ] || die "no ELF file '$elf'"
gdb=$(command -v gdb-multiarch) || die "gdb-multiarch is not installed (./tessera setup installs it)"
# A bad machine property or option stops here, before anything starts.
"$here/../qemu-cmd.sh" --print "$qemu" "$elf" deadlock=stop "$@" >/dev/null

dir=$(mktemp -d "${TMPDIR:-/tmp}/tessera-debug.XXXXXX")
socket=$dir/gdb.sock
qemu_pid= gdb_pid=
finish() {
    [ -z "$gdb_pid" ] || kill "$gdb_pid" 2>/dev/null || true
    if [ -n "$qemu_pid" ]; then
        kill "$qemu_pid" 2>/dev/null || true
        wait "$qemu_pid" 2>/dev/null || true
    fi
    rm -rf "$dir"
}
trap finish EXIT

# Our QEMU options go after the caller's (qemu-cmd.sh takes the first option as the start of
# QEMU's, `--` or not).
# deadlock=stop: a deadlock is reported and pauses the machine for gdb instead of ending it.
setsid "$here/../qemu-cmd.sh" "$qemu" "$elf" deadlock=stop "$@" \
    -chardev "socket,id=tessera-gdb,path=$socket,server=on,wait=off" -gdb chardev:tessera-gdb \
    -S </dev/null &
qemu_pid=$!

# The socket exists once QEMU has set up its devices; a QEMU that fails before says why.
until [ -S "$socket" ]; do
    if ! kill -0 "$qemu_pid" 2>/dev/null; then
        status=0
        wait "$qemu_pid" || status=$?
        qemu_pid=
        die "QEMU exited with status $status before gdb could attach"
    fi
    sleep 0.01
done

gdb_command=("$gdb" -q -x "$here/tessera.py" -ex "target remote $socket" "${commands[@]}"
    "${batch[@]}" "$elf")
status=0
if [ ${#batch[@]} -eq 0 ]; then
    "${gdb_command[@]}" || status=$?
else
    # No terminal needed: in the background, so that a timeout's SIGTERM ends gdb and QEMU
    # at once (a foreground child would defer the trap until it exits).
    "${gdb_command[@]}" </dev/null &
    gdb_pid=$!
    trap 'exit 143' TERM
    trap 'exit 130' INT
    wait "$gdb_pid" || status=$?
    gdb_pid=
fi
exit "$status"
