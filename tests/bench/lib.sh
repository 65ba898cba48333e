# Shared by the benchmark scripts: run firmware on the tessera machine in
# the deterministic mode and time it.
#   TESSERA_REPO, TESSERA_QEMU come from ./tessera bench.
apps="$TESSERA_REPO/build/firmware/apps"
out_dir="$TESSERA_REPO/build/bench"
mkdir -p "$out_dir"

# The QEMU command line, formed in one place for ./tessera, the tests and here.
qemu_cmd="$TESSERA_REPO/boards/tessera/qemu-cmd.sh"

# boot <app-elf> <machine options> [qemu args]: prints the guest's output;
# fails if the guest's verdict is not success.
boot() {
    local elf=$1 machine=$2
    shift 2
    "$qemu_cmd" "$TESSERA_QEMU" "$elf" "$machine" -- "$@" \
        2> >(grep -v "icount sleep disabled and no active timers" >&2)
}

# host_seconds <command...>: runs it, output to /dev/null, prints wall seconds.
host_seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2> >(grep -v "icount sleep disabled and no active timers" >&2)
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
