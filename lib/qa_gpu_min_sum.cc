/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The CUDA decoder of binary codes in 8-bit fixed-point min-sum against the
// CPU reference, which runs the same integer arithmetic: identical decisions,
// iteration counts and status on every frame (CTest label gpu; without a
// CUDA device every case is skipped and says so). GPULDPC_GPU_TEST_SMALL=1
// shrinks the batches, for compute-sanitizer runs. The decoders' tuning
// starts from gpu_tuning::from_environment(), so that the CTest variants'
// GPULDPC_GPU_DECODER_* and GPULDPC_SHARED_MEMORY_LIMIT (which moves codes to
// the global variant) apply to every case; a case changes fields from there.
// The quasi-cyclic family's case is in qa_gpu_quasi_cyclic.cc.

#include "qa_gpu_min_sum.h"
#ifdef GPULDPC_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif
#include <type_traits>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <sstream>

using namespace gr::gpuldpc;
namespace utf = boost::unit_test;

namespace {

using qa::base_tuning;
using qa::check_identical;
using qa::compute_major;
using qa::fixed_point;
using qa::gpu_present;
using qa::make_batch;
using qa::packed;
using qa::punctured_qc_code;
using qa::result;
using qa::run;
using qa::small;

// GPU and CPU on the same frames near the waterfall (failures, many
// iterations, frames that converge at different iterations) and noiseless
// frames (codewords at once: 0 iterations), both schedules, with and without
// early termination, float and 8-bit input; \p magnitude: the check rule
// (three-smallest: a frame a lane with its automatic correction, and pairs
// allowed, fp16 pairs where the quasi-cyclic kernel with checks unrolled takes
// the code, with \p correction, where set, as scale and offset).
void check_code(ldpc_code::sptr code,
                double ebn0_db,
                size_t noisy_frames,
                uint32_t seed,
                min_sum_magnitude_rule magnitude = min_sum_magnitude_rule::smallest,
                std::pair<float, float> correction = { 0.0f, 0.0f })
{
    const auto noisy = make_batch(*code, noisy_frames, ebn0_db, seed);
    const auto clean = make_batch(*code, 2, INFINITY, seed + 1);
    std::vector<float> llr = noisy.llr;
    llr.insert(llr.end(), clean.llr.begin(), clean.llr.end());
    const size_t frames = noisy_frames + 2;
    // bad values: counted and erased alike
    llr[3] = NAN;
    llr[llr.size() / 2] = -INFINITY;
    std::vector<int8_t> llr8(llr.size());
    for (size_t i = 0; i < llr.size(); ++i)
        llr8[i] = int8_t(std::isfinite(llr[i])
                             ? std::clamp(std::nearbyint(llr[i] * 4.0f), -128.0f, 127.0f)
                             : 0.0f);
    // one frame a lane, and two in pairs (fp16 where exact, else 16-bit
    // integers in the global variant)
    const bool three = magnitude == min_sum_magnitude_rule::three_smallest;
    for (bool pairs : { false, true })
        for (auto sched : { decoder_schedule::flooding, decoder_schedule::layered })
            for (bool et : { true, false }) {
                // three-smallest: with pairs the given correction, where set
                const bool corrected = three && pairs && correction.first != 0.0f;
                auto cfg = fixed_point(sched, et ? 30 : 12, et);
                cfg.gpu.pairs = pairs;
                cfg.min_sum_magnitude = magnitude;
                if (corrected) {
                    cfg.min_sum_scale = correction.first;
                    cfg.min_sum_offset = correction.second;
                }
                auto gpu = batch_decoder::make(code, cfg, "cuda");
                auto cfg_packed = cfg;
                cfg_packed.pack_info_bits = true;
                // packed in launches of 16 frames: the offsets of later ones
                cfg_packed.gpu.launch_frames = 16;
                auto gpu_packed = batch_decoder::make(code, cfg_packed, "cuda");
                auto cpu = batch_decoder::make(code, cfg, "cpu");
                const std::string what =
                    "n=" + std::to_string(code->n()) + " " + to_string(sched) +
                    (et ? " ET" : " fixed") + (three ? " three-smallest" : "") +
                    (corrected ? " scale " + std::to_string(cfg.min_sum_scale) +
                                     " offset " + std::to_string(cfg.min_sum_offset)
                     : pairs ? " pairs"
                             : "");
                BOOST_TEST_MESSAGE(what << " on " << gpu->device_name() << ": "
                                        << gpu->kernel_variant());
                if (three)
                    BOOST_CHECK(gpu->kernel_variant().find("three smallest") !=
                                std::string::npos);
                const auto c = run(*cpu, llr, frames);
                check_identical(run(*gpu, llr, frames), c, what + " float input");
                const auto c8 = run(*cpu, llr8, frames);
                check_identical(run(*gpu, llr8, frames), c8, what + " int8 input");
                check_identical(run(*gpu_packed, llr8, frames),
                                packed(c8, cpu->info_bits_per_frame()),
                                what + " int8 input, packed bits");
                size_t failed = 0, iterated = 0;
                for (const auto& s : c.status) {
                    failed += !s.converged;
                    iterated += s.iterations > 2;
                    if (!et)
                        BOOST_CHECK_EQUAL(s.iterations, cfg.max_iterations);
                }
                BOOST_TEST_MESSAGE("  " << failed << " of " << frames
                                        << " frames failed, " << iterated
                                        << " took more than 2 iterations");
                BOOST_CHECK_EQUAL(
                    c.status[0].invalid_inputs +
                        c.status[llr.size() / 2 / gpu->llr_per_frame()].invalid_inputs,
                    2u);
                // a noiseless frame is a codeword at once, unless bits are
                // punctured: they start as erasures and take an iteration
                if (et)
                    BOOST_CHECK_EQUAL(c.status[frames - 1].iterations,
                                      code->punctured_positions().empty() ? 0u : 1u);
            }
}

} // namespace

