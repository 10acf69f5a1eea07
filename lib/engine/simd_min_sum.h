/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_SIMD_MIN_SUM_H
#define INCLUDED_GPULDPC_ENGINE_SIMD_MIN_SUM_H

// The 8-bit min-sum decoder of binary codes with frames in SIMD lanes, one
// kernel per instruction set (Google Highway, simd_min_sum.cc). The
// arithmetic is the reference's (check_rules.h, fixed_point_min_sum_rule with
// each min_sum_magnitude_rule, and the schedules of cpu_decoder.cc)
// integer for integer, so its frames equal the reference's and the GPU's.
// Lane l of every array below belongs to frame l of the group; beliefs are
// 16-bit (the layered beliefs stay within +-fixed_point_belief_limit, the
// flooding sums within +-127 (1 + variable degree)), messages 8-bit.

#include <gnuradio/gpuldpc/engine/decoder.h>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace detail {

//! The code and the rule's constants, shared by every group of a decoder
struct simd_graph {
    uint32_t n = 0, m = 0;
    const uint32_t* check_offsets = nullptr;    //!< m + 1, into the edges
    const uint32_t* edge_variable = nullptr;    //!< edges in check order
    const uint32_t* check_order = nullptr;      //!< layered: the checks in turn
    const uint32_t* variable_offsets = nullptr; //!< flooding: n + 1
    const uint32_t* variable_edges = nullptr;   //!< flooding: edges by variable
    uint32_t max_check_degree = 0;
    int16_t offset_q = 0, scale_q = 16; //!< fixed_point_constants (8-bit)
    float scale = 1.0f, offset = 0.0f;  //!< min_sum_scale, min_sum_offset (float)
    bool sum_product = false;           //!< float: the tanh rule, else min-sum
    min_sum_magnitude_rule magnitude = min_sum_magnitude_rule::smallest;
    //! two_smallest_table()'s entries 0 .. 15; entry 15 and every later one
    //! MUST be 0
    int8_t table[16] = {};
    bool layered = true;
    bool early_termination = true;
    unsigned max_iterations = 0;
};

//! One group of lanes() frames; every array holds lanes() values an entry
struct min_sum8_group {
    const int16_t* prior = nullptr; //!< [n] channel values (+-127 at most)
    int16_t* beliefs = nullptr;     //!< [n] work
    int16_t* decided = nullptr;     //!< [n] out: the beliefs decided on (sign)
    int8_t* c2v = nullptr;          //!< [edges] work
    int8_t* v2c = nullptr;          //!< [edges] work, flooding only
    int16_t* inputs = nullptr;      //!< [max_check_degree] work, layered only
    uint32_t* iterations = nullptr; //!< [1] out, one a lane
    uint32_t* syndrome = nullptr;   //!< [1] out: unsatisfied checks, one a lane
};

//! One group of lanes() frames of the float rules; every array holds
//! lanes() values an entry
struct float_group {
    const float* prior = nullptr;   //!< [n] channel LLRs, log(P(0)/P(1))
    float* beliefs = nullptr;       //!< [n] work
    float* decided = nullptr;       //!< [n] out: the beliefs decided on (sign)
    float* c2v = nullptr;           //!< [edges] work
    float* v2c = nullptr;           //!< [edges] work, flooding only
    float* inputs = nullptr;        //!< [3 (max_check_degree + 1)] work
    uint32_t* iterations = nullptr; //!< [1] out, one a lane
    uint32_t* syndrome = nullptr;   //!< [1] out: unsatisfied checks, one a lane
};

using float_decode_fn = void (*)(const simd_graph&, const float_group&);

struct float_kernel {
    float_decode_fn decode = nullptr;
    size_t lanes = 0;   //!< frames a group
    std::string target; //!< the instruction set, Highway's name
};

/*!
 * The float kernels (min-sum with the smallest magnitude rule, equal to the
 * reference's float min-sum; sum-product by the tanh rule in single
 * precision with phi from sum_product_phi_table(), within the table's steps
 * of the reference's double-precision one) this CPU runs, best first.
 */
std::vector<float_kernel> float_kernels();

//! A float x >= 0 falls in bucket bits(x) >> sum_product_phi_shift: 8
//! exponent bits and the top 7 mantissa bits (a step of 2^-7 relative).
constexpr unsigned sum_product_phi_shift = 16;

/*!
 * phi(x) = -log tanh(x / 2) of the float sum-product, one value a bucket
 * (2^15 floats, 128 KiB): -log tanh of the bucket's middle in double
 * precision, at most 80 (zero and the smallest magnitudes), 0 for infinity
 * and NaN, and 0 from x = 38 on, where tanh rounds to 1 in double precision
 * as the reference's products do. Made once, on the first call; safe to
 * call from any thread.
 */
const float* sum_product_phi_table();

using min_sum8_decode_fn = void (*)(const simd_graph&, const min_sum8_group&);

struct min_sum8_kernel {
    min_sum8_decode_fn decode = nullptr;
    size_t lanes = 0;   //!< frames a group
    std::string target; //!< the instruction set, Highway's name (e.g. "AVX2")
};

/*!
 * The kernels compiled into the library that this CPU runs, best first
 * (e.g. AVX3, AVX2, SSE4, EMU128 on an AVX-512 machine).
 */
std::vector<min_sum8_kernel> min_sum8_kernels();

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_SIMD_MIN_SUM_H */
