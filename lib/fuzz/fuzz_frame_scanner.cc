/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The frame scanner of the stream blocks against random tag streams: the
// input grows a stream step by step (items, and length tags at random places
// whose values are long, uint64, negative, huge, zero, non-integer or not
// numbers at all) and feeds the scanner the window a GNU Radio buffer would
// (the items not yet consumed, the length tags among them in order), with a
// random room for frames. Checked after every call: no more consumed than
// offered; frame starts ascending, whole and inside what was consumed; the
// counters agree with what was returned, and no tag is counted twice as a bad
// packet; progress whenever a frame's worth of items is waiting; and the items
// consumed are all frames, skipped packets or counted untagged items.

#include "../frame_scanner.h"
#include "fuzz_input.h"
#include <pmt/pmt.h>
#include <algorithm>
#include <limits>
#include <vector>

using namespace gr::gpuldpc;

namespace {

pmt::pmt_t tag_value(fuzz::input_reader& in, size_t frame_len)
{
    switch (in.byte() % 10) {
    case 0:
    case 1:
    case 2:
        return pmt::from_long(long(frame_len)); // a good packet
    case 3:
        return pmt::from_long(long(in.byte() % 200)); // another length, or 0
    case 4:
        return pmt::from_long(-long(in.byte()) - 1);
    case 5:
        return pmt::from_uint64(in.take<uint64_t>());
    case 6:
        return pmt::from_long(in.take<int64_t>());
    case 7:
        return pmt::from_double(double(frame_len) + 0.5);
    case 8:
        return pmt::intern("packet");
    default:
        return pmt::PMT_NIL;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    fuzz::input_reader in(data, size);
    const size_t frame_len = 1 + in.byte() % 64;
    const bool tagged = (in.byte() & 1) != 0;
    const pmt::pmt_t key = pmt::intern("packet_len");
    frame_scanner scanner(frame_len, tagged ? "packet_len" : "");

    std::vector<gr::tag_t> tags; // of the whole stream, by offset
    uint64_t produced = 0, consumed = 0, frames = 0;
    std::vector<size_t> starts;
    for (int step = 0; step < 256 && !in.empty(); ++step) {
        const uint64_t added = in.byte() % 160;
        const unsigned n_tags = tagged ? in.byte() % 4 : 0;
        for (unsigned t = 0; t < n_tags && added > 0; ++t) {
            gr::tag_t tag;
            tag.offset = produced + in.byte() % added;
            tag.key = key;
            tag.value = tag_value(in, frame_len);
            tags.push_back(tag);
        }
        std::stable_sort(tags.begin(), tags.end(), [](const auto& a, const auto& b) {
            return a.offset < b.offset;
        });
        produced += added;

        const size_t n_avail = size_t(produced - consumed);
        std::vector<gr::tag_t> window;
        for (const auto& t : tags)
            if (t.offset >= consumed && t.offset < produced)
                window.push_back(t);
        const size_t max_frames = in.byte() % 9; // 0 too: no room downstream
        starts.clear();
        const size_t used = scanner.scan(consumed, n_avail, window, max_frames, starts);

        if (used > n_avail)
            fuzz::broken("consumed more items than offered");
        if (starts.size() > max_frames)
            fuzz::broken("more frames than room for them");
        for (size_t i = 0; i < starts.size(); ++i) {
            if (starts[i] + frame_len > used)
                fuzz::broken("a frame beyond the items consumed");
            if (i > 0 && starts[i] < starts[i - 1] + frame_len)
                fuzz::broken("frames overlap or go backwards");
        }
        if (max_frames > 0 && n_avail >= frame_len && used == 0)
            fuzz::broken("no progress with a frame's worth of items waiting");
        if (!tagged && used != std::min(max_frames, n_avail / frame_len) * frame_len)
            fuzz::broken("untagged: not the whole frames that fit");
        frames += starts.size();
        consumed += used;
        const auto& s = scanner.stats();
        if (s.frames != frames)
            fuzz::broken("frame counter differs from the frames returned");
        if (s.frames * frame_len + s.missing_tag_items > consumed)
            fuzz::broken("frames and untagged items exceed the items consumed");
        const auto tags_passed =
            size_t(std::count_if(tags.begin(), tags.end(), [&](const gr::tag_t& t) {
                return t.offset <= consumed; // a tag where a frame waits too
            }));
        if (s.bad_length > tags_passed)
            fuzz::broken("more bad packets counted than tags consumed (a tag counted "
                         "twice)");
        if (!tagged && (s.bad_length != 0 || s.missing_tag_items != 0))
            fuzz::broken("untagged stream counted tag errors");
    }
    return 0;
}
