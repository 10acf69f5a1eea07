/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ldpc_decoder_impl.h"
#include <gnuradio/gpuldpc/engine/bits.h>
#include <gnuradio/io_signature.h>
#include <gnuradio/logger.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

namespace {

const pmt::pmt_t PORT_STATS = pmt::mp("stats");
const pmt::pmt_t KEY_CONVERGED = pmt::mp("ldpc_converged");
const pmt::pmt_t KEY_ITERATIONS = pmt::mp("ldpc_iterations");
const pmt::pmt_t KEY_SYNDROME = pmt::mp("ldpc_syndrome_weight");

size_t output_bytes_per_frame(const ldpc_code& code, ldpc_decoder::output_format output)
{
    const size_t info_bits = size_t(code.k()) * code.bits_per_symbol();
    switch (output) {
    case ldpc_decoder::output_format::packed:
        return packed_size(info_bits);
    case ldpc_decoder::output_format::bits:
        return info_bits;
    case ldpc_decoder::output_format::symbols:
        break;
    }
    return size_t(code.k());
}

// A batch of input at most this large, so that the upstream buffer (two
// batches) stays bounded for very long frames.
constexpr size_t max_batch_input_bytes = size_t(64) << 20;

// Bytes of decoded results of a batch from which its formatting is shared out
constexpr size_t format_share_bytes = size_t(1) << 20;

// Frames a batch for max_batch = 0: enough for a GPU to have every SM busy
// with a few frames (more where the decoder prefers it: small codes on chip
// hold many frames an SM); on the CPU several SIMD groups for each thread, so
// that threads whose groups stop early take another, within bounds that keep
// latency low (calls too small for a group a thread run narrower lanes).
constexpr int auto_batch_cpu = 256, auto_batch_gpu = 4096;
constexpr size_t cpu_groups_a_thread = 4, max_auto_batch_cpu = 4096;

size_t decoder_batch(const ldpc_code& code,
                     int max_batch,
                     const batch_decoder& decoder,
                     const decoder_input& input)
{
    if (max_batch < 0)
        throw std::invalid_argument("max_batch=" + std::to_string(max_batch) +
                                    " is out of range; allowed: 0 (automatic) or more");
    const bool gpu = decoder.device_name() != "cpu";
    const size_t frame_bytes = input.items_per_frame(code) * input.item_size();
    const size_t fits = std::max<size_t>(1, max_batch_input_bytes / frame_bytes);
    // A batch set by the user is taken as it is, within the bound. One the
    // block chooses (automatic, or cut by the bound) is cut to whole rounds
    // of a CPU decoder's groups where its last would be mostly idle: 258
    // DVB-S2 float frames on 16 threads of 16 lanes are 17 groups, two
    // rounds, 256 one; the floor of 256 frames on 3 threads of 16 lanes
    // ends in a round of one group, 240 do not.
    if (max_batch > 0 && size_t(max_batch) <= fits)
        return size_t(max_batch);
    if (max_batch == 0)
        max_batch =
            gpu ? int(std::clamp<size_t>(
                      decoder.preferred_batch(), auto_batch_gpu, 1 << 20))
                : int(std::clamp<size_t>(cpu_groups_a_thread * decoder.preferred_batch(),
                                         auto_batch_cpu,
                                         max_auto_batch_cpu));
    return decoder.whole_round_batch(std::min(size_t(max_batch), fits));
}

// Frames of the chunks a lone stream batch is split into (0: none): the
// decoder's efficient chunk, so that each chunk decodes at full speed while
// the next one is copied, or gpu_tuning::block_chunk_frames where set (tests
// of the chunked path, comparisons; on any device).
size_t pipeline_chunk_frames(const batch_decoder& decoder, const decoder_input& input)
{
    // an input decoded within the submit: nothing overlaps
    if (!input.overlaps())
        return 0;
    const int64_t set = decoder.config().gpu.block_chunk_frames;
    return set >= 0 ? size_t(set) : decoder.efficient_chunk();
}

} // namespace

