/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_CUDA_DECODER_H
#define INCLUDED_GPULDPC_ENGINE_CUDA_DECODER_H

#include <gnuradio/gpuldpc/engine/decoder.h>

namespace gr {
namespace gpuldpc {
namespace detail {

/*!
 * The CUDA batch decoder on device \p device (fft-bp, flooding or layered).
 * Throws std::invalid_argument for an algorithm it does not run,
 * std::runtime_error in a build without CUDA, cuda_error when the device
 * cannot be used.
 */
batch_decoder::sptr
make_cuda_decoder(ldpc_code::sptr code, const decoder_config& config, int device);

/*!
 * Whether the CUDA decoder runs this configuration on this code (fft-bp for
 * any q, codes without punctured columns, layered only in row order).
 */
bool cuda_decoder_supports(const ldpc_code& code, const decoder_config& config);

/*!
 * The CUDA decoder of binary codes in 8-bit fixed-point min-sum (algorithm
 * min-sum, messages int8; flooding or layered in the code's layered order,
 * punctured codes included): the results of the CPU reference exactly.
 * Throws as make_cuda_decoder().
 */
batch_decoder::sptr
make_cuda_min_sum_decoder(ldpc_code::sptr code, const decoder_config& config, int device);

/*! Why make_cuda_min_sum_decoder() refuses a configuration; empty when it does not. */
std::string cuda_min_sum_refusal(const ldpc_code& code, const decoder_config& config);

/*! Why cuda_decoder_supports() is false, as an error message naming \p device. */
std::string cuda_decoder_refusal(const ldpc_code& code,
                                 const decoder_config& config,
                                 const std::string& device);

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_CUDA_DECODER_H */
