/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_WORKER_POOL_H
#define INCLUDED_GPULDPC_ENGINE_WORKER_POOL_H

#include <condition_variable>
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace detail {

/*!
 * \brief Worker threads that live with their owner and run one parallel loop
 * at a time.
 *
 * run(n_tasks, n_workers, fn) calls fn(task, worker) for every task in
 * [0, n_tasks) on up to n_workers workers: the calling thread is worker 0, the
 * others are threads of the pool, started the first time a run needs them and
 * kept until the pool is destroyed. Tasks are handed out one at a time from a
 * shared counter, so workers that finish early take more. A run with one
 * worker never touches a thread.
 *
 * Contract: one run() at a time (callers serialise); fn MUST NOT throw.
 */
class worker_pool
{
public:
    explicit worker_pool(size_t max_workers)
        : d_max_workers(max_workers ? max_workers : 1)
    {
    }

    ~worker_pool()
    {
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            d_quit = true;
        }
        d_wake.notify_all();
        for (auto& t : d_threads)
            t.join();
    }

    worker_pool(const worker_pool&) = delete;
    worker_pool& operator=(const worker_pool&) = delete;

    size_t max_workers() const { return d_max_workers; }
    /*! Threads started so far (beside the caller's). */
    size_t threads_started() const
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        return d_threads.size();
    }

    template <class Fn>
    void run(size_t n_tasks, size_t n_workers, Fn&& fn)
    {
        n_workers = std::min({ n_workers, d_max_workers, n_tasks });
        if (n_workers <= 1) {
            for (size_t t = 0; t < n_tasks; ++t)
                fn(t, size_t(0));
            return;
        }
        std::function<void(size_t, size_t)> job = std::ref(fn);
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            while (d_threads.size() + 1 < n_workers) {
                const size_t id = d_threads.size() + 1;
                d_threads.emplace_back([this, id] { worker_loop(id); });
            }
            d_job = &job;
            d_n_tasks = n_tasks;
            d_next.store(0);
            d_active_workers = n_workers;
            d_pending = n_workers - 1;
            ++d_generation;
        }
        d_wake.notify_all();
        drain(job, 0);
        std::unique_lock<std::mutex> lock(d_mutex);
        d_done.wait(lock, [this] { return d_pending == 0; });
        d_job = nullptr;
    }

private:
    void drain(const std::function<void(size_t, size_t)>& job, size_t worker)
    {
        for (size_t t = d_next.fetch_add(1); t < d_n_tasks; t = d_next.fetch_add(1))
            job(t, worker);
    }

    void worker_loop(size_t id)
    {
        uint64_t seen = 0;
        std::unique_lock<std::mutex> lock(d_mutex);
        for (;;) {
            d_wake.wait(lock, [&] { return d_quit || d_generation != seen; });
            if (d_quit)
                return;
            seen = d_generation;
            if (id >= d_active_workers)
                continue; // this run needs fewer workers
            const auto* job = d_job;
            lock.unlock();
            drain(*job, id);
            lock.lock();
            if (--d_pending == 0)
                d_done.notify_one();
        }
    }

    const size_t d_max_workers;
    mutable std::mutex d_mutex;
    std::condition_variable d_wake, d_done;
    std::vector<std::thread> d_threads;
    const std::function<void(size_t, size_t)>* d_job = nullptr;
    size_t d_n_tasks = 0;
    std::atomic<size_t> d_next{ 0 };
    size_t d_active_workers = 0;
    size_t d_pending = 0;
    uint64_t d_generation = 0;
    bool d_quit = false;
};

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_WORKER_POOL_H */
