/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_SIMD_DECODER_H
#define INCLUDED_GPULDPC_ENGINE_SIMD_DECODER_H

// The CPU decoders with frames in SIMD lanes. They give the reference's
// results (cpu_decoder.h) frame for frame; make_cpu_decoder() takes them
// where they cover the code and configuration, the reference elsewhere.

#include <gnuradio/gpuldpc/engine/config.h>
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace detail {

/*!
 * Why the SIMD decoders do not cover \p code with the resolved \p config, in
 * words; empty where they do: binary codes with 8-bit min-sum (any
 * min_sum_magnitude_rule, flooding or layered, llr_scale up to about 6 where
 * the magnitudes are combined), float min-sum (smallest) and sum-product;
 * GF(q) codes (q >= 4) with fft-bp and fp32 messages.
 */
GPULDPC_ENGINE_API std::string simd_refusal(const ldpc_code& code,
                                            const decoder_config& config);

/*!
 * The instruction sets with a SIMD kernel in this build that this CPU runs,
 * best first, by Highway's names (e.g. "AVX2", "SSE4", "EMU128").
 */
GPULDPC_ENGINE_API std::vector<std::string> simd_targets();

/*!
 * The SIMD decoder of \p code with the resolved \p config on \p target (one
 * of simd_targets(); empty: the first). MUST only be called where
 * simd_refusal() is empty; throws std::invalid_argument naming the
 * simd_targets() for a target that is not among them.
 */
GPULDPC_ENGINE_API batch_decoder::sptr make_simd_decoder(ldpc_code::sptr code,
                                                         const decoder_config& config,
                                                         const std::string& target = "");

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_SIMD_DECODER_H */
