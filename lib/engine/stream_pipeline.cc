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

copy_pool::copy_pool(unsigned helpers)
{
    for (unsigned i = 0; i < helpers; ++i)
        d_threads.emplace_back([this, i] { worker(i + 1); });
}

copy_pool::~copy_pool()
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_stop = true;
    }
    d_start.notify_all();
    for (auto& t : d_threads)
        t.join();
}

void copy_pool::copy_share(unsigned share)
{
    const unsigned parts = unsigned(d_threads.size()) + 1;
    // 4 KiB-aligned slices
    const size_t slice = ((d_bytes / parts) + 4095) & ~size_t(4095);
    const size_t begin = std::min(d_bytes, size_t(share) * slice);
    const size_t end = share + 1 == parts ? d_bytes : std::min(d_bytes, begin + slice);
    if (end > begin)
        std::memcpy(d_dst + begin, d_src + begin, end - begin);
}

void copy_pool::worker(unsigned index)
{
    unsigned long seen = 0;
    for (;;) {
        std::unique_lock<std::mutex> lock(d_mutex);
        d_start.wait(lock, [&] { return d_stop || d_generation != seen; });
        if (d_stop)
            return;
        seen = d_generation;
        lock.unlock();
        copy_share(index);
        lock.lock();
        if (--d_pending == 0)
            d_done.notify_one();
    }
}

void copy_pool::copy(void* dst, const void* src, size_t bytes)
{
    // small copies are not worth waking anybody
    if (d_threads.empty() || bytes < (size_t(1) << 20)) {
        std::memcpy(dst, src, bytes);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_dst = static_cast<unsigned char*>(dst);
        d_src = static_cast<const unsigned char*>(src);
        d_bytes = bytes;
        d_pending = unsigned(d_threads.size());
        ++d_generation;
    }
    d_start.notify_all();
    copy_share(0);
    std::unique_lock<std::mutex> lock(d_mutex);
    d_done.wait(lock, [&] { return d_pending == 0; });
}

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

// Helpers for the staging copies: all cores but one, at most 11 besides the
// caller (host memory bandwidth, not core count, limits beyond that).
unsigned copy_helpers()
{
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    return std::min(11u, cores - 1);
}
} // namespace

stream_pipeline::stream_pipeline(size_t in_item_bytes,
                                 size_t out_item_bytes,
                                 size_t items_per_chunk)
    : d_in_bytes(in_item_bytes),
      d_out_bytes(out_item_bytes),
      d_items_per_chunk(items_per_chunk),
      d_copies(copy_helpers())
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
