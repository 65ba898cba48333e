#!/usr/bin/env bash
# check.sh <help|errors|completion|variants> <path to ./tessera>: checks the front door's
# help texts, its error exits and its listing of an app's images. Runs only
# commands that stop before building or booting anything.
set -euo pipefail

case=$1 tessera=$2
repo=$(dirname "$tessera")
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
failures=0

fail() {
    echo "FAIL: $*"
    echo "  stdout: $(head -c 400 "$out")"
    echo "  stderr: $(head -c 400 "$err")"
    failures=$((failures + 1))
}

# expect <status: 0|nonzero> <args...>: runs ./tessera <args...>, keeps its
# output in $out and $err, and checks its exit status.
expect() {
    local want=$1 status=0
    shift
    "$tessera" "$@" >"$out" 2>"$err" </dev/null || status=$?
    if [ "$want" = 0 ] && [ "$status" -ne 0 ]; then
        fail "./tessera $*: exit status $status, not 0"
        return 1
    elif [ "$want" = nonzero ] && [ "$status" -eq 0 ]; then
        fail "./tessera $*: exit status 0, wanted an error"
        return 1
    fi
}

# an_error <args...>: ./tessera <args...> fails with one error on stderr and
# prints nothing on stdout.
an_error() {
    expect nonzero "$@" || return 0
    [ ! -s "$out" ] || fail "./tessera $*: printed on stdout"
    [ "$(grep -c 'tessera: error: ' "$err")" -eq 1 ] || fail "./tessera $*: not one error on stderr"
}

case $case in
help)
    expect 0 help && grep -q '^usage: ./tessera <command>' "$out" || fail "./tessera help: no usage"
    commands=$(awk '/^Commands:/ { on = 1; next } on && NF == 0 { exit } on { print $1 }' "$out")
    [ "$(echo $commands)" = "demo run debug trace test bench figures shake flash fuzz build setup qemu-cmd sdk completion help" ] ||
        fail "./tessera help lists: $(echo $commands)"
    for flag in --help -h; do
        expect 0 "$flag" && grep -q '^Commands:' "$out" || fail "./tessera $flag: no command list"
    done
    # Each command's help: usage, options, an example, and nothing run (stderr
    # stays empty: no set-up or build step announced itself).
    for cmd in $commands; do
        for flag in --help -h; do
            expect 0 "$cmd" "$flag" || continue
            grep -q "^usage: ./tessera $cmd" "$out" || fail "./tessera $cmd $flag: no usage line"
            grep -q '^Options' "$out" || fail "./tessera $cmd $flag: no options"
            grep -A1 '^Example:' "$out" | grep -q "^  ./tessera $cmd" ||
                fail "./tessera $cmd $flag: no example"
            [ ! -s "$err" ] || fail "./tessera $cmd $flag: wrote on stderr"
        done
        expect 0 help "$cmd" && grep -q "^usage: ./tessera $cmd" "$out" ||
            fail "./tessera help $cmd: no usage line"
        # The help is generated from the parser: every option of the usage line has its line
        # under Options, and every option bash completion offers (before and after an app) is
        # explained.
        for option in $(sed -n '/^usage:/,/^$/p' "$out" | grep -oE -- '[ []--?[a-z][-a-z]*' | tr -d ' ['); do
            sed -n '/^Options:/,/^$/p' "$out" | grep -qE -- "^  (-[a-z], )?$option( |$)" ||
                fail "./tessera $cmd --help does not list $option under Options"
        done
        for option in $(cd "$repo" && "$tessera" __complete "$cmd" && "$tessera" __complete "$cmd" hello); do
            case $option in --) continue ;; -*) ;; *) continue ;; esac
            grep -qw -- "$option" "$out" || fail "./tessera $cmd --help does not explain $option"
        done
    done
    # --help anywhere before `--`; after it, the options are QEMU's.
    expect 0 run --send 1:2 --help && grep -q '^usage: ./tessera run' "$out" ||
        fail "./tessera run --send 1:2 --help: no usage"
    expect 0 bench --help mailbox && grep -q '^usage: ./tessera bench' "$out" ||
        fail "./tessera bench --help mailbox: no usage"
    expect 0 debug -ex 'info threads' --help && grep -q '^usage: ./tessera debug' "$out" ||
        fail "./tessera debug -ex ... --help: no usage"
    ;;
