/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "block_common.h"
#include "fwht_impl.h"
#include <gnuradio/io_signature.h>
#include <algorithm>

namespace gr {
namespace gpuldpc {

fwht::sptr fwht::make(int n,
                      const std::string& normalization,
                      const std::string& ordering,
                      const std::string& device)
{
    // the engine validates n (and names it) before any block exists
    const fwht_cpu transform(n < 0 ? 0 : size_t(n),
                             parse_fwht_normalization(normalization),
                             parse_fwht_ordering(ordering));
    return gnuradio::make_block_sptr<fwht_impl>(transform, device);
}

fwht_impl::fwht_impl(const fwht_cpu& transform, const std::string& device)
    : gr::sync_block("fwht",
                     gr::io_signature::make(1, 1, sizeof(float) * transform.length()),
                     gr::io_signature::make(1, 1, sizeof(float) * transform.length())),
      d_cpu(transform)
{
    d_gpu = choose_engine<fwht_cuda>(device, d_logger, [&transform](int index) {
        return std::make_unique<fwht_cuda>(transform.length(),
                                           transform.normalization(),
                                           transform.ordering(),
                                           index,
                                           0,
                                           gpu_tuning::from_environment());
    });
    d_where.set(d_gpu.get());
    // room for batches worth a GPU launch, bounded in bytes (gpu_buffer_items);
    // the CPU path keeps GNU Radio's default buffers
    if (d_gpu)
        set_min_output_buffer(
            int(gpu_buffer_items(output_signature()->sizeof_stream_item(0))));
}

int fwht_impl::work(int noutput_items,
                    gr_vector_const_void_star& input_items,
                    gr_vector_void_star& output_items)
{
    const float* in = static_cast<const float*>(input_items[0]);
    float* out = static_cast<float*>(output_items[0]);
    const size_t n = size_t(noutput_items);
    run_on_gpu_or_cpu(
        d_gpu,
        d_logger,
        [&](fwht_cuda& gpu) { gpu.execute(in, out, n); },
        [&] { d_cpu.execute(in, out, n); },
        &d_where);
    return noutput_items;
}

} // namespace gpuldpc
} // namespace gr
