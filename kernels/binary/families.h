/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_BINARY_FAMILIES_H
#define INCLUDED_GPULDPC_KERNELS_BINARY_FAMILIES_H

// The kernels of each family, by key (plan.h's min_sum_kernel_of), from the
// family's own file: on_chip.cu, split.cu, global.cu, quasi_cyclic.cu. Each
// returns the host stub of the kernel instantiation, for cudaLaunchKernel and
// the cudaFunc*/cudaOccupancy* queries, or null where the family has no
// kernel of that key.

#include "binary/plan.h"

namespace gr {
namespace gpuldpc {
namespace kernels {

const void* min_sum_on_chip_instance(const min_sum_kernel_key& key);
const void* min_sum_split_instance(const min_sum_kernel_key& key);
const void* min_sum_global_instance(const min_sum_kernel_key& key);
const void* min_sum_quasi_cyclic_instance(const min_sum_kernel_key& key);

} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_BINARY_FAMILIES_H */
