/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// 8-bit min-sum with frames in SIMD lanes (simd_min_sum.h), compiled once for
// each instruction set Highway targets on this architecture; the library
// picks among them at run time (min_sum8_kernels()).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/simd_min_sum.cc"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include "fixed_point_rule.h"
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

using D16 = hn::ScalableTag<int16_t>;
using D8 = hn::Rebind<int8_t, D16>; // a message a lane, half as wide
using V16 = hn::Vec<D16>;
using M16 = hn::Mask<D16>;

HWY_INLINE V16 load_message(D16 d, const int8_t* p)
{
    return hn::PromoteTo(d, hn::LoadU(D8(), p));
}

HWY_INLINE void store_message(V16 v, int8_t* p)
{
    hn::StoreU(hn::DemoteTo(D8(), v), D8(), p);
}

// The check's outputs of min-sum with its offset and scale
// (fixed_point_min_sum_rule::magnitude()): (max(min - offset, 0) scale + 8) >> 4
HWY_INLINE V16 magnitude(D16 d, V16 min, V16 offset, V16 scale)
{
    const V16 x = hn::Max(hn::Sub(min, offset), hn::Zero(d));
    return hn::ShiftRight<4>(hn::Add(hn::Mul(x, scale), hn::Set(d, 8)));
}

// What a check needs of its inputs: the two smallest magnitudes (of at most
// 127), the first position of the smallest and the sign of the product.
struct smallest_two_lanes {
    V16 min1, min2, arg, sign;
};

HWY_INLINE void take(D16 d, smallest_two_lanes& s, V16 x, int16_t i)
{
    const V16 mag = hn::Min(hn::Abs(x), hn::Set(d, 127));
    s.arg = hn::IfThenElse(hn::Lt(mag, s.min1), hn::Set(d, i), s.arg);
    s.min2 = hn::Min(s.min2, hn::Max(s.min1, mag));
    s.min1 = hn::Min(s.min1, mag);
    s.sign = hn::Xor(s.sign, x);
}

HWY_INLINE smallest_two_lanes no_inputs(D16 d)
{
    // 127 for "none": the reference's none (255) capped at 127 gives the same
    return { hn::Set(d, 127), hn::Set(d, 127), hn::Zero(d), hn::Zero(d) };
}

// The message to input i of a check whose inputs gave \p s; \p x is input i
// (its sign), \p mag1 / \p mag2 the magnitudes beside / at the smallest.
HWY_INLINE V16 message_to(const smallest_two_lanes& s, V16 x, V16 mag1, V16 mag2, V16 i)
{
    const V16 mag = hn::IfThenElse(hn::Eq(s.arg, i), mag2, mag1);
    // negated where the others' signs multiply to -1: (mag ^ s) - s, s = 0 or -1
    const V16 negative = hn::ShiftRight<15>(hn::Xor(s.sign, x));
    return hn::Sub(hn::Xor(mag, negative), negative);
}

HWY_INLINE V16 saturate_message(D16 d, V16 x)
{
    return hn::Min(hn::Max(x, hn::Set(d, -127)), hn::Set(d, 127));
}

// checks ahead whose data a layered check prefetches
constexpr uint32_t prefetch_distance = 2;

// The rule's constants as vectors
struct layered_constants {
    V16 offset, scale, limit, neg_limit;
};

