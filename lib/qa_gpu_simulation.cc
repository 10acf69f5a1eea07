/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The simulator on the GPU against the CPU: the same frames bit for bit
// (information, codewords of every family's device encoder, LLRs), the same
// counts for 8-bit decoding, float decoding within statistics, several GPUs
// as one (without a CUDA device every case is skipped and says so).

#define BOOST_TEST_MODULE qa_gpu_simulation
#include "qa_helpers.h"
#include <gnuradio/gpuldpc/engine/simulation.h>
#include <boost/test/unit_test.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

using namespace gr::gpuldpc;
using qa::gpu_present;

namespace {

ldpc_code::sptr load(const std::string& name)
{
    return std::make_shared<ldpc_code>(ldpc_code::load(name));
}

decoder_config config(decoder_algorithm a, message_precision p, unsigned iterations)
{
    decoder_config c;
    c.algorithm = a;
    c.messages = p;
    c.max_iterations = iterations;
    c.threads = 2;
    return c;
}

} // namespace

// Every family the device encodes: its frames equal the CPU's, bit for bit
BOOST_AUTO_TEST_CASE(device_frames_equal_the_cpus,
                     *boost::unit_test::precondition(gpu_present()))
{
    for (const char* name : { "regular_3_6_n96_gf2",
                              "regular_3_6_n1008_gf2",
                              "regular_2_4_n96_gf64",
                              "regular_2_4_n256_gf256",
                              "regular_2_4_n128_gf16",
                              "dvbs2:1/2:short",
                              "dvbs2:1/4",
                              "nr:1:384",
                              "nr:2:52:9",
                              "wifi:1944:1/2",
                              "wifi:648:5/6",
                              "wimax:2304:3/4B" }) {
        BOOST_TEST_CONTEXT(name)
        {
            auto code = load(name);
            const decoder_config cfg =
                code->q() == 2
                    ? config(decoder_algorithm::min_sum, message_precision::int8, 10)
                    : config(decoder_algorithm::fft_bp, message_precision::fp32, 10);
            auto cpu = simulation::make(batch_decoder::make(code, cfg, "cpu"));
            auto gpu = simulation::make(batch_decoder::make(code, cfg, "cuda"));
            BOOST_TEST_MESSAGE(name << ": " << gpu->encoder_variant());
            const size_t frames = qa::small() ? 3 : 37;
            const size_t n = code->n(), k = code->k(),
                         nl = gpu->decoder().llr_per_frame();
            std::vector<uint8_t> i0(frames * k), i1(frames * k), c0(frames * n),
                c1(frames * n);
            std::vector<float> l0(frames * nl), l1(frames * nl);
            const auto ch = sim_channel::at(2.0, code->rate());
            cpu->frames(21, ch, 1000, 3, frames, i0.data(), c0.data(), l0.data());
            gpu->frames(21, ch, 1000, 3, frames, i1.data(), c1.data(), l1.data());
            BOOST_CHECK(i0 == i1);
            BOOST_CHECK(c0 == c1);
            BOOST_CHECK(std::memcmp(l0.data(), l1.data(), l0.size() * sizeof(float)) ==
                        0);
            for (size_t f = 0; f < frames; ++f)
                BOOST_CHECK_EQUAL(code->syndrome_weight(&c1[f * n]), 0u);
        }
    }
}

// A structured encoder the device lacks is refused, naming the code
BOOST_AUTO_TEST_CASE(ar4ja_refused_on_the_device,
                     *boost::unit_test::precondition(gpu_present()))
{
    auto code = load("ar4ja:1024:1/2");
    BOOST_CHECK_THROW(simulation::make(batch_decoder::make(code, {}, "cuda")),
                      std::invalid_argument);
}

