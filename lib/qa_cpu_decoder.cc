/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "qa_helpers.h"
#include <gnuradio/gpuldpc/engine/bits.h>
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/device.h>
#include <gnuradio/gpuldpc/engine/soft_demapper.h>
#include <dirent.h>
#include <boost/test/unit_test.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <thread>

using namespace gr::gpuldpc;

namespace {

using qa::make_batch;
using qa::noisy_batch;

std::vector<decoder_algorithm> algorithms_for(unsigned q)
{
    if (q == 2)
        return { decoder_algorithm::sum_product,
                 decoder_algorithm::min_sum,
                 decoder_algorithm::fft_bp,
                 decoder_algorithm::log_fft_bp };
    return { decoder_algorithm::fft_bp, decoder_algorithm::log_fft_bp };
}

ldpc_code::sptr test_code(unsigned q)
{
    // about 500 bits per frame
    const unsigned n = q == 2 ? 504 : 512 / (q == 4 ? 2 : q == 16 ? 4 : q == 64 ? 6 : 8);
    return std::make_shared<ldpc_code>(
        q == 2 ? construct_regular_code(n, 3, 6, 2, 5)
               : construct_regular_code(n - n % 2, 2, 4, q, 5));
}

} // namespace

BOOST_AUTO_TEST_CASE(noiseless_and_high_snr_frames_decode)
{
    for (unsigned q : { 2u, 4u, 16u, 64u, 256u }) {
        const auto code = test_code(q);
        const auto clean = make_batch(*code, 4, INFINITY, 1);
        const auto noisy = make_batch(*code, 6, q == 2 ? 5.0 : 4.0, 2);
        for (auto alg : algorithms_for(q))
            for (auto sched : { decoder_schedule::flooding, decoder_schedule::layered }) {
                decoder_config cfg;
                cfg.algorithm = alg;
                cfg.schedule = sched;
                cfg.max_iterations = 30;
                cfg.threads = 2;
                auto dec = batch_decoder::make(code, cfg);
                BOOST_TEST_CONTEXT("q=" << q << " " << to_string(alg) << " "
                                        << to_string(sched))
                {
                    std::vector<uint8_t> bits(clean.info_bits.size());
                    std::vector<frame_status> st(4);
                    dec->decode(clean.llr.data(), 4, bits.data(), st.data());
                    BOOST_CHECK(bits == clean.info_bits);
                    for (const auto& s : st) {
                        BOOST_CHECK(s.converged);
                        BOOST_CHECK_EQUAL(s.iterations, 0u); // already a codeword
                        BOOST_CHECK_EQUAL(s.syndrome_weight, 0u);
                    }
                    std::vector<uint8_t> nbits(noisy.info_bits.size());
                    std::vector<frame_status> nst(6);
                    dec->decode(noisy.llr.data(), 6, nbits.data(), nst.data());
                    BOOST_CHECK(nbits == noisy.info_bits);
                    for (const auto& s : nst)
                        BOOST_CHECK(s.converged);
                }
            }
    }
}

BOOST_AUTO_TEST_CASE(iteration_limit_is_honoured_exactly)
{
    const auto code = test_code(16);
    const auto noisy = make_batch(*code, 3, 4.0, 3);
    for (auto sched : { decoder_schedule::flooding, decoder_schedule::layered }) {
        decoder_config cfg;
        cfg.schedule = sched;
        cfg.max_iterations = 7;
        cfg.early_termination = false;
        auto dec = batch_decoder::make(code, cfg);
        std::vector<uint8_t> bits(noisy.info_bits.size());
        std::vector<frame_status> st(3);
        dec->decode(noisy.llr.data(), 3, bits.data(), st.data());
        for (const auto& s : st) {
            BOOST_CHECK_EQUAL(s.iterations, 7u);
            BOOST_CHECK(s.converged);
        }
        BOOST_CHECK(bits == noisy.info_bits);
    }
    // a hopeless frame runs to the limit and reports failure
    decoder_config cfg;
    cfg.max_iterations = 5;
    auto dec = batch_decoder::make(code, cfg);
    std::mt19937 rng(4);
    std::normal_distribution<float> junk(0.0f, 1.0f);
    std::vector<float> llr(dec->llr_per_frame());
    for (auto& v : llr)
        v = junk(rng);
    std::vector<uint8_t> bits(dec->info_bits_per_frame());
    frame_status st;
    dec->decode(llr.data(), 1, bits.data(), &st);
    BOOST_CHECK_EQUAL(st.iterations, 5u);
    BOOST_CHECK(!st.converged);
    BOOST_CHECK_GT(st.syndrome_weight, 0u);
}

