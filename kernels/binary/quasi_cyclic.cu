/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The quasi-cyclic family: the 8-bit rule, layered by base row, for codes
// given by a base matrix of shifts and a lifting size Z (5G NR, IEEE 802.11n,
// .qc files). The Z checks of a base row share no bit and are updated at
// once, a lane each: check r of base row i reads bit j Z + (r + s_ij) mod Z
// of every nonzero block (j, s_ij) of the row, an address computed from the
// base matrix (a few KB, in shared memory) rather than read from per-edge
// arrays, and consecutive lanes read consecutive bits. A block decodes a group
// of G frames at a time (value x of frame f at x G + f, as the other
// families), its beliefs in shared memory (5G NR BG1 Z = 384: 52 KB a frame)
// and its check messages compressed in its region of the workspace (a uint2
// a frame a check: the messages' signs, the two magnitudes out and the
// position of the smallest input); the blocks take the groups in turn.
//
// A lane takes one frame (fixed8_arith's check_minima) or two in 16-bit
// integer pairs (fixed8_wide_pair_arith's wide_pair_minima: the addresses
// and the instructions of a check shared by both frames; 16 bytes of
// messages a lane a check). Either is the CPU reference's arithmetic integer
// for integer, and the base rows are the code's layered order (the engine
// gives this family only codes whose layered order is row order), so that
// decisions, iteration counts and status equal the CPU's on every frame.
//
// Codes whose base rows have the degrees of 5G NR's base graphs, or 16
// blocks at most (min_sum_graph::qc_profile), take, in pairs, a kernel with
// a check's positions unrolled for its row's degree (one instance of the
// check a degree the profile has, chosen a row; unrolling every row instead
// outgrows the instruction cache), its addresses made once, and barriers
// only between rows that share a column (min_sum_graph::qc_sync_rows); its
// arithmetic in fp16 pairs (qc_check_half_of_degree) or 16-bit integer pairs.

#include "binary/decode.cuh"
#include "binary/families.h"
#include "binary/ldpc_min_sum.h"
#include "binary/pair_arithmetic.cuh"
#include "binary/qc_profiles.h"
#include "common/cuda_check.h"
#include <type_traits>
#include <cstdint>
#include <utility>

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

// The base matrix's records in shared memory (min_sum_graph::qc_*, the
// blocks as qc_bit reads them).
struct qc_records {
    const uint32_t* row_offsets;
    const uint2* blocks;
};

// A check's messages out, stored: the sign of the message at position k in
// bit k of signs; mag1, mag2 and the position of the smallest input (the
// first, where several are) in bits 0-7, 8-15 and 16-20 of magnitudes. The
// message at position k has mag2 at that position, else mag1 (where another
// input ties with the smallest, mag2 == mag1: check_minima's rule without an
// index).
__device__ __forceinline__ int32_t qc_stored_message(uint2 w, unsigned k)
{
    const int32_t mag = k == (w.y >> 16) ? int32_t((w.y >> 8) & 0xffu)
                                         : int32_t(w.y & 0xffu);
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

// One iteration of lane f (live: its frame still decodes): the base rows in
// order, check r = threadIdx.x / G of each (blockDim.x >= G Z: a lane a
// check); first: the messages before are 0 (not read). A lane's message
// words are read a row ahead, so that the load's latency passes during a
// row's update and barrier (the word is the lane's own, last written an
// iteration back).
template <unsigned G, unsigned D, unsigned P>
__device__ void qc_iterate(const min_sum_params& p,
                           const qc_records& rec,
                           uint8_t* beliefs,
                           uint8_t* messages,
                           bool first,
                           bool live,
                           uint32_t keep)
{
    using word_t = std::conditional_t<P == 1, uint2, uint4>;
    const min_sum_graph& g = p.graph;
    const unsigned f = threadIdx.x & (G - 1);
    const uint32_t r = threadIdx.x / G, z = g.qc_z;
    const bool mine = live && r < z, read = mine && !first;
    const size_t row_words = size_t(z) * G;
    word_t* word = reinterpret_cast<word_t*>(messages) + size_t(r) * G + f;
    word_t next{};
    if (read)
        next = *word;
    [[maybe_unused]] const fixed_point_rule rule{ p.scale_q, p.offset_q };
    [[maybe_unused]] const wide_pair_minima fresh = fixed8_wide_pair_arith::check(p);
    for (unsigned i = 0; i < g.qc_rows; ++i, word += row_words) {
        const word_t old = next;
        if (read && i + 1 < g.qc_rows)
            next = word[row_words];
        const uint32_t e0 = rec.row_offsets[i], deg = rec.row_offsets[i + 1] - e0;
        if (mine) {
            if constexpr (P == 1)
                qc_check<G, D>(rec.blocks + e0,
                               deg,
                               r,
                               z,
                               reinterpret_cast<int16_t*>(beliefs) + f,
                               old,
                               word,
                               rule);
            else
                qc_check_pair<G, D>(rec.blocks + e0,
                                    deg,
                                    r,
                                    z,
                                    reinterpret_cast<uint32_t*>(beliefs) + f,
                                    old,
                                    word,
                                    fresh,
                                    keep);
        }
        __syncthreads();
    }
}

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
            belief[at[K]] = (out & ~keep) | (belief[at[K]] & keep);
        else
            belief[at[K]] = out;
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
            belief[at[K]] = (out & ~keep) | (belief[at[K]] & keep);
        else
            belief[at[K]] = out;
    });
    return make_uint4(negative_low,
                      negative_high,
                      uint32_t(mins.mag1) | smallest << 8,
                      uint32_t(mins.mag2));
}

