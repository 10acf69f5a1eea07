/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// GPU failures, injected (engine/fault_injection.h): the decoder block falls
// back to the CPU and loses no frame (and the transform blocks and the soft
// demapper no item), on streams (tagged or not) and PDUs,
// whether the GPU fails while the block is made or mid-stream, in an
// allocation, a launch or a copy; the engine reports
// the failure as a cuda_error and stays usable. Skipped without a CUDA device.

#include "qa_helpers.h"
#include <gnuradio/blocks/message_debug.h>
#include <gnuradio/blocks/vector_sink.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/gpuldpc/engine/bits.h>
#include <gnuradio/gpuldpc/engine/fault_injection.h>
#include <gnuradio/gpuldpc/fft.h>
#include <gnuradio/gpuldpc/fwht.h>
#include <gnuradio/gpuldpc/ldpc_decoder.h>
#include <gnuradio/gpuldpc/soft_demapper_cf.h>
#include <gnuradio/gpuldpc/spectral_transform.h>
#include <gnuradio/top_block.h>
#include <type_traits>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <thread>

using namespace gr::gpuldpc;

namespace {

struct fault_case {
    const char* kind;
    uint64_t nth; // counted from when the flowgraph starts
    bool at_construction;
    bool streams_only; // PDUs take no page-locked staging
};

// The fault cases: the first allocation (on streams the page-locked staging,
// on PDUs the device workspace), on streams the first device workspace
// allocation after the three staging buffers, a later launch, copy and wait
// for a batch (a batch takes at least one launch, three copies and one
// wait), and an allocation while the block is made.
const fault_case g_cases[] = {
    { "allocation", 1, false, false }, { "allocation", 4, false, true },
    { "launch", 5, false, false },     { "copy", 10, false, false },
    { "sync", 3, false, false },       { "allocation", 1, true, false },
};

// Disarms a fault that did not fire, whatever way the case ends.
struct fault_guard {
    ~fault_guard() { clear_cuda_fault(); }
};

enum class framing { untagged, tagged, pdus };

const char* to_string(framing f)
{
    return f == framing::untagged ? "untagged stream"
           : f == framing::tagged ? "tagged stream"
                                  : "PDUs";
}

// Frames into the decoder block (device cuda, batches of 32) with the fault
// armed: from a vector source on an untagged or a packet_len-tagged stream
// into a vector sink, or as PDUs of 4 frames into a message store. Every
// frame must come out, in order, with its information bits, and the block
// must have gone to the CPU.
void run_with_fault(std::shared_ptr<ldpc_code> code,
                    const fault_case& c,
                    framing how,
                    const std::string& algorithm,
                    const std::string& messages,
                    const std::string& output = "bits",
                    const std::string& magnitude = "auto")
{
    BOOST_TEST_CONTEXT("q=" << code->q() << ", " << to_string(how) << ", " << output
                            << " output, fault " << c.kind << ":" << c.nth
                            << (c.at_construction ? " while made" : " mid-stream"))
    {
        const size_t frames = 600, frames_per_pdu = 4;
        const auto batch = qa::make_batch(*code, frames, 6.0, 11);
        // packed: the GPU decoder packs and its CPU successor must too
        const size_t nbits = batch.info_bits.size() / frames,
                     nb = output == "packed" ? packed_size(nbits) : nbits;
        std::vector<uint8_t> expected(frames * nb);
        for (size_t f = 0; f < frames; ++f)
            if (output == "packed")
                pack_bits(&batch.info_bits[f * nbits], nbits, &expected[f * nb]);
            else
                std::copy_n(&batch.info_bits[f * nbits], nbits, &expected[f * nb]);
        const size_t nl = batch.llr.size() / frames;
        ldpc_decoder::params p;
        p.code = code;
        p.device = "cuda";
        p.max_batch = 32;
        p.length_tag_key = how == framing::tagged ? "packet_len" : "";
        p.set_output(output);
        p.set_max_iterations(20);
        p.set_algorithm(algorithm);
        p.set_messages(messages);
        p.set_min_sum_magnitude(magnitude);
        p.status_tags = ldpc_decoder::status_tag_mode::none;
        // the tuning a run sets (a capped shared-memory limit)
        p.decoder.gpu = gpu_tuning::from_environment();
        const uint64_t fired = injected_cuda_faults();
        const fault_guard guard;
        if (c.at_construction)
            inject_cuda_fault(c.kind, c.nth);
        auto dec = ldpc_decoder::make(p);
        if (c.at_construction)
            BOOST_CHECK_EQUAL(dec->device_name(), "cpu");
        else
            BOOST_REQUIRE_NE(dec->device_name(), "cpu");
        auto tb = gr::make_top_block("faults");
        std::vector<uint8_t> out;
        if (how == framing::pdus) {
            auto store = gr::blocks::message_debug::make();
            tb->msg_connect(dec, "pdus", store, "store");
            if (!c.at_construction)
                inject_cuda_fault(c.kind, c.nth);
            for (size_t f = 0; f < frames; f += frames_per_pdu)
                dec->_post(pmt::mp("pdus"),
                           pmt::cons(pmt::make_dict(),
                                     pmt::init_f32vector(frames_per_pdu * nl,
                                                         &batch.llr[f * nl])));
            tb->start();
            const auto deadline =
                std::chrono::steady_clock::now() + std::chrono::seconds(60);
            while (size_t(store->num_messages()) < frames &&
                   std::chrono::steady_clock::now() < deadline)
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            tb->stop();
            tb->wait();
            for (size_t i = 0; i < size_t(store->num_messages()); ++i) {
                size_t len = 0;
                const uint8_t* bits =
                    pmt::u8vector_elements(pmt::cdr(store->get_message(i)), len);
                out.insert(out.end(), bits, bits + len);
            }
        } else {
            std::vector<gr::tag_t> tags;
            if (how == framing::tagged)
                for (size_t f = 0; f < frames; ++f) {
                    gr::tag_t t;
                    t.offset = f * nl;
                    t.key = pmt::mp("packet_len");
                    t.value = pmt::from_long(long(nl));
                    tags.push_back(t);
                }
            auto src = gr::blocks::vector_source_f::make(batch.llr, false, 1, tags);
            auto sink = gr::blocks::vector_sink_b::make();
            tb->connect(src, 0, dec, 0);
            tb->connect(dec, 0, sink, 0);
            if (!c.at_construction)
                inject_cuda_fault(c.kind, c.nth);
            tb->run();
            out = sink->data();
            // tagged: a length tag at every frame; untagged: none
            size_t length_tags = 0, other_tags = 0;
            for (const auto& t : sink->tags()) {
                const bool frame_length = pmt::eq(t.key, pmt::mp("packet_len")) &&
                                          t.offset % nb == 0 &&
                                          pmt::to_long(t.value) == long(nb);
                length_tags += frame_length;
                other_tags += !frame_length;
            }
            BOOST_CHECK_EQUAL(length_tags, how == framing::tagged ? frames : 0);
            BOOST_CHECK_EQUAL(other_tags, 0u);
        }
        // the fault fired (else the case tests nothing) and was handled
        BOOST_CHECK_EQUAL(injected_cuda_faults(), fired + 1);
        BOOST_CHECK_EQUAL(dec->device_name(), "cpu");
        BOOST_CHECK_EQUAL(dec->frames(), frames);
        BOOST_CHECK_EQUAL(dec->failed_frames(), 0u);
        BOOST_REQUIRE_EQUAL(out.size(), expected.size());
        size_t wrong = 0;
        for (size_t f = 0; f < frames; ++f)
            wrong += !std::equal(out.begin() + f * nb,
                                 out.begin() + (f + 1) * nb,
                                 expected.begin() + f * nb);
        BOOST_CHECK_EQUAL(wrong, 0u);
    }
}

} // namespace

