#!/usr/bin/env bash
# ./tessera bench model: the exhaustive model check of termination detection (docs/model-check.md)
# on the bounds the tests use: for each case that must pass, the states, transitions and depth
# spin's search covered (deterministic), and its host time and memory. The search must complete
# with no error, or the bench fails. About 2 minutes and 1.5 GB on 2 cores (--quick: one
# liveness case, about 10 s).
#
# Writes build/bench/model-check.csv with the columns
#   case,boards,threads_per_board,messages,states,transitions,depth,host_s,memory_mb
source "$(dirname "$0")/lib.sh"
bench_start=$SECONDS

check="$TESSERA_REPO/tests/model/check.sh"
cases=$(by_quick "safety_2_boards safety_3_boards safety_3_boards_2_threads liveness_2_boards liveness_3_boards" \
    liveness_2_boards)
csv="$out_dir/model-check.csv"
echo "case,boards,threads_per_board,messages,states,transitions,depth,host_s,memory_mb" >"$csv"
for c in $cases; do
    # check.sh's line: "<case>: <NB> boards, <TPB> threads per board, <MSGS> messages, host |
    # <states> states, <transitions> transitions, depth <d>, <s> s, <mem> MB | PASS: ..."
    line=$(checked "model check $c" "$check" -w "$out_dir/work" "$c" | grep "^$c: ") ||
        bench_fail "model check $c: no result line"
    [[ $line == *"| PASS: errors: 0, complete" ]] || bench_fail "model check $c: $line"
    echo "$line" | awk -F'|' -v c="$c" '{
        split($1, s, /[:,] */); split($2, t, /, */)
        sub(/ boards/, "", s[2]); sub(/ threads per board/, "", s[3]); sub(/ messages/, "", s[4])
        sub(/ states/, "", t[1]); sub(/ transitions/, "", t[2]); sub(/depth /, "", t[3])
        sub(/ s$/, "", t[4]); sub(/ MB */, "", t[5])
        gsub(/ /, "", t[1])
        print c "," s[2] "," s[3] "," s[4] "," t[1] "," t[2] "," t[3] "," t[4] "," t[5]
    }' >>"$csv"
    tail -n 1 "$csv" | awk -F, '{ printf "  %-28s %10s states %11s transitions  depth %4s  %6s s  %7s MB\n", $1, $5, $6, $7, $8, $9 }'
done
rm -rf "$out_dir/work"
wrote "$csv"
