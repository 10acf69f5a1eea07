/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Binary LDPC decoding, a thread block per group of frames for all
// iterations (or the whole grid for long codes). The schedule (flooding,
// layered) and the arithmetic with its check rule are separate template
// axes. 8-bit min-sum: every step is the CPU reference's
// (cpu_fixed_point_decoder.cc) in integers: channel values rounded to steps of
// 1/llr_scale (ties to even) and saturated to +-127, messages into a check
// saturated to +-127, check magnitudes (max(min - offset, 0) * scale + 8) >> 4
// in sixteenths, beliefs as exact sums. Float: min-sum and sum-product as in
// check_rules.h, in single precision. Frames of a block are independent; a
// frame that converged (early termination) is left alone while the others go
// on.

#include "cuda_check.h"
#include "ldpc_min_sum.h"
#include <cooperative_groups.h>
#include <cuda_fp16.h>
#include <type_traits>
#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace kernels {

namespace {

constexpr unsigned max_block_frames = 32;
constexpr unsigned grid_threads = 512;
constexpr float input_limit = 64.0f; // batch_decoder::max_input_magnitude
constexpr size_t state_alignment = 256;
// the block kernel's static shared memory (the per-frame counters) for F
// frames, as the choice of a variant counts it
__host__ __device__ constexpr size_t counter_bytes(unsigned frames)
{
    return 16 * size_t(frames) + 16;
}
// pairs: bits of this degree at most (exact fp16 sums)
constexpr unsigned max_pair_degree = 15;
// pairs on chip, layered: runs of this many checks at least on average
constexpr unsigned min_pair_run = 16;
// threads a block at least, flooding on chip
constexpr unsigned min_flooding_threads = 128;
// layered on chip: of groups with as many frames an SM, one whose block has
// this many threads at least
constexpr unsigned min_layered_threads = 96;
// lanes a group, in the order the choice of a variant tries them
constexpr std::array<unsigned, 6> smaller_first{ 1, 2, 4, 8, 16, 32 };
constexpr std::array<unsigned, 6> short_run_lanes{ 32, 16, 8, 0, 0, 0 };
// split: warps of an SM busy in a step at least (the blocks it holds times a
// run's checks over 32). H100, DVB-S2 rate 1/2 in runs of 360 checks (11
// warps) 0.6x the global variant; 16200 bits (22) 1.6x
constexpr size_t min_split_warps = 16;
// registers a thread of the block kernel at most (__launch_bounds__(1024))
constexpr unsigned block_kernel_registers = 64;

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

// The 8-bit rule for two frames a lane, in fp16 pairs (HADD2, HMNMX2: an
// instruction for both frames). Every value of the rule is a whole number of
// magnitude at most 2048 (messages within +-127, beliefs the channel value
// plus a message a check, within +-127 (1 + degree) for bits of degree 15 at
// most, and a belief less a message within +-127 degree), and fp16 holds
// those exactly, so the results are the integer rule's. Check
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
    __device__ static belief_t to_belief(value_t x) { return x; }
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

// The 8-bit rule for two frames a lane in 16-bit integer pairs, where fp16
// pairs are not exact (bits of degree above 15: 5G NR's beliefs reach
// 127 x 31). A half holds any value of the rule exactly (beliefs within
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

// The state of a group of G frames, frame-interleaved: value x of frame f at
// x * G + f, so that G lanes of a warp, a frame each, touch G neighbouring
// values of one check or bit. belief (16 bits a bit in the 8-bit rule, else
// fp32): the channel value plus all check messages into the bit (its
// messages out are that less each message in); layered, updated a check at a
// time by the check's new message less its previous one (input_of). c2v: the check
// messages. channel (flooding): the channel values. Hard decisions are belief < 0.
template <typename A>
struct group_state {
    typename A::belief_t* belief;
    typename A::message_t* c2v;
    typename A::channel_t* channel;
};

__host__ __device__ constexpr size_t align_up(size_t x, size_t a)
{
    return (x + a - 1) / a * a;
}

// Bytes of a belief, a check message and a channel value.
struct value_sizes {
    size_t belief, message, channel;
};

__host__ __device__ constexpr value_sizes sizes_of(binary_rule rule)
{
    return rule == binary_rule::fixed_min_sum ? value_sizes{ 2, 1, 1 }
                                              : value_sizes{ 4, 4, 4 };
}

struct state_layout {
    size_t belief, c2v, c2v_bytes, channel, bytes;

