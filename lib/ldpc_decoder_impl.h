/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_LDPC_DECODER_IMPL_H
#define INCLUDED_GPULDPC_LDPC_DECODER_IMPL_H

#include "frame_scanner.h"
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/ldpc_decoder.h>
#include <chrono>
#include <mutex>

namespace gr {
namespace gpuldpc {

class ldpc_decoder_impl : public ldpc_decoder
{
public:
    ldpc_decoder_impl(ldpc_code::sptr code,
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
                      double stats_interval);

    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;
    bool stop() override;

    uint64_t frames() const override;
    uint64_t failed_frames() const override;
    uint64_t dropped_frames() const override;
    uint64_t bad_length_frames() const override;
    uint64_t missing_tag_items() const override;
    uint64_t invalid_inputs() const override;
    double average_iterations() const override;
    pmt::pmt_t stats() const override;
    std::string device_name() const override { return d_decoder->device_name(); }
    int input_frame_length() const override { return int(d_in_len); }
    int output_frame_length() const override { return int(d_out_len); }

private:
    enum class output_mode { packed, bits, symbols };

    // Decodes n frames from d_batch_in into d_batch_bits/d_batch_status and
    // updates the counters. Caller holds d_mutex.
    void decode_batch(size_t n);
    // Formats the information bits of batch frame i into out (d_out_len bytes).
    void format_output(size_t i, uint8_t* out) const;
    void handle_pdu(const pmt::pmt_t& msg);
    void publish_stats(bool force);
    pmt::pmt_t make_stats() const; // caller holds d_mutex

    ldpc_code::sptr d_code;
    batch_decoder::sptr d_decoder;
    output_mode d_mode;
    size_t d_in_len;
    size_t d_out_len;
    size_t d_max_batch;
    bool d_pass_failed;
    double d_stats_interval;
    frame_scanner d_scanner;
    pmt::pmt_t d_out_len_key;

    // buffers sized for max_batch frames once; work() allocates nothing
    std::vector<float> d_batch_in;
    std::vector<uint8_t> d_batch_bits;
    std::vector<frame_status> d_batch_status;
    std::vector<uint8_t> d_symbols;
    std::vector<size_t> d_starts;
    std::vector<gr::tag_t> d_tags, d_frame_tags;

    mutable std::mutex d_mutex; // the stream and the PDU port share the decoder
    uint64_t d_frames = 0, d_failed = 0, d_dropped = 0, d_invalid = 0;
    uint64_t d_iterations = 0, d_bad_pdus = 0;
    frame_scanner::counters d_reported; // scanner counts already logged
    double d_decode_seconds = 0.0;
    std::chrono::steady_clock::time_point d_last_stats;
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_LDPC_DECODER_IMPL_H */
