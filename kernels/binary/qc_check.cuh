/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_BINARY_QC_CHECK_CUH
#define INCLUDED_GPULDPC_KERNELS_BINARY_QC_CHECK_CUH

// A base row's check in the quasi-cyclic family (quasi_cyclic.cu), as the
// kernel with a check's positions in a loop makes it: a bit's address from
// the base matrix's records, one frame a lane (check_minima) or two in 16-bit
// integer pairs (wide_pair_minima), and their stored message words.

#include "binary/pair_arithmetic.cuh"
#include "binary/plan.h"
#include <cstdint>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace binary {

// A nonzero block of the base matrix as the kernels keep it: the first bit
// of its column (the column times z) in x, its shift in y; the bit of check
// r of its base row is x + (r + y) mod z. (The unsigned minimum of r + y and
// r + y - z is the latter where r + y >= z, else the former: one
// instruction on sm_90, and no multiply for the column.)
__device__ __forceinline__ uint32_t qc_bit(uint2 block, uint32_t r, uint32_t z)
{
    const uint32_t c = r + block.y;
    return block.x + min(c, c - z);
}

// qc_bit in bytes, for the kernels with checks unrolled by degree: a block's
// record scaled by S, the bytes of a bit's belief words (G lanes of 4-byte
// pair words: S = 4 G), the column's first byte in x and the shift times S
// in y; with rs = r S and minus_zs = -z S, the first byte of check r's
// bit's words: no multiply or shift an edge, and the unsigned minimum of c
// and c - z S one instruction on sm_90 (an add and a minimum), where
// minus_zs is a register the compiler cannot take apart (read from shared
// memory: a multiple of z it would make every edge).
__device__ __forceinline__ uint32_t qc_byte(uint2 scaled, uint32_t rs, uint32_t minus_zs)
{
    const uint32_t c = rs + scaled.y;
    return scaled.x + min(c, c + minus_zs);
}
// qc_byte's S: the bytes of a bit's belief words in a group of G lanes of
// 4-byte pair words
template <unsigned G>
constexpr uint32_t qc_pair_bit_bytes = 4 * G;
// qc_byte's S for G lanes of P frames (16 bits a frame)
template <unsigned G, unsigned P>
constexpr uint32_t qc_bit_bytes = 2 * P* G;
// the word at byte offset \p byte of \p base
__device__ __forceinline__ uint32_t& qc_word(uint32_t* base, uint32_t byte)
{
    return *reinterpret_cast<uint32_t*>(reinterpret_cast<uint8_t*>(base) + byte);
}
__device__ __forceinline__ uint32_t qc_word(const uint32_t* base, uint32_t byte)
{
    return *reinterpret_cast<const uint32_t*>(reinterpret_cast<const uint8_t*>(base) +
                                              byte);
}

//! A base row as the kernels with checks unrolled by degree read it once a
//! row (one 16-byte load): its first record (with qc_row_barrier set where
//! the row starts with a barrier, min_sum_graph::qc_sync_rows), its degree,
//! its message words' first byte in a block's region (lane 0's) and their
//! bytes a lane a check.
struct alignas(16) qc_row_record {
    uint32_t first, degree, word_offset, word_bytes;
};
//! qc_row_record::first's flag: a barrier before the row
constexpr uint32_t qc_row_barrier = 0x80000000u;

// The base matrix's records in shared memory (min_sum_graph::qc_*, the
// blocks as qc_bit reads them; for the kernels with checks unrolled by
// degree also the blocks scaled as qc_byte reads them and the rows as
// qc_row_record has them).
struct qc_records {
    const uint32_t* row_offsets;
    const uint2* blocks;
    const uint2* scaled = nullptr;
    const qc_row_record* rows = nullptr;
    const uint32_t* minus_zs = nullptr; // -z S (qc_byte)

    // the scaled blocks of \p row
    __device__ __forceinline__ const uint2* row_blocks(const qc_row_record& row) const
    {
        return scaled + (row.first & ~qc_row_barrier);
    }
};

