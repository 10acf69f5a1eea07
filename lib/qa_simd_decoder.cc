/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The SIMD CPU decoders against the scalar reference, frame for frame, on
// every instruction set this build and CPU run (GPULDPC_CPU_SIMD picks one
// per decoder): codes of every family, both schedules, float and 8-bit
// input, bad values, partial groups, several threads.

#define BOOST_TEST_MODULE simd_decoder
#include "engine/simd_decoder.h"
#include "engine/simd_dispatch.h"
#include "qa_helpers.h"
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <boost/test/unit_test.hpp>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

using namespace gr::gpuldpc;

namespace {

struct decoded {
    std::vector<uint8_t> bits, codewords;
    std::vector<frame_status> status;
};

// A CPU decoder made while GPULDPC_CPU_SIMD is \p simd
batch_decoder::sptr
make_with(ldpc_code::sptr code, const decoder_config& cfg, const std::string& simd)
{
    setenv("GPULDPC_CPU_SIMD", simd.c_str(), 1);
    auto dec = batch_decoder::make(code, cfg, "cpu");
    unsetenv("GPULDPC_CPU_SIMD");
    return dec;
}

template <class In>
decoded run(batch_decoder& dec, const std::vector<In>& llr, size_t frames)
{
    decoded d;
    d.bits.resize(frames * dec.info_bytes_per_frame());
    d.codewords.resize(frames * dec.code().n() * dec.code().bits_per_symbol());
    d.status.resize(frames);
    if constexpr (std::is_same_v<In, int8_t>)
        dec.decode_int8(
            llr.data(), frames, d.bits.data(), d.status.data(), d.codewords.data());
    else
        dec.decode(
            llr.data(), frames, d.bits.data(), d.status.data(), d.codewords.data());
    return d;
}

// Equal results frame for frame; returns the frames that did not converge.
size_t require_equal(const decoded& a, const decoded& b, const std::string& what)
{
    size_t failed = 0;
    BOOST_TEST_CONTEXT(what)
    {
        BOOST_REQUIRE_EQUAL(a.status.size(), b.status.size());
        for (size_t f = 0; f < a.status.size(); ++f) {
            BOOST_TEST_CONTEXT("frame " << f)
            {
                BOOST_REQUIRE_EQUAL(a.status[f].converged, b.status[f].converged);
                BOOST_REQUIRE_EQUAL(a.status[f].iterations, b.status[f].iterations);
                BOOST_REQUIRE_EQUAL(a.status[f].syndrome_weight,
                                    b.status[f].syndrome_weight);
                BOOST_REQUIRE_EQUAL(a.status[f].invalid_inputs,
                                    b.status[f].invalid_inputs);
            }
            failed += !a.status[f].converged;
        }
        BOOST_REQUIRE(a.bits == b.bits);
        BOOST_REQUIRE(a.codewords == b.codewords);
    }
    return failed;
}

// The SIMD decoder's results \p got against the reference's \p expected on
// the same frames, for rules that agree within rounding (or, for
// sum-product, within the steps of its phi table): frames both decode
// are the same information bits; the failure counts within 4 standard
// deviations of the difference of two binomial counts at the reference's
// rate; most frames decode and the reference fails some (the comparison is
// not vacuous). Returns the frames whose iteration counts are equal.
size_t check_within_statistics(const decoded& got,
                               const decoded& expected,
                               size_t bytes_per_frame,
                               const std::string& what)
{
    const size_t frames = expected.status.size(), nb = bytes_per_frame;
    size_t failed = 0, ref_failed = 0, both = 0, same_iterations = 0;
    for (size_t f = 0; f < frames; ++f) {
        failed += !got.status[f].converged;
        ref_failed += !expected.status[f].converged;
        same_iterations += got.status[f].iterations == expected.status[f].iterations;
        if (got.status[f].converged && expected.status[f].converged) {
            ++both;
            BOOST_REQUIRE_MESSAGE(std::equal(&got.bits[f * nb],
                                             &got.bits[(f + 1) * nb],
                                             &expected.bits[f * nb]),
                                  what << ": frame " << f << " decoded differently");
        }
    }
    const double p = double(ref_failed) / double(frames);
    const double bound = 4.0 * std::sqrt(2.0 * double(frames) * p * (1.0 - p)) + 1.0;
    BOOST_TEST_MESSAGE(what << ": " << failed << " failed, the reference " << ref_failed
                            << " (bound " << bound << "), " << same_iterations
                            << " frames with the same iterations");
    BOOST_CHECK_LE(std::fabs(double(failed) - double(ref_failed)), bound);
    BOOST_CHECK_GT(both, frames / 2);
    BOOST_CHECK_GT(ref_failed, 0u);
    return same_iterations;
}

struct code_case {
    std::string name;
    // near each schedule's waterfall at 20 iterations: some frames fail
    double layered_ebn0, flooding_ebn0;
};

ldpc_code::sptr load(const std::string& name)
{
    if (name == "punctured_qc")
        return qa::punctured_qc_code();
    return std::make_shared<ldpc_code>(ldpc_code::load(name));
}

decoder_config int8_min_sum(decoder_schedule schedule)
{
    decoder_config cfg;
    cfg.algorithm = decoder_algorithm::min_sum;
    cfg.messages = message_precision::int8;
    cfg.min_sum_magnitude = min_sum_magnitude_rule::smallest;
    cfg.schedule = schedule;
    cfg.max_iterations = 20;
    cfg.threads = 1;
    return cfg;
}

} // namespace

