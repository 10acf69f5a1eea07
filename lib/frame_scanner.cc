/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "frame_scanner.h"
#include <algorithm>
#include <cstdint>
#include <limits>

namespace gr {
namespace gpuldpc {

frame_scanner::frame_scanner(size_t frame_len, const std::string& length_tag_key)
    : d_frame_len(frame_len),
      d_tagged(!length_tag_key.empty()),
      d_key(length_tag_key.empty() ? pmt::PMT_NIL : pmt::intern(length_tag_key))
{
}

void frame_scanner::reset()
{
    d_skip_remaining = 0;
    d_in_missing_run = false;
    d_malformed_counted_at = std::numeric_limits<uint64_t>::max();
    d_malformed_counted = 0;
}

int64_t frame_scanner::tag_length(const pmt::pmt_t& value)
{
    if (pmt::is_uint64(value)) {
        const uint64_t v = pmt::to_uint64(value);
        return v > uint64_t(INT64_MAX) ? -1 : int64_t(v);
    }
    if (pmt::is_integer(value)) {
        const int64_t v = pmt::to_long(value);
        return v < 0 ? -1 : v;
    }
    return -1;
}

size_t frame_scanner::scan(uint64_t abs_start,
                           size_t n_avail,
                           const std::vector<gr::tag_t>& length_tags,
                           size_t max_frames,
                           std::vector<size_t>& starts)
{
    if (!d_tagged) {
        const size_t n = std::min(max_frames, n_avail / d_frame_len);
        for (size_t i = 0; i < n; ++i)
            starts.push_back(i * d_frame_len);
        d_stats.frames += n;
        return n * d_frame_len;
    }

    size_t pos = 0;
    if (d_skip_remaining > 0) {
        // a skipped packet ends at its claimed end or at the next length tag
        // (none in this window: the skip goes on)
        const uint64_t next_tag = length_tags.empty()
                                      ? std::numeric_limits<uint64_t>::max()
                                      : length_tags.front().offset - abs_start;
        if (next_tag < d_skip_remaining) {
            pos = size_t(next_tag);
            d_skip_remaining = 0;
        } else {
            const size_t adv = size_t(std::min<uint64_t>(d_skip_remaining, n_avail));
            pos += adv;
            d_skip_remaining -= adv;
            if (d_skip_remaining > 0)
                return pos;
        }
    }
    size_t ti = 0;
    size_t found = 0;
    // malformed length tags met at one item in this call
    uint64_t malformed_at = std::numeric_limits<uint64_t>::max();
    size_t malformed_here = 0;
    while (found < max_frames && pos < n_avail) {
        // length tags inside a packet already handled do not start packets
        while (ti < length_tags.size() && length_tags[ti].offset < abs_start + pos)
            ++ti;
        if (ti == length_tags.size() || length_tags[ti].offset > abs_start + pos) {
            const size_t next = ti == length_tags.size()
                                    ? n_avail
                                    : size_t(length_tags[ti].offset - abs_start);
            if (!d_in_missing_run)
                d_stats.missing_tag_runs++;
            d_in_missing_run = next == n_avail; // the run may go on in the next call
            d_stats.missing_tag_items += next - pos;
            pos = next;
            continue;
        }
        d_in_missing_run = false;
        const pmt::pmt_t& v = length_tags[ti].value;
        const int64_t len = tag_length(v);
        if (len == int64_t(d_frame_len)) {
            if (pos + d_frame_len > n_avail)
                break; // wait for the rest of the frame
            starts.push_back(pos);
            ++found;
            d_stats.frames++;
            pos += d_frame_len;
            continue;
        }
        // a packet of another length (or a malformed length): skip it whole
        ++ti;
        if (len <= 0) {
            // nothing to skip; the items that follow count as untagged. Such
            // tags at the item where a frame waits for its rest are met again
            // by the next call: each is counted once.
            const uint64_t at = abs_start + pos;
            if (at != malformed_at) {
                malformed_at = at;
                malformed_here = 0;
            }
            ++malformed_here;
            if (at == d_malformed_counted_at && malformed_here <= d_malformed_counted)
                continue;
            d_malformed_counted_at = at;
            d_malformed_counted = malformed_here;
            d_stats.bad_length++;
            d_stats.last_bad_length = 0;
            continue;
        }
        d_stats.bad_length++;
        d_stats.last_bad_length = uint64_t(len);
        // the next length tag past this one ends the packet early: a length no
        // frame has may be corrupt, and the packets after it must not be lost
        while (ti < length_tags.size() && length_tags[ti].offset <= abs_start + pos)
            ++ti;
        if (ti < length_tags.size() &&
            length_tags[ti].offset - (abs_start + pos) < uint64_t(len)) {
            pos = size_t(length_tags[ti].offset - abs_start);
            continue;
        }
        const size_t adv = size_t(std::min<uint64_t>(uint64_t(len), n_avail - pos));
        pos += adv;
        d_skip_remaining = uint64_t(len) - adv;
        if (d_skip_remaining > 0)
            break;
    }
    return pos;
}

} // namespace gpuldpc
} // namespace gr
