/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_BINARY_ARITHMETIC_CUH
#define INCLUDED_GPULDPC_KERNELS_BINARY_ARITHMETIC_CUH

// The arithmetic policies of the binary decoder, one frame a lane: the 8-bit
// rule in integers and the float rules (pair_arithmetic.cuh: two frames a
// lane). A policy names the types of beliefs, check messages and channel
// values, a check's accumulator (check_t: add() every input, finish(), then
// message() for every edge) and how values combine; decode.cuh takes any
// policy that arithmetic_traits accepts.
//
// 8-bit min-sum: every step is the CPU reference's (fixed_point_min_sum_rule,
// lib/engine/check_rules.h) in integers: channel values rounded to steps of 1/llr_scale (ties to even)
// and saturated to +-127, messages into a check saturated to +-127, check
// magnitudes (max(min - offset, 0) * scale + 8) >> 4 in sixteenths, beliefs
// as exact sums. Float: min-sum and sum-product as in check_rules.h, in
// single precision.

#include "binary/ldpc_min_sum.h"
#include "binary/state_layout.h"
#include "binary/three_smallest.h"
#include <type_traits>
#include <cstdint>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace binary {

__device__ __forceinline__ int32_t saturate8(int32_t x) { return min(max(x, -127), 127); }

// Check message magnitude from the smallest other input magnitude.
struct fixed_point_rule {
    int32_t scale_q, offset_q;
    __device__ __forceinline__ int32_t magnitude(int32_t m) const
    {
        return (max(m - offset_q, 0) * scale_q + 8) >> 4;
    }
};

// Keeps the compiler from recomputing \p x where it is used (for values made
// once a check and read at every edge).
__device__ __forceinline__ int32_t computed_once(int32_t x)
{
    asm volatile("" : "+r"(x));
    return x;
}

// The min-sum state of one check: the two smallest input magnitudes and the
// parity of the signs; then the magnitudes of the messages out. The message
// on an edge takes mag2 where the edge's input is the smallest: the edge of
// the minimum (the CPU's first smallest), or a tie, where min2 == min1 and so
// mag2 == mag1, which needs no edge index.
struct check_minima {
    int32_t min1 = 255, min2 = 255;
    int32_t signs = 0; // sign bit: parity of the negative inputs
    int32_t mag1 = 0, mag2 = 0;
    fixed_point_rule rule;

    __device__ __forceinline__ void add(int32_t x, uint32_t)
    {
        const int32_t a = abs(x);
        signs ^= x;
        min2 = min(min2, max(min1, a));
        min1 = min(min1, a);
    }
    __device__ __forceinline__ void finish()
    {
        mag1 = computed_once(rule.magnitude(min(min1, 127)));
        mag2 = computed_once(rule.magnitude(min(min2, 127)));
    }
    // The message out on an edge whose input was x.
    __device__ __forceinline__ int32_t message(int32_t x, uint32_t) const
    {
        const int32_t mag = abs(x) == min1 ? mag2 : mag1;
        const int32_t negative = (signs ^ x) >> 31; // 0 or -1
        return (mag ^ negative) - negative;
    }
};

// Float min-sum (check_rules.h's min_sum_rule): magnitude
// scale * max(min of the others - offset, 0), sign the product of the others.
struct float_minima {
    float min1 = INFINITY, min2 = INFINITY;
    uint32_t arg_min = 0;
    uint32_t negative = 0; // parity of the negative inputs
    float scale, offset;

    __device__ __forceinline__ void add(float x, uint32_t e)
    {
        const float a = fabsf(x);
        negative ^= x < 0.0f ? 1u : 0u; // as the CPU: -0 counts as positive
        min2 = a < min1 ? min1 : fminf(min2, a);
        arg_min = a < min1 ? e : arg_min;
        min1 = fminf(min1, a);
    }
    __device__ __forceinline__ void finish() {}
    __device__ __forceinline__ float message(float x, uint32_t e) const
    {
        const float mag = scale * fmaxf((e == arg_min ? min2 : min1) - offset, 0.0f);
        return (negative ^ (x < 0.0f ? 1u : 0u)) ? -mag : mag;
    }
};

// Sum-product in the phi form: phi(y) = -log(tanh(y / 2)) is its own inverse,
// so the magnitude out on an edge is phi(sum of the others' phi(|x|)), the
// sign the product of the others' (the tanh rule, without products that
// exclude an edge). y is kept in [1e-15, 80]: messages stay below about 35,
// as the CPU reference's atanh bound keeps them. The largest term is kept
// apart from the sum of the rest, so that leaving one out never subtracts a
// large term from a sum of small ones (an erased input's phi is 35).
__device__ __forceinline__ float phi(float y)
{
    y = fminf(fmaxf(y, 1e-15f), 80.0f);
    return log1pf(2.0f / expm1f(y));
}

