#!/usr/bin/env bash
# A stand-in for openocd with a board behind it, for HostLink's real-board mode
# (tests/qemu/board_serial_test.py): the board is QEMU's model of it. "Programming" the image and
# resetting the board boots it there, in the background as a board runs on after OpenOCD exits,
# with the board's console on $TESSERA_TEST_SERIAL (the serial port the host program reads).
# The board and the image come from the arguments that boards/board.sh gives openocd.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
board="" elf=""
for arg in "$@"; do
    case $arg in
    *hifive1-revb*) board=sifive_e ;;
    */sifive_u/openocd.cfg) board=sifive_u ;;
    esac
    if [[ $arg =~ (program|load_image)\ ([^ \;]+) ]]; then elf=${BASH_REMATCH[2]}; fi
done
echo "Open On-Chip Debugger 0.12.0 (a stand-in: QEMU's model of the board)" >&2
if [ -z "$board" ] || [ -z "$elf" ]; then
    echo "Error: the stand-in found no board configuration or no image in: $*" >&2
    exit 1
fi
: "${TESSERA_TEST_SERIAL:?the serial port to write the console to}"
: "${TESSERA_TEST_QEMU_DIR:?the directory of the QEMU binaries}"
"$here/../../boards/board.sh" qemu "$board" "$TESSERA_TEST_QEMU_DIR" "$elf" \
    < /dev/null > "$TESSERA_TEST_SERIAL" 2>&1 &
echo "** Programming Finished **" >&2
echo "** Verified OK **" >&2
