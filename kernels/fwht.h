/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_FWHT_H
#define INCLUDED_GPULDPC_KERNELS_FWHT_H

// Launcher of the fast Walsh-Hadamard transform kernel (fwht.cu); plain C++.

#include <cuda_runtime_api.h>
#include <cstddef>

namespace gr {
namespace gpuldpc {
namespace kernels {

/*! What one launch transforms. Pointers are device memory; in may equal out. */
struct fwht_params {
    const float* in;
    float* out;
    size_t n_vectors;
    unsigned log2n; //!< 1 .. 15 (n = 2 .. 32768)
    float scale;    //!< multiplies every output (1, 1/n, 1/sqrt(n))
    bool sequency;  //!< output in sequency order instead of natural order
};

/*! Enqueues the transform on \p stream; throws cuda_error on a launch failure. */
void launch_fwht(const fwht_params& p, cudaStream_t stream);

/*! Dynamic shared memory one launch with these parameters uses (bytes). */
size_t fwht_shared_bytes(unsigned log2n, bool sequency);

} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_FWHT_H */
