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

    int work(int noutput_items,
             gr_vector_int& ninput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

protected:
    int calculate_output_stream_length(const gr_vector_int& ninput_items) override
    {
        return ninput_items[0];
    }

private:
    const soft_demapper d_demapper;
    const noise_estimator d_method;
    const pmt::pmt_t d_key;
    std::atomic<float> d_last;
    std::atomic<uint64_t> d_packets{ 0 }, d_unestimated{ 0 };
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_PACKET_NOISE_ESTIMATOR_CC_IMPL_H */