BOOST_AUTO_TEST_CASE(gpu_min_sum_equals_cpu, *utf::precondition(gpu_present()))
{
    const size_t frames = small() ? 5 : 70; // more than two blocks of frames
    check_code(std::make_shared<ldpc_code>(construct_regular_code(1008, 3, 6, 2, 5)),
               2.0,
               frames,
               1);
    check_code(punctured_qc_code(), 4.0, frames, 2);
    // 5G NR BG1: punctured columns, bits of degree up to 30 (beliefs beyond
    // fp16's exact range: on chip one frame a lane in both schedules; in the
    // global variant 16-bit integer pairs on sm_90 and later)
    check_code(
        std::make_shared<ldpc_code>(ldpc_code::nr(1, 16)), 2.5, small() ? 2 : 40, 7);
    // coloured layers: runs of up to 95 checks on chip
    check_code(std::make_shared<ldpc_code>(
                   construct_regular_code(1008, 3, 6, 2, 5).with_coloured_layers()),
               2.0,
               frames,
               6);
    // on chip in pairs, a block's threads beyond 32 a lane
    check_code(std::make_shared<ldpc_code>(ldpc_code::wifi(1944, "1/2")),
               2.5,
               small() ? 5 : 40,
               5);
    check_code(std::make_shared<ldpc_code>(ldpc_code::dvbs2("1/2", "short")),
               1.5,
               small() ? 2 : 40,
               3);
    // DVB-S2 at other rates: checks of 4 to 5 edges (1/4) and of 30 (9/10)
    check_code(std::make_shared<ldpc_code>(ldpc_code::dvbs2("1/4", "short")),
               1.0,
               small() ? 2 : 40,
               8);
    check_code(std::make_shared<ldpc_code>(ldpc_code::dvbs2("8/9", "short")),
               3.8,
               small() ? 2 : 40,
               9);
    if (!small()) {
        check_code(std::make_shared<ldpc_code>(ldpc_code::dvbs2("1/2")), 1.0, 33, 4);
        check_code(std::make_shared<ldpc_code>(ldpc_code::dvbs2("3/5")), 2.3, 21, 10);
        check_code(std::make_shared<ldpc_code>(ldpc_code::dvbs2("9/10")), 3.9, 21, 11);
    }
}

