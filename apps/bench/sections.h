/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_BENCH_SECTIONS_H
#define INCLUDED_GPULDPC_BENCH_SECTIONS_H

#include "common.h"
#include <cstddef>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace bench {

// The sections of the bench. Each prints its table and adds its records to
// ctx.out; the baseline of every figure is measured in the same call.

//! FWHT fp32 on device data against cudaMemcpy device to device.
void bench_fwht(const context& ctx, size_t bytes, int reps);
//! The FFT engine against raw cuFFT C2C on the same batch.
void bench_fft(const context& ctx, size_t bytes, int reps);
//! The generic butterfly-network kernel against cudaMemcpy device to device.
void bench_butterfly(const context& ctx, size_t bytes, int reps);
//! Host to host through the two-stream pipeline against pinned copies.
void bench_stream(const context& ctx, size_t bytes, int reps);
//! The FFT block in a flowgraph against fft.fft_vcc.
void bench_flowgraph(const context& ctx, size_t vectors);
//! The GF(q) FFT-BP decoder against the CPU reference ("decoder").
void bench_decoder(const context& ctx,
                   const std::vector<std::string>& code_paths,
                   int reps);
//! Binary codes in 8-bit min-sum against the CPU reference and gr-fec;
//! \p fixed_et_ebn0 below 0: the early-termination Eb/N0 searched;
//! \p magnitudes: the check rules (min_sum_magnitude_rule names,
//! comma-separated), rows for each.
void bench_binary_decoder(const context& ctx,
                          const std::vector<std::string>& code_specs,
                          int reps,
                          double fixed_et_ebn0,
                          const std::string& schedules,
                          const std::string& magnitudes);
//! Binary codes in the float rules against the CPU reference.
void bench_simulation(const context& ctx,
                      const std::vector<std::string>& code_specs,
                      int reps);
void bench_host_decode(const context& ctx,
                       const std::vector<std::string>& code_specs,
                       int reps);
void bench_binary_float(const context& ctx,
                        const std::vector<std::string>& code_specs,
                        int reps,
                        const std::string& schedules);

} // namespace bench
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_BENCH_SECTIONS_H */
