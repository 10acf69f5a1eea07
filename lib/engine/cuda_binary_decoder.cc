/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The binary decoder on the GPU (8-bit fixed-point min-sum, fp32 min-sum and
// sum-product): an adapter on the CUDA batch pipeline (cuda_batch_decoder.h).
// What is its own: the code's graph, layered runs and compact check records
// uploaded once, the variant chosen once (kernels/binary/plan.h) with its
// launch plan, a slot's workspace where the variant keeps state in device
// memory, and the launch of one chunk.

#include "binary/plan.h"
#include "cuda_decoders.h"
#include <gnuradio/gpuldpc/engine/device.h>
#include <stdexcept>

#ifdef GPULDPC_HAVE_CUDA
#include "binary/ldpc_min_sum.h"
#include "binary/state_layout.h"
#include "cuda_batch_decoder.h"
#include "cuda_resources.h"
#include "fixed_point_rule.h"
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>
#endif

namespace gr {
namespace gpuldpc {
namespace detail {

namespace {

enum class binary_refusal { none, not_binary, algorithm, magnitude, degree };

// Why the binary decoder does not run a configuration; \p bit: the first bit
// of too high a degree.
binary_refusal
refusal_of(const ldpc_code& code, const decoder_config& config, unsigned* bit = nullptr)
{
    if (code.q() != 2)
        return binary_refusal::not_binary;
    const bool min_sum = config.algorithm == decoder_algorithm::min_sum;
    const bool sum_product = config.algorithm == decoder_algorithm::sum_product;
    const bool int8 = config.messages == message_precision::int8;
    const bool fp32 = config.messages == message_precision::fp32;
    if (!((min_sum && (int8 || fp32)) || (sum_product && fp32)))
        return binary_refusal::algorithm;
    // three-smallest in the 8-bit rule only (a frame a lane)
    if (min_sum && config.min_sum_magnitude != min_sum_magnitude_rule::smallest &&
        !(int8 && config.min_sum_magnitude == min_sum_magnitude_rule::three_smallest))
        return binary_refusal::magnitude;
    if (!int8)
        return binary_refusal::none;
    for (unsigned v = 0; v < code.n(); ++v)
        if (code.variable_degree(v) > kernels::min_sum_max_fixed_degree) {
            if (bit)
                *bit = v;
            return binary_refusal::degree;
        }
    return binary_refusal::none;
}

} // namespace

bool cuda_binary_runs(const ldpc_code& code, const decoder_config& config)
{
    return refusal_of(code, config) == binary_refusal::none;
}

std::string cuda_binary_refusal(const ldpc_code& code, const decoder_config& config)
{
    unsigned bit = 0;
    switch (refusal_of(code, config, &bit)) {
    case binary_refusal::none:
        return "";
    case binary_refusal::not_binary:
        return "the CUDA binary decoder takes binary codes; this one is over GF(" +
               std::to_string(code.q()) + ")";
    case binary_refusal::algorithm:
        return "the CUDA binary decoder runs algorithm='min-sum' with messages='int8' "
               "or 'fp32', and algorithm='sum-product' with messages='fp32'";
    case binary_refusal::magnitude:
        return "the CUDA min-sum decoder runs min_sum_magnitude='smallest', and "
               "'three-smallest' with messages='int8'; the others run on the CPU "
               "(device='cpu' or 'auto')";
    case binary_refusal::degree:
        return "the CUDA min-sum decoder takes bits of degree up to " +
               std::to_string(kernels::min_sum_max_fixed_degree) + "; bit " +
               std::to_string(bit) + " has " + std::to_string(code.variable_degree(bit));
    }
    return "";
}

#ifdef GPULDPC_HAVE_CUDA

namespace {

kernels::binary_rule binary_rule_of(const decoder_config& c)
{
    if (c.messages == message_precision::int8)
        return c.min_sum_magnitude == min_sum_magnitude_rule::three_smallest
                   ? kernels::binary_rule::fixed_three_smallest
                   : kernels::binary_rule::fixed_min_sum;
    return c.algorithm == decoder_algorithm::min_sum
               ? kernels::binary_rule::float_min_sum
               : kernels::binary_rule::float_sum_product;
}

// Frames of one launch at most on chip (input and output buffers grow with it).
constexpr size_t max_on_chip_launch = 1 << 16;

// The tuning values the choice takes as they are, checked (from_environment
// checks the variables; a struct filled by hand is checked here).
void check_tuning(const gpu_tuning& t)
{
    if (t.lanes != 0 && (t.lanes > 32 || (t.lanes & (t.lanes - 1)) != 0))
        throw std::invalid_argument("gpu_tuning.lanes=" + std::to_string(t.lanes) +
                                    " is not usable; allowed: 0 (chosen), 1, 2, 4, 8, "
                                    "16 or 32");
    if (t.block_threads != 0 &&
        (t.block_threads < 32 || t.block_threads > 1024 || t.block_threads % 32 != 0))
        throw std::invalid_argument(
            "gpu_tuning.block_threads=" + std::to_string(t.block_threads) +
            " is not usable; allowed: 0 (chosen) or a multiple of 32 from 32 to 1024");
}

class cuda_binary_decoder final : public cuda_batch_decoder
{
public:
    cuda_binary_decoder(ldpc_code::sptr code, const decoder_config& config, int device)
        : cuda_batch_decoder(std::move(code), config, device)
    {
        const std::string refusal = cuda_binary_refusal(*d_code, d_config);
        if (!refusal.empty())
            throw std::invalid_argument(refusal);
        const gpu_tuning& tuning = d_config.gpu;
        check_tuning(tuning);
        cuda::scoped_device guard(this->device());
        upload_graph();
        if (layered())
            upload_runs();
        if (tuning.quasi_cyclic && layered() &&
            kernels::binary::is_fixed_point(binary_rule_of(d_config)))
            upload_quasi_cyclic();
        // Checks of up to 8 edges read the graph from compact records, two
        // loads a check (tuning.compact_checks off leaves them out, for
        // comparisons)
        if (tuning.compact_checks &&
            kernels::min_sum_compact_usable(
                d_graph.n, d_graph.max_check_degree, d_graph.edges))
            upload_compact_records();
        choose_variant(tuning);
        d_plan = kernels::min_sum_plan_launch(d_graph, d_variant, layered());
        // global: a step's checks a warp each (min_sum_global_batch)
        if (!d_variant.on_chip && !d_variant.quasi_cyclic)
            d_preferred_batch =
                std::min(max_launch(),
                         kernels::min_sum_global_batch(
                             d_graph, d_variant, layered(), d_plan.max_blocks));
        fill_params();
    }

    ~cuda_binary_decoder() override
    {
        // everything goes on the decoder's device, after its last launch
        finish_all();
        cuda::scoped_device guard(device(), std::nothrow);
        for (auto& s : d_state)
            s = {};
        d_check_offsets = {};
        d_edge_variable = {};
        d_variable_offsets = {};
        d_variable_edges = {};
        d_info_positions = {};
        d_input_index = {};
        d_run_checks = {};
        d_run_offsets = {};
        d_slot_edges = {};
        d_slot_variables = {};
        d_qc_row_offsets = {};
        d_qc_blocks = {};
        d_combine_table = {};
    }

    std::string kernel_variant() const override
    {
        return kernels::min_sum_describe(d_variant, d_graph.slot_edges != nullptr);
    }
    size_t preferred_batch() const override { return d_preferred_batch; }
    // On chip (split too), a call of whole waves runs at full speed. The grid
    // variant gains with more frames (more of a layer's checks in flight:
    // DVB-S2 9/10 on an H100 decodes 4.9 Gbit/s in calls of 1035 frames, 6.0
    // in calls of 4096), and where it is bound by its kernels (5G NR) the
    // decoder block lost with chunks of a preferred batch.
    size_t efficient_chunk() const override
    {
        return d_variant.on_chip || d_variant.quasi_cyclic ? d_preferred_batch : 0;
    }

protected:
    // The global and split variants' workspace; on chip the state is in
    // shared memory.
    void reserve_state(unsigned slot, size_t frames) override
    {
        d_state[slot] = {};
        if (d_plan.needs_workspace)
            d_state[slot] = cuda::device_buffer<uint8_t>(
                kernels::min_sum_workspace_bytes(d_variant, frames));
    }

    void launch(unsigned slot, const launch_io& io, cudaStream_t stream) override
    {
        kernels::min_sum_params p = d_params;
        p.n_frames = io.n_frames;
        p.llr =
            io.kind == input_kind::llr ? static_cast<const float*>(io.input) : nullptr;
        p.llr8 =
            io.kind == input_kind::llr8 ? static_cast<const int8_t*>(io.input) : nullptr;
        p.info_bits = io.info_bits;
        p.status = io.status;
        p.codeword_bits = io.codeword_bits;
        p.workspace = d_state[slot].data();
        kernels::launch_min_sum(d_plan, p, stream);
    }

    // 8-bit LLRs are read by the kernels; symbol log-likelihoods go through
    // batch_decoder's bit pairs.
    bool takes(input_kind kind) const override { return kind != input_kind::symbol_ll; }

private:
    bool layered() const { return d_config.schedule == decoder_schedule::layered; }

    void upload_graph()
    {
        const ldpc_code& c = *d_code;
        std::vector<int32_t> input_index(c.n(), -1);
        const auto& sent = c.transmitted_positions();
        for (size_t t = 0; t < sent.size(); ++t)
            input_index[sent[t]] = int32_t(t);
        d_check_offsets = cuda::upload(c.check_offsets());
        d_edge_variable = cuda::upload(c.edge_variable());
        d_variable_offsets = cuda::upload(c.variable_offsets());
        d_variable_edges = cuda::upload(c.variable_edges());
        d_info_positions = cuda::upload(c.info_positions());
        d_input_index = cuda::upload(input_index);

        auto& g = d_graph;
        g.n = c.n();
        g.checks = c.m();
        g.k = c.k();
        g.n_input = c.n_transmitted();
        g.edges = c.num_edges();
        for (unsigned v = 0; v < c.n(); ++v)
            g.max_variable_degree = std::max(g.max_variable_degree, c.variable_degree(v));
        for (unsigned ch = 0; ch < c.m(); ++ch)
            g.max_check_degree = std::max(g.max_check_degree, c.check_degree(ch));
        g.check_offsets = d_check_offsets.data();
        g.edge_variable = d_edge_variable.data();
        g.variable_offsets = d_variable_offsets.data();
        g.variable_edges = d_variable_edges.data();
        g.info_positions = d_info_positions.data();
        g.input_index = d_input_index.data();
    }

    // Runs of checks that share no bit: updated at once, the result of one
    // after another.
    void upload_runs()
    {
        const ldpc_code& c = *d_code;
        auto& g = d_graph;
        d_run_checks = cuda::upload(c.layered_check_order());
        d_run_offsets = cuda::upload(c.layered_runs());
        g.run_checks = d_run_checks.data();
        g.run_offsets = d_run_offsets.data();
        g.runs = unsigned(c.layered_runs().size() - 1);
        const auto& runs = c.layered_runs();
        for (size_t r = 0; r + 1 < runs.size(); ++r)
            g.longest_run = std::max(g.longest_run, runs[r + 1] - runs[r]);
    }

    // A quasi-cyclic code whose layered order is its row order: its base
    // matrix as the quasi-cyclic family reads it (the family takes the base
    // rows in order, which is then the CPU's order of the checks).
    void upload_quasi_cyclic()
    {
        const ldpc_code& c = *d_code;
        const auto& order = c.layered_check_order();
        for (size_t i = 0; i < order.size(); ++i)
            if (order[i] != i)
                return;
        // the code's own, or found in H (a code read from an alist file)
        const ldpc_code::base_matrix base = c.find_quasi_cyclic_base();
        if (base.z == 0 || size_t(base.rows) * base.z != c.m() ||
            size_t(base.cols) * base.z != c.n() || base.z > 0xffff || base.cols > 0xffff)
            return;
        std::vector<uint32_t> row_offsets, blocks;
        kernels::min_sum_qc_records(
            base.shifts.data(), base.rows, base.cols, base.z, row_offsets, blocks);
        unsigned degree = 0;
        for (unsigned i = 0; i < base.rows; ++i)
            degree = std::max(degree, row_offsets[i + 1] - row_offsets[i]);
        if (degree == 0 || degree > kernels::min_sum_qc_max_row_degree)
            return;
        // The three-smallest rule gives ties to a check's first edges: its
        // kernels read a row's blocks in column order, which is the CPU's
        // order of a check's edges where those are in increasing bit order
        // (else the family is not taken), and limit every belief
        const bool in_order =
            binary_rule_of(d_config) == kernels::binary_rule::fixed_three_smallest;
        if (in_order)
            for (unsigned ch = 0; ch < c.m(); ++ch)
                for (uint32_t e = c.check_offsets()[ch] + 1;
                     e < c.check_offsets()[ch + 1];
                     ++e)
                    if (c.edge_variable()[e] <= c.edge_variable()[e - 1])
                        return;
        // columns whose beliefs may reach the 8-bit rule's limit first in
        // each row: the kernels with checks unrolled by row degree limit a
        // row's first positions only
        const unsigned limited = in_order
                                     ? 0u
                                     : kernels::min_sum_qc_limited_first(
                                           row_offsets.data(), blocks.data(), base.rows);
        d_qc_row_offsets = cuda::upload(row_offsets);
        d_qc_blocks = cuda::upload(blocks);
        auto& g = d_graph;
        g.qc_z = base.z;
        g.qc_rows = base.rows;
        g.qc_entries = unsigned(blocks.size());
        g.qc_max_row_degree = degree;
        g.qc_row_offsets = d_qc_row_offsets.data();
        g.qc_blocks = d_qc_blocks.data();
        g.qc_profile =
            kernels::min_sum_qc_profile_of(row_offsets.data(), base.rows, limited);
        g.qc_sync_rows = g.qc_profile != 0
                             ? kernels::min_sum_qc_sync_rows(
                                   row_offsets.data(), blocks.data(), base.rows)
                             : 0;
    }

    // The checks' compact records in the schedule's order.
    void upload_compact_records()
    {
        const ldpc_code& c = *d_code;
        std::vector<uint32_t> order(c.m());
        if (layered())
            order = c.layered_check_order();
        else
            std::iota(order.begin(), order.end(), 0u);
        std::vector<uint32_t> slot_edges;
        std::vector<uint16_t> slot_variables;
        kernels::min_sum_compact_checks(c.check_offsets().data(),
                                        c.edge_variable().data(),
                                        order.data(),
                                        order.size(),
                                        c.n(),
                                        slot_edges,
                                        slot_variables);
        d_slot_edges = cuda::upload(slot_edges);
        d_slot_variables = cuda::upload(slot_variables);
        d_graph.slot_edges = d_slot_edges.data();
        // whole records at the start of a device allocation: 16-byte aligned
        d_graph.slot_variables =
            reinterpret_cast<const kernels::min_sum_record*>(d_slot_variables.data());
    }

    // The variant for this code on this device (tuning's choices applied),
    // and the frames of a launch; on chip, the batch that fills the device.
    void choose_variant(const gpu_tuning& tuning)
    {
        const cudaDeviceProp& prop = properties();
        const auto& g = d_graph;
        kernels::min_sum_choice choice;
        // The 8-bit rule two frames a lane in fp16 pairs, where exact: an
        // instruction for two frames, the same bytes a frame. On chip (n =
        // 1944, H100) 1.4x one frame a lane with the block's threads filling
        // the SM; in the global variant a third less time (DVB-S2).
        choice.pairs = tuning.pairs;
        // Where fp16 pairs are not taken (bits of degree above 14), 16-bit
        // integer pairs in the global variant, on devices whose s16x2
        // instructions are native (compute capability 9.0 and later;
        // elsewhere unmeasured): two frames a lane halve the requests of a
        // check's reads, which bound that kernel (5G NR BG1).
        choice.wide_pairs = prop.major >= 9 && tuning.wide_pairs;
        // Check messages compressed (a word a frame a check) where the code
        // allows it, in the global variant: DVB-S2 rate 1/2 layered 1.12x
        // (64800 bits) and 1.15x (16200), H100. On chip the making again of
        // the messages costs more than the bytes save (n = 1944 layered
        // 0.90x), so that is for comparisons only.
        choice.compressed = tuning.compressed;
        choice.compressed_on_chip = tuning.compressed_on_chip;
        choice.on_chip = tuning.on_chip;
        choice.split = tuning.split;
        choice.quasi_cyclic = tuning.quasi_cyclic;
        choice.quasi_cyclic_first = tuning.quasi_cyclic_first;
        // its kernels are compiled for sm_90 on, where the pairs are native
        choice.quasi_cyclic_unrolled = tuning.quasi_cyclic_unrolled &&
                                       choice.wide_pairs &&
                                       kernels::min_sum_qc_unrolled_built();
        choice.quasi_cyclic_half = tuning.quasi_cyclic_half;
        // the three-smallest rule in fp16 pairs where its table of f is three
        // steps or fewer (llr_scale 4 and below)
        {
            const auto f = two_smallest_table(d_config.llr_scale);
            uint16_t steps[3];
            choice.three_smallest_pairs =
                kernels::min_sum_three_smallest_steps(f.data(), f.size(), steps);
        }
        choice.quasi_cyclic_compact = tuning.quasi_cyclic_compact;
        choice.quasi_cyclic_strided = tuning.quasi_cyclic_strided;
        choice.l2_bytes = size_t(std::max(prop.l2CacheSize, 0));
        choice.lanes = tuning.lanes;
        choice.shared_limit = cuda_shared_memory_limit(device(), tuning);
        // an SM's shared memory as the limit allows (a capped limit stands
        // for a smaller card)
        choice.sm.shared_bytes =
            std::min<size_t>(prop.sharedMemPerMultiprocessor,
                             choice.shared_limit + prop.reservedSharedMemPerBlock);
        choice.sm.reserved_per_block = prop.reservedSharedMemPerBlock;
        choice.sm.threads = unsigned(prop.maxThreadsPerMultiProcessor);
        choice.sm.registers = unsigned(prop.regsPerMultiprocessor);
        choice.sm.blocks = unsigned(prop.maxBlocksPerMultiProcessor);
        choice.sms = unsigned(prop.multiProcessorCount);
        // whether a variant reads compact records in full (the split and
        // global variants do, as the kernels they launch)
        const auto full_records_of = [&](const kernels::min_sum_variant& v) {
            return g.slot_edges != nullptr &&
                   kernels::min_sum_full_records(
                       g.checks, g.edges, layered(), v.on_chip && !v.split);
        };
        // the registers of the kernel a variant launches
        choice.registers = [&](const kernels::min_sum_variant& v) {
            kernels::min_sum_graph records = g;
            records.full_records = full_records_of(v);
            return kernels::min_sum_block_registers(v, records, layered());
        };
        d_variant =
            kernels::min_sum_choose(g, layered(), binary_rule_of(d_config), choice);
        d_graph.full_records = full_records_of(d_variant);
        if (tuning.block_threads != 0) {
            // on chip (the quasi-cyclic family's are a lane a check)
            if (d_variant.on_chip)
                d_variant.threads = tuning.block_threads;
            if (d_variant.split)
                d_variant.blocks =
                    unsigned(std::max<size_t>(
                                 1,
                                 kernels::min_sum_blocks_per_sm(
                                     d_variant, choice.sm, choice.registers(d_variant))) *
                             choice.sms);
        }
        // split and quasi-cyclic: blocks a launch at most (each then takes
        // groups in turn)
        if (tuning.split_blocks != 0 && (d_variant.split || d_variant.quasi_cyclic))
            d_variant.blocks = std::min(tuning.split_blocks, d_variant.blocks);
        // on chip: a batch that fills every SM twice over with the blocks an
        // SM holds; quasi-cyclic: every block a group twice
        if (d_variant.quasi_cyclic) {
            d_preferred_batch = 2 * size_t(d_variant.blocks) * d_variant.frames;
            set_max_launch(max_on_chip_launch);
        } else if (d_variant.on_chip) {
            const size_t per_sm = kernels::min_sum_blocks_per_sm(
                d_variant, choice.sm, choice.registers(d_variant));
            d_preferred_batch = 2 * std::max<size_t>(per_sm, 1) *
                                size_t(prop.multiProcessorCount) * d_variant.frames;
            set_max_launch(max_on_chip_launch);
        } else {
            const size_t groups =
                std::max<size_t>(1,
                                 cuda::launch_workspace_bytes(prop.totalGlobalMem) /
                                     d_variant.state_bytes);
            set_max_launch(std::min(groups * d_variant.frames,
                                    kernels::min_sum_max_global_frames(g)));
        }
    }

    // What every launch passes besides its chunk's buffers.
    void fill_params()
    {
        const fixed_point_constants k = fixed_point_constants_of(d_config);
        kernels::min_sum_params& p = d_params;
        p.graph = d_graph;
        p.variant = d_variant;
        p.flip_llr_sign = d_config.flip_llr_sign;
        p.llr_scale = d_config.llr_scale;
        p.scale_q = k.scale_q;
        p.offset_q = k.offset_q;
        // the CPU reference's table of the combined magnitudes
        if (d_variant.rule == kernels::binary_rule::fixed_three_smallest) {
            const auto f = two_smallest_table(d_config.llr_scale);
            d_combine_table = cuda::upload(std::vector<int8_t>(f.begin(), f.end()));
            p.combine_table = d_combine_table.data();
            uint16_t steps[3] = { 0, 0, 0 };
            kernels::min_sum_three_smallest_steps(f.data(), f.size(), steps);
            std::copy(steps, steps + 3, p.combine_steps);
        }
        p.min_sum_scale = d_config.min_sum_scale;
        p.min_sum_offset = d_config.min_sum_offset;
        p.int8_step = k.int8_step;
        p.int8_limit = k.int8_limit;
        p.int8_clip = k.int8_clip;
        p.max_iterations = d_config.max_iterations;
        p.early_termination = d_config.early_termination;
        p.layered = layered();
        p.pack_info_bits = d_config.pack_info_bits;
    }

    cuda::device_buffer<uint32_t> d_check_offsets, d_edge_variable, d_variable_offsets,
        d_variable_edges, d_info_positions, d_run_checks, d_run_offsets, d_slot_edges,
        d_qc_row_offsets, d_qc_blocks;
    cuda::device_buffer<uint16_t> d_slot_variables;
    cuda::device_buffer<int32_t> d_input_index;
    cuda::device_buffer<int8_t> d_combine_table;
    kernels::min_sum_graph d_graph{};
    kernels::min_sum_variant d_variant{};
    kernels::min_sum_launch_plan d_plan{};
    kernels::min_sum_params d_params{};
    size_t d_preferred_batch = 0;
    // a slot's workspace (the global and split variants)
    cuda::device_buffer<uint8_t> d_state[max_outstanding];
};

} // namespace

batch_decoder::sptr
make_cuda_binary_decoder(ldpc_code::sptr code, const decoder_config& config, int device)
{
    return std::make_shared<cuda_binary_decoder>(std::move(code), config, device);
}

#else

batch_decoder::sptr make_cuda_binary_decoder(ldpc_code::sptr, const decoder_config&, int)
{
    throw std::runtime_error("this build has no CUDA backend");
}

#endif

} // namespace detail
} // namespace gpuldpc
} // namespace gr
