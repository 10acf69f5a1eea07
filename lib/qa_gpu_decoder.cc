/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The CUDA FFT-BP decoder against the CPU reference (CTest label gpu; without
// a CUDA device every case is skipped and says so). GPULDPC_GPU_TEST_SMALL=1
// shrinks the batches, for compute-sanitizer runs. The decoders' GPU tuning
// starts from the process's GPULDPC_* variables (gpu_tuning::from_environment),
// so that GPULDPC_SHARED_MEMORY_LIMIT caps shared memory for every case, which
// moves the larger codes to the global variant; cases set their own fields
// on top.

#include "qa_helpers.h"
#include <gnuradio/gpuldpc/engine/bits.h>
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/device.h>
#include <gnuradio/gpuldpc/engine/gpu_tuning.h>
#include <gnuradio/gpuldpc/engine/soft_demapper.h>
#include <boost/test/unit_test.hpp>
#ifdef GPULDPC_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif
#include <cmath>
#include <complex>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <random>

using namespace gr::gpuldpc;
namespace utf = boost::unit_test;

namespace {

using qa::gpu_present;
using qa::make_batch;
using qa::noisy_batch;

using qa::small;

ldpc_code::sptr test_code(unsigned q)
{
    // (2,4)-regular for q > 2, (3,6) for q = 2; a few hundred bits a frame
    if (q == 2)
        return std::make_shared<ldpc_code>(construct_regular_code(240, 3, 6, 2, 11));
    const unsigned n = q == 4 ? 128 : q == 8 || q == 16 || q == 64 ? 96 : 64;
    return std::make_shared<ldpc_code>(construct_regular_code(n, 2, 4, q, 11));
}

struct result {
    std::vector<uint8_t> bits;
    std::vector<frame_status> status;
};

result run(batch_decoder& d, const std::vector<float>& llr, size_t frames)
{
    result r;
    // bytes a decoder leaves unwritten show (packed: the last byte's low bits)
    r.bits.assign(frames * d.info_bytes_per_frame(), 0xa5);
    r.status.resize(frames);
    d.decode(llr.data(), frames, r.bits.data(), r.status.data());
    return r;
}

// The tuning of the process, read once.
const gpu_tuning& process_tuning()
{
    static const gpu_tuning tuning = gpu_tuning::from_environment();
    return tuning;
}

// The process's tuning with shared memory capped at \p bytes (a smaller card).
gpu_tuning capped(size_t bytes)
{
    gpu_tuning tuning = process_tuning();
    tuning.shared_memory_limit = bytes;
    return tuning;
}

// The process's tuning with launches of \p frames frames at most.
gpu_tuning launches_of(size_t frames, gpu_tuning tuning = process_tuning())
{
    tuning.launch_frames = frames;
    return tuning;
}

decoder_config config(decoder_schedule schedule,
                      unsigned iterations = 20,
                      message_precision messages = message_precision::fp32,
                      const gpu_tuning& tuning = process_tuning())
{
    decoder_config cfg;
    cfg.algorithm = decoder_algorithm::fft_bp;
    cfg.schedule = schedule;
    cfg.max_iterations = iterations;
    cfg.messages = messages;
    cfg.gpu = tuning;
    return cfg;
}

size_t frame_errors(const result& r, const std::vector<uint8_t>& info, size_t nb)
{
    size_t errors = 0;
    for (size_t f = 0; f < r.status.size(); ++f)
        errors += !std::equal(r.bits.begin() + f * nb,
                              r.bits.begin() + (f + 1) * nb,
                              info.begin() + f * nb);
    return errors;
}

const decoder_schedule schedules[] = { decoder_schedule::flooding,
                                       decoder_schedule::layered };

} // namespace

namespace {

// GPU and CPU on the same frames at a high SNR, both schedules: the same
// decisions and status on every frame
void check_decisions_equal_cpu(ldpc_code::sptr code,
                               size_t frames,
                               uint32_t seed,
                               double ebn0_db = 3.5,
                               message_precision messages = message_precision::fp32,
                               const gpu_tuning& tuning = process_tuning())
{
    const unsigned q = code->q();
    const auto noisy = make_batch(*code, frames, ebn0_db, seed);
    for (auto sched : schedules) {
        auto gpu = batch_decoder::make(code, config(sched, 20, messages, tuning), "cuda");
        auto cpu = batch_decoder::make(code, config(sched, 20, messages, tuning), "cpu");
        BOOST_TEST_MESSAGE("q=" << q << " n=" << code->n() << " " << to_string(sched)
                                << " messages " << to_string(messages) << " on "
                                << gpu->device_name());
        const auto g = run(*gpu, noisy.llr, frames);
        const auto c = run(*cpu, noisy.llr, frames);
        const size_t nb = gpu->info_bits_per_frame();
        size_t same_iterations = 0;
        for (size_t f = 0; f < frames; ++f) {
            BOOST_CHECK_MESSAGE(std::equal(g.bits.begin() + f * nb,
                                           g.bits.begin() + (f + 1) * nb,
                                           c.bits.begin() + f * nb),
                                "q=" << q << " frame " << f);
            BOOST_CHECK_EQUAL(g.status[f].converged, c.status[f].converged);
            BOOST_CHECK_EQUAL(g.status[f].syndrome_weight, c.status[f].syndrome_weight);
            BOOST_CHECK(g.status[f].converged == (g.status[f].syndrome_weight == 0));
            same_iterations += g.status[f].iterations == c.status[f].iterations;
        }
        // rounding (exp/log of the device) may move a frame by an iteration
        BOOST_CHECK_GE(same_iterations * 10, frames * 9);
        // and the comparison is not vacuous: nearly every frame decodes (the
        // few frames of a sanitizer run: most of them)
        const size_t errors = frame_errors(g, noisy.info_bits, nb);
        if (frames >= 20)
            BOOST_CHECK_LE(errors * 20, frames);
        else
            BOOST_CHECK_LE(errors * 2, frames);
    }
}

} // namespace

BOOST_AUTO_TEST_CASE(gpu_decisions_equal_cpu_at_high_snr,
                     *utf::precondition(gpu_present()))
{
    for (unsigned q : { 2u, 4u, 8u, 16u, 64u, 256u })
        check_decisions_equal_cpu(test_code(q), small() ? 8 : 200, q);
    // the small fields' edge threads with the other check size: GF(8) with
    // checks of 6 edges (8 lanes), GF(2) with 4; GF(2)'s paired lanes with
    // one edge: checks of 5 edges (a last warp of 6 checks) and of 3 (groups
    // of 4, a last warp of 12 checks); and more check warps than a block has
    // (n = 600: 38)
    check_decisions_equal_cpu(
        std::make_shared<ldpc_code>(construct_regular_code(96, 3, 6, 8, 11)),
        small() ? 8 : 200,
        80);
    check_decisions_equal_cpu(
        std::make_shared<ldpc_code>(construct_regular_code(128, 2, 4, 2, 11)),
        small() ? 8 : 200,
        81,
        5.0);
    check_decisions_equal_cpu(
        std::make_shared<ldpc_code>(construct_regular_code(90, 3, 5, 2, 11)),
        small() ? 8 : 200,
        82,
        5.0);
    check_decisions_equal_cpu(
        std::make_shared<ldpc_code>(construct_regular_code(90, 2, 3, 2, 11)),
        small() ? 8 : 100,
        83,
        7.0); // columns of weight 2: a floor near 1e-3 frame errors even at 6 dB
    check_decisions_equal_cpu(
        std::make_shared<ldpc_code>(construct_regular_code(600, 3, 6, 2, 11)),
        small() ? 8 : 100,
        84,
        4.0);
}

BOOST_AUTO_TEST_CASE(gpu_fp16_messages_equal_cpu, *utf::precondition(gpu_present()))
{
    // messages rounded to half precision on both sides: on chip (registers
    // and rows), and in global memory under a cap (check-parallel, layered)
    for (unsigned q : { 2u, 4u, 16u, 64u, 256u })
        check_decisions_equal_cpu(
            test_code(q), small() ? 8 : 200, 60 + q, 3.5, message_precision::fp16);
    for (unsigned q : { 16u, 256u })
        check_decisions_equal_cpu(test_code(q),
                                  small() ? 6 : 48,
                                  70 + q,
                                  3.5,
                                  message_precision::fp16,
                                  capped(q >= 64 ? 16 * 1024 : 2 * 1024));
}

BOOST_AUTO_TEST_CASE(gpu_register_layouts_equal_cpu, *utf::precondition(gpu_present()))
{
    // the register check update's layouts: 4 and 8 edge slots, idle slots
    // (degree 3 in 4 slots, 6 in 8), q = 64, 128, 256. GF(64) flooding takes
    // a thread per edge where two frames fit the shared memory (idle lanes:
    // n = 96 with degree 3; a last warp short of checks: n = 60, 30 checks;
    // variables of degree 3, GF(16)),
    // and with degree <= 4 the tensor cores from compute capability 8.0 on
    // otherwise (the tests cpp_qa_gpu_decoder_tensor_cores and _registers
    // turn the edge threads, then the tensor cores, off). At 4.5 dB, where
    // every frame of these short codes converges (a frame that does not may
    // end on different wrong decisions after different roundings)
    struct shape {
        unsigned n, dv, dc, q;
    };
    for (const shape s : { shape{ 192, 4, 8, 64 },
                           shape{ 96, 2, 3, 64 },
                           shape{ 96, 3, 6, 16 },
                           shape{ 60, 2, 4, 64 },
                           shape{ 64, 2, 4, 128 },
                           shape{ 64, 3, 6, 128 },
                           shape{ 64, 3, 4, 256 } })
        check_decisions_equal_cpu(std::make_shared<ldpc_code>(construct_regular_code(
                                      s.n, s.dv, s.dc, s.q, 11 + s.dc)),
                                  small() ? 8 : 100,
                                  s.q + s.dc,
                                  4.5);
}

BOOST_AUTO_TEST_CASE(gpu_frame_errors_agree_with_cpu, *utf::precondition(gpu_present()))
{
    // Near FER 1e-2 on the same frames: the counts of two binomial samples of N
    // frames differ by at most z * sqrt(2 N p (1 - p)) + 1 with z = 3.29
    // (two-sided 0.1 %); frames are shared, so the real spread is smaller.
    for (unsigned q : { 4u, 64u, 256u }) {
        const auto code = test_code(q);
        const size_t frames = small() ? 16 : 2000;
        const double ebn0 = q == 4 ? 2.0 : q == 64 ? 1.6 : 1.4;
        const auto noisy = make_batch(*code, frames, ebn0, 100 + q);
        for (auto sched : schedules) {
            auto gpu = batch_decoder::make(code, config(sched, 30), "cuda");
            auto cpu = batch_decoder::make(code, config(sched, 30), "cpu");
            const size_t nb = gpu->info_bits_per_frame();
            const double eg =
                double(frame_errors(run(*gpu, noisy.llr, frames), noisy.info_bits, nb));
            const double ec =
                double(frame_errors(run(*cpu, noisy.llr, frames), noisy.info_bits, nb));
            const double p = (eg + ec) / (2.0 * frames);
            const double bound = 3.29 * std::sqrt(2.0 * frames * p * (1.0 - p)) + 1.0;
            BOOST_TEST_MESSAGE("q=" << q << " GPU " << eg << " CPU " << ec << " of "
                                    << frames);
            BOOST_CHECK_MESSAGE(std::fabs(eg - ec) <= bound,
                                "q=" << q << ": GPU " << eg << " vs CPU " << ec
                                     << " frame errors in " << frames << ", bound "
                                     << bound);
            if (!small()) // the point is near the waterfall: errors do occur
                BOOST_CHECK_GT(ec, 0.0);
        }
    }
}

BOOST_AUTO_TEST_CASE(gpu_status_without_early_termination,
                     *utf::precondition(gpu_present()))
{
    const auto code = test_code(16);
    const size_t frames = 9;
    const auto noisy = make_batch(*code, frames, 4.0, 5);
    for (auto sched : schedules) {
        auto cfg = config(sched, 7);
        cfg.early_termination = false;
        auto gpu = batch_decoder::make(code, cfg, "cuda");
        const auto g = run(*gpu, noisy.llr, frames);
        for (const auto& st : g.status) {
            BOOST_CHECK_EQUAL(st.iterations, 7u);
            BOOST_CHECK(st.converged == (st.syndrome_weight == 0));
        }
        BOOST_CHECK_EQUAL(frame_errors(g, noisy.info_bits, gpu->info_bits_per_frame()),
                          0u);
    }
}

BOOST_AUTO_TEST_CASE(gpu_frames_are_independent, *utf::precondition(gpu_present()))
{
    // a batch of mixed SNRs with NaN/Inf in one frame: every frame gets the
    // result it gets alone; batch sizes 1, odd, and beyond one launch
    const auto code = test_code(64);
    const size_t frames = small() ? 5 : 37;
    auto noisy = make_batch(*code, frames, 1.2, 9);
    const auto clean = make_batch(*code, frames, 5.0, 10);
    const size_t nl = size_t(code->n()) * code->bits_per_symbol();
    for (size_t f = 0; f < frames; f += 2) // every other frame at a high SNR
        std::copy_n(&clean.llr[f * nl], nl, &noisy.llr[f * nl]);
    noisy.llr[3 * nl + 5] = std::numeric_limits<float>::quiet_NaN();
    noisy.llr[3 * nl + 6] = std::numeric_limits<float>::infinity();
    for (auto sched : schedules) {
        auto gpu = batch_decoder::make(code, config(sched), "cuda");
        const auto batch = run(*gpu, noisy.llr, frames);
        const size_t nb = gpu->info_bits_per_frame();
        for (size_t f = 0; f < frames; ++f) {
            const std::vector<float> one(noisy.llr.begin() + f * nl,
                                         noisy.llr.begin() + (f + 1) * nl);
            const auto alone = run(*gpu, one, 1);
            BOOST_CHECK(std::equal(
                alone.bits.begin(), alone.bits.end(), batch.bits.begin() + f * nb));
            BOOST_CHECK_EQUAL(alone.status[0].iterations, batch.status[f].iterations);
            BOOST_CHECK_EQUAL(batch.status[f].invalid_inputs, f == 3 ? 2u : 0u);
        }
    }
    // more frames than one launch holds
    auto chunked = batch_decoder::make(
        code,
        config(decoder_schedule::layered, 20, message_precision::fp32, launches_of(4)),
        "cuda");
    auto whole = batch_decoder::make(code, config(decoder_schedule::layered), "cuda");
    const auto a = run(*chunked, noisy.llr, frames);
    const auto b = run(*whole, noisy.llr, frames);
    BOOST_CHECK(a.bits == b.bits);
    for (size_t f = 0; f < frames; ++f)
        BOOST_CHECK_EQUAL(a.status[f].iterations, b.status[f].iterations);
}

BOOST_AUTO_TEST_CASE(gpu_symbol_likelihoods_and_sign, *utf::precondition(gpu_present()))
{
    const auto code = test_code(16);
    const unsigned q = code->q(), m = code->bits_per_symbol();
    const size_t frames = 6;
    const auto noisy = make_batch(*code, frames, 3.0, 12);
    // symbol log-likelihoods from the bit LLRs: sum of log P(bit) (no loss)
    std::vector<float> ll(frames * code->n() * q);
    for (size_t v = 0; v < frames * code->n(); ++v)
        for (unsigned x = 0; x < q; ++x) {
            float s = 0;
            for (unsigned b = 0; b < m; ++b) {
                const float l = noisy.llr[v * m + b]; // log(P1/P0)
                s += ((x >> (m - 1 - b)) & 1) ? -std::log1p(std::exp(-l))
                                              : -std::log1p(std::exp(l));
            }
            ll[v * q + x] = s;
        }
    auto gpu = batch_decoder::make(code, config(decoder_schedule::flooding), "cuda");
    auto cpu = batch_decoder::make(code, config(decoder_schedule::flooding), "cpu");
    std::vector<uint8_t> gb(frames * gpu->info_bits_per_frame()), cb(gb.size());
    std::vector<frame_status> gs(frames), cs(frames);
    gpu->decode_symbol_llr(ll.data(), frames, gb.data(), gs.data());
    cpu->decode_symbol_llr(ll.data(), frames, cb.data(), cs.data());
    BOOST_CHECK(gb == cb);
    BOOST_CHECK(gb == noisy.info_bits);
    // flipped sign convention
    std::vector<float> flipped(noisy.llr);
    for (auto& x : flipped)
        x = -x;
    auto cfg = config(decoder_schedule::layered);
    cfg.flip_llr_sign = true;
    auto gpu_flipped = batch_decoder::make(code, cfg, "cuda");
    BOOST_CHECK(run(*gpu_flipped, flipped, frames).bits == noisy.info_bits);
}

// Complex symbols of the matched constellation (GF(16) on 16-QAM, GF(64) on
// 64-QAM, GF(256) on 256-QAM), demapped on the device with the CPU's
// arithmetic: decisions and status equal the CPU's on every frame, with a
// noise variance a frame, a NaN symbol counted in its frame, batches of
// several launches.
BOOST_AUTO_TEST_CASE(gpu_matched_symbols_equal_cpu, *utf::precondition(gpu_present()))
{
    for (unsigned q : { 16u, 64u, 256u }) {
        const auto code = test_code(q);
        const auto points = constellation::make(q == 16   ? "gpuldpc-16qam"
                                                : q == 64 ? "gpuldpc-64qam"
                                                          : "gpuldpc-256qam");
        const size_t frames = small() ? 5 : 150, n = code->n();
        std::mt19937 rng(40 + q);
        std::vector<uint8_t> info(frames * code->k()), cw(frames * n);
        for (auto& s : info)
            s = uint8_t(rng() % q);
        code->encode(info.data(), cw.data(), frames);
        std::vector<float> n0(frames);
        std::vector<std::complex<float>> y(frames * n);
        std::normal_distribution<float> gauss(0.0f, 1.0f);
        for (size_t f = 0; f < frames; ++f) {
            // Es/N0 from about 13 to 25 dB: some frames fail at 256-QAM
            n0[f] = std::pow(10.0f, -(13.0f + float(f % 13)) / 10.0f);
            const float s = std::sqrt(n0[f] / 2.0f);
            for (size_t v = 0; v < n; ++v)
                y[f * n + v] = points.points()[cw[f * n + v]] +
                               std::complex<float>(s * gauss(rng), s * gauss(rng));
        }
        y[n + 3] = std::complex<float>(NAN, 0.0f);
        const auto cfg = config(decoder_schedule::flooding);
        auto gpu = batch_decoder::make(code, cfg, "cuda");
        auto cpu = batch_decoder::make(code, cfg, "cpu");
        const size_t nb = gpu->info_bits_per_frame();
        std::vector<uint8_t> gb(frames * nb), cb(gb.size());
        std::vector<frame_status> gs(frames), cs(frames);
        gpu->decode_symbols(y.data(), frames, points, n0.data(), gb.data(), gs.data());
        cpu->decode_symbols(y.data(), frames, points, n0.data(), cb.data(), cs.data());
        BOOST_TEST_CONTEXT("q=" << q)
        {
            BOOST_CHECK(gb == cb);
            size_t differ = 0, failed = 0;
            for (size_t f = 0; f < frames; ++f) {
                differ += gs[f].converged != cs[f].converged ||
                          gs[f].iterations != cs[f].iterations ||
                          gs[f].syndrome_weight != cs[f].syndrome_weight ||
                          gs[f].invalid_inputs != cs[f].invalid_inputs;
                failed += !cs[f].converged;
            }
            BOOST_CHECK_EQUAL(differ, 0u);
            BOOST_CHECK_EQUAL(gs[1].invalid_inputs, q);
            BOOST_TEST_MESSAGE("q=" << q << ": " << failed << " of " << frames
                                    << " frames failed on both");
            // the frames at 25 dB decode to what was sent
            for (size_t f = 12; f < frames; f += 13) {
                std::vector<uint8_t> sent(nb);
                const unsigned m = code->bits_per_symbol();
                for (size_t i = 0; i < code->k(); ++i)
                    for (unsigned b = 0; b < m; ++b)
                        sent[i * m + b] = (info[f * code->k() + i] >> (m - 1 - b)) & 1;
                BOOST_CHECK(std::equal(sent.begin(), sent.end(), gb.begin() + f * nb));
            }
            // a wrong constellation is refused by name
            BOOST_CHECK_THROW(gpu->decode_symbols(y.data(),
                                                  1,
                                                  constellation::make("gpuldpc-qpsk"),
                                                  n0.data(),
                                                  gb.data(),
                                                  gs.data()),
                              std::invalid_argument);
        }
    }
}

BOOST_AUTO_TEST_CASE(gpu_decode_from_device_memory, *utf::precondition(gpu_present()))
{
#ifdef GPULDPC_HAVE_CUDA
    // decode_device on LLRs in device memory: the results of decode(), for a
    // batch beyond one launch, with the bits one a byte and packed
    const auto code = test_code(64);
    const size_t frames = small() ? 6 : 41;
    const auto noisy = make_batch(*code, frames, 1.4, 21);
    for (bool pack : { false, true }) {
        auto cfg = config(decoder_schedule::layered);
        cfg.pack_info_bits = pack;
        cfg.gpu = launches_of(4);
        auto gpu = batch_decoder::make(code, cfg, "cuda");
        const auto host = run(*gpu, noisy.llr, frames);
        const size_t nb = gpu->info_bytes_per_frame();
        float* d_llr = nullptr;
        uint8_t* d_bits = nullptr;
        frame_status* d_status = nullptr;
        BOOST_REQUIRE_EQUAL(cudaMalloc(reinterpret_cast<void**>(&d_llr),
                                       noisy.llr.size() * sizeof(float)),
                            cudaSuccess);
        BOOST_REQUIRE_EQUAL(cudaMalloc(reinterpret_cast<void**>(&d_bits), frames * nb),
                            cudaSuccess);
        BOOST_REQUIRE_EQUAL(cudaMalloc(reinterpret_cast<void**>(&d_status),
                                       frames * sizeof(frame_status)),
                            cudaSuccess);
        BOOST_REQUIRE_EQUAL(cudaMemcpy(d_llr,
                                       noisy.llr.data(),
                                       noisy.llr.size() * sizeof(float),
                                       cudaMemcpyHostToDevice),
                            cudaSuccess);
        BOOST_REQUIRE_EQUAL(cudaMemset(d_bits, 0xa5, frames * nb), cudaSuccess);
        gpu->decode_device(d_llr, frames, d_bits, d_status);
        std::vector<uint8_t> bits(frames * nb);
        std::vector<frame_status> status(frames);
        BOOST_REQUIRE_EQUAL(
            cudaMemcpy(bits.data(), d_bits, bits.size(), cudaMemcpyDeviceToHost),
            cudaSuccess);
        BOOST_REQUIRE_EQUAL(cudaMemcpy(status.data(),
                                       d_status,
                                       frames * sizeof(frame_status),
                                       cudaMemcpyDeviceToHost),
                            cudaSuccess);
        cudaFree(d_llr);
        cudaFree(d_bits);
        cudaFree(d_status);
        BOOST_CHECK(bits == host.bits);
        for (size_t f = 0; f < frames; ++f) {
            BOOST_CHECK_EQUAL(status[f].iterations, host.status[f].iterations);
            BOOST_CHECK_EQUAL(status[f].syndrome_weight, host.status[f].syndrome_weight);
        }
    }
#endif
}

BOOST_AUTO_TEST_CASE(gpu_check_parallel_equals_cpu, *utf::precondition(gpu_present()))
{
    // shared memory capped below each code's messages: flooding runs a thread
    // block per check and frame (check_parallel), layered a block per frame;
    // both give the CPU's decisions, with early termination and without
    for (unsigned q : { 2u, 16u, 64u, 256u }) {
        const gpu_tuning cap = capped(q >= 64 ? 16 * 1024 : 2 * 1024);
        check_decisions_equal_cpu(
            test_code(q), small() ? 6 : 48, 30 + q, 3.5, message_precision::fp32, cap);
        const auto code = test_code(q);
        const size_t frames = small() ? 4 : 24;
        const auto noisy = make_batch(*code, frames, 3.5, 40 + q);
        auto cfg = config(decoder_schedule::flooding, 8, message_precision::fp32, cap);
        cfg.early_termination = false;
        auto gpu = batch_decoder::make(code, cfg, "cuda");
        auto cpu = batch_decoder::make(code, cfg, "cpu");
        const auto g = run(*gpu, noisy.llr, frames);
        const auto c = run(*cpu, noisy.llr, frames);
        BOOST_CHECK(g.bits == c.bits);
        for (size_t f = 0; f < frames; ++f) {
            BOOST_CHECK_EQUAL(g.status[f].iterations, 8u);
            BOOST_CHECK_EQUAL(g.status[f].converged, c.status[f].converged);
            BOOST_CHECK_EQUAL(g.status[f].syndrome_weight, c.status[f].syndrome_weight);
        }
    }
}

BOOST_AUTO_TEST_CASE(gpu_outstanding_batches, *utf::precondition(gpu_present()))
{
    // two batches in flight on the two workspaces, in page-locked buffers,
    // beyond one launch each; a decode() between them
    const auto code = test_code(64);
    const size_t frames = small() ? 3 : 37;
    const auto noisy = make_batch(*code, 3 * frames, 1.3, 22);
    auto gpu = batch_decoder::make(
        code,
        config(decoder_schedule::flooding, 20, message_precision::fp32, launches_of(16)),
        "cuda");
    qa::check_outstanding_batches(*gpu, noisy.llr, frames);
    BOOST_CHECK_EQUAL(gpu->workspaces(), 2u);
}

BOOST_AUTO_TEST_CASE(gpu_packed_info_bits_are_the_decoded_bits_packed,
                     *utf::precondition(gpu_present()))
{
    // q = 64, n = 100: 300 information bits, frames end mid-byte; a low SNR
    // for failed and converged frames; packed results written on the device
    // are the unpacked ones packed: in launches of 16 frames, on chip and in
    // global memory (shared memory capped), in one call and in outstanding
    // batches
    const std::vector<ldpc_code::sptr> codes = {
        test_code(2),
        std::make_shared<ldpc_code>(construct_regular_code(100, 2, 4, 64, 11))
    };
    for (const auto& code : codes)
        for (bool cap : { false, true }) {
            const size_t frames = small() ? 4 : 40;
            const auto noisy = make_batch(*code, 3 * frames, 1.0, 31);
            auto cfg = config(decoder_schedule::layered);
            cfg.gpu = launches_of(16,
                                  cap ? capped(code->q() == 2 ? 2 * 1024 : 16 * 1024)
                                      : process_tuning());
            auto gpu = batch_decoder::make(code, cfg, "cuda");
            cfg.pack_info_bits = true;
            auto gpu_packed = batch_decoder::make(code, cfg, "cuda");
            const size_t nb = gpu->info_bits_per_frame(), bytes = packed_size(nb);
            if (code->q() == 64)
                BOOST_REQUIRE_NE(nb % 8, 0u);
            BOOST_REQUIRE_EQUAL(gpu_packed->info_bytes_per_frame(), bytes);
            const auto u = run(*gpu, noisy.llr, frames);
            const auto p = run(*gpu_packed, noisy.llr, frames);
            std::vector<uint8_t> expected(frames * bytes);
            size_t failed = 0;
            for (size_t f = 0; f < frames; ++f) {
                pack_bits(&u.bits[f * nb], nb, &expected[f * bytes]);
                BOOST_CHECK_EQUAL(p.status[f].converged, u.status[f].converged);
                BOOST_CHECK_EQUAL(p.status[f].iterations, u.status[f].iterations);
                BOOST_CHECK_EQUAL(p.status[f].syndrome_weight,
                                  u.status[f].syndrome_weight);
                failed += !u.status[f].converged;
            }
            BOOST_CHECK(p.bits == expected);
            BOOST_TEST_MESSAGE("q=" << code->q() << (cap ? " capped" : "") << ": "
                                    << failed << " of " << frames << " frames failed");
            if (!small())
                BOOST_CHECK(failed > 0 && failed < frames);
            qa::check_outstanding_batches(*gpu_packed, noisy.llr, frames);
        }
}

BOOST_AUTO_TEST_CASE(gpu_algorithm_and_device_arguments)
{
    const auto code = test_code(16);
    decoder_config cfg;
    cfg.algorithm = decoder_algorithm::log_fft_bp;
    // auto takes the CPU where the GPU does not run the algorithm
    BOOST_CHECK_EQUAL(batch_decoder::make(code, cfg, "auto")->device_name(), "cpu");
    BOOST_CHECK_THROW(batch_decoder::make(code, cfg, "cuda"), std::exception);
    BOOST_CHECK_THROW(batch_decoder::make(code, {}, "gpu"), std::invalid_argument);
    // device memory is for GPU decoders
    BOOST_CHECK_THROW(
        batch_decoder::make(code, {}, "cpu")->decode_device(nullptr, 1, nullptr, nullptr),
        std::logic_error);
    if (cuda_devices().empty()) {
        BOOST_CHECK_THROW(batch_decoder::make(code, {}, "cuda"), std::runtime_error);
        BOOST_CHECK_EQUAL(batch_decoder::make(code, {}, "auto")->device_name(), "cpu");
    } else {
        BOOST_CHECK_NE(batch_decoder::make(code, {}, "auto")->device_name(), "cpu");
    }
}
