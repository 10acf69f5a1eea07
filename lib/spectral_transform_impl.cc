/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "block_common.h"
#include "spectral_transform_impl.h"
#include <gnuradio/io_signature.h>
#include <algorithm>

namespace gr {
namespace gpuldpc {

template <class T>
typename spectral_transform<T>::sptr
spectral_transform<T>::make(int n,
                            const std::string& kind,
                            bool forward,
                            const std::string& algorithm,
                            const std::string& device)
{
    const spectral_transform_cpu<T> transform(n < 0 ? 0 : size_t(n),
                                              parse_spectral_kind(kind),
                                              forward,
                                              parse_butterfly_algorithm(algorithm));
    return gnuradio::make_block_sptr<spectral_transform_impl<T>>(transform, device);
}

template <class T>
spectral_transform_impl<T>::spectral_transform_impl(
    const spectral_transform_cpu<T>& transform, const std::string& device)
    : gr::sync_block("spectral_transform",
                     gr::io_signature::make(1, 1, sizeof(T) * transform.length()),
                     gr::io_signature::make(1, 1, sizeof(T) * transform.length())),
      d_transform(transform)
{
    // the generic butterfly kernel runs the same butterflies in the same
    // order as the CPU path, so both give identical results
    d_gpu = choose_engine<butterfly_cuda<T>>(device, this->d_logger, [&](int index) {
        return std::make_unique<butterfly_cuda<T>>(
            butterfly_network::spectral(
                transform.length(), transform.kind(), transform.forward()),
            index,
            true,
            0,
            gpu_tuning::from_environment());
    });
    d_where.set(d_gpu.get());
    // room for batches worth a GPU launch, bounded in bytes (gpu_buffer_items);
    // the CPU path keeps GNU Radio's default buffers
    if (d_gpu)
        this->set_min_output_buffer(
            int(gpu_buffer_items(this->output_signature()->sizeof_stream_item(0))));
}

template <class T>
int spectral_transform_impl<T>::work(int noutput_items,
                                     gr_vector_const_void_star& input_items,
                                     gr_vector_void_star& output_items)
{
    const T* in = static_cast<const T*>(input_items[0]);
    T* out = static_cast<T*>(output_items[0]);
    const size_t n = size_t(noutput_items);
    run_on_gpu_or_cpu(
        d_gpu,
        this->d_logger,
        [&](butterfly_cuda<T>& gpu) { gpu.execute(in, out, n); },
        [&] { d_transform.execute(in, out, n); },
        &d_where);
    return noutput_items;
}

template class spectral_transform<int32_t>;
template class spectral_transform<float>;

} // namespace gpuldpc
} // namespace gr