BOOST_AUTO_TEST_CASE(gpu_three_smallest_equals_cpu, *utf::precondition(gpu_present()))
{
    // min_sum_magnitude_rule::three_smallest on every family that runs it,
    // with the automatic correction (scale 1; offset 0.25, or none where
    // parity accumulates) and with scale 7/8, offset 0.5: checks of 3 edges
    // and more (the offset from 5), 5G NR's bits of up to 30 checks (the
    // layered beliefs' limit), punctured bits, accumulated parity
    const auto three = min_sum_magnitude_rule::three_smallest;
    const size_t frames = small() ? 5 : 70;
    check_code(std::make_shared<ldpc_code>(construct_regular_code(1008, 3, 6, 2, 5)),
               2.2,
               frames,
               21,
               three,
               { 0.875f, 0.5f });
    check_code(std::make_shared<ldpc_code>(ldpc_code::nr(1, 16)),
               1.8,
               small() ? 2 : 40,
               22,
               three,
               { 0.875f, 0.5f });
    check_code(std::make_shared<ldpc_code>(ldpc_code::nr(2, 16, 42)),
               0.8,
               small() ? 2 : 40,
               23,
               three);
    check_code(std::make_shared<ldpc_code>(ldpc_code::dvbs2("1/4", "short")),
               0.8,
               small() ? 2 : 40,
               24,
               three,
               { 1.0f, 0.5f });
    check_code(std::make_shared<ldpc_code>(ldpc_code::wifi(1944, "1/2")),
               2.0,
               small() ? 5 : 40,
               25,
               three);
    if (!small()) // the split variant (beliefs on chip, messages in L2)
        check_code(
            std::make_shared<ldpc_code>(ldpc_code::dvbs2("1/2")), 0.9, 33, 26, three);
    // the global variant
    const auto code = std::make_shared<ldpc_code>(ldpc_code::nr(1, 64));
    const auto batch = make_batch(*code, small() ? 3 : 131, 1.2, 27);
    for (auto sched : { decoder_schedule::flooding, decoder_schedule::layered }) {
        auto cfg = fixed_point(sched, 20, true);
        cfg.min_sum_magnitude = three;
        cfg.gpu.on_chip = false;
        auto cpu = batch_decoder::make(code, cfg, "cpu");
        auto gpu = batch_decoder::make(code, cfg, "cuda");
        const std::string what = "nr:1:64 global " + to_string(sched);
        BOOST_TEST_INFO(what << ": " << gpu->kernel_variant());
        BOOST_CHECK(gpu->kernel_variant().find("global") != std::string::npos);
        const size_t n = batch.llr.size() / cpu->llr_per_frame();
        check_identical(run(*gpu, batch.llr, n), run(*cpu, batch.llr, n), what);
    }
}

