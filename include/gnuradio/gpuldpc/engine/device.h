/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_DEVICE_H
#define INCLUDED_GPULDPC_ENGINE_DEVICE_H

#include <gnuradio/gpuldpc/engine/config.h>
#include <gnuradio/gpuldpc/engine/gpu_tuning.h>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {

/*!
 * A failed CUDA runtime, cuFFT or kernel launch call (message "file:line: call:
 * cudaErrorName: description"). The only error after which a block falls back
 * to the CPU; anything else (an invalid argument) is a bug and surfaces.
 */
class GPULDPC_ENGINE_API cuda_error : public std::runtime_error
{
public:
    cuda_error(const std::string& what, int code) : std::runtime_error(what), d_code(code)
    {
    }
    // defined in the engine library: one type_info for every library and
    // program that throws or catches it
    ~cuda_error() override;
    int code() const { return d_code; }

private:
    int d_code;
};

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

/*!
 * The CUDA devices of a list argument: "cuda:N,M,..." (distinct devices, in
 * that order) or "cuda:all" (every usable device); empty for any other
 * argument ("cuda:N" included). Throws std::invalid_argument naming the
 * argument for a malformed list or a device named twice,
 * std::runtime_error for a device that does not exist.
 */
GPULDPC_ENGINE_API std::vector<int> cuda_device_list(const std::string& device);

/*!
 * Dynamic shared memory per thread block that the GPU engines may use on
 * CUDA device \p device (bytes): the device's opt-in limit
 * (cudaDevAttrMaxSharedMemoryPerBlockOptin: 64 KiB on sm_75, 163 KiB on sm_80,
 * 99 KiB on sm_86/sm_89, 227 KiB on sm_90), lowered by
 * gpu_tuning::shared_memory_limit where that is set (a capped limit stands
 * for a smaller card). A cap below 48 KiB (what every device gives without
 * opting in) counts as 48 KiB. Engines read it once, at construction, and
 * pick for every size a kernel variant that fits. Throws cuda_error when the
 * device cannot be queried, std::runtime_error in a build without CUDA.
 */
GPULDPC_ENGINE_API size_t cuda_shared_memory_limit(int device,
                                                   const gpu_tuning& tuning = {});

/*! One line describing the build: version, CUDA runtime, architectures. */
GPULDPC_ENGINE_API std::string build_info();

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_DEVICE_H */
