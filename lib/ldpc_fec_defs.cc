/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "block_common.h"
#include "rate_limited_log.h"
#include <gnuradio/gpuldpc/engine/bits.h>
#include <gnuradio/gpuldpc/ldpc_fec_defs.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

namespace {
size_t check_frames_per_call(int frames)
{
    if (frames < 1)
        throw std::invalid_argument("frames_per_call=" + std::to_string(frames) +
                                    " is out of range; allowed: 1 or more");
    return size_t(frames);
}
// Codewords per call for a FECAPI frame size in information bits. A positive
// multiple of a codeword's information bits, of 1 to \p max_codewords
// codewords (the buffers' size and, in fec.decoder and fec.extended_decoder,
// the rate the block fixed when it was made), is served: exact is set. Any
// other size is refused (logged and counted), as gr-fec's own coders refuse
// what they cannot serve: the whole codewords of the request that fit are
// served instead, so that a caller that goes on with the size (a packet of
// 1.5 codewords in fec.tagged_decoder) never reads past its data; a request
// of less than a codeword returns 0 (the size stays). gr-fec calls
// set_frame_size() inside work() and message handlers, where a throw would
// end the block's thread.
size_t codewords_in(unsigned int frame_size,
                    size_t k_bits,
                    size_t max_codewords,
                    gr::logger_ptr logger,
                    std::atomic<uint64_t>& refused,
                    bool& exact)
{
    const size_t whole = frame_size / k_bits;
    exact = frame_size > 0 && frame_size % k_bits == 0 && whole <= max_codewords;
    if (exact)
        return whole;
    const size_t served = std::min(whole, max_codewords);
    const uint64_t count = ++refused;
    if (should_log(count))
        logger->warn("set_frame_size({}) refused: allowed: a multiple of the {} "
                     "information bits of a codeword, 1 to {} codewords "
                     "(frames_per_call); {} ({} refused so far)",
                     frame_size,
                     k_bits,
                     max_codewords,
                     served ? "serving the " + std::to_string(served) +
                                  " whole codewords that fit"
                            : std::string("the frame size stays"),
                     count);
    return served;
}

// frames_per_call within what a frame size (unsigned) and the input size (int)
// hold
size_t check_frames_per_call(int frames, size_t k_bits, size_t n_values)
{
    const size_t f = check_frames_per_call(frames);
    if (f > size_t(std::numeric_limits<unsigned int>::max()) / k_bits ||
        f > size_t(std::numeric_limits<int>::max()) / n_values)
        throw std::invalid_argument(
            "frames_per_call=" + std::to_string(frames) +
            " is out of range: the frame size overflows; "
            "allowed: up to " +
            std::to_string(
                std::min(size_t(std::numeric_limits<unsigned int>::max()) / k_bits,
                         size_t(std::numeric_limits<int>::max()) / n_values)));
    return f;
}

} // namespace

gr::fec::generic_decoder::sptr ldpc_decoder_def::make(const params& p)
{
    return std::make_shared<ldpc_decoder_def>(p);
}

namespace {
// the definition's input convention: positive means 1, information bits
// unpacked
decoder_config definition_config(const decoder_config& given)
{
    decoder_config config = given;
    config.flip_llr_sign = false;
    config.pack_info_bits = false;
    return config;
}
} // namespace

ldpc_decoder_def::ldpc_decoder_def(const params& p)
    : gr::fec::generic_decoder("gpuldpc_ldpc_decoder_def"),
      d_frames_per_call(check_frames_per_call(p.frames_per_call)),
      d_max_frames_per_call(d_frames_per_call),
      d_input_scale(p.input_scale)
{
    if (!(p.input_scale > 0.0f) || !std::isfinite(p.input_scale))
        throw std::invalid_argument("input_scale=" + std::to_string(p.input_scale) +
                                    " is out of range; allowed: a finite value > 0");
    d_decoder = make_batch_decoder(p.code.load(), definition_config(p.decoder), p.device);
    d_frames_per_call = check_frames_per_call(
        p.frames_per_call, d_decoder->info_bits_per_frame(), d_decoder->llr_per_frame());
    d_max_frames_per_call = d_frames_per_call;
    set_frame_size(unsigned(d_frames_per_call * d_decoder->info_bits_per_frame()));
}

