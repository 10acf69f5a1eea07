/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "block_common.h"
#include "ldpc_encoder_impl.h"
#include <gnuradio/gpuldpc/engine/bits.h>
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

namespace {
const pmt::pmt_t PORT_PDUS = pmt::mp("pdus");
} // namespace

ldpc_encoder::sptr ldpc_encoder::make(const std::string& code_file,
                                      const std::string& format,
                                      const std::string& coef,
                                      unsigned poly,
                                      const std::string& input,
                                      const std::string& output,
                                      const std::string& length_tag_key)
{
    return make_from_code(
        load_code(code_file, format, coef, poly), input, output, length_tag_key);
}

ldpc_encoder::sptr ldpc_encoder::make_from_code(ldpc_code::sptr code,
                                                const std::string& input,
                                                const std::string& output,
                                                const std::string& length_tag_key)
{
    if (!code)
        throw std::invalid_argument("code: no code given");
    return gnuradio::make_block_sptr<ldpc_encoder_impl>(
        code, input, output, length_tag_key);
}

ldpc_encoder_impl::ldpc_encoder_impl(ldpc_code::sptr code,
                                     const std::string& input,
                                     const std::string& output,
                                     const std::string& length_tag_key)
    : gr::block("ldpc_encoder",
                // streams are optional: the block also works on PDUs alone
                gr::io_signature::make(0, 1, sizeof(uint8_t)),
                gr::io_signature::make(0, 1, sizeof(uint8_t))),
      d_code(code),
      d_in_mode(
          input == "packed" ? input_mode::packed
          : input == "bits" ? input_mode::bits
          : input == "symbols"
              ? input_mode::symbols
              : throw std::invalid_argument(
                    "input='" + input + "' is unknown; allowed: packed, bits, symbols")),
      d_packed_out(output == "packed" ? true
                   : output == "bits" ? false
                                      : throw std::invalid_argument(
                                            "output='" + output +
                                            "' is unknown; allowed: bits, packed")),
      d_in_len(d_in_mode == input_mode::packed
                   ? packed_size(size_t(code->k()) * code->bits_per_symbol())
               : d_in_mode == input_mode::bits
                   ? size_t(code->k()) * code->bits_per_symbol()
                   : code->k()),
      d_out_len(d_packed_out ? packed_size(size_t(code->n()) * code->bits_per_symbol())
                             : size_t(code->n()) * code->bits_per_symbol()),
      d_scanner(d_in_len, length_tag_key),
      d_out_len_key(pmt::mp(length_tag_key.empty() ? "packet_len" : length_tag_key)),
      d_bits(size_t(code->k()) * code->bits_per_symbol()),
      d_info(code->k()),
      d_codeword(code->n()),
      d_cw_bits(size_t(code->n()) * code->bits_per_symbol())
{
    set_output_multiple(int(d_out_len));
    set_tag_propagation_policy(TPP_DONT);
    message_port_register_in(PORT_PDUS);
    message_port_register_out(PORT_PDUS);
    set_msg_handler(PORT_PDUS, [this](const pmt::pmt_t& msg) { handle_pdu(msg); });
}

void ldpc_encoder_impl::forecast(int noutput_items, gr_vector_int& ninput_items_required)
{
    const size_t frames = std::max<size_t>(1, size_t(noutput_items) / d_out_len);
    ninput_items_required[0] = d_scanner.tagged() ? 1 : int(frames * d_in_len);
}

bool ldpc_encoder_impl::encode_frame(const uint8_t* in, uint8_t* out)
{
    const unsigned m = d_code->bits_per_symbol();
    const size_t k = d_code->k();
    switch (d_in_mode) {
    case input_mode::packed:
        unpack_bits(in, k * m, d_bits.data());
        bits_to_symbols(d_bits.data(), k, m, d_info.data());
        break;
    case input_mode::bits:
        bits_to_symbols(in, k, m, d_info.data());
        break;
    case input_mode::symbols:
        for (size_t i = 0; i < k; ++i)
            if (in[i] >= d_code->q())
                return false;
        std::copy_n(in, k, d_info.data());
        break;
    }
    d_code->encode(d_info.data(), d_codeword.data(), 1);
    if (d_packed_out) {
        symbols_to_bits(d_codeword.data(), d_code->n(), m, d_cw_bits.data());
        pack_bits(d_cw_bits.data(), d_cw_bits.size(), out);
    } else {
        symbols_to_bits(d_codeword.data(), d_code->n(), m, out);
    }
    return true;
}

