/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "decoder_input.h"
#include <gnuradio/gr_complex.h>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuldpc {

uint64_t
decoder_input::begin(batch_decoder&, const void*, size_t, uint8_t*, frame_status*) const
{
    throw std::logic_error("decoder_input: this input decodes at once (overlaps() is "
                           "false)");
}

namespace {

class float_input : public decoder_input
{
public:
    size_t item_size() const override { return sizeof(float); }
    size_t items_per_frame(const ldpc_code& code) const override
    {
        return size_t(code.n_transmitted()) * code.bits_per_symbol();
    }
    const char* pdu_type() const override { return "f32vector"; }
    const uint8_t* pdu_items(const pmt::pmt_t& payload, size_t& n_items) const override
    {
        if (!pmt::is_f32vector(payload))
            return nullptr;
        return reinterpret_cast<const uint8_t*>(
            pmt::f32vector_elements(payload, n_items));
    }
    void decode(batch_decoder& dec,
                const void* in,
                size_t n,
                const float*,
                uint8_t* bits,
                frame_status* status) const override
    {
        dec.decode(static_cast<const float*>(in), n, bits, status);
    }
    uint64_t begin(batch_decoder& dec,
                   const void* in,
                   size_t n,
                   uint8_t* bits,
                   frame_status* status) const override
    {
        return dec.begin_decode(static_cast<const float*>(in), n, bits, status);
    }
};

class int8_input : public decoder_input
{
public:
    size_t item_size() const override { return sizeof(int8_t); }
    size_t items_per_frame(const ldpc_code& code) const override
    {
        return size_t(code.n_transmitted()) * code.bits_per_symbol();
    }
    const char* pdu_type() const override { return "s8vector or u8vector"; }
    const uint8_t* pdu_items(const pmt::pmt_t& payload, size_t& n_items) const override
    {
        if (pmt::is_s8vector(payload))
            return reinterpret_cast<const uint8_t*>(
                pmt::s8vector_elements(payload, n_items));
        if (pmt::is_u8vector(payload))
            return pmt::u8vector_elements(payload, n_items);
        return nullptr;
    }
    void decode(batch_decoder& dec,
                const void* in,
                size_t n,
                const float*,
                uint8_t* bits,
                frame_status* status) const override
    {
        dec.decode_int8(static_cast<const int8_t*>(in), n, bits, status);
    }
    uint64_t begin(batch_decoder& dec,
                   const void* in,
                   size_t n,
                   uint8_t* bits,
                   frame_status* status) const override
    {
        return dec.begin_decode_int8(static_cast<const int8_t*>(in), n, bits, status);
    }
};

// Received symbols are demapped and decoded within one call: the batch
// decoder has no asynchronous entry for them.
class symbol_input : public decoder_input
{
public:
    explicit symbol_input(constellation points) : d_points(std::move(points)) {}

    size_t item_size() const override { return sizeof(gr_complex); }
    size_t items_per_frame(const ldpc_code& code) const override
    {
        return size_t(code.n_transmitted());
    }
    const char* pdu_type() const override { return "c32vector"; }
    const uint8_t* pdu_items(const pmt::pmt_t& payload, size_t& n_items) const override
    {
        if (!pmt::is_c32vector(payload))
            return nullptr;
        return reinterpret_cast<const uint8_t*>(
            pmt::c32vector_elements(payload, n_items));
    }
    bool takes_noise_var() const override { return true; }
    bool overlaps() const override { return false; }
    void decode(batch_decoder& dec,
                const void* in,
                size_t n,
                const float* noise_var,
                uint8_t* bits,
                frame_status* status) const override
    {
        dec.decode_symbols(
            static_cast<const gr_complex*>(in), n, d_points, noise_var, bits, status);
    }

private:
    const constellation d_points;
};

// The constellation of input symbols: named, or the one of q points
constellation matched_constellation(const ldpc_code& code, const ldpc_decoder::params& p)
{
    if (!(std::isfinite(p.noise_var) && p.noise_var >= 1.2e-38f))
        throw std::invalid_argument("noise_var=" + std::to_string(p.noise_var) +
                                    " is out of range; allowed: finite, > 0");
    std::string name = p.constellation;
    if (name.empty()) {
        // the module's matched mapping: code symbol x on point x
        static const char* by_bits[] = { "",
                                         "gpuldpc-bpsk",
                                         "gpuldpc-qpsk",
                                         "gpuldpc-8psk",
                                         "gpuldpc-16qam",
                                         "",
                                         "gpuldpc-64qam",
                                         "",
                                         "gpuldpc-256qam" };
        name = by_bits[code.bits_per_symbol()];
        if (name.empty())
            throw std::invalid_argument(
                "input='symbols': no constellation of q = " + std::to_string(code.q()) +
                " points; allowed: codes over GF(2), GF(4), GF(8), GF(16), GF(64), "
                "GF(256)");
    }
    // unknown names: make() names the allowed ones
    constellation c = constellation::make(name);
    if (c.bits_per_symbol() != code.bits_per_symbol())
        throw std::invalid_argument("constellation='" + name + "' has " +
                                    std::to_string(size_t(1) << c.bits_per_symbol()) +
                                    " points, the code's field " +
                                    std::to_string(code.q()) +
                                    " elements; allowed: the matched constellation");
    return c;
}

} // namespace

std::unique_ptr<decoder_input> decoder_input::make(const ldpc_decoder::params& p,
                                                   const ldpc_code& code)
{
    switch (p.input) {
    case ldpc_decoder::input_format::int8_llr:
        return std::make_unique<int8_input>();
    case ldpc_decoder::input_format::symbols:
        return std::make_unique<symbol_input>(matched_constellation(code, p));
    case ldpc_decoder::input_format::float_llr:
        break;
    }
    return std::make_unique<float_input>();
}

} // namespace gpuldpc
} // namespace gr
