/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_SIMD_FFT_BP_H
#define INCLUDED_GPULDPC_ENGINE_SIMD_FFT_BP_H

// FFT-BP of GF(q) codes (q = 4 ... 256) on the CPU with the q values of a
// message in SIMD lanes: the reference's arithmetic (check_rules.h,
// fft_bp_rule, log_prob_domain) with vector exp and log, one frame a thread.
// The transform's butterflies are the reference's, in the same order; the
// exponentials and logarithms round differently, so results agree within
// rounding and error-rate statistics, not bit for bit.

#include <gnuradio/gpuldpc/engine/config.h>
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace detail {

//! The code as the kernels read it; the pointers outlive the decoder's calls.
struct fft_bp_graph {
    uint32_t n = 0, m = 0, q = 0;
    //! checks' edges, check c's from check_offsets[c]; layered: the checks in
    //! the schedule's order, their edges stored in that order
    const uint32_t* check_offsets = nullptr;
    const uint32_t* edge_variable = nullptr;
    const uint8_t* edge_coefficient = nullptr;
    //! flooding: each variable's edges
    const uint32_t* variable_offsets = nullptr;
    const uint32_t* variable_edges = nullptr;
    //! mul[a * q + b] = a * b in GF(q), and the inverses
    const int32_t* mul = nullptr;
    const uint8_t* inv = nullptr;
    uint32_t max_check_degree = 0;
    bool layered = false;
};

//! One frame's state: prior and beliefs n * q, messages edges * q, the
//! check's scratch fft_bp_scratch() floats, the decisions n symbols.
struct fft_bp_frame {
    float* prior = nullptr;
    float* beliefs = nullptr;
    float* v2c = nullptr;
    float* c2v = nullptr;
    float* scratch = nullptr;
    uint8_t* hard = nullptr;
};

//! floats of fft_bp_frame::scratch
inline size_t fft_bp_scratch(uint32_t q, uint32_t max_check_degree)
{
    return (2 * size_t(max_check_degree) + 3) * q;
}

struct fft_bp_kernel {
    //! the messages before the first iteration (prior set, decisions made)
    void (*start)(const fft_bp_graph&, fft_bp_frame&);
    //! one iteration, then the decisions of the beliefs
    void (*iterate)(const fft_bp_graph&, fft_bp_frame&);
    //! the decisions of the prior (argmax, the first of equal values)
    void (*decide_prior)(const fft_bp_graph&, fft_bp_frame&);
    //! out[x] = sum over bits b of log_p[2b + bit b of x (MSB first)], then
    //! normalised to max 0: a symbol's log-probabilities from its m bits'
    void (*symbol_prior)(const float* log_p, uint32_t m, uint32_t q, float* out);
    size_t lanes; //!< floats a vector for GF(64)
    const char* target;
};

//! the kernels of the targets this build has and this CPU runs, best first
std::vector<fft_bp_kernel> fft_bp_kernels();

/*!
 * The SIMD FFT-BP decoder of \p code (q >= 4; config.algorithm fft_bp with
 * fp32 messages) on \p target (empty: the best). Throws
 * std::invalid_argument naming the targets for an unknown one.
 */
batch_decoder::sptr make_simd_fft_bp_decoder(ldpc_code::sptr code,
                                             const decoder_config& config,
                                             const std::string& target);

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_SIMD_FFT_BP_H */
