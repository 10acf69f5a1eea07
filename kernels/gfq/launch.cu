/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The FFT-BP launch plan: a variant checked and resolved once into its
// kernels (kernel_table.h), grids, blocks and shared memory; a launch fills in
// the frames' buffers and launches.

#include "common/cuda_check.h"
#include "gfq/kernel_table.h"
#include "gfq/ldpc_fft_bp.h"
#include "gfq/sizes.h"
#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuldpc {
namespace kernels {

namespace {

using namespace gfq;

constexpr unsigned max_grid_y = 65535, max_grid_x = 1u << 30;

void invalid(const char* why)
{
    throw std::invalid_argument(std::string("fft_bp_launch_plan: ") + why);
}

// Checks v against what fft_bp_choose gives for g.
void check_variant(const fft_bp_graph& g,
                   const fft_bp_variant& v,
                   bool layered,
                   bool half_messages)
{
    if (g.q < 2 || g.q > 256 || (g.q & (g.q - 1)) != 0 ||
        (1u << g.bits_per_symbol) != g.q)
        invalid("q must be a power of two, 2 .. 256");
    if (g.max_check_degree == 0)
        invalid("a graph without edges");
    if (v.family == fft_bp_family::edge_threads) {
        if (!g.edge_lanes || !g.edge_lane_terms || !g.variable_columns ||
            g.edge_chunks == 0 || (g.edge_group != 4 && g.edge_group != 8))
            invalid("the edge-thread family needs the graph's fft_bp_edge_layout");
        if (g.q == 128)
            invalid("the edge-thread family serves q = 2 .. 64 and 256, not 128");
        if (layered || !v.on_chip || v.threads != fft_bp_edge_threads(g) ||
            v.edge_slots != g.edge_group)
            invalid("variant not from fft_bp_choose");
        return;
    }
    if (v.family == fft_bp_family::check_parallel) {
        if (layered || v.on_chip || v.edge_slots || v.threads != block_threads)
            invalid("check_parallel is the global variant of flooding");
        return;
    }
    if (v.threads != frame_threads(v.family, g.q, v.edge_slots, half_messages) ||
        v.check_warps < 1 || v.check_warps > v.threads / 32)
        invalid("variant not from fft_bp_choose");
    if (v.family == fft_bp_family::tensor_cores && (layered || !v.on_chip))
        invalid("tensor cores serve flooding on chip only");
    if (layered && !v.runs && v.family == fft_bp_family::registers)
        invalid("registers need runs in the layered schedule");
    if (v.runs && !g.run_offsets)
        invalid("the variant needs run_offsets");
}

} // namespace

fft_bp_launch_plan::fft_bp_launch_plan(const fft_bp_graph& g,
                                       const fft_bp_variant& v,
                                       bool layered,
                                       bool half_messages)
    : d_family(v.family), d_message_bytes(half_messages ? 2 : sizeof(float))
{
    check_variant(g, v, layered, half_messages);
    // dynamic shared memory beyond 48 KiB with the kernel's static counters is
    // opted into, once: the attribute belongs to the function
    const bool large = v.shared_bytes + static_shared_bytes > 48 * 1024;
    auto make =
        [&](const void* function, unsigned blocks, size_t shared, const char* name) {
            if (!function)
                invalid("no kernel is built for this variant");
            kernel k;
            k.function = function;
            k.blocks = blocks;
            k.threads = block_threads;
            k.shared_bytes = shared;
            k.name = name;
            return k;
        };
    switch (v.family) {
    case fft_bp_family::check_parallel: {
        const check_parallel_kernels cp = check_parallel_kernels_of(g.q, half_messages);
        constexpr unsigned warps = block_threads / 32;
        // the variables kernel: 32 / variable_lanes(q) variables a warp
        const unsigned per_block = warps * (32 / variable_lanes(g.q));
        d_start = make(cp.start,
                       std::min((g.n + warps - 1) / warps, max_grid_x),
                       0,
                       "fft_bp_start_kernel");
        d_checks = make(cp.checks,
                        std::min(g.checks, max_grid_x),
                        v.shared_bytes,
                        "fft_bp_checks_kernel");
        d_variables = make(cp.variables,
                           std::min((g.n + per_block - 1) / per_block, max_grid_x),
                           0,
                           "fft_bp_variables_kernel");
        d_syndrome =
            make(cp.syndrome,
                 std::min((g.checks + block_threads - 1) / block_threads, max_grid_x),
                 0,
                 "fft_bp_syndrome_kernel");
        d_done = make(cp.iteration_done, 0, 0, "fft_bp_iteration_done_kernel");
        d_finish = make(cp.finish, 0, 0, "fft_bp_finish_kernel");
        if (large)
            allow_large_shared_memory(d_checks.function);
        return;
    }
    case fft_bp_family::edge_threads:
        d_frame = make(edge_kernel(g.q, g.edge_group, half_messages),
                       0,
                       v.shared_bytes,
                       "fft_bp_edges_kernel");
        break;
    default:
        d_frame =
            make(frame_kernel(v.family, g.q, v.edge_slots, half_messages, v.on_chip),
                 0,
                 v.shared_bytes,
                 "fft_bp_kernel");
        break;
    }
    d_frame.threads = v.threads;
    if (large)
        allow_large_shared_memory(d_frame.function);
}

void fft_bp_launch_plan::launch(const fft_bp_params& p, cudaStream_t stream) const
{
    if (p.n_frames > 0x7fffffffu)
        throw std::invalid_argument("fft_bp_launch_plan: too many frames for one launch");
    if (p.n_frames == 0)
        return;
    if (d_family == fft_bp_family::check_parallel)
        return launch_sequence(p, stream);
    if (!d_frame.function)
        throw std::logic_error("fft_bp_launch_plan: launch of an empty plan");
    // the kernel writes the status fields, not the struct's padding, which
    // the engine copies to the host with them
    GPULDPC_CUDA_CHECK(
        cudaMemsetAsync(p.status, 0, p.n_frames * sizeof(frame_status), stream));
    void* args[] = { const_cast<fft_bp_params*>(&p) };
    (void)cudaLaunchKernel(d_frame.function,
                           dim3(unsigned(p.n_frames)),
                           dim3(d_frame.threads),
                           args,
                           d_frame.shared_bytes,
                           stream);
    GPULDPC_CUDA_CHECK_LAUNCH(d_frame.name);
}

void fft_bp_launch_plan::launch_sequence(const fft_bp_params& p,
                                         cudaStream_t stream) const
{
    const fft_bp_graph& g = p.graph;
    const size_t total = p.n_frames;
    const size_t m = g.bits_per_symbol, nq = size_t(g.n) * g.q;
    const size_t in_per_frame = p.symbol_input ? nq : size_t(g.n) * m;
    auto run = [&](const kernel& k, dim3 grid, void** args) {
        (void)cudaLaunchKernel(
            k.function, grid, dim3(k.threads), args, k.shared_bytes, stream);
        GPULDPC_CUDA_CHECK_LAUNCH(k.name);
    };
    for (size_t f0 = 0; f0 < total; f0 += max_grid_y) {
        fft_bp_params c = p;
        c.n_frames = std::min<size_t>(max_grid_y, total - f0);
        c.input = p.input + f0 * in_per_frame;
        c.prior = p.prior + f0 * nq;
        c.app = p.app + f0 * nq;
        c.c2v = static_cast<char*>(p.c2v) + f0 * g.edges * g.q * d_message_bytes;
        c.hard = p.hard + f0 * g.n;
        c.info_bits = p.info_bits + f0 * fft_bp_info_bytes(p);
        c.codeword_bits =
            p.codeword_bits ? p.codeword_bits + f0 * size_t(g.n) * m : nullptr;
        c.status = p.status + f0;
        const unsigned frames = unsigned(c.n_frames);
        const unsigned frame_blocks = (frames + block_threads - 1) / block_threads;
        GPULDPC_CUDA_CHECK(
            cudaMemsetAsync(c.status, 0, frames * sizeof(frame_status), stream));
        void* params[] = { &c };
        run(d_start, dim3(d_start.blocks, frames), params);
        if (p.early_termination) {
            unsigned it = 0;
            bool stop = true;
            void* done[] = { &c, &it, &stop };
            run(d_syndrome, dim3(d_syndrome.blocks, frames), params);
            run(d_done, dim3(frame_blocks), done);
        }
        for (unsigned it = 1; it <= p.max_iterations; ++it) {
            run(d_checks, dim3(d_checks.blocks, frames), params);
            const bool last = it == p.max_iterations;
            bool decide = p.early_termination || last;
            void* variables[] = { &c, &decide };
            run(d_variables, dim3(d_variables.blocks, frames), variables);
            if (p.early_termination || last)
                run(d_syndrome, dim3(d_syndrome.blocks, frames), params);
            unsigned done_it = it;
            bool stop = p.early_termination;
            void* done[] = { &c, &done_it, &stop };
            run(d_done, dim3(frame_blocks), done);
        }
        run(d_finish, dim3(frames), params);
    }
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