    // F frames; compressed: a 4-byte word a frame a check (compressed_arith)
    __host__ __device__ state_layout(size_t n,
                                     size_t edges,
                                     size_t checks,
                                     bool layered,
                                     binary_rule rule,
                                     unsigned F,
                                     bool compressed)
    {
        const value_sizes z = sizes_of(rule);
        // a bit and (not compressed) a message more, never written: what a
        // compact check's positions past its degree read
        // (update_compact_check)
        belief = 0;
        c2v = align_up(z.belief * (n + 1) * F, 16);
        c2v_bytes = compressed ? 4 * checks * F : z.message * (edges + 1) * F;
        channel = align_up(c2v + c2v_bytes, 16);
        bytes =
            align_up(layered ? channel : channel + z.channel * n * F, state_alignment);
    }
    template <typename A>
    __device__ group_state<A> at(uint8_t* base) const
    {
        return group_state<A>{ reinterpret_cast<typename A::belief_t*>(base + belief),
                               reinterpret_cast<typename A::message_t*>(base + c2v),
                               reinterpret_cast<typename A::channel_t*>(base + channel) };
    }
    // split: the beliefs at \p base, the rest (from c2v on) at \p messages
    template <typename A>
    __device__ group_state<A> at(uint8_t* base, uint8_t* messages) const
    {
        if (!messages)
            return at<A>(base);
        return group_state<A>{ reinterpret_cast<typename A::belief_t*>(base + belief),
                               reinterpret_cast<typename A::message_t*>(messages),
                               reinterpret_cast<typename A::channel_t*>(
                                   messages + (channel - c2v)) };
    }
    // split: the bytes of the beliefs (shared memory) and of the rest
    // (global memory)
    __host__ __device__ size_t belief_bytes() const { return c2v; }
    // (a block's region starts on a state_alignment boundary)
    __host__ __device__ size_t message_bytes() const
    {
        return align_up(bytes - c2v, state_alignment);
    }
};

// Per-frame bookkeeping of a team's frames (shared memory for a block,
// global memory for a grid), indexed by the frame's place in the team.
struct frame_counters {
    uint32_t* syndrome;
    uint32_t* invalid;
    uint32_t* iterations;
    uint32_t* done;
    int* active; // frames not done
};

// The threads that decode a set of groups together and synchronise between
// steps: a thread block (its one group, state in shared memory) or the whole
// grid of a cooperative launch (all groups, state in global memory).
// Indices within a team are 32-bit (min_sum_max_global_frames).
struct block_team {
    static constexpr bool single_group = true;
    __device__ uint32_t thread() const { return threadIdx.x; }
    __device__ uint32_t threads() const { return blockDim.x; }
    __device__ uint32_t warp() const { return threadIdx.x >> 5; }
    __device__ uint32_t warps() const { return blockDim.x >> 5; }
    __device__ void sync() const { __syncthreads(); }
};

struct grid_team {
    static constexpr bool single_group = false;
    __device__ uint32_t thread() const { return blockIdx.x * blockDim.x + threadIdx.x; }
    __device__ uint32_t threads() const { return gridDim.x * blockDim.x; }
    __device__ uint32_t warp() const { return thread() >> 5; }
    __device__ uint32_t warps() const { return threads() >> 5; }
    __device__ void sync() const { cooperative_groups::this_grid().sync(); }
};

// Runs body(group, item, lane_frame) for every item < items of every group of
// the team, G lanes (one a frame) an item, 32 / G items a warp at once. The
// warps take the tasks in turn, or (Contiguous) each one contiguous share of
// them (the grid: a warp stays with a group for many items, so that what it
// counts for the group's frames is added once, not an atomic add an item).
template <unsigned G, bool Contiguous = false, typename Team, typename Body>
__device__ __forceinline__ void
for_each_item(const Team& team, uint32_t groups, uint32_t items, Body&& body)
{
    constexpr unsigned per_warp = 32 / G;
    const unsigned lane = threadIdx.x & 31, f = lane & (G - 1), sub = lane / G;
    const uint32_t chunks = (items + per_warp - 1) / per_warp;
    const uint32_t tasks = Team::single_group ? chunks : groups * chunks;
    auto task = [&](uint32_t t) {
        const uint32_t g = Team::single_group ? 0 : t / chunks;
        const uint32_t item = (t - g * chunks) * per_warp + sub;
        if (item < items)
            body(g, item, f);
    };
    if constexpr (Contiguous) {
        const uint32_t share = (tasks + team.warps() - 1) / team.warps();
        const uint32_t t0 = uint32_t(min(uint64_t(tasks), uint64_t(team.warp()) * share));
        const uint32_t t1 = uint32_t(min(uint64_t(tasks), uint64_t(t0) + share));
        for (uint32_t t = t0; t < t1; ++t)
            task(t);
    } else {
        for (uint32_t t = team.warp(); t < tasks; t += team.warps())
            task(t);
    }
}

// The lane's values with the frames of \p keep (pair lanes: frames done, or
// beyond the batch) as they were, read again from \p old.
template <typename A, typename T>
__device__ __forceinline__ T kept(T fresh, const T* old, uint32_t keep)
{
    if constexpr (A::frames_per_lane > 1) {
        if (keep)
            return A::kept(fresh, *old, keep);
    }
    return fresh;
}

// A check's input on an edge from the bit's belief and the check's previous
// message there. Layered: their exact difference, to which the belief then
// adds the new message, so that it stays the channel value plus all of the
// bit's messages (the 8-bit rule's minima clamp input magnitudes at 127 in
// finish(), so that the messages out are those of the input saturated to
// +-127, as the CPU reference's); flooding: the arithmetic's input into a
// check (8-bit: saturated).
template <typename A, bool Layered>
__device__ __forceinline__ typename A::value_t input_of(typename A::belief_t b,
                                                        typename A::message_t m)
{
    if constexpr (Layered)
        return A::layered_input(b, A::message_value(m));
    else
        return A::into_check(b, m);
}

// One check of lane f (a frame, or a pair of frames): the messages in are the
// beliefs less the check's previous messages (made twice, for the minima and
// for the update, rather than kept); new messages out and, layered, the
// beliefs updated. Layered, a bit's belief changes within a run only through
// this check; flooding, beliefs change only between check steps.
template <typename A, bool Layered, unsigned G>
__device__ __forceinline__ void update_check(const min_sum_graph& g,
                                             const group_state<A>& s,
                                             const typename A::check_t& fresh,
                                             uint32_t c,
                                             unsigned f,
                                             uint32_t keep)
{
    using value_t = typename A::value_t;
    const uint32_t e0 = __ldg(g.check_offsets + c), e1 = __ldg(g.check_offsets + c + 1);
    typename A::check_t mins = fresh;
    for (uint32_t e = e0; e < e1; ++e) {
        const uint32_t v = __ldg(g.edge_variable + e);
        mins.add(input_of<A, Layered>(s.belief[v * G + f], s.c2v[e * G + f]), e);
    }
    mins.finish();
    for (uint32_t e = e0; e < e1; ++e) {
        const uint32_t v = __ldg(g.edge_variable + e);
        const value_t x = input_of<A, Layered>(s.belief[v * G + f], s.c2v[e * G + f]);
        const value_t m = mins.message(x, e);
        s.c2v[e * G + f] = kept<A>(A::to_message(m), &s.c2v[e * G + f], keep);
        if constexpr (Layered)
            s.belief[v * G + f] =
                kept<A>(A::to_belief(A::add(x, m)), &s.belief[v * G + f], keep);
    }
}

// update_check from a check's compact record (slot: its place in the
// schedule's order): the graph is read in two loads, the messages in are made
// once, all of the check's reads issued before its minima are needed, and
// kept in registers for the messages out. An edge is named by its position
// in the check (float min-sum's minimum: the first smallest, as over edge
// ids). Positions past the check's degree are skipped (Full: they read the
// bit and the message past the last, never written, rather than branch, and
// take no part in the minima).
template <typename A, bool Layered, unsigned G, bool Full>
__device__ __forceinline__ void update_compact_check(const min_sum_graph& g,
                                                     const group_state<A>& s,
                                                     const typename A::check_t& fresh,
                                                     uint32_t slot,
                                                     unsigned f,
                                                     uint32_t keep)
{
    constexpr unsigned D = min_sum_compact_degree;
    using value_t = typename A::value_t;
    const uint32_t head = __ldg(g.slot_edges + slot);
    const uint4 packed = __ldg(g.slot_variables + slot);
    const uint32_t words[D / 2] = { packed.x, packed.y, packed.z, packed.w };
    const uint32_t deg = head >> 28;
    // the check's messages at c2v[i * G] (compressed: its word at
    // stored[0]), the lane's beliefs at belief[v * G]
    // (compressed: the per-edge places are not there)
    auto* const c2v = A::compressed ? s.c2v : s.c2v + size_t(head & 0x0fffffffu) * G + f;
    auto* const unused_message = A::compressed ? s.c2v : s.c2v + g.edges * G + f;
    auto* const belief = s.belief + f;
    [[maybe_unused]] auto const stored = [&] {
        if constexpr (A::compressed)
            return reinterpret_cast<typename A::word_t*>(s.c2v) + size_t(slot) * G + f;
        else
            return nullptr;
    }();
    [[maybe_unused]] const auto old = [&] {
        if constexpr (A::compressed)
            return *stored;
        else
            return 0;
    }();
    [[maybe_unused]] const auto messages = [&] {
        if constexpr (A::compressed)
            return A::read_messages(old);
        else
            return 0;
    }();
    uint32_t v[D];
    value_t x[D];
#pragma unroll
    for (unsigned i = 0; i < D; ++i) {
        const uint32_t bit = i & 1 ? words[i / 2] >> 16 : words[i / 2] & 0xffffu;
        if constexpr (A::compressed) {
            v[i] = (!Full || i < deg ? bit : g.n) * G;
            if (Full || i < deg)
                x[i] = A::layered_input(belief[v[i]], A::stored_message(messages, i));
        } else if constexpr (Full) {
            v[i] = (i < deg ? bit : g.n) * G;
            x[i] = input_of<A, Layered>(belief[v[i]],
                                        *(i < deg ? c2v + i * G : unused_message));
        } else {
            v[i] = bit * G;
            if (i < deg)
                x[i] = input_of<A, Layered>(belief[v[i]], c2v[i * G]);
        }
    }
    typename A::check_t mins = fresh;
#pragma unroll
    for (unsigned i = 0; i < D; ++i)
        if (i < deg)
            mins.add(x[i], i);
    mins.finish();
    // pair lanes with a frame done keep its values: known a check at a time
    auto write = [&](auto keeping) {
        constexpr bool Keeping = decltype(keeping)::value;
        [[maybe_unused]] auto out = [&] {
            if constexpr (A::compressed)
                return A::first_word(mins);
            else
                return 0;
        }();
#pragma unroll
        for (unsigned i = 0; i < D; ++i)
            if (i < deg) {
                const value_t m = mins.message(x[i], i);
                if constexpr (A::compressed) {
                    out = A::with_message(out, mins, x[i], m, i);
                } else {
                    const auto message = A::to_message(m);
                    c2v[i * G] = Keeping ? kept<A>(message, &c2v[i * G], keep) : message;
                }
                if constexpr (Layered) {
                    const auto b = A::to_belief(A::add(x[i], m));
                    belief[v[i]] = Keeping ? kept<A>(b, &belief[v[i]], keep) : b;
                }
            }
        if constexpr (A::compressed)
            *stored = Keeping ? kept<A>(out, &old, keep) : out;
    };
    if (A::frames_per_lane > 1 && keep)
        write(std::true_type{});
    else
        write(std::false_type{});
}

// How a check reads the graph: its compact record, read in full where
// min_sum_graph::full_records, or the graph's arrays.
enum class check_records { graph, compact, full };

// The check update of the check at place \p at of the schedule's order
// (layered: of run_checks; flooding: the check itself).
template <typename A, bool Layered, unsigned G, check_records R>
__device__ __forceinline__ void check_step(const min_sum_graph& g,
                                           const group_state<A>& s,
                                           const typename A::check_t& fresh,
                                           uint32_t at,
                                           unsigned f,
                                           uint32_t keep)
{
    if constexpr (R != check_records::graph)
        update_compact_check<A, Layered, G, R == check_records::full>(
            g, s, fresh, at, f, keep);
    else
        update_check<A, Layered, G>(
            g, s, fresh, Layered ? __ldg(g.run_checks + at) : at, f, keep);
}

// Flooding, bit v of lane f: the channel value plus the check messages in
// (8-bit: at most 257 of +-127 in 16 bits).
template <typename A, unsigned G>
__device__ __forceinline__ void update_variable(const min_sum_graph& g,
                                                const group_state<A>& s,
                                                uint32_t v,
                                                unsigned f,
                                                uint32_t keep)
{
    const uint32_t i0 = __ldg(g.variable_offsets + v),
                   i1 = __ldg(g.variable_offsets + v + 1);
    typename A::value_t total = A::channel_value(s.channel[v * G + f]);
    for (uint32_t i = i0; i < i1; ++i)
        total =
            A::add(total, A::message_value(s.c2v[__ldg(g.variable_edges + i) * G + f]));
    s.belief[v * G + f] = kept<A>(A::to_belief(total), &s.belief[v * G + f], keep);
}

// Decodes the team's frames in groups of G lanes of P frames (A's
// frames_per_lane): F = G P frames a group, frame j of lane f of group gr is
// the team's frame gr F + f P + j.
template <typename A, bool Layered, unsigned G, check_records R, typename Team>
__device__ void decode(const min_sum_params& p,
                       const Team& team,
                       uint8_t* state_base,
                       size_t first_frame, // of the team
                       uint32_t team_frames,
                       const frame_counters& k,
                       uint8_t* messages = nullptr) // split: the group's messages
{
    constexpr unsigned P = A::frames_per_lane, F = G * P;
    const min_sum_graph& g = p.graph;
    const state_layout layout(g.n, g.edges, g.checks, Layered, A::rule, F, A::compressed);
    const uint32_t groups = (team_frames + F - 1) / F;
    const typename A::check_t rule = A::check(p);
    auto state = [&](uint32_t group) {
        return layout.at<A>(state_base + size_t(group) * layout.bytes, messages);
    };
    auto frame = [&](uint32_t gr, unsigned f, unsigned j) { return gr * F + f * P + j; };
    auto live = [&](uint32_t fr) { return fr < team_frames && !k.done[fr]; };
    // whether a lane still decodes; keep: its frames that do not (0xffff a
    // half, pair lanes)
    auto lane_live = [&](uint32_t gr, unsigned f, uint32_t& keep) {
        bool any = false;
        keep = 0;
#pragma unroll
        for (unsigned j = 0; j < P; ++j) {
            if (live(frame(gr, f, j)))
                any = true;
            else
                keep |= 0xffffu << (16 * j);
        }
        return any;
    };

    for (uint32_t fr = team.thread(); fr < team_frames; fr += team.threads()) {
        k.invalid[fr] = 0;
        k.iterations[fr] = 0;
        k.done[fr] = 0;
        k.syndrome[fr] = 0;
    }
    if (team.thread() == 0)
        *k.active = int(team_frames);
    team.sync();

    // channel values, internal convention log(P(0)/P(1)) (8-bit rule: in
    // steps); read frame after frame (coalesced). Pair lanes: the frames
    // beyond the batch in the last group start at 0, as a lane reads both.
    const uint32_t values = team_frames * g.n;
    const uint32_t slots = P > 1 ? groups * F * g.n : values;
    for (uint32_t w = team.thread(); w < slots; w += team.threads()) {
        const uint32_t fr = w / g.n, v = w - fr * g.n;
        const int32_t t = fr < team_frames ? __ldg(g.input_index + v) : -1;
        typename A::input_t x = 0;
        if (t >= 0 && A::rule != binary_rule::fixed_min_sum) {
            // float: the LLR clipped to +-64 (8-bit input: steps times
            // int8_step), NaN/Inf an erasure
            const size_t at = (first_frame + fr) * g.n_input + uint32_t(t);
            float l = p.llr
                          ? p.llr[at]
                          : __fmul_rn(float(max(int32_t(p.llr8[at]), -127)), p.int8_step);
            if (!isfinite(l)) {
                atomicAdd(&k.invalid[fr], 1u);
                l = 0.0f;
            }
            l = fminf(fmaxf(l, -input_limit), input_limit);
            x = typename A::input_t(p.flip_llr_sign ? l : -l);
        } else if (t >= 0) {
            const size_t at = (first_frame + fr) * g.n_input + uint32_t(t);
            if (p.llr) {
                float l = p.llr[at];
                if (!isfinite(l)) {
                    atomicAdd(&k.invalid[fr], 1u);
                    l = 0.0f;
                }
                l = fminf(fmaxf(l, -input_limit), input_limit);
                const float scaled = __fmul_rn(p.flip_llr_sign ? l : -l, p.llr_scale);
                x = __float2int_rn(fminf(fmaxf(scaled, -127.0f), 127.0f));
            } else {
                int32_t in = max(int32_t(p.llr8[at]), -127);
                if (float(abs(in)) > p.int8_limit)
                    in = in < 0 ? -p.int8_clip : p.int8_clip;
                x = p.flip_llr_sign ? in : -in;
            }
        }
        const group_state<A> s = state(fr / F);
        A::set_input(s.belief, Layered ? nullptr : s.channel, size_t(v) * F + fr % F, x);
    }
    // the bit past the last, which only compact checks' unused positions
    // read
    for (uint32_t w = team.thread(); w < groups * F; w += team.threads())
        A::set_input(state(w / F).belief, nullptr, size_t(g.n) * F + w % F, 0);
    // check messages start at 0 (the lanes of frames beyond the batch too)
    // (rounded up: the c2v region ends on a 16-byte boundary)
    const uint32_t c2v_words = uint32_t((layout.c2v_bytes + 3) / 4);
    for (uint32_t w = team.thread(); w < groups * c2v_words; w += team.threads()) {
        const uint32_t gr = w / c2v_words;
        reinterpret_cast<uint32_t*>(state(gr).c2v)[w - gr * c2v_words] =
            A::zero_message_word;
    }
    team.sync();

    // unsatisfied checks of the live frames (all: every frame) into
    // k.syndrome, which is 0 for them on entry. A block counts a lane's
    // frames in registers; in the grid a warp takes a contiguous share of
    // the checks of a group or two and adds its counts once a group (an
    // atomic add an unsatisfied check of a failing frame took longer than
    // the decoding: 5G NR BG1 at 1 dB, H100). Between iterations (!all) only
    // whether a frame has one matters (retire_converged): there the grid
    // marks the frame and skips the checks of frames already marked (a lane
    // stops reading the flags of a frame it saw done or marked); the final
    // count (all) gives the weights.
    auto count_syndromes = [&](bool all) {
        uint32_t local[P] = {}; // the lane's frames (the grid: of group `counting`)
        uint32_t counting = UINT32_MAX;
        // the grid between iterations: frame j of group `counting` is done,
        // beyond the batch or marked, and stays so for the count (its flags
        // are not read again)
        bool settled[P] = {};
        auto marked = [&](uint32_t fr) {
            if constexpr (Team::single_group)
                return false;
            else
                return !all && __ldcg(k.syndrome + fr) != 0;
        };
        auto add_counts = [&]() {
            if (counting == UINT32_MAX)
                return;
#pragma unroll
            for (unsigned j = 0; j < P; ++j)
                if (local[j])
                    atomicAdd(&k.syndrome[frame(counting, threadIdx.x & (G - 1), j)],
                              local[j]);
#pragma unroll
            for (unsigned j = 0; j < P; ++j)
                local[j] = 0;
        };
        auto check_parity = [&](uint32_t gr, uint32_t c, unsigned f) {
            if constexpr (!Team::single_group) {
                if (gr != counting) {
                    add_counts();
                    counting = gr;
#pragma unroll
                    for (unsigned j = 0; j < P; ++j)
                        settled[j] = false;
                }
            }
            bool counted[P], any = false;
#pragma unroll
            for (unsigned j = 0; j < P; ++j) {
                const uint32_t fr = frame(gr, f, j);
                counted[j] = !settled[j] && fr < team_frames && (all || !k.done[fr]) &&
                             !marked(fr);
                if (!Team::single_group && !all)
                    settled[j] = !counted[j];
                any |= counted[j];
            }
            if (!any)
                return;
            const group_state<A> s = state(gr);
            uint32_t parity = 0; // bit j: frame j
            const uint32_t e1 = __ldg(g.check_offsets + c + 1);
            for (uint32_t e = __ldg(g.check_offsets + c); e < e1; ++e)
                parity ^= A::negative_bits(s.belief[__ldg(g.edge_variable + e) * G + f]);
#pragma unroll
            for (unsigned j = 0; j < P; ++j) {
                const uint32_t odd = counted[j] ? (parity >> j) & 1u : 0u;
                if (Team::single_group || all)
                    local[j] += odd;
                else if (odd) {
                    __stcg(k.syndrome + frame(gr, f, j), 1u); // read by __ldcg
                    settled[j] = true;
                }
            }
        };
        if constexpr (Team::single_group) {
            for_each_item<G>(team, groups, g.checks, check_parity);
#pragma unroll
            for (unsigned j = 0; j < P; ++j)
                if (local[j])
                    atomicAdd(&k.syndrome[(threadIdx.x & (G - 1)) * P + j], local[j]);
        } else {
            for_each_item<G, true>(team, groups, g.checks, check_parity);
            add_counts();
        }
        team.sync();
    };
    // frames whose syndrome is zero stop; the syndromes of the live frames
    // are set back to 0 for the next count
    auto retire_converged = [&]() {
        for (uint32_t fr = team.thread(); fr < team_frames; fr += team.threads()) {
            if (k.done[fr])
                continue;
            if (k.syndrome[fr] == 0) {
                k.done[fr] = 1;
                atomicSub(k.active, 1);
            }
            k.syndrome[fr] = 0;
        }
        team.sync();
    };

    if (p.early_termination) {
        count_syndromes(true);
        retire_converged();
    }

    for (unsigned it = 1; it <= p.max_iterations; ++it) {
        if (*k.active == 0)
            break;
        // a block's lane has one group: whether it decodes is known for the
        // whole iteration (frames retire between iterations)
        uint32_t block_keep = 0;
        const bool block_live =
            Team::single_group && lane_live(0, threadIdx.x & (G - 1), block_keep);
        auto live_lane = [&](uint32_t gr, unsigned f, uint32_t& keep) {
            if constexpr (Team::single_group) {
                keep = block_keep;
                return block_live;
            } else {
                return lane_live(gr, f, keep);
            }
        };
        if constexpr (Layered) {
            for (unsigned r = 0; r < g.runs; ++r) {
                const uint32_t r0 = __ldg(g.run_offsets + r),
                               r1 = __ldg(g.run_offsets + r + 1);
                auto step = [&](uint32_t gr, uint32_t i, unsigned f) {
                    uint32_t keep;
                    if (live_lane(gr, f, keep))
                        check_step<A, true, G, R>(g, state(gr), rule, r0 + i, f, keep);
                };
                for_each_item<G>(team, groups, r1 - r0, step);
                team.sync();
            }
        } else {
            for_each_item<G>(
                team, groups, g.checks, [&](uint32_t gr, uint32_t c, unsigned f) {
                    uint32_t keep;
                    if (live_lane(gr, f, keep))
                        check_step<A, false, G, R>(g, state(gr), rule, c, f, keep);
                });
            team.sync();
            for_each_item<G>(team, groups, g.n, [&](uint32_t gr, uint32_t v, unsigned f) {
                uint32_t keep;
                if (live_lane(gr, f, keep))
                    update_variable<A, G>(g, state(gr), v, f, keep);
            });
            team.sync();
        }
        for (uint32_t fr = team.thread(); fr < team_frames; fr += team.threads())
            if (!k.done[fr])
                k.iterations[fr] = it;
        if (p.early_termination) {
            count_syndromes(false);
            retire_converged();
        }
    }

    // the final syndromes of every frame
    for (uint32_t fr = team.thread(); fr < team_frames; fr += team.threads())
        k.syndrome[fr] = 0;
    team.sync();
    count_syndromes(true);

    // decisions, frame after frame (coalesced); packed, a thread's byte has
    // eight of them
    auto info_bit = [&](uint32_t fr, uint32_t i) -> unsigned {
        const uint32_t v = __ldg(g.info_positions + i);
        return A::negative_at(state(fr / F).belief, size_t(v) * F + fr % F);
    };
    if (p.pack_info_bits) {
        const uint32_t bytes = (g.k + 7) / 8, info = team_frames * bytes;
        for (uint32_t w = team.thread(); w < info; w += team.threads()) {
            const uint32_t fr = w / bytes, i0 = 8 * (w - fr * bytes);
            unsigned byte = 0;
            for (uint32_t i = i0; i < min(i0 + 8, g.k); ++i)
                byte |= info_bit(fr, i) << (7 - (i - i0));
            p.info_bits[(first_frame + fr) * bytes + (i0 / 8)] = uint8_t(byte);
        }
    } else {
        const uint32_t info = team_frames * g.k;
        for (uint32_t w = team.thread(); w < info; w += team.threads()) {
            const uint32_t fr = w / g.k, i = w - fr * g.k;
            p.info_bits[(first_frame + fr) * g.k + i] = info_bit(fr, i);
        }
    }
    if (p.codeword_bits)
        for (uint32_t w = team.thread(); w < values; w += team.threads()) {
            const uint32_t fr = w / g.n, v = w - fr * g.n;
            p.codeword_bits[(first_frame + fr) * g.n + v] =
                A::negative_at(state(fr / F).belief, size_t(v) * F + fr % F);
        }
    for (uint32_t fr = team.thread(); fr < team_frames; fr += team.threads()) {
        min_sum_status& st = p.status[first_frame + fr];
        st.converged = k.syndrome[fr] == 0;
        st.iterations = k.iterations[fr];
        st.syndrome_weight = k.syndrome[fr];
        st.invalid_inputs = k.invalid[fr];
    }
}

// On chip: a block decodes a group (G lanes of A's frames_per_lane frames),
// its state in shared memory.
template <typename A, bool Layered, unsigned G, check_records R>
__global__ void __launch_bounds__(1024) min_sum_block_kernel(const min_sum_params p)
{
    constexpr unsigned F = G * A::frames_per_lane;
    static_assert(sizeof(uint32_t) * 4 * F + sizeof(int) <= counter_bytes(F),
                  "the per-frame counters fit the static shared memory allowed for");
    extern __shared__ __align__(16) uint8_t shared[];
    __shared__ uint32_t syndrome[F], invalid[F], iterations[F], done[F];
    __shared__ int active;
    const size_t first = size_t(blockIdx.x) * F;
    const uint32_t frames = uint32_t(min(size_t(F), p.n_frames - first));
    decode<A, Layered, G, R>(
        p,
        block_team{},
        shared,
        first,
        frames,
        frame_counters{ syndrome, invalid, iterations, done, &active });
}

// Split: a block decodes a group at a time, its beliefs in shared memory,
// its check messages in the block's region of the workspace (a resident
// block's few hundred kilobytes stay in L2: DVB-S2's 64800 bits); the blocks
// take the groups in turn.
template <typename A, bool Layered, unsigned G, check_records R>
__global__ void __launch_bounds__(1024) min_sum_split_kernel(const min_sum_params p)
{
    constexpr unsigned F = G * A::frames_per_lane;
    extern __shared__ __align__(16) uint8_t shared[];
    __shared__ uint32_t syndrome[F], invalid[F], iterations[F], done[F];
    __shared__ int active;
    uint8_t* const messages = p.workspace + size_t(blockIdx.x) * p.variant.message_bytes;
    const size_t groups = (p.n_frames + F - 1) / F;
    for (size_t group = blockIdx.x; group < groups; group += gridDim.x) {
        const size_t first = group * F;
        decode<A, Layered, G, R>(
            p,
            block_team{},
            shared,
            first,
            uint32_t(min(size_t(F), p.n_frames - first)),
            frame_counters{ syndrome, invalid, iterations, done, &active },
            messages);
        // the counters are read to the end of a group's decoding
        __syncthreads();
    }
}

// Resident blocks of the grid kernel an SM. The 8-bit rule's checks read from
// the graph's arrays wait on their loads (ncu, 5G NR BG1: 61 % of the warps'
// cycles a frame a lane, 49 % in 16-bit pairs): three blocks hide more of
// that (40 registers, a few bytes spilled; H100: 1.15x a frame a lane, 1.04x
// host to host in 16-bit pairs, layered; their flooding, which the H100 keeps
// on chip, not measured). Compact records keep two: their registers hold a
// check's reads, and 40 would spill them. fp16 pair lanes (DVB-S2 9/10) were
// no faster at three, the float rules not measured. Turing holds 1024
// threads an SM: two.
template <typename A, check_records R>
__host__ __device__ constexpr unsigned grid_blocks_per_sm()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
    return 2;
#else
    return A::rule == binary_rule::fixed_min_sum && R == check_records::graph &&
                   (A::frames_per_lane == 1 || std::is_same_v<A, fixed8_wide_pair_arith>)
               ? 3
               : 2;
#endif
}

