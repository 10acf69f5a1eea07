/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_BINARY_QC_UNROLLED_CHECK_CUH
#define INCLUDED_GPULDPC_KERNELS_BINARY_QC_UNROLLED_CHECK_CUH

// A base row's check in the quasi-cyclic family's kernel with checks unrolled
// by row degree (quasi_cyclic.cu): an instance a degree, its positions
// compile-time constants and its addresses made once, two frames a lane in
// 16-bit integer pairs (qc_check_pair_of_degree) or fp16 pairs
// (qc_check_half_of_degree), chosen a row by qc_check_pair_dispatch.

#include "binary/pair_arithmetic.cuh"
#include "binary/qc_check.cuh"
#include "binary/qc_profiles.h"
#include <cuda_fp16.h>
#include <type_traits>
#include <cstdint>
#include <utility>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace binary {

// f(std::integral_constant<unsigned, K>) for K = 0 .. N - 1, in order, each
// K a compile-time constant in f's body.
template <typename F, unsigned... K>
__device__ __forceinline__ void for_each_constant(F&& f,
                                                  std::integer_sequence<unsigned, K...>)
{
    (f(std::integral_constant<unsigned, K>{}), ...);
}
template <unsigned N, typename F>
__device__ __forceinline__ void for_each_constant(F&& f)
{
    for_each_constant(f, std::make_integer_sequence<unsigned, N>{});
}

// -x in each half
__device__ __forceinline__ uint32_t negated16x2(uint32_t x)
{
    return __vadd2(~x, 0x00010001u);
}

// The message of a half: -mag where its mask negative is set, else mag;
// mag mag2 where at_min is set, else mag1 (minus: -mag1, -mag2).
__device__ __forceinline__ uint32_t qc_select_message(uint32_t at_min,
                                                      uint32_t negative,
                                                      uint32_t mag1,
                                                      uint32_t mag2,
                                                      uint32_t minus_mag1,
                                                      uint32_t minus_mag2)
{
    const uint32_t if_min = (minus_mag2 & negative) | (mag2 & ~negative);
    const uint32_t otherwise = (minus_mag1 & negative) | (mag1 & ~negative);
    return (if_min & at_min) | (otherwise & ~at_min);
}

// A pair lane's stored word for base rows of up to 16 blocks: the message
// signs of position k in bits k (low frame) and 16 + k (high frame) of x,
// each frame's position of its smallest input as a bit of its half of y
// (bit k of the half: position k), mag1 in z and mag2 in w (s16x2). A
// position's masks are then a shift and a PRMT each, and the magnitudes
// need no unpacking.
struct qc_one_hot_pair {
    uint32_t negative, smallest, mag1, mag2, minus_mag1, minus_mag2;

    __device__ __forceinline__ explicit qc_one_hot_pair(uint4 w)
        : negative(w.x),
          smallest(w.y),
          mag1(w.z),
          mag2(w.w),
          minus_mag1(negated16x2(w.z)),
          minus_mag2(negated16x2(w.w))
    {
    }
    // minus the message at position K (what a layered input adds to the
    // belief)
    template <unsigned K>
    __device__ __forceinline__ uint32_t negated_message() const
    {
        static_assert(K < 16, "a half holds 16 positions");
        return qc_select_message(sign_halves(smallest << (15 - K)),
                                 sign_halves(negative << (15 - K)),
                                 minus_mag1,
                                 minus_mag2,
                                 mag1,
                                 mag2);
    }
};

