/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_FAULT_INJECTION_H
#define INCLUDED_GPULDPC_ENGINE_FAULT_INJECTION_H

#include <gnuradio/gpuldpc/engine/config.h>
#include <cstdint>
#include <string>

namespace gr {
namespace gpuldpc {

/*!
 * \brief Injected GPU faults, for tests of the paths that fall back to the
 * CPU.
 *
 * The engine's CUDA calls that can fail in use go through one check (a
 * failed call becomes a cuda_error; frees, destroys and cuFFT's own calls do
 * not). With a fault armed, the nth checked call of the chosen kind from the
 * moment it was armed fails once, as a real failure would:
 * - "allocation": cudaMalloc, cudaMallocHost (device workspaces, page-locked
 *   staging), reported as cudaErrorMemoryAllocation; the call is not made;
 * - "launch": kernel launches, reported as cudaErrorLaunchFailure; a
 *   <<<>>> launch is checked after it was made (the kernel runs), a
 *   cudaLaunchKernel, cooperative or CUDA graph launch is not made;
 * - "copy": cudaMemcpy* and cudaMemset*, reported as cudaErrorUnknown; the
 *   call is not made;
 * - "sync": waits (cudaStreamSynchronize, cudaEventSynchronize,
 *   cudaDeviceSynchronize), reported as cudaErrorLaunchFailure (how a failed
 *   kernel shows) after the wait.
 * The cuda_error's message ends with "(injected fault)".
 *
 * The environment variable GPULDPC_INJECT_CUDA_FAULT=KIND:N (e.g.
 * "launch:3") arms a fault when the library loads, with a line on stderr, so
 * that any program (a flowgraph, gpuldpc-sim) can be tested without changes.
 *
 * Threads: arming and the checks MAY run on any threads; with several threads
 * making CUDA calls, which call is the nth is up to the scheduler.
 */

/*!
 * Arms a fault: the \p nth (>= 1) checked CUDA call of kind \p kind
 * ("allocation", "launch", "copy" or "sync") from now on fails. Replaces a fault
 * armed before. Throws std::invalid_argument naming the argument otherwise.
 */
GPULDPC_ENGINE_API void inject_cuda_fault(const std::string& kind, uint64_t nth);

/*! Disarms a fault that has not fired yet. */
GPULDPC_ENGINE_API void clear_cuda_fault();

/*! How many injected faults have fired in this process. */
GPULDPC_ENGINE_API uint64_t injected_cuda_faults();


} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_FAULT_INJECTION_H */
