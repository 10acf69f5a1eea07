/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_CHECK_RULES_H
#define INCLUDED_GPULDPC_ENGINE_CHECK_RULES_H

// Node update rules of the CPU reference decoders (one axis of the design;
// the schedules in cpu_decoder.cc are the other). A rule names its message
// domain and updates the messages of one check node:
//
//   void check_update(const message* in, message* out, const uint8_t* coef,
//                     unsigned deg)
//
// `in` holds the deg variable-to-check messages of the check, `out` receives
// the deg check-to-variable messages, each message `width` values, contiguous.
//
// A domain is the arithmetic of the variable side. It names its `message`
// type (edges and channel values) and its `value` type (beliefs: the channel
// value plus the variable's check messages), and the operations a schedule
// needs: normalize() a belief, to_message() of a belief, extrinsic() (a
// belief less one message, as a message), decide(), and for binary domains
// from_llr() (the channel message of a bit LLR, internal convention).
// Domains are additive on the variable side, so schedules combine messages
// by addition and subtraction whatever the rule:
// - llr_domain (q = 2): one float, L = log(P(0)/P(1)).
// - log_prob_domain (q > 2, also usable for q = 2): q floats, L[x] = log P(x),
//   normalised to max 0. Check-to-variable messages are also floored at
//   -log_floor; beliefs and variable-to-check messages are not, because the
//   layered schedule recovers them by subtraction, which a floor would break.
// - fixed_llr_domain (q = 2): L in steps of 1 / llr_scale, 8-bit messages
//   saturated to +-127, exact 32-bit beliefs (message_precision::int8).

#include "fixed_point_rule.h"
#include <gnuradio/gpuldpc/engine/bits.h>
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/fwht.h>
#include <gnuradio/gpuldpc/engine/gf_field.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace detail {

struct llr_domain {
    using message = float;
    using value = float;
    static constexpr bool binary = true;
    static constexpr bool fixed_point = false;
    static constexpr unsigned width(unsigned /*q*/) { return 1; }
    static void normalize(float* /*v*/, unsigned /*w*/) {}
    static void to_message(const float* v, float* m, unsigned /*w*/) { m[0] = v[0]; }
    static void extrinsic(const float* v, const float* m, float* out, unsigned /*w*/)
    {
        out[0] = v[0] - m[0];
    }
    static uint8_t decide(const float* v, unsigned /*w*/) { return v[0] < 0.0f; }
    static float from_llr(float l, float /*llr_scale*/) { return l; }
};

struct log_prob_domain {
    using message = float;
    using value = float;
    static constexpr bool binary = false;
    static constexpr bool fixed_point = false;
    //! log-probabilities below max - log_floor are raised to it
    static constexpr float log_floor = 30.0f;
    static unsigned width(unsigned q) { return q; }
    static void normalize(float* v, unsigned w)
    {
        const float mx = *std::max_element(v, v + w);
        for (unsigned x = 0; x < w; ++x)
            v[x] -= mx;
    }
    static void to_message(const float* v, float* m, unsigned w) { std::copy_n(v, w, m); }
    static void extrinsic(const float* v, const float* m, float* out, unsigned w)
    {
        for (unsigned x = 0; x < w; ++x)
            out[x] = v[x] - m[x];
        normalize(out, w);
    }
    static void normalize_and_floor(float* v, unsigned w)
    {
        const float mx = *std::max_element(v, v + w);
        for (unsigned x = 0; x < w; ++x)
            v[x] = std::max(v[x] - mx, -log_floor);
    }
    static uint8_t decide(const float* v, unsigned w)
    {
        return uint8_t(std::max_element(v, v + w) - v);
    }
};

// NaN and +-Inf -> 0 (an erasure: no belief either way), finite values
// clipped to batch_decoder::max_input_magnitude; returns 1 for a replaced
// value. An infinite input is treated as bad data rather than certainty, so
// that it cannot force a wrong decision.
inline uint32_t sanitize_input(float& x)
{
    constexpr float limit = batch_decoder::max_input_magnitude;
    if (!std::isfinite(x)) {
        x = 0.0f;
        return 1;
    }
    x = std::clamp(x, -limit, limit);
    return 0;
}

//! log P(bit = 0) and log P(bit = 1) of l = log(P(0)/P(1)), stable for large |l|
inline void bit_log_probs(float l, float& log_p0, float& log_p1)
{
    log_p0 = -std::log1p(std::exp(-std::fabs(l))) + (l < 0 ? l : 0.0f);
    log_p1 = log_p0 - l;
}

