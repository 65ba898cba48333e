#!/usr/bin/env bash
# ./tessera bench scale [--full]: the host cost of -M tessera against the number of harts, from
# 16 up to 32,768 (8x4 boards of 1,024 threads); --full adds the published 6x8-board cluster
# (49,152 harts) and the machine's limit (65,536). For each shape it boots hello (host wall time
# and peak RSS of the QEMU process) and runs idle_loop, a tight tinselIdle loop on every hart
# (host seconds per synchronisation, between two console lines, without the boot). A line per
# shape as it finishes. About 4 minutes on 2 cores (--full: about 6 GiB and 8 GiB more, and
# several minutes more).
#
# Writes build/bench/scale.csv with the columns
#   harts,boards_x,boards_y,boot_s,s_per_hart,peak_rss_kib,kib_per_hart,host_s_per_sync
# (kib_per_hart: peak RSS beyond the previous shape's over the harts added) and
# build/bench/scale.svg (peak RSS, boot time and host time per synchronisation against harts,
# log-log). docs/machine.md ("What limits the size") has the figures.
source "$(dirname "$0")/lib.sh"

case ${1:-} in
"" | --full) ;;
*) echo "usage: ./tessera bench scale [--full]" >&2; exit 2 ;;
esac
/usr/bin/python3 "$(dirname "$0")/scale.py" "$qemu_cmd" "$TESSERA_QEMU" "$apps" "$out_dir" "$@"