// The second pass of qc_check_pair_of_degree for rows of up to 16 blocks,
// the word stored as qc_one_hot_pair reads it (KEEP: the halves of keep
// stay as they were).
template <unsigned G, unsigned DEG, bool KEEP, unsigned LIMITED>
__device__ __forceinline__ uint4 qc_one_hot_outputs(const wide_pair_minima& mins,
                                                    uint32_t smallest,
                                                    const uint32_t (&at)[DEG],
                                                    const uint32_t (&x)[DEG],
                                                    uint32_t* belief,
                                                    uint32_t keep)
{
    static_assert(DEG <= 16, "a half holds 16 positions");
    const uint32_t one_hot =
        (1u << (smallest & 0xffffu)) | (0x10000u << (smallest >> 16));
    const uint32_t minus_mag1 = negated16x2(mins.mag1);
    const uint32_t minus_mag2 = negated16x2(mins.mag2);
    uint32_t negative_bits = 0;
    for_each_constant<DEG>([&](auto k) {
        constexpr unsigned K = decltype(k)::value;
        const uint32_t sign = mins.signs ^ x[K];
        negative_bits |= (sign & half_signs) >> (15 - K);
        uint32_t out = add16x2(x[K],
                               qc_select_message(sign_halves(one_hot << (15 - K)),
                                                 sign_halves(sign),
                                                 mins.mag1,
                                                 mins.mag2,
                                                 minus_mag1,
                                                 minus_mag2));
        if constexpr (K < LIMITED)
            out = fixed8_wide_pair_arith::limit(out);
        if constexpr (KEEP)
            qc_word(belief, at[K]) = (out & ~keep) | (qc_word(belief, at[K]) & keep);
        else
            qc_word(belief, at[K]) = out;
    });
    return make_uint4(negative_bits, one_hot, uint32_t(mins.mag1), uint32_t(mins.mag2));
}

// The second pass of qc_check_pair_of_degree: the messages out added to
// the beliefs at the kept addresses, and the check's stored word (KEEP: the
// halves of keep stay as they were).
template <unsigned G, unsigned DEG, bool KEEP, unsigned LIMITED>
__device__ __forceinline__ uint4 qc_pair_outputs_of_degree(const wide_pair_minima& mins,
                                                           uint32_t smallest,
                                                           const uint32_t (&at)[DEG],
                                                           const uint32_t (&x)[DEG],
                                                           uint32_t* belief,
                                                           uint32_t keep)
{
    uint32_t negative_low = 0, negative_high = 0;
    for_each_constant<DEG>([&](auto k) {
        constexpr unsigned K = decltype(k)::value;
        const uint32_t at_min =
            sign_halves(__vadd2(smallest ^ (K * 0x00010001u), 0xffffffffu));
        const uint32_t mag = (mins.mag2 & at_min) | (mins.mag1 & ~at_min);
        const uint32_t sign = mins.signs ^ x[K];
        const uint32_t negative = sign_halves(sign);
        const uint32_t signs = (sign & half_signs) >> (15 - K % 16);
        if constexpr (K < 16)
            negative_low |= signs;
        else
            negative_high |= signs;
        uint32_t out = add16x2(add16x2(x[K], mag ^ negative), negative & 0x00010001u);
        if constexpr (K < LIMITED)
            out = fixed8_wide_pair_arith::limit(out);
        if constexpr (KEEP)
            qc_word(belief, at[K]) = (out & ~keep) | (qc_word(belief, at[K]) & keep);
        else
            qc_word(belief, at[K]) = out;
    });
    return make_uint4(negative_low,
                      negative_high,
                      uint32_t(mins.mag1) | smallest << 8,
                      uint32_t(mins.mag2));
}

