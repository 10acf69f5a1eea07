/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_LDPC_ENCODER_IMPL_H
#define INCLUDED_GPULDPC_LDPC_ENCODER_IMPL_H

#include "frame_scanner.h"
#include <gnuradio/gpuldpc/ldpc_encoder.h>
#include <mutex>

namespace gr {
namespace gpuldpc {

class ldpc_encoder_impl : public ldpc_encoder
{
public:
    ldpc_encoder_impl(ldpc_code::sptr code,
                      const std::string& input,
                      const std::string& output,
                      const std::string& length_tag_key);

    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

    uint64_t frames() const override;
    uint64_t bad_length_frames() const override;
    uint64_t missing_tag_items() const override;
    uint64_t invalid_frames() const override;
    int input_frame_length() const override { return int(d_in_len); }
    int output_frame_length() const override { return int(d_out_len); }

private:
    enum class input_mode { packed, bits, symbols };

    // Frame in (d_in_len bytes) -> frame out (d_out_len bytes); false when the
    // input holds symbols outside GF(q). Caller holds d_mutex.
    bool encode_frame(const uint8_t* in, uint8_t* out);
    void handle_pdu(const pmt::pmt_t& msg);

    ldpc_code::sptr d_code;
    input_mode d_in_mode;
    bool d_packed_out;
    size_t d_in_len, d_out_len;
    frame_scanner d_scanner;
    pmt::pmt_t d_out_len_key;

    std::vector<uint8_t> d_bits, d_info, d_codeword, d_cw_bits;
    std::vector<size_t> d_starts;
    std::vector<gr::tag_t> d_tags, d_frame_tags;

    mutable std::mutex d_mutex;
    uint64_t d_frames = 0, d_invalid = 0, d_bad_pdus = 0;
    frame_scanner::counters d_reported;
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_LDPC_ENCODER_IMPL_H */
