/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_CUDA_DECODERS_H
#define INCLUDED_GPULDPC_ENGINE_CUDA_DECODERS_H

// The GPU decoder families as batch_decoder::make() sees them: which one runs
// a configuration, why one refuses it, and their factories. Each family is an
// adapter on the one CUDA batch pipeline (cuda_batch_decoder.h).

#include <gnuradio/gpuldpc/engine/decoder.h>
#include <string>

namespace gr {
namespace gpuldpc {
namespace detail {

/*!
 * FFT-BP on the GPU (cuda_fft_bp_decoder.cc): GF(q) belief propagation, any
 * q, flooding or layered (layered in row order only), codes without
 * punctured columns.
 * - cuda_fft_bp_runs(): whether it runs this configuration.
 * - cuda_fft_bp_refusal(): why not, as an error message naming \p device;
 *   empty where it runs it.
 * - make_cuda_fft_bp_decoder(): std::invalid_argument for a configuration it
 *   does not run, std::runtime_error in a build without CUDA, cuda_error
 *   when the device cannot be used.
 */
bool cuda_fft_bp_runs(const ldpc_code& code, const decoder_config& config);
std::string cuda_fft_bp_refusal(const ldpc_code& code,
                                const decoder_config& config,
                                const std::string& device);
batch_decoder::sptr
make_cuda_fft_bp_decoder(ldpc_code::sptr code, const decoder_config& config, int device);

/*!
 * The binary GPU decoder (cuda_binary_decoder.cc): binary codes in 8-bit
 * fixed-point min-sum (the results of the CPU reference exactly), fp32
 * min-sum and fp32 sum-product; flooding or layered in the code's layered
 * order, punctured codes included.
 * - cuda_binary_runs(): whether it runs this configuration.
 * - cuda_binary_refusal(): why not; empty where it runs it.
 * - make_cuda_binary_decoder(): throws as make_cuda_fft_bp_decoder().
 */
bool cuda_binary_runs(const ldpc_code& code, const decoder_config& config);
std::string cuda_binary_refusal(const ldpc_code& code, const decoder_config& config);
batch_decoder::sptr
make_cuda_binary_decoder(ldpc_code::sptr code, const decoder_config& config, int device);

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_CUDA_DECODERS_H */
