/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "block_common.h"
#include "fft_impl.h"
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

fft::sptr fft::make(int fft_size,
                    bool forward,
                    const std::vector<float>& window,
                    bool shift,
                    int nthreads,
                    const std::string& device)
{
    if (fft_size < 1 || fft_size > (1 << 24))
        throw std::invalid_argument("fft_size=" + std::to_string(fft_size) +
                                    " is out of range; allowed: 1 .. 2^24");
    if (!window.empty() && window.size() != size_t(fft_size))
        throw std::invalid_argument(
            "window has " + std::to_string(window.size()) +
            " taps; allowed: none or fft_size=" + std::to_string(fft_size));
    if (nthreads < 1)
        throw std::invalid_argument("nthreads=" + std::to_string(nthreads) +
                                    " is out of range; allowed: 1 or more");
    return gnuradio::make_block_sptr<fft_impl>(
        fft_size, forward, window, shift, nthreads, device);
}

fft_impl::fft_impl(int fft_size,
                   bool forward,
                   const std::vector<float>& window,
                   bool shift,
                   int nthreads,
                   const std::string& device)
    : gr::sync_block("fft",
                     gr::io_signature::make(1, 1, sizeof(gr_complex) * fft_size),
                     gr::io_signature::make(1, 1, sizeof(gr_complex) * fft_size)),
      d_n(size_t(fft_size)),
      d_forward(forward),
      d_window(window),
      d_shift(shift)
{
    d_gpu = choose_engine<fft_cuda>(device, d_logger, [&](int index) {
        return std::make_unique<fft_cuda>(
            d_n, forward, window, shift, index, 0, gpu_tuning::from_environment());
    });
    d_where.set(d_gpu.get());
    // room for batches worth a GPU launch, bounded in bytes (gpu_buffer_items);
    // the CPU path keeps GNU Radio's default buffers
    if (d_gpu)
        set_min_output_buffer(
            int(gpu_buffer_items(output_signature()->sizeof_stream_item(0))));
    if (forward)
        d_fwd = std::make_unique<gr::fft::fft_complex_fwd>(fft_size, nthreads);
    else
        d_rev = std::make_unique<gr::fft::fft_complex_rev>(fft_size, nthreads);
}

int fft_impl::work(int noutput_items,
                   gr_vector_const_void_star& input_items,
                   gr_vector_void_star& output_items)
{
    const gr_complex* in = static_cast<const gr_complex*>(input_items[0]);
    gr_complex* out = static_cast<gr_complex*>(output_items[0]);
    run_on_gpu_or_cpu(
        d_gpu,
        d_logger,
        [&](fft_cuda& gpu) { gpu.execute(in, out, size_t(noutput_items)); },
        [&] { execute_cpu(in, out, noutput_items); },
        &d_where);
    return noutput_items;
}

void fft_impl::execute_cpu(const gr_complex* in, gr_complex* out, int n_vectors)
{
    gr_complex* buf_in = d_forward ? d_fwd->get_inbuf() : d_rev->get_inbuf();
    const gr_complex* buf_out = d_forward ? d_fwd->get_outbuf() : d_rev->get_outbuf();
    const size_t n = d_n;
    // An inverse transform with shift expects DC in the middle: rotate it to
    // index 0 first (ifftshift); a forward one rotates DC to the middle after.
    const size_t in_rot = (!d_forward && d_shift) ? n / 2 : 0;
    const size_t out_rot = (d_forward && d_shift) ? (n + 1) / 2 : 0;
    for (int v = 0; v < n_vectors; ++v) {
        const gr_complex* x = in + size_t(v) * n;
        for (size_t k = 0; k < n; ++k) {
            const size_t src = (k + in_rot) % n;
            buf_in[k] = d_window.empty() ? x[src] : x[src] * d_window[src];
        }
        if (d_forward)
            d_fwd->execute();
        else
            d_rev->execute();
        gr_complex* y = out + size_t(v) * n;
        for (size_t k = 0; k < n; ++k)
            y[k] = buf_out[(k + out_rot) % n];
    }
}

} // namespace gpuldpc
} // namespace gr
