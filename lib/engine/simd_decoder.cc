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
#include "simd_dispatch.h"
#include "simd_fft_bp.h"
#include "simd_min_sum.h"
#include "worker_pool.h"
#include <gnuradio/gpuldpc/engine/bits.h>
#include <type_traits>
#include <algorithm>
#include <array>
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

// 8-bit min-sum; every other rule the SIMD decoders run is float
bool eight_bit(const decoder_config& c)
{
    return c.algorithm == decoder_algorithm::min_sum &&
           c.messages == message_precision::int8;
}

// The 8-bit min-sum: 16-bit beliefs, 8-bit messages
struct fixed_flavour {
    using kernel = min_sum8_kernel;
    using value = int16_t;
    using message = int8_t;
    using group = min_sum8_group;
    static std::vector<kernel> kernels() { return min_sum8_kernels(); }
    static size_t scratch(uint32_t max_check_degree) { return max_check_degree; }
};

// The float rules: float beliefs and messages
struct float_flavour {
    using kernel = float_kernel;
    using value = float;
    using message = float;
    using group = float_group;
    static std::vector<kernel> kernels() { return float_kernels(); }
    static size_t scratch(uint32_t max_check_degree)
    {
        return 3 * (max_check_degree + 1);
    }
};

template <class Flavour>
struct group_workspace {
    group_workspace(const ldpc_code& code, size_t lanes, uint32_t max_check_degree)
        : prior(size_t(code.n()) * lanes),
          beliefs(prior.size()),
          decided(prior.size()),
          c2v(code.num_edges() * lanes),
          v2c(code.num_edges() * lanes),
          inputs(Flavour::scratch(max_check_degree) * lanes),
          iterations(lanes),
          syndrome(lanes),
          invalid(lanes)
    {
    }
    using value = typename Flavour::value;
    using message = typename Flavour::message;
    std::vector<value> prior, beliefs, decided;
    std::vector<message> c2v, v2c;
    std::vector<value> inputs;
    std::vector<uint32_t> iterations, syndrome, invalid;

    typename Flavour::group view()
    {
        typename Flavour::group g;
        g.prior = prior.data();
        g.beliefs = beliefs.data();
        g.decided = decided.data();
        g.c2v = c2v.data();
        g.v2c = v2c.data();
        g.inputs = inputs.data();
        g.iterations = iterations.data();
        g.syndrome = syndrome.data();
        return g;
    }
};

struct frame_input {
    const float* llr = nullptr;       // decode()
    const int8_t* llr8 = nullptr;     // decode_int8() of the 8-bit rule
    const float* symbol_ll = nullptr; // decode_symbol_llr() of a float rule
};

template <class Flavour>
class simd_decoder final : public batch_decoder
{
public:
    static constexpr bool fixed_point = std::is_same_v<Flavour, fixed_flavour>;
    using value = typename Flavour::value;

