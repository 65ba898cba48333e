#!/usr/bin/env bash
# Runs a command and checks what a user would check of it: its exit status
# and what it printed.
#
#   expect.sh [--status N] [--out REGEX] [--err REGEX] [--no-err REGEX]
#             [--count REGEX N] [--distinct REGEX N] [--timeout S] -- command...
#   expect.sh --running-after REGEX [--running-after-count REGEX N]
#             [--monitor CMD] [--monitor-count REGEX N] [checks...] -- command...
#
# --status N:  the command exits with status N (default 0) within --timeout seconds.
# --out/--err: some line of stdout/stderr matches REGEX (extended regex).
# --no-err:    no line of stderr matches REGEX.
# --count:     exactly N lines of stdout match REGEX.
# --distinct:  exactly N distinct lines of stdout match REGEX.
#
# A machine told to wait for good is checked in a state, never for lasting a
# while: --running-after REGEX (some line of stdout or stderr matches) and
# --running-after-count REGEX N (at least N lines do), each repeatable, name
# the state. Once all hold, the --monitor commands are sent to the machine's
# monitor, in order, then `info status`, whose answer ends the round trip;
# --monitor-count REGEX N: exactly N lines of the answers match. The command
# must then still be running; it is killed and the other checks are made on
# what it printed. Exiting, or --timeout running out, before all of that is
# a failure. The monitor is the command's argument `@MONITOR@` (e.g.
# `-monitor pipe:@MONITOR@`), replaced by a pair of FIFOs.
set -uo pipefail

status="" timeout=300
checks=() state=() monitor=() monitor_checks=()
while [ $# -gt 0 ]; do
    case $1 in
    --status) status=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --running-after) state+=("$2" 1); shift 2 ;;
    --running-after-count) state+=("$2" "$3"); shift 3 ;;
    --monitor) monitor+=("$2"); shift 2 ;;
    --monitor-count) monitor_checks+=("$2" "$3"); shift 3 ;;
    --out | --err | --no-err) checks+=("$1" "$2"); shift 2 ;;
    --count | --distinct) checks+=("$1" "$2" "$3"); shift 3 ;;
    --) shift; break ;;
    *) echo "expect.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