ldpc_decoder::sptr ldpc_decoder::make(const params& p)
{
    return gnuradio::make_block_sptr<ldpc_decoder_impl>(p);
}

ldpc_decoder_impl::parts ldpc_decoder_impl::make_parts(const params& p)
{
    parts made;
    made.code = p.code.load();
    decoder_config config = p.decoder;
    // packed on the device: an eighth of the bits to copy back, and output
    // that needs no formatting
    config.pack_info_bits = p.output == output_format::packed;
    made.decoder = fallback_decoder::make(
        made.code, config, p.device, std::make_shared<gr::logger>("ldpc_decoder"));
    made.input = decoder_input::make(p, *made.code);
    return made;
}

ldpc_decoder_impl::ldpc_decoder_impl(const params& p)
    : ldpc_decoder_impl(p, make_parts(p))
{
}

ldpc_decoder_impl::ldpc_decoder_impl(const params& p, parts&& made)
    : gr::block("ldpc_decoder",
                // streams are optional: the block also works on PDUs alone
                gr::io_signature::make(0, 1, made.input->item_size()),
                gr::io_signature::make(0, 1, sizeof(uint8_t))),
      framed_block(made.input->items_per_frame(*made.code),
                   made.input->item_size(),
                   output_bytes_per_frame(*made.code, p.output),
                   decoder_batch(*made.code, p.max_batch, *made.decoder, *made.input),
                   p.length_tag_key,
                   "soft bits"),
      d_code(made.code),
      d_decoder(std::move(made.decoder), d_logger),
      d_input(std::move(made.input)),
      d_mode(p.output),
      d_pass_failed(p.pass_failed),
      d_status_tags(p.status_tags),
      d_stats_interval(p.stats_interval > 0
                           ? p.stats_interval
                           : throw std::invalid_argument(
                                 "stats_interval=" + std::to_string(p.stats_interval) +
                                 " is out of range; allowed: > 0 seconds")),
      d_noise_var(p.noise_var),
      d_configured_noise_var(p.noise_var),
      d_noise_key(p.noise_var_tag_key.empty() ? pmt::PMT_NIL
                                              : pmt::mp(p.noise_var_tag_key)),
      d_batch_in(batch() * in_len() * in_item_size()),
      d_batch_noise(d_input->takes_noise_var() ? batch() : 0),
      d_batch_bits(batch() * d_decoder.current()->info_bytes_per_frame()),
      d_batch_status(batch()),
      d_staging_copies(d_decoder.current()->device_name() == "cpu"
                           ? 0
                           : std::min(3u, copy_pool::default_helpers())),
      d_last_stats(std::chrono::steady_clock::now())
{
    const batch_decoder& decoder = *d_decoder.current();
    d_logger->info("device={}: decoding on {}", p.device, decoder.device_name());
    if (const std::string kernel = decoder.kernel_variant(); !kernel.empty())
        d_logger->debug("kernel: {}", kernel);
    if (const size_t chunk = pipeline_chunk(); chunk > 0)
        d_logger->debug("a batch that nothing waits behind goes in chunks of a "
                        "multiple of {} frames",
                        chunk);
    if (p.max_batch > 0 && batch() < size_t(p.max_batch))
        d_logger->info("max_batch={}: batches of {} frames of {} soft bits ({} MiB of "
                       "input at most per batch)",
                       p.max_batch,
                       batch(),
                       in_len(),
                       max_batch_input_bytes >> 20);
    // the values of per-frame tags, made once (iterations, syndrome weights)
    const size_t cached = std::min<size_t>(
        4096, std::max<size_t>(decoder.config().max_iterations, d_code->m()) + 1);
    d_small_integers.reserve(cached);
    d_emitted_frames.reserve(batch());
    for (size_t v = 0; v < cached; ++v)
        d_small_integers.push_back(pmt::from_long(long(v)));
    register_pdu_ports();
    message_port_register_out(PORT_STATS);
}

