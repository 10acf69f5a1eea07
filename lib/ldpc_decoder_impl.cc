/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "block_common.h"
#include "ldpc_decoder_impl.h"
#include <gnuradio/gpuldpc/engine/bits.h>
#include <gnuradio/gpuldpc/engine/device.h>
#include <gnuradio/io_signature.h>
#include <gnuradio/logger.h>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace gr {
namespace gpuldpc {

namespace {

const pmt::pmt_t PORT_STATS = pmt::mp("stats");
const pmt::pmt_t KEY_CONVERGED = pmt::mp("ldpc_converged");
const pmt::pmt_t KEY_ITERATIONS = pmt::mp("ldpc_iterations");
const pmt::pmt_t KEY_SYNDROME = pmt::mp("ldpc_syndrome_weight");

} // namespace

ldpc_decoder::sptr ldpc_decoder::make(const std::string& code_file,
                                      const std::string& format,
                                      const std::string& coef,
                                      unsigned poly,
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
                                      double stats_interval,
                                      const std::string& status_tags,
                                      const std::string& messages,
                                      const std::string& input,
                                      float llr_scale,
                                      float min_sum_scale,
                                      float min_sum_offset,
                                      const std::string& constellation,
                                      float noise_var,
                                      const std::string& noise_var_tag_key)
{
    return make_from_code(load_code(code_file, format, coef, poly),
                          algorithm,
                          schedule,
                          max_iterations,
                          flip_llr_sign,
                          output,
                          max_batch,
                          device,
                          length_tag_key,
                          pass_failed,
                          threads,
                          stats_interval,
                          status_tags,
                          messages,
                          input,
                          llr_scale,
                          min_sum_scale,
                          min_sum_offset,
                          constellation,
                          noise_var,
                          noise_var_tag_key);
}

ldpc_decoder::sptr ldpc_decoder::make_from_code(ldpc_code::sptr code,
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
                                                double stats_interval,
                                                const std::string& status_tags,
                                                const std::string& messages,
                                                const std::string& input,
                                                float llr_scale,
                                                float min_sum_scale,
                                                float min_sum_offset,
                                                const std::string& constellation,
                                                float noise_var,
                                                const std::string& noise_var_tag_key)
{
    params p;
    p.algorithm = algorithm;
    p.schedule = schedule;
    p.max_iterations = max_iterations;
    p.flip_llr_sign = flip_llr_sign;
    p.output = output;
    p.max_batch = max_batch;
    p.device = device;
    p.length_tag_key = length_tag_key;
    p.pass_failed = pass_failed;
    p.threads = threads;
    p.stats_interval = stats_interval;
    p.status_tags = status_tags;
    p.messages = messages;
    p.input = input;
    p.llr_scale = llr_scale;
    p.min_sum_scale = min_sum_scale;
    p.min_sum_offset = min_sum_offset;
    p.constellation = constellation;
    p.noise_var = noise_var;
    p.noise_var_tag_key = noise_var_tag_key;
    return make_from_params(code, p);
}

ldpc_decoder::sptr ldpc_decoder::make_from_params(ldpc_code::sptr code, const params& p)
{
    if (!code)
        throw std::invalid_argument("code: no code given");
    return gnuradio::make_block_sptr<ldpc_decoder_impl>(code, p);
}

namespace {

// status_tags; the true and false of flowgraphs saved when it was a bool
// mean every frame and none
ldpc_decoder_impl::status_tag_mode parse_status_tags(const std::string& s)
{
    using mode = ldpc_decoder_impl::status_tag_mode;
    if (s == "failed")
        return mode::failed;
    if (s == "all" || s == "True" || s == "true" || s == "1")
        return mode::all;
    if (s == "none" || s == "False" || s == "false" || s == "0")
        return mode::none;
    throw std::invalid_argument("status_tags='" + s +
                                "' is unknown; allowed: failed, all, none");
}

// Input items a frame: soft bits, or received symbols
size_t items_per_frame(const ldpc_code& code, const std::string& input)
{
    return size_t(code.n_transmitted()) *
           (input == "symbols" ? 1 : code.bits_per_symbol());
}

size_t soft_item_size(const std::string& input)
{
    if (input == "float")
        return sizeof(float);
    if (input == "int8")
        return sizeof(int8_t);
    if (input == "symbols")
        return sizeof(gr_complex);
    throw std::invalid_argument("input='" + input +
                                "' is unknown; allowed: float, int8, symbols");
}

// The constellation of input "symbols": named, or the one of q points
std::unique_ptr<constellation> matched_constellation(const ldpc_code& code,
                                                     const ldpc_decoder::params& p)
{
    if (p.input != "symbols")
        return nullptr;
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
    auto c = std::make_unique<constellation>(constellation::make(name));
    if (c->bits_per_symbol() != code.bits_per_symbol())
        throw std::invalid_argument("constellation='" + name + "' has " +
                                    std::to_string(size_t(1) << c->bits_per_symbol()) +
                                    " points, the code's field " +
                                    std::to_string(code.q()) +
                                    " elements; allowed: the matched constellation");
    return c;
}

size_t output_bytes_per_frame(const ldpc_code& code, const std::string& output)
{
    const size_t info_bits = size_t(code.k()) * code.bits_per_symbol();
    if (output == "packed")
        return packed_size(info_bits);
    if (output == "bits")
        return info_bits;
    if (output == "symbols")
        return size_t(code.k());
    throw std::invalid_argument("output='" + output +
                                "' is unknown; allowed: packed, bits, symbols");
}

// A batch of input at most this large, so that the upstream buffer (two
// batches) stays bounded for very long frames.
constexpr size_t max_batch_input_bytes = size_t(64) << 20;

// Bytes of decoded results of a batch from which its formatting is shared out
constexpr size_t format_share_bytes = size_t(1) << 20;

// Frames a batch for max_batch = 0: enough for a GPU to have every SM busy
// with a few frames (more where the decoder prefers it: small codes on chip
// hold many frames an SM), few enough on the CPU to keep latency low.
constexpr int auto_batch_cpu = 256, auto_batch_gpu = 4096;

size_t decoder_batch(const ldpc_code& code,
                     int max_batch,
                     const batch_decoder& decoder,
                     const std::string& input,
                     size_t item_size)
{
    if (max_batch < 0)
        throw std::invalid_argument("max_batch=" + std::to_string(max_batch) +
                                    " is out of range; allowed: 0 (automatic) or more");
    const bool gpu = decoder.device_name() != "cpu";
    if (max_batch == 0)
        max_batch = gpu ? int(std::clamp<size_t>(
                              decoder.preferred_batch(), auto_batch_gpu, 1 << 20))
                        : auto_batch_cpu;
    const size_t frame_bytes = items_per_frame(code, input) * item_size;
    const size_t fits = std::max<size_t>(1, max_batch_input_bytes / frame_bytes);
    return std::min(size_t(max_batch), fits);
}

// Frames of the chunks a lone stream batch is split into (0: none): the
// decoder's efficient chunk, so that each chunk decodes at full speed while
// the next one is copied. GPULDPC_BLOCK_CHUNK_FRAMES=N sets it on any device
// (tests of the chunked path, comparisons); 0 turns it off.
size_t pipeline_chunk_frames(const batch_decoder& decoder, bool symbols)
{
    // symbols are demapped and decoded within the submit: nothing overlaps
    if (symbols)
        return 0;
    if (const char* env = std::getenv("GPULDPC_BLOCK_CHUNK_FRAMES")) {
        char* end = nullptr;
        errno = 0;
        const long v = std::strtol(env, &end, 10);
        if (end == env || *end != '\0' || v < 0 || v > (1L << 30) || errno == ERANGE)
            throw std::invalid_argument(
                std::string("GPULDPC_BLOCK_CHUNK_FRAMES='") + env +
                "' is not usable; allowed: a whole number from 0 to 2^30");
        return size_t(v);
    }
    return decoder.efficient_chunk();
}

// The decoder of \p device, or the CPU's when the GPU fails while it is made
// (a failed CUDA call; an unusable device argument is an error).
batch_decoder::sptr make_decoder(ldpc_code::sptr code,
                                 const ldpc_decoder::params& p,
                                 const std::string& device)
{
    return make_batch_decoder(code,
                              p.algorithm,
                              p.schedule,
                              p.max_iterations,
                              p.flip_llr_sign,
                              device,
                              p.threads,
                              p.messages,
                              p.llr_scale,
                              p.min_sum_scale,
                              p.min_sum_offset,
                              // packed on the device: an eighth of the bits to
                              // copy back, and output that needs no formatting
                              p.output == "packed");
}

batch_decoder::sptr make_decoder_or_cpu(ldpc_code::sptr code,
                                        const ldpc_decoder::params& p)
{
    try {
        return make_decoder(code, p, p.device);
    } catch (const cuda_error& e) {
        gr::logger("ldpc_decoder")
            .error("the GPU decoder could not be made ({}); decoding on the CPU",
                   e.what());
        return make_decoder(code, p, "cpu");
    }
}

} // namespace

ldpc_decoder_impl::ldpc_decoder_impl(ldpc_code::sptr code, const params& p)
    : ldpc_decoder_impl(code, p, make_decoder_or_cpu(code, p))
{
}

ldpc_decoder_impl::ldpc_decoder_impl(ldpc_code::sptr code,
                                     const params& p,
                                     batch_decoder::sptr decoder)
    : gr::block("ldpc_decoder",
                // streams are optional: the block also works on PDUs alone
                gr::io_signature::make(0, 1, soft_item_size(p.input)),
                gr::io_signature::make(0, 1, sizeof(uint8_t))),
      framed_block(
          items_per_frame(*code, p.input),
          soft_item_size(p.input),
          output_bytes_per_frame(*code, p.output),
          decoder_batch(*code, p.max_batch, *decoder, p.input, soft_item_size(p.input)),
          p.length_tag_key,
          "soft bits"),
      d_code(code),
      d_decoder(std::move(decoder)),
      d_mode(p.output == "packed" ? output_mode::packed
             : p.output == "bits" ? output_mode::bits
                                  : output_mode::symbols),
      d_pass_failed(p.pass_failed),
      d_status_tags(parse_status_tags(p.status_tags)),
      d_stats_interval(p.stats_interval > 0
                           ? p.stats_interval
                           : throw std::invalid_argument(
                                 "stats_interval=" + std::to_string(p.stats_interval) +
                                 " is out of range; allowed: > 0 seconds")),
      d_int8_input(p.input == "int8"),
      d_points(matched_constellation(*code, p)),
      d_noise_var(p.noise_var),
      d_configured_noise_var(p.noise_var),
      d_noise_key(p.noise_var_tag_key.empty() ? pmt::PMT_NIL
                                              : pmt::mp(p.noise_var_tag_key)),
      d_batch_in(d_int8_input || d_points ? 0 : batch() * in_len()),
      d_batch_in8(d_int8_input ? batch() * in_len() : 0),
      d_batch_symbols(d_points ? batch() * in_len() : 0),
      d_batch_noise(d_points ? batch() : 0),
      d_batch_bits(batch() * d_decoder->info_bytes_per_frame()),
      d_batch_status(batch()),
      d_staging_copies(d_decoder->device_name() == "cpu"
                           ? 0
                           : std::min(3u, copy_pool::default_helpers())),
      d_pipeline_chunk(pipeline_chunk_frames(*d_decoder, d_points != nullptr)),
      d_last_stats(std::chrono::steady_clock::now())
{
    if (d_decoder->config().pack_info_bits != (d_mode == output_mode::packed))
        throw std::logic_error("ldpc_decoder: the decoder packs its bits exactly for "
                               "output='packed'");
    d_logger->info("device={}: decoding on {}", p.device, d_decoder->device_name());
    if (const std::string kernel = d_decoder->kernel_variant(); !kernel.empty())
        d_logger->debug("kernel: {}", kernel);
    if (d_pipeline_chunk > 0)
        d_logger->debug("a batch that nothing waits behind goes in chunks of a "
                        "multiple of {} frames",
                        d_pipeline_chunk);
    if (p.max_batch > 0 && batch() < size_t(p.max_batch))
        d_logger->info("max_batch={}: batches of {} frames of {} soft bits ({} MiB of "
                       "input at most per batch)",
                       p.max_batch,
                       batch(),
                       in_len(),
                       max_batch_input_bytes >> 20);
    // the values of per-frame tags, made once (iterations, syndrome weights)
    const size_t cached =
        std::min<size_t>(4096, std::max<size_t>(size_t(p.max_iterations), code->m()) + 1);
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

void ldpc_decoder_impl::fall_back_to_cpu(const cuda_error& e)
{
    d_logger->error("GPU decoder failed ({}); decoding on the CPU from now on", e.what());
    std::atomic_store(&d_decoder,
                      batch_decoder::make(d_code, d_decoder->config(), "cpu"));
    d_pipeline_chunk = pipeline_chunk_frames(*d_decoder, d_points != nullptr);
}

void ldpc_decoder_impl::process_frames(const uint8_t* in_bytes,
                                       const size_t* starts,
                                       size_t n,
                                       uint8_t* out,
                                       std::vector<char>& emit)
{
    const size_t len = in_len();
    // back-to-back frames (PDUs) decode in place
    bool contiguous = true;
    for (size_t i = 1; i < n && contiguous; ++i)
        contiguous = starts[i] == starts[0] + i * len;
    auto gather = [&](const auto* in, auto& scratch) {
        using item = std::remove_const_t<std::remove_pointer_t<decltype(in)>>;
        if (contiguous)
            return in + starts[0];
        for (size_t i = 0; i < n; ++i)
            std::copy_n(in + starts[i], len, &scratch[i * len]);
        return static_cast<const item*>(scratch.data());
    };
    if (d_points) {
        if (d_pdu_noise_var > 0.0f)
            std::fill_n(d_batch_noise.begin(), n, d_pdu_noise_var);
        else
            frame_noise_vars(starts, n, d_batch_noise.data());
    }
    auto decode = [&] {
        if (d_points)
            d_decoder->decode_symbols(
                gather(reinterpret_cast<const gr_complex*>(in_bytes), d_batch_symbols),
                n,
                *d_points,
                d_batch_noise.data(),
                d_batch_bits.data(),
                d_batch_status.data());
        else if (d_int8_input)
            d_decoder->decode_int8(
                gather(reinterpret_cast<const int8_t*>(in_bytes), d_batch_in8),
                n,
                d_batch_bits.data(),
                d_batch_status.data());
        else
            d_decoder->decode(
                gather(reinterpret_cast<const float*>(in_bytes), d_batch_in),
                n,
                d_batch_bits.data(),
                d_batch_status.data());
    };

    const auto t0 = std::chrono::steady_clock::now();
    try {
        decode();
    } catch (const cuda_error& e) {
        // the CPU decodes this batch and all that follow
        fall_back_to_cpu(e);
        decode();
    }
    const auto t1 = std::chrono::steady_clock::now();
    d_decode_ns +=
        uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
    d_busy_until = std::max(d_busy_until, t1);
    d_current_status = d_batch_status.data();
    deliver(d_batch_status.data(), d_batch_bits.data(), n, out, emit.data());
}

ldpc_decoder_impl::staging_slot& ldpc_decoder_impl::staging(unsigned i)
{
    staging_slot& slot = d_slots[i];
    if (!slot.in) {
        // from the first decoder: page-locked for a GPU, and still valid
        // after a fall back to the CPU
        const size_t frames = batch();
        const auto allocate = [&] {
            slot.in_mem = d_decoder->host_buffer(frames * in_len() * in_item_size());
            slot.bits_mem =
                d_decoder->host_buffer(frames * d_decoder->info_bytes_per_frame());
            slot.status_mem = d_decoder->host_buffer(frames * sizeof(frame_status));
        };
        try {
            allocate();
        } catch (const cuda_error& e) {
            // no page-locked memory: the CPU decodes, from plain memory
            fall_back_to_cpu(e);
            allocate();
        }
        slot.in = slot.in_mem.get();
        if (d_points)
            slot.noise_var.resize(frames);
        slot.bits = static_cast<uint8_t*>(slot.bits_mem.get());
        slot.status = static_cast<frame_status*>(slot.status_mem.get());
    }
    return slot;
}

uint64_t ldpc_decoder_impl::begin_slot(batch_decoder& dec, staging_slot& slot)
{
    if (d_int8_input)
        return dec.begin_decode_int8(
            static_cast<const int8_t*>(slot.in), slot.frames, slot.bits, slot.status);
    return dec.begin_decode(
        static_cast<const float*>(slot.in), slot.frames, slot.bits, slot.status);
}

void ldpc_decoder_impl::decode_slot(staging_slot& slot)
{
    if (d_points)
        d_decoder->decode_symbols(static_cast<const gr_complex*>(slot.in),
                                  slot.frames,
                                  *d_points,
                                  slot.noise_var.data(),
                                  slot.bits,
                                  slot.status);
    else if (d_int8_input)
        d_decoder->decode_int8(
            static_cast<const int8_t*>(slot.in), slot.frames, slot.bits, slot.status);
    else
        d_decoder->decode(
            static_cast<const float*>(slot.in), slot.frames, slot.bits, slot.status);
}

void ldpc_decoder_impl::submit_frames(const uint8_t* in_bytes,
                                      const size_t* starts,
                                      size_t n)
{
    staging_slot& slot = staging(d_submit_slot);
    d_submit_slot ^= 1;
    const size_t item = in_item_size();
    const size_t len = in_len() * item; // bytes a frame
    uint8_t* staged = static_cast<uint8_t*>(slot.in);
    // runs of back-to-back frames (untagged streams) in one copy each
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && starts[j] == starts[i] + (j - i) * in_len())
            ++j;
        d_staging_copies.copy(
            staged + i * len, in_bytes + starts[i] * item, (j - i) * len);
        i = j;
    }
    slot.frames = n;
    slot.begun = std::chrono::steady_clock::now();
    if (d_points) {
        // symbols are demapped and decoded at once (no asynchronous entry)
        frame_noise_vars(starts, n, slot.noise_var.data());
        slot.decoder.reset();
        try {
            decode_slot(slot);
        } catch (const cuda_error& e) {
            fall_back_to_cpu(e);
            decode_slot(slot);
        }
        return;
    }
    auto dec = d_decoder;
    try {
        slot.ticket = begin_slot(*dec, slot);
        slot.decoder = dec;
    } catch (const cuda_error& e) {
        fall_back_to_cpu(e);
        slot.decoder.reset(); // decoded here, on the CPU
        decode_slot(slot);
    }
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
        bool redo = false;
        try {
            dec->end_decode(slot.ticket);
        } catch (const cuda_error& e) {
            if (dec == d_decoder)
                fall_back_to_cpu(e);
            redo = true;
        }
        if (redo)
            decode_slot(slot);
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
    const size_t nbytes = d_decoder->info_bytes_per_frame();
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
    if (d_int8_input) {
        if (pmt::is_s8vector(payload))
            return reinterpret_cast<const uint8_t*>(
                pmt::s8vector_elements(payload, n_items));
        if (pmt::is_u8vector(payload))
            return pmt::u8vector_elements(payload, n_items);
        return nullptr;
    }
    if (d_points) {
        if (!pmt::is_c32vector(payload))
            return nullptr;
        return reinterpret_cast<const uint8_t*>(
            pmt::c32vector_elements(payload, n_items));
    }
    if (!pmt::is_f32vector(payload))
        return nullptr;
    return reinterpret_cast<const uint8_t*>(pmt::f32vector_elements(payload, n_items));
}

void ldpc_decoder_impl::format_output(const uint8_t* decoded, uint8_t* out) const
{
    switch (d_mode) {
    case output_mode::packed:
        // the decoder packed them (pack_info_bits)
        std::memcpy(out, decoded, out_len());
        break;
    case output_mode::bits:
        std::copy(decoded, decoded + out_len(), out);
        break;
    case output_mode::symbols:
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
    if (!d_points)
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
    if (d_points)
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
    const auto decoder = std::atomic_load(&d_decoder);
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
