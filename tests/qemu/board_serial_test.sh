#!/usr/bin/env bash
# HostLink over a real board's serial port (docs/boards.md), with QEMU's model standing in for the
# board: TESSERA_HOSTLINK_BOARD_PORT names a FIFO, boards/board.sh flash runs a stand-in openocd
# (openocd_boots_qemu.sh) that boots the image on the board's model with its console on that
# FIFO, and the host program reads it as it would the board's serial port.
#
# Usage: board_serial_test.sh <qemu binary dir> <host program> [its arguments...]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ $# -ge 2 ] || { echo "usage: board_serial_test.sh <qemu dir> <program> [args...]" >&2; exit 2; }
qemu_dir=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkfifo "$dir/serial"
# A writer that stays open, as a serial port never reaches its end.
exec 3<> "$dir/serial"
TESSERA_HOSTLINK_BOARD_PORT=$dir/serial TESSERA_TEST_SERIAL=$dir/serial \
    TESSERA_TEST_QEMU_DIR=$qemu_dir TESSERA_OPENOCD=$here/openocd_boots_qemu.sh "$@"
