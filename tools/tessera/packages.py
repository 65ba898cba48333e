"""Set-up: Debian's packages (bookworm, plus backports for QEMU 10's meson and trixie's source
entry for QEMU 10.0.x's source package), installed idempotently and quickly when done."""
import os
import re
import shutil
import subprocess
import sys

from .base import Failure, Parser, as_root, say, words

PACKAGES = [
    "cmake", "ninja-build", "make", "g++", "pkg-config",
    "gcc-riscv64-unknown-elf", "picolibc-riscv64-unknown-elf",
    "libgtest-dev", "clang", "libclang-rt-14-dev", "libmetis-dev",
    "libglib2.0-dev", "libfdt-dev", "libpixman-1-dev", "zlib1g-dev", "flex", "bison",
    "python3-venv", "python3-matplotlib", "dpkg-dev", "xz-utils", "patch", "bc", "spin",
    "gdb-multiarch", "openocd", "openmpi-bin", "libopenmpi-dev",
]
BACKPORT_PACKAGES = ["meson", "python3-pycotap"]
# QEMU 10 needs meson >= 1.5 (bookworm has 1.0).
MESON_AT_LEAST = (1, 5, 0)

SOURCES = "/etc/apt/sources.list.d/tessera.sources"
SOURCES_TEXT = """\
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"""


def installed(packages):
    """The ones of `packages` dpkg has installed."""
    if not shutil.which("dpkg-query"):
        return set()
    listing = subprocess.run(["dpkg-query", "-W", "-f=${Package} ${Status}\n", *packages],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             check=False).stdout
    return {line.split()[0] for line in listing.splitlines()
            if line.endswith(" install ok installed")}


def meson_too_old():
    """True if the meson on PATH is older than QEMU 10 accepts."""
    if not shutil.which("meson"):
        return False
    version = subprocess.run(["meson", "--version"], stdout=subprocess.PIPE, text=True,
                             check=False).stdout
    return tuple(int(n) for n in re.findall(r"\d+", version)[:3]) < MESON_AT_LEAST


def missing_packages():
    wanted = PACKAGES + BACKPORT_PACKAGES
    have = installed(wanted)
    missing = [p for p in wanted if p not in have]
    if meson_too_old():
        missing.append("meson")
    return missing


def install_as_root(argv):
    """apt-get as root, its output on stderr (stdout is for what the commands print)."""
    why = f"missing packages: {words(missing_packages())}"
    # Through env: sudo does not pass our environment on.
    if as_root(["env", "DEBIAN_FRONTEND=noninteractive", *argv], why, stdout=sys.stderr) != 0:
        raise Failure(f"failed: {' '.join(argv)}")


def add_apt_sources():
    if os.path.isfile(SOURCES):
        return
    say("adding apt sources: bookworm-backports (meson, python3-pycotap), "
        "trixie deb-src (qemu 10.0.x source)")
    status = as_root(["tee", SOURCES], f"missing packages: {words(missing_packages())}",
                     input=SOURCES_TEXT, text=True, stdout=subprocess.DEVNULL)
    if status != 0:
        raise Failure(f"could not write {SOURCES}")


def setup():
    """The apt sources and Debian packages; nothing when they are there."""
    missing = missing_packages()
    if not missing and os.path.isfile(SOURCES):
        return
    if not shutil.which("apt-get"):
        raise Failure(f"not a Debian system; install: {words(missing)}")
    add_apt_sources()
    say(f"installing Debian packages: {words(missing)}")
    install_as_root(["apt-get", "update", "-q"])
    install_as_root(["apt-get", "install", "-y", "-q", "--no-install-recommends", *PACKAGES])
    install_as_root(["apt-get", "install", "-y", "-q", "--no-install-recommends",
                     "-t", "bookworm-backports", *BACKPORT_PACKAGES])
    missing = missing_packages()
    if missing:
        raise Failure(f"still missing after install: {words(missing)}")


def install_if_missing(package):
    """One more package, for one command (figures' heaptrack, bench host's perf)."""
    if package not in installed([package]):
        install_as_root(["apt-get", "install", "-y", package])


def setup_parser():
    return Parser("setup", """\
Installs the apt sources and Debian packages Tessera needs (with sudo if not
root), and nothing else. Does nothing if they are installed.""", "./tessera setup")


def cmd_setup(args):
    setup_parser().parse(args)
    setup()
