/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The GPU transform engines' public classes: each forwards to its CUDA
// backend (fwht_cuda.cc, fft_cuda.cc, butterfly_cuda.cc) through the
// interfaces of gpu_transforms_backend.h. Compiled in every build; without
// CUDA the constructors throw (cuda_backend.h).

#include "cuda_backend.h"
#include "gpu_transforms_backend.h"
#include <algorithm>

namespace gr {
namespace gpuldpc {

size_t gpu_buffer_items(size_t item_bytes)
{
    return std::max<size_t>(2, (size_t(8) << 20) / std::max<size_t>(1, item_bytes));
}

fwht_cuda::fwht_cuda(size_t n,
                     fwht_normalization normalization,
                     fwht_ordering ordering,
                     int device,
                     size_t vectors_per_chunk,
                     const gpu_tuning& tuning)
    : d_impl(make_cuda_backend<impl>(
          n, normalization, ordering, device, vectors_per_chunk, tuning))
{
}
fwht_cuda::~fwht_cuda() = default;
size_t fwht_cuda::length() const { return d_impl->length; }
std::string fwht_cuda::device_name() const { return d_impl->device_name; }
size_t fwht_cuda::shared_memory_limit() const { return d_impl->shared_memory_limit; }
size_t fwht_cuda::shared_memory_bytes() const { return d_impl->shared_memory_bytes; }
std::string fwht_cuda::variant() const { return d_impl->variant; }
void fwht_cuda::execute(const float* in, float* out, size_t n_vectors)
{
    d_impl->execute(in, out, n_vectors);
}
void fwht_cuda::execute_device(const float* d_in,
                               float* d_out,
                               size_t n_vectors,
                               void* stream)
{
    d_impl->execute_device(d_in, d_out, n_vectors, stream);
}

fft_cuda::fft_cuda(size_t n,
                   bool forward,
                   const std::vector<float>& window,
                   bool shift,
                   int device,
                   size_t vectors_per_chunk,
                   const gpu_tuning& tuning)
    : d_impl(make_cuda_backend<impl>(
          n, forward, window, shift, device, vectors_per_chunk, tuning))
{
}
fft_cuda::~fft_cuda() = default;
size_t fft_cuda::length() const { return d_impl->length; }
std::string fft_cuda::device_name() const { return d_impl->device_name; }
int fft_cuda::extra_passes() const { return d_impl->extra_passes; }
std::string fft_cuda::callback_status() const { return d_impl->callback_status; }
size_t fft_cuda::shared_memory_limit() const { return d_impl->shared_memory_limit; }
size_t fft_cuda::shared_memory_bytes() const { return d_impl->shared_memory_bytes; }
std::string fft_cuda::variant() const { return d_impl->variant; }
void fft_cuda::execute(const std::complex<float>* in,
                       std::complex<float>* out,
                       size_t n_vectors)
{
    d_impl->execute(in, out, n_vectors);
}
void fft_cuda::execute_device(const std::complex<float>* d_in,
                              std::complex<float>* d_out,
                              size_t n_vectors,
                              void* stream)
{
    d_impl->execute_device(d_in, d_out, n_vectors, stream);
}

template <typename T>
butterfly_cuda<T>::butterfly_cuda(const butterfly_network& network,
                                  int device,
                                  bool reorder,
                                  size_t vectors_per_chunk,
                                  const gpu_tuning& tuning)
    : d_impl(make_cuda_backend<impl>(network, device, reorder, vectors_per_chunk, tuning))
{
}
template <typename T>
butterfly_cuda<T>::~butterfly_cuda() = default;
template <typename T>
size_t butterfly_cuda<T>::length() const
{
    return d_impl->length;
}
template <typename T>
std::string butterfly_cuda<T>::device_name() const
{
    return d_impl->device_name;
}
template <typename T>
size_t butterfly_cuda<T>::bank_conflicts() const
{
    return d_impl->bank_conflicts;
}
template <typename T>
size_t butterfly_cuda<T>::shared_memory_limit() const
{
    return d_impl->shared_memory_limit;
}
template <typename T>
size_t butterfly_cuda<T>::shared_memory_bytes() const
{
    return d_impl->shared_memory_bytes;
}
template <typename T>
std::string butterfly_cuda<T>::variant() const
{
    return d_impl->variant;
}
template <typename T>
void butterfly_cuda<T>::execute(const T* in, T* out, size_t n_vectors)
{
    d_impl->execute(in, out, n_vectors);
}
template <typename T>
void butterfly_cuda<T>::execute_device(const T* d_in,
                                       T* d_out,
                                       size_t n_vectors,
                                       void* stream)
{
    d_impl->execute_device(d_in, d_out, n_vectors, stream);
}

template class butterfly_cuda<int32_t>;
template class butterfly_cuda<float>;
template class butterfly_cuda<std::complex<float>>;

} // namespace gpuldpc
} // namespace gr
