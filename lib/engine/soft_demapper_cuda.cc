/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gpuldpc/engine/soft_demapper.h>
#include <stdexcept>

#ifdef GPULDPC_HAVE_CUDA
#include "cuda_check.h"
#include "cuda_resources.h"
#include "noise_var_check.h"
#include "symbol_demap.h"
#include <algorithm>
#endif

namespace gr {
namespace gpuldpc {

#ifndef GPULDPC_HAVE_CUDA

struct soft_demapper_cuda::impl {
};

soft_demapper_cuda::soft_demapper_cuda(const soft_demapper&, int)
{
    throw std::runtime_error("this build of gr-gpuldpc has no CUDA support");
}
soft_demapper_cuda::~soft_demapper_cuda() = default;
std::string soft_demapper_cuda::device_name() const { return ""; }
const soft_demapper& soft_demapper_cuda::cpu() const
{
    throw std::runtime_error("this build of gr-gpuldpc has no CUDA support");
}
void soft_demapper_cuda::demap(const std::complex<float>*, size_t, float, float*)
{
    throw std::runtime_error("this build of gr-gpuldpc has no CUDA support");
}

#else

namespace {

// Symbols a launch: 2^16 symbols are 512 KiB in and at most 2 MiB of LLRs out.
constexpr size_t chunk_symbols = size_t(1) << 16;

} // namespace

struct soft_demapper_cuda::impl {
    impl(const soft_demapper& d, int dev)
        : cpu(d),
          device(dev),
          points(d.points().points().size()),
          symbols(chunk_symbols),
          llr(chunk_symbols * d.bits_per_symbol())
    {
        cudaDeviceProp prop;
        GPULDPC_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
        name = std::string(prop.name) + " (cuda:" + std::to_string(dev) + ")";
        const auto& pts = d.points().points();
        GPULDPC_CUDA_CHECK(cudaMemcpyAsync(points.data(),
                                           pts.data(),
                                           pts.size() * sizeof(float2),
                                           cudaMemcpyHostToDevice,
                                           s.get()));
        GPULDPC_CUDA_CHECK(cudaStreamSynchronize(s.get()));
    }

    soft_demapper cpu;
    int device;
    std::string name;
    cuda::stream s;
    cuda::device_buffer<float2> points;
    cuda::device_buffer<float2> symbols;
    cuda::device_buffer<float> llr;
};

soft_demapper_cuda::soft_demapper_cuda(const soft_demapper& demapper, int device)
{
    cuda::scoped_device on(device); // while the stream and buffers are made
    d_impl.reset(new impl(demapper, device));
}

soft_demapper_cuda::~soft_demapper_cuda()
{
    if (d_impl) {
        cuda::scoped_device on(d_impl->device, std::nothrow);
        d_impl.reset();
    }
}

std::string soft_demapper_cuda::device_name() const { return d_impl->name; }
const soft_demapper& soft_demapper_cuda::cpu() const { return d_impl->cpu; }

void soft_demapper_cuda::demap(const std::complex<float>* y,
                               size_t n,
                               float noise_var,
                               float* llr)
{
    check_noise_var(noise_var);
    auto& d = *d_impl;
    cuda::scoped_device on(d.device);
    const unsigned bits = d.cpu.bits_per_symbol();
    for (size_t at = 0; at < n; at += chunk_symbols) {
        const size_t count = std::min(chunk_symbols, n - at);
        GPULDPC_CUDA_CHECK(cudaMemcpyAsync(d.symbols.data(),
                                           y + at,
                                           count * sizeof(float2),
                                           cudaMemcpyHostToDevice,
                                           d.s.get()));
        kernels::bit_demap_params p{
            d.symbols.data(), count, noise_var,
            d.points.data(),  bits,  d.cpu.mode() == demapping::max_log,
            d.llr.data()
        };
        kernels::launch_bit_demap(p, d.s.get());
        GPULDPC_CUDA_CHECK(cudaMemcpyAsync(llr + at * bits,
                                           d.llr.data(),
                                           count * bits * sizeof(float),
                                           cudaMemcpyDeviceToHost,
                                           d.s.get()));
        GPULDPC_CUDA_CHECK(cudaStreamSynchronize(d.s.get()));
    }
}

#endif

} // namespace gpuldpc
} // namespace gr
