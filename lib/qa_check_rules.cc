/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Check-node rules against first principles: the GF(q) rules against a direct
// sum over all configurations of the other variables, the binary rules
// against the parity marginal and the min-sum formula, the 8-bit rule against
// the integer arithmetic decoder.h specifies.

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

//! The 8-bit rule with magnitude rule \p rule, without scaling or offset
decoder_config int8_config(min_sum_magnitude_rule rule)
{
    decoder_config cfg;
    cfg.messages = message_precision::int8;
    cfg.min_sum_scale = 1.0f;
    cfg.min_sum_offset = 0.0f;
    cfg.min_sum_magnitude = rule;
    return cfg;
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

BOOST_AUTO_TEST_CASE(fixed_point_min_sum_follows_its_formula)
{
    // decoder.h, message_precision::int8: magnitude
    // (max(min - offset_q, 0) * scale_q + 8) >> 4 of the others' smallest
    // magnitude (at most 127), the sign the product of the others'
    const gf_field f(1);
    decoder_config cfg;
    cfg.messages = message_precision::int8;
    cfg.min_sum_magnitude = min_sum_magnitude_rule::smallest;
    cfg.min_sum_scale = 0.75f; // scale_q 12
    cfg.min_sum_offset = 0.5f; // offset_q 2 at llr_scale 4
    fixed_point_min_sum_rule rule(f, 4, cfg);
    const int8_t in[4] = { 20, -5, 127, -9 };
    int8_t out[4];
    rule.check_update(in, out, nullptr, 4);
    // minima 5 (edge 1) and 9; (3 * 12 + 8) >> 4 = 2, (7 * 12 + 8) >> 4 = 5
    BOOST_CHECK_EQUAL(int(out[0]), 2);
    BOOST_CHECK_EQUAL(int(out[1]), -5);
    BOOST_CHECK_EQUAL(int(out[2]), 2);
    BOOST_CHECK_EQUAL(int(out[3]), -2);

    // + 8: halves round up; a minimum within the offset gives 0
    cfg.min_sum_scale = 0.8125f; // scale_q 13
    cfg.min_sum_offset = 0.0f;
    const fixed_point_min_sum_rule r13(f, 3, cfg);
    BOOST_CHECK_EQUAL(r13.magnitude(6), 5); // 78 / 16 = 4.875
    BOOST_CHECK_EQUAL(r13.magnitude(8), 7); // 104 / 16 = 6.5
    cfg.min_sum_offset = 1.0f;              // offset_q 4
    const fixed_point_min_sum_rule r_off(f, 3, cfg);
    BOOST_CHECK_EQUAL(r_off.magnitude(3), 0);
    BOOST_CHECK_EQUAL(r_off.magnitude(12), 7); // 8 * 13 = 104
    cfg.min_sum_scale = 1.0f / 16.0f;          // scale_q 1, the smallest
    cfg.min_sum_offset = 0.0f;
    BOOST_CHECK_EQUAL(fixed_point_min_sum_rule(f, 3, cfg).magnitude(127), 8);

    // -128 counts as magnitude 127
    cfg.min_sum_scale = 1.0f;
    const fixed_point_min_sum_rule r16(f, 2, cfg);
    const int8_t pair[2] = { -128, 3 };
    int8_t pair_out[2];
    r16.check_update(pair, pair_out, nullptr, 2);
    BOOST_CHECK_EQUAL(int(pair_out[0]), 3);
    BOOST_CHECK_EQUAL(int(pair_out[1]), -127);
}

BOOST_AUTO_TEST_CASE(two_smallest_magnitudes_follow_their_formula)
{
    // decoder.h, min_sum_magnitude_rule::two_smallest: m2 (+) m3 where the
    // input is the smallest, m1 (+) m2 elsewhere
    const gf_field f(1);
    const decoder_config cfg = int8_config(min_sum_magnitude_rule::two_smallest);
    const fixed_point_min_sum_rule rule(f, 4, cfg);
    // f(x) = round(4 ln(1 + e^-(x / 4))): f(0) = 3, f(4) = 1, f(6) = 1, f(7) = 1,
    // f(11) = f(13) = f(14) = f(29) = 0
    BOOST_CHECK_EQUAL(rule.combined(5, 9), 4);  // 5 + f(14) - f(4)
    BOOST_CHECK_EQUAL(rule.combined(9, 20), 9); // 9 + f(29) - f(11)
    const int8_t in[4] = { 20, -5, 127, -9 };
    int8_t out[4];
    rule.check_update(in, out, nullptr, 4);
    BOOST_CHECK_EQUAL(int(out[0]), 4);
    BOOST_CHECK_EQUAL(int(out[1]), -9);
    BOOST_CHECK_EQUAL(int(out[2]), 4);
    BOOST_CHECK_EQUAL(int(out[3]), -4);
    // a tie: both smallest take m2 (+) m3 = 3 + f(13) - f(7) = 2, the other
    // m1 (+) m2 = 3 + f(6) - f(0) = 1
    const int8_t tie[3] = { -3, 3, 10 };
    int8_t tie_out[3];
    rule.check_update(tie, tie_out, nullptr, 3);
    BOOST_CHECK_EQUAL(int(tie_out[0]), 2);
    BOOST_CHECK_EQUAL(int(tie_out[1]), -2);
    BOOST_CHECK_EQUAL(int(tie_out[2]), -1);
    // degree 2: the other input, as min-sum
    const int8_t pair[2] = { 7, -40 };
    int8_t pair_out[2];
    rule.check_update(pair, pair_out, nullptr, 2);
    BOOST_CHECK_EQUAL(int(pair_out[0]), -40);
    BOOST_CHECK_EQUAL(int(pair_out[1]), 7);

    // float: belief propagation's combination of two inputs
    decoder_config fcfg = cfg;
    fcfg.messages = message_precision::fp32;
    min_sum_rule frule(f, 4, fcfg);
    const float fin[4] = { 2.0f, -0.5f, 3.0f, -1.0f };
    float fout[4];
    frule.check_update(fin, fout, nullptr, 4);
    auto bp = [](double a, double b) {
        return 2.0 * std::atanh(std::tanh(a / 2.0) * std::tanh(b / 2.0));
    };
    BOOST_CHECK_CLOSE(fout[0], bp(0.5, 1.0), 1e-3);
    BOOST_CHECK_CLOSE(fout[1], -bp(1.0, 2.0), 1e-3);
    BOOST_CHECK_CLOSE(fout[2], bp(0.5, 1.0), 1e-3);
    BOOST_CHECK_CLOSE(fout[3], -bp(0.5, 1.0), 1e-3);
}

BOOST_AUTO_TEST_CASE(three_smallest_magnitudes_follow_their_formula)
{
    // decoder.h, min_sum_magnitude_rule::three_smallest: an edge of the three
    // smallest takes the other two combined, the others all three
    const gf_field f(1);
    const decoder_config cfg = int8_config(min_sum_magnitude_rule::three_smallest);
    const fixed_point_min_sum_rule rule(f, 5, cfg);
    // f(x) = round(4 ln(1 + e^-(x / 4))): f(0) = 3, f(1 .. 3) = 2, f(4 .. 8)
    // = 1, f(9 ..) = 0. m1 = 5 (position 1), m2 = 6 (4), m3 = 9 (3):
    // 6 (+) 9 = 6 + f(15) - f(3) = 4, 5 (+) 9 = 5 + f(14) - f(4) = 4,
    // 5 (+) 6 = 5 + f(11) - f(1) = 3, all three 3 (+) 9 = 3 + f(12) - f(6) = 2
    const int8_t in[5] = { 20, -5, 127, -9, 6 };
    int8_t out[5];
    rule.check_update(in, out, nullptr, 5);
    const int expected[5] = { 2, -4, 2, -3, 4 };
    for (unsigned i = 0; i < 5; ++i)
        BOOST_CHECK_EQUAL(int(out[i]), expected[i]);
    // ties: the first positions of equal magnitudes first (m1 at 0, m2 at 1,
    // m3 = 4 at 3): 3 (+) 4 = 3 + f(7) - f(1) = 2 at positions 0 and 1,
    // 3 (+) 3 = 3 + f(6) - f(0) = 1 at 3, all three 1 (+) 4 = 1 + f(5) - f(3) = 0
    const int8_t tie[5] = { -3, 3, 10, 4, 5 };
    int8_t tie_out[5];
    rule.check_update(tie, tie_out, nullptr, 5);
    const int tie_expected[5] = { 2, -2, 0, -1, 0 };
    for (unsigned i = 0; i < 5; ++i)
        BOOST_CHECK_EQUAL(int(tie_out[i]), tie_expected[i]);
    // degree 2: the other input, as min-sum
    const int8_t pair[2] = { 7, -40 };
    int8_t pair_out[2];
    rule.check_update(pair, pair_out, nullptr, 2);
    BOOST_CHECK_EQUAL(int(pair_out[0]), -40);
    BOOST_CHECK_EQUAL(int(pair_out[1]), 7);
    // the offset (0.25: one step) at checks of 5 edges or more only
    decoder_config offset_cfg = cfg;
    offset_cfg.min_sum_offset = 0.25f;
    const fixed_point_min_sum_rule with_offset(f, 5, offset_cfg);
    with_offset.check_update(in, out, nullptr, 5);
    const int less_one[5] = { 1, -3, 1, -2, 3 };
    for (unsigned i = 0; i < 5; ++i)
        BOOST_CHECK_EQUAL(int(out[i]), less_one[i]);
    // degree 4: m1 = 5 (position 1), m2 = 6 (3), m3 = 9 (2), no offset
    const int8_t four[4] = { 20, -5, 9, 6 };
    int8_t four_out[4];
    with_offset.check_update(four, four_out, nullptr, 4);
    const int four_expected[4] = { -2, 4, -3, -4 };
    for (unsigned i = 0; i < 4; ++i)
        BOOST_CHECK_EQUAL(int(four_out[i]), four_expected[i]);
    // degree 2: the other input, no offset either
    with_offset.check_update(pair, pair_out, nullptr, 2);
    BOOST_CHECK_EQUAL(int(pair_out[0]), -40);
    BOOST_CHECK_EQUAL(int(pair_out[1]), 7);
    // ties at the third smallest: the first of the two 9s is the third
    // (5 (+) 6 = 3), the second takes all three (3 (+) 9 = 3 + f(12) - f(6)
    // = 2)
    const int8_t third_tie[5] = { 5, -6, 9, 9, 20 };
    int8_t third_tie_out[5];
    rule.check_update(third_tie, third_tie_out, nullptr, 5);
    const int third_tie_expected[5] = { -4, 4, -3, -2, -2 };
    for (unsigned i = 0; i < 5; ++i)
        BOOST_CHECK_EQUAL(int(third_tie_out[i]), third_tie_expected[i]);

    // float: belief propagation's messages where a check has 3 edges, and
    // elsewhere those of a check of the three smallest inputs
    decoder_config fcfg = cfg;
    fcfg.messages = message_precision::fp32;
    min_sum_rule frule(f, 5, fcfg);
    sum_product_rule sp(f, 5, fcfg);
    const float three[3] = { 2.0f, -1.5f, 0.7f };
    float three_out[3], three_bp[3];
    frule.check_update(three, three_out, nullptr, 3);
    sp.check_update(three, three_bp, nullptr, 3);
    for (unsigned i = 0; i < 3; ++i)
        BOOST_CHECK_CLOSE(three_out[i], three_bp[i], 1e-3);
    // with an offset too: it applies from 5 edges on
    decoder_config foffset = fcfg;
    foffset.min_sum_offset = 0.25f;
    min_sum_rule frule_offset(f, 5, foffset);
    frule_offset.check_update(three, three_out, nullptr, 3);
    for (unsigned i = 0; i < 3; ++i)
        BOOST_CHECK_CLOSE(three_out[i], three_bp[i], 1e-3);
    const float five[5] = { 2.0f, -1.5f, 0.7f, 3.1f, -4.0f };
    float five_out[5], four_bp[4];
    frule.check_update(five, five_out, nullptr, 5);
    const float with_others[4] = { 2.0f, -1.5f, 0.7f, 1.0f };
    sp.check_update(with_others, four_bp, nullptr, 4);
    // signs: the five's others differ from the smaller checks' by -4.0 (at
    // position 3) or 3.1 (at position 4)
    BOOST_CHECK_CLOSE(five_out[3], -four_bp[3], 1e-3);
    BOOST_CHECK_CLOSE(five_out[4], four_bp[3], 1e-3);
    for (unsigned i = 0; i < 3; ++i)
        BOOST_CHECK_CLOSE(five_out[i], -three_bp[i], 1e-3);
    // the offset at 5 edges (every magnitude here above 0.25)
    float five_offset[5];
    frule_offset.check_update(five, five_offset, nullptr, 5);
    for (unsigned i = 0; i < 5; ++i)
        BOOST_CHECK_CLOSE(five_offset[i],
                          five_out[i] < 0.0f ? five_out[i] + 0.25f : five_out[i] - 0.25f,
                          1e-3);
}

BOOST_AUTO_TEST_CASE(fixed_point_channel_values_and_messages)
{
    using d = fixed_llr_domain;
    // round(LLR * llr_scale), ties to even, saturated to +-127
    BOOST_CHECK_EQUAL(int(d::from_llr(0.625f, 4.0f)), 2); // 2.5
    BOOST_CHECK_EQUAL(int(d::from_llr(0.875f, 4.0f)), 4); // 3.5
    BOOST_CHECK_EQUAL(int(d::from_llr(-0.625f, 4.0f)), -2);
    BOOST_CHECK_EQUAL(int(d::from_llr(40.0f, 4.0f)), 127);
    BOOST_CHECK_EQUAL(int(d::from_llr(-64.0f, 4.0f)), -127);
    // a belief less a message is saturated as a message, exact as a belief
    int32_t belief[1] = { 327 };
    const int8_t msg[1] = { 100 };
    int8_t into[1];
    d::extrinsic(belief, msg, into, 1);
    BOOST_CHECK_EQUAL(int(into[0]), 127);
    belief[0] -= msg[0];
    d::to_message(belief, into, 1);
    BOOST_CHECK_EQUAL(int(into[0]), 127);
    BOOST_CHECK_EQUAL(belief[0], 227);
    belief[0] = -300;
    d::to_message(belief, into, 1);
    BOOST_CHECK_EQUAL(int(into[0]), -127);
    BOOST_CHECK_EQUAL(int(d::decide(belief, 1)), 1);

    // 8-bit input: -128 is -127; beyond the float input's clip (64 LLR,
    // 64 * llr_scale steps) +-round(min(64 * llr_scale, 127))
    const gf_field f(1);
    decoder_config cfg;
    cfg.messages = message_precision::int8;
    cfg.llr_scale = 4.0f; // clip beyond 256: none
    BOOST_CHECK_EQUAL(int(fixed_point_min_sum_rule(f, 2, cfg).from_int8(-128)), -127);
    cfg.llr_scale = 1.0f; // beyond 64: +-64
    const fixed_point_min_sum_rule r1(f, 2, cfg);
    BOOST_CHECK_EQUAL(int(r1.from_int8(-128)), -64);
    BOOST_CHECK_EQUAL(int(r1.from_int8(100)), 64);
    BOOST_CHECK_EQUAL(int(r1.from_int8(64)), 64);
    BOOST_CHECK_EQUAL(int(r1.from_int8(-5)), -5);
    cfg.llr_scale = 1.7f; // beyond 108.8: +-109
    const fixed_point_min_sum_rule r17(f, 2, cfg);
    BOOST_CHECK_EQUAL(int(r17.from_int8(108)), 108);
    BOOST_CHECK_EQUAL(int(r17.from_int8(109)), 109);
    BOOST_CHECK_EQUAL(int(r17.from_int8(-120)), -109);
}
