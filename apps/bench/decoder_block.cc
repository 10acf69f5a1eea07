/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "decoder_block.h"
#include "engine/copy_pool.h"
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/gpuldpc/ldpc_decoder.h>
#include <gnuradio/io_signature.h>
#include <gnuradio/sync_block.h>
#include <gnuradio/top_block.h>
#include <algorithm>
#include <array>
#include <chrono>
#include <stdexcept>

namespace gr {
namespace gpuldpc {
namespace bench {

namespace {

// A source of precomputed items, repeated until `total` items went out: large
// copies into the output buffer, split over 4 threads, so that it feeds a
// block at memory speed (vector_source with repeat copies item by item and
// needs a head; one thread's memcpy bounds a GPU decoder block's rate).
class frame_source : public gr::sync_block
{
public:
    frame_source(const void* items, size_t count, size_t item_size, uint64_t total)
        : gr::sync_block("frame_source",
                         gr::io_signature::make(0, 0, 0),
                         gr::io_signature::make(1, 1, int(item_size))),
          d_items(static_cast<const uint8_t*>(items)),
          d_count(count),
          d_item_size(item_size),
          d_total(total),
          d_copies(3)
    {
    }

    void restart(uint64_t total)
    {
        d_sent = 0;
        d_total = total;
        d_calls = 0;
        d_busy = {};
    }

    int work(int noutput_items,
             gr_vector_const_void_star&,
             gr_vector_void_star& output_items) override
    {
        if (d_sent >= d_total)
            return WORK_DONE;
        const auto t0 = std::chrono::steady_clock::now();
        auto* out = static_cast<uint8_t*>(output_items[0]);
        const size_t n =
            size_t(std::min<uint64_t>(uint64_t(noutput_items), d_total - d_sent));
        for (size_t done = 0; done < n;) {
            const size_t at = size_t(d_sent % d_count);
            const size_t run = std::min(n - done, d_count - at);
            d_copies.copy(
                out + done * d_item_size, d_items + at * d_item_size, run * d_item_size);
            done += run;
            d_sent += run;
        }
        ++d_calls;
        d_busy += std::chrono::steady_clock::now() - t0;
        return int(n);
    }

    //! work() calls and the time spent in them since restart()
    uint64_t calls() const { return d_calls; }
    double busy_seconds() const { return std::chrono::duration<double>(d_busy).count(); }

private:
    const uint8_t* d_items;
    size_t d_count, d_item_size;
    uint64_t d_total, d_sent = 0;
    uint64_t d_calls = 0;
    std::chrono::steady_clock::duration d_busy{};
    copy_pool d_copies;
};

} // namespace

double block_rate(ldpc_code::sptr code,
                  const decoder_config& cfg,
                  const std::vector<float>& llr,
                  size_t frames,
                  const std::string& device,
                  unsigned passes,
                  const std::string& status_tags,
                  const std::vector<int8_t>* llr8,
                  block_run* run)
{
    // the block's defaults (early termination included) with the section's
    // rule, magnitude rule, schedule, iterations and messages, in the words a
    // user gives
    ldpc_decoder::params p;
    p.code = code;
    p.decoder.gpu = cfg.gpu;
    p.set_schedule(to_string(cfg.schedule));
    p.set_algorithm(to_string(cfg.algorithm));
    p.set_max_iterations(int(cfg.max_iterations));
    p.set_messages(to_string(cfg.messages));
    p.set_min_sum_magnitude(to_string(cfg.min_sum_magnitude));
    p.decoder.llr_scale = cfg.llr_scale;
    p.set_input(llr8 ? "int8" : "float");
    p.length_tag_key = "";
    p.max_batch = 0; // the block's automatic batch
    p.device = device;
    p.set_status_tags(status_tags);
    auto dec = ldpc_decoder::make(p);
    const void* items = llr8 ? static_cast<const void*>(llr8->data()) : llr.data();
    const size_t item_size = llr8 ? sizeof(int8_t) : sizeof(float);
    auto src =
        gnuradio::make_block_sptr<frame_source>(items, llr.size(), item_size, llr.size());
    auto sink = gr::blocks::null_sink::make(sizeof(uint8_t));
    auto tb = gr::make_top_block("decoder_bench");
    tb->connect(src, 0, dec, 0);
    tb->connect(dec, 0, sink, 0);
    tb->run();
    src->restart(uint64_t(llr.size()) * passes);
    // the block's counters, for the timed run's share of them
    const auto counters = [&dec] {
        const pmt::pmt_t st = dec->stats();
        const auto get = [&st](const char* key) {
            const pmt::pmt_t v = pmt::dict_ref(st, pmt::mp(key), pmt::PMT_NIL);
            return pmt::is_uint64(v)   ? double(pmt::to_uint64(v))
                   : pmt::is_number(v) ? pmt::to_double(v)
                                       : 0.0;
        };
        const double fps = get("frames_per_second"), f = get("frames");
        // frames, decoder calls, seconds the decoder was busy, batches in
        // chunks
        return std::array<double, 4>{
            f, get("batches"), fps > 0 ? f / fps : 0.0, get("chunked_batches")
        };
    };
    const auto before = counters();
    const uint64_t frames0 = dec->frames();
    const auto t0 = std::chrono::steady_clock::now();
    tb->run();
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (dec->frames() - frames0 != uint64_t(frames) * passes)
        throw std::runtime_error(
            "decoder block: " + std::to_string(dec->frames() - frames0) +
            " frames out of " + std::to_string(frames * passes));
    if (run) {
        const auto after = counters();
        const double batches = after[1] - before[1];
        run->mean_batch = batches > 0 ? (after[0] - before[0]) / batches : 0.0;
        run->decoder_busy = (after[2] - before[2]) / s;
        run->source_busy = src->busy_seconds() / s;
        run->chunked = after[3] - before[3];
    }
    return double(frames) * passes * code->k() * code->bits_per_symbol() / s;
}

} // namespace bench
} // namespace gpuldpc
} // namespace gr