    simd_decoder(ldpc_code::sptr code,
                 const decoder_config& config,
                 const typename Flavour::kernel& kernel)
        : batch_decoder(code, config),
          d_kernels{ kernel,
                     narrower_kernel(Flavour::kernels(),
                                     kernel,
                                     d_config.algorithm !=
                                         decoder_algorithm::sum_product) },
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
        d_graph.scale = d_config.min_sum_scale;
        d_graph.offset = d_config.min_sum_offset;
        d_graph.sum_product = d_config.algorithm == decoder_algorithm::sum_product;
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
        return d_kernels[0].lanes * d_pool.max_workers();
    }
    size_t whole_round_batch(size_t frames) const override
    {
        return whole_round_frames(d_kernels, frames, d_pool.max_workers());
    }
    std::string kernel_variant() const override
    {
        std::string rule;
        if (!fixed_point)
            rule = d_graph.sum_product ? "float sum-product" : "float min-sum";
        else if (d_graph.magnitude == min_sum_magnitude_rule::three_smallest)
            rule = "8-bit min-sum (three smallest)";
        else if (d_graph.magnitude == min_sum_magnitude_rule::two_smallest)
            rule = "8-bit min-sum (two smallest)";
        else
            rule = "8-bit min-sum (smallest)";
        return rule + ", " + (d_graph.layered ? "layered" : "flooding") + ", " +
               d_kernels[0].target + ": " + std::to_string(d_kernels[0].lanes) +
               " frames a group in " + (fixed_point ? "16-bit" : "float") +
               " lanes, up to " + std::to_string(d_pool.max_workers()) + " threads" +
               narrower_note(d_kernels, d_pool.max_workers());
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
        if constexpr (fixed_point) {
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
        if constexpr (fixed_point) {
            decode_bit_pairs(symbol_ll, n_frames, info_bits, status, codeword_bits);
        } else {
            frame_input in;
            in.symbol_ll = symbol_ll;
            run(in, n_frames, info_bits, status, codeword_bits);
            fail_erased_frames(
                symbol_ll, size_t(d_code->n_transmitted()) * 2, n_frames, status);
        }
    }

private:
    std::unique_ptr<group_workspace<Flavour>> make_workspace() const
    {
        return std::make_unique<group_workspace<Flavour>>(
            *d_code, d_kernels[0].lanes, d_graph.max_check_degree);
    }

    void run(const frame_input& in,
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
        d_pool.run(groups, n_workers, [&](size_t group, size_t worker) {
            decode_group(kernel,
                         *d_workspaces[worker],
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
    void load_lane(group_workspace<Flavour>& ws,
                   size_t lanes,
                   const frame_input& in,
                   size_t frame,
                   size_t l) const
    {
        const ldpc_code& code = *d_code;
        const size_t nt = code.n_transmitted();
        const bool flip = d_config.flip_llr_sign;
        const float sign = flip ? 1.0f : -1.0f;
        uint32_t invalid = 0;
        value* prior = ws.prior.data() + l;
        for (unsigned v = 0; v < code.n(); ++v) {
            const int32_t t = d_input_index[v];
            value x = 0;
            if constexpr (fixed_point) {
                if (in.llr8) {
                    const int8_t y =
                        t < 0 ? 0 : d_rule.from_int8(in.llr8[frame * nt + t]);
                    x = flip ? y : int8_t(-y);
                } else if (t >= 0) {
                    float y = in.llr[frame * nt + t];
                    invalid += sanitize_input(y);
                    x = fixed_llr_domain::from_llr(sign * y, d_config.llr_scale);
                }
            } else if (t >= 0) {
                if (in.symbol_ll) { // log P(0) - log P(1)
                    float l0 = in.symbol_ll[(frame * nt + t) * 2];
                    float l1 = in.symbol_ll[(frame * nt + t) * 2 + 1];
                    invalid += sanitize_input(l0) + sanitize_input(l1);
                    x = l0 - l1;
                } else {
                    float y = in.llr[frame * nt + t];
                    invalid += sanitize_input(y);
                    x = sign * y;
                }
            }
            prior[size_t(v) * lanes] = x;
        }
        ws.invalid[l] = invalid;
    }

    void decode_group(const typename Flavour::kernel& kernel,
                      group_workspace<Flavour>& ws,
                      const frame_input& in,
                      size_t first,
                      size_t count,
                      uint8_t* info_bits,
                      frame_status* status,
                      uint8_t* codeword_bits) const
    {
        const ldpc_code& code = *d_code;
        const size_t lanes = kernel.lanes;
        for (size_t l = 0; l < lanes; ++l) {
            if (l < count) {
                load_lane(ws, lanes, in, first + l, l);
            } else { // all erasures: decided at once, and dropped
                for (unsigned v = 0; v < code.n(); ++v)
                    ws.prior[size_t(v) * lanes + l] = 0;
            }
        }
        const auto g = ws.view();
        kernel.decode(d_graph, g);

        const auto& info = code.info_positions();
        for (size_t l = 0; l < count; ++l) {
            const size_t frame = first + l;
            frame_status st{};
            st.iterations = ws.iterations[l];
            st.syndrome_weight = ws.syndrome[l];
            st.converged = ws.syndrome[l] == 0;
            st.invalid_inputs = ws.invalid[l];
            status[frame] = st;
            const value* decided = ws.decided.data() + l;
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

    // the decoder's kernel, and for calls of few frames a narrower one of
    // the same results, or the same again (narrower_kernel())
    std::array<typename Flavour::kernel, 2> d_kernels;
    fixed_point_min_sum_rule d_rule; // the 8-bit input's conversion
    simd_graph d_graph;
    mutable std::mutex d_call_mutex;
    worker_pool d_pool;
    std::vector<int32_t> d_input_index; // -1: punctured
    // layered: the edges in the schedule's order (d_graph points here)
    std::vector<uint32_t> d_layered_offsets, d_layered_edge_variable, d_identity_order;
    std::vector<std::unique_ptr<group_workspace<Flavour>>> d_workspaces;
};

} // namespace

std::string simd_refusal(const ldpc_code& code, const decoder_config& config)
{
    if (code.q() != 2) {
        // FFT-BP with the q values of a message in vectors
        if (config.algorithm != decoder_algorithm::fft_bp ||
            config.messages != message_precision::fp32)
            return "the SIMD decoders of GF(q) codes run fft-bp with fp32 messages";
        if (fft_bp_kernels().empty())
            return "no SIMD kernel in this build runs on this CPU";
        return std::string();
    }
    const bool fixed = eight_bit(config);
    if (config.algorithm == decoder_algorithm::sum_product) {
        // float sum-product, whatever the messages (the CPU's are float)
    } else if (config.algorithm != decoder_algorithm::min_sum) {
        return "the SIMD decoders run min-sum (8-bit or float) and sum-product";
    } else if (fixed &&
               (config.min_sum_magnitude == min_sum_magnitude_rule::two_smallest ||
                config.min_sum_magnitude == min_sum_magnitude_rule::three_smallest)) {
        // the kernels read the correction table with one byte shuffle, entry
        // min(x, 15): every entry from 15 on must be 0
        if (!(config.llr_scale > 0.0f && config.llr_scale <= 127.0f))
            return "llr_scale is out of range";
        const auto table = two_smallest_table(config.llr_scale);
        if (std::any_of(table.begin() + 15, table.end(), [](int8_t f) { return f != 0; }))
            return "the SIMD decoders combine two or three smallest magnitudes for "
                   "llr_scale up to about 6; this llr_scale is " +
                   std::to_string(config.llr_scale);
    } else if (config.min_sum_magnitude != min_sum_magnitude_rule::smallest) {
        return fixed ? "min_sum_magnitude is not resolved"
                     : "the float SIMD min-sum runs min_sum_magnitude smallest";
    }
    // the 8-bit kernels count iterations and edge positions in 16-bit lanes
    if (fixed && config.max_iterations > 32767)
        return "the 8-bit SIMD decoders run at most 32767 iterations";
    for (unsigned c = 0; c < code.m(); ++c)
        if (code.check_degree(c) > 32767)
            return "a check of more than 32767 edges";
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

namespace {

template <class Flavour>
batch_decoder::sptr
make_on(ldpc_code::sptr code, const decoder_config& config, const std::string& target)
{
    std::string names;
    for (const auto& k : Flavour::kernels()) {
        if (target.empty() || k.target == target)
            return std::make_shared<simd_decoder<Flavour>>(code, config, k);
        names += (names.empty() ? "" : ", ") + k.target;
    }
    throw std::invalid_argument("SIMD target '" + target +
                                "' has no kernel in this build for this CPU; allowed: " +
                                (names.empty() ? std::string("none") : names));
}

} // namespace

batch_decoder::sptr make_simd_decoder(ldpc_code::sptr code,
                                      const decoder_config& config,
                                      const std::string& target)
{
    if (code->q() != 2)
        return make_simd_fft_bp_decoder(code, config, target);
    if (eight_bit(config))
        return make_on<fixed_flavour>(code, config, target);
    return make_on<float_flavour>(code, config, target);
}

} // namespace detail
} // namespace gpuldpc
} // namespace gr
