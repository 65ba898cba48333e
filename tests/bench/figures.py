#!/usr/bin/python3
"""Every published figure from one command (docs/figures.md).

usage: figures.py run [--quick] [BENCH...]   run the benches of figures.toml, in its order,
                                             publish their files, render the docs' blocks
       figures.py render [--check] [--figures DIR] [--root DIR]
                                             the docs' generated blocks from the CSVs: write
                                             them, or (--check) fail where one differs

A generated block in README.md or docs/*.md is the text between
    <!-- figure NAME -->   and   <!-- /figure -->
where NAME is a table of tables.py. Everything outside the markers is hand-written and stays.
"""
import argparse
import csv
import datetime
import difflib
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import tables  # noqa: E402

BLOCK = re.compile(r"(<!-- figure ([\w.-]+) -->\n)(.*?)(<!-- /figure -->)", re.S)
RUNS_COLUMNS = ["bench", "date", "commit", "host_s", "load_average", "cores"]


def fail(message, status=1):
    print(f"figures: {message}", file=sys.stderr)
    sys.exit(status)


def registry():
    with open(os.path.join(HERE, "figures.toml"), "rb") as f:
        return tomllib.load(f)["bench"]


def documents(root):
    """README.md and docs/*.md, the files that may hold generated blocks."""
    docs = os.path.join(root, "docs")
    return [os.path.join(root, "README.md")] + sorted(
        os.path.join(docs, n) for n in os.listdir(docs) if n.endswith(".md"))


def render_text(text, figures, where):
    """The text with every block rendered from the CSVs of `figures`."""
    def one(match):
        name = match.group(2)
        try:
            body = tables.render(name, figures)
        except tables.NoData as e:
            fail(f"{where}: block '{name}': {e}")
        return match.group(1) + body.rstrip("\n") + "\n" + match.group(4)
    return BLOCK.sub(one, text)


def render(args):
    figures = tables.Figures(args.figures)
    differs = []
    names = set()
    for path in documents(args.root):
        with open(path) as f:
            text = f.read()
        names.update(m.group(2) for m in BLOCK.finditer(text))
        where = os.path.relpath(path, args.root)
        new = render_text(text, figures, where)
        if new == text:
            continue
        if args.check:
            differs.append(where)
            sys.stderr.writelines(difflib.unified_diff(
                text.splitlines(True), new.splitlines(True), f"{where} (as committed)",
                f"{where} (from {os.path.relpath(args.figures, args.root)})", n=1))
        else:
            with open(path, "w") as f:
                f.write(new)
            print(f"figures: rendered the blocks of {where}")
    unused = sorted(set(tables.TABLES) - names)
    if unused and not args.quiet_unused:
        fail(f"tables that no document shows: {', '.join(unused)}")
    if differs:
        fail(f"{', '.join(differs)}: generated blocks differ from what the CSVs give; edit the "
             "text outside the <!-- figure --> markers, or run ./tessera figures --render")
    if args.check:
        print(f"figures: {len(names)} generated blocks agree with {os.path.relpath(args.figures, args.root)}")


def git_commit():
    head = subprocess.run(["git", "-C", REPO, "rev-parse", "--short=10", "HEAD"],
                          capture_output=True, text=True).stdout.strip() or "unknown"
    dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return head + ("+changes" if dirty else "")


def read_runs(path):
    if not os.path.exists(path):
        return {}
    with open(path, newline="") as f:
        return {r["bench"]: r for r in csv.DictReader(f)}


def write_runs(path, runs, order):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, RUNS_COLUMNS, lineterminator="\n")
        w.writeheader()
        for name in order:
            if name in runs:
                w.writerow(runs[name])


def run(args):
    benches = registry()
    known = [b["name"] for b in benches]
    for name in args.bench:
        if name not in known:
            fail(f"no bench '{name}' in figures.toml (benches: {' '.join(known)})", 2)
    chosen = [b for b in benches if not args.bench or b["name"] in args.bench]
    dest = os.path.join(REPO, "build", "figures-quick") if args.quick else \
        os.path.join(REPO, "docs", "figures")
    work = os.path.join(REPO, "build", "figures-runs" + ("-quick" if args.quick else ""))
    os.makedirs(dest, exist_ok=True)
    runs_csv = os.path.join(dest, "runs.csv")
    runs = read_runs(runs_csv)
    # The code the figures come from: taken before the first bench publishes anything, since
    # what the run writes (docs/figures/, the docs' blocks) would make the tree look changed.
    commit = git_commit()
    env = dict(os.environ, TESSERA_REPO=REPO, TESSERA_BENCH_QUICK="1" if args.quick else "0")
    if "TESSERA_QEMU" not in env:
        fail("TESSERA_QEMU is not set (run it as ./tessera figures)", 2)
    for bench in chosen:
        name = bench["name"]
        out = os.path.join(work, name)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        print(f"figures: bench {name}{' (quick)' if args.quick else ''}", flush=True)
        load = os.getloadavg()[0]
        start = time.monotonic()
        status = subprocess.run(
            ["bash", os.path.join(HERE, f"{name}.sh")] + bench.get("args", []),
            env=dict(env, TESSERA_BENCH_OUT=out)).returncode
        if status != 0:
            fail(f"bench {name} failed with status {status}; nothing of it was published", status)
        for f in bench["publish"] + bench.get("optional", []):
            src = os.path.join(out, f)
            if os.path.exists(src):
                shutil.copyfile(src, os.path.join(dest, f))
            elif f in bench["publish"]:
                fail(f"bench {name} ended well but wrote no {f}")
        runs[name] = {"bench": name, "date": datetime.date.today().isoformat(),
                      "commit": commit, "host_s": f"{time.monotonic() - start:.0f}",
                      "load_average": f"{load:.2f}", "cores": str(os.cpu_count())}
        write_runs(runs_csv, runs, known)
    if args.quick:
        # Every block must render from the quick figures too; the docs keep the published ones.
        figures = tables.Figures(dest)
        for path in documents(REPO):
            with open(path) as f:
                render_text(f.read(), figures, os.path.relpath(path, REPO))
        print(f"figures: every bench passed on the small shapes; their files are in "
              f"{os.path.relpath(dest, REPO)}, and every generated block renders from them")
    else:
        render(argparse.Namespace(figures=dest, root=REPO, check=False,
                                  quiet_unused=bool(args.bench)))


def main():
    parser = argparse.ArgumentParser(prog="figures.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="run the benches, publish, render")
    p.add_argument("--quick", action="store_true", help="small shapes, into build/figures-quick")
    p.add_argument("bench", nargs="*", help="only these benches (default: all, in order)")
    p = sub.add_parser("render", help="render the generated blocks from the CSVs")
    p.add_argument("--check", action="store_true", help="write nothing; fail where a block differs")
    p.add_argument("--figures", default=os.path.join(REPO, "docs", "figures"))
    p.add_argument("--root", default=REPO, help="the tree holding README.md and docs/")
    args = parser.parse_args()
    if args.command == "run":
        run(args)
    else:
        args.quiet_unused = False
        render(args)


if __name__ == "__main__":
    main()
