#!/usr/bin/env bash
# Keeps boards/tessera/*.props true to the machine: asks the built QEMU for
# -M tessera's properties (`-M tessera,help`) and fails (exit 1) if
#   - a *.props file sets a key that is not a property of the machine, sets
#     one twice, or sets a value outside the property's range (or not a
#     power of two where the machine wants one);
#   - default.props does not list every numeric property with its default.
#
#   boards/tessera/check-props.sh [QEMU]   (default: build/qemu/qemu-system-riscv32)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
qemu=${1:-$repo/build/qemu/qemu-system-riscv32}
[ -x "$qemu" ] || { echo "check-props: no QEMU at $qemu (./tessera build makes it)" >&2; exit 2; }

# "name min max default" of every uint32 property, from lines like
#   boards-x=<uint32>      - boards in the mesh, X extent; 1..8, default 1
help=$("$qemu" -M tessera,help 2>&1) || { echo "check-props: $qemu -M tessera,help failed" >&2; exit 2; }
props=$(sed -nE 's/^ *([a-z0-9-]+)=<uint32> +- .*; ([0-9]+)\.\.([0-9]+), default ([0-9]+) *$/\1 \2 \3 \4/p' <<<"$help")
[ -n "$props" ] || { echo "check-props: no properties in the output of -M tessera,help" >&2; exit 2; }
all_names=$(sed -nE 's/^ *([a-z0-9-]+)=<.*/\1/p' <<<"$help")

errors=0
fail() { echo "check-props: $*" >&2; errors=$((errors + 1)); }

for file in "$here"/*.props; do
    f=$(basename "$file")
    seen=" "
    n=0
    while IFS= read -r line || [ -n "$line" ]; do
        n=$((n + 1))
        case $line in '' | '#'*) continue ;; esac
        if ! [[ $line =~ ^([a-z0-9-]+)=([^[:space:]#]+)$ ]]; then
            fail "$f:$n: not key=value: '$line'"
            continue
        fi
        key=${BASH_REMATCH[1]} value=${BASH_REMATCH[2]}
        [[ $seen == *" $key "* ]] && fail "$f:$n: $key set twice"
        seen+="$key "
        if ! grep -qxF -- "$key" <<<"$all_names"; then
            fail "$f:$n: -M tessera has no property '$key'"
            continue
        fi
        read -r _ min max dflt < <(grep -E "^$key " <<<"$props") || continue
        if ! [[ $value =~ ^[0-9]+$ ]]; then
            fail "$f:$n: $key=$value is not a number"
        elif [ "$value" -ne "$dflt" ] && { [ "$value" -lt "$min" ] || [ "$value" -gt "$max" ]; }; then
            fail "$f:$n: $key=$value is out of range ($min..$max)"
        elif grep -E "^ *$key=<uint32> .*power of two" <<<"$help" >/dev/null &&
            [ $((value & (value - 1))) -ne 0 ]; then
            fail "$f:$n: $key=$value is not a power of two"
        fi
        if [ "$f" = default.props ] && [ "$value" != "$dflt" ]; then
            fail "$f:$n: $key=$value, but the machine's default is $dflt"
        fi
    done <"$file"
    if [ "$f" = default.props ]; then
        while read -r key _; do
            [[ $seen == *" $key "* ]] || fail "$f: property $key is missing"
        done <<<"$props"
    fi
done

if [ "$errors" -gt 0 ]; then
    echo "check-props: $errors problem(s)" >&2
    exit 1
fi
echo "check-props: ok, $(ls "$here"/*.props | wc -l) files, $(wc -l <<<"$props") properties of -M tessera"
