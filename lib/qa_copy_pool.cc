/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The staging threads: large copies split over them, and work in shares
// (the decoder block formats a large batch's results with them); and the
// CPU decoders' worker pool, its jobs run at once or queued.

#include "engine/copy_pool.h"
#include "engine/worker_pool.h"
#include <boost/test/unit_test.hpp>
#include <atomic>
#include <chrono>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace gr::gpuldpc;

BOOST_AUTO_TEST_CASE(copies_of_every_size_arrive_whole)
{
    for (unsigned helpers : { 0u, 1u, 3u }) {
        copy_pool pool(helpers);
        // below and above the 1 MiB where helpers join, and not a multiple of
        // the 4 KiB slices
        for (size_t bytes : { size_t(0),
                              size_t(1),
                              size_t(4097),
                              size_t(1) << 20,
                              (size_t(5) << 20) + 12345 }) {
            std::vector<unsigned char> src(bytes), dst(bytes + 1, 0xee);
            for (size_t i = 0; i < bytes; ++i)
                src[i] = static_cast<unsigned char>(i * 131 + i / 4096);
            pool.copy(dst.data(), src.data(), bytes);
            BOOST_CHECK(std::equal(src.begin(), src.end(), dst.begin()));
            BOOST_CHECK_EQUAL(dst[bytes], 0xee); // nothing past the end
        }
    }
}

BOOST_AUTO_TEST_CASE(shares_cover_every_item_once)
{
    for (unsigned helpers : { 0u, 1u, 3u }) {
        copy_pool pool(helpers);
        for (size_t items : { size_t(0),
                              size_t(1),
                              size_t(2),
                              size_t(3),
                              size_t(4),
                              size_t(5),
                              size_t(1000) }) {
            std::vector<std::atomic<unsigned>> hits(items);
            std::atomic<unsigned> calls{ 0 }, bad_shares{ 0 };
            // checked here, on this thread, after the call
            pool.for_each_share(items, [&](size_t begin, size_t end) {
                ++calls;
                if (begin >= end || end > items) {
                    ++bad_shares;
                    return;
                }
                for (size_t i = begin; i < end; ++i)
                    ++hits[i];
            });
            BOOST_CHECK_EQUAL(bad_shares.load(), 0u);
            for (size_t i = 0; i < items; ++i)
                BOOST_CHECK_EQUAL(hits[i].load(), 1u);
            // one share a thread at most, none empty
            BOOST_CHECK_LE(calls.load(), std::min<size_t>(items, helpers + 1));
            if (items >= helpers + 1)
                BOOST_CHECK_EQUAL(calls.load(), helpers + 1);
        }
    }
}

BOOST_AUTO_TEST_CASE(a_share_that_throws_is_waited_for_and_rethrown)
{
    copy_pool pool(3);
    for (size_t thrower : { size_t(0), size_t(3) }) { // the caller's share, a helper's
        std::vector<std::atomic<unsigned>> hits(4);
        BOOST_CHECK_THROW(pool.for_each_share(4,
                                              [&](size_t begin, size_t) {
                                                  if (begin == thrower)
                                                      throw std::runtime_error("share");
                                                  ++hits[begin];
                                              }),
                          std::runtime_error);
        // every other share ran to its end before the call returned
        for (size_t i = 0; i < 4; ++i)
            BOOST_CHECK_EQUAL(hits[i].load(), i == thrower ? 0u : 1u);
    }
    // and the pool works on
    std::vector<unsigned> out(8, 0);
    pool.for_each_share(out.size(), [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i)
            out[i] = unsigned(i);
    });
    for (size_t i = 0; i < out.size(); ++i)
        BOOST_CHECK_EQUAL(out[i], i);
}

