/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_GPU_TRANSFORMS_CUDA_H
#define INCLUDED_GPULDPC_ENGINE_GPU_TRANSFORMS_CUDA_H

// What the CUDA transform engines (fwht_cuda.cc, fft_cuda.cc,
// butterfly_cuda.cc) share; CUDA builds only.

#include "cuda_on_device.h"
#include "cuda_resources.h"
#include "gpu_transforms_backend.h"
#include "stream_pipeline.h"
#include <algorithm>
#include <cstddef>
#include <string>

namespace gr {
namespace gpuldpc {
namespace cuda {

//! Items a pipeline chunk: about 8 MiB keep both copy directions and the
//! kernels busy without holding much pinned memory.
inline size_t default_chunk(size_t item_bytes)
{
    return std::max<size_t>(1, (size_t(8) << 20) / item_bytes);
}

//! "N B (K KiB)", for variant().
inline std::string kib(size_t bytes)
{
    return std::to_string(bytes) + " B (" + std::to_string((bytes + 1023) / 1024) +
           " KiB)";
}

/*!
 * Device memory that kernels use between launches (a copy of in-place data,
 * a global-memory work area), with an event so that work enqueued on another
 * stream waits until the previous user is done.
 */
template <typename T>
struct scratch_area {
    device_buffer<T> buffer;
    event free;
    size_t vectors = 0;
    void allocate(size_t count, size_t n)
    {
        buffer = device_buffer<T>(count * n);
        vectors = count;
    }
    void acquire(cudaStream_t s) const
    {
        GPULDPC_CUDA_CHECK(cudaStreamWaitEvent(s, free.get(), 0));
    }
    void release(cudaStream_t s) const { free.record(s); }
};

//! \p stream of an execute_device() call, or the engine's own stream for 0.
inline cudaStream_t stream_or(void* stream, const cuda::stream& own)
{
    return stream ? static_cast<cudaStream_t>(stream) : own.get();
}

} // namespace cuda
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_GPU_TRANSFORMS_CUDA_H */
