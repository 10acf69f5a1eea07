/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The staging threads: large copies split over them, and work in shares
// (the decoder block formats a large batch's results with them).

#include "engine/copy_pool.h"
#include <boost/test/unit_test.hpp>
#include <atomic>
#include <numeric>
#include <stdexcept>
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
