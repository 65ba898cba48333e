#!/usr/bin/env bash
# Builds qemu-system-riscv32 with the Tessera machine: Debian's QEMU 10.0.x
# source (upstream tarball of the `qemu` source package) + the overlay in
# this folder (new files, a few small patches), the plain C device models of
# models/ and the shared register header. The normal build also has QEMU's
# models of the dev boards the firmware runs on (docs/boards.md): the HiFive1
# Rev B (sifive_e) in qemu-system-riscv32 and the HiFive Unleashed (sifive_u)
# in qemu-system-riscv64.
#
# Cached outside the clone: the source tree and its build directory once per
# QEMU version and patch set, and each finished binary under a hash of its
# inputs, so a second build of the same inputs is free and an overlay change
# rebuilds only what it touches.
#
# Usage: qemu/build.sh [--sanitize] [LINK_DIR]
#   default:     the normal build, linked from LINK_DIR (default build/qemu)
#   --sanitize:  the same QEMU with AddressSanitizer and UBSan, built in its
#                own build directory of the same source tree and cached
#                beside the normal one (LINK_DIR default build/qemu-asan)
# Prints the path of the binary on its last line.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
cache=${TESSERA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tessera}
variant=normal
if [ "${1:-}" = "--sanitize" ]; then
    variant=asan
    shift
fi
if [ "$variant" = asan ]; then
    link_dir=${1:-$repo/build/qemu-asan}
    build_subdir=build-asan
    variant_flags=(--enable-asan --enable-ubsan)
    key_suffix=-asan
    # The boards' QEMU models are upstream's own: the sanitizer build is for Tessera's machine.
    targets=(riscv32)
else
    link_dir=${1:-$repo/build/qemu}
    build_subdir=build
    variant_flags=()
    key_suffix=
    targets=(riscv32 riscv64)
fi
jobs=${TESSERA_JOBS:-2}

say() { echo "qemu/build.sh: $*" >&2; }
die() { say "error: $*"; exit 1; }

# Everything that goes into the binary, as a hash.
inputs_hash() {
    (cd "$repo" &&
        find qemu/build.sh qemu/patches qemu/overlay models \
            hal/include/tessera/hw -type f \
            \( -name '*.c' -o -name '*.h' -o -name '*.patch' -o -name '*.mak' \
               -o -name 'meson.build' -o -name 'trace-events' -o -name 'Kconfig' \
               -o -name 'build.sh' \) -print0 |
        sort -z | xargs -0 sha256sum) | sha256sum | cut -c1-16
}

key=$(inputs_hash)$key_suffix
bin="$cache/bin/$key/qemu-system-riscv32"

link_binary() {
    mkdir -p "$link_dir"
    local t
    for t in "${targets[@]}"; do
        ln -sfn "$(dirname "$bin")/qemu-system-$t" "$link_dir/qemu-system-$t"
    done
    echo "$link_dir/qemu-system-riscv32"
}

built() {
    local t
    for t in "${targets[@]}"; do
        [ -x "$(dirname "$bin")/qemu-system-$t" ] || return 1
    done
}

if built; then
    link_binary
    exit 0
fi

