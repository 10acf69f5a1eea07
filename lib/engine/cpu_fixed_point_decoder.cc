/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Binary min-sum in 8-bit fixed point (message_precision::int8): the CPU
// reference of decoders with 8-bit messages, integer for integer, so that a
// GPU decoder of the same arithmetic can be checked for exact agreement.
// decoder.h spells the arithmetic out.

#include "cpu_decoder.h"
#include "worker_pool.h"
#include <gnuradio/gpuldpc/engine/bits.h>
#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <thread>

namespace gr {
namespace gpuldpc {
namespace detail {

namespace {

inline int8_t saturate8(int32_t x) { return int8_t(std::clamp(x, -127, 127)); }

// Everything one thread needs to decode one frame at a time.
struct fixed_workspace {
    explicit fixed_workspace(const ldpc_code& code)
        : channel(code.n()),
          belief(code.n()),
          c2v(code.num_edges()),
          v2c(code.num_edges()),
          hard(code.n())
    {
    }
    std::vector<int8_t> channel; // per codeword bit; punctured bits 0
    std::vector<int32_t> belief;
    std::vector<int8_t> c2v, v2c;
    std::vector<uint8_t> hard;
};

class fixed_point_min_sum final : public batch_decoder
{
public:
    fixed_point_min_sum(ldpc_code::sptr code, const decoder_config& config)
        : batch_decoder(code, config),
          d_scale_q(int32_t(std::nearbyint(16.0f * config.min_sum_scale))),
          d_offset_q(int32_t(std::min(
              std::nearbyint(config.min_sum_offset * config.llr_scale), 128.0f))),
          d_int8_limit(max_input_magnitude * config.llr_scale),
          d_int8_clip(int32_t(std::nearbyint(std::min(d_int8_limit, 127.0f)))),
          d_layered(config.schedule == decoder_schedule::layered),
          d_pool(std::max(
              1u, config.threads ? config.threads : std::thread::hardware_concurrency()))
    {
        if (code->q() != 2)
            throw std::invalid_argument("messages='int8' decodes binary codes only");
        d_scale_q = std::max(d_scale_q, int32_t(1));
        d_workspaces.push_back(std::make_unique<fixed_workspace>(*code));
        d_input_index.assign(code->n(), -1);
        const auto& sent = code->transmitted_positions();
        for (size_t t = 0; t < sent.size(); ++t)
            d_input_index[sent[t]] = int32_t(t);
    }

    std::string device_name() const override { return "cpu"; }
    unsigned threads() const override { return unsigned(d_pool.max_workers()); }
    size_t workspaces() const override
    {
        std::lock_guard<std::mutex> lock(d_call_mutex);
        return d_workspaces.size();
    }

    void decode(const float* llr,
                size_t n_frames,
                uint8_t* info_bits,
                frame_status* status,
                uint8_t* codeword_bits) override
    {
        run(llr, nullptr, n_frames, info_bits, status, codeword_bits);
        fail_erased_frames(llr, llr_per_frame(), n_frames, status);
    }

    void decode_int8(const int8_t* llr,
                     size_t n_frames,
                     uint8_t* info_bits,
                     frame_status* status,
                     uint8_t* codeword_bits) override
    {
        run(nullptr, llr, n_frames, info_bits, status, codeword_bits);
    }

    void decode_symbol_llr(const float* symbol_ll,
                           size_t n_frames,
                           uint8_t* info_bits,
                           frame_status* status,
                           uint8_t* codeword_bits) override
    {
        decode_bit_pairs(symbol_ll, n_frames, info_bits, status, codeword_bits);
    }

private:
    void run(const float* llr,
             const int8_t* llr8,
             size_t n_frames,
             uint8_t* info_bits,
             frame_status* status,
             uint8_t* codeword_bits)
    {
        std::lock_guard<std::mutex> lock(d_call_mutex);
        const size_t n_workers = std::min(d_pool.max_workers(), n_frames);
        while (d_workspaces.size() < n_workers)
            d_workspaces.push_back(std::make_unique<fixed_workspace>(*d_code));
        d_pool.run(n_frames, n_workers, [&](size_t frame, size_t worker) {
            decode_frame(*d_workspaces[worker],
                         llr,
                         llr8,
                         frame,
                         info_bits,
                         status,
                         codeword_bits);
        });
    }

    // Channel values in the internal convention, log(P(0)/P(1)) in steps of
    // 1 / llr_scale; returns the number of NaN/Inf inputs.
    uint32_t load_channel(fixed_workspace& ws,
                          const float* llr,
                          const int8_t* llr8,
                          size_t frame) const
    {
        const size_t nl = llr_per_frame();
        const bool flip = d_config.flip_llr_sign;
        uint32_t invalid = 0;
        for (unsigned v = 0; v < d_code->n(); ++v) {
            const int32_t t = d_input_index[v];
            int32_t x = 0;
            if (t >= 0 && llr8) {
                // the LLR v / llr_scale clipped to +-max_input_magnitude, as
                // decode() clips float LLRs
                int32_t in = std::max<int32_t>(llr8[frame * nl + t], -127);
                if (float(std::abs(in)) > d_int8_limit)
                    in = in < 0 ? -d_int8_clip : d_int8_clip;
                x = flip ? in : -in;
            } else if (t >= 0) {
                float l = llr[frame * nl + t];
                if (!std::isfinite(l)) {
                    ++invalid;
                    l = 0.0f;
                }
                l = std::clamp(l, -max_input_magnitude, max_input_magnitude);
                const float scaled = (flip ? l : -l) * d_config.llr_scale;
                x = int32_t(std::nearbyint(std::clamp(scaled, -127.0f, 127.0f)));
            }
            ws.channel[v] = saturate8(x);
        }
        return invalid;
    }

