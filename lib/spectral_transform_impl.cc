/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "block_common.h"
#include "spectral_transform_impl.h"
#include <gnuradio/io_signature.h>

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
    require_cpu_device(device, this->d_logger);
}

template <class T>
int spectral_transform_impl<T>::work(int noutput_items,
                                     gr_vector_const_void_star& input_items,
                                     gr_vector_void_star& output_items)
{
    d_transform.execute(static_cast<const T*>(input_items[0]),
                        static_cast<T*>(output_items[0]),
                        size_t(noutput_items));
    return noutput_items;
}

template class spectral_transform<int32_t>;
template class spectral_transform<float>;

} // namespace gpuldpc
} // namespace gr
