/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The frame scanner fed as a GNU Radio buffer feeds a block: a window of the
// items not yet consumed, the length tags among them, a few items more each
// call. A packet of another length, or a corrupt length, loses its own items
// only, however the windows fall.

#include "frame_scanner.h"
#include <boost/test/unit_test.hpp>
#include <algorithm>
#include <vector>

using namespace gr::gpuldpc;

namespace {

struct packet {
    pmt::pmt_t length; // the tag's value
    size_t items;      // the items of the stream up to the next tag
};

struct scan_result {
    size_t frames = 0;
    std::vector<uint64_t> starts; // absolute
    frame_scanner::counters stats;
};

// Feeds the stream in windows that grow by \p step items a call.
scan_result
scan_in_steps(const std::vector<packet>& packets, size_t frame_len, size_t step)
{
    std::vector<gr::tag_t> tags;
    uint64_t total = 0;
    for (const auto& p : packets) {
        gr::tag_t t;
        t.offset = total;
        t.key = pmt::intern("packet_len");
        t.value = p.length;
        tags.push_back(t);
        total += p.items;
    }
    frame_scanner scanner(frame_len, "packet_len");
    scan_result r;
    uint64_t consumed = 0, written = 0;
    std::vector<size_t> starts;
    for (int guard = 0; guard < 1000000 && consumed < total; ++guard) {
        written = std::min<uint64_t>(total, written + step);
        const size_t avail = size_t(written - consumed);
        std::vector<gr::tag_t> window;
        for (const auto& t : tags)
            if (t.offset >= consumed && t.offset < written)
                window.push_back(t);
        starts.clear();
        const size_t used = scanner.scan(consumed, avail, window, 1000, starts);
        for (size_t s : starts)
            r.starts.push_back(consumed + s);
        consumed += used;
        if (written == total && used == 0)
            break; // the rest waits for items that never come
    }
    r.frames = r.starts.size();
    r.stats = scanner.stats();
    return r;
}

} // namespace

BOOST_AUTO_TEST_CASE(a_corrupt_length_loses_its_packet_only_in_any_windows)
{
    const size_t n = 96;
    for (const pmt::pmt_t& corrupt : { pmt::from_long(1L << 40),
                                       pmt::from_uint64(uint64_t(1) << 40),
                                       pmt::from_long(400) }) {
        std::vector<packet> packets(10, packet{ pmt::from_long(long(n)), n });
        packets[3].length = corrupt;
        for (size_t step : { 1, 7, 16, 61, 96, 97, 1000 }) {
            BOOST_TEST_CONTEXT("length " << corrupt << ", " << step << " items a call")
            {
                const auto r = scan_in_steps(packets, n, step);
                BOOST_CHECK_EQUAL(r.frames, 9u);
                BOOST_CHECK_EQUAL(r.stats.bad_length, 1u);
                BOOST_CHECK_EQUAL(r.stats.missing_tag_items, 0u);
                std::vector<uint64_t> expected;
                for (uint64_t i = 0; i < 10; ++i)
                    if (i != 3)
                        expected.push_back(i * n);
                BOOST_CHECK(r.starts == expected);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(a_packet_of_another_length_is_skipped_whole)
{
    // a well-formed packet of 150 items between frames: skipped across calls,
    // nothing counted as untagged
    const size_t n = 40;
    std::vector<packet> packets = { { pmt::from_long(long(n)), n },
                                    { pmt::from_long(150), 150 },
                                    { pmt::from_long(long(n)), n },
                                    { pmt::from_long(long(n)), n } };
    for (size_t step : { 3, 13, 40, 500 }) {
        BOOST_TEST_CONTEXT(step << " items a call")
        {
            const auto r = scan_in_steps(packets, n, step);
            BOOST_CHECK_EQUAL(r.frames, 3u);
            BOOST_CHECK_EQUAL(r.stats.bad_length, 1u);
            BOOST_CHECK_EQUAL(r.stats.last_bad_length, 150u);
            BOOST_CHECK_EQUAL(r.stats.missing_tag_items, 0u);
        }
    }
}