BOOST_AUTO_TEST_CASE(batch_equals_frames_one_by_one)
{
    for (unsigned q : { 2u, 64u }) {
        const auto code = test_code(q);
        // low SNR: a mix of converging and failing frames
        const size_t frames = 24;
        const auto noisy = make_batch(*code, frames, q == 2 ? 1.5 : 1.0, 5);
        for (auto sched : { decoder_schedule::flooding, decoder_schedule::layered }) {
            decoder_config cfg;
            cfg.schedule = sched;
            cfg.max_iterations = 20;
            cfg.threads = 3;
            auto batch = batch_decoder::make(code, cfg);
            cfg.threads = 1;
            auto single = batch_decoder::make(code, cfg);
            const size_t nb = batch->info_bits_per_frame(), nl = batch->llr_per_frame();
            const size_t ncw = size_t(code->n()) * code->bits_per_symbol();
            std::vector<uint8_t> bits(frames * nb), cw(frames * ncw);
            std::vector<frame_status> st(frames);
            batch->decode(noisy.llr.data(), frames, bits.data(), st.data(), cw.data());
            unsigned failures = 0;
            for (size_t f = 0; f < frames; ++f) {
                std::vector<uint8_t> b1(nb), c1(ncw);
                frame_status s1;
                single->decode(&noisy.llr[f * nl], 1, b1.data(), &s1, c1.data());
                BOOST_CHECK(std::equal(b1.begin(), b1.end(), bits.begin() + f * nb));
                BOOST_CHECK(std::equal(c1.begin(), c1.end(), cw.begin() + f * ncw));
                BOOST_CHECK_EQUAL(s1.iterations, st[f].iterations);
                BOOST_CHECK_EQUAL(s1.converged, st[f].converged);
                BOOST_CHECK_EQUAL(s1.syndrome_weight, st[f].syndrome_weight);
                failures += !st[f].converged;
            }
            // the comparison means something only if frames differ in outcome
            BOOST_CHECK_GT(failures, 0u);
            BOOST_CHECK_LT(failures, frames);
        }
    }
}

BOOST_AUTO_TEST_CASE(outstanding_batches_give_the_results_of_decode)
{
    const auto code = test_code(64);
    const size_t frames = 5;
    const auto noisy = make_batch(*code, 3 * frames, 1.2, 8);
    decoder_config cfg;
    cfg.max_iterations = 10;
    auto d = batch_decoder::make(code, cfg);
    qa::check_outstanding_batches(*d, noisy.llr, frames);
}

namespace {

// Threads of this process, from /proc (Linux).
size_t process_threads()
{
    size_t n = 0;
    if (DIR* d = opendir("/proc/self/task")) {
        while (const dirent* e = readdir(d))
            n += e->d_name[0] != '.';
        closedir(d);
    }
    return n;
}

// process_threads() once it is at most \p expected, or after 2 s: a joined
// thread leaves /proc a moment after pthread_join() returns (the kernel wakes
// the joiner before it reaps the task), which a loaded machine stretches
size_t process_threads_settled(size_t expected)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    size_t n = process_threads();
    while (n > expected && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        n = process_threads();
    }
    return n;
}

} // namespace

BOOST_AUTO_TEST_CASE(worker_threads_live_with_the_decoder)
{
    const auto code = test_code(2);
    decoder_config cfg;
    cfg.threads = 4;
    auto dec = batch_decoder::make(code, cfg);
    // work for every thread: a frame each (the reference), a group of SIMD
    // lanes each (preferred_batch())
    const size_t frames = std::max<size_t>(8, dec->preferred_batch());
    const auto noisy = make_batch(*code, frames, 4.0, 6);
    std::vector<uint8_t> bits(frames * dec->info_bits_per_frame());
    std::vector<frame_status> st(frames);

    // one-frame calls (FECAPI) use one workspace and start no thread
    const size_t base = process_threads();
    for (int i = 0; i < 3; ++i)
        dec->decode(noisy.llr.data(), 1, bits.data(), st.data());
    BOOST_CHECK_EQUAL(dec->workspaces(), 1u);
    BOOST_CHECK_EQUAL(process_threads(), base);

    // a batch starts the workers once; later calls reuse them
    dec->decode(noisy.llr.data(), frames, bits.data(), st.data());
    BOOST_CHECK_EQUAL(dec->workspaces(), 4u);
    const size_t with_workers = process_threads();
    BOOST_CHECK_EQUAL(with_workers, base + 3);
    for (int i = 0; i < 20; ++i)
        dec->decode(noisy.llr.data(), frames, bits.data(), st.data());
    BOOST_CHECK_EQUAL(process_threads(), with_workers);
    BOOST_CHECK_EQUAL(dec->workspaces(), 4u);
    for (size_t f = 0; f < frames; ++f)
        BOOST_CHECK(st[f].converged);
    BOOST_CHECK(std::equal(noisy.info_bits.begin(), noisy.info_bits.end(), bits.begin()));
    dec.reset();
    BOOST_CHECK_EQUAL(process_threads_settled(base), base);
}

