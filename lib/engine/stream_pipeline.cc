/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "stream_pipeline.h"
#include <algorithm>

namespace gr {
namespace gpuldpc {
namespace cuda {

namespace {
bool is_pinned(const void* p)
{
    cudaPointerAttributes attr;
    if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return attr.type == cudaMemoryTypeHost;
}

} // namespace

stream_pipeline::stream_pipeline(size_t in_item_bytes,
                                 size_t out_item_bytes,
                                 size_t items_per_chunk)
    : d_in_bytes(in_item_bytes),
      d_out_bytes(out_item_bytes),
      d_items_per_chunk(items_per_chunk),
      d_copies(copy_pool::default_helpers())
{
    for (int s = 0; s < kSlots; ++s) {
        d_h_in[s] = pinned_buffer<unsigned char>(d_in_bytes * d_items_per_chunk);
        d_h_out[s] = pinned_buffer<unsigned char>(d_out_bytes * d_items_per_chunk);
        d_d_in[s] = device_buffer<unsigned char>(d_in_bytes * d_items_per_chunk);
        d_d_out[s] = device_buffer<unsigned char>(d_out_bytes * d_items_per_chunk);
    }
}

void stream_pipeline::run(const void* h_in,
                          void* h_out,
                          size_t items,
                          const compute_fn& compute)
{
    if (is_pinned(h_in) && is_pinned(h_out)) {
        run_pinned(h_in, h_out, items, compute);
        return;
    }
    const auto* in = static_cast<const unsigned char*>(h_in);
    auto* out = static_cast<unsigned char*>(h_out);
    const size_t chunks = (items + d_items_per_chunk - 1) / d_items_per_chunk;
    auto chunk_items = [&](size_t k) {
        return std::min(d_items_per_chunk, items - k * d_items_per_chunk);
    };
    auto drain = [&](size_t k) {
        const int s = int(k % kSlots);
        d_done[s].synchronize();
        d_copies.copy(out + k * d_items_per_chunk * d_out_bytes,
                      d_h_out[s].data(),
                      chunk_items(k) * d_out_bytes);
    };
    for (size_t k = 0; k < chunks; ++k) {
        const int s = int(k % kSlots);
        if (k >= kSlots)
            drain(k - kSlots);
        const size_t n = chunk_items(k);
        d_copies.copy(
            d_h_in[s].data(), in + k * d_items_per_chunk * d_in_bytes, n * d_in_bytes);
        const cudaStream_t st = d_streams[s].get();
        GPULDPC_CUDA_CHECK(cudaMemcpyAsync(d_d_in[s].data(),
                                           d_h_in[s].data(),
                                           n * d_in_bytes,
                                           cudaMemcpyHostToDevice,
                                           st));
        compute(d_d_in[s].data(), d_d_out[s].data(), n, st, s);
        GPULDPC_CUDA_CHECK(cudaMemcpyAsync(d_h_out[s].data(),
                                           d_d_out[s].data(),
                                           n * d_out_bytes,
                                           cudaMemcpyDeviceToHost,
                                           st));
        d_done[s].record(st);
    }
    for (size_t k = chunks > kSlots ? chunks - kSlots : 0; k < chunks; ++k)
        drain(k);
}

void stream_pipeline::run_pinned(const void* h_in,
                                 void* h_out,
                                 size_t items,
                                 const compute_fn& compute)
{
    const auto* in = static_cast<const unsigned char*>(h_in);
    auto* out = static_cast<unsigned char*>(h_out);
    const size_t chunks = (items + d_items_per_chunk - 1) / d_items_per_chunk;
    for (size_t k = 0; k < chunks; ++k) {
        const int s = int(k % kSlots);
        const size_t n = std::min(d_items_per_chunk, items - k * d_items_per_chunk);
        const cudaStream_t st = d_streams[s].get();
        GPULDPC_CUDA_CHECK(cudaMemcpyAsync(d_d_in[s].data(),
                                           in + k * d_items_per_chunk * d_in_bytes,
                                           n * d_in_bytes,
                                           cudaMemcpyHostToDevice,
                                           st));
        compute(d_d_in[s].data(), d_d_out[s].data(), n, st, s);
        GPULDPC_CUDA_CHECK(cudaMemcpyAsync(out + k * d_items_per_chunk * d_out_bytes,
                                           d_d_out[s].data(),
                                           n * d_out_bytes,
                                           cudaMemcpyDeviceToHost,
                                           st));
    }
    for (int s = 0; s < kSlots; ++s)
        d_streams[s].synchronize();
}

} // namespace cuda
} // namespace gpuldpc
} // namespace gr