// Global: the whole grid (a cooperative launch) decodes the batch, groups of
// 32 lanes (32 frames, or 64 in pairs) with their state in the workspace,
// every step spread over all blocks.
template <typename A, bool Layered, check_records R>
__global__ void __launch_bounds__(grid_threads, grid_blocks_per_sm<A, R>())
    min_sum_grid_kernel(const min_sum_params p)
{
    constexpr unsigned G = max_block_frames, F = G * A::frames_per_lane;
    const size_t groups = (p.n_frames + F - 1) / F;
    const size_t counters = align_up(groups * p.variant.state_bytes, 16);
    uint32_t* base = reinterpret_cast<uint32_t*>(p.workspace + counters);
    const uint32_t n = uint32_t(p.n_frames);
    decode<A, Layered, G, R>(p,
                             grid_team{},
                             p.workspace,
                             0,
                             n,
                             frame_counters{ base,
                                             base + n,
                                             base + 2 * n,
                                             base + 3 * n,
                                             reinterpret_cast<int*>(base + 4 * n) });
}

// Kernels by arithmetic, schedule, group size and whether the checks have
// compact records.
template <typename A, bool Layered, check_records R>
const void* block_kernel(unsigned frames)
{
    switch (frames / A::frames_per_lane) {
    case 1:
        return reinterpret_cast<const void*>(&min_sum_block_kernel<A, Layered, 1, R>);
    case 2:
        return reinterpret_cast<const void*>(&min_sum_block_kernel<A, Layered, 2, R>);
    case 4:
        return reinterpret_cast<const void*>(&min_sum_block_kernel<A, Layered, 4, R>);
    case 8:
        return reinterpret_cast<const void*>(&min_sum_block_kernel<A, Layered, 8, R>);
    case 16:
        return reinterpret_cast<const void*>(&min_sum_block_kernel<A, Layered, 16, R>);
    case 32:
        return reinterpret_cast<const void*>(&min_sum_block_kernel<A, Layered, 32, R>);
    }
    throw std::invalid_argument(
        "launch_min_sum: variant.frames=" + std::to_string(frames) +
        " is not usable on chip; allowed: 1, 2, 4, 8, 16, 32 (2 to 64 in pairs)");
}