// qc_check_pair for a base row of exactly DEG blocks (its records at row,
// scaled to bytes as qc_byte reads them, with rs and minus_zs: check r of the
// row's lane reads the belief words at belief + qc_byte(...)): no test a
// position, and each position's address made once and kept for the second
// pass.
template <unsigned G, unsigned DEG, unsigned LIMITED>
__device__ __forceinline__ void qc_check_pair_of_degree(const uint2* row,
                                                        uint32_t rs,
                                                        uint32_t minus_zs,
                                                        uint32_t* belief,
                                                        const uint4 old_word,
                                                        uint4* word,
                                                        const wide_pair_minima& fresh,
                                                        uint32_t keep)
{
    static_assert(DEG >= 1 && DEG <= min_sum_qc_max_row_degree,
                  "a base row's checks hold up to 32 positions in a word");
    // rows of up to 16 blocks store their words as qc_one_hot_pair reads
    // them, longer ones as qc_stored_pair does
    constexpr bool one_hot = DEG <= 16;
    using stored = std::conditional_t<one_hot, qc_one_hot_pair, qc_stored_pair>;
    const stored old(old_word);
    qc_pair_keys keys;
    uint32_t at[DEG], x[DEG];
    for_each_constant<DEG>([&](auto k) {
        constexpr unsigned K = decltype(k)::value;
        at[K] = qc_byte(row[K], rs, minus_zs);
        x[K] = add16x2(qc_word(belief, at[K]), old.template negated_message<K>());
        keys.add<K>(x[K]);
    });
    wide_pair_minima mins = fresh;
    uint32_t smallest;
    keys.finish(mins, smallest);
    // frames that stay as they were (keep: early termination retired one
    // of the pair) in a branch of their own, so that the other checks carry
    // no instructions for them
    uint4 out;
    if (keep) {
        if constexpr (one_hot)
            out = qc_one_hot_outputs<G, DEG, true, LIMITED>(
                mins, smallest, at, x, belief, keep);
        else
            out = qc_pair_outputs_of_degree<G, DEG, true, LIMITED>(
                mins, smallest, at, x, belief, keep);
        out = make_uint4((out.x & ~keep) | (old_word.x & keep),
                         (out.y & ~keep) | (old_word.y & keep),
                         (out.z & ~keep) | (old_word.z & keep),
                         (out.w & ~keep) | (old_word.w & keep));
    } else if constexpr (one_hot) {
        out =
            qc_one_hot_outputs<G, DEG, false, LIMITED>(mins, smallest, at, x, belief, 0);
    } else {
        out = qc_pair_outputs_of_degree<G, DEG, false, LIMITED>(
            mins, smallest, at, x, belief, 0);
    }
    *word = out;
}

// ---- Checks unrolled by degree under the three-smallest rule ----
//
// A frame a lane (fixed8_three_arith's check_three_minima, positions as the
// edges' names), 16-bit beliefs at S = 2 G bytes a bit, the word as
// qc_stored_three_message reads it; no keep (a lane's frame, once retired,
// takes no check).

// the 16-bit belief at byte offset \p byte of \p base
__device__ __forceinline__ int16_t& qc_belief16(uint8_t* base, uint32_t byte)
{
    return *reinterpret_cast<int16_t*>(base + byte);
}

template <unsigned G, unsigned DEG, unsigned LIMITED>
__device__ __forceinline__ void qc_check_three_of_degree(const uint2* row,
                                                         uint32_t rs,
                                                         uint32_t minus_zs,
                                                         uint8_t* belief,
                                                         const uint4 old,
                                                         uint4* word,
                                                         const check_three_minima& fresh)
{
    static_assert(DEG >= 1 && DEG <= min_sum_qc_max_row_degree,
                  "a base row's checks hold up to 32 positions in a word");
    check_three_minima mins = fresh;
    uint32_t at[DEG];
    int32_t x[DEG];
    for_each_constant<DEG>([&](auto k) {
        constexpr unsigned K = decltype(k)::value;
        at[K] = qc_byte(row[K], rs, minus_zs);
        x[K] = int32_t(qc_belief16(belief, at[K])) - qc_stored_three_message(old, K);
        mins.add(x[K], K);
    });
    mins.finish();
    uint32_t negative = 0;
    for_each_constant<DEG>([&](auto k) {
        constexpr unsigned K = decltype(k)::value;
        const int32_t m = mins.message(x[K], K);
        negative |= uint32_t(m < 0) << K;
        const int32_t out = x[K] + m;
        qc_belief16(belief, at[K]) =
            int16_t(K < LIMITED ? fixed8_arith::limit(out) : out);
    });
    *word = make_uint4(negative,
                       (mins.at1 & 0xffu) | (mins.at2 & 0xffu) << 8 |
                           (mins.at3 & 0xffu) << 16,
                       uint32_t(mins.mag1) | uint32_t(mins.mag2) << 8 |
                           uint32_t(mins.mag3) << 16 | uint32_t(mins.mag_rest) << 24,
                       0u);
}

