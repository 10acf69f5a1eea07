/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "cpu_decoder.h"
#include "cuda_decoders.h"
#include "multi_device_decoder.h"
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/device.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

decoder_algorithm parse_decoder_algorithm(const std::string& s)
{
    if (s == "auto" || s == "automatic")
        return decoder_algorithm::automatic;
    if (s == "fft-bp" || s == "fft_bp")
        return decoder_algorithm::fft_bp;
    if (s == "log-fft-bp" || s == "log_fft_bp")
        return decoder_algorithm::log_fft_bp;
    if (s == "sum-product" || s == "sum_product")
        return decoder_algorithm::sum_product;
    if (s == "min-sum" || s == "min_sum")
        return decoder_algorithm::min_sum;
    throw std::invalid_argument("algorithm='" + s +
                                "' is unknown; allowed: auto, fft-bp, log-fft-bp, "
                                "sum-product, min-sum");
}

decoder_schedule parse_decoder_schedule(const std::string& s)
{
    if (s == "flooding")
        return decoder_schedule::flooding;
    if (s == "layered")
        return decoder_schedule::layered;
    throw std::invalid_argument("schedule='" + s +
                                "' is unknown; allowed: flooding, layered");
}

std::string to_string(decoder_algorithm a)
{
    switch (a) {
    case decoder_algorithm::automatic:
        return "auto";
    case decoder_algorithm::fft_bp:
        return "fft-bp";
    case decoder_algorithm::log_fft_bp:
        return "log-fft-bp";
    case decoder_algorithm::sum_product:
        return "sum-product";
    case decoder_algorithm::min_sum:
        return "min-sum";
    }
    return "?";
}

std::string to_string(decoder_schedule s)
{
    return s == decoder_schedule::layered ? "layered" : "flooding";
}

min_sum_magnitude_rule parse_min_sum_magnitude(const std::string& s)
{
    if (s == "auto")
        return min_sum_magnitude_rule::automatic;
    if (s == "smallest")
        return min_sum_magnitude_rule::smallest;
    if (s == "two-smallest")
        return min_sum_magnitude_rule::two_smallest;
    if (s == "three-smallest")
        return min_sum_magnitude_rule::three_smallest;
    throw std::invalid_argument(
        "min_sum_magnitude='" + s +
        "' is unknown; allowed: auto, smallest, two-smallest, three-smallest");
}

std::string to_string(min_sum_magnitude_rule m)
{
    switch (m) {
    case min_sum_magnitude_rule::two_smallest:
        return "two-smallest";
    case min_sum_magnitude_rule::three_smallest:
        return "three-smallest";
    case min_sum_magnitude_rule::automatic:
        return "auto";
    default:
        return "smallest";
    }
}

message_precision parse_message_precision(const std::string& s)
{
    if (s == "fp32")
        return message_precision::fp32;
    if (s == "fp16")
        return message_precision::fp16;
    if (s == "int8")
        return message_precision::int8;
    throw std::invalid_argument("messages='" + s +
                                "' is unknown; allowed: fp32, fp16, int8");
}

std::string to_string(message_precision p)
{
    switch (p) {
    case message_precision::fp16:
        return "fp16";
    case message_precision::int8:
        return "int8";
    default:
        return "fp32";
    }
}

float round_to_half(float x)
{
    if (std::isnan(x))
        return x;
    const float a = std::fabs(x);
    float r;
    if (a >= 65520.0f) // halfway above the largest half, 65504: rounds up
        r = std::numeric_limits<float>::infinity();
    else if (a < 6.103515625e-05f) // below 2^-14: half's subnormals, steps of 2^-24
        r = std::nearbyint(a * 16777216.0f) / 16777216.0f;
    else {
        // 10 of float's 23 fraction bits stay; the carry may reach the exponent
        uint32_t u;
        std::memcpy(&u, &a, sizeof u);
        u += 0x0fffu + ((u >> 13) & 1u);
        u &= ~0x1fffu;
        std::memcpy(&r, &u, sizeof r);
    }
    return std::signbit(x) ? -r : r;
}

batch_decoder::~batch_decoder() = default;

