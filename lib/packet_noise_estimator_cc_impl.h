/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_PACKET_NOISE_ESTIMATOR_CC_IMPL_H
#define INCLUDED_GPULDPC_PACKET_NOISE_ESTIMATOR_CC_IMPL_H

#include <gnuradio/gpuldpc/engine/soft_demapper.h>
#include <gnuradio/gpuldpc/packet_noise_estimator_cc.h>
#include <pmt/pmt.h>
#include <atomic>
#include <vector>

namespace gr {
namespace gpuldpc {

class packet_noise_estimator_cc_impl : public packet_noise_estimator_cc
{
public:
    packet_noise_estimator_cc_impl(const soft_demapper& demapper,
                                   noise_estimator method,
                                   const std::string& length_tag_key,
                                   const std::string& noise_var_tag_key);

    float last_noise_var() const override { return d_last.load(); }
    uint64_t packets() const override { return d_packets.load(); }
    uint64_t unestimated_packets() const override { return d_unestimated.load(); }
    uint64_t bad_packets() const override { return d_bad.load(); }
    uint64_t missing_tag_items() const override { return d_missing.load(); }
    uint64_t truncated_packets() const override { return d_truncated.load(); }

    bool start() override;
    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

private:
    // The packet length a length tag's value gives where it fits the buffers,
    // else 0 (a malformed length).
    uint64_t usable_length(const pmt::pmt_t& value) const;
    // usable_length() of the length tag at absolute item \p at; 0 without one
    uint64_t packet_at(uint64_t at);
    // The most items a packet may have: what the buffers around the block hold.
    uint64_t max_packet() const;
    void count_bad(uint64_t length);

    const soft_demapper d_demapper;
    const noise_estimator d_method;
    const pmt::pmt_t d_length_key;
    const pmt::pmt_t d_key;
    // skipping a malformed packet up to the next length tag
    bool d_resync = false;
    bool d_in_missing_run = false;
    uint64_t d_missing_runs = 0;
    // work() and forecast() scratch: length tags, and the tags of a packet
    std::vector<gr::tag_t> d_tags, d_packet_tags;
    std::atomic<float> d_last;
    std::atomic<uint64_t> d_packets{ 0 }, d_unestimated{ 0 }, d_bad{ 0 }, d_missing{ 0 },
        d_truncated{ 0 };
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_PACKET_NOISE_ESTIMATOR_CC_IMPL_H */