ldpc_decoder_impl::~ldpc_decoder_impl()
{
    // nothing may still be copied into the staging buffers as they go
    for (auto& slot : d_slots)
        if (slot.decoder) {
            try {
                slot.decoder->end_decode(slot.ticket);
            } catch (...) {
            }
            slot.decoder.reset();
        }
}

size_t ldpc_decoder_impl::pipeline_chunk() const
{
    return pipeline_chunk_frames(*d_decoder.current(), *d_input);
}

void ldpc_decoder_impl::process_frames(const uint8_t* in_bytes,
                                       const size_t* starts,
                                       size_t n,
                                       uint8_t* out,
                                       std::vector<char>& emit)
{
    // back-to-back frames (PDUs) decode in place
    const size_t len = in_len(), bytes = len * in_item_size();
    bool contiguous = true;
    for (size_t i = 1; i < n && contiguous; ++i)
        contiguous = starts[i] == starts[0] + i * len;
    const uint8_t* frames = in_bytes + starts[0] * in_item_size();
    if (!contiguous) {
        for (size_t i = 0; i < n; ++i)
            std::memcpy(
                &d_batch_in[i * bytes], in_bytes + starts[i] * in_item_size(), bytes);
        frames = d_batch_in.data();
    }
    if (d_input->takes_noise_var()) {
        if (d_pdu_noise_var > 0.0f)
            std::fill_n(d_batch_noise.begin(), n, d_pdu_noise_var);
        else
            frame_noise_vars(starts, n, d_batch_noise.data());
    }

    const auto t0 = std::chrono::steady_clock::now();
    // on a GPU failure the CPU decodes this batch and all that follow
    d_decoder.run([&](const batch_decoder::sptr& dec) {
        d_input->decode(*dec,
                        frames,
                        n,
                        d_batch_noise.data(),
                        d_batch_bits.data(),
                        d_batch_status.data());
    });
    const auto t1 = std::chrono::steady_clock::now();
    d_decode_ns +=
        uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
    d_busy_until = std::max(d_busy_until, t1);
    d_current_status = d_batch_status.data();
    deliver(d_batch_status.data(), d_batch_bits.data(), n, out, emit.data());
}

ldpc_decoder_impl::staging_slot& ldpc_decoder_impl::staging(unsigned i, bool input)
{
    staging_slot& slot = d_slots[i];
    // from the decoder in use: page-locked for a GPU, and still valid after a
    // fall back to the CPU; the input's only once a batch is copied (a CPU
    // decoder reads stream frames in place)
    const size_t frames = batch();
    if (!slot.bits) {
        d_decoder.run([&](const batch_decoder::sptr& dec) {
            slot.bits_mem = dec->host_buffer(frames * dec->info_bytes_per_frame());
            slot.status_mem = dec->host_buffer(frames * sizeof(frame_status));
        });
        if (d_input->takes_noise_var())
            slot.noise_var.resize(frames);
        slot.bits = static_cast<uint8_t*>(slot.bits_mem.get());
        slot.status = static_cast<frame_status*>(slot.status_mem.get());
    }
    if (input && !slot.in) {
        d_decoder.run([&](const batch_decoder::sptr& dec) {
            slot.in_mem = dec->host_buffer(frames * in_len() * in_item_size());
        });
        slot.in = slot.in_mem.get();
    }
    return slot;
}

void ldpc_decoder_impl::decode_slot(batch_decoder& dec,
                                    staging_slot& slot,
                                    const void* in)
{
    d_input->decode(dec, in, slot.frames, slot.noise_var.data(), slot.bits, slot.status);
}

