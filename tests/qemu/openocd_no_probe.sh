#!/usr/bin/env bash
# A stand-in for openocd with no probe connected: what OpenOCD 0.12.0 prints and its status
# when board/sifive-hifive1-revb.cfg finds no J-Link (docs/boards.md), whatever the arguments.
cat >&2 <<'TEXT'
Open On-Chip Debugger 0.12.0
Licensed under GNU GPL v2
For bug reports, read
	http://openocd.org/doc/doxygen/bugs.html
Error: No J-Link device found
TEXT
exit 1