BOOST_AUTO_TEST_CASE(calls_from_several_threads_are_safe)
{
    const auto code = test_code(16);
    const size_t frames = 12;
    decoder_config cfg;
    cfg.threads = 2;
    cfg.max_iterations = 20;
    auto dec = batch_decoder::make(code, cfg);
    const size_t nb = dec->info_bits_per_frame();
    // each caller its own low-SNR frames; the answer is the one of a lone call
    std::vector<noisy_batch> inputs;
    std::vector<std::vector<uint8_t>> expected(4), got(4);
    std::vector<std::vector<frame_status>> expected_st(4), got_st(4);
    for (int c = 0; c < 4; ++c) {
        inputs.push_back(make_batch(*code, frames, 1.5, 20 + c));
        expected[c].resize(frames * nb);
        expected_st[c].resize(frames);
        dec->decode(
            inputs[c].llr.data(), frames, expected[c].data(), expected_st[c].data());
        got[c].resize(frames * nb);
        got_st[c].resize(frames);
    }
    std::vector<std::thread> callers;
    for (int c = 0; c < 4; ++c)
        callers.emplace_back([&, c] {
            for (int r = 0; r < 5; ++r)
                dec->decode(
                    inputs[c].llr.data(), frames, got[c].data(), got_st[c].data());
        });
    for (auto& t : callers)
        t.join();
    for (int c = 0; c < 4; ++c) {
        BOOST_CHECK(got[c] == expected[c]);
        for (size_t f = 0; f < frames; ++f)
            BOOST_CHECK_EQUAL(got_st[c][f].iterations, expected_st[c][f].iterations);
    }
}

BOOST_AUTO_TEST_CASE(sign_option_nan_and_inf)
{
    const auto code = test_code(16);
    const auto noisy = make_batch(*code, 3, 4.0, 6);
    decoder_config cfg;
    auto dec = batch_decoder::make(code, cfg);
    cfg.flip_llr_sign = true;
    auto flipped = batch_decoder::make(code, cfg);
    const size_t nb = dec->info_bits_per_frame(), nl = dec->llr_per_frame();

    std::vector<float> neg(noisy.llr);
    for (auto& v : neg)
        v = -v;
    std::vector<uint8_t> bits(3 * nb);
    std::vector<frame_status> st(3);
    flipped->decode(neg.data(), 3, bits.data(), st.data());
    BOOST_CHECK(bits == noisy.info_bits);
    dec->decode(neg.data(), 3, bits.data(), st.data());
    BOOST_CHECK(bits != noisy.info_bits); // the wrong convention does not decode

    // frame 1 gets NaN and Inf; frames 0 and 2 must come out as if alone
    std::vector<float> bad(noisy.llr);
    bad[nl + 3] = std::numeric_limits<float>::quiet_NaN();
    bad[nl + 10] = std::numeric_limits<float>::infinity();
    bad[nl + 11] = -std::numeric_limits<float>::infinity();
    bad[nl + 12] = std::numeric_limits<float>::quiet_NaN();
    dec->decode(bad.data(), 3, bits.data(), st.data());
    BOOST_CHECK_EQUAL(st[0].invalid_inputs, 0u);
    BOOST_CHECK_EQUAL(st[1].invalid_inputs, 4u);
    BOOST_CHECK_EQUAL(st[2].invalid_inputs, 0u);
    BOOST_CHECK(bits == noisy.info_bits); // a few erased bits do not hurt at 4 dB
    for (const auto& s : st)
        BOOST_CHECK(s.converged);
    // an all-NaN frame gives up cleanly
    std::vector<float> all_nan(nl, std::numeric_limits<float>::quiet_NaN());
    frame_status s;
    dec->decode(all_nan.data(), 1, bits.data(), &s);
    BOOST_CHECK_EQUAL(s.invalid_inputs, nl);
}

BOOST_AUTO_TEST_CASE(symbol_likelihood_input)
{
    for (unsigned q : { 2u, 16u }) {
        const auto code = test_code(q);
        const unsigned m = code->bits_per_symbol();
        const auto noisy = make_batch(*code, 4, 4.0, 7);
        auto dec = batch_decoder::make(code, {});
        // symbol log-likelihoods from the bit LLRs: sum of log P(bit)
        std::vector<float> ll(4 * size_t(code->n()) * q);
        for (size_t s = 0; s < 4 * size_t(code->n()); ++s)
            for (unsigned x = 0; x < q; ++x) {
                double acc = 0.0;
                for (unsigned b = 0; b < m; ++b) {
                    const double l = noisy.llr[s * m + b]; // log(P1/P0)
                    const bool one = (x >> (m - 1 - b)) & 1;
                    acc += -std::log1p(std::exp(one ? -l : l));
                }
                ll[s * q + x] = float(acc);
            }
        std::vector<uint8_t> bits(noisy.info_bits.size());
        std::vector<frame_status> st(4);
        dec->decode_symbol_llr(ll.data(), 4, bits.data(), st.data());
        BOOST_CHECK(bits == noisy.info_bits);
    }
}

