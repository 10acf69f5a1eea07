/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The float rules of binary codes with frames in SIMD lanes (simd_min_sum.h,
// float_kernels()): min-sum with the smallest magnitude rule, operation for
// operation the reference's (check_rules.h, min_sum_rule; built without
// contraction into fused multiply-adds, as the reference has none), and
// sum-product by the tanh rule in single precision with phi from a table,
// within the table's steps of the reference's double-precision
// sum_product_rule (and its error rates within statistics).

// Scalable vectors (Arm SVE, RISC-V V) are sizeless types, which the kernels'
// structs and arrays of vectors cannot hold: those targets are left out (on
// Arm, NEON runs).
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SVE | HWY_SVE2 | HWY_SVE_256 | HWY_SVE2_128 | HWY_RVV)
#endif
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/simd_float.cc"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include "simd_group-inl.h"
#include "simd_min_sum.h"
#include <hwy/highway.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <vector>

HWY_BEFORE_NAMESPACE();
namespace gr {
namespace gpuldpc {
namespace detail {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;

// the reference's largest sum-product message, 2 atanh(1 - 1e-15)
constexpr float sum_product_limit = 35.2327f;
using VF = hn::Vec<DF>;
using MF = hn::Mask<DF>;

// min_sum_rule with min_sum_magnitude_rule::smallest: the two smallest
// magnitudes, the first position of the smallest, the parity of the
// negative inputs.
struct min_sum_check {
    VF min1, min2, arg;
    MF negative;
    VF scale, offset;

    HWY_INLINE void start(DF d, const simd_graph& g)
    {
        min1 = min2 = hn::Set(d, std::numeric_limits<float>::infinity());
        arg = hn::Zero(d);
        negative = hn::FirstN(d, 0);
        scale = hn::Set(d, g.scale);
        offset = hn::Set(d, g.offset);
    }
    HWY_INLINE void take(DF d, VF x, uint32_t i, float* /*scratch*/)
    {
        const VF mag = hn::Abs(x);
        arg = hn::IfThenElse(hn::Lt(mag, min1), hn::Set(d, float(i)), arg);
        min2 = hn::Min(min2, hn::Max(min1, mag));
        min1 = hn::Min(min1, mag);
        negative = hn::Xor(negative, hn::Lt(x, hn::Zero(d)));
    }
    HWY_INLINE void finish(DF, uint32_t, float*) {}
    HWY_INLINE VF message(DF d, VF x, uint32_t i, const float* /*scratch*/) const
    {
        const VF m = hn::IfThenElse(hn::Eq(arg, hn::Set(d, float(i))), min2, min1);
        // scale * max(m - offset, 0), as the reference evaluates it
        const VF mag = hn::Mul(scale, hn::Max(hn::Sub(m, offset), hn::Zero(d)));
        return hn::IfThenElse(
            hn::Xor(negative, hn::Lt(x, hn::Zero(d))), hn::Neg(mag), mag);
    }
};

// sum_product_rule in Gallager's form, which single precision holds where
// the tanh products do not (tanh(x / 2) rounds to 1 above x = 17): |out_i| =
// phi(sum_{j != i} phi(|x_j|)), phi(x) = -log tanh(x / 2), its own inverse;
// the sums by prefix and suffix (no subtraction), the sign the product of
// the others'. phi is looked up (sum_product_phi_table(): a gather a vector
// of terms, where evaluating it took about a hundred dependent operations).
// Magnitudes stop at the reference's 2 atanh(1 - 1e-15) (about 35.2).
struct sum_product_check {
    uint32_t deg = 0;
    VF prefix;
    MF negative;
    const float* table = nullptr;

    HWY_INLINE VF phi(DF d, VF x) const
    {
        const hn::RebindToSigned<DF> di;
        const auto bucket =
            hn::ShiftRight<sum_product_phi_shift>(hn::BitCast(di, hn::Abs(x)));
        return hn::GatherIndex(d, table, bucket);
    }