errors)
    an_error qemu-cmd
    grep -q 'usage: ./tessera qemu-cmd' "$err" || fail "./tessera qemu-cmd: no usage in the error"
    an_error qemu-cmd no-such-app
    grep -q "no app or ELF file named 'no-such-app'" "$err" || fail "./tessera qemu-cmd no-such-app: unclear error"
    an_error sdk
    grep -q 'usage: ./tessera sdk <prefix>' "$err" || fail "./tessera sdk: no usage in the error"
    an_error sdk one two
    an_error run
    an_error debug
    grep -q 'usage: ./tessera debug' "$err" || fail "./tessera debug: no usage in the error"
    an_error debug no-such-app
    grep -q "no app or ELF file named 'no-such-app'" "$err" || fail "./tessera debug no-such-app: unclear error"
    an_error debug --batch
    an_error debug --batch /no/such/script.gdb hello
    grep -q "no gdb script '/no/such/script.gdb'" "$err" || fail "./tessera debug --batch: unclear error"
    an_error debug -ex
    an_error debug --no-such-option hello
    an_error trace
    grep -q 'no app to trace' "$err" || fail "./tessera trace: unclear error"
    an_error trace -o run.json
    an_error trace hello
    grep -q 'no output file' "$err" || fail "./tessera trace hello: unclear error"
    an_error trace hello -o
    an_error trace hello --frobnicate -o run.json
    # Ranks: what does not spread over processes yet says so in one line.
    an_error trace --ranks 0 hello -o run.json
    an_error debug --ranks 2 hello
    grep -q "debug --ranks 2: not yet" "$err" || fail "./tessera debug --ranks 2: unclear error"
    an_error run --ranks 0 hello
    # The host link over ranks: tessera-host's message to a thread, and the run's own verdict.
    "$tessera" run --ranks 2 --send 0:1 hostlink_echo boards-x=2 >"$out" 2>"$err" ||
        fail "./tessera run --ranks 2 --send: exit status $?"
    grep -q "^host <- thread 0x0 cycle [0-9]*: 0x00000002 " "$out" ||
        fail "./tessera run --ranks 2 --send: no echo from thread 0"
    # A traced run over ranks: the ranks' events in one trace, the host's message among them.
    json=$(mktemp --suffix=.json)
    "$tessera" trace --ranks 2 --send 0:1 -o "$json" hostlink_echo boards-x=2 >"$out" 2>"$err" ||
        fail "./tessera trace --ranks 2: exit status $?"
    # The host link is the process after the 2 boards: thread 0's echo reached it.
    grep -q '"name":"from 0x0","cat":"mailbox","pid":3' "$json" ||
        fail "./tessera trace --ranks 2: no echo from thread 0 in the trace"
    rm -f "$json"
    an_error bench
    an_error bench no-such-benchmark
    an_error figures --no-such-option
    an_error figures no-such-bench
    grep -q "no bench 'no-such-bench'" "$err" || fail "./tessera figures no-such-bench: unclear error"
    an_error fuzz no-such-target
    # Options after the positional arguments: parsed as options (these stop before building).
    an_error flash nope hello --dry-run
    grep -q "no board named 'nope'" "$err" || fail "./tessera flash nope hello --dry-run: unclear error"
    an_error run hello --board nope
    grep -q "no board named 'nope'" "$err" || fail "./tessera run hello --board nope: unclear error"
    an_error debug hello boards-x=2 --batch /no/such/script.gdb
    grep -q "no gdb script '/no/such/script.gdb'" "$err" || fail "./tessera debug hello ... --batch: unclear error"
    an_error bench no-such-benchmark --quick
    grep -q "no benchmark 'no-such-benchmark'" "$err" || fail "./tessera bench no-such-benchmark --quick: unclear error"
    # After `--`, the arguments are QEMU's: no --help there.
    an_error run --board nope hello -- --help
    an_error help no-such-command
    an_error no-such-command
    ;;
completion)
    # The script bash loads, driven as bash drives it (COMP_LINE, COMP_POINT).
    expect 0 completion && grep -q '^complete .*-F _tessera' "$out" || fail "./tessera completion: no script"
    script=$(cat "$out")
    complete_line() {
        bash -c 'source /dev/stdin <<<"$1"; COMP_LINE=$2; COMP_POINT=${#2}; _tessera 2>/dev/null
                 echo "${COMPREPLY[*]}"' _ "$script" "$2"
    }
    check_completion() {
        local got
        got=$(cd "$repo" && complete_line "$script" "./tessera $1")
        [ "$got" = "$2" ] || fail "completing './tessera $1' gives '$got', not '$2'"
    }
    check_completion "ru" "run"
    check_completion "help qemu" "qemu-cmd"
    check_completion "run hostlink_ec" "hostlink_echo"
    check_completion "run hello boards-" "boards-x= boards-y="
    check_completion "run hello deadlock=s" "stop"
    check_completion "debug hello idle-master=c" "centre"
    check_completion "fuzz hostl" "hostlink"
    check_completion "test --fa" "--fast"
    check_completion "run hello -- -mon" ""
    ;;
variants)
    apps="$repo/build/firmware/apps"
    if [ ! -f "$apps/mbox_fault_too_long.elf" ]; then
        echo "SKIP: no firmware images in $apps"
        exit 77
    fi
    for cmd in run qemu-cmd; do
        an_error "$cmd" mbox_fault
        for image in "$apps"/mbox_fault_*.elf; do
            image=$(basename "$image" .elf)
            grep -qw "$image" "$err" || fail "./tessera $cmd mbox_fault does not list $image"
        done
    done
    # A folder whose images have other names than the folder.
    an_error run exit_device
    grep -qw exit_pass "$err" || fail "./tessera run exit_device does not list exit_pass"
    # An option after the positional arguments (an ELF file: nothing is built).
    board_elf="$(cd "$repo" && pwd)/build/firmware-sifive_e/apps/hello.elf"
    if [ -f "$board_elf" ]; then
        expect 0 flash sifive_e "$board_elf" --dry-run &&
            grep -q "^openocd .*program $board_elf verify" "$out" ||
            fail "./tessera flash sifive_e <elf> --dry-run: no OpenOCD command"
    fi
    # One of the images boots as before (the command only, nothing run).
    expect 0 qemu-cmd mbox_fault_too_long && grep -q -- '-kernel [^ ]*/mbox_fault_too_long\.elf' "$out" ||
        fail "./tessera qemu-cmd mbox_fault_too_long: no command"
    ;;
*)
    echo "usage: check.sh <help|errors|completion|variants> <path to ./tessera>" >&2
    exit 2
    ;;
esac

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "ok: $case"
