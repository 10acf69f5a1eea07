/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// batch_decoder on the SIMD kernels (simd_min_sum.h): a call's frames go in
// groups of lanes() frames to the decoder's threads, each with its own
// workspace; channel values are converted as the reference converts them
// (check_rules.h), so that equal integers go in.

#include "check_rules.h"
#include "simd_decoder.h"
#include "simd_min_sum.h"
#include "worker_pool.h"
#include <gnuradio/gpuldpc/engine/bits.h>
#include <algorithm>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace gr {
namespace gpuldpc {
namespace detail {

namespace {

// flooding beliefs: 127 (1 + degree) within int16
constexpr unsigned max_simd_variable_degree = 256;

struct group_workspace {
    group_workspace(const ldpc_code& code, size_t lanes, uint32_t max_check_degree)
        : prior(size_t(code.n()) * lanes),
          beliefs(prior.size()),
          decided(prior.size()),
          c2v(code.num_edges() * lanes),
          v2c(code.num_edges() * lanes),
          inputs(size_t(max_check_degree) * lanes),
          iterations(lanes),
          syndrome(lanes),
          invalid(lanes)
    {
    }
    std::vector<int16_t> prior, beliefs, decided;
    std::vector<int8_t> c2v, v2c;
    std::vector<int16_t> inputs;
    std::vector<uint32_t> iterations, syndrome, invalid;
};

struct frame_input {
    const float* llr = nullptr;   // decode()
    const int8_t* llr8 = nullptr; // decode_int8()
};

class simd_min_sum_decoder final : public batch_decoder
{
public:
    simd_min_sum_decoder(ldpc_code::sptr code,
                         const decoder_config& config,
                         const min_sum8_kernel& kernel)
        : batch_decoder(code, config),
          d_kernel(kernel),
          d_rule(code->field(), 0, d_config),
          d_pool(std::max(
              1u, config.threads ? config.threads : std::thread::hardware_concurrency()))
    {
        const ldpc_code& c = *d_code;
        const fixed_point_constants k = fixed_point_constants_of(d_config);
        d_graph.n = c.n();
        d_graph.m = c.m();
        d_graph.check_offsets = c.check_offsets().data();
        d_graph.edge_variable = c.edge_variable().data();
        d_graph.check_order = c.layered_check_order().data();
        d_graph.variable_offsets = c.variable_offsets().data();
        d_graph.variable_edges = c.variable_edges().data();
        if (d_config.schedule == decoder_schedule::layered) {
            // the checks' edges stored in the schedule's order, so that an
            // iteration streams through the messages (a coloured order, as
            // DVB-S2's, jumps about in the code's)
            const auto& order = c.layered_check_order();
            d_layered_offsets.assign(1, 0);
            for (const uint32_t check : order) {
                for (uint32_t e = c.check_offsets()[check];
                     e < c.check_offsets()[check + 1];
                     ++e)
                    d_layered_edge_variable.push_back(c.edge_variable()[e]);
                d_layered_offsets.push_back(uint32_t(d_layered_edge_variable.size()));
            }
            d_identity_order.resize(c.m());
            for (uint32_t i = 0; i < c.m(); ++i)
                d_identity_order[i] = i;
            d_graph.check_offsets = d_layered_offsets.data();
            d_graph.edge_variable = d_layered_edge_variable.data();
            d_graph.check_order = d_identity_order.data();
        }
        for (unsigned i = 0; i < c.m(); ++i)
            d_graph.max_check_degree =
                std::max(d_graph.max_check_degree, c.check_degree(i));
        d_graph.offset_q = int16_t(k.offset_q);
        d_graph.scale_q = int16_t(k.scale_q);
        d_graph.magnitude = d_config.min_sum_magnitude;
        const auto table = two_smallest_table(d_config.llr_scale);
        std::copy_n(table.begin(), 16, d_graph.table);
        d_graph.layered = d_config.schedule == decoder_schedule::layered;
        d_graph.early_termination = d_config.early_termination;
        d_graph.max_iterations = d_config.max_iterations;
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
        return d_kernel.lanes * d_pool.max_workers();
    }
    std::string kernel_variant() const override
    {
        const char* rule =
            d_graph.magnitude == min_sum_magnitude_rule::three_smallest ? "three smallest"
            : d_graph.magnitude == min_sum_magnitude_rule::two_smallest ? "two smallest"
                                                                        : "smallest";
        return std::string("8-bit min-sum (") + rule + "), " +
               (d_graph.layered ? "layered" : "flooding") + ", " + d_kernel.target +
               ": " + std::to_string(d_kernel.lanes) +
               " frames a group in 16-bit lanes, up to " +
               std::to_string(d_pool.max_workers()) + " threads";
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
        frame_input in;
        in.llr8 = llr;
        run(in, n_frames, info_bits, status, codeword_bits);
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
    std::unique_ptr<group_workspace> make_workspace() const
    {
        return std::make_unique<group_workspace>(
            *d_code, d_kernel.lanes, d_graph.max_check_degree);
    }

    void run(const frame_input& in,
             size_t n_frames,
             uint8_t* info_bits,
             frame_status* status,
             uint8_t* codeword_bits)
    {
        std::lock_guard<std::mutex> lock(d_call_mutex);
        const size_t lanes = d_kernel.lanes;
        const size_t groups = (n_frames + lanes - 1) / lanes;
        const size_t n_workers = std::min(d_pool.max_workers(), groups);
        while (d_workspaces.size() < n_workers)
            d_workspaces.push_back(make_workspace());
        d_pool.run(groups, n_workers, [&](size_t group, size_t worker) {
            decode_group(*d_workspaces[worker],
                         in,
                         group * lanes,
                         std::min(lanes, n_frames - group * lanes),
                         info_bits,
                         status,
                         codeword_bits);
        });
    }

    // frame's channel values into lane l of the workspace, as the reference's
    // load_prior() makes them
    void
    load_lane(group_workspace& ws, const frame_input& in, size_t frame, size_t l) const
    {
        const ldpc_code& code = *d_code;
        const size_t lanes = d_kernel.lanes, nt = code.n_transmitted();
        const bool flip = d_config.flip_llr_sign;
        uint32_t invalid = 0;
        int16_t* prior = ws.prior.data() + l;
        if (in.llr8) {
            const int8_t* llr = in.llr8 + frame * nt;
            for (unsigned v = 0; v < code.n(); ++v) {
                const int32_t t = d_input_index[v];
                const int8_t x = t < 0 ? 0 : d_rule.from_int8(llr[t]);
                prior[size_t(v) * lanes] = flip ? x : int8_t(-x);
            }
        } else {
            const float sign = flip ? 1.0f : -1.0f;
            const float* llr = in.llr + frame * nt;
            for (unsigned v = 0; v < code.n(); ++v) {
                const int32_t t = d_input_index[v];
                int8_t x = 0;
                if (t >= 0) {
                    float value = llr[t];
                    invalid += sanitize_input(value);
                    x = fixed_llr_domain::from_llr(sign * value, d_config.llr_scale);
                }
                prior[size_t(v) * lanes] = x;
            }
        }
        ws.invalid[l] = invalid;
    }

    void decode_group(group_workspace& ws,
                      const frame_input& in,
                      size_t first,
                      size_t count,
                      uint8_t* info_bits,
                      frame_status* status,
                      uint8_t* codeword_bits) const
    {
        const ldpc_code& code = *d_code;
        const size_t lanes = d_kernel.lanes;
        for (size_t l = 0; l < lanes; ++l) {
            if (l < count) {
                load_lane(ws, in, first + l, l);
            } else { // all erasures: decided at once, and dropped
                for (unsigned v = 0; v < code.n(); ++v)
                    ws.prior[size_t(v) * lanes + l] = 0;
            }
        }
        min_sum8_group g;
        g.prior = ws.prior.data();
        g.beliefs = ws.beliefs.data();
        g.decided = ws.decided.data();
        g.c2v = ws.c2v.data();
        g.v2c = ws.v2c.data();
        g.inputs = ws.inputs.data();
        g.iterations = ws.iterations.data();
        g.syndrome = ws.syndrome.data();
        d_kernel.decode(d_graph, g);

        const auto& info = code.info_positions();
        for (size_t l = 0; l < count; ++l) {
            const size_t frame = first + l;
            frame_status st{};
            st.iterations = ws.iterations[l];
            st.syndrome_weight = ws.syndrome[l];
            st.converged = ws.syndrome[l] == 0;
            st.invalid_inputs = ws.invalid[l];
            status[frame] = st;
            const int16_t* decided = ws.decided.data() + l;
            write_bits(info.size(),
                       d_config.pack_info_bits,
                       info_bits + frame * info_bytes_per_frame(),
                       [&](size_t t) { return decided[size_t(info[t]) * lanes] < 0; });
            if (codeword_bits) {
                uint8_t* cw = codeword_bits + frame * size_t(code.n());
                for (unsigned v = 0; v < code.n(); ++v)
                    cw[v] = decided[size_t(v) * lanes] < 0;
            }
        }
    }

    min_sum8_kernel d_kernel;
    fixed_point_min_sum_rule d_rule; // the 8-bit input's conversion
    simd_graph d_graph;
    mutable std::mutex d_call_mutex;
    worker_pool d_pool;
    std::vector<int32_t> d_input_index; // -1: punctured
    // layered: the edges in the schedule's order (d_graph points here)
    std::vector<uint32_t> d_layered_offsets, d_layered_edge_variable, d_identity_order;
    std::vector<std::unique_ptr<group_workspace>> d_workspaces;
};

} // namespace

std::string simd_refusal(const ldpc_code& code, const decoder_config& config)
{
    if (code.q() != 2)
        return "the SIMD decoders take binary codes; this code is over GF(" +
               std::to_string(code.q()) + ")";
    if (config.algorithm != decoder_algorithm::min_sum ||
        config.messages != message_precision::int8)
        return "the SIMD decoders run 8-bit min-sum (algorithm min-sum, messages "
               "int8)";
    if (config.min_sum_magnitude == min_sum_magnitude_rule::two_smallest ||
        config.min_sum_magnitude == min_sum_magnitude_rule::three_smallest) {
        // the kernels read the correction table with one byte shuffle
        const auto table = two_smallest_table(config.llr_scale);
        if (std::any_of(table.begin() + 16, table.end(), [](int8_t f) { return f != 0; }))
            return "the SIMD decoders combine two or three smallest magnitudes for "
                   "llr_scale up to about 7; this llr_scale is " +
                   std::to_string(config.llr_scale);
    } else if (config.min_sum_magnitude != min_sum_magnitude_rule::smallest) {
        return "min_sum_magnitude is not resolved";
    }
    for (unsigned v = 0; v < code.n(); ++v)
        if (code.variable_degree(v) > max_simd_variable_degree)
            return "a variable of more than " + std::to_string(max_simd_variable_degree) +
                   " edges";
    if (min_sum8_kernels().empty())
        return "no SIMD kernel in this build runs on this CPU";
    return std::string();
}

std::vector<std::string> simd_targets()
{
    std::vector<std::string> out;
    for (const auto& k : min_sum8_kernels())
        out.push_back(k.target);
    return out;
}

batch_decoder::sptr make_simd_decoder(ldpc_code::sptr code,
                                      const decoder_config& config,
                                      const std::string& target)
{
    const auto kernels = min_sum8_kernels();
    std::string names;
    for (const auto& k : kernels) {
        if (target.empty() || k.target == target)
            return std::make_shared<simd_min_sum_decoder>(code, config, k);
        names += (names.empty() ? "" : ", ") + k.target;
    }
    throw std::invalid_argument("SIMD target '" + target +
                                "' has no kernel in this build for this CPU; allowed: " +
                                (names.empty() ? std::string("none") : names));
}

} // namespace detail
} // namespace gpuldpc
} // namespace gr
