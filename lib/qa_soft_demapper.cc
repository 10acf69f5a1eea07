/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gpuldpc/engine/soft_demapper.h>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <random>

using namespace gr::gpuldpc;

namespace {

// The LLR of bit b by the formula, in long double, term by term.
long double reference_llr(
    const constellation& c, std::complex<float> y, float n0, unsigned b, bool max_log)
{
    const unsigned m = c.bits_per_symbol();
    long double sum[2] = { 0, 0 }, best[2] = { -INFINITY, -INFINITY };
    for (size_t x = 0; x < c.points().size(); ++x) {
        const std::complex<long double> d(
            (long double)y.real() - (long double)c.points()[x].real(),
            (long double)y.imag() - (long double)c.points()[x].imag());
        const long double metric = -std::norm(d) / n0;
        const int v = (x >> (m - 1 - b)) & 1;
        sum[v] += std::exp(metric);
        best[v] = std::max(best[v], metric);
    }
    return max_log ? best[1] - best[0] : std::log(sum[1]) - std::log(sum[0]);
}

} // namespace

BOOST_AUTO_TEST_CASE(constellations_are_gray_and_of_their_energy)
{
    for (const auto& name : constellation::names()) {
        const auto c = constellation::make(name);
        BOOST_TEST_CONTEXT(name)
        {
            const size_t q = c.points().size();
            BOOST_CHECK_EQUAL(q, size_t(1) << c.bits_per_symbol());
            double energy = 0, closest = INFINITY;
            for (const auto& p : c.points())
                energy += std::norm(p);
            // GNU Radio's QPSK has points (+-sqrt 2, +-sqrt 2)
            BOOST_CHECK_CLOSE(energy / q, name == "qpsk" ? 4.0 : 1.0, 1e-4);
            for (size_t a = 0; a < q; ++a)
                for (size_t b = a + 1; b < q; ++b)
                    closest = std::min(closest,
                                       double(std::abs(c.points()[a] - c.points()[b])));
            // points at the smallest distance differ in exactly one bit (GNU
            // Radio's 16-QAM labels are not Gray)
            for (size_t a = 0; a < q && name != "16qam"; ++a)
                for (size_t b = a + 1; b < q; ++b)
                    if (std::abs(c.points()[a] - c.points()[b]) < closest * 1.001)
                        BOOST_CHECK_EQUAL(__builtin_popcount(unsigned(a ^ b)), 1);
        }
    }
    BOOST_CHECK_THROW(constellation::make("32apsk"), std::invalid_argument);
    // names GNU Radio lacks are not taken for the module's
    BOOST_CHECK_THROW(constellation::make("64qam"), std::invalid_argument);
    // GNU Radio's BPSK (points -1, +1) and QPSK (index 1 at (sqrt 2, -sqrt 2))
    BOOST_CHECK(constellation::make("bpsk").points()[0] == std::complex<float>(-1, 0));
    BOOST_CHECK_CLOSE(
        constellation::make("qpsk").points()[1].real(), std::sqrt(2.0), 1e-4);
    BOOST_CHECK_CLOSE(
        constellation::make("qpsk").points()[1].imag(), -std::sqrt(2.0), 1e-4);
    // the module's BPSK map and QPSK's labels
    BOOST_CHECK(constellation::make("gpuldpc-bpsk").points()[0] ==
                std::complex<float>(1, 0));
    const auto qpsk = constellation::make("gpuldpc-qpsk");
    BOOST_CHECK_LT(qpsk.points()[2].real(), 0.0f); // MSB set: in-phase negative
    BOOST_CHECK_GT(qpsk.points()[2].imag(), 0.0f);
}

