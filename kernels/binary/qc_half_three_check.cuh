/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_BINARY_QC_HALF_THREE_CHECK_CUH
#define INCLUDED_GPULDPC_KERNELS_BINARY_QC_HALF_THREE_CHECK_CUH

// The three-smallest rule in fp16 pairs, checks unrolled by degree: the
// quasi-cyclic family's check of the rule two frames a lane
// (qc_check_half_three_of_degree), chosen a row by
// qc_check_half_three_dispatch; built on the fp16 pairs of min-sum
// (qc_unrolled_check.cuh).

#include "binary/pair_arithmetic.cuh"
#include "binary/qc_unrolled_check.cuh"
#include <cuda_fp16.h>
#include <type_traits>
#include <cstdint>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace binary {

// binary_rule::fixed_three_smallest two frames a lane
// (fixed8_half_three_arith), for rows of up to qc_half_three_max_degree
// blocks: as exact as the min-sum's fp16 pairs (qc_unrolled_check.cuh; every
// value a whole number within +-2047), so the results are
// check_three_minima's (three_smallest.h), frame for frame. A row's blocks
// are in the CPU's order of a check's edges (the host keeps them in column
// order), so that position K is edge K, and every position's belief is
// limited.

// Rows of up to this many blocks (the positions a key holds: 32; the
// instances of the profiles that have them).
constexpr unsigned qc_half_three_max_degree = min_sum_qc_three_pair_degree;

// The three smallest inputs of a check as keys min(|x|, 127) 32 + K - 2048
// (K the position, below 32): whole numbers within +-2047, exact in fp16,
// ordered by magnitude and, of equal magnitudes, by position, as the CPU
// orders them (the first edge first); magnitudes clipped to 127 before the
// keys as the CPU's inputs are. The clip is relu(127 - |x|), the key
// 2016 + K - 32 relu(...): two FMA-pipe instructions.
template <unsigned DEG>
struct qc_half_three_keys {
    static_assert(DEG <= qc_half_three_max_degree,
                  "rows of up to qc_half_three_max_degree blocks");
    // above any key (65504, fp16's largest)
    uint32_t min1 = 0x7bff7bffu, min2 = 0x7bff7bffu, min3 = 0x7bff7bffu;
    uint32_t signs = 0;

    template <unsigned K>
    __device__ __forceinline__ void add(uint32_t x)
    {
        signs ^= x;
        const __half2 below = __hfma2_relu(
            __habs2(as_half2(x)), __float2half2_rn(-1.0f), __float2half2_rn(127.0f));
        const uint32_t key = as_bits(__hfma2(
            below, __float2half2_rn(-32.0f), __float2half2_rn(2016.0f + float(K))));
        min3 = hmin(min3, hmax(min2, key));
        min2 = hmin(min2, hmax(min1, key));
        min1 = hmin(min1, key);
    }
};

// A key's magnitude (clipped to 127: the key of no input gives 127) and
// position, biased (the fp16 1024 + K).
struct qc_half_key {
    uint32_t magnitude, position;

    __device__ __forceinline__ explicit qc_half_key(uint32_t key)
    {
        const __half2 q = h2floor(__hmul2(as_half2(key), __float2half2_rn(0.03125f)));
        magnitude = hmin(as_bits(__hadd2(q, __float2half2_rn(64.0f))), pair_of(127.0f));
        position =
            hadd(as_bits(__hfma2(q, __float2half2_rn(-32.0f), as_half2(key))), half_1024);
    }
};

// f(x) of the rule's table at whole x >= 0: its three steps, each 1 where x
// is below it
__device__ __forceinline__ __half2 qc_half_f(__half2 x, const half_three_rule& rule)
{
    const __half2 a = __hsub2_sat(as_half2(rule.step[0]), x);
    const __half2 b = __hsub2_sat(as_half2(rule.step[1]), x);
    const __half2 c = __hsub2_sat(as_half2(rule.step[2]), x);
    return __hadd2(__hadd2(a, b), c);
}

// |a (+) b| = max(a + f(a + b) - f(b - a), 0) for a <= b (check_three_minima)
__device__ __forceinline__ uint32_t qc_half_combined(uint32_t a,
                                                     uint32_t b,
                                                     const half_three_rule& rule)
{
    const __half2 ha = as_half2(a), hb = as_half2(b);
    const __half2 plus = __hadd2(ha, qc_half_f(__hadd2(ha, hb), rule));
    return as_bits(
        __hfma2_relu(qc_half_f(__hsub2(hb, ha), rule), __float2half2_rn(-1.0f), plus));
}

// (max(m - offset, 0) scale + 8) >> 4, at most 2040 before the shift
template <bool OFFSET>
__device__ __forceinline__ uint32_t qc_half_scaled(uint32_t m,
                                                   const half_three_rule& rule)
{
    __half2 x = as_half2(m);
    if constexpr (OFFSET)
        x = __hfma2_relu(as_half2(rule.offset), __float2half2_rn(-1.0f), x);
    const __half2 t = __hfma2(x, as_half2(rule.scale), __float2half2_rn(8.0f));
    return as_bits(h2floor(__hmul2(t, __float2half2_rn(0.0625f))));
}

// A check's messages out in fp16 pairs: rest at every position but those of
// the three smallest inputs (positions biased), where rest + d_j.
struct qc_half_three_messages {
    uint32_t p1, p2, p3, rest, d1, d2, d3;

    // the magnitude at position K: rest + sum of at(p_j) d_j
    template <unsigned K>
    __device__ __forceinline__ uint32_t magnitude() const
    {
        __half2 m = __hfma2(qc_at_position<K>(p1), as_half2(d1), as_half2(rest));
        m = __hfma2(qc_at_position<K>(p2), as_half2(d2), m);
        return as_bits(__hfma2(qc_at_position<K>(p3), as_half2(d3), m));
    }
};

