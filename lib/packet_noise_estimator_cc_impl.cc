/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "packet_noise_estimator_cc_impl.h"
#include "rate_limited_log.h"
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
    : gr::tagged_stream_block("packet_noise_estimator_cc",
                              gr::io_signature::make(1, 1, sizeof(std::complex<float>)),
                              gr::io_signature::make(1, 1, sizeof(std::complex<float>)),
                              length_tag_key),
      d_demapper(demapper),
      d_method(method),
      d_key(pmt::mp(noise_var_tag_key)),
      d_last(NAN)
{
}

int packet_noise_estimator_cc_impl::work(int noutput_items,
                                         gr_vector_int& ninput_items,
                                         gr_vector_const_void_star& input_items,
                                         gr_vector_void_star& output_items)
{
    const auto* in = static_cast<const std::complex<float>*>(input_items[0]);
    auto* out = static_cast<std::complex<float>*>(output_items[0]);
    const size_t n = size_t(ninput_items[0]);
    std::memcpy(out, in, n * sizeof(std::complex<float>));
    ++d_packets;
    const float estimate = d_demapper.estimate_noise_var(in, n, d_method);
    if (std::isfinite(estimate)) {
        const float noise_var = std::max(estimate, min_noise_var);
        d_last.store(noise_var);
        add_item_tag(0, nitems_written(0), d_key, pmt::from_double(noise_var));
    } else {
        const uint64_t missed = ++d_unestimated;
        if (should_log(missed))
            d_logger->warn("a packet of {} symbols without a finite one got no N0 "
                           "estimate ({} so far)",
                           n,
                           missed);
    }
    return int(n);
}

} // namespace gpuldpc
} // namespace gr
