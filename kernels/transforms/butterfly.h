/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_BUTTERFLY_H
#define INCLUDED_GPULDPC_KERNELS_BUTTERFLY_H

// Launcher of the generic butterfly-network kernel (butterfly.cu), after
// Onsjo, Kasai and Watanabe: a transform is a list of stages, each a list of
// index pairs (i, j) with a 2x2 kernel, run on many vectors per thread block
// in shared memory. Plain C++.

#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>

namespace gr {
namespace gpuldpc {
namespace kernels {

enum class butterfly_type { int32, float32, complex64 };
enum class butterfly_arith {
    ring, //!< y0 = (k00 a + k01 b) / div, y1 = (k10 a + k11 b) / div
    mod2, //!< y0 = a mod 2, y1 = (a + b) mod 2 (Reed-Muller over GF(2))
};

/*!
 * One launch. All pointers are device memory. Stage s covers pair entries
 * stage_offsets[s] .. stage_offsets[s+1]-1; a pair entry packs i | j << 16 and
 * has a kernel index (or kernel 0 when kernel_ids is null). Kernels are four
 * coefficients k00 k01 k10 k11 (two floats each for complex64, stored as
 * float2; integers stored as floats are exact up to 2^24) and a divisor.
 * Before the stages the vector is gathered through pre_perm (if not null),
 * after them through post_perm, and finally divided by final_div (if != 1).
 * in may equal out. A vector larger than the shared memory allowed
 * (butterfly_choose says global) runs in \p scratch, device memory of
 * scratch_vectors vectors; vectors beyond that go in several launches, so the
 * caller must not use scratch for anything else until they are done.
 */
struct butterfly_params {
    butterfly_type type;
    butterfly_arith arith;
    const void* in;
    void* out;
    size_t n_vectors;
    unsigned n;
    unsigned n_stages;
    const uint32_t* stage_offsets; // n_stages + 1
    const uint32_t* pairs;
    const uint16_t* kernel_ids; // may be null
    const float* kernels;       // 4 coefficients (float or float2) per kernel
    const float* kernel_divs;   // divisor per kernel (1, 2)
    const uint16_t* pre_perm;   // may be null
    const uint16_t* post_perm;  // may be null
    float final_div;
    size_t shared_limit;    // dynamic shared memory per block allowed; 0: no cap
    void* scratch;          // global-memory variant only; may be null otherwise
    size_t scratch_vectors; // vectors scratch holds
};

/*! How a size runs within a shared-memory limit: vectors_per_block vectors at
 * \p stride elements in shared_bytes of shared memory, or (global) one vector
 * per block in global memory. */
struct butterfly_variant {
    unsigned vectors_per_block;
    unsigned stride;
    size_t shared_bytes;
    bool global;
};

butterfly_variant butterfly_choose(butterfly_type type, unsigned n, size_t shared_limit);

/*! Enqueues the transform; throws std::invalid_argument for bad parameters
 * (also a missing scratch buffer where the global variant needs one),
 * cuda_error on a launch failure. */
void launch_butterfly(const butterfly_params& p, cudaStream_t stream);

} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_BUTTERFLY_H */