void ldpc_decoder_impl::submit_frames(const uint8_t* in_bytes,
                                      const size_t* starts,
                                      size_t n)
{
    const size_t item = in_item_size();
    const size_t len = in_len() * item; // bytes a frame
    // A CPU decoder cannot overlap: back-to-back frames decode at once by
    // decode(), from the input buffer, as in process_frames(), which saves a
    // copy as long as the decoding on many cores; no ticket stays open on
    // input that consume_each() then releases. A GPU decoder's copies run
    // while it decodes, from the staging buffer, which also keeps the batch
    // for the CPU should the GPU fail.
    bool contiguous = true;
    for (size_t i = 1; i < n && contiguous; ++i)
        contiguous = starts[i] == starts[0] + i * in_len();
    const bool in_place = contiguous && d_decoder.current()->device_name() == "cpu";
    staging_slot& slot = staging(d_submit_slot, !in_place);
    d_submit_slot ^= 1;
    const void* input = in_place ? in_bytes + starts[0] * item : slot.in;
    uint8_t* staged = static_cast<uint8_t*>(slot.in);
    // runs of back-to-back frames (untagged streams) in one copy each
    for (size_t i = 0; i < n && !in_place;) {
        size_t j = i + 1;
        while (j < n && starts[j] == starts[i] + (j - i) * in_len())
            ++j;
        d_staging_copies.copy(
            staged + i * len, in_bytes + starts[i] * item, (j - i) * len);
        i = j;
    }
    slot.frames = n;
    slot.begun = std::chrono::steady_clock::now();
    if (d_input->takes_noise_var())
        frame_noise_vars(starts, n, slot.noise_var.data());
    slot.decoder.reset();
    if (in_place || !d_input->overlaps()) {
        d_decoder.run(
            [&](const batch_decoder::sptr& dec) { decode_slot(*dec, slot, input); });
        return;
    }
    d_decoder.run([&](const batch_decoder::sptr& dec) {
        slot.ticket = d_input->begin(*dec, input, slot.frames, slot.bits, slot.status);
        slot.decoder = dec;
    });
}

void ldpc_decoder_impl::collect_frames(uint8_t* out, char* emit)
{
    staging_slot& slot = d_slots[d_collect_slot];
    d_collect_slot ^= 1;
    if (slot.decoder) {
        auto dec = std::move(slot.decoder);
        slot.decoder.reset();
        // Waited for even when the GPU failed on another batch since: its
        // results are good if it finished, and nothing of it may land in the
        // slot while the CPU decodes it again.
        d_decoder.finish(
            dec,
            [&](batch_decoder& used) { used.end_decode(slot.ticket); },
            [&](const batch_decoder::sptr& cpu) { decode_slot(*cpu, slot, slot.in); });
    }
    // busy time: from when the batch began or the last one ended
    const auto now = std::chrono::steady_clock::now();
    const auto from = std::max(slot.begun, d_busy_until);
    if (now > from)
        d_decode_ns += uint64_t(
            std::chrono::duration_cast<std::chrono::nanoseconds>(now - from).count());
    d_busy_until = now;
    d_current_status = slot.status;
    deliver(slot.status, slot.bits, slot.frames, out, emit);
}

void ldpc_decoder_impl::deliver(
    const frame_status* status, const uint8_t* bits, size_t n, uint8_t* out, char* emit)
{
    const size_t nbytes = d_decoder.current()->info_bytes_per_frame();
    uint64_t iterations = 0, failed = 0, dropped = 0;
    d_emitted_frames.clear();
    for (size_t i = 0; i < n; ++i) {
        const frame_status& st = status[i];
        iterations += st.iterations;
        failed += !st.converged;
        if (st.invalid_inputs) {
            const uint64_t total =
                d_invalid.fetch_add(st.invalid_inputs) + st.invalid_inputs;
            if (should_log(total))
                d_logger->warn("{} NaN/Inf soft values in a frame, decoded as erasures "
                               "({} in all)",
                               st.invalid_inputs,
                               total);
        }
        if (!st.converged && !d_pass_failed) {
            ++dropped;
            continue;
        }
        d_emitted_frames.push_back(i);
        emit[i] = 1;
    }
    // Formatting reads every decoded byte: a large batch's is shared with the
    // staging threads, which are idle meanwhile, so that it does not hold the
    // block's thread while the GPU could be fed.
    const auto format = [&](size_t begin, size_t end) {
        for (size_t j = begin; j < end; ++j)
            format_output(bits + d_emitted_frames[j] * nbytes, out + j * out_len());
    };
    const size_t emitted = d_emitted_frames.size();
    if (emitted * nbytes >= format_share_bytes)
        d_staging_copies.for_each_share(emitted, format);
    else
        format(0, emitted);
    d_iterations += iterations;
    d_failed += failed;
    d_dropped += dropped;
    d_batches++;
    if (n > d_largest_batch.load(std::memory_order_relaxed))
        d_largest_batch.store(n, std::memory_order_relaxed);
    d_frames += n; // last, so that readers never see more failures than frames
}