// 8-bit min-sum: the GPU counts the CPU's errors and iterations frame for
// frame, near each code's waterfall
BOOST_AUTO_TEST_CASE(int8_counts_equal_the_cpus,
                     *boost::unit_test::precondition(gpu_present()))
{
    struct point {
        const char* code;
        double ebn0;
        decoder_schedule schedule;
        bool packed; // information bits 8 a byte (k = 504: a last block of 8)
    };
    // the count kernel takes a warp a frame up to 2048 information bits, a
    // block a frame beyond (dvbs2 short, k = 7200; nr:1:128, k = 2816), and
    // unpacked decisions a word at a time where k is a multiple of 4, else a
    // byte at a time (nr:1:15, k = 330)
    for (const point& p :
         { point{ "wifi:648:1/2", 1.5, decoder_schedule::layered, false },
           point{ "regular_3_6_n1008_gf2", 1.8, decoder_schedule::flooding, true },
           point{ "dvbs2:1/2:short", 1.2, decoder_schedule::layered, false },
           point{ "nr:1:128", 1.0, decoder_schedule::layered, true },
           point{ "nr:1:15", 1.0, decoder_schedule::layered, false } }) {
        BOOST_TEST_CONTEXT(p.code)
        {
            auto code = load(p.code);
            decoder_config cfg =
                config(decoder_algorithm::min_sum, message_precision::int8, 20);
            cfg.schedule = p.schedule;
            cfg.pack_info_bits = p.packed;
            auto cpu = simulation::make(batch_decoder::make(code, cfg, "cpu"));
            auto gpu = simulation::make(batch_decoder::make(code, cfg, "cuda"));
            const size_t frames = qa::small() ? 16 : 400;
            std::vector<sim_frame_result> a(frames), b(frames);
            const auto ch = sim_channel::at(p.ebn0, code->rate());
            cpu->run(5, ch, 0, 1, frames, a.data());
            gpu->run(5, ch, 0, 1, frames, b.data());
            size_t failed = 0;
            for (size_t f = 0; f < frames; ++f) {
                BOOST_CHECK_EQUAL(a[f].bit_errors, b[f].bit_errors);
                BOOST_CHECK_EQUAL(a[f].iterations, b[f].iterations);
                BOOST_CHECK_EQUAL(a[f].converged, b[f].converged);
                failed += a[f].bit_errors > 0;
            }
            BOOST_TEST_MESSAGE(p.code << " at " << p.ebn0 << " dB: " << failed << " of "
                                      << frames << " frames failed");
        }
    }
}

// A call of several decoder batches (the next drawn while one decodes, each
// counted while the next decodes, the slots' buffers taken in turn) counts
// what calls of one batch each count
BOOST_AUTO_TEST_CASE(batches_in_turn_count_as_calls_of_one,
                     *boost::unit_test::precondition(gpu_present()))
{
    auto code = load("regular_3_6_n96_gf2");
    decoder_config cfg = config(decoder_algorithm::min_sum, message_precision::int8, 10);
    cfg.pack_info_bits = true;
    auto gpu = simulation::make(batch_decoder::make(code, cfg, "cuda"));
    // preferred_batch(): four of the worker's batches
    const size_t batch = std::max<size_t>(1, gpu->preferred_batch() / 4);
    const size_t frames = 2 * batch + 7;
    BOOST_TEST_MESSAGE(frames << " frames, batches of " << batch);
    const auto ch = sim_channel::at(3.0, code->rate());
    std::vector<sim_frame_result> whole(frames), parts(frames);
    gpu->run(9, ch, 0, 1, frames, whole.data());
    const size_t part = batch / 2 + 1;
    for (size_t f0 = 0; f0 < frames; f0 += part)
        gpu->run(9, ch, f0, 1, std::min(part, frames - f0), parts.data() + f0);
    size_t differ = 0, failed = 0;
    for (size_t f = 0; f < frames; ++f) {
        differ += whole[f].bit_errors != parts[f].bit_errors ||
                  whole[f].iterations != parts[f].iterations ||
                  whole[f].converged != parts[f].converged;
        failed += whole[f].bit_errors > 0;
    }
    BOOST_CHECK_EQUAL(differ, 0u);
    // the frames are noisy enough to count something
    BOOST_CHECK_GT(failed, 0u);
}

