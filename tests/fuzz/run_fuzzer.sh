#!/bin/sh
# run_fuzzer.sh <fuzzer> <seed corpus> <work dir> <seconds>: one bounded
# libFuzzer run (ctest's fuzz.* tests), from a fresh copy of the seed corpus
# in <work dir>/corpus; a crashing input lands in <work dir>/artifacts/.
set -eu
fuzzer=$1 seeds=$2 work=$3 seconds=$4
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
cp "$seeds"/* "$work/corpus/"
exec "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$work/corpus"