// The kernel of a schedule and record kind: a block a group on chip, split
// (layered 8-bit rule: one lane a group), or the grid.
template <typename A, bool Layered, check_records R>
const void* kernel_of(const min_sum_params& p)
{
    if (p.variant.split) {
        if constexpr (Layered && A::rule == binary_rule::fixed_min_sum &&
                      R != check_records::graph) {
            if (p.variant.frames == A::frames_per_lane)
                return reinterpret_cast<const void*>(
                    &min_sum_split_kernel<A, Layered, 1, R>);
        }
        throw std::invalid_argument(
            "launch_min_sum: variant.split takes the 8-bit rule, layered, with "
            "compact check records and one lane a group; variant.frames=" +
            std::to_string(p.variant.frames));
    }
    return p.variant.on_chip
               ? block_kernel<A, Layered, R>(p.variant.frames)
               : reinterpret_cast<const void*>(&min_sum_grid_kernel<A, Layered, R>);
}

template <typename A>
const void* choose_kernel_of(const min_sum_params& p)
{
    using R = check_records;
    const bool compact = p.graph.slot_edges != nullptr && p.graph.slot_variables;
    const R records = !compact                            ? R::graph
                      : p.layered && p.graph.full_records ? R::full
                                                          : R::compact;
    if constexpr (A::compressed) {
        // layered with compact records only (min_sum_compressed_usable)
        return records == R::full ? kernel_of<A, true, R::full>(p)
                                  : kernel_of<A, true, R::compact>(p);
    } else {
        if (p.layered)
            return records == R::full      ? kernel_of<A, true, R::full>(p)
                   : records == R::compact ? kernel_of<A, true, R::compact>(p)
                                           : kernel_of<A, true, R::graph>(p);
        return compact ? kernel_of<A, false, R::compact>(p)
                       : kernel_of<A, false, R::graph>(p);
    }
}

