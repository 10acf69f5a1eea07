/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The simulator's frames and their split on the CPU: the counter-based
// generator against its published answers, the Gaussian draws against their
// distribution, codewords of every family valid, counts the same however the
// frames are split.

#define BOOST_TEST_MODULE qa_simulation
#include "common/sim_frame.h"
#include "sim_noise.h"
#include "simulation_worker.h"
#include <gnuradio/gpuldpc/engine/device.h>
#include <gnuradio/gpuldpc/engine/simulation.h>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace gr::gpuldpc;

namespace {

ldpc_code::sptr load(const std::string& name)
{
    return std::make_shared<ldpc_code>(ldpc_code::load(name));
}

// The codes of every family the encoders cover, small enough for a test.
std::vector<std::string> family_codes()
{
    return { "regular_3_6_n96_gf2",
             "regular_2_4_n96_gf64",
             "regular_2_4_n256_gf4",
             "dvbs2:1/2:short",
             "nr:1:16",
             "nr:2:8:9",
             "wifi:648:5/6",
             "wimax:576:2/3A",
             "ar4ja:1024:1/2" };
}

decoder_config int8_min_sum(unsigned iterations)
{
    decoder_config c;
    c.algorithm = decoder_algorithm::min_sum;
    c.messages = message_precision::int8;
    c.max_iterations = iterations;
    c.threads = 2;
    return c;
}

} // namespace

// Random123's known answers for Philox4x32-10 (tests/kat_vectors)
BOOST_AUTO_TEST_CASE(philox_known_answers)
{
    const auto a = sim::philox4x32_10(0, 0, 0, 0, 0, 0);
    BOOST_CHECK_EQUAL(a.w[0], 0x6627e8d5u);
    BOOST_CHECK_EQUAL(a.w[1], 0xe169c58du);
    BOOST_CHECK_EQUAL(a.w[2], 0xbc57ac4cu);
    BOOST_CHECK_EQUAL(a.w[3], 0x9b00dbd8u);
    const uint32_t f = 0xffffffffu;
    const auto b = sim::philox4x32_10(f, f, f, f, f, f);
    BOOST_CHECK_EQUAL(b.w[0], 0x408f276du);
    BOOST_CHECK_EQUAL(b.w[1], 0x41c83b0eu);
    BOOST_CHECK_EQUAL(b.w[2], 0xa20bc7c6u);
    BOOST_CHECK_EQUAL(b.w[3], 0x6d5451fdu);
    const auto c = sim::philox4x32_10(
        0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u, 0x299f31d0u);
    BOOST_CHECK_EQUAL(c.w[0], 0xd16cfe09u);
    BOOST_CHECK_EQUAL(c.w[1], 0x94fdccebu);
    BOOST_CHECK_EQUAL(c.w[2], 0x5001e420u);
    BOOST_CHECK_EQUAL(c.w[3], 0x24126ea1u);
}

// The polynomial logarithm against the library's over the whole range
BOOST_AUTO_TEST_CASE(log_of_uniform_draws)
{
    double worst = 0;
    for (uint64_t x = 0; x < (uint64_t(1) << 32); x += 65521) {
        const double u = double(float(x)) * std::ldexp(1.0, -32) + std::ldexp(1.0, -33);
        const double want = std::log(double(float(u)));
        worst = std::max(worst,
                         std::abs(double(sim::log_uniform(uint32_t(x))) - want) /
                             std::max(1.0, std::abs(want)));
    }
    BOOST_TEST_MESSAGE("largest error of log_uniform: " << worst);
    BOOST_CHECK_LT(worst, 4e-7);
}

// 2^22 noise values: mean, variance, the share beyond 3 and beyond 4 against
// the normal distribution, with bounds of 5 standard errors for that many
// draws
BOOST_AUTO_TEST_CASE(noise_is_standard_normal)
{
    const size_t blocks = size_t(1) << 20, n = 4 * blocks;
    double sum = 0, sum2 = 0;
    size_t beyond3 = 0, beyond4 = 0;
    for (uint32_t b = 0; b < blocks; ++b) {
        float v[4];
        sim::noise_block(7, b / 1024, b % 1024, v);
        for (const float x : v) {
            sum += x;
            sum2 += double(x) * x;
            beyond3 += std::abs(x) > 3.0f;
            beyond4 += std::abs(x) > 4.0f;
        }
    }
    const double mean = sum / n, var = sum2 / n - mean * mean;
    BOOST_CHECK_LT(std::abs(mean), 5.0 / std::sqrt(double(n)));
    // the variance of a sample variance of normal values: 2 / n
    BOOST_CHECK_LT(std::abs(var - 1.0), 5.0 * std::sqrt(2.0 / n));
    const double p3 = 2.6997960632601862e-3, p4 = 6.3342483666239957e-5;
    BOOST_CHECK_LT(std::abs(double(beyond3) - n * p3), 5.0 * std::sqrt(n * p3));
    BOOST_CHECK_LT(std::abs(double(beyond4) - n * p4), 5.0 * std::sqrt(n * p4));
}

