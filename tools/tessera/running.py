"""The commands that boot firmware: on -M tessera (run, debug, trace, qemu-cmd, demo, shake)
and on the dev boards (run --board, flash)."""
import os
import subprocess
import time

from .base import (BUILD, IMAGE_ARG, QEMU, REPO, TESSERA_HOST, Failure, Parser,
                   exec_program, words)
from .builds import board_names, build_all
from .images import board_image, built_app, image_path, qemu_command, resolve_app

BOARD_SH = os.path.join(REPO, "boards", "board.sh")


def with_dashdash(qemu_args):
    """The arguments after `--` as they were given: none, or `--` and what follows it."""
    return [] if qemu_args is None else ["--", *qemu_args]


def add_machine_arguments(parser):
    parser.options.add_argument("app", metavar=IMAGE_ARG, help=(
        "a folder of apps/, an image the firmware build makes (an app with several "
        "images, like mbox_fault, lists them), or a path to an ELF file"))
    parser.options.add_argument("properties", metavar="key=value", nargs="*", default=[],
                                help='machine properties (README.md, "Machine properties")')


def add_ranks_option(parser, what_else=""):
    parser.options.add_argument("--ranks", metavar="N", type=int, default=1, help=(
        "spread the boards over N QEMU processes started by Open MPI's mpirun (docs/ranks.md)"
        + what_else))


def checked_ranks(parser, parsed):
    if parsed.ranks < 1:
        parser.error(f"--ranks {parsed.ranks}: 1 or more")
    return parsed.ranks


def add_ranks_refusal(parser, what):
    """--ranks on a command that does not spread over processes yet: one line, nothing runs."""
    parser.options.add_argument("--ranks", metavar="N", type=int, default=1, help=(
        f"not yet: {what} runs in one process (docs/ranks.md)"))


def refuse_ranks(parsed, command, why):
    if parsed.ranks != 1:
        raise Failure(f"{command} --ranks {parsed.ranks}: not yet; {why} (docs/ranks.md)")


def add_send_option(parser, help_text):
    parser.options.add_argument("--send", metavar="THREAD:WORD,...", action="append",
                                default=[], help=help_text)


def host_arguments(sends):
    return [arg for send in sends for arg in ("--send", send)]


def run_parser():
    parser = Parser("run", """\
Builds what is missing, then boots one app on -M tessera in the deterministic
mode, through tessera-host: the guest's console and the messages threads send
to the host go to stdout. The exit status is the guest's verdict.

With --board, boots the app's image for a RISC-V dev board on QEMU's model of
that board instead: the board's serial console goes to stdout, and the exit
status is the image's, through semihosting (docs/boards.md). That takes no
--send and no machine properties.""", "./tessera run hello boards-x=2 threads-per-core=8",
                    qemu_args=True)
    add_send_option(parser, "a message from the host to thread THREAD, sent before the run "
                            "starts (repeatable)")
    parser.options.add_argument("--board", metavar="<board>", help=(
        f"a dev board: one of the folders of boards/ with a board.env ({words(board_names())})"))
    add_ranks_option(parser, ", with the same output as one process with windows=on")
    add_machine_arguments(parser)
    return parser


def cmd_run(args):
    parser = run_parser()
    parsed = parser.parse(args)
    if parsed.board:
        if parsed.send or parsed.properties:
            parser.error("--board takes no --send and no machine properties")
        elf = board_image(parsed.board, parsed.app)
        exec_program([BOARD_SH, "qemu", parsed.board, os.path.dirname(QEMU), elf,
                      *(parsed.qemu_args or [])])
    elf = built_app(parsed.app)
    command = qemu_command(elf, parsed.properties + with_dashdash(parsed.qemu_args),
                           ranks=checked_ranks(parser, parsed))
    # Through the host link's host side, so that messages threads send to tinselHostId() are
    # printed; the exit status is still the guest's.
    exec_program([TESSERA_HOST, *host_arguments(parsed.send), "--", *command])


