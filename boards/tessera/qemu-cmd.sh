#!/usr/bin/env bash
# The QEMU command line of the emulated mesh, formed here and nowhere else:
# ./tessera (run, demo, qemu-cmd), the QEMU tests (tests/qemu/CMakeLists.txt)
# and the benchmarks (tests/bench/) all boot the machine through this script.
#
#   boards/tessera/qemu-cmd.sh [--print] [--machine NAME] [--ranks N] <qemu> <elf|none> [key=value ...] [-- qemu args]
#
# Runs (execs) <qemu> booting <elf> on -M tessera with the given machine
# properties, in the deterministic mode. A property argument is key=value,
# several of them joined by commas, or `help` (QEMU lists the properties).
# QEMU's own options follow `--`, or start at the first argument that begins
# with `-` (so a tool that appends options, like tessera-host, needs no `--`).
#   --print         print the command, quoted for a shell, instead of running it
#   --machine NAME  another machine than tessera (the speed benchmark's virt)
#   --ranks N       N QEMU processes under Open MPI's mpirun, each running a rectangle of
#                   boards (machine property ranks=N, and ranks-grid=CxR to choose the
#                   rectangles; docs/ranks.md). TESSERA_MPI_TRANSPORT=tcp
#                   uses the TCP transport that runs between hosts (--mca btl tcp,self);
#                   TESSERA_MPIRUN_ARGS adds mpirun options (a hostfile, say). The host's
#                   ends are rank 0's alone (the bridge board's): the machine's hostlink=
#                   property (also as -machine hostlink=X) and QEMU's -S, -chardev, -mon,
#                   -monitor and -qmp; the other
#                   ranks start at once and wait for rank 0 at their first window's end.
#   none            boot no image (the tests of QEMU's own errors)
set -euo pipefail

die() {
    echo "qemu-cmd.sh: $*" >&2
    exit 2
}
usage="usage: qemu-cmd.sh [--print] [--machine NAME] [--ranks N] <qemu> <elf|none> [key=value ...] [-- qemu args]"

print=0
machine=tessera
ranks=1
while [ $# -gt 0 ]; do
    case $1 in
    --print) print=1; shift ;;
    --machine) [ $# -ge 2 ] || die "$usage"; machine=$2; shift 2 ;;
    --ranks)
        [ $# -ge 2 ] || die "$usage"
        [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--ranks $2: a number of processes, 1 or more"
        ranks=$2
        shift 2
        ;;
    *) break ;;
    esac
done
[ $# -ge 2 ] || die "$usage"
qemu=$1 elf=$2
shift 2

properties=""
qemu_args=()
while [ $# -gt 0 ]; do
    case $1 in
    --) shift; qemu_args=("$@"); break ;;
    -*) qemu_args=("$@"); break ;;
    "") ;;  # no property: lets callers pass an empty set as ""
    *=* | help) properties+=",$1" ;;
    *) die "unexpected argument '$1' (machine properties are key=value; QEMU options go after --)" ;;
    esac
    shift
done

kernel=()
[ "$elf" = none ] || kernel=(-kernel "$elf")

# No default devices, window or monitor: stdin and stdout belong to the
# console (-serial stdio). No firmware blob: every hart starts at the ELF's
# entry. -icount shift=0,sleep=off: one instruction = 1 ns, single-threaded
# round-robin TCG, so every run prints the same output and cycle counts.
launcher=()
if [ "$ranks" -gt 1 ]; then
    command -v mpirun >/dev/null ||
        die "--ranks $ranks needs Open MPI's mpirun (Debian's openmpi-bin; ./tessera setup installs it)"
    boards_x=1 boards_y=1
    for kv in ${properties//,/ }; do
        case $kv in
        boards-x=*) boards_x=${kv#*=} ;;
        boards-y=*) boards_y=${kv#*=} ;;
        esac
    done
    [[ $boards_x =~ ^[0-9]+$ && $boards_y =~ ^[0-9]+$ ]] ||
        die "boards-x=$boards_x, boards-y=$boards_y: numbers"
    [ "$ranks" -le $((boards_x * boards_y)) ] ||
        die "--ranks $ranks: more ranks than the machine's $((boards_x * boards_y)) boards"
    properties+=",ranks=$ranks"
    launcher=(mpirun --bind-to none)
    # A rank that waits for the others gives its core away (Open MPI polls): the others, or
    # whatever else the host runs, need it more. Measured: GALS heat on 2 ranks beside other
    # work, 37.9 s without, 11.7 s with.
    launcher+=(--mca mpi_yield_when_idle 1)
    [ "$ranks" -le "$(nproc)" ] || launcher+=(--oversubscribe)
    [ "$(id -u)" -ne 0 ] || launcher+=(--allow-run-as-root)
    # A sanitizer build's leak check cannot tell Open MPI's allocations (its plugins' stacks are
    # gone by exit) from QEMU's: off in ranked runs; AddressSanitizer itself stays on.
    export LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}detect_leaks=0
    launcher+=(-x LSAN_OPTIONS)
    case ${TESSERA_MPI_TRANSPORT:-} in
    "") ;;
    tcp) launcher+=(--mca btl tcp,self) ;;
    *) die "TESSERA_MPI_TRANSPORT=$TESSERA_MPI_TRANSPORT: tcp, or unset for Open MPI's choice" ;;
    esac
    # shellcheck disable=SC2206 # options, split as a shell would
    launcher+=(${TESSERA_MPIRUN_ARGS:-})
    if [ "$print" -eq 0 ]; then
        # Rank 0 writes where every rank's boards are (tessera_ranks.c), for the report of a
        # rank that dies.
        TESSERA_RANKS_MAP=$(mktemp)
        export TESSERA_RANKS_MAP
        launcher+=(-x TESSERA_RANKS_MAP)
    fi
