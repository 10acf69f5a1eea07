/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// batch_decoder on the GF(q) FFT-BP kernels (simd_fft_bp.h): a group of
// lanes() frames a task on the decoder's threads, each with its own
// workspace; channel values made as the reference makes them (cpu_decoder.cc,
// load_prior), the iterations and early termination as its decode_frame(),
// lane by lane.

#include "check_rules.h"
#include "simd_dispatch.h"
#include "simd_fft_bp.h"
#include "worker_pool.h"
#include <hwy/aligned_allocator.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <thread>

namespace gr {
namespace gpuldpc {
namespace detail {

namespace {

struct group_workspace {
    group_workspace(const ldpc_code& code,
                    uint32_t max_check_degree,
                    size_t lanes,
                    bool layered)
        : values(size_t(code.n()) * code.q() * lanes),
          messages(code.num_edges() * code.q() * lanes),
          prior(hwy::AllocateAligned<float>(values)),
          beliefs(hwy::AllocateAligned<float>(values)),
          // the layered schedule's inputs are a check's, in the scratch
          v2c(hwy::AllocateAligned<float>(layered ? 1 : messages)),
          c2v(hwy::AllocateAligned<float>(messages)),
          scratch(hwy::AllocateAligned<float>(
              fft_bp_scratch(code.q(), max_check_degree, lanes))),
          hard(size_t(code.n()) * lanes),
          lane_hard(code.n()),
          decided(size_t(code.n()) * lanes),
          status(lanes),
          active(lanes)
    {
        for (const auto* p : { &prior, &beliefs, &v2c, &c2v, &scratch })
            if (!*p)
                throw std::bad_alloc();
    }
    size_t values, messages;
    hwy::AlignedFreeUniquePtr<float[]> prior, beliefs, v2c, c2v, scratch;
    std::vector<uint8_t> hard;      // the kernel's decisions, [v * lanes + l]
    std::vector<uint8_t> lane_hard; // one lane's, for its syndrome
    std::vector<uint8_t> decided;   // each lane's final decisions, [l * n + v]
    std::vector<frame_status> status;
    std::vector<uint8_t> active; // lanes still iterating

