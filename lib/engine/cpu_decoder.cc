/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU reference decoders: a schedule (flooding, layered) combined with a node
// update rule (check_rules.h) by templates; the rule's domain is the
// arithmetic of the variable side, float or the 8-bit fixed point of
// message_precision::int8. Written for clarity first; speed comes from running
// frames on a pool of threads that lives with the decoder, each with a
// workspace allocated the first time it is used.

#include "check_rules.h"
#include "cpu_decoder.h"
#include "environment.h"
#include "simd_decoder.h"
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

unsigned max_check_degree(const ldpc_code& code)
{
    unsigned d = 0;
    for (unsigned c = 0; c < code.m(); ++c)
        d = std::max(d, code.check_degree(c));
    return d;
}

// Everything one thread needs to decode one frame at a time.
template <class Rule>
struct workspace {
    using domain = typename Rule::domain;
    workspace(const ldpc_code& code, const decoder_config& cfg)
        : rule(code.field(), max_check_degree(code), cfg),
          width(domain::width(code.q())),
          prior(size_t(code.n()) * width),
          app(size_t(code.n()) * width),
          v2c(code.num_edges() * width),
          c2v(code.num_edges() * width),
          hard(code.n())
    {
    }
    Rule rule;
    unsigned width;
    std::vector<typename domain::message> prior; // the channel's message
    std::vector<typename domain::value> app;     // beliefs
    std::vector<typename domain::message> v2c, c2v;
    std::vector<uint8_t> hard;
};

// The schedules take raw pointers out of the vectors: 8-bit stores may alias
// anything, and would otherwise reload every vector's data pointer.

// All checks from the stored variable-to-check messages, then all variables.
struct flooding_schedule {
    template <class Rule>
    static void start(const ldpc_code& code, workspace<Rule>& ws)
    {
        const unsigned w = Rule::domain::width(code.q());
        const auto& vedges = code.variable_edges();
        const auto& voff = code.variable_offsets();
        for (unsigned v = 0; v < code.n(); ++v)
            for (uint32_t i = voff[v]; i < voff[v + 1]; ++i)
                std::copy_n(&ws.prior[size_t(v) * w], w, &ws.v2c[size_t(vedges[i]) * w]);
    }

    template <class Rule>
    static void iterate(const ldpc_code& code, workspace<Rule>& ws)
    {
        using domain = typename Rule::domain;
        const unsigned w = domain::width(code.q()); // a constant for q = 2 domains
        const unsigned n = code.n(), m = code.m();
        const uint32_t* coff = code.check_offsets().data();
        const uint8_t* coef = code.edge_coefficient().data();
        const uint32_t* vedges = code.variable_edges().data();
        const uint32_t* voff = code.variable_offsets().data();
        const auto* prior = ws.prior.data();
        auto* beliefs = ws.app.data();
        auto* v2c = ws.v2c.data();
        auto* c2v = ws.c2v.data();
        uint8_t* hard = ws.hard.data();
        for (unsigned c = 0; c < m; ++c)
            ws.rule.check_update(v2c + size_t(coff[c]) * w,
                                 c2v + size_t(coff[c]) * w,
                                 coef + coff[c],
                                 coff[c + 1] - coff[c]);
        for (unsigned v = 0; v < n; ++v) {
            auto* app = beliefs + size_t(v) * w;
            std::copy_n(prior + size_t(v) * w, w, app);
            const uint32_t first = voff[v], end = voff[v + 1];
            for (uint32_t i = first; i < end; ++i) {
                const auto* msg = c2v + size_t(vedges[i]) * w;
                for (unsigned x = 0; x < w; ++x)
                    app[x] += msg[x];
            }
            for (uint32_t i = first; i < end; ++i) {
                const size_t e = size_t(vedges[i]) * w;
                domain::extrinsic(app, c2v + e, v2c + e, w);
            }
            hard[v] = domain::decide(app, w);
        }
    }
};

// Check by check; each check reads the current beliefs of its variables and
// updates them at once (row-layered belief propagation). A belief less the
// check's previous message stays exact (no saturation, no floor) until the
// check's new message is added back.
struct layered_schedule {
    template <class Rule>
    static void start(const ldpc_code& code, workspace<Rule>& ws)
    {
        std::copy(ws.prior.begin(), ws.prior.end(), ws.app.begin());
    }

