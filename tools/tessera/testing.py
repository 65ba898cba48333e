"""The commands that check: every test (test) and the libFuzzer targets (fuzz)."""
import os
import re
import shutil
import subprocess
import sys

from .base import BUILD, REPO, Failure, Parser, in_repo, say, words
from .builds import SANITIZE, build_all, build_sanitize, configure_sanitize, log_of, quietly


def test_parser():
    parser = Parser("test", """\
Sets up and builds everything, then runs every test (unit, QEMU end-to-end,
fuzz, model check) with ctest --preset host, then again under ASan/UBSan with
ctest --preset sanitize. Exits non-zero if any test fails (docs/testing.md).""",
                    "./tessera test --fast -R qemu.hello")
    parser.options.add_argument("--fast", action="store_true",
                                help="the normal build only, no sanitizer build or pass")
    parser.options.add_argument("ctest_args", metavar="ctest args", nargs="*", default=[],
                                help="passed to ctest, e.g. -R <regex>, -L <label> or -LE <label>")
    return parser


def cmd_test(args):
    """Every test twice, on the normal build and under the sanitizers; --fast skips the
    sanitizer pass."""
    fast = test_parser().parse_known(args)[0].fast
    # ctest's arguments as given: argparse keeps no order between what it does not know.
    ctest_args = [arg for arg in args if arg != "--fast"]
    build_all()
    if not fast:
        build_sanitize()
    say("tests on the normal build (ctest --preset host)")
    status = in_repo(["ctest", "--preset", "host", *ctest_args])
    if not fast:
        say("tests under AddressSanitizer and UBSan (ctest --preset sanitize)")
        status = in_repo(["ctest", "--preset", "sanitize", *ctest_args]) or status
    return status


CORPORA = os.path.join(REPO, "tests", "fuzz", "corpus")
FUZZ_SECONDS = 60
# What of a failed run's log to show: the invariant that broke, or the sanitizer's report.
FUZZ_FAILURE = re.compile(r"^==== fuzz invariant|ERROR: (AddressSanitizer|"
                          r"UndefinedBehaviorSanitizer|libFuzzer)|runtime error")
FUZZ_DONE = re.compile(r"^#[0-9]+\s+DONE")


def fuzz_targets():
    return sorted(os.listdir(CORPORA))


def fuzz_parser():
    parser = Parser("fuzz", """\
Builds the libFuzzer targets of the device models under ASan/UBSan and runs
them one after another, each for <seconds>. The corpus is kept under
build/fuzz-corpus/, crashing inputs land in build/fuzz-artifacts/ (docs/fuzzing.md).""",
                    "./tessera fuzz mailbox 30")
    parser.options.add_argument("target", nargs="?", default="all", help=(
        f"one of: {words(fuzz_targets())} (default all)"))
    parser.options.add_argument("seconds", nargs="?", help=f"time per target (default "
                                                           f"{FUZZ_SECONDS})")
    return parser


def lines_after(lines, pattern, after):
    """The lines that match, each with the `after` lines that follow it, groups apart
    separated by `--` (as grep -A)."""
    shown, last = [], None
    for i, line in enumerate(lines):
        if pattern.search(line):
            start = i if last is None else max(i, last + 1)
            if last is not None and start > last + 1:
                shown.append("--")
            shown += lines[start:i + after + 1]
            last = min(i + after, len(lines) - 1)
    return shown


def fuzz_one(target, seconds):
    """Runs one target for `seconds`; True if it found nothing."""
    corpus = os.path.join(BUILD, "fuzz-corpus", target)
    artifacts = os.path.join(BUILD, "fuzz-artifacts", target)
    log = os.path.join(BUILD, "fuzz-logs", f"{target}.log")
    for folder in (corpus, artifacts, os.path.dirname(log)):
        os.makedirs(folder, exist_ok=True)
    seeds = os.path.join(CORPORA, target)
    for seed in os.listdir(seeds):
        if not os.path.exists(os.path.join(corpus, seed)):
            shutil.copy(os.path.join(seeds, seed), corpus)
    say(f"fuzzing {target} for {seconds} s (corpus {corpus}, log {log})")
    with open(log, "w", encoding="utf-8") as out:
        status = subprocess.run(
            [os.path.join(SANITIZE, "tests", "fuzz", f"{target}_fuzz"),
             f"-max_total_time={seconds}", "-timeout=10", "-rss_limit_mb=2048",
             "-print_final_stats=1", f"-artifact_prefix={artifacts}/", corpus],
            stdout=out, stderr=subprocess.STDOUT, check=False).returncode
    with open(log, encoding="utf-8", errors="replace") as out:
        lines = out.read().splitlines()
    if status == 0:
        done = [line for line in lines if FUZZ_DONE.search(line)]
        if done:
            print(f"{target}: {done[-1]}")
        return True
    for line in lines_after(lines, FUZZ_FAILURE, 3)[:12]:
        print(line, file=sys.stderr)
    for line in lines:
        if "Test unit written to" in line:
            print(line, file=sys.stderr)
    say(f"{target}: FAILED (log {log})")
    return False


def cmd_fuzz(args):
    """The libFuzzer targets of tests/fuzz/ (docs/fuzzing.md), from the sanitize tree (clang,
    ASan, UBSan), one after another, one process each, each for <seconds>. The corpus persists
    in build/fuzz-corpus/<target>, seeded from tests/fuzz/corpus/<target>; a crashing input
    lands in build/fuzz-artifacts/<target>/."""
    parser = fuzz_parser()
    parsed = parser.parse(args)
    target, seconds = parsed.target, parsed.seconds
    if re.fullmatch("[0-9]+", target) and seconds is None:
        target, seconds = "all", target
    if seconds is not None and not re.fullmatch("[0-9]+", seconds):
        parser.error(f"seconds must be a whole number, not '{seconds}'")
    all_targets = fuzz_targets()
    if target != "all" and target not in all_targets:
        raise Failure(f"no fuzz target '{target}' (targets: {words(all_targets)})")
    targets = all_targets if target == "all" else [target]
    configure_sanitize()
    quietly(log_of("fuzz-build"), ["cmake", "--build", SANITIZE, "--target",
                                   *(f"{t}_fuzz" for t in targets)])
    results = [fuzz_one(t, int(seconds or FUZZ_SECONDS)) for t in targets]
    return 0 if all(results) else 1