// One layered check of DEG edges: its inputs stay in registers. DEG = 0: a
// check of any degree, its inputs in \p inputs.
template <uint32_t DEG>
HWY_INLINE void layered_check(const min_sum8_graph& g,
                              const min_sum8_group& w,
                              const layered_constants& k,
                              uint32_t e0,
                              uint32_t runtime_degree)
{
    const D16 d;
    const size_t L = hn::Lanes(d);
    constexpr bool in_registers = DEG > 0;
    const uint32_t deg = in_registers ? DEG : runtime_degree;
    V16 held[in_registers ? DEG : 1];
    smallest_two_lanes s = no_inputs(d);
    for (uint32_t i = 0; i < deg; ++i) {
        const int16_t* belief = w.beliefs + size_t(g.edge_variable[e0 + i]) * L;
        const V16 x =
            hn::Sub(hn::LoadU(d, belief), load_message(d, w.c2v + size_t(e0 + i) * L));
        if constexpr (in_registers)
            held[i] = x;
        else
            hn::StoreU(x, d, w.inputs + size_t(i) * L);
        take(d, s, x, int16_t(i));
    }
    const V16 mag1 = magnitude(d, s.min1, k.offset, k.scale);
    const V16 mag2 = magnitude(d, s.min2, k.offset, k.scale);
    for (uint32_t i = 0; i < deg; ++i) {
        const V16 x = in_registers ? held[i] : hn::LoadU(d, w.inputs + size_t(i) * L);
        const V16 msg = message_to(s, x, mag1, mag2, hn::Set(d, int16_t(i)));
        store_message(msg, w.c2v + size_t(e0 + i) * L);
        int16_t* belief = w.beliefs + size_t(g.edge_variable[e0 + i]) * L;
        hn::StoreU(hn::Min(hn::Max(hn::Add(x, msg), k.neg_limit), k.limit), d, belief);
    }
}

// Row-layered: each check reads its variables' beliefs less its previous
// message, then adds its new message back (cpu_decoder.cc, layered_schedule).
void layered_iteration(const min_sum8_graph& g, const min_sum8_group& w)
{
    const D16 d;
    const size_t L = hn::Lanes(d);
    layered_constants k;
    k.offset = hn::Set(d, g.offset_q);
    k.scale = hn::Set(d, g.scale_q);
    k.limit = hn::Set(d, int16_t(fixed_point_belief_limit));
    k.neg_limit = hn::Neg(k.limit);
    for (uint32_t j = 0; j < g.m; ++j) {
        const uint32_t c = g.check_order[j];
        const uint32_t e0 = g.check_offsets[c], deg = g.check_offsets[c + 1] - e0;
        // a later check's beliefs: their addresses are data, which the
        // hardware prefetchers cannot follow (the messages are in the
        // schedule's order, which they can)
        if (j + prefetch_distance < g.m) {
            const uint32_t later = g.check_order[j + prefetch_distance];
            for (uint32_t e = g.check_offsets[later]; e < g.check_offsets[later + 1]; ++e)
                hwy::Prefetch(w.beliefs + size_t(g.edge_variable[e]) * L);
        }
#if HWY_HAVE_SCALABLE
        layered_check<0>(g, w, k, e0, deg); // sizeless vectors make no arrays
#else
        // the degrees of the standard codes' checks (DVB-S2, IEEE 802.11n and
        // 802.16e, 5G NR's core) in registers
        switch (deg) {
        case 3: layered_check<3>(g, w, k, e0, deg); break;
        case 4: layered_check<4>(g, w, k, e0, deg); break;
        case 5: layered_check<5>(g, w, k, e0, deg); break;
        case 6: layered_check<6>(g, w, k, e0, deg); break;
        case 7: layered_check<7>(g, w, k, e0, deg); break;
        case 8: layered_check<8>(g, w, k, e0, deg); break;
        case 9: layered_check<9>(g, w, k, e0, deg); break;
        case 10: layered_check<10>(g, w, k, e0, deg); break;
        case 11: layered_check<11>(g, w, k, e0, deg); break;
        default: layered_check<0>(g, w, k, e0, deg); break;
        }
#endif
    }
}

