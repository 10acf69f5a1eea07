/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_SIMULATE_H
#define INCLUDED_GPULDPC_KERNELS_SIMULATE_H

// The simulator's frames on the device (simulate.cu), in two kernels: the
// encoder, a frame a thread block with its codeword in shared memory, writes
// the codewords to a scratch buffer; the channel, a thread a generator block
// with no barriers, sends them as BPSK through AWGN and writes the LLRs.
// After decoding, the information is drawn again and the decoded bits are
// counted against it. Plain C++; the frames are those of sim_frame.h.

#include "common/sim_frame.h"
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
    bool info_in_order;                    //!< info_positions[j] == j for all j
    const uint32_t* transmitted_positions; //!< n_transmitted
    const uint8_t* gf_exp;                 //!< 2 (q - 1) (q > 2)
    const uint8_t* gf_log;                 //!< q (q > 2)

    sim_encoder encoder;
    // accumulator (binary, the information positions 0 .. k - 1): thread t of
    // sim::encoder_threads takes checks t * run .. (t + 1) * run - 1 and reads
    // its entries j = 0 .. slots - 1 at acc_entries[j * sim::encoder_threads +
    // t], so that a warp's loads are consecutive words: an information
    // position, sim::acc_end added where it is a check's last, sim::acc_none
    // for no position
    unsigned checks, run, slots;
    const uint32_t* acc_entries;
    // echelon, pivots in level order, each row reading information and
    // earlier levels only; a level's rows in slices of sim::slice_rows, row i
    // of slice s (pivot slice_pivots[s * sim::slice_rows + i]) reading columns
    // slice_columns[slice_offsets[s] + j * sim::slice_rows + i], j = 0 ..
    // slice_length[s] - 1; the slices of level L are level_slices[L] ..
    // level_slices[L + 1] - 1. Column n is a symbol always 0 (short rows and
    // missing rows read it; a missing row's pivot is n).
    unsigned levels;
    unsigned widest_level;         //!< the most slices a level has
    unsigned slices;               //!< of all levels
    const uint32_t* level_slices;  //!< levels + 1
    const uint32_t* slice_offsets; //!< slices
    const uint32_t* slice_length;  //!< slices
    const uint32_t* slice_pivots;  //!< slices * sim::slice_rows
    const uint32_t* slice_columns;
    const uint8_t* slice_values; //!< as slice_columns (q > 2)

    unsigned frames_per_block; //!< set by launch_sim_frames()

    float sigma, llr_gain;
    uint32_t* codewords; //!< scratch, n_frames * sim_codeword_words(n, q)
    float* llr;          //!< n_frames * n_transmitted * m out, or null
    //! or, with llr null, the LLRs in 8 bits as an int8-message decoder rounds
    //! them: min(|llr|, 64) * llr_scale, at most 127, to nearest, ties to even
    int8_t* llr8;
    float llr_scale;
    uint8_t* info;     //!< n_frames * k symbols out, or null
    uint8_t* codeword; //!< n_frames * n symbols out, or null
};

//! 32-bit words of a frame's codeword in shared memory and in the scratch
//! buffer: a bit a symbol (binary) or a byte, symbol n included (always 0)
size_t sim_codeword_words(unsigned n, unsigned q);

//! shared memory of an encoder block of \p frames frames
size_t sim_frames_shared_bytes(unsigned n, unsigned q, unsigned frames = 1);
//! shared memory of the encoder's blocks for these parameters
size_t sim_frames_shared_bytes(const sim_frames_params& p);

//! frames an encoder block takes: 32 in bit slices (binary echelon codes with
//! the information at 0 .. k - 1 and a codeword within 48 KiB / 32), else 1
unsigned sim_encoder_frames_per_block(sim_encoder encoder,
                                      unsigned n,
                                      unsigned q,
                                      bool info_in_order);

/*!
 * Draws and encodes p.n_frames frames (sim_encoder_frames_per_block() a
 * block), then sends them through the channel into p.llr or p.llr8 (exactly
 * one MUST be set: std::invalid_argument otherwise).
 */
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
