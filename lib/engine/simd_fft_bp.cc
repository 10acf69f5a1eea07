/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// FFT-BP of GF(q) codes with a message's q values in SIMD lanes
// (simd_fft_bp.h), compiled once a target by Highway. Operation for operation
// the reference's fft_bp_rule and log_prob_domain (check_rules.h) under the
// reference's two schedules (cpu_decoder.cc), with Highway's exp and log in
// place of the C library's.

// Scalable vectors are left out as in the other SIMD kernels (simd_float.cc).
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SVE | HWY_SVE2 | HWY_SVE_256 | HWY_SVE2_128 | HWY_RVV)
#endif
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/simd_fft_bp.cc"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include "simd_fft_bp.h"
#include <hwy/contrib/math/math-inl.h>
#include <hwy/highway.h>
#include <cmath>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace gr {
namespace gpuldpc {
namespace detail {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;

// log_prob_domain::log_floor, and e^-log_floor
constexpr float log_floor = 30.0f;
const float exp_neg_log_floor = std::exp(-log_floor);

// The vectors of GF(q)'s messages: as many lanes as fit q values, at most 16.
// A template on this tag; q_switch() picks it from q once a call.
template <size_t kCap>
using DQ = hn::CappedTag<float, kCap>;

template <class F>
HWY_INLINE void q_switch(uint32_t q, F f)
{
    if (q == 4)
        f(DQ<4>());
    else if (q == 8)
        f(DQ<8>());
    else
        f(DQ<16>());
}

template <class D>
HWY_INLINE float max_of(D d, const float* x, uint32_t q)
{
    auto mx = hn::LoadU(d, x);
    for (uint32_t j = hn::Lanes(d); j < q; j += hn::Lanes(d))
        mx = hn::Max(mx, hn::LoadU(d, x + j));
    return hn::GetLane(hn::MaxOfLanes(d, mx));
}

// log_prob_domain::normalize: x less its maximum, into out
template <class D>
HWY_INLINE void normalize(D d, const float* x, float* out, uint32_t q)
{
    const auto mx = hn::Set(d, max_of(d, x, q));
    for (uint32_t j = 0; j < q; j += hn::Lanes(d))
        hn::StoreU(hn::Sub(hn::LoadU(d, x + j), mx), d, out + j);
}

// the first position of the largest value (std::max_element's)
template <class D>
HWY_INLINE uint8_t argmax(D d, const float* x, uint32_t q)
{
    const auto mx = hn::Set(d, max_of(d, x, q));
    for (uint32_t j = 0; j < q; j += hn::Lanes(d)) {
        const intptr_t at = hn::FindFirstTrue(d, hn::Eq(hn::LoadU(d, x + j), mx));
        if (at >= 0)
            return uint8_t(j + uint32_t(at));
    }
    return 0; // NaN: not reached, inputs are sanitised
}

// fwht_inplace(): stage h adds x[j + h] to x[j] and subtracts it from
// x[j + h]'s old value (x[j] - x[j + h]). Stages within a vector swap lanes
// j and j ^ h by a table lookup: a lane with bit h set takes swapped - own.
template <class D>
HWY_INLINE void fwht(D d, float* x, uint32_t q)
{
    const size_t L = hn::Lanes(d);
    const hn::RebindToSigned<D> di;
    const auto lane = hn::Iota(di, 0);
    for (uint32_t j = 0; j < q; j += L) {
        auto v = hn::LoadU(d, x + j);
        for (int32_t h = 1; size_t(h) < L; h <<= 1) {
            const auto swap = hn::IndicesFromVec(d, hn::Xor(lane, hn::Set(di, h)));
            const auto upper =
                hn::RebindMask(d, hn::Ne(hn::And(lane, hn::Set(di, h)), hn::Zero(di)));
            const auto sw = hn::TableLookupLanes(v, swap);
            v = hn::IfThenElse(upper, hn::Sub(sw, v), hn::Add(v, sw));
        }
        hn::StoreU(v, d, x + j);
    }
    for (uint32_t h = uint32_t(L); h < q; h <<= 1)
        for (uint32_t i = 0; i < q; i += 2 * h)
            for (uint32_t j = i; j < i + h; j += uint32_t(L)) {
                const auto a = hn::LoadU(d, x + j), b = hn::LoadU(d, x + j + h);
                hn::StoreU(hn::Add(a, b), d, x + j);
                hn::StoreU(hn::Sub(a, b), d, x + j + h);
            }
}

// fft_bp_rule::check_update of the check whose deg edges' messages are
// in[i * q ...]; the messages out go to out[i * q ...].
template <class D>
HWY_INLINE void check_update(D d,
                             const fft_bp_graph& g,
                             const float* in,
                             float* out,
                             const uint8_t* coef,
                             uint32_t deg,
                             float* scratch)
{
    const uint32_t q = g.q;
    const size_t L = hn::Lanes(d);
    const hn::RebindToSigned<D> di;
    float* spectra = scratch;                     // deg * q
    float* suffix = spectra + size_t(deg) * q;    // (deg + 1) * q
    float* prefix = suffix + size_t(deg + 1) * q; // q
    float* work = prefix + q;                     // q
    for (uint32_t i = 0; i < deg; ++i) {
        // u[h x] = P(x): u[y] = P(h^-1 y), gathered
        float* u = spectra + size_t(i) * q;
        const float* msg = in + size_t(i) * q;
        const int32_t* from = g.mul + size_t(g.inv[coef[i]]) * q;
        auto sum = hn::Zero(d);
        for (uint32_t y = 0; y < q; y += L) {
            const auto p = hn::Exp(d, hn::GatherIndex(d, msg, hn::LoadU(di, from + y)));
            hn::StoreU(p, d, u + y);
            sum = hn::Add(sum, p);
        }
        const auto norm = hn::Set(d, 1.0f / hn::GetLane(hn::SumOfLanes(d, sum)));
        for (uint32_t y = 0; y < q; y += L)
            hn::StoreU(hn::Mul(hn::LoadU(d, u + y), norm), d, u + y);
        fwht(d, u, q);
    }
    float* last = suffix + size_t(deg) * q;
    for (uint32_t x = 0; x < q; x += L)
        hn::StoreU(hn::Set(d, 1.0f), d, last + x);
    for (uint32_t i = deg; i-- > 0;) {
        const float* next = suffix + size_t(i + 1) * q;
        const float* f = spectra + size_t(i) * q;
        float* s = suffix + size_t(i) * q;
        for (uint32_t x = 0; x < q; x += L)
            hn::StoreU(hn::Mul(hn::LoadU(d, next + x), hn::LoadU(d, f + x)), d, s + x);
    }
    for (uint32_t x = 0; x < q; x += L)
        hn::StoreU(hn::Set(d, 1.0f), d, prefix + x);
    for (uint32_t i = 0; i < deg; ++i) {
        const float* s = suffix + size_t(i + 1) * q;
        for (uint32_t x = 0; x < q; x += L)
            hn::StoreU(
                hn::Mul(hn::LoadU(d, prefix + x), hn::LoadU(d, s + x)), d, work + x);
        fwht(d, work, q);
        // rounding can leave tiny negative probabilities: floored
        const auto floor = hn::Set(d, max_of(d, work, q) * exp_neg_log_floor);
        const int32_t* to = g.mul + size_t(coef[i]) * q; // o[x] = log P(h x)
        float* o = out + size_t(i) * q;
        auto mx = hn::Set(d, -HUGE_VALF);
        for (uint32_t x = 0; x < q; x += L) {
            const auto p = hn::GatherIndex(d, work, hn::LoadU(di, to + x));
            const auto l = hn::Log(d, hn::Max(p, floor));
            hn::StoreU(l, d, o + x);
            mx = hn::Max(mx, l);
        }
        // log_prob_domain::normalize_and_floor
        const auto top = hn::MaxOfLanes(d, mx);
        const auto lowest = hn::Set(d, -log_floor);
        for (uint32_t x = 0; x < q; x += L)
            hn::StoreU(hn::Max(hn::Sub(hn::LoadU(d, o + x), top), lowest), d, o + x);
        const float* f = spectra + size_t(i) * q;
        for (uint32_t x = 0; x < q; x += L)
            hn::StoreU(
                hn::Mul(hn::LoadU(d, prefix + x), hn::LoadU(d, f + x)), d, prefix + x);
    }
}

// cpu_decoder.cc's flooding_schedule: all checks, then all variables
template <class D>
HWY_INLINE void flooding_iteration(D d, const fft_bp_graph& g, fft_bp_frame& f)
{
    const uint32_t q = g.q;
    const size_t L = hn::Lanes(d);
    for (uint32_t c = 0; c < g.m; ++c) {
        const uint32_t e0 = g.check_offsets[c];
        check_update(d,
                     g,
                     f.v2c + size_t(e0) * q,
                     f.c2v + size_t(e0) * q,
                     g.edge_coefficient + e0,
                     g.check_offsets[c + 1] - e0,
                     f.scratch);
    }
    for (uint32_t v = 0; v < g.n; ++v) {
        float* app = f.beliefs + size_t(v) * q;
        const float* prior = f.prior + size_t(v) * q;
        const uint32_t first = g.variable_offsets[v], end = g.variable_offsets[v + 1];
        for (uint32_t x = 0; x < q; x += L) {
            auto sum = hn::LoadU(d, prior + x);
            for (uint32_t i = first; i < end; ++i)
                sum = hn::Add(sum,
                              hn::LoadU(d, f.c2v + size_t(g.variable_edges[i]) * q + x));
            hn::StoreU(sum, d, app + x);
        }
        for (uint32_t i = first; i < end; ++i) {
            const size_t e = size_t(g.variable_edges[i]) * q;
            for (uint32_t x = 0; x < q; x += L)
                hn::StoreU(hn::Sub(hn::LoadU(d, app + x), hn::LoadU(d, f.c2v + e + x)),
                           d,
                           f.v2c + e + x);
            normalize(d, f.v2c + e, f.v2c + e, q);
        }
        f.hard[v] = argmax(d, app, q);
    }
}

// cpu_decoder.cc's layered_schedule, the checks' edges in the schedule's
// order: a belief less the check's previous message, normalised, is the
// check's input; the new message is added back
template <class D>
HWY_INLINE void layered_iteration(D d, const fft_bp_graph& g, fft_bp_frame& f)
{
    const uint32_t q = g.q;
    const size_t L = hn::Lanes(d);
    for (uint32_t c = 0; c < g.m; ++c) {
        const uint32_t e0 = g.check_offsets[c], deg = g.check_offsets[c + 1] - e0;
        for (uint32_t i = 0; i < deg; ++i) {
            float* app = f.beliefs + size_t(g.edge_variable[e0 + i]) * q;
            const float* old = f.c2v + size_t(e0 + i) * q;
            for (uint32_t x = 0; x < q; x += L)
                hn::StoreU(
                    hn::Sub(hn::LoadU(d, app + x), hn::LoadU(d, old + x)), d, app + x);
            normalize(d, app, app, q);
            std::memcpy(f.v2c + size_t(e0 + i) * q, app, q * sizeof(float));
        }
        check_update(d,
                     g,
                     f.v2c + size_t(e0) * q,
                     f.c2v + size_t(e0) * q,
                     g.edge_coefficient + e0,
                     deg,
                     f.scratch);
        for (uint32_t i = 0; i < deg; ++i) {
            float* app = f.beliefs + size_t(g.edge_variable[e0 + i]) * q;
            const float* msg = f.c2v + size_t(e0 + i) * q;
            for (uint32_t x = 0; x < q; x += L)
                hn::StoreU(
                    hn::Add(hn::LoadU(d, app + x), hn::LoadU(d, msg + x)), d, app + x);
            normalize(d, app, app, q);
        }
    }
    for (uint32_t v = 0; v < g.n; ++v)
        f.hard[v] = argmax(d, f.beliefs + size_t(v) * q, q);
}

void fft_bp_start(const fft_bp_graph& g, fft_bp_frame& f)
{
    const uint32_t q = g.q;
    const size_t edges = g.check_offsets[g.m];
    std::memset(f.c2v, 0, edges * q * sizeof(float));
    if (g.layered) {
        std::memcpy(f.beliefs, f.prior, size_t(g.n) * q * sizeof(float));
        return;
    }
    for (uint32_t v = 0; v < g.n; ++v)
        for (uint32_t i = g.variable_offsets[v]; i < g.variable_offsets[v + 1]; ++i)
            std::memcpy(f.v2c + size_t(g.variable_edges[i]) * q,
                        f.prior + size_t(v) * q,
                        q * sizeof(float));
}

void fft_bp_iterate(const fft_bp_graph& g, fft_bp_frame& f)
{
    q_switch(g.q, [&](auto d) {
        if (g.layered)
            layered_iteration(d, g, f);
        else
            flooding_iteration(d, g, f);
    });
}

void fft_bp_decide_prior(const fft_bp_graph& g, fft_bp_frame& f)
{
    q_switch(g.q, [&](auto d) {
        for (uint32_t v = 0; v < g.n; ++v)
            f.hard[v] = argmax(d, f.prior + size_t(v) * g.q, g.q);
    });
}

void fft_bp_symbol_prior(const float* log_p, uint32_t m, uint32_t q, float* out)
{
    q_switch(q, [&](auto d) {
        const size_t L = hn::Lanes(d);
        const hn::RebindToSigned<decltype(d)> di;
        for (uint32_t x = 0; x < q; x += uint32_t(L)) {
            const auto symbol = hn::Iota(di, int32_t(x));
            auto sum = hn::Zero(d);
            for (uint32_t b = 0; b < m; ++b) {
                const int32_t mask = int32_t(1u << (m - 1 - b)); // MSB first
                const auto one = hn::RebindMask(
                    d, hn::Ne(hn::And(symbol, hn::Set(di, mask)), hn::Zero(di)));
                sum = hn::Add(sum,
                              hn::IfThenElse(one,
                                             hn::Set(d, log_p[2 * b + 1]),
                                             hn::Set(d, log_p[2 * b])));
            }
            hn::StoreU(sum, d, out + x);
        }
        normalize(d, out, out, q);
    });
}

size_t fft_bp_lanes() { return hn::Lanes(DQ<16>()); }

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
HWY_EXPORT(fft_bp_symbol_prior);
HWY_EXPORT(fft_bp_lanes);

std::vector<fft_bp_kernel> fft_bp_kernels()
{
    std::vector<fft_bp_kernel> out;
    for_each_dispatch_entry([&](size_t index, const char* name) {
        fft_bp_kernel k;
        k.start = HWY_DISPATCH_TABLE(fft_bp_start)[index];
        k.iterate = HWY_DISPATCH_TABLE(fft_bp_iterate)[index];
        k.decide_prior = HWY_DISPATCH_TABLE(fft_bp_decide_prior)[index];
        k.symbol_prior = HWY_DISPATCH_TABLE(fft_bp_symbol_prior)[index];
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
