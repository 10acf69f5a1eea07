/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_BINARY_PAIR_ARITHMETIC_CUH
#define INCLUDED_GPULDPC_KERNELS_BINARY_PAIR_ARITHMETIC_CUH

// The 8-bit rule two frames a lane (fp16 pairs where they are exact, 16-bit
// integer pairs elsewhere), and the 8-bit rule with its check messages
// stored compressed: the same results as the single-frame fixed8_arith
// (arithmetic.cuh) on every frame, in fewer instructions or bytes.

#include "binary/arithmetic.cuh"
#include <cuda_fp16.h>
#include <cstdint>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace binary {

// The 8-bit rule for two frames a lane, in fp16 pairs (HADD2, HMNMX2: an
// instruction for both frames). Every value of the rule is a whole number of
// magnitude at most 2048 (messages within +-127, beliefs the channel value
// plus a message a check, within +-127 (1 + degree), and a belief less a
// message within +-127 degree, for the bits of degree 14 at most that the
// generic families give these pairs, whose beliefs never reach the layered
// limit of +-1920; the quasi-cyclic kernel applies that limit to deeper
// bits, so that a belief less a message stays within +-2047), and fp16
// holds those exactly, so the results are the integer rule's. Check
// messages and channel values are stored as bytes 128 + x: the low byte of the
// fp16 value 1152 + x (1024 <= 1152 + x < 2048, where fp16's step is 1).
__device__ __forceinline__ __half2 as_half2(uint32_t u)
{
    __half2 h;
    static_assert(sizeof h == sizeof u, "a half2 is 32 bits");
    memcpy(&h, &u, sizeof u);
    return h;
}
__device__ __forceinline__ uint32_t as_bits(__half2 h)
{
    uint32_t u;
    memcpy(&u, &h, sizeof u);
    return u;
}
__device__ __forceinline__ uint32_t pair_of(float x)
{
    return as_bits(__float2half2_rn(x));
}
__device__ __forceinline__ uint32_t hadd(uint32_t a, uint32_t b)
{
    return as_bits(__hadd2(as_half2(a), as_half2(b)));
}
__device__ __forceinline__ uint32_t hsub(uint32_t a, uint32_t b)
{
    return as_bits(__hsub2(as_half2(a), as_half2(b)));
}
__device__ __forceinline__ uint32_t hmin(uint32_t a, uint32_t b)
{
    return as_bits(__hmin2(as_half2(a), as_half2(b)));
}
__device__ __forceinline__ uint32_t hmax(uint32_t a, uint32_t b)
{
    return as_bits(__hmax2(as_half2(a), as_half2(b)));
}
constexpr uint32_t half_signs = 0x80008000u;
constexpr uint32_t half_bias = 0x64806480u; // 1152 in both halves
constexpr uint32_t half_1024 = 0x64006400u;
constexpr uint32_t half_belief_limit = 0x67806780u;       // 1920 in both halves
constexpr uint32_t half_minus_belief_limit = 0xe780e780u; // -1920
static_assert(min_sum_fixed8_belief_limit == 1920, "the fp16 constants above");

// 0xffff in each half of \p x whose top bit (15, 31) is set, else 0
__device__ __forceinline__ uint32_t sign_halves(uint32_t x)
{
    uint32_t r;
    // prmt: a selector nibble with its top bit set replicates the sign of
    // the byte it names (bytes 1 and 3 here)
    asm("prmt.b32 %0, %1, 0, 0xBB99;" : "=r"(r) : "r"(x));
    return r;
}

// two stored bytes (128 + x each) -> the pair x (exact: |x| <= 127)
__device__ __forceinline__ uint32_t unpack_pair(uint16_t stored)
{
    return hsub(__byte_perm(uint32_t(stored), 0x64u, 0x4140), half_bias);
}
// the pair x (|x| <= 127) -> two stored bytes
__device__ __forceinline__ uint16_t pack_pair(uint32_t x)
{
    return uint16_t(__byte_perm(hadd(x, half_bias), 0u, 0x0020));
}

// check_minima for two frames: the same minima, and the magnitude out on an
// edge is mag2 where the edge's input is the smallest (the edge of the minimum,
// or a tie, where min2 == min1 and so mag2 == mag1), which needs no edge index.
struct pair_minima {
    uint32_t min1, min2, signs = 0, mag1 = 0, mag2 = 0;
    uint32_t scale, offset;

