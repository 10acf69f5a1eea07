/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_GFQ_COMMON_CUH
#define INCLUDED_GPULDPC_KERNELS_GFQ_COMMON_CUH

// Device pieces shared by the FFT-BP kernel families: the CPU reference's
// constants, input sanitising, warp reductions, the special-function exp/log,
// the storage of check-to-variable messages and a frame's results. Internal to
// the kernels; included by .cu files only.

#include "gfq/ldpc_fft_bp.h"
#include "gfq/sizes.h"
#include <cuda_fp16.h>
#include <type_traits>
#include <cstddef>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace gfq {

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

__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(full_mask, v, o);
    return v;
}

__device__ __forceinline__ float warp_max(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(full_mask, v, o));
    return v;
}

// Maximum over the G lanes of an edge (lanes whose index differs only in the
// low log2(G) bits).
template <unsigned G>
__device__ __forceinline__ float group_max(float v)
{
#pragma unroll
    for (unsigned o = 1; o < G; o <<= 1)
        v = fmaxf(v, __shfl_xor_sync(full_mask, v, o));
    return v;
}

// The largest value and its index; the smallest index among equal values,
// as std::max_element in the CPU reference.
// The same over aligned groups of Lanes lanes (each group its own result).
template <unsigned Lanes>
__device__ __forceinline__ void group_argmax(float& v, unsigned& i)
{
#pragma unroll
    for (unsigned o = Lanes / 2; o > 0; o >>= 1) {
        const float ov = __shfl_xor_sync(full_mask, v, o);
        const unsigned oi = __shfl_xor_sync(full_mask, i, o);
        if (ov > v || (ov == v && oi < i)) {
            v = ov;
            i = oi;
        }
    }
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

__device__ __forceinline__ float exp_ftz(float x) { return exp2_ftz(x * log2e); }

__device__ __forceinline__ float log_ftz(float x) { return log2_ftz(x) * ln2; }

// Butterflies over register index bits [B0, B1) of a[V].
template <unsigned V, unsigned B0, unsigned B1>
__device__ __forceinline__ void register_butterflies(float (&a)[V])
{
#pragma unroll
    for (unsigned h = 1u << B0; h < (1u << B1); h <<= 1) {
#pragma unroll
        for (unsigned r = 0; r < V; ++r) {
            if (!(r & h)) {
                const float u = a[r], w = a[r + h];
                a[r] = u + w;
                a[r + h] = u - w;
            }
        }
    }
}

// Check-to-variable messages are stored as M: float, or __half (rounded to
// nearest even when made; every later use sees the stored value).
template <typename M>
constexpr bool half_storage = std::is_same<M, __half>::value;

__device__ __forceinline__ float message_value(float m) { return m; }
__device__ __forceinline__ float message_value(__half m) { return __half2float(m); }
template <typename M>
__device__ __forceinline__ M to_message(float x)
{
    if constexpr (half_storage<M>)
        return __float2half_rn(x);
    else
        return x;
}

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
        frame_status st;
        st.converged = unsat == 0;
        st.iterations = iterations;
        st.syndrome_weight = unsat;
        st.invalid_inputs = invalid;
        p.status[frame] = st;
    }
}

} // namespace

} // namespace gfq
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_GFQ_COMMON_CUH */
