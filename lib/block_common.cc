/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "block_common.h"
#include <gnuradio/gpuldpc/engine/device.h>
#include <gnuradio/gpuldpc/ldpc_decoder.h>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

ldpc_code::sptr load_code(const std::string& path,
                          const std::string& format,
                          const std::string& coef,
                          unsigned poly)
{
    return code_source(path, format, coef, poly).load();
}

batch_decoder::sptr make_batch_decoder(ldpc_code::sptr code,
                                       const decoder_config& config,
                                       const std::string& device)
{
    if (!code)
        throw std::invalid_argument("code: no code given");
    return batch_decoder::make(code, config, device);
}

batch_decoder::sptr fallback_decoder::make(ldpc_code::sptr code,
                                           const decoder_config& config,
                                           const std::string& device,
                                           gr::logger_ptr logger)
{
    batch_decoder::sptr made;
    if (!gpu_call([&] { made = make_batch_decoder(code, config, device); },
                  [&](const cuda_error& e) {
                      logger->error(
                          "the GPU decoder could not be made ({}); decoding on the CPU",
                          e.what());
                  }))
        made = make_batch_decoder(code, config, "cpu");
    return made;
}

void fallback_decoder::fall_back(const batch_decoder& failed, const cuda_error& e)
{
    if (&failed != d_decoder.get())
        return; // replaced when an earlier call failed
    d_logger->error("GPU decoder failed ({}); decoding on the CPU from now on", e.what());
    std::atomic_store(
        &d_decoder,
        batch_decoder::make(d_decoder->code_ptr(), d_decoder->config(), "cpu"));
}

void log_skipped(gr::logger_ptr logger,
                 const frame_scanner& scanner,
                 frame_scanner::counters& reported,
                 const char* unit)
{
    const auto& s = scanner.stats();
    if (s.bad_length > reported.bad_length && should_log(s.bad_length))
        logger->warn("skipped a packet of {} items; frames are {} {} ({} such packets "
                     "so far)",
                     s.last_bad_length,
                     scanner.frame_len(),
                     unit,
                     s.bad_length);
    if (s.missing_tag_runs > reported.missing_tag_runs && should_log(s.missing_tag_runs))
        logger->warn("skipped items without a '{}' tag ({} items in {} runs so far): "
                     "a frame starts at a length tag '{}' of value {} (e.g. from "
                     "blocks.stream_to_tagged_stream); for an untagged stream of "
                     "back-to-back frames set length_tag_key to '' (GRC: an empty "
                     "Length Tag Key)",
                     pmt::symbol_to_string(scanner.key()),
                     s.missing_tag_items,
                     s.missing_tag_runs,
                     pmt::symbol_to_string(scanner.key()),
                     scanner.frame_len());
    reported = s;
}

void move_frame_tags(std::vector<gr::tag_t>& tags,
                     const frame_scanner& scanner,
                     uint64_t in_abs,
                     size_t in_len,
                     uint64_t out_abs,
                     size_t out_len)
{
    size_t kept = 0;
    for (auto& t : tags) {
        if (scanner.tagged() && pmt::eq(t.key, scanner.key()))
            continue;
        t.offset = out_abs + (t.offset - in_abs) * out_len / in_len;
        tags[kept++] = t;
    }
    tags.resize(kept);
}

bool pmt_real_number(const pmt::pmt_t& value, double& out)
{
    // is_integer and is_real are true of uint64 values too, whose to_long and
    // to_double throw: uint64 first
    if (pmt::is_uint64(value)) {
        out = double(pmt::to_uint64(value));
        return true;
    }
    if (pmt::is_integer(value)) {
        out = double(pmt::to_long(value));
        return true;
    }
    if (pmt::is_real(value)) {
        out = pmt::to_double(value);
        return true;
    }
    return false;
}

} // namespace gpuldpc
} // namespace gr
