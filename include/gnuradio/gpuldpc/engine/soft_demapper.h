/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_SOFT_DEMAPPER_H
#define INCLUDED_GPULDPC_ENGINE_SOFT_DEMAPPER_H

#include <gnuradio/gpuldpc/engine/config.h>
#include <complex>
#include <cstddef>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {

/*!
 * \brief A Gray-labelled constellation of unit average energy.
 *
 * points()[x] is the point of label x, whose bits_per_symbol() bits are
 * sent MSB first. Names and labelling:
 * - "bpsk": 0 -> +1, 1 -> -1 (bit b -> 1 - 2b, the module's simulations' map);
 * - "qpsk": bits (b0 b1) -> ((1 - 2 b0) + j (1 - 2 b1)) / sqrt(2);
 * - "8psk": point k at angle 2 pi k / 8 carries label k ^ (k >> 1) (Gray
 *   around the circle);
 * - "16qam", "64qam", "256qam": square QAM, the first half of the bits
 *   (MSB first) Gray-label the in-phase level, the second half the
 *   quadrature level; level i of L (i = 0 .. L - 1) is 2 i - (L - 1), its
 *   label i ^ (i >> 1); scaled to unit average energy.
 * Neighbouring points (nearest in the plane) differ in one bit.
 */
class GPULDPC_ENGINE_API constellation
{
public:
    /*! By name, see the class description; std::invalid_argument otherwise. */
    static constellation make(const std::string& name);
    /*! The names make() takes. */
    static std::vector<std::string> names();

    const std::string& name() const { return d_name; }
    unsigned bits_per_symbol() const { return d_bits; }
    const std::vector<std::complex<float>>& points() const { return d_points; }

private:
    constellation(std::string name, unsigned bits, std::vector<std::complex<float>> p);
    std::string d_name;
    unsigned d_bits;
    std::vector<std::complex<float>> d_points;
};

/*! How bit LLRs are made from the distances to all points. */
enum class demapping {
    exact,   //!< log-sum-exp over the points of each bit value
    max_log, //!< the nearest point of each bit value only
};

/*! Parses "exact", "max-log" (also "max_log"); throws naming \p arg. */
GPULDPC_ENGINE_API demapping parse_demapping(const std::string& s,
                                             const std::string& arg = "demapping");

/*!
 * \brief Soft demapping: complex symbols to calibrated bit LLRs.
 *
 * For a received y and complex AWGN of variance N0 = E|n|^2 (noise_var),
 * P(y | x) is proportional to exp(-|y - x|^2 / N0), and the LLR of bit b of
 * a symbol is log(sum_{x: b = 1} P(y | x) / sum_{x: b = 0} P(y | x))
 * (GNU Radio's sign: positive means 1), bits MSB first; max_log keeps the
 * largest term of each sum. Unlike constellation_soft_decoder_cf (noise
 * power fixed at 1), the values are LLRs a decoder can use as they are.
 *
 * Contract: demap() MUST be given a finite noise_var of at least the smallest
 * normal float (1.2e-38); it throws
 * std::invalid_argument otherwise. A NaN or infinite symbol gives NaN LLRs
 * for its bits (decoders count and erase them). Const members are safe to
 * call from several threads at once.
 */
class GPULDPC_ENGINE_API soft_demapper
{
public:
    soft_demapper(const constellation& c, demapping mode = demapping::exact);

    const constellation& points() const { return d_constellation; }
    demapping mode() const { return d_mode; }
    unsigned bits_per_symbol() const { return d_constellation.bits_per_symbol(); }

    /*! \p n symbols in, n * bits_per_symbol() LLRs out. */
    void demap(const std::complex<float>* y, size_t n, float noise_var, float* llr) const;

    /*!
     * \brief Symbol log-likelihoods: for each symbol the q = 2^bits_per_symbol()
     * values -|y - points()[x]|^2 / N0, log P(y | x) up to a constant.
     *
     * With a GF(q) code of the same q (GF(64) and 64-QAM), symbol x of the
     * code rides on points()[x]: decode_symbol_llr() then takes these as they
     * are, without the loss of treating a symbol's bits as independent.
     * Non-finite symbols give NaN values; noise_var as in demap().
     */
    void symbol_log_likelihoods(const std::complex<float>* y,
                                size_t n,
                                float noise_var,
                                float* ll) const;

    /*!
     * \brief Decision-directed estimate of N0 over \p n symbols: the mean of
     * |y - nearest point|^2.
     *
     * Unbiased at high SNR; below about 10 dB (QPSK) it underestimates N0,
     * since the nearest point is sometimes not the one sent. Returns NaN for
     * n = 0 or when no symbol is finite.
     */
    float estimate_noise_var(const std::complex<float>* y, size_t n) const;

private:
    constellation d_constellation;
    demapping d_mode;
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_SOFT_DEMAPPER_H */
