/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "block_common.h"
#include "framed_block.h"
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

namespace {
const pmt::pmt_t PORT_PDUS = pmt::mp("pdus");
} // namespace

framed_block::framed_block(size_t in_len,
                           size_t in_itemsize,
                           size_t out_len,
                           size_t batch,
                           const std::string& length_tag_key,
                           const char* unit)
    : d_in_len(in_len),
      d_in_itemsize(in_itemsize),
      d_out_len(out_len),
      d_batch(batch),
      d_unit(unit),
      d_scanner(in_len, length_tag_key),
      d_out_len_key(pmt::mp(length_tag_key)),
      d_out_len_value(pmt::from_long(long(out_len)))
{
    if (in_len == 0 || out_len == 0 || batch == 0)
        throw std::invalid_argument("framed_block: empty frames or batch");
    // The rate as a reduced fraction: GNU Radio sizes buffers from its
    // denominator, and a double would round it.
    const size_t g = std::gcd(in_len, out_len);
    set_relative_rate(uint64_t(out_len / g), uint64_t(in_len / g));
    set_output_multiple(int(batch * out_len));
    set_tag_propagation_policy(TPP_DONT);
    d_starts.reserve(batch);
    for (auto& r : d_records) {
        r.in_abs.reserve(batch);
        r.emit.reserve(batch);
    }
}

void framed_block::register_pdu_ports()
{
    message_port_register_in(PORT_PDUS);
    message_port_register_out(PORT_PDUS);
    set_msg_handler(PORT_PDUS, [this](const pmt::pmt_t& msg) { handle_pdu(msg); });
}

void framed_block::frame_annotations(size_t, annotations&) const {}

bool framed_block::check_topology(int ninputs, int noutputs)
{
    // GNU Radio runs a block without outputs as a sink, which it calls only
    // when a whole output multiple of input waits: whole batches, and never
    // the end of a stream. Frames from a stream go out on the stream.
    if (ninputs > 0 && noutputs == 0)
        throw std::runtime_error(
            alias() + ": the stream input needs the stream output connected (to "
                      "blocks.null_sink, or pdu.tagged_stream_to_pdu for PDUs); for PDUs "
                      "alone use the 'pdus' ports and connect neither stream");
    if (noutputs > 0 && ninputs == 0)
        throw std::runtime_error(
            alias() + ": the stream output needs the stream input connected (frames "
                      "come from the stream); for PDUs alone use the 'pdus' ports and "
                      "connect neither stream");
    return true;
}

bool framed_block::start()
{
    d_scanner.reset();
    for (auto& r : d_records) {
        r.frames = 0;
        r.tags.clear();
        r.forwarded_tags = 0;
    }
    d_newest = 0;
    d_outstanding = false;
    d_finished = false;
    reset_run();
    return true;
}

bool framed_block::stop()
{
    if (!d_outstanding)
        return true;
    // the batch is processed (a GPU may still hold it): collect it, so that
    // nothing of it is in flight, and count what no work() call writes out
    batch_record& b = d_records[d_newest];
    std::vector<uint8_t> scratch(b.frames * d_out_len);
    uint64_t lost = 0;
    try {
        collect_frames(scratch.data(), b.emit.data());
        for (size_t i = 0; i < b.frames; ++i)
            lost += b.emit[i] != 0;
    } catch (const std::exception& e) {
        lost = b.frames;
        d_logger->error("collecting the batch in flight at stop failed: {}", e.what());
    }
    d_outstanding = false;
    d_dropped_at_stop.fetch_add(lost, std::memory_order_relaxed);
    if (lost > 0)
        d_logger->warn("stopped with a batch in flight: {} decoded frames dropped "
                       "(dropped_at_stop); a flowgraph that ends with its input "
                       "writes out every frame",
                       lost);
    close_batch(b);
    return true;
}