//! A frame's decisions \p hard (a symbol a variable) as decode() returns them:
//! the information bits (packed or not) and, where \p codeword_bits is set,
//! the codeword's bits, each symbol's most significant bit first.
inline void write_decisions(const ldpc_code& code,
                            const uint8_t* hard,
                            bool pack_info_bits,
                            uint8_t* info_bits,
                            uint8_t* codeword_bits)
{
    const unsigned m = code.bits_per_symbol();
    const auto& info = code.info_positions();
    write_bits(info.size() * m, pack_info_bits, info_bits, [&](size_t t) {
        return (hard[info[t / m]] >> (m - 1 - t % m)) & 1;
    });
    if (codeword_bits)
        for (unsigned v = 0; v < code.n(); ++v)
            for (unsigned b = 0; b < m; ++b)
                codeword_bits[size_t(v) * m + b] = (hard[v] >> (m - 1 - b)) & 1;
}

/*!
 * The 8-bit fixed point of message_precision::int8 (decoder.h): messages and
 * channel values are LLRs in steps of 1 / llr_scale saturated to +-127;
 * beliefs are exact. A belief becomes a message by saturation only, so a
 * belief less a message stays the channel value plus the other messages.
 */
struct fixed_llr_domain {
    using message = int8_t;
    using value = int32_t;
    static constexpr bool binary = true;
    static constexpr bool fixed_point = true;
    static constexpr unsigned width(unsigned /*q*/) { return 1; }
    static int8_t saturate(int32_t x) { return int8_t(std::clamp(x, -127, 127)); }
    //! a layered belief after a check's update
    static int32_t limited(int32_t x)
    {
        return std::clamp(x, -fixed_point_belief_limit, fixed_point_belief_limit);
    }
    static void normalize(int32_t* /*v*/, unsigned /*w*/) {}
    static void to_message(const int32_t* v, int8_t* m, unsigned /*w*/)
    {
        m[0] = saturate(v[0]);
    }
    static void extrinsic(const int32_t* v, const int8_t* m, int8_t* out, unsigned /*w*/)
    {
        out[0] = saturate(v[0] - m[0]);
    }
    //! beliefs and channel values alike
    template <class T>
    static uint8_t decide(const T* v, unsigned /*w*/)
    {
        return v[0] < 0;
    }
    //! round(l * llr_scale), ties to even, saturated; l finite
    static int8_t from_llr(float l, float llr_scale)
    {
        return int8_t(std::nearbyint(std::clamp(l * llr_scale, -127.0f, 127.0f)));
    }
};

/*! What a min-sum check needs of its inputs: the two smallest magnitudes,
 *  where the smallest is, and whether an odd number of inputs is negative. */
template <class M>
struct smallest_two {
    M min1, min2;
    unsigned arg_min;
    bool negative;
};

//! smallest_two of in[0 .. deg), magnitudes as M; \p none: larger than any
template <class M, class T>
inline smallest_two<M> find_smallest_two(const T* in, unsigned deg, M none)
{
    smallest_two<M> r{ none, none, 0, false };
    for (unsigned i = 0; i < deg; ++i) {
        const M a = std::abs(M(in[i]));
        r.negative ^= in[i] < T(0);
        if (a < r.min1) {
            r.min2 = r.min1;
            r.min1 = a;
            r.arg_min = i;
        } else if (a < r.min2) {
            r.min2 = a;
        }
    }
    return r;
}

/*! The three smallest input magnitudes (min[0] <= min[1] <= min[2]; \p none
 *  where the check has fewer inputs), their positions (of equal magnitudes
 *  the first position first) and whether an odd number of inputs is
 *  negative, for min_sum_magnitude_rule::two_smallest and three_smallest. */
template <class M>
struct smallest_three_at {
    M min[3];
    unsigned at[3];
    bool negative;
};

template <class M, class T>
inline smallest_three_at<M> find_smallest_three(const T* in, unsigned deg, M none)
{
    smallest_three_at<M> r{ { none, none, none }, { deg, deg, deg }, false };
    for (unsigned i = 0; i < deg; ++i) {
        const M a = std::abs(M(in[i]));
        r.negative ^= in[i] < T(0);
        unsigned k = 3;
        while (k > 0 && a < r.min[k - 1])
            --k;
        if (k == 3)
            continue;
        for (unsigned j = 2; j > k; --j) {
            r.min[j] = r.min[j - 1];
            r.at[j] = r.at[j - 1];
        }
        r.min[k] = a;
        r.at[k] = i;
    }
    return r;
}

