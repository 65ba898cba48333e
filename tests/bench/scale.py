#!/usr/bin/env python3
"""How -M tessera scales with the number of harts (./tessera bench scale).

For each shape, from 16 harts up: boots hello (wall time of the QEMU process
and its peak RSS, the kernel's maxrss), then runs idle_loop, a tight
tinselIdle loop on every hart, and times the synchronisations between its
two console lines as they arrive (host seconds per synchronisation, without
the boot).

Usage: scale.py QEMU_CMD_SH QEMU APPS_DIR OUT_DIR [--full]
Writes OUT_DIR/scale.csv with the columns
  harts,boards_x,boards_y,boot_s,s_per_hart,peak_rss_kib,kib_per_hart,host_s_per_sync
and OUT_DIR/scale.svg. kib_per_hart is the peak RSS beyond the previous
(smaller) shape's over the harts added, so that what every run has whatever
its size drops out; the first shape has none.
"""

import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plotting  # noqa: E402

TIMING = "clock-mhz=240,board-hop-cycles=150"
REFERENCE = "tiles-x=4,tiles-y=4,cores-per-tile=4,threads-per-core=16"
# (harts, boards x, boards y, board shape)
SHAPES = [
    (16, 1, 1, "tiles-x=2,tiles-y=2,cores-per-tile=1,threads-per-core=4"),
    (64, 1, 1, "tiles-x=4,tiles-y=4,cores-per-tile=1,threads-per-core=4"),
    (256, 1, 1, "tiles-x=4,tiles-y=4,cores-per-tile=4,threads-per-core=4"),
    (1024, 1, 1, REFERENCE),
    (2048, 2, 1, REFERENCE),
    (4096, 2, 2, REFERENCE),
    (6144, 3, 2, REFERENCE),
    (16384, 4, 4, REFERENCE),
    (32768, 8, 4, REFERENCE),
]
FULL = [
    (49152, 6, 8, REFERENCE),
    (65536, 8, 8, REFERENCE),
]


def command(qemu_cmd_sh, qemu, elf, props):
    return [qemu_cmd_sh, qemu, elf] + props.split(",")


def quiet_stderr(err):
    for line in err.splitlines():
        if "icount sleep disabled" not in line:
            print(line, file=sys.stderr)


def boot(cmd):
    """Runs hello; returns (wall seconds, peak RSS KiB)."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    proc.stderr.close()
    quiet_stderr(err)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"scale bench: hello exited {code}: {' '.join(cmd)}")
    return wall, usage.ru_maxrss


def host_s_per_sync(cmd, harts):
    """Runs idle_loop; host seconds per synchronisation between its lines."""
    with tempfile.TemporaryFile(mode="w+") as errors:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=errors,
                                text=True)
        start = end = None
        result = None
        for line in proc.stdout:
            if line.startswith("idle_loop: start"):
                start = time.monotonic()
            elif line.startswith("idle_loop: threads "):
                end = time.monotonic()
                result = line.split()
        code = proc.wait()
        errors.seek(0)
        quiet_stderr(errors.read())
    if code != 0 or start is None or result is None:
        sys.exit(f"scale bench: idle_loop exited {code} without its result: "
                 f"{' '.join(cmd)}")
    fields = dict(zip(result[1::2], result[2::2]))
    if int(fields["threads"]) != harts:
        sys.exit(f"scale bench: idle_loop ran on {fields['threads']} harts, "
                 f"not {harts}")
    return (end - start) / int(fields["syncs"])


def plot(svg, rows):
    """Host cost against harts, log-log: one panel per measure, each in its own unit."""
    fig, axes = plotting.figure("-M tessera: host cost against harts (hello; tinselIdle loop; "
                                "boards of 1,024 threads from 1,024 harts up)", panels=3,
                                sharey=False)
    styles = plotting.Styles()
    for ax, (key, ylabel, column, scale) in zip(axes, (
            ("rss", "peak RSS of hello (MiB)", 5, 1 / 1024),
            ("boot", "hello's boot and run (host seconds)", 3, 1),
            ("idle", "host milliseconds per tinselIdle", 7, 1e3))):
        plotting.lines(ax, [(key, ylabel, [(r[0], float(r[column]) * scale) for r in rows])],
                       styles)
        plotting.log2_x(ax, [r[0] for r in rows])
        plotting.log10_y(ax)
        ax.set_xlabel("harts")
        ax.set_ylabel(ylabel)
        for label in ax.get_xticklabels():
            label.set_rotation(45)
    plotting.save(fig, svg)


def main():
    args = sys.argv[1:]
    full = "--full" in args
    args = [a for a in args if a != "--full"]
    if len(args) != 4:
        sys.exit(__doc__.split("\n\n")[2])
    qemu_cmd_sh, qemu, apps, out_dir = args
    # TESSERA_BENCH_QUICK=1 (./tessera figures --quick): up to one reference board.
    quick = os.environ.get("TESSERA_BENCH_QUICK") == "1"
    shapes = SHAPES[:4] if quick else SHAPES + (FULL if full else [])
    rows = []
    bench_start = time.monotonic()
    print("hello boot and tinselIdle loop against harts (boards of the given shape, "
          f"{TIMING}):")
    print(f"  {'harts':>6} {'boards':>6} {'boot s':>8} {'us/hart':>8} "
          f"{'peak MiB':>9} {'KiB/hart':>9} {'host ms/sync':>13}")
    for harts, bx, by, board in shapes:
        props = f"boards-x={bx},boards-y={by},{board},{TIMING}"
        wall, rss = boot(command(qemu_cmd_sh, qemu,
                                 os.path.join(apps, "hello.elf"), props))
        per_sync = host_s_per_sync(
            command(qemu_cmd_sh, qemu, os.path.join(apps, "idle_loop.elf"),
                    props), harts)
        per_hart = ""
        if rows:
            per_hart = f"{(rss - rows[-1][5]) / (harts - rows[-1][0]):.1f}"
        row = (harts, bx, by, f"{wall:.2f}", f"{wall / harts:.8f}", rss,
               per_hart, f"{per_sync:.8f}")
        rows.append(row)
        print(f"  {harts:6d} {bx}x{by:<4} {wall:8.2f} "
              f"{wall / harts * 1e6:8.0f} {rss / 1024:9.1f} {per_hart:>9} "
              f"{per_sync * 1e3:13.3f}   ({time.monotonic() - bench_start:.0f} s)",
              flush=True)

    csv = os.path.join(out_dir, "scale.csv")
    with open(csv, "w") as f:
        f.write("harts,boards_x,boards_y,boot_s,s_per_hart,peak_rss_kib,"
                "kib_per_hart,host_s_per_sync\n")
        for row in rows:
            f.write(",".join(str(v) for v in row) + "\n")
    svg = os.path.join(out_dir, "scale.svg")
    plot(svg, rows)
    print(f"wrote {csv}, {svg} ({time.monotonic() - bench_start:.0f} s)")


if __name__ == "__main__":
    main()