// The host's SIMD channel values (sim_noise.cc) are the scalar functions'
// floats, bit for bit: frame indices above 2^32, lengths that end inside a
// noise block and inside a vector, both signs of every bit.
BOOST_AUTO_TEST_CASE(simd_channel_values_equal_the_scalar_ones)
{
    const std::string target = gr::gpuldpc::detail::sim_bpsk_simd_target();
    BOOST_TEST_MESSAGE("SIMD channel values on: " << (target.empty() ? "none" : target));
    std::mt19937 rng(11);
    size_t compared = 0;
    for (const uint64_t seed : { uint64_t(1), uint64_t(0xFFFFFFFF12345678ull) })
        for (const uint64_t frame :
             { uint64_t(0), uint64_t(5), (uint64_t(1) << 32) + 7, ~uint64_t(0) })
            for (const size_t count : { size_t(0),
                                        size_t(1),
                                        size_t(3),
                                        size_t(5),
                                        size_t(33),
                                        size_t(1001),
                                        size_t(64800) })
                for (const float ebn0 : { 0.5f, 6.0f }) {
                    const auto ch = gr::gpuldpc::sim_channel::at(ebn0, 0.5);
                    std::vector<uint8_t> bits(count);
                    for (auto& b : bits)
                        b = uint8_t(rng() & 1);
                    std::vector<float> want(count), got(count + 1, 1234.5f);
                    sim::bpsk_llrs(seed,
                                   frame,
                                   bits.data(),
                                   0,
                                   count,
                                   ch.sigma,
                                   ch.llr_gain,
                                   want.data());
                    gr::gpuldpc::detail::sim_bpsk_job job;
                    job.seed = seed;
                    job.frame = frame;
                    job.sigma = ch.sigma;
                    job.llr_gain = ch.llr_gain;
                    job.bits = bits.data();
                    job.count = count;
                    job.llr = got.data();
                    if (!gr::gpuldpc::detail::sim_bpsk_llrs_simd(job)) {
                        BOOST_CHECK(target.empty());
                        continue;
                    }
                    // (count 0: want.data() may be null, which memcmp may not take)
                    BOOST_REQUIRE_MESSAGE(
                        count == 0 ||
                            std::memcmp(want.data(), got.data(), count * sizeof(float)) ==
                                0,
                        "seed " << seed << " frame " << frame << " count " << count);
                    BOOST_CHECK_EQUAL(got[count], 1234.5f); // nothing past the end
                    compared += count;
                }
    BOOST_TEST_MESSAGE(compared << " channel values compared");
    if (!target.empty())
        BOOST_CHECK_GT(compared, 0u);
}

// Noiseless frames of every family: valid codewords carrying the drawn
// information, LLRs of the codeword's sign; different frames differ
BOOST_AUTO_TEST_CASE(frames_of_every_family_are_codewords)
{
    for (const auto& name : family_codes()) {
        BOOST_TEST_CONTEXT(name)
        {
            auto code = load(name);
            decoder_config cfg;
            cfg.threads = 2;
            auto sim = simulation::make(batch_decoder::make(code, cfg, "cpu"));
            const size_t frames = 3, n = code->n(), k = code->k();
            const unsigned m = code->bits_per_symbol();
            const size_t nl = sim->decoder().llr_per_frame();
            std::vector<uint8_t> info(frames * k), cw(frames * n);
            std::vector<float> llr(frames * nl);
            sim->frames(5,
                        sim_channel::at(12.0, code->rate()),
                        10,
                        1,
                        frames,
                        info.data(),
                        cw.data(),
                        llr.data());
            for (size_t f = 0; f < frames; ++f) {
                BOOST_CHECK_EQUAL(code->syndrome_weight(&cw[f * n]), 0u);
                for (size_t j = 0; j < k; ++j)
                    BOOST_REQUIRE_EQUAL(cw[f * n + code->info_positions()[j]],
                                        info[f * k + j]);
                // at 12 dB noise beyond a bit's amplitude is 4 sigma away
                size_t wrong_sign = 0;
                const auto& sent = code->transmitted_positions();
                for (size_t t = 0; t < nl; ++t) {
                    const unsigned bit = (cw[f * n + sent[t / m]] >> (m - 1 - t % m)) & 1;
                    wrong_sign += (llr[f * nl + t] > 0) != (bit == 1);
                }
                BOOST_CHECK_LE(wrong_sign, nl / 1000 + 1);
            }
            BOOST_CHECK(!std::equal(info.begin(), info.begin() + k, info.begin() + k));
        }
    }
}

