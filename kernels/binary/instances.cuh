/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_BINARY_INSTANCES_CUH
#define INCLUDED_GPULDPC_KERNELS_BINARY_INSTANCES_CUH

// The one place where a kernel key's runtime values (arithmetic, schedule,
// check records, lanes: min_sum_kernel_of()) become template arguments. A
// family's .cu file walks it with its own Family, which names its kernel of
// each combination (Family::kernel<A, Layered, G, R>(), null where the family
// has none): the combinations walked are the kernels the family's file
// instantiates.

#include "binary/decode.cuh"
#include <type_traits>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace binary {

template <typename Family, typename A, bool Layered, check_records R>
const void* instance_with_lanes(unsigned lanes)
{
    switch (lanes) {
    case 1:
        return Family::template kernel<A, Layered, 1, R>();
    case 2:
        return Family::template kernel<A, Layered, 2, R>();
    case 4:
        return Family::template kernel<A, Layered, 4, R>();
    case 8:
        return Family::template kernel<A, Layered, 8, R>();
    case 16:
        return Family::template kernel<A, Layered, 16, R>();
    case 32:
        return Family::template kernel<A, Layered, 32, R>();
    }
    return nullptr;
}

// The schedules and check records an arithmetic runs with: compressed
// messages layered with compact records only (min_sum_compressed_usable);
// 16-bit pairs with the graph's arrays only; the others layered with any
// records, flooding with compact ones (never read in full) or the arrays.
template <typename Family, typename A>
const void* instance_with_schedule(const min_sum_kernel_key& k)
{
    using R = check_records;
    if constexpr (A::compressed) {
        if (!k.layered)
            return nullptr;
        return k.records == R::full
                   ? instance_with_lanes<Family, A, true, R::full>(k.lanes)
               : k.records == R::compact
                   ? instance_with_lanes<Family, A, true, R::compact>(k.lanes)
                   : nullptr;
    } else if constexpr (A::wide_pairs) {
        if (k.records != R::graph)
            return nullptr;
        if (k.layered)
            return instance_with_lanes<Family, A, true, R::graph>(k.lanes);
        if constexpr (A::limits_beliefs)
            return nullptr; // a limit of layered beliefs: no flooding kernels
        else
            return instance_with_lanes<Family, A, false, R::graph>(k.lanes);
    } else if (k.layered) {
        return k.records == R::full
                   ? instance_with_lanes<Family, A, true, R::full>(k.lanes)
               : k.records == R::compact
                   ? instance_with_lanes<Family, A, true, R::compact>(k.lanes)
                   : instance_with_lanes<Family, A, true, R::graph>(k.lanes);
    } else if constexpr (A::limits_beliefs) {
        return nullptr;
    } else {
        return k.records == R::compact
                   ? instance_with_lanes<Family, A, false, R::compact>(k.lanes)
               : k.records == R::graph
                   ? instance_with_lanes<Family, A, false, R::graph>(k.lanes)
                   : nullptr;
    }
}

// The kernel of \p k in Family, or null where it has none.
template <typename Family>
const void* instance_of(const min_sum_kernel_key& k)
{
    using M = min_sum_arithmetic;
    if (k.limited) {
        // layered, the integer arithmetics of the 8-bit rule (fp16 pairs
        // take no code whose beliefs reach the limit)
        if (!k.layered)
            return nullptr;
        switch (k.arithmetic) {
        case M::fixed8:
            return instance_with_schedule<Family, limited_arith<fixed8_arith>>(k);
        case M::fixed8_compressed:
            return instance_with_schedule<Family,
                                          limited_arith<compressed_arith<fixed8_arith>>>(
                k);
        case M::fixed8_wide_pairs:
            return instance_with_schedule<Family, limited_arith<fixed8_wide_pair_arith>>(
                k);
        case M::fixed8_three:
            return instance_with_schedule<Family, limited_arith<fixed8_three_arith>>(k);
        default:
            return nullptr;
        }
    }
    switch (k.arithmetic) {
    case M::fixed8:
        return instance_with_schedule<Family, fixed8_arith>(k);
    case M::fixed8_pairs:
        return instance_with_schedule<Family, fixed8_pair_arith>(k);
    case M::fixed8_compressed:
        return instance_with_schedule<Family, compressed_arith<fixed8_arith>>(k);
    case M::fixed8_pairs_compressed:
        return instance_with_schedule<Family, compressed_arith<fixed8_pair_arith>>(k);
    case M::fixed8_wide_pairs:
        return instance_with_schedule<Family, fixed8_wide_pair_arith>(k);
    case M::fixed8_three:
        return instance_with_schedule<Family, fixed8_three_arith>(k);
    case M::float_min_sum:
        return instance_with_schedule<Family, float_arith<binary_rule::float_min_sum>>(k);
    case M::float_sum_product:
        return instance_with_schedule<Family,
                                      float_arith<binary_rule::float_sum_product>>(k);
    }
    return nullptr;
}

} // namespace binary
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_BINARY_INSTANCES_CUH */
