/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_FFT_WINDOW_H
#define INCLUDED_GPULDPC_KERNELS_FFT_WINDOW_H

// Launchers of the kernels around cuFFT that give the fft block fft_vcc's
// window and shift (fft_window.cu); plain C++.

#include <cuda_runtime_api.h>
#include <cstddef>

namespace gr {
namespace gpuldpc {
namespace kernels {

/*!
 * out[v][k] = in[v][(k + rotate) % n] * (window ? window[(k + rotate) % n] : 1)
 * * (alternate ? (-1)^k : 1), for n_vectors vectors of n complex floats
 * (float2). window is device memory of n floats or null. in may equal out
 * only when rotate == 0.
 */
struct fft_prepare_params {
    const float2* in;
    float2* out;
    const float* window;
    size_t n;
    size_t n_vectors;
    size_t rotate;
    bool alternate;
};
void launch_fft_prepare(const fft_prepare_params& p, cudaStream_t stream);

/*! out[v][k] = in[v][(k + rotate) % n]; in must differ from out. */
void launch_fft_rotate(const float2* in,
                       float2* out,
                       size_t n,
                       size_t n_vectors,
                       size_t rotate,
                       cudaStream_t stream);

} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_FFT_WINDOW_H */
