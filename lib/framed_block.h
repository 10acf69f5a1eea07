/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_FRAMED_BLOCK_H
#define INCLUDED_GPULDPC_FRAMED_BLOCK_H

#include "frame_scanner.h"
#include <gnuradio/block.h>
#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gr {
namespace gpuldpc {

/*!
 * \brief The skeleton of a block that turns whole input frames into whole
 * output frames (ldpc_decoder, ldpc_encoder): framing of tagged and untagged
 * streams and of PDUs, the scheduler's contract, end of stream, tags and
 * counters. Subclasses supply process_frames() and the PDU payload type.
 *
 * Scheduler contract:
 * - relative rate out_len / in_len and an output multiple of one batch of
 *   output frames, so that GNU Radio sizes the upstream buffer for two batches
 *   of input (2 * decimation * output_multiple items) and a full batch can
 *   wait;
 * - forecast() asks for one frame (in tagged mode the waiting packet's length,
 *   or one item when the packet will be skipped), so a lone frame is processed
 *   as soon as it is complete and batches fill from the backlog;
 * - when the upstream is done, forecast() asks for one item, and work() counts
 *   and consumes what can never complete a frame, so the flowgraph finishes;
 *   once nothing is left, forecast() asks for none, and the last work() call
 *   runs input_finished() (on the block's thread, before the block reports
 *   done, so that messages it publishes reach their subscribers) and returns
 *   WORK_DONE.
 *
 * Life cycle: start() begins clean (a flowgraph run again starts on new
 * buffers: no frame, skip or batch of an earlier run carries over); stop()
 * collects a batch still in flight and counts its frames (dropped_at_stop():
 * taken from the input and processed, but no work() call is left to write
 * them out), with a log line.
 *
 * Threads: work() and the PDU handler run on the block's thread; the counters
 * are atomics any thread MAY read while the flowgraph runs.
 */
class framed_block : virtual public gr::block
{
public:
    /*! Key/value pairs describing one processed frame (tags or PDU metadata). */
    using annotations = std::vector<std::pair<pmt::pmt_t, pmt::pmt_t>>;

    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;
    bool check_topology(int ninputs, int noutputs) override;
    bool start() override;
    bool stop() override;

    uint64_t framing_bad_length() const { return d_bad_length + d_bad_pdus; }
    uint64_t framing_missing_tag_items() const { return d_missing_tag_items; }
    uint64_t framing_truncated() const { return d_truncated; }
    uint64_t framing_dropped_tags() const { return d_dropped_tags; }
    //! batches that nothing waited behind, submitted in chunks
    uint64_t chunked_batches() const { return d_chunked_batches; }
    //! frames taken from the input but in flight when the flowgraph stopped
    uint64_t framing_dropped_at_stop() const { return d_dropped_at_stop; }
    size_t batch() const { return d_batch; }
    size_t in_len() const { return d_in_len; }
    size_t in_item_size() const { return d_in_itemsize; }
    size_t out_len() const { return d_out_len; }

protected:
    /*!
     * \param in_len input items per frame
     * \param in_itemsize bytes per input item
     * \param out_len output bytes per frame
     * \param batch frames per call at most (>= 1)
     * \param length_tag_key length tag key of the input and the output; ""
     *        for untagged streams (no length tags out either)
     * \param unit what an input item is, for log lines ("soft bits", "bytes")
     */
    framed_block(size_t in_len,
                 size_t in_itemsize,
                 size_t out_len,
                 size_t batch,
                 const std::string& length_tag_key,
                 const char* unit);
    framed_block() = delete;

    /*!
     * Processes \p n frames that start at items \p starts[i] of \p in (raw
     * bytes; items of in_itemsize). MUST write the output frames it emits one
     * after another from \p out (out_len bytes each) and set emit[i] (emit has
     * n entries, all false on entry).
     */
    virtual void process_frames(const uint8_t* in,
                                const size_t* starts,
                                size_t n,
                                uint8_t* out,
                                std::vector<char>& emit) = 0;
    /*!
     * Pipelined subclasses return true: stream frames then go through
     * submit_frames() and collect_frames(), so that a batch is processed
     * (on a GPU) while work() hands out the one before and gathers the next.
     * PDUs still go through process_frames().
     */
    virtual bool pipelined() const { return false; }
    /*!
     * Starts processing \p n frames at items \p starts[i] of \p in (the
     * input is consumed when this returns: what is needed MUST be copied). At
     * most two batches are submitted and not yet collected.
     */
    virtual void submit_frames(const uint8_t* in, const size_t* starts, size_t n);
    /*!
     * Finishes the oldest submitted batch: as process_frames(), writes the
     * frames it emits from \p out and sets \p emit[i] (n entries of that
     * batch, all false on entry); frame_annotations() then describes this
     * batch.
     */
    virtual void collect_frames(uint8_t* out, char* emit);
    /*!
     * Frames of the smallest submit worth making on its own, or 0 (the
     * default) to submit every batch whole. A batch that nothing waits behind
     * would be submitted and collected at once, its copies and its processing
     * one after the other; with a chunk of c frames, such a batch of at least
     * 2c frames, where the output has room for it and the batch outstanding,
     * is submitted in chunks of the same multiple of c frames (at most 8
     * chunks; the last one takes the rest, which may be fewer), each submitted
     * before the one ahead of it is collected, so that the copies of a chunk
     * overlap the processing of the one before. SHOULD be frames that the
     * device processes at about the speed of larger batches (a GPU decoder's
     * efficient_chunk()).
     */
    virtual size_t pipeline_chunk() const { return 0; }
    /*! Tags/metadata for frame \p i of the last process_frames() or
     * collect_frames() call. */
    virtual void frame_annotations(size_t i, annotations& out) const;
    /*!
     * The items of a PDU payload, or null when its type is not the block's
     * (then \p n_items is left alone).
     */
    virtual const uint8_t* pdu_items(const pmt::pmt_t& payload,
                                     size_t& n_items) const = 0;
    /*! Called after each work() call and each PDU, on the block's thread. */
    virtual void after_processing() {}
    /*!
     * Called once a run, on the block's thread, when the stream input has
     * ended and every frame of it went out (not when the flowgraph is
     * stopped, nor for PDUs alone).
     */
    virtual void input_finished() {}
    /*! Called by start() after the framing state was reset. */
    virtual void reset_run() {}
    //! the metadata of the PDU whose frames process_frames() gets next
    virtual void pdu_metadata(const pmt::pmt_t&) {}
    /*! The PDU payload type, for log lines ("f32vector"). */
    virtual const char* pdu_type() const = 0;

