/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "common/cuda_check.h"
#include "sections.h"
#include <gnuradio/gpuldpc/engine/butterfly_network.h>
#include <gnuradio/gpuldpc/engine/gpu_transforms.h>
#include <algorithm>
#include <complex>
#include <cstdio>
#include <random>
#include <string>

namespace gr {
namespace gpuldpc {
namespace bench {

namespace {

// Median event time of one pass of \p t over \p vectors vectors of device data.
template <typename T>
double pass_ms(const context& ctx,
               butterfly_cuda<T>& t,
               unsigned char* d_in,
               unsigned char* d_out,
               size_t vectors,
               int reps)
{
    return time_ms(
        [&] {
            t.execute_device(reinterpret_cast<T*>(d_in),
                             reinterpret_cast<T*>(d_out),
                             vectors,
                             ctx.stream);
        },
        reps,
        ctx.stream);
}

} // namespace

void bench_butterfly(const context& ctx, size_t bytes, int reps)
{
    std::printf(
        "\nGeneric butterfly-network kernel (Onsjo et al.), data on the device, %zu MiB; "
        "baseline: cudaMemcpy device-to-device\n",
        bytes >> 20);
    const table t({ { "network", 26, true },
                    { "n", 6 },
                    { "vectors", 9 },
                    { "GB/s", 10 },
                    { "copy GB/s", 10 },
                    { "ratio", 7 },
                    { "conflicts", 10 },
                    { "smem KiB", 9 } });
    t.print_header();
    unsigned char *d_in = nullptr, *d_out = nullptr;
    GPULDPC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_in), bytes));
    GPULDPC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_out), bytes));
    GPULDPC_CUDA_CHECK(cudaMemset(d_in, 0, bytes));
    const double copy_gbps = read_write_gbps(bytes, copy_ms(d_in, d_out, bytes, reps));
    auto report = [&](const std::string& name,
                      size_t n,
                      size_t vectors,
                      double ms,
                      size_t conflicts,
                      size_t smem) {
        const double gbps = read_write_gbps(bytes, ms);
        record r;
        r.section = "butterfly";
        r.name = name;
        r.n = double(n);
        r.batch = double(vectors);
        r.value = double(vectors) / ms;
        r.unit = "transforms/ms";
        r.gbps = gbps;
        r.baseline_name = "cudaMemcpy D2D GB/s";
        r.baseline = copy_gbps;
        r.ratio = gbps / copy_gbps;
        r.shared_bytes = smem;
        ctx.out.add(r);
        t.print_row({ name,
                      format("%zu", n),
                      format("%zu", vectors),
                      format("%.1f", gbps),
                      format("%.1f", copy_gbps),
                      format("%.1f%%", 100 * r.ratio),
                      format("%zu", conflicts),
                      format("%.1f", double(smem) / 1024) });
    };
    for (size_t n : { size_t(256), size_t(1024), size_t(4096) }) {
        const size_t vectors = bytes / (n * 4);
        butterfly_cuda<float> b(
            butterfly_network::spectral(n, spectral_kind::walsh, true),
            0,
            true,
            0,
            ctx.tuning);
        const double ms = pass_ms(ctx, b, d_in, d_out, vectors, reps);
        report(
            "walsh float", n, vectors, ms, b.bank_conflicts(), b.shared_memory_bytes());
    }
    {
        const size_t n = 1024, vectors = bytes / (n * 8);
        butterfly_cuda<std::complex<float>> b(
            butterfly_network::fft(n, true), 0, true, 0, ctx.tuning);
        const double ms = pass_ms(ctx, b, d_in, d_out, vectors, reps);
        report("radix-2 fft complex",
               n,
               vectors,
               ms,
               b.bank_conflicts(),
               b.shared_memory_bytes());
    }
    // Greedy reordering: a Walsh network with its pairs shuffled, run as it
    // is and reordered (profile with ncu for the measured conflicts).
    {
        const size_t n = 1024, vectors = bytes / (n * 4);
        auto net = butterfly_network::spectral(n, spectral_kind::walsh, true);
        std::mt19937 rng(5);
        for (auto& stage : net.stages)
            std::shuffle(stage.begin(), stage.end(), rng);
        for (bool reorder : { false, true }) {
            butterfly_cuda<float> b(net, 0, reorder, 0, ctx.tuning);
            const double ms = pass_ms(ctx, b, d_in, d_out, vectors, reps);
            report(reorder ? "walsh shuffled, reordered" : "walsh shuffled",
                   n,
                   vectors,
                   ms,
                   b.bank_conflicts(),
                   b.shared_memory_bytes());
        }
    }
    cudaFree(d_in);
    cudaFree(d_out);
}

} // namespace bench
} // namespace gpuldpc
} // namespace gr
