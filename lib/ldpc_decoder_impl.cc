/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "block_common.h"
#include "ldpc_decoder_impl.h"
#include <gnuradio/gpuldpc/engine/bits.h>
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

namespace {

const pmt::pmt_t PORT_PDUS = pmt::mp("pdus");
const pmt::pmt_t PORT_STATS = pmt::mp("stats");
const pmt::pmt_t KEY_CONVERGED = pmt::mp("ldpc_converged");
const pmt::pmt_t KEY_ITERATIONS = pmt::mp("ldpc_iterations");
const pmt::pmt_t KEY_SYNDROME = pmt::mp("ldpc_syndrome_weight");

} // namespace

ldpc_decoder::sptr ldpc_decoder::make(const std::string& code_file,
                                      const std::string& format,
                                      const std::string& coef,
                                      unsigned poly,
                                      const std::string& algorithm,
                                      const std::string& schedule,
                                      int max_iterations,
                                      bool flip_llr_sign,
                                      const std::string& output,
                                      int max_batch,
                                      const std::string& device,
                                      const std::string& length_tag_key,
                                      bool pass_failed,
                                      int threads,
                                      double stats_interval)
{
    return make_from_code(load_code(code_file, format, coef, poly),
                          algorithm,
                          schedule,
                          max_iterations,
                          flip_llr_sign,
                          output,
                          max_batch,
                          device,
                          length_tag_key,
                          pass_failed,
                          threads,
                          stats_interval);
}

ldpc_decoder::sptr ldpc_decoder::make_from_code(ldpc_code::sptr code,
                                                const std::string& algorithm,
                                                const std::string& schedule,
                                                int max_iterations,
                                                bool flip_llr_sign,
                                                const std::string& output,
                                                int max_batch,
                                                const std::string& device,
                                                const std::string& length_tag_key,
                                                bool pass_failed,
                                                int threads,
                                                double stats_interval)
{
    return gnuradio::make_block_sptr<ldpc_decoder_impl>(code,
                                                        algorithm,
                                                        schedule,
                                                        max_iterations,
                                                        flip_llr_sign,
                                                        output,
                                                        max_batch,
                                                        device,
                                                        length_tag_key,
                                                        pass_failed,
                                                        threads,
                                                        stats_interval);
}


ldpc_decoder_impl::ldpc_decoder_impl(ldpc_code::sptr code,
                                     const std::string& algorithm,
                                     const std::string& schedule,
                                     int max_iterations,
                                     bool flip_llr_sign,
                                     const std::string& output,
                                     int max_batch,
                                     const std::string& device,
                                     const std::string& length_tag_key,
                                     bool pass_failed,
                                     int threads,
                                     double stats_interval)
    : gr::block("ldpc_decoder",
                // streams are optional: the block also works on PDUs alone
                gr::io_signature::make(0, 1, sizeof(float)),
                gr::io_signature::make(0, 1, sizeof(uint8_t))),
      d_code(code),
      d_decoder(make_batch_decoder(
          code, algorithm, schedule, max_iterations, flip_llr_sign, device, threads)),
      d_mode(output == "packed"    ? output_mode::packed
             : output == "bits"    ? output_mode::bits
             : output == "symbols" ? output_mode::symbols
                                   : throw std::invalid_argument(
                                         "output='" + output +
                                         "' is unknown; allowed: packed, bits, symbols")),
      d_in_len(d_decoder->llr_per_frame()),
      d_out_len(d_mode == output_mode::packed
                    ? packed_size(d_decoder->info_bits_per_frame())
                : d_mode == output_mode::bits ? d_decoder->info_bits_per_frame()
                                              : code->k()),
      d_max_batch(max_batch >= 1 ? size_t(max_batch)
                                 : throw std::invalid_argument(
                                       "max_batch=" + std::to_string(max_batch) +
                                       " is out of range; allowed: 1 or more")),
      d_pass_failed(pass_failed),
      d_stats_interval(stats_interval > 0
                           ? stats_interval
                           : throw std::invalid_argument(
                                 "stats_interval=" + std::to_string(stats_interval) +
                                 " is out of range; allowed: > 0 seconds")),
      d_scanner(d_in_len, length_tag_key),
      d_out_len_key(pmt::mp(length_tag_key.empty() ? "packet_len" : length_tag_key)),
      d_batch_in(d_max_batch * d_in_len),
      d_batch_bits(d_max_batch * d_decoder->info_bits_per_frame()),
      d_batch_status(d_max_batch),
      d_symbols(code->k()),
      d_last_stats(std::chrono::steady_clock::now())
{
    if (device == "auto")
        d_logger->info("device=auto: decoding on {} (no CUDA decoder in use)",
                       d_decoder->device_name());
    set_output_multiple(int(d_out_len));
    set_tag_propagation_policy(TPP_DONT);
    d_starts.reserve(d_max_batch);

    message_port_register_in(PORT_PDUS);
    message_port_register_out(PORT_PDUS);
    message_port_register_out(PORT_STATS);
    set_msg_handler(PORT_PDUS, [this](const pmt::pmt_t& msg) { handle_pdu(msg); });
}

