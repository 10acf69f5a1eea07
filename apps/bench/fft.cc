/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "common/cuda_check.h"
#include "sections.h"
#include <gnuradio/gpuldpc/engine/gpu_transforms.h>
#include <cufft.h>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace bench {

void bench_fft(const context& ctx, size_t bytes, int reps)
{
    std::printf(
        "\nFFT complex fp32, data on the device, %zu MiB per batch; baseline: raw "
        "cuFFT C2C on the same batch\n",
        bytes >> 20);
    const table t({ { "n", 6 },
                    { "vectors", 8 },
                    { "engine", 22, true },
                    { "GB/s", 10 },
                    { "cuFFT GB/s", 10 },
                    { "ratio", 7 },
                    { "passes", 6 },
                    { "plans ms", 8 },
                    { "smem KiB", 9 } });
    t.print_header();
    for (size_t n :
         { size_t(256), size_t(1024), size_t(4096), size_t(8192), size_t(16384) }) {
        const size_t vectors = bytes / (n * 8);
        std::complex<float>*d_in = nullptr, *d_out = nullptr;
        GPULDPC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_in), bytes));
        GPULDPC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_out), bytes));
        GPULDPC_CUDA_CHECK(cudaMemset(d_in, 0, bytes));
        cufftHandle plan;
        int nn = int(n);
        if (cufftPlanMany(
                &plan, 1, &nn, nullptr, 1, nn, nullptr, 1, nn, CUFFT_C2C, int(vectors)) !=
            CUFFT_SUCCESS)
            throw std::runtime_error("cufftPlanMany failed");
        cufftSetStream(plan, ctx.stream);
        const double raw_ms = time_ms(
            [&] {
                cufftExecC2C(plan,
                             reinterpret_cast<cufftComplex*>(d_in),
                             reinterpret_cast<cufftComplex*>(d_out),
                             CUFFT_FORWARD);
            },
            reps,
            ctx.stream);
        cufftDestroy(plan);
        const double raw_gbps = read_write_gbps(bytes, raw_ms);
        std::vector<float> window(n);
        for (size_t i = 0; i < n; ++i)
            window[i] = float(0.5 - 0.5 * std::cos(2 * M_PI * double(i) / double(n)));
        struct variant {
            const char* name;
            bool windowed, shift;
        };
        for (const variant& v : { variant{ "plain", false, false },
                                  variant{ "window+shift", true, true } }) {
            const auto t_plan = std::chrono::steady_clock::now();
            fft_cuda engine(n,
                            true,
                            v.windowed ? window : std::vector<float>(),
                            v.shift,
                            0,
                            vectors,
                            ctx.tuning);
            const double plan_ms = std::chrono::duration<double, std::milli>(
                                       std::chrono::steady_clock::now() - t_plan)
                                       .count();
            const double ms =
                time_ms([&] { engine.execute_device(d_in, d_out, vectors, ctx.stream); },
                        reps,
                        ctx.stream);
            const double gbps = read_write_gbps(bytes, ms);
            record r;
            r.section = "fft";
            r.name = std::string("fft engine ") + v.name;
            r.n = double(n);
            r.batch = double(vectors);
            r.value = double(vectors) / ms;
            r.unit = "transforms/ms";
            r.gbps = gbps;
            r.baseline_name = "raw cuFFT GB/s";
            r.baseline = raw_gbps;
            r.ratio = raw_ms / ms;
            r.shared_bytes = engine.shared_memory_bytes();
            r.variant = engine.variant();
            ctx.out.add(r);
            t.print_row({ format("%zu", n),
                          format("%zu", vectors),
                          v.name,
                          format("%.1f", gbps),
                          format("%.1f", raw_gbps),
                          format("%.1f%%", 100 * r.ratio),
                          format("%d", engine.extra_passes()),
                          format("%.0f", plan_ms),
                          format("%.1f", double(r.shared_bytes) / 1024) });
            if (v.windowed)
                std::printf("         %s; %s\n",
                            engine.variant().c_str(),
                            engine.callback_status().c_str());
        }
        cudaFree(d_in);
        cudaFree(d_out);
    }
}

} // namespace bench
} // namespace gpuldpc
} // namespace gr
