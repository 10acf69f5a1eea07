/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_SIM_NOISE_H
#define INCLUDED_GPULDPC_ENGINE_SIM_NOISE_H

#include <gnuradio/gpuldpc/engine/config.h>
#include <cstddef>
#include <cstdint>
#include <string>

namespace gr {
namespace gpuldpc {
namespace detail {

//! The BPSK channel values of one simulated frame (kernels/common/sim_frame.h)
struct sim_bpsk_job {
    uint64_t seed = 0, frame = 0;
    float sigma = 0.0f, llr_gain = 0.0f;
    const uint8_t* bits = nullptr; //!< the transmitted bits, 0 or 1 a byte
    size_t count = 0;              //!< how many
    float* llr = nullptr;          //!< count channel values out
};

/*!
 * llr[t] = sim::bpsk_llr(bits[t], noise t of the frame, sigma, llr_gain) for
 * t < count, the noise blocks in SIMD lanes: the same floats as the scalar
 * functions. Returns false, writing nothing, where this CPU has no SIMD
 * target with fused multiply-add (the caller then runs the scalar ones).
 */
GPULDPC_ENGINE_API bool sim_bpsk_llrs_simd(const sim_bpsk_job& job);

//! The target sim_bpsk_llrs_simd() runs (Highway's name), empty if none.
GPULDPC_ENGINE_API std::string sim_bpsk_simd_target();

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_SIM_NOISE_H */
