/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_LDPC_FFT_BP_COMMON_CUH
#define INCLUDED_GPULDPC_KERNELS_LDPC_FFT_BP_COMMON_CUH

// Pieces shared by the FFT-BP kernel families (ldpc_fft_bp.cu,
// ldpc_fft_bp_edges.cu): the CPU reference's constants, input sanitising,
// the special-function exp/log and the launch plumbing. Internal to the
// kernels; included by .cu files only.

#include "cuda_check.h"
#include "ldpc_fft_bp.h"
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>
#include <type_traits>
#include <cstddef>

namespace gr {
namespace gpuldpc {
namespace kernels {

// What a launch does: set the kernels' attributes (prepare), enqueue them
// (enqueue: legal while a stream is captured into a CUDA graph), or both.
enum class launch_mode { prepare, enqueue, both };

namespace {

constexpr float log_floor = 30.0f;   // log_prob_domain::log_floor
constexpr float input_limit = 64.0f; // batch_decoder::max_input_magnitude
constexpr unsigned full_mask = 0xffffffffu;

__device__ __forceinline__ unsigned warp_sum(unsigned v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(full_mask, v, o);
    return v;
}

// NaN and +-Inf become 0 (an erasure); finite values are clipped.
__device__ __forceinline__ float sanitize(float x, unsigned& invalid)
{
    if (!isfinite(x)) {
        ++invalid;
        return 0.0f;
    }
    return fminf(fmaxf(x, -input_limit), input_limit);
}

__host__ __device__ constexpr unsigned log2_of(unsigned q)
{
    return q <= 1 ? 0 : 1 + log2_of(q >> 1);
}

// exp and log by the special function unit, subnormals flushed to zero (the
// messages are normalised to a maximum of 1 before exp and floored before
// log, so subnormals carry nothing; without the flush, each call takes three
// more instructions to scale them)
__device__ __forceinline__ float exp2_ftz(float x)
{
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

__device__ __forceinline__ float log2_ftz(float x)
{
    float y;
    asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

constexpr float log2e = 1.4426950408889634f, ln2 = 0.6931471805599453f;

// static __shared__ counters and what the runtime reserves beside them
constexpr size_t static_shared_bytes = 64;

// Beyond 48 KiB with the kernel's static counters, dynamic shared memory is
// opted into: up to the device's limit less those counters (the attribute is
// the function's, so always the same value, whatever the launch).
template <typename Kernel>
void opt_in_shared_memory(Kernel kernel)
{
    allow_large_shared_memory(reinterpret_cast<const void*>(kernel));
}

template <typename M>
constexpr bool half_storage = std::is_same<M, __half>::value;

// A frame's information (and codeword) bits, MSB first, from its hard
// decisions; by the whole block.
template <unsigned m>
__device__ void
write_frame_bits(const fft_bp_params& p, size_t frame, const uint8_t* hard)
{
    const fft_bp_graph& g = p.graph;
    const unsigned bits = g.k * m;
    uint8_t* info = p.info_bits + frame * (p.pack_info_bits ? (bits + 7) / 8 : bits);
    auto info_bit = [&](unsigned t) {
        const unsigned i = t / m, b = t - i * m;
        return (hard[g.info_positions[i]] >> (m - 1 - b)) & 1;
    };
    if (p.pack_info_bits) {
        for (unsigned byte = threadIdx.x; byte < (bits + 7) / 8; byte += blockDim.x) {
            unsigned packed = 0;
            for (unsigned t = 8 * byte; t < min(8 * byte + 8, bits); ++t)
                packed |= unsigned(info_bit(t)) << (7 - (t - 8 * byte));
            info[byte] = uint8_t(packed);
        }
    } else {
        for (unsigned t = threadIdx.x; t < bits; t += blockDim.x)
            info[t] = info_bit(t);
    }
    if (p.codeword_bits) {
        uint8_t* cw = p.codeword_bits + frame * size_t(g.n) * m;
        for (unsigned t = threadIdx.x; t < g.n * m; t += blockDim.x) {
            const unsigned v = t / m, b = t - v * m;
            cw[t] = (hard[v] >> (m - 1 - b)) & 1;
        }
    }
}

// The bits and the status of a frame decoded by one block, after its last
// barrier.
template <unsigned m>
__device__ void write_frame_result(const fft_bp_params& p,
                                   size_t frame,
                                   const uint8_t* hard,
                                   unsigned unsat,
                                   unsigned iterations,
                                   unsigned invalid)
{
    write_frame_bits<m>(p, frame, hard);
    if (threadIdx.x == 0) {
        fft_bp_status st;
        st.converged = unsat == 0;
        st.iterations = iterations;
        st.syndrome_weight = unsat;
        st.invalid_inputs = invalid;
        p.status[frame] = st;
    }
}

// A kernel that decodes a frame a block (dynamic shared memory
// p.variant.shared_bytes, opted into beyond 48 KiB): prepare sets its
// attributes, enqueue clears the status and launches it.
template <typename Kernel>
void launch_per_frame(Kernel kernel,
                      const fft_bp_params& p,
                      unsigned threads,
                      cudaStream_t stream,
                      launch_mode mode,
                      const char* name)
{
    if (mode != launch_mode::enqueue &&
        p.variant.shared_bytes + static_shared_bytes > 48 * 1024)
        opt_in_shared_memory(kernel);
    if (mode == launch_mode::prepare)
        return;
    // the kernel writes the status fields, not the struct's padding, which
    // the engine copies to the host with them
    GPULDPC_CUDA_CHECK(
        cudaMemsetAsync(p.status, 0, p.n_frames * sizeof(fft_bp_status), stream));
    kernel<<<unsigned(p.n_frames), threads, p.variant.shared_bytes, stream>>>(p);
    GPULDPC_CUDA_CHECK_LAUNCH(name);
}

} // namespace

//! The edge-thread family (fft_bp_variant::edge_threads), ldpc_fft_bp_edges.cu
void launch_fft_bp_edges(const fft_bp_params& p, cudaStream_t stream, launch_mode mode);
//! threads of an edge-thread block for graph \p g (with its layout)
unsigned fft_bp_edge_threads(const fft_bp_graph& g);

} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_LDPC_FFT_BP_COMMON_CUH */
