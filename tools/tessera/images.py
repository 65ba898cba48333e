"""Which image a command boots: an app's name (a folder of apps/ or one of the images such a
folder builds), a path to an ELF file, or an app's image for a dev board."""
import glob
import os
import subprocess

from .base import FIRMWARE, QEMU, QEMU_CMD, REPO, Failure, words
from .builds import board_names, build_all, build_firmware

APPS = os.path.join(REPO, "apps")
IMAGES = os.path.join(FIRMWARE, "apps")


def image_path(name):
    return os.path.join(IMAGES, f"{name}.elf")


def built_images(folder):
    """The names of the ELF files in a folder of images, sorted; none if it is missing."""
    if not os.path.isdir(folder):
        return []
    return sorted(f.removesuffix(".elf") for f in os.listdir(folder) if f.endswith(".elf"))


def images_of(folder):
    """The images a folder of apps/ builds, as the configured firmware tree records them (one
    target tessera_app_<image> each); none before the firmware is configured."""
    pattern = os.path.join(IMAGES, folder, "CMakeFiles", "tessera_app_*.dir")
    return sorted(os.path.basename(d).removeprefix("tessera_app_").removesuffix(".dir")
                  for d in glob.glob(pattern) if os.path.isdir(d))


def no_image(name):
    """The error for a name that has no image; it names the images to pick from if <name>
    is a folder of apps/ that builds several (e.g. mbox_fault: mbox_fault_too_long, ...)."""
    images = images_of(name)
    if not images:
        return Failure(f"{image_path(name)} was not built")
    return Failure(f"apps/{name} builds no image named '{name}'; "
                   f"name one of its images: {words(images)}")


def may_build_image(name):
    """True if building the firmware may make <name>.elf: the configured tree has its target,
    or the apps' CMake files changed since it was configured. A name that is neither builds
    nothing."""
    ninja = os.path.join(FIRMWARE, "build.ninja")
    if not os.path.isfile(ninja):
        return False
    if glob.glob(os.path.join(IMAGES, "*", "CMakeFiles", f"tessera_app_{name}.dir")):
        return True
    configured_at = os.stat(ninja).st_mtime_ns
    for folder, _, files in os.walk(APPS):
        if ("CMakeLists.txt" in files and
                os.stat(os.path.join(folder, "CMakeLists.txt")).st_mtime_ns > configured_at):
            return True
    return False


def resolve_app(app):
    """The image to boot for <name|elf>. A name is a folder of apps/ or one of the images such
    a folder builds (e.g. idle_vote_hw); this may build the firmware to find out."""
    if os.path.isfile(app):
        return os.path.realpath(app)
    elf = image_path(app)
    if not os.path.isdir(os.path.join(APPS, app)) and not os.path.isfile(elf) and \
            may_build_image(app):
        build_firmware()
    if os.path.isfile(elf):
        return elf
    if os.path.isdir(os.path.join(APPS, app)):
        # Not built yet, or a folder whose images have other names.
        images = images_of(app)
        if images and app not in images:
            raise no_image(app)
        return elf
    names = built_images(IMAGES) or sorted(os.listdir(APPS))
    raise Failure(f"no app or ELF file named '{app}' (apps: {words(names)})")


def built_app(app):
    """resolve_app, then everything built: the image to boot, which exists."""
    elf = resolve_app(app)
    build_all()
    if not os.path.isfile(elf):
        raise no_image(os.path.basename(elf).removesuffix(".elf"))
    return elf


def qemu_command(elf, args, ranks=1):
    """The command that boots <elf> on -M tessera with the given machine properties [and
    `--` QEMU's arguments], on `ranks` processes. A bad argument stops here, before anything
    starts, with what qemu-cmd.sh says of it."""
    spread = ["--ranks", str(ranks)] if ranks > 1 else []
    check = subprocess.run([QEMU_CMD, "--print", *spread, QEMU, elf, *args],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           check=False)
    if check.returncode != 0:
        raise Failure(" ".join(check.stderr.split()).removeprefix("qemu-cmd.sh: "))
    return [QEMU_CMD, *spread, QEMU, elf, *args]


def check_board(board):
    boards = board_names()
    if board not in boards:
        raise Failure(f"no board named '{board}' (boards: {words(boards)})")


def board_image(board, app):
    """The path of <app>'s image for <board>, built; an unknown board or an app the board does
    not build is an error that says which apps it does build."""
    check_board(board)
    if os.path.isfile(app):
        return os.path.realpath(app)
    build_all()
    images = os.path.join(REPO, "build", f"firmware-{board}", "apps")
    elf = os.path.join(images, f"{app}.elf")
    if not os.path.isfile(elf):
        builds = words(built_images(images)) or "nothing"
        raise Failure(f"the {board} board cannot hold '{app}': it builds only {builds} (the "
                      "apps whose devices its software services provide and that fit its "
                      f"memory: boards/{board}/board.cmake, docs/boards.md)")
    return elf
