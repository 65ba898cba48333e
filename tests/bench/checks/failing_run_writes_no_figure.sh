#!/usr/bin/env bash
# A bench fails loudly (tests/bench/lib.sh): the mailbox bench run with a QEMU that fails one of
# its measured programs, then with one that drops a line the bench reads, must end with a
# non-zero status and one line naming the run, and publish no CSV.
#   failing_run_writes_no_figure.sh <qemu-system-riscv32>      (TESSERA_REPO: the tree)
set -uo pipefail
qemu=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# make_qemu <name> <shell lines run before QEMU, with "$@" its arguments>: a stand-in QEMU.
make_qemu() {
    cat >"$work/$1" <<SH
#!/usr/bin/env bash
$2
exec "$qemu" "\$@"
SH
    chmod +x "$work/$1"
}
# The third program the bench times fails as a guest would: status 3.
make_qemu fails 'case "$*" in *alltoall.elf*) echo "stand-in: alltoall fails" >&2; exit 3 ;; esac'
# pingpong runs well but its far-corner round trip never reaches the bench.
make_qemu drops 'case "$*" in *pingpong.elf*) "'"$qemu"'" "$@" | grep -v far_corner; exit "${PIPESTATUS[0]}" ;; esac'

# expect_loud_failure <stand-in> <status> <regex of the one line>
expect_loud_failure() {
    local out="$work/out-$1" status=0
    mkdir -p "$out"
    TESSERA_QEMU="$work/$1" TESSERA_BENCH_OUT="$out" TESSERA_BENCH_QUICK=1 \
        bash "$TESSERA_REPO/tests/bench/mailbox.sh" >"$work/stdout" 2>"$work/stderr" || status=$?
    [ "$status" -eq "$2" ] || { echo "FAILED: $1: status $status, expected $2" >&2; cat "$work/stderr" >&2; exit 1; }
    [ "$(wc -l <"$work/stderr")" -eq 1 ] || { echo "FAILED: $1: not one line:" >&2; cat "$work/stderr" >&2; exit 1; }
    grep -Eq "$3" "$work/stderr" || { echo "FAILED: $1: the line does not match /$3/:" >&2; cat "$work/stderr" >&2; exit 1; }
    [ -z "$(find "$out" -name '*.csv')" ] || { echo "FAILED: $1: a CSV was written:" >&2; find "$out" -name '*.csv' >&2; exit 1; }
    [ -z "$(find "$out" -maxdepth 1 -name '.mailbox.*')" ] || { echo "FAILED: $1: the bench's work folder was left" >&2; exit 1; }
    echo "$1: status $status, one line: $(cat "$work/stderr")"
}
expect_loud_failure fails 3 '^mailbox bench: alltoall on .*: exit status 3 \(stderr: '
expect_loud_failure drops 1 '^mailbox bench: pingpong: no line matches /\^rtt far_corner /'