// All checks from the stored variable-to-check messages, then all variables
// (cpu_decoder.cc, flooding_schedule).
void flooding_iteration(const min_sum8_graph& g, const min_sum8_group& w)
{
    const D16 d;
    const size_t L = hn::Lanes(d);
    const V16 offset = hn::Set(d, g.offset_q), scale = hn::Set(d, g.scale_q);
    for (uint32_t c = 0; c < g.m; ++c) {
        const uint32_t e0 = g.check_offsets[c], end = g.check_offsets[c + 1];
        smallest_two_lanes s = no_inputs(d);
        for (uint32_t e = e0; e < end; ++e)
            take(d, s, load_message(d, w.v2c + size_t(e) * L), int16_t(e - e0));
        const V16 mag1 = magnitude(d, s.min1, offset, scale);
        const V16 mag2 = magnitude(d, s.min2, offset, scale);
        for (uint32_t e = e0; e < end; ++e) {
            const V16 x = load_message(d, w.v2c + size_t(e) * L);
            store_message(message_to(s, x, mag1, mag2, hn::Set(d, int16_t(e - e0))),
                          w.c2v + size_t(e) * L);
        }
    }
    for (uint32_t v = 0; v < g.n; ++v) {
        const uint32_t first = g.variable_offsets[v], end = g.variable_offsets[v + 1];
        V16 belief = hn::LoadU(d, w.prior + size_t(v) * L);
        for (uint32_t i = first; i < end; ++i)
            belief =
                hn::Add(belief, load_message(d, w.c2v + size_t(g.variable_edges[i]) * L));
        hn::StoreU(belief, d, w.beliefs + size_t(v) * L);
        for (uint32_t i = first; i < end; ++i) {
            const size_t e = size_t(g.variable_edges[i]) * L;
            store_message(
                saturate_message(d, hn::Sub(belief, load_message(d, w.c2v + e))),
                w.v2c + e);
        }
    }
}

// The XOR of each check's beliefs: negative in the lanes where the check is
// unsatisfied. Calls on_check(c, xor) for every check.
template <class F>
HWY_INLINE void
for_each_parity(const min_sum8_graph& g, const int16_t* beliefs, F on_check)
{
    const D16 d;
    const size_t L = hn::Lanes(d);
    for (uint32_t c = 0; c < g.m; ++c) {
        V16 x = hn::Zero(d);
        for (uint32_t e = g.check_offsets[c]; e < g.check_offsets[c + 1]; ++e)
            x = hn::Xor(x, hn::LoadU(d, beliefs + size_t(g.edge_variable[e]) * L));
        on_check(x);
    }
}

//! the lanes whose decisions from \p beliefs satisfy every check
HWY_INLINE M16 satisfied(const min_sum8_graph& g, const int16_t* beliefs)
{
    const D16 d;
    V16 any = hn::Zero(d);
    for_each_parity(g, beliefs, [&](V16 x) { any = hn::Or(any, x); });
    return hn::Not(hn::Lt(any, hn::Zero(d)));
}

//! unsatisfied checks of the decisions from \p beliefs, lane by lane
void syndrome_weights(const min_sum8_graph& g, const int16_t* beliefs, uint32_t* out)
{
    const D16 d;
    const size_t L = hn::Lanes(d);
    HWY_ALIGN int16_t partial[hn::MaxLanes(d)];
    std::fill_n(out, L, 0u);
    V16 count = hn::Zero(d);
    uint32_t pending = 0;
    const auto flush = [&] {
        hn::Store(count, d, partial);
        for (size_t l = 0; l < L; ++l)
            out[l] += uint32_t(partial[l]);
        count = hn::Zero(d);
        pending = 0;
    };
    for_each_parity(g, beliefs, [&](V16 x) {
        // a true mask's vector is -1
        count = hn::Sub(count, hn::VecFromMask(d, hn::Lt(x, hn::Zero(d))));
        if (++pending == 32767)
            flush();
    });
    flush();
}

// Copies the beliefs of the lanes in \p take into \p decided.
void keep_lanes(const min_sum8_graph& g,
                const int16_t* beliefs,
                int16_t* decided,
                M16 take)
{
    const D16 d;
    const size_t L = hn::Lanes(d);
    for (uint32_t v = 0; v < g.n; ++v) {
        const V16 now = hn::LoadU(d, beliefs + size_t(v) * L);
        const V16 kept = hn::LoadU(d, decided + size_t(v) * L);
        hn::StoreU(hn::IfThenElse(take, now, kept), d, decided + size_t(v) * L);
    }
}

