/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "noise_var_check.h"
#include <gnuradio/gpuldpc/engine/soft_demapper.h>
#include <volk/volk.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

namespace {

unsigned gray(unsigned i) { return i ^ (i >> 1); }

std::vector<std::complex<float>> square_qam(unsigned bits)
{
    const unsigned half = bits / 2, levels = 1u << half;
    const double scale = 1.0 / std::sqrt(2.0 * (double(levels) * levels - 1.0) / 3.0);
    std::vector<std::complex<float>> p(size_t(1) << bits);
    for (unsigned i = 0; i < levels; ++i)
        for (unsigned q = 0; q < levels; ++q) {
            const unsigned label = (gray(i) << half) | gray(q);
            p[label] = std::complex<float>(float((2.0 * i - (levels - 1.0)) * scale),
                                           float((2.0 * q - (levels - 1.0)) * scale));
        }
    return p;
}

} // namespace

constellation::constellation(std::string name,
                             unsigned bits,
                             std::vector<std::complex<float>> p)
    : d_name(std::move(name)), d_bits(bits), d_points(std::move(p))
{
}

std::vector<std::string> constellation::names()
{
    return { "bpsk",          "qpsk",          "8psk",         "16qam",
             "gpuldpc-bpsk",  "gpuldpc-qpsk",  "gpuldpc-8psk", "gpuldpc-16qam",
             "gpuldpc-64qam", "gpuldpc-256qam" };
}

constellation constellation::make(const std::string& name)
{
    // GNU Radio 3.10's digital.constellation_bpsk/qpsk/8psk/16qam(): their
    // points() in index order, label = index (none applies a pre-diff code)
    if (name == "bpsk")
        return constellation(name, 1, { { -1.0f, 0.0f }, { 1.0f, 0.0f } });
    if (name == "qpsk") {
        const float a = float(std::sqrt(2.0));
        return constellation(name, 2, { { -a, -a }, { a, -a }, { -a, a }, { a, a } });
    }
    if (name == "8psk") {
        // index k at angle m_k * pi / 8
        static const int eighths[8] = { 1, 7, 15, 9, 3, 5, 13, 11 };
        std::vector<std::complex<float>> p(8);
        for (unsigned k = 0; k < 8; ++k) {
            const double phi = M_PI * eighths[k] / 8.0;
            p[k] = { float(std::cos(phi)), float(std::sin(phi)) };
        }
        return constellation(name, 3, p);
    }
    if (name == "16qam") {
        // levels in units of 1/sqrt(10) (unit average energy)
        static const int levels[16][2] = {
            { 1, -1 },  { -1, -1 }, { 3, -3 }, { -3, -3 }, { -3, -1 }, { 3, -1 },
            { -1, -3 }, { 1, -3 },  { -3, 3 }, { 3, 3 },   { -1, 1 },  { 1, 1 },
            { 1, 3 },   { -1, 3 },  { 3, 1 },  { -3, 1 }
        };
        const double unit = 1.0 / std::sqrt(10.0);
        std::vector<std::complex<float>> p(16);
        for (unsigned k = 0; k < 16; ++k)
            p[k] = { float(levels[k][0] * unit), float(levels[k][1] * unit) };
        return constellation(name, 4, p);
    }
    if (name == "gpuldpc-bpsk")
        return constellation(name, 1, { { 1.0f, 0.0f }, { -1.0f, 0.0f } });
    if (name == "gpuldpc-qpsk") {
        const float a = float(1.0 / std::sqrt(2.0));
        std::vector<std::complex<float>> p(4);
        for (unsigned x = 0; x < 4; ++x)
            p[x] = { (x & 2) ? -a : a, (x & 1) ? -a : a };
        return constellation(name, 2, p);
    }
    if (name == "gpuldpc-8psk") {
        std::vector<std::complex<float>> p(8);
        for (unsigned k = 0; k < 8; ++k) {
            const double phi = 2.0 * M_PI * k / 8.0;
            p[gray(k)] = { float(std::cos(phi)), float(std::sin(phi)) };
        }
        return constellation(name, 3, p);
    }
    if (name == "gpuldpc-16qam")
        return constellation(name, 4, square_qam(4));
    if (name == "gpuldpc-64qam")
        return constellation(name, 6, square_qam(6));
    if (name == "gpuldpc-256qam")
        return constellation(name, 8, square_qam(8));
    std::string hint;
    if (name == "64qam" || name == "256qam")
        hint = " (GNU Radio has no constellation of that name; the module's is "
               "'gpuldpc-" +
               name + "')";
    throw std::invalid_argument(
        "constellation='" + name + "' is unknown" + hint +
        "; allowed: bpsk, qpsk, 8psk, 16qam (GNU Radio's digital.constellation_* of "
        "those names), gpuldpc-bpsk, gpuldpc-qpsk, gpuldpc-8psk, gpuldpc-16qam, "
        "gpuldpc-64qam, gpuldpc-256qam (the module's Gray family), or a "
        "digital.constellation object");
}

