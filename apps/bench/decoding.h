/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_BENCH_DECODING_H
#define INCLUDED_GPULDPC_BENCH_DECODING_H

#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace bench {

// The decoder sections' frames, codes and rates.

/*!
 * Noisy frames of a code: random information, systematic encoding, BPSK over
 * AWGN at Eb/N0 = \p ebn0_db, bit LLRs log(P(1)/P(0)). Also returns the bits
 * in \p info_bits.
 */
std::vector<float> noisy_llr(const ldpc_code& code,
                             size_t frames,
                             double ebn0_db,
                             uint32_t seed,
                             std::vector<uint8_t>& info_bits);

//! Frames of \p bits_per_frame whose bits differ between \p got and \p sent.
size_t count_frame_errors(const std::vector<uint8_t>& got,
                          const std::vector<uint8_t>& sent,
                          size_t frames,
                          size_t bits_per_frame);

/*!
 * Host to host through the engine: bit LLRs in host memory, information bits
 * out in \p bits; median wall time of \p reps calls. Returns information
 * bits/s.
 */
double decode_rate(batch_decoder& dec,
                   const std::vector<float>& llr,
                   size_t frames,
                   int reps,
                   std::vector<uint8_t>& bits);

//! Bits/s of a GPU decoder on frames already in device memory (decode_device).
double
device_decode_rate(batch_decoder& dec, const float* d_llr, size_t frames, int reps);

/*!
 * The lowest Eb/N0 on a 0.25 dB grid from 1 dB where the decoder's frame
 * error rate is at most \p target: decoded in batches of \p frames noisy
 * frames (a new seed each) until \p trials frames, and accepted when the
 * errors are at most trials x target. Returns the Eb/N0 and sets the errors
 * counted there.
 */
double ebn0_at_fer(batch_decoder& dec,
                   const ldpc_code& code,
                   size_t frames,
                   size_t trials,
                   double target,
                   size_t& errors);

//! A code's name in tables: a file's base name, or a built-in code's name.
std::string code_name(const std::string& spec);

//! The end of a binary bench's code spec that asks for its coloured layers.
extern const std::string coloured_suffix;

//! Whether \p spec ends in coloured_suffix.
bool coloured_spec(const std::string& spec);

/*!
 * A code of the binary benches: ldpc_code::load()'s spec, or with
 * "+coloured" at its end that code's coloured layers
 * (ldpc_code::with_coloured_layers; layered rows only, as flooding does not
 * change).
 */
ldpc_code load_bench_code(const std::string& spec);

} // namespace bench
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_BENCH_DECODING_H */