// qc_check_pair for a base row of exactly DEG blocks (its records at row):
// no test a position, and each position's address made once and kept for
// the second pass.
template <unsigned G, unsigned DEG, unsigned LIMITED>
__device__ __forceinline__ void qc_check_pair_of_degree(const uint2* row,
                                                        uint32_t r,
                                                        uint32_t z,
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
        at[K] = qc_bit(row[K], r, z) * G;
        x[K] = add16x2(belief[at[K]], old.template negated_message<K>());
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

// ---- Checks unrolled by degree in fp16 pairs (fixed8_pair_arith) ----
//
// The same 8-bit rule, two frames a lane, with the check arithmetic in fp16
// pairs: every value is a whole number within +-2047 (beliefs limited to
// +-1920 after each update, decoder.h), which fp16 holds exactly, so the
// results are the integer rule's. Additions, the magnitude's keys and the
// signs of the messages out (a product by +-1) take the FMA pipe, abs and
// negation are operand modifiers; min and max stay on the ALU pipe, which
// bounds the integer kernel (docs/performance.md).

// A pair lane's stored word in fp16 (up to 20 positions): the message signs
// of position k < 16 in bits k (low frame) and 16 + k (high frame) of x,
// the positions of each frame's smallest input likewise in y (a bit each;
// several where inputs tie, whose messages are alike), mag1 and mag2 as fp16
// pairs in z and w, whose 4 low bits of each half (zero in a whole number
// below 128) hold positions 16 to 19: the signs in z, the smallest in w.
template <unsigned DEG>
struct qc_half_stored {
    static_assert(DEG <= 20, "a word holds 20 positions");
    static constexpr bool high = DEG > 16;
    uint32_t negative, smallest, mag1, mag2, negative_high, smallest_high;

    __device__ __forceinline__ explicit qc_half_stored(uint4 w)
        : negative(w.x),
          smallest(w.y),
          mag1(high ? w.z & 0xfff0fff0u : w.z),
          mag2(high ? w.w & 0xfff0fff0u : w.w),
          negative_high(w.z),
          smallest_high(w.w)
    {
    }
    // bit K of both halves (K < 16 of lo, else K - 16 of hi) at the halves' tops
    template <unsigned K>
    __device__ __forceinline__ static uint32_t at_top(uint32_t lo, uint32_t hi)
    {
        if constexpr (K < 16)
            return lo << (15 - K);
        else
            return hi << (31 - K);
    }
    // minus the message at position K, what the layered input adds to the
    // belief: its magnitude with the sign bit where the message is positive
    template <unsigned K>
    __device__ __forceinline__ uint32_t negated_message() const
    {
        const uint32_t at_min = sign_halves(at_top<K>(smallest, smallest_high));
        const uint32_t mag = (mag2 & at_min) | (mag1 & ~at_min);
        return mag | (~at_top<K>(negative, negative_high) & half_signs);
    }
};

// The minima of a check's inputs in fp16 pairs: for rows of up to 16
// positions as keys, min(|x|, 127) * 16 + position (at most 2047, exact), so
// that min1's key names the first smallest input's position; for longer
// rows the magnitudes, the smallest found again in the second pass.
template <unsigned DEG>
struct qc_half_minima {
    static constexpr bool keyed = DEG <= 16;
    uint32_t min1 = 0x67ff67ffu, min2 = 0x67ff67ffu; // 2047 in both halves
    uint32_t signs = 0;

    template <unsigned K>
    __device__ __forceinline__ void add(uint32_t x)
    {
        signs ^= x;
        const __half2 a = __hmin2(__habs2(as_half2(x)), __float2half2_rn(127.0f));
        uint32_t key;
        if constexpr (keyed)
            key =
                as_bits(__hfma2(a, __float2half2_rn(16.0f), __float2half2_rn(float(K))));
        else
            key = as_bits(a);
        min2 = hmin(min2, hmax(min1, key));
        min1 = hmin(min1, key);
    }
};

// The second pass of qc_check_half_of_degree: the messages out added to the
// beliefs at the kept addresses, and the check's word (KEEP: the halves of
// keep stay as they were).
template <unsigned DEG, bool KEEP, unsigned LIMITED>
__device__ __forceinline__ uint4 qc_half_outputs(const qc_half_minima<DEG>& keys,
                                                 const pair_minima& rule,
                                                 const uint32_t (&at)[DEG],
                                                 const uint32_t (&x)[DEG],
                                                 uint32_t* belief,
                                                 uint32_t keep)
{
    constexpr bool keyed = qc_half_minima<DEG>::keyed;
    // the smallest magnitudes (keys / 16, rounded down: exact) and, keyed,
    // the first smallest position of each frame as a bit
    const __half2 sixteenth = __float2half2_rn(0.0625f);
    uint32_t m1 = keys.min1, m2 = keys.min2, smallest = 0, smallest_high = 0;
    if constexpr (keyed) {
        m1 = as_bits(h2floor(__hmul2(as_half2(keys.min1), sixteenth)));
        m2 = as_bits(h2floor(__hmul2(as_half2(keys.min2), sixteenth)));
        // position + 1024: its bits in the fp16's low 10 (fp16's step is 1)
        const uint32_t position = hadd(
            as_bits(__hfma2(as_half2(m1), __float2half2_rn(-16.0f), as_half2(keys.min1))),
            half_1024);
        smallest = (1u << (position & 0xfu)) | (0x10000u << ((position >> 16) & 0xfu));
    }
    const uint32_t mag1 = rule.magnitude(m1), mag2 = rule.magnitude(m2);
    // +-1 in each half: the sign of the others' product with the input's
    const uint32_t product = (keys.signs & half_signs) | 0x3c003c00u;
    uint32_t negative = 0, negative_high = 0;
    for_each_constant<DEG>([&](auto k) {
        constexpr unsigned K = decltype(k)::value;
        uint32_t at_min;
        if constexpr (keyed) {
            at_min = sign_halves(qc_half_stored<DEG>::template at_top<K>(smallest, 0u));
        } else {
            const __half2 a = __hmin2(__habs2(as_half2(x[K])), __float2half2_rn(127.0f));
            at_min = __heq2_mask(a, as_half2(m1));
            if constexpr (K < 16)
                smallest |= (at_min & half_signs) >> (15 - K);
            else
                smallest_high |= (at_min & half_signs) >> (31 - K);
        }
        const uint32_t sign = product ^ (x[K] & half_signs);
        if constexpr (K < 16)
            negative |= (sign & half_signs) >> (15 - K);
        else
            negative_high |= (sign & half_signs) >> (31 - K);
        const uint32_t mag = (mag2 & at_min) | (mag1 & ~at_min);
        uint32_t out = as_bits(__hfma2(as_half2(sign), as_half2(mag), as_half2(x[K])));
        if constexpr (K < LIMITED)
            out = fixed8_pair_arith::limit(out);
        if constexpr (KEEP)
            belief[at[K]] = (out & ~keep) | (belief[at[K]] & keep);
        else
            belief[at[K]] = out;
    });
    return make_uint4(negative, smallest, mag1 | negative_high, mag2 | smallest_high);
}

// qc_check_pair_of_degree in fp16 pairs (beliefs fp16 pairs at
// belief[bit * G]; the word as qc_half_stored reads it).
template <unsigned G, unsigned DEG, unsigned LIMITED>
__device__ __forceinline__ void qc_check_half_of_degree(const uint2* row,
                                                        uint32_t r,
                                                        uint32_t z,
                                                        uint32_t* belief,
                                                        const uint4 old_word,
                                                        uint4* word,
                                                        const pair_minima& rule,
                                                        uint32_t keep)
{
    const qc_half_stored<DEG> old(old_word);
    qc_half_minima<DEG> keys;
    uint32_t at[DEG], x[DEG];
    for_each_constant<DEG>([&](auto k) {
        constexpr unsigned K = decltype(k)::value;
        at[K] = qc_bit(row[K], r, z) * G;
        x[K] = hadd(belief[at[K]], old.template negated_message<K>());
        keys.template add<K>(x[K]);
    });
    uint4 out;
    if (keep) {
        out = qc_half_outputs<DEG, true, LIMITED>(keys, rule, at, x, belief, keep);
        out = make_uint4((out.x & ~keep) | (old_word.x & keep),
                         (out.y & ~keep) | (old_word.y & keep),
                         (out.z & ~keep) | (old_word.z & keep),
                         (out.w & ~keep) | (old_word.w & keep));
    } else {
        out = qc_half_outputs<DEG, false, LIMITED>(keys, rule, at, x, belief, 0);
    }
    *word = out;
}

// qc_check_pair_of_degree<G, deg> (HALF: qc_check_half_of_degree) for the
// degrees DEG, DEG + 1, ... that rows of profile PROFILE have (a check's code
// for each degree the profile has, a few KB: the code of every row unrolled
// in turn, 5G NR BG1's 316 blocks, outgrows the instruction cache).
template <unsigned G, unsigned PROFILE, bool HALF, unsigned DEG = 1, typename Rule>
__device__ __forceinline__ void qc_check_pair_dispatch(unsigned deg,
                                                       const uint2* row,
                                                       uint32_t r,
                                                       uint32_t z,
                                                       uint32_t* belief,
                                                       const uint4 old_word,
                                                       uint4* word,
                                                       const Rule& rule,
                                                       uint32_t keep)
{
    if constexpr (DEG <= qc_profile_max_degree(PROFILE)) {
        if (qc_profile_has_degree(PROFILE, DEG) && deg == DEG) {
            // beliefs limited at a row's first positions (the host puts
            // the columns that may reach the limit there)
            constexpr unsigned LIMITED = qc_profile_limited_positions(PROFILE);
            if constexpr (HALF)
                qc_check_half_of_degree<G, DEG, LIMITED>(
                    row, r, z, belief, old_word, word, rule, keep);
            else
                qc_check_pair_of_degree<G, DEG, LIMITED>(
                    row, r, z, belief, old_word, word, rule, keep);
        } else {
            qc_check_pair_dispatch<G, PROFILE, HALF, DEG + 1>(
                deg, row, r, z, belief, old_word, word, rule, keep);
        }
    }
}

// qc_iterate for pair lanes of a code whose base rows have profile PROFILE's
// degrees (g.qc_profile; its first g.qc_rows rows): a check's positions
// unrolled for its row's degree, and a barrier before row i only where
// g.qc_sync_rows says that it reads a column a row since the last barrier
// writes (rows that share no column touch disjoint bits: updated at once,
// the results of updating them in turn).
template <unsigned G, unsigned PROFILE, bool HALF>
__device__ __forceinline__ void qc_iterate_unrolled(const min_sum_params& p,
                                                    const qc_records& rec,
                                                    uint8_t* beliefs,
                                                    uint8_t* messages,
                                                    bool first,
                                                    bool live,
                                                    uint32_t keep)
{
    const min_sum_graph& g = p.graph;
    const unsigned f = threadIdx.x & (G - 1);
    const uint32_t r = threadIdx.x / G, z = g.qc_z;
    const bool mine = live && r < z, read = mine && !first;
    const size_t row_words = size_t(z) * G;
    uint4* word = reinterpret_cast<uint4*>(messages) + size_t(r) * G + f;
    uint32_t* const belief = reinterpret_cast<uint32_t*>(beliefs) + f;
    using A = std::conditional_t<HALF, fixed8_pair_arith, fixed8_wide_pair_arith>;
    const typename A::check_t rule = A::check(p);
    uint4 next{};
    if (read)
        next = *word;
    for (unsigned i = 0; i < g.qc_rows; ++i, word += row_words) {
        if (i > 0 && ((g.qc_sync_rows >> i) & 1u))
            __syncthreads();
        const uint4 old = next;
        if (read && i + 1 < g.qc_rows)
            next = word[row_words];
        const uint32_t e0 = rec.row_offsets[i], deg = rec.row_offsets[i + 1] - e0;
        if (mine)
            qc_check_pair_dispatch<G, PROFILE, HALF>(
                deg, rec.blocks + e0, r, z, belief, old, word, rule, keep);
    }
    __syncthreads();
}

// Unsatisfied checks of the frames that count (all: every frame of the
// group; else those not done) into k.syndrome, 0 for them on entry.
template <unsigned G, unsigned P>
__device__ void qc_count_syndromes(const min_sum_graph& g,
                                   const qc_records& rec,
                                   const uint8_t* beliefs,
                                   uint32_t team_frames,
                                   const frame_counters& k,
                                   bool all)
{
    const unsigned f = threadIdx.x & (G - 1);
    const uint32_t r = threadIdx.x / G, z = g.qc_z;
    bool counts[P], any = false;
#pragma unroll
    for (unsigned j = 0; j < P; ++j) {
        const uint32_t fr = f * P + j;
        counts[j] = r < z && fr < team_frames && (all || !k.done[fr]);
        any |= counts[j];
    }
    if (any) {
        uint32_t count[P] = {};
        for (unsigned i = 0; i < g.qc_rows; ++i) {
            uint32_t parity = 0; // the halves' top bits (a frame a lane: bit 15)
            for (uint32_t e = rec.row_offsets[i]; e < rec.row_offsets[i + 1]; ++e) {
                const uint32_t at = qc_bit(rec.blocks[e], r, z) * G + f;
                parity ^= P == 1
                              ? uint32_t(reinterpret_cast<const uint16_t*>(beliefs)[at])
                              : reinterpret_cast<const uint32_t*>(beliefs)[at];
            }
#pragma unroll
            for (unsigned j = 0; j < P; ++j)
                count[j] += (parity >> (15 + 16 * j)) & 1u;
        }
#pragma unroll
        for (unsigned j = 0; j < P; ++j)
            if (counts[j] && count[j])
                atomicAdd(&k.syndrome[f * P + j], count[j]);
    }
    __syncthreads();
}

// Decodes the group of the launch's frames first_frame .. first_frame +
// team_frames - 1 (at most G P), as decode() does for the other families.
template <unsigned G, unsigned D, unsigned P, unsigned PROFILE, bool HALF>
__device__ __forceinline__ void qc_decode(const min_sum_params& p,
                                          uint8_t* shared,
                                          const qc_records& rec,
                                          uint8_t* messages,
                                          size_t first_frame,
                                          uint32_t team_frames,
                                          const frame_counters& k)
{
    using A = std::conditional_t<
        P == 1,
        fixed8_arith,
        std::conditional_t<HALF, fixed8_pair_arith, fixed8_wide_pair_arith>>;
    const min_sum_graph& g = p.graph;
    const block_team team{};
    // the other families' layout of a group's beliefs (read_channel and
    // write_decisions fill and read them)
    const state_layout layout(g.n, g.edges, g.checks, true, A::rule, G * P, false);
    uint8_t* const none = nullptr;
    const group_states<A> state{ layout, shared, none };

    start_counters(team, team_frames, k);
    read_channel<A, true, G>(p, team, state, 1, first_frame, team_frames, k);
    team.sync();
    if (p.early_termination) {
        qc_count_syndromes<G, P>(g, rec, shared, team_frames, k, true);
        retire_converged(team, team_frames, k);
    }
    const unsigned f = threadIdx.x & (G - 1);
    for (unsigned it = 1; it <= p.max_iterations; ++it) {
        if (*k.active == 0)
            break;
        uint32_t keep = 0;
        const bool live_lane = lane_live<G, P>(k, team_frames, 0, f, keep);
        if constexpr (PROFILE != 0)
            qc_iterate_unrolled<G, PROFILE, HALF>(
                p, rec, shared, messages, it == 1, live_lane, keep);
        else
            qc_iterate<G, D, P>(p, rec, shared, messages, it == 1, live_lane, keep);
        for (uint32_t fr = team.thread(); fr < team_frames; fr += team.threads())
            if (!k.done[fr])
                k.iterations[fr] = it;
        if (p.early_termination) {
            qc_count_syndromes<G, P>(g, rec, shared, team_frames, k, false);
            retire_converged(team, team_frames, k);
        }
    }
    // the final syndromes of every frame
    for (uint32_t fr = team.thread(); fr < team_frames; fr += team.threads())
        k.syndrome[fr] = 0;
    team.sync();
    qc_count_syndromes<G, P>(g, rec, shared, team_frames, k, true);
    write_decisions<A, G>(p, team, state, first_frame, team_frames, team_frames * g.n);
    write_status(p, team, first_frame, team_frames, k);
}

// A launch's groups, a block taking them in turn (PROFILE: checks unrolled
// by their rows' degrees, qc_iterate_unrolled; HALF: in fp16 pairs).
template <unsigned G, unsigned D, unsigned P, unsigned PROFILE, bool HALF = false>
__device__ __forceinline__ void qc_decode_groups(const min_sum_params& p)
{
    constexpr unsigned F = G * P;
    extern __shared__ __align__(16) uint8_t shared[];
    __shared__ uint32_t syndrome[F], invalid[F], iterations[F], done[F];
    __shared__ int active;
    const min_sum_graph& g = p.graph;
    // the base matrix's records after the beliefs, read by every check: the
    // blocks as qc_bit reads them, then the rows' offsets
    uint2* const blocks = reinterpret_cast<uint2*>(shared + qc_records_offset(g.n, F));
    uint32_t* const row_offsets = reinterpret_cast<uint32_t*>(blocks + g.qc_entries);
    for (uint32_t w = threadIdx.x; w < g.qc_entries; w += blockDim.x) {
        const uint32_t b = __ldg(g.qc_blocks + w);
        blocks[w] = make_uint2((b >> 16) * g.qc_z, b & 0xffffu);
    }
    for (uint32_t w = threadIdx.x; w <= g.qc_rows; w += blockDim.x)
        row_offsets[w] = __ldg(g.qc_row_offsets + w);
    __syncthreads();
    const qc_records rec{ row_offsets, blocks };
    uint8_t* const messages = p.workspace + size_t(blockIdx.x) * p.variant.message_bytes;
    const size_t groups = (p.n_frames + F - 1) / F;
    for (size_t group = blockIdx.x; group < groups; group += gridDim.x) {
        const size_t first = group * F;
        qc_decode<G, D, P, PROFILE, HALF>(
            p,
            shared,
            rec,
            messages,
            first,
            uint32_t(min(size_t(F), p.n_frames - first)),
            frame_counters{ syndrome, invalid, iterations, done, &active });
        // the counters are read to the end of a group's decoding
        __syncthreads();
    }
}

// Pair lanes keep a check's inputs in registers: blocks of up to
// min_sum_qc_pair_threads threads, so that ptxas may take the registers
// that needs without spilling (5G NR: 68).
template <unsigned G, unsigned D, unsigned P>
__global__ void __launch_bounds__(P == 1 ? 1024 : min_sum_qc_pair_threads)
    min_sum_quasi_cyclic_kernel(const min_sum_params p)
{
    qc_decode_groups<G, D, P, 0>(p);
}

// Checks unrolled for the degrees of profile PROFILE's rows, two frames a
// lane in 16-bit integer pairs, or fp16 pairs (HALF) (chosen only from sm_90
// on, where the s16x2 instructions are native: not compiled for older
// targets). A check keeps its addresses and inputs in registers from the
// first pass to the second: BLOCKS blocks an SM.
template <unsigned G, unsigned PROFILE, unsigned BLOCKS, bool HALF = false>
__global__ void __launch_bounds__(min_sum_qc_pair_threads, BLOCKS)
    min_sum_quasi_cyclic_unrolled_kernel(const min_sum_params p)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
    __trap();
#else
    constexpr unsigned D = (qc_profile_max_degree(PROFILE) + 7) / 8 * 8;
    qc_decode_groups<G, D, 2, PROFILE, HALF>(p);
#endif
}

