/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_LDPC_DECODER_IMPL_H
#define INCLUDED_GPULDPC_LDPC_DECODER_IMPL_H

#include "block_common.h"
#include "decoder_input.h"
#include "engine/copy_pool.h"
#include "framed_block.h"
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/device.h>
#include <gnuradio/gpuldpc/ldpc_decoder.h>
#include <atomic>
#include <chrono>
#include <memory>

namespace gr {
namespace gpuldpc {

class ldpc_decoder_impl : public ldpc_decoder, public framed_block
{
public:
    explicit ldpc_decoder_impl(const params& p);
    ~ldpc_decoder_impl() override;

    bool stop() override;

    uint64_t frames() const override { return d_frames; }
    uint64_t failed_frames() const override { return d_failed; }
    uint64_t dropped_frames() const override { return d_dropped; }
    uint64_t bad_length_frames() const override { return framing_bad_length(); }
    uint64_t missing_tag_items() const override { return framing_missing_tag_items(); }
    uint64_t truncated_frames() const override { return framing_truncated(); }
    uint64_t dropped_tags() const override { return framing_dropped_tags(); }
    uint64_t dropped_at_stop() const override { return framing_dropped_at_stop(); }
    uint64_t invalid_inputs() const override { return d_invalid; }
    double average_iterations() const override;
    pmt::pmt_t stats() const override;
    std::string device_name() const override { return d_decoder.shared()->device_name(); }
    int input_frame_length() const override { return int(in_len()); }
    int output_frame_length() const override { return int(out_len()); }
    int batch_size() const override { return int(batch()); }

protected:
    void process_frames(const uint8_t* in,
                        const size_t* starts,
                        size_t n,
                        uint8_t* out,
                        std::vector<char>& emit) override;
    void frame_annotations(size_t i, annotations& out) const override;
    void stream_frame_annotations(size_t i, annotations& out) const override;
    const uint8_t* pdu_items(const pmt::pmt_t& payload, size_t& n_items) const override;
    const char* pdu_type() const override { return d_input->pdu_type(); }
    void after_processing() override { publish_stats(false); }
    // the final stats message, from work(): one published from stop() may
    // find its subscribers gone
    void input_finished() override;
    void reset_run() override;
    // stream frames: batch k decodes (on a GPU) while work() formats batch
    // k-1 and gathers batch k+1
    bool pipelined() const override { return true; }
    void submit_frames(const uint8_t* in, const size_t* starts, size_t n) override;
    void collect_frames(uint8_t* out, char* emit) override;
    size_t pipeline_chunk() const override;

private:
    // made before the block: the automatic batch depends on the decoder's
    // device, the frame length on the input
    struct parts {
        ldpc_code::sptr code;
        batch_decoder::sptr decoder;
        std::unique_ptr<decoder_input> input;
    };
    static parts make_parts(const params& p);
    ldpc_decoder_impl(const params& p, parts&& made);

    // A batch in flight: its input staged in host memory suited to the
    // decoder (page-locked for a GPU), and its results.
    struct staging_slot {
        std::shared_ptr<void> in_mem, bits_mem, status_mem;
        void* in = nullptr; // float or int8 soft bits
        uint8_t* bits = nullptr;
        frame_status* status = nullptr;
        size_t frames = 0;
        std::vector<float> noise_var; // input "symbols": N0 a frame
        batch_decoder::sptr decoder;  // decoding it; null once done
        uint64_t ticket = 0;
        std::chrono::steady_clock::time_point begun;
    };
    // slot i, its buffers made on first use (\p input: the input's too)
    staging_slot& staging(unsigned i, bool input);
    // Decodes the slot's batch now on \p dec, from \p in (its staging buffer
    // or the block's input).
    void decode_slot(batch_decoder& dec, staging_slot& slot, const void* in);

    // Formats a frame's decoded information bits (packed by the decoder for
    // the packed output, one 0/1 a byte otherwise) into out (out_len() bytes);
    // safe on several threads at once.
    void format_output(const uint8_t* decoded, uint8_t* out) const;
    // Counts a decoded batch and formats the frames it emits.
    void deliver(const frame_status* status,
                 const uint8_t* bits,
                 size_t n,
                 uint8_t* out,
                 char* emit);
    void publish_stats(bool force);

    ldpc_code::sptr d_code;
    // a CPU decoder replaces a GPU decoder that fails
    fallback_decoder d_decoder;
    // float LLRs, 8-bit LLRs or symbols
    const std::unique_ptr<decoder_input> d_input;
    std::vector<pmt::pmt_t> d_small_integers; // tag values 0 .. 4095
    pmt::pmt_t small_integer(uint32_t v) const;
    output_format d_mode;
    bool d_pass_failed;
    status_tag_mode d_status_tags;
    double d_stats_interval;

    // input symbols: N0 now, the key of the tags that set it, and the value
    // of the PDU at hand
    float d_noise_var;
    const float d_configured_noise_var; // noise_var: a new run starts from it
    const pmt::pmt_t d_noise_key;
    float d_pdu_noise_var = 0.0f; // 0: none, noise_var of the stream's
    std::vector<gr::tag_t> d_noise_tags;
    std::atomic<uint64_t> d_bad_noise_tags{ 0 };
    // N0 of each of \p n frames starting at \p starts (relative to the read
    // position), applying the noise tags up to each frame's first item
    void frame_noise_vars(const size_t* starts, size_t n, float* out);
    void apply_noise_tag(const pmt::pmt_t& value);
    void pdu_metadata(const pmt::pmt_t& meta) override;
    // PDU batches (their frames where not back to back); sized once
    std::vector<uint8_t> d_batch_in;
    std::vector<float> d_batch_noise;
    std::vector<uint8_t> d_batch_bits;
    std::vector<frame_status> d_batch_status;
    // stream batches: two in flight at most, allocated with the first
    staging_slot d_slots[batch_decoder::max_outstanding];
    // a GPU's batch into its page-locked staging, and a large batch's
    // formatting: one core would hold the block below what the GPU decodes
    copy_pool d_staging_copies;
    std::vector<size_t> d_emitted_frames; // of the batch deliver() formats
    unsigned d_submit_slot = 0, d_collect_slot = 0;
    const frame_status* d_current_status = nullptr; // of frame_annotations()
    std::chrono::steady_clock::time_point d_busy_until;

    // read by other threads (stats(), GUIs) while work() runs
    std::atomic<uint64_t> d_frames{ 0 }, d_failed{ 0 }, d_dropped{ 0 }, d_invalid{ 0 };
    std::atomic<uint64_t> d_iterations{ 0 }, d_decode_ns{ 0 };
    std::atomic<uint64_t> d_batches{ 0 }, d_largest_batch{ 0 };
    std::chrono::steady_clock::time_point d_last_stats;
    bool d_final_published = false; // this run's final stats went out
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_LDPC_DECODER_IMPL_H */