// check_three_minima::finish() in fp16 pairs for a check of DEG edges
template <unsigned DEG>
__device__ __forceinline__ qc_half_three_messages
qc_half_three_finish(const qc_half_three_keys<DEG>& keys, const half_three_rule& rule)
{
    const qc_half_key k1(keys.min1), k2(keys.min2), k3(keys.min3);
    qc_half_three_messages m;
    m.p1 = k1.position;
    m.p2 = k2.position;
    m.p3 = k3.position;
    uint32_t mag1, mag2, mag3;
    if constexpr (DEG <= 2) {
        // min-sum's magnitudes, no offset (k2's magnitude is 127 at one edge)
        mag1 = qc_half_scaled<false>(k2.magnitude, rule);
        m.rest = mag2 = mag3 = qc_half_scaled<false>(k1.magnitude, rule);
    } else {
        constexpr bool offset = DEG >= min_sum_three_smallest_offset_degree;
        const uint32_t first_two = qc_half_combined(k1.magnitude, k2.magnitude, rule);
        mag1 = qc_half_scaled<offset>(qc_half_combined(k2.magnitude, k3.magnitude, rule),
                                      rule);
        mag2 = qc_half_scaled<offset>(qc_half_combined(k1.magnitude, k3.magnitude, rule),
                                      rule);
        mag3 = qc_half_scaled<offset>(first_two, rule);
        m.rest =
            qc_half_scaled<offset>(qc_half_combined(first_two, k3.magnitude, rule), rule);
    }
    m.d1 = hsub(mag1, m.rest);
    m.d2 = hsub(mag2, m.rest);
    m.d3 = hsub(mag3, m.rest);
    return m;
}

// qc_check_half_of_degree for the three-smallest rule: a check of DEG
// edges, two frames a lane, every belief limited. Its messages are kept a
// byte a frame an edge (two stored bytes, 128 + m each, a pair: the
// message of position K at message[K * stride]; unpack_pair, pack_pair)
// rather than in a word a check: reading them back is three instructions an
// edge where making them again from a word of the three positions and four
// magnitudes is ten, and a row of fewer than 8 blocks takes fewer bytes.
// \p read: the messages are there (false: the first iteration's, zero).
template <unsigned G, unsigned DEG>
__device__ __forceinline__ void qc_check_half_three_of_degree(const uint2* row,
                                                              uint32_t rs,
                                                              uint32_t minus_zs,
                                                              uint32_t* belief,
                                                              uint16_t* message,
                                                              uint32_t stride,
                                                              bool read,
                                                              const half_three_rule& rule,
                                                              uint32_t keep)
{
    constexpr uint16_t zero_message = 0x8080u;
    qc_half_three_keys<DEG> keys;
    uint32_t at[DEG], x[DEG];
    for_each_constant<DEG>([&](auto k) {
        constexpr unsigned K = decltype(k)::value;
        at[K] = qc_byte(row[K], rs, minus_zs);
        const uint16_t old = read ? message[K * stride] : zero_message;
        x[K] = hsub(qc_word(belief, at[K]), unpack_pair(old));
        keys.template add<K>(x[K]);
    });
    const qc_half_three_messages m = qc_half_three_finish(keys, rule);
    // +-1 in each half: the sign of the others' product with the input's
    const uint32_t product = (keys.signs & half_signs) | 0x3c003c00u;
    auto update = [&](auto kept) {
        for_each_constant<DEG>([&](auto k) {
            constexpr unsigned K = decltype(k)::value;
            const uint32_t sign = product ^ (x[K] & half_signs);
            const uint32_t out_message =
                as_bits(__hmul2(as_half2(sign), as_half2(m.template magnitude<K>())));
            const uint32_t out = fixed8_pair_arith::limit(hadd(x[K], out_message));
            const uint16_t stored = pack_pair(out_message);
            if constexpr (decltype(kept)::value) {
                qc_word(belief, at[K]) = (out & ~keep) | (qc_word(belief, at[K]) & keep);
                const uint16_t old = read ? message[K * stride] : zero_message;
                message[K * stride] = two_frame_lanes::kept(stored, old, keep);
            } else {
                qc_word(belief, at[K]) = out;
                message[K * stride] = stored;
            }
        });
    };
    // checks of a pair with a frame done (keep) in a branch of their own
    if (keep)
        update(std::true_type{});
    else
        update(std::false_type{});
}

// qc_check_half_three_of_degree for a row of deg blocks of profile PROFILE
// (rows of up to qc_half_three_max_degree blocks)
template <unsigned G, unsigned PROFILE>
__device__ __forceinline__ void qc_check_half_three_dispatch(unsigned deg,
                                                             const uint2* row,
                                                             uint32_t rs,
                                                             uint32_t minus_zs,
                                                             uint32_t* belief,
                                                             uint16_t* message,
                                                             uint32_t stride,
                                                             bool read,
                                                             const half_three_rule& rule,
                                                             uint32_t keep)
{
    static_assert(qc_profile_max_degree(PROFILE) <= qc_half_three_max_degree,
                  "rows of up to qc_half_three_max_degree blocks");
    qc_with_row_degree<PROFILE>(deg, [&](auto degree) {
        constexpr unsigned DEG = decltype(degree)::value;
        qc_check_half_three_of_degree<G, DEG>(
            row, rs, minus_zs, belief, message, stride, read, rule, keep);
    });
}

} // namespace binary
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_BINARY_QC_HALF_THREE_CHECK_CUH */
