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
// position of the smallest input; in fp16 pairs, where chosen, 8 bytes a
// pair for rows of up to 12 blocks); the blocks take the groups in turn.
//
// A lane takes one frame (fixed8_arith's check_minima) or two in 16-bit
// integer pairs (fixed8_wide_pair_arith's wide_pair_minima: the addresses
// and the instructions of a check shared by both frames; 16 bytes of
// messages a lane a check). Either is the CPU reference's arithmetic integer
// for integer, and the base rows are the code's layered order (the engine
// gives this family only codes whose layered order is row order), so that
// decisions, iteration counts and status equal the CPU's on every frame.
// The three-smallest rule (binary_rule::fixed_three_smallest) takes the
// kernel with a check's positions in a loop, a frame a lane, its words 16
// bytes a frame a check (qc_check_three).
//
// Codes whose base rows have the degrees of 5G NR's base graphs, or 24
// blocks at most (min_sum_graph::qc_profile), take, in pairs, a kernel with
// a check's positions unrolled for its row's degree (one instance of the
// check a degree the profile has, chosen a row; unrolling every row instead
// outgrows the instruction cache), its addresses made once, and barriers
// only between rows that share a column (min_sum_graph::qc_sync_rows); its
// arithmetic in fp16 pairs (qc_check_half_of_degree) or 16-bit integer pairs.
//
// The checks are in qc_check.cuh (the loop kernel's) and
// qc_unrolled_check.cuh (those unrolled by degree; the three-smallest rule's
// fp16 pairs in qc_half_three_check.cuh); here the iterations, the
// syndromes, the groups and the kernels' instances.

#include "binary/decode.cuh"
#include "binary/families.h"
#include "binary/ldpc_min_sum.h"
#include "binary/pair_arithmetic.cuh"
#include "binary/qc_check.cuh"
#include "binary/qc_half_three_check.cuh"
#include "binary/qc_profiles.h"
#include "binary/qc_unrolled_check.cuh"
#include "common/cuda_check.h"
#include <type_traits>
#include <cstdint>
#include <utility>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace binary {