if [ ${#state[@]} -gt 0 ]; then
    [ -z "$status" ] || { echo "expect.sh: --status and --running-after exclude each other" >&2; exit 2; }
elif [ ${#monitor[@]} -gt 0 ] || [ ${#monitor_checks[@]} -gt 0 ]; then
    echo "expect.sh: --monitor needs --running-after" >&2
    exit 2
else
    status=${status:-0}
fi

dir=$(mktemp -d)
out=$dir/stdout err=$dir/stderr answers=$dir/monitor
pid=""
cleanup() {
    # A command left running (a failure in its state) goes with the test.
    [ -z "$pid" ] || kill -KILL -- -"$pid" 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
command=("$@")
fail() {
    echo "FAILED: $*" >&2
    echo "--- command: ${command[*]}" >&2
    echo "--- stdout (last 20 lines):" >&2; tail -n 20 "$out" >&2
    echo "--- stderr (last 20 lines):" >&2; tail -n 20 "$err" >&2
    if [ -s "$answers" ]; then
        echo "--- monitor answers (last 20 lines):" >&2; tail -n 20 "$answers" >&2
    fi
    exit 1
}

# The first condition of --running-after(-count) not met yet; none: empty.
unmet() {
    local i n
    for ((i = 0; i < ${#state[@]}; i += 2)); do
        n=$(cat "$out" "$err" | grep -Ec -- "${state[i]}")
        if [ "$n" -lt "${state[i + 1]}" ]; then
            echo "$n lines match /${state[i]}/, expected at least ${state[i + 1]}"
            return
        fi
    done
}

# Fails unless the command still runs.
running_or_fail() {
    kill -0 "$pid" 2>/dev/null && return
    wait "$pid"
    local code=$?
    pid=""
    fail "exit status $code $1"
}

# Sends the --monitor commands, then `info status`, and keeps the answers up
# to its "VM status:" line in $answers.
monitor_round_trip() {
    local to from line
    exec {to}<>"$dir/monitor.in" {from}<>"$dir/monitor.out"
    printf '%s\n' "${monitor[@]}" "info status" >&"$to"
    while :; do
        # Blocks for a line; the limit only lets a command that exited be noticed.
        if ! IFS= read -r -t 1 -u "$from" line; then
            running_or_fail "before the monitor answered"
            [ "$SECONDS" -lt "$deadline" ] || fail "no answer to 'info status' from the monitor within ${timeout}s"
            continue
        fi
        line=${line%$'\r'}
        line=${line#"(qemu) "}
        [[ $line == *$'\e'* ]] && continue  # the monitor's echo of what was typed
        echo "$line" >>"$answers"
        [[ $line == "VM status: "* ]] && break
    done
    exec {to}>&- {from}>&-
}

if [ -n "$status" ]; then
    timeout --kill-after=10 "$timeout" "$@" >"$out" 2>"$err" </dev/null
    actual=$?
    [ "$actual" -eq 124 ] && fail "timed out after ${timeout}s"
else
    mkfifo "$dir/monitor.in" "$dir/monitor.out"
    set -- "${@//@MONITOR@/$dir/monitor}"
    : >"$out"; : >"$err"; : >"$answers"  # read from the first poll on
    deadline=$((SECONDS + timeout))
    # Its own process group, so that the whole of it can be killed.
    setsid "$@" >"$out" 2>"$err" </dev/null &
    pid=$!
    # Waits on the command's output; the interval only bounds how late the state is seen.
    while why=$(unmet) && [ -n "$why" ]; do
        running_or_fail "before the state: $why"
        [ "$SECONDS" -lt "$deadline" ] || fail "timed out after ${timeout}s before the state: $why"
        sleep 0.1
    done
    if [ ${#monitor[@]} -gt 0 ] || [ ${#monitor_checks[@]} -gt 0 ]; then
        monitor_round_trip
    fi
    running_or_fail "once in the state; expected it to run on"
    kill -TERM -- -"$pid"
    wait "$pid"
    pid=""
    actual=running
fi

# Under the sanitize preset the emulator and host tools carry ASan and UBSan:
# any report fails the test, whatever the exit status.
if grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error: |SUMMARY: UndefinedBehaviorSanitizer' "$err"; then
    fail "sanitizer report: $(grep -Em1 'ERROR: (Address|Leak)Sanitizer|runtime error: ' "$err")"
fi
[ "$actual" = "${status:-running}" ] || fail "exit status $actual, expected $status"

set -- "${checks[@]+"${checks[@]}"}"
while [ $# -gt 0 ]; do
    case $1 in
    --out) grep -Eq -- "$2" "$out" || fail "no stdout line matches /$2/"; shift 2 ;;
    --err) grep -Eq -- "$2" "$err" || fail "no stderr line matches /$2/"; shift 2 ;;
    --no-err) grep -Eq -- "$2" "$err" && fail "a stderr line matches /$2/: $(grep -Em1 -- "$2" "$err")"; shift 2 ;;
    --count)
        n=$(grep -Ec -- "$2" "$out")
        [ "$n" -eq "$3" ] || fail "$n stdout lines match /$2/, expected $3"
        shift 3 ;;
    --distinct)
        n=$(grep -E -- "$2" "$out" | sort -u | wc -l)
        [ "$n" -eq "$3" ] || fail "$n distinct stdout lines match /$2/, expected $3"
        shift 3 ;;
    esac
done
set -- "${monitor_checks[@]+"${monitor_checks[@]}"}"
while [ $# -gt 0 ]; do
    n=$(grep -Ec -- "$1" "$answers")
    [ "$n" -eq "$2" ] || fail "$n monitor answer lines match /$1/, expected $2"
    shift 2
done
echo "ok: exit status $actual; $(wc -l <"$out") lines of output"
