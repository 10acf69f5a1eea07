/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// 8-bit min-sum with frames in SIMD lanes (simd_min_sum.h), compiled once for
// each instruction set Highway targets on this architecture; the library
// picks among them at run time (min_sum8_kernels()).

// Scalable vectors (Arm SVE, RISC-V V) are sizeless types, which the kernels'
// structs and arrays of vectors cannot hold: those targets are left out (on
// Arm, NEON runs).
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SVE | HWY_SVE2 | HWY_SVE_256 | HWY_SVE2_128 | HWY_RVV)
#endif
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/simd_min_sum.cc"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include "fixed_point_rule.h"
#include "simd_group-inl.h"
#include "simd_min_sum.h"
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

// The rule's constants as vectors
struct rule_vectors {
    V16 offset, scale, limit, neg_limit;
    V16 table; //!< two_smallest_table()'s first 16 entries, in each 128-bit block
    const int8_t* entries; //!< the same in memory
};

// The check's outputs of min-sum with its offset and scale
// (fixed_point_min_sum_rule::magnitude()): (max(min - offset, 0) scale + 8) >> 4
HWY_INLINE V16 magnitude(D16 d, V16 min, V16 offset, V16 scale)
{
    const V16 x = hn::Max(hn::Sub(min, offset), hn::Zero(d));
    return hn::ShiftRight<4>(hn::Add(hn::Mul(x, scale), hn::Set(d, 8)));
}

// x negated where the sign bit of \p sign_of is set: (x ^ s) - s, s = 0 or -1
HWY_INLINE V16 with_sign(V16 x, V16 sign_of)
{
    const V16 negative = hn::ShiftRight<15>(sign_of);
    return hn::Sub(hn::Xor(x, negative), negative);
}

HWY_INLINE V16 capped_magnitude(D16 d, V16 x)
{
    return hn::Min(hn::Abs(x), hn::Set(d, 127));
}

// f(x) of two_smallest_table() for x = 0 .. 254: the table is 0 from entry 15
// on (simd_graph::table), so one byte shuffle a 128-bit block reads it
HWY_INLINE V16 table_at(D16 d, const rule_vectors& k, V16 x)
{
#if HWY_TARGET == HWY_SCALAR
    return hn::Set(d, int16_t(k.entries[std::min<int32_t>(hn::GetLane(x), 15)]));
#else
    const hn::Repartition<uint8_t, D16> du8;
    // low byte the entry, high byte 0x80: the shuffle writes 0 there
    const V16 index = hn::Or(hn::Min(x, hn::Set(d, 15)), hn::Set(d, int16_t(-32768)));
    return hn::BitCast(
        d, hn::TableLookupBytesOr0(hn::BitCast(du8, k.table), hn::BitCast(du8, index)));
#endif
}

// |a (+) b| for a <= b: max(a + f(a + b) - f(b - a), 0)
// (fixed_point_min_sum_rule::combined())
HWY_INLINE V16 combined(D16 d, const rule_vectors& k, V16 a, V16 b)
{
    const V16 c =
        hn::Sub(hn::Add(a, table_at(d, k, hn::Add(a, b))), table_at(d, k, hn::Sub(b, a)));
    return hn::Max(c, hn::Zero(d));
}

// A check's state for min_sum_magnitude_rule::smallest: the two smallest
// magnitudes (of at most 127), the first position of the smallest, the sign
// of the product; then its two outgoing magnitudes.
struct smallest_rule {
    V16 min1, min2, arg, sign, mag1, mag2;