BOOST_AUTO_TEST_CASE(targets_are_listed)
{
    const auto targets = detail::simd_targets();
    BOOST_REQUIRE(!targets.empty());
    std::string names;
    for (const auto& t : targets)
        names += " " + t;
    BOOST_TEST_MESSAGE("SIMD targets of this build on this CPU, best first:" << names);
}

BOOST_AUTO_TEST_CASE(every_target_equals_the_reference_frame_for_frame)
{
    const std::vector<code_case> cases = {
        { "regular_3_6_n1008_gf2", 1.7, 1.9 }, // alist
        { "wifi:1944:1/2", 1.3, 1.6 },         // quasi-cyclic
        { "wimax:576:2/3A", 2.0, 2.2 },        // quasi-cyclic
        { "dvbs2:1/2:short", 0.9, 1.6 },       // accumulator
        { "nr:1:32", 0.6, 0.8 },               // 5G NR: punctured, degree-1 extension
        { "punctured_qc", 2.5, 2.5 },
    };
    // the frames of every target: at least two groups of the widest and part
    // of another, at least 32 frames
    size_t widest = 1;
    for (const auto& target : detail::simd_targets()) {
        decoder_config one = int8_min_sum(decoder_schedule::layered);
        widest = std::max(
            widest,
            make_with(load("regular_3_6_n96_gf2"), one, target)->preferred_batch());
    }
    const size_t frames = std::max<size_t>(2 * widest, 32) + 3;
    for (const auto& c : cases) {
        auto code = load(c.name);
        for (auto schedule : { decoder_schedule::layered, decoder_schedule::flooding })
            for (auto magnitude : { min_sum_magnitude_rule::smallest,
                                    min_sum_magnitude_rule::two_smallest,
                                    min_sum_magnitude_rule::three_smallest }) {
                decoder_config cfg = int8_min_sum(schedule);
                cfg.min_sum_magnitude = magnitude;
                const double ebn0 = schedule == decoder_schedule::layered
                                        ? c.layered_ebn0
                                        : c.flooding_ebn0;
                const auto batch = qa::make_batch(*code, frames, ebn0, 17);
                auto ref = make_with(code, cfg, "off");
                BOOST_REQUIRE(ref->kernel_variant().empty());
                const auto expected = run(*ref, batch.llr, frames);
                for (const auto& target : detail::simd_targets()) {
                    auto simd = make_with(code, cfg, target);
                    const std::string what =
                        c.name + ", " + target + ", " + simd->kernel_variant();
                    BOOST_TEST_CONTEXT(what)
                    {
                        BOOST_REQUIRE(simd->kernel_variant().find(target) !=
                                      std::string::npos);
                        const size_t failed =
                            require_equal(run(*simd, batch.llr, frames), expected, what);
                        BOOST_TEST_MESSAGE(what << ": " << failed << " of " << frames
                                                << " frames failed");
                        BOOST_CHECK_GT(failed, 0u);
                        BOOST_CHECK_LT(failed, frames);
                    }
                }
            }
    }
}