BOOST_AUTO_TEST_CASE(gpu_min_sum_wide_pairs_equal_cpu, *utf::precondition(gpu_present()))
{
    // 5G NR BG1 in the global variant: bits of degree up to 30, where fp16
    // pairs are not exact, take 16-bit integer pairs on devices of compute
    // capability 9.0 and later (else, and with them off, one frame a lane);
    // every way gives the CPU's results on every frame. 131 frames: two full
    // groups of 64 and a partial one, whose last lane has one frame, near the
    // waterfall, so that the frames of a lane converge at different
    // iterations (a lane keeps a done frame's values while the other
    // decodes). Z = 64: the groups' 8832 checks are several a warp of an
    // H100's grid, so a warp's share of a syndrome count spans checks and
    // groups.
    const auto code = std::make_shared<ldpc_code>(ldpc_code::nr(1, 64));
    const size_t frames = small() ? 3 : 131;
    const auto batch = make_batch(*code, frames, 1.5, 31);
    std::vector<int8_t> llr8(batch.llr.size());
    for (size_t i = 0; i < llr8.size(); ++i)
        llr8[i] =
            int8_t(std::clamp(std::nearbyint(batch.llr[i] * 4.0f), -128.0f, 127.0f));
    for (auto sched : { decoder_schedule::flooding, decoder_schedule::layered })
        for (bool et : { true, false }) {
            auto cfg = fixed_point(sched, et ? 30 : 12, et);
            cfg.gpu.on_chip = false;
            auto cpu = batch_decoder::make(code, cfg, "cpu");
            const auto want = run(*cpu, batch.llr, frames);
            const auto want8 = run(*cpu, llr8, frames);
            if (et && !small()) {
                // frames that stop at different iterations, and failures
                size_t failed = 0;
                unsigned fewest = UINT32_MAX, most = 0;
                for (const auto& st : want.status) {
                    failed += !st.converged;
                    fewest = std::min(fewest, st.iterations);
                    most = std::max(most, st.iterations);
                }
                BOOST_TEST_MESSAGE(to_string(sched)
                                   << ": " << failed << " of " << frames
                                   << " failed, iterations " << fewest << " to " << most);
                BOOST_CHECK_LT(fewest + 2, most);
            }
            for (bool wide : { true, false }) {
                auto cfg_wide = cfg;
                cfg_wide.gpu.wide_pairs = wide;
                auto gpu = batch_decoder::make(code, cfg_wide, "cuda");
                auto cfg_packed = cfg_wide;
                cfg_packed.pack_info_bits = true;
                auto gpu_packed = batch_decoder::make(code, cfg_packed, "cuda");
                const std::string what = to_string(sched) + (et ? " ET" : " fixed") +
                                         (wide ? " wide pairs" : " single");
                // the variant the test is about is the one decoding
                const bool wide_taken =
                    wide && compute_major() >= 9 && cfg_wide.gpu.pairs;
                for (const auto* d : { gpu.get(), gpu_packed.get() }) {
                    const std::string kernel = d->kernel_variant();
                    BOOST_TEST_INFO(what << ": " << kernel);
                    BOOST_CHECK(kernel.find("global") != std::string::npos);
                    BOOST_CHECK_EQUAL(kernel.find("16-bit integer pairs") !=
                                          std::string::npos,
                                      wide_taken);
                    BOOST_CHECK_EQUAL(kernel.find("a frame a lane") != std::string::npos,
                                      !wide_taken);
                }
                check_identical(
                    run(*gpu, batch.llr, frames), want, what + " float input");
                check_identical(run(*gpu, llr8, frames), want8, what + " int8 input");
                check_identical(run(*gpu_packed, llr8, frames),
                                packed(want8, cpu->info_bits_per_frame()),
                                what + " int8 input, packed bits");
            }
        }
}

BOOST_AUTO_TEST_CASE(gpu_min_sum_split_blocks_take_groups_in_turn,
                     *utf::precondition(gpu_present()))
{
    // The split variant (DVB-S2's short frame, layered: beliefs in shared
    // memory, messages in a block's region of global memory) with 3 blocks,
    // each decoding groups one after another in its region: the CPU's
    // results, as with a block a group, and as the global variant's.
    const auto code = std::make_shared<ldpc_code>(ldpc_code::dvbs2("1/2", "short"));
    const size_t frames = small() ? 7 : 41;
    const auto batch = make_batch(*code, frames, 1.4, 21);
    for (bool et : { true, false }) {
        const auto cfg = fixed_point(decoder_schedule::layered, et ? 25 : 10, et);
        const auto want = run(*batch_decoder::make(code, cfg, "cpu"), batch.llr, frames);
        for (bool pairs : { false, true }) {
            const std::string what =
                std::string(et ? "ET" : "fixed") + (pairs ? " pairs" : "");
            auto cfg_pairs = cfg;
            cfg_pairs.gpu.pairs = pairs;
            auto all_blocks = batch_decoder::make(code, cfg_pairs, "cuda");
            auto cfg_three = cfg_pairs;
            cfg_three.gpu.split_blocks = 3;
            auto three_blocks = batch_decoder::make(code, cfg_three, "cuda");
            auto cfg_global = cfg_pairs;
            cfg_global.gpu.split = false;
            auto global = batch_decoder::make(code, cfg_global, "cuda");
            check_identical(run(*all_blocks, batch.llr, frames), want, what);
            check_identical(
                run(*three_blocks, batch.llr, frames), want, what + " 3 blocks");
            check_identical(run(*global, batch.llr, frames), want, what + " global");
        }
    }
}