// 16-bit pairs take the global variant with checks read from the graph's
// arrays only (min_sum_choose)
void check_wide_pairs(const min_sum_params& p)
{
    if (p.variant.wide_pairs &&
        (p.variant.on_chip || (p.graph.slot_edges && p.graph.slot_variables)))
        throw std::invalid_argument(
            "launch_min_sum: variant.wide_pairs takes the global variant with checks "
            "read from the graph's arrays (no compact records)");
}

// The 16-bit pair kernels of both schedules.
const void* wide_pair_kernel(const min_sum_params& p)
{
    using A = fixed8_wide_pair_arith;
    check_wide_pairs(p);
    return p.layered ? reinterpret_cast<const void*>(
                           &min_sum_grid_kernel<A, true, check_records::graph>)
                     : reinterpret_cast<const void*>(
                           &min_sum_grid_kernel<A, false, check_records::graph>);
}

const void* choose_kernel(const min_sum_params& p)
{
    switch (p.variant.rule) {
    case binary_rule::fixed_min_sum:
        if (p.variant.wide_pairs)
            return wide_pair_kernel(p);
        if (p.variant.compressed)
            return p.variant.pairs
                       ? choose_kernel_of<compressed_arith<fixed8_pair_arith>>(p)
                       : choose_kernel_of<compressed_arith<fixed8_arith>>(p);
        return p.variant.pairs ? choose_kernel_of<fixed8_pair_arith>(p)
                               : choose_kernel_of<fixed8_arith>(p);
    case binary_rule::float_min_sum:
        return choose_kernel_of<float_arith<binary_rule::float_min_sum>>(p);
    case binary_rule::float_sum_product:
        return choose_kernel_of<float_arith<binary_rule::float_sum_product>>(p);
    }
    throw std::invalid_argument("launch_min_sum: unknown variant.rule");
}

} // namespace