BOOST_AUTO_TEST_CASE(constellations_from_points_and_labels)
{
    // labels permute the points: point i carries label labels[i]
    const std::vector<std::complex<float>> pts = {
        { 1, 0 }, { 0, 1 }, { -1, 0 }, { 0, -1 }
    };
    const auto c = constellation::from_points("custom", pts, { 0, 1, 3, 2 });
    BOOST_CHECK_EQUAL(c.bits_per_symbol(), 2u);
    BOOST_CHECK(c.points()[3] == pts[2]);
    BOOST_CHECK(c.points()[2] == pts[3]);
    BOOST_CHECK_THROW(
        constellation::from_points("three", { { 1, 0 }, { 0, 1 }, { -1, 0 } }),
        std::invalid_argument);
    BOOST_CHECK_THROW(constellation::from_points("repeated", pts, { 0, 1, 1, 2 }),
                      std::invalid_argument);
    BOOST_CHECK_THROW(constellation::from_points("nan", { { 1, 0 }, { NAN, 0 } }),
                      std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(tiny_noise_var_saturates_instead_of_overflowing)
{
    // N0 at the bottom of the allowed range: far points' metrics pass float's
    // range; every LLR stays finite with the sign of the sent bit
    for (const char* name : { "gpuldpc-256qam", "qpsk", "16qam" }) {
        const auto c = constellation::make(name);
        for (const auto mode : { demapping::exact, demapping::max_log }) {
            const soft_demapper d(c, mode);
            const unsigned m = c.bits_per_symbol();
            std::vector<float> llr(c.points().size() * m);
            std::vector<float> ll(c.points().size() * c.points().size());
            for (const float n0 : { 1.2e-38f, 3e-38f, 5e-38f }) {
                d.demap(c.points().data(), c.points().size(), n0, llr.data());
                d.symbol_log_likelihoods(
                    c.points().data(), c.points().size(), n0, ll.data());
                for (size_t x = 0; x < c.points().size(); ++x)
                    for (unsigned b = 0; b < m; ++b) {
                        const float v = llr[x * m + b];
                        BOOST_TEST_CONTEXT(name << " n0 " << n0 << " point " << x)
                        {
                            BOOST_REQUIRE(std::isfinite(v));
                            BOOST_CHECK_EQUAL(v > 0, bool((x >> (m - 1 - b)) & 1));
                        }
                    }
                for (float v : ll)
                    BOOST_REQUIRE(std::isfinite(v));
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(llrs_match_the_formula)
{
    std::mt19937 rng(3);
    std::normal_distribution<float> noise(0.0f, 1.0f);
    for (const auto& name : constellation::names())
        for (auto mode : { demapping::exact, demapping::max_log })
            for (float n0 : { 0.01f, 0.1f, 1.0f }) {
                const auto c = constellation::make(name);
                const soft_demapper d(c, mode);
                const unsigned m = c.bits_per_symbol();
                std::vector<std::complex<float>> y(200);
                for (auto& s : y)
                    s = c.points()[rng() % c.points().size()] +
                        std::complex<float>(noise(rng), noise(rng)) * std::sqrt(n0 / 2);
                std::vector<float> llr(y.size() * m);
                d.demap(y.data(), y.size(), n0, llr.data());
                double worst = 0;
                for (size_t s = 0; s < y.size(); ++s)
                    for (unsigned b = 0; b < m; ++b) {
                        const long double want =
                            reference_llr(c, y[s], n0, b, mode == demapping::max_log);
                        // float metrics: relative error of a few float ulps of
                        // the largest metric
                        const double tol = 1e-4 * (1.0 + std::fabs(double(want)));
                        worst = std::max(worst,
                                         std::fabs(double(llr[s * m + b] - want)) / tol);
                    }
                BOOST_TEST_CONTEXT(name
                                   << " N0=" << n0 << " "
                                   << (mode == demapping::exact ? "exact" : "max-log"))
                {
                    BOOST_CHECK_LE(worst, 1.0);
                }
            }
}

BOOST_AUTO_TEST_CASE(confident_symbols_noise_estimate_and_errors)
{
    // far beyond the points: finite LLRs of the right sign (an infinite one
    // would be erased by the decoder)
    const soft_demapper d(constellation::make("gpuldpc-16qam"));
    const std::complex<float> far(50.0f, -50.0f);
    std::vector<float> llr(4);
    d.demap(&far, 1, 1e-4f, llr.data());
    for (float v : llr)
        BOOST_CHECK(std::isfinite(v));
    // in-phase far positive: the in-phase sign bit (MSB, Gray level 3 = 10) is 1
    BOOST_CHECK_GT(llr[0], 1e6f);
    const std::complex<float> bad(NAN, 0.0f);
    d.demap(&bad, 1, 1.0f, llr.data());
    BOOST_CHECK(std::isnan(llr[0]));
    BOOST_CHECK_THROW(d.demap(&far, 1, 0.0f, llr.data()), std::invalid_argument);
    BOOST_CHECK_THROW(d.demap(&far, 1, NAN, llr.data()), std::invalid_argument);
    BOOST_CHECK_THROW(parse_demapping("log-map"), std::invalid_argument);

    // the decision-directed estimate at 20 dB: within 5 % of N0 (4000
    // symbols: the estimate's own spread is about 1/sqrt(4000) = 1.6 %)
    std::mt19937 rng(5);
    std::normal_distribution<float> noise(0.0f, 1.0f);
    const auto qpsk = constellation::make("gpuldpc-qpsk");
    const soft_demapper dq(qpsk);
    const float n0 = 0.01f;
    std::vector<std::complex<float>> y(4000);
    for (auto& s : y)
        s = qpsk.points()[rng() % 4] +
            std::complex<float>(noise(rng), noise(rng)) * std::sqrt(n0 / 2);
    BOOST_CHECK_CLOSE(dq.estimate_noise_var(y.data(), y.size()), n0, 5.0);
    BOOST_CHECK(std::isnan(dq.estimate_noise_var(y.data(), 0)));
}
