/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_GFQ_TRAITS_CUH
#define INCLUDED_GPULDPC_KERNELS_GFQ_TRAITS_CUH

// The compile-time shape of the check updates and the kernels built on them
// (check_traits), and the state of a frame as the check and variable updates
// see it (frame_state). Internal to the kernels.

#include "gfq/common.cuh"
#include <cuda_fp16.h>
#include <type_traits>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace gfq {

namespace {

/*!
 * A check update's field (q = Q), family (rows, registers or tensor_cores),
 * a warp's edge slots (registers: 4 or 8, else 0) and stored message type M
 * (float or __half); with the per-frame kernel's threads and the blocks an SM
 * its registers must allow.
 */
template <unsigned Q, fft_bp_family Family, unsigned EdgeSlots, typename M>
struct check_traits {
    static_assert(Q >= 2 && Q <= 256 && (Q & (Q - 1)) == 0, "q: a power of two, 2..256");
    static_assert(std::is_same<M, float>::value || std::is_same<M, __half>::value,
                  "messages: float or __half");
    static_assert(Family == fft_bp_family::rows || Family == fft_bp_family::registers ||
                      Family == fft_bp_family::tensor_cores,
                  "a check update: rows, registers or tensor cores");
    static_assert(Family != fft_bp_family::registers || (EdgeSlots == 4 && Q >= 64) ||
                      (EdgeSlots == 8 && (Q == 64 || Q == 128)),
                  "registers: 4 edge slots for q >= 64, 8 for q = 64 or 128");
    static_assert(Family == fft_bp_family::registers || EdgeSlots == 0,
                  "edge slots are the register family's");
    static_assert(Family != fft_bp_family::tensor_cores || Q == 64,
                  "tensor cores: q = 64");

    static constexpr unsigned q = Q, m = log2_of(Q);
    static constexpr fft_bp_family family = Family;
    static constexpr unsigned edge_slots = EdgeSlots;
    using message = M;
    static constexpr bool half = half_storage<M>;
    static constexpr unsigned threads = frame_threads(Family, Q, EdgeSlots, half);
    static constexpr unsigned min_blocks = frame_min_blocks(Family, Q, EdgeSlots, half);
};

template <unsigned Q, typename M>
using rows_traits = check_traits<Q, fft_bp_family::rows, 0, M>;

template <typename M>
struct frame_state {
    const uint8_t* gf_mul; // q * q: the graph's table, or its copy on chip
    // q * q, tensor-core family: position of h x in an even edge's
    // check-to-variable row (an odd edge's: ^ 8; mma_c2v_position)
    const uint8_t* c2v_position;
    // tensor-core family: the graph in shared memory, an edge as a word
    const uint32_t* check_offsets;    // checks + 1
    const uint32_t* check_edges;      // variable << 8 | coefficient inverse
    const uint32_t* variable_offsets; // n + 1
    const uint32_t* variable_edges;   // edge << 8 | coefficient
    const float* prior;
    float* app;
    M* c2v;
    uint8_t* hard;
    float* spectra; // max_check_degree * q: transforms of one check's messages
    float* work;    // max_check_degree * q: products, then their transforms
    float* vin;     // max_check_degree * q: the check's variable-to-check messages
};

} // namespace

} // namespace gfq
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_GFQ_TRAITS_CUH */