bool min_sum_full_records(size_t checks, size_t edges, bool layered, bool on_chip)
{
    // H100: on chip, checks of 7 or 8 edges (Wi-Fi n = 1944) 1.12x, of 6
    // edges ((3,6) n = 1008) 0.93x; the global variant's DVB-S2 rate 1/2
    // (checks of 5.4 and 7 edges) 1.04x and 1.07x
    return layered && checks > 0 && (!on_chip || edges >= 7 * checks);
}

bool min_sum_compact_usable(unsigned n, unsigned max_check_degree, size_t edges)
{
    return n <= 65536 && max_check_degree <= min_sum_compact_degree &&
           edges < (size_t(1) << 28);
}

void min_sum_compact_checks(const uint32_t* check_offsets,
                            const uint32_t* edge_variable,
                            const uint32_t* order,
                            size_t checks,
                            unsigned n,
                            std::vector<uint32_t>& slot_edges,
                            std::vector<uint16_t>& slot_variables)
{
    constexpr unsigned D = min_sum_compact_degree;
    static_assert(D == 8, "a check's bits fill one uint4 record");
    if (n > 65536)
        throw std::invalid_argument("min_sum_compact_checks: n=" + std::to_string(n) +
                                    " has no compact records; allowed: n <= 65536");
    slot_edges.assign(checks, 0);
    slot_variables.assign(checks * D, 0);
    for (size_t slot = 0; slot < checks; ++slot) {
        const uint32_t c = order[slot];
        if (c >= checks)
            throw std::invalid_argument("min_sum_compact_checks: order[" +
                                        std::to_string(slot) + "]=" + std::to_string(c) +
                                        " is not a check; allowed: below " +
                                        std::to_string(checks));
        const uint32_t e0 = check_offsets[c], deg = check_offsets[c + 1] - e0;
        if (deg > D || e0 >= (1u << 28))
            throw std::invalid_argument(
                "min_sum_compact_checks: check " + std::to_string(c) + " (degree " +
                std::to_string(deg) + ", first edge " + std::to_string(e0) +
                ") has no compact record; allowed: degree <= " + std::to_string(D) +
                ", edges < 2^28");
        slot_edges[slot] = e0 | deg << 28;
        for (uint32_t i = 0; i < deg; ++i)
            slot_variables[slot * D + i] = uint16_t(edge_variable[e0 + i]);
    }
}

size_t min_sum_state_bytes(const min_sum_graph& g,
                           bool layered,
                           binary_rule rule,
                           unsigned frames,
                           bool compressed)
{
    return state_layout(g.n, g.edges, g.checks, layered, rule, frames, compressed).bytes;
}

bool min_sum_compressed_usable(const min_sum_graph& g, bool layered, binary_rule rule)
{
    return layered && rule == binary_rule::fixed_min_sum && g.slot_edges != nullptr &&
           g.slot_variables != nullptr;
}

size_t min_sum_global_batch(const min_sum_graph& g,
                            const min_sum_variant& v,
                            bool layered,
                            unsigned sms)
{
    min_sum_params p{};
    p.graph = g;
    p.variant = v;
    p.layered = layered;
    int per_sm = 0;
    GPULDPC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, choose_kernel(p), grid_threads, 0));
    // a step's items (a run's checks, or all checks), a warp each for a
    // group: twice the grid's warps
    const size_t warps = size_t(std::max(per_sm, 1)) * sms * (grid_threads / 32);
    const size_t items = std::max<size_t>(
        1, layered && g.runs > 0 ? (g.checks + g.runs - 1) / g.runs : g.checks);
    return (2 * warps + items - 1) / items * v.frames;
}

size_t min_sum_max_global_frames(const min_sum_graph& g)
{
    // the grid's indices over frames x bits and frames x edges are 32-bit
    // (the state has a bit and a message more than the code)
    const size_t per_frame = std::max<size_t>({ g.n + 1, g.k, g.edges + 1 });
    // whole groups of pairs, so that a last group rounded up stays in range
    constexpr size_t whole = 2 * max_block_frames;
    const size_t fit = size_t(UINT32_MAX) / per_frame;
    return fit > 2 * whole ? (fit - whole) / whole * whole : whole;
}

size_t min_sum_workspace_bytes(const min_sum_variant& v, size_t n_frames)
{
    const size_t groups = (n_frames + v.frames - 1) / v.frames;
    if (v.split)
        return std::min<size_t>(groups, v.blocks) * v.message_bytes;
    if (v.on_chip)
        return 0;
    // the group states, then 4 counters a frame and the count of live frames
    return align_up(groups * v.state_bytes, 16) + 4 * sizeof(uint32_t) * n_frames +
           sizeof(int);
}

namespace {

min_sum_variant on_chip_variant(const min_sum_graph& g,
                                bool layered,
                                binary_rule rule,
                                unsigned lanes,
                                unsigned per_lane,
                                bool compressed)
{
    min_sum_variant v{};
    v.rule = rule;
    v.pairs = per_lane == 2;
    v.on_chip = true;
    v.frames = lanes * per_lane;
    v.threads = 32;
    v.compressed = compressed;
    v.state_bytes = min_sum_state_bytes(g, layered, rule, v.frames, compressed);
    v.shared_bytes = v.state_bytes;
    return v;
}

} // namespace

