/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_FFT_IMPL_H
#define INCLUDED_GPULDPC_FFT_IMPL_H

#include "block_common.h"
#include <gnuradio/fft/fft.h>
#include <gnuradio/gpuldpc/engine/gpu_transforms.h>
#include <gnuradio/gpuldpc/fft.h>
#include <memory>

namespace gr {
namespace gpuldpc {

// CPU path: GNU Radio's own FFTW wrapper, so results match fft.fft_vcc.
class fft_impl : public fft
{
public:
    fft_impl(int fft_size,
             bool forward,
             const std::vector<float>& window,
             bool shift,
             int nthreads,
             const std::string& device);
    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    size_t d_n;
    bool d_forward;
    std::vector<float> d_window;
    bool d_shift;
    std::unique_ptr<gr::fft::fft_complex_fwd> d_fwd;
    std::unique_ptr<gr::fft::fft_complex_rev> d_rev;
    std::unique_ptr<fft_cuda> d_gpu; // null: the CPU path
    device_status d_where;

public:
    std::string device_name() const override { return d_where.name(); }

private:
    void execute_cpu(const gr_complex* in, gr_complex* out, int n_vectors);
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_FFT_IMPL_H */
