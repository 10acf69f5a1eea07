/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_DEVICE_H
#define INCLUDED_GPULDPC_ENGINE_DEVICE_H

#include <gnuradio/gpuldpc/engine/config.h>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {

/*! Description of one CUDA device. */
struct cuda_device_info {
    int index;
    std::string name;
    int compute_major;
    int compute_minor;
};

/*! True when the library was built with the CUDA backend. */
GPULDPC_ENGINE_API bool cuda_compiled();

/*!
 * Usable CUDA devices. Empty when the library was built without CUDA, when no
 * driver is installed or when no device is present; never throws for those.
 */
GPULDPC_ENGINE_API std::vector<cuda_device_info> cuda_devices();

/*! A parsed `device` argument. */
struct device_spec {
    enum class kind { automatic, cpu, cuda };
    kind type;
    int index; //!< CUDA device index; 0 for "cuda", N for "cuda:N"
};

/*!
 * Parses "auto", "cpu", "cuda" or "cuda:N"; throws std::invalid_argument
 * naming the argument and the allowed values otherwise.
 */
GPULDPC_ENGINE_API device_spec parse_device(const std::string& device);

/*!
 * The CUDA device a `device` argument selects, or -1 for the CPU:
 * "cpu" -> -1; "auto" -> 0 when a CUDA device is usable, else -1;
 * "cuda" / "cuda:N" -> 0 / N, or std::runtime_error when that device does not
 * exist (or the build has no CUDA), naming the argument.
 */
GPULDPC_ENGINE_API int select_cuda_device(const std::string& device);

/*! One line describing the build: version, CUDA runtime, architectures. */
GPULDPC_ENGINE_API std::string build_info();

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_DEVICE_H */
