/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_STREAM_PIPELINE_H
#define INCLUDED_GPULDPC_ENGINE_STREAM_PIPELINE_H

#include "copy_pool.h"
#include "cuda_resources.h"
#include <condition_variable>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace cuda {

/*!
 * \brief Moves a batch from host memory through the GPU and back, in chunks
 * on two streams, so that the copies of chunk k+1 overlap the compute of
 * chunk k.
 *
 * Per chunk: host -> pinned staging (CPU copy), pinned -> device (async),
 * compute (async, caller's kernel), device -> pinned (async); the staging
 * slot of chunk k is drained to the caller's output when chunk k+2 needs it.
 * All buffers are allocated once, in the constructor.
 */
class stream_pipeline
{
public:
    //! streams, each with its own staging and device buffers
    static constexpr int kSlots = 2;

    //! slot (0 or 1) tells which of the two streams runs the chunk, so that
    //! scratch memory can be kept per stream
    using compute_fn = std::function<void(
        const void* d_in, void* d_out, size_t items, cudaStream_t stream, int slot)>;

    stream_pipeline(size_t in_item_bytes, size_t out_item_bytes, size_t items_per_chunk);

    size_t items_per_chunk() const { return d_items_per_chunk; }

    /*!
     * Runs \p items items from \p h_in to \p h_out; blocks until done. When
     * both are pinned (page-locked) memory, they are used directly.
     */
    void run(const void* h_in, void* h_out, size_t items, const compute_fn& compute);

    /*!
     * The same with the caller's buffers already pinned (no staging copy):
     * what the copy engines alone can do.
     */
    void
    run_pinned(const void* h_in, void* h_out, size_t items, const compute_fn& compute);

private:
    size_t d_in_bytes, d_out_bytes, d_items_per_chunk;
    copy_pool d_copies;
    stream d_streams[kSlots];
    event d_done[kSlots];
    pinned_buffer<unsigned char> d_h_in[kSlots], d_h_out[kSlots];
    device_buffer<unsigned char> d_d_in[kSlots], d_d_out[kSlots];
};

} // namespace cuda
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_STREAM_PIPELINE_H */
