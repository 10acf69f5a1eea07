/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_FWHT_H
#define INCLUDED_GPULDPC_ENGINE_FWHT_H

#include <gnuradio/gpuldpc/engine/config.h>
#include <cstddef>

namespace gr {
namespace gpuldpc {

/*!
 * \brief In-place fast Walsh-Hadamard transform of n = 2^k values, natural
 * (Hadamard) order, unnormalised: X[u] = sum_x (-1)^popcount(u & x) x[x].
 *
 * Applying it twice multiplies by n. It is the Fourier transform of the group
 * (GF(2)^k, XOR), so it turns XOR-convolution into a pointwise product.
 * n MUST be a power of two (not checked here).
 */
template <typename T>
inline void fwht_inplace(T* x, size_t n)
{
    for (size_t h = 1; h < n; h <<= 1)
        for (size_t i = 0; i < n; i += 2 * h)
            for (size_t j = i; j < i + h; ++j) {
                const T a = x[j], b = x[j + h];
                x[j] = a + b;
                x[j + h] = a - b;
            }
}

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_FWHT_H */
