#!/usr/bin/env bash
# Keeps docs/memory-map.md true to hal/include/tessera/hw/regs.h, the single
# source of truth for the memory map, CSR numbers and register offsets.
#
#   boards/tessera/check-memory-map.sh [REGS_H] [MEMORY_MAP_MD]
#
# Fails (exit 1) if
#   - a `#define TESSERA_<NAME> <integer literal>` of regs.h (every _BASE,
#     _SIZE and _STRIDE, every CSR number, register offset and register
#     value) has no line in the page that holds both the name and the value
#     as regs.h spells it (without a `u` suffix, hex digits in any case);
#   - the page names a TESSERA_<NAME> that regs.h does not define (a stale
#     row after a rename or a removal).
# Definitions whose value is an expression (e.g. `(1u << 0)`) are not checked.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
regs=${1:-$repo/hal/include/tessera/hw/regs.h}
doc=${2:-$repo/docs/memory-map.md}

[ -f "$regs" ] || { echo "check-memory-map: no $regs" >&2; exit 2; }
[ -f "$doc" ] || { echo "check-memory-map: no $doc" >&2; exit 2; }

# "NAME VALUE" for every define with a plain integer literal as its value.
defines=$(sed -nE \
    's/^[[:space:]]*#[[:space:]]*define[[:space:]]+(TESSERA_[A-Z0-9_]+)[[:space:]]+(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*([[:space:]].*)?$/\1 \2/p' \
    "$regs")
[ -n "$defines" ] || { echo "check-memory-map: no definitions found in $regs" >&2; exit 2; }

errors=0 checked=0
while read -r name value; do
    checked=$((checked + 1))
    if ! grep -wF -- "$name" "$doc" | grep -qiwF -- "$value"; then
        echo "check-memory-map: $(basename "$doc") has no line with $name = $value (from $(basename "$regs"))" >&2
        errors=$((errors + 1))
    fi
done <<<"$defines"

# Every TESSERA_* macro the page names must exist in regs.h.
all_names=$(sed -nE 's/^[[:space:]]*#[[:space:]]*define[[:space:]]+(TESSERA_[A-Z0-9_]+).*/\1/p' "$regs")
for name in $(grep -oE '\bTESSERA_[A-Z0-9_]+\b' "$doc" | sort -u); do
    if ! grep -qxF -- "$name" <<<"$all_names"; then
        echo "check-memory-map: $(basename "$doc") names $name, which $(basename "$regs") does not define" >&2
        errors=$((errors + 1))
    fi
done

if [ "$errors" -gt 0 ]; then
    echo "check-memory-map: $errors problem(s); regs.h is the source of truth, update $doc" >&2
    exit 1
fi
echo "check-memory-map: ok, $checked definitions of $(basename "$regs") found in $(basename "$doc")"
