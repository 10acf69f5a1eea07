/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_COPY_POOL_H
#define INCLUDED_GPULDPC_ENGINE_COPY_POOL_H

#include <gnuradio/gpuldpc/engine/config.h>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gr {
namespace gpuldpc {

/*!
 * \brief Splits large memcpy calls (and other work in independent shares, such
 * as packing decoded bits) over a few persistent threads, so that the staging
 * copies between pageable and pinned memory keep up with the copy engines.
 * The calling thread takes a share too.
 */
class GPULDPC_ENGINE_API copy_pool
{
public:
    //! \p helpers threads besides the caller; 0 copies on the caller alone
    explicit copy_pool(unsigned helpers);
    ~copy_pool();
    copy_pool(const copy_pool&) = delete;
    copy_pool& operator=(const copy_pool&) = delete;
    /*!
     * Copies \p bytes from \p src to \p dst (not overlapping); blocks until
     * done. Copies under 1 MiB run on the caller alone. One call at a time.
     */
    void copy(void* dst, const void* src, size_t bytes);
    /*!
     * Calls \p body(begin, end) on shares of the items [0, \p items), about
     * equal, one a thread (the caller's included; empty shares are skipped);
     * blocks until all are done, also when a share throws (the first
     * exception is then rethrown here). \p body MUST be safe to run on the
     * shares at once. One call at a time, and not beside copy().
     */
    template <typename Body>
    void for_each_share(size_t items, const Body& body)
    {
        share_items(items, &body, [](const void* b, size_t begin, size_t end) {
            (*static_cast<const Body*>(b))(begin, end);
        });
    }

    //! all cores but one, at most 11 besides the caller (host memory
    //! bandwidth, not the core count, limits beyond that)
    static unsigned default_helpers();

private:
    void worker(unsigned index);
    void stop_threads();
    // Work handed to the threads as a function and its context (no
    // allocation a call): share_fn(context, share), or range_fn(context,
    // begin, end) on items.
    using share_fn = void (*)(const void*, unsigned);
    using range_fn = void (*)(const void*, size_t, size_t);
    // runs job(context, share) for every share 0 .. threads, share 0 on the
    // caller
    void run_shares(share_fn job, const void* context);
    void share_items(size_t items, const void* body, range_fn call);

    std::vector<std::thread> d_threads;
    std::mutex d_mutex;
    std::condition_variable d_start, d_done;
    unsigned long d_generation = 0;
    unsigned d_pending = 0;
    bool d_stop = false;
    share_fn d_job = nullptr;
    const void* d_job_context = nullptr;
    std::exception_ptr d_failure; // the first a helper threw in this call
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_COPY_POOL_H */
