#!/usr/bin/env bash
# The drift check (figures.py render --check) fails when a figure inside a generated block is
# edited by hand, and passes on the same tree unedited: checked on a copy of README.md and docs/.
set -euo pipefail
bench=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$bench/../.." && pwd)
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
cp "$repo/README.md" "$tree/"
cp -r "$repo/docs" "$tree/"
check() { /usr/bin/python3 "$bench/figures.py" render --check --root "$tree" --figures "$repo/docs/figures"; }

check >/dev/null 2>&1 || { echo "FAILED: the unedited copy does not pass the check" >&2; exit 1; }
# The first figure of the first row of the first generated block of README.md, plus one.
edited=$(/usr/bin/python3 - "$tree/README.md" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
block = re.search(r"<!-- figure [\w.-]+ -->\n(.*?)<!-- /figure -->", text, re.S)
row = block.group(1).splitlines()[2]
cell = re.search(r"\d[\d,]*", row)
old = cell.group(0)
new = str(int(old.replace(",", "")) + 1)
start = block.start(1) + text[block.start(1):].index(row) + cell.start()
open(path, "w").write(text[:start] + new + text[start + len(old):])
print(f"{old} -> {new}")
PY
)
if out=$(check 2>&1); then
    echo "FAILED: a figure edited by hand ($edited) passed the drift check" >&2
    exit 1
fi
grep -q "README.md: generated blocks differ" <<<"$out" || {
    echo "FAILED: the check failed, but not naming README.md's blocks:" >&2; echo "$out" >&2; exit 1; }
echo "edited $edited in a copy of README.md: the drift check failed, as it must"
