/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_GPU_TRANSFORMS_BACKEND_H
#define INCLUDED_GPULDPC_ENGINE_GPU_TRANSFORMS_BACKEND_H

// The interfaces that fwht_cuda, fft_cuda and butterfly_cuda forward to
// (cuda_backend.h). Each interface's `cuda_engine` implements it in the CUDA
// backend: fwht_cuda.cc, fft_cuda.cc, butterfly_cuda.cc, compiled with CUDA
// only.

#include <gnuradio/gpuldpc/engine/gpu_transforms.h>
#include <complex>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {

// What every transform engine reports, fixed at construction.
struct gpu_transform_choice {
    size_t length = 0;
    std::string device_name;
    size_t shared_memory_limit = 0;
    size_t shared_memory_bytes = 0;
    std::string variant;
};

struct fwht_cuda::impl : gpu_transform_choice {
    virtual ~impl() = default;
    virtual void execute(const float* in, float* out, size_t n_vectors) = 0;
    virtual void
    execute_device(const float* d_in, float* d_out, size_t n_vectors, void* stream) = 0;

    struct cuda_engine;
    static std::unique_ptr<impl> make(size_t n,
                                      fwht_normalization normalization,
                                      fwht_ordering ordering,
                                      int device,
                                      size_t vectors_per_chunk,
                                      const gpu_tuning& tuning);
};

struct fft_cuda::impl : gpu_transform_choice {
    int extra_passes = 0;
    std::string callback_status;

    virtual ~impl() = default;
    virtual void execute(const std::complex<float>* in,
                         std::complex<float>* out,
                         size_t n_vectors) = 0;
    virtual void execute_device(const std::complex<float>* d_in,
                                std::complex<float>* d_out,
                                size_t n_vectors,
                                void* stream) = 0;

    struct cuda_engine;
    static std::unique_ptr<impl> make(size_t n,
                                      bool forward,
                                      const std::vector<float>& window,
                                      bool shift,
                                      int device,
                                      size_t vectors_per_chunk,
                                      const gpu_tuning& tuning);
};

template <typename T>
struct butterfly_cuda<T>::impl : gpu_transform_choice {
    size_t bank_conflicts = 0;

    virtual ~impl() = default;
    virtual void execute(const T* in, T* out, size_t n_vectors) = 0;
    virtual void
    execute_device(const T* d_in, T* d_out, size_t n_vectors, void* stream) = 0;

    struct cuda_engine;
    static std::unique_ptr<impl> make(const butterfly_network& network,
                                      int device,
                                      bool reorder,
                                      size_t vectors_per_chunk,
                                      const gpu_tuning& tuning);
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_GPU_TRANSFORMS_BACKEND_H */
