/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// cuFFT load callback, compiled to LTO IR and linked into cuFFT's kernels at
// plan time (cufftXtSetJITCallback): the window, the input rotation of an
// inverse fft-shift and the (-1)^k modulation of a forward fft-shift are
// applied while cuFFT reads its input, so they cost no pass of their own.
// This file is built into a fatbin of LTO IR only (see lib/CMakeLists.txt).

#include "transforms/fft_callback_info.h"
#include <cufftXt.h>

extern "C" __device__ cufftComplex gpuldpc_fft_load(void* data_in,
                                                    unsigned long long offset,
                                                    void* caller_info,
                                                    void* /*shared*/)
{
    const auto* info =
        static_cast<const gr::gpuldpc::kernels::fft_callback_info*>(caller_info);
    const unsigned long long n = info->n;
    const unsigned long long v = offset / n, k = offset - v * n;
    unsigned long long src = k + info->rotate;
    if (src >= n)
        src -= n;
    const cufftComplex x = static_cast<const cufftComplex*>(data_in)[v * n + src];
    float w = info->window ? info->window[src] : 1.0f;
    if (info->alternate && (k & 1))
        w = -w;
    return make_cuComplex(x.x * w, x.y * w);
}