void batch_decoder::check_symbol_arguments(const constellation& c,
                                           const float* noise_var,
                                           size_t n_frames) const
{
    if (c.bits_per_symbol() != d_code->bits_per_symbol())
        throw std::invalid_argument(
            "constellation='" + c.name() + "' carries " +
            std::to_string(c.bits_per_symbol()) + " bits a symbol, the code's symbols " +
            std::to_string(d_code->bits_per_symbol()) +
            "; allowed: the constellation of q = " + std::to_string(d_code->q()) +
            " points (e.g. bpsk, qpsk, 8psk, 16qam, gpuldpc-64qam, gpuldpc-256qam)");
    for (size_t f = 0; f < n_frames; ++f)
        if (!(std::isfinite(noise_var[f]) && noise_var[f] >= 1.2e-38f))
            throw std::invalid_argument("noise_var=" + std::to_string(noise_var[f]) +
                                        " of frame " + std::to_string(f) +
                                        " is out of range; allowed: finite, >= 1.2e-38");
}

void batch_decoder::decode_symbols(const std::complex<float>* symbols,
                                   size_t n_frames,
                                   const constellation& c,
                                   const float* noise_var,
                                   uint8_t* info_bits,
                                   frame_status* status,
                                   uint8_t* codeword_bits)
{
    check_symbol_arguments(c, noise_var, n_frames);
    const size_t ns = d_code->n_transmitted(), q = d_code->q(), per_frame = ns * q;
    const size_t nb = info_bytes_per_frame();
    const size_t nc = size_t(d_code->n()) * d_code->bits_per_symbol();
    // chunks of about 1 MiB of floats, at least one frame
    const size_t chunk = std::max<size_t>(1, (size_t(1) << 18) / per_frame);
    std::lock_guard<std::mutex> lock(d_symbols_mutex);
    if (!d_demapper || d_demapper->points().points() != c.points())
        d_demapper = std::make_unique<soft_demapper>(c);
    d_symbol_ll.resize(std::min(chunk, std::max<size_t>(n_frames, 1)) * per_frame);
    for (size_t f0 = 0; f0 < n_frames; f0 += chunk) {
        const size_t frames = std::min(chunk, n_frames - f0);
        for (size_t f = 0; f < frames; ++f)
            d_demapper->symbol_log_likelihoods(symbols + (f0 + f) * ns,
                                               ns,
                                               noise_var[f0 + f],
                                               &d_symbol_ll[f * per_frame]);
        // each symbol's values less their largest (a constant a symbol), so
        // that the clip at -max_input_magnitude only meets unlikely points
        for (size_t s = 0; s < frames * ns; ++s) {
            float* v = &d_symbol_ll[s * q];
            const float top = *std::max_element(v, v + q);
            if (std::isfinite(top))
                for (size_t x = 0; x < q; ++x)
                    v[x] -= top;
        }
        decode_symbol_llr(d_symbol_ll.data(),
                          frames,
                          info_bits + f0 * nb,
                          status + f0,
                          codeword_bits ? codeword_bits + f0 * nc : nullptr);
    }
}

void batch_decoder::decode_int8(const int8_t* llr,
                                size_t n_frames,
                                uint8_t* info_bits,
                                frame_status* status,
                                uint8_t* codeword_bits)
{
    const size_t nl = llr_per_frame(), nb = info_bytes_per_frame();
    const size_t nc = size_t(d_code->n()) * d_code->bits_per_symbol();
    // Chunks of the decoder's preferred batch (a SIMD decoder's groups on
    // all its threads, a GPU's SMs), within 1 to 64 MiB of floats and in
    // whole rounds of groups; at least one frame. (Chunks of 1 MiB alone
    // were 4 DVB-S2 frames: one group, one thread.)
    const size_t small = std::max<size_t>(1, (size_t(1) << 18) / nl);
    const size_t large = std::max<size_t>(small, (size_t(1) << 24) / nl);
    const size_t chunk = std::max<size_t>(
        1, whole_round_batch(std::clamp(preferred_batch(), small, large)));
    std::lock_guard<std::mutex> lock(d_convert_mutex);
    d_converted.resize(std::min(chunk, std::max<size_t>(n_frames, 1)) * nl);
    const float step = 1.0f / d_config.llr_scale;
    for (size_t f0 = 0; f0 < n_frames; f0 += chunk) {
        const size_t frames = std::min(chunk, n_frames - f0);
        const int8_t* in = llr + f0 * nl;
        for (size_t i = 0; i < frames * nl; ++i)
            d_converted[i] = float(std::max<int>(in[i], -127)) * step;
        decode(d_converted.data(),
               frames,
               info_bits + f0 * nb,
               status + f0,
               codeword_bits ? codeword_bits + f0 * nc : nullptr);
    }
}