BOOST_AUTO_TEST_CASE(bad_configuration_is_rejected)
{
    const auto gf = test_code(16);
    decoder_config cfg;
    cfg.algorithm = decoder_algorithm::min_sum;
    BOOST_CHECK_THROW(batch_decoder::make(gf, cfg), std::invalid_argument);
    cfg = {};
    cfg.max_iterations = 0;
    BOOST_CHECK_THROW(batch_decoder::make(gf, cfg), std::invalid_argument);
    cfg = {};
    cfg.min_sum_scale = 1.5f;
    BOOST_CHECK_THROW(batch_decoder::make(gf, cfg), std::invalid_argument);
    if (cuda_devices().empty())
        BOOST_CHECK_THROW(batch_decoder::make(gf, {}, "cuda"), std::runtime_error);
    BOOST_CHECK_THROW(batch_decoder::make(gf, {}, "tpu"), std::invalid_argument);
    BOOST_CHECK_THROW(parse_decoder_algorithm("bp"), std::invalid_argument);
    BOOST_CHECK_THROW(parse_decoder_schedule("serial"), std::invalid_argument);
    BOOST_CHECK(batch_decoder::make(test_code(2), {})->algorithm() ==
                decoder_algorithm::sum_product);
    BOOST_CHECK(batch_decoder::make(gf, {})->algorithm() == decoder_algorithm::fft_bp);
    BOOST_CHECK_THROW(parse_message_precision("fp8"), std::invalid_argument);
    cfg = {};
    cfg.algorithm = decoder_algorithm::log_fft_bp;
    cfg.messages = message_precision::fp16;
    BOOST_CHECK_THROW(batch_decoder::make(gf, cfg), std::invalid_argument);
}

// Half precision as IEEE 754 binary16 rounds: 10 fraction bits, ties to even,
// subnormals in steps of 2^-24 below 2^-14, infinity from 65520 on.
BOOST_AUTO_TEST_CASE(round_to_half_is_binary16_rounding)
{
    const float ulp1 = std::ldexp(1.0f, -10); // spacing of halves in [1, 2)
    BOOST_CHECK_EQUAL(round_to_half(1.0f), 1.0f);
    BOOST_CHECK_EQUAL(round_to_half(0.0f), 0.0f);
    BOOST_CHECK(std::signbit(round_to_half(-0.0f)));
    BOOST_CHECK_EQUAL(round_to_half(1.0f + 0.5f * ulp1), 1.0f);            // tie: even
    BOOST_CHECK_EQUAL(round_to_half(1.0f + 1.5f * ulp1), 1.0f + 2 * ulp1); // tie: even
    BOOST_CHECK_EQUAL(round_to_half(1.0f + 0.51f * ulp1), 1.0f + ulp1);
    BOOST_CHECK_EQUAL(round_to_half(-30.0f), -30.0f);
    BOOST_CHECK_EQUAL(round_to_half(-29.99f), -29.984375f); // spacing 2^-6 in [16, 32)
    BOOST_CHECK_EQUAL(round_to_half(2047.5f), 2048.0f);     // carry into the exponent
    BOOST_CHECK_EQUAL(round_to_half(65504.0f), 65504.0f);
    BOOST_CHECK_EQUAL(round_to_half(65519.0f), 65504.0f);
    BOOST_CHECK(std::isinf(round_to_half(65520.0f)));
    BOOST_CHECK_EQUAL(round_to_half(std::ldexp(3.0f, -26)), std::ldexp(1.0f, -24));
    BOOST_CHECK_EQUAL(round_to_half(std::ldexp(1.0f, -25)), 0.0f); // tie: even (0)
    BOOST_CHECK_EQUAL(round_to_half(std::ldexp(3.0f, -25)), std::ldexp(1.0f, -23));
    BOOST_CHECK(std::isnan(round_to_half(std::numeric_limits<float>::quiet_NaN())));
    // every value in [-32, 0] a message can take lands on a half within half
    // a spacing and is a fixed point
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(-32.0f, 0.0f);
    for (int i = 0; i < 100000; ++i) {
        const float x = u(rng), r = round_to_half(x);
        const int e = std::ilogb(std::max(std::fabs(x), std::ldexp(1.0f, -14)));
        BOOST_REQUIRE_LE(std::fabs(r - x), std::ldexp(1.0f, e - 11));
        BOOST_REQUIRE_EQUAL(round_to_half(r), r);
    }
}

