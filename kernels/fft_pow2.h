/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_FFT_POW2_H
#define INCLUDED_GPULDPC_KERNELS_FFT_POW2_H

// Launcher of the one-pass complex FFT with the fft block's window and shift
// fused into its loads and stores (fft_pow2.cu); plain C++.

#include <cuda_runtime_api.h>
#include <cstddef>

namespace gr {
namespace gpuldpc {
namespace kernels {

/*!
 * For each of n_vectors vectors of n = 2^log2n complex floats, with
 * ri = shift_in ? n/2 : 0 and ro = shift_out ? n/2 : 0:
 *   y[j] = in[(j + ri) % n] * (window ? window[(j + ri) % n] : 1)
 *   out[(k + ro) % n] = sum_j y[j] exp(-+2 pi i jk / n)   (- forward)
 * Unnormalised in both directions, like cuFFT and FFTW. window is device
 * memory of n floats or null. in may equal out only when
 * fft_pow2_in_place_ok(log2n) is true.
 */
struct fft_pow2_params {
    const float2* in;
    float2* out;
    const float* window;
    const float2* twiddles; //!< device copy of fft_pow2_fill_twiddles' table
    size_t n_vectors;
    unsigned log2n;
    bool forward;
    bool shift_in;
    bool shift_out;
    size_t resident_blocks; //!< fft_pow2_resident_blocks for these parameters
};

/*! Smallest and largest log2n the kernel takes. */
constexpr unsigned fft_pow2_min_log2n = 5;
constexpr unsigned fft_pow2_max_log2n = 14;

/*! Entries of the twiddle table of a size (forward twiddles; the inverse
 * conjugates them). The caller keeps a device copy for its launches. */
size_t fft_pow2_twiddle_count(unsigned log2n);
void fft_pow2_fill_twiddles(unsigned log2n, float2* host_table);

/*! Blocks of the kernel for (log2n, forward, window present) that fit on the
 * current device at once, the grid of its persistent launches; also opts the
 * kernel in to the shared memory it needs. Call once per configuration and
 * device (it queries the device), not per launch. */
size_t fft_pow2_resident_blocks(unsigned log2n, bool forward, bool window);

/*! Whether one block holds a whole vector (then in may equal out). */
bool fft_pow2_in_place_ok(unsigned log2n);

/*! Enqueues the transform on \p stream; throws std::invalid_argument for a
 * size outside the range or misaligned pointers, cuda_error on a launch
 * failure. */
void launch_fft_pow2(const fft_pow2_params& p, cudaStream_t stream);

} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_FFT_POW2_H */
