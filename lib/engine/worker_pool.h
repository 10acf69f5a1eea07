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
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace detail {

/*!
 * \brief Worker threads that live with their owner and run parallel loops,
 * one after another or several queued at once.
 *
 * A job is n_tasks calls fn(task, worker) on up to n_workers workers. Worker
 * 0 is the thread that waits for the job; workers 1 .. n_workers - 1 are
 * threads of the pool, started the first time a job needs them and kept until
 * the pool is destroyed. Tasks are handed out one at a time, so workers that
 * finish early take more.
 *
 * - run(n_tasks, n_workers, fn) runs a job and returns when it is done; a run
 *   with one worker runs on the calling thread alone.
 * - submit(n_tasks, n_workers, fn) queues a job and returns at once; the
 *   pool's threads start on it, and wait(job) lends the calling thread to it
 *   (as worker 0) until it is done. Queued jobs are served oldest first: a
 *   thread that finds no task left in a job takes the next job's, so the
 *   tail of one batch overlaps the start of the next.
 *
 * Contract:
 * - A worker index is in use by one task at a time: callers that run or
 *   wait on several threads at once MUST serialise those calls (worker 0 is
 *   theirs), so fn MAY keep per-worker state indexed by worker.
 * - fn MUST NOT throw. A submitted fn and what it refers to MUST live until
 *   wait() returns; every submitted job MUST be waited for before the pool
 *   goes (the destructor finishes queued jobs first).
 */
class worker_pool
{
public:
    using job_id = uint64_t;

    explicit worker_pool(size_t max_workers)
        : d_max_workers(max_workers ? max_workers : 1)
    {
    }

    ~worker_pool()
    {
        std::unique_lock<std::mutex> lock(d_mutex);
        // a job nobody waits for any more still gets its tasks run
        while (!d_jobs.empty()) {
            auto j = d_jobs.front();
            lock.unlock();
            drain(*j, 0);
            lock.lock();
            d_done.wait(lock, [&] { return j->finished == j->n_tasks; });
        }
        d_quit = true;
        lock.unlock();
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
        wait(submit(
            n_tasks, n_workers, std::function<void(size_t, size_t)>(std::ref(fn))));
    }

    job_id
    submit(size_t n_tasks, size_t n_workers, std::function<void(size_t, size_t)> fn)
    {
        auto j = std::make_shared<job>();
        j->fn = std::move(fn);
        j->n_tasks = n_tasks;
        j->n_workers = std::max<size_t>(1, std::min(n_workers, d_max_workers));
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            j->id = ++d_last_id;
            if (n_tasks == 0)
                return j->id; // done already: wait() finds it gone
            while (d_threads.size() + 1 < j->n_workers) {
                const size_t id = d_threads.size() + 1;
                d_threads.emplace_back([this, id] { worker_loop(id); });
            }
            d_jobs.push_back(j);
        }
        d_wake.notify_all();
        return j->id;
    }

    /*! Runs the job's remaining tasks on this thread too, then waits for it. */
    void wait(job_id id)
    {
        std::unique_lock<std::mutex> lock(d_mutex);
        const auto it = std::find_if(
            d_jobs.begin(), d_jobs.end(), [&](const auto& j) { return j->id == id; });
        if (it == d_jobs.end())
            return; // finished, or never queued
        const auto j = *it;
        lock.unlock();
        drain(*j, 0);
        lock.lock();
        d_done.wait(lock, [&] { return j->finished == j->n_tasks; });
    }

private:
    struct job {
        job_id id = 0;
        std::function<void(size_t, size_t)> fn;
        size_t n_tasks = 0, n_workers = 1;
        std::atomic<size_t> next{ 0 };
        size_t finished = 0; // under the pool's mutex
    };

    // Runs tasks of \p j as \p worker until none is left to take.
    void drain(job& j, size_t worker)
    {
        size_t ran = 0;
        for (size_t t = j.next.fetch_add(1); t < j.n_tasks; t = j.next.fetch_add(1)) {
            j.fn(t, worker);
            ++ran;
        }
        std::lock_guard<std::mutex> lock(d_mutex);
        j.finished += ran;
        // the drain that ran the last task retires the job, once
        if (ran > 0 && j.finished == j.n_tasks) {
            d_jobs.erase(std::find_if(d_jobs.begin(), d_jobs.end(), [&](const auto& q) {
                return q.get() == &j;
            }));
            d_done.notify_all();
        }
    }

    // the oldest job with a task left that \p worker may take; null if none
    std::shared_ptr<job> next_job(size_t worker) const
    {
        for (const auto& j : d_jobs)
            if (worker < j->n_workers && j->next.load() < j->n_tasks)
                return j;
        return nullptr;
    }

    void worker_loop(size_t id)
    {
        std::unique_lock<std::mutex> lock(d_mutex);
        for (;;) {
            std::shared_ptr<job> j;
            d_wake.wait(lock, [&] { return d_quit || (j = next_job(id)) != nullptr; });
            if (!j)
                return; // quitting, nothing queued
            lock.unlock();
            drain(*j, id);
            lock.lock();
        }
    }

    const size_t d_max_workers;
    mutable std::mutex d_mutex;
    std::condition_variable d_wake, d_done;
    std::vector<std::thread> d_threads;
    std::deque<std::shared_ptr<job>> d_jobs; // queued, oldest first, until done
    job_id d_last_id = 0;
    bool d_quit = false;
};

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_WORKER_POOL_H */
