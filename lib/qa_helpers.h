/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_QA_HELPERS_H
#define INCLUDED_GPULDPC_QA_HELPERS_H

// What the C++ tests share: noisy frames of a code, and the precondition of
// GPU cases (skipped, and saying so, without a CUDA device).

#include <gnuradio/gpuldpc/engine/device.h>
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <iostream>
#include <random>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace qa {

struct noisy_batch {
    std::vector<uint8_t> info_bits; // frames * k * m
    std::vector<float> llr;         // frames * n * m, log(P(1)/P(0))
};

// Random information, systematic encoding, BPSK (bit b -> 1 - 2b) over AWGN at
// Eb/N0 = ebn0_db; ebn0_db = inf gives the noiseless channel.
inline noisy_batch
make_batch(const ldpc_code& code, size_t frames, double ebn0_db, uint32_t seed)
{
    std::mt19937 rng(seed);
    const unsigned m = code.bits_per_symbol(), k = code.k(), n = code.n();
    const double sigma2 =
        std::isinf(ebn0_db) ? 0.0
                            : 1.0 / (2.0 * code.rate() * std::pow(10.0, ebn0_db / 10.0));
    std::normal_distribution<double> noise(0.0, std::sqrt(sigma2));
    noisy_batch b;
    std::vector<uint8_t> info(frames * k), cw(frames * n);
    for (auto& s : info)
        s = uint8_t(rng() % code.q());
    code.encode(info.data(), cw.data(), frames);
    for (size_t i = 0; i < frames * k; ++i)
        for (unsigned j = 0; j < m; ++j)
            b.info_bits.push_back((info[i] >> (m - 1 - j)) & 1);
    for (size_t i = 0; i < frames * n; ++i)
        for (unsigned j = 0; j < m; ++j) {
            const double s = 1.0 - 2.0 * ((cw[i] >> (m - 1 - j)) & 1);
            const double y = s + (sigma2 > 0 ? noise(rng) : 0.0);
            b.llr.push_back(sigma2 > 0 ? float(-2.0 * y / sigma2) : float(-8.0 * s));
        }
    return b;
}

struct gpu_present {
    boost::unit_test::assertion_result operator()(boost::unit_test::test_unit_id)
    {
        const bool ok = !cuda_devices().empty();
        if (!ok)
            std::cout << "gpu tests skipped: no CUDA device" << std::endl;
        return boost::unit_test::assertion_result(ok);
    }
};

} // namespace qa
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_QA_HELPERS_H */
