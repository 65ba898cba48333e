#!/usr/bin/env python3
"""HostLink over a real board's serial port (docs/boards.md), with QEMU's model standing in for
the board.

TESSERA_HOSTLINK_BOARD_PORT names a pseudo-terminal, a serial port as HostLink sees one (it sets
it raw, at the board's rate). boards/board.sh flash runs a stand-in openocd
(openocd_boots_qemu.sh), which boots the image on the board's model with its console on a FIFO;
this script copies the FIFO to the terminal's other end, as the board's UART would.

Usage: board_serial_test.py <qemu binary dir> <host program> [its arguments...]
"""
import os
import pty
import subprocess
import sys
import tempfile
import threading


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: board_serial_test.py <qemu dir> <program> [args...]")
    here = os.path.dirname(os.path.abspath(__file__))
    board_end, port_end = pty.openpty()
    with tempfile.TemporaryDirectory() as tmp:
        console = os.path.join(tmp, "console")
        os.mkfifo(console)

        def uart():
            with open(console, "rb", buffering=0) as fifo:
                while data := fifo.read(4096):
                    os.write(board_end, data)

        threading.Thread(target=uart, daemon=True).start()
        env = dict(os.environ,
                   TESSERA_HOSTLINK_BOARD_PORT=os.ttyname(port_end),
                   TESSERA_TEST_SERIAL=console,
                   TESSERA_TEST_QEMU_DIR=sys.argv[1],
                   TESSERA_OPENOCD=os.path.join(here, "openocd_boots_qemu.sh"))
        # (The copy is a daemon thread: a board that never started leaves it waiting.)
        result = subprocess.run(sys.argv[2:], env=env)
    sys.exit(result.returncode)


if __name__ == "__main__":
    main()
