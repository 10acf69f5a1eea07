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
// The arithmetic is fixed8_arith's check_minima, the CPU reference's integer
// for integer, and the base rows are the code's layered order (the engine
// gives this family only codes whose layered order is row order), so that
// decisions, iteration counts and status equal the CPU's on every frame.

#include "binary/decode.cuh"
#include "binary/families.h"
#include <cstdint>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace binary {

// The bit of check r of a base row in the block (column << 16) | shift.
__device__ __forceinline__ uint32_t qc_bit(uint32_t block, uint32_t r, uint32_t z)
{
    uint32_t c = r + (block & 0xffffu);
    c = c >= z ? c - z : c;
    return (block >> 16) * z + c;
}

// The base matrix's records in shared memory (min_sum_graph::qc_*).
struct qc_records {
    const uint32_t* row_offsets;
    const uint32_t* blocks;
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
__device__ __forceinline__ void qc_check(const uint32_t* row,
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
            belief[qc_bit(row[k], r, z) * G] = int16_t(x + m);
        }
    *word = make_uint2(negative,
                       uint32_t(mins.mag1) | uint32_t(mins.mag2) << 8 | smallest << 16);
}

// One iteration of lane f (live: its frame still decodes): the base rows in
// order, check r = threadIdx.x / G of each (blockDim.x >= G Z: a lane a
// check); first: the messages before are 0 (not read). A lane's message
// words are read a row ahead, so that the load's latency passes during a
// row's update and barrier (the word is the lane's own, last written an
// iteration back).
template <unsigned G, unsigned D>
__device__ void qc_iterate(const min_sum_graph& g,
                           const qc_records& rec,
                           int16_t* belief,
                           uint2* messages,
                           const fixed_point_rule& rule,
                           bool first,
                           bool live)
{
    const unsigned f = threadIdx.x & (G - 1);
    const uint32_t r = threadIdx.x / G, z = g.qc_z;
    const bool mine = live && r < z, read = mine && !first;
    const size_t row_words = size_t(z) * G;
    uint2* word = messages + size_t(r) * G + f;
    uint2 next = read ? *word : make_uint2(0u, 0u);
    for (unsigned i = 0; i < g.qc_rows; ++i, word += row_words) {
        const uint2 old = next;
        if (read && i + 1 < g.qc_rows)
            next = word[row_words];
        const uint32_t e0 = rec.row_offsets[i], deg = rec.row_offsets[i + 1] - e0;
        if (mine)
            qc_check<G, D>(rec.blocks + e0, deg, r, z, belief + f, old, word, rule);
        __syncthreads();
    }
}

// Unsatisfied checks of the frames that count (all: every frame of the
// group; else those not done) into k.syndrome, 0 for them on entry.
template <unsigned G>
__device__ void qc_count_syndromes(const min_sum_graph& g,
                                   const qc_records& rec,
                                   const int16_t* belief,
                                   uint32_t team_frames,
                                   const frame_counters& k,
                                   bool all)
{
    const unsigned f = threadIdx.x & (G - 1);
    const uint32_t r = threadIdx.x / G, z = g.qc_z;
    if (r < z && f < team_frames && (all || !k.done[f])) {
        uint32_t count = 0;
        for (unsigned i = 0; i < g.qc_rows; ++i) {
            uint32_t parity = 0;
            for (uint32_t e = rec.row_offsets[i]; e < rec.row_offsets[i + 1]; ++e)
                parity ^= belief[qc_bit(rec.blocks[e], r, z) * G + f] < 0 ? 1u : 0u;
            count += parity;
        }
        if (count)
            atomicAdd(&k.syndrome[f], count);
    }
    __syncthreads();
}

