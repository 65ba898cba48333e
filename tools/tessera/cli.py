"""Tessera's one front door, ./tessera: the commands, their help and the dispatch. Every
command does the set-up it needs (Debian packages, QEMU source and build, CMake configure and
build), idempotently, and quickly when it has been done before."""
import signal
import sys
from dataclasses import dataclass
from typing import Callable

from . import benches, builds, completion, packages, running, testing
from .base import Failure, Parser, wants_help


@dataclass
class Command:
    name: str
    summary: str
    parser: Callable[[], Parser]
    run: Callable[[list[str]], int | None]


def help_parser():
    parser = Parser("help", """\
Lists the commands, or prints the help of one (as ./tessera <command> --help).""",
                    "./tessera help run")
    parser.options.add_argument("command", nargs="?",
                                help="one of the commands ./tessera help lists")
    return parser


def cmd_help(args):
    command = help_parser().parse(args).command
    if command is None:
        print_commands()
    else:
        command_named(command).parser().print_help()


def completion_parser():
    return Parser("completion", """\
Prints a bash completion script for ./tessera: commands, their options, app
and image names, machine properties and their values, benchmarks and fuzz
targets. Load it in the current shell, or add the line to ~/.bashrc.""",
                  "./tessera completion  # then: source <(./tessera completion)")


def cmd_completion(args):
    completion_parser().parse(args)
    print(completion.SCRIPT, end="")


# The commands, in the order `./tessera help` lists them.
COMMANDS = [
    Command("demo", "run a vertex app and boot the demo firmware on the emulated mesh",
            running.demo_parser, running.cmd_demo),
    Command("run", "boot one app; the exit status is the guest's verdict",
            running.run_parser, running.cmd_run),
    Command("debug", "boot one app stopped, with gdb attached",
            running.debug_parser, running.cmd_debug),
    Command("trace", "boot one app and write its timeline as Perfetto/Chrome JSON",
            running.trace_parser, running.cmd_trace),
    Command("test", "every test, on the normal build and then under ASan/UBSan",
            testing.test_parser, testing.cmd_test),
    Command("bench", "run a benchmark; CSV under build/bench/",
            benches.bench_parser, benches.cmd_bench),
    Command("figures", "run every benchmark, publish docs/figures/ and the docs' tables from "
            "them", benches.figures_parser, benches.cmd_figures),
    Command("shake", "run parallel SHAKE on a ring of threads, checked against the host "
            "reference", running.shake_parser, running.cmd_shake),
    Command("flash", "write an app onto a RISC-V dev board with OpenOCD",
            running.flash_parser, running.cmd_flash),
    Command("fuzz", "run the libFuzzer targets of the device models",
            testing.fuzz_parser, testing.cmd_fuzz),
    Command("build", "set up and build everything, run nothing",
            builds.build_parser, builds.cmd_build),
    Command("setup", "install the apt sources and Debian packages only",
            packages.setup_parser, packages.cmd_setup),
    Command("qemu-cmd", "print the QEMU command line that run would use",
            running.qemu_cmd_parser, running.cmd_qemu_cmd),
    Command("sdk", "install the SDK (headers, libraries, QEMU, CMake package) under a prefix",
            builds.sdk_parser, builds.cmd_sdk),
    Command("completion", "print the bash completion script",
            completion_parser, cmd_completion),
    Command("help", "list the commands, or explain one", help_parser, cmd_help),
]


def command_named(name):
    for command in COMMANDS:
        if command.name == name:
            return command
    raise Failure(f"unknown command '{name}' (try ./tessera help)")


def print_commands():
    print("usage: ./tessera <command> [args]\n\nCommands:")
    for command in COMMANDS:
        print(f"  {command.name:<9} {command.summary}")
    print("\n./tessera <command> --help prints a command's options and an example.")


def main(argv):
    """Runs one command; returns the exit status."""
    # Interleaved with the programs the commands start: each line out as it is printed.
    sys.stdout.reconfigure(line_buffering=True)
    # A reader that stops early (./tessera help | head -n 1) ends us quietly, as any tool.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    name, args = (argv[0], argv[1:]) if argv else ("help", [])
    try:
        if name == "__complete":
            for candidate in completion.candidates([c.name for c in COMMANDS], args):
                print(candidate)
            return 0
        if name in ("-h", "--help"):
            name = "help"
        command = command_named(name)
        if wants_help(args):
            command.parser().print_help()
            return 0
        return command.run(args) or 0
    except Failure as failure:
        print(f"tessera: error: {failure}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