BOOST_AUTO_TEST_CASE(gpu_min_sum_batch_sizes_and_frames_alone,
                     *utf::precondition(gpu_present()))
{
    const auto code =
        std::make_shared<ldpc_code>(construct_regular_code(1008, 3, 6, 2, 5));
    const auto cfg = fixed_point(decoder_schedule::layered, 20);
    auto gpu = batch_decoder::make(code, cfg, "cuda");
    auto cpu = batch_decoder::make(code, cfg, "cpu");
    // frames of different SNRs in one batch get what they get alone
    std::vector<float> llr;
    const size_t frames = small() ? 3 : 65;
    for (size_t f = 0; f < frames; ++f) {
        const auto b = make_batch(*code, 1, 1.0 + 0.05 * double(f), uint32_t(100 + f));
        llr.insert(llr.end(), b.llr.begin(), b.llr.end());
    }
    const auto all = run(*gpu, llr, frames);
    check_identical(all, run(*cpu, llr, frames), "mixed SNRs");
    const size_t nl = gpu->llr_per_frame();
    for (size_t f : { size_t(0), frames / 2, frames - 1 }) {
        const std::vector<float> one(llr.begin() + f * nl, llr.begin() + (f + 1) * nl);
        const auto alone = run(*gpu, one, 1);
        BOOST_CHECK(std::equal(
            alone.bits.begin(), alone.bits.end(), all.bits.begin() + f * code->k()));
        BOOST_CHECK_EQUAL(alone.status[0].iterations, all.status[f].iterations);
    }
    // launches of 16 frames at most: the same results
    auto cfg16 = cfg;
    cfg16.gpu.launch_frames = 16;
    auto split = batch_decoder::make(code, cfg16, "cuda");
    check_identical(run(*split, llr, frames), all, "launches of 16 frames");
    // symbol log-likelihoods (0, l) carry the LLR l
    std::vector<float> symbol_ll(2 * llr.size());
    for (size_t i = 0; i < llr.size(); ++i)
        symbol_ll[2 * i + 1] = llr[i];
    for (batch_decoder* d : { gpu.get(), cpu.get() }) {
        result r;
        r.bits.resize(frames * d->info_bits_per_frame());
        r.codeword.resize(frames * code->n());
        r.status.resize(frames);
        d->decode_symbol_llr(
            symbol_ll.data(), frames, r.bits.data(), r.status.data(), r.codeword.data());
        check_identical(r, all, "symbol log-likelihoods on " + d->device_name());
    }
    // two outstanding batches give decode()'s results
    const auto three = make_batch(*code, 3 * (small() ? 2 : 17), 2.0, 9);
    qa::check_outstanding_batches(*gpu, three.llr, small() ? 2 : 17);
    // and so do two outstanding 8-bit batches, in the decoder's host buffers
    std::vector<int8_t> steps(llr.size());
    for (size_t i = 0; i < llr.size(); ++i)
        steps[i] = int8_t(std::clamp(std::nearbyint(llr[i] * 4.0f), -127.0f, 127.0f));
    const auto want8 = run(*cpu, steps, frames);
    const size_t half = frames / 2, nb = gpu->info_bits_per_frame();
    auto in = gpu->host_buffer(steps.size());
    auto bits = gpu->host_buffer(frames * nb);
    auto status = gpu->host_buffer(frames * sizeof(frame_status));
    auto* in8 = static_cast<int8_t*>(in.get());
    auto* b = static_cast<uint8_t*>(bits.get());
    auto* st = static_cast<frame_status*>(status.get());
    std::copy(steps.begin(), steps.end(), in8);
    const uint64_t t1 = gpu->begin_decode_int8(in8, half, b, st);
    const uint64_t t2 =
        gpu->begin_decode_int8(in8 + half * nl, frames - half, b + half * nb, st + half);
    gpu->end_decode(t1);
    gpu->end_decode(t2);
    BOOST_CHECK(std::equal(b, b + frames * nb, want8.bits.begin()));
    for (size_t f = 0; f < frames; ++f)
        BOOST_CHECK_EQUAL(st[f].iterations, want8.status[f].iterations);
}