// ---- Checks unrolled by degree in fp16 pairs (fixed8_pair_arith) ----
//
// The same 8-bit rule, two frames a lane, with the check arithmetic in fp16
// pairs: every value is a whole number within +-2047 (beliefs limited to
// +-1920 after each update, decoder.h), which fp16 holds exactly, so the
// results are the integer rule's. Additions, the magnitude's keys, the
// signs of the messages out (a product by +-1), the choice of mag1 or mag2
// at an input (from the smallest's position as a number) and the gathering
// of the signs' bits take the FMA pipe, abs and negation are operand
// modifiers; min and max stay on the ALU pipe, which the bit masks and
// selects of the integer kernel saturate (docs/performance.md).

// 1.0 in each half whose biased position (the fp16 1024 + p, a whole
// number p below 1024) is K, else 0: sat(1 - (p - K)^2), through the FMA
// pipe (the mask and select it replaces take the ALU pipe, which bounds the
// kernel).
template <unsigned K>
__device__ __forceinline__ __half2 qc_at_position(uint32_t biased)
{
    static_assert(K < 24, "a word holds 24 positions");
    const __half2 t = __hsub2(as_half2(biased), __float2half2_rn(1024.0f + K));
    return __hfma2_sat(__hneg2(t), t, __float2half2_rn(1.0f));
}

// Bits from fp16 +-1 values gathered through the FMA pipe: bit K of each
// half set where the value added at position K was -1. Each run of 10
// positions keeps the sum of s_K 2^(K mod 10), a whole number within +-1023
// (exact in fp16), turned into bits once a check.
template <unsigned DEG>
struct qc_half_bits {
    static_assert(DEG <= 24, "a word holds 24 positions");
    static constexpr unsigned runs = (DEG + 9) / 10;
    uint32_t sum[runs] = {};

    template <unsigned K>
    __device__ __forceinline__ void add(uint32_t plus_minus_one)
    {
        static_assert(K < DEG, "a position of the check");
        sum[K / 10] = as_bits(__hfma2(as_half2(plus_minus_one),
                                      __float2half2_rn(float(1u << (K % 10))),
                                      as_half2(sum[K / 10])));
    }
    // run j's bits in the low 10 of each half: its positions' 2^n - 1 less
    // the sum, halved, plus 1024
    template <unsigned J>
    __device__ __forceinline__ uint32_t run() const
    {
        constexpr unsigned n = DEG - 10 * J < 10 ? DEG - 10 * J : 10;
        const uint32_t v =
            as_bits(__hfma2(as_half2(sum[J]),
                            __float2half2_rn(-0.5f),
                            __float2half2_rn(float((1u << n) - 1) * 0.5f)));
        return hadd(v, half_1024);
    }
    // positions 0 to 15 (bits 0-15 of the low frame's half, 16-31 of the high)
    __device__ __forceinline__ uint32_t low() const
    {
        if constexpr (runs == 1)
            return run<0>() & 0x03ff03ffu;
        else
            return (run<0>() & 0x03ff03ffu) | (run<1>() & 0x003f003fu) << 10;
    }
    // positions 16 to 19 in bits 0-3 of each half
    __device__ __forceinline__ uint32_t high() const
    {
        if constexpr (DEG > 16)
            return (run<1>() >> 6) & 0x000f000fu;
        else
            return 0u;
    }
    // positions 20 to 23 in bits 0-3 of each half
    __device__ __forceinline__ uint32_t top() const
    {
        if constexpr (DEG > 20)
            return run<2>() & 0x000f000fu;
        else
            return 0u;
    }
};

// the magnitude at position K: mag2 at the smallest input's biased
// position, else mag1 (mag1 + at * diff, diff = mag2 - mag1)
template <unsigned K>
__device__ __forceinline__ uint32_t qc_half_magnitude(uint32_t position,
                                                      uint32_t mag1,
                                                      uint32_t diff)
{
    return as_bits(__hfma2(qc_at_position<K>(position), as_half2(diff), as_half2(mag1)));
}

// minus the old message at position K (what the layered input adds to the
// belief): its magnitude with the sign bit where the message was positive
// (negative_at_top: the top bit of each half set where it was negative)
template <unsigned K>
__device__ __forceinline__ uint32_t qc_half_negated_message(uint32_t position,
                                                            uint32_t mag1,
                                                            uint32_t diff,
                                                            uint32_t negative_at_top)
{
    return qc_half_magnitude<K>(position, mag1, diff) | (~negative_at_top & half_signs);
}