    // scratch: phi(|x_i|) [deg], suffix sums [deg + 1], a vector each
    HWY_INLINE void start(DF d, const simd_graph&)
    {
        prefix = hn::Zero(d);
        negative = hn::FirstN(d, 0);
        table = sum_product_phi_table();
    }
    HWY_INLINE void take(DF d, VF x, uint32_t i, float* scratch)
    {
        const size_t L = hn::Lanes(d);
        hn::StoreU(phi(d, x), d, scratch + i * L);
        negative = hn::Xor(negative, hn::Lt(x, hn::Zero(d)));
        deg = i + 1;
    }
    HWY_INLINE void finish(DF d, uint32_t, float* scratch)
    {
        const size_t L = hn::Lanes(d);
        float* suffix = scratch + size_t(deg) * L;
        VF sum = hn::Zero(d);
        hn::StoreU(sum, d, suffix + size_t(deg) * L);
        for (uint32_t i = deg; i-- > 0;) {
            sum = hn::Add(sum, hn::LoadU(d, scratch + size_t(i) * L));
            hn::StoreU(sum, d, suffix + size_t(i) * L);
        }
    }
    // called for i = 0, 1, ... in turn
    HWY_INLINE VF message(DF d, VF x, uint32_t i, const float* scratch)
    {
        const size_t L = hn::Lanes(d);
        const float* suffix = scratch + size_t(deg) * L;
        const VF others = hn::Add(prefix, hn::LoadU(d, suffix + size_t(i + 1) * L));
        prefix = hn::Add(prefix, hn::LoadU(d, scratch + size_t(i) * L));
        const VF mag = hn::Min(phi(d, others), hn::Set(d, sum_product_limit));
        return hn::IfThenElse(
            hn::Xor(negative, hn::Lt(x, hn::Zero(d))), hn::Neg(mag), mag);
    }
};

// Row-layered (cpu_decoder.cc, layered_schedule in llr_domain): a check's
// inputs are its variables' beliefs less its previous messages; the new
// messages are added back.
template <class Check>
HWY_NOINLINE void layered_iteration(const simd_graph& g, const float_group& w)
{
    const DF d;
    const size_t L = hn::Lanes(d);
    float* inputs = w.inputs;
    float* scratch = w.inputs + size_t(g.max_check_degree + 1) * L;
    for (uint32_t j = 0; j < g.m; ++j) {
        const uint32_t c = g.check_order[j];
        const uint32_t e0 = g.check_offsets[c], deg = g.check_offsets[c + 1] - e0;
        prefetch_check(g, w.beliefs, L, j);
        Check r;
        r.start(d, g);
        for (uint32_t i = 0; i < deg; ++i) {
            const float* belief = w.beliefs + size_t(g.edge_variable[e0 + i]) * L;
            const VF x =
                hn::Sub(hn::LoadU(d, belief), hn::LoadU(d, w.c2v + size_t(e0 + i) * L));
            hn::StoreU(x, d, inputs + size_t(i) * L);
            r.take(d, x, i, scratch);
        }
        r.finish(d, deg, scratch);
        for (uint32_t i = 0; i < deg; ++i) {
            const VF x = hn::LoadU(d, inputs + size_t(i) * L);
            const VF msg = r.message(d, x, i, scratch);
            hn::StoreU(msg, d, w.c2v + size_t(e0 + i) * L);
            float* belief = w.beliefs + size_t(g.edge_variable[e0 + i]) * L;
            hn::StoreU(hn::Add(x, msg), d, belief);
        }
    }
}

// All checks from the stored variable-to-check messages, then all variables
// (cpu_decoder.cc, flooding_schedule in llr_domain).
template <class Check>
HWY_NOINLINE void flooding_iteration(const simd_graph& g, const float_group& w)
{
    const DF d;
    const size_t L = hn::Lanes(d);
    float* scratch = w.inputs;
    for (uint32_t c = 0; c < g.m; ++c) {
        const uint32_t e0 = g.check_offsets[c], end = g.check_offsets[c + 1];
        Check r;
        r.start(d, g);
        for (uint32_t e = e0; e < end; ++e)
            r.take(d, hn::LoadU(d, w.v2c + size_t(e) * L), e - e0, scratch);
        r.finish(d, end - e0, scratch);
        for (uint32_t e = e0; e < end; ++e) {
            const VF x = hn::LoadU(d, w.v2c + size_t(e) * L);
            hn::StoreU(r.message(d, x, e - e0, scratch), d, w.c2v + size_t(e) * L);
        }
    }
    for (uint32_t v = 0; v < g.n; ++v) {
        const uint32_t first = g.variable_offsets[v], end = g.variable_offsets[v + 1];
        VF belief = hn::LoadU(d, w.prior + size_t(v) * L);
        for (uint32_t i = first; i < end; ++i)
            belief =
                hn::Add(belief, hn::LoadU(d, w.c2v + size_t(g.variable_edges[i]) * L));
        hn::StoreU(belief, d, w.beliefs + size_t(v) * L);
        for (uint32_t i = first; i < end; ++i) {
            const size_t e = size_t(g.variable_edges[i]) * L;
            hn::StoreU(hn::Sub(belief, hn::LoadU(d, w.c2v + e)), d, w.v2c + e);
        }
    }
}

template <class Check>
void iterate(const simd_graph& g, const float_group& w)
{
    if (g.layered)
        layered_iteration<Check>(g, w);
    else
        flooding_iteration<Check>(g, w);
}

void decode_float_group(const simd_graph& g, const float_group& w)
{
    const DF d;
    const size_t L = hn::Lanes(d);
    const auto start = [&] {
        std::memset(w.c2v, 0, size_t(g.check_offsets[g.m]) * L * sizeof(float));
        if (!g.layered)
            for (uint32_t v = 0; v < g.n; ++v)
                for (uint32_t i = g.variable_offsets[v]; i < g.variable_offsets[v + 1];
                     ++i)
                    hn::StoreU(hn::LoadU(d, w.prior + size_t(v) * L),
                               d,
                               w.v2c + size_t(g.variable_edges[i]) * L);
    };
    const auto iteration = [&] {
        if (g.sum_product)
            iterate<sum_product_check>(g, w);
        else
            iterate<min_sum_check>(g, w);
    };
    run_group(
        d, g, w.prior, w.beliefs, w.decided, w.iterations, w.syndrome, start, iteration);
}

size_t float_group_lanes() { return hn::Lanes(DF()); }

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

HWY_EXPORT(decode_float_group);
HWY_EXPORT(float_group_lanes);

const float* sum_product_phi_table()
{
    // bucket b: the non-negative floats whose bits >> shift are b; its value
    // phi at the bucket's middle, in double precision. Zero and the smallest
    // magnitudes (phi above 80) take 80, where the others' sum makes the
    // check's output vanish, as an erasure's infinite phi does; infinity and
    // NaN take 0, phi of infinity.
    // static storage, not a vector: nothing to destroy at exit, when a
    // decoder's thread may still read it
    static float table[size_t(1) << (31 - sum_product_phi_shift)];
    static const bool made = [] {
        float* t = table;
        for (uint32_t b = 0; b < std::size(table); ++b) {
            const uint32_t bits =
                (b << sum_product_phi_shift) | (1u << (sum_product_phi_shift - 1));
            float x;
            std::memcpy(&x, &bits, sizeof x);
            const double phi =
                std::isfinite(x) ? -std::log(std::tanh(double(x) / 2)) : 0.0;
            t[b] = float(std::min(phi, 80.0));
        }
        return true;
    }();
    (void)made;
    return table;
}

std::vector<float_kernel> float_kernels()
{
    return dispatch_kernels<float_kernel>(HWY_DISPATCH_TABLE(decode_float_group),
                                          HWY_DISPATCH_TABLE(float_group_lanes));
}

} // namespace detail
} // namespace gpuldpc
} // namespace gr
#endif