size_t
min_sum_blocks_per_sm(const min_sum_variant& v, const min_sum_sm& sm, unsigned registers)
{
    const size_t per_block =
        v.shared_bytes + counter_bytes(v.frames) + sm.reserved_per_block;
    const size_t warps = std::max<size_t>((v.threads + 31) / 32, 1);
    const size_t warp_registers = align_up(size_t(std::max(registers, 1u)) * 32, 256);
    return std::min({ sm.shared_bytes / per_block,
                      size_t(sm.threads) / (32 * warps),
                      size_t(sm.registers) / (warp_registers * warps),
                      size_t(sm.blocks) });
}

min_sum_variant min_sum_choose(const min_sum_graph& g,
                               bool layered,
                               binary_rule rule,
                               const min_sum_choice& choice)
{
    const min_sum_sm& sm = choice.sm;
    auto registers = [&](const min_sum_variant& v) {
        return choice.registers ? choice.registers(v) : block_kernel_registers;
    };
    const bool pairs = choice.pairs && min_sum_pairs_exact(g, layered, rule);
    const bool compressed =
        choice.compressed && min_sum_compressed_usable(g, layered, rule);
    const bool compressed_on_chip = compressed && choice.compressed_on_chip;
    // layered: the checks of a run at once, a lane each
    const size_t run_checks =
        layered && g.runs > 0 ? (g.checks + g.runs - 1) / g.runs : 0;
    // Runs of few checks keep few warps busy, and a pair lane's check takes
    // longer: there one frame a lane in groups of 8 lanes or more (the (3,6)
    // n = 1008 code, runs of 7 checks, H100: 32 lanes of one frame 4.15
    // Gbit/s; 1, 2 or 4 lanes of pairs 2.5 to 2.9)
    const bool short_runs = layered && g.runs > 0 && run_checks < min_pair_run;

    // The threads of a block of v (flooding, and layered short runs): as
    // many as keep the blocks an SM holds by its shared memory (as far as
    // threads and registers allow), at least 128 (a check step has checks
    // enough for them); a multiple of 32 up to 1024.
    auto block_threads = [&](min_sum_variant v) {
        const size_t per_block =
            v.shared_bytes + counter_bytes(v.frames) + sm.reserved_per_block;
        const size_t by_shared =
            std::max<size_t>(1, std::min<size_t>(sm.shared_bytes / per_block, sm.blocks));
        const unsigned r = registers(v);
        unsigned fill = 32;
        for (unsigned t = 1024; t > 32; t -= 32) {
            v.threads = t;
            if (min_sum_blocks_per_sm(v, sm, r) >= by_shared) {
                fill = t;
                break;
            }
        }
        return unsigned(
            std::clamp<size_t>(std::max<size_t>(fill, min_flooding_threads), 32, 1024));
    };

    min_sum_variant best{};
    size_t best_frames = 0; // resident an SM
    for (const unsigned per_lane : { pairs && !short_runs ? 2u : 1u, 1u }) {
        if (!choice.on_chip)
            break;
        // flooding and layered in pairs: the smallest group first; layered
        // short runs: one frame a lane in the largest group that fits
        const bool largest_first = short_runs && per_lane == 1 && !choice.lanes;
        const auto& order = largest_first ? short_run_lanes : smaller_first;
        for (const unsigned lanes : order) {
            if (lanes == 0 || (choice.lanes && lanes != choice.lanes))
                continue;
            min_sum_variant v =
                on_chip_variant(g, layered, rule, lanes, per_lane, compressed_on_chip);
            if (v.shared_bytes + counter_bytes(v.frames) > choice.shared_limit)
                continue;
            // layered: a lane for each check of a run (more threads than
            // that only wait at the runs' barriers: n = 1944, 1 lane of pairs,
            // H100: 96 threads 10.0 Gbit/s, 160 9.8, 256 8.9)
            v.threads = layered && !largest_first
                            ? unsigned(std::clamp<size_t>(
                                  align_up(run_checks * lanes, 32), 32, 1024))
                            : block_threads(v);
            const size_t frames =
                std::max<size_t>(1, min_sum_blocks_per_sm(v, sm, registers(v))) *
                v.frames;
            if (!layered || largest_first)
                return v; // the first that fits
            // layered: the most frames resident an SM; of as many, the
            // smaller group, but blocks of 3 warps or more (n = 648: 8 lanes
            // of pairs in 4 warps 8.9 Gbit/s, 2 lanes in 2 warps 8.8, 1 lane
            // in 1 or 2 warps 5.4 to 8.1)
            const bool roomier =
                best.threads < min_layered_threads && v.threads >= min_layered_threads;
            if (frames > best_frames || (frames == best_frames && roomier)) {
                best = v;
                best_frames = frames;
            }
        }
        if (best_frames >= min_sum_layered_frames_per_sm ||
            (choice.lanes && best_frames > 0))
            return best;
    }
    // Split: one lane's beliefs in shared memory, in pairs where they fit;
    // a lane for each check of a run. DVB-S2 rate 1/2 (64800 bits, one
    // frame a block): the messages of the 132 resident blocks of an H100
    // are 17 MB, which L2 holds.
    // Compact records only: a check's bits in two loads (read from the
    // graph's arrays, one dependent load an edge, a step of the few warps
    // takes 8x longer: DVB-S2 rate 3/4).
    if (choice.on_chip && choice.split && layered && rule == binary_rule::fixed_min_sum &&
        g.slot_edges && g.slot_variables) {
        for (const unsigned per_lane : { pairs ? 2u : 1u, 1u }) {
            min_sum_variant v{};
            v.rule = rule;
            v.pairs = per_lane == 2;
            v.on_chip = true;
            v.split = true;
            v.compressed = compressed;
            v.frames = per_lane;
            const state_layout layout(
                g.n, g.edges, g.checks, layered, rule, v.frames, compressed);
            v.state_bytes = layout.bytes;
            v.shared_bytes = layout.belief_bytes();
            v.message_bytes = layout.message_bytes();
            if (v.shared_bytes + counter_bytes(v.frames) > choice.shared_limit)
                continue;
            // a lane for each check of the longest run (DVB-S2: 360, where
            // the average is 331)
            v.threads = unsigned(std::clamp<size_t>(
                align_up(std::max<size_t>(g.longest_run, run_checks), 32), 32, 1024));
            const size_t per_sm = min_sum_blocks_per_sm(v, sm, registers(v));
            // the warps of an SM busy in a step, at least (else the global
            // variant, whose steps take a run's checks of many frames)
            if (per_sm * ((run_checks + 31) / 32) < min_split_warps)
                continue;
            v.blocks = unsigned(per_sm * std::max(choice.sms, 1u));
            return v;
        }
    }
    min_sum_variant v{};
    v.rule = rule;
    v.pairs = pairs;
    // 16-bit pairs where fp16 ones are not exact, for checks read from the
    // graph's arrays (5G NR BG1, H100: see choice.wide_pairs)
    v.wide_pairs = !pairs && choice.pairs && choice.wide_pairs &&
                   rule == binary_rule::fixed_min_sum &&
                   !(g.slot_edges && g.slot_variables);
    v.pairs = v.pairs || v.wide_pairs;
    v.on_chip = false;
    v.compressed = compressed;
    v.frames = max_block_frames * (v.pairs ? 2 : 1);
    v.threads = grid_threads;
    v.state_bytes = min_sum_state_bytes(g, layered, rule, v.frames, compressed);
    v.shared_bytes = 0;
    return v;
}

unsigned
min_sum_block_registers(const min_sum_variant& v, const min_sum_graph& g, bool layered)
{
    min_sum_params p{};
    p.variant = v;
    p.layered = layered;
    p.graph = g;
    cudaFuncAttributes a{};
    GPULDPC_CUDA_CHECK(cudaFuncGetAttributes(&a, choose_kernel(p)));
    return unsigned(a.numRegs);
}

