/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The global family: the whole grid of a cooperative launch decodes the
// batch, groups of 32 lanes (32 frames, or 64 in pairs) with their state in
// the workspace, every step spread over all blocks and a grid-wide barrier
// between steps.

#include "binary/decode.cuh"
#include "binary/families.h"
#include "binary/instances.cuh"
#include <type_traits>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace binary {

// Resident blocks of the grid kernel an SM. The 8-bit rule's checks read from
// the graph's arrays wait on their loads (ncu, 5G NR BG1: 61 % of the warps'
// cycles a frame a lane, 49 % in 16-bit pairs): three blocks hide more of
// that (40 registers, a few bytes spilled; H100: 1.15x a frame a lane, 1.04x
// host to host in 16-bit pairs, layered; their flooding, which the H100 keeps
// on chip, not measured). Compact records keep two: their registers hold a
// check's reads, and 40 would spill them. fp16 pair lanes (DVB-S2 9/10) were
// no faster at three, the float rules not measured. Turing holds 1024
// threads an SM: two.
template <typename A, check_records R>
__host__ __device__ constexpr unsigned grid_blocks_per_sm()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
    return 2;
#else
    return A::rule == binary_rule::fixed_min_sum && R == check_records::graph &&
                   (A::frames_per_lane == 1 || A::wide_pairs)
               ? 3
               : 2;
#endif
}

template <typename A, bool Layered, check_records R>
__global__ void __launch_bounds__(grid_threads, grid_blocks_per_sm<A, R>())
    min_sum_grid_kernel(const min_sum_params p)
{
    constexpr unsigned G = max_block_frames, F = G * A::frames_per_lane;
    const size_t groups = (p.n_frames + F - 1) / F;
    const size_t counters = align_up(groups * p.variant.state_bytes, 16);
    uint32_t* base = reinterpret_cast<uint32_t*>(p.workspace + counters);
    const uint32_t n = uint32_t(p.n_frames);
    decode<A, Layered, G, R>(p,
                             grid_team{},
                             p.workspace,
                             0,
                             n,
                             frame_counters{ base,
                                             base + n,
                                             base + 2 * n,
                                             base + 3 * n,
                                             reinterpret_cast<int*>(base + 4 * n) });
}

// Every arithmetic, in groups of 32 lanes.
struct global_family {
    template <typename A, bool Layered, unsigned G, check_records R>
    static const void* kernel()
    {
        if constexpr (G == max_block_frames)
            return reinterpret_cast<const void*>(&min_sum_grid_kernel<A, Layered, R>);
        else
            return nullptr;
    }
};

} // namespace binary

const void* min_sum_global_instance(const min_sum_kernel_key& key)
{
    return binary::instance_of<binary::global_family>(key);
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