void framed_block::forecast(int, gr_vector_int& ninput_items_required)
{
    if (ninput_items_required.empty())
        return;
    // a batch is outstanding: work() hands it out, with or without input
    if (d_outstanding) {
        ninput_items_required[0] = 0;
        return;
    }
    // Once the upstream is done, one item is enough for work() to see the
    // rest, count what can never complete a frame, and let the flowgraph end;
    // with none left, none: work() then runs input_finished() and says done.
    const auto reader = detail() ? detail()->input(0) : nullptr;
    if (reader && reader->done()) {
        gr::thread::scoped_lock guard(*reader->mutex());
        ninput_items_required[0] = reader->items_available() > 0 ? 1 : 0;
        return;
    }
    if (!d_scanner.tagged()) {
        ninput_items_required[0] = int(d_in_len);
        return;
    }
    // Tagged: the waiting packet's length when it is a frame; one item when
    // the items ahead are skipped (a packet of another length, or no tag).
    int need = 1;
    if (!d_scanner.skipping()) {
        const uint64_t r = nitems_read(0);
        d_tags.clear();
        get_tags_in_range(d_tags, 0, r, r + 1, d_scanner.key());
        if (!d_tags.empty() &&
            frame_scanner::tag_length(d_tags.front().value) == int64_t(d_in_len))
            need = int(d_in_len);
    }
    ninput_items_required[0] = need;
}

bool framed_block::input_ended(size_t seen)
{
    const auto reader = detail()->input(0);
    gr::thread::scoped_lock guard(*reader->mutex());
    // done() is set after the upstream's last items are in the buffer, so
    // nothing more will come once both hold
    return reader->done() && size_t(reader->items_available()) <= seen;
}

void framed_block::sync_scanner_counters()
{
    const auto& s = d_scanner.stats();
    d_bad_length.store(s.bad_length, std::memory_order_relaxed);
    d_missing_tag_items.store(s.missing_tag_items, std::memory_order_relaxed);
    log_skipped(d_logger, d_scanner, d_reported, d_unit);
}

size_t framed_block::count_content_tags(const std::vector<gr::tag_t>& tags) const
{
    size_t n = 0;
    for (const auto& t : tags)
        n += !(d_scanner.tagged() && pmt::eq(t.key, d_scanner.key()));
    return n;
}

pmt::pmt_t framed_block::with_annotations(pmt::pmt_t meta) const
{
    for (const auto& kv : d_annotations)
        meta = pmt::dict_add(meta, kv.first, kv.second);
    return meta;
}

void framed_block::submit_frames(const uint8_t*, const size_t*, size_t)
{
    throw std::logic_error("framed_block: submit_frames() of a block that is not "
                           "pipelined");
}

void framed_block::collect_frames(uint8_t*, char*)
{
    throw std::logic_error("framed_block: collect_frames() of a block that is not "
                           "pipelined");
}

size_t framed_block::scan_batch(size_t avail, size_t max_frames, batch_record& b)
{
    const uint64_t abs_in = nitems_read(0);
    d_tags.clear();
    if (d_scanner.tagged())
        get_tags_in_window(d_tags, 0, 0, avail, d_scanner.key());
    d_starts.clear();
    size_t consumed = d_scanner.scan(abs_in, avail, d_tags, max_frames, d_starts);
    const size_t n = d_starts.size();

    if (n == 0 && consumed < avail && input_ended(avail)) {
        // The upstream is done and the rest can never complete a frame.
        const uint64_t count = d_truncated.fetch_add(1, std::memory_order_relaxed) + 1;
        if (should_log(count))
            d_logger->warn("the stream ended inside a frame: {} of {} {} dropped ({} "
                           "incomplete frames so far)",
                           avail - consumed,
                           d_in_len,
                           d_unit,
                           count);
        consumed = avail;
    }
    sync_scanner_counters();

    b.frames = n;
    b.in_abs.resize(n);
    for (size_t i = 0; i < n; ++i)
        b.in_abs[i] = abs_in + d_starts[i];
    b.emit.assign(n, 0);
    b.forwarded_tags = 0;
    // every tag on the consumed items, fetched once (in offset order) and
    // handed out per frame when the batch goes out
    b.tags.clear();
    if (consumed > 0)
        get_tags_in_range(b.tags, 0, abs_in, abs_in + consumed);
    return consumed;
}

size_t framed_block::emit_batch(batch_record& b, size_t produced)
{
    const size_t written = emit_frames(b, 0, b.frames, produced);
    close_batch(b);
    return written;
}

