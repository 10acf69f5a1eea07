/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The launch plan of a variant, made once at a decoder's construction: what
// needs the kernels themselves (their host stubs, attributes and occupancy)
// and so is not in the host-side planning (lib/engine/plan/binary_plan.cc).

#include "binary/families.h"
#include "binary/ldpc_min_sum.h"
#include "binary/state_layout.h"
#include "common/cuda_check.h"
#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpuldpc {
namespace kernels {

namespace {

// The host stub of \p key's kernel in its family's file.
const void* instance(const min_sum_kernel_key& key)
{
    const void* kernel = nullptr;
    switch (key.family) {
    case min_sum_family::on_chip:
        kernel = min_sum_on_chip_instance(key);
        break;
    case min_sum_family::split:
        kernel = min_sum_split_instance(key);
        break;
    case min_sum_family::global:
        kernel = min_sum_global_instance(key);
        break;
    case min_sum_family::quasi_cyclic:
        kernel = min_sum_quasi_cyclic_instance(key);
        break;
    }
    if (!kernel)
        throw std::invalid_argument(
            "min_sum_plan_launch: no kernel of this family takes this arithmetic, "
            "schedule, check records and group (min_sum_kernel_of)");
    return kernel;
}

} // namespace

min_sum_launch_plan
min_sum_plan_launch(const min_sum_graph& g, const min_sum_variant& v, bool layered)
{
    min_sum_check_variant(g, v, layered);
    const min_sum_kernel_key key = min_sum_kernel_of(g, v, layered);
    min_sum_launch_plan plan{};
    plan.family = key.family;
    plan.kernel = instance(key);
    plan.threads = v.threads;
    plan.frames = v.frames;
    plan.max_frames = SIZE_MAX;
    switch (key.family) {
    case min_sum_family::on_chip:
    case min_sum_family::split:
        plan.kernel_name = key.family == min_sum_family::split ? "min_sum_split_kernel"
                                                               : "min_sum_block_kernel";
        plan.shared_bytes = v.shared_bytes;
        plan.max_blocks = key.family == min_sum_family::split ? v.blocks : 0;
        plan.needs_workspace = key.family == min_sum_family::split;
        // beyond 48 KiB with the static counters, dynamic shared memory is
        // opted into
        if (v.shared_bytes + binary::counter_bytes(v.frames) > 48 * 1024)
            allow_large_shared_memory(plan.kernel);
        break;
    case min_sum_family::quasi_cyclic:
        plan.kernel_name = key.qc_profile != 0 ? "min_sum_quasi_cyclic_unrolled_kernel"
                                               : "min_sum_quasi_cyclic_kernel";
        plan.shared_bytes = v.shared_bytes;
        plan.max_blocks = v.blocks;
        plan.needs_workspace = true;
        if (v.shared_bytes + binary::counter_bytes(v.frames) > 48 * 1024)
            allow_large_shared_memory(plan.kernel);
        break;
    case min_sum_family::global: {
        plan.kernel_name = "min_sum_grid_kernel";
        plan.cooperative = true;
        plan.needs_workspace = true;
        plan.frames = binary::max_block_frames;
        plan.items = std::max<size_t>(g.checks, g.n); // a warp an item
        plan.max_frames = min_sum_max_global_frames(g);
        // as many blocks as can be resident at once (a cooperative launch)
        int device = 0, sms = 0, per_sm = 0;
        GPULDPC_CUDA_CHECK(cudaGetDevice(&device));
        GPULDPC_CUDA_CHECK(
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        GPULDPC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_sm, plan.kernel, binary::grid_threads, 0));
        plan.max_blocks = size_t(std::max(per_sm, 1)) * size_t(sms);
        break;
    }
    }
    return plan;
}

unsigned
min_sum_block_registers(const min_sum_variant& v, const min_sum_graph& g, bool layered)
{
    cudaFuncAttributes a{};
    GPULDPC_CUDA_CHECK(
        cudaFuncGetAttributes(&a, instance(min_sum_kernel_of(g, v, layered))));
    return unsigned(a.numRegs);
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
