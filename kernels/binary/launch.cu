/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// A launch of the binary decoder with its plan (launch_plan.cu): the grid
// for the batch, the status records cleared, the kernel launched.

#include "binary/ldpc_min_sum.h"
#include "binary/state_layout.h"
#include "common/cuda_check.h"
#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuldpc {
namespace kernels {

unsigned min_sum_launch_plan::blocks(size_t n_frames) const
{
    const size_t groups = (n_frames + frames - 1) / frames;
    switch (family) {
    case min_sum_family::on_chip:
        return unsigned(groups);
    case min_sum_family::split:
    case min_sum_family::quasi_cyclic:
        return unsigned(std::min<size_t>(groups, max_blocks));
    case min_sum_family::global:
        break;
    }
    // no more blocks than the work needs: a warp an item of each group
    constexpr size_t warps_a_block = binary::grid_threads / 32;
    const size_t warps_needed = groups * items;
    return unsigned(std::max<size_t>(
        1,
        std::min<size_t>(max_blocks,
                         (warps_needed + warps_a_block - 1) / warps_a_block)));
}

void launch_min_sum(const min_sum_launch_plan& plan,
                    const min_sum_params& p,
                    cudaStream_t stream)
{
    if (p.n_frames == 0)
        return;
    if (plan.needs_workspace && !p.workspace)
        throw std::invalid_argument("launch_min_sum: the global, split and "
                                    "quasi-cyclic variants need a workspace");
    if (p.n_frames > plan.max_frames)
        throw std::invalid_argument(
            "launch_min_sum: n_frames=" + std::to_string(p.n_frames) +
            " is too many for one launch of the global variant; allowed: up to " +
            std::to_string(plan.max_frames));
    // the kernel writes the status fields, not the struct's padding, which
    // the engine copies to the host with them
    GPULDPC_CUDA_CHECK(
        cudaMemsetAsync(p.status, 0, p.n_frames * sizeof(frame_status), stream));
    min_sum_params q = p;
    void* args[] = { &q };
    const dim3 grid(plan.blocks(p.n_frames)), block(plan.threads);
    if (plan.cooperative)
        GPULDPC_CUDA_CHECK(cudaLaunchCooperativeKernel(
            plan.kernel, grid, block, args, plan.shared_bytes, stream));
    else
        GPULDPC_CUDA_CHECK(
            cudaLaunchKernel(plan.kernel, grid, block, args, plan.shared_bytes, stream));
    GPULDPC_CUDA_CHECK_LAUNCH(plan.kernel_name);
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
