/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "block_common.h"
#include <gnuradio/gpuldpc/engine/device.h>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

ldpc_code::sptr load_code(const std::string& path,
                          const std::string& format,
                          const std::string& coef,
                          unsigned poly)
{
    code_io_options opts;
    opts.format = parse_code_format(format, "format");
    opts.coef = parse_coef_convention(coef, "coef");
    opts.poly = poly;
    return std::make_shared<ldpc_code>(ldpc_code::load(path, opts));
}

batch_decoder::sptr make_batch_decoder(ldpc_code::sptr code,
                                       const std::string& algorithm,
                                       const std::string& schedule,
                                       int max_iterations,
                                       bool flip_llr_sign,
                                       const std::string& device,
                                       int threads,
                                       const std::string& messages,
                                       float llr_scale,
                                       float min_sum_scale,
                                       float min_sum_offset,
                                       bool pack_info_bits)
{
    if (!code)
        throw std::invalid_argument("code: no code given");
    if (max_iterations < 1)
        throw std::invalid_argument("max_iterations=" + std::to_string(max_iterations) +
                                    " is out of range; allowed: 1..100000");
    if (threads < 0)
        throw std::invalid_argument("threads=" + std::to_string(threads) +
                                    " is out of range; allowed: 0 (all cores) or more");
    decoder_config cfg;
    cfg.algorithm = parse_decoder_algorithm(algorithm);
    cfg.schedule = parse_decoder_schedule(schedule);
    cfg.max_iterations = unsigned(max_iterations);
    cfg.flip_llr_sign = flip_llr_sign;
    cfg.threads = unsigned(threads);
    cfg.messages = parse_message_precision(messages);
    cfg.llr_scale = llr_scale;
    cfg.min_sum_scale = min_sum_scale;
    cfg.min_sum_offset = min_sum_offset;
    cfg.pack_info_bits = pack_info_bits;
    return batch_decoder::make(code, cfg, device);
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
