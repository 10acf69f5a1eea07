/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_SIMD_FFT_BP_H
#define INCLUDED_GPULDPC_ENGINE_SIMD_FFT_BP_H

// FFT-BP of GF(q) codes (q = 4 ... 256) on the CPU with frames in SIMD lanes:
// the reference's check node (check_rules.h, fft_bp_rule: the same
// butterflies in the same order, the same floor) and its two schedules
// (cpu_decoder.cc), in the probability domain throughout. The reference
// keeps variable-side values as log-probabilities and pays an exp and a log
// per value and edge; here a variable-to-check message (and a belief) is the
// prior times the other checks' messages: each partial product normalised to
// a largest of 1 and floored at fft_bp_prob_floor, the last one left as it
// is (the check node divides by its sum, the decisions take its largest).
// Values below the floor are below the float rounding of the check node's
// transform (2^-24 of the largest), so the check node sees what the
// reference's sees. Where the reference's values stay exact this decoder's
// stop at the floor: a prior (a symbol the channel rules out by more than
// about 55 nats, e.g. one bit's LLR at the input's clip of 64) and a partial
// product. Decisions can then differ where a variable's checks all
// contradict its channel by that much, or between symbols tied at the
// floor. Results agree with the reference within rounding and error-rate
// statistics, not bit for bit. A workspace holds lanes() frames' messages:
// (2 edges + 2 n) q lanes floats for flooding, 16 times the reference's a
// thread under AVX-512; a variable's messages cost O(degree^2) products.

#include <gnuradio/gpuldpc/engine/config.h>
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace detail {

//! the smallest probability, relative to the largest, of a prior, a belief
//! and a variable-to-check message (about e^-55): its products with a check
//! message (at least e^-30 of that message's largest) are normal floats
constexpr float fft_bp_prob_floor = 1e-24f;

//! The code as the kernels read it; the pointers outlive the decoder's calls.
struct fft_bp_graph {
    uint32_t n = 0, m = 0, q = 0;
    //! checks' edges, check c's from check_offsets[c]; layered: the checks in
    //! the schedule's order, their edges stored in that order
    const uint32_t* check_offsets = nullptr;
    const uint32_t* edge_variable = nullptr;
    const uint8_t* edge_coefficient = nullptr;
    //! each variable's edges (indices as above)
    const uint32_t* variable_offsets = nullptr;
    const uint32_t* variable_edges = nullptr;
    //! mul[a * q + b] = a * b in GF(q), and the inverses
    const uint8_t* mul = nullptr;
    const uint8_t* inv = nullptr;
    uint32_t max_check_degree = 0;
    bool layered = false;
};

//! One group's state, lanes() frames: value x of variable v (or edge e) of
//! lane l at [(v * q + x) * lanes + l]; prior and beliefs n * q * lanes,
//! messages edges * q * lanes (v2c: flooding only), the scratch
//! fft_bp_scratch() floats, the decisions [v * lanes + l]. Every pointer
//! aligned to a vector.
struct fft_bp_group {
    float* prior = nullptr;
    float* beliefs = nullptr;
    float* v2c = nullptr;
    float* c2v = nullptr;
    float* scratch = nullptr;
    uint8_t* hard = nullptr;
};

//! floats of fft_bp_group::scratch over the lanes: a check's inputs (layered)
//! and the check node's work
inline size_t fft_bp_scratch(uint32_t q, uint32_t max_check_degree, size_t lanes)
{
    return ((3 * size_t(max_check_degree) + 3) * q + max_check_degree) * lanes;
}

struct fft_bp_kernel {
    //! the messages before the first iteration (prior set, decisions made)
    void (*start)(const fft_bp_graph&, const fft_bp_group&);
    //! one iteration, then the decisions of the beliefs
    void (*iterate)(const fft_bp_graph&, const fft_bp_group&);
    //! the decisions of the prior (argmax, the first of equal values)
    void (*decide_prior)(const fft_bp_graph&, const fft_bp_group&);
    size_t lanes; //!< frames a group
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
