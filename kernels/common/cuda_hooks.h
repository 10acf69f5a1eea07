/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_CUDA_HOOKS_H
#define INCLUDED_GPULDPC_KERNELS_CUDA_HOOKS_H

// What the kernels ask of the library that links them, declared here and
// defined in the engine (device.cc, fault_injection.cc), so that no kernel
// includes an engine header: the exception a failed CUDA call becomes (the
// public cuda_error, which callers catch) and the fault-injection hook of
// the tests (the public fault_injection.h arms it). Plain C++.

#include <atomic>
#include <string>

#define GPULDPC_KERNELS_HOOK __attribute__((visibility("default")))

namespace gr {
namespace gpuldpc {

//! Throws cuda_error(\p message, \p code).
[[noreturn]] GPULDPC_KERNELS_HOOK void raise_cuda_error(const std::string& message,
                                                        int code);

namespace detail {
enum class cuda_call_kind : int { other = 0, allocation, launch, copy, sync };
//! nonzero while a fault is armed: the checks stay a load when none is
GPULDPC_KERNELS_HOOK extern std::atomic<int> g_cuda_fault_armed;
//! Whether this call (of \p kind) is the one to fail; counts it.
GPULDPC_KERNELS_HOOK bool cuda_fault_due(cuda_call_kind kind);
//! The kind of a CUDA call from its source text ("cudaMemcpyAsync(...)").
GPULDPC_KERNELS_HOOK cuda_call_kind cuda_call_kind_of(const char* call_text);
} // namespace detail

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_CUDA_HOOKS_H */
