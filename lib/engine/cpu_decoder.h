/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_CPU_DECODER_H
#define INCLUDED_GPULDPC_ENGINE_CPU_DECODER_H

#include <gnuradio/gpuldpc/engine/config.h>
#include <gnuradio/gpuldpc/engine/decoder.h>

namespace gr {
namespace gpuldpc {
namespace detail {

/*!
 * The CPU decoder for a resolved algorithm and schedule: the SIMD decoder
 * (simd_decoder.h) where it covers the code and configuration and
 * GPULDPC_CPU_SIMD is not "off", else the reference.
 */
batch_decoder::sptr make_cpu_decoder(ldpc_code::sptr code, const decoder_config& config);

/*!
 * The CPU reference decoder for a resolved algorithm and schedule; with
 * message_precision::int8, the reference of 8-bit fixed-point min-sum, integer
 * for integer (decoder.h). Scalar and written for clarity: what the SIMD and
 * GPU decoders are compared with.
 */
GPULDPC_ENGINE_API batch_decoder::sptr
make_reference_decoder(ldpc_code::sptr code, const decoder_config& config);

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_CPU_DECODER_H */