    HWY_INLINE void start(D16 d)
    {
        // 127 for "none": the reference's none (255) capped at 127 gives the same
        min1 = min2 = hn::Set(d, 127);
        arg = sign = hn::Zero(d);
    }
    HWY_INLINE void take(D16 d, V16 x, int16_t i)
    {
        const V16 mag = capped_magnitude(d, x);
        arg = hn::IfThenElse(hn::Lt(mag, min1), hn::Set(d, i), arg);
        min2 = hn::Min(min2, hn::Max(min1, mag));
        min1 = hn::Min(min1, mag);
        sign = hn::Xor(sign, x);
    }
    HWY_INLINE void finish(D16 d, const rule_vectors& k, uint32_t /*deg*/)
    {
        mag1 = magnitude(d, min1, k.offset, k.scale);
        mag2 = magnitude(d, min2, k.offset, k.scale);
    }
    HWY_INLINE V16 message(D16 d, V16 x, int16_t i) const
    {
        return with_sign(hn::IfThenElse(hn::Eq(arg, hn::Set(d, i)), mag2, mag1),
                         hn::Xor(sign, x));
    }
};

// min_sum_magnitude_rule::two_smallest (THREE false) and three_smallest
// (THREE true): the three smallest magnitudes and their positions (of equal
// ones the first first), combined as belief propagation combines them
// (check_rules.h, fixed_point_min_sum_rule::check_update()).
template <bool THREE>
struct smallest_three_rule {
    V16 m0, m1, m2, at0, at1, at2, sign;
    V16 out0, out1, out2, out_rest; // the magnitudes at at0, at1, at2, elsewhere
    bool by_value;                  // two_smallest above 2 edges: |x| == m0 picks out0

    HWY_INLINE void start(D16 d)
    {
        m0 = m1 = m2 = hn::Set(d, 255);
        at0 = at1 = at2 = hn::Set(d, -1);
        sign = hn::Zero(d);
    }
    HWY_INLINE void take(D16 d, V16 x, int16_t i)
    {
        const V16 mag = capped_magnitude(d, x), here = hn::Set(d, i);
        const auto lt0 = hn::Lt(mag, m0), lt1 = hn::Lt(mag, m1), lt2 = hn::Lt(mag, m2);
        m2 = hn::IfThenElse(lt1, m1, hn::IfThenElse(lt2, mag, m2));
        at2 = hn::IfThenElse(lt1, at1, hn::IfThenElse(lt2, here, at2));
        m1 = hn::IfThenElse(lt0, m0, hn::IfThenElse(lt1, mag, m1));
        at1 = hn::IfThenElse(lt0, at0, hn::IfThenElse(lt1, here, at1));
        m0 = hn::IfThenElse(lt0, mag, m0);
        at0 = hn::IfThenElse(lt0, here, at0);
        sign = hn::Xor(sign, x);
    }
    HWY_INLINE void finish(D16 d, const rule_vectors& k, uint32_t deg)
    {
        // three_smallest leaves the offset out below its degree
        const V16 offset =
            THREE && deg < three_smallest_offset_degree ? hn::Zero(d) : k.offset;
        by_value = false;
        if (deg <= 2) { // the smallest rule's messages
            out0 = magnitude(d, hn::Min(m1, hn::Set(d, 127)), offset, k.scale);
            out1 = out2 = out_rest = magnitude(d, m0, offset, k.scale);
            return;
        }
        if (THREE) {
            const V16 pair01 = combined(d, k, m0, m1);
            out0 = magnitude(d, combined(d, k, m1, m2), offset, k.scale);
            out1 = magnitude(d, combined(d, k, m0, m2), offset, k.scale);
            out2 = magnitude(d, pair01, offset, k.scale);
            out_rest = magnitude(d, combined(d, k, pair01, m2), offset, k.scale);
        } else {
            out0 = magnitude(d, combined(d, k, m1, m2), offset, k.scale);
            out1 = out2 = out_rest =
                magnitude(d, combined(d, k, m0, m1), offset, k.scale);
            by_value = true;
        }
    }
    HWY_INLINE V16 message(D16 d, V16 x, int16_t i) const
    {
        const V16 here = hn::Set(d, i);
        V16 mag;
        if (by_value) {
            mag = hn::IfThenElse(hn::Eq(capped_magnitude(d, x), m0), out0, out1);
        } else {
            mag = hn::IfThenElse(
                hn::Eq(at0, here),
                out0,
                hn::IfThenElse(hn::Eq(at1, here),
                               out1,
                               hn::IfThenElse(hn::Eq(at2, here), out2, out_rest)));
        }
        return with_sign(mag, hn::Xor(sign, x));
    }
};