// Frame i is frame i whatever the call: a frame drawn alone, in a batch, or
// with a stride, and with another seed another frame
BOOST_AUTO_TEST_CASE(frames_depend_on_seed_and_index_only)
{
    auto code = load("wifi:648:1/2");
    auto sim = simulation::make(batch_decoder::make(code, int8_min_sum(10), "cpu"));
    const auto ch = sim_channel::at(1.0, code->rate());
    const size_t nl = sim->decoder().llr_per_frame();
    std::vector<float> all(8 * nl), one(nl), odd(4 * nl), other(nl);
    sim->frames(3, ch, 100, 1, 8, nullptr, nullptr, all.data());
    sim->frames(3, ch, 105, 1, 1, nullptr, nullptr, one.data());
    BOOST_CHECK(std::equal(one.begin(), one.end(), all.begin() + 5 * nl));
    sim->frames(3, ch, 101, 2, 4, nullptr, nullptr, odd.data());
    for (size_t i = 0; i < 4; ++i)
        BOOST_CHECK(std::equal(odd.begin() + i * nl,
                               odd.begin() + (i + 1) * nl,
                               all.begin() + (2 * i + 1) * nl));
    sim->frames(4, ch, 105, 1, 1, nullptr, nullptr, other.data());
    BOOST_CHECK(!std::equal(one.begin(), one.end(), other.begin()));
}

// Counts of a split (two strides, uneven chunks) equal those of one call,
// frame for frame; near the waterfall some frames fail
BOOST_AUTO_TEST_CASE(split_counts_equal_one_call)
{
    auto code = load("wifi:648:1/2");
    auto sim = simulation::make(batch_decoder::make(code, int8_min_sum(10), "cpu"));
    const auto ch = sim_channel::at(1.5, code->rate());
    const size_t frames = 300;
    std::vector<sim_frame_result> whole(frames), even(frames / 2), odd(frames / 2),
        chunks(frames);
    sim->run(9, ch, 0, 1, frames, whole.data());
    sim->run(9, ch, 0, 2, frames / 2, even.data());
    sim->run(9, ch, 1, 2, frames / 2, odd.data());
    sim->run(9, ch, 0, 1, 7, chunks.data());
    sim->run(9, ch, 7, 1, frames - 7, chunks.data() + 7);
    size_t failed = 0;
    for (size_t i = 0; i < frames; ++i) {
        const auto& a = whole[i];
        const auto& b = i % 2 ? odd[i / 2] : even[i / 2];
        BOOST_CHECK_EQUAL(a.bit_errors, b.bit_errors);
        BOOST_CHECK_EQUAL(a.iterations, b.iterations);
        BOOST_CHECK_EQUAL(a.converged, b.converged);
        BOOST_CHECK_EQUAL(a.bit_errors, chunks[i].bit_errors);
        BOOST_CHECK_EQUAL(a.iterations, chunks[i].iterations);
        failed += a.bit_errors > 0;
        // a converged frame may still be another codeword; a frame without
        // errors took at most the iterations allowed
        BOOST_CHECK_LE(a.iterations, 10u);
    }
    BOOST_TEST_MESSAGE("frames failed at 1.5 dB: " << failed << " of " << frames);
    BOOST_CHECK_GT(failed, 0u);
    BOOST_CHECK_LT(failed, frames);
}