void ldpc_decoder_impl::forecast(int noutput_items, gr_vector_int& ninput_items_required)
{
    // Tagged streams may need only a few items to skip a short bad packet, so
    // ask for one frame at most and let work() take what is there.
    const size_t frames = std::max<size_t>(1, size_t(noutput_items) / d_out_len);
    ninput_items_required[0] =
        d_scanner.tagged() ? 1 : int(std::min(frames, d_max_batch) * d_in_len);
}

void ldpc_decoder_impl::decode_batch(size_t n)
{
    const auto t0 = std::chrono::steady_clock::now();
    d_decoder->decode(d_batch_in.data(), n, d_batch_bits.data(), d_batch_status.data());
    d_decode_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (size_t i = 0; i < n; ++i) {
        const frame_status& st = d_batch_status[i];
        d_frames++;
        d_iterations += st.iterations;
        d_failed += !st.converged;
        if (st.invalid_inputs) {
            d_invalid += st.invalid_inputs;
            if (should_log(d_invalid))
                d_logger->warn("{} NaN/Inf soft values in a frame, decoded as erasures "
                               "({} in all)",
                               st.invalid_inputs,
                               d_invalid);
        }
    }
}

void ldpc_decoder_impl::format_output(size_t i, uint8_t* out) const
{
    const size_t nbits = d_decoder->info_bits_per_frame();
    const uint8_t* bits = &d_batch_bits[i * nbits];
    switch (d_mode) {
    case output_mode::packed:
        pack_bits(bits, nbits, out);
        break;
    case output_mode::bits:
        std::copy(bits, bits + nbits, out);
        break;
    case output_mode::symbols:
        bits_to_symbols(bits, d_code->k(), d_code->bits_per_symbol(), out);
        break;
    }
}

int ldpc_decoder_impl::general_work(int noutput_items,
                                    gr_vector_int& ninput_items,
                                    gr_vector_const_void_star& input_items,
                                    gr_vector_void_star& output_items)
{
    const float* in = static_cast<const float*>(input_items[0]);
    uint8_t* out = static_cast<uint8_t*>(output_items[0]);
    const uint64_t abs_in = nitems_read(0);
    const size_t max_frames = std::min(d_max_batch, size_t(noutput_items) / d_out_len);

    d_tags.clear();
    if (d_scanner.tagged())
        get_tags_in_window(d_tags, 0, 0, ninput_items[0], d_scanner.key());
    d_starts.clear();
    const size_t consumed =
        d_scanner.scan(abs_in, size_t(ninput_items[0]), d_tags, max_frames, d_starts);
    const size_t n = d_starts.size();

    std::lock_guard<std::mutex> lock(d_mutex);
    log_skipped(d_logger, d_scanner, d_reported, "soft bits");
    for (size_t i = 0; i < n; ++i)
        std::copy_n(in + d_starts[i], d_in_len, &d_batch_in[i * d_in_len]);
    if (n > 0)
        decode_batch(n);

    size_t produced = 0;
    for (size_t i = 0; i < n; ++i) {
        const frame_status& st = d_batch_status[i];
        if (!st.converged && !d_pass_failed) {
            d_dropped++;
            continue;
        }
        format_output(i, out + produced * d_out_len);
        const uint64_t out_abs = nitems_written(0) + produced * d_out_len;
        add_item_tag(0, out_abs, d_out_len_key, pmt::from_long(long(d_out_len)));
        add_item_tag(0, out_abs, KEY_CONVERGED, pmt::from_bool(st.converged));
        add_item_tag(0, out_abs, KEY_ITERATIONS, pmt::from_long(long(st.iterations)));
        const uint64_t in_abs = abs_in + d_starts[i];
        d_frame_tags.clear();
        get_tags_in_range(d_frame_tags, 0, in_abs, in_abs + d_in_len);
        move_frame_tags(d_frame_tags, d_scanner, in_abs, d_in_len, out_abs, d_out_len);
        for (const auto& t : d_frame_tags)
            add_item_tag(0, t);
        ++produced;
    }
    consume_each(int(consumed));
    publish_stats(false);
    return int(produced * d_out_len);
}

