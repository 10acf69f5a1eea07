/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "common.h"
#include "common/cuda_check.h"
#include "common/device_query.h"
#include <gnuradio/gpuldpc/engine/device.h>
#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace bench {

device_description describe_device(const gpu_tuning& tuning)
{
    const auto devices = cuda_devices();
    if (devices.empty())
        throw std::runtime_error("no CUDA device");
    device_description d;
    d.name = devices[0].name;
    d.compute_major = devices[0].compute_major;
    d.compute_minor = devices[0].compute_minor;
    d.shared_memory_device_limit = kernels::cuda_shared_memory_optin(0);
    d.shared_memory_limit = cuda_shared_memory_limit(0, tuning);
    if (tuning.shared_memory_limit)
        d.shared_memory_cap = std::to_string(tuning.shared_memory_limit);
    return d;
}

int host_cores() { return int(std::max(1u, std::thread::hardware_concurrency())); }

double time_ms(const std::function<void()>& fn, int reps, cudaStream_t stream)
{
    fn();
    GPULDPC_CUDA_CHECK(cudaDeviceSynchronize());
    cudaEvent_t a, b;
    GPULDPC_CUDA_CHECK(cudaEventCreate(&a));
    GPULDPC_CUDA_CHECK(cudaEventCreate(&b));
    std::vector<float> t;
    for (int r = 0; r < reps; ++r) {
        GPULDPC_CUDA_CHECK(cudaEventRecord(a, stream));
        fn();
        GPULDPC_CUDA_CHECK(cudaEventRecord(b, stream));
        GPULDPC_CUDA_CHECK(cudaEventSynchronize(b));
        float ms = 0;
        GPULDPC_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

double wall_ms(const std::function<void()>& fn, int reps)
{
    fn();
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        fn();
        t.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - t0)
                        .count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

double copy_ms(const void* d_in, void* d_out, size_t bytes, int reps)
{
    return wall_ms(
               [&] {
                   for (int i = 0; i < 8; ++i)
                       GPULDPC_CUDA_CHECK(
                           cudaMemcpy(d_out, d_in, bytes, cudaMemcpyDeviceToDevice));
                   GPULDPC_CUDA_CHECK(cudaDeviceSynchronize());
               },
               reps) /
           8.0;
}

double fp32_peak_flops()
{
    int dev = 0, sms = 0, khz = 0, major = 0, minor = 0;
    GPULDPC_CUDA_CHECK(cudaGetDevice(&dev));
    GPULDPC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    GPULDPC_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev));
    GPULDPC_CUDA_CHECK(
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    GPULDPC_CUDA_CHECK(
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    // FP32 lanes per SM: 64 on sm_75 and sm_80, 128 on sm_86 .. sm_90
    const int lanes = (major == 7 || (major == 8 && minor == 0)) ? 64 : 128;
    return double(sms) * lanes * double(khz) * 1e3;
}

} // namespace bench
} // namespace gpuldpc
} // namespace gr
