/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_CPU_DECODER_H
#define INCLUDED_GPULDPC_ENGINE_CPU_DECODER_H

#include <gnuradio/gpuldpc/engine/decoder.h>

namespace gr {
namespace gpuldpc {
namespace detail {

/*!
 * The CPU reference decoder for a resolved algorithm and schedule; with
 * message_precision::int8, the reference of 8-bit fixed-point min-sum, integer
 * for integer (decoder.h).
 */
batch_decoder::sptr make_cpu_decoder(ldpc_code::sptr code, const decoder_config& config);

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_CPU_DECODER_H */