def debug_parser():
    parser = Parser("debug", """\
Builds what is missing, then boots one app on -M tessera in the deterministic
mode, stopped before its first instruction, and attaches gdb-multiarch with the
app's symbols and boards/tessera/gdb/tessera.py: every hart is a gdb thread
named by its thread id and coordinates, stepping moves only the selected hart,
$cycle is the hart's modelled cycle count, and thread-id, break-thread,
tbreak-thread and blocked find harts by thread id (docs/debugging.md). The
guest's console goes to stdout. When gdb exits, QEMU is killed; the exit
status is gdb's.""", "./tessera debug pingpong boards-x=2 -ex 'tbreak-thread 0x10 main' "
                     "-ex continue", qemu_args=True)
    parser.options.add_argument("--batch", metavar="SCRIPT", help=(
        "run gdb in batch mode on SCRIPT (gdb commands, or Python if it ends in .py) once "
        "attached, then exit"))
    parser.options.add_argument("-ex", metavar="CMD", dest="commands", action="append",
                                default=[], help="a gdb command to run once attached "
                                                 "(repeatable)")
    add_ranks_refusal(parser, "the debugger's machine")
    add_machine_arguments(parser)
    return parser


def cmd_debug(args):
    """The machine stopped at its first instruction, gdb-multiarch attached
    (boards/tessera/gdb/debug.sh, docs/debugging.md)."""
    parsed = debug_parser().parse(args)
    refuse_ranks(parsed, "debug", "gdb attaches to one QEMU process")
    gdb_args = [arg for command in parsed.commands for arg in ("-ex", command)]
    if parsed.batch is not None:
        if not os.path.isfile(parsed.batch):
            raise Failure(f"no gdb script '{parsed.batch}'")
        gdb_args = ["--batch", os.path.realpath(parsed.batch), *gdb_args]
    elf = built_app(parsed.app)
    machine = parsed.properties + with_dashdash(parsed.qemu_args)
    qemu_command(elf, machine)
    exec_program([os.path.join(REPO, "boards", "tessera", "gdb", "debug.sh"), *gdb_args,
                  QEMU, elf, *machine])


def trace_parser():
    parser = Parser("trace", """\
Builds what is missing, then boots one app as run does (deterministic mode,
through tessera-host) with QEMU's Tessera trace events on, and converts them
into FILE.json: the Chrome/Perfetto trace-event format on the modelled time
axis (1 ns = 1 cycle), one track per thread grouped by board, arrows from
each send to its receives, slices for waits and termination detection. Open
it offline at https://ui.perfetto.dev ("Open trace file") or in
chrome://tracing (docs/tracing.md). The exit status is the guest's verdict;
FILE.json is written whatever it is.""",
                    "./tessera trace pingpong boards-x=3 boards-y=3 -o run.json",
                    qemu_args=True,
                    missing={IMAGE_ARG: "no app to trace",
                             "-o/--output": "no output file: add -o FILE.json"})
    parser.add_required_option("-o", "--output", metavar="FILE.json",
                               help="where to write the trace")
    add_send_option(parser, "a message from the host, as for run (repeatable)")
    parser.options.add_argument("--events", metavar="PATTERN", action="append", default=[],
                                help=("the QEMU trace events to record (repeatable; default "
                                      "'tessera_*'; add 'verbose_tessera_*' for every mailbox "
                                      "CSR and the start-up slot hand-over)"))
    parser.options.add_argument("--log", metavar="FILE", help="keep QEMU's log of the events "
                                                              "in FILE")
    add_ranks_option(parser, "; every rank's events merged into one timeline, the same as one "
                             "process's with windows=on")
    add_machine_arguments(parser)
    return parser


def cmd_trace(args):
    """Boots as run does, with QEMU's Tessera trace events on, through tessera-trace, which
    converts them into the JSON trace (docs/tracing.md) and exits with the guest's status."""
    parser = trace_parser()
    parsed = parser.parse(args)
    elf = built_app(parsed.app)
    command = qemu_command(elf, [*parsed.properties, "--", *(parsed.qemu_args or [])],
                           ranks=checked_ranks(parser, parsed))
    trace_args = [arg for pattern in parsed.events for arg in ("--events", pattern)]
    if parsed.log is not None:
        trace_args += ["--log", parsed.log]
    exec_program([os.path.join(BUILD, "host", "host", "trace", "tessera-trace"),
                  "-o", parsed.output, *trace_args, "--",
                  TESSERA_HOST, *host_arguments(parsed.send), "--", *command])


