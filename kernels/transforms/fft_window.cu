/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "common/cuda_check.h"
#include "transforms/fft_window.h"

namespace gr {
namespace gpuldpc {
namespace kernels {

namespace {

// One thread per output element; the window is read through the read-only
// cache, the same n taps for every vector. in and out are not __restrict__:
// without rotation they may be equal (each thread reads what it writes).
__global__ void fft_prepare_kernel(const float2* in,
                                   float2* out,
                                   const float* __restrict__ window,
                                   size_t n,
                                   size_t total,
                                   size_t rotate,
                                   bool alternate)
{
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
         i += size_t(gridDim.x) * blockDim.x) {
        const size_t v = i / n, k = i - v * n;
        size_t src = k + rotate;
        if (src >= n)
            src -= n;
        float2 x = in[v * n + src];
        float w = window ? __ldg(window + src) : 1.0f;
        if (alternate && (k & 1))
            w = -w;
        out[i] = make_float2(x.x * w, x.y * w);
    }
}

__global__ void fft_rotate_kernel(const float2* __restrict__ in,
                                  float2* __restrict__ out,
                                  size_t n,
                                  size_t total,
                                  size_t rotate)
{
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
         i += size_t(gridDim.x) * blockDim.x) {
        const size_t v = i / n, k = i - v * n;
        size_t src = k + rotate;
        if (src >= n)
            src -= n;
        out[i] = in[v * n + src];
    }
}

unsigned grid_for(size_t total)
{
    const size_t blocks = (total + 255) / 256;
    return unsigned(blocks < 65536 * 8 ? blocks : 65536 * 8);
}

} // namespace

void launch_fft_prepare(const fft_prepare_params& p, cudaStream_t stream)
{
    const size_t total = p.n * p.n_vectors;
    if (total == 0)
        return;
    fft_prepare_kernel<<<grid_for(total), 256, 0, stream>>>(
        p.in, p.out, p.window, p.n, total, p.rotate, p.alternate);
    GPULDPC_CUDA_CHECK_LAUNCH("fft_prepare_kernel");
}

void launch_fft_rotate(const float2* in,
                       float2* out,
                       size_t n,
                       size_t n_vectors,
                       size_t rotate,
                       cudaStream_t stream)
{
    const size_t total = n * n_vectors;
    if (total == 0)
        return;
    fft_rotate_kernel<<<grid_for(total), 256, 0, stream>>>(in, out, n, total, rotate);
    GPULDPC_CUDA_CHECK_LAUNCH("fft_rotate_kernel");
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