    template <class Rule>
    static void iterate(const ldpc_code& code, workspace<Rule>& ws)
    {
        using domain = typename Rule::domain;
        const unsigned w = domain::width(code.q());
        const unsigned n = code.n();
        const uint32_t* coff = code.check_offsets().data();
        const uint32_t* evar = code.edge_variable().data();
        const uint8_t* coef = code.edge_coefficient().data();
        auto* beliefs = ws.app.data();
        auto* v2c = ws.v2c.data(); // the messages into the current check
        auto* c2v = ws.c2v.data();
        uint8_t* hard = ws.hard.data();
        for (const uint32_t c : code.layered_check_order()) {
            const uint32_t e0 = coff[c], deg = coff[c + 1] - coff[c];
            for (uint32_t i = 0; i < deg; ++i) {
                auto* app = beliefs + size_t(evar[e0 + i]) * w;
                const auto* old = c2v + size_t(e0 + i) * w;
                for (unsigned x = 0; x < w; ++x)
                    app[x] -= old[x];
                domain::normalize(app, w);
                domain::to_message(app, v2c + size_t(e0 + i) * w, w);
            }
            ws.rule.check_update(
                v2c + size_t(e0) * w, c2v + size_t(e0) * w, coef + e0, deg);
            for (uint32_t i = 0; i < deg; ++i) {
                auto* app = beliefs + size_t(evar[e0 + i]) * w;
                const auto* msg = c2v + size_t(e0 + i) * w;
                for (unsigned x = 0; x < w; ++x)
                    app[x] += msg[x];
                domain::normalize(app, w);
                if constexpr (domain::fixed_point)
                    app[0] = domain::limited(app[0]);
            }
        }
        for (unsigned v = 0; v < n; ++v)
            hard[v] = domain::decide(beliefs + size_t(v) * w, w);
    }
};

// One call's input: one of the three is set.
struct frame_input {
    const float* llr = nullptr;       // bit LLRs: decode()
    const float* symbol_ll = nullptr; // symbol log-likelihoods: decode_symbol_llr()
    const int8_t* llr8 = nullptr;     // 8-bit LLRs: decode_int8() of a fixed-point rule
};

template <class Rule, class Schedule>
class cpu_decoder final : public batch_decoder
{
public:
    cpu_decoder(ldpc_code::sptr code, const decoder_config& config)
        : batch_decoder(code, config),
          d_pool(std::max(
              1u, config.threads ? config.threads : std::thread::hardware_concurrency()))
    {
        // the first workspace now, so that a bad configuration fails here
        d_workspaces.push_back(std::make_unique<workspace<Rule>>(*d_code, d_config));
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
        frame_input in;
        in.llr = llr;
        run(in, n_frames, info_bits, status, codeword_bits);
        fail_erased_frames(llr, llr_per_frame(), n_frames, status);
    }

    void decode_int8(const int8_t* llr,
                     size_t n_frames,
                     uint8_t* info_bits,
                     frame_status* status,
                     uint8_t* codeword_bits) override
    {
        if constexpr (domain::fixed_point) {
            // the values are the channel values already
            frame_input in;
            in.llr8 = llr;
            run(in, n_frames, info_bits, status, codeword_bits);
        } else {
            batch_decoder::decode_int8(llr, n_frames, info_bits, status, codeword_bits);
        }
    }

    void decode_symbol_llr(const float* symbol_ll,
                           size_t n_frames,
                           uint8_t* info_bits,
                           frame_status* status,
                           uint8_t* codeword_bits) override
    {
        if constexpr (domain::fixed_point) {
            // each pair a bit LLR, rounded to a channel value as decode() does
            decode_bit_pairs(symbol_ll, n_frames, info_bits, status, codeword_bits);
        } else {
            frame_input in;
            in.symbol_ll = symbol_ll;
            run(in, n_frames, info_bits, status, codeword_bits);
            fail_erased_frames(symbol_ll,
                               size_t(d_code->n_transmitted()) * d_code->q(),
                               n_frames,
                               status);
        }
    }

private:
    using domain = typename Rule::domain;
    using message = typename domain::message;

    void run(const frame_input& in,
             size_t n_frames,
             uint8_t* info_bits,
             frame_status* status,
             uint8_t* codeword_bits)
    {
        // calls from several threads take turns: the workspaces are shared
        std::lock_guard<std::mutex> lock(d_call_mutex);
        const size_t n_workers = std::min(d_pool.max_workers(), n_frames);
        while (d_workspaces.size() < n_workers)
            d_workspaces.push_back(std::make_unique<workspace<Rule>>(*d_code, d_config));
        d_pool.run(n_frames, n_workers, [&](size_t frame, size_t worker) {
            decode_frame(
                *d_workspaces[worker], in, frame, info_bits, status, codeword_bits);
        });
    }

