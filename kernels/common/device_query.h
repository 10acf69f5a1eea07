/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_DEVICE_QUERY_H
#define INCLUDED_GPULDPC_KERNELS_DEVICE_QUERY_H

// Launcher header of the device-query family: plain C++, callable from code
// compiled by g++. Implemented in device_query.cu.

#include <cstddef>

namespace gr {
namespace gpuldpc {
namespace kernels {

/*! Number of usable CUDA devices; 0 when there is no driver or no device. */
int cuda_device_count();

/*!
 * Writes the name and compute capability of device \p index into the output
 * arguments. Returns false (and leaves them unchanged) when the device cannot
 * be queried.
 */
bool cuda_device_properties(
    int index, char* name, size_t name_len, int* major, int* minor);

/*!
 * Opt-in limit of dynamic shared memory per block of device \p index
 * (cudaDevAttrMaxSharedMemoryPerBlockOptin), bytes; throws cuda_error when
 * the device cannot be queried.
 */
size_t cuda_shared_memory_optin(int index);

/*! CUDA runtime version the module was built against, e.g. 13000. */
int cuda_runtime_version();

} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_DEVICE_QUERY_H */
