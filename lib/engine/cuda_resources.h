/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_CUDA_RESOURCES_H
#define INCLUDED_GPULDPC_ENGINE_CUDA_RESOURCES_H

// RAII owners of CUDA resources (CUDA builds only). Created once per engine
// object; none of them is created in a block's work().

#include "common/cuda_check.h"
#include <cuda_runtime_api.h>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace cuda {

/*!
 * Makes \p device current on the calling thread for the lifetime of the
 * object (one public call of an engine: constructor, method or destructor)
 * and restores the thread's previous device afterwards, so that an engine
 * never leaves a thread switched to its device. The nothrow form (for
 * destructors) ignores errors.
 */
class scoped_device
{
public:
    explicit scoped_device(int device)
    {
        GPULDPC_CUDA_CHECK(cudaGetDevice(&d_previous));
        if (device != d_previous)
            GPULDPC_CUDA_CHECK(cudaSetDevice(device));
        d_switched = device != d_previous;
    }
    scoped_device(int device, std::nothrow_t)
    {
        if (cudaGetDevice(&d_previous) != cudaSuccess) {
            cudaGetLastError();
            return;
        }
        d_switched = device != d_previous && cudaSetDevice(device) == cudaSuccess;
        cudaGetLastError();
    }
    ~scoped_device()
    {
        if (d_switched && cudaSetDevice(d_previous) != cudaSuccess)
            cudaGetLastError();
    }
    scoped_device(const scoped_device&) = delete;
    scoped_device& operator=(const scoped_device&) = delete;

private:
    int d_previous = 0;
    bool d_switched = false;
};

template <typename T, bool Pinned>
class buffer
{
public:
    buffer() = default;
    explicit buffer(size_t count) : d_count(count)
    {
        if (count == 0)
            return;
        void* p = nullptr;
        if (Pinned)
            GPULDPC_CUDA_CHECK(cudaMallocHost(&p, count * sizeof(T)));
        else
            GPULDPC_CUDA_CHECK(cudaMalloc(&p, count * sizeof(T)));
        d_ptr = static_cast<T*>(p);
    }
    ~buffer() { release(); }
    buffer(buffer&& o) noexcept
        : d_ptr(std::exchange(o.d_ptr, nullptr)), d_count(std::exchange(o.d_count, 0))
    {
    }
    buffer& operator=(buffer&& o) noexcept
    {
        if (this != &o) {
            release();
            d_ptr = std::exchange(o.d_ptr, nullptr);
            d_count = std::exchange(o.d_count, 0);
        }
        return *this;
    }
    buffer(const buffer&) = delete;
    buffer& operator=(const buffer&) = delete;

    T* data() const { return d_ptr; }
    size_t size() const { return d_count; }

private:
    void release()
    {
        if (!d_ptr)
            return;
        if (Pinned)
            cudaFreeHost(d_ptr);
        else
            cudaFree(d_ptr);
        d_ptr = nullptr;
    }
    T* d_ptr = nullptr;
    size_t d_count = 0;
};

template <typename T>
using device_buffer = buffer<T, false>;
template <typename T>
using pinned_buffer = buffer<T, true>;

class stream
{
public:
    stream()
    {
        GPULDPC_CUDA_CHECK(cudaStreamCreateWithFlags(&d_s, cudaStreamNonBlocking));
    }
    ~stream()
    {
        if (d_s)
            cudaStreamDestroy(d_s);
    }
    stream(stream&& o) noexcept : d_s(std::exchange(o.d_s, nullptr)) {}
    stream(const stream&) = delete;
    stream& operator=(const stream&) = delete;
    cudaStream_t get() const { return d_s; }
    void synchronize() const { GPULDPC_CUDA_CHECK(cudaStreamSynchronize(d_s)); }

private:
    cudaStream_t d_s = nullptr;
};

// After a failed call: waits for what the stream already holds (on device
// \p device), so that no copy queued before the failure lands in a caller's
// buffer after it was reported. Never throws; errors are left behind.
inline void drain_after_failure(const std::unique_ptr<stream>& s, int device) noexcept
{
    if (!s)
        return;
    scoped_device guard(device, std::nothrow);
    cudaStreamSynchronize(s->get());
    cudaGetLastError();
}

class event
{
public:
    event()
    {
        GPULDPC_CUDA_CHECK(cudaEventCreateWithFlags(&d_e, cudaEventDisableTiming));
    }
    ~event()
    {
        if (d_e)
            cudaEventDestroy(d_e);
    }
    event(event&& o) noexcept : d_e(std::exchange(o.d_e, nullptr)) {}
    event(const event&) = delete;
    event& operator=(const event&) = delete;
    cudaEvent_t get() const { return d_e; }
    void record(cudaStream_t s) const { GPULDPC_CUDA_CHECK(cudaEventRecord(d_e, s)); }
    void synchronize() const { GPULDPC_CUDA_CHECK(cudaEventSynchronize(d_e)); }

private:
    cudaEvent_t d_e = nullptr;
};

/*! A copy of \p v in device memory (one element at least). */
template <typename T>
device_buffer<T> upload(const std::vector<T>& v)
{
    device_buffer<T> b(std::max<size_t>(v.size(), 1));
    if (!v.empty())
        GPULDPC_CUDA_CHECK(
            cudaMemcpy(b.data(), v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
    return b;
}

// Queues the copies of one launch's results (frames f0 .. f0 + nf - 1 of a
// batch) from device memory to the caller's host memory on \p s: information
// bits, per-frame status records of \p status_bytes each and, when
// \p codeword_bits is not null, codeword bits.
inline void copy_launch_results(cudaStream_t s,
                                size_t f0,
                                size_t nf,
                                size_t info_per_frame,
                                size_t status_bytes,
                                size_t codeword_per_frame,
                                const uint8_t* device_info,
                                const void* device_status,
                                const uint8_t* device_codeword,
                                uint8_t* info_bits,
                                void* status,
                                uint8_t* codeword_bits)
{
    GPULDPC_CUDA_CHECK(cudaMemcpyAsync(info_bits + f0 * info_per_frame,
                                       device_info,
                                       nf * info_per_frame,
                                       cudaMemcpyDeviceToHost,
                                       s));
    GPULDPC_CUDA_CHECK(cudaMemcpyAsync(static_cast<uint8_t*>(status) + f0 * status_bytes,
                                       device_status,
                                       nf * status_bytes,
                                       cudaMemcpyDeviceToHost,
                                       s));
    if (codeword_bits)
        GPULDPC_CUDA_CHECK(cudaMemcpyAsync(codeword_bits + f0 * codeword_per_frame,
                                           device_codeword,
                                           nf * codeword_per_frame,
                                           cudaMemcpyDeviceToHost,
                                           s));
}

/*!
 * Workspace of one decoder launch at most (the state of all its frames in a
 * global variant), so that very long codes take several launches: a
 * sixteenth of the device's memory, from 256 MiB to 2 GiB (a long code needs
 * tens of frames in flight to fill a large GPU; each workspace is made twice
 * when two batches are outstanding).
 */
inline size_t launch_workspace_bytes(size_t device_memory)
{
    return std::clamp<size_t>(device_memory / 16, size_t(256) << 20, size_t(2) << 30);
}

} // namespace cuda
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_CUDA_RESOURCES_H */
