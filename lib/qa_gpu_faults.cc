/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// GPU failures, injected (engine/fault_injection.h): the decoder block falls
// back to the CPU and loses no frame, whether the GPU fails while the block is
// made or mid-stream, in an allocation, a launch or a copy; the engine reports
// the failure as a cuda_error and stays usable. Skipped without a CUDA device.

#include "qa_helpers.h"
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/blocks/vector_sink.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/gpuldpc/engine/fault_injection.h>
#include <gnuradio/gpuldpc/ldpc_decoder.h>
#include <gnuradio/top_block.h>
#include <boost/test/unit_test.hpp>
#include <string>

using namespace gr::gpuldpc;

namespace {

struct fault_case {
    const char* kind;
    uint64_t nth; // counted from when the flowgraph starts
    bool at_construction;
};

// The fault cases: the first page-locked staging or device workspace
// allocation, a later launch and a later copy (a batch takes at least one
// launch and three copies), and an allocation while the block is made.
const fault_case g_cases[] = {
    { "allocation", 1, false }, { "allocation", 4, false }, { "launch", 5, false },
    { "copy", 10, false },      { "allocation", 1, true },
};

// Frames through vector source -> decoder block (device cuda, batches of 32)
// -> vector sink with the fault armed; every frame must come out, in order,
// with its information bits, and the block must have gone to the CPU.
void run_with_fault(std::shared_ptr<ldpc_code> code,
                    const fault_case& c,
                    const std::string& algorithm,
                    const std::string& messages)
{
    BOOST_TEST_CONTEXT("q=" << code->q() << ", fault " << c.kind << ":" << c.nth
                            << (c.at_construction ? " while made" : " mid-stream"))
    {
        const size_t frames = 600;
        const auto batch = qa::make_batch(*code, frames, 6.0, 11);
        ldpc_decoder::params p;
        p.device = "cuda";
        p.max_batch = 32;
        p.length_tag_key = "";
        p.output = "bits";
        p.max_iterations = 20;
        p.algorithm = algorithm;
        p.messages = messages;
        const uint64_t fired = injected_cuda_faults();
        if (c.at_construction)
            inject_cuda_fault(c.kind, c.nth);
        auto dec = ldpc_decoder::make_from_params(code, p);
        if (c.at_construction)
            BOOST_CHECK_EQUAL(dec->device_name(), "cpu");
        else
            BOOST_REQUIRE_NE(dec->device_name(), "cpu");
        auto src = gr::blocks::vector_source_f::make(batch.llr, false);
        auto sink = gr::blocks::vector_sink_b::make();
        auto tb = gr::make_top_block("faults");
        tb->connect(src, 0, dec, 0);
        tb->connect(dec, 0, sink, 0);
        if (!c.at_construction)
            inject_cuda_fault(c.kind, c.nth);
        tb->run();
        clear_cuda_fault();
        // the fault fired (else the case tests nothing) and was handled
        BOOST_CHECK_EQUAL(injected_cuda_faults(), fired + 1);
        BOOST_CHECK_EQUAL(dec->device_name(), "cpu");
        BOOST_CHECK_EQUAL(dec->frames(), frames);
        BOOST_CHECK_EQUAL(dec->failed_frames(), 0u);
        const auto& out = sink->data();
        BOOST_REQUIRE_EQUAL(out.size(), batch.info_bits.size());
        const size_t nb = batch.info_bits.size() / frames;
        size_t wrong = 0;
        for (size_t f = 0; f < frames; ++f)
            wrong += !std::equal(out.begin() + f * nb,
                                 out.begin() + (f + 1) * nb,
                                 batch.info_bits.begin() + f * nb);
        BOOST_CHECK_EQUAL(wrong, 0u);
    }
}

} // namespace

BOOST_AUTO_TEST_CASE(decoder_block_falls_back_and_loses_nothing_gf16,
                     *boost::unit_test::precondition(qa::gpu_present()))
{
    // fft-bp on the GPU
    auto code = std::make_shared<ldpc_code>(construct_regular_code(96, 2, 4, 16, 7));
    for (const auto& c : g_cases)
        run_with_fault(code, c, "fft-bp", "fp32");
}

BOOST_AUTO_TEST_CASE(decoder_block_falls_back_and_loses_nothing_binary,
                     *boost::unit_test::precondition(qa::gpu_present()))
{
    // the GPU min-sum decoder (8-bit messages)
    auto code = std::make_shared<ldpc_code>(construct_regular_code(96, 3, 6, 2, 7));
    for (const auto& c : g_cases)
        run_with_fault(code, c, "min-sum", "int8");
}

BOOST_AUTO_TEST_CASE(engine_reports_a_failed_call_and_stays_usable,
                     *boost::unit_test::precondition(qa::gpu_present()))
{
    auto code = std::make_shared<ldpc_code>(construct_regular_code(96, 2, 4, 16, 7));
    auto dec = batch_decoder::make(code, decoder_config{}, "cuda");
    const size_t frames = 64;
    const auto batch = qa::make_batch(*code, frames, 6.0, 12);
    std::vector<uint8_t> bits(frames * dec->info_bits_per_frame());
    std::vector<frame_status> st(frames);
    dec->decode(batch.llr.data(), frames, bits.data(), st.data()); // workspaces made
    for (const char* kind : { "copy", "launch" }) {
        BOOST_TEST_CONTEXT(kind)
        {
            inject_cuda_fault(kind, 1);
            try {
                dec->decode(batch.llr.data(), frames, bits.data(), st.data());
                BOOST_FAIL("no cuda_error");
            } catch (const cuda_error& e) {
                BOOST_CHECK(std::string(e.what()).find("(injected fault)") !=
                            std::string::npos);
            }
            clear_cuda_fault();
            std::fill(bits.begin(), bits.end(), 2);
            dec->decode(batch.llr.data(), frames, bits.data(), st.data());
            BOOST_CHECK(bits == batch.info_bits);
        }
    }
}
