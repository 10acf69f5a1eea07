/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The on-chip family: a thread block decodes a group (G lanes of A's
// frames_per_lane frames) for all iterations, its state in shared memory and
// its per-frame counters in static shared memory.

#include "binary/decode.cuh"
#include "binary/families.h"
#include "binary/instances.cuh"
#include <type_traits>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace binary {

template <typename A, bool Layered, unsigned G, check_records R>
__global__ void __launch_bounds__(1024) min_sum_block_kernel(const min_sum_params p)
{
    constexpr unsigned F = G * A::frames_per_lane;
    static_assert(sizeof(uint32_t) * 4 * F + sizeof(int) <= counter_bytes(F),
                  "the per-frame counters fit the static shared memory allowed for");
    extern __shared__ __align__(16) uint8_t shared[];
    __shared__ uint32_t syndrome[F], invalid[F], iterations[F], done[F];
    __shared__ int active;
    const size_t first = size_t(blockIdx.x) * F;
    const uint32_t frames = uint32_t(min(size_t(F), p.n_frames - first));
    decode<A, Layered, G, R>(
        p,
        block_team{},
        shared,
        first,
        frames,
        frame_counters{ syndrome, invalid, iterations, done, &active });
}

// Every arithmetic but the 16-bit pairs (the global variant's alone), every
// group size.
struct on_chip_family {
    template <typename A, bool Layered, unsigned G, check_records R>
    static const void* kernel()
    {
        if constexpr (A::wide_pairs)
            return nullptr;
        else
            return reinterpret_cast<const void*>(&min_sum_block_kernel<A, Layered, G, R>);
    }
};

} // namespace binary

const void* min_sum_on_chip_instance(const min_sum_kernel_key& key)
{
    return binary::instance_of<binary::on_chip_family>(key);
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