BOOST_AUTO_TEST_CASE(copies_and_shares_take_turns)
{
    // the same threads for both kinds of work, call after call
    copy_pool pool(3);
    std::vector<unsigned char> src(size_t(3) << 20), dst(src.size());
    std::iota(src.begin(), src.end(), 0);
    std::vector<uint64_t> sums(500);
    for (int round = 0; round < 50; ++round) {
        src[size_t(round) * 1000] = static_cast<unsigned char>(round);
        pool.copy(dst.data(), src.data(), src.size());
        BOOST_REQUIRE(dst == src);
        pool.for_each_share(sums.size(), [&](size_t begin, size_t end) {
            for (size_t i = begin; i < end; ++i)
                sums[i] = i * uint64_t(round);
        });
        for (size_t i = 0; i < sums.size(); ++i)
            BOOST_REQUIRE_EQUAL(sums[i], i * uint64_t(round));
    }
}

namespace {

// Per-task records of a worker_pool job: how often each task ran, the worker
// of each, and whether a worker index ever ran two tasks at once.
struct job_record {
    explicit job_record(size_t tasks) : hits(tasks), worker(tasks) {}
    std::vector<std::atomic<unsigned>> hits;
    std::vector<std::atomic<size_t>> worker;
};

} // namespace

BOOST_AUTO_TEST_CASE(worker_pool_runs_every_task_once_on_its_workers)
{
    using gr::gpuldpc::detail::worker_pool;
    worker_pool pool(4);
    // a worker index busy in two tasks at once would share its state
    std::vector<std::atomic<int>> busy(4);
    std::atomic<unsigned> overlaps{ 0 }, bad_worker{ 0 };
    auto body = [&](job_record& r, size_t n_workers) {
        return [&, n_workers](size_t task, size_t worker) {
            if (worker >= n_workers) {
                ++bad_worker;
                return;
            }
            if (busy[worker]++ != 0)
                ++overlaps;
            std::this_thread::sleep_for(std::chrono::microseconds(50 + task % 7 * 20));
            ++r.hits[task];
            r.worker[task] = worker;
            --busy[worker];
        };
    };
    for (size_t tasks : { size_t(0), size_t(1), size_t(5), size_t(64) }) {
        for (size_t workers : { size_t(1), size_t(3), size_t(9) }) {
            job_record r(tasks);
            pool.run(tasks, workers, body(r, std::min<size_t>(workers, 4)));
            for (size_t t = 0; t < tasks; ++t)
                BOOST_CHECK_EQUAL(r.hits[t].load(), 1u);
        }
    }
    // two queued jobs and a third run behind them: each task once, each
    // job's tasks on its own workers only
    for (int round = 0; round < 20; ++round) {
        job_record a(37), b(11), c(23);
        const auto ja = pool.submit(37, 4, body(a, 4));
        const auto jb = pool.submit(11, 2, body(b, 2));
        pool.run(23, 3, body(c, 3));
        pool.wait(ja);
        pool.wait(jb);
        pool.wait(jb); // a finished job: returns at once
        for (auto* r : { &a, &b, &c })
            for (auto& h : r->hits)
                BOOST_REQUIRE_EQUAL(h.load(), 1u);
        for (auto& w : b.worker)
            BOOST_REQUIRE_LT(w.load(), 2u);
    }
    BOOST_CHECK_EQUAL(overlaps.load(), 0u);
    BOOST_CHECK_EQUAL(bad_worker.load(), 0u);
    BOOST_CHECK_LE(pool.threads_started(), 3u);
}

BOOST_AUTO_TEST_CASE(worker_pool_threads_start_on_a_queued_job_by_themselves)
{
    using gr::gpuldpc::detail::worker_pool;
    std::vector<std::atomic<unsigned>> hits(16);
    {
        worker_pool pool(3);
        const auto j = pool.submit(16, 3, [&](size_t task, size_t worker) {
            hits[task] += worker == 0 ? 100 : 1; // worker 0 is wait()'s thread
        });
        // nobody waits yet: the pool's threads take every task
        for (int i = 0; i < 10000; ++i) {
            unsigned done = 0;
            for (auto& h : hits)
                done += h.load() != 0;
            if (done == hits.size())
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        pool.wait(j);
        for (auto& h : hits)
            BOOST_CHECK_EQUAL(h.load(), 1u);
        // a job never waited for is finished by the destructor
        pool.submit(16, 1, [&](size_t task, size_t) { hits[task] += 10; });
    }
    for (auto& h : hits)
        BOOST_CHECK_EQUAL(h.load(), 11u);
}
