/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "common/cuda_check.h"
#include "common/symbol_demap.h"
#include <algorithm>
#include <cfloat>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuldpc {
namespace kernels {

namespace {

constexpr unsigned demap_threads = 256;

// A thread a symbol: q distances, then less their largest. Products and sums
// rounded one by one (no fused multiply-add), as the CPU computes them.
__global__ void __launch_bounds__(demap_threads)
    symbol_demap_kernel(symbol_demap_params p)
{
    const size_t total = p.n_frames * p.symbols_per_frame;
    for (size_t s = size_t(blockIdx.x) * blockDim.x + threadIdx.x; s < total;
         s += size_t(gridDim.x) * blockDim.x) {
        const float2 y = p.symbols[s];
        float* out = p.log_likelihoods + s * p.q;
        if (!isfinite(y.x) || !isfinite(y.y)) {
            for (unsigned x = 0; x < p.q; ++x)
                out[x] = __int_as_float(0x7fc00000); // NaN
            continue;
        }
        const float inv_n0 = 1.0f / p.noise_var[s / p.symbols_per_frame];
        float top = -INFINITY;
        for (unsigned x = 0; x < p.q; ++x) {
            const float2 pt = __ldg(p.points + x);
            const float dx = __fsub_rn(y.x, pt.x), dy = __fsub_rn(y.y, pt.y);
            const float d = __fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy));
            // saturated: a tiny N0 must not turn far points into -inf
            const float ll = fmaxf(-__fmul_rn(d, inv_n0), -FLT_MAX);
            out[x] = ll;
            top = fmaxf(top, ll);
        }
        for (unsigned x = 0; x < p.q; ++x)
            out[x] = __fsub_rn(out[x], top);
    }
}

constexpr unsigned max_points = 256;

__device__ inline float neg_metric(float2 y, float2 pt, float inv_n0)
{
    const float dx = __fsub_rn(y.x, pt.x), dy = __fsub_rn(y.y, pt.y);
    // saturated as on the CPU: a tiny N0 must not turn far points into -inf
    return fmaxf(-__fmul_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), inv_n0),
                 -FLT_MAX);
}

// A thread a symbol; the points in shared memory. First pass: the largest
// metric of each bit value; second (exact only): the sums relative to them.
template <unsigned Bits>
__global__ void __launch_bounds__(demap_threads) bit_demap_kernel(bit_demap_params p)
{
    static_assert(Bits >= 1 && Bits <= 8, "1 to 8 bits a symbol");
    constexpr unsigned q = 1u << Bits;
    __shared__ float2 points[max_points];
    for (unsigned x = threadIdx.x; x < q; x += blockDim.x)
        points[x] = p.points[x];
    __syncthreads();
    const float inv_n0 = 1.0f / p.noise_var;
    for (size_t s = size_t(blockIdx.x) * blockDim.x + threadIdx.x; s < p.n;
         s += size_t(gridDim.x) * blockDim.x) {
        const float2 y = p.symbols[s];
        float* out = p.llr + s * Bits;
        if (!isfinite(y.x) || !isfinite(y.y)) {
#pragma unroll
            for (unsigned b = 0; b < Bits; ++b)
                out[b] = __int_as_float(0x7fc00000); // NaN
            continue;
        }
        float best[Bits][2];
#pragma unroll
        for (unsigned b = 0; b < Bits; ++b)
            best[b][0] = best[b][1] = -INFINITY;
        for (unsigned x = 0; x < q; ++x) {
            const float m = neg_metric(y, points[x], inv_n0);
#pragma unroll
            for (unsigned b = 0; b < Bits; ++b) {
                float& v = best[b][(x >> (Bits - 1 - b)) & 1];
                v = fmaxf(v, m);
            }
        }
        if (p.max_log) {
#pragma unroll
            for (unsigned b = 0; b < Bits; ++b)
                out[b] = __fsub_rn(best[b][1], best[b][0]);
            continue;
        }
        float sum[Bits][2];
#pragma unroll
        for (unsigned b = 0; b < Bits; ++b)
            sum[b][0] = sum[b][1] = 0.0f;
        for (unsigned x = 0; x < q; ++x) {
            const float m = neg_metric(y, points[x], inv_n0);
#pragma unroll
            for (unsigned b = 0; b < Bits; ++b) {
                const unsigned v = (x >> (Bits - 1 - b)) & 1;
                sum[b][v] += expf(m - best[b][v]);
            }
        }
#pragma unroll
        for (unsigned b = 0; b < Bits; ++b)
            out[b] = (best[b][1] + logf(sum[b][1])) - (best[b][0] + logf(sum[b][0]));
    }
}

} // namespace

void launch_bit_demap(const bit_demap_params& p, cudaStream_t stream)
{
    if (p.bits < 1 || p.bits > 8)
        throw std::invalid_argument("launch_bit_demap: bits=" + std::to_string(p.bits) +
                                    " is out of range; allowed: 1 .. 8");
    if (p.n == 0)
        return;
    const size_t blocks =
        std::min<size_t>((p.n + demap_threads - 1) / demap_threads, size_t(1) << 16);
    switch (p.bits) {
#define GPULDPC_BIT_DEMAP_CASE(B)                                               \
    case B:                                                                     \
        bit_demap_kernel<B><<<unsigned(blocks), demap_threads, 0, stream>>>(p); \
        break;
        GPULDPC_BIT_DEMAP_CASE(1)
        GPULDPC_BIT_DEMAP_CASE(2)
        GPULDPC_BIT_DEMAP_CASE(3)
        GPULDPC_BIT_DEMAP_CASE(4)
        GPULDPC_BIT_DEMAP_CASE(5)
        GPULDPC_BIT_DEMAP_CASE(6)
        GPULDPC_BIT_DEMAP_CASE(7)
        GPULDPC_BIT_DEMAP_CASE(8)
#undef GPULDPC_BIT_DEMAP_CASE
    }
    GPULDPC_CUDA_CHECK_LAUNCH("bit_demap_kernel");
}

void launch_symbol_demap(const symbol_demap_params& p, cudaStream_t stream)
{
    if (p.q < 2 || p.q > 256)
        throw std::invalid_argument("launch_symbol_demap: q=" + std::to_string(p.q) +
                                    " is out of range; allowed: 2 .. 256");
    const size_t total = p.n_frames * p.symbols_per_frame;
    if (total == 0)
        return;
    const size_t blocks =
        std::min<size_t>((total + demap_threads - 1) / demap_threads, size_t(1) << 16);
    symbol_demap_kernel<<<unsigned(blocks), demap_threads, 0, stream>>>(p);
    GPULDPC_CUDA_CHECK_LAUNCH("symbol_demap_kernel");
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
