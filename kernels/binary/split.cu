/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The split family: a block decodes a group at a time, its beliefs in shared
// memory, its check messages in the block's region of the workspace (a
// resident block's few hundred kilobytes stay in L2: DVB-S2's 64800 bits);
// the blocks take the groups in turn.

#include "binary/decode.cuh"
#include "binary/families.h"
#include "binary/instances.cuh"
#include <type_traits>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace binary {

template <typename A, bool Layered, unsigned G, check_records R>
__global__ void __launch_bounds__(1024) min_sum_split_kernel(const min_sum_params p)
{
    constexpr unsigned F = G * A::frames_per_lane;
    extern __shared__ __align__(16) uint8_t shared[];
    __shared__ uint32_t syndrome[F], invalid[F], iterations[F], done[F];
    __shared__ int active;
    uint8_t* const messages = p.workspace + size_t(blockIdx.x) * p.variant.message_bytes;
    const size_t groups = (p.n_frames + F - 1) / F;
    for (size_t group = blockIdx.x; group < groups; group += gridDim.x) {
        const size_t first = group * F;
        decode<A, Layered, G, R>(
            p,
            block_team{},
            shared,
            first,
            uint32_t(min(size_t(F), p.n_frames - first)),
            frame_counters{ syndrome, invalid, iterations, done, &active },
            messages);
        // the counters are read to the end of a group's decoding
        __syncthreads();
    }
}

// The 8-bit rules (not in 16-bit pairs), layered, with compact records, one
// lane a group.
struct split_family {
    template <typename A, bool Layered, unsigned G, check_records R>
    static const void* kernel()
    {
        if constexpr (G == 1 && Layered && is_fixed_point(A::rule) &&
                      R != check_records::graph && !A::wide_pairs)
            return reinterpret_cast<const void*>(&min_sum_split_kernel<A, Layered, G, R>);
        else
            return nullptr;
    }
};

} // namespace binary

const void* min_sum_split_instance(const min_sum_kernel_key& key)
{
    return binary::instance_of<binary::split_family>(key);
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
