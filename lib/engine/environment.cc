/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The one place where the libraries read GPULDPC_* variables: the tuning
// (gpu_tuning's contract), each parsed and checked here with an error that
// names it, its value and what it allows; the codes' directory and the
// fault-injection hook, handed on as text.

#include "environment.h"
#include <gnuradio/gpuldpc/engine/gpu_tuning.h>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuldpc {

namespace {

// The variable's value; an empty one counts as unset only where \p empty_unset.
const char* variable(const char* name, bool empty_unset = false)
{
    const char* v = std::getenv(name);
    return v && (*v || !empty_unset) ? v : nullptr;
}

[[noreturn]] void
unusable(const char* name, const std::string& value, const char* allowed)
{
    throw std::invalid_argument(std::string(name) + "='" + value +
                                "' is not usable; allowed: " + allowed);
}

void read_switch(const char* name, bool& out)
{
    const char* v = variable(name);
    if (!v)
        return;
    const std::string s = v;
    if (s != "0" && s != "1")
        unusable(name, s, "0 or 1");
    out = s == "1";
}

// A whole number in [lo, hi]; false when unset.
bool read_number(const char* name, long lo, long hi, const char* allowed, long& out)
{
    const char* v = variable(name);
    if (!v)
        return false;
    char* end = nullptr;
    errno = 0;
    const long n = std::strtol(v, &end, 10);
    if (end == v || *end != '\0' || errno == ERANGE || n < lo || n > hi)
        unusable(name, v, allowed);
    out = n;
    return true;
}

// Bytes, or KiB with a K / KiB suffix (any case); unset when empty.
size_t read_bytes(const char* name)
{
    const char* v = variable(name, true);
    if (!v)
        return 0;
    const std::string text(v);
    size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])))
        ++digits;
    std::string suffix = text.substr(digits);
    for (auto& c : suffix)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    const bool kib = suffix == "k" || suffix == "kib";
    if (digits == 0 || digits > 9 || !(suffix.empty() || kib))
        throw std::invalid_argument(std::string(name) + "='" + text +
                                    "' is malformed; allowed: bytes (65536) or KiB "
                                    "with a K or KiB suffix (64K, 99KiB)");
    // a cap of 0 is the smallest there is (48 KiB), not "no cap"
    return std::max<size_t>(
        1, size_t(std::stoul(text.substr(0, digits))) * (kib ? 1024 : 1));
}

} // namespace

gpu_tuning gpu_tuning::from_environment()
{
    gpu_tuning t;
    t.shared_memory_limit = read_bytes("GPULDPC_SHARED_MEMORY_LIMIT");
    long n = 0;
    if (read_number(
            "GPULDPC_GPU_DECODER_LAUNCH_FRAMES", 1, 1L << 40, "a whole number >= 1", n))
        t.launch_frames = size_t(n);
    read_switch("GPULDPC_GPU_DECODER_REGISTERS", t.registers);
    read_switch("GPULDPC_GPU_DECODER_TENSOR_CORES", t.tensor_cores);
    read_switch("GPULDPC_GPU_DECODER_EDGE_THREADS", t.edge_threads);
    read_switch("GPULDPC_GPU_DECODER_GRAPHS", t.graphs);
    read_switch("GPULDPC_GPU_DECODER_COMPACT_CHECKS", t.compact_checks);
    read_switch("GPULDPC_GPU_DECODER_PAIRS", t.pairs);
    read_switch("GPULDPC_GPU_DECODER_WIDE_PAIRS", t.wide_pairs);
    read_switch("GPULDPC_GPU_DECODER_COMPRESSED", t.compressed);
    read_switch("GPULDPC_GPU_DECODER_COMPRESSED_ON_CHIP", t.compressed_on_chip);
    read_switch("GPULDPC_GPU_DECODER_ON_CHIP", t.on_chip);
    read_switch("GPULDPC_GPU_DECODER_SPLIT", t.split);
    read_switch("GPULDPC_GPU_DECODER_QUASI_CYCLIC", t.quasi_cyclic);
    read_switch("GPULDPC_GPU_DECODER_QUASI_CYCLIC_FIRST", t.quasi_cyclic_first);
    read_switch("GPULDPC_GPU_DECODER_QUASI_CYCLIC_UNROLLED", t.quasi_cyclic_unrolled);
    read_switch("GPULDPC_GPU_DECODER_QUASI_CYCLIC_HALF", t.quasi_cyclic_half);
    read_switch("GPULDPC_GPU_DECODER_QUASI_CYCLIC_STRIDED", t.quasi_cyclic_strided);
    if (read_number("GPULDPC_GPU_DECODER_QUASI_CYCLIC_COMPACT",
                    0,
                    2,
                    "0 (never), 1 (where 16-byte words outgrow the L2 cache and "
                    "rows average 6 blocks or more, the default) or 2 (always)",
                    n))
        t.quasi_cyclic_compact = unsigned(n);
    if (read_number("GPULDPC_GPU_DECODER_LANES", 1, 32, "1, 2, 4, 8, 16 or 32", n)) {
        if ((n & (n - 1)) != 0)
            unusable(
                "GPULDPC_GPU_DECODER_LANES", std::to_string(n), "1, 2, 4, 8, 16 or 32");
        t.lanes = unsigned(n);
    }
    if (read_number("GPULDPC_GPU_DECODER_BLOCK_THREADS",
                    32,
                    1024,
                    "a multiple of 32 from 32 to 1024",
                    n)) {
        if (n % 32 != 0)
            unusable("GPULDPC_GPU_DECODER_BLOCK_THREADS",
                     std::to_string(n),
                     "a multiple of 32 from 32 to 1024");
        t.block_threads = unsigned(n);
    }
    if (read_number(
            "GPULDPC_GPU_DECODER_SPLIT_BLOCKS", 1, 1L << 30, "a whole number >= 1", n))
        t.split_blocks = unsigned(n);
    if (read_number("GPULDPC_BLOCK_CHUNK_FRAMES",
                    0,
                    1L << 30,
                    "a whole number from 0 to 2^30",
                    n))
        t.block_chunk_frames = n;
    // an opt-in to try: "1" tries, anything else leaves the callbacks off
    if (const char* v = variable("GPULDPC_CUFFT_CALLBACKS"))
        t.cufft_callbacks = std::string(v) == "1";
    return t;
}

namespace detail {

std::string codes_dir_from_environment()
{
    const char* v = variable("GPULDPC_CODES_DIR", true);
    return v ? v : "";
}

std::string cpu_simd_from_environment()
{
    const char* v = variable("GPULDPC_CPU_SIMD", true);
    return v ? v : "auto";
}

std::string injected_fault_from_environment()
{
    const char* v = variable("GPULDPC_INJECT_CUDA_FAULT", true);
    return v ? v : "";
}

} // namespace detail

} // namespace gpuldpc
} // namespace gr
