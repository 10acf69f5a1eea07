/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_GFQ_KERNEL_TABLE_H
#define INCLUDED_GPULDPC_KERNELS_GFQ_KERNEL_TABLE_H

// The kernels of each FFT-BP family's instantiations, as the launch plan
// (launch.cu) takes them from the family's file: the __global__ functions
// (for cudaLaunchKernel), null where no kernel is built for the sizes asked
// for. Internal to the kernels; plain C++.

#include "gfq/plan.h"

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace gfq {

//! per_frame.cu: fft_bp_kernel(fft_bp_params) of the rows, registers or
//! tensor_cores family
const void* frame_kernel(
    fft_bp_family family, unsigned q, unsigned edge_slots, bool half, bool on_chip);

//! check_parallel.cu: the kernels of an iteration's sequence
struct check_parallel_kernels {
    const void* start;          //!< (fft_bp_params)
    const void* checks;         //!< (fft_bp_params)
    const void* variables;      //!< (fft_bp_params, bool decide)
    const void* syndrome;       //!< (fft_bp_params)
    const void* iteration_done; //!< (fft_bp_params, unsigned it, bool stop)
    const void* finish;         //!< (fft_bp_params)
};
check_parallel_kernels check_parallel_kernels_of(unsigned q, bool half);

//! edge_threads.cu: fft_bp_edges_kernel(fft_bp_params) for checks of
//! \p group lanes' edges (4 or 8)
const void* edge_kernel(unsigned q, unsigned group, bool half);

} // namespace gfq
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_GFQ_KERNEL_TABLE_H */