HWY_INLINE V16 saturate_message(D16 d, V16 x)
{
    return hn::Min(hn::Max(x, hn::Set(d, -127)), hn::Set(d, 127));
}

rule_vectors rule_vectors_of(const simd_graph& g)
{
    const D16 d;
    rule_vectors k;
    k.offset = hn::Set(d, g.offset_q);
    k.scale = hn::Set(d, g.scale_q);
    k.limit = hn::Set(d, int16_t(fixed_point_belief_limit));
    k.neg_limit = hn::Neg(k.limit);
    k.entries = g.table;
#if HWY_TARGET == HWY_SCALAR
    k.table = hn::Zero(d);
#else
    const hn::Repartition<int8_t, D16> d8;
    k.table = hn::BitCast(d, hn::LoadDup128(d8, g.table));
#endif
    return k;
}

// One layered check of DEG edges: its inputs stay in registers. DEG = 0: a
// check of any degree, its inputs in w.inputs.
template <class Rule, uint32_t DEG>
HWY_INLINE void layered_check(const simd_graph& g,
                              const min_sum8_group& w,
                              const rule_vectors& k,
                              uint32_t e0,
                              uint32_t runtime_degree)
{
    const D16 d;
    const size_t L = hn::Lanes(d);
    constexpr bool in_registers = DEG > 0;
    const uint32_t deg = in_registers ? DEG : runtime_degree;
    V16 held[in_registers ? DEG : 1];
    Rule r;
    r.start(d);
    for (uint32_t i = 0; i < deg; ++i) {
        const int16_t* belief = w.beliefs + size_t(g.edge_variable[e0 + i]) * L;
        const V16 x =
            hn::Sub(hn::LoadU(d, belief), load_message(d, w.c2v + size_t(e0 + i) * L));
        if constexpr (in_registers)
            held[i] = x;
        else
            hn::StoreU(x, d, w.inputs + size_t(i) * L);
        r.take(d, x, int16_t(i));
    }
    r.finish(d, k, deg);
    for (uint32_t i = 0; i < deg; ++i) {
        const V16 x = in_registers ? held[i] : hn::LoadU(d, w.inputs + size_t(i) * L);
        const V16 msg = r.message(d, x, int16_t(i));
        store_message(msg, w.c2v + size_t(e0 + i) * L);
        int16_t* belief = w.beliefs + size_t(g.edge_variable[e0 + i]) * L;
        hn::StoreU(hn::Min(hn::Max(hn::Add(x, msg), k.neg_limit), k.limit), d, belief);
    }
}

// Row-layered: each check reads its variables' beliefs less its previous
// message, then adds its new message back (cpu_decoder.cc, layered_schedule).
template <class Rule>
void layered_iteration(const simd_graph& g, const min_sum8_group& w)
{
    const D16 d;
    const size_t L = hn::Lanes(d);
    const rule_vectors k = rule_vectors_of(g);
    for (uint32_t j = 0; j < g.m; ++j) {
        const uint32_t c = g.check_order[j];
        const uint32_t e0 = g.check_offsets[c], deg = g.check_offsets[c + 1] - e0;
        prefetch_check(g, w.beliefs, L, j);
#if HWY_HAVE_SCALABLE
        layered_check<Rule, 0>(g, w, k, e0, deg); // sizeless vectors make no arrays
#else
        // the degrees of the standard codes' checks (DVB-S2, IEEE 802.11n and
        // 802.16e, 5G NR's core) in registers
        switch (deg) {
        case 3:
            layered_check<Rule, 3>(g, w, k, e0, deg);
            break;
        case 4:
            layered_check<Rule, 4>(g, w, k, e0, deg);
            break;
        case 5:
            layered_check<Rule, 5>(g, w, k, e0, deg);
            break;
        case 6:
            layered_check<Rule, 6>(g, w, k, e0, deg);
            break;
        case 7:
            layered_check<Rule, 7>(g, w, k, e0, deg);
            break;
        case 8:
            layered_check<Rule, 8>(g, w, k, e0, deg);
            break;
        case 9:
            layered_check<Rule, 9>(g, w, k, e0, deg);
            break;
        case 10:
            layered_check<Rule, 10>(g, w, k, e0, deg);
            break;
        case 11:
            layered_check<Rule, 11>(g, w, k, e0, deg);
            break;
        default:
            layered_check<Rule, 0>(g, w, k, e0, deg);
            break;
        }
#endif
    }
}

