# Sourced by the partition checks (partition_check.sh, ranks_figures_check.sh,
# hostlink/ranks_check.sh): the one loop that runs a program in one piece and then split each
# given way, and fails at the first split whose output differs.
#
# The caller defines run <n> [args...] (its output, then an "exit status" line) and
# reference_ok <output> (whether the one-piece run is one to compare with), then calls
#   partition_compare <what> <N,...> <stderr file> [args...]
# which leaves the one-piece output in $reference.

partition_compare() {
    local what=$1 counts=$2 errors=$3 out n
    shift 3
    reference=$(run 1 "$@")
    if ! reference_ok "$reference"; then
        echo "FAILED: in one piece: $(grep -m1 '^exit status' <<<"$reference")"
        tail -n 20 <<<"$reference"
        tail -n 20 "$errors"
        exit 1
    fi
    for n in ${counts//,/ }; do
        out=$(run "$n" "$@")
        if [ "$out" != "$reference" ]; then
            echo "FAILED: $n $what differ from one piece:"
            diff <(echo "$reference") <(echo "$out") | head -n 20
            echo "--- stderr:"
            tail -n 20 "$errors"
            exit 1
        fi
    done
}
