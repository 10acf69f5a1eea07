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
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {

/*!
 * \brief A labelled constellation: points()[x] is the point of label x, whose
 * bits_per_symbol() bits are sent MSB first.
 *
 * Named constellations (make()):
 * - "bpsk", "qpsk", "8psk", "16qam": GNU Radio's digital.constellation_bpsk(),
 *   _qpsk(), _8psk(), _16qam() (GNU Radio 3.10): the points of their points()
 *   in index order, label = index, as chunks_to_symbols with points() sends
 *   them and constellation_soft_decoder_cf labels them. Their points are
 *   GNU Radio's, energy included: "bpsk" is 0 -> -1, 1 -> +1; "qpsk" has
 *   points (+-sqrt 2, +-sqrt 2) of energy 4; "8psk" and "16qam" unit energy.
 * - The module's Gray family, unit average energy, for the matched GF(q)
 *   mapping (code symbol x sent as point x) and the packet link:
 *   "gpuldpc-bpsk": 0 -> +1, 1 -> -1 (bit b -> 1 - 2b);
 *   "gpuldpc-qpsk": bits (b0 b1) -> ((1 - 2 b0) + j (1 - 2 b1)) / sqrt(2);
 *   "gpuldpc-8psk": point k at angle 2 pi k / 8 carries label k ^ (k >> 1);
 *   "gpuldpc-16qam", "gpuldpc-64qam", "gpuldpc-256qam": square QAM, the first
 *   half of the bits (MSB first) Gray-label the in-phase level, the second
 *   half the quadrature level; level i of L (i = 0 .. L - 1) is 2 i - (L - 1),
 *   its label i ^ (i >> 1); scaled to unit average energy.
 * Any other: from_points() (e.g. a GNU Radio constellation object's points
 * and labels).
 */
class GPULDPC_ENGINE_API constellation
{
public:
    /*! By name, see the class description; std::invalid_argument otherwise. */
    static constellation make(const std::string& name);
    /*!
     * \brief From points and their labels: label \p labels[i] (all of 0 .. q-1
     * once; empty: label i) on \p points[i]. q MUST be a power of two from 2
     * to 256 and the points finite; std::invalid_argument otherwise.
     */
    static constellation from_points(const std::string& name,
                                     const std::vector<std::complex<float>>& points,
                                     const std::vector<unsigned>& labels = {});
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

/*! How soft_demapper::estimate_noise_var() estimates N0 (see there). */
enum class noise_estimator { decision_directed, moments, automatic };

/*! Parses "decision", "moments", "auto"; throws naming \p arg. */
GPULDPC_ENGINE_API noise_estimator
parse_noise_estimator(const std::string& s, const std::string& arg = "method");

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
 * normal float (1.2e-38); it throws std::invalid_argument otherwise. Every
 * such N0 gives finite LLRs for finite symbols: metrics beyond float's range
 * (a tiny N0, a far point) saturate at -FLT_MAX, so that the LLRs keep their
 * signs. A NaN or infinite symbol gives NaN LLRs
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
     * \brief Estimate of N0 over \p n symbols (their finite ones); NaN for
     * n = 0 or when no symbol is finite.
     *
     * - decision_directed: the mean of |y - nearest point|^2. Unbiased while
     *   decisions are right; below that (QPSK under about 10 dB Es/N0, 16-QAM
     *   under 16 dB, 64-QAM under 22 dB) it underestimates N0, 16-QAM at 8 dB
     *   by half, since the nearest point is then often not the one sent.
     * - moments (M2M4; Pauluzzi and Beaulieu, IEEE Trans. Commun. 48(10),
     *   2000): from M2 = E|y|^2 and M4 = E|y|^4 with the constellation's
     *   kurtosis k = E|x|^4 / (E|x|^2)^2 and circular Gaussian noise,
     *   S = sqrt((2 M2^2 - M4) / (2 - k)), N0 = M2 - S. Unbiased at low SNR
     *   without decisions, but its spread grows with the SNR (16-QAM, 1000
     *   symbols: 13 % at 4 dB, 47 % at 16 dB), and over short blocks it runs
     *   high (16-QAM at 6.5 dB, 252 symbols: by about 45 % on average).
     * - automatic: decision-directed where that estimate puts the SNR high
     *   enough for its decisions (d_min^2 / N0 >= 16, d_min the smallest
     *   distance between points), else moments.
     */
    float
    estimate_noise_var(const std::complex<float>* y,
                       size_t n,
                       noise_estimator method = noise_estimator::decision_directed) const;

private:
    constellation d_constellation;
    demapping d_mode;
    double d_kurtosis;      // E|x|^4 / (E|x|^2)^2 of the points
    double d_min_distance2; // smallest |x - x'|^2
};

/*!
 * \brief soft_demapper::demap() on a CUDA device.
 *
 * The same LLRs as the CPU's soft_demapper to float rounding: max_log
 * identical but for the rounding of the squared distances (the CPU's VOLK
 * kernel may fuse multiply and add), exact within a few units in the last
 * place (the device sums in float, the CPU in double). NaN or infinite
 * symbols give NaN LLRs.
 *
 * Contract: as soft_demapper::demap(); the object MUST be used from one
 * thread at a time (it owns a stream and device buffers). CUDA failures
 * throw cuda_error (device.h); construction without a usable device or in a
 * build without CUDA throws too. Device memory: about 2.6 MB.
 */
class GPULDPC_ENGINE_API soft_demapper_cuda
{
public:
    soft_demapper_cuda(const soft_demapper& demapper, int device = 0);
    ~soft_demapper_cuda();

    std::string device_name() const;
    const soft_demapper& cpu() const;

    /*! \p n symbols in, n * bits_per_symbol() LLRs out (host memory). */
    void demap(const std::complex<float>* y, size_t n, float noise_var, float* llr);

private:
    struct impl;
    std::unique_ptr<impl> d_impl;
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_SOFT_DEMAPPER_H */
