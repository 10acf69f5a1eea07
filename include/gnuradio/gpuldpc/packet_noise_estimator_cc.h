/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_PACKET_NOISE_ESTIMATOR_CC_H
#define INCLUDED_GPULDPC_PACKET_NOISE_ESTIMATOR_CC_H

#include <gnuradio/gpuldpc/api.h>
#include <gnuradio/tagged_stream_block.h>
#include <cstdint>
#include <string>

namespace gr {
namespace gpuldpc {

/*!
 * \brief Tags each packet of complex symbols with an estimate of its noise
 * variance N0, for soft_demapper_cf's noise_var_tag_key.
 * \ingroup gpuldpc
 *
 * \details
 * A tagged stream block: packets (length tag length_tag_key) pass through
 * unchanged, each with a tag noise_var_tag_key at its first symbol whose
 * value is the packet's N0 (a double), estimated decision-directed for the
 * constellation: the mean over the packet's finite symbols of |y - x̂|^2, x̂
 * the constellation point nearest y (engine::soft_demapper::estimate_noise_var).
 *
 * The estimator is unbiased while decisions are right (above about 10 dB
 * Es/N0 for QPSK, more for denser constellations); below, it underestimates
 * N0, so the LLRs come out overconfident. Its relative standard deviation
 * is about 1/sqrt(packet length) for complex Gaussian noise. A packet with
 * no finite symbol gets no tag and is counted (unestimated_packets());
 * estimates are at least min_noise_var (1e-6: 60 dB), so that a noiseless
 * packet still gives finite LLRs.
 *
 * Contract: make() MUST name a known constellation and a non-empty length
 * tag key, else std::invalid_argument naming the argument.
 */
class GPULDPC_API packet_noise_estimator_cc : virtual public gr::tagged_stream_block
{
public:
    typedef std::shared_ptr<packet_noise_estimator_cc> sptr;
    static constexpr float min_noise_var = 1e-6f;

    static sptr make(const std::string& constellation = "qpsk",
                     const std::string& length_tag_key = "packet_len",
                     const std::string& noise_var_tag_key = "noise_var");

    //! the last packet's estimate (NaN before the first)
    virtual float last_noise_var() const = 0;
    //! packets seen
    virtual uint64_t packets() const = 0;
    //! packets without a finite symbol (no tag)
    virtual uint64_t unestimated_packets() const = 0;
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_PACKET_NOISE_ESTIMATOR_CC_H */
