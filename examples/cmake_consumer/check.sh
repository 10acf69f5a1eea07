#!/bin/sh
# Installs the build into a scratch prefix and builds this consumer against it.
# Usage: check.sh BUILD_DIR SOURCE_DIR
set -e
build=$1
src=$2
prefix=$build/consumer-check/prefix
rm -rf "$build/consumer-check"
cmake --install "$build" --prefix "$prefix" >/dev/null
cmake -S "$src/examples/cmake_consumer" -B "$build/consumer-check/build" \
    -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$build/consumer-check/build" >/dev/null
LD_LIBRARY_PATH="$prefix/lib:$prefix/lib64:$prefix/lib/x86_64-linux-gnu" \
    "$build/consumer-check/build/gpuldpc_consumer"
