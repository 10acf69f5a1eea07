/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// FFT-BP of GF(q) codes with frames in SIMD lanes (simd_fft_bp.h), compiled
// once a target by Highway. Every operation is lane for lane: a GF(q)
// permutation is an address computed once for all lanes, and the transform's
// butterflies are whole vectors.

// Scalable vectors are left out as in the other SIMD kernels (simd_float.cc).
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SVE | HWY_SVE2 | HWY_SVE_256 | HWY_SVE2_128 | HWY_RVV)
#endif
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/simd_fft_bp.cc"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include "simd_fft_bp.h"
#include <hwy/highway.h>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace gr {
namespace gpuldpc {
namespace detail {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;

// e^-30: log_prob_domain::log_floor as a probability ratio
constexpr float check_floor = 9.35762297e-14f;

// One pass of fwht_inplace() over q values of L lanes each: its stages h,
// 2h, ... (R values apart at most, R = 2, 4 or 8) on R values at a time in
// registers, the butterflies in the reference's order and arithmetic. The
// values come from x, or where perm is set, value j from src[perm[j]].
template <int R>
HWY_INLINE void fwht_pass(DF d,
                          float* x,
                          uint32_t q,
                          uint32_t h,
                          const float* src,
                          const uint8_t* perm,
                          VF* largest)
{
    const size_t L = hn::Lanes(d);
    for (uint32_t i = 0; i < q; i += R * h)
        for (uint32_t j = i; j < i + h; ++j) {
            VF v[R];
#pragma GCC unroll 8
            for (int k = 0; k < R; ++k) {
                const uint32_t at = j + uint32_t(k) * h;
                v[k] =
                    hn::Load(d, perm ? src + size_t(perm[at]) * L : x + size_t(at) * L);
            }
#pragma GCC unroll 8
            for (int span = 1; span < R; span *= 2)
#pragma GCC unroll 8
                for (int t = 0; t < R; ++t)
                    if (!(t & span)) { // then t + span < R
                        const VF a = v[t], b = v[t | span];
                        v[t] = hn::Add(a, b);
                        v[t | span] = hn::Sub(a, b);
                    }
#pragma GCC unroll 8
            for (int k = 0; k < R; ++k) {
                hn::Store(v[k], d, x + size_t(j + uint32_t(k) * h) * L);
                if (largest)
                    *largest = hn::Max(*largest, v[k]);
            }
        }
}

// fwht_inplace() of the q values x, or where perm is set, of the values
// src[perm[j]] into x: passes of three stages while they fit, then two or
// one; where largest is set, it becomes the largest value of the result
HWY_INLINE void fwht(DF d,
                     float* x,
                     uint32_t q,
                     const float* src = nullptr,
                     const uint8_t* perm = nullptr,
                     VF* largest = nullptr)
{
    if (largest)
        *largest = hn::Set(d, -HUGE_VALF);
    uint32_t h = 1;
    for (; 8 * h <= q; h *= 8, perm = nullptr)
        fwht_pass<8>(d, x, q, h, src, perm, 8 * h == q ? largest : nullptr);
    if (4 * h <= q)
        fwht_pass<4>(d, x, q, h, src, perm, largest);
    else if (2 * h <= q)
        fwht_pass<2>(d, x, q, h, src, perm, largest);
}

// q values scaled by r and floored at fft_bp_prob_floor
HWY_INLINE void scale(DF d, float* x, uint32_t q, VF r)
{
    const size_t L = hn::Lanes(d);
    const VF lowest = hn::Set(d, fft_bp_prob_floor);
    for (uint32_t i = 0; i < q; ++i) {
        float* p = x + size_t(i) * L;
        hn::Store(hn::Max(hn::Mul(hn::Load(d, p), r), lowest), d, p);
    }
}

// out = a * b, scaled to a largest of 1 and floored at fft_bp_prob_floor
// (log_prob_domain's sum and normalize, in probabilities)
HWY_INLINE void
multiply_normalize(DF d, const float* a, const float* b, float* out, uint32_t q)
{
    const size_t L = hn::Lanes(d);
    VF mx = hn::Zero(d);
    for (size_t k = 0; k < size_t(q) * L; k += L) {
        const VF p = hn::Mul(hn::Load(d, a + k), hn::Load(d, b + k));
        hn::Store(p, d, out + k);
        mx = hn::Max(mx, p);
    }
    scale(d, out, q, hn::Div(hn::Set(d, 1.0f), mx));
}

// the decisions of q values: the first position of the largest, lane by lane
HWY_INLINE void decide(DF d, const float* x, uint32_t q, uint8_t* hard)
{
    const size_t L = hn::Lanes(d);
    const hn::RebindToSigned<DF> di;
    VF best = hn::Load(d, x);
    auto at = hn::Zero(di);
    for (uint32_t i = 1; i < q; ++i) {
        const VF v = hn::Load(d, x + size_t(i) * L);
        const auto larger = hn::RebindMask(di, hn::Gt(v, best));
        at = hn::IfThenElse(larger, hn::Set(di, int32_t(i)), at);
        best = hn::Max(best, v);
    }
    HWY_ALIGN int32_t lanes[hn::MaxLanes(di)];
    hn::Store(at, di, lanes);
    for (size_t l = 0; l < L; ++l)
        hard[l] = uint8_t(lanes[l]);
}

// fft_bp_rule::check_update of a check of deg edges: messages in at
// in + i * q * L, out to out + i * q * L
HWY_INLINE void check_update(DF d,
                             const fft_bp_graph& g,
                             const float* in,
                             float* out,
                             const uint8_t* coef,
                             uint32_t deg,
                             float* scratch)
{
    const uint32_t q = g.q;
    const size_t L = hn::Lanes(d), ql = size_t(q) * L;
    float* spectra = scratch;                // deg * q
    float* suffix = spectra + deg * ql;      // (deg + 1) * q
    float* prefix = suffix + (deg + 1) * ql; // q
    float* work = prefix + ql;               // q
    float* norms = work + ql;                // deg vectors
    // the transform of u[h x] = P(x), u[y] = P(h^-1 y), its first pass
    // reading the message in that order; its first value is the sum of the
    // P(x), by which the reference divides before the transform: here the
    // spectrum is divided as it is used
    for (uint32_t i = 0; i < deg; ++i) {
        float* u = spectra + i * ql;
        fwht(d, u, q, in + i * ql, g.mul + size_t(g.inv[coef[i]]) * q);
        hn::Store(hn::Div(hn::Set(d, 1.0f), hn::Load(d, u)), d, norms + i * L);
    }
    float* last = suffix + deg * ql;
    for (uint32_t x = 0; x < q; ++x)
        hn::Store(hn::Set(d, 1.0f), d, last + size_t(x) * L);
    for (uint32_t i = deg; i-- > 0;) {
        const float* next = suffix + (i + 1) * ql;
        const float* f = spectra + i * ql;
        const VF norm = hn::Load(d, norms + i * L);
        float* s = suffix + i * ql;
        for (size_t k = 0; k < ql; k += L)
            hn::Store(hn::Mul(hn::Load(d, next + k), hn::Mul(hn::Load(d, f + k), norm)),
                      d,
                      s + k);
    }
    for (size_t k = 0; k < ql; k += L)
        hn::Store(hn::Set(d, 1.0f), d, prefix + k);
    for (uint32_t i = 0; i < deg; ++i) {
        // work = prefix * the next suffix, and the prefix of the next edge
        const float* s = suffix + (i + 1) * ql;
        if (i + 1 < deg) {
            const float* f = spectra + i * ql;
            const VF norm = hn::Load(d, norms + i * L);
            for (size_t k = 0; k < ql; k += L) {
                const VF p = hn::Load(d, prefix + k);
                hn::Store(hn::Mul(p, hn::Load(d, s + k)), d, work + k);
                hn::Store(hn::Mul(p, hn::Mul(hn::Load(d, f + k), norm)), d, prefix + k);
            }
        } else {
            for (size_t k = 0; k < ql; k += L)
                hn::Store(
                    hn::Mul(hn::Load(d, prefix + k), hn::Load(d, s + k)), d, work + k);
        }
        VF mx;
        fwht(d, work, q, nullptr, nullptr, &mx);
        // the reference's log(max(w, floor)) less the largest, floored at
        // -log_floor: max(w, floor) / largest, floor = e^-30 of the largest
        const VF floor = hn::Mul(mx, hn::Set(d, check_floor));
        const VF r = hn::Div(hn::Set(d, 1.0f), mx);
        const uint8_t* to = g.mul + size_t(coef[i]) * q; // o[x] = P(h x)
        float* o = out + i * ql;
        for (uint32_t x = 0; x < q; ++x) {
            const VF w = hn::Load(d, work + size_t(to[x]) * L);
            hn::Store(hn::Mul(hn::Max(w, floor), r), d, o + size_t(x) * L);
        }
    }
}

// The prior of variable v times the check messages of its edges other than
// \p skip (an edge index; none: g.check_offsets[g.m]) into out: a
// variable-to-check message, or for no skip the belief. Each partial product
// is normalised to a largest of 1 and floored; the last is not, as its
// users (the check node's sum, the decisions) do not depend on its scale, and
// a floored value times a check message is a normal float. The reference
// subtracts a message from the belief instead; in probabilities that division
// would bring floored values back, so every message is the product of the
// others.
HWY_INLINE void product_of_others(DF d,
                                  const fft_bp_graph& g,
                                  const fft_bp_group& w,
                                  uint32_t v,
                                  uint32_t skip,
                                  float* out)
{
    const size_t L = hn::Lanes(d), ql = size_t(g.q) * L;
    const float* factor = w.prior + v * ql;
    const float* pending = nullptr; // the last message, not yet multiplied
    for (uint32_t i = g.variable_offsets[v]; i < g.variable_offsets[v + 1]; ++i) {
        const uint32_t e = g.variable_edges[i];
        if (e == skip)
            continue;
        if (pending) {
            multiply_normalize(d, factor, pending, out, g.q);
            factor = out;
        }
        pending = w.c2v + e * ql;
    }
    if (!pending) {
        std::memcpy(out, factor, ql * sizeof(float));
        return;
    }
    for (size_t k = 0; k < ql; k += L)
        hn::Store(hn::Mul(hn::Load(d, factor + k), hn::Load(d, pending + k)), d, out + k);
}

// every variable's belief and its decisions
HWY_INLINE void decide_beliefs(DF d, const fft_bp_graph& g, const fft_bp_group& w)
{
    const size_t L = hn::Lanes(d), ql = size_t(g.q) * L;
    const uint32_t none = g.check_offsets[g.m];
    for (uint32_t v = 0; v < g.n; ++v) {
        float* app = w.beliefs + v * ql;
        product_of_others(d, g, w, v, none, app);
        decide(d, app, g.q, w.hard + v * L);
    }
}

// cpu_decoder.cc's flooding_schedule: all checks, then all variables
void flooding_iteration(DF d, const fft_bp_graph& g, const fft_bp_group& w)
{
    const size_t ql = size_t(g.q) * hn::Lanes(d);
    for (uint32_t c = 0; c < g.m; ++c) {
        const uint32_t e0 = g.check_offsets[c];
        check_update(d,
                     g,
                     w.v2c + e0 * ql,
                     w.c2v + e0 * ql,
                     g.edge_coefficient + e0,
                     g.check_offsets[c + 1] - e0,
                     w.scratch);
    }
    for (uint32_t v = 0; v < g.n; ++v)
        for (uint32_t i = g.variable_offsets[v]; i < g.variable_offsets[v + 1]; ++i) {
            const uint32_t e = g.variable_edges[i];
            product_of_others(d, g, w, v, e, w.v2c + e * ql);
        }
    decide_beliefs(d, g, w);
}

// cpu_decoder.cc's layered_schedule, the checks' edges in the schedule's
// order: a check's inputs are its variables' priors times their current
// messages from the other checks
void layered_iteration(DF d, const fft_bp_graph& g, const fft_bp_group& w)
{
    const size_t ql = size_t(g.q) * hn::Lanes(d);
    for (uint32_t c = 0; c < g.m; ++c) {
        const uint32_t e0 = g.check_offsets[c], deg = g.check_offsets[c + 1] - e0;
        // the inputs in the scratch's first max_check_degree messages: the
        // decoder's working set stays small
        float* inputs = w.scratch;
        for (uint32_t i = 0; i < deg; ++i)
            product_of_others(d, g, w, g.edge_variable[e0 + i], e0 + i, inputs + i * ql);
        check_update(d,
                     g,
                     inputs,
                     w.c2v + e0 * ql,
                     g.edge_coefficient + e0,
                     deg,
                     w.scratch + g.max_check_degree * ql);
    }
    decide_beliefs(d, g, w);
}

void fft_bp_start(const fft_bp_graph& g, const fft_bp_group& w)
{
    const DF d;
    const size_t ql = size_t(g.q) * hn::Lanes(d);
    const size_t edges = g.check_offsets[g.m];
    for (size_t k = 0; k < edges * ql; k += hn::Lanes(d))
        hn::Store(hn::Set(d, 1.0f), d, w.c2v + k);
    if (g.layered)
        return; // the inputs are made check by check
    for (uint32_t v = 0; v < g.n; ++v)
        for (uint32_t i = g.variable_offsets[v]; i < g.variable_offsets[v + 1]; ++i)
            std::memcpy(
                w.v2c + g.variable_edges[i] * ql, w.prior + v * ql, ql * sizeof(float));
}

void fft_bp_iterate(const fft_bp_graph& g, const fft_bp_group& w)
{
    const DF d;
    if (g.layered)
        layered_iteration(d, g, w);
    else
        flooding_iteration(d, g, w);
}

void fft_bp_decide_prior(const fft_bp_graph& g, const fft_bp_group& w)
{
    const DF d;
    const size_t ql = size_t(g.q) * hn::Lanes(d);
    for (uint32_t v = 0; v < g.n; ++v)
        decide(d, w.prior + v * ql, g.q, w.hard + v * hn::Lanes(d));
}

size_t fft_bp_lanes() { return hn::Lanes(DF()); }

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

HWY_EXPORT(fft_bp_start);
HWY_EXPORT(fft_bp_iterate);
HWY_EXPORT(fft_bp_decide_prior);
HWY_EXPORT(fft_bp_lanes);

std::vector<fft_bp_kernel> fft_bp_kernels()
{
    std::vector<fft_bp_kernel> out;
    for_each_dispatch_entry([&](size_t index, const char* name) {
        fft_bp_kernel k;
        k.start = HWY_DISPATCH_TABLE(fft_bp_start)[index];
        k.iterate = HWY_DISPATCH_TABLE(fft_bp_iterate)[index];
        k.decide_prior = HWY_DISPATCH_TABLE(fft_bp_decide_prior)[index];
        k.lanes = HWY_DISPATCH_TABLE(fft_bp_lanes)[index]();
        k.target = name;
        out.push_back(k);
    });
    return out;
}

} // namespace detail
} // namespace gpuldpc
} // namespace gr
#endif
