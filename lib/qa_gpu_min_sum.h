/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_QA_GPU_MIN_SUM_H
#define INCLUDED_GPULDPC_QA_GPU_MIN_SUM_H

// What the binary GPU decoder's tests share (qa_gpu_min_sum.cc,
// qa_gpu_quasi_cyclic.cc): the 8-bit configuration from the environment's
// tuning, a batch through a decoder, and the frame-for-frame comparison.

#include "qa_helpers.h"
#include <gnuradio/gpuldpc/engine/bits.h>
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/device.h>
#include <type_traits>
#include <boost/test/unit_test.hpp>
#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace qa {


// the compute capability's major number of the device that "cuda" takes
inline int compute_major()
{
    const auto devices = cuda_devices();
    const auto zero = std::find_if(
        devices.begin(), devices.end(), [](const auto& d) { return d.index == 0; });
    BOOST_REQUIRE(zero != devices.end());
    return zero->compute_major;
}

// The tuning every case starts from: the environment's, read once.
inline const gpu_tuning& base_tuning()
{
    static const gpu_tuning tuning = gpu_tuning::from_environment();
    return tuning;
}

inline decoder_config
fixed_point(decoder_schedule schedule, unsigned iterations, bool early_termination = true)
{
    decoder_config cfg;
    cfg.gpu = base_tuning();
    cfg.algorithm = decoder_algorithm::min_sum;
    cfg.messages = message_precision::int8;
    // the plain rule (the default's choice where checks are large); the
    // three-smallest cases set their rule
    cfg.min_sum_magnitude = min_sum_magnitude_rule::smallest;
    cfg.schedule = schedule;
    cfg.max_iterations = iterations;
    cfg.early_termination = early_termination;
    return cfg;
}

struct result {
    std::vector<uint8_t> bits, codeword;
    std::vector<frame_status> status;
};

template <typename T>
result run(batch_decoder& d, const std::vector<T>& llr, size_t frames)
{
    result r;
    // bytes a decoder leaves unwritten show (packed: the last byte's low bits)
    r.bits.assign(frames * d.info_bytes_per_frame(), 0xa5);
    r.codeword.resize(frames * d.code().n());
    r.status.resize(frames);
    if constexpr (std::is_same_v<T, int8_t>)
        d.decode_int8(
            llr.data(), frames, r.bits.data(), r.status.data(), r.codeword.data());
    else
        d.decode(llr.data(), frames, r.bits.data(), r.status.data(), r.codeword.data());
    return r;
}

inline void check_identical(const result& g, const result& c, const std::string& what)
{
    BOOST_TEST_CONTEXT(what)
    {
        BOOST_CHECK(g.bits == c.bits);
        BOOST_CHECK(g.codeword == c.codeword);
        BOOST_REQUIRE_EQUAL(g.status.size(), c.status.size());
        size_t differ = 0;
        for (size_t f = 0; f < g.status.size(); ++f)
            differ += g.status[f].converged != c.status[f].converged ||
                      g.status[f].iterations != c.status[f].iterations ||
                      g.status[f].syndrome_weight != c.status[f].syndrome_weight ||
                      g.status[f].invalid_inputs != c.status[f].invalid_inputs;
        BOOST_CHECK_EQUAL(differ, 0u);
    }
}

// \p r with its information bits packed as a decoder with pack_info_bits
// gives them
inline result packed(const result& r, size_t info_bits)
{
    result p = r;
    const size_t frames = r.status.size(), bytes = packed_size(info_bits);
    p.bits.assign(frames * bytes, 0);
    for (size_t f = 0; f < frames; ++f)
        pack_bits(&r.bits[f * info_bits], info_bits, &p.bits[f * bytes]);
    return p;
}


} // namespace qa
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_QA_GPU_MIN_SUM_H */