// fp16 messages: the same decoder with each check-to-variable message rounded
// to half precision decodes as well as fp32 at a high SNR
BOOST_AUTO_TEST_CASE(fp16_messages_decode)
{
    for (unsigned q : { 4u, 64u }) {
        const auto code = test_code(q);
        const size_t frames = 64;
        const auto noisy = make_batch(*code, frames, 3.0, 21);
        for (auto sched : { decoder_schedule::flooding, decoder_schedule::layered }) {
            decoder_config cfg;
            cfg.schedule = sched;
            cfg.max_iterations = 20;
            cfg.messages = message_precision::fp16;
            auto dec = batch_decoder::make(code, cfg, "cpu");
            BOOST_CHECK(dec->config().messages == message_precision::fp16);
            const size_t nb = dec->info_bits_per_frame();
            std::vector<uint8_t> bits(frames * nb);
            std::vector<frame_status> st(frames);
            dec->decode(noisy.llr.data(), frames, bits.data(), st.data());
            size_t errors = 0;
            for (size_t f = 0; f < frames; ++f)
                errors += !std::equal(bits.begin() + f * nb,
                                      bits.begin() + (f + 1) * nb,
                                      noisy.info_bits.begin() + f * nb);
            BOOST_TEST_MESSAGE("q=" << q << " " << to_string(sched) << ": " << errors
                                    << " frame errors of " << frames);
            BOOST_CHECK_LE(errors, 2u);
        }
    }
}

BOOST_AUTO_TEST_CASE(punctured_columns_are_erasures)
{
    const auto code = qa::punctured_qc_code();
    BOOST_REQUIRE_EQUAL(code->n_transmitted(), 224u);
    const size_t frames = 8;
    const auto clean = make_batch(*code, frames, INFINITY, 3);
    const auto noisy = make_batch(*code, frames, 7.0, 4);
    BOOST_REQUIRE_EQUAL(clean.llr.size(), frames * 224);
    for (auto alg : { decoder_algorithm::sum_product, decoder_algorithm::min_sum })
        for (auto sched : { decoder_schedule::flooding, decoder_schedule::layered }) {
            decoder_config cfg;
            cfg.algorithm = alg;
            cfg.schedule = sched;
            cfg.max_iterations = 30;
            cfg.threads = 2;
            auto dec = batch_decoder::make(code, cfg, "cpu");
            BOOST_TEST_CONTEXT(to_string(alg) << " " << to_string(sched))
            {
                BOOST_CHECK_EQUAL(dec->device_name(), "cpu");
                BOOST_CHECK_EQUAL(dec->llr_per_frame(), 224u);
                for (const auto* b : { &clean, &noisy }) {
                    std::vector<uint8_t> bits(b->info_bits.size());
                    std::vector<frame_status> st(frames);
                    dec->decode(b->llr.data(), frames, bits.data(), st.data());
                    BOOST_CHECK(bits == b->info_bits);
                    for (const auto& s : st) {
                        BOOST_CHECK(s.converged);
                        // the punctured bits are unknown at first: BP recovers them
                        BOOST_CHECK_GE(s.iterations, 1u);
                    }
                }
            }
        }
    // the CUDA fft-bp decoder refuses punctured codes, before any device is
    // looked for
    decoder_config fft;
    fft.algorithm = decoder_algorithm::fft_bp;
    try {
        batch_decoder::make(code, fft, "cuda");
        BOOST_ERROR("device='cuda' took a punctured code");
    } catch (const std::invalid_argument& e) {
        BOOST_CHECK(std::string(e.what()).find("punctures 32 columns") !=
                    std::string::npos);
    }
}

namespace {

struct decoded {
    std::vector<uint8_t> bits;
    std::vector<frame_status> status;
};

decoded run_decoder(batch_decoder& d, const std::vector<float>& llr, size_t frames)
{
    // bytes a decoder leaves unwritten show (packed: the last byte's low bits)
    decoded r{ std::vector<uint8_t>(frames * d.info_bytes_per_frame(), 0xa5),
               std::vector<frame_status>(frames) };
    d.decode(llr.data(), frames, r.bits.data(), r.status.data());
    return r;
}

decoded run_decoder(batch_decoder& d, const std::vector<int8_t>& llr, size_t frames)
{
    // bytes a decoder leaves unwritten show (packed: the last byte's low bits)
    decoded r{ std::vector<uint8_t>(frames * d.info_bytes_per_frame(), 0xa5),
               std::vector<frame_status>(frames) };
    d.decode_int8(llr.data(), frames, r.bits.data(), r.status.data());
    return r;
}

void check_identical(const decoded& a, const decoded& b)
{
    BOOST_CHECK(a.bits == b.bits);
    BOOST_REQUIRE_EQUAL(a.status.size(), b.status.size());
    for (size_t f = 0; f < a.status.size(); ++f) {
        BOOST_CHECK_EQUAL(a.status[f].converged, b.status[f].converged);
        BOOST_CHECK_EQUAL(a.status[f].iterations, b.status[f].iterations);
        BOOST_CHECK_EQUAL(a.status[f].syndrome_weight, b.status[f].syndrome_weight);
        BOOST_CHECK_EQUAL(a.status[f].invalid_inputs, b.status[f].invalid_inputs);
    }
}

} // namespace