void batch_decoder::decode_device(const float*, size_t, uint8_t*, frame_status*)
{
    throw std::logic_error("decode_device: this decoder (" + device_name() +
                           ") decodes host memory; device pointers need a GPU "
                           "decoder (device='cuda')");
}

void batch_decoder::decode_device_int8(const int8_t*, size_t, uint8_t*, frame_status*)
{
    throw std::logic_error("decode_device_int8: this decoder (" + device_name() + ", " +
                           kernel_variant() +
                           ") takes no 8-bit LLRs in device memory; allowed: a GPU "
                           "decoder of 8-bit input (decodes_device_int8()), or "
                           "decode_device() with float LLRs");
}

uint64_t batch_decoder::issue_ticket()
{
    if (d_tickets_issued - d_tickets_retired >= max_outstanding)
        throw std::logic_error("begin_decode: " + std::to_string(max_outstanding) +
                               " batches are outstanding already; end_decode() the "
                               "oldest first");
    return ++d_tickets_issued;
}

void batch_decoder::decode_bit_pairs(const float* symbol_ll,
                                     size_t n_frames,
                                     uint8_t* info_bits,
                                     frame_status* status,
                                     uint8_t* codeword_bits)
{
    const size_t nl = llr_per_frame();
    std::lock_guard<std::mutex> lock(d_convert_mutex);
    d_converted.resize(std::max<size_t>(n_frames, 1) * nl);
    d_converted_invalid.assign(std::max<size_t>(n_frames, 1), 0);
    for (size_t i = 0; i < n_frames * nl; ++i) {
        float l0 = symbol_ll[2 * i], l1 = symbol_ll[2 * i + 1];
        d_converted_invalid[i / nl] += !std::isfinite(l0) + !std::isfinite(l1);
        // each clipped as an input is, so that the difference stays finite
        l0 = std::isfinite(l0) ? std::clamp(l0, -max_input_magnitude, max_input_magnitude)
                               : 0.0f;
        l1 = std::isfinite(l1) ? std::clamp(l1, -max_input_magnitude, max_input_magnitude)
                               : 0.0f;
        d_converted[i] = d_config.flip_llr_sign ? l0 - l1 : l1 - l0;
    }
    decode(d_converted.data(), n_frames, info_bits, status, codeword_bits);
    for (size_t f = 0; f < n_frames; ++f) {
        status[f].invalid_inputs += d_converted_invalid[f];
        if (d_converted_invalid[f] == 2 * nl)
            status[f].converged = 0; // no valid value: see fail_erased_frames()
    }
}

void batch_decoder::fail_erased_frames(const float* in,
                                       size_t values_per_frame,
                                       size_t n_frames,
                                       frame_status* status)
{
    if (!in || !status || values_per_frame == 0)
        return;
    for (size_t f = 0; f < n_frames; ++f) {
        const float* v = in + f * values_per_frame;
        // a frame with one valid value ends the scan at once
        if (std::none_of(
                v, v + values_per_frame, [](float x) { return std::isfinite(x); }))
            status[f].converged = 0;
    }
}

void batch_decoder::note_ticket(uint64_t ticket,
                                const float* llr,
                                size_t n_frames,
                                frame_status* status)
{
    d_pending[ticket % max_outstanding] = { llr, n_frames, status };
}

void batch_decoder::finish_ticket(uint64_t ticket)
{
    pending_batch& b = d_pending[ticket % max_outstanding];
    fail_erased_frames(b.llr, llr_per_frame(), b.n_frames, b.status);
    b = {};
}

void batch_decoder::cancel_ticket()
{
    if (d_tickets_issued == d_tickets_retired)
        throw std::logic_error("cancel_ticket: no ticket is outstanding");
    --d_tickets_issued;
}

void batch_decoder::retire_ticket(uint64_t ticket)
{
    if (ticket != d_tickets_retired + 1 || ticket > d_tickets_issued)
        throw std::logic_error("end_decode: ticket " + std::to_string(ticket) +
                               " is not the oldest outstanding one");
    d_tickets_retired = ticket;
}

uint64_t batch_decoder::begin_decode(const float* llr,
                                     size_t n_frames,
                                     uint8_t* info_bits,
                                     frame_status* status)
{
    const uint64_t ticket = issue_ticket();
    try {
        decode(llr, n_frames, info_bits, status);
    } catch (...) {
        cancel_ticket(); // nothing outstanding for this batch
        throw;
    }
    return ticket;
}

