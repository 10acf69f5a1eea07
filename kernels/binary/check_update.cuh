/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_BINARY_CHECK_UPDATE_CUH
#define INCLUDED_GPULDPC_KERNELS_BINARY_CHECK_UPDATE_CUH

// One lane's update of one check (from the graph's arrays or from the
// check's compact record) and, flooding, of one bit: the steps an iteration
// of decode.cuh is made of, for any arithmetic policy.

#include "binary/team.cuh"
#include <type_traits>
#include <cstdint>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace binary {

using check_records = min_sum_records;

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
            s.belief[v * G + f] = kept<A>(
                A::to_belief(A::limited(A::add(x, m))), &s.belief[v * G + f], keep);
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
    // a record is 16 bytes, 16-byte aligned (min_sum_record): one load
    const uint4 packed = __ldg(reinterpret_cast<const uint4*>(g.slot_variables) + slot);
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
                    const auto b = A::to_belief(A::limited(A::add(x[i], m)));
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

} // namespace binary
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_BINARY_CHECK_UPDATE_CUH */