// The reference's decode_frame() for lanes() frames at once: a lane's result
// is its beliefs at the first iteration whose decisions satisfy every check
// (with early termination), else at the last.
void decode_group(const min_sum8_graph& g, const min_sum8_group& w)
{
    const D16 d;
    const size_t L = hn::Lanes(d);
    const size_t edges = g.check_offsets[g.m];
    HWY_ALIGN int16_t iteration_of[hn::MaxLanes(d)];
    std::fill_n(iteration_of, L, int16_t(0));
    std::memcpy(w.decided, w.prior, size_t(g.n) * L * sizeof(int16_t));

    // decided at iteration 0: the channel's decisions, in lanes they satisfy
    M16 done = g.early_termination ? satisfied(g, w.prior) : hn::FirstN(d, 0);
    if (!hn::AllTrue(d, done) && g.max_iterations > 0) {
        std::memset(w.c2v, 0, edges * L);
        std::memcpy(w.beliefs, w.prior, size_t(g.n) * L * sizeof(int16_t));
        if (!g.layered)
            for (uint32_t v = 0; v < g.n; ++v)
                for (uint32_t i = g.variable_offsets[v]; i < g.variable_offsets[v + 1];
                     ++i)
                    store_message(hn::LoadU(d, w.prior + size_t(v) * L),
                                  w.v2c + size_t(g.variable_edges[i]) * L);
        V16 iterations = hn::Zero(d);
        for (unsigned it = 1; it <= g.max_iterations; ++it) {
            if (g.layered)
                layered_iteration(g, w);
            else
                flooding_iteration(g, w);
            // lanes still running count this iteration
            iterations = hn::IfThenElse(done, iterations, hn::Set(d, int16_t(it)));
            if (!g.early_termination)
                continue;
            const M16 now = hn::AndNot(done, satisfied(g, w.beliefs));
            if (!hn::AllFalse(d, now)) {
                keep_lanes(g, w.beliefs, w.decided, now);
                done = hn::Or(done, now);
                if (hn::AllTrue(d, done))
                    break;
            }
        }
        // the lanes that never satisfied every check: their last beliefs
        keep_lanes(g, w.beliefs, w.decided, hn::Not(done));
        hn::Store(iterations, d, iteration_of);
    }
    for (size_t l = 0; l < L; ++l)
        w.iterations[l] = uint32_t(iteration_of[l]);
    syndrome_weights(g, w.decided, w.syndrome);
}

size_t group_lanes() { return hn::Lanes(D16()); }

} // namespace HWY_NAMESPACE
} // namespace detail
} // namespace gpuldpc
} // namespace gr
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gr {
namespace gpuldpc {
namespace detail {

HWY_EXPORT(decode_group);
HWY_EXPORT(group_lanes);

std::vector<min_sum8_kernel> min_sum8_kernels()
{
    std::vector<min_sum8_kernel> out;
    // each target's entry in the dispatch tables, without touching Highway's
    // process-wide choice (every decoder keeps its own)
    for (const int64_t target : hwy::SupportedAndGeneratedTargets()) {
        const int64_t bit =
            HWY_CHOSEN_TARGET_SHIFT(target) & HWY_CHOSEN_TARGET_MASK_TARGETS;
        if (bit == 0)
            continue;
        const size_t index = hwy::Num0BitsBelowLS1Bit_Nonzero64(uint64_t(bit));
        min_sum8_kernel k;
        k.decode = HWY_DISPATCH_TABLE(decode_group)[index];
        k.lanes = HWY_DISPATCH_TABLE(group_lanes)[index]();
        k.target = hwy::TargetName(target);
        out.push_back(k);
    }
    return out;
}

} // namespace detail
} // namespace gpuldpc
} // namespace gr
#endif