struct phi_sum {
    float largest = 0.0f, rest = 0.0f; // the largest term; the sum of the others
    uint32_t arg_largest = 0;
    uint32_t negative = 0;

    __device__ __forceinline__ void add(float x, uint32_t e)
    {
        const float t = phi(fabsf(x));
        const bool above = t > largest;
        rest += above ? largest : t;
        largest = above ? t : largest;
        arg_largest = above ? e : arg_largest;
        negative ^= x < 0.0f ? 1u : 0u; // as the CPU: -0 counts as positive
    }
    __device__ __forceinline__ void finish() {}
    __device__ __forceinline__ float message(float x, uint32_t e) const
    {
        // without the edge's own term: the rest alone, or the largest plus
        // the rest less this (small) term
        const float others =
            e == arg_largest ? rest : largest + fmaxf(rest - phi(fabsf(x)), 0.0f);
        const float mag = phi(others);
        return (negative ^ (x < 0.0f ? 1u : 0u)) ? -mag : mag;
    }
};

// How an arithmetic of one frame a lane stores and combines its values (the
// pair arithmetic has the same members for two frames a lane).
template <typename Belief, typename Message, typename Channel, typename Value>
struct single_frame_lanes {
    using belief_t = Belief;
    using message_t = Message;
    using channel_t = Channel;
    using value_t = Value;
    using input_t = Value; // a channel value as the input stage makes it
    static constexpr unsigned frames_per_lane = 1;
    static constexpr uint32_t zero_message_word = 0;
    static constexpr bool compressed = false;
    __device__ static message_t to_message(value_t m) { return message_t(m); }
    __device__ static belief_t to_belief(value_t x) { return belief_t(x); }
    __device__ static value_t message_value(message_t m) { return value_t(m); }
    __device__ static value_t channel_value(channel_t c) { return value_t(c); }
    __device__ static value_t add(value_t a, value_t b) { return a + b; }
    // a layered belief after a check's update (limited_arith: limited)
    __device__ static value_t limited(value_t x) { return x; }
    static constexpr bool limits_beliefs = false;
    static constexpr bool wide_pairs = false;
    // bit j: frame j of the lane decides 1
    __device__ static uint32_t negative_bits(belief_t b) { return b < 0 ? 1u : 0u; }
    // frame value i (x * frames + frame) of a group
    __device__ static bool negative_at(const belief_t* b, size_t i) { return b[i] < 0; }
    __device__ static void
    set_input(belief_t* belief, channel_t* channel, size_t i, value_t x)
    {
        belief[i] = belief_t(x);
        if (channel)
            channel[i] = channel_t(x);
    }
};

// The arithmetic of a decoder: the types of beliefs, check messages and
// channel values, a check's accumulator, and how values combine.
struct fixed8_arith : single_frame_lanes<int16_t, int8_t, int8_t, int32_t> {
    using check_t = check_minima;
    static constexpr binary_rule rule = binary_rule::fixed_min_sum;
    __device__ static check_t check(const min_sum_params& p)
    {
        check_t c;
        c.rule = fixed_point_rule{ p.scale_q, p.offset_q };
        return c;
    }
    // a message into a check: the belief less the check's message
    __device__ static value_t check_input(belief_t b, value_t m)
    {
        return saturate8(int32_t(b) - m);
    }
    __device__ static value_t into_check(belief_t b, message_t m)
    {
        return check_input(b, int32_t(m));
    }
    // layered: the belief less the check's message, exact (input_of)
    __device__ static value_t layered_input(belief_t b, value_t m)
    {
        return int32_t(b) - m;
    }
    // the 8-bit rule's limit of a layered belief (limited_arith)
    __device__ static value_t limit(value_t x)
    {
        return min(max(x, -min_sum_fixed8_belief_limit), min_sum_fixed8_belief_limit);
    }