// A pair lane's stored word in fp16 (up to 24 positions): the message signs
// of position k < 16 in bits k (low frame) and 16 + k (high frame) of x, of
// positions 16 to 19 in the 4 low bits of each half of z and of positions 20
// to 23 in those of w (zero in a whole number below 128); each frame's
// position of its smallest input in y, biased (the fp16 1024 + p); mag1 and
// mag2 as fp16 pairs in z and w.
template <unsigned DEG>
struct qc_half_stored {
    static_assert(DEG <= 24, "a word holds 24 positions");
    static constexpr bool high = DEG > 16, top = DEG > 20;
    uint32_t negative, position, mag1, diff, negative_high, negative_top;

    __device__ __forceinline__ explicit qc_half_stored(uint4 w)
        : negative(w.x),
          position(w.y),
          mag1(high ? w.z & 0xfff0fff0u : w.z),
          diff(hsub(top ? w.w & 0xfff0fff0u : w.w, high ? w.z & 0xfff0fff0u : w.z)),
          negative_high(w.z),
          negative_top(w.w)
    {
    }
    // minus the message at position K, what the layered input adds to the
    // belief
    template <unsigned K>
    __device__ __forceinline__ uint32_t negated_message() const
    {
        uint32_t sign_at_top;
        if constexpr (K < 16)
            sign_at_top = negative << (15 - K);
        else if constexpr (K < 20)
            sign_at_top = negative_high << (31 - K);
        else
            sign_at_top = negative_top << (35 - K);
        return qc_half_negated_message<K>(position, mag1, diff, sign_at_top);
    }
};

// A pair lane's compact word in fp16 (rows of up to min_sum_qc_compact_degree
// = 12 positions), 8 bytes: x holds the message signs of position k in bits
// k (low frame) and 16 + k (high frame) and each frame's position of its
// smallest input in bits 12 to 15 (low) and 28 to 31 (high); y the
// magnitudes out, whole numbers 0 .. 127, as bytes: mag1 and mag2 of the low
// frame, then of the high one (so that each frame's bits are its half of x
// and of y, as keep masks them).
struct qc_half_compact {
    uint32_t negative, position, mag1, diff;

    __device__ __forceinline__ explicit qc_half_compact(uint4 w) : negative(w.x)
    {
        // the fp16 1024 + p
        position = ((w.x >> 12) & 0x000f000fu) | half_1024;
        // a byte m as the fp16 1024 + m, less 1024
        const uint32_t biased1 = (w.y & 0x00ff00ffu) | half_1024;
        mag1 = hsub(biased1, half_1024);
        diff = hsub(((w.y >> 8) & 0x00ff00ffu) | half_1024, biased1);
    }
    template <unsigned K>
    __device__ __forceinline__ uint32_t negated_message() const
    {
        static_assert(K < min_sum_qc_compact_degree, "a compact word holds 12 positions");
        return qc_half_negated_message<K>(position, mag1, diff, negative << (15 - K));
    }
};

// The minima of a check's inputs in fp16 pairs: for rows of up to 16
// positions as keys, |x| * 16 + position (one HFMA2, abs an operand
// modifier), so that min1's key names the first smallest input's position;
// for longer rows the magnitudes |x|, the smallest found again in the second
// pass (both clipped to 127 after the minima, the rule's clip before them).
// A key is exact where |x| <= 127 (at most 2047); above,
// fp16 rounds it but keeps it at 2048 or more, above every exact key, and
// those inputs' magnitudes are clipped to 127 after the minima (as the
// rule clips before them): where the smallest is such an input, every
// input is, and mag1 == mag2, so the position it names does not matter.
template <unsigned DEG>
struct qc_half_minima {
    static constexpr bool keyed = DEG <= 16;
    // above any key (65504, fp16's largest) or magnitude
    uint32_t min1 = 0x7bff7bffu, min2 = 0x7bff7bffu;
    uint32_t signs = 0;

