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
        const share_fn job = d_job;
        const void* context = d_job_context;
        lock.unlock();
        std::exception_ptr failure;
        try {
            job(context, index);
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

void copy_pool::run_shares(share_fn job, const void* context)
{
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_job = job;
        d_job_context = context;
        d_pending = unsigned(d_threads.size());
        ++d_generation;
    }
    d_start.notify_all();
    // the helpers use the context until they are done: waited for whatever
    // happens
    std::exception_ptr failure;
    try {
        job(context, 0);
    } catch (...) {
        failure = std::current_exception();
    }
    std::unique_lock<std::mutex> lock(d_mutex);
    d_done.wait(lock, [&] { return d_pending == 0; });
    d_job = nullptr;
    d_job_context = nullptr;
    if (!failure)
        failure = d_failure;
    d_failure = nullptr;
    if (failure)
        std::rethrow_exception(failure);
}

namespace {

struct copy_job {
    unsigned char* dst;
    const unsigned char* src;
    size_t bytes, slice;
    unsigned parts;
};

struct items_job {
    size_t items, parts;
    const void* body;
    void (*call)(const void*, size_t, size_t);
};

} // namespace

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
    const copy_job c{ static_cast<unsigned char*>(dst),
                      static_cast<const unsigned char*>(src),
                      bytes,
                      ((bytes / parts) + 4095) & ~size_t(4095),
                      parts };
    run_shares(
        [](const void* context, unsigned share) {
            const copy_job& c = *static_cast<const copy_job*>(context);
            const size_t begin = std::min(c.bytes, size_t(share) * c.slice);
            const size_t end =
                share + 1 == c.parts ? c.bytes : std::min(c.bytes, begin + c.slice);
            if (end > begin)
                std::memcpy(c.dst + begin, c.src + begin, end - begin);
        },
        &c);
}

void copy_pool::share_items(size_t items, const void* body, range_fn call)
{
    if (d_threads.empty() || items < 2) {
        if (items > 0)
            call(body, 0, items);
        return;
    }
    const items_job job{ items, d_threads.size() + 1, body, call };
    run_shares(
        [](const void* context, unsigned share) {
            const items_job& j = *static_cast<const items_job*>(context);
            const size_t begin = j.items * share / j.parts;
            const size_t end = j.items * (share + 1) / j.parts;
            if (end > begin)
                j.call(j.body, begin, end);
        },
        &job);
}

} // namespace gpuldpc
} // namespace gr