def qemu_cmd_parser():
    parser = Parser("qemu-cmd", """\
Prints the QEMU command line that run starts (without the host link that run
adds), quoted for a shell, and builds nothing. It is formed by
boards/tessera/qemu-cmd.sh, as everywhere.""", "./tessera qemu-cmd hello boards-x=2",
                    qemu_args=True)
    add_machine_arguments(parser)
    return parser


def cmd_qemu_cmd(args):
    parsed = qemu_cmd_parser().parse(args)
    command = qemu_command(resolve_app(parsed.app),
                           parsed.properties + with_dashdash(parsed.qemu_args))
    exec_program([command[0], "--print", *command[1:]])


def seconds_since(start):
    return f"{time.monotonic() - start:.2f} s host time"


def demo_step(title, app, *properties):
    """Boots one app, shows its output (head and tail if long), fails the demo if the guest
    fails."""
    print(f"\n== {title}")
    start = time.monotonic()
    command = qemu_command(image_path(app), list(properties))
    booted = subprocess.run(command, stdout=subprocess.PIPE, text=True, errors="replace",
                            check=False)
    lines = booted.stdout.rstrip("\n").split("\n")
    if len(lines) > 8:
        print("\n".join(lines[:3]))
        print(f"   ... ({len(lines)} lines in all)")
        print("\n".join(lines[-3:]))
    else:
        print("\n".join(lines))
    if booted.returncode != 0:
        raise Failure(f"{app} failed: guest exit status {booted.returncode}")
    print(f"-> guest verdict: success ({seconds_since(start)})")


def demo_parser():
    return Parser("demo", """\
Sets up and builds everything (the first time takes minutes). Then it runs heat
transfer (the vertex API) on a 20,000-vertex geometric graph across 3x1 boards,
synchronous and GALS, checks every temperature against the host's reference and
prints the graph, placement, time steps, messages, modelled cycles and host
seconds. Then it boots three apps and shows what they print with each guest's
verdict: hello on 2x2 boards (256 harts), pingpong across 3x3 boards and
idle_vote_hw on 3x2 boards. Last, parallel SHAKE on a ring of 64 threads across
2 boards, with each convergence check, compared with the host reference.""",
                  "./tessera demo")


def cmd_demo(args):
    demo_parser().parse(args)
    build_all()
    start = time.monotonic()
    print("\n== Vertex API: heat transfer on a 20,000-vertex geometric graph across 3x1 boards "
          "(96 threads), synchronous and GALS, each checked against the host's reference")
    if subprocess.run([os.path.join(BUILD, "host", "tests", "qemu", "vertex_demo"), "20000"],
                      check=False).returncode != 0:
        raise Failure("the vertex demo failed")
    print(f"-> both runs equal the reference ({seconds_since(start)})")
    demo_step("Boot: hello on 2x2 boards of 2x2 tiles x 4 cores x 4 threads (256 harts); the "
              "run passes once every hart has checked in", "hello",
              "boards-x=2", "boards-y=2", "tiles-x=2", "tiles-y=2", "cores-per-tile=4",
              "threads-per-core=4")
    demo_step("Messages: modelled round trips from thread 0 across a 3x3 board mesh (tile hop "
              "4 cycles, board hop L = 150 cycles)", "pingpong", "boards-x=3", "boards-y=3")
    demo_step("Termination detection: tinselIdle(vote) on 3x2 boards (96 harts), hardware "
              "star protocol", "idle_vote_hw", "boards-x=3", "boards-y=2")
    print("\n== Parallel SHAKE: a 6,144-particle chain on a ring of 64 threads across 2 "
          "boards; the convergence check by one message twice around, by P messages, and by "
          "the open-collector bus, each checked bit for bit against the host reference")
    if subprocess.run([SHAKE_RUN, "--generate", "chain", "--particles", "6144", "--ring", "64",
                       "--steps", "2", "--partition-kib", "1024"],
                      env=dict(os.environ, TESSERA_QEMU=QEMU), check=False).returncode != 0:
        raise Failure("the SHAKE demo failed")
    print("\nMore: ./tessera run <app> key=value...  ./tessera shake --help  "
          "./tessera bench apps|shake|idle  (README.md)")