// The counts are the decoder's on the frames: decoding frames() with the
// decoder gives run()'s counts
BOOST_AUTO_TEST_CASE(counts_are_the_decoders)
{
    auto code = load("regular_2_4_n96_gf64");
    decoder_config cfg;
    cfg.max_iterations = 20;
    cfg.threads = 2;
    auto dec = batch_decoder::make(code, cfg, "cpu");
    auto sim = simulation::make(dec);
    const auto ch = sim_channel::at(1.0, code->rate());
    const size_t frames = 64, k = code->k(), m = code->bits_per_symbol();
    std::vector<uint8_t> info(frames * k);
    std::vector<float> llr(frames * dec->llr_per_frame());
    sim->frames(2, ch, 0, 1, frames, info.data(), nullptr, llr.data());
    std::vector<uint8_t> bits(frames * k * m);
    std::vector<frame_status> status(frames);
    dec->decode(llr.data(), frames, bits.data(), status.data());
    std::vector<sim_frame_result> r(frames);
    sim->run(2, ch, 0, 1, frames, r.data());
    size_t failed = 0;
    for (size_t f = 0; f < frames; ++f) {
        uint32_t errors = 0;
        for (size_t j = 0; j < k; ++j)
            for (size_t b = 0; b < m; ++b)
                errors +=
                    bits[(f * k + j) * m + b] != ((info[f * k + j] >> (m - 1 - b)) & 1);
        BOOST_CHECK_EQUAL(r[f].bit_errors, errors);
        BOOST_CHECK_EQUAL(r[f].iterations, status[f].iterations);
        failed += errors > 0;
    }
    BOOST_CHECK_GT(failed, 0u);
}

BOOST_AUTO_TEST_CASE(bad_arguments)
{
    auto code = load("regular_3_6_n96_gf2");
    auto sim = simulation::make(batch_decoder::make(code, {}, "cpu"));
    std::vector<sim_frame_result> r(1);
    BOOST_CHECK_THROW(sim->run(1, sim_channel::at(1.0, 0.5), 0, 0, 1, r.data()),
                      std::invalid_argument);
    BOOST_CHECK_THROW(sim_channel::at(NAN, 0.5), std::invalid_argument);
    BOOST_CHECK_THROW(sim_channel::at(1.0, 0.0), std::invalid_argument);
    BOOST_CHECK_THROW(simulation::make(nullptr), std::invalid_argument);
    if (cuda_devices().empty())
        BOOST_CHECK_THROW(
            simulation::make(batch_decoder::make(code, {}, "cpu"), "cuda:0,1"),
            std::runtime_error);
    BOOST_CHECK_EQUAL(sim->device_name(), "cpu");
    BOOST_CHECK_EQUAL(sim->devices(), 1u);
}

// Device lists: what is a list, what is malformed; a list of GPUs on a
// machine without them is a runtime error naming the device
BOOST_AUTO_TEST_CASE(device_lists)
{
    for (const char* single : { "cpu", "auto", "cuda", "cuda:0", "cuda:12" })
        BOOST_CHECK(cuda_device_list(single).empty());
    for (const char* bad : { "cuda:,0", "cuda:0,", "cuda:x,1", "cuda:0,,1", "cuda:1,-2" })
        BOOST_CHECK_THROW(cuda_device_list(bad), std::invalid_argument);
    if (cuda_devices().empty()) {
        BOOST_CHECK_THROW(cuda_device_list("cuda:all"), std::runtime_error);
        BOOST_CHECK_THROW(cuda_device_list("cuda:0,1"), std::runtime_error);
        auto code = load("regular_3_6_n96_gf2");
        BOOST_CHECK_THROW(batch_decoder::make(code, {}, "cuda:0,1"), std::runtime_error);
    } else {
        const auto all = cuda_device_list("cuda:all");
        BOOST_CHECK_EQUAL(all.size(), cuda_devices().size());
        BOOST_CHECK_THROW(cuda_device_list("cuda:0,0"), std::invalid_argument);
    }
}