    template <unsigned K>
    __device__ __forceinline__ void add(uint32_t x)
    {
        signs ^= x;
        uint32_t key;
        if constexpr (keyed)
            key = as_bits(__hfma2(__habs2(as_half2(x)),
                                  __float2half2_rn(16.0f),
                                  __float2half2_rn(float(K))));
        else
            key = as_bits(__habs2(as_half2(x)));
        min2 = hmin(min2, hmax(min1, key));
        min1 = hmin(min1, key);
    }
};

// The second pass of qc_check_half_of_degree: the messages out added to the
// beliefs at the kept addresses, and the check's word (KEEP: the halves of
// keep stay as they were).
template <unsigned DEG, bool KEEP, unsigned LIMITED, bool COMPACT>
__device__ __forceinline__ uint4 qc_half_outputs(const qc_half_minima<DEG>& keys,
                                                 const pair_minima& rule,
                                                 const uint32_t (&at)[DEG],
                                                 const uint32_t (&x)[DEG],
                                                 uint32_t* belief,
                                                 uint32_t keep)
{
    constexpr bool keyed = qc_half_minima<DEG>::keyed;
    static_assert(!COMPACT || DEG <= min_sum_qc_compact_degree,
                  "a compact word holds 12 positions");
    // the smallest magnitudes (keyed: keys / 16, rounded down), clipped to
    // 127, and each frame's position of its smallest input, biased (the fp16
    // 1024 + p): keyed, the first smallest's, from min1's key; else the sum
    // of the positions whose input equals min1 (several only where inputs
    // tie, whose magnitudes out are alike, mag1 == mag2, so that any
    // position will do)
    const __half2 sixteenth = __float2half2_rn(0.0625f);
    uint32_t m1 = keys.min1, m2 = keys.min2, position = half_1024;
    if constexpr (keyed) {
        m1 = as_bits(h2floor(__hmul2(as_half2(keys.min1), sixteenth)));
        m2 = as_bits(h2floor(__hmul2(as_half2(keys.min2), sixteenth)));
        position = hadd(
            as_bits(__hfma2(as_half2(m1), __float2half2_rn(-16.0f), as_half2(keys.min1))),
            half_1024);
    }
    const uint32_t clip = pair_of(127.0f);
    m1 = hmin(m1, clip);
    m2 = hmin(m2, clip);
    const uint32_t mag1 = rule.magnitude(m1), mag2 = rule.magnitude(m2);
    const uint32_t diff = hsub(mag2, mag1);
    // +-1 in each half: the sign of the others' product with the input's
    const uint32_t product = (keys.signs & half_signs) | 0x3c003c00u;
    qc_half_bits<DEG> negative;
    for_each_constant<DEG>([&](auto k) {
        constexpr unsigned K = decltype(k)::value;
        // the selection and the signs' bits through the FMA pipe
        __half2 at_min;
        if constexpr (keyed) {
            at_min = qc_at_position<K>(position);
        } else {
            const __half2 t = __hsub2(__habs2(as_half2(x[K])), as_half2(keys.min1));
            at_min = __hfma2_sat(__hneg2(t), t, __float2half2_rn(1.0f));
            position =
                as_bits(__hfma2(at_min, __float2half2_rn(float(K)), as_half2(position)));
        }
        const uint32_t mag = as_bits(__hfma2(at_min, as_half2(diff), as_half2(mag1)));
        const uint32_t sign = product ^ (x[K] & half_signs);
        negative.template add<K>(sign);
        uint32_t out = as_bits(__hfma2(as_half2(sign), as_half2(mag), as_half2(x[K])));
        if constexpr (K < LIMITED)
            out = fixed8_pair_arith::limit(out);
        if constexpr (KEEP)
            qc_word(belief, at[K]) = (out & ~keep) | (qc_word(belief, at[K]) & keep);
        else
            qc_word(belief, at[K]) = out;
    });
    if constexpr (COMPACT) {
        // the positions in x's bits 12 to 15 of each half, the magnitudes as
        // the low bytes of 1024 + m
        const uint32_t bytes =
            __byte_perm(hadd(mag1, half_1024), hadd(mag2, half_1024), 0x6240);
        return make_uint4(negative.low() | (position & 0x000f000fu) << 12, bytes, 0u, 0u);
    } else {
        return make_uint4(
            negative.low(), position, mag1 | negative.high(), mag2 | negative.top());
    }
}

