"""What every command shares: the tree's paths, Tessera's messages, running other programs,
and the argument parser that makes each command's help from the options it parses."""
import argparse
import os
import shlex
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(REPO, "build")
FIRMWARE = os.path.join(BUILD, "firmware")
QEMU = os.path.join(BUILD, "qemu", "qemu-system-riscv32")
# The sanitizer build's QEMU (qemu/build.sh --sanitize), which the sanitize preset's tests use.
QEMU_ASAN = os.path.join(BUILD, "qemu-asan", "qemu-system-riscv32")
# The QEMU command line is formed in one place (the deterministic mode); the QEMU tests and
# the benchmarks use it too.
QEMU_CMD = os.path.join(REPO, "boards", "tessera", "qemu-cmd.sh")
# How commands name the image they boot, in their usage and errors.
IMAGE_ARG = "<app|elf>"
TESSERA_HOST = os.path.join(BUILD, "host", "host", "hostlink", "tessera-host")


class Failure(Exception):
    """A command cannot go on: main prints `tessera: error: <message>` and exits 1."""


def say(message):
    print(f"tessera: {message}", file=sys.stderr, flush=True)


def run(argv, **kwargs):
    """Runs a program and returns its exit status (a signal's death as 128 + signal, as a
    shell reports it)."""
    status = subprocess.run(argv, check=False, **kwargs).returncode
    return 128 - status if status < 0 else status


def in_repo(argv, **kwargs):
    """Runs a program in the repository: CMake and ctest read their presets from there."""
    return run(argv, cwd=REPO, **kwargs)


def exec_program(argv, env=None):
    """Becomes the program (its exit status and signals are then the command's own)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os.execvpe(argv[0], argv, dict(os.environ, **(env or {})))


def as_root(argv, why, **kwargs):
    """Runs a program as root: directly when root, else with sudo. `why` ends the error
    when neither is possible."""
    if os.geteuid() == 0:
        return run(argv, **kwargs)
    if shutil.which("sudo"):
        return run(["sudo", *argv], **kwargs)
    raise Failure(f"need root to run: {shlex.join(argv)} ({why})")


def words(items):
    """Names on one line, for messages."""
    return " ".join(items)


def split_at_dashdash(argv):
    """(the arguments before `--`, those after it or None if there is no `--`)."""
    if "--" not in argv:
        return argv, None
    at = argv.index("--")
    return argv[:at], argv[at + 1:]


def wants_help(argv):
    """True if -h or --help comes before any `--` (after it, the options are QEMU's)."""
    before, _ = split_at_dashdash(argv)
    return "-h" in before or "--help" in before


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """The description and example as written; the options' help wrapped at 80 columns
    whatever the terminal, so that every help reads the same."""

    def __init__(self, prog):
        super().__init__(prog, max_help_position=26, width=80)


QEMU_ARGS_TAIL = "[-- qemu args]"


class Parser(argparse.ArgumentParser):
    """One command's parser: its help is made from the arguments it parses (usage, a
    description, every option, an example), and its errors are one line that ends with the
    usage.

    Options may come anywhere among the positional arguments (parse_intermixed_args). With
    qemu_args, everything after `--` is QEMU's and is set aside before parsing."""

    def __init__(self, command, description, example, *, missing=None, qemu_args=False):
        """missing: {an argument's name in argparse's errors: the error when it is missing}."""
        epilog = f"Example:\n  {example}"
        if qemu_args:
            epilog = "After --: QEMU's own options, passed to it as they are.\n\n" + epilog
        super().__init__(prog=f"./tessera {command}", description=description, epilog=epilog,
                         formatter_class=HelpFormatter, add_help=False, allow_abbrev=False)
        self.command = command
        self.missing = missing or {}
        self.checked_last = []
        self.qemu_args = qemu_args
        self.options = self.add_argument_group("Options")
        self.options.add_argument("-h", "--help", action="help",
                                  help="print this help and do nothing else")

    def format_usage(self):
        return self._edited(super().format_usage())

    def format_help(self):
        usage = super().format_usage()
        return self._edited(usage) + super().format_help()[len(usage):]

    def _edited(self, usage):
        """The usage line without [-h] (every command takes it, the options list it), with
        `[-- qemu args]` where they are taken (once: while it parses, argparse keeps the usage
        it formatted in self.usage)."""
        usage = usage.replace(" [-h]", "", 1)
        if not self.qemu_args or usage.rstrip().endswith(QEMU_ARGS_TAIL):
            return usage
        return f"{usage.rstrip()} {QEMU_ARGS_TAIL}\n"

    def one_line_usage(self):
        return " ".join(self.format_usage().split())

    def add_required_option(self, *flags, **kwargs):
        """An option that must be given, checked after the positional arguments: argparse's
        intermixed parsing would check it first, and a missing app is the error to name."""
        option = self.options.add_argument(*flags, required=True, **kwargs)
        self.checked_last.append(option)
        return option

    def error(self, message):
        required = "the following arguments are required: "
        if message.startswith(required):
            first = message.removeprefix(required).split(", ")[0]
            message = self.missing.get(first, message)
        raise Failure(f"{message}; {self.one_line_usage()} (./tessera {self.command} --help)")

    def parse(self, argv):
        """The parsed arguments; with qemu_args, `.qemu_args` is what follows `--` (None if
        there is no `--`)."""
        before, after = split_at_dashdash(argv) if self.qemu_args else (argv, None)
        # The options checked last are optional for the parse only: errors and help show
        # them required.
        self.usage = self.format_usage().removeprefix("usage: ").rstrip()
        for option in self.checked_last:
            option.required = False
        try:
            parsed = self.parse_intermixed_args(before)
        finally:
            for option in self.checked_last:
                option.required = True
            self.usage = None
        for option in self.checked_last:
            if getattr(parsed, option.dest) is None:
                self.error(f"the following arguments are required: "
                           f"{'/'.join(option.option_strings)}")
        if self.qemu_args:
            parsed.qemu_args = after
        return parsed

    def parse_known(self, argv):
        """(the parsed arguments, the ones this parser does not know), for the commands that
        pass on what they do not know."""
        return self.parse_known_intermixed_args(argv)