int ldpc_encoder_impl::general_work(int noutput_items,
                                    gr_vector_int& ninput_items,
                                    gr_vector_const_void_star& input_items,
                                    gr_vector_void_star& output_items)
{
    const uint8_t* in = static_cast<const uint8_t*>(input_items[0]);
    uint8_t* out = static_cast<uint8_t*>(output_items[0]);
    const uint64_t abs_in = nitems_read(0);

    d_tags.clear();
    if (d_scanner.tagged())
        get_tags_in_window(d_tags, 0, 0, ninput_items[0], d_scanner.key());
    d_starts.clear();
    const size_t consumed = d_scanner.scan(abs_in,
                                           size_t(ninput_items[0]),
                                           d_tags,
                                           size_t(noutput_items) / d_out_len,
                                           d_starts);

    std::lock_guard<std::mutex> lock(d_mutex);
    log_skipped(d_logger, d_scanner, d_reported, "bytes");
    size_t produced = 0;
    for (size_t start : d_starts) {
        if (!encode_frame(in + start, out + produced * d_out_len)) {
            d_invalid++;
            if (should_log(d_invalid))
                d_logger->warn("skipped a frame with symbols outside GF({}) ({} so far)",
                               d_code->q(),
                               d_invalid);
            continue;
        }
        d_frames++;
        const uint64_t out_abs = nitems_written(0) + produced * d_out_len;
        add_item_tag(0, out_abs, d_out_len_key, pmt::from_long(long(d_out_len)));
        const uint64_t in_abs = abs_in + start;
        d_frame_tags.clear();
        get_tags_in_range(d_frame_tags, 0, in_abs, in_abs + d_in_len);
        move_frame_tags(d_frame_tags, d_scanner, in_abs, d_in_len, out_abs, d_out_len);
        for (const auto& t : d_frame_tags)
            add_item_tag(0, t);
        ++produced;
    }
    consume_each(int(consumed));
    return int(produced * d_out_len);
}

void ldpc_encoder_impl::handle_pdu(const pmt::pmt_t& msg)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    size_t len = 0;
    const uint8_t* data = nullptr;
    if (pmt::is_pair(msg) && pmt::is_u8vector(pmt::cdr(msg)))
        data = pmt::u8vector_elements(pmt::cdr(msg), len);
    if (!data || len == 0 || len % d_in_len != 0) {
        d_bad_pdus++;
        d_logger->warn("dropped a message on 'pdus': expected a PDU with a u8vector of a "
                       "multiple of {} bytes ({} so far)",
                       d_in_len,
                       d_bad_pdus);
        return;
    }
    const pmt::pmt_t meta =
        pmt::is_dict(pmt::car(msg)) ? pmt::car(msg) : pmt::make_dict();
    std::vector<uint8_t> out(d_out_len);
    for (size_t f = 0; f < len / d_in_len; ++f) {
        if (!encode_frame(data + f * d_in_len, out.data())) {
            d_invalid++;
            d_logger->warn("skipped a PDU frame with symbols outside GF({})",
                           d_code->q());
            continue;
        }
        d_frames++;
        message_port_pub(PORT_PDUS,
                         pmt::cons(meta, pmt::init_u8vector(out.size(), out.data())));
    }
}

uint64_t ldpc_encoder_impl::frames() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_frames;
}

uint64_t ldpc_encoder_impl::bad_length_frames() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_scanner.stats().bad_length + d_bad_pdus;
}

uint64_t ldpc_encoder_impl::missing_tag_items() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_scanner.stats().missing_tag_items;
}

uint64_t ldpc_encoder_impl::invalid_frames() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_invalid;
}

} // namespace gpuldpc
} // namespace gr