constellation constellation::from_points(const std::string& name,
                                         const std::vector<std::complex<float>>& points,
                                         const std::vector<unsigned>& labels)
{
    const size_t q = points.size();
    unsigned bits = 0;
    while ((size_t(1) << bits) < q)
        ++bits;
    if (q < 2 || q > 256 || (size_t(1) << bits) != q)
        throw std::invalid_argument("constellation '" + name + "' has " +
                                    std::to_string(q) +
                                    " points; allowed: a power of two from 2 to 256");
    if (!labels.empty() && labels.size() != q)
        throw std::invalid_argument(
            "constellation '" + name + "': " + std::to_string(labels.size()) +
            " labels for " + std::to_string(q) + " points; allowed: one a point");
    std::vector<std::complex<float>> by_label(q);
    std::vector<char> seen(q, 0);
    for (size_t i = 0; i < q; ++i) {
        const unsigned label = labels.empty() ? unsigned(i) : labels[i];
        if (label >= q || seen[label])
            throw std::invalid_argument("constellation '" + name + "': label " +
                                        std::to_string(label) + " of point " +
                                        std::to_string(i) +
                                        " is out of range or repeated; allowed: each of "
                                        "0 .. " +
                                        std::to_string(q - 1) + " once");
        if (!std::isfinite(points[i].real()) || !std::isfinite(points[i].imag()))
            throw std::invalid_argument("constellation '" + name + "': point " +
                                        std::to_string(i) + " is not finite");
        seen[label] = 1;
        by_label[label] = points[i];
    }
    return constellation(name, bits, by_label);
}

demapping parse_demapping(const std::string& s, const std::string& arg)
{
    if (s == "exact")
        return demapping::exact;
    if (s == "max-log" || s == "max_log")
        return demapping::max_log;
    throw std::invalid_argument(arg + "='" + s + "' is unknown; allowed: exact, max-log");
}

noise_estimator parse_noise_estimator(const std::string& s, const std::string& arg)
{
    if (s == "decision")
        return noise_estimator::decision_directed;
    if (s == "moments")
        return noise_estimator::moments;
    if (s == "auto")
        return noise_estimator::automatic;
    throw std::invalid_argument(arg + "='" + s +
                                "' is unknown; allowed: auto, decision, moments");
}

soft_demapper::soft_demapper(const constellation& c, demapping mode)
    : d_constellation(c), d_mode(mode)
{
    const auto& pts = c.points();
    double m2 = 0.0, m4 = 0.0;
    d_min_distance2 = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < pts.size(); ++i) {
        const double e = std::norm(std::complex<double>(pts[i]));
        m2 += e;
        m4 += e * e;
        for (size_t j = i + 1; j < pts.size(); ++j)
            d_min_distance2 = std::min(
                d_min_distance2,
                std::norm(std::complex<double>(pts[i]) - std::complex<double>(pts[j])));
    }
    m2 /= double(pts.size());
    m4 /= double(pts.size());
    d_kurtosis = m4 / (m2 * m2);
}