// A check's messages out, stored: the sign of the message at position k in
// bit k of signs; mag1, mag2 and the position of the smallest input (the
// first, where several are) in bits 0-7, 8-15 and 16-20 of magnitudes. The
// message at position k has mag2 at that position, else mag1 (where another
// input ties with the smallest, mag2 == mag1: check_minima's rule without an
// index).
__device__ __forceinline__ int32_t qc_stored_message(uint2 w, unsigned k)
{
    const int32_t mag =
        k == (w.y >> 16) ? int32_t((w.y >> 8) & 0xffu) : int32_t(w.y & 0xffu);
    return (w.x >> k) & 1u ? -mag : mag;
}

// Check r of a base row (its blocks at row, deg of them) for the lane whose
// beliefs are at belief[bit * G]: old, its messages before (stored), in; the
// new ones out to word.
template <unsigned G, unsigned D>
__device__ __forceinline__ void qc_check(const uint2* row,
                                         uint32_t deg,
                                         uint32_t r,
                                         uint32_t z,
                                         int16_t* belief,
                                         const uint2 old,
                                         uint2* word,
                                         const fixed_point_rule& rule)
{
    static_assert(D % 8 == 0 && D <= min_sum_qc_max_row_degree,
                  "a base row's checks hold up to 32 positions in a word");
    check_minima mins;
    mins.rule = rule;
    // the inputs: the beliefs less the check's previous messages (exact),
    // made again for the messages out rather than kept (registers: blocks
    // an SM)
    auto input = [&](unsigned k) {
        return int32_t(belief[qc_bit(row[k], r, z) * G]) - qc_stored_message(old, k);
    };
    uint32_t smallest = 0;
#pragma unroll
    for (unsigned k = 0; k < D; ++k)
        if (k < deg) {
            const int32_t x = input(k);
            smallest = abs(x) < mins.min1 ? k : smallest;
            mins.add(x, k);
        }
    mins.finish();
    uint32_t negative = 0;
#pragma unroll
    for (unsigned k = 0; k < D; ++k)
        if (k < deg) {
            const int32_t x = input(k);
            const int32_t m = mins.message(x, k);
            negative |= uint32_t(m < 0) << k;
            belief[qc_bit(row[k], r, z) * G] = int16_t(fixed8_arith::limit(x + m));
        }
    *word = make_uint2(negative,
                       uint32_t(mins.mag1) | uint32_t(mins.mag2) << 8 | smallest << 16);
}

// A check's messages out under the three-smallest rule, stored (a uint4 a
// frame a check): the sign of the message at position k in bit k of x; the
// positions of the three smallest inputs in bytes 0-2 of y (0xff where the
// check has fewer inputs); the magnitudes out at those three positions and
// at the others in bytes 0-3 of z (check_three_minima's mag1, mag2, mag3,
// mag_rest); w unused.
__device__ __forceinline__ int32_t qc_stored_three_message(uint4 w, unsigned k)
{
    const unsigned byte = k == (w.y & 0xffu)           ? 0
                          : k == ((w.y >> 8) & 0xffu)  ? 1
                          : k == ((w.y >> 16) & 0xffu) ? 2
                                                       : 3;
    const int32_t mag = int32_t((w.z >> (8 * byte)) & 0xffu);
    return (w.x >> k) & 1u ? -mag : mag;
}

// qc_check under the three-smallest rule (check_three_minima, its edges
// named by their positions in the row), words as qc_stored_three_message
// reads them.
template <unsigned G, unsigned D>
__device__ __forceinline__ void qc_check_three(const uint2* row,
                                               uint32_t deg,
                                               uint32_t r,
                                               uint32_t z,
                                               int16_t* belief,
                                               const uint4 old,
                                               uint4* word,
                                               const check_three_minima& fresh)
{
    static_assert(D % 8 == 0 && D <= min_sum_qc_max_row_degree,
                  "a base row's checks hold up to 32 positions in a word");
    check_three_minima mins = fresh;
    auto input = [&](unsigned k) {
        return int32_t(belief[qc_bit(row[k], r, z) * G]) -
               qc_stored_three_message(old, k);
    };
#pragma unroll
    for (unsigned k = 0; k < D; ++k)
        if (k < deg)
            mins.add(input(k), k);
    mins.finish();
    uint32_t negative = 0;
#pragma unroll
    for (unsigned k = 0; k < D; ++k)
        if (k < deg) {
            const int32_t x = input(k);
            const int32_t m = mins.message(x, k);
            negative |= uint32_t(m < 0) << k;
            belief[qc_bit(row[k], r, z) * G] = int16_t(fixed8_arith::limit(x + m));
        }
    *word = make_uint4(negative,
                       (mins.at1 & 0xffu) | (mins.at2 & 0xffu) << 8 |
                           (mins.at3 & 0xffu) << 16,
                       uint32_t(mins.mag1) | uint32_t(mins.mag2) << 8 |
                           uint32_t(mins.mag3) << 16 | uint32_t(mins.mag_rest) << 24,
                       0u);
}

