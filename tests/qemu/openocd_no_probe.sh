#!/usr/bin/env bash
# A stand-in for openocd with no probe connected: what OpenOCD 0.12.0 prints and its status when
# the board's configuration finds no J-Link (HiFive1 Rev B) or no FTDI device (HiFive Unleashed)
# (docs/boards.md), whatever else the arguments say.
cat >&2 <<'TEXT'
Open On-Chip Debugger 0.12.0
Licensed under GNU GPL v2
For bug reports, read
	http://openocd.org/doc/doxygen/bugs.html
TEXT
if [[ " $* " == *hifive1-revb* ]]; then
    echo "Error: No J-Link device found" >&2
else
    echo "Info : Hardware thread awareness created" >&2
    echo "Error: no device found" >&2
    echo "Error: unable to open ftdi device with vid 0403, pid 6010, description 'Dual RS232-HS', serial '*' at bus location '*'" >&2
fi
exit 1