/*! The magnitudes before correction of min_sum_magnitude_rule::three_smallest:
 *  at the three smallest inputs' positions at[k] the two of them other than
 *  k combined (others[k]), elsewhere all three combined. */
template <class M>
struct three_smallest_combined {
    M others[3];
    M all_three;
    unsigned at[3];

    M on_edge(unsigned i) const
    {
        for (unsigned k = 0; k < 3; ++k)
            if (i == at[k])
                return others[k];
        return all_three;
    }
};

//! three_smallest_combined of magnitudes m at positions at, from a rule's
//! combined(a, b) for a <= b. A pair's combination is at most its smaller
//! magnitude, so the three's is combined(m1 (+) m2, m3).
template <class M, class Combine>
inline three_smallest_combined<M>
combine_three_smallest(const M (&m)[3], const unsigned (&at)[3], Combine combined)
{
    three_smallest_combined<M> c;
    c.others[0] = combined(m[1], m[2]);
    c.others[1] = combined(m[0], m[2]);
    c.others[2] = combined(m[0], m[1]);
    c.all_three = combined(c.others[2], m[2]);
    std::copy(at, at + 3, c.at);
    return c;
}

/*! Binary sum-product: the tanh rule, products excluding each edge by
 *  forward-backward products (no division), in double precision. */
class sum_product_rule
{
public:
    using domain = llr_domain;
    sum_product_rule(const gf_field& /*f*/, unsigned max_degree, const decoder_config&)
        : d_t(max_degree), d_suffix(max_degree + 1)
    {
    }

    void check_update(const float* in, float* out, const uint8_t* /*coef*/, unsigned deg)
    {
        // |tanh| is kept below 1 so that atanh stays finite: messages are
        // bounded by about 2 atanh(1 - 1e-15) = 35.
        constexpr double limit = 1.0 - 1e-15;
        for (unsigned i = 0; i < deg; ++i)
            d_t[i] = std::tanh(0.5 * double(in[i]));
        d_suffix[deg] = 1.0;
        for (unsigned i = deg; i-- > 0;)
            d_suffix[i] = d_suffix[i + 1] * d_t[i];
        double prefix = 1.0;
        for (unsigned i = 0; i < deg; ++i) {
            const double p = std::clamp(prefix * d_suffix[i + 1], -limit, limit);
            out[i] = float(2.0 * std::atanh(p));
            prefix *= d_t[i];
        }
    }

private:
    std::vector<double> d_t, d_suffix;
};

/*! Binary min-sum, normalized (scale) and offset: magnitude
 *  scale * max(min_{others} |L| - offset, 0), sign the product of the others. */
class min_sum_rule
{
public:
    using domain = llr_domain;
    min_sum_rule(const gf_field& /*f*/,
                 unsigned /*max_degree*/,
                 const decoder_config& cfg)
        : d_scale(cfg.min_sum_scale),
          d_offset(cfg.min_sum_offset),
          d_two_smallest(cfg.min_sum_magnitude == min_sum_magnitude_rule::two_smallest),
          d_three_smallest(cfg.min_sum_magnitude ==
                           min_sum_magnitude_rule::three_smallest)
    {
    }

    void check_update(const float* in, float* out, const uint8_t* /*coef*/, unsigned deg)
    {
        constexpr float none = std::numeric_limits<float>::infinity();
        const float offset =
            d_three_smallest && deg < three_smallest_offset_degree ? 0.0f : d_offset;
        if ((d_two_smallest || d_three_smallest) && deg > 2) {
            const auto t = find_smallest_three(in, deg, none);
            if (d_three_smallest) {
                const auto c = combine_three_smallest(t.min, t.at, combined);
                for (unsigned i = 0; i < deg; ++i) {
                    const float mag = d_scale * std::max(c.on_edge(i) - offset, 0.0f);
                    out[i] = (t.negative ^ (in[i] < 0.0f)) ? -mag : mag;
                }
                return;
            }
            const float m1 = t.min[0];
            const float c1 = combined(m1, t.min[1]), c2 = combined(t.min[1], t.min[2]);
            for (unsigned i = 0; i < deg; ++i) {
                const float mag =
                    d_scale * std::max((std::abs(in[i]) == m1 ? c2 : c1) - d_offset, 0.0f);
                out[i] = (t.negative ^ (in[i] < 0.0f)) ? -mag : mag;
            }
            return;
        }
        const auto s = find_smallest_two(in, deg, none);
        for (unsigned i = 0; i < deg; ++i) {
            const float mag =
                d_scale * std::max((i == s.arg_min ? s.min2 : s.min1) - offset, 0.0f);
            const bool neg = s.negative ^ (in[i] < 0.0f);
            out[i] = neg ? -mag : mag;
        }
    }