SHAKE_RUN = os.path.join(BUILD, "host", "tests", "qemu", "shake", "shake-run")
# shake-run's options with a value: (option, metavar, help, choices); --csv is the flag.
SHAKE_OPTIONS = [
    ("--molecule", "FILE", "a .pdb/.ent file, or molecule text (docs/shake.md)", None),
    ("--generate", "SHAPE", "generate a molecule of this shape [chain]", ["chain", "ring",
                                                                          "branched"]),
    ("--particles", "N", "particles of a generated molecule [256]", None),
    ("--seed", "S", "seeds the generator and the initial steps [1]", None),
    ("--ring", "P", "threads in the ring: 2..8 boards times a power of two [8]", None),
    ("--method", "M", "the convergence check [all]", ["ring2", "ringp", "ocbus", "all"]),
    ("--steps", "N", "time steps [2]", None),
    ("--tolerance", "T", "|r^2 - d^2| <= T d^2, at least 1e-5 [1e-4]", None),
    ("--max-step", "A", "initial steps up to A angstrom per coordinate [0.01]", None),
    ("--max-iterations", "N", "SHAKE iterations before a step fails [1000]", None),
    ("--partition-kib", "K", "each thread's partition; a quarter holds its image [64]", None),
    ("--cpi", "1|tpc", "cycles per instruction: 1, or threads per core [1]", ["1", "tpc"]),
    ("--image", "ELF", "another guest image than the SHAKE app the build makes", None),
]


def shake_parser():
    parser = Parser("shake", """\
Builds what is missing, then runs constrained molecular dynamics with parallel
SHAKE on a ring of P threads that is every hart of a machine of 2 to 8 boards
(docs/shake.md). The molecule comes from a PDB file, a molecule text file or
the generator; it is renumbered by reverse Cuthill-McKee and laid on the ring.
Each method of the convergence check (ring2: one message twice around; ringp:
P messages once around; ocbus: the open-collector bus) runs on the machine and
is compared with the host reference, every position and step bit for bit.
Prints the modelled cycles per iteration, compute and check. Bad input gets one
line naming the file and line, and nothing runs. Exit status: 0 equal to the
reference, 1 bad input, 2 a run differs. Defaults in brackets.""",
                    "./tessera shake --molecule apps/shake/molecules/water8.pdb --ring 6 "
                    "--steps 4")
    for option, metavar, help_text, choices in SHAKE_OPTIONS:
        if choices:
            help_text += f": {', '.join(choices)}"
        parser.options.add_argument(option, metavar=metavar, choices=choices, help=help_text)
    parser.options.add_argument("--csv", action="store_true", help=(
        "ring,method,iterations,compute_cycles,check_cycles,check_share,host_s rows instead "
        "of the text"))
    return parser


def cmd_shake(args):
    """The parallel SHAKE runner, built first, given the options as shake-run spells them."""
    parsed = shake_parser().parse(args)
    forwarded = []
    for option, _, _, _ in SHAKE_OPTIONS:
        value = getattr(parsed, option.removeprefix("--").replace("-", "_"))
        if value is not None:
            forwarded += [option, value]
    if parsed.csv:
        forwarded.append("--csv")
    build_all()
    exec_program([SHAKE_RUN, *forwarded], env={"TESSERA_QEMU": QEMU})


def flash_parser():
    parser = Parser("flash", """\
Builds what is missing, prints the exact OpenOCD command that writes the app's
image for the board onto it and verifies it, then runs it (Debian's openocd).
The same image boots on QEMU's model of the board with ./tessera run --board.
Exit status: 0 flashed and verified; 1 bad use (an unknown board, an app the
board cannot hold); 3 no probe connected; OpenOCD's own status otherwise. How
to connect each board and what its serial console shows: docs/boards.md.""",
                    "./tessera flash --dry-run sifive_e hello")
    parser.options.add_argument("--dry-run", action="store_true",
                                help="print the OpenOCD command only")
    parser.options.add_argument("board", metavar="<board>", help=(
        f"one of the folders of boards/ with a board.env ({words(board_names())})"))
    parser.options.add_argument("app", metavar=IMAGE_ARG, help="an app the board builds, or "
                                                              "a path to an ELF file")
    return parser


def cmd_flash(args):
    """OpenOCD writes the image onto the board (boards/board.sh)."""
    parsed = flash_parser().parse(args)
    elf = board_image(parsed.board, parsed.app)
    exec_program([BOARD_SH, "flash", parsed.board, elf,
                  *(["--dry-run"] if parsed.dry_run else [])])
