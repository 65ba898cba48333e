#!/usr/bin/env bash
# Partition independence in one process (docs/ranks.md): runs an image with time windows and
# the boards split into 1, then each given number of groups that take turns in every window, as
# ranks would. Fails unless every run exits 0 and every thread prints exactly the same lines
# (console-ids=on; each thread's lines in its own order, threads in id order) and the same
# modelled figures.
#   window_groups_check.sh <groups,...> -- <qemu-cmd.sh> <qemu> <elf> <properties> [-- qemu args]
set -uo pipefail
groups=${1:?usage: window_groups_check.sh <groups,...> -- <qemu-cmd.sh> <qemu> <elf> <properties>}
shift 2
cmd=$1 qemu=$2 elf=$3 props=$4
shift 4

run() {
    local out status groups=$1
    shift
    out=$(timeout 300 "$cmd" "$qemu" "$elf" "$props,console-ids=on,windows=on,window-groups=$groups" \
        "$@" </dev/null 2>/dev/null)
    status=$?
    printf '%s\n' "$out" | sort -s -k1,1
    echo "exit status $status"
}

reference=$(run 1 "$@")
if [ "$(echo "$reference" | tail -n 1)" != "exit status 0" ]; then
    echo "FAILED: one group: $(echo "$reference" | tail -n 1)"
    echo "$reference" | tail -n 20
    exit 1
fi
for g in ${groups//,/ }; do
    out=$(run "$g" "$@")
    if [ "$out" != "$reference" ]; then
        echo "FAILED: $g groups differ from one:"
        diff <(echo "$reference") <(echo "$out") | head -n 20
        exit 1
    fi
done
echo "ok: 1 and ${groups} groups of boards, identical output ($(echo "$reference" | wc -l) lines)"