pmt::pmt_t ldpc_decoder_impl::small_integer(uint32_t v) const
{
    return v < d_small_integers.size() ? d_small_integers[v] : pmt::from_long(long(v));
}

void ldpc_decoder_impl::stream_frame_annotations(size_t i, annotations& out) const
{
    if (d_status_tags == status_tag_mode::all ||
        (d_status_tags == status_tag_mode::failed && !d_current_status[i].converged))
        frame_annotations(i, out);
}

void ldpc_decoder_impl::frame_annotations(size_t i, annotations& out) const
{
    const frame_status& st = d_current_status[i];
    out.emplace_back(KEY_CONVERGED, pmt::from_bool(st.converged));
    out.emplace_back(KEY_ITERATIONS, small_integer(st.iterations));
    out.emplace_back(KEY_SYNDROME, small_integer(st.syndrome_weight));
}

const uint8_t* ldpc_decoder_impl::pdu_items(const pmt::pmt_t& payload,
                                            size_t& n_items) const
{
    return d_input->pdu_items(payload, n_items);
}

void ldpc_decoder_impl::format_output(const uint8_t* decoded, uint8_t* out) const
{
    switch (d_mode) {
    case output_format::packed:
        // the decoder packed them (pack_info_bits)
        std::memcpy(out, decoded, out_len());
        break;
    case output_format::bits:
        std::copy(decoded, decoded + out_len(), out);
        break;
    case output_format::symbols:
        bits_to_symbols(decoded, d_code->k(), d_code->bits_per_symbol(), out);
        break;
    }
}

double ldpc_decoder_impl::average_iterations() const
{
    const uint64_t frames = d_frames.load();
    return frames ? double(d_iterations.load()) / double(frames) : 0.0;
}

void ldpc_decoder_impl::apply_noise_tag(const pmt::pmt_t& value)
{
    double v = -1.0;
    pmt_real_number(value, v);
    if (std::isfinite(v) && v >= 1.2e-38 && v <= 3.4e38) {
        d_noise_var = float(v);
        return;
    }
    const uint64_t count = d_bad_noise_tags.fetch_add(1) + 1;
    if (should_log(count))
        d_logger->warn("ignored a '{}' tag that is not a positive finite number ({} so "
                       "far)",
                       pmt::symbol_to_string(d_noise_key),
                       count);
}

void ldpc_decoder_impl::frame_noise_vars(const size_t* starts, size_t n, float* out)
{
    if (pmt::is_null(d_noise_key) || n == 0) {
        std::fill_n(out, n, d_noise_var);
        return;
    }
    // every tag on the frames' items, in offset order; those inside the last
    // frame count from the next frame on
    const uint64_t abs_in = nitems_read(0);
    d_noise_tags.clear();
    get_tags_in_range(
        d_noise_tags, 0, abs_in, abs_in + starts[n - 1] + in_len(), d_noise_key);
    std::stable_sort(
        d_noise_tags.begin(),
        d_noise_tags.end(),
        [](const gr::tag_t& a, const gr::tag_t& b) { return a.offset < b.offset; });
    size_t t = 0;
    for (size_t i = 0; i < n; ++i) {
        const uint64_t start = abs_in + starts[i];
        for (; t < d_noise_tags.size() && d_noise_tags[t].offset <= start; ++t)
            apply_noise_tag(d_noise_tags[t].value);
        out[i] = d_noise_var;
    }
    for (; t < d_noise_tags.size(); ++t)
        apply_noise_tag(d_noise_tags[t].value);
}

