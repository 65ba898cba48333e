#!/usr/bin/env python3
"""trace_check.py RUN.json [--flows N] [--require NAME]...

Checks a trace that ./tessera trace (tessera-trace) wrote, against the rules
of docs/tracing.md, using the JSON alone:

- it parses, and every track it uses is named;
- every send (and every message from the host) has exactly one flow arrow
  per receiving thread, each arrow ends in exactly one receive, and every
  receive has exactly one arrow;
- timestamps never decrease within a track;
- per board and boot, the send copies and the frees of received messages
  equal the mailbox counters QEMU reported (and the host's, its sends and
  what it took).

--flows N: exactly N arrows. --require NAME: some event's name starts with
NAME. Prints what it counted; exits 1 with every failure listed.
"""
import argparse
import collections
import decimal
import json
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace")
    parser.add_argument("--flows", type=int)
    parser.add_argument("--require", action="append", default=[])
    args = parser.parse_args()

    failures = []

    def fail(message):
        if len(failures) < 20:
            failures.append(message)
        elif len(failures) == 20:
            failures.append("... (more)")

    with open(args.trace, encoding="utf-8") as f:
        # Exact decimals: "ts" is cycles / 1000, written with 3 decimals.
        data = json.load(f, parse_float=decimal.Decimal)
    events = data["traceEvents"]
    if not events:
        fail("no events")

    named = set()
    processes = {}
    for e in events:
        if e["ph"] == "M" and e["name"] == "thread_name":
            named.add((e["pid"], e["tid"]))
        if e["ph"] == "M" and e["name"] == "process_name":
            processes[e["pid"]] = e["args"]["name"]
    host_pid = next((p for p, n in processes.items() if n == "host link"), None)

    def boot(e):
        return e.get("args", {}).get("boot", 0)

    # Timestamps per track, in file order.
    last = {}
    for e in events:
        if e["ph"] == "M":
            continue
        track = (e["pid"], e["tid"])
        if track not in named:
            fail(f"event {e['name']!r} on an unnamed track {track}")
        if track in last and e["ts"] < last[track]:
            fail(f"{e['name']!r} at {e['ts']} after {last[track]} on track {track}")
        last[track] = e["ts"]

    # Sends, receives and the arrows between them.
    def key(e):
        return (e["pid"], e["tid"], e["ts"], e["args"]["msg"], boot(e))

    sends, receives = {}, {}
    for e in events:
        if e["ph"] != "X" or e.get("cat") != "mailbox":
            continue
        if e["name"].startswith(("send to ", "multicast to ")):
            sends[key(e)] = e
        elif e["name"].startswith(("receive", "from ")):
            receives[key(e)] = e
    starts = collections.defaultdict(list)
    ends = collections.defaultdict(list)
    for e in events:
        if e["ph"] == "s":
            starts[e["id"]].append(e)
        elif e["ph"] == "f":
            ends[e["id"]].append(e)
    arrows_from = collections.Counter()
    arrows_to = collections.Counter()
    for flow in set(starts) | set(ends):
        if len(starts[flow]) != 1 or len(ends[flow]) != 1:
            fail(f"flow {flow}: {len(starts[flow])} starts and {len(ends[flow])} ends")
            continue
        s, f = starts[flow][0], ends[flow][0]
        if s["args"]["msg"] != f["args"]["msg"] or boot(s) != boot(f):
            fail(f"flow {flow} joins message {s['args']['msg']} to {f['args']['msg']}")
        if f.get("bp") != "e":
            fail(f"flow {flow} does not bind to the receive it ends in")
        if key(s) not in sends:
            fail(f"flow {flow} starts at no send: {key(s)}")
        if key(f) not in receives:
            fail(f"flow {flow} ends at no receive: {key(f)}")
        arrows_from[key(s)] += 1
        arrows_to[key(f)] += 1
    for k, e in sends.items():
        copies = e["args"].get("copies", 1)
        if arrows_from[k] != copies:
            fail(f"{e['name']} (message {k[3]}) has {arrows_from[k]} arrows for {copies} copies")
    for k, e in receives.items():
        if arrows_to[k] != 1:
            fail(f"{e['name']} (message {k[3]}) has {arrows_to[k]} arrows")
    flows = len(set(starts) | set(ends))
    if args.flows is not None and flows != args.flows:
        fail(f"{flows} arrows, expected {args.flows}")

    # Event counts against the mailbox counters.
    sent = collections.Counter()
    received = collections.Counter()
    counters = []
    for e in events:
        where = (e["pid"], boot(e))
        if e["ph"] == "X" and e.get("cat") == "mailbox":
            if e["name"].startswith(("send to ", "multicast to ")):
                sent[where] += e["args"].get("copies", 1)
            elif e["pid"] == host_pid and e["name"].startswith("from "):
                received[where] += 1
        elif e["ph"] == "i" and e["name"] == "free":
            received[where] += 1
        elif e["name"] == "mailbox counters":
            counters.append(e)
    if not counters:
        fail("no mailbox counters in the trace")
    for c in counters:
        where = (c["pid"], c["args"]["of_boot"])
        name = processes.get(c["pid"], c["pid"])
        if sent[where] != c["args"]["sent"]:
            fail(f"{name}, boot {where[1]}: {sent[where]} sends, counter {c['args']['sent']}")
        if received[where] != c["args"]["received"]:
            fail(f"{name}, boot {where[1]}: {received[where]} received, "
                 f"counter {c['args']['received']}")
    counted = {(c["pid"], c["args"]["of_boot"]) for c in counters}
    for where in set(sent) | set(received):
        if where not in counted:
            fail(f"{processes.get(where[0], where[0])}, boot {where[1]}: events but no counters")

    names = {e["name"] for e in events}
    for prefix in args.require:
        if not any(n.startswith(prefix) for n in names):
            fail(f"no event named {prefix!r}...")

    print(f"trace_check: {len(events)} events, {len(named)} tracks, {len(sends)} sends, "
          f"{len(receives)} receives, {flows} arrows, {len(counters)} counters")
    if failures:
        for message in failures:
            print(f"FAIL: {message}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
