#!/usr/bin/env bash
# The SDK's checks (tests/sdk/CMakeLists.txt), one step per call:
#   check_sdk.sh install <prefix> <firmware build> <host build>   install both halves afresh
#   check_sdk.sh cmake <prefix> <project source> <work dir>       configure, build, ctest
#   check_sdk.sh make <prefix> <work dir>                         the installed Makefile example
#   check_sdk.sh make-native <prefix> <project source> <work dir> the project's ping, make NATIVE=1
set -euo pipefail

die() {
    echo "check_sdk.sh: $*" >&2
    exit 1
}

step=${1:-}
prefix=${2:-}
[ -n "$step" ] && [ -n "$prefix" ] || die "usage: check_sdk.sh install|cmake|make <prefix> ..."

case $step in
install)
    [ $# -eq 4 ] || die "usage: check_sdk.sh install <prefix> <firmware build> <host build>"
    rm -rf "$prefix"
    cmake --install "$3" --prefix "$prefix" >/dev/null
    cmake --install "$4" --prefix "$prefix" >/dev/null
    echo "SDK installed in $prefix"
    ;;
cmake)
    [ $# -eq 4 ] || die "usage: check_sdk.sh cmake <prefix> <project source> <work dir>"
    rm -rf "$4"
    cmake -S "$3" -B "$4" -G Ninja -DCMAKE_PREFIX_PATH="$prefix"
    cmake --build "$4" -j2
    ctest --test-dir "$4" -j2 --output-on-failure -V
    ;;
make)
    [ $# -eq 3 ] || die "usage: check_sdk.sh make <prefix> <work dir>"
    rm -rf "$3"
    cp -r "$prefix/share/tessera/examples/tinsel-make" "$3"
    make -C "$3" TESSERA_SDK="$prefix"
    cd "$3/build"
    ./run | tee run.out
    grep -q '^the host heard from 16 threads (mask ffff)$' run.out ||
        die "the host did not hear from all 16 threads"
    [ "$(grep -c '^0:0:[0-3]:[0-3]: hello from thread 000000[0-9a-f][0-9a-f] of 16$' run.out)" -eq 16 ] ||
        die "not every thread's hello line came"
    ;;
make-native)
    [ $# -eq 4 ] || die "usage: check_sdk.sh make-native <prefix> <project source> <work dir>"
    rm -rf "$4"
    mkdir -p "$4"
    cp "$3/ping/ping.cpp" "$3/ping/run.cpp" "$4/"
    printf '%s\n' 'DEVICE_SRCS = ping.cpp' 'HOST_SRCS = run.cpp' "SHAPE = $3/mesh-3x2.props" \
        'include $(TESSERA_SDK)/share/tessera/make/tinsel.mk' >"$4/Makefile"
    make -C "$4" TESSERA_SDK="$prefix" NATIVE=1
    [ ! -e "$4/build/code.v" ] || die "make NATIVE=1 built an image"
    cd "$4/build"
    ./run | tee run.out
    ! grep -q FAIL run.out || die "the native ping failed"
    ;;
*) die "unknown step '$step'" ;;
esac