// The device encoder's levels: solving a level's pivots in any order (here
// the last first) gives encode()'s codewords, and no pivot reads another of
// its level
BOOST_AUTO_TEST_CASE(echelon_levels_encode_as_the_cpu)
{
    std::mt19937 rng(3);
    for (const char* name : { "regular_3_6_n96_gf2",
                              "regular_2_4_n96_gf64",
                              "regular_2_4_n256_gf4",
                              "nr:1:16",
                              "nr:2:8:9",
                              "nr:1:384",
                              "wifi:648:5/6",
                              "wifi:1944:1/2",
                              "wimax:576:2/3A" }) {
        BOOST_TEST_CONTEXT(name)
        {
            auto code = load(name);
            BOOST_REQUIRE(code->encoder() == ldpc_code::encoder_kind::echelon);
            const auto l = detail::make_echelon_levels(*code);
            BOOST_TEST_MESSAGE(name << ": " << l.pivots.size() << " pivots in "
                                    << l.levels() << " levels, " << l.columns.size()
                                    << " terms");
            BOOST_CHECK_EQUAL(l.pivots.size(), code->echelon_pivots().size());
            std::vector<int> level_of(code->n(), -1);
            for (size_t lv = 0; lv < l.levels(); ++lv)
                for (uint32_t i = l.level_offsets[lv]; i < l.level_offsets[lv + 1]; ++i)
                    level_of[l.pivots[i]] = int(lv);
            size_t same_level_reads = 0;
            for (size_t lv = 0; lv < l.levels(); ++lv)
                for (uint32_t i = l.level_offsets[lv]; i < l.level_offsets[lv + 1]; ++i)
                    for (uint32_t j = l.row_offsets[i]; j < l.row_offsets[i + 1]; ++j)
                        same_level_reads += level_of[l.columns[j]] >= int(lv);
            BOOST_CHECK_EQUAL(same_level_reads, 0u);
            const gf_field& f = code->field();
            for (int frame = 0; frame < 3; ++frame) {
                std::vector<uint8_t> info(code->k()), want(code->n()), got(code->n(), 0);
                for (auto& s : info)
                    s = uint8_t(rng() % code->q());
                code->encode(info.data(), want.data());
                for (size_t j = 0; j < info.size(); ++j)
                    got[code->info_positions()[j]] = info[j];
                for (size_t lv = 0; lv < l.levels(); ++lv)
                    for (uint32_t i = l.level_offsets[lv + 1];
                         i-- > l.level_offsets[lv];) {
                        uint8_t acc = 0;
                        for (uint32_t j = l.row_offsets[i]; j < l.row_offsets[i + 1]; ++j)
                            acc ^= f.mul(l.values[j], got[l.columns[j]]);
                        got[l.pivots[i]] = acc;
                    }
                BOOST_CHECK(got == want);
            }
        }
    }
}

// The device encoder's slices, walked as the kernel walks them (a level at a
// time, a slice a warp, a lane a row, padding read as column n), give
// encode()'s codewords; every real term appears once
BOOST_AUTO_TEST_CASE(echelon_slices_encode_as_the_cpu)
{
    std::mt19937 rng(5);
    for (const char* name : { "regular_3_6_n96_gf2",
                              "regular_2_4_n96_gf64",
                              "regular_2_4_n256_gf4",
                              "nr:1:16",
                              "nr:2:8:9",
                              "wifi:648:5/6",
                              "wifi:1944:1/2",
                              "wimax:576:2/3A" }) {
        BOOST_TEST_CONTEXT(name)
        {
            auto code = load(name);
            const auto l = detail::make_echelon_slices(*code);
            const uint32_t rows = sim::slice_rows;
            BOOST_REQUIRE_EQUAL(l.offsets.size(), l.lengths.size());
            BOOST_REQUIRE_EQUAL(l.pivots.size(), l.lengths.size() * rows);
            BOOST_CHECK_EQUAL(l.level_slices.back(), l.lengths.size());
            size_t terms = 0, real_rows = 0;
            for (size_t s = 0; s < l.lengths.size(); ++s)
                for (uint32_t r = 0; r < rows; ++r) {
                    real_rows += l.pivots[s * rows + r] != code->n();
                    for (uint32_t j = 0; j < l.lengths[s]; ++j)
                        terms += l.columns[l.offsets[s] + j * rows + r] != code->n();
                }
            BOOST_CHECK_EQUAL(real_rows, code->echelon_pivots().size());
            BOOST_CHECK_EQUAL(terms, code->echelon_columns().size());
            unsigned widest = 0;
            for (size_t lv = 0; lv < l.levels(); ++lv)
                widest = std::max(widest, l.level_slices[lv + 1] - l.level_slices[lv]);
            BOOST_CHECK_EQUAL(l.widest_level, widest);
            const gf_field& f = code->field();
            for (int frame = 0; frame < 3; ++frame) {
                std::vector<uint8_t> info(code->k()), want(code->n()),
                    got(code->n() + 1, 0);
                for (auto& s : info)
                    s = uint8_t(rng() % code->q());
                code->encode(info.data(), want.data());
                for (size_t j = 0; j < info.size(); ++j)
                    got[code->info_positions()[j]] = info[j];
                for (size_t lv = 0; lv < l.levels(); ++lv) {
                    // a level's rows all read before any is written, as
                    // lanes and warps running at once may
                    std::vector<std::pair<uint32_t, uint8_t>> solved;
                    for (uint32_t s = l.level_slices[lv]; s < l.level_slices[lv + 1]; ++s)
                        for (uint32_t r = 0; r < rows; ++r) {
                            uint8_t acc = 0;
                            for (uint32_t j = 0; j < l.lengths[s]; ++j) {
                                const uint32_t at = l.offsets[s] + j * rows + r;
                                acc ^= f.mul(l.values[at], got[l.columns[at]]);
                            }
                            solved.emplace_back(l.pivots[s * rows + r], acc);
                        }
                    for (const auto& [pivot, symbol] : solved)
                        got[pivot] = symbol;
                    BOOST_REQUIRE_EQUAL(got[code->n()], 0);
                }
                got.pop_back();
                BOOST_CHECK(got == want);
            }
        }
    }
}

