/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_SIMULATE_H
#define INCLUDED_GPULDPC_KERNELS_SIMULATE_H

// The simulator's frames on the device (simulate.cu): information drawn,
// encoded, sent as BPSK through AWGN and turned into LLRs, a frame a thread
// block with its codeword in shared memory; then, after decoding, the
// information regenerated and the decoded bits counted against it. Plain
// C++; the frames are those of sim_frame.h.

#include <gnuradio/gpuldpc/engine/frame_status.h>
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

namespace gr {
namespace gpuldpc {
namespace kernels {

enum class sim_encoder : unsigned {
    accumulator, //!< parity bit r = parity bit r - 1 + the information bits of check r
    echelon,     //!< back-substitution, a level of independent pivots at a time
};

struct sim_frames_params {
    uint64_t seed;
    uint64_t first;  //!< frame index of the launch's frame 0
    uint64_t stride; //!< frame f is frame first + f * stride
    size_t n_frames;
    unsigned n, k, m, q; //!< symbols, information symbols, bits a symbol, q = 2^m
    unsigned n_transmitted;
    const uint32_t* info_positions;        //!< k
    const uint32_t* transmitted_positions; //!< n_transmitted
    const uint8_t* gf_exp;                 //!< 2 (q - 1) (q > 2)
    const uint8_t* gf_log;                 //!< q (q > 2)

    sim_encoder encoder;
    // accumulator: H check-major (binary), the information positions 0 .. k - 1
    unsigned checks;
    const uint32_t* check_offsets; //!< checks + 1
    const uint32_t* edge_variable;
    // echelon, pivots in level order: level L is pivots level_offsets[L] ..
    // level_offsets[L + 1] - 1, each row reading information and earlier
    // levels only
    unsigned levels;
    const uint32_t* level_offsets; //!< levels + 1
    const uint32_t* pivots;
    const uint32_t* row_offsets; //!< pivots + 1
    const uint32_t* columns;
    const uint8_t* values; //!< (q > 2)

    float sigma, llr_gain;
    float* llr;        //!< n_frames * n_transmitted * m out
    uint8_t* info;     //!< n_frames * k symbols out, or null
    uint8_t* codeword; //!< n_frames * n symbols out, or null
};

/*! Shared memory a frame's block takes (bytes), for the caller's size check. */
size_t sim_frames_shared_bytes(unsigned n, unsigned q);

/*! Checked launch on \p stream; the current device's opt-in limit allowed. */
void launch_sim_frames(const sim_frames_params& p, cudaStream_t stream);

/*! A frame's counts (simulation's sim_frame_result, the same layout). */
struct sim_frame_counts {
    uint32_t bit_errors;
    uint32_t iterations;
    uint32_t converged;
};

struct sim_count_params {
    uint64_t seed, first, stride;
    size_t n_frames;
    unsigned k, m, q;
    const uint8_t* decoded; //!< n_frames * decoded_bytes
    size_t decoded_bytes;   //!< a frame's bytes of decoded information
    bool packed;            //!< 8 bits a byte, MSB first; else a bit a byte
    const frame_status* status;
    sim_frame_counts* counts; //!< n_frames out
};

/*! Counts the decoded information bits against the drawn ones; checked launch. */
void launch_sim_count(const sim_count_params& p, cudaStream_t stream);

} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_SIMULATE_H */