// One iteration of lane f (live: its frame still decodes): the base rows in
// order, check r = threadIdx.x / G of each (blockDim.x >= G Z: a lane a
// check); first: the messages before are 0 (not read). A lane's message
// words are read a row ahead, so that the load's latency passes during a
// row's update and barrier (the word is the lane's own, last written an
// iteration back). THREE: the three-smallest rule, a frame a lane, a
// uint4 a check (qc_check_three).
template <unsigned G, unsigned D, unsigned P, bool THREE = false>
__device__ void qc_iterate(const min_sum_params& p,
                           const qc_records& rec,
                           uint8_t* beliefs,
                           uint8_t* messages,
                           bool first,
                           bool live,
                           uint32_t keep)
{
    static_assert(!THREE || P == 1, "three-smallest: a frame a lane");
    using word_t = std::conditional_t<P == 1 && !THREE, uint2, uint4>;
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
    [[maybe_unused]] const check_three_minima three = fixed8_three_arith::check(p);
    for (unsigned i = 0; i < g.qc_rows; ++i, word += row_words) {
        const word_t old = next;
        if (read && i + 1 < g.qc_rows)
            next = word[row_words];
        const uint32_t e0 = rec.row_offsets[i], deg = rec.row_offsets[i + 1] - e0;
        if (mine) {
            if constexpr (THREE)
                qc_check_three<G, D>(rec.blocks + e0,
                                     deg,
                                     r,
                                     z,
                                     reinterpret_cast<int16_t*>(beliefs) + f,
                                     old,
                                     word,
                                     three);
            else if constexpr (P == 1)
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

// qc_iterate for pair lanes of a code whose base rows have profile PROFILE's
// degrees (g.qc_profile; its first g.qc_rows rows): a check's positions
// unrolled for its row's degree, and a barrier before row i only where
// g.qc_sync_rows says that it reads a column a row since the last barrier
// writes (rows that share no column touch disjoint bits: updated at once,
// the results of updating them in turn). The words of a row after
// another's, 16 bytes a lane a check (COMPACT: 8 for rows of up to
// min_sum_qc_compact_degree blocks; a row's words from a multiple of 16
// bytes, within the 16 bytes a check of qc_message_bytes). STRIDED (one
// lane, Z above the block's threads T): thread t takes checks t, t + T, t +
// 2T ... of a row; the word of its first read a row ahead, the others' where
// they are updated. THREE: the three-smallest rule, a frame a lane (16-bit
// beliefs, 16 bytes a check: qc_check_three_of_degree), or with HALF two in
// fp16 pairs (a byte a frame an edge: qc_check_half_three_of_degree, the
// messages of a check's position k z G pairs apart).
template <unsigned G,
          unsigned PROFILE,
          bool HALF,
          bool COMPACT,
          bool STRIDED,
          bool THREE = false>
__device__ __forceinline__ void qc_iterate_unrolled(const min_sum_params& p,
                                                    const qc_records& rec,
                                                    uint8_t* beliefs,
                                                    uint8_t* messages,
                                                    bool first,
                                                    bool live,
                                                    uint32_t keep)
{
    static_assert(!STRIDED || G == 1, "strided: one lane a group");
    static_assert(!THREE || (!COMPACT && !STRIDED),
                  "three-smallest: 16-byte words, a check a thread");
    constexpr unsigned P = THREE && !HALF ? 1 : 2;
    // the check messages a byte a frame an edge, not a word a check
    constexpr bool EDGES = THREE && HALF;
    const min_sum_graph& g = p.graph;
    const unsigned f = threadIdx.x & (G - 1);
    const uint32_t r = threadIdx.x / G, z = g.qc_z;
    const bool mine = live && r < z, read = mine && !first;
    const uint32_t lane = r * G + f;
    // the bytes of a bit's belief words (qc_byte)
    constexpr uint32_t S = qc_bit_bytes<G, P>;
    const uint32_t rs = r * S, minus_zs = *rec.minus_zs;
    uint32_t* const belief = reinterpret_cast<uint32_t*>(beliefs) + f;
    using A = std::conditional_t<
        THREE,
        std::conditional_t<HALF, fixed8_half_three_arith, fixed8_three_arith>,
        std::conditional_t<HALF, fixed8_pair_arith, fixed8_wide_pair_arith>>;
    const typename A::check_t rule = A::check(p);
    auto load = [&](const uint8_t* at, uint32_t bytes) {
        if (COMPACT && bytes == 8) {
            const uint2 w = *reinterpret_cast<const uint2*>(at);
            return make_uint4(w.x, w.y, 0u, 0u);
        }
        return *reinterpret_cast<const uint4*>(at);
    };
    // this lane's word of row i at its row's offset + lane * its bytes
    qc_row_record row = rec.rows[0];
    uint8_t* word = messages + row.word_offset + lane * row.word_bytes;
    uint4 next{};
    if (!EDGES && read)
        next = load(word, row.word_bytes);
    for (unsigned i = 0; i < g.qc_rows; ++i) {
        if (row.first & qc_row_barrier)
            __syncthreads();
        const uint4 old = next;
        uint8_t* const here = word;
        const qc_row_record now = row;
        if (i + 1 < g.qc_rows) {
            row = rec.rows[i + 1];
            word = messages + row.word_offset + lane * row.word_bytes;
            if (!EDGES && read)
                next = load(word, row.word_bytes);
        }
        if constexpr (STRIDED) {
            // one call of the check (its instances for every degree are
            // much code): the first check's word is the one read ahead
            if (mine)
                for (uint32_t c = r; c < z; c += blockDim.x) {
                    uint8_t* const at = messages + now.word_offset + c * now.word_bytes;
                    const uint4 word_c = c == r || first ? old : load(at, now.word_bytes);
                    qc_check_pair_dispatch<G, PROFILE, HALF, COMPACT>(now.degree,
                                                                      rec.row_blocks(now),
                                                                      c * S,
                                                                      minus_zs,
                                                                      belief,
                                                                      word_c,
                                                                      at,
                                                                      rule,
                                                                      keep);
                }
        } else if (mine) {
            if constexpr (EDGES)
                qc_check_half_three_dispatch<G, PROFILE>(
                    now.degree,
                    rec.row_blocks(now),
                    rs,
                    minus_zs,
                    belief,
                    reinterpret_cast<uint16_t*>(here),
                    z * G,
                    read,
                    rule,
                    keep);
            else if constexpr (THREE)
                qc_check_three_dispatch<G, PROFILE>(now.degree,
                                                    rec.row_blocks(now),
                                                    rs,
                                                    minus_zs,
                                                    beliefs + 2 * f,
                                                    old,
                                                    reinterpret_cast<uint4*>(here),
                                                    rule);
            else
                qc_check_pair_dispatch<G, PROFILE, HALF, COMPACT>(now.degree,
                                                                  rec.row_blocks(now),
                                                                  rs,
                                                                  minus_zs,
                                                                  belief,
                                                                  old,
                                                                  here,
                                                                  rule,
                                                                  keep);
        }
    }
    __syncthreads();
}

// Unsatisfied checks of the frames that count (all: every frame of the
// group, counted; else those not done, k.syndrome nonzero for those with
// one or more) into k.syndrome, 0 for them on entry
// (PROFILE: a row's parity as the kernels with checks unrolled by degree
// address its bits, qc_row_parity_dispatch): check r of every row, the
// thread's (no barrier; qc_count_syndromes).
template <unsigned G, unsigned P, unsigned PROFILE>
__device__ __forceinline__ void qc_count_check_syndromes(const min_sum_graph& g,
                                                         const qc_records& rec,
                                                         const uint8_t* beliefs,
                                                         uint32_t team_frames,
                                                         const frame_counters& k,
                                                         bool all,
                                                         uint32_t r)
{
    const unsigned f = threadIdx.x & (G - 1);
    const uint32_t z = g.qc_z;
    bool counts[P], any = false;
#pragma unroll
    for (unsigned j = 0; j < P; ++j) {
        const uint32_t fr = f * P + j;
        counts[j] = r < z && fr < team_frames && (all || !k.done[fr]);
        any |= counts[j];
    }
    // a row's parity: the halves' top bits (a frame a lane: bit 15)
    auto parity_of_row = [&](unsigned i) {
        uint32_t parity = 0;
        if constexpr (PROFILE != 0) {
            const qc_row_record row = rec.rows[i];
            parity = qc_row_parity_dispatch<PROFILE, P>(row.degree,
                                                        rec.row_blocks(row),
                                                        r * qc_bit_bytes<G, P>,
                                                        *rec.minus_zs,
                                                        beliefs + 2 * P * f);
        } else {
            for (uint32_t e = rec.row_offsets[i]; e < rec.row_offsets[i + 1]; ++e) {
                const uint32_t at = qc_bit(rec.blocks[e], r, z) * G + f;
                parity ^= P == 1
                              ? uint32_t(reinterpret_cast<const uint16_t*>(beliefs)[at])
                              : reinterpret_cast<const uint32_t*>(beliefs)[at];
            }
        }
        return parity;
    };
    if (any && all) {
        uint32_t count[P] = {};
        for (unsigned i = 0; i < g.qc_rows; ++i) {
            const uint32_t parity = parity_of_row(i);
#pragma unroll
            for (unsigned j = 0; j < P; ++j)
                count[j] += (parity >> (15 + 16 * j)) & 1u;
        }
#pragma unroll
        for (unsigned j = 0; j < P; ++j)
            if (counts[j] && count[j])
                atomicAdd(&k.syndrome[f * P + j], count[j]);
    } else if (any) {
        // Between iterations only whether a frame has a failing check
        // matters (retire_converged), not how many: a thread marks the
        // frames whose checks it finds failing and stops once every frame
        // it counts is marked, by it or by another thread (a frame far from
        // converging fails checks in most rows). Frames without a failing
        // check are never marked, so their every check is still read.
        bool open[P];
#pragma unroll
        for (unsigned j = 0; j < P; ++j)
            open[j] = counts[j];
        for (unsigned i = 0; i < g.qc_rows; ++i) {
            const uint32_t parity = parity_of_row(i);
            bool more = false;
#pragma unroll
            for (unsigned j = 0; j < P; ++j) {
                if (!open[j])
                    continue;
                uint32_t* const mark = &k.syndrome[f * P + j];
                if ((parity >> (15 + 16 * j)) & 1u) {
                    atomicOr(mark, 1u);
                    open[j] = false;
                } else if (*static_cast<volatile uint32_t*>(mark) != 0) {
                    open[j] = false;
                }
                more |= open[j];
            }
            if (!more)
                break;
        }
    }
}

// qc_count_check_syndromes for the block's checks: a thread's check r =
// threadIdx.x / G of every row, or with STRIDED its checks t, t + T ... as
// qc_iterate_unrolled takes them.
template <unsigned G, unsigned P, unsigned PROFILE, bool STRIDED>
__device__ void qc_count_syndromes(const min_sum_graph& g,
                                   const qc_records& rec,
                                   const uint8_t* beliefs,
                                   uint32_t team_frames,
                                   const frame_counters& k,
                                   bool all)
{
    if constexpr (STRIDED) {
        for (uint32_t r = threadIdx.x; r < g.qc_z; r += blockDim.x)
            qc_count_check_syndromes<G, P, PROFILE>(
                g, rec, beliefs, team_frames, k, all, r);
    } else {
        qc_count_check_syndromes<G, P, PROFILE>(
            g, rec, beliefs, team_frames, k, all, threadIdx.x / G);
    }
    __syncthreads();
}

// Decodes the group of the launch's frames first_frame .. first_frame +
// team_frames - 1 (at most G P), as decode() does for the other families.
template <unsigned G,
          unsigned D,
          unsigned P,
          unsigned PROFILE,
          bool HALF,
          bool COMPACT,
          bool STRIDED,
          bool THREE>
__device__ __forceinline__ void qc_decode(const min_sum_params& p,
                                          uint8_t* shared,
                                          const qc_records& rec,
                                          uint8_t* messages,
                                          size_t first_frame,
                                          uint32_t team_frames,
                                          const frame_counters& k)
{
    using A = std::conditional_t<
        THREE,
        std::conditional_t<HALF, fixed8_half_three_arith, fixed8_three_arith>,
        std::conditional_t<
            P == 1,
            fixed8_arith,
            std::conditional_t<HALF, fixed8_pair_arith, fixed8_wide_pair_arith>>>;
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
        qc_count_syndromes<G, P, PROFILE, STRIDED>(g, rec, shared, team_frames, k, true);
        retire_converged(team, team_frames, k);
    }
    const unsigned f = threadIdx.x & (G - 1);
    for (unsigned it = 1; it <= p.max_iterations; ++it) {
        if (*k.active == 0)
            break;
        uint32_t keep = 0;
        const bool live_lane = lane_live<G, P>(k, team_frames, 0, f, keep);
        if constexpr (PROFILE != 0)
            qc_iterate_unrolled<G, PROFILE, HALF, COMPACT, STRIDED, THREE>(
                p, rec, shared, messages, it == 1, live_lane, keep);
        else
            qc_iterate<G, D, P, THREE>(
                p, rec, shared, messages, it == 1, live_lane, keep);
        for (uint32_t fr = team.thread(); fr < team_frames; fr += team.threads())
            if (!k.done[fr])
                k.iterations[fr] = it;
        if (p.early_termination) {
            qc_count_syndromes<G, P, PROFILE, STRIDED>(
                g, rec, shared, team_frames, k, false);
            retire_converged(team, team_frames, k);
        }
    }
    // the final syndromes of every frame
    for (uint32_t fr = team.thread(); fr < team_frames; fr += team.threads())
        k.syndrome[fr] = 0;
    team.sync();
    qc_count_syndromes<G, P, PROFILE, STRIDED>(g, rec, shared, team_frames, k, true);
    write_decisions<A, G>(p, team, state, first_frame, team_frames, team_frames * g.n);
    write_status(p, team, first_frame, team_frames, k);
}

// A launch's groups, a block taking them in turn (PROFILE: checks unrolled
// by their rows' degrees, qc_iterate_unrolled; HALF: in fp16 pairs;
// COMPACT: compact words; STRIDED: several checks a thread; THREE: the
// three-smallest rule).
template <unsigned G,
          unsigned D,
          unsigned P,
          unsigned PROFILE,
          bool HALF = false,
          bool COMPACT = false,
          bool STRIDED = false,
          bool THREE = false>
__device__ __forceinline__ void qc_decode_groups(const min_sum_params& p)
{
    constexpr unsigned F = G * P;
    extern __shared__ __align__(16) uint8_t shared[];
    __shared__ uint32_t syndrome[F], invalid[F], iterations[F], done[F];
    __shared__ int active;
    __shared__ uint32_t minus_zs;
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
    qc_records rec{ row_offsets, blocks };
    if constexpr (PROFILE != 0) {
        // the kernels with checks unrolled by degree: the rows and the
        // blocks scaled to bytes (qc_byte, S bytes a bit: pair words)
        static_assert(P == 2 || THREE, "checks unrolled by degree take pair lanes");
        constexpr uint32_t S = qc_bit_bytes<G, P>;
        const size_t at = qc_unrolled_records_offset(g.n, F, g.qc_rows, g.qc_entries);
        qc_row_record* const rows = reinterpret_cast<qc_row_record*>(shared + at);
        uint2* const scaled = reinterpret_cast<uint2*>(rows + g.qc_rows);
        for (uint32_t w = threadIdx.x; w < g.qc_entries; w += blockDim.x) {
            const uint32_t b = __ldg(g.qc_blocks + w);
            scaled[w] = make_uint2((b >> 16) * g.qc_z * S, (b & 0xffffu) * S);
        }
        if (threadIdx.x == 0) {
            // each row's words from a multiple of 16 bytes (a 16-byte row
            // after an odd number of 8-byte words stays aligned)
            uint32_t offset = 0;
            for (uint32_t i = 0; i < g.qc_rows; ++i) {
                const uint32_t first = __ldg(g.qc_row_offsets + i);
                const uint32_t degree = __ldg(g.qc_row_offsets + i + 1) - first;
                // (three-smallest: 16 bytes a frame; in fp16 pairs a byte a
                // frame an edge, a row's degree z G pairs: qc_edge_message_bytes)
                constexpr bool EDGES = THREE && HALF;
                const uint32_t bytes = EDGES ? 2
                                       : COMPACT && degree <= min_sum_qc_compact_degree
                                           ? 8
                                           : 16;
                const bool barrier = i > 0 && ((g.qc_sync_rows >> i) & 1u);
                rows[i] = qc_row_record{
                    first | (barrier ? qc_row_barrier : 0u), degree, offset, bytes
                };
                offset += uint32_t(
                    align_up(size_t(g.qc_z) * G * bytes * (EDGES ? degree : 1u), 16));
            }
            minus_zs = 0u - g.qc_z * S;
        }
        rec.scaled = scaled;
        rec.rows = rows;
        rec.minus_zs = &minus_zs;
    }
    __syncthreads();
    uint8_t* const messages = p.workspace + size_t(blockIdx.x) * p.variant.message_bytes;
    const size_t groups = (p.n_frames + F - 1) / F;
    for (size_t group = blockIdx.x; group < groups; group += gridDim.x) {
        const size_t first = group * F;
        qc_decode<G, D, P, PROFILE, HALF, COMPACT, STRIDED, THREE>(
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
// that needs without spilling (5G NR: 68). THREE: the three-smallest rule,
// a frame a lane.
template <unsigned G, unsigned D, unsigned P, bool THREE = false>
__global__ void __launch_bounds__(P == 1 ? 1024 : min_sum_qc_pair_threads)
    min_sum_quasi_cyclic_kernel(const min_sum_params p)
{
    qc_decode_groups<G, D, P, 0, false, false, false, THREE>(p);
}

// Checks unrolled for the degrees of profile PROFILE's rows, two frames a
// lane in 16-bit integer pairs, or fp16 pairs (HALF) (chosen only from sm_90
// on, where the s16x2 instructions are native: not compiled for older
// targets). A check keeps its addresses and inputs in registers from the
// first pass to the second: BLOCKS blocks an SM. STRIDED: one lane, a
// thread several checks of a row (lifting sizes above the block's threads).
template <unsigned G,
          unsigned PROFILE,
          unsigned BLOCKS,
          bool HALF = false,
          bool COMPACT = false,
          bool STRIDED = false,
          bool THREE = false>
__global__ void __launch_bounds__(min_sum_qc_pair_threads, BLOCKS)
    min_sum_quasi_cyclic_unrolled_kernel(const min_sum_params p)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
    __trap();
#else
    constexpr unsigned D = (qc_profile_max_degree(PROFILE) + 7) / 8 * 8;
    qc_decode_groups<G,
                     D,
                     THREE && !HALF ? 1 : 2,
                     PROFILE,
                     HALF,
                     COMPACT,
                     STRIDED,
                     THREE>(p);
#endif
}

template <unsigned G, unsigned P, bool THREE>
const void* qc_instance_with_degree(unsigned row_degree)
{
    switch (row_degree) {
    case 8:
        return reinterpret_cast<const void*>(
            &min_sum_quasi_cyclic_kernel<G, 8, P, THREE>);
    case 16:
        return reinterpret_cast<const void*>(
            &min_sum_quasi_cyclic_kernel<G, 16, P, THREE>);
    case 24:
        return reinterpret_cast<const void*>(
            &min_sum_quasi_cyclic_kernel<G, 24, P, THREE>);
    case 32:
        return reinterpret_cast<const void*>(
            &min_sum_quasi_cyclic_kernel<G, 32, P, THREE>);
    }
    return nullptr;
}

template <unsigned P, bool THREE = false>
const void* qc_instance(const min_sum_kernel_key& key)
{
    switch (key.lanes) {
    case 1:
        return qc_instance_with_degree<1, P, THREE>(key.row_degree);
    case 2:
        return qc_instance_with_degree<2, P, THREE>(key.row_degree);
    case 4:
        return qc_instance_with_degree<4, P, THREE>(key.row_degree);
    case 8:
        return qc_instance_with_degree<8, P, THREE>(key.row_degree);
    case 16:
        return qc_instance_with_degree<16, P, THREE>(key.row_degree);
    case 32:
        return qc_instance_with_degree<32, P, THREE>(key.row_degree);
    }
    return nullptr;
}

template <unsigned PROFILE, bool HALF, bool COMPACT>
const void* qc_unrolled_instance(unsigned lanes)
{
    // two blocks an SM (5G NR BG1 Z = 384: 80 registers); one, with 91,
    // measured slower (BG1 46 rows 4.32 against 5.21 Gbit/s, H100)
    switch (lanes) {
    case 1:
        return reinterpret_cast<const void*>(
            &min_sum_quasi_cyclic_unrolled_kernel<1, PROFILE, 2, HALF, COMPACT>);
    case 2:
        return reinterpret_cast<const void*>(
            &min_sum_quasi_cyclic_unrolled_kernel<2, PROFILE, 2, HALF, COMPACT>);
    case 4:
        return reinterpret_cast<const void*>(
            &min_sum_quasi_cyclic_unrolled_kernel<4, PROFILE, 2, HALF, COMPACT>);
    case 8:
        return reinterpret_cast<const void*>(
            &min_sum_quasi_cyclic_unrolled_kernel<8, PROFILE, 2, HALF, COMPACT>);
    }
    return nullptr;
}

// The strided instances (one lane, fp16 pairs): the profiles of
// min_sum_qc_strided_profile.
template <bool COMPACT>
const void* qc_strided_instance_of(unsigned profile)
{
    if (profile == qc_profile_any16)
        return reinterpret_cast<const void*>(
            &min_sum_quasi_cyclic_unrolled_kernel<1,
                                                  qc_profile_any16,
                                                  2,
                                                  true,
                                                  COMPACT,
                                                  true>);
    if (profile == qc_profile_any20)
        return reinterpret_cast<const void*>(
            &min_sum_quasi_cyclic_unrolled_kernel<1,
                                                  qc_profile_any20,
                                                  2,
                                                  true,
                                                  COMPACT,
                                                  true>);
    return nullptr;
}

// The three-smallest rule's unrolled instances: a frame a lane in integers,
// or (HALF) two frames a lane in fp16 pairs, rows of up to
// qc_half_three_max_degree blocks.
template <unsigned LANES, unsigned PROFILE, bool HALF>
const void* qc_three_kernel()
{
    static_assert(!HALF || qc_profile_max_degree(PROFILE) <= qc_half_three_max_degree,
                  "fp16 pairs: rows of up to qc_half_three_max_degree blocks");
    return reinterpret_cast<const void*>(&min_sum_quasi_cyclic_unrolled_kernel<LANES,
                                                                               PROFILE,
                                                                               2,
                                                                               HALF,
                                                                               false,
                                                                               false,
                                                                               true>);
}

template <unsigned PROFILE, bool HALF>
const void* qc_three_instance(unsigned lanes)
{
    switch (lanes) {
    case 1:
        return qc_three_kernel<1, PROFILE, HALF>();
    case 2:
        return qc_three_kernel<2, PROFILE, HALF>();
    case 4:
        return qc_three_kernel<4, PROFILE, HALF>();
    case 8:
        return qc_three_kernel<8, PROFILE, HALF>();
    }
    return nullptr;
}

template <bool HALF>
const void* qc_three_instance_of(unsigned profile, unsigned lanes)
{
    switch (profile) {
    case 1:
        return qc_three_instance<1, HALF>(lanes);
    case 2:
        return qc_three_instance<2, HALF>(lanes);
    case qc_profile_any16:
        return qc_three_instance<qc_profile_any16, HALF>(lanes);
    case qc_profile_any20:
        return qc_three_instance<qc_profile_any20, HALF>(lanes);
    case qc_profile_any24:
        return qc_three_instance<qc_profile_any24, HALF>(lanes);
    }
    return nullptr;
}

template <bool HALF, bool COMPACT = false>
const void* qc_unrolled_instance_of(unsigned profile, unsigned lanes)
{
    if (profile == 1)
        return qc_unrolled_instance<1, HALF, COMPACT>(lanes);
    if (profile == 2)
        return qc_unrolled_instance<2, HALF, COMPACT>(lanes);
    if (profile == qc_profile_any16)
        return qc_unrolled_instance<qc_profile_any16, HALF, COMPACT>(lanes);
    if (profile == qc_profile_any20)
        return qc_unrolled_instance<qc_profile_any20, HALF, COMPACT>(lanes);
    if (profile == qc_profile_any24)
        return qc_unrolled_instance<qc_profile_any24, HALF, COMPACT>(lanes);
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
        if (key.arithmetic == min_sum_arithmetic::fixed8_three)
            return key.qc_strided || key.qc_compact
                       ? nullptr
                       : binary::qc_three_instance_of<false>(key.qc_profile, key.lanes);
        if (key.arithmetic == min_sum_arithmetic::fixed8_three_pairs)
            return key.qc_strided || key.qc_compact
                       ? nullptr
                       : binary::qc_three_instance_of<true>(key.qc_profile, key.lanes);
        if (key.arithmetic == min_sum_arithmetic::fixed8_wide_pairs)
            return binary::qc_unrolled_instance_of<false>(key.qc_profile, key.lanes);
        if (key.arithmetic == min_sum_arithmetic::fixed8_pairs && key.qc_strided)
            return key.lanes != 1 ? nullptr
                   : key.qc_compact
                       ? binary::qc_strided_instance_of<true>(key.qc_profile)
                       : binary::qc_strided_instance_of<false>(key.qc_profile);
        if (key.qc_strided)
            return nullptr;
        if (key.arithmetic == min_sum_arithmetic::fixed8_pairs)
            return key.qc_compact
                       ? binary::qc_unrolled_instance_of<true, true>(key.qc_profile,
                                                                     key.lanes)
                       : binary::qc_unrolled_instance_of<true>(key.qc_profile, key.lanes);
        return nullptr;
    }
    if (key.arithmetic == min_sum_arithmetic::fixed8)
        return binary::qc_instance<1>(key);
    if (key.arithmetic == min_sum_arithmetic::fixed8_three)
        return binary::qc_instance<1, true>(key);
    if (key.arithmetic == min_sum_arithmetic::fixed8_wide_pairs)
        return binary::qc_instance<2>(key);
    return nullptr;
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
