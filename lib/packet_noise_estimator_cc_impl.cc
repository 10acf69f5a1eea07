/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "frame_scanner.h"
#include "packet_noise_estimator_cc_impl.h"
#include "rate_limited_log.h"
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

packet_noise_estimator_cc::sptr
packet_noise_estimator_cc::make(const std::string& constellation,
                                const std::string& length_tag_key,
                                const std::string& noise_var_tag_key,
                                const std::string& method)
{
    if (length_tag_key.empty())
        throw std::invalid_argument("length_tag_key is empty; allowed: the key of the "
                                    "packets' length tags, e.g. 'packet_len'");
    if (noise_var_tag_key.empty())
        throw std::invalid_argument("noise_var_tag_key is empty; allowed: the key of "
                                    "the tags to write, e.g. 'noise_var'");
    const soft_demapper demapper(constellation::make(constellation), demapping::max_log);
    return gnuradio::make_block_sptr<packet_noise_estimator_cc_impl>(
        demapper, parse_noise_estimator(method), length_tag_key, noise_var_tag_key);
}

packet_noise_estimator_cc_impl::packet_noise_estimator_cc_impl(
    const soft_demapper& demapper,
    noise_estimator method,
    const std::string& length_tag_key,
    const std::string& noise_var_tag_key)
    : gr::block("packet_noise_estimator_cc",
                gr::io_signature::make(1, 1, sizeof(std::complex<float>)),
                gr::io_signature::make(1, 1, sizeof(std::complex<float>))),
      d_demapper(demapper),
      d_method(method),
      d_length_key(pmt::mp(length_tag_key)),
      d_key(pmt::mp(noise_var_tag_key)),
      d_last(NAN)
{
    // the tags of each packet that comes out go with it; skipped ones do not
    set_tag_propagation_policy(TPP_DONT);
}

bool packet_noise_estimator_cc_impl::start()
{
    // a re-run of the flowgraph starts on fresh buffers
    d_resync = false;
    d_in_missing_run = false;
    set_min_noutput_items(1);
    return true;
}

uint64_t packet_noise_estimator_cc_impl::max_packet() const
{
    const auto d = detail();
    if (!d)
        return 0;
    // GNU Radio offers a block at most half its output buffer a call
    const uint64_t in =
        uint64_t(std::max(d->input(0)->max_possible_items_available(), 0));
    const uint64_t out = d->output(0)->bufsize() / 2;
    return std::min(in, out);
}

uint64_t packet_noise_estimator_cc_impl::usable_length(const pmt::pmt_t& value) const
{
    const int64_t len = frame_scanner::tag_length(value);
    return len > 0 && uint64_t(len) <= max_packet() ? uint64_t(len) : 0;
}

uint64_t packet_noise_estimator_cc_impl::packet_at(uint64_t at)
{
    d_tags.clear();
    get_tags_in_range(d_tags, 0, at, at + 1, d_length_key);
    return d_tags.empty() ? 0 : usable_length(d_tags.front().value);
}

void packet_noise_estimator_cc_impl::count_bad(uint64_t length)
{
    const uint64_t bad = ++d_bad;
    if (should_log(bad))
        d_logger->warn("skipped a packet with a malformed length ({}; allowed: 1 to {} "
                       "symbols, the buffers' size, with no length tag inside) up to "
                       "the next '{}' tag ({} so far)",
                       length,
                       max_packet(),
                       pmt::symbol_to_string(d_length_key),
                       bad);
}

void packet_noise_estimator_cc_impl::forecast(int, gr_vector_int& required)
{
    const auto reader = detail() ? detail()->input(0) : nullptr;
    int need = 1;
    // a whole packet at once; one item where items are skipped or the input
    // has ended (work() then counts what can never complete)
    if (reader && !reader->done() && !d_resync) {
        const uint64_t len = packet_at(nitems_read(0));
        if (len > 0)
            need = int(std::min<uint64_t>(len, uint64_t(INT32_MAX)));
    }
    required[0] = need;
}