    fft_bp_group view()
    {
        fft_bp_group g;
        g.prior = prior.get();
        g.beliefs = beliefs.get();
        g.v2c = v2c.get();
        g.c2v = c2v.get();
        g.scratch = scratch.get();
        g.hard = hard.data();
        return g;
    }
};

class simd_fft_bp_decoder final : public batch_decoder
{
public:
    simd_fft_bp_decoder(ldpc_code::sptr code,
                        const decoder_config& config,
                        const fft_bp_kernel& kernel)
        : batch_decoder(code, config),
          d_kernels{ kernel, narrower_kernel(fft_bp_kernels(), kernel, true) },
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
            // and each variable's edges by their new indices
            d_variable_offsets.assign(c.n() + 1, 0);
            for (const uint32_t v : d_edge_variable)
                ++d_variable_offsets[v + 1];
            for (unsigned v = 0; v < c.n(); ++v)
                d_variable_offsets[v + 1] += d_variable_offsets[v];
            d_variable_edges.resize(d_edge_variable.size());
            std::vector<uint32_t> fill(d_variable_offsets.begin(),
                                       d_variable_offsets.end() - 1);
            for (uint32_t e = 0; e < d_edge_variable.size(); ++e)
                d_variable_edges[fill[d_edge_variable[e]]++] = e;
            d_graph.check_offsets = d_offsets.data();
            d_graph.edge_variable = d_edge_variable.data();
            d_graph.edge_coefficient = d_coefficient.data();
            d_graph.variable_offsets = d_variable_offsets.data();
            d_graph.variable_edges = d_variable_edges.data();
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
    size_t preferred_batch() const override
    {
        return d_kernels[0].lanes * d_pool.max_workers();
    }
    size_t whole_round_batch(size_t frames) const override
    {
        return whole_round_frames(d_kernels, frames, d_pool.max_workers());
    }
    std::string kernel_variant() const override
    {
        return std::string("FFT-BP, ") + (d_graph.layered ? "layered" : "flooding") +
               ", " + d_kernels[0].target + ": GF(" + std::to_string(d_graph.q) + "), " +
               std::to_string(d_kernels[0].lanes) +
               " frames a group in float lanes, up to " +
               std::to_string(d_pool.max_workers()) + " threads" +
               narrower_note(d_kernels, d_pool.max_workers());
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
    std::unique_ptr<group_workspace> make_workspace() const
    {
        return std::make_unique<group_workspace>(
            *d_code, d_graph.max_check_degree, d_kernels[0].lanes, d_graph.layered);
    }

    void run(const float* llr,
             const float* symbol_ll,
             size_t n_frames,
             uint8_t* info_bits,
             frame_status* status,
             uint8_t* codeword_bits)
    {
        std::lock_guard<std::mutex> lock(d_call_mutex);
        const auto& kernel = narrow_or_wide(d_kernels, n_frames, d_pool.max_workers());
        const size_t lanes = kernel.lanes;
        const size_t groups = (n_frames + lanes - 1) / lanes;
        const size_t n_workers = std::min(d_pool.max_workers(), groups);
        while (d_workspaces.size() < n_workers)
            d_workspaces.push_back(make_workspace());
        const size_t n = d_code->n();
        const size_t bits = n * d_code->bits_per_symbol();
        d_pool.run(groups, n_workers, [&](size_t group, size_t worker) {
            group_workspace& ws = *d_workspaces[worker];
            const size_t first = group * lanes;
            const size_t count = std::min(lanes, n_frames - first);
            for (size_t l = 0; l < lanes; ++l)
                ws.status[l] = frame_status{};
            for (size_t l = 0; l < lanes; ++l)
                load_lane(ws, lanes, llr, symbol_ll, first + l, l, l < count);
            decode_group(kernel, ws, count);
            for (size_t l = 0; l < count; ++l) {
                const size_t frame = first + l;
                status[frame] = ws.status[l];
                write_decisions(*d_code,
                                &ws.decided[l * n],
                                d_config.pack_info_bits,
                                info_bits + frame * info_bytes_per_frame(),
                                codeword_bits ? codeword_bits + frame * bits : nullptr);
            }
        });
    }

    // Lane l's prior: the reference's load_prior() of log_prob_domain as
    // probabilities, floored at fft_bp_prob_floor; all 1 (an erasure) for a
    // punctured symbol and a lane without a frame.
    void load_lane(group_workspace& ws,
                   size_t lanes,
                   const float* llr,
                   const float* symbol_ll,
                   size_t frame,
                   size_t l,
                   bool used) const
    {
        const ldpc_code& code = *d_code;
        const unsigned q = code.q(), m = code.bits_per_symbol();
        const size_t nt = code.n_transmitted();
        const float sign = d_config.flip_llr_sign ? 1.0f : -1.0f;
        uint32_t invalid = 0;
        float p[256];
        for (unsigned v = 0; v < code.n(); ++v) {
            const int32_t t = d_input_index[v];
            if (!used || t < 0) {
                std::fill(p, p + q, 1.0f);
            } else if (llr) {
                // P(x) / P(the hard decision) = the product of e^-|l| over the
                // bits where x differs from it, built a bit at a time (MSB first)
                const float* in = llr + (frame * nt + size_t(t)) * m;
                p[0] = 1.0f;
                for (unsigned b = 0, size = 1; b < m; ++b, size *= 2) {
                    float x = in[b];
                    invalid += sanitize_input(x);
                    x *= sign; // log(P(0)/P(1))
                    const float other = std::exp(-std::fabs(x));
                    const float p0 = x < 0 ? other : 1.0f, p1 = x < 0 ? 1.0f : other;
                    for (unsigned y = size; y-- > 0;) {
                        p[2 * y + 1] = p[y] * p1;
                        p[2 * y] = p[y] * p0;
                    }
                }
            } else {
                const float* s = symbol_ll + (frame * nt + size_t(t)) * q;
                float mx = -HUGE_VALF;
                for (unsigned x = 0; x < q; ++x) {
                    p[x] = s[x];
                    invalid += sanitize_input(p[x]);
                    mx = std::max(mx, p[x]);
                }
                for (unsigned x = 0; x < q; ++x)
                    p[x] = std::exp(p[x] - mx);
            }
            float* out = ws.prior.get() + size_t(v) * q * lanes + l;
            for (unsigned x = 0; x < q; ++x)
                out[x * lanes] = std::max(p[x], fft_bp_prob_floor);
        }
        ws.status[l].invalid_inputs = invalid;
    }

    // lane l's decisions and their syndrome weight
    unsigned lane_syndrome(group_workspace& ws, size_t lanes, size_t l) const
    {
        for (size_t v = 0; v < ws.lane_hard.size(); ++v)
            ws.lane_hard[v] = ws.hard[v * lanes + l];
        return d_code->syndrome_weight(ws.lane_hard.data());
    }

    // the iterations of the reference's decode_frame() lane by lane: a lane
    // stops (its decisions and status kept) when its checks are satisfied, or
    // at the last iteration; the group when every lane has
    void
    decode_group(const fft_bp_kernel& kernel, group_workspace& ws, size_t count) const
    {
        const size_t lanes = kernel.lanes, n = d_code->n();
        const fft_bp_group g = ws.view();
        const bool et = d_config.early_termination;
        auto& active = ws.active;
        std::fill(active.begin(), active.end(), 0);
        size_t running = 0;
        const auto finish = [&](size_t l, unsigned iterations, unsigned syndrome) {
            ws.status[l].iterations = iterations;
            ws.status[l].syndrome_weight = syndrome;
            ws.status[l].converged = syndrome == 0;
            std::copy(ws.lane_hard.begin(), ws.lane_hard.end(), &ws.decided[l * n]);
        };
        kernel.decide_prior(d_graph, g);
        for (size_t l = 0; l < count; ++l) {
            const unsigned syndrome = lane_syndrome(ws, lanes, l);
            if ((et && syndrome == 0) || d_config.max_iterations == 0) {
                finish(l, 0, syndrome);
            } else {
                active[l] = 1;
                ++running;
            }
        }
        if (running == 0)
            return;
        kernel.start(d_graph, g);
        for (unsigned it = 1; it <= d_config.max_iterations && running > 0; ++it) {
            kernel.iterate(d_graph, g);
            for (size_t l = 0; l < count; ++l) {
                if (!active[l])
                    continue;
                const unsigned syndrome = lane_syndrome(ws, lanes, l);
                if ((et && syndrome == 0) || it == d_config.max_iterations) {
                    finish(l, it, syndrome);
                    active[l] = 0;
                    --running;
                }
            }
        }
    }

    // the decoder's kernel, and for calls of few frames a narrower one of
    // the same results, or the same again (narrower_kernel())
    std::array<fft_bp_kernel, 2> d_kernels;
    fft_bp_graph d_graph;
    std::vector<uint8_t> d_mul;
    std::vector<uint8_t> d_inv;
    // layered: the edges in the schedule's order (d_graph points here)
    std::vector<uint32_t> d_offsets, d_edge_variable;
    std::vector<uint32_t> d_variable_offsets, d_variable_edges;
    std::vector<uint8_t> d_coefficient;
    mutable std::mutex d_call_mutex;
    worker_pool d_pool;
    std::vector<int32_t> d_input_index; // -1: punctured
    std::vector<std::unique_ptr<group_workspace>> d_workspaces;
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