// Float decoders: frame error counts of the GPU and the CPU on the same
// frames differ only where float rounding tips a frame: at most a few
// percent of the frames, and the totals within 5 standard errors
BOOST_AUTO_TEST_CASE(float_counts_agree, *boost::unit_test::precondition(gpu_present()))
{
    auto code = load("regular_2_4_n96_gf64");
    const decoder_config cfg =
        config(decoder_algorithm::fft_bp, message_precision::fp32, 20);
    auto cpu = simulation::make(batch_decoder::make(code, cfg, "cpu"));
    auto gpu = simulation::make(batch_decoder::make(code, cfg, "cuda"));
    const size_t frames = qa::small() ? 32 : 2000;
    std::vector<sim_frame_result> a(frames), b(frames);
    const auto ch = sim_channel::at(1.5, code->rate());
    cpu->run(8, ch, 0, 1, frames, a.data());
    gpu->run(8, ch, 0, 1, frames, b.data());
    size_t fa = 0, fb = 0, differ = 0;
    for (size_t f = 0; f < frames; ++f) {
        fa += a[f].bit_errors > 0;
        fb += b[f].bit_errors > 0;
        differ += (a[f].bit_errors > 0) != (b[f].bit_errors > 0);
    }
    BOOST_TEST_MESSAGE("fft-bp frame errors: CPU " << fa << ", GPU " << fb << ", "
                                                   << differ << " frames differ");
    BOOST_CHECK_GT(fa, 0u);
    BOOST_CHECK_LE(differ, frames / 20 + 2);
    const double p = double(fa) / frames;
    BOOST_CHECK_LE(std::abs(double(fa) - double(fb)),
                   5.0 * std::sqrt(2.0 * frames * p * (1 - p)) + 1);
}

// Several GPUs take the frames of a call in turn: counts equal one GPU's
// (skipped, saying so, with one GPU)
BOOST_AUTO_TEST_CASE(device_lists_count_as_one,
                     *boost::unit_test::precondition(gpu_present()))
{
    const size_t gpus = cuda_devices().size();
    if (gpus < 2) {
        std::cout << "device lists: one CUDA device; the case needs two" << std::endl;
        return;
    }
    auto code = load("wifi:1944:1/2");
    const decoder_config cfg =
        config(decoder_algorithm::min_sum, message_precision::int8, 20);
    auto one = simulation::make(batch_decoder::make(code, cfg, "cuda:0"));
    auto all = simulation::make(batch_decoder::make(code, cfg, "cuda:0"), "cuda:all");
    BOOST_CHECK_EQUAL(all->devices(), gpus);
    const size_t frames = 1001;
    std::vector<sim_frame_result> a(frames), b(frames);
    const auto ch = sim_channel::at(1.3, code->rate());
    one->run(3, ch, 17, 1, frames, a.data());
    all->run(3, ch, 17, 1, frames, b.data());
    for (size_t f = 0; f < frames; ++f) {
        BOOST_CHECK_EQUAL(a[f].bit_errors, b[f].bit_errors);
        BOOST_CHECK_EQUAL(a[f].iterations, b[f].iterations);
    }
    BOOST_CHECK_THROW(
        simulation::make(batch_decoder::make(code, cfg, "cuda:0"), "cuda:0,0"),
        std::invalid_argument);
}