template <unsigned G, unsigned P>
const void* qc_instance_with_degree(unsigned row_degree)
{
    switch (row_degree) {
    case 8:
        return reinterpret_cast<const void*>(&min_sum_quasi_cyclic_kernel<G, 8, P>);
    case 16:
        return reinterpret_cast<const void*>(&min_sum_quasi_cyclic_kernel<G, 16, P>);
    case 24:
        return reinterpret_cast<const void*>(&min_sum_quasi_cyclic_kernel<G, 24, P>);
    case 32:
        return reinterpret_cast<const void*>(&min_sum_quasi_cyclic_kernel<G, 32, P>);
    }
    return nullptr;
}

template <unsigned P>
const void* qc_instance(const min_sum_kernel_key& key)
{
    switch (key.lanes) {
    case 1:
        return qc_instance_with_degree<1, P>(key.row_degree);
    case 2:
        return qc_instance_with_degree<2, P>(key.row_degree);
    case 4:
        return qc_instance_with_degree<4, P>(key.row_degree);
    case 8:
        return qc_instance_with_degree<8, P>(key.row_degree);
    case 16:
        return qc_instance_with_degree<16, P>(key.row_degree);
    case 32:
        return qc_instance_with_degree<32, P>(key.row_degree);
    }
    return nullptr;
}