#ifdef GPULDPC_HAVE_CUDA
BOOST_AUTO_TEST_CASE(gpu_min_sum_from_device_memory, *utf::precondition(gpu_present()))
{
    const auto code =
        std::make_shared<ldpc_code>(construct_regular_code(1008, 3, 6, 2, 5));
    for (bool pack : { false, true }) {
        auto cfg = fixed_point(decoder_schedule::flooding, 20);
        cfg.pack_info_bits = pack;
        cfg.gpu.launch_frames = 16;
        auto gpu = batch_decoder::make(code, cfg, "cuda");
        const size_t frames = small() ? 3 : 40;
        const auto b = make_batch(*code, frames, 2.0, 12);
        const auto want = run(*batch_decoder::make(code, cfg, "cpu"), b.llr, frames);
        float* llr = nullptr;
        uint8_t* bits = nullptr;
        frame_status* status = nullptr;
        BOOST_REQUIRE(cudaMalloc(reinterpret_cast<void**>(&llr),
                                 b.llr.size() * sizeof(float)) == cudaSuccess);
        BOOST_REQUIRE(cudaMalloc(reinterpret_cast<void**>(&bits), want.bits.size()) ==
                      cudaSuccess);
        BOOST_REQUIRE(cudaMalloc(reinterpret_cast<void**>(&status),
                                 frames * sizeof(frame_status)) == cudaSuccess);
        cudaMemcpy(
            llr, b.llr.data(), b.llr.size() * sizeof(float), cudaMemcpyHostToDevice);
        BOOST_REQUIRE(cudaMemset(bits, 0xa5, want.bits.size()) == cudaSuccess);
        gpu->decode_device(llr, frames, bits, status);
        std::vector<uint8_t> got(want.bits.size());
        std::vector<frame_status> got_status(frames);
        cudaMemcpy(got.data(), bits, got.size(), cudaMemcpyDeviceToHost);
        cudaMemcpy(got_status.data(),
                   status,
                   frames * sizeof(frame_status),
                   cudaMemcpyDeviceToHost);
        BOOST_CHECK(got == want.bits);
        for (size_t f = 0; f < frames; ++f) {
            BOOST_CHECK_EQUAL(got_status[f].converged, want.status[f].converged);
            BOOST_CHECK_EQUAL(got_status[f].iterations, want.status[f].iterations);
            BOOST_CHECK_EQUAL(got_status[f].syndrome_weight,
                              want.status[f].syndrome_weight);
            BOOST_CHECK_EQUAL(got_status[f].invalid_inputs,
                              want.status[f].invalid_inputs);
        }
        // the same LLRs rounded to 8 bits as decode_device_int8() documents:
        // the float results, frame for frame
        BOOST_REQUIRE(gpu->decodes_device_int8());
        std::vector<int8_t> steps(b.llr.size());
        for (size_t i = 0; i < steps.size(); ++i) {
            const float l = std::clamp(b.llr[i], -64.0f, 64.0f);
            steps[i] =
                int8_t(std::nearbyint(std::clamp(l * cfg.llr_scale, -127.0f, 127.0f)));
        }
        int8_t* llr8 = nullptr;
        BOOST_REQUIRE(cudaMalloc(reinterpret_cast<void**>(&llr8), steps.size()) ==
                      cudaSuccess);
        cudaMemcpy(llr8, steps.data(), steps.size(), cudaMemcpyHostToDevice);
        BOOST_REQUIRE(cudaMemset(bits, 0xa5, want.bits.size()) == cudaSuccess);
        gpu->decode_device_int8(llr8, frames, bits, status);
        cudaMemcpy(got.data(), bits, got.size(), cudaMemcpyDeviceToHost);
        cudaMemcpy(got_status.data(),
                   status,
                   frames * sizeof(frame_status),
                   cudaMemcpyDeviceToHost);
        cudaFree(llr8);
        cudaFree(llr);
        cudaFree(bits);
        cudaFree(status);
        BOOST_CHECK(got == want.bits);
        for (size_t f = 0; f < frames; ++f) {
            BOOST_CHECK_EQUAL(got_status[f].iterations, want.status[f].iterations);
            BOOST_CHECK_EQUAL(got_status[f].syndrome_weight,
                              want.status[f].syndrome_weight);
        }
    }
    // decoders of host memory take no device pointers, 8-bit or not
    auto cpu =
        batch_decoder::make(code, fixed_point(decoder_schedule::flooding, 20), "cpu");
    BOOST_CHECK(!cpu->decodes_device_int8());
    BOOST_CHECK_THROW(cpu->decode_device_int8(nullptr, 1, nullptr, nullptr),
                      std::logic_error);
}
#endif