// qc_check_pair_of_degree in fp16 pairs (beliefs fp16 pairs; the word as
// qc_half_stored reads it, COMPACT: as qc_half_compact does, 8 bytes at
// word, in old_word's x and y).
template <unsigned G, unsigned DEG, unsigned LIMITED, bool COMPACT>
__device__ __forceinline__ void qc_check_half_of_degree(const uint2* row,
                                                        uint32_t rs,
                                                        uint32_t minus_zs,
                                                        uint32_t* belief,
                                                        const uint4 old_word,
                                                        void* word,
                                                        const pair_minima& rule,
                                                        uint32_t keep)
{
    using stored = std::conditional_t<COMPACT, qc_half_compact, qc_half_stored<DEG>>;
    const stored old(old_word);
    qc_half_minima<DEG> keys;
    uint32_t at[DEG], x[DEG];
    for_each_constant<DEG>([&](auto k) {
        constexpr unsigned K = decltype(k)::value;
        at[K] = qc_byte(row[K], rs, minus_zs);
        x[K] = hadd(qc_word(belief, at[K]), old.template negated_message<K>());
        keys.template add<K>(x[K]);
    });
    uint4 out;
    if (keep) {
        out =
            qc_half_outputs<DEG, true, LIMITED, COMPACT>(keys, rule, at, x, belief, keep);
        out = make_uint4((out.x & ~keep) | (old_word.x & keep),
                         (out.y & ~keep) | (old_word.y & keep),
                         (out.z & ~keep) | (old_word.z & keep),
                         (out.w & ~keep) | (old_word.w & keep));
    } else {
        out = qc_half_outputs<DEG, false, LIMITED, COMPACT>(keys, rule, at, x, belief, 0);
    }
    if constexpr (COMPACT)
        *static_cast<uint2*>(word) = make_uint2(out.x, out.y);
    else
        *static_cast<uint4*>(word) = out;
}

// The degrees of profile PROFILE from LO to HI, and the n-th of them from
// LO on (0 past the last).
GPULDPC_BINARY_HD constexpr unsigned
qc_profile_degrees_in(unsigned profile, unsigned lo, unsigned hi)
{
    unsigned count = 0;
    for (unsigned d = lo; d <= hi; ++d)
        count += qc_profile_has_degree(profile, d) ? 1 : 0;
    return count;
}
GPULDPC_BINARY_HD constexpr unsigned
qc_profile_nth_degree(unsigned profile, unsigned lo, unsigned n)
{
    for (unsigned d = lo; d <= min_sum_qc_max_row_degree; ++d)
        if (qc_profile_has_degree(profile, d) && n-- == 0)
            return d;
    return 0;
}

// f(std::integral_constant<unsigned, deg>) for a row of deg blocks, one of
// the degrees LO .. HI that rows of profile PROFILE have (the host gives the
// kernels of a profile only codes whose rows have its degrees): the degree
// found by halving the profile's degrees at compile time (Wi-Fi rate 3/4's
// rows of 14 and 15 blocks: 4 tests a row instead of 14 or 15 in a chain).
template <unsigned PROFILE,
          unsigned LO = 1,
          unsigned HI = qc_profile_max_degree(PROFILE),
          typename F>
__device__ __forceinline__ auto qc_with_row_degree(unsigned deg, F&& f)
{
    constexpr unsigned count = qc_profile_degrees_in(PROFILE, LO, HI);
    static_assert(count >= 1, "a range of the profile's degrees");
    if constexpr (count == 1) {
        return f(
            std::integral_constant<unsigned, qc_profile_nth_degree(PROFILE, LO, 0)>{});
    } else {
        // the first degree of the upper half
        constexpr unsigned MID = qc_profile_nth_degree(PROFILE, LO, count / 2);
        if (deg < MID)
            return qc_with_row_degree<PROFILE, LO, MID - 1>(deg, f);
        return qc_with_row_degree<PROFILE, MID, HI>(deg, f);
    }
}

