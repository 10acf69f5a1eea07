/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gpuldpc/engine/fwht.h>
#include <gnuradio/gpuldpc/engine/transforms.h>
#include <type_traits>
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

unsigned checked_log2(size_t n, size_t lo, size_t hi, const std::string& arg)
{
    if (n < lo || n > hi || (n & (n - 1)) != 0)
        throw std::invalid_argument(arg + "=" + std::to_string(n) +
                                    " is not allowed; allowed: a power of two from " +
                                    std::to_string(lo) + " to " + std::to_string(hi));
    unsigned k = 0;
    while ((size_t(1) << k) < n)
        ++k;
    return k;
}

fwht_normalization parse_fwht_normalization(const std::string& s)
{
    if (s == "none")
        return fwht_normalization::none;
    if (s == "1/n" || s == "1/N" || s == "inverse_n")
        return fwht_normalization::inverse_n;
    if (s == "orthonormal")
        return fwht_normalization::orthonormal;
    throw std::invalid_argument("normalization='" + s +
                                "' is unknown; allowed: none, 1/n, orthonormal");
}

fwht_ordering parse_fwht_ordering(const std::string& s)
{
    if (s == "natural" || s == "hadamard")
        return fwht_ordering::natural;
    if (s == "sequency")
        return fwht_ordering::sequency;
    throw std::invalid_argument("ordering='" + s +
                                "' is unknown; allowed: natural, sequency");
}

spectral_kind parse_spectral_kind(const std::string& s)
{
    if (s == "walsh")
        return spectral_kind::walsh;
    if (s == "reed-muller" || s == "reed_muller")
        return spectral_kind::reed_muller;
    if (s == "arithmetic")
        return spectral_kind::arithmetic;
    if (s == "haar")
        return spectral_kind::haar;
    throw std::invalid_argument(
        "kind='" + s + "' is unknown; allowed: walsh, reed-muller, arithmetic, haar");
}

butterfly_algorithm parse_butterfly_algorithm(const std::string& s)
{
    if (s == "cooley-tukey" || s == "cooley_tukey")
        return butterfly_algorithm::cooley_tukey;
    if (s == "constant-geometry" || s == "constant_geometry")
        return butterfly_algorithm::constant_geometry;
    throw std::invalid_argument("algorithm='" + s +
                                "' is unknown; allowed: cooley-tukey, constant-geometry");
}

fwht_cpu::fwht_cpu(size_t n, fwht_normalization normalization, fwht_ordering ordering)
    : d_n(n), d_normalization(normalization), d_ordering(ordering), d_scale(1.0f)
{
    const unsigned k = checked_log2(n, min_length, max_length, "n");
    if (normalization == fwht_normalization::inverse_n)
        d_scale = 1.0f / float(n);
    else if (normalization == fwht_normalization::orthonormal)
        d_scale = float(1.0 / std::sqrt(double(n)));
    if (ordering == fwht_ordering::sequency) {
        d_perm.resize(n);
        for (uint32_t s = 0; s < n; ++s) {
            const uint32_t g = s ^ (s >> 1);
            uint32_t r = 0;
            for (unsigned b = 0; b < k; ++b)
                r |= ((g >> b) & 1u) << (k - 1 - b);
            d_perm[s] = r;
        }
    }
}

void fwht_cpu::execute(const float* in, float* out, size_t n_vectors) const
{
    std::vector<float> tmp(d_ordering == fwht_ordering::sequency ? d_n : 0);
    for (size_t v = 0; v < n_vectors; ++v) {
        const float* x = in + v * d_n;
        float* y = out + v * d_n;
        float* work = d_ordering == fwht_ordering::sequency ? tmp.data() : y;
        if (work != x)
            std::copy(x, x + d_n, work);
        fwht_inplace(work, d_n);
        if (d_ordering == fwht_ordering::sequency)
            for (size_t s = 0; s < d_n; ++s)
                y[s] = work[d_perm[s]];
        if (d_scale != 1.0f)
            for (size_t i = 0; i < d_n; ++i)
                y[i] *= d_scale;
    }
}

namespace {

// 2x2 butterflies of the Kronecker transforms: (a, b) -> (y0, y1).
template <typename T>
inline T mod2(T v)
{
    if constexpr (std::is_floating_point_v<T>)
        return T(int64_t(std::nearbyint(v)) & 1);
    else
        return T(v & 1);
}

// int32 sums wrap modulo 2^32 as documented: compute them in uint32_t, where
// overflow is defined.
template <typename T>
inline T add(T a, T b)
{
    if constexpr (std::is_floating_point_v<T>)
        return a + b;
    else
        return T(uint32_t(a) + uint32_t(b));
}
template <typename T>
inline T sub(T a, T b)
{
    if constexpr (std::is_floating_point_v<T>)
        return a - b;
    else
        return T(uint32_t(a) - uint32_t(b));
}

template <typename T>
inline void butterfly(spectral_kind kind, bool forward, T a, T b, T& y0, T& y1)
{
    switch (kind) {
    case spectral_kind::walsh:
        y0 = add(a, b);
        y1 = sub(a, b);
        break;
    case spectral_kind::reed_muller:
        y0 = mod2(a);
        y1 = T(int(mod2(a)) ^ int(mod2(b)));
        break;
    case spectral_kind::arithmetic:
        y0 = a;
        y1 = forward ? sub(b, a) : add(b, a);
        break;
    case spectral_kind::haar:
        break; // not a Kronecker transform
    }
}

template <typename T>
inline T halve(T v)
{
    if constexpr (std::is_floating_point_v<T>)
        return v * T(0.5);
    else
        return T(v / 2); // exact for spectra of integer vectors
}

} // namespace