fi
command=("${launcher[@]}" "$qemu" -M "$machine$properties" -nodefaults -display none
    -serial stdio -monitor none -bios none -icount shift=0,sleep=off "${kernel[@]}"
    "${qemu_args[@]}")
if [ "$ranks" -gt 1 ]; then
    # mpirun's MPMD form: rank 0 with everything, the others without the host's ends.
    others_args=()
    set -- "${qemu_args[@]}"
    while [ $# -gt 0 ]; do
        case $1 in
        -S) shift ;;
        -chardev | -mon | -monitor | -qmp) shift; [ $# -eq 0 ] || shift ;;
        -machine | -M)  # tessera-host's host link
            if [[ ${2:-} == hostlink=* && ${2:-} != *,* ]]; then shift 2; else others_args+=("$1"); shift; fi ;;
        *) others_args+=("$1"); shift ;;
        esac
    done
    others_properties=$(sed -E 's/,hostlink=[^,]*//g' <<<"$properties")
    command=("${launcher[@]}" -n 1 "$qemu" -M "$machine$properties" -nodefaults -display none
        -serial stdio -monitor none -bios none -icount shift=0,sleep=off "${kernel[@]}"
        "${qemu_args[@]}" : -n $((ranks - 1)) "$qemu" -M "$machine$others_properties"
        -nodefaults -display none -serial stdio -monitor none -bios none
        -icount shift=0,sleep=off "${kernel[@]}" "${others_args[@]}")
fi

# mpirun's own reports, in one line each: a rank that died names itself and its boards (from the
# map rank 0 wrote); a rank that exits with a status has said why itself, so mpirun's banners
# about it go.
mpirun_stderr() {
    awk -v map="${TESSERA_RANKS_MAP:-}" '
        function boards_of(r,   line, found) {
            found = "boards unknown: it died before rank 0 split the mesh"
            while (map != "" && (getline line < map) > 0) {
                if (line ~ ("^" r " ")) {
                    found = substr(line, length(r) + 2)
                }
            }
            if (map != "") close(map)
            return found
        }
        /^mpirun noticed that process rank [0-9]+ with PID/ {
            rank = $6
            why = $0
            sub(/.* exited on /, "", why)
            sub(/\.$/, "", why)
            printf "tessera: rank %d (%s) died (%s); every rank stopped\n", rank, boards_of(rank),
                why
            fflush()
            next
        }
        /^-+$/ || /^Primary job +terminated normally/ || /^a non-zero exit code/ ||
        /^mpirun detected that one or more processes/ || /^the job to be terminated/ ||
        /^ +Process name: / || /^ +Exit code: / || /^$/ { next }
        /^MPI_ABORT was invoked on rank/ || /^with errorcode/ || /^NOTE: invoking MPI_ABORT/ ||
        /^You may or may not see output/ || /^exactly when Open MPI kills them/ { next }
        /terminating on signal 15 from pid [0-9]+ \(mpirun\)$/ { next }
        /ORTE_ERROR_LOG: / { next }  # ranks aborting at once can garble its help messages
        / sent help message / || /orte_base_help_aggregate/ { next }
        /^\[warn\] Epoll / { next }  # libevent, as mpirun tears the ranks down
        { print; fflush() }'
}

if [ "$print" -eq 1 ]; then
    # Quoted only where a shell needs it, so the line reads as if typed by hand.
    words=()
    for word in "${command[@]}"; do
        if [[ $word =~ ^[A-Za-z0-9_./,=:+@%-]+$ ]]; then
            words+=("$word")
        else
            words+=("$(printf '%q' "$word")")
        fi
    done
    echo "${words[*]}"
elif [ "$ranks" -gt 1 ]; then
    # A signal to this script (HostLink ending the machine) goes on to mpirun, which ends every
    # rank: none is left behind. stdin stays the console's (a background job would get
    # /dev/null).
    "${command[@]}" <&0 2> >(mpirun_stderr >&2) &
    launcher_pid=$!
    trap 'kill -TERM "$launcher_pid" 2>/dev/null' TERM INT HUP
    status=0
    wait "$launcher_pid" || status=$?
    while kill -0 "$launcher_pid" 2>/dev/null; do  # a trapped signal ended the wait early
        status=0
        wait "$launcher_pid" || status=$?
    done
    wait  # for the last of mpirun's lines
    rm -f "$TESSERA_RANKS_MAP"
    exit $status
else
    exec "${command[@]}"
fi