bool min_sum_pairs_exact(const min_sum_graph& g, bool layered, binary_rule rule)
{
    // beliefs sum the channel value and a message a check (layered too):
    // within 127 (1 + 15) = 2032 for bits of degree 15 at most
    (void)layered;
    return rule == binary_rule::fixed_min_sum && g.max_variable_degree <= max_pair_degree;
}

std::string min_sum_describe(const min_sum_variant& v, bool compact_records)
{
    std::string s = v.rule == binary_rule::fixed_min_sum   ? "8-bit min-sum"
                    : v.rule == binary_rule::float_min_sum ? "float min-sum"
                                                           : "float sum-product";
    s += !v.on_chip ? ", global: state in device memory, one grid"
         : v.split  ? ", split: beliefs on chip, check messages in device memory, " +
                         std::to_string(v.blocks) + " blocks at most"
                   : ", on chip: state in shared memory";
    s += v.wide_pairs ? ", two frames a lane in 16-bit integer pairs"
         : v.pairs    ? ", two frames a lane in fp16 pairs"
                      : ", a frame a lane";
    if (v.compressed)
        s += ", compressed check messages";
    if (compact_records)
        s += ", compact check records";
    return s + ", " + std::to_string(v.frames) +
           (v.frames == 1 ? " frame a group, " : " frames a group, ") +
           std::to_string(v.threads) + " threads a block";
}

void launch_min_sum(const min_sum_params& p, cudaStream_t stream)
{
    if (p.n_frames == 0)
        return;
    if ((!p.variant.on_chip || p.variant.split) && !p.workspace)
        throw std::invalid_argument("launch_min_sum: the global and split variants "
                                    "need a workspace");
    if (p.variant.split &&
        (!p.variant.on_chip || p.variant.blocks == 0 || p.variant.message_bytes == 0))
        throw std::invalid_argument("launch_min_sum: variant.split needs on_chip, blocks "
                                    "and message_bytes (min_sum_choose)");
    if (p.layered && (!p.graph.run_checks || !p.graph.run_offsets))
        throw std::invalid_argument("launch_min_sum: layered needs the runs");
    if (p.variant.rule == binary_rule::fixed_min_sum && p.graph.max_variable_degree > 256)
        throw std::invalid_argument(
            "launch_min_sum: a bit of degree " +
            std::to_string(p.graph.max_variable_degree) +
            " overflows the 16-bit beliefs; allowed: degrees up to 256");
    if (p.graph.slot_edges && p.graph.slot_variables &&
        !min_sum_compact_usable(p.graph.n, p.graph.max_check_degree, p.graph.edges))
        throw std::invalid_argument(
            "launch_min_sum: compact check records for a code of n=" +
            std::to_string(p.graph.n) + " with checks of degree " +
            std::to_string(p.graph.max_check_degree) + " and " +
            std::to_string(p.graph.edges) + " edges; allowed: n <= 65536, degree <= " +
            std::to_string(min_sum_compact_degree) + ", edges < 2^28");
    if (p.variant.on_chip && (p.variant.threads < 32 || p.variant.threads > 1024 ||
                              p.variant.threads % 32 != 0))
        throw std::invalid_argument(
            "launch_min_sum: variant.threads=" + std::to_string(p.variant.threads) +
            " is not usable on chip; allowed: a multiple of 32 "
            "from 32 to 1024");
    if (p.variant.pairs && p.variant.frames % 2 != 0)
        throw std::invalid_argument(
            "launch_min_sum: variant.frames=" + std::to_string(p.variant.frames) +
            " with pairs; allowed: an even number");
    if (p.variant.compressed &&
        !min_sum_compressed_usable(p.graph, p.layered, p.variant.rule))
        throw std::invalid_argument("launch_min_sum: variant.compressed takes the 8-bit "
                                    "rule, layered, with compact check records");
    if (p.variant.wide_pairs &&
        (!p.variant.pairs || p.variant.rule != binary_rule::fixed_min_sum))
        throw std::invalid_argument(
            "launch_min_sum: variant.wide_pairs takes pairs and the 8-bit rule");
    if (p.variant.pairs && !p.variant.wide_pairs &&
        !min_sum_pairs_exact(p.graph, p.layered, p.variant.rule))
        throw std::invalid_argument(
            "launch_min_sum: variant.pairs (fp16) takes the 8-bit rule, and bits of "
            "degree " +
            std::to_string(max_pair_degree) + " at most; wide_pairs any degree");
    if (!p.variant.on_chip && p.n_frames > min_sum_max_global_frames(p.graph))
        throw std::invalid_argument(
            "launch_min_sum: n_frames=" + std::to_string(p.n_frames) +
            " is too many for one launch of the global variant; allowed: up to " +
            std::to_string(min_sum_max_global_frames(p.graph)));
    check_wide_pairs(p);
    // the kernel writes the status fields, not the struct's padding, which
    // the engine copies to the host with them
    GPULDPC_CUDA_CHECK(
        cudaMemsetAsync(p.status, 0, p.n_frames * sizeof(min_sum_status), stream));
    if (p.variant.on_chip) {
        const void* kernel = choose_kernel(p);
        // beyond 48 KiB with the static counters, dynamic shared memory is
        // opted into
        if (p.variant.shared_bytes + counter_bytes(p.variant.frames) > 48 * 1024)
            allow_large_shared_memory(kernel);
        size_t blocks = (p.n_frames + p.variant.frames - 1) / p.variant.frames;
        if (p.variant.split)
            blocks = std::min<size_t>(blocks, p.variant.blocks);
        min_sum_params q = p;
        void* args[] = { &q };
        GPULDPC_CUDA_CHECK(cudaLaunchKernel(kernel,
                                            dim3(unsigned(blocks)),
                                            dim3(p.variant.threads),
                                            args,
                                            p.variant.shared_bytes,
                                            stream));
        GPULDPC_CUDA_CHECK_LAUNCH(p.variant.split ? "min_sum_split_kernel"
                                                  : "min_sum_block_kernel");
        return;
    }
    if (p.variant.frames != max_block_frames * (p.variant.pairs ? 2 : 1) ||
        p.variant.threads != grid_threads)
        throw std::invalid_argument("launch_min_sum: the global variant takes " +
                                    std::to_string(max_block_frames) +
                                    " lanes a group (frames, or pairs of them)");
    const void* kernel = choose_kernel(p);
    // as many blocks as can be resident at once (a cooperative launch), no
    // more than the work needs
    int device = 0, sms = 0, per_sm = 0;
    GPULDPC_CUDA_CHECK(cudaGetDevice(&device));
    GPULDPC_CUDA_CHECK(
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    GPULDPC_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, grid_threads, 0));
    const size_t groups = (p.n_frames + max_block_frames - 1) / max_block_frames;
    const size_t warps_needed =
        groups * std::max<size_t>(p.graph.checks, p.graph.n); // a warp an item
    const size_t blocks = std::max<size_t>(
        1,
        std::min<size_t>(size_t(std::max(per_sm, 1)) * size_t(sms),
                         (warps_needed + grid_threads / 32 - 1) / (grid_threads / 32)));
    min_sum_params q = p;
    void* args[] = { &q };
    GPULDPC_CUDA_CHECK(cudaLaunchCooperativeKernel(
        kernel, dim3(unsigned(blocks)), dim3(grid_threads), args, 0, stream));
    GPULDPC_CUDA_CHECK_LAUNCH("min_sum_grid_kernel");
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