    // The channel's message of every variable, in the internal convention
    // log(P(0)/P(1)); punctured symbols (input index -1) are erasures.
    void load_prior(workspace<Rule>& ws,
                    const frame_input& in,
                    size_t frame,
                    uint32_t& invalid) const
    {
        const ldpc_code& code = *d_code;
        const unsigned q = code.q(), m = code.bits_per_symbol(), w = ws.width;
        const bool flip = d_config.flip_llr_sign;
        const float sign = flip ? 1.0f : -1.0f;
        invalid = 0;
        const size_t nt = code.n_transmitted();
        if constexpr (domain::fixed_point) {
            if (in.llr8) {
                const int8_t* llr = in.llr8 + frame * nt;
                for (unsigned v = 0; v < code.n(); ++v) {
                    const int32_t t = d_input_index[v];
                    const int8_t x = t < 0 ? 0 : ws.rule.from_int8(llr[t]);
                    ws.prior[v] = flip ? x : int8_t(-x);
                }
                return;
            }
        }
        if (in.llr) {
            const float* llr = in.llr + frame * nt * m;
            for (unsigned v = 0; v < code.n(); ++v) {
                message* p = &ws.prior[size_t(v) * w];
                const int32_t t = d_input_index[v];
                if (t < 0) {
                    std::fill(p, p + w, message(0));
                    continue;
                }
                if constexpr (domain::binary) {
                    float l = llr[t];
                    invalid += sanitize_input(l);
                    p[0] = domain::from_llr(sign * l, d_config.llr_scale);
                } else {
                    std::fill(p, p + w, 0.0f);
                    for (unsigned b = 0; b < m; ++b) {
                        float l = llr[size_t(t) * m + b];
                        invalid += sanitize_input(l);
                        float log_p0, log_p1;
                        bit_log_probs(sign * l, log_p0, log_p1);
                        const unsigned mask = 1u << (m - 1 - b); // MSB first
                        for (unsigned x = 0; x < q; ++x)
                            p[x] += (x & mask) ? log_p1 : log_p0;
                    }
                    domain::normalize(p, w);
                }
            }
            return;
        }
        if constexpr (!domain::fixed_point) {
            const float* ll = in.symbol_ll + frame * nt * q;
            for (unsigned v = 0; v < code.n(); ++v) {
                float vals[256];
                const int32_t t = d_input_index[v];
                for (unsigned x = 0; x < q; ++x) {
                    vals[x] = t < 0 ? 0.0f : ll[size_t(t) * q + x];
                    invalid += t < 0 ? 0 : sanitize_input(vals[x]);
                }
                float* p = &ws.prior[size_t(v) * w];
                if (domain::binary) {
                    p[0] = vals[0] - vals[1];
                } else {
                    std::copy_n(vals, q, p);
                    domain::normalize(p, w);
                }
            }
        }
    }

    void decode_frame(workspace<Rule>& ws,
                      const frame_input& in,
                      size_t frame,
                      uint8_t* info_bits,
                      frame_status* status,
                      uint8_t* codeword_bits) const
    {
        const ldpc_code& code = *d_code;
        const unsigned w = ws.width;
        frame_status st{};
        load_prior(ws, in, frame, st.invalid_inputs);

        for (unsigned v = 0; v < code.n(); ++v)
            ws.hard[v] = domain::decide(&ws.prior[size_t(v) * w], w);
        unsigned syndrome = code.syndrome_weight(ws.hard.data());

        if (!(d_config.early_termination && syndrome == 0)) {
            std::fill(ws.c2v.begin(), ws.c2v.end(), message(0));
            Schedule::start(code, ws);
            for (unsigned it = 1; it <= d_config.max_iterations; ++it) {
                Schedule::iterate(code, ws);
                st.iterations = it;
                syndrome = code.syndrome_weight(ws.hard.data());
                if (d_config.early_termination && syndrome == 0)
                    break;
            }
        }
        st.syndrome_weight = syndrome;
        st.converged = syndrome == 0;
        status[frame] = st;

        write_decisions(code,
                        ws.hard.data(),
                        d_config.pack_info_bits,
                        info_bits + frame * info_bytes_per_frame(),
                        codeword_bits ? codeword_bits + frame * size_t(code.n()) *
                                                            code.bits_per_symbol()
                                      : nullptr);
    }

    mutable std::mutex d_call_mutex;
    worker_pool d_pool;
    // input position of each codeword symbol; -1 for a punctured one
    std::vector<int32_t> d_input_index;
    // scratch of worker i, made the first time a call uses i workers or more
    std::vector<std::unique_ptr<workspace<Rule>>> d_workspaces;
};

template <class Rule>
batch_decoder::sptr with_schedule(ldpc_code::sptr code, const decoder_config& config)
{
    if (config.schedule == decoder_schedule::layered)
        return std::make_shared<cpu_decoder<Rule, layered_schedule>>(code, config);
    return std::make_shared<cpu_decoder<Rule, flooding_schedule>>(code, config);
}

} // namespace

batch_decoder::sptr make_cpu_decoder(ldpc_code::sptr code, const decoder_config& config)
{
    const std::string simd = cpu_simd_from_environment();
    if (simd != "off" && simd_refusal(*code, config).empty())
        return make_simd_decoder(code, config, simd == "auto" ? "" : simd);
    return make_reference_decoder(code, config);
}

batch_decoder::sptr make_reference_decoder(ldpc_code::sptr code,
                                           const decoder_config& config)
{
    switch (config.algorithm) {
    case decoder_algorithm::sum_product:
        return with_schedule<sum_product_rule>(code, config);
    case decoder_algorithm::min_sum:
        if (config.messages == message_precision::int8)
            return with_schedule<fixed_point_min_sum_rule>(code, config);
        return with_schedule<min_sum_rule>(code, config);
    case decoder_algorithm::log_fft_bp:
        return with_schedule<log_fft_bp_rule>(code, config);
    case decoder_algorithm::fft_bp:
    default:
        return with_schedule<fft_bp_rule>(code, config);
    }
}

} // namespace detail
} // namespace gpuldpc
} // namespace gr