// A pair lane's messages out, stored (a uint4 a check): the message signs of
// positions 0-15 in x, 16-31 in y, the low frame's at bit k mod 16, the high
// frame's at bit 16 + k mod 16 (so that a shift puts position k's two at the
// halves' tops); mag1 in z, mag2 in w (s16x2), the position of each frame's
// smallest input in bits 8-12 of its half of z.
struct qc_stored_pair {
    uint32_t negative_low, negative_high, mag1, mag2, smallest;

    __device__ __forceinline__ explicit qc_stored_pair(uint4 w)
        : negative_low(w.x),
          negative_high(w.y),
          mag1(w.z & 0x00ff00ffu),
          mag2(w.w),
          smallest((w.z >> 8) & 0x001f001fu)
    {
    }
    // 0xffff in each half whose message at position k is negative
    template <unsigned K>
    __device__ __forceinline__ static uint32_t halves(uint32_t low, uint32_t high)
    {
        if constexpr (K < 16)
            return sign_halves(low << (15 - K));
        else
            return sign_halves(high << (31 - K));
    }
    // minus the message at position K (what a layered input adds to the
    // belief): mag where the message is negative, else ~mag + 1
    template <unsigned K>
    __device__ __forceinline__ uint32_t negated_message() const
    {
        // mag2 in the halves whose smallest input was at K: (smallest ^ K) - 1
        // is negative there alone
        const uint32_t at_min =
            sign_halves(__vadd2(smallest ^ (K * 0x00010001u), 0xffffffffu));
        const uint32_t mag = (mag2 & at_min) | (mag1 & ~at_min);
        const uint32_t positive = ~halves<K>(negative_low, negative_high);
        return add16x2(mag ^ positive, positive & 0x00010001u);
    }
};

// The minima of a pair lane's check inputs as keys: each half's magnitude,
// clipped to 127 (as finish() clips the minima; where both minima are 127
// their messages are alike, whichever position is kept), times 32 plus the
// input's position. The smallest key is the first position of the smallest
// magnitude, so that min1's key gives the position too, without a compare
// and select an input.
struct qc_pair_keys {
    uint32_t min1 = 0x7fff7fffu, min2 = 0x7fff7fffu, signs = 0;

    template <unsigned K>
    __device__ __forceinline__ void add(uint32_t x)
    {
        signs ^= x;
        // |x| as max(x, -x): exact, the halves are within +-2^15 - 1
        const uint32_t a = min16x2(max16x2(x, __vadd2(~x, 0x00010001u)), pair16_127);
        // a <= 127 in each half: one 32-bit multiply-add shifts both
        const uint32_t key = a * 32u + K * 0x00010001u;
        min2 = min16x2(min2, max16x2(min1, key));
        min1 = min16x2(min1, key);
    }
    // the minima (wide_pair_minima's, finished) and the positions of the
    // smallest
    __device__ __forceinline__ void finish(wide_pair_minima& mins,
                                           uint32_t& smallest) const
    {
        mins.min1 = (min1 >> 5) & 0x07ff07ffu;
        mins.min2 = (min2 >> 5) & 0x07ff07ffu;
        mins.signs = signs;
        mins.finish();
        smallest = min1 & 0x001f001fu;
    }
};

