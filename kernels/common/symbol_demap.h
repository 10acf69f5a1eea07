/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_SYMBOL_DEMAP_H
#define INCLUDED_GPULDPC_KERNELS_SYMBOL_DEMAP_H

// Symbol log-likelihoods of received complex symbols on the device, for the
// decoders' symbol input, and bit LLRs for the soft demapper
// (symbol_demap.cu); plain C++. The arithmetic is the
// CPU's (soft_demapper::symbol_log_likelihoods, then each symbol's values
// less their largest, as batch_decoder::decode_symbols() does): the same
// values bit for bit.

#include <cuda_runtime.h>
#include <cstddef>

namespace gr {
namespace gpuldpc {
namespace kernels {

struct symbol_demap_params {
    const float2* symbols;  //!< n_frames * symbols_per_frame received points
    const float* noise_var; //!< n_frames: N0 of each frame
    const float2* points;   //!< q points, label order
    unsigned q;             //!< 2 .. 256
    size_t n_frames;
    size_t symbols_per_frame;
    float* log_likelihoods; //!< n_frames * symbols_per_frame * q out
};

/*!
 * -|y - points[x]|^2 / N0 for every symbol and label x, less the symbol's
 * largest; a NaN or infinite symbol gives q NaN values. Checked launch on
 * \p stream.
 */
void launch_symbol_demap(const symbol_demap_params& p, cudaStream_t stream);

/*! Bit LLRs of received complex symbols (soft_demapper::demap on the device). */
struct bit_demap_params {
    const float2* symbols; //!< n received points
    size_t n;
    float noise_var;      //!< N0, a normal positive float
    const float2* points; //!< 2^bits points, label order
    unsigned bits;        //!< bits a symbol, 1 .. 8
    bool max_log;         //!< the nearest point of each bit value only
    float* llr;           //!< n * bits out, MSB first
};

/*!
 * log(sum_{x: b = 1} exp(-|y - x|^2 / N0) / sum_{x: b = 0} ...) for every bit
 * b of every symbol (max_log: the largest term of each sum), each sum taken
 * relative to its own largest term as on the CPU; distances rounded step by
 * step (no fused multiply-add). A NaN or infinite symbol gives NaN LLRs.
 * The CPU sums in double, the device in float: values agree to float
 * rounding. Checked launch on \p stream.
 */
void launch_bit_demap(const bit_demap_params& p, cudaStream_t stream);

} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_SYMBOL_DEMAP_H */
