#!/usr/bin/env bash
# tessera-graph as a user runs it: a generated graph reads back with its size, the same seed
# writes the same file, graphs go to Tinsel's format and back unchanged, --undirected gives every
# edge its reverse, and each mistake gives its one line and status (2 usage, 1 bad file).
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
[[ $checked =~ ^"$work/a.txt: 300 vertices, "[0-9]+" edges, "[1-9][0-9]*" without a reverse edge"$ ]] ||
    fail "check said: $checked"

# Tinsel's format both ways. --tinsel writes the same edges, in order, as bare "src dst" lines
# (what Tinsel's EdgeList::read takes); read back, every edge weighs 1.
"$tool" geometric --vertices 300 --seed 4 --degree 6 --tinsel > "$work/p.txt"
grep -qvE '^[0-9]+ [0-9]+$' "$work/p.txt" && fail "--tinsel wrote a line that is not 'src dst'"
tail -n +2 "$work/a.txt" | cut -d' ' -f1,2 | cmp -s - "$work/p.txt" ||
    fail "--tinsel did not write the edges of the same graph"
"$tool" convert "$work/p.txt" > "$work/from-tinsel.txt"
grep -qvE '^(#.*|[0-9]+ [0-9]+ 1)$' "$work/from-tinsel.txt" && fail "Tinsel's edges did not weigh 1"
"$tool" convert --tinsel "$work/from-tinsel.txt" > "$work/p2.txt"
cmp -s "$work/p.txt" "$work/p2.txt" || fail "Tinsel's format -> ours -> Tinsel's changed the file"
"$tool" geometric --vertices 300 --seed 4 --degree 6 --max-weight 1 > "$work/w1.txt"
"$tool" convert --tinsel "$work/w1.txt" > "$work/w1-tinsel.txt"
"$tool" convert "$work/w1-tinsel.txt" > "$work/w1-back.txt"
cmp -s "$work/w1.txt" "$work/w1-back.txt" || fail "ours -> Tinsel's -> ours changed the file"

# --undirected: every edge has its reverse, counted here without the tool.
no_reverse() {
    awk '{ e[$1 " " $2] = 1 } END { n = 0; for (k in e) { split(k, a, " ");
         if (!((a[2] " " a[1]) in e)) n++ } print n }' "$1"
}
[ "$(no_reverse "$work/p.txt")" -gt 0 ] || fail "the directed graph has every reverse edge"
"$tool" geometric --vertices 300 --seed 4 --degree 6 --undirected --tinsel > "$work/u.txt"
[ "$(no_reverse "$work/u.txt")" -eq 0 ] || fail "geometric --undirected left edges without reverse"
"$tool" convert --undirected --tinsel "$work/a.txt" > "$work/u2.txt"
[ "$(no_reverse "$work/u2.txt")" -eq 0 ] || fail "convert --undirected left edges without reverse"
head -n "$(wc -l < "$work/p.txt")" "$work/u2.txt" | cmp -s - "$work/p.txt" ||
    fail "convert --undirected did not keep the edges it was given first"
checked=$("$tool" check "$work/u2.txt")
[[ $checked =~ ", 0 without a reverse edge"$ ]] || fail "check of an undirected graph said: $checked"

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
expect 2 '^tessera-graph: convert needs a file$' convert --tinsel
expect 2 "^tessera-graph: unknown option '--weights'$" convert "$work/a.txt" --weights
expect 2 '^tessera-graph: convert takes one file$' convert "$work/a.txt" "$work/p.txt"
printf '0 1\n1 two\n' > "$work/bad.txt"
expect 1 "^tessera-graph: $work/bad.txt:2: destination 'two' is not a vertex id" check "$work/bad.txt"
expect 1 "^tessera-graph: $work/missing.txt: No such file or directory$" check "$work/missing.txt"
expect 1 "^tessera-graph: $work/bad.txt:2: destination 'two' is not a vertex id" convert "$work/bad.txt"
echo "ok: tessera-graph"