void ldpc_decoder_impl::handle_pdu(const pmt::pmt_t& msg)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    if (!pmt::is_pair(msg) || !pmt::is_f32vector(pmt::cdr(msg))) {
        d_bad_pdus++;
        d_logger->warn("dropped a message on 'pdus' that is not a PDU with an f32vector "
                       "({} so far)",
                       d_bad_pdus);
        return;
    }
    const pmt::pmt_t meta =
        pmt::is_dict(pmt::car(msg)) ? pmt::car(msg) : pmt::make_dict();
    size_t len = 0;
    const float* data = pmt::f32vector_elements(pmt::cdr(msg), len);
    if (len == 0 || len % d_in_len != 0) {
        d_bad_pdus++;
        d_logger->warn(
            "dropped a PDU of {} soft bits; frames are {} soft bits ({} so far)",
            len,
            d_in_len,
            d_bad_pdus);
        return;
    }
    const size_t frames = len / d_in_len;
    std::vector<uint8_t> out(d_out_len);
    for (size_t done = 0; done < frames;) {
        const size_t n = std::min(d_max_batch, frames - done);
        std::copy_n(data + done * d_in_len, n * d_in_len, d_batch_in.data());
        decode_batch(n);
        for (size_t i = 0; i < n; ++i) {
            const frame_status& st = d_batch_status[i];
            if (!st.converged && !d_pass_failed) {
                d_dropped++;
                continue;
            }
            format_output(i, out.data());
            pmt::pmt_t m =
                pmt::dict_add(meta, KEY_CONVERGED, pmt::from_bool(st.converged));
            m = pmt::dict_add(m, KEY_ITERATIONS, pmt::from_long(long(st.iterations)));
            m = pmt::dict_add(m, KEY_SYNDROME, pmt::from_long(long(st.syndrome_weight)));
            message_port_pub(PORT_PDUS,
                             pmt::cons(m, pmt::init_u8vector(out.size(), out.data())));
        }
        done += n;
    }
    publish_stats(false);
}

pmt::pmt_t ldpc_decoder_impl::make_stats() const
{
    const auto& s = d_scanner.stats();
    pmt::pmt_t d = pmt::make_dict();
    auto add = [&d](const char* k, const pmt::pmt_t& v) {
        d = pmt::dict_add(d, pmt::mp(k), v);
    };
    add("frames", pmt::from_uint64(d_frames));
    add("failed", pmt::from_uint64(d_failed));
    add("dropped", pmt::from_uint64(d_dropped));
    add("bad_length", pmt::from_uint64(s.bad_length + d_bad_pdus));
    add("missing_tag_items", pmt::from_uint64(s.missing_tag_items));
    add("invalid_inputs", pmt::from_uint64(d_invalid));
    add("avg_iterations",
        pmt::from_double(d_frames ? double(d_iterations) / double(d_frames) : 0.0));
    const double fps = d_decode_seconds > 0 ? double(d_frames) / d_decode_seconds : 0.0;
    add("frames_per_second", pmt::from_double(fps));
    add("info_bits_per_second", pmt::from_double(fps * d_decoder->info_bits_per_frame()));
    add("device", pmt::mp(d_decoder->device_name()));
    return d;
}

pmt::pmt_t ldpc_decoder_impl::stats() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return make_stats();
}

void ldpc_decoder_impl::publish_stats(bool force)
{
    const auto now = std::chrono::steady_clock::now();
    if (!force &&
        std::chrono::duration<double>(now - d_last_stats).count() < d_stats_interval)
        return;
    d_last_stats = now;
    message_port_pub(PORT_STATS, make_stats());
}

bool ldpc_decoder_impl::stop()
{
    std::lock_guard<std::mutex> lock(d_mutex);
    publish_stats(true);
    const auto& s = d_scanner.stats();
    d_logger->info("{} frames decoded on {}: {} failed ({} dropped), {} bad-length "
                   "packets, {} items without a length tag, {} NaN/Inf soft values",
                   d_frames,
                   d_decoder->device_name(),
                   d_failed,
                   d_dropped,
                   s.bad_length + d_bad_pdus,
                   s.missing_tag_items,
                   d_invalid);
    return true;
}

uint64_t ldpc_decoder_impl::frames() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_frames;
}

uint64_t ldpc_decoder_impl::failed_frames() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_failed;
}

uint64_t ldpc_decoder_impl::dropped_frames() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_dropped;
}

uint64_t ldpc_decoder_impl::bad_length_frames() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_scanner.stats().bad_length + d_bad_pdus;
}

uint64_t ldpc_decoder_impl::missing_tag_items() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_scanner.stats().missing_tag_items;
}

uint64_t ldpc_decoder_impl::invalid_inputs() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_invalid;
}

double ldpc_decoder_impl::average_iterations() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_frames ? double(d_iterations) / double(d_frames) : 0.0;
}

} // namespace gpuldpc
} // namespace gr
