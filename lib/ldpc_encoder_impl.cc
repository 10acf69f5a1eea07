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
    params p;
    p.input = input;
    p.output = output;
    p.length_tag_key = length_tag_key;
    return make_from_params(code, p);
}

ldpc_encoder::sptr ldpc_encoder::make_from_params(ldpc_code::sptr code, const params& p)
{
    if (!code)
        throw std::invalid_argument("code: no code given");
    return gnuradio::make_block_sptr<ldpc_encoder_impl>(code, p);
}

namespace {

size_t input_bytes_per_frame(const ldpc_code& code, const std::string& input)
{
    const size_t info_bits = size_t(code.k()) * code.bits_per_symbol();
    if (input == "packed")
        return packed_size(info_bits);
    if (input == "bits")
        return info_bits;
    if (input == "symbols")
        return size_t(code.k());
    throw std::invalid_argument("input='" + input +
                                "' is unknown; allowed: packed, bits, symbols");
}

size_t output_bytes_per_frame(const ldpc_code& code, const std::string& output)
{
    // punctured symbols are not sent
    const size_t bits = size_t(code.n_transmitted()) * code.bits_per_symbol();
    if (output == "packed")
        return packed_size(bits);
    if (output == "bits")
        return bits;
    throw std::invalid_argument("output='" + output +
                                "' is unknown; allowed: bits, packed");
}

// Frames per call: enough to amortise the call, with the output of a batch
// (the output multiple) bounded to a few MiB.
size_t encoder_batch(size_t out_bytes)
{
    return std::clamp<size_t>((size_t(4) << 20) / out_bytes, 1, 64);
}

} // namespace

ldpc_encoder_impl::ldpc_encoder_impl(ldpc_code::sptr code, const params& p)
    : gr::block("ldpc_encoder",
                // streams are optional: the block also works on PDUs alone
                gr::io_signature::make(0, 1, sizeof(uint8_t)),
                gr::io_signature::make(0, 1, sizeof(uint8_t))),
      framed_block(input_bytes_per_frame(*code, p.input),
                   sizeof(uint8_t),
                   output_bytes_per_frame(*code, p.output),
                   encoder_batch(output_bytes_per_frame(*code, p.output)),
                   p.length_tag_key,
                   "bytes"),
      d_code(code),
      d_in_mode(p.input == "packed" ? input_mode::packed
                : p.input == "bits" ? input_mode::bits
                                    : input_mode::symbols),
      d_packed_out(p.output == "packed"),
      d_bits(size_t(code->k()) * code->bits_per_symbol()),
      d_info(code->k()),
      d_codeword(code->n()),
      d_cw_bits(size_t(code->n_transmitted()) * code->bits_per_symbol()),
      d_sent(code->n_transmitted())
{
    register_pdu_ports();
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
    d_code->puncture(d_codeword.data(), d_sent.data(), 1);
    if (d_packed_out) {
        symbols_to_bits(d_sent.data(), d_sent.size(), m, d_cw_bits.data());
        pack_bits(d_cw_bits.data(), d_cw_bits.size(), out);
    } else {
        symbols_to_bits(d_sent.data(), d_sent.size(), m, out);
    }
    return true;
}

void ldpc_encoder_impl::process_frames(const uint8_t* in,
                                       const size_t* starts,
                                       size_t n,
                                       uint8_t* out,
                                       std::vector<char>& emit)
{
    size_t emitted = 0;
    for (size_t i = 0; i < n; ++i) {
        if (!encode_frame(in + starts[i], out + emitted * out_len())) {
            const uint64_t count = ++d_invalid;
            if (should_log(count))
                d_logger->warn("skipped a frame with symbols outside GF({}) ({} so far)",
                               d_code->q(),
                               count);
            continue;
        }
        emit[i] = 1;
        ++emitted;
    }
    d_frames += emitted;
}

const uint8_t* ldpc_encoder_impl::pdu_items(const pmt::pmt_t& payload,
                                            size_t& n_items) const
{
    if (!pmt::is_u8vector(payload))
        return nullptr;
    return pmt::u8vector_elements(payload, n_items);
}

} // namespace gpuldpc
} // namespace gr
