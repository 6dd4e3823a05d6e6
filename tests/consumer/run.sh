#!/bin/sh
# Builds and runs the consumer three ways: against an installed copy through pkg-config (shared
# and static), and as a meson project with dmlvk as a subproject.
# usage: run.sh BUILD_DIR_OF_DMLVK
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

meson install -C "$build" --destdir "$work/root" --quiet
prefix=$(meson introspect "$build" --buildoptions | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"][0])')
libdir=$(meson introspect "$build" --buildoptions | python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="libdir"][0])')
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
export PKG_CONFIG_PATH="$work/root$libdir/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$work/root"
# The headers include Vulkan's: the .pc must bring its include path, and the docs must be installed.
pkg-config --print-requires-private dmlvk | grep -qx vulkan || { echo "dmlvk.pc does not require vulkan" >&2; exit 1; }
for f in embedding.md README.md examples/example_host_device.c; do
    [ -f "$work/root$prefix/share/doc/dmlvk/$f" ] || { echo "share/doc/dmlvk/$f is not installed" >&2; exit 1; }
done
cp "$src/tests/consumer/consumer.c" "$src/tests/consumer/Makefile" "$work/"
make -s -C "$work" all
LD_LIBRARY_PATH="$work/root$libdir" "$work/consumer-shared"
"$work/consumer-static"
if ldd "$work/consumer-static" | grep -q libdmlvk; then
    echo "consumer-static links libdmlvk dynamically" >&2
    exit 1
fi

mkdir -p "$work/sub/subprojects"
cp "$src/tests/consumer/consumer.c" "$src/tests/consumer/meson.build" "$work/sub/"
git -C "$src" ls-files -z | (cd "$src" && xargs -0 tar cf -) | (mkdir -p "$work/sub/subprojects/dmlvk" && cd "$work/sub/subprojects/dmlvk" && tar xf -)
meson setup "$work/sub/build" "$work/sub" >/dev/null
ninja -C "$work/sub/build" >/dev/null
"$work/sub/build/consumer"
echo "PASS: consumers built against the installed dmlvk (pkg-config, shared and static) and as a subproject"