BOOST_AUTO_TEST_CASE(decoder_block_falls_back_and_loses_nothing_gf16,
                     *boost::unit_test::precondition(qa::gpu_present()))
{
    // fft-bp on the GPU
    auto code = std::make_shared<ldpc_code>(construct_regular_code(96, 2, 4, 16, 7));
    for (auto how : { framing::untagged, framing::tagged, framing::pdus })
        for (const auto& c : g_cases)
            if (how != framing::pdus || !c.streams_only)
                run_with_fault(code, c, how, "fft-bp", "fp32");
}

BOOST_AUTO_TEST_CASE(decoder_block_falls_back_and_loses_nothing_binary,
                     *boost::unit_test::precondition(qa::gpu_present()))
{
    // the GPU min-sum decoder (8-bit messages), and the default rule on this
    // code of checks of 6 edges, three-smallest, with packed output
    auto code = std::make_shared<ldpc_code>(construct_regular_code(96, 3, 6, 2, 7));
    for (auto how : { framing::untagged, framing::tagged, framing::pdus })
        for (const auto& c : g_cases)
            if (how != framing::pdus || !c.streams_only)
                run_with_fault(code, c, how, "min-sum", "int8", "bits", "smallest");
    for (const auto& c : g_cases)
        run_with_fault(code, c, framing::tagged, "min-sum", "int8", "packed");
}