    __device__ __forceinline__ void add(uint32_t x, uint32_t)
    {
        const uint32_t a = x & ~half_signs;
        signs ^= x;
        min2 = hmin(min2, hmax(min1, a));
        min1 = hmin(min1, a);
    }
    __device__ __forceinline__ uint32_t magnitude(uint32_t m) const
    {
        // (max(m - offset, 0) * scale + 8) >> 4: at most 2040 before the shift
        const __half2 t = __hfma2(
            as_half2(hmax(hsub(m, offset), 0u)), as_half2(scale), __float2half2_rn(8.0f));
        return as_bits(h2floor(__hmul2(t, __float2half2_rn(0.0625f))));
    }
    __device__ __forceinline__ void finish()
    {
        mag1 = magnitude(hmin(min1, pair_of(127.0f)));
        mag2 = magnitude(hmin(min2, pair_of(127.0f)));
    }
    __device__ __forceinline__ uint32_t message(uint32_t x, uint32_t) const
    {
        const uint32_t at_min =
            __heq2_mask(as_half2(x & ~half_signs), as_half2(min1)); // 0xffff a half
        return ((mag2 & at_min) | (mag1 & ~at_min)) | ((signs ^ x) & half_signs);
    }
};

// How an arithmetic of two frames a lane stores its values: a belief or value
// word holds frame j in its half j (16 bits, whose top bit is the sign in
// both pair arithmetics), a message or channel value a byte a frame.
struct two_frame_lanes {
    using belief_t = uint32_t;
    using message_t = uint16_t;
    using channel_t = uint16_t;
    using value_t = uint32_t;
    using input_t = int32_t;
    static constexpr unsigned frames_per_lane = 2;
    static constexpr bool compressed = false;
    static constexpr bool wide_pairs = false;
    static constexpr bool limits_beliefs = false;
    __device__ static belief_t to_belief(value_t x) { return x; }
    // a layered belief after a check's update (limited_arith: limited)
    __device__ static value_t limited(value_t x) { return x; }
    __device__ static uint32_t negative_bits(belief_t b)
    {
        return ((b >> 15) & 1u) | ((b >> 30) & 2u);
    }
    __device__ static bool negative_at(const belief_t* b, size_t i)
    {
        return (reinterpret_cast<const uint16_t*>(b)[i] & 0x8000u) != 0;
    }
    // a lane's values with the frames of \p keep (0xffff a half) as they were
    __device__ static uint32_t kept(uint32_t fresh, uint32_t old, uint32_t keep)
    {
        return (fresh & ~keep) | (old & keep);
    }
    __device__ static uint16_t kept(uint16_t fresh, uint16_t old, uint32_t keep)
    {
        const uint32_t bytes = (keep & 0xffu) | ((keep >> 8) & 0xff00u);
        return uint16_t((fresh & ~bytes) | (old & bytes));
    }
};

struct fixed8_pair_arith : two_frame_lanes {
    // beliefs and values fp16 pairs, messages and channel values stored bytes
    using check_t = pair_minima;
    static constexpr binary_rule rule = binary_rule::fixed_min_sum;
    static constexpr uint32_t zero_message_word = 0x80808080u;
    __device__ static check_t check(const min_sum_params& p)
    {
        check_t c;
        c.min1 = c.min2 = pair_of(255.0f);
        c.scale = pair_of(float(p.scale_q));
        c.offset = pair_of(float(p.offset_q));
        return c;
    }
    __device__ static value_t check_input(belief_t b, value_t m)
    {
        return hmax(hmin(hsub(b, m), pair_of(127.0f)), pair_of(-127.0f));
    }
    __device__ static value_t into_check(belief_t b, message_t m)
    {
        return check_input(b, unpack_pair(m));
    }
    __device__ static value_t layered_input(belief_t b, value_t m) { return hsub(b, m); }
    // (a belief less a message is within +-2047, exact; the sum with the new
    // message rounds only where it is past 2048, limited to 1920 all the same)
    __device__ static value_t limit(value_t x)
    {
        return hmax(hmin(x, half_belief_limit), half_minus_belief_limit);
    }
    __device__ static message_t to_message(value_t m) { return pack_pair(m); }
    __device__ static value_t message_value(message_t m) { return unpack_pair(m); }
    __device__ static value_t channel_value(channel_t c) { return unpack_pair(c); }
    __device__ static value_t add(value_t a, value_t b) { return hadd(a, b); }
    __device__ static void
    set_input(belief_t* belief, channel_t* channel, size_t i, int32_t x)
    {
        reinterpret_cast<__half*>(belief)[i] = __int2half_rn(x);
        if (channel)
            reinterpret_cast<uint8_t*>(channel)[i] = uint8_t(128 + x);
    }
    using two_frame_lanes::kept;

