#!/usr/bin/python3
"""The barrier library's cost model against measurement (docs/barriers.md, "The model against
measurement"): boots apps/barrier_bench, takes every barrier's modelled cycles per episode over
the whole machine with simultaneous arrival (the model's own assumption) and the model's
prediction beside it, and checks measured / predicted against the barrier's tolerance band.

  barrier_model_check.py --tolerances docs/barriers.md -- command...

The bands are read from the table under that heading in the given file (one row per barrier:
`name`, then lo–hi), so the document states exactly what the test checks. Every barrier the
bench measures needs a row, and every row a measurement. The command must run barrier_bench to
its "barrier-bench: done" line and exit 0.
"""
import argparse
import re
import subprocess
import sys

HEADING = "### The model against measurement"


def bands(path):
    """{barrier: (lo, hi)} from the first table under HEADING."""
    text = open(path).read()
    start = text.find(HEADING)
    if start < 0:
        sys.exit(f"{path}: no heading '{HEADING}'")
    out = {}
    for line in text[start:].splitlines()[1:]:
        if line.startswith("#"):
            break
        m = re.match(r"\|\s*`([a-z-]+)`\s*\|\s*([0-9.]+)\s*[–-]\s*([0-9.]+)\s*\|", line)
        if m:
            out[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    if not out:
        sys.exit(f"{path}: no rows `name` | lo–hi | under '{HEADING}'")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tolerances", required=True)
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    tolerance = bands(a.tolerances)
    run = subprocess.run(command, capture_output=True, text=True, timeout=300,
                         stdin=subprocess.DEVNULL)
    if run.returncode != 0 or "barrier-bench: done" not in run.stdout:
        sys.stdout.write(run.stdout[-2000:] + run.stderr[-2000:])
        sys.exit(f"FAILED: barrier_bench exited {run.returncode} without finishing")
    rows = []
    for line in run.stdout.splitlines():
        if line.startswith("barrier-bench: name="):
            f = dict(re.findall(r"(\w+)=(\S+)", line))
            if f["arrival"] == "simultaneous":
                rows.append(f)
    machine = max(int(f["p"]) for f in rows)
    measured = {f["name"]: f for f in rows if int(f["p"]) == machine}
    failed = 0
    print(f"measured / predicted cycles per episode, P = {machine} (the whole machine), "
          "simultaneous arrival:")
    for name in list(measured) + [n for n in tolerance if n not in measured]:
        if name not in measured:
            print(f"FAILED: {name}: a tolerance, but the bench measured no such barrier")
            failed += 1
            continue
        f = measured[name]
        cycles = int(f["cycles"]) / int(f["episodes"])
        predicted = int(f["predicted"])
        ratio = cycles / predicted
        chosen = f" ({f['chosen']})" if f["chosen"] != name else ""
        if name not in tolerance:
            print(f"FAILED: {name}: measured {ratio:.2f}x its model, and no tolerance for it")
            failed += 1
            continue
        lo, hi = tolerance[name]
        ok = lo <= ratio <= hi
        failed += not ok
        print(f"{'ok' if ok else 'FAILED'}: {name + chosen:30s} {cycles:9.1f} / {predicted:6d} = "
              f"{ratio:6.3f}, band {lo:.2f}-{hi:.2f}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