BOOST_AUTO_TEST_CASE(packed_info_bits_are_the_decoded_bits_packed)
{
    // q = 2 and 64 hold 252 information bits a frame (frames end mid-byte),
    // q = 4 256; a low SNR gives converged and failed frames alike
    for (unsigned q : { 2u, 4u, 64u }) {
        const auto code = test_code(q);
        const size_t frames = 12;
        const auto noisy = make_batch(*code, frames, q == 2 ? 1.5 : 1.0, 9);
        std::vector<int8_t> llr8(noisy.llr.size());
        for (size_t i = 0; i < llr8.size(); ++i)
            llr8[i] =
                int8_t(std::clamp(std::nearbyint(4.0f * noisy.llr[i]), -127.0f, 127.0f));
        std::vector<std::pair<decoder_algorithm, message_precision>> kinds = {
            { decoder_algorithm::fft_bp, message_precision::fp32 }
        };
        if (q == 2) {
            kinds.push_back({ decoder_algorithm::min_sum, message_precision::fp32 });
            kinds.push_back({ decoder_algorithm::min_sum, message_precision::int8 });
        }
        for (const auto& [alg, messages] : kinds) {
            decoder_config cfg;
            cfg.algorithm = alg;
            cfg.messages = messages;
            cfg.schedule = decoder_schedule::layered;
            cfg.max_iterations = 12;
            cfg.threads = 2;
            auto unpacked = batch_decoder::make(code, cfg);
            cfg.pack_info_bits = true;
            auto packed = batch_decoder::make(code, cfg);
            const size_t nb = unpacked->info_bits_per_frame();
            BOOST_TEST_CONTEXT("q=" << q << " " << to_string(alg) << " "
                                    << to_string(messages))
            {
                BOOST_CHECK_EQUAL(unpacked->info_bytes_per_frame(), nb);
                BOOST_REQUIRE_EQUAL(packed->info_bytes_per_frame(), packed_size(nb));
                if (q != 4)
                    BOOST_REQUIRE_NE(nb % 8, 0u);
                for (bool int8_input : { false, true }) {
                    const auto u = int8_input ? run_decoder(*unpacked, llr8, frames)
                                              : run_decoder(*unpacked, noisy.llr, frames);
                    const auto p = int8_input ? run_decoder(*packed, llr8, frames)
                                              : run_decoder(*packed, noisy.llr, frames);
                    decoded expected{ std::vector<uint8_t>(p.bits.size()), u.status };
                    for (size_t f = 0; f < frames; ++f)
                        pack_bits(&u.bits[f * nb],
                                  nb,
                                  &expected.bits[f * packed->info_bytes_per_frame()]);
                    check_identical(p, expected);
                    size_t failed = 0;
                    for (const auto& st : u.status)
                        failed += !st.converged;
                    BOOST_CHECK_GT(failed, 0u);
                    BOOST_CHECK_LT(failed, frames);
                }
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(packed_info_bits_from_symbols_in_chunks)
{
    // decode_symbols() decodes in chunks of about 2^18 likelihoods (48
    // frames of this code): the packed frames of later chunks at their place
    const auto code = test_code(64);
    const auto points = constellation::make("gpuldpc-64qam");
    const size_t frames = 100, ns = code->n_transmitted();
    std::mt19937 rng(12);
    std::normal_distribution<float> noise(0.0f, 0.2f);
    std::vector<std::complex<float>> symbols(frames * ns);
    for (auto& x : symbols)
        x = points.points()[rng() % 64] + std::complex<float>(noise(rng), noise(rng));
    const std::vector<float> noise_var(frames, 0.08f);
    decoder_config cfg;
    cfg.max_iterations = 5;
    cfg.threads = 2;
    auto unpacked = batch_decoder::make(code, cfg);
    cfg.pack_info_bits = true;
    auto packed = batch_decoder::make(code, cfg);
    const size_t nb = unpacked->info_bits_per_frame(), bytes = packed_size(nb);
    BOOST_REQUIRE_NE(nb % 8, 0u);
    std::vector<uint8_t> u(frames * nb, 0xa5), p(frames * bytes, 0xa5), want(p.size());
    std::vector<frame_status> su(frames), sp(frames);
    unpacked->decode_symbols(
        symbols.data(), frames, points, noise_var.data(), u.data(), su.data());
    packed->decode_symbols(
        symbols.data(), frames, points, noise_var.data(), p.data(), sp.data());
    for (size_t f = 0; f < frames; ++f) {
        pack_bits(&u[f * nb], nb, &want[f * bytes]);
        BOOST_CHECK_EQUAL(sp[f].iterations, su[f].iterations);
        BOOST_CHECK_EQUAL(sp[f].converged, su[f].converged);
    }
    BOOST_CHECK(p == want);
}

BOOST_AUTO_TEST_CASE(int8_min_sum_is_float_min_sum_where_nothing_rounds)
{
    // Offset min-sum with scale 1 on integer LLRs in steps of 1/llr_scale:
    // every value the float decoder makes is a step count well inside +-127,
    // so the fixed-point decoder MUST agree with it on every frame, every
    // iteration count included; flooding and layered.
    const auto code = test_code(2);
    const size_t frames = 40;
    const auto noisy = make_batch(*code, frames, 2.0, 21);
    std::vector<float> grid(noisy.llr.size());
    std::vector<int8_t> steps(noisy.llr.size());
    for (size_t i = 0; i < grid.size(); ++i) {
        const int s = std::clamp(int(std::nearbyint(noisy.llr[i] * 2.0f)), -6, 6);
        steps[i] = int8_t(s);
        grid[i] = float(s) / 2.0f;
    }
    for (auto sched : { decoder_schedule::flooding, decoder_schedule::layered }) {
        decoder_config cfg;
        cfg.algorithm = decoder_algorithm::min_sum;
        cfg.schedule = sched;
        cfg.max_iterations = 12;
        cfg.min_sum_scale = 1.0f;
        cfg.min_sum_offset = 0.5f; // one step
        cfg.min_sum_magnitude = min_sum_magnitude_rule::smallest; // the float rule's
        cfg.llr_scale = 2.0f;
        cfg.threads = 2;
        auto fp = batch_decoder::make(code, cfg);
        cfg.messages = message_precision::int8;
        auto fixed = batch_decoder::make(code, cfg);
        BOOST_TEST_CONTEXT(to_string(sched))
        {
            const auto want = run_decoder(*fp, grid, frames);
            size_t failures = 0, iterated = 0;
            for (const auto& s : want.status) {
                failures += !s.converged;
                iterated += s.iterations > 1;
            }
            // the comparison covers frames that take several iterations
            BOOST_CHECK_GT(iterated, frames / 2);
            BOOST_TEST_MESSAGE(to_string(sched)
                               << ": " << failures << " of " << frames << " frames fail");
            check_identical(run_decoder(*fixed, grid, frames), want);
            check_identical(run_decoder(*fixed, steps, frames), want);
            // the float decoder's int8 entry converts v to v / llr_scale
            check_identical(run_decoder(*fp, steps, frames), want);
        }
    }
}

// 8-bit min-sum on 2 threads (the smallest magnitude, whatever the code)
decoder_config int8_min_sum(decoder_schedule schedule, unsigned iterations)
{
    decoder_config cfg;
    cfg.algorithm = decoder_algorithm::min_sum;
    cfg.messages = message_precision::int8;
    cfg.min_sum_magnitude = min_sum_magnitude_rule::smallest;
    cfg.schedule = schedule;
    cfg.max_iterations = iterations;
    cfg.threads = 2;
    return cfg;
}

BOOST_AUTO_TEST_CASE(int8_min_sum_stays_converged)
{
    // A frame whose decisions satisfy every check keeps them in further
    // iterations: without early termination, at high SNR, the frames that
    // converge with it MUST converge without it to the same bits. A layered
    // belief rebuilt from the saturated input into a check (127 plus the new
    // message, which can be -103) lost the rest of the bit's messages, and
    // the next check took the difference with its own large message as
    // negative: with the (3,6) n = 1008 code at 3 dB, 35 of 64 frames
    // converged by iteration 5 failed at iteration 20.
    const auto code =
        std::make_shared<ldpc_code>(construct_regular_code(1008, 3, 6, 2, 5));
    const size_t frames = 64;
    const auto noisy = make_batch(*code, frames, 3.0, 31);
    for (auto sched : { decoder_schedule::flooding, decoder_schedule::layered }) {
        decoder_config cfg = int8_min_sum(sched, 20);
        BOOST_TEST_CONTEXT(to_string(sched))
        {
            const auto stopped =
                run_decoder(*batch_decoder::make(code, cfg), noisy.llr, frames);
            cfg.early_termination = false;
            const auto went_on =
                run_decoder(*batch_decoder::make(code, cfg), noisy.llr, frames);
            const size_t k = code->k();
            size_t converged = 0, kept = 0;
            for (size_t f = 0; f < frames; ++f) {
                if (!stopped.status[f].converged)
                    continue;
                ++converged;
                kept += went_on.status[f].converged &&
                        std::equal(stopped.bits.begin() + f * k,
                                   stopped.bits.begin() + (f + 1) * k,
                                   went_on.bits.begin() + f * k);
                BOOST_CHECK_EQUAL(went_on.status[f].iterations, 20u);
            }
            BOOST_CHECK_GT(converged, frames * 9 / 10); // 3 dB: nearly all
            BOOST_CHECK_EQUAL(kept, converged);
        }
    }
}

BOOST_AUTO_TEST_CASE(int8_min_sum_decodes_and_saturates)
{
    for (auto sched : { decoder_schedule::flooding, decoder_schedule::layered }) {
        const auto code = test_code(2);
        const decoder_config cfg = int8_min_sum(sched, 30);
        auto dec = batch_decoder::make(code, cfg, "cpu");
        BOOST_CHECK_EQUAL(dec->device_name(), "cpu");
        BOOST_CHECK(dec->config().messages == message_precision::int8);
        BOOST_TEST_CONTEXT(to_string(sched))
        {
            const auto noisy = make_batch(*code, 8, 4.0, 3);
            const auto r = run_decoder(*dec, noisy.llr, 8);
            BOOST_CHECK(r.bits == noisy.info_bits);
            // huge, infinite and NaN values: saturated or erased, counted
            auto wild = make_batch(*code, 2, INFINITY, 4);
            for (size_t i = 0; i < wild.llr.size(); i += 2)
                wild.llr[i] *= 1e6f;
            wild.llr[1] = NAN;
            wild.llr[3] = INFINITY;
            const auto w = run_decoder(*dec, wild.llr, 2);
            BOOST_CHECK(w.bits == wild.info_bits);
            BOOST_CHECK_EQUAL(w.status[0].invalid_inputs, 2u);
            BOOST_CHECK_EQUAL(w.status[1].invalid_inputs, 0u);
            // symbol log-likelihood pairs: each NaN/Inf value erased and counted
            std::vector<float> pairs(2 * noisy.llr.size());
            for (size_t i = 0; i < noisy.llr.size(); ++i)
                pairs[2 * i + 1] = noisy.llr[i];
            pairs[0] = NAN;      // frame 0: one bad value
            pairs[2] = INFINITY; // frame 0: and another
            std::vector<uint8_t> sbits(r.bits.size());
            std::vector<frame_status> sst(8);
            dec->decode_symbol_llr(pairs.data(), 8, sbits.data(), sst.data());
            BOOST_CHECK(sbits == noisy.info_bits);
            BOOST_CHECK_EQUAL(sst[0].invalid_inputs, 2u);
            BOOST_CHECK_EQUAL(sst[1].invalid_inputs, 0u);
            // -128 is -127
            std::vector<int8_t> a(code->n(), -128), b(code->n(), -127);
            check_identical(run_decoder(*dec, a, 1), run_decoder(*dec, b, 1));
            // begin_decode_int8 / end_decode: decode_int8's results; tickets
            // shared with begin_decode
            std::vector<int8_t> steps(noisy.llr.size());
            for (size_t i = 0; i < steps.size(); ++i)
                steps[i] = int8_t(std::clamp(noisy.llr[i] * 4.0f, -127.0f, 127.0f));
            decoded begun{ std::vector<uint8_t>(r.bits.size()),
                           std::vector<frame_status>(8) };
            decoded begun_float = begun;
            const uint64_t t1 = dec->begin_decode_int8(
                steps.data(), 8, begun.bits.data(), begun.status.data());
            const uint64_t t2 = dec->begin_decode(
                noisy.llr.data(), 8, begun_float.bits.data(), begun_float.status.data());
            BOOST_CHECK_THROW(dec->begin_decode_int8(steps.data(), 8, nullptr, nullptr),
                              std::logic_error);
            dec->end_decode(t1);
            dec->end_decode(t2);
            check_identical(begun, run_decoder(*dec, steps, 8));
            check_identical(begun_float, r);
        }
    }
    decoder_config bad;
    bad.algorithm = decoder_algorithm::sum_product;
    bad.messages = message_precision::int8;
    const auto code = test_code(2);
    BOOST_CHECK_THROW(batch_decoder::make(code, bad), std::invalid_argument);
    bad.algorithm = decoder_algorithm::min_sum;
    bad.llr_scale = 0.0f;
    BOOST_CHECK_THROW(batch_decoder::make(code, bad), std::invalid_argument);
    bad.llr_scale = 100.0f;
    BOOST_CHECK_THROW(batch_decoder::make(code, bad), std::invalid_argument);
    BOOST_CHECK(parse_message_precision("int8") == message_precision::int8);
}
