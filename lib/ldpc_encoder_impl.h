/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_LDPC_ENCODER_IMPL_H
#define INCLUDED_GPULDPC_LDPC_ENCODER_IMPL_H

#include "framed_block.h"
#include <gnuradio/gpuldpc/ldpc_encoder.h>
#include <atomic>

namespace gr {
namespace gpuldpc {

class ldpc_encoder_impl : public ldpc_encoder, public framed_block
{
public:
    ldpc_encoder_impl(ldpc_code::sptr code, const params& p);

    uint64_t frames() const override { return d_frames; }
    uint64_t bad_length_frames() const override { return framing_bad_length(); }
    uint64_t missing_tag_items() const override { return framing_missing_tag_items(); }
    uint64_t invalid_frames() const override { return d_invalid; }
    uint64_t truncated_frames() const override { return framing_truncated(); }
    uint64_t dropped_tags() const override { return framing_dropped_tags(); }
    int input_frame_length() const override { return int(in_len()); }
    int output_frame_length() const override { return int(out_len()); }
    int batch_size() const override { return int(batch()); }

protected:
    void process_frames(const uint8_t* in,
                        const size_t* starts,
                        size_t n,
                        uint8_t* out,
                        std::vector<char>& emit) override;
    const uint8_t* pdu_items(const pmt::pmt_t& payload, size_t& n_items) const override;
    const char* pdu_type() const override { return "u8vector"; }

private:
    enum class input_mode { packed, bits, symbols };

    // Frame in (in_len() bytes) -> frame out (out_len() bytes); false when the
    // input holds symbols outside GF(q).
    bool encode_frame(const uint8_t* in, uint8_t* out);

    ldpc_code::sptr d_code;
    input_mode d_in_mode;
    bool d_packed_out;

    std::vector<uint8_t> d_bits, d_info, d_codeword, d_cw_bits;
    std::vector<uint8_t> d_sent; // the transmitted symbols of d_codeword

    std::atomic<uint64_t> d_frames{ 0 }, d_invalid{ 0 };
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_LDPC_ENCODER_IMPL_H */