// qc_check for a pair lane (beliefs s16x2 at belief[bit * G]); keep: 0xffff
// in the halves of frames that do not decode, whose beliefs and messages
// stay as they were. wide_pair_minima's rule, with the position of each
// half's smallest input kept (qc_pair_keys): the message at position K has
// mag2 where K is that position, which gives its message (index-free, mag2
// where the input equals the smallest: where another input ties with it,
// mag2 == mag1) without the inputs' magnitudes again. A check's inputs stay
// in registers from the first pass to the second, its addresses are made
// again (kept, they take the registers of a second block an SM: 5G NR, 88
// against 54).
template <unsigned G, unsigned D, unsigned K = 0>
__device__ __forceinline__ void qc_pair_inputs(const uint2* row,
                                               uint32_t deg,
                                               uint32_t r,
                                               uint32_t z,
                                               const uint32_t* belief,
                                               const qc_stored_pair& old,
                                               qc_pair_keys& keys,
                                               uint32_t (&x)[D])
{
    if constexpr (K < D) {
        if (K < deg) {
            x[K] = add16x2(belief[qc_bit(row[K], r, z) * G], old.negated_message<K>());
            keys.add<K>(x[K]);
            qc_pair_inputs<G, D, K + 1>(row, deg, r, z, belief, old, keys, x);
        }
    }
}

template <unsigned G, unsigned D, unsigned K = 0>
__device__ __forceinline__ void qc_pair_outputs(const uint2* row,
                                                uint32_t deg,
                                                uint32_t r,
                                                uint32_t z,
                                                uint32_t* belief,
                                                const wide_pair_minima& mins,
                                                uint32_t smallest,
                                                const uint32_t (&x)[D],
                                                uint32_t keep,
                                                uint32_t& negative_low,
                                                uint32_t& negative_high)
{
    if constexpr (K < D) {
        if (K < deg) {
            const uint32_t at_min =
                sign_halves(__vadd2(smallest ^ (K * 0x00010001u), 0xffffffffu));
            const uint32_t mag = (mins.mag2 & at_min) | (mins.mag1 & ~at_min);
            const uint32_t sign = mins.signs ^ x[K];
            const uint32_t negative = sign_halves(sign);
            // the halves' signs to bits K mod 16 and 16 + K mod 16 (a
            // message of magnitude 0 may keep its sign: -0 is 0 again)
            const uint32_t signs = (sign & half_signs) >> (15 - K % 16);
            if (K < 16)
                negative_low |= signs;
            else
                negative_high |= signs;
            uint32_t* const b = belief + qc_bit(row[K], r, z) * G;
            // x + the message: x + mag, or x + ~mag + 1
            const uint32_t fresh = fixed8_wide_pair_arith::limit(
                add16x2(add16x2(x[K], mag ^ negative), negative & 0x00010001u));
            *b = keep ? (fresh & ~keep) | (*b & keep) : fresh;
            qc_pair_outputs<G, D, K + 1>(row,
                                         deg,
                                         r,
                                         z,
                                         belief,
                                         mins,
                                         smallest,
                                         x,
                                         keep,
                                         negative_low,
                                         negative_high);
        }
    }
}

template <unsigned G, unsigned D>
__device__ __forceinline__ void qc_check_pair(const uint2* row,
                                              uint32_t deg,
                                              uint32_t r,
                                              uint32_t z,
                                              uint32_t* belief,
                                              const uint4 old_word,
                                              uint4* word,
                                              const wide_pair_minima& fresh,
                                              uint32_t keep)
{
    static_assert(D % 8 == 0 && D <= min_sum_qc_max_row_degree,
                  "a base row's checks hold up to 32 positions in a word");
    const qc_stored_pair old(old_word);
    qc_pair_keys keys;
    uint32_t x[D];
    qc_pair_inputs<G, D>(row, deg, r, z, belief, old, keys, x);
    wide_pair_minima mins = fresh;
    uint32_t smallest;
    keys.finish(mins, smallest);
    uint32_t negative_low = 0, negative_high = 0;
    qc_pair_outputs<G, D>(
        row, deg, r, z, belief, mins, smallest, x, keep, negative_low, negative_high);
    const uint4 out = make_uint4(negative_low,
                                 negative_high,
                                 uint32_t(mins.mag1) | smallest << 8,
                                 uint32_t(mins.mag2));
    *word = keep ? make_uint4((out.x & ~keep) | (old_word.x & keep),
                              (out.y & ~keep) | (old_word.y & keep),
                              (out.z & ~keep) | (old_word.z & keep),
                              (out.w & ~keep) | (old_word.w & keep))
                 : out;
}


} // namespace binary
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_BINARY_QC_CHECK_CUH */