int packet_noise_estimator_cc_impl::general_work(int noutput_items,
                                                 gr_vector_int& ninput_items,
                                                 gr_vector_const_void_star& input_items,
                                                 gr_vector_void_star& output_items)
{
    const auto* in = static_cast<const std::complex<float>*>(input_items[0]);
    auto* out = static_cast<std::complex<float>*>(output_items[0]);
    const size_t avail = size_t(ninput_items[0]);
    const uint64_t first = nitems_read(0);
    auto& length_tags = d_tags;
    length_tags.clear();
    get_tags_in_window(length_tags, 0, 0, avail, d_length_key);
    std::stable_sort(length_tags.begin(),
                     length_tags.end(),
                     [](const auto& a, const auto& b) { return a.offset < b.offset; });
    // the first length tag at or after relative item p
    const auto tag_from = [&](size_t p) {
        return std::lower_bound(
            length_tags.begin(),
            length_tags.end(),
            first + p,
            [](const gr::tag_t& t, uint64_t o) { return t.offset < o; });
    };
    // its item (avail: none)
    const auto next_tag = [&](size_t p) {
        const auto it = tag_from(p);
        return it == length_tags.end() ? avail : size_t(it->offset - first);
    };

    size_t pos = 0, produced = 0;
    while (pos < avail) {
        const size_t next = next_tag(pos);
        if (d_resync) {
            // inside a packet of unknown extent: up to the next length tag
            pos = next;
            d_resync = next == avail;
            continue;
        }
        if (next > pos) {
            if (!d_in_missing_run && should_log(++d_missing_runs))
                d_logger->warn("skipped symbols without a '{}' tag ({} in {} runs so "
                               "far): a packet starts at a length tag",
                               pmt::symbol_to_string(d_length_key),
                               d_missing.load() + (next - pos),
                               d_missing_runs);
            d_missing += next - pos;
            d_in_missing_run = next == avail; // the run may go on
            pos = next;
            continue;
        }
        d_in_missing_run = false;
        // a length tag at pos
        const pmt::pmt_t& value = tag_from(pos)->value;
        const uint64_t len = usable_length(value);
        if (len == 0) {
            const int64_t claimed = frame_scanner::tag_length(value);
            count_bad(claimed < 0 ? 0 : uint64_t(claimed));
            d_resync = true;
            pos += 1;
            continue;
        }
        const size_t inner = next_tag(pos + 1);
        if (inner < avail && inner < pos + len) {
            // another packet starts inside this one: its length was wrong
            count_bad(len);
            pos = inner;
            continue;
        }
        if (pos + len > avail) {
            const auto reader = detail()->input(0);
            gr::thread::scoped_lock guard(*reader->mutex());
            if (reader->done() && size_t(reader->items_available()) <= avail) {
                const uint64_t cut = ++d_truncated;
                if (should_log(cut))
                    d_logger->warn("the stream ended inside a packet: {} of {} symbols "
                                   "dropped ({} so far)",
                                   avail - pos,
                                   len,
                                   cut);
                pos = avail;
            }
            break; // else wait for the rest
        }
        if (produced + len > size_t(noutput_items)) {
            // wait for room: the scheduler calls again once a whole packet
            // fits, instead of at once
            if (produced == 0)
                set_min_noutput_items(int(len));
            break;
        }
        if (min_noutput_items() > 1)
            set_min_noutput_items(1);
        std::memcpy(out + produced, in + pos, len * sizeof(std::complex<float>));
        const uint64_t out_abs = nitems_written(0) + produced;
        d_packet_tags.clear();
        get_tags_in_range(d_packet_tags, 0, first + pos, first + pos + len);
        for (auto t : d_packet_tags) {
            t.offset = t.offset - (first + pos) + out_abs;
            add_item_tag(0, t);
        }
        ++d_packets;
        const float estimate = d_demapper.estimate_noise_var(in + pos, len, d_method);
        if (std::isfinite(estimate)) {
            const float noise_var = std::max(estimate, min_noise_var);
            d_last.store(noise_var);
            add_item_tag(0, out_abs, d_key, pmt::from_double(noise_var));
        } else {
            const uint64_t missed = ++d_unestimated;
            if (should_log(missed))
                d_logger->warn("a packet of {} symbols without a finite one got no N0 "
                               "estimate ({} so far)",
                               len,
                               missed);
        }
        pos += len;
        produced += len;
    }
    consume_each(int(pos));
    return int(produced);
}

} // namespace gpuldpc
} // namespace gr