template <typename T>
spectral_transform_cpu<T>::spectral_transform_cpu(size_t n,
                                                  spectral_kind kind,
                                                  bool forward,
                                                  butterfly_algorithm algorithm)
    : d_n(n),
      d_log2n(checked_log2(n, 2, size_t(1) << 24, "n")),
      d_kind(kind),
      d_forward(forward),
      d_algorithm(algorithm),
      d_work(n)
{
}

template <typename T>
void spectral_transform_cpu<T>::kronecker(T* x)
{
    // Both algorithms take the bits of the index from the most significant
    // down, so every butterfly sees the same operands in either order.
    if (d_algorithm == butterfly_algorithm::cooley_tukey) {
        for (size_t h = d_n / 2; h >= 1; h /= 2)
            for (size_t i = 0; i < d_n; i += 2 * h)
                for (size_t j = i; j < i + h; ++j)
                    butterfly(d_kind, d_forward, x[j], x[j + h], x[j], x[j + h]);
    } else {
        T* src = x;
        T* dst = d_work.data();
        for (unsigned s = 0; s < d_log2n; ++s) {
            for (size_t i = 0; i < d_n / 2; ++i)
                butterfly(d_kind,
                          d_forward,
                          src[i],
                          src[i + d_n / 2],
                          dst[2 * i],
                          dst[2 * i + 1]);
            std::swap(src, dst);
        }
        if (src != x)
            std::copy(src, src + d_n, x);
    }
    if (d_kind == spectral_kind::walsh && !d_forward)
        for (size_t i = 0; i < d_n; ++i)
            x[i] = std::is_floating_point_v<T> ? x[i] / T(d_n) : T(x[i] / T(d_n));
}

template <typename T>
void spectral_transform_cpu<T>::haar(T* x)
{
    const size_t n = d_n;
    if (d_algorithm == butterfly_algorithm::constant_geometry) {
        // ordered: each level writes sums to the front half, differences behind
        T* w = d_work.data();
        if (d_forward) {
            for (size_t len = n; len >= 2; len /= 2) {
                for (size_t i = 0; i < len / 2; ++i) {
                    w[i] = add(x[2 * i], x[2 * i + 1]);
                    w[len / 2 + i] = sub(x[2 * i], x[2 * i + 1]);
                }
                std::copy(w, w + len, x);
            }
        } else {
            for (size_t len = 2; len <= n; len *= 2) {
                for (size_t i = 0; i < len / 2; ++i) {
                    w[2 * i] = halve(add(x[i], x[len / 2 + i]));
                    w[2 * i + 1] = halve(sub(x[i], x[len / 2 + i]));
                }
                std::copy(w, w + len, x);
            }
        }
        return;
    }
    // in place with growing stride; coefficients are gathered into the
    // ordered layout at the end (forward) or scattered from it first (inverse)
    T* w = d_work.data();
    if (d_forward) {
        for (size_t h = 1; h < n; h *= 2)
            for (size_t j = 0; j < n; j += 2 * h) {
                const T a = x[j], b = x[j + h];
                x[j] = add(a, b);
                x[j + h] = sub(a, b);
            }
        w[0] = x[0];
        for (size_t h = 1; h < n; h *= 2)
            for (size_t t = 0; t < n / (2 * h); ++t)
                w[n / (2 * h) + t] = x[(2 * t + 1) * h];
        std::copy(w, w + n, x);
    } else {
        w[0] = x[0];
        for (size_t h = 1; h < n; h *= 2)
            for (size_t t = 0; t < n / (2 * h); ++t)
                w[(2 * t + 1) * h] = x[n / (2 * h) + t];
        for (size_t h = n / 2; h >= 1; h /= 2)
            for (size_t j = 0; j < n; j += 2 * h) {
                const T s = w[j], d = w[j + h];
                w[j] = halve(add(s, d));
                w[j + h] = halve(sub(s, d));
            }
        std::copy(w, w + n, x);
    }
}

template <typename T>
void spectral_transform_cpu<T>::execute(const T* in, T* out, size_t n_vectors)
{
    for (size_t v = 0; v < n_vectors; ++v) {
        T* y = out + v * d_n;
        if (in + v * d_n != y)
            std::copy(in + v * d_n, in + (v + 1) * d_n, y);
        if (d_kind == spectral_kind::haar)
            haar(y);
        else
            kronecker(y);
    }
}

template class spectral_transform_cpu<int32_t>;
template class spectral_transform_cpu<float>;

} // namespace gpuldpc
} // namespace gr
