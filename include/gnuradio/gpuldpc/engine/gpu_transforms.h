/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_GPU_TRANSFORMS_H
#define INCLUDED_GPULDPC_ENGINE_GPU_TRANSFORMS_H

#include <gnuradio/gpuldpc/engine/butterfly_network.h>
#include <gnuradio/gpuldpc/engine/config.h>
#include <gnuradio/gpuldpc/engine/gpu_tuning.h>
#include <gnuradio/gpuldpc/engine/transforms.h>
#include <complex>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {

/*!
 * Items of the output-buffer floor that a block on a GPU engine sets
 * (set_min_output_buffer), for items of \p item_bytes: as many as fit 8 MiB,
 * so that one work() call sees a batch worth a launch, but at least 2 (one
 * being written while the next block reads another). The floor thus never
 * exceeds max(8 MiB, 2 items): a 2^24-point FFT (128 MiB per item) gets 2
 * items. Blocks on the CPU set no floor (GNU Radio's default buffers).
 */
GPULDPC_ENGINE_API size_t gpu_buffer_items(size_t item_bytes);

/*!
 * \brief Fast Walsh-Hadamard transform on a CUDA device; the same parameters
 * and results (within float rounding) as fwht_cpu.
 *
 * Contract:
 * - The constructor MUST throw std::runtime_error in a build without CUDA and
 *   cuda_error when the device cannot be used. It allocates every buffer and
 *   stream the object will use.
 * - execute() takes host memory and moves it through the device in chunks on
 *   two streams; execute_device() takes device memory and enqueues on the
 *   given stream (0: the object's own), returning before the work is done.
 * - Errors at run time (device lost, out of memory) MUST surface as
 *   cuda_error, with the output unspecified, so callers can fall back.
 * - One call at a time per object.
 * - Every public call (constructor and destructor included) makes the
 *   object's device current for its duration only and restores the calling
 *   thread's device before it returns; any thread may make, use and destroy
 *   the object.
 * - Shared memory: the constructor reads cuda_shared_memory_limit(device,
 *   tuning) (the device's opt-in limit, or less where
 *   tuning.shared_memory_limit caps it) and picks for the size a kernel
 *   variant that fits it, so every size runs on the GPU on every supported
 *   device; shared_memory_bytes() and variant() say what was chosen.
 * - \p tuning is read in the constructor only; the default is the engine's
 *   own choice. Programs pass gpu_tuning::from_environment() at their edge.
 */
class GPULDPC_ENGINE_API fwht_cuda
{
public:
    fwht_cuda(size_t n,
              fwht_normalization normalization,
              fwht_ordering ordering,
              int device = 0,
              size_t vectors_per_chunk = 0,
              const gpu_tuning& tuning = {});
    ~fwht_cuda();

    size_t length() const;
    std::string device_name() const;
    /*! Shared memory per block the object may use (bytes), read at construction. */
    size_t shared_memory_limit() const;
    /*! Most dynamic shared memory per block its kernels take (<= the limit). */
    size_t shared_memory_bytes() const;
    /*! The kernel variant chosen for the size, in words. */
    std::string variant() const;

    void execute(const float* in, float* out, size_t n_vectors);
    /*! d_in may equal d_out (in place; where the size's whole-vector kernel
     * does not fit the limit, through a device copy), or the two are apart. */
    void execute_device(const float* d_in, float* d_out, size_t n_vectors, void* stream);

private:
    struct impl;
    std::unique_ptr<impl> d_impl;
};

/*!
 * \brief Batched complex FFT on a CUDA device with fft.fft_vcc's window and
 * shift conventions. Without window and shift, and for sizes other than
 * 32 ... 16384 = 2^14 points, cuFFT transforms (a preparation kernel applies
 * window and shift first); powers of two in that range with a window or a
 * shift take a one-pass kernel that applies both while loading and storing
 * (in the variant that fits the shared-memory limit; where none does, cuFFT
 * as for the other sizes).
 * cuFFT plans for power-of-two batch sizes up to the chunk size are made in
 * the constructor (sharing one work area), so no plan is ever made while
 * streaming. With tuning.cufft_callbacks the constructor tries plans whose
 * cuFFT load callback applies window and shift (callback_status() says how
 * that went). Contract as fwht_cuda.
 */
class GPULDPC_ENGINE_API fft_cuda
{
public:
    fft_cuda(size_t n,
             bool forward,
             const std::vector<float>& window,
             bool shift,
             int device = 0,
             size_t vectors_per_chunk = 0,
             const gpu_tuning& tuning = {});
    ~fft_cuda();

    size_t length() const;
    std::string device_name() const;
    /*! Extra passes over the data beside the transform's (0: none, 1: window/rotation).
     */
    int extra_passes() const;
    /*! Whether window and shift run in a cuFFT load callback, and if not, why. */
    std::string callback_status() const;
    /*! As fwht_cuda's; cuFFT's own kernels are cuFFT's business (it picks
     * kernels that the device runs) and not counted. */
    size_t shared_memory_limit() const;
    size_t shared_memory_bytes() const;
    std::string variant() const;

    void
    execute(const std::complex<float>* in, std::complex<float>* out, size_t n_vectors);
    void execute_device(const std::complex<float>* d_in,
                        std::complex<float>* d_out,
                        size_t n_vectors,
                        void* stream);

private:
    struct impl;
    std::unique_ptr<impl> d_impl;
};

/*!
 * \brief Runs a butterfly_network on a CUDA device with the generic
 * butterfly kernel: many vectors per thread block in shared memory, one
 * __syncthreads per stage. T is int32_t, float or std::complex<float>.
 * Contract as fwht_cuda. With \p reorder the pairs of every stage are
 * reordered greedily against shared-memory bank conflicts first.
 */
template <typename T>
class GPULDPC_ENGINE_API butterfly_cuda
{
public:
    butterfly_cuda(const butterfly_network& network,
                   int device = 0,
                   bool reorder = true,
                   size_t vectors_per_chunk = 0,
                   const gpu_tuning& tuning = {});
    ~butterfly_cuda();

    size_t length() const;
    std::string device_name() const;
    /*! Modelled extra shared-memory wavefronts per vector (see butterfly_network). */
    size_t bank_conflicts() const;
    /*! As fwht_cuda's. A vector larger than the limit runs in global memory
     * (one block per vector, shared_memory_bytes() 0). */
    size_t shared_memory_limit() const;
    size_t shared_memory_bytes() const;
    std::string variant() const;

    void execute(const T* in, T* out, size_t n_vectors);
    void execute_device(const T* d_in, T* d_out, size_t n_vectors, void* stream);

private:
    struct impl;
    std::unique_ptr<impl> d_impl;
};

extern template class GPULDPC_ENGINE_API butterfly_cuda<int32_t>;
extern template class GPULDPC_ENGINE_API butterfly_cuda<float>;
extern template class GPULDPC_ENGINE_API butterfly_cuda<std::complex<float>>;

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_GPU_TRANSFORMS_H */
