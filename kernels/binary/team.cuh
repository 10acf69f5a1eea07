/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_BINARY_TEAM_CUH
#define INCLUDED_GPULDPC_KERNELS_BINARY_TEAM_CUH

// Who decodes a set of groups and where their state is: a group's state
// pointers (state_layout.h gives the offsets), the per-frame counters, the
// teams (a thread block, or the whole grid of a cooperative launch), and how
// a team shares out the items of a step.

#include "binary/state_layout.h"
#include <cooperative_groups.h>
#include <cstdint>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace binary {

// The state of a group (state_layout.h): its beliefs (layered, updated a
// check at a time by the check's new message less its previous one:
// input_of), its check messages and (flooding) its channel values. Hard
// decisions are belief < 0.
template <typename A>
struct group_state {
    typename A::belief_t* belief;
    typename A::message_t* c2v;
    typename A::channel_t* channel;
};

// The state of the group at \p base; split: the beliefs at \p base, the rest
// (from c2v on) at \p messages, which null leaves at \p base.
template <typename A>
__device__ inline group_state<A>
state_at(const state_layout& l, uint8_t* base, uint8_t* messages)
{
    if (!messages)
        return group_state<A>{ reinterpret_cast<typename A::belief_t*>(base + l.belief),
                               reinterpret_cast<typename A::message_t*>(base + l.c2v),
                               reinterpret_cast<typename A::channel_t*>(base +
                                                                        l.channel) };
    return group_state<A>{ reinterpret_cast<typename A::belief_t*>(base + l.belief),
                           reinterpret_cast<typename A::message_t*>(messages),
                           reinterpret_cast<typename A::channel_t*>(
                               messages + (l.channel - l.c2v)) };
}

// Per-frame bookkeeping of a team's frames (shared memory for a block,
// global memory for a grid), indexed by the frame's place in the team.
struct frame_counters {
    uint32_t* syndrome;
    uint32_t* invalid;
    uint32_t* iterations;
    uint32_t* done;
    int* active; // frames not done
};

// The threads that decode a set of groups together and synchronise between
// steps: a thread block (its one group, state in shared memory) or the whole
// grid of a cooperative launch (all groups, state in global memory).
// Indices within a team are 32-bit (min_sum_max_global_frames).
struct block_team {
    static constexpr bool single_group = true;
    __device__ uint32_t thread() const { return threadIdx.x; }
    __device__ uint32_t threads() const { return blockDim.x; }
    __device__ uint32_t warp() const { return threadIdx.x >> 5; }
    __device__ uint32_t warps() const { return blockDim.x >> 5; }
    __device__ void sync() const { __syncthreads(); }
};

struct grid_team {
    static constexpr bool single_group = false;
    __device__ uint32_t thread() const { return blockIdx.x * blockDim.x + threadIdx.x; }
    __device__ uint32_t threads() const { return gridDim.x * blockDim.x; }
    __device__ uint32_t warp() const { return thread() >> 5; }
    __device__ uint32_t warps() const { return threads() >> 5; }
    __device__ void sync() const { cooperative_groups::this_grid().sync(); }
};

// Runs body(group, item, lane_frame) for every item < items of every group of
// the team, G lanes (one a frame) an item, 32 / G items a warp at once. The
// warps take the tasks in turn, or (Contiguous) each one contiguous share of
// them (the grid: a warp stays with a group for many items, so that what it
// counts for the group's frames is added once, not an atomic add an item).
template <unsigned G, bool Contiguous = false, typename Team, typename Body>
__device__ __forceinline__ void
for_each_item(const Team& team, uint32_t groups, uint32_t items, Body&& body)
{
    constexpr unsigned per_warp = 32 / G;
    const unsigned lane = threadIdx.x & 31, f = lane & (G - 1), sub = lane / G;
    const uint32_t chunks = (items + per_warp - 1) / per_warp;
    const uint32_t tasks = Team::single_group ? chunks : groups * chunks;
    auto task = [&](uint32_t t) {
        const uint32_t g = Team::single_group ? 0 : t / chunks;
        const uint32_t item = (t - g * chunks) * per_warp + sub;
        if (item < items)
            body(g, item, f);
    };
    if constexpr (Contiguous) {
        const uint32_t share = (tasks + team.warps() - 1) / team.warps();
        const uint32_t t0 = uint32_t(min(uint64_t(tasks), uint64_t(team.warp()) * share));
        const uint32_t t1 = uint32_t(min(uint64_t(tasks), uint64_t(t0) + share));
        for (uint32_t t = t0; t < t1; ++t)
            task(t);
    } else {
        for (uint32_t t = team.warp(); t < tasks; t += team.warps())
            task(t);
    }
}

} // namespace binary
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_BINARY_TEAM_CUH */