bool ldpc_decoder_def::set_frame_size(unsigned int frame_size)
{
    bool exact = false;
    const size_t codewords = codewords_in(frame_size,
                                          d_decoder->info_bits_per_frame(),
                                          d_max_frames_per_call,
                                          d_logger,
                                          d_refused_sizes,
                                          exact);
    if (codewords == 0)
        return false;
    // within the capacity of the size made first (the largest): no
    // reallocation under a generic_work() of another thread
    d_frames_per_call = codewords;
    d_scaled.resize(d_frames_per_call * d_decoder->llr_per_frame());
    d_status.resize(d_frames_per_call);
    return exact;
}

double ldpc_decoder_def::rate() { return d_decoder->code().rate(); }

int ldpc_decoder_def::get_input_size()
{
    return int(d_frames_per_call * d_decoder->llr_per_frame());
}

int ldpc_decoder_def::get_output_size()
{
    return int(d_frames_per_call * d_decoder->info_bits_per_frame());
}

void ldpc_decoder_def::generic_work(void* inbuffer, void* outbuffer)
{
    const float* in = static_cast<const float*>(inbuffer);
    const size_t n_in = d_scaled.size();
    // a product past float's range saturates (a huge input_scale must not
    // turn finite inputs into erasures); NaN and Inf inputs stay what they are
    constexpr float top = std::numeric_limits<float>::max();
    for (size_t i = 0; i < n_in; ++i) {
        const float v = in[i] * d_input_scale;
        d_scaled[i] = std::isfinite(in[i]) ? std::clamp(v, -top, top) : v;
    }
    d_decoder->decode(d_scaled.data(),
                      d_frames_per_call,
                      static_cast<uint8_t*>(outbuffer),
                      d_status.data());
    uint64_t iterations = 0;
    for (const auto& st : d_status) {
        iterations += st.iterations;
        d_failed += !st.converged;
    }
    d_frames += d_frames_per_call;
    d_last_iterations = float(iterations) / float(d_frames_per_call);
}

gr::fec::generic_encoder::sptr ldpc_encoder_def::make(const params& p)
{
    return std::make_shared<ldpc_encoder_def>(p);
}

ldpc_encoder_def::ldpc_encoder_def(const params& p)
    : gr::fec::generic_encoder("gpuldpc_ldpc_encoder_def"),
      d_code(p.code.load()),
      d_frames_per_call(check_frames_per_call(p.frames_per_call)),
      d_max_frames_per_call(d_frames_per_call)
{
    d_frames_per_call = check_frames_per_call(
        p.frames_per_call,
        size_t(d_code->k()) * d_code->bits_per_symbol(),
        size_t(d_code->n_transmitted()) * d_code->bits_per_symbol());
    d_max_frames_per_call = d_frames_per_call;
    set_frame_size(unsigned(d_frames_per_call * d_code->k() * d_code->bits_per_symbol()));
}

bool ldpc_encoder_def::set_frame_size(unsigned int frame_size)
{
    bool exact = false;
    const size_t codewords = codewords_in(frame_size,
                                          size_t(d_code->k()) * d_code->bits_per_symbol(),
                                          d_max_frames_per_call,
                                          d_logger,
                                          d_refused_sizes,
                                          exact);
    if (codewords == 0)
        return false;
    d_frames_per_call = codewords;
    d_info.resize(d_frames_per_call * d_code->k());
    d_codeword.resize(d_frames_per_call * d_code->n());
    d_sent.resize(d_frames_per_call * d_code->n_transmitted());
    return exact;
}

double ldpc_encoder_def::rate() { return d_code->rate(); }

int ldpc_encoder_def::get_input_size()
{
    return int(d_frames_per_call * d_code->k() * d_code->bits_per_symbol());
}

int ldpc_encoder_def::get_output_size()
{
    return int(d_frames_per_call * d_code->n_transmitted() * d_code->bits_per_symbol());
}

void ldpc_encoder_def::generic_work(void* in_buffer, void* out_buffer)
{
    const unsigned m = d_code->bits_per_symbol();
    bits_to_symbols(
        static_cast<const uint8_t*>(in_buffer), d_info.size(), m, d_info.data());
    d_code->encode(d_info.data(), d_codeword.data(), d_frames_per_call);
    d_code->puncture(d_codeword.data(), d_sent.data(), d_frames_per_call);
    symbols_to_bits(d_sent.data(), d_sent.size(), m, static_cast<uint8_t*>(out_buffer));
}

} // namespace gpuldpc
} // namespace gr