// decode() of a host batch larger than two of its chunks goes in chunks on
// two streams, staged through page-locked memory: the results are those of
// small calls, frame for frame, for float and 8-bit input, pageable and
// page-locked, with and without codewords
BOOST_AUTO_TEST_CASE(large_host_batches_in_chunks,
                     *boost::unit_test::precondition(gpu_present()))
{
    auto code = load("regular_3_6_n1008_gf2");
    const decoder_config cfg =
        config(decoder_algorithm::min_sum, message_precision::int8, 10);
    auto dec = batch_decoder::make(code, cfg, "cuda");
    auto sim = simulation::make(dec);
    // 160 MB of float input: several chunks of about 16 MiB whatever the
    // decoder's efficient chunk
    const size_t frames = qa::small() ? 9000 : 40000, nl = dec->llr_per_frame();
    const size_t nb = dec->info_bytes_per_frame(), nc = code->n();
    std::vector<float> llr(frames * nl);
    sim->frames(1,
                sim_channel::at(2.5, code->rate()),
                0,
                1,
                frames,
                nullptr,
                nullptr,
                llr.data());
    std::vector<int8_t> llr8(llr.size());
    for (size_t i = 0; i < llr.size(); ++i)
        llr8[i] =
            int8_t(std::max(-127.0f, std::min(127.0f, std::nearbyint(4.0f * llr[i]))));
    auto small_calls = [&](auto decode_part,
                           std::vector<uint8_t>& bits,
                           std::vector<frame_status>& st,
                           std::vector<uint8_t>& cw) {
        bits.resize(frames * nb);
        st.resize(frames);
        cw.resize(frames * nc);
        for (size_t f0 = 0; f0 < frames; f0 += 1000)
            decode_part(f0,
                        std::min<size_t>(1000, frames - f0),
                        &bits[f0 * nb],
                        &st[f0],
                        &cw[f0 * nc]);
    };
    auto same = [&](const std::vector<uint8_t>& b0,
                    const std::vector<frame_status>& s0,
                    const std::vector<uint8_t>& b1,
                    const std::vector<frame_status>& s1) {
        BOOST_CHECK(b0 == b1);
        size_t differ = 0;
        for (size_t f = 0; f < frames; ++f)
            differ += s0[f].iterations != s1[f].iterations ||
                      s0[f].converged != s1[f].converged ||
                      s0[f].syndrome_weight != s1[f].syndrome_weight;
        BOOST_CHECK_EQUAL(differ, 0u);
    };
    std::vector<uint8_t> b0, c0, b1(frames * nb), c1(frames * nc);
    std::vector<frame_status> s0, s1(frames);
    // float, pageable, with codewords
    small_calls(
        [&](size_t f0, size_t nf, uint8_t* b, frame_status* st, uint8_t* cw) {
            dec->decode(&llr[f0 * nl], nf, b, st, cw);
        },
        b0,
        s0,
        c0);
    dec->decode(llr.data(), frames, b1.data(), s1.data(), c1.data());
    same(b0, s0, b1, s1);
    BOOST_CHECK(c0 == c1);
    // float, page-locked, without codewords
    auto pinned = dec->host_buffer(llr.size() * sizeof(float));
    std::memcpy(pinned.get(), llr.data(), llr.size() * sizeof(float));
    std::fill(b1.begin(), b1.end(), 0xff);
    dec->decode(static_cast<const float*>(pinned.get()), frames, b1.data(), s1.data());
    same(b0, s0, b1, s1);
    // 8-bit
    small_calls(
        [&](size_t f0, size_t nf, uint8_t* b, frame_status* st, uint8_t* cw) {
            dec->decode_int8(&llr8[f0 * nl], nf, b, st, cw);
        },
        b0,
        s0,
        c0);
    dec->decode_int8(llr8.data(), frames, b1.data(), s1.data());
    same(b0, s0, b1, s1);
}

// batch_decoder on a list of GPUs: a call's frames shared among them, begun
// batches in turn; the results of one GPU's decoder (skipped, saying so,
// with one GPU)
BOOST_AUTO_TEST_CASE(decoder_on_a_device_list,
                     *boost::unit_test::precondition(gpu_present()))
{
    const size_t gpus = cuda_devices().size();
    if (gpus < 2) {
        std::cout << "decoder on a device list: one CUDA device; the case needs two"
                  << std::endl;
        return;
    }
    auto code = load("wifi:1944:1/2");
    const decoder_config cfg =
        config(decoder_algorithm::min_sum, message_precision::int8, 20);
    auto one = batch_decoder::make(code, cfg, "cuda:0");
    auto all = batch_decoder::make(code, cfg, "cuda:all");
    BOOST_CHECK_NE(all->kernel_variant().find(std::to_string(gpus) + " GPUs"),
                   std::string::npos);
    const size_t frames = 3001, nl = one->llr_per_frame(),
                 nb = one->info_bytes_per_frame();
    std::vector<float> llr(frames * nl);
    simulation::make(one)->frames(2,
                                  sim_channel::at(1.4, code->rate()),
                                  0,
                                  1,
                                  frames,
                                  nullptr,
                                  nullptr,
                                  llr.data());
    std::vector<uint8_t> b0(frames * nb), b1(frames * nb);
    std::vector<frame_status> s0(frames), s1(frames);
    one->decode(llr.data(), frames, b0.data(), s0.data());
    all->decode(llr.data(), frames, b1.data(), s1.data());
    BOOST_CHECK(b0 == b1);
    for (size_t f = 0; f < frames; ++f)
        BOOST_CHECK_EQUAL(s0[f].iterations, s1[f].iterations);
    // batches begun in turn on the devices, ended in order
    const size_t part = 1000;
    std::fill(b1.begin(), b1.end(), 0xff);
    uint64_t t0 = all->begin_decode(llr.data(), part, b1.data(), s1.data());
    uint64_t t1 = all->begin_decode(&llr[part * nl], part, &b1[part * nb], &s1[part]);
    BOOST_CHECK_THROW(all->end_decode(t1), std::logic_error);
    all->end_decode(t0);
    all->end_decode(t1);
    BOOST_CHECK(std::equal(b0.begin(), b0.begin() + 2 * part * nb, b1.begin()));
}
