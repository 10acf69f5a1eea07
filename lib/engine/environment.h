/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_ENVIRONMENT_H
#define INCLUDED_GPULDPC_ENGINE_ENVIRONMENT_H

// The GPULDPC_* variables that are not tuning (gpu_tuning::from_environment()
// reads those): read in environment.cc, like every other one.

#include <string>

namespace gr {
namespace gpuldpc {
namespace detail {

//! GPULDPC_CODES_DIR: where the shipped codes are; "" when unset or empty.
std::string codes_dir_from_environment();

//! GPULDPC_INJECT_CUDA_FAULT (KIND:N, a test hook armed when the library
//! loads); "" when unset or empty.
std::string injected_fault_from_environment();

//! GPULDPC_CPU_SIMD: the CPU decoders' instruction set, "auto" (the best
//! SIMD kernel the CPU runs, where one covers the configuration; the default
//! when unset or empty), "off" (the scalar reference) or a name of
//! simd_targets() (e.g. "AVX2", "SSE4"), checked where a decoder is made.
std::string cpu_simd_from_environment();

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_ENVIRONMENT_H */
