/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_QA_HELPERS_H
#define INCLUDED_GPULDPC_QA_HELPERS_H

// What the C++ tests share: noisy frames of a code, a small punctured
// quasi-cyclic code, and the precondition of GPU cases (skipped, and saying
// so, without a CUDA device).

#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/device.h>
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <random>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace qa {

// GPULDPC_GPU_TEST_SMALL set: the GPU tests take small batches (for
// compute-sanitizer runs).
inline bool small() { return std::getenv("GPULDPC_GPU_TEST_SMALL") != nullptr; }

// A punctured quasi-cyclic code: 4 x 8 blocks of 32, column weight 3 (each
// column leaves one block row out), base column 0 not sent.
inline ldpc_code::sptr punctured_qc_code()
{
    std::mt19937 rng(11);
    ldpc_code::base_matrix base;
    base.rows = 4;
    base.cols = 8;
    base.z = 32;
    base.shifts.assign(32, -1);
    for (unsigned j = 0; j < base.cols; ++j)
        for (unsigned i = 0; i < base.rows; ++i)
            if (i != j % 4)
                base.shifts[i * base.cols + j] = int32_t(rng() % base.z);
    base.transmitted = { 0, 1, 1, 1, 1, 1, 1, 1 };
    return std::make_shared<ldpc_code>(ldpc_code::from_base_matrix(base));
}

struct noisy_batch {
    std::vector<uint8_t> info_bits; // frames * k * m
    std::vector<float> llr;         // frames * n_transmitted * m, log(P(1)/P(0))
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
    // punctured symbols are not sent
    const size_t nt = code.n_transmitted();
    std::vector<uint8_t> sent(frames * nt);
    code.puncture(cw.data(), sent.data(), frames);
    for (size_t i = 0; i < frames * nt; ++i)
        for (unsigned j = 0; j < m; ++j) {
            const double s = 1.0 - 2.0 * ((sent[i] >> (m - 1 - j)) & 1);
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

// begin_decode()/end_decode() with two batches outstanding, in the decoder's
// host buffers, give decode()'s results on every frame; the API's order
// rules are enforced. \p llr holds 3 * frames frames.
inline void
check_outstanding_batches(batch_decoder& d, const std::vector<float>& llr, size_t frames)
{
    const size_t nl = d.llr_per_frame(), nb = d.info_bytes_per_frame();
    BOOST_REQUIRE_EQUAL(llr.size(), 3 * frames * nl);
    std::vector<uint8_t> want(3 * frames * nb);
    std::vector<frame_status> want_st(3 * frames);
    d.decode(llr.data(), 3 * frames, want.data(), want_st.data());

    struct slot {
        std::shared_ptr<void> in, bits, st;
    } slots[2];
    for (auto& s : slots) {
        s.in = d.host_buffer(frames * nl * sizeof(float));
        s.bits = d.host_buffer(frames * nb);
        s.st = d.host_buffer(frames * sizeof(frame_status));
    }
    auto in = [&](int i) { return static_cast<float*>(slots[i].in.get()); };
    auto bits = [&](int i) { return static_cast<uint8_t*>(slots[i].bits.get()); };
    auto st = [&](int i) { return static_cast<frame_status*>(slots[i].st.get()); };
    auto check = [&](int i, size_t batch) {
        BOOST_CHECK(std::equal(
            bits(i), bits(i) + frames * nb, want.begin() + batch * frames * nb));
        for (size_t f = 0; f < frames; ++f) {
            const frame_status& a = st(i)[f];
            const frame_status& b = want_st[batch * frames + f];
            BOOST_CHECK_EQUAL(a.converged, b.converged);
            BOOST_CHECK_EQUAL(a.iterations, b.iterations);
            BOOST_CHECK_EQUAL(a.syndrome_weight, b.syndrome_weight);
        }
    };
    // batches 0 and 1 out at once, then 2 in the slot of 0 once it is ended
    for (int b = 0; b < 2; ++b)
        std::copy_n(llr.begin() + b * frames * nl, frames * nl, in(b));
    const uint64_t t0 = d.begin_decode(in(0), frames, bits(0), st(0));
    const uint64_t t1 = d.begin_decode(in(1), frames, bits(1), st(1));
    BOOST_CHECK_THROW(d.begin_decode(in(0), frames, bits(0), st(0)), std::logic_error);
    BOOST_CHECK_THROW(d.end_decode(t1), std::logic_error); // not the oldest
    d.end_decode(t0);
    check(0, 0);
    std::copy_n(llr.begin() + 2 * frames * nl, frames * nl, in(0));
    const uint64_t t2 = d.begin_decode(in(0), frames, bits(0), st(0));
    // a synchronous call between them leaves them alone
    std::vector<uint8_t> one(nb);
    frame_status one_st;
    d.decode(llr.data(), 1, one.data(), &one_st);
    BOOST_CHECK(std::equal(one.begin(), one.end(), want.begin()));
    d.end_decode(t1);
    check(1, 1);
    d.end_decode(t2);
    check(0, 2);
    BOOST_CHECK_THROW(d.end_decode(t2), std::logic_error); // ended already
}

} // namespace qa
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_QA_HELPERS_H */