    // Compressed check messages (compressed_arith): a check's messages out in
    // a word, bits 0-7 mag1, 8-15 mag2, bit 16 + i the sign of the message
    // on position i, bit 24 + i whether position i's input was the smallest
    // (then its message has mag2: ties have mag2 == mag1).
    using word_t = uint32_t;
    struct stored_messages {
        uint32_t bits;
        int32_t mag1, mag2;
    };
    __device__ static stored_messages read_messages(word_t w)
    {
        return { w, int32_t(w & 0xffu), int32_t((w >> 8) & 0xffu) };
    }
    __device__ static value_t stored_message(const stored_messages& s, unsigned i)
    {
        const int32_t mag = (s.bits >> (24 + i)) & 1u ? s.mag2 : s.mag1;
        return (s.bits >> (16 + i)) & 1u ? -mag : mag;
    }
    __device__ static word_t first_word(const check_t& mins)
    {
        return uint32_t(mins.mag1) | uint32_t(mins.mag2) << 8;
    }
    // position i: input x, message out m
    __device__ static word_t
    with_message(word_t w, const check_t& mins, value_t x, value_t, unsigned i)
    {
        const uint32_t negative = uint32_t(mins.signs ^ x) >> 31;
        const uint32_t at_min = abs(x) == mins.min1 ? 1u : 0u;
        return w | negative << (16 + i) | at_min << (24 + i);
    }
};

// The 8-bit rule with the three smallest inputs combined, a frame a lane,
// a byte a message (not compressed: fixed8_arith's words are min-sum's).
struct fixed8_three_arith : single_frame_lanes<int16_t, int8_t, int8_t, int32_t> {
    using check_t = check_three_minima;
    static constexpr binary_rule rule = binary_rule::fixed_three_smallest;
    __device__ static check_t check(const min_sum_params& p)
    {
        check_t c;
        c.scale_q = p.scale_q;
        c.offset_q = p.offset_q;
        c.f = p.combine_table;
        return c;
    }
    __device__ static value_t into_check(belief_t b, message_t m)
    {
        return fixed8_arith::into_check(b, m);
    }
    __device__ static value_t layered_input(belief_t b, value_t m)
    {
        return fixed8_arith::layered_input(b, m);
    }
    __device__ static value_t limit(value_t x) { return fixed8_arith::limit(x); }
};

template <binary_rule R>
struct float_arith : single_frame_lanes<float, float, float, float> {
    using check_t =
        std::conditional_t<R == binary_rule::float_min_sum, float_minima, phi_sum>;
    static constexpr binary_rule rule = R;
    __device__ static check_t check(const min_sum_params& p)
    {
        check_t c;
        if constexpr (R == binary_rule::float_min_sum) {
            c.scale = p.min_sum_scale;
            c.offset = p.min_sum_offset;
        }
        return c;
    }
    __device__ static value_t into_check(belief_t b, message_t m) { return b - m; }
    __device__ static value_t layered_input(belief_t b, value_t m) { return b - m; }
};

// An 8-bit arithmetic whose layered beliefs are limited to
// +-min_sum_fixed8_belief_limit after each check's update, as the rule says
// (decoder.h): taken for codes with bits of 15 checks or more, the only ones
// whose beliefs reach it (min_sum_kernel_key::limited); elsewhere Base alone
// gives the same results without the two instructions an edge.
template <typename Base>
struct limited_arith : Base {
    static constexpr bool limits_beliefs = true;
    __device__ static typename Base::value_t limited(typename Base::value_t x)
    {
        return Base::limit(x);
    }
};

// Whether a compressed arithmetic's word a check takes the 4 bytes a frame
// that state_layout counts.
template <typename A>
constexpr bool compressed_word_fits()
{
    if constexpr (A::compressed)
        return sizeof(typename A::word_t) == 4 * A::frames_per_lane;
    else
        return true;
}

// What decode() takes of an arithmetic: one or two frames a lane, stored in
// the bytes state_layout counts for its rule.
template <typename A>
struct arithmetic_traits {
    static constexpr unsigned P = A::frames_per_lane;
    static_assert(P == 1 || P == 2, "an arithmetic takes one or two frames a lane");
    static_assert(sizeof(typename A::belief_t) == sizes_of(A::rule).belief * P,
                  "a lane's belief holds its frames' beliefs as state_layout counts");
    static_assert(sizeof(typename A::message_t) == sizes_of(A::rule).message * P,
                  "a lane's message holds its frames' messages as state_layout counts");
    static_assert(sizeof(typename A::channel_t) == sizes_of(A::rule).channel * P,
                  "a lane's channel value holds its frames' as state_layout counts");
    static_assert(!A::compressed || A::rule == binary_rule::fixed_min_sum,
                  "compressed check messages are of the 8-bit rule");
    static_assert(compressed_word_fits<A>(),
                  "a compressed check's word is the 4 bytes a frame state_layout counts");
    static constexpr bool value = true;
};

} // namespace binary
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_BINARY_ARITHMETIC_CUH */