BOOST_AUTO_TEST_CASE(gpu_min_sum_arguments)
{
    const auto code = std::make_shared<ldpc_code>(construct_regular_code(96, 3, 6, 2, 5));
    // auto and cuda run 8-bit min-sum on a GPU when there is one; without
    // one, auto takes the CPU and cuda is an error
    auto cfg = fixed_point(decoder_schedule::layered, 10);
    if (cuda_devices().empty()) {
        BOOST_CHECK_EQUAL(batch_decoder::make(code, cfg, "auto")->device_name(), "cpu");
        BOOST_CHECK_THROW(batch_decoder::make(code, cfg, "cuda"), std::runtime_error);
    } else {
        BOOST_CHECK_NE(batch_decoder::make(code, cfg, "auto")->device_name(), "cpu");
        BOOST_CHECK_NE(batch_decoder::make(code, cfg, "cuda")->device_name(), "cpu");
    }
    // float min-sum and sum-product (also what auto resolves to) likewise
    for (auto alg : { decoder_algorithm::min_sum,
                      decoder_algorithm::sum_product,
                      decoder_algorithm::automatic }) {
        cfg.algorithm = alg;
        cfg.messages = message_precision::fp32;
        BOOST_CHECK_EQUAL(batch_decoder::make(code, cfg, "auto")->device_name() == "cpu",
                          cuda_devices().empty());
    }
    // messages in half precision are for fft-bp: the error names the choices
    cfg.algorithm = decoder_algorithm::min_sum;
    cfg.messages = message_precision::fp16;
    BOOST_CHECK_THROW(batch_decoder::make(code, cfg, "cuda"), std::invalid_argument);
}

namespace {

decoder_config
floating(decoder_algorithm alg, decoder_schedule schedule, unsigned iterations)
{
    decoder_config cfg;
    cfg.gpu = base_tuning();
    cfg.algorithm = alg;
    cfg.messages = message_precision::fp32;
    cfg.schedule = schedule;
    cfg.max_iterations = iterations;
    cfg.early_termination = true;
    return cfg;
}

} // namespace

