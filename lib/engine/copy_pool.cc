/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "copy_pool.h"
#include <algorithm>
#include <cstring>
#include <exception>

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

void copy_pool::worker(unsigned index)
{
    unsigned long seen = 0;
    for (;;) {
        std::unique_lock<std::mutex> lock(d_mutex);
        d_start.wait(lock, [&] { return d_stop || d_generation != seen; });
        if (d_stop)
            return;
        seen = d_generation;
        const std::function<void(unsigned)>& job = *d_job;
        lock.unlock();
        std::exception_ptr failure;
        try {
            job(index);
        } catch (...) {
            failure = std::current_exception();
        }
        lock.lock();
        if (failure && !d_failure)
            d_failure = failure;
        if (--d_pending == 0)
            d_done.notify_one();
    }
}

void copy_pool::run_shares(const std::function<void(unsigned)>& job)
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_job = &job;
        d_pending = unsigned(d_threads.size());
        ++d_generation;
    }
    d_start.notify_all();
    // the helpers use job until they are done: waited for whatever happens
    std::exception_ptr failure;
    try {
        job(0);
    } catch (...) {
        failure = std::current_exception();
    }
    std::unique_lock<std::mutex> lock(d_mutex);
    d_done.wait(lock, [&] { return d_pending == 0; });
    d_job = nullptr;
    if (!failure)
        failure = d_failure;
    d_failure = nullptr;
    if (failure)
        std::rethrow_exception(failure);
}

void copy_pool::copy(void* dst, const void* src, size_t bytes)
{
    // small copies are not worth waking anybody
    if (d_threads.empty() || bytes < (size_t(1) << 20)) {
        if (bytes > 0)
            std::memcpy(dst, src, bytes);
        return;
    }
    const unsigned parts = unsigned(d_threads.size()) + 1;
    // 4 KiB-aligned slices
    const size_t slice = ((bytes / parts) + 4095) & ~size_t(4095);
    const std::function<void(unsigned)> job = [&](unsigned share) {
        const size_t begin = std::min(bytes, size_t(share) * slice);
        const size_t end = share + 1 == parts ? bytes : std::min(bytes, begin + slice);
        if (end > begin)
            std::memcpy(static_cast<unsigned char*>(dst) + begin,
                        static_cast<const unsigned char*>(src) + begin,
                        end - begin);
    };
    run_shares(job);
}

void copy_pool::for_each_share(size_t items,
                               const std::function<void(size_t, size_t)>& body)
{
    if (d_threads.empty() || items < 2) {
        if (items > 0)
            body(0, items);
        return;
    }
    const size_t parts = d_threads.size() + 1;
    const std::function<void(unsigned)> job = [&](unsigned share) {
        const size_t begin = items * share / parts, end = items * (share + 1) / parts;
        if (end > begin)
            body(begin, end);
    };
    run_shares(job);
}

} // namespace gpuldpc
} // namespace gr