BOOST_AUTO_TEST_CASE(engine_reports_a_failed_call_and_stays_usable,
                     *boost::unit_test::precondition(qa::gpu_present()))
{
    auto code = std::make_shared<ldpc_code>(construct_regular_code(96, 2, 4, 16, 7));
    decoder_config config;
    config.gpu = gpu_tuning::from_environment();
    auto dec = batch_decoder::make(code, config, "cuda");
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

namespace {

// A block's stream through a vector source and sink (vectors of vlen items).
template <typename In, typename Out>
std::vector<Out> run_stream(gr::basic_block_sptr block,
                            const std::vector<In>& in,
                            int vlen_in,
                            int vlen_out)
{
    auto tb = gr::make_top_block("transform faults");
    gr::basic_block_sptr src, snk;
    std::function<std::vector<Out>()> data;
    if constexpr (std::is_same_v<In, float>)
        src = gr::blocks::vector_source_f::make(in, false, vlen_in);
    else
        src = gr::blocks::vector_source_c::make(in, false, vlen_in);
    if constexpr (std::is_same_v<Out, float>) {
        auto s = gr::blocks::vector_sink_f::make(vlen_out);
        snk = s;
        data = [s] { return s->data(); };
    } else {
        auto s = gr::blocks::vector_sink_c::make(vlen_out);
        snk = s;
        data = [s] { return s->data(); };
    }
    tb->connect(src, 0, block, 0);
    tb->connect(block, 0, snk, 0);
    tb->run();
    return data();
}

double largest_difference(const std::vector<float>& a, const std::vector<float>& b)
{
    double e = 0;
    for (size_t i = 0; i < a.size(); ++i)
        e = std::max(e, double(std::fabs(a[i] - b[i])));
    return e;
}
double largest_difference(const std::vector<gr_complex>& a,
                          const std::vector<gr_complex>& b)
{
    double e = 0;
    for (size_t i = 0; i < a.size(); ++i)
        e = std::max(e, double(std::abs(a[i] - b[i])));
    return e;
}
template <typename T>
double largest_magnitude(const std::vector<T>& v)
{
    double m = 0;
    for (const auto& x : v)
        m = std::max(m, double(std::abs(x)));
    return m;
}

// A transform block made with device "cuda" and a fault armed, at
// construction or from when the flowgraph starts: every item comes out, equal
// to the block's CPU output up to the GPU's rounding (1e-5 of the largest
// value), the fault fired once, and the block reports the CPU.
template <typename In, typename Out, typename Make>
void check_transform_fault(
    const char* name, Make make, const std::vector<In>& in, int vlen_in, int vlen_out)
{
    const auto want = run_stream<In, Out>(make("cpu"), in, vlen_in, vlen_out);
    const struct {
        const char* kind;
        uint64_t nth;
        bool at_construction;
    } cases[] = { { "allocation", 1, true },
                  { "launch", 1, false },
                  { "copy", 2, false },
                  { "sync", 1, false } };
    for (const auto& c : cases) {
        BOOST_TEST_CONTEXT(name << ", fault " << c.kind << ":" << c.nth
                                << (c.at_construction ? " while made" : " mid-stream"))
        {
            const fault_guard guard;
            const uint64_t fired = injected_cuda_faults();
            if (c.at_construction)
                inject_cuda_fault(c.kind, c.nth);
            auto block = make("cuda");
            if (!c.at_construction) {
                BOOST_REQUIRE_NE(block->device_name(), "cpu");
                inject_cuda_fault(c.kind, c.nth);
            }
            const auto got = run_stream<In, Out>(block, in, vlen_in, vlen_out);
            BOOST_CHECK_EQUAL(injected_cuda_faults(), fired + 1);
            BOOST_CHECK_EQUAL(block->device_name(), "cpu");
            BOOST_REQUIRE_EQUAL(got.size(), want.size());
            BOOST_CHECK_LE(largest_difference(got, want), 1e-5 * largest_magnitude(want));
        }
    }
}

} // namespace

BOOST_AUTO_TEST_CASE(transform_blocks_and_demapper_fall_back_and_lose_nothing,
                     *boost::unit_test::precondition(qa::gpu_present()))
{
    const int n = 256;
    const size_t vectors = 3000;
    std::mt19937 rng(3);
    std::normal_distribution<float> gauss;
    std::vector<float> real(n * vectors);
    for (auto& x : real)
        x = gauss(rng);
    std::vector<gr_complex> cplx(n * vectors);
    for (auto& x : cplx)
        x = gr_complex(gauss(rng), gauss(rng));

    check_transform_fault<float, float>(
        "fwht",
        [&](const std::string& d) { return fwht::make(n, "none", "natural", d); },
        real,
        n,
        n);
    check_transform_fault<float, float>(
        "spectral_transform_ff",
        [&](const std::string& d) {
            return spectral_transform_ff::make(n, "walsh", true, "cooley-tukey", d);
        },
        real,
        n,
        n);
    // with a window and a shift (GRC's defaults) the transform takes the
    // module's one-pass kernel, whose launches are checked (cuFFT's own are not)
    std::vector<float> window(n);
    for (int i = 0; i < n; ++i)
        window[i] = float(0.5 - 0.5 * std::cos(2 * M_PI * i / n));
    check_transform_fault<gr_complex, gr_complex>(
        "fft",
        [&](const std::string& d) {
            return gr::gpuldpc::fft::make(n, true, window, true, 1, d);
        },
        cplx,
        n,
        n);
    check_transform_fault<gr_complex, float>(
        "soft_demapper_cf",
        [&](const std::string& d) {
            return soft_demapper_cf::make("gpuldpc-16qam", "exact", 0.5f, "", d);
        },
        cplx,
        1,
        1);
}