check_tools() {
    local missing=()
    command -v ninja >/dev/null || missing+=(ninja-build)
    command -v pkg-config >/dev/null || missing+=(pkg-config)
    command -v meson >/dev/null || missing+=("meson (>= 1.5, bookworm-backports)")
    pkg-config --exists glib-2.0 2>/dev/null || missing+=(libglib2.0-dev)
    pkg-config --exists pixman-1 2>/dev/null || missing+=(libpixman-1-dev)
    [ -f /usr/include/libfdt.h ] || missing+=(libfdt-dev)
    /usr/bin/python3 -c 'import pycotap' 2>/dev/null ||
        missing+=("python3-pycotap (bookworm-backports)")
    if [ ${#missing[@]} -gt 0 ]; then
        die "missing build dependencies: ${missing[*]} (./tessera setup installs them)"
    fi
    local mv
    mv=$(meson --version)
    if ! printf '1.5.0\n%s\n' "$mv" | sort -V -C; then
        die "meson $mv is too old; QEMU 10 needs >= 1.5 (bookworm-backports)"
    fi
}

find_tarball() {
    ls "$cache"/src/qemu_10.0.*+ds.orig.tar.xz 2>/dev/null | sort -V | tail -n 1
}

fetch_source() {
    local tarball
    tarball=$(find_tarball)
    if [ -z "$tarball" ]; then
        command -v apt-get >/dev/null || die "apt-get not found; put qemu_10.0.*+ds.orig.tar.xz in $cache/src"
        say "downloading Debian's qemu source package"
        mkdir -p "$cache/src"
        (cd "$cache/src" && apt-get source --download-only qemu >&2) ||
            die "apt-get source qemu failed: a deb-src entry for trixie is needed (./tessera setup adds it)"
        tarball=$(find_tarball)
        [ -n "$tarball" ] || die "Debian's qemu source is not 10.0.x: $(ls "$cache/src")"
    fi
    echo "$tarball"
}

# Copies src to dst only if the content differs, so ninja rebuilds only
# what changed.
sync_file() {
    local src=$1 dst=$2
    if ! cmp -s "$src" "$dst"; then
        mkdir -p "$(dirname "$dst")"
        cp "$src" "$dst"
    fi
}

check_tools
mkdir -p "$cache"
exec 9>"$cache/.build.lock"
flock 9

tarball=$(fetch_source)
version=$(basename "$tarball" | sed -E 's/^qemu_([0-9.]+)\+ds.*/\1/')
tree="$cache/qemu-$version"
# Patches are applied in order and recorded; a tree whose recorded patches
# are a prefix of the current list only needs the rest, anything else starts
# again from the tarball.
applied="$tree/.tessera-patches"
wanted=$(for p in "$here"/patches/*.patch; do
    echo "$(basename "$p") $(sha256sum < "$p" | cut -c1-16)"
done)
have=$(cat "$applied" 2>/dev/null || true)
if [ "$have" != "$wanted" ]; then
    if [ ! -f "$tree/configure" ] ||
        [ "$have" != "$(echo "$wanted" | head -n "$(echo -n "$have" | grep -c '^' || true)")" ]; then
        say "unpacking $(basename "$tarball")"
        rm -rf "$tree"
        tar -C "$cache" -xf "$tarball"
        have=""
    fi
    skip=$(echo -n "$have" | grep -c '^' || true)
    n=0
    for p in "$here"/patches/*.patch; do
        n=$((n + 1))
        if [ "$n" -gt "$skip" ]; then
            say "applying $(basename "$p")"
            patch -d "$tree" -p1 -N --no-backup-if-mismatch -s < "$p" >&2 ||
                die "$(basename "$p") does not apply to QEMU $version"
        fi
    done
    echo "$wanted" > "$applied"
fi

(cd "$here/overlay" && find . -type f) | while read -r f; do
    sync_file "$here/overlay/$f" "$tree/$f"
done
# The model library (models/): sources and private headers beside each
# other, public headers under include/tessera/models/ as its clients name
# them.
for f in "$repo"/models/*.c "$repo"/models/*.h; do
    [ -e "$f" ] || continue
    sync_file "$f" "$tree/hw/riscv/tessera/models/$(basename "$f")"
done
for f in "$repo"/models/include/tessera/models/*.h; do
    sync_file "$f" "$tree/hw/riscv/tessera/include/tessera/models/$(basename "$f")"
done
for f in "$repo"/hal/include/tessera/hw/*.h; do
    sync_file "$f" "$tree/hw/riscv/tessera/include/tessera/hw/$(basename "$f")"
done

build_dir="$tree/$build_subdir"
target_list=$(printf '%s-softmmu,' "${targets[@]}")
configure_args=(--target-list="${target_list%,}"
    --without-default-features --without-default-devices
    --with-devices-riscv32=tessera --with-devices-riscv64=tessera
    --disable-install-blobs --disable-docs --enable-fdt=system
    --python=/usr/bin/python3 "${variant_flags[@]}")
# A build directory configured otherwise (another target list) starts again; one from before
# this record was kept is taken as it is (its devices files still regenerate it).
if [ -f "$build_dir/.tessera-configure" ] &&
    [ "$(cat "$build_dir/.tessera-configure")" != "${configure_args[*]}" ]; then
    rm -rf "$build_dir"
fi
if [ ! -f "$build_dir/build.ninja" ]; then
    say "configuring QEMU $version (${targets[*]}, $variant build)"
    mkdir -p "$build_dir"
    (cd "$build_dir" && ../configure "${configure_args[@]}" >&2) ||
        die "QEMU configure failed"
    echo "${configure_args[*]}" > "$build_dir/.tessera-configure"
fi

mkdir -p "$(dirname "$bin")"
for t in "${targets[@]}"; do
    say "building qemu-system-$t (QEMU $version, $variant build, inputs $key)"
    nice ninja -C "$build_dir" -j "$jobs" "qemu-system-$t" >&2 ||
        die "QEMU build failed"
    cp "$build_dir/qemu-system-$t" "$(dirname "$bin")/qemu-system-$t.tmp"
    mv "$(dirname "$bin")/qemu-system-$t.tmp" "$(dirname "$bin")/qemu-system-$t"
done
link_binary
