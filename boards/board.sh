#!/usr/bin/env bash
# The command lines that run an image on QEMU's model of a dev board and flash it onto the board
# (docs/boards.md), formed in one place for ./tessera and the tests, from boards/<board>/board.env.
#
#   boards/board.sh list
#   boards/board.sh qemu <board> <qemu binary dir> <elf> [qemu args...]   runs it; prints nothing else
#   boards/board.sh qemu-cmd <board> <qemu binary dir> <elf>              prints the command
#   boards/board.sh flash <board> <elf> [--dry-run]                        prints the OpenOCD command, then runs it
#   boards/board.sh serial <board>                                         prints its console's usual port and baud rate
#
# Exit status of qemu: the image's, through semihosting. Of flash: 0 flashed and verified, 1 on
# bad use (unknown board, no such image), 3 when OpenOCD found no probe, OpenOCD's otherwise.
# TESSERA_OPENOCD names another openocd (the tests use a stand-in with no probe behind it).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die() {
    echo "tessera: error: $*" >&2
    exit 1
}

boards() {
    local f
    for f in "$here"/*/board.env; do
        basename "$(dirname "$f")"
    done
}

load_board() {
    local board=$1
    [ -f "$here/$board/board.env" ] ||
        die "no board named '$board' (boards: $(boards | paste -sd ' '))"
    board_dir="$here/$board"
    # shellcheck source=/dev/null
    source "$here/$board/board.env"
}

check_elf() {
    [ -f "$1" ] || die "no image $1"
}

qemu_argv() {
    local board=$1 bindir=$2 elf=$3
    shift 3
    load_board "$board"
    check_elf "$elf"
    argv=("$bindir/$board_qemu" "${board_qemu_args[@]}" "$elf"
        -nographic -monitor none -serial stdio
        -semihosting-config enable=on,target=native "$@")
}

openocd_argv() {
    local board=$1 elf=$2
    load_board "$board"
    check_elf "$elf"
    argv=("${TESSERA_OPENOCD:-openocd}" "${board_openocd_args[@]}" -c "${board_openocd_commands//\{elf\}/$elf}")
}

# Quotes an argv for a shell, one line.
quoted() {
    local out="" a
    for a in "$@"; do
        if [[ $a =~ ^[A-Za-z0-9_./=,:+-]+$ ]]; then out+="$a "; else out+="'${a//\'/\'\\\'\'}' "; fi
    done
    echo "${out% }"
}

case ${1:-} in
list)
    boards
    ;;
qemu)
    shift
    [ $# -ge 3 ] || die "usage: boards/board.sh qemu <board> <qemu dir> <elf> [qemu args]"
    qemu_argv "$@"
    exec "${argv[@]}"
    ;;
qemu-cmd)
    shift
    [ $# -ge 3 ] || die "usage: boards/board.sh qemu-cmd <board> <qemu dir> <elf>"
    qemu_argv "$@"
    quoted "${argv[@]}"
    ;;
serial)
    shift
    [ $# -eq 1 ] || die "usage: boards/board.sh serial <board>"
    load_board "$1"
    echo "$board_port $board_baud"
    ;;
flash)
    shift
    [ $# -ge 2 ] || die "usage: boards/board.sh flash <board> <elf> [--dry-run]"
    openocd_argv "$1" "$2"
    quoted "${argv[@]}"
    [ "${3:-}" = "--dry-run" ] && exit 0
    command -v "${argv[0]}" >/dev/null || die "openocd is not installed (./tessera setup installs it)"
    log=$(mktemp)
    trap 'rm -f "$log"' EXIT
    # OpenOCD's messages (stderr) go on to the user as they come, and into the log; the pipeline
    # ends only once tee has written all of it.
    status=0
    # (errexit is off inside a list's left side, so PIPESTATUS is the pipeline's).
    { "${argv[@]}" 2>&1 1>&3 3>&- | tee "$log" >&2; status=${PIPESTATUS[0]}; } 3>&1 || true
    if [ "$status" -ne 0 ] &&
        grep -Eq "No J-Link device found|unable to open ftdi device|no device found" "$log"; then
        echo "tessera: error: no probe: OpenOCD found no debug probe for the $board_title;" \
            "connect $board_probe and check its permissions (docs/boards.md)" >&2
        exit 3
    fi
    exit "$status"
    ;;
*)
    die "usage: boards/board.sh list | qemu | qemu-cmd | flash | serial (see its header)"
    ;;
esac
