/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Check-node rules against first principles: the GF(q) rules against a direct
// sum over all configurations of the other variables, the binary rules
// against the parity marginal and the min-sum formula.

#include "engine/check_rules.h"
#include <boost/test/unit_test.hpp>
#include <random>

using namespace gr::gpuldpc;
using namespace gr::gpuldpc::detail;

namespace {

// P(h_i x_i = sum_{j != i} h_j x_j) by enumerating every x_j, j != i.
std::vector<double> direct_check_message(const gf_field& f,
                                         const std::vector<std::vector<double>>& p,
                                         const std::vector<uint8_t>& h,
                                         unsigned i)
{
    const unsigned q = f.q(), deg = unsigned(p.size());
    std::vector<double> out(q, 0.0);
    std::vector<unsigned> x(deg, 0);
    for (;;) {
        double prob = 1.0;
        uint8_t sum = 0;
        for (unsigned j = 0; j < deg; ++j) {
            if (j == i)
                continue;
            prob *= p[j][x[j]];
            sum ^= f.mul(h[j], uint8_t(x[j]));
        }
        // h_i x_i = sum  =>  x_i = sum / h_i
        out[f.div(sum, h[i])] += prob;
        unsigned j = 0;
        for (; j < deg; ++j) {
            if (j == i)
                continue;
            if (++x[j] < q)
                break;
            x[j] = 0;
        }
        if (j == deg)
            break;
    }
    double total = 0.0;
    for (double v : out)
        total += v;
    for (double& v : out)
        v /= total;
    return out;
}

template <class Rule>
void check_gf_rule(unsigned m, unsigned deg, std::mt19937& rng, double tol)
{
    const gf_field f(m);
    const unsigned q = f.q();
    decoder_config cfg;
    Rule rule(f, deg, cfg);
    std::uniform_real_distribution<float> logp(-8.0f, 0.0f);
    std::vector<float> in(deg * q), out(deg * q);
    std::vector<std::vector<double>> p(deg, std::vector<double>(q));
    std::vector<uint8_t> h(deg);
    for (unsigned trial = 0; trial < 5; ++trial) {
        for (unsigned j = 0; j < deg; ++j) {
            h[j] = uint8_t(1 + rng() % (q - 1));
            for (unsigned x = 0; x < q; ++x)
                in[j * q + x] = logp(rng);
            log_prob_domain::normalize(&in[j * q], q);
            double total = 0.0;
            for (unsigned x = 0; x < q; ++x)
                total += p[j][x] = std::exp(double(in[j * q + x]));
            for (unsigned x = 0; x < q; ++x)
                p[j][x] /= total;
        }
        rule.check_update(in.data(), out.data(), h.data(), deg);
        for (unsigned i = 0; i < deg; ++i) {
            const auto ref = direct_check_message(f, p, h, i);
            double total = 0.0;
            for (unsigned x = 0; x < q; ++x)
                total += std::exp(double(out[i * q + x]));
            for (unsigned x = 0; x < q; ++x)
                BOOST_REQUIRE_SMALL(std::exp(double(out[i * q + x])) / total - ref[x],
                                    tol);
        }
    }
}

} // namespace

BOOST_AUTO_TEST_CASE(fft_bp_equals_direct_convolution)
{
    std::mt19937 rng(11);
    // float FWHT of normalised vectors: errors of a few ulp times q
    for (unsigned deg = 2; deg <= 6; ++deg)
        check_gf_rule<fft_bp_rule>(2, deg, rng, 1e-5);
    for (unsigned deg = 2; deg <= 4; ++deg) {
        check_gf_rule<fft_bp_rule>(3, deg, rng, 1e-5);
        check_gf_rule<fft_bp_rule>(4, deg, rng, 1e-5);
    }
    check_gf_rule<fft_bp_rule>(1, 4, rng, 1e-5); // GF(2) through the same rule
}

BOOST_AUTO_TEST_CASE(log_fft_bp_equals_direct_convolution)
{
    std::mt19937 rng(12);
    for (unsigned deg = 2; deg <= 6; ++deg)
        check_gf_rule<log_fft_bp_rule>(2, deg, rng, 1e-5);
    for (unsigned deg = 2; deg <= 4; ++deg) {
        check_gf_rule<log_fft_bp_rule>(3, deg, rng, 1e-5);
        check_gf_rule<log_fft_bp_rule>(4, deg, rng, 1e-5);
    }
}

BOOST_AUTO_TEST_CASE(sum_product_equals_parity_marginal)
{
    std::mt19937 rng(13);
    std::normal_distribution<float> llr(0.0f, 4.0f);
    const gf_field f(1);
    decoder_config cfg;
    for (unsigned deg = 2; deg <= 10; ++deg) {
        sum_product_rule rule(f, deg, cfg);
        std::vector<float> in(deg), out(deg);
        for (auto& v : in)
            v = llr(rng);
        rule.check_update(in.data(), out.data(), nullptr, deg);
        for (unsigned i = 0; i < deg; ++i) {
            // P(others have even parity) vs odd, L = log(P0/P1) per bit
            double even = 0.0, odd = 0.0;
            for (unsigned cfgbits = 0; cfgbits < (1u << deg); ++cfgbits) {
                if (cfgbits & (1u << i))
                    continue;
                double prob = 1.0;
                unsigned parity = 0;
                for (unsigned j = 0; j < deg; ++j) {
                    if (j == i)
                        continue;
                    const double p0 = 1.0 / (1.0 + std::exp(-double(in[j])));
                    const bool one = cfgbits & (1u << j);
                    prob *= one ? 1.0 - p0 : p0;
                    parity ^= one;
                }
                (parity ? odd : even) += prob;
            }
            const double ref = std::log(even / odd);
            BOOST_REQUIRE_SMALL(double(out[i]) - ref,
                                1e-4 * std::max(1.0, std::fabs(ref)));
        }
    }
}

BOOST_AUTO_TEST_CASE(min_sum_follows_its_formula)
{
    const gf_field f(1);
    decoder_config cfg;
    cfg.min_sum_scale = 0.5f;
    cfg.min_sum_offset = 0.25f;
    min_sum_rule rule(f, 4, cfg);
    const float in[4] = { 2.0f, -0.5f, 3.0f, -1.0f };
    float out[4];
    rule.check_update(in, out, nullptr, 4);
    // others' minimum, sign product of others, then 0.5 * max(min - 0.25, 0)
    BOOST_CHECK_CLOSE(out[0], 0.5f * (0.5f - 0.25f), 1e-4);
    BOOST_CHECK_CLOSE(out[1], -0.5f * (1.0f - 0.25f), 1e-4);
    BOOST_CHECK_CLOSE(out[2], 0.5f * (0.5f - 0.25f), 1e-4);
    BOOST_CHECK_CLOSE(out[3], -0.5f * (0.5f - 0.25f), 1e-4);
}
