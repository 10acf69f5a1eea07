/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "common/cuda_check.h"
#include "common/device_query.h"
#include <cuda_runtime.h>
#include <cstring>

namespace gr {
namespace gpuldpc {
namespace kernels {

int cuda_device_count()
{
    int count = 0;
    // No driver or no device is an ordinary situation here, not an error:
    // clear the sticky error state and report zero devices.
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return count;
}

bool cuda_device_properties(
    int index, char* name, size_t name_len, int* major, int* minor)
{
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, index) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    if (name && name_len > 0) {
        std::strncpy(name, prop.name, name_len - 1);
        name[name_len - 1] = '\0';
    }
    if (major)
        *major = prop.major;
    if (minor)
        *minor = prop.minor;
    return true;
}

size_t cuda_shared_memory_optin(int index)
{
    int bytes = 0;
    GPULDPC_CUDA_CHECK(
        cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, index));
    return size_t(bytes);
}

int cuda_runtime_version() { return CUDART_VERSION; }

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
