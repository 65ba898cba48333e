"""Builds: QEMU (cached outside the clone by qemu/build.sh), the firmware trees, the host
tree, and the sanitizer build; and the commands that only build (build, sdk)."""
import os
import shlex
import subprocess
import sys
import time

from .base import BUILD, FIRMWARE, QEMU, QEMU_ASAN, REPO, Failure, Parser, say
from .packages import setup

# A step that takes longer than this says so, then how long it has taken every PROGRESS_S.
QUIET_S = 5
PROGRESS_S = 30


def quietly(log, argv, cwd=REPO):
    """Runs a build step with its output in `log`, shown only if it fails. A step that takes
    more than a few seconds (a first build takes minutes) says so, then how long it has
    taken every 30 s and when it is done."""
    step = os.path.basename(log).removesuffix(".log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    start = time.monotonic()
    with open(log, "w", encoding="utf-8") as out:
        process = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL)
        wait = QUIET_S
        while True:
            try:
                status = process.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                if wait == QUIET_S:
                    say(f"{step}: running (log: {os.path.relpath(log, REPO)})")
                else:
                    say(f"{step}: {int(time.monotonic() - start)} s so far")
                wait = PROGRESS_S
    if status != 0:
        with open(log, encoding="utf-8", errors="replace") as out:
            sys.stderr.write(out.read())
        raise Failure(f"failed: {shlex.join(argv)} (log: {log})")
    took = int(time.monotonic() - start)
    if took >= QUIET_S:
        say(f"{step}: done in {took} s")


def log_of(name):
    return os.path.join(BUILD, f"{name}.log")


def configured(tree):
    return os.path.isfile(os.path.join(tree, "build.ninja"))


def build_qemu():
    """The normal QEMU; qemu/build.sh prints the binary's path, which nobody here wants."""
    if subprocess.run([os.path.join(REPO, "qemu", "build.sh"), os.path.dirname(QEMU)],
                      stdout=subprocess.DEVNULL, check=False).returncode != 0:
        raise Failure("the QEMU build failed (qemu/build.sh)")


def board_names():
    """The dev boards (docs/boards.md): the folders of boards/ with a board.env."""
    listing = subprocess.run([os.path.join(REPO, "boards", "board.sh"), "list"],
                             stdout=subprocess.PIPE, text=True, check=True).stdout
    return listing.split()


def build_firmware():
    if not configured(FIRMWARE):
        quietly(log_of("firmware-configure"), ["cmake", "--preset", "firmware"])
    quietly(log_of("firmware-build"), ["cmake", "--build", "--preset", "firmware"])
    for board in board_names():
        if not configured(os.path.join(BUILD, f"firmware-{board}")):
            quietly(log_of(f"firmware-{board}-configure"),
                    ["cmake", "--preset", f"firmware-{board}"])
        quietly(log_of(f"firmware-{board}-build"),
                ["cmake", "--build", "--preset", f"firmware-{board}"])


def build_host():
    if not configured(os.path.join(BUILD, "host")):
        quietly(log_of("host-configure"),
                ["cmake", "--preset", "host", f"-DTESSERA_QEMU={QEMU}",
                 f"-DTESSERA_FIRMWARE_DIR={FIRMWARE}"])
    quietly(log_of("host-build"), ["cmake", "--build", "--preset", "host"])


def build_all():
    setup()
    build_qemu()
    build_firmware()
    build_host()


# The sanitize preset: the host code built by clang with ASan and UBSan (unit tests,
# tessera-host, the libFuzzer targets), and its QEMU tests run on the QEMU built with ASan
# and UBSan (qemu/build.sh --sanitize, cached like the normal one). demo, run and bench keep
# using the normal, fast build.
SANITIZE = os.path.join(BUILD, "sanitize")


def configure_sanitize():
    if not configured(SANITIZE):
        quietly(log_of("sanitize-configure"),
                ["cmake", "--preset", "sanitize", f"-DTESSERA_QEMU={QEMU_ASAN}",
                 f"-DTESSERA_FIRMWARE_DIR={FIRMWARE}"])


def build_sanitize():
    if subprocess.run([os.path.join(REPO, "qemu", "build.sh"), "--sanitize",
                       os.path.dirname(QEMU_ASAN)],
                      stdout=subprocess.DEVNULL, check=False).returncode != 0:
        raise Failure("the sanitizer QEMU build failed (qemu/build.sh --sanitize)")
    configure_sanitize()
    quietly(log_of("sanitize-build"), ["cmake", "--build", "--preset", "sanitize"])


def build_parser():
    return Parser("build", """\
Sets up and builds everything (Debian packages, QEMU, firmware, host tools and
tests), and runs nothing.""", "./tessera build")


def cmd_build(args):
    build_parser().parse(args)
    build_all()


def sdk_parser():
    parser = Parser("sdk", """\
Builds everything, then installs the SDK under <prefix>: firmware headers
(tinsel.h, io.h, HAL, drivers), firmware libraries and linker script,
HostLink.h and its library, QEMU with -M tessera, the CMake package
(find_package(Tessera): tessera_add_app, tessera_add_tinsel_app,
Tessera::HostLink) and tinsel.mk for Makefile projects (docs/sdk.md).""",
                    "./tessera sdk ~/tessera-sdk\n"
                    "  cmake -S myproject -B build -DCMAKE_PREFIX_PATH=~/tessera-sdk"
                    " && cmake --build build")
    parser.options.add_argument("prefix", metavar="<prefix>",
                                help="the directory to install into (created if missing)")
    return parser


def cmd_sdk(args):
    """Both trees, installed under <prefix> (cmake/sdk/CMakeLists.txt has the layout;
    docs/sdk.md how to use it)."""
    prefix = os.path.realpath(sdk_parser().parse(args).prefix)
    build_all()
    for tree in ("firmware", "host"):
        quietly(log_of(f"sdk-install-{tree}"),
                ["cmake", "--install", os.path.join(BUILD, tree), "--prefix", prefix])
    say(f"SDK installed in {prefix}; in a CMake project: find_package(Tessera) with "
        f"-DCMAKE_PREFIX_PATH={prefix}; with make: include {prefix}/share/tessera/make/tinsel.mk")