BOOST_AUTO_TEST_CASE(without_early_termination_and_from_8_bit_input)
{
    auto code = load("wifi:648:1/2");
    for (const auto& target : detail::simd_targets()) {
        for (auto schedule : { decoder_schedule::layered, decoder_schedule::flooding }) {
            decoder_config cfg = int8_min_sum(schedule);
            cfg.early_termination = false;
            cfg.max_iterations = 7;
            auto simd = make_with(code, cfg, target);
            auto ref = make_with(code, cfg, "off");
            const size_t frames = 37;
            auto batch = qa::make_batch(*code, frames, 2.0, 5);
            require_equal(run(*simd, batch.llr, frames),
                          run(*ref, batch.llr, frames),
                          target + ", no early termination");
            // 8-bit input over the whole range, -128 and the clip included
            std::vector<int8_t> llr8(batch.llr.size());
            for (size_t i = 0; i < llr8.size(); ++i)
                llr8[i] =
                    int8_t(std::clamp(std::lrint(batch.llr[i] * 6.0f), -128L, 127L));
            llr8[0] = -128;
            llr8[1] = 127;
            cfg.early_termination = true;
            auto simd_et = make_with(code, cfg, target);
            auto ref_et = make_with(code, cfg, "off");
            require_equal(run(*simd_et, llr8, frames),
                          run(*ref_et, llr8, frames),
                          target + ", 8-bit input");
            // iteration 0: noiseless frames satisfy every check at once
            auto clean =
                qa::make_batch(*code, 3, std::numeric_limits<double>::infinity(), 9);
            const auto d = run(*simd_et, clean.llr, 3);
            for (const auto& st : d.status) {
                BOOST_CHECK(st.converged);
                BOOST_CHECK_EQUAL(st.iterations, 0u);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(bad_values_sign_flip_and_threads)
{
    auto code = load("regular_3_6_n96_gf2");
    const size_t frames = 41;
    auto batch = qa::make_batch(*code, frames, 2.5, 23);
    const size_t n = code->n();
    batch.llr[3] = std::numeric_limits<float>::quiet_NaN();
    batch.llr[n + 5] = std::numeric_limits<float>::infinity();
    batch.llr[2 * n + 7] = 1e30f;
    for (size_t i = 0; i < n; ++i) // frame 4: erased throughout
        batch.llr[4 * n + i] = std::numeric_limits<float>::quiet_NaN();
    for (const auto& target : detail::simd_targets()) {
        decoder_config cfg = int8_min_sum(decoder_schedule::layered);
        auto ref = make_with(code, cfg, "off");
        const auto expected = run(*ref, batch.llr, frames);
        BOOST_CHECK_EQUAL(expected.status[0].invalid_inputs, 1u);
        BOOST_CHECK(!expected.status[4].converged);
        cfg.threads = 3;
        auto simd = make_with(code, cfg, target);
        require_equal(run(*simd, batch.llr, frames), expected, target + ", 3 threads");
        cfg.flip_llr_sign = true;
        cfg.threads = 1;
        std::vector<float> flipped(batch.llr);
        for (auto& x : flipped)
            x = -x;
        require_equal(run(*make_with(code, cfg, target), flipped, frames),
                      run(*make_with(code, cfg, "off"), flipped, frames),
                      target + ", flip_llr_sign");
    }
}

BOOST_AUTO_TEST_CASE(what_the_simd_decoders_do_not_cover_goes_to_the_reference)
{
    // GF(q): FFT-BP with fp32 messages only
    auto gf64 = load("regular_2_4_n96_gf64");
    decoder_config cfg;
    cfg.algorithm = decoder_algorithm::fft_bp;
    BOOST_CHECK(detail::simd_refusal(*gf64, cfg).empty());
    BOOST_CHECK(make_with(gf64, cfg, "auto")->kernel_variant().find("FFT-BP") !=
                std::string::npos);
    cfg.messages = message_precision::fp16;
    BOOST_CHECK(!detail::simd_refusal(*gf64, cfg).empty());
    BOOST_CHECK(make_with(gf64, cfg, "auto")->kernel_variant().empty());
    cfg.messages = message_precision::fp32;
    cfg.algorithm = decoder_algorithm::log_fft_bp;
    BOOST_CHECK(!detail::simd_refusal(*gf64, cfg).empty());
    auto binary = load("regular_3_6_n96_gf2");
    decoder_config fp = int8_min_sum(decoder_schedule::layered);
    fp.messages = message_precision::fp32;
    BOOST_CHECK(make_with(binary, fp, "auto")->kernel_variant().find("float min-sum") !=
                std::string::npos);
    // the float rule's combined magnitudes and FFT-BP are the reference's alone
    fp.min_sum_magnitude = min_sum_magnitude_rule::three_smallest;
    BOOST_CHECK(make_with(binary, fp, "auto")->kernel_variant().empty());
    decoder_config fft;
    fft.algorithm = decoder_algorithm::fft_bp;
    BOOST_CHECK(make_with(binary, fft, "auto")->kernel_variant().empty());
    // the combined magnitudes' table read with one shuffle: llr_scale <= about 7
    decoder_config three = int8_min_sum(decoder_schedule::layered);
    three.min_sum_magnitude = min_sum_magnitude_rule::three_smallest;
    BOOST_CHECK(
        make_with(binary, three, "auto")->kernel_variant().find("three smallest") !=
        std::string::npos);
    three.llr_scale = 16.0f;
    BOOST_CHECK(make_with(binary, three, "auto")->kernel_variant().empty());
    // entry 15 of the table is 1 at llr_scale 6.25 (the shuffle reads it for
    // every larger index)
    three.llr_scale = 6.25f;
    BOOST_CHECK(make_with(binary, three, "auto")->kernel_variant().empty());
    three.llr_scale = 6.0f;
    BOOST_CHECK(!make_with(binary, three, "auto")->kernel_variant().empty());
    three.min_sum_magnitude = min_sum_magnitude_rule::smallest;
    BOOST_CHECK(!make_with(binary, three, "auto")->kernel_variant().empty());
    // iteration counts in 16-bit lanes
    decoder_config many = int8_min_sum(decoder_schedule::flooding);
    many.max_iterations = 40000;
    BOOST_CHECK(make_with(binary, many, "auto")->kernel_variant().empty());
    // the default takes the best target
    auto best = make_with(binary, int8_min_sum(decoder_schedule::layered), "auto");
    BOOST_CHECK(best->kernel_variant().find(detail::simd_targets().front()) !=
                std::string::npos);
    try {
        make_with(binary, int8_min_sum(decoder_schedule::layered), "NO_SUCH_SET");
        BOOST_FAIL("an unknown target was taken");
    } catch (const std::invalid_argument& e) {
        const std::string msg = e.what();
        BOOST_CHECK(msg.find("NO_SUCH_SET") != std::string::npos);
        BOOST_CHECK(msg.find(detail::simd_targets().front()) != std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(float_min_sum_equals_the_reference_frame_for_frame)
{
    const std::vector<code_case> cases = {
        { "regular_3_6_n1008_gf2", 1.7, 1.9 },
        { "wifi:1944:1/2", 1.3, 1.6 },
        { "dvbs2:1/2:short", 0.9, 1.6 },
        { "nr:1:32", 0.6, 0.8 },
    };
    for (const auto& target : detail::simd_targets())
        for (const auto& c : cases) {
            auto code = load(c.name);
            for (auto schedule :
                 { decoder_schedule::layered, decoder_schedule::flooding }) {
                decoder_config cfg = int8_min_sum(schedule);
                cfg.messages = message_precision::fp32;
                auto simd = make_with(code, cfg, target);
                auto ref = make_with(code, cfg, "off");
                const std::string what = c.name + ", " + simd->kernel_variant();
                BOOST_REQUIRE(simd->kernel_variant().find("float min-sum") !=
                              std::string::npos);
                const size_t frames = 35;
                auto batch = qa::make_batch(*code,
                                            frames,
                                            schedule == decoder_schedule::layered
                                                ? c.layered_ebn0
                                                : c.flooding_ebn0,
                                            29);
                batch.llr[7] = std::numeric_limits<float>::quiet_NaN();
                const size_t failed = require_equal(
                    run(*simd, batch.llr, frames), run(*ref, batch.llr, frames), what);
                BOOST_TEST_MESSAGE(what << ": " << failed << " of " << frames
                                        << " frames failed");
                BOOST_CHECK_LT(failed, frames);
            }
        }
}

BOOST_AUTO_TEST_CASE(float_sum_product_agrees_with_the_reference_within_statistics)
{
    // single precision and a phi table against double precision: the same
    // decisions but where the difference tips a frame near the threshold; the
    // failure counts within 4 standard
    // deviations of the difference of two binomial counts at the reference's
    // rate, and frames that both decode are the same codeword
    const std::vector<code_case> cases = {
        { "regular_3_6_n1008_gf2", 1.8, 2.0 },
        { "wifi:1944:1/2", 1.3, 1.5 },
        { "dvbs2:1/2:short", 0.95, 1.4 },
    };
    const auto targets = detail::simd_targets();
    for (const auto& c : cases) {
        auto code = load(c.name);
        for (auto schedule : { decoder_schedule::layered, decoder_schedule::flooding }) {
            decoder_config cfg;
            cfg.algorithm = decoder_algorithm::sum_product;
            cfg.schedule = schedule;
            cfg.max_iterations = 20;
            cfg.threads = 2;
            const size_t frames = code->n() > 10000 ? 64 : 240;
            auto batch = qa::make_batch(
                *code,
                frames,
                schedule == decoder_schedule::layered ? c.layered_ebn0 : c.flooding_ebn0,
                31);
            const auto expected = run(*make_with(code, cfg, "off"), batch.llr, frames);
            for (const auto& target : { targets.front(), targets.back() }) {
                auto simd = make_with(code, cfg, target);
                const std::string what = c.name + ", " + simd->kernel_variant();
                BOOST_REQUIRE(simd->kernel_variant().find("float sum-product") !=
                              std::string::npos);
                check_within_statistics(run(*simd, batch.llr, frames),
                                        expected,
                                        simd->info_bytes_per_frame(),
                                        what);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(fft_bp_agrees_with_the_reference_within_statistics)
{
    // Highway's exp and log against the C library's: the same decisions but
    // where rounding tips a frame near the threshold; failure counts within 4
    // standard deviations of the difference of two binomial counts at the
    // reference's rate, frames both decode the same codeword, every input
    // path (bit LLRs with bad values, symbol log-likelihoods, 8-bit) and
    // several threads
    const std::vector<code_case> cases = {
        { "regular_2_4_n256_gf4", 2.0, 2.2 },
        { "regular_2_4_n128_gf16", 1.3, 1.5 },
        { "regular_2_4_n96_gf64", 1.2, 1.4 },
        { "regular_2_4_n64_gf256", 1.2, 1.4 },
    };
    const auto targets = detail::simd_targets();
    for (const auto& c : cases) {
        auto code = load(c.name);
        for (auto schedule : { decoder_schedule::layered, decoder_schedule::flooding }) {
            decoder_config cfg;
            cfg.algorithm = decoder_algorithm::fft_bp;
            cfg.schedule = schedule;
            cfg.max_iterations = 20;
            cfg.threads = 2;
            const size_t frames = 200;
            auto batch = qa::make_batch(
                *code,
                frames,
                schedule == decoder_schedule::layered ? c.layered_ebn0 : c.flooding_ebn0,
                37);
            batch.llr[5] = std::numeric_limits<float>::quiet_NaN();
            batch.llr[batch.llr.size() / 2] = std::numeric_limits<float>::infinity();
            const auto expected = run(*make_with(code, cfg, "off"), batch.llr, frames);
            for (const auto& target : { targets.front(), targets.back() }) {
                auto simd = make_with(code, cfg, target);
                const std::string what = c.name + ", " + simd->kernel_variant();
                BOOST_REQUIRE(simd->kernel_variant().find("FFT-BP") != std::string::npos);
                const auto got = run(*simd, batch.llr, frames);
                for (size_t f = 0; f < frames; ++f) {
                    BOOST_REQUIRE_EQUAL(got.status[f].invalid_inputs,
                                        expected.status[f].invalid_inputs);
                    BOOST_REQUIRE_EQUAL(got.status[f].converged,
                                        got.status[f].syndrome_weight == 0);
                }
                const size_t same_iterations = check_within_statistics(
                    got, expected, simd->info_bytes_per_frame(), what);
                // rounding moves few frames by an iteration
                BOOST_CHECK_GE(same_iterations * 10, frames * 8);
            }
            // symbol log-likelihoods and 8-bit input take the same paths as
            // the reference's: equal decisions where both converge
            auto simd = make_with(code, cfg, "auto");
            auto ref = make_with(code, cfg, "off");
            const unsigned q = code->q(), m = code->bits_per_symbol();
            const size_t nt = code->n_transmitted();
            std::vector<float> symbol_ll(frames * nt * q);
            for (size_t i = 0; i < frames * nt; ++i)
                for (unsigned x = 0; x < q; ++x) {
                    float sum = 0.0f; // log P(x), up to a constant: -L/2 per 1 bit
                    for (unsigned b = 0; b < m; ++b) {
                        const float l = batch.llr[i * m + b];
                        const bool one = (x >> (m - 1 - b)) & 1;
                        sum += std::isfinite(l) ? (one ? l : -l) * 0.5f : 0.0f;
                    }
                    symbol_ll[i * q + x] = sum;
                }
            std::vector<int8_t> llr8(batch.llr.size());
            for (size_t i = 0; i < llr8.size(); ++i)
                llr8[i] =
                    int8_t(std::isfinite(batch.llr[i])
                               ? std::clamp(std::lround(batch.llr[i] * 4.0f), -127L, 127L)
                               : 0);
            const size_t nb = simd->info_bytes_per_frame();
            for (int path = 0; path < 2; ++path) {
                decoded a, b;
                for (auto* d : { &a, &b }) {
                    d->bits.resize(frames * nb);
                    d->status.resize(frames);
                }
                if (path == 0) {
                    simd->decode_symbol_llr(
                        symbol_ll.data(), frames, a.bits.data(), a.status.data());
                    ref->decode_symbol_llr(
                        symbol_ll.data(), frames, b.bits.data(), b.status.data());
                } else {
                    simd->decode_int8(
                        llr8.data(), frames, a.bits.data(), a.status.data());
                    ref->decode_int8(llr8.data(), frames, b.bits.data(), b.status.data());
                }
                size_t both = 0;
                for (size_t f = 0; f < frames; ++f)
                    if (a.status[f].converged && b.status[f].converged) {
                        ++both;
                        BOOST_REQUIRE_MESSAGE(
                            std::equal(
                                &a.bits[f * nb], &a.bits[(f + 1) * nb], &b.bits[f * nb]),
                            c.name << ": input path " << path << ", frame " << f);
                    }
                BOOST_CHECK_GT(both, frames / 2);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(fft_bp_at_high_snr_and_with_saturated_inputs)
{
    // strong and clipped LLRs (a probability ratio far below the floor of
    // the probability domain), a few of them wrong: every frame decodes, as
    // the reference decodes it
    auto code = load("regular_2_4_n96_gf64");
    for (auto schedule : { decoder_schedule::layered, decoder_schedule::flooding }) {
        decoder_config cfg;
        cfg.algorithm = decoder_algorithm::fft_bp;
        cfg.schedule = schedule;
        cfg.max_iterations = 20;
        const size_t frames = 40;
        // noiseless: every LLR +-8 before the changes below
        auto batch =
            qa::make_batch(*code, frames, std::numeric_limits<double>::infinity(), 41);
        for (size_t i = 0; i < batch.llr.size(); ++i)
            if (i % 3 == 0)
                batch.llr[i] *= 1e4f;       // clipped to max_input_magnitude
        for (size_t f = 0; f < frames; ++f) // two bits of each frame wrong, weakly
            for (size_t at : { 3 * (f % 13) + 1, 3 * (f % 29) + 200 })
                batch.llr[f * code->n() * 6 + at] *= -0.05f;
        const auto ref = run(*make_with(code, cfg, "off"), batch.llr, frames);
        const auto got = run(*make_with(code, cfg, "auto"), batch.llr, frames);
        for (size_t f = 0; f < frames; ++f) {
            BOOST_CHECK(ref.status[f].converged);
            BOOST_CHECK(got.status[f].converged);
        }
        BOOST_CHECK(got.bits == ref.bits);
        BOOST_CHECK(got.bits == batch.info_bits);
    }
}

BOOST_AUTO_TEST_CASE(fft_bp_error_rate_at_50_iterations)
{
    // long decodes near the floor of the waterfall, where a variable's
    // messages saturate: the failure counts of many frames within 4 standard
    // deviations of the difference of two binomial counts (a decoder that
    // loses information to its probability floor fails several times as
    // often here)
    auto code = load("regular_2_4_n96_gf64");
    for (auto schedule : { decoder_schedule::layered, decoder_schedule::flooding }) {
        decoder_config cfg;
        cfg.algorithm = decoder_algorithm::fft_bp;
        cfg.schedule = schedule;
        cfg.max_iterations = 50;
        cfg.threads = 2;
        const size_t frames = 2000;
        auto batch = qa::make_batch(*code, frames, 2.0, 43);
        auto simd = make_with(code, cfg, "auto");
        check_within_statistics(run(*simd, batch.llr, frames),
                                run(*make_with(code, cfg, "off"), batch.llr, frames),
                                simd->info_bytes_per_frame(),
                                to_string(schedule) + ", 50 iterations");
    }
}

BOOST_AUTO_TEST_CASE(small_calls_under_avx512_take_avx2)
{
    // a call that leaves threads without a group of AVX-512's lanes runs
    // AVX2's kernel, whose results are the same (8-bit min-sum, FFT-BP)
    const auto targets = detail::simd_targets();
    if (std::find(targets.begin(), targets.end(), "AVX3") == targets.end() ||
        std::find(targets.begin(), targets.end(), "AVX2") == targets.end()) {
        BOOST_TEST_MESSAGE("no AVX3 and AVX2 targets on this CPU: nothing to compare");
        return;
    }
    struct with_code {
        std::string name;
        decoder_config cfg;
        double ebn0;
    };
    decoder_config fft;
    fft.algorithm = decoder_algorithm::fft_bp;
    fft.max_iterations = 20;
    std::vector<with_code> cases = {
        { "wifi:1944:1/2", int8_min_sum(decoder_schedule::layered), 1.3 },
        { "regular_2_4_n96_gf64", fft, 1.4 },
    };
    for (auto& c : cases) {
        auto code = load(c.name);
        c.cfg.threads = 4;
        auto simd = make_with(code, c.cfg, "AVX3");
        BOOST_TEST_MESSAGE(simd->kernel_variant());
        BOOST_CHECK(simd->kernel_variant().find("; AVX2 (") != std::string::npos);
        const size_t frames = 40; // fewer than a group for each thread
        auto batch = qa::make_batch(*code, frames, c.ebn0, 47);
        const auto small = run(*simd, batch.llr, frames);
        const auto narrow = run(*make_with(code, c.cfg, "AVX2"), batch.llr, frames);
        require_equal(small, narrow, c.name + " AVX3 small call against AVX2");
    }
}

// A caller's bound cut to whole rounds of groups where the last round would
// be mostly idle, else left as it is
BOOST_AUTO_TEST_CASE(whole_round_batches)
{
    // the rule on kernels of 32 and 16 lanes (AVX3, AVX2) and 16 workers
    struct lanes_only {
        size_t lanes;
    };
    const std::array<lanes_only, 2> wide_narrow{ { { 32 }, { 16 } } };
    const auto cut = [&](size_t frames) {
        return detail::whole_round_frames(wide_narrow, frames, 16);
    };
    BOOST_CHECK_EQUAL(cut(258), 256u);   // 17 narrow groups: two rounds, then one
    BOOST_CHECK_EQUAL(cut(400), 400u);   // 25 groups: the second round 9/16 full
    BOOST_CHECK_EQUAL(cut(517), 512u);   // the wide kernel's round
    BOOST_CHECK_EQUAL(cut(1100), 1024u); // two wide rounds and 76 frames
    BOOST_CHECK_EQUAL(cut(255), 255u);   // one round
    BOOST_CHECK_EQUAL(cut(1), 1u);
    BOOST_CHECK_EQUAL(cut(0), 0u);

    // the decoders: the reference leaves any batch; a SIMD decoder's
    // preferred batch (a group on each thread) is one round
    auto code = load("regular_3_6_n96_gf2");
    decoder_config cfg = int8_min_sum(decoder_schedule::layered);
    cfg.threads = 3;
    BOOST_CHECK_EQUAL(make_with(code, cfg, "off")->whole_round_batch(1001), 1001u);
    decoder_config fft;
    fft.algorithm = decoder_algorithm::fft_bp;
    fft.threads = 3;
    for (const auto& target : detail::simd_targets())
        for (const auto& dec : { make_with(code, cfg, target),
                                 make_with(load("regular_2_4_n96_gf64"), fft, target) }) {
            BOOST_TEST_CONTEXT(target << ", " << dec->kernel_variant())
            {
                const size_t p = dec->preferred_batch();
                BOOST_REQUIRE_GT(p, 0u);
                BOOST_CHECK_EQUAL(dec->whole_round_batch(p), p);
                BOOST_CHECK_EQUAL(dec->whole_round_batch(p + 1), p);
                BOOST_CHECK_EQUAL(dec->whole_round_batch(3 * p / 2), 3 * p / 2);
                BOOST_CHECK_EQUAL(dec->whole_round_batch(1), 1u);
            }
        }
}
