/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// What the SIMD decoders share, per Highway target (included once a target
// by simd_min_sum.cc and simd_float.cc): the run of one group of frames in
// lanes as the reference's decode_frame() runs one frame, whatever the
// beliefs' type (16-bit integers or floats). A lane decides 1 where its
// belief is below 0.

// Highway's per-target include guard
#if defined(GPULDPC_SIMD_GROUP_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef GPULDPC_SIMD_GROUP_INL_H_
#undef GPULDPC_SIMD_GROUP_INL_H_
#else
#define GPULDPC_SIMD_GROUP_INL_H_
#endif

#include "simd_min_sum.h"
#include <hwy/cache_control.h>
#include <hwy/highway.h>
#include <algorithm>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace gr {
namespace gpuldpc {
namespace detail {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

// Calls on_check(odd) for every check, odd the lanes where an odd number of
// its variables decide 1 (the check is unsatisfied).
template <class D, class T, class F>
HWY_INLINE void for_each_parity(D d, const simd_graph& g, const T* beliefs, F on_check)
{
    const size_t L = hn::Lanes(d);
    const auto zero = hn::Zero(d);
    for (uint32_t c = 0; c < g.m; ++c) {
        auto odd = hn::FirstN(d, 0);
        for (uint32_t e = g.check_offsets[c]; e < g.check_offsets[c + 1]; ++e)
            odd = hn::Xor(
                odd,
                hn::Lt(hn::LoadU(d, beliefs + size_t(g.edge_variable[e]) * L), zero));
        on_check(odd);
    }
}

//! the lanes whose decisions from \p beliefs satisfy every check
template <class D, class T>
HWY_INLINE hn::Mask<D> satisfied(D d, const simd_graph& g, const T* beliefs)
{
    auto any = hn::FirstN(d, 0);
    for_each_parity(d, g, beliefs, [&](hn::Mask<D> odd) { any = hn::Or(any, odd); });
    return hn::Not(any);
}

//! unsatisfied checks of the decisions from \p beliefs, lane by lane
template <class D, class T>
HWY_NOINLINE void
syndrome_weights(D d, const simd_graph& g, const T* beliefs, uint32_t* out)
{
    const hn::RebindToSigned<D> di;
    using I = hn::TFromD<decltype(di)>;
    const size_t L = hn::Lanes(d);
    HWY_ALIGN I partial[hn::MaxLanes(di)];
    std::fill_n(out, L, 0u);
    auto count = hn::Zero(di);
    uint32_t pending = 0;
    const auto flush = [&] {
        hn::Store(count, di, partial);
        for (size_t l = 0; l < L; ++l)
            out[l] += uint32_t(partial[l]);
        count = hn::Zero(di);
        pending = 0;
    };
    for_each_parity(d, g, beliefs, [&](hn::Mask<D> odd) {
        // a true mask's vector is -1
        count = hn::Sub(count, hn::BitCast(di, hn::VecFromMask(d, odd)));
        if (++pending == 32767) // within 16-bit lanes
            flush();
    });
    flush();
}

// Copies the beliefs of the lanes in \p take into \p decided.
template <class D, class T>
HWY_NOINLINE void
keep_lanes(D d, const simd_graph& g, const T* beliefs, T* decided, hn::Mask<D> take)
{
    const size_t L = hn::Lanes(d);
    for (uint32_t v = 0; v < g.n; ++v) {
        const auto now = hn::LoadU(d, beliefs + size_t(v) * L);
        const auto kept = hn::LoadU(d, decided + size_t(v) * L);
        hn::StoreU(hn::IfThenElse(take, now, kept), d, decided + size_t(v) * L);
    }
}

/*!
 * The reference's decode_frame() for lanes() frames at once: a lane's result
 * (\p decided) is its beliefs at the first iteration whose decisions satisfy
 * every check (with early termination), else at the last. \p start() makes
 * an iteration's state from \p beliefs (the prior's copy); \p iterate() runs
 * one iteration, leaving the decisions' beliefs in \p beliefs.
 */
template <class D, class T, class Start, class Iterate>
HWY_INLINE void run_group(D d,
                          const simd_graph& g,
                          const T* prior,
                          T* beliefs,
                          T* decided,
                          uint32_t* iterations_out,
                          uint32_t* syndrome_out,
                          Start start,
                          Iterate iterate)
{
    const hn::RebindToSigned<D> di;
    using I = hn::TFromD<decltype(di)>;
    const size_t L = hn::Lanes(d);
    HWY_ALIGN I iteration_of[hn::MaxLanes(di)];
    std::fill_n(iteration_of, L, I(0));
    std::memcpy(decided, prior, size_t(g.n) * L * sizeof(T));

    // decided at iteration 0: the channel's decisions, in lanes they satisfy
    auto done = g.early_termination ? satisfied(d, g, prior) : hn::FirstN(d, 0);
    if (!hn::AllTrue(d, done) && g.max_iterations > 0) {
        std::memcpy(beliefs, prior, size_t(g.n) * L * sizeof(T));
        start();
        auto iterations = hn::Zero(di);
        for (unsigned it = 1; it <= g.max_iterations; ++it) {
            iterate();
            // lanes still running count this iteration
            iterations =
                hn::IfThenElse(hn::RebindMask(di, done), iterations, hn::Set(di, I(it)));
            if (!g.early_termination)
                continue;
            const auto now = hn::AndNot(done, satisfied(d, g, beliefs));
            if (!hn::AllFalse(d, now)) {
                keep_lanes(d, g, beliefs, decided, now);
                done = hn::Or(done, now);
                if (hn::AllTrue(d, done))
                    break;
            }
        }
        // the lanes that never satisfied every check: their last beliefs
        keep_lanes(d, g, beliefs, decided, hn::Not(done));
        hn::Store(iterations, di, iteration_of);
    }
    for (size_t l = 0; l < L; ++l)
        iterations_out[l] = uint32_t(iteration_of[l]);
    syndrome_weights(d, g, decided, syndrome_out);
}

// checks ahead whose beliefs a layered check prefetches: their addresses are
// data, which the hardware prefetchers cannot follow (the messages are in the
// schedule's order, which they can)
constexpr uint32_t prefetch_distance = 2;

template <class T>
HWY_INLINE void
prefetch_check(const simd_graph& g, const T* beliefs, size_t L, uint32_t j)
{
    if (j + prefetch_distance >= g.m)
        return;
    const uint32_t later = g.check_order[j + prefetch_distance];
    for (uint32_t e = g.check_offsets[later]; e < g.check_offsets[later + 1]; ++e)
        hwy::Prefetch(beliefs + size_t(g.edge_variable[e]) * L);
}

} // namespace HWY_NAMESPACE
} // namespace detail
} // namespace gpuldpc
} // namespace gr
HWY_AFTER_NAMESPACE();

#endif // GPULDPC_SIMD_GROUP_INL_H_
