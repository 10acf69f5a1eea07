/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_SOFT_DEMAPPER_CF_H
#define INCLUDED_GPULDPC_SOFT_DEMAPPER_CF_H

#include <gnuradio/digital/constellation.h>
#include <gnuradio/gpuldpc/api.h>
#include <gnuradio/sync_interpolator.h>
#include <string>

namespace gr {
namespace gpuldpc {

/*!
 * \brief Soft demapper: complex symbols in, calibrated bit LLRs out.
 * \ingroup gpuldpc
 *
 * \details
 * Each symbol gives bits_per_symbol LLRs, log(P(1)/P(0)) (GNU Radio's sign:
 * positive means 1), MSB first, for complex AWGN of variance N0 = E|n|^2,
 * exact (log-sum-exp) or max-log. Unlike constellation_soft_decoder_cf, whose
 * noise power is fixed at 1, these are LLRs a decoder can use as they are;
 * their hard decisions are constellation_soft_decoder_cf's.
 *
 * The constellation: a GNU Radio digital::constellation object
 * (make_from_constellation(); in Python the first argument of the
 * constructor may be one), whose points() carry the bits of their index, or
 * of pre_diff_code()[index] where apply_pre_diff_code() holds, as its soft
 * decoder labels them; or a name (engine::constellation): "bpsk", "qpsk",
 * "8psk", "16qam" are GNU Radio's digital.constellation_bpsk() ...
 * _16qam(), points and labels as GNU Radio has them; "gpuldpc-bpsk",
 * "gpuldpc-qpsk", "gpuldpc-8psk", "gpuldpc-16qam", "gpuldpc-64qam",
 * "gpuldpc-256qam" the module's Gray family of unit energy (the matched
 * GF(q) mapping of the decoder's input "symbols" and the packet link).
 *
 * N0: the noise_var argument (set_noise_var() at run time), replaced from a
 * tag's offset on by the value of a tag with key noise_var_tag_key (a
 * number; a tag whose value is not a positive finite number is counted and
 * ignored). Tags are propagated at rate bits_per_symbol.
 *
 * Device: "auto" (a GPU when one is usable, else the CPU, said once in the
 * log), "cpu", "cuda", "cuda:N"; an explicit "cuda" without a usable device
 * is an error (std::runtime_error) when the block is made. The CPU computes
 * the distances with VOLK; a GPU gives the same LLRs to float rounding
 * (engine::soft_demapper_cuda). A failed CUDA call while the block runs makes
 * it demap on the CPU from then on, with one error line in the log; no
 * symbol is lost.
 *
 * Contract: make() MUST be given noise_var > 0; set_noise_var() likewise,
 * else std::invalid_argument. Non-finite symbols give NaN LLRs, which the
 * decoder counts and erases.
 */
class GPULDPC_API soft_demapper_cf : virtual public gr::sync_interpolator
{
public:
    typedef std::shared_ptr<soft_demapper_cf> sptr;
    static sptr make(const std::string& constellation = "qpsk",
                     const std::string& demapping = "exact",
                     float noise_var = 1.0f,
                     const std::string& noise_var_tag_key = "",
                     const std::string& device = "auto");

    /*!
     * A GNU Radio constellation object (one dimension, 2 to 256 points, a
     * power of two); std::invalid_argument otherwise.
     */
    static sptr make_from_constellation(gr::digital::constellation_sptr constellation,
                                        const std::string& demapping = "exact",
                                        float noise_var = 1.0f,
                                        const std::string& noise_var_tag_key = "",
                                        const std::string& device = "auto");

    virtual void set_noise_var(float noise_var) = 0;
    virtual float noise_var() const = 0;
    virtual int bits_per_symbol() const = 0;
    //! tags of noise_var_tag_key whose value was not a positive finite number
    virtual uint64_t bad_noise_var_tags() const = 0;
    //! where the block demaps now: "cpu" or the GPU's name
    virtual std::string device_name() const = 0;
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_SOFT_DEMAPPER_CF_H */
