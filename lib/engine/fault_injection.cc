/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "common/cuda_hooks.h"
#include "environment.h"
#include <gnuradio/gpuldpc/engine/fault_injection.h>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

namespace detail {
std::atomic<int> g_cuda_fault_armed{ 0 };
} // namespace detail

namespace {

std::mutex g_mutex;
detail::cuda_call_kind g_kind = detail::cuda_call_kind::other;
uint64_t g_left = 0; // calls of g_kind until the fault, counting the failing one
std::atomic<uint64_t> g_fired{ 0 };

detail::cuda_call_kind parse_kind(const std::string& kind)
{
    if (kind == "allocation")
        return detail::cuda_call_kind::allocation;
    if (kind == "launch")
        return detail::cuda_call_kind::launch;
    if (kind == "copy")
        return detail::cuda_call_kind::copy;
    if (kind == "sync")
        return detail::cuda_call_kind::sync;
    throw std::invalid_argument(
        "kind='" + kind +
        "' is not a fault kind; allowed: allocation, launch, copy, sync");
}

// GPULDPC_INJECT_CUDA_FAULT=KIND:N, read when the library loads
struct arm_from_environment {
    arm_from_environment()
    {
        const std::string spec = detail::injected_fault_from_environment();
        if (spec.empty())
            return;
        const auto colon = spec.find(':');
        try {
            if (colon == std::string::npos)
                throw std::invalid_argument("no ':N'");
            const std::string count = spec.substr(colon + 1);
            if (count.empty() ||
                count.find_first_not_of("0123456789") != std::string::npos)
                throw std::invalid_argument("N is not a whole number");
            inject_cuda_fault(spec.substr(0, colon), std::stoull(count));
            std::cerr << "gpuldpc: GPULDPC_INJECT_CUDA_FAULT='" << spec
                      << "': a CUDA call will fail on purpose" << std::endl;
        } catch (const std::exception& e) {
            std::cerr << "gpuldpc: GPULDPC_INJECT_CUDA_FAULT='" << spec
                      << "' ignored (allowed: allocation:N, launch:N, copy:N or sync:N "
                         "with N >= 1): "
                      << e.what() << std::endl;
        }
    }
} g_arm_from_environment;

} // namespace

void inject_cuda_fault(const std::string& kind, uint64_t nth)
{
    const auto k = parse_kind(kind);
    if (nth < 1)
        throw std::invalid_argument("nth=" + std::to_string(nth) +
                                    " is out of range; allowed: 1 or more");
    std::lock_guard<std::mutex> lock(g_mutex);
    g_kind = k;
    g_left = nth;
    detail::g_cuda_fault_armed.store(1);
}

void clear_cuda_fault()
{
    std::lock_guard<std::mutex> lock(g_mutex);
    g_left = 0;
    detail::g_cuda_fault_armed.store(0);
}

uint64_t injected_cuda_faults() { return g_fired.load(); }

namespace detail {

bool cuda_fault_due(cuda_call_kind kind)
{
    if (!g_cuda_fault_armed.load(std::memory_order_relaxed) ||
        kind == cuda_call_kind::other)
        return false;
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_left == 0 || kind != g_kind || --g_left > 0)
        return false;
    g_cuda_fault_armed.store(0);
    g_fired.fetch_add(1);
    return true;
}

cuda_call_kind cuda_call_kind_of(const char* call)
{
    if (std::strncmp(call, "cudaMalloc", 10) == 0)
        return cuda_call_kind::allocation;
    if (std::strncmp(call, "cudaMemcpy", 10) == 0 ||
        std::strncmp(call, "cudaMemset", 10) == 0)
        return cuda_call_kind::copy;
    if (std::strncmp(call, "cudaGraphLaunch", 15) == 0 ||
        std::strncmp(call, "cudaLaunch", 10) == 0)
        return cuda_call_kind::launch;
    if (std::strncmp(call, "cudaStreamSynchronize", 21) == 0 ||
        std::strncmp(call, "cudaEventSynchronize", 20) == 0 ||
        std::strncmp(call, "cudaDeviceSynchronize", 21) == 0)
        return cuda_call_kind::sync;
    return cuda_call_kind::other;
}

} // namespace detail

} // namespace gpuldpc
} // namespace gr