void soft_demapper::demap(const std::complex<float>* y,
                          size_t n,
                          float noise_var,
                          float* llr) const
{
    check_noise_var(noise_var);
    const auto& pts = d_constellation.points();
    const unsigned m = d_constellation.bits_per_symbol();
    const size_t q = pts.size();
    const float inv_n0 = 1.0f / noise_var;
    float metric[256];
    for (size_t s = 0; s < n; ++s) {
        float* out = llr + s * m;
        if (!std::isfinite(y[s].real()) || !std::isfinite(y[s].imag())) {
            std::fill(out, out + m, std::numeric_limits<float>::quiet_NaN());
            continue;
        }
        // metric[x] = -|y - x|^2 / N0, log P(y | x) up to a constant (VOLK's
        // scaled squared distances, gr-digital's soft decoder's kernel)
        // (the kernel's prototype takes non-const pointers; it reads them only)
        volk_32fc_x2_s32f_square_dist_scalar_mult_32f(
            metric,
            const_cast<lv_32fc_t*>(reinterpret_cast<const lv_32fc_t*>(y + s)),
            const_cast<lv_32fc_t*>(reinterpret_cast<const lv_32fc_t*>(pts.data())),
            -inv_n0,
            unsigned(q));
        // a tiny N0 can take far points' metrics past float's range: they
        // saturate, so that every LLR stays finite and keeps its sign
        for (size_t x = 0; x < q; ++x)
            metric[x] = std::max(metric[x], -std::numeric_limits<float>::max());
        for (unsigned b = 0; b < m; ++b) {
            const unsigned mask = 1u << (m - 1 - b);
            float best[2] = { -std::numeric_limits<float>::infinity(),
                              -std::numeric_limits<float>::infinity() };
            for (size_t x = 0; x < q; ++x) {
                float& v = best[(x & mask) ? 1 : 0];
                v = std::max(v, metric[x]);
            }
            if (d_mode == demapping::max_log) {
                out[b] = best[1] - best[0];
                continue;
            }
            // each log-sum-exp relative to its own largest term: finite
            // however confident the symbol (each sum is at least 1)
            double sum[2] = { 0.0, 0.0 };
            for (size_t x = 0; x < q; ++x) {
                const int v = (x & mask) ? 1 : 0;
                sum[v] += std::exp(double(metric[x]) - double(best[v]));
            }
            out[b] = float((double(best[1]) + std::log(sum[1])) -
                           (double(best[0]) + std::log(sum[0])));
        }
    }
}

void soft_demapper::symbol_log_likelihoods(const std::complex<float>* y,
                                           size_t n,
                                           float noise_var,
                                           float* ll) const
{
    check_noise_var(noise_var);
    const auto& pts = d_constellation.points();
    const size_t q = pts.size();
    const float inv_n0 = 1.0f / noise_var;
    for (size_t s = 0; s < n; ++s) {
        const bool finite = std::isfinite(y[s].real()) && std::isfinite(y[s].imag());
        for (size_t x = 0; x < q; ++x)
            ll[s * q + x] = finite ? std::max(-std::norm(y[s] - pts[x]) * inv_n0,
                                              -std::numeric_limits<float>::max())
                                   : std::numeric_limits<float>::quiet_NaN();
    }
}

float soft_demapper::estimate_noise_var(const std::complex<float>* y,
                                        size_t n,
                                        noise_estimator method) const
{
    const auto& pts = d_constellation.points();
    double nearest_sum = 0.0, m2 = 0.0, m4 = 0.0;
    size_t used = 0;
    for (size_t s = 0; s < n; ++s) {
        if (!std::isfinite(y[s].real()) || !std::isfinite(y[s].imag()))
            continue;
        float nearest = std::numeric_limits<float>::infinity();
        for (const auto& p : pts)
            nearest = std::min(nearest, std::norm(y[s] - p));
        nearest_sum += nearest;
        const double e = std::norm(std::complex<double>(y[s]));
        m2 += e;
        m4 += e * e;
        ++used;
    }
    if (!used)
        return std::numeric_limits<float>::quiet_NaN();
    const double decision = nearest_sum / double(used);
    m2 /= double(used);
    m4 /= double(used);
    // signal power from the moments; 2 M2^2 - M4 < 0 (noise only) gives S = 0
    const double s2 = std::max(2.0 * m2 * m2 - m4, 0.0) / (2.0 - d_kurtosis);
    const double moments = std::max(m2 - std::sqrt(s2), 0.0);
    switch (method) {
    case noise_estimator::decision_directed:
        return float(decision);
    case noise_estimator::moments:
        return float(moments);
    case noise_estimator::automatic:
        break;
    }
    return float(d_min_distance2 >= 16.0 * decision ? decision : moments);
}

} // namespace gpuldpc
} // namespace gr