    // Min-sum over the messages into one check (in place: v2c in, c2v out).
    void check_update(const int8_t* in, int8_t* out, unsigned deg) const
    {
        int32_t min1 = 255, min2 = 255;
        unsigned arg_min = 0;
        bool negative = false;
        for (unsigned i = 0; i < deg; ++i) {
            const int32_t a = std::abs(int32_t(in[i]));
            negative ^= in[i] < 0;
            if (a < min1) {
                min2 = min1;
                min1 = a;
                arg_min = i;
            } else if (a < min2) {
                min2 = a;
            }
        }
        auto magnitude = [&](int32_t m) {
            return (std::max(m - d_offset_q, 0) * d_scale_q + 8) >> 4;
        };
        const int32_t mag1 = magnitude(std::min(min1, 127));
        const int32_t mag2 = magnitude(std::min(min2, 127));
        for (unsigned i = 0; i < deg; ++i) {
            const int32_t mag = i == arg_min ? mag2 : mag1;
            out[i] = int8_t((negative ^ (in[i] < 0)) ? -mag : mag);
        }
    }

    void iterate_flooding(fixed_workspace& ws) const
    {
        const ldpc_code& code = *d_code;
        const auto& coff = code.check_offsets();
        for (unsigned c = 0; c < code.m(); ++c)
            check_update(&ws.v2c[coff[c]], &ws.c2v[coff[c]], coff[c + 1] - coff[c]);
        const auto& vedges = code.variable_edges();
        const auto& voff = code.variable_offsets();
        for (unsigned v = 0; v < code.n(); ++v) {
            int32_t total = ws.channel[v];
            for (uint32_t i = voff[v]; i < voff[v + 1]; ++i)
                total += ws.c2v[vedges[i]];
            for (uint32_t i = voff[v]; i < voff[v + 1]; ++i)
                ws.v2c[vedges[i]] = saturate8(total - ws.c2v[vedges[i]]);
            ws.belief[v] = total;
            ws.hard[v] = total < 0;
        }
    }

    void iterate_layered(fixed_workspace& ws) const
    {
        const ldpc_code& code = *d_code;
        const auto& coff = code.check_offsets();
        const auto& evar = code.edge_variable();
        for (const uint32_t c : code.layered_check_order()) {
            const uint32_t e0 = coff[c], deg = coff[c + 1] - coff[c];
            // the belief less the check's message, exact; saturated only as
            // the check's input, so that the belief stays the channel value
            // plus all its messages
            for (uint32_t i = 0; i < deg; ++i) {
                ws.belief[evar[e0 + i]] -= ws.c2v[e0 + i];
                ws.v2c[e0 + i] = saturate8(ws.belief[evar[e0 + i]]);
            }
            check_update(&ws.v2c[e0], &ws.c2v[e0], deg);
            for (uint32_t i = 0; i < deg; ++i)
                ws.belief[evar[e0 + i]] += ws.c2v[e0 + i];
        }
        for (unsigned v = 0; v < code.n(); ++v)
            ws.hard[v] = ws.belief[v] < 0;
    }

    void decode_frame(fixed_workspace& ws,
                      const float* llr,
                      const int8_t* llr8,
                      size_t frame,
                      uint8_t* info_bits,
                      frame_status* status,
                      uint8_t* codeword_bits) const
    {
        const ldpc_code& code = *d_code;
        frame_status st{};
        st.invalid_inputs = load_channel(ws, llr, llr8, frame);
        for (unsigned v = 0; v < code.n(); ++v) {
            ws.belief[v] = ws.channel[v];
            ws.hard[v] = ws.channel[v] < 0;
        }
        unsigned syndrome = code.syndrome_weight(ws.hard.data());
        if (!(d_config.early_termination && syndrome == 0)) {
            std::fill(ws.c2v.begin(), ws.c2v.end(), int8_t(0));
            const auto& evar = code.edge_variable();
            for (size_t e = 0; e < code.num_edges(); ++e)
                ws.v2c[e] = ws.channel[evar[e]];
            for (unsigned it = 1; it <= d_config.max_iterations; ++it) {
                if (d_layered)
                    iterate_layered(ws);
                else
                    iterate_flooding(ws);
                st.iterations = it;
                syndrome = code.syndrome_weight(ws.hard.data());
                if (d_config.early_termination && syndrome == 0)
                    break;
            }
        }
        st.syndrome_weight = syndrome;
        st.converged = syndrome == 0;
        status[frame] = st;

        const auto& info = code.info_positions();
        write_bits(info.size(),
                   d_config.pack_info_bits,
                   info_bits + frame * info_bytes_per_frame(),
                   [&](size_t i) { return ws.hard[info[i]]; });
        if (codeword_bits)
            std::copy(
                ws.hard.begin(), ws.hard.end(), codeword_bits + frame * size_t(code.n()));
    }

    int32_t d_scale_q, d_offset_q;
    const float d_int8_limit; // max_input_magnitude in steps
    const int32_t d_int8_clip;
    const bool d_layered;
    mutable std::mutex d_call_mutex;
    worker_pool d_pool;
    std::vector<std::unique_ptr<fixed_workspace>> d_workspaces;
    std::vector<int32_t> d_input_index; // input position per bit; -1 punctured
};

} // namespace

batch_decoder::sptr make_cpu_fixed_point_decoder(ldpc_code::sptr code,
                                                 const decoder_config& config)
{
    return std::make_shared<fixed_point_min_sum>(code, config);
}

} // namespace detail
} // namespace gpuldpc
} // namespace gr
