# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Shared set-up of scripts/demo and scripts/test: installs the Debian packages
# that are missing (nothing when all are present) and configures and builds
# the module incrementally (nothing when the build is current). scripts/test
# builds everything, every CUDA architecture, into build/; scripts/demo only
# what the demo runs, for this machine, into build-demo/ (GPULDPC_BUILD_DIR
# overrides either).

GPULDPC_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GPULDPC_BUILD=${GPULDPC_BUILD_DIR:-$GPULDPC_ROOT/build}
GPULDPC_PYTHON=/usr/bin/python3
GPULDPC_JOBS=${GPULDPC_JOBS:-$(nproc)}

GPULDPC_PACKAGES=(
    build-essential cmake pkg-config git ccache
    gnuradio-dev pybind11-dev libvolk2-dev libhwy-dev
    libboost-dev libboost-test-dev libboost-program-options-dev
    libboost-system-dev libboost-thread-dev
    python3-numpy python3-matplotlib gr-osmosdr
    openmpi-bin python3-mpi4py
)

log() { echo "[gpuldpc] $*" >&2; }

ensure_packages() {
    local missing=()
    local p
    for p in "${GPULDPC_PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$p")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        log "missing Debian packages: ${missing[*]}; run as root or install them"
        exit 1
    fi
    log "installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null
    apt-get install -y -q "${missing[@]}" >/dev/null
}

# The CMake arguments of a build for what this machine can run: the
# architectures of its GPUs (nvidia-smi's compute capability, 9.0 -> 90) when
# it has a GPU and nvcc, else no CUDA. The default build (scripts/test, CI)
# compiles the kernels for five architectures, which takes most of the time of
# a fresh build; a machine needs only its own.
local_cuda_args() {
    local nvcc=""
    if command -v nvcc >/dev/null; then
        nvcc=nvcc
    elif [ -x /usr/local/cuda/bin/nvcc ]; then
        nvcc=/usr/local/cuda/bin/nvcc
    fi
    local gpus=""
    if command -v nvidia-smi >/dev/null; then
        gpus=$(nvidia-smi -L 2>/dev/null || true)
    fi
    if [ -z "$nvcc" ] || [[ "$gpus" != *GPU* ]]; then
        echo "-DENABLE_CUDA=OFF"
        return
    fi
    local archs
    archs=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null |
        tr -d ' .' | grep -E '^[0-9]+$' | sort -u | paste -sd';' || true)
    # drivers older than 510 cannot report the capability: let CMake ask the GPU
    echo "-DENABLE_CUDA=ON" "-DCMAKE_CUDA_ARCHITECTURES=${archs:-native}"
}

# ensure_build [CMAKE_ARGS...]: configures $GPULDPC_BUILD (again when the
# arguments differ from those it was configured with) and builds the targets
# in GPULDPC_BUILD_TARGETS (default: all).
ensure_build() {
    # nvcc lives outside PATH in the CUDA toolkit's default location
    if [ -x /usr/local/cuda/bin/nvcc ]; then
        export PATH=/usr/local/cuda/bin:$PATH
    fi
    local args_file="$GPULDPC_BUILD/gpuldpc-configure-args"
    if [ ! -f "$GPULDPC_BUILD/CMakeCache.txt" ] ||
        [ "$*" != "$(cat "$args_file" 2>/dev/null)" ]; then
        local launcher=()
        if command -v ccache >/dev/null; then
            launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
        fi
        log "configuring $GPULDPC_BUILD${*:+ ($*)}"
        mkdir -p "$GPULDPC_BUILD"
        cmake -S "$GPULDPC_ROOT" -B "$GPULDPC_BUILD" -DCMAKE_BUILD_TYPE=Release \
            -DPYTHON_EXECUTABLE="$GPULDPC_PYTHON" "${launcher[@]}" "$@" >/dev/null
        echo "$*" >"$args_file"
    fi
    local targets=()
    local t
    for t in ${GPULDPC_BUILD_TARGETS:-}; do
        targets+=(--target "$t")
    done
    log "building (incremental) in $GPULDPC_BUILD${GPULDPC_BUILD_TARGETS:+ (${GPULDPC_BUILD_TARGETS})}; log: $GPULDPC_BUILD/build.log"
    if ! cmake --build "$GPULDPC_BUILD" -j"$GPULDPC_JOBS" "${targets[@]}" \
        >"$GPULDPC_BUILD/build.log" 2>&1; then
        grep -E "error|Error" -A5 "$GPULDPC_BUILD/build.log" | head -60 >&2
        log "build failed; see $GPULDPC_BUILD/build.log"
        exit 1
    fi
}

# Environment to run the module from the build tree, without installing it.
use_build_tree() {
    export PYTHONPATH="$GPULDPC_BUILD/test_modules${PYTHONPATH:+:$PYTHONPATH}"
    export LD_LIBRARY_PATH="$GPULDPC_BUILD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export GPULDPC_SOURCE_DIR="$GPULDPC_ROOT"
    export PATH="$GPULDPC_BUILD/apps:$PATH"
}
