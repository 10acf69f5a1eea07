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

/*!
 * What one launch transforms. Pointers are device memory, 16-byte aligned
 * (n = 2: 8-byte); in equals out (in place, see fwht_choose) or the two do
 * not overlap.
 */
struct fwht_params {
    const float* in;
    float* out;
    size_t n_vectors;
    unsigned log2n;      //!< 1 .. 15 (n = 2 .. 32768)
    float scale;         //!< multiplies every output (1, 1/n, 1/sqrt(n))
    bool sequency;       //!< output in sequency order instead of natural order
    size_t shared_limit; //!< dynamic shared memory per block allowed; 0: no cap
};

/*! The kernel that serves a size: blocks of 2^piece_log2n floats, each vector
 * split in 2^split_log2 pieces, shared_bytes of dynamic shared memory per
 * block. piece_log2n == 0: none fits (in place under a tight limit). */
struct fwht_variant {
    unsigned piece_log2n;
    unsigned split_log2;
    size_t shared_bytes;
};

/*! The variant launch_fwht takes for these parameters (shared_limit 0: no cap).
 * Vectors whose whole-vector block does not fit are split (pieces of 8192
 * floats, 33 KiB), which works only out of place. */
fwht_variant
fwht_choose(unsigned log2n, bool sequency, bool in_place, size_t shared_limit);

/*! Enqueues the transform on \p stream; throws std::invalid_argument for bad
 * parameters (among them in place where fwht_choose finds no variant),
 * cuda_error on a launch failure. */
void launch_fwht(const fwht_params& p, cudaStream_t stream);

/*! Dynamic shared memory of the whole-vector kernel for a size (bytes). */
size_t fwht_shared_bytes(unsigned log2n, bool sequency);

} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_FWHT_H */
