/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_FIXED_POINT_RULE_H
#define INCLUDED_GPULDPC_ENGINE_FIXED_POINT_RULE_H

// The integer constants of the 8-bit min-sum rule (decoder.h,
// message_precision::int8), computed here once for the CPU reference and the
// GPU decoder: their results are equal frame for frame only while both take
// the same constants.

#include <gnuradio/gpuldpc/engine/decoder.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace gr {
namespace gpuldpc {
namespace detail {

//! The 8-bit rule's layered beliefs stay within +-this (decoder.h; the GPU
//! kernels' kernels::min_sum_fixed8_belief_limit, the same number)
constexpr int32_t fixed_point_belief_limit = 1920;

/*! min_sum_magnitude_rule::three_smallest subtracts the offset at checks of
 *  this many edges or more, in the float and the 8-bit rule (the GPU
 *  kernels' kernels::min_sum_three_smallest_offset_degree, the same number):
 *  below, its messages leave out at most one input (none at 3 edges, where
 *  they are belief propagation's), and an offset only takes from them. */
constexpr unsigned three_smallest_offset_degree = 5;

struct fixed_point_constants {
    int32_t scale_q;  //!< round(16 * min_sum_scale), 1 .. 16
    int32_t offset_q; //!< round(min_sum_offset * llr_scale), 0 .. 128
    //! 8-bit input: values beyond int8_limit (the float input's clip,
    //! batch_decoder::max_input_magnitude, in steps) become +-int8_clip
    float int8_limit;
    int32_t int8_clip; //!< round(min(int8_limit, 127))
    float int8_step;   //!< float rules: an 8-bit input value is this much LLR
};

inline fixed_point_constants fixed_point_constants_of(const decoder_config& c)
{
    fixed_point_constants k;
    // batch_decoder checks that round(16 * scale) >= 1 for int8 messages
    k.scale_q = std::max(1, int32_t(std::nearbyint(16.0f * c.min_sum_scale)));
    // (a decoder resolves min_sum_offset_auto before; clamped all the same)
    k.offset_q = int32_t(
        std::clamp(std::nearbyint(c.min_sum_offset * c.llr_scale), 0.0f, 128.0f));
    k.int8_limit = batch_decoder::max_input_magnitude * c.llr_scale;
    k.int8_clip = int32_t(std::nearbyint(std::min(k.int8_limit, 127.0f)));
    k.int8_step = 1.0f / c.llr_scale;
    return k;
}

/*!
 * min_sum_magnitude_rule::two_smallest in the 8-bit rule: f(x) =
 * round(llr_scale ln(1 + e^-(x / llr_scale))) (ties to even) for x = 0 ..
 * 254, the sums and differences of two magnitudes of at most 127; at most
 * round(64 ln 2) = 44. The CPU reference and the GPU decoder read the same
 * table.
 */
inline std::array<int8_t, 255> two_smallest_table(float llr_scale)
{
    std::array<int8_t, 255> f{};
    for (int32_t x = 0; x <= 254; ++x)
        f[x] = int8_t(
            std::nearbyint(llr_scale * std::log1p(std::exp(-double(x) / llr_scale))));
    return f;
}

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_FIXED_POINT_RULE_H */