template <unsigned PROFILE, bool HALF>
const void* qc_unrolled_instance(unsigned lanes)
{
    // two blocks an SM (5G NR BG1 Z = 384: 80 registers); one, with 91,
    // measured slower (BG1 46 rows 4.32 against 5.21 Gbit/s, H100)
    switch (lanes) {
    case 1:
        return reinterpret_cast<const void*>(
            &min_sum_quasi_cyclic_unrolled_kernel<1, PROFILE, 2, HALF>);
    case 2:
        return reinterpret_cast<const void*>(
            &min_sum_quasi_cyclic_unrolled_kernel<2, PROFILE, 2, HALF>);
    case 4:
        return reinterpret_cast<const void*>(
            &min_sum_quasi_cyclic_unrolled_kernel<4, PROFILE, 2, HALF>);
    case 8:
        return reinterpret_cast<const void*>(
            &min_sum_quasi_cyclic_unrolled_kernel<8, PROFILE, 2, HALF>);
    }
    return nullptr;
}

template <bool HALF>
const void* qc_unrolled_instance_of(unsigned profile, unsigned lanes)
{
    if (profile == 1)
        return qc_unrolled_instance<1, HALF>(lanes);
    if (profile == 2)
        return qc_unrolled_instance<2, HALF>(lanes);
    if (profile == qc_profile_any16)
        return qc_unrolled_instance<qc_profile_any16, HALF>(lanes);
    return nullptr;
}

} // namespace binary

