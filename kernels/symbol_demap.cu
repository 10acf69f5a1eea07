/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "cuda_check.h"
#include "symbol_demap.h"
#include <algorithm>
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
            const float ll = -__fmul_rn(d, inv_n0);
            out[x] = ll;
            top = fmaxf(top, ll);
        }
        for (unsigned x = 0; x < p.q; ++x)
            out[x] = __fsub_rn(out[x], top);
    }
}

} // namespace

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
