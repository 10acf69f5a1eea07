/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// batch_decoder on the GF(q) FFT-BP kernels (simd_fft_bp.h): a frame a task
// on the decoder's threads, each with its own workspace; channel values made
// as the reference makes them (cpu_decoder.cc, load_prior), the iterations
// and early termination as its decode_frame().

#include "check_rules.h"
#include "simd_fft_bp.h"
#include "worker_pool.h"
#include <algorithm>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace gr {
namespace gpuldpc {
namespace detail {

namespace {

struct frame_workspace {
    frame_workspace(const ldpc_code& code, uint32_t max_check_degree)
        : prior(size_t(code.n()) * code.q()),
          beliefs(prior.size()),
          v2c(code.num_edges() * code.q()),
          c2v(v2c.size()),
          scratch(fft_bp_scratch(code.q(), max_check_degree)),
          hard(code.n())
    {
    }
    std::vector<float> prior, beliefs, v2c, c2v, scratch;
    std::vector<uint8_t> hard;

    fft_bp_frame view()
    {
        fft_bp_frame f;
        f.prior = prior.data();
        f.beliefs = beliefs.data();
        f.v2c = v2c.data();
        f.c2v = c2v.data();
        f.scratch = scratch.data();
        f.hard = hard.data();
        return f;
    }
};

class simd_fft_bp_decoder final : public batch_decoder
{
public:
    simd_fft_bp_decoder(ldpc_code::sptr code,
                        const decoder_config& config,
                        const fft_bp_kernel& kernel)
        : batch_decoder(code, config),
          d_kernel(kernel),
          d_pool(std::max(
              1u, config.threads ? config.threads : std::thread::hardware_concurrency()))
    {
        const ldpc_code& c = *d_code;
        const unsigned q = c.q();
        const gf_field& field = c.field();
        d_mul.resize(size_t(q) * q);
        d_inv.resize(q);
        for (unsigned a = 0; a < q; ++a) {
            d_inv[a] = a ? field.inv(uint8_t(a)) : 0;
            for (unsigned b = 0; b < q; ++b)
                d_mul[size_t(a) * q + b] = field.mul(uint8_t(a), uint8_t(b));
        }
        d_graph.n = c.n();
        d_graph.m = c.m();
        d_graph.q = q;
        d_graph.mul = d_mul.data();
        d_graph.inv = d_inv.data();
        d_graph.layered = d_config.schedule == decoder_schedule::layered;
        if (d_graph.layered) {
            // the checks' edges stored in the schedule's order, so that an
            // iteration streams through the messages
            d_offsets.assign(1, 0);
            for (const uint32_t check : c.layered_check_order()) {
                for (uint32_t e = c.check_offsets()[check];
                     e < c.check_offsets()[check + 1];
                     ++e) {
                    d_edge_variable.push_back(c.edge_variable()[e]);
                    d_coefficient.push_back(c.edge_coefficient()[e]);
                }
                d_offsets.push_back(uint32_t(d_edge_variable.size()));
            }
            d_graph.check_offsets = d_offsets.data();
            d_graph.edge_variable = d_edge_variable.data();
            d_graph.edge_coefficient = d_coefficient.data();
        } else {
            d_graph.check_offsets = c.check_offsets().data();
            d_graph.edge_variable = c.edge_variable().data();
            d_graph.edge_coefficient = c.edge_coefficient().data();
            d_graph.variable_offsets = c.variable_offsets().data();
            d_graph.variable_edges = c.variable_edges().data();
        }
        for (unsigned i = 0; i < c.m(); ++i)
            d_graph.max_check_degree =
                std::max(d_graph.max_check_degree, c.check_degree(i));
        d_input_index.assign(c.n(), -1);
        const auto& sent = c.transmitted_positions();
        for (size_t t = 0; t < sent.size(); ++t)
            d_input_index[sent[t]] = int32_t(t);
        d_workspaces.push_back(make_workspace());
    }