    /*!
     * Tags of stream frame \p i of the last process_frames() or
     * collect_frames() call: by default frame_annotations() (PDUs always carry
     * those in their metadata). A subclass MAY tag fewer stream frames (a tag
     * costs the block's thread about half a microsecond).
     */
    virtual void stream_frame_annotations(size_t i, annotations& out) const
    {
        frame_annotations(i, out);
    }
    /*! Registers the "pdus" message ports; call from the constructor. */
    void register_pdu_ports();
    /*! Appends the framing counters to a stats dictionary. */
    pmt::pmt_t add_framing_stats(pmt::pmt_t dict) const;

private:
    // The frames of one batch and the tags of the input items it consumed,
    // kept until its output goes out.
    struct batch_record {
        size_t frames = 0;
        std::vector<uint64_t> in_abs; // first input item of each frame
        std::vector<gr::tag_t> tags;  // every tag of the consumed items
        std::vector<char> emit;
        size_t forwarded_tags = 0; // tags that went out with a frame
    };

    void handle_pdu(const pmt::pmt_t& msg);
    // Scans up to a batch of frames into \p b (starts in d_starts); returns
    // the items consumed.
    size_t scan_batch(size_t avail, size_t max_frames, batch_record& b);
    // Tags the frames of \p b that were emitted (written after \p produced
    // frames of this call); returns their number.
    size_t emit_batch(batch_record& b, size_t produced);
    // emit_batch() for frames [first, first + count) of \p b, the frames of
    // the last collect_frames() call, and close_batch() once all went out
    size_t emit_frames(batch_record& b, size_t first, size_t count, size_t produced);
    void close_batch(batch_record& b);
    // Collects the outstanding batch, if any, and writes the frames it emits
    // after \p produced frames of this call; returns their number.
    size_t hand_out_outstanding(uint8_t* out, size_t produced);
    // Frames of each chunk (the last: the rest) of batch \p b where it is
    // submitted and collected in this call in chunks; 0 when it goes whole
    // (pipeline_chunk())
    size_t lone_batch_chunk(const batch_record& b,
                            size_t waiting_items,
                            size_t noutput_items) const;
    // Hands out the outstanding batch, if any, and \p b in chunks of \p chunk
    // frames, one submitted ahead of the collect; returns the frames written.
    size_t
    pipeline_lone_batch(const uint8_t* in, uint8_t* out, batch_record& b, size_t chunk);
    int
    pipelined_work(size_t noutput_items, size_t avail, const uint8_t* in, uint8_t* out);
    bool input_ended(size_t seen);
    void sync_scanner_counters();
    // tags other than length tags
    size_t count_content_tags(const std::vector<gr::tag_t>& tags) const;
    // meta plus d_annotations (filled for the frame at hand)
    pmt::pmt_t with_annotations(pmt::pmt_t meta) const;

    const size_t d_in_len;
    const size_t d_in_itemsize;
    const size_t d_out_len;
    const size_t d_batch;
    const char* d_unit;
    frame_scanner d_scanner;
    pmt::pmt_t d_out_len_key;
    pmt::pmt_t d_out_len_value; // made once: a tag per frame

    // work() scratch, sized once
    std::vector<size_t> d_starts;
    std::vector<gr::tag_t> d_tags, d_frame_tags;
    // the batch of a work() call; pipelined, also the one submitted before
    batch_record d_records[2];
    unsigned d_newest = 0;      // record of the last batch scanned
    bool d_outstanding = false; // pipelined: a batch submitted, not collected
    annotations d_annotations;
    frame_scanner::counters d_reported;

    std::atomic<uint64_t> d_bad_length{ 0 };
    std::atomic<uint64_t> d_bad_pdus{ 0 };
    std::atomic<uint64_t> d_missing_tag_items{ 0 };
    std::atomic<uint64_t> d_truncated{ 0 };
    std::atomic<uint64_t> d_dropped_tags{ 0 };
    std::atomic<uint64_t> d_chunked_batches{ 0 };
    std::atomic<uint64_t> d_dropped_at_stop{ 0 };
    bool d_finished = false; // input_finished() ran in this run
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_FRAMED_BLOCK_H */