// qc_check_pair_of_degree<G, deg> (HALF: qc_check_half_of_degree) for a row
// of deg blocks of profile PROFILE: a check's code for each degree the
// profile has, a few KB (the code of every row unrolled in turn, 5G NR
// BG1's 316 blocks, outgrows the instruction cache). COMPACT (HALF only):
// rows of up to min_sum_qc_compact_degree blocks keep compact words
// (qc_half_compact).
template <unsigned G, unsigned PROFILE, bool HALF, bool COMPACT, typename Rule>
__device__ __forceinline__ void qc_check_pair_dispatch(unsigned deg,
                                                       const uint2* row,
                                                       uint32_t rs,
                                                       uint32_t minus_zs,
                                                       uint32_t* belief,
                                                       const uint4 old_word,
                                                       void* word,
                                                       const Rule& rule,
                                                       uint32_t keep)
{
    static_assert(HALF || !COMPACT, "compact words are fp16 pairs'");
    qc_with_row_degree<PROFILE>(deg, [&](auto degree) {
        constexpr unsigned DEG = decltype(degree)::value;
        // beliefs limited at a row's first positions (the host puts the
        // columns that may reach the limit there)
        constexpr unsigned LIMITED = qc_profile_limited_positions(PROFILE);
        if constexpr (HALF)
            qc_check_half_of_degree<G,
                                    DEG,
                                    LIMITED,
                                    COMPACT && DEG <= min_sum_qc_compact_degree>(
                row, rs, minus_zs, belief, old_word, word, rule, keep);
        else
            qc_check_pair_of_degree<G, DEG, LIMITED>(row,
                                                     rs,
                                                     minus_zs,
                                                     belief,
                                                     old_word,
                                                     static_cast<uint4*>(word),
                                                     rule,
                                                     keep);
    });
}

// qc_check_three_of_degree for a row of deg blocks of profile PROFILE,
// every position's belief limited: the rule's ties go to the first position,
// so the host keeps a row's blocks in the CPU's order of a check's edges
// rather than the limited columns first.
template <unsigned G, unsigned PROFILE>
__device__ __forceinline__ void qc_check_three_dispatch(unsigned deg,
                                                        const uint2* row,
                                                        uint32_t rs,
                                                        uint32_t minus_zs,
                                                        uint8_t* belief,
                                                        const uint4 old_word,
                                                        uint4* word,
                                                        const check_three_minima& rule)
{
    qc_with_row_degree<PROFILE>(deg, [&](auto degree) {
        constexpr unsigned DEG = decltype(degree)::value;
        qc_check_three_of_degree<G, DEG, DEG>(
            row, rs, minus_zs, belief, old_word, word, rule);
    });
}

// The exclusive or of a check's bits' belief words (their signs: the
// halves' top bits; P = 1: 16-bit beliefs, bit 15) for a row of deg blocks
// of profile PROFILE, its
// addresses as qc_check_pair_dispatch makes them: the syndrome of the
// kernels with checks unrolled by degree, an edge's qc_byte address, a load
// and an exclusive or.
template <unsigned PROFILE, unsigned P>
__device__ __forceinline__ uint32_t qc_row_parity_dispatch(
    unsigned deg, const uint2* row, uint32_t rs, uint32_t minus_zs, const uint8_t* belief)
{
    return qc_with_row_degree<PROFILE>(deg, [&](auto degree) {
        uint32_t parity = 0;
#pragma unroll
        for (unsigned k = 0; k < decltype(degree)::value; ++k) {
            const uint8_t* const at = belief + qc_byte(row[k], rs, minus_zs);
            // a frame a lane: its 16-bit belief (the sign at bit 15)
            if constexpr (P == 1)
                parity ^= *reinterpret_cast<const uint16_t*>(at);
            else
                parity ^= *reinterpret_cast<const uint32_t*>(at);
        }
        return parity;
    });
}

} // namespace binary
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_BINARY_QC_UNROLLED_CHECK_CUH */