// Decodes the group of the launch's frames first_frame .. first_frame +
// team_frames - 1 (at most G), as decode() does for the other families.
template <unsigned G, unsigned D>
__device__ void qc_decode(const min_sum_params& p,
                          uint8_t* shared,
                          const qc_records& rec,
                          uint2* messages,
                          size_t first_frame,
                          uint32_t team_frames,
                          const frame_counters& k)
{
    using A = fixed8_arith;
    const min_sum_graph& g = p.graph;
    const block_team team{};
    // the other families' layout of a group's beliefs (read_channel and
    // write_decisions fill and read them)
    const state_layout layout(g.n, g.edges, g.checks, true, A::rule, G, false);
    uint8_t* const none = nullptr;
    const group_states<A> state{ layout, shared, none };
    int16_t* const belief = reinterpret_cast<int16_t*>(shared);
    const fixed_point_rule rule{ p.scale_q, p.offset_q };

    start_counters(team, team_frames, k);
    read_channel<A, true, G>(p, team, state, 1, first_frame, team_frames, k);
    team.sync();
    if (p.early_termination) {
        qc_count_syndromes<G>(g, rec, belief, team_frames, k, true);
        retire_converged(team, team_frames, k);
    }
    const unsigned f = threadIdx.x & (G - 1);
    for (unsigned it = 1; it <= p.max_iterations; ++it) {
        if (*k.active == 0)
            break;
        qc_iterate<G, D>(g, rec, belief, messages, rule, it == 1, live(k, team_frames, f));
        for (uint32_t fr = team.thread(); fr < team_frames; fr += team.threads())
            if (!k.done[fr])
                k.iterations[fr] = it;
        if (p.early_termination) {
            qc_count_syndromes<G>(g, rec, belief, team_frames, k, false);
            retire_converged(team, team_frames, k);
        }
    }
    // the final syndromes of every frame
    for (uint32_t fr = team.thread(); fr < team_frames; fr += team.threads())
        k.syndrome[fr] = 0;
    team.sync();
    qc_count_syndromes<G>(g, rec, belief, team_frames, k, true);
    write_decisions<A, G>(p, team, state, first_frame, team_frames, team_frames * g.n);
    write_status(p, team, first_frame, team_frames, k);
}

template <unsigned G, unsigned D>
__global__ void __launch_bounds__(1024) min_sum_quasi_cyclic_kernel(const min_sum_params p)
{
    extern __shared__ __align__(16) uint8_t shared[];
    __shared__ uint32_t syndrome[G], invalid[G], iterations[G], done[G];
    __shared__ int active;
    const min_sum_graph& g = p.graph;
    // the base matrix's records after the beliefs, read by every check
    uint32_t* const records = reinterpret_cast<uint32_t*>(shared + qc_records_offset(g.n, G));
    const uint32_t offsets = g.qc_rows + 1, words = offsets + g.qc_entries;
    for (uint32_t w = threadIdx.x; w < words; w += blockDim.x)
        records[w] = w < offsets ? __ldg(g.qc_row_offsets + w)
                                 : __ldg(g.qc_blocks + (w - offsets));
    __syncthreads();
    const qc_records rec{ records, records + offsets };
    uint2* const messages =
        reinterpret_cast<uint2*>(p.workspace + size_t(blockIdx.x) * p.variant.message_bytes);
    const size_t groups = (p.n_frames + G - 1) / G;
    for (size_t group = blockIdx.x; group < groups; group += gridDim.x) {
        const size_t first = group * G;
        qc_decode<G, D>(p,
                        shared,
                        rec,
                        messages,
                        first,
                        uint32_t(min(size_t(G), p.n_frames - first)),
                        frame_counters{ syndrome, invalid, iterations, done, &active });
        // the counters are read to the end of a group's decoding
        __syncthreads();
    }
}

template <unsigned G>
const void* qc_instance_with_degree(unsigned row_degree)
{
    switch (row_degree) {
    case 8:
        return reinterpret_cast<const void*>(&min_sum_quasi_cyclic_kernel<G, 8>);
    case 16:
        return reinterpret_cast<const void*>(&min_sum_quasi_cyclic_kernel<G, 16>);
    case 24:
        return reinterpret_cast<const void*>(&min_sum_quasi_cyclic_kernel<G, 24>);
    case 32:
        return reinterpret_cast<const void*>(&min_sum_quasi_cyclic_kernel<G, 32>);
    }
    return nullptr;
}

} // namespace binary

const void* min_sum_quasi_cyclic_instance(const min_sum_kernel_key& key)
{
    if (key.family != min_sum_family::quasi_cyclic ||
        key.arithmetic != min_sum_arithmetic::fixed8 || !key.layered)
        return nullptr;
    switch (key.lanes) {
    case 1:
        return binary::qc_instance_with_degree<1>(key.row_degree);
    case 2:
        return binary::qc_instance_with_degree<2>(key.row_degree);
    case 4:
        return binary::qc_instance_with_degree<4>(key.row_degree);
    case 8:
        return binary::qc_instance_with_degree<8>(key.row_degree);
    case 16:
        return binary::qc_instance_with_degree<16>(key.row_degree);
    case 32:
        return binary::qc_instance_with_degree<32>(key.row_degree);
    }
    return nullptr;
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