// Float min-sum and sum-product against the CPU reference's rules. Min-sum
// is the same single-precision arithmetic in the same order (differences,
// minima, one multiply, sums in edge order): every frame's decisions and
// status equal, at high SNR and near the waterfall, float and 8-bit input.
// Sum-product runs in the phi form in single precision, the CPU's through
// tanh in double: the decisions at high SNR equal; near the waterfall the
// frames that only one of the two fails (a paired count) balance within
// 4 sigma (|b - c| <= 4 sqrt(b + c), McNemar).
BOOST_AUTO_TEST_CASE(gpu_float_binary_equals_cpu, *utf::precondition(gpu_present()))
{
    const size_t frames = small() ? 6 : 200, noisy_frames = small() ? 6 : 400;
    const std::vector<ldpc_code::sptr> codes{
        std::make_shared<ldpc_code>(construct_regular_code(1008, 3, 6, 2, 5)),
        punctured_qc_code(),
        std::make_shared<ldpc_code>(ldpc_code::dvbs2("1/2", "short")),
    };
    // 8-bit input at the decoders' default llr_scale: v / llr_scale each
    const float to_steps = decoder_config{}.llr_scale;
    auto eight_bit = [&](const std::vector<float>& llr) {
        std::vector<int8_t> out(llr.size());
        for (size_t i = 0; i < llr.size(); ++i)
            out[i] = int8_t(
                std::isfinite(llr[i])
                    ? std::clamp(std::nearbyint(llr[i] * to_steps), -127.0f, 127.0f)
                    : 0.0f);
        return out;
    };
    for (const auto& code : codes)
        for (auto alg : { decoder_algorithm::min_sum, decoder_algorithm::sum_product })
            for (auto sched : { decoder_schedule::flooding, decoder_schedule::layered }) {
                const auto cfg = floating(alg, sched, 30);
                const bool exact = alg == decoder_algorithm::min_sum;
                auto gpu = batch_decoder::make(code, cfg, "cuda");
                auto cpu = batch_decoder::make(code, cfg, "cpu");
                const std::string what = "n=" + std::to_string(code->n()) + " " +
                                         to_string(alg) + " " + to_string(sched);
                // high SNR: the sent frames, NaN/Inf counted alike
                auto high = make_batch(*code, frames, 5.0, 21);
                high.llr[5] = NAN;
                high.llr[high.llr.size() - 1] = INFINITY;
                const auto g = run(*gpu, high.llr, frames);
                const auto c = run(*cpu, high.llr, frames);
                BOOST_TEST_CONTEXT(what << ", 5 dB")
                {
                    BOOST_CHECK(g.bits == high.info_bits);
                    BOOST_CHECK(g.bits == c.bits);
                    BOOST_CHECK(g.codeword == c.codeword);
                    size_t differ = 0;
                    for (size_t f = 0; f < frames; ++f)
                        differ +=
                            g.status[f].converged != c.status[f].converged ||
                            g.status[f].invalid_inputs != c.status[f].invalid_inputs ||
                            g.status[f].iterations > cfg.max_iterations;
                    BOOST_CHECK_EQUAL(differ, 0u);
                }
                if (exact)
                    check_identical(g, c, what + ", 5 dB");
                const auto high8 = eight_bit(high.llr);
                if (exact)
                    check_identical(run(*gpu, high8, frames),
                                    run(*cpu, high8, frames),
                                    what + ", 5 dB, 8-bit input");
                else
                    BOOST_CHECK(run(*gpu, high8, frames).bits ==
                                run(*cpu, high8, frames).bits);
                // the waterfall
                const auto low = make_batch(*code, noisy_frames, 1.75, 22);
                const auto low8 = eight_bit(low.llr);
                for (bool eight : { false, true }) {
                    const auto gl = eight ? run(*gpu, low8, noisy_frames)
                                          : run(*gpu, low.llr, noisy_frames);
                    const auto cl = eight ? run(*cpu, low8, noisy_frames)
                                          : run(*cpu, low.llr, noisy_frames);
                    const std::string where =
                        what + ", 1.75 dB" + (eight ? ", 8-bit input" : "");
                    if (exact) {
                        check_identical(gl, cl, where);
                        continue;
                    }
                    const size_t nb = gpu->info_bits_per_frame();
                    size_t gpu_only = 0, cpu_only = 0, both = 0;
                    for (size_t f = 0; f < noisy_frames; ++f) {
                        const auto sent = low.info_bits.begin() + f * nb;
                        const bool eg =
                            !std::equal(sent, sent + nb, gl.bits.begin() + f * nb);
                        const bool ec =
                            !std::equal(sent, sent + nb, cl.bits.begin() + f * nb);
                        gpu_only += eg && !ec;
                        cpu_only += ec && !eg;
                        both += eg && ec;
                    }
                    BOOST_TEST_MESSAGE(where << ": frames failed by both " << both
                                             << ", GPU only " << gpu_only << ", CPU only "
                                             << cpu_only << " of " << noisy_frames);
                    BOOST_TEST_CONTEXT(where)
                    {
                        BOOST_CHECK_LE(std::abs(double(gpu_only) - double(cpu_only)),
                                       4.0 * std::sqrt(double(gpu_only + cpu_only)));
                    }
                }
            }
}
