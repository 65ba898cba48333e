#!/usr/bin/env bash
# Runs a command and checks what a user would check of it: its exit status
# and what it printed.
#
#   expect.sh --status N|running [--out REGEX] [--err REGEX] [--no-err REGEX]
#             [--count REGEX N] [--distinct REGEX N] [--timeout S] -- command...
#
# --status running: the command must still be running after --timeout
#              seconds (a machine told to wait for good); it is then killed.
# --out/--err: some line of stdout/stderr matches REGEX (extended regex).
# --no-err:    no line of stderr matches REGEX.
# --count:     exactly N lines of stdout match REGEX.
# --distinct:  exactly N distinct lines of stdout match REGEX.
set -uo pipefail

status=0 timeout=300
checks=()
while [ $# -gt 0 ]; do
    case $1 in
    --status) status=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --out | --err | --no-err) checks+=("$1" "$2"); shift 2 ;;
    --count | --distinct) checks+=("$1" "$2" "$3"); shift 3 ;;
    --) shift; break ;;
    *) echo "expect.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
timeout --kill-after=10 "$timeout" "$@" >"$out" 2>"$err" </dev/null
actual=$?

command=("$@")
fail() {
    echo "FAILED: $*" >&2
    echo "--- command: ${command[*]}" >&2
    echo "--- stdout (last 20 lines):" >&2; tail -n 20 "$out" >&2
    echo "--- stderr (last 20 lines):" >&2; tail -n 20 "$err" >&2
    exit 1
}

if [ "$status" = running ]; then
    [ "$actual" -eq 124 ] || fail "exit status $actual; expected it to run for ${timeout}s"
    status=124
else
    [ "$actual" -eq 124 ] && fail "timed out after ${timeout}s"
fi
# Under the sanitize preset the emulator and host tools carry ASan and UBSan:
# any report fails the test, whatever the exit status.
if grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error: |SUMMARY: UndefinedBehaviorSanitizer' "$err"; then
    fail "sanitizer report: $(grep -Em1 'ERROR: (Address|Leak)Sanitizer|runtime error: ' "$err")"
fi
[ "$actual" -eq "$status" ] || fail "exit status $actual, expected $status"

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
echo "ok: exit status $actual; $(wc -l <"$out") lines of output"