uint64_t batch_decoder::begin_decode_int8(const int8_t* llr,
                                          size_t n_frames,
                                          uint8_t* info_bits,
                                          frame_status* status)
{
    const uint64_t ticket = issue_ticket();
    try {
        decode_int8(llr, n_frames, info_bits, status);
    } catch (...) {
        cancel_ticket(); // nothing outstanding for this batch
        throw;
    }
    return ticket;
}

void batch_decoder::end_decode(uint64_t ticket) { retire_ticket(ticket); }

std::shared_ptr<void> batch_decoder::host_buffer(size_t bytes) const
{
    return std::shared_ptr<void>(new unsigned char[std::max<size_t>(bytes, 1)],
                                 std::default_delete<unsigned char[]>());
}

namespace {

// \p c with its automatic choices resolved for \p code: the algorithm, the
// min-sum rule (any algorithm: config() reports no automatic field), then the
// correction for that rule
decoder_config resolved_for(decoder_config c, const ldpc_code& code)
{
    if (c.algorithm == decoder_algorithm::automatic)
        c.algorithm =
            code.q() == 2 ? decoder_algorithm::sum_product : decoder_algorithm::fft_bp;
    if (c.min_sum_magnitude == min_sum_magnitude_rule::automatic)
        c.min_sum_magnitude = c.algorithm == decoder_algorithm::min_sum
                                  ? min_sum_auto_magnitude(code, c.messages)
                                  : min_sum_magnitude_rule::smallest;
    return c;
}

// \p c with min_sum_scale_auto and min_sum_offset_auto resolved for \p code
decoder_config with_min_sum_correction(decoder_config c, const ldpc_code& code)
{
    const bool auto_scale = c.min_sum_scale == min_sum_scale_auto;
    if (auto_scale || c.min_sum_offset == min_sum_offset_auto) {
        const auto chosen =
            min_sum_auto_correction(code, c.min_sum_magnitude, c.max_iterations);
        if (auto_scale)
            c.min_sum_scale = chosen.scale;
        if (c.min_sum_offset == min_sum_offset_auto)
            c.min_sum_offset = auto_scale ? chosen.offset : 0.0f;
    }
    return c;
}

} // namespace

batch_decoder::batch_decoder(ldpc_code::sptr code, const decoder_config& config)
    : d_code(std::move(code)), d_config(config)
{
    if (!d_code)
        throw std::invalid_argument("code is null");
    d_config = resolved_for(d_config, *d_code);
    const bool binary_rule = d_config.algorithm == decoder_algorithm::sum_product ||
                             d_config.algorithm == decoder_algorithm::min_sum;
    if (binary_rule && d_code->q() != 2)
        throw std::invalid_argument("algorithm='" + to_string(d_config.algorithm) +
                                    "' decodes binary codes only, this code is over GF(" +
                                    std::to_string(d_code->q()) +
                                    "); allowed for q > 2: auto, fft-bp, log-fft-bp");
    if (d_config.max_iterations < 1 || d_config.max_iterations > 100000)
        throw std::invalid_argument(
            "max_iterations=" + std::to_string(d_config.max_iterations) +
            " is out of range; allowed: 1..100000");
    d_config = with_min_sum_correction(d_config, *d_code);
    if (!(d_config.min_sum_scale > 0.0f && d_config.min_sum_scale <= 1.0f))
        throw std::invalid_argument(
            "min_sum_scale=" + std::to_string(d_config.min_sum_scale) +
            " is out of range; allowed: (0, 1] or 'auto'");
    if (!(d_config.min_sum_offset >= 0.0f && std::isfinite(d_config.min_sum_offset)))
        throw std::invalid_argument(
            "min_sum_offset=" + std::to_string(d_config.min_sum_offset) +
            " is out of range; allowed: >= 0 or 'auto'");
    if (d_config.threads > 1024)
        throw std::invalid_argument("threads=" + std::to_string(d_config.threads) +
                                    " is out of range; allowed: 0 (all cores) .. 1024");
    if (d_config.messages == message_precision::fp16 &&
        d_config.algorithm != decoder_algorithm::fft_bp)
        throw std::invalid_argument(
            "messages='fp16' applies to algorithm='fft-bp' only, "
            "not '" +
            to_string(d_config.algorithm) + "'; allowed: fp32" +
            (d_config.algorithm == decoder_algorithm::min_sum ? ", int8" : ""));
    if (d_config.messages == message_precision::int8 &&
        d_config.algorithm != decoder_algorithm::min_sum)
        throw std::invalid_argument(
            "messages='int8' applies to algorithm='min-sum' only, "
            "not '" +
            to_string(d_config.algorithm) + "'; allowed: fp32" +
            (d_config.algorithm == decoder_algorithm::fft_bp ? ", fp16" : ""));
    if (d_config.messages == message_precision::int8 &&
        std::nearbyint(16.0f * d_config.min_sum_scale) < 1.0f)
        throw std::invalid_argument(
            "min_sum_scale=" + std::to_string(d_config.min_sum_scale) +
            " is below what messages='int8' expresses (sixteenths); "
            "allowed with int8: 1/32 .. 1");
    if (!(d_config.llr_scale > 0.0f && d_config.llr_scale <= 64.0f))
        throw std::invalid_argument("llr_scale=" + std::to_string(d_config.llr_scale) +
                                    " is out of range; allowed: (0, 64]");
}

