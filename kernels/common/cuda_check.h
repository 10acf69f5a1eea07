/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_CUDA_CHECK_H
#define INCLUDED_GPULDPC_KERNELS_CUDA_CHECK_H

// The one place where CUDA errors become exceptions (the engine's public
// cuda_error, raised through cuda_hooks.h so that callers can catch it): plain
// C++ (usable from g++ and nvcc), message "file:line: call: cudaErrorName:
// description".

#include "common/cuda_hooks.h"
#include <cuda_runtime_api.h>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuldpc {

[[noreturn]] inline void throw_cuda_error(
    cudaError_t err, const char* call, const char* file, int line, bool injected = false)
{
    // clear a non-sticky error so that later calls do not report it again
    if (!injected)
        cudaGetLastError();
    raise_cuda_error(std::string(file) + ":" + std::to_string(line) + ": " + call + ": " +
                         cudaGetErrorName(err) + ": " + cudaGetErrorString(err) +
                         (injected ? " (injected fault)" : ""),
                     int(err));
}

inline bool injected_fault_due(detail::cuda_call_kind kind)
{
    return detail::g_cuda_fault_armed.load(std::memory_order_relaxed) &&
           detail::cuda_fault_due(kind);
}

// The error an armed fault gives this call, or cudaSuccess.
inline cudaError_t injected_cuda_error(const char* call_text)
{
    if (!detail::g_cuda_fault_armed.load(std::memory_order_relaxed))
        return cudaSuccess;
    const auto kind = detail::cuda_call_kind_of(call_text);
    if (!detail::cuda_fault_due(kind))
        return cudaSuccess;
    switch (kind) {
    case detail::cuda_call_kind::allocation:
        return cudaErrorMemoryAllocation;
    case detail::cuda_call_kind::launch:
    case detail::cuda_call_kind::sync:
        return cudaErrorLaunchFailure;
    default:
        return cudaErrorUnknown;
    }
}

// Whether an injected fault still makes the call: a wait, so that what came
// before it finishes, as after a real failure.
inline bool injected_fault_waits(const char* call_text)
{
    return detail::cuda_call_kind_of(call_text) == detail::cuda_call_kind::sync;
}

} // namespace gpuldpc
} // namespace gr

// An armed injected fault (fault_injection.h) takes the place of the call's
// own result: allocations, copies and launches are then not made; a wait is
// made, then reported failed.
#define GPULDPC_CUDA_CHECK(call)                                                         \
    do {                                                                                 \
        const cudaError_t gpuldpc_injected_ = ::gr::gpuldpc::injected_cuda_error(#call); \
        cudaError_t gpuldpc_err_ = gpuldpc_injected_;                                    \
        if (gpuldpc_injected_ == cudaSuccess)                                            \
            gpuldpc_err_ = (call);                                                       \
        else if (::gr::gpuldpc::injected_fault_waits(#call))                             \
            (void)(call);                                                                \
        if (gpuldpc_err_ != cudaSuccess)                                                 \
            ::gr::gpuldpc::throw_cuda_error(gpuldpc_err_,                                \
                                            #call,                                       \
                                            __FILE__,                                    \
                                            __LINE__,                                    \
                                            gpuldpc_injected_ != cudaSuccess);           \
    } while (0)

// After a kernel launch: configuration errors show up in cudaGetLastError().
#define GPULDPC_CUDA_CHECK_LAUNCH(name)                                     \
    do {                                                                    \
        cudaError_t gpuldpc_err_ = cudaGetLastError();                      \
        const bool gpuldpc_injected_ =                                      \
            gpuldpc_err_ == cudaSuccess &&                                  \
            ::gr::gpuldpc::injected_fault_due(                              \
                ::gr::gpuldpc::detail::cuda_call_kind::launch);             \
        if (gpuldpc_injected_)                                              \
            gpuldpc_err_ = cudaErrorLaunchFailure;                          \
        if (gpuldpc_err_ != cudaSuccess)                                    \
            ::gr::gpuldpc::throw_cuda_error(                                \
                gpuldpc_err_, name, __FILE__, __LINE__, gpuldpc_injected_); \
    } while (0)

namespace gr {
namespace gpuldpc {

/*!
 * Lets \p kernel (a __global__ function) take up to the current device's
 * per-block opt-in limit of dynamic shared memory; needed for launches above
 * 48 KiB. Always the device limit rather than a launch's own size: the
 * attribute belongs to the function, so a smaller value set by one thread
 * would fail another thread's larger launch of the same kernel.
 */
inline void allow_large_shared_memory(const void* kernel)
{
    int device = 0, limit = 0;
    cudaFuncAttributes attr;
    GPULDPC_CUDA_CHECK(cudaGetDevice(&device));
    GPULDPC_CUDA_CHECK(
        cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    // the kernel's static shared memory counts against the same limit
    GPULDPC_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    GPULDPC_CUDA_CHECK(cudaFuncSetAttribute(kernel,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            limit - int(attr.sharedSizeBytes)));
}

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_CUDA_CHECK_H */