    //! |a (+) b| of belief propagation for 0 <= a <= b
    static float combined(float a, float b)
    {
        return std::max(
            a + std::log1p(std::exp(-(a + b))) - std::log1p(std::exp(-(b - a))), 0.0f);
    }

private:
    float d_scale, d_offset;
    bool d_two_smallest, d_three_smallest;
};

/*!
 * Binary min-sum in 8-bit fixed point (message_precision::int8), integer for
 * integer as decoder.h specifies it, so that a GPU decoder of the same
 * arithmetic can be checked for exact agreement: magnitude
 * (max(min - offset_q, 0) * scale_q + 8) >> 4 of the others' smallest
 * magnitude (at most 127), the sign the product of the others'. The constants
 * are fixed_point_constants_of() the configuration, as on the GPU.
 */
class fixed_point_min_sum_rule
{
public:
    using domain = fixed_llr_domain;
    fixed_point_min_sum_rule(const gf_field& /*f*/,
                             unsigned /*max_degree*/,
                             const decoder_config& cfg)
        : d_k(fixed_point_constants_of(cfg)),
          d_two_smallest(cfg.min_sum_magnitude == min_sum_magnitude_rule::two_smallest),
          d_three_smallest(cfg.min_sum_magnitude ==
                           min_sum_magnitude_rule::three_smallest)
    {
        if (d_two_smallest || d_three_smallest)
            d_f = two_smallest_table(cfg.llr_scale);
    }

    void check_update(const int8_t* in,
                      int8_t* out,
                      const uint8_t* /*coef*/,
                      unsigned deg) const
    {
        if ((d_two_smallest || d_three_smallest) && deg > 2) {
            const auto t = find_smallest_three(in, deg, int32_t(255));
            const int32_t m[3] = { std::min(t.min[0], 127),
                                   std::min(t.min[1], 127),
                                   std::min(t.min[2], 127) };
            if (d_three_smallest) {
                const auto c = combine_three_smallest(
                    m, t.at, [this](int32_t a, int32_t b) { return combined(a, b); });
                for (unsigned i = 0; i < deg; ++i) {
                    const int32_t mag = magnitude_at(c.on_edge(i), deg);
                    out[i] = int8_t((t.negative ^ (in[i] < 0)) ? -mag : mag);
                }
                return;
            }
            const int32_t mag1 = magnitude(combined(m[0], m[1]));
            const int32_t mag2 = magnitude(combined(m[1], m[2]));
            for (unsigned i = 0; i < deg; ++i) {
                const int32_t mag = std::abs(int32_t(in[i])) == t.min[0] ? mag2 : mag1;
                out[i] = int8_t((t.negative ^ (in[i] < 0)) ? -mag : mag);
            }
            return;
        }
        const auto s = find_smallest_two(in, deg, int32_t(255));
        const int32_t mag1 = magnitude_at(std::min(s.min1, 127), deg);
        const int32_t mag2 = magnitude_at(std::min(s.min2, 127), deg);
        for (unsigned i = 0; i < deg; ++i) {
            const int32_t mag = i == s.arg_min ? mag2 : mag1;
            out[i] = int8_t((s.negative ^ (in[i] < 0)) ? -mag : mag);
        }
    }

    //! |a (+) b| in steps for 0 <= a <= b <= 127: a + f(a + b) - f(b - a), at
    //! least 0
    int32_t combined(int32_t a, int32_t b) const
    {
        return std::max(a + d_f[a + b] - d_f[b - a], 0);
    }

    //! The channel value of a decode_int8() input value v (the LLR
    //! v / llr_scale), in v's sign convention: -128 counts as -127, and beyond
    //! the float input's clip (int8_limit) it is +-int8_clip.
    int8_t from_int8(int8_t v) const
    {
        const int32_t x = std::max<int32_t>(v, -127);
        if (float(std::abs(x)) > d_k.int8_limit)
            return int8_t(x < 0 ? -d_k.int8_clip : d_k.int8_clip);
        return int8_t(x);
    }

