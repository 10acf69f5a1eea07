#!/bin/sh
# Installs the build into a scratch prefix and builds two consumers against
# it: one of the blocks library (find_package(gnuradio-gpuldpc)) and one of the
# engine alone (find_package(gpuldpc-engine)), which must not load any GNU
# Radio library.
# Usage: check.sh BUILD_DIR SOURCE_DIR
set -e
build=$1
src=$2
prefix=$build/consumer-check/prefix
libpath="$prefix/lib:$prefix/lib64:$prefix/lib/x86_64-linux-gnu"
rm -rf "$build/consumer-check"
cmake --install "$build" --prefix "$prefix" >/dev/null
cmake -S "$src/examples/cmake_consumer" -B "$build/consumer-check/build" \
    -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$build/consumer-check/build" >/dev/null
LD_LIBRARY_PATH="$libpath" "$build/consumer-check/build/gpuldpc_consumer"

cmake -S "$src/examples/engine_consumer" -B "$build/consumer-check/engine" \
    -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$build/consumer-check/engine" >/dev/null
engine_prog="$build/consumer-check/engine/gpuldpc_engine_consumer"
LD_LIBRARY_PATH="$libpath" "$engine_prog"
if LD_LIBRARY_PATH="$libpath" ldd "$engine_prog" | grep -q libgnuradio; then
    echo "the engine consumer loads GNU Radio libraries:" >&2
    LD_LIBRARY_PATH="$libpath" ldd "$engine_prog" | grep libgnuradio >&2
    exit 1
fi
echo "engine consumer: no GNU Radio library loaded"
# The scratch install goes once the checks pass: a copy of the libraries left
# in the build tree goes stale with the next build, and tools that collect a
# build's libraries (ldd over its files) would pick it up.
rm -rf "$build/consumer-check"
