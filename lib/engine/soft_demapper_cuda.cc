/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// soft_demapper_cuda: the public class forwards to its CUDA backend (below,
// CUDA builds only); without CUDA the constructor throws (cuda_backend.h).

#include "cuda_backend.h"
#include <gnuradio/gpuldpc/engine/soft_demapper.h>

#ifdef GPULDPC_HAVE_CUDA
#include "common/cuda_check.h"
#include "common/symbol_demap.h"
#include "cuda_on_device.h"
#include "noise_var_check.h"
#include <algorithm>
#endif

namespace gr {
namespace gpuldpc {

struct soft_demapper_cuda::impl {
    explicit impl(const soft_demapper& demapper) : cpu(demapper) {}
    virtual ~impl() = default;
    virtual void
    demap(const std::complex<float>* y, size_t n, float noise_var, float* llr) = 0;

    soft_demapper cpu;
    std::string device_name;

    struct cuda_engine;
    static std::unique_ptr<impl> make(const soft_demapper& demapper, int device);
};

soft_demapper_cuda::soft_demapper_cuda(const soft_demapper& demapper, int device)
    : d_impl(make_cuda_backend<impl>(demapper, device))
{
}
soft_demapper_cuda::~soft_demapper_cuda() = default;
std::string soft_demapper_cuda::device_name() const { return d_impl->device_name; }
const soft_demapper& soft_demapper_cuda::cpu() const { return d_impl->cpu; }
void soft_demapper_cuda::demap(const std::complex<float>* y,
                               size_t n,
                               float noise_var,
                               float* llr)
{
    d_impl->demap(y, n, noise_var, llr);
}

#ifdef GPULDPC_HAVE_CUDA

namespace {

// Symbols a launch: 2^16 symbols are 512 KiB in and at most 2 MiB of LLRs out.
constexpr size_t chunk_symbols = size_t(1) << 16;

struct demap_state {
    explicit demap_state(const soft_demapper& d)
        : bits(d.bits_per_symbol()),
          max_log(d.mode() == demapping::max_log),
          points(d.points().points().size()),
          symbols(chunk_symbols),
          llr(chunk_symbols * d.bits_per_symbol())
    {
        const auto& pts = d.points().points();
        GPULDPC_CUDA_CHECK(cudaMemcpyAsync(points.data(),
                                           pts.data(),
                                           pts.size() * sizeof(float2),
                                           cudaMemcpyHostToDevice,
                                           s.get()));
        GPULDPC_CUDA_CHECK(cudaStreamSynchronize(s.get()));
    }

    void demap(const std::complex<float>* y, size_t n, float noise_var, float* out)
    {
        for (size_t at = 0; at < n; at += chunk_symbols) {
            const size_t count = std::min(chunk_symbols, n - at);
            GPULDPC_CUDA_CHECK(cudaMemcpyAsync(symbols.data(),
                                               y + at,
                                               count * sizeof(float2),
                                               cudaMemcpyHostToDevice,
                                               s.get()));
            kernels::bit_demap_params p{ symbols.data(), count, noise_var,
                                         points.data(),  bits,  max_log,
                                         llr.data() };
            kernels::launch_bit_demap(p, s.get());
            GPULDPC_CUDA_CHECK(cudaMemcpyAsync(out + at * bits,
                                               llr.data(),
                                               count * bits * sizeof(float),
                                               cudaMemcpyDeviceToHost,
                                               s.get()));
            GPULDPC_CUDA_CHECK(cudaStreamSynchronize(s.get()));
        }
    }

    unsigned bits;
    bool max_log;
    cuda::stream s;
    cuda::device_buffer<float2> points;
    cuda::device_buffer<float2> symbols;
    cuda::device_buffer<float> llr;
};

} // namespace

struct soft_demapper_cuda::impl::cuda_engine final : soft_demapper_cuda::impl {
    cuda_engine(const soft_demapper& d, int device) : impl(d), d_state(device, d)
    {
        device_name = cuda::device_label(device);
    }
    void
    demap(const std::complex<float>* y, size_t n, float noise_var, float* llr) override
    {
        check_noise_var(noise_var);
        d_state([&](demap_state& s) { s.demap(y, n, noise_var, llr); });
    }
    cuda::on_device<demap_state> d_state;
};

std::unique_ptr<soft_demapper_cuda::impl>
soft_demapper_cuda::impl::make(const soft_demapper& demapper, int device)
{
    return std::make_unique<cuda_engine>(demapper, device);
}

#endif

} // namespace gpuldpc
} // namespace gr