    // Compressed check messages (compressed_arith), the single-frame word's
    // fields for both frames in two words: x the magnitudes (bytes mag1 of
    // frame 0, of frame 1, mag2 of frame 0, of frame 1), y frame j's signs of
    // the messages out in byte 2 j, its positions of the smallest input in
    // byte 2 j + 1 (bit i: position i).
    using word_t = uint2;
    struct stored_messages {
        uint32_t mag1, mag2; // fp16 pairs
        uint32_t bits;
    };
    __device__ static stored_messages read_messages(word_t w)
    {
        // byte b -> fp16 1024 + b, less 1024 (exact)
        return { hsub(__byte_perm(w.x, 0x64u, 0x4140), half_1024),
                 hsub(__byte_perm(w.x, 0x64u, 0x4342), half_1024),
                 w.y };
    }
    __device__ static value_t stored_message(const stored_messages& s, unsigned i)
    {
        // the position bits of both frames to the top of bytes 1 and 3, then
        // each spread over its half (prmt's sign replication)
        const uint32_t at_min = sign_halves(s.bits << (7 - i));
        const uint32_t sign = (s.bits << (15 - i)) & half_signs;
        return (s.mag2 & at_min) | (s.mag1 & ~at_min) | sign;
    }
    __device__ static word_t first_word(const check_t& mins)
    {
        return { __byte_perm(
                     hadd(mins.mag1, half_1024), hadd(mins.mag2, half_1024), 0x6420),
                 0u };
    }
    __device__ static word_t
    with_message(word_t w, const check_t& mins, value_t x, value_t m, unsigned i)
    {
        const uint32_t at_min =
            __heq2_mask(as_half2(x & ~half_signs), as_half2(mins.min1));
        w.y |= (m & half_signs) >> (15 - i) | (at_min & half_signs) >> (7 - i);
        return w;
    }
    __device__ static word_t kept(word_t fresh, word_t old, uint32_t keep)
    {
        const uint32_t magnitudes =
            (keep & 1u ? 0x00ff00ffu : 0u) | (keep & 0x10000u ? 0xff00ff00u : 0u);
        return { (fresh.x & ~magnitudes) | (old.x & magnitudes),
                 (fresh.y & ~keep) | (old.y & keep) };
    }
};

// The three-smallest rule (binary_rule::fixed_three_smallest) two frames a
// lane in fp16 pairs, where the quasi-cyclic kernel with checks unrolled by
// degree takes it (qc_check_half_three_of_degree): the rule's constants as
// pairs. The table of f is a step function of at most three steps
// (min_sum_three_smallest_steps): f(x) = sat(t0 - x) + sat(t1 - x) + sat(t2 -
// x) for whole x >= 0, three subtractions saturated to [0, 1] on the FMA
// pipe instead of two table reads a combination.
struct half_three_rule {
    uint32_t scale, offset; // scale_q, offset_q
    uint32_t step[3];       // min_sum_params::combine_steps
};

struct fixed8_half_three_arith : fixed8_pair_arith {
    using check_t = half_three_rule;
    static constexpr binary_rule rule = binary_rule::fixed_three_smallest;
    __device__ static check_t check(const min_sum_params& p)
    {
        check_t c;
        c.scale = pair_of(float(p.scale_q));
        c.offset = pair_of(float(p.offset_q));
        for (unsigned j = 0; j < 3; ++j)
            c.step[j] = pair_of(float(p.combine_steps[j]));
        return c;
    }
};

// The 8-bit rule for two frames a lane in 16-bit integer pairs, where fp16
// pairs are not taken (bits of degree above 14: 5G NR's beliefs reach
// the layered limit of 1920, 127 x 31 flooding). A half holds any value of the rule
// exactly (beliefs within
// +-127 (1 + 256)), so the results are the integer rule's. PTX's add and
// min/max on s16x2 are one instruction from sm_90 (Hopper), where alone this
// arithmetic is chosen; elsewhere they compile to a few. Messages and
// channel values are stored as two int8 (sign-extended to a pair).
__device__ __forceinline__ uint32_t add16x2(uint32_t a, uint32_t b)
{
    return __vadd2(a, b);
}
// a - b in each half: a + (~b + 1), neither half borrowing from the other
__device__ __forceinline__ uint32_t sub16x2(uint32_t a, uint32_t b)
{
    return __vadd2(a, __vadd2(~b, 0x00010001u));
}
__device__ __forceinline__ uint32_t min16x2(uint32_t a, uint32_t b)
{
    return __vmins2(a, b);
}
__device__ __forceinline__ uint32_t max16x2(uint32_t a, uint32_t b)
{
    return __vmaxs2(a, b);
}
constexpr uint32_t pair16_127 = 0x007f007fu;
constexpr uint32_t pair16_minus_127 = 0xff81ff81u;
constexpr uint32_t pair16_belief_limit =
    uint32_t(min_sum_fixed8_belief_limit) * 0x00010001u;
