"""Bash completion: the script bash loads asks `./tessera __complete <words before the current
one>` for candidates, so that they come from here and from the tree."""
import os
import re

from .base import REPO
from .benches import benchmarks, figures_benches
from .images import APPS, IMAGES, built_images
from .testing import fuzz_targets

SCRIPT = r'''# bash completion for ./tessera (print with ./tessera completion)
_tessera() {
    local line=${COMP_LINE:0:COMP_POINT} cur words candidates
    cur=${line##*[[:space:]]}
    read -ra words <<<"${line% "$cur"}"
    [ "${line: -1}" = " " ] && cur=""
    candidates=$("${words[0]}" __complete "${words[@]:1}" 2>/dev/null) || return
    if [[ $cur == *=* ]]; then
        # bash splits words at '=': complete the value after it
        COMPREPLY=($(compgen -W "$(sed -n "s/^${cur%%=*}=//p" <<<"$candidates")" -- "${cur#*=}"))
        return
    fi
    COMPREPLY=($(compgen -W "$candidates" -- "$cur"))
    [[ ${COMPREPLY[0]-} == *= ]] && compopt -o nospace
}
complete -o default -F _tessera tessera ./tessera
'''

# The machine properties with a fixed set of values, and the one whose value is free.
PROPERTY_VALUES = ["idle-master=origin", "idle-master=centre", "deadlock=exit",
                   "deadlock=stop", "deadlock=off", "console-ids=on", "console-ids=off",
                   "hostlink="]
# The commands that boot an app, and what each takes once it has one.
APP_COMMANDS = {"run": [], "debug": ["-ex", "--batch"], "trace": ["-o"], "qemu-cmd": []}


def machine_properties():
    """Every key=value the machine takes."""
    with open(os.path.join(REPO, "hal", "include", "tessera", "hw", "machine_params.h"),
              encoding="utf-8") as header:
        names = re.findall(r'^ *X\([a-z_]+, "([a-z-]+)"', header.read(), re.M)
    return [f"{name}=" for name in names] + PROPERTY_VALUES


def app_names():
    """The folders of apps/ and every image the firmware build made."""
    folders = [a for a in os.listdir(APPS) if os.path.isdir(os.path.join(APPS, a))]
    return sorted(set(folders) | set(built_images(IMAGES)))


def candidates(commands, words):
    """What may come next after `./tessera <words>`."""
    if not words:
        return commands
    command, before = words[0], words[1:]
    if "--" in before:
        return []  # QEMU's options
    if command in APP_COMMANDS:
        has_app = any(not (w.startswith("-") or "=" in w or ":" in w) for w in before)
        if not has_app:
            return ["--help", *app_names(), *(["--send"] if command == "run" else [])]
        return ["--help", *machine_properties(), "--", *APP_COMMANDS[command]]
    if command == "test":
        return ["--help", "--fast", "-R", "-L", "-LE"]
    if command == "bench":
        return ["--help", "--quick", *benchmarks()]
    if command == "figures":
        return ["--help", "--quick", "--render", "--check", *figures_benches()]
    if command == "fuzz":
        return ["--help", "all", *fuzz_targets()]
    if command == "help":
        return commands
    return ["--help"]