namespace {

// The binary layered decoders update a run of checks that share no bit at
// once: a code of short runs in row order (a code read from a file without
// quasi-cyclic structure; DVB-S2 from an alist: runs of one check) is decoded
// in the order of a colouring instead, with the same error rates.
ldpc_code::sptr with_layered_order_for(ldpc_code::sptr code, const decoder_config& c)
{
    constexpr size_t short_run = 32; // checks a run on average
    const bool binary_rule = c.algorithm == decoder_algorithm::min_sum ||
                             c.algorithm == decoder_algorithm::sum_product;
    const size_t runs = code->layered_runs().size() - 1;
    // quasi-cyclic codes keep their base rows, also where the structure is
    // found in H (a code read from an alist file)
    if (c.schedule != decoder_schedule::layered || !binary_rule ||
        code->checks() >= short_run * runs || code->find_quasi_cyclic_base().z != 0)
        return code;
    auto coloured = std::make_shared<const ldpc_code>(code->with_coloured_layers());
    return coloured->layered_runs().size() < code->layered_runs().size() ? coloured
                                                                         : code;
}

} // namespace

batch_decoder::sptr batch_decoder::make(ldpc_code::sptr code,
                                        const decoder_config& config,
                                        const std::string& device)
{
    if (!code)
        throw std::invalid_argument("code is null");
    const decoder_config resolved = resolved_for(config, *code);
    const std::vector<int> gpus = cuda_device_list(device);
    if (!gpus.empty()) {
        std::vector<sptr> decoders;
        for (const int g : gpus) {
            decoders.push_back(make(code, config, "cuda:" + std::to_string(g)));
            if (decoders.back()->cuda_device() != g)
                throw std::invalid_argument("device='" + device +
                                            "': no GPU decoder runs this configuration");
        }
        return detail::make_multi_device_decoder(std::move(decoders));
    }
    const device_spec spec = parse_device(device); // names the argument on error
    code = with_layered_order_for(std::move(code), resolved);
    if (spec.type == device_spec::kind::cpu)
        return detail::make_cpu_decoder(code, resolved);
    const bool binary_gpu = detail::cuda_binary_runs(*code, resolved);
    if (spec.type == device_spec::kind::automatic) {
        // the GPU when one is usable and runs the algorithm, else the CPU
        if (!binary_gpu && !detail::cuda_fft_bp_runs(*code, resolved))
            return detail::make_cpu_decoder(code, resolved);
        const int index = select_cuda_device("auto");
        if (index >= 0) {
            try {
                return binary_gpu
                           ? detail::make_cuda_binary_decoder(code, resolved, index)
                           : detail::make_cuda_fft_bp_decoder(code, resolved, index);
            } catch (const cuda_error&) {
                // an unusable device: the CPU serves
            }
        }
        return detail::make_cpu_decoder(code, resolved);
    }
    if (binary_gpu)
        return detail::make_cuda_binary_decoder(code, resolved, select_cuda_device(device));
    if (!detail::cuda_fft_bp_runs(*code, resolved))
        throw std::invalid_argument(detail::cuda_fft_bp_refusal(*code, resolved, device));
    return detail::make_cuda_fft_bp_decoder(code, resolved, select_cuda_device(device));
}

} // namespace gpuldpc
} // namespace gr
