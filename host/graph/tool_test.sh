#!/usr/bin/env bash
# tessera-graph as a user runs it: a generated graph reads back with its size, the same seed
# writes the same file, and each mistake gives its one line and status (2 usage, 1 bad file).
#   tool_test.sh <tessera-graph> <scratch dir>
set -euo pipefail
tool=$1 work=$2
mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }

"$tool" geometric --vertices 300 --seed 4 --degree 6 > "$work/a.txt"
"$tool" geometric --vertices 300 --seed 4 --degree 6 > "$work/b.txt"
"$tool" geometric --vertices 300 --seed 5 --degree 6 > "$work/c.txt"
cmp -s "$work/a.txt" "$work/b.txt" || fail "the same seed wrote two different graphs"
cmp -s "$work/a.txt" "$work/c.txt" && fail "seeds 4 and 5 wrote the same graph"
checked=$("$tool" check "$work/a.txt")
[[ $checked =~ ^"$work/a.txt: 300 vertices, "[0-9]+" edges"$ ]] || fail "check said: $checked"

# expect <status> <stderr pattern> <arguments...>
expect() {
    local want=$1 pattern=$2 status=0
    shift 2
    "$tool" "$@" > "$work/out" 2> "$work/err" || status=$?
    [ "$status" -eq "$want" ] || fail "tessera-graph $*: status $status, not $want"
    grep -Eq -- "$pattern" <(head -n 1 "$work/err") ||
        fail "tessera-graph $*: first error line '$(head -n 1 "$work/err")'"
    [ ! -s "$work/out" ] || fail "tessera-graph $*: wrote to stdout"
}
expect 2 '^tessera-graph: no command$'
expect 2 "^tessera-graph: unknown command 'draw'$" draw
expect 2 '^tessera-graph: geometric needs --vertices$' geometric --seed 3
expect 2 "^tessera-graph: --vertices wants a whole number in 1\.\.67108864, not '-5'$" \
    geometric --vertices -5
expect 2 "^tessera-graph: --locality wants a whole number in 0\.\.1000, not '1001'$" \
    geometric --vertices 10 --locality 1001
expect 2 '^tessera-graph: --seed wants a whole number' geometric --vertices 10 --seed
expect 2 "^tessera-graph: unknown option '--colour'$" geometric --vertices 10 --colour red
printf '0 1\n1 two\n' > "$work/bad.txt"
expect 1 "^tessera-graph: $work/bad.txt:2: destination 'two' is not a vertex id" check "$work/bad.txt"
expect 1 "^tessera-graph: $work/missing.txt: No such file or directory$" check "$work/missing.txt"
echo "ok: tessera-graph"