constexpr uint32_t pair16_minus_belief_limit =
    (uint32_t(-min_sum_fixed8_belief_limit) & 0xffffu) * 0x00010001u;

// two int8 -> an s16x2 pair (each byte's sign replicated over its high byte)
__device__ __forceinline__ uint32_t widen_pair(uint16_t bytes)
{
    uint32_t r;
    asm("prmt.b32 %0, %1, 0, 0x9180;" : "=r"(r) : "r"(uint32_t(bytes)));
    return r;
}
// an s16x2 pair within +-127 -> two int8
__device__ __forceinline__ uint16_t narrow_pair(uint32_t x)
{
    return uint16_t(__byte_perm(x, 0u, 0x0020));
}

// check_minima for two frames in s16x2 halves.
struct wide_pair_minima {
    uint32_t min1, min2, signs = 0, mag1 = 0, mag2 = 0;
    uint32_t scale;  // scale_q, a plain number
    uint32_t offset; // offset_q in both halves

    __device__ __forceinline__ void add(uint32_t x, uint32_t)
    {
        const uint32_t a = __vabsss2(x);
        signs ^= x;
        min2 = min16x2(min2, max16x2(min1, a));
        min1 = min16x2(min1, a);
    }
    __device__ __forceinline__ uint32_t magnitude(uint32_t m) const
    {
        // (max(m - offset, 0) * scale + 8) >> 4 in both halves: a half is at
        // most 127 * 16 + 8 < 2^16 before the shift, so one 32-bit multiply
        // and shift do both (the high half's low bits shifted into the low
        // half are masked off)
        const uint32_t t = max16x2(sub16x2(m, offset), 0u);
        return ((t * scale + 0x00080008u) >> 4) & 0x0fff0fffu;
    }
    __device__ __forceinline__ void finish()
    {
        mag1 = computed_once(int32_t(magnitude(min16x2(min1, pair16_127))));
        mag2 = computed_once(int32_t(magnitude(min16x2(min2, pair16_127))));
    }
    __device__ __forceinline__ uint32_t message(uint32_t x, uint32_t) const
    {
        const uint32_t at_min = __vcmpeq2(__vabsss2(x), min1); // 0xffff a half
        const uint32_t mag = (mag2 & at_min) | (mag1 & ~at_min);
        const uint32_t negative = sign_halves(signs ^ x);
        return sub16x2(mag ^ negative, negative); // -mag where negative
    }
};

struct fixed8_wide_pair_arith : two_frame_lanes {
    // beliefs and values s16x2, messages and channel values two int8
    using check_t = wide_pair_minima;
    static constexpr binary_rule rule = binary_rule::fixed_min_sum;
    static constexpr bool wide_pairs = true;
    static constexpr uint32_t zero_message_word = 0;
    __device__ static check_t check(const min_sum_params& p)
    {
        check_t c;
        c.min1 = c.min2 = 0x00ff00ffu;
        c.scale = uint32_t(p.scale_q);
        c.offset = uint32_t(p.offset_q) * 0x00010001u;
        return c;
    }
    __device__ static value_t check_input(belief_t b, value_t m)
    {
        return max16x2(min16x2(sub16x2(b, m), pair16_127), pair16_minus_127);
    }
    __device__ static value_t into_check(belief_t b, message_t m)
    {
        return check_input(b, widen_pair(m));
    }
    __device__ static value_t layered_input(belief_t b, value_t m)
    {
        return sub16x2(b, m);
    }
    __device__ static value_t limit(value_t x)
    {
        return max16x2(min16x2(x, pair16_belief_limit), pair16_minus_belief_limit);
    }
    __device__ static message_t to_message(value_t m) { return narrow_pair(m); }
    __device__ static value_t message_value(message_t m) { return widen_pair(m); }
    __device__ static value_t channel_value(channel_t c) { return widen_pair(c); }
    __device__ static value_t add(value_t a, value_t b) { return add16x2(a, b); }
    __device__ static void
    set_input(belief_t* belief, channel_t* channel, size_t i, int32_t x)
    {
        reinterpret_cast<int16_t*>(belief)[i] = int16_t(x);
        if (channel)
            reinterpret_cast<int8_t*>(channel)[i] = int8_t(x);
    }
};

// An 8-bit arithmetic whose check messages are stored compressed: a word (a
// pair lane: two) a check, from which the messages out are made again (the
// same values, 4 bytes a frame a check instead of a byte an edge).
template <typename Base>
struct compressed_arith : Base {
    static constexpr bool compressed = true;
    static constexpr uint32_t zero_message_word = 0;
};

} // namespace binary
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_BINARY_PAIR_ARITHMETIC_CUH */