void ldpc_decoder_impl::pdu_metadata(const pmt::pmt_t& meta)
{
    d_pdu_noise_var = 0.0f;
    if (!d_input->takes_noise_var())
        return;
    if (pmt::is_null(d_noise_key) || !pmt::dict_has_key(meta, d_noise_key)) {
        d_pdu_noise_var = d_noise_var;
        return;
    }
    const float before = d_noise_var;
    apply_noise_tag(pmt::dict_ref(meta, d_noise_key, pmt::PMT_NIL));
    // a PDU's value is its own: the stream's stays as it was
    d_pdu_noise_var = d_noise_var;
    d_noise_var = before;
}

pmt::pmt_t ldpc_decoder_impl::stats() const
{
    // a consistent enough snapshot: frames is read first and written last
    const uint64_t frames = d_frames.load();
    pmt::pmt_t d = pmt::make_dict();
    auto add = [&d](const char* k, const pmt::pmt_t& v) {
        d = pmt::dict_add(d, pmt::mp(k), v);
    };
    add("frames", pmt::from_uint64(frames));
    add("failed", pmt::from_uint64(d_failed.load()));
    add("dropped", pmt::from_uint64(d_dropped.load()));
    d = add_framing_stats(d);
    add("invalid_inputs", pmt::from_uint64(d_invalid.load()));
    if (d_input->takes_noise_var())
        add("bad_noise_var_tags", pmt::from_uint64(d_bad_noise_tags.load()));
    add("avg_iterations",
        pmt::from_double(frames ? double(d_iterations.load()) / double(frames) : 0.0));
    const double seconds = double(d_decode_ns.load()) * 1e-9;
    const double fps = seconds > 0 ? double(frames) / seconds : 0.0;
    add("frames_per_second", pmt::from_double(fps));
    add("info_bits_per_second",
        pmt::from_double(fps * double(d_code->k()) * d_code->bits_per_symbol()));
    add("batches", pmt::from_uint64(d_batches.load()));
    add("largest_batch", pmt::from_uint64(d_largest_batch.load()));
    // one decoder for both (a GPU failure may swap in the CPU's meanwhile)
    const auto decoder = d_decoder.shared();
    add("device", pmt::mp(decoder->device_name()));
    add("kernel_variant", pmt::mp(decoder->kernel_variant()));
    return d;
}

void ldpc_decoder_impl::publish_stats(bool force)
{
    const auto now = std::chrono::steady_clock::now();
    if (!force &&
        std::chrono::duration<double>(now - d_last_stats).count() < d_stats_interval)
        return;
    d_last_stats = now;
    message_port_pub(PORT_STATS, stats());
}

void ldpc_decoder_impl::input_finished()
{
    publish_stats(true);
    d_final_published = true;
}

void ldpc_decoder_impl::reset_run()
{
    // stop() collected any batch in flight: both slots are free
    d_submit_slot = d_collect_slot = 0;
    d_final_published = false;
    // the tags of an earlier run set N0 for that run only
    d_noise_var = d_configured_noise_var;
}

bool ldpc_decoder_impl::stop()
{
    framed_block::stop();
    // a stopped flowgraph: its subscribers may be gone already (see the
    // block's documentation); one that ran out of input published from work()
    if (!d_final_published)
        publish_stats(true);
    d_final_published = true;
    d_logger->info("{} frames decoded on {}: {} failed ({} dropped), {} bad-length "
                   "packets, {} items without a length tag, {} incomplete frames at the "
                   "end, {} tags dropped, {} NaN/Inf soft values, {} frames in flight "
                   "at stop",
                   d_frames.load(),
                   device_name(),
                   d_failed.load(),
                   d_dropped.load(),
                   framing_bad_length(),
                   framing_missing_tag_items(),
                   framing_truncated(),
                   framing_dropped_tags(),
                   d_invalid.load(),
                   framing_dropped_at_stop());
    return true;
}

} // namespace gpuldpc
} // namespace gr