bool min_sum_qc_unrolled_built()
{
    // the PTX the device runs: compiled for sm_90 or later where it is 90
    // or more (the kernels' bodies below that are a trap)
    cudaFuncAttributes a{};
    GPULDPC_CUDA_CHECK(cudaFuncGetAttributes(
        &a,
        reinterpret_cast<const void*>(
            &binary::min_sum_quasi_cyclic_unrolled_kernel<1, 1, 2>)));
    return a.ptxVersion >= 90;
}

const void* min_sum_quasi_cyclic_instance(const min_sum_kernel_key& key)
{
    if (key.family != min_sum_family::quasi_cyclic || !key.layered)
        return nullptr;
    if (key.qc_profile != 0) {
        if (key.arithmetic == min_sum_arithmetic::fixed8_wide_pairs)
            return binary::qc_unrolled_instance_of<false>(key.qc_profile, key.lanes);
        if (key.arithmetic == min_sum_arithmetic::fixed8_pairs)
            return binary::qc_unrolled_instance_of<true>(key.qc_profile, key.lanes);
        return nullptr;
    }
    if (key.arithmetic == min_sum_arithmetic::fixed8)
        return binary::qc_instance<1>(key);
    if (key.arithmetic == min_sum_arithmetic::fixed8_wide_pairs)
        return binary::qc_instance<2>(key);
    return nullptr;
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
