/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_FRAME_SCANNER_H
#define INCLUDED_GPULDPC_FRAME_SCANNER_H

#include <gnuradio/tags.h>
#include <pmt/pmt.h>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {

/*!
 * \brief Finds fixed-length frames in a stream, tagged or not.
 *
 * Untagged (empty key): the stream is cut into consecutive frames.
 * Tagged: a length tag at an item starts a packet of that many items. Packets
 * of the expected length are frames; other packets are skipped and counted
 * (bad_length) up to their claimed end or the next length tag, whichever
 * comes first, so that a corrupt length (2^40) loses only the items up to the
 * next packet; items before the next length tag are skipped and counted
 * (missing_tag). State carries over between calls, so a skip may span several
 * work() calls. Not thread-safe: one scanner per block, used by the block's
 * thread.
 */
class frame_scanner
{
public:
    struct counters {
        uint64_t frames = 0;            //!< good frames found
        uint64_t bad_length = 0;        //!< packets of another length, skipped
        uint64_t missing_tag_runs = 0;  //!< runs of items without a length tag
        uint64_t missing_tag_items = 0; //!< items in those runs
        uint64_t last_bad_length = 0;   //!< length of the last bad packet
    };

    frame_scanner(size_t frame_len, const std::string& length_tag_key);

    bool tagged() const { return d_tagged; }
    const pmt::pmt_t& key() const { return d_key; }
    size_t frame_len() const { return d_frame_len; }
    const counters& stats() const { return d_stats; }
    /*! Whether the scanner is inside a packet of another length (skipping it). */
    bool skipping() const { return d_skip_remaining > 0; }
    /*! Forgets the stream (a new run starts on new buffers); counters stay. */
    void reset();

    /*!
     * The packet length a length tag holds: any PMT integer (long or uint64);
     * -1 for other values, negative ones, and those beyond int64.
     */
    static int64_t tag_length(const pmt::pmt_t& value);

    /*!
     * Scans items [abs_start, abs_start + n_avail). \p length_tags are the tags
     * with the length key in that window, sorted by offset. Appends the
     * relative start of up to \p max_frames complete frames to \p starts and
     * returns the number of items that may be consumed.
     */
    size_t scan(uint64_t abs_start,
                size_t n_avail,
                const std::vector<gr::tag_t>& length_tags,
                size_t max_frames,
                std::vector<size_t>& starts);

private:
    size_t d_frame_len;
    bool d_tagged;
    pmt::pmt_t d_key;
    uint64_t d_skip_remaining = 0;
    bool d_in_missing_run = false;
    // the item of the malformed length tags counted last, and how many of
    // them: a frame waiting for its rest makes the next call meet them again
    uint64_t d_malformed_counted_at = std::numeric_limits<uint64_t>::max();
    size_t d_malformed_counted = 0;
    counters d_stats;
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_FRAME_SCANNER_H */
