#!/usr/bin/env python3
"""Boots the machine with the barrier controller's command log on a file and checks the log
against DESIGN 1.7's exchange and timing rule (docs/barrier-controller.md, "Command log").

  barrier_log_check.py --log FILE --machine key=value,... [--barriers "x y uid count|..."]
                       [--episodes N] [--count REGEX N]... -- command...

The command must write the log to FILE (-chardev file,path=FILE and barrier-log=) and exit 0.
--machine gives the shape and latencies the log is checked against: boards-x/-y, tiles-x/-y,
cores-per-tile, threads-per-core, tile-hop-cycles, board-hop-cycles, barrier-tile-x/-y (the
machine's defaults for what is left out). For every episode of every uid: its BARRIER lines,
then at the count-th, at once, RESULT 0 for each participant, a WRITE per participant in
arrival order (its coordinates, dst = uid 0, desc 0x20000 + count) and a SYNC per participant
equal to max(src_cycle + lat_1) + lat_3. --barriers: the BARRIER lines of the whole log, in
order; --episodes: how many episodes the log closes; --count: exactly N lines of the command's
stdout match REGEX.
"""
import argparse
import os
import re
import subprocess
import sys

DEFAULTS = {"boards-x": 1, "boards-y": 1, "tiles-x": 2, "tiles-y": 2, "cores-per-tile": 1,
            "threads-per-core": 4, "tile-hop-cycles": 4, "board-hop-cycles": 150,
            "barrier-tile-x": 0, "barrier-tile-y": 0}


def axis_latency(board_tiles, a, b, tile_hop, board_hop):
    hops = abs(a - b)
    crossings = abs(a // board_tiles - b // board_tiles)
    return (hops - crossings) * tile_hop + crossings * board_hop


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", required=True)
    ap.add_argument("--machine", required=True)
    ap.add_argument("--barriers")
    ap.add_argument("--episodes", type=int)
    ap.add_argument("--count", nargs=2, action="append", default=[], metavar=("REGEX", "N"))
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    m = dict(DEFAULTS)
    for kv in a.machine.split(","):
        if "=" in kv:
            k, v = kv.split("=", 1)
            if k in m:
                m[k] = int(v)
    per_tile = m["cores-per-tile"] * m["threads-per-core"]

    def latency(x, y):  # thread grid (x, y) to the controller's tile
        tx = x // per_tile
        return (axis_latency(m["tiles-x"], tx, m["barrier-tile-x"], m["tile-hop-cycles"],
                             m["board-hop-cycles"]) +
                axis_latency(m["tiles-y"], y, m["barrier-tile-y"], m["tile-hop-cycles"],
                             m["board-hop-cycles"]))

    if os.path.exists(a.log):
        os.remove(a.log)
    run = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                         timeout=600)
    errors = []

    def fail(why):
        print("FAILED: " + why)
        print("--- stdout (last 20 lines):\n" + "\n".join(run.stdout.splitlines()[-20:]))
        print("--- stderr (last 20 lines):\n" + "\n".join(run.stderr.splitlines()[-20:]))
        sys.exit(1)

    if "Sanitizer" in run.stderr or "runtime error: " in run.stderr:
        fail("sanitizer report")
    if run.returncode != 0:
        fail(f"exit status {run.returncode}")
    for regex, n in a.count:
        got = sum(1 for line in run.stdout.splitlines() if re.search(regex, line))
        if got != int(n):
            fail(f"{got} stdout lines match /{regex}/, expected {n}")
    if not os.path.exists(a.log):
        fail(f"no log at {a.log}")
    lines = open(a.log).read().splitlines()
    open_eps = {}  # uid -> (count, [(x, y)])
    barriers = []
    closed = 0
    i = 0
    while i < len(lines):
        f = lines[i].split()
        if len(f) != 5 or f[0] != "BARRIER":
            fail(f"log line {i + 1}: expected BARRIER, got '{lines[i]}'")
        x, y, uid, count = map(int, f[1:])
        barriers.append(lines[i])
        ep = open_eps.setdefault(uid, (count, []))
        if ep[0] != count:
            fail(f"log line {i + 1}: uid {uid} open with count {ep[0]}, entered with {count}")
        ep[1].append((x, y))
        i += 1
        if len(ep[1]) < count:
            continue
        del open_eps[uid]
        closed += 1
        block = lines[i:i + 3 * count]
        if len(block) < 3 * count:
            fail(f"log line {i + 1}: the release of uid {uid} is cut short")
        if block[:count] != ["RESULT 0"] * count:
            fail(f"log line {i + 1}: expected {count} x RESULT 0, got {block[:count]}")
        srcs = []
        for j, (px, py) in enumerate(ep[1]):
            w = block[count + j].split()
            want = ["WRITE", w[1] if len(w) > 1 else "?", str(px), str(py), str(uid), "0", "1",
                    str(0x20000 + count)]
            if w != want:
                fail(f"log line {i + count + j + 1}: '{block[count + j]}', expected "
                     f"'{' '.join(want)}'")
            srcs.append(int(w[1]))
        overflow = max(s + latency(px, py) for s, (px, py) in zip(srcs, ep[1]))
        for j, (px, py) in enumerate(ep[1]):
            want = f"SYNC {overflow + latency(px, py)}"
            if block[2 * count + j] != want:
                fail(f"log line {i + 2 * count + j + 1}: '{block[2 * count + j]}', expected "
                     f"'{want}' (overflow {overflow})")
        i += 3 * count
    if open_eps:
        fail(f"uids still open at the end: {sorted(open_eps)}")
    if a.barriers is not None and barriers != ["BARRIER " + b.strip()
                                               for b in a.barriers.split("|")]:
        fail(f"BARRIER lines {barriers}, expected {a.barriers}")
    if a.episodes is not None and closed != a.episodes:
        fail(f"{closed} episodes closed, expected {a.episodes}")
    print(f"ok: {len(lines)} log lines, {closed} episodes, every release at the rule")
    print("\n".join(lines[:40]))


if __name__ == "__main__":
    main()