// All checks from the stored variable-to-check messages, then all variables
// (cpu_decoder.cc, flooding_schedule).
template <class Rule>
void flooding_iteration(const simd_graph& g, const min_sum8_group& w)
{
    const D16 d;
    const size_t L = hn::Lanes(d);
    const rule_vectors k = rule_vectors_of(g);
    for (uint32_t c = 0; c < g.m; ++c) {
        const uint32_t e0 = g.check_offsets[c], end = g.check_offsets[c + 1];
        Rule r;
        r.start(d);
        for (uint32_t e = e0; e < end; ++e)
            r.take(d, load_message(d, w.v2c + size_t(e) * L), int16_t(e - e0));
        r.finish(d, k, end - e0);
        for (uint32_t e = e0; e < end; ++e) {
            const V16 x = load_message(d, w.v2c + size_t(e) * L);
            store_message(r.message(d, x, int16_t(e - e0)), w.c2v + size_t(e) * L);
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

template <class Rule>
void iterate(const simd_graph& g, const min_sum8_group& w)
{
    if (g.layered)
        layered_iteration<Rule>(g, w);
    else
        flooding_iteration<Rule>(g, w);
}

// The reference's decode_frame() for lanes() frames at once (run_group()).
void decode_group(const simd_graph& g, const min_sum8_group& w)
{
    const D16 d;
    const size_t L = hn::Lanes(d);
    const auto start = [&] {
        std::memset(w.c2v, 0, size_t(g.check_offsets[g.m]) * L);
        if (!g.layered)
            for (uint32_t v = 0; v < g.n; ++v)
                for (uint32_t i = g.variable_offsets[v]; i < g.variable_offsets[v + 1];
                     ++i)
                    store_message(hn::LoadU(d, w.prior + size_t(v) * L),
                                  w.v2c + size_t(g.variable_edges[i]) * L);
    };
    const auto iteration = [&] {
        switch (g.magnitude) {
        case min_sum_magnitude_rule::two_smallest:
            iterate<smallest_three_rule<false>>(g, w);
            break;
        case min_sum_magnitude_rule::three_smallest:
            iterate<smallest_three_rule<true>>(g, w);
            break;
        default:
            iterate<smallest_rule>(g, w);
            break;
        }
    };
    run_group(
        d, g, w.prior, w.beliefs, w.decided, w.iterations, w.syndrome, start, iteration);
}

size_t group_lanes() { return hn::Lanes(D16()); }

} // namespace HWY_NAMESPACE
} // namespace detail
} // namespace gpuldpc
} // namespace gr
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "simd_dispatch.h"

namespace gr {
namespace gpuldpc {
namespace detail {

HWY_EXPORT(decode_group);
HWY_EXPORT(group_lanes);

std::vector<min_sum8_kernel> min_sum8_kernels()
{
    return dispatch_kernels<min_sum8_kernel>(HWY_DISPATCH_TABLE(decode_group),
                                             HWY_DISPATCH_TABLE(group_lanes));
}

} // namespace detail
} // namespace gpuldpc
} // namespace gr
#endif