    std::string device_name() const override { return "cpu"; }
    unsigned threads() const override { return unsigned(d_pool.max_workers()); }
    size_t workspaces() const override
    {
        std::lock_guard<std::mutex> lock(d_call_mutex);
        return d_workspaces.size();
    }
    size_t preferred_batch() const override { return 4 * d_pool.max_workers(); }
    std::string kernel_variant() const override
    {
        return std::string("FFT-BP, ") + (d_graph.layered ? "layered" : "flooding") +
               ", " + d_kernel.target + ": GF(" + std::to_string(d_graph.q) +
               ") messages in float vectors, a frame a thread, up to " +
               std::to_string(d_pool.max_workers()) + " threads";
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

    void decode_symbol_llr(const float* symbol_ll,
                           size_t n_frames,
                           uint8_t* info_bits,
                           frame_status* status,
                           uint8_t* codeword_bits) override
    {
        run(nullptr, symbol_ll, n_frames, info_bits, status, codeword_bits);
        fail_erased_frames(
            symbol_ll, size_t(d_code->n_transmitted()) * d_code->q(), n_frames, status);
    }

private:
    std::unique_ptr<frame_workspace> make_workspace() const
    {
        return std::make_unique<frame_workspace>(*d_code, d_graph.max_check_degree);
    }

    void run(const float* llr,
             const float* symbol_ll,
             size_t n_frames,
             uint8_t* info_bits,
             frame_status* status,
             uint8_t* codeword_bits)
    {
        std::lock_guard<std::mutex> lock(d_call_mutex);
        const size_t n_workers = std::min(d_pool.max_workers(), n_frames);
        while (d_workspaces.size() < n_workers)
            d_workspaces.push_back(make_workspace());
        d_pool.run(n_frames, n_workers, [&](size_t frame, size_t worker) {
            frame_workspace& ws = *d_workspaces[worker];
            frame_status st{};
            st.invalid_inputs = load_prior(ws, llr, symbol_ll, frame);
            decode_frame(ws, st);
            status[frame] = st;
            const size_t bits = size_t(d_code->n()) * d_code->bits_per_symbol();
            write_decisions(*d_code,
                            ws.hard.data(),
                            d_config.pack_info_bits,
                            info_bits + frame * info_bytes_per_frame(),
                            codeword_bits ? codeword_bits + frame * bits : nullptr);
        });
    }

    // the reference's load_prior() of log_prob_domain; returns the frame's
    // invalid inputs
    uint32_t load_prior(frame_workspace& ws,
                        const float* llr,
                        const float* symbol_ll,
                        size_t frame) const
    {
        const ldpc_code& code = *d_code;
        const unsigned q = code.q(), m = code.bits_per_symbol();
        const size_t nt = code.n_transmitted();
        const float sign = d_config.flip_llr_sign ? 1.0f : -1.0f;
        uint32_t invalid = 0;
        for (unsigned v = 0; v < code.n(); ++v) {
            float* p = &ws.prior[size_t(v) * q];
            const int32_t t = d_input_index[v];
            if (t < 0) {
                std::fill(p, p + q, 0.0f);
                continue;
            }
            if (llr) {
                float log_p[16];
                const float* l = llr + (frame * nt + size_t(t)) * m;
                for (unsigned b = 0; b < m; ++b) {
                    float x = l[b];
                    invalid += sanitize_input(x);
                    bit_log_probs(sign * x, log_p[2 * b], log_p[2 * b + 1]);
                }
                d_kernel.symbol_prior(log_p, m, q, p);
            } else {
                const float* s = symbol_ll + (frame * nt + size_t(t)) * q;
                float mx = -HUGE_VALF;
                for (unsigned x = 0; x < q; ++x) {
                    p[x] = s[x];
                    invalid += sanitize_input(p[x]);
                    mx = std::max(mx, p[x]);
                }
                for (unsigned x = 0; x < q; ++x)
                    p[x] -= mx;
            }
        }
        return invalid;
    }

    void decode_frame(frame_workspace& ws, frame_status& st) const
    {
        fft_bp_frame f = ws.view();
        d_kernel.decide_prior(d_graph, f);
        unsigned syndrome = d_code->syndrome_weight(ws.hard.data());
        if (!(d_config.early_termination && syndrome == 0)) {
            d_kernel.start(d_graph, f);
            for (unsigned it = 1; it <= d_config.max_iterations; ++it) {
                d_kernel.iterate(d_graph, f);
                st.iterations = it;
                syndrome = d_code->syndrome_weight(ws.hard.data());
                if (d_config.early_termination && syndrome == 0)
                    break;
            }
        }
        st.syndrome_weight = syndrome;
        st.converged = syndrome == 0;
    }

    fft_bp_kernel d_kernel;
    fft_bp_graph d_graph;
    std::vector<int32_t> d_mul;
    std::vector<uint8_t> d_inv;
    // layered: the edges in the schedule's order (d_graph points here)
    std::vector<uint32_t> d_offsets, d_edge_variable;
    std::vector<uint8_t> d_coefficient;
    mutable std::mutex d_call_mutex;
    worker_pool d_pool;
    std::vector<int32_t> d_input_index; // -1: punctured
    std::vector<std::unique_ptr<frame_workspace>> d_workspaces;
};

} // namespace

batch_decoder::sptr make_simd_fft_bp_decoder(ldpc_code::sptr code,
                                             const decoder_config& config,
                                             const std::string& target)
{
    std::string names;
    for (const auto& k : fft_bp_kernels()) {
        if (target.empty() || k.target == target)
            return std::make_shared<simd_fft_bp_decoder>(code, config, k);
        names += (names.empty() ? "" : ", ") + std::string(k.target);
    }
    throw std::invalid_argument("SIMD target '" + target +
                                "' has no kernel in this build for this CPU; allowed: " +
                                (names.empty() ? std::string("none") : names));
}

} // namespace detail
} // namespace gpuldpc
} // namespace gr
