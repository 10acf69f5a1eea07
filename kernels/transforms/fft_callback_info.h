/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_FFT_CALLBACK_INFO_H
#define INCLUDED_GPULDPC_KERNELS_FFT_CALLBACK_INFO_H

#include <cstddef>

namespace gr {
namespace gpuldpc {
namespace kernels {

/*! What the cuFFT load callback needs; lives in device memory. */
struct fft_callback_info {
    const float* window;       //!< n taps or null
    unsigned long long n;      //!< FFT size
    unsigned long long rotate; //!< input rotation (inverse fft-shift)
    int alternate;             //!< multiply by (-1)^k (forward fft-shift, even n)
};

/*! The callback's LTO fatbin, embedded at build time (empty: not built). */
extern const unsigned char fft_callback_fatbin[];
extern const size_t fft_callback_fatbin_size;
/*! Symbol name of the load callback in that fatbin. */
constexpr const char* fft_callback_symbol = "gpuldpc_fft_load";

} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_FFT_CALLBACK_INFO_H */
