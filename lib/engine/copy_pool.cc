/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "copy_pool.h"
#include <algorithm>
#include <cstring>

namespace gr {
namespace gpuldpc {

unsigned copy_pool::default_helpers()
{
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    return std::min(11u, cores - 1);
}

copy_pool::copy_pool(unsigned helpers)
{
    try {
        for (unsigned i = 0; i < helpers; ++i)
            d_threads.emplace_back([this, i] { worker(i + 1); });
    } catch (...) {
        stop_threads(); // the ones made so far
        throw;
    }
}

copy_pool::~copy_pool() { stop_threads(); }

void copy_pool::stop_threads()
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

} // namespace gpuldpc
} // namespace gr
