"""The commands that measure: one benchmark (bench), and every published figure (figures)."""
import glob
import os
import re

from .base import BUILD, QEMU, REPO, Failure, Parser, exec_program, run, words
from .builds import build_all
from .packages import install_if_missing

BENCHES = os.path.join(REPO, "tests", "bench")
FIGURES_TOML = os.path.join(BENCHES, "figures.toml")
FIGURES_PY = os.path.join(BENCHES, "figures.py")


def benchmarks():
    """The scripts of tests/bench/ but its library."""
    return [os.path.basename(s).removesuffix(".sh")
            for s in sorted(glob.glob(os.path.join(BENCHES, "*.sh")))
            if os.path.basename(s) != "lib.sh"]


def figures_benches():
    """The benches tests/bench/figures.toml publishes, in its order."""
    with open(FIGURES_TOML, encoding="utf-8") as toml:
        return re.findall(r'^name = "(.*)"$', toml.read(), re.M)


def bench_environment(quick=None):
    env = {"TESSERA_REPO": REPO, "TESSERA_QEMU": QEMU}
    if quick is not None:
        env["TESSERA_BENCH_QUICK"] = "1" if quick else "0"
    return env


def bench_parser():
    names = words(benchmarks())
    parser = Parser("bench", """\
Builds what is missing, then runs tests/bench/<name>.sh, which prints its
figures and writes build/bench/<name>.csv. A run that fails ends the bench
with its status and one line; nothing of a failed bench is written.""",
                    "./tessera bench mailbox",
                    missing={"<name>": f"which benchmark? (benchmarks: {names})"})
    parser.options.add_argument("name", metavar="<name>", help=f"one of: {names}")
    parser.options.add_argument("--quick", action="store_true",
                                help="the bench's small shapes (said in its script's header)")
    parser.options.add_argument("args", nargs="*", default=[],
                                help="passed to the bench's script")
    return parser


def cmd_bench(args):
    parsed = bench_parser().parse_known(args)[0]
    name = parsed.name
    # The script's arguments as given: argparse keeps no order between what it does not know.
    script_args = [arg for arg in args if arg != "--quick"]
    script_args.remove(name)
    script = os.path.join(BENCHES, f"{name}.sh")
    if not os.path.isfile(script):
        raise Failure(f"no benchmark '{name}' (benchmarks: {words(benchmarks())})")
    build_all()
    if name == "host":
        # perf gives the host bench its share of host time in guest code.
        install_if_missing("linux-perf")
    os.makedirs(os.path.join(BUILD, "bench"), exist_ok=True)
    exec_program(["bash", script, *script_args], env=bench_environment(parsed.quick))


def figures_parser():
    parser = Parser("figures", """\
Runs every benchmark of tests/bench/figures.toml in its order, copies what
each publishes into docs/figures/ (CSV and SVG, with runs.csv saying when and
at which commit), then renders the generated tables of README.md and
docs/*.md from those files (docs/figures.md). The first bench that fails ends
it with its status; nothing of that bench is published.""",
                    "./tessera figures idle reflex")
    parser.options.add_argument("--quick", action="store_true", help=(
        "every bench on its small shapes, into build/figures-quick/; the docs are rendered "
        "from them in memory only (CI's smoke run)"))
    only = parser.options.add_mutually_exclusive_group()
    only.add_argument("--render", action="store_true",
                      help="only render the docs' blocks from docs/figures/")
    only.add_argument("--check", action="store_true",
                      help="render nothing; fail where a block differs from its CSVs")
    parser.options.add_argument("benches", metavar="bench", nargs="*", default=[], help=(
        f"only these benches (the others' files stay as they are): {words(figures_benches())}"))
    return parser


def cmd_figures(args):
    """Every bench of tests/bench/figures.toml, published in docs/figures/, and the docs'
    generated blocks from them (docs/figures.md)."""
    parsed = figures_parser().parse(args)
    for bench in parsed.benches:
        if bench not in figures_benches():
            raise Failure(f"no bench '{bench}' in tests/bench/figures.toml "
                          "(./tessera figures --help)")
    if parsed.render or parsed.check:
        exec_program(["/usr/bin/python3", FIGURES_PY, "render",
                      *(["--check"] if parsed.check else [])])
    build_all()
    # heaptrack gives the memory bench's breakdown of the heap per hart.
    install_if_missing("heaptrack")
    return run(["/usr/bin/python3", FIGURES_PY, "run",
                *(["--quick"] if parsed.quick else []), *parsed.benches],
               env=dict(os.environ, **bench_environment()))