    //! the magnitude of a check message whose others' smallest is \p min
    int32_t magnitude(int32_t min) const
    {
        return (std::max(min - d_k.offset_q, 0) * d_k.scale_q + 8) >> 4;
    }

private:
    //! magnitude() at a check of \p deg edges: without the offset where
    //! three_smallest leaves it out (below three_smallest_offset_degree)
    int32_t magnitude_at(int32_t min, unsigned deg) const
    {
        if (d_three_smallest && deg < three_smallest_offset_degree)
            return (min * d_k.scale_q + 8) >> 4;
        return magnitude(min);
    }

    fixed_point_constants d_k;
    bool d_two_smallest, d_three_smallest;
    std::array<int8_t, 255> d_f{};
};

/*!
 * GF(q) belief propagation in the probability domain (Davey-MacKay; the
 * check node through the Walsh-Hadamard transform as in Barnault-Declercq).
 *
 * For check sum_i h_i x_i = 0, the message of edge i is the distribution of
 * h_i x_i = sum_{j != i} h_j x_j: permute each incoming message by its
 * coefficient (U_j[h_j x] = P_j(x)), XOR-convolve all but one (pointwise
 * products of their FWHTs, excluding edge i by forward-backward products),
 * transform back and undo the permutation of edge i.
 */
class fft_bp_rule
{
public:
    using domain = log_prob_domain;
    fft_bp_rule(const gf_field& f, unsigned max_degree, const decoder_config& cfg)
        : d_field(f),
          d_q(f.q()),
          d_half(cfg.messages == message_precision::fp16),
          d_spectra(size_t(max_degree) * d_q),
          d_suffix(size_t(max_degree + 1) * d_q),
          d_prefix(d_q),
          d_work(d_q)
    {
    }

    void check_update(const float* in, float* out, const uint8_t* coef, unsigned deg)
    {
        const unsigned q = d_q;
        for (unsigned i = 0; i < deg; ++i) {
            float* u = &d_spectra[size_t(i) * q];
            const uint8_t* perm = d_field.mul_row(coef[i]);
            float sum = 0.0f;
            for (unsigned x = 0; x < q; ++x) {
                const float p = std::exp(in[size_t(i) * q + x]);
                u[perm[x]] = p;
                sum += p;
            }
            const float norm = 1.0f / sum;
            for (unsigned x = 0; x < q; ++x)
                u[x] *= norm;
            fwht_inplace(u, q);
        }
        float* suffix_end = &d_suffix[size_t(deg) * q];
        std::fill(suffix_end, suffix_end + q, 1.0f);
        for (unsigned i = deg; i-- > 0;) {
            const float* next = &d_suffix[size_t(i + 1) * q];
            const float* f = &d_spectra[size_t(i) * q];
            float* s = &d_suffix[size_t(i) * q];
            for (unsigned x = 0; x < q; ++x)
                s[x] = next[x] * f[x];
        }
        std::fill(d_prefix.begin(), d_prefix.end(), 1.0f);
        for (unsigned i = 0; i < deg; ++i) {
            const float* s = &d_suffix[size_t(i + 1) * q];
            for (unsigned x = 0; x < q; ++x)
                d_work[x] = d_prefix[x] * s[x];
            fwht_inplace(d_work.data(), q);
            const float mx = *std::max_element(d_work.begin(), d_work.end());
            const uint8_t* perm = d_field.mul_row(coef[i]);
            float* o = &out[size_t(i) * q];
            // Rounding can leave tiny negative probabilities: floor them.
            const float floor = mx * std::exp(-domain::log_floor);
            for (unsigned x = 0; x < q; ++x)
                o[x] = std::log(std::max(d_work[perm[x]], floor));
            domain::normalize_and_floor(o, q);
            if (d_half) // stored in half precision: every later use sees that
                for (unsigned x = 0; x < q; ++x)
                    o[x] = round_to_half(o[x]);
            const float* f = &d_spectra[size_t(i) * q];
            for (unsigned x = 0; x < q; ++x)
                d_prefix[x] *= f[x];
        }
    }

private:
    const gf_field& d_field;
    unsigned d_q;
    bool d_half; // messages rounded to fp16
    std::vector<float> d_spectra, d_suffix, d_prefix, d_work;
};

/*!
 * FFT-BP with the transform in signed-log arithmetic (Monzo): every value is
 * a sign and the logarithm of its magnitude, so probabilities never
 * underflow; butterflies add and subtract by log-sum-exp.
 */