size_t
framed_block::emit_frames(batch_record& b, size_t first, size_t count, size_t produced)
{
    const auto by_offset = [](const gr::tag_t& t, uint64_t o) { return t.offset < o; };
    size_t written = 0;
    for (size_t i = first; i < first + count; ++i) {
        if (!b.emit[i])
            continue;
        const uint64_t in_abs = b.in_abs[i];
        const auto from =
            std::lower_bound(b.tags.begin(), b.tags.end(), in_abs, by_offset);
        const auto to =
            std::lower_bound(from, b.tags.end(), in_abs + d_in_len, by_offset);
        d_frame_tags.assign(from, to);
        d_annotations.clear();
        stream_frame_annotations(i - first, d_annotations);
        const uint64_t out_abs = nitems_written(0) + (produced + written) * d_out_len;
        if (d_scanner.tagged())
            add_item_tag(0, out_abs, d_out_len_key, d_out_len_value);
        for (const auto& kv : d_annotations)
            add_item_tag(0, out_abs, kv.first, kv.second);
        move_frame_tags(d_frame_tags, d_scanner, in_abs, d_in_len, out_abs, d_out_len);
        for (const auto& t : d_frame_tags)
            add_item_tag(0, t);
        b.forwarded_tags += d_frame_tags.size();
        ++written;
    }
    return written;
}

void framed_block::close_batch(batch_record& b)
{
    // tags on consumed items that went out with no frame are counted
    const size_t content_tags = count_content_tags(b.tags);
    if (content_tags > b.forwarded_tags)
        d_dropped_tags.fetch_add(content_tags - b.forwarded_tags,
                                 std::memory_order_relaxed);
    b.frames = 0;
    b.tags.clear();
    b.forwarded_tags = 0;
}

int framed_block::general_work(int noutput_items,
                               gr_vector_int& ninput_items,
                               gr_vector_const_void_star& input_items,
                               gr_vector_void_star& output_items)
{
    const size_t avail = size_t(ninput_items[0]);
    const uint8_t* in = static_cast<const uint8_t*>(input_items[0]);
    uint8_t* out = static_cast<uint8_t*>(output_items[0]);
    if (avail == 0 && !d_outstanding && input_ended(0)) {
        // the last call of a run whose input ended: all went out
        if (!d_finished) {
            d_finished = true;
            input_finished();
        }
        return WORK_DONE;
    }
    if (pipelined())
        return pipelined_work(size_t(noutput_items), avail, in, out);

    batch_record& b = d_records[0];
    const size_t consumed =
        scan_batch(avail, std::min(d_batch, size_t(noutput_items) / d_out_len), b);
    if (b.frames > 0)
        process_frames(in, d_starts.data(), b.frames, out, b.emit);
    const size_t produced = emit_batch(b, 0);
    consume_each(int(consumed));
    after_processing();
    return int(produced * d_out_len);
}

int framed_block::pipelined_work(size_t noutput_items,
                                 size_t avail,
                                 const uint8_t* in,
                                 uint8_t* out)
{
    size_t consumed = 0, produced = 0;
    // With a batch outstanding, new input is taken only when a whole frame
    // waits; else the outstanding batch goes out alone.
    bool submitted = false;
    if (!d_outstanding || avail >= d_in_len) {
        batch_record& b = d_records[d_newest ^ 1];
        // it goes out in a later call, whose output holds a batch (the output
        // multiple), or in this one when nothing waits behind it
        consumed = scan_batch(avail, d_batch, b);
        const size_t chunk = lone_batch_chunk(b, avail - consumed, noutput_items);
        if (chunk > 0) {
            produced = pipeline_lone_batch(in, out, b, chunk);
        } else if (b.frames > 0) {
            submit_frames(in, d_starts.data(), b.frames);
            submitted = true;
        } else {
            emit_batch(b, 0); // counts the tags of skipped items
        }
    }
    produced += hand_out_outstanding(out, produced);
    if (submitted) {
        d_newest ^= 1;
        d_outstanding = true;
        // Nothing waits behind this batch: out now (low latency at low rates)
        // where the output has room; else forecast() has work() called again
        // at once to hand it out.
        if (avail - consumed < d_in_len &&
            (produced + d_records[d_newest].frames) * d_out_len <= noutput_items)
            produced += hand_out_outstanding(out, produced);
    }
    consume_each(int(consumed));
    after_processing();
    return int(produced * d_out_len);
}

size_t framed_block::hand_out_outstanding(uint8_t* out, size_t produced)
{
    if (!d_outstanding)
        return 0;
    batch_record& b = d_records[d_newest];
    collect_frames(out + produced * d_out_len, b.emit.data());
    d_outstanding = false;
    return emit_batch(b, produced);
}

