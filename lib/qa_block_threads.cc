/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The frame blocks read from other threads while they run: a GUI polling
// stats() and the counters, PDUs posted beside the stream. Meant to run under
// ThreadSanitizer too (README, "Sanitizers").

#include <gnuradio/blocks/message_debug.h>
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <gnuradio/gpuldpc/ldpc_decoder.h>
#include <gnuradio/gpuldpc/ldpc_encoder.h>
#include <gnuradio/top_block.h>
#include <boost/test/unit_test.hpp>
#include <atomic>
#include <chrono>
#include <random>
#include <thread>

using namespace gr::gpuldpc;

namespace {

gr::tag_t length_tag(uint64_t offset, long len)
{
    gr::tag_t t;
    t.offset = offset;
    t.key = pmt::mp("packet_len");
    t.value = pmt::from_long(len);
    return t;
}

} // namespace

BOOST_AUTO_TEST_CASE(counters_polled_while_frames_flow)
{
    auto code = std::make_shared<ldpc_code>(construct_regular_code(96, 2, 4, 16, 7));
    const size_t frames = 400;
    const size_t n = size_t(code->n()) * code->bits_per_symbol();
    // the all-zero codeword, noisy, with every tenth packet of a wrong length
    std::mt19937 rng(3);
    std::normal_distribution<float> noise(-6.0f, 1.0f);
    std::vector<float> llr;
    std::vector<gr::tag_t> tags;
    for (size_t f = 0; f < frames; ++f) {
        const size_t len = f % 10 == 9 ? n / 2 : n;
        tags.push_back(length_tag(llr.size(), long(len)));
        for (size_t i = 0; i < len; ++i)
            llr.push_back(noise(rng));
    }

    ldpc_decoder::params p;
    p.code = code;
    p.max_batch = 16;
    p.decoder.threads = 2;
    p.stats_interval = 0.001;
    auto dec = ldpc_decoder::make(p);
    auto src = gr::blocks::vector_source_f::make(llr, false, 1, tags);
    auto sink = gr::blocks::null_sink::make(sizeof(uint8_t));
    auto stats = gr::blocks::message_debug::make();
    auto tb = gr::make_top_block("counters");
    tb->connect(src, 0, dec, 0);
    tb->connect(dec, 0, sink, 0);
    tb->msg_connect(dec, "stats", stats, "store");

    std::atomic<bool> running{ true };
    std::atomic<uint64_t> polls{ 0 };
    uint64_t last_frames = 0;
    bool monotonic = true;
    std::thread poller([&] {
        while (running.load()) {
            const pmt::pmt_t s = dec->stats();
            const uint64_t f = dec->frames();
            monotonic &= f >= last_frames;
            last_frames = f;
            monotonic &=
                pmt::to_uint64(pmt::dict_ref(s, pmt::mp("frames"), pmt::PMT_NIL)) <= f;
            (void)dec->bad_length_frames();
            (void)dec->missing_tag_items();
            (void)dec->average_iterations();
            ++polls;
        }
    });
    // PDUs from a third thread, beside the stream, once the flowgraph runs
    tb->start();
    // and the poller's first poll before the flowgraph is waited for (on a
    // loaded machine its thread may be scheduled only after the flowgraph
    // has finished; 10 s at most)
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (polls.load() == 0 && std::chrono::steady_clock::now() < until)
        std::this_thread::yield();
    std::thread poster([&] {
        const std::vector<float> frame(n, -6.0f);
        for (int i = 0; i < 20; ++i)
            dec->_post(pmt::mp("pdus"),
                       pmt::cons(pmt::make_dict(), pmt::init_f32vector(n, frame)));
    });
    tb->wait();
    poster.join();
    running = false;
    poller.join();

    const size_t bad = frames / 10;
    BOOST_CHECK_GT(polls.load(), 0u);
    BOOST_CHECK(monotonic);
    BOOST_CHECK_EQUAL(dec->bad_length_frames(), bad);
    // every stream frame; PDUs posted before the flowgraph stopped count too
    BOOST_CHECK_GE(dec->frames(), frames - bad);
    BOOST_CHECK_LE(dec->frames(), frames - bad + 20);
    BOOST_CHECK_EQUAL(dec->failed_frames(), 0u);
}

BOOST_AUTO_TEST_CASE(encoder_counters_polled_while_frames_flow)
{
    auto code = std::make_shared<ldpc_code>(construct_regular_code(96, 3, 6, 2, 7));
    auto enc = ldpc_encoder::make_from_code(code, "bits", "bits", "");
    const size_t frames = 300;
    std::vector<uint8_t> data(frames * size_t(enc->input_frame_length()), 1);
    auto src = gr::blocks::vector_source_b::make(data, false);
    auto sink = gr::blocks::null_sink::make(sizeof(uint8_t));
    auto tb = gr::make_top_block("encoder");
    tb->connect(src, 0, enc, 0);
    tb->connect(enc, 0, sink, 0);
    std::atomic<bool> running{ true };
    std::thread poller([&] {
        while (running.load())
            (void)(enc->frames() + enc->bad_length_frames() + enc->truncated_frames());
    });
    tb->run();
    running = false;
    poller.join();
    BOOST_CHECK_EQUAL(enc->frames(), frames);
}