// The device accumulator's runs, walked as the kernel's threads walk them
// (each its run from 0, then the XOR of the runs before it), give encode()'s
// codewords
BOOST_AUTO_TEST_CASE(accumulator_runs_encode_as_the_cpu)
{
    std::mt19937 rng(7);
    for (const char* name : { "dvbs2:1/2:short", "dvbs2:1/4", "dvbs2:9/10" }) {
        BOOST_TEST_CONTEXT(name)
        {
            auto code = load(name);
            BOOST_REQUIRE(code->encoder() == ldpc_code::encoder_kind::accumulator);
            const auto a = detail::make_accumulator_runs(*code);
            const unsigned threads = sim::encoder_threads;
            BOOST_REQUIRE_EQUAL(a.entries.size(), size_t(a.slots) * threads);
            BOOST_CHECK_GE(size_t(a.run) * threads, code->m());
            for (int frame = 0; frame < 2; ++frame) {
                std::vector<uint8_t> info(code->k()), want(code->n()), got(code->n(), 0);
                for (auto& s : info)
                    s = uint8_t(rng() & 1);
                code->encode(info.data(), want.data());
                std::copy(info.begin(), info.end(), got.begin());
                std::vector<uint8_t> run_parity(threads);
                for (unsigned t = 0; t < threads; ++t) {
                    unsigned acc = 0, r = std::min<unsigned>(code->m(), t * a.run);
                    const unsigned r1 = std::min<unsigned>(code->m(), r + a.run);
                    for (unsigned j = 0; j < a.slots; ++j) {
                        const uint32_t e = a.entries[size_t(j) * threads + t];
                        const uint32_t v = e & ~sim::acc_end;
                        if (v != sim::acc_none)
                            acc ^= info.at(v);
                        if (e & sim::acc_end)
                            got.at(code->k() + r++) = uint8_t(acc);
                    }
                    BOOST_REQUIRE_EQUAL(r, r1);
                    run_parity[t] = uint8_t(acc);
                }
                unsigned carry = 0;
                for (unsigned t = 0; t < threads; ++t) {
                    const unsigned r0 = std::min<unsigned>(code->m(), t * a.run);
                    const unsigned r1 = std::min<unsigned>(code->m(), r0 + a.run);
                    for (unsigned r = r0; r < r1; ++r)
                        got[code->k() + r] ^= uint8_t(carry);
                    carry ^= run_parity[t];
                }
                BOOST_CHECK(got == want);
            }
        }
    }
}

// The encoder's 16 binary symbols a generator block, gathered a word at a
// time, are info_symbol()'s
BOOST_AUTO_TEST_CASE(sixteen_information_bits_a_block)
{
    for (uint64_t frame = 0; frame < 200; ++frame) {
        const sim::philox_out r = sim::draw(11, frame, uint32_t(frame % 7), 0);
        uint32_t want = 0;
        for (unsigned j = 0; j < sim::info_per_block; ++j)
            want |= sim::info_symbol(r, j, 2) << j;
        BOOST_CHECK_EQUAL(sim::info_bits16(r), want);
    }
}