class log_fft_bp_rule
{
public:
    using domain = log_prob_domain;
    log_fft_bp_rule(const gf_field& f, unsigned max_degree, const decoder_config&)
        : d_field(f),
          d_q(f.q()),
          d_mag(size_t(max_degree) * d_q),
          d_sign(size_t(max_degree) * d_q),
          d_suffix_mag(size_t(max_degree + 1) * d_q),
          d_suffix_sign(size_t(max_degree + 1) * d_q),
          d_prefix_mag(d_q),
          d_prefix_sign(d_q),
          d_work_mag(d_q),
          d_work_sign(d_q)
    {
    }

    void check_update(const float* in, float* out, const uint8_t* coef, unsigned deg)
    {
        const unsigned q = d_q;
        for (unsigned i = 0; i < deg; ++i) {
            float* mag = &d_mag[size_t(i) * q];
            float* sign = &d_sign[size_t(i) * q];
            const uint8_t* perm = d_field.mul_row(coef[i]);
            for (unsigned x = 0; x < q; ++x) {
                mag[perm[x]] = in[size_t(i) * q + x];
                sign[perm[x]] = 1.0f;
            }
            transform(mag, sign);
        }
        float* sm = &d_suffix_mag[size_t(deg) * q];
        float* ss = &d_suffix_sign[size_t(deg) * q];
        std::fill(sm, sm + q, 0.0f);
        std::fill(ss, ss + q, 1.0f);
        for (unsigned i = deg; i-- > 0;)
            for (unsigned x = 0; x < q; ++x) {
                d_suffix_mag[size_t(i) * q + x] =
                    d_suffix_mag[size_t(i + 1) * q + x] + d_mag[size_t(i) * q + x];
                d_suffix_sign[size_t(i) * q + x] =
                    d_suffix_sign[size_t(i + 1) * q + x] * d_sign[size_t(i) * q + x];
            }
        std::fill(d_prefix_mag.begin(), d_prefix_mag.end(), 0.0f);
        std::fill(d_prefix_sign.begin(), d_prefix_sign.end(), 1.0f);
        for (unsigned i = 0; i < deg; ++i) {
            for (unsigned x = 0; x < q; ++x) {
                d_work_mag[x] = d_prefix_mag[x] + d_suffix_mag[size_t(i + 1) * q + x];
                d_work_sign[x] = d_prefix_sign[x] * d_suffix_sign[size_t(i + 1) * q + x];
            }
            transform(d_work_mag.data(), d_work_sign.data());
            const uint8_t* perm = d_field.mul_row(coef[i]);
            float* o = &out[size_t(i) * q];
            for (unsigned x = 0; x < q; ++x) {
                const unsigned z = perm[x];
                // a negative result is rounding noise around 0
                o[x] = d_work_sign[z] > 0.0f ? d_work_mag[z] : -huge;
            }
            domain::normalize_and_floor(o, q);
            for (unsigned x = 0; x < q; ++x) {
                d_prefix_mag[x] += d_mag[size_t(i) * q + x];
                d_prefix_sign[x] *= d_sign[size_t(i) * q + x];
            }
        }
    }

private:
    static constexpr float huge = 1e30f;

    // (sa, la) + (sb, lb) in signed-log form
    static void add(float sa, float la, float sb, float lb, float& s, float& l)
    {
        if (la < lb) {
            std::swap(la, lb);
            std::swap(sa, sb);
        }
        const float d = lb - la; // <= 0
        s = sa;
        if (sa == sb) {
            l = la + std::log1p(std::exp(d));
        } else {
            const float r = -std::expm1(d); // 1 - e^d in [0, 1)
            l = r > 0.0f ? la + std::log(r) : -huge;
        }
    }

    void transform(float* mag, float* sign) const
    {
        for (unsigned h = 1; h < d_q; h <<= 1)
            for (unsigned i = 0; i < d_q; i += 2 * h)
                for (unsigned j = i; j < i + h; ++j) {
                    float s0, l0, s1, l1;
                    add(sign[j], mag[j], sign[j + h], mag[j + h], s0, l0);
                    add(sign[j], mag[j], -sign[j + h], mag[j + h], s1, l1);
                    sign[j] = s0;
                    mag[j] = std::max(l0, -huge);
                    sign[j + h] = s1;
                    mag[j + h] = std::max(l1, -huge);
                }
    }

    const gf_field& d_field;
    unsigned d_q;
    std::vector<float> d_mag, d_sign, d_suffix_mag, d_suffix_sign;
    std::vector<float> d_prefix_mag, d_prefix_sign, d_work_mag, d_work_sign;
};

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_CHECK_RULES_H */