size_t framed_block::lone_batch_chunk(const batch_record& b,
                                      size_t waiting_items,
                                      size_t noutput_items) const
{
    const size_t chunk = pipeline_chunk();
    if (chunk == 0 || b.frames < 2 * chunk || waiting_items >= d_in_len)
        return 0;
    // the outstanding batch goes out first, and all of both must fit
    const size_t older = d_outstanding ? d_records[d_newest].frames : 0;
    if ((older + b.frames) * d_out_len > noutput_items)
        return 0;
    // A whole multiple of the chunk (a GPU decoder's waves stay whole; the
    // last chunk, the rest, may be short), at most max_parts of them: a few
    // chunks take most of the gain (the copies of the first are not
    // overlapped) and each is a launch.
    constexpr size_t max_parts = 8;
    return chunk * ((b.frames + max_parts * chunk - 1) / (max_parts * chunk));
}

size_t framed_block::pipeline_lone_batch(const uint8_t* in,
                                         uint8_t* out,
                                         batch_record& b,
                                         size_t chunk)
{
    // chunk k holds frames [first(k), first(k + 1)) of b; the last the rest
    const size_t parts = (b.frames + chunk - 1) / chunk;
    const auto first = [&b, chunk](size_t k) { return std::min(k * chunk, b.frames); };
    const auto submit = [&](size_t k) {
        submit_frames(in, d_starts.data() + first(k), first(k + 1) - first(k));
    };
    d_chunked_batches.fetch_add(1, std::memory_order_relaxed);
    size_t produced = 0;
    // At most two batches are outstanding: the first chunk beside the batch
    // submitted before, then each chunk beside the one ahead of it.
    submit(0);
    produced += hand_out_outstanding(out, 0);
    for (size_t k = 0; k < parts; ++k) {
        if (k + 1 < parts)
            submit(k + 1);
        const size_t n = first(k + 1) - first(k);
        collect_frames(out + produced * d_out_len, b.emit.data() + first(k));
        produced += emit_frames(b, first(k), n, produced);
    }
    close_batch(b);
    d_newest ^= 1;
    return produced;
}

void framed_block::handle_pdu(const pmt::pmt_t& msg)
{
    size_t n_items = 0;
    const uint8_t* data = pmt::is_pair(msg) ? pdu_items(pmt::cdr(msg), n_items) : nullptr;
    if (!data || n_items == 0 || n_items % d_in_len != 0) {
        const uint64_t count = d_bad_pdus.fetch_add(1, std::memory_order_relaxed) + 1;
        if (should_log(count))
            d_logger->warn("dropped a message on 'pdus': expected a PDU with a {} of a "
                           "multiple of {} {} ({} so far)",
                           pdu_type(),
                           d_in_len,
                           d_unit,
                           count);
        after_processing();
        return;
    }
    const pmt::pmt_t meta =
        pmt::is_dict(pmt::car(msg)) ? pmt::car(msg) : pmt::make_dict();
    const size_t frames = n_items / d_in_len;
    pdu_metadata(meta);
    std::vector<size_t> starts(std::min(frames, d_batch));
    std::vector<uint8_t> out(starts.size() * d_out_len);
    std::vector<char> emit;
    for (size_t f0 = 0; f0 < frames; f0 += d_batch) {
        const size_t nb = std::min(d_batch, frames - f0);
        for (size_t i = 0; i < nb; ++i)
            starts[i] = (f0 + i) * d_in_len;
        emit.assign(nb, 0);
        process_frames(data, starts.data(), nb, out.data(), emit);
        size_t k = 0;
        for (size_t i = 0; i < nb; ++i) {
            if (!emit[i])
                continue;
            d_annotations.clear();
            frame_annotations(i, d_annotations);
            message_port_pub(
                PORT_PDUS,
                pmt::cons(with_annotations(meta),
                          pmt::init_u8vector(d_out_len, &out[k++ * d_out_len])));
        }
    }
    after_processing();
}

pmt::pmt_t framed_block::add_framing_stats(pmt::pmt_t d) const
{
    d = pmt::dict_add(d, pmt::mp("bad_length"), pmt::from_uint64(framing_bad_length()));
    d = pmt::dict_add(
        d, pmt::mp("missing_tag_items"), pmt::from_uint64(framing_missing_tag_items()));
    d = pmt::dict_add(
        d, pmt::mp("truncated_frames"), pmt::from_uint64(framing_truncated()));
    d = pmt::dict_add(
        d, pmt::mp("dropped_tags"), pmt::from_uint64(framing_dropped_tags()));
    d = pmt::dict_add(d, pmt::mp("chunked_batches"), pmt::from_uint64(chunked_batches()));
    d = pmt::dict_add(
        d, pmt::mp("dropped_at_stop"), pmt::from_uint64(framing_dropped_at_stop()));
    return d;
}

} // namespace gpuldpc
} // namespace gr
