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
 * How the kernel serves one size within a shared-memory limit (from
 * fft_pow2_choose): blocks of 2^piece_log2n points, each vector split in
 * 2^split_log2 pieces by decimation in frequency, \p buffers shared-memory
 * buffers per vector (two: one barrier per pass), the window copied to shared
 * memory or read from global memory. piece_log2n == 0: no variant fits (the
 * caller uses cuFFT).
 */
struct fft_pow2_variant {
    unsigned log2n = 0;
    unsigned piece_log2n = 0;
    unsigned split_log2 = 0;
    unsigned buffers = 2;
    bool window_shared = false;
    size_t shared_bytes = 0; //!< dynamic shared memory per block
};

/*!
 * For each of n_vectors vectors of n = 2^variant.log2n complex floats, with
 * ri = shift_in ? n/2 : 0 and ro = shift_out ? n/2 : 0:
 *   y[j] = in[(j + ri) % n] * (window ? window[(j + ri) % n] : 1)
 *   out[(k + ro) % n] = sum_j y[j] exp(-+2 pi i jk / n)   (- forward)
 * Unnormalised in both directions, like cuFFT and FFTW. window is device
 * memory of n floats or null. in may equal out only when
 * fft_pow2_in_place_ok(variant); otherwise the two must not overlap.
 */
struct fft_pow2_params {
    const float2* in;
    float2* out;
    const float* window;
    const float2* twiddles; //!< device copy of fft_pow2_fill_twiddles' table
    size_t n_vectors;
    fft_pow2_variant variant;
    bool forward;
    bool shift_in;
    bool shift_out;
    size_t resident_blocks; //!< fft_pow2_resident_blocks for these parameters
};

/*! Smallest and largest log2n the kernel takes. */
constexpr unsigned fft_pow2_min_log2n = 5;
constexpr unsigned fft_pow2_max_log2n = 14;

/*! The fastest variant for a size (with or without a window) whose shared
 * memory fits \p shared_limit bytes (0: no cap); throws std::invalid_argument
 * for a size outside the range. */
fft_pow2_variant fft_pow2_choose(unsigned log2n, bool window, size_t shared_limit);

/*! Entries of the twiddle table of a variant (forward twiddles; the inverse
 * conjugates them). The caller keeps a device copy for its launches. */
size_t fft_pow2_twiddle_count(const fft_pow2_variant& variant);
void fft_pow2_fill_twiddles(const fft_pow2_variant& variant, float2* host_table);

/*! Blocks of the variant's kernel (forward or inverse) that fit on the current
 * device at once, the grid of its persistent launches; also opts the kernel in
 * to the shared memory it needs. Call once per configuration and device (it
 * queries the device), not per launch. */
size_t fft_pow2_resident_blocks(const fft_pow2_variant& variant, bool forward);

/*! Whether one block holds a whole vector (then in may equal out). */
bool fft_pow2_in_place_ok(const fft_pow2_variant& variant);

/*! Enqueues the transform on \p stream; throws std::invalid_argument for a
 * variant not from fft_pow2_choose, misaligned or overlapping pointers,
 * cuda_error on a launch failure. */
void launch_fft_pow2(const fft_pow2_params& p, cudaStream_t stream);

} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_FFT_POW2_H */
