/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "common/cuda_check.h"
#include "sections.h"
#include <gnuradio/gpuldpc/engine/gpu_transforms.h>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace bench {

void bench_stream(const context& ctx, size_t bytes, int reps)
{
    std::printf(
        "\nHost to host through the two-stream pipeline (FWHT n=1024, %zu MiB); "
        "baseline: pinned cudaMemcpy H2D + D2H of the same bytes, one after the other\n",
        bytes >> 20);
    const size_t n = 1024, vectors = bytes / (n * 4);
    float* pinned_in = nullptr;
    float* pinned_out = nullptr;
    float* d_buf = nullptr;
    GPULDPC_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&pinned_in), bytes));
    GPULDPC_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&pinned_out), bytes));
    GPULDPC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_buf), bytes));
    std::memset(pinned_in, 0, bytes);
    const double h2d = time_ms(
        [&] {
            GPULDPC_CUDA_CHECK(
                cudaMemcpy(d_buf, pinned_in, bytes, cudaMemcpyHostToDevice));
        },
        reps,
        ctx.stream);
    const double d2h = time_ms(
        [&] {
            GPULDPC_CUDA_CHECK(
                cudaMemcpy(pinned_out, d_buf, bytes, cudaMemcpyDeviceToHost));
        },
        reps,
        ctx.stream);
    const double base_gbps = double(bytes) / (h2d + d2h) / 1e6;
    std::vector<float> pageable_in(bytes / 4, 0.0f), pageable_out(bytes / 4);
    fwht_cuda t(n, fwht_normalization::none, fwht_ordering::natural, 0, 0, ctx.tuning);
    struct variant {
        const char* name;
        const float* in;
        float* out;
    };
    const table tab({ { "source/destination", 28, true },
                      { "GB/s (host)", 12 },
                      { "pinned H2D+D2H", 16 },
                      { "ratio", 7 } });
    tab.print_header();
    for (const variant& v :
         { variant{
               "pageable (GNU Radio buffers)", pageable_in.data(), pageable_out.data() },
           variant{ "pinned", pinned_in, pinned_out } }) {
        const double ms = wall_ms([&] { t.execute(v.in, v.out, vectors); }, reps);
        const double gbps = double(bytes) / ms / 1e6;
        record r;
        r.section = "stream";
        r.name = std::string("pipeline ") + v.name;
        r.n = double(n);
        r.batch = double(vectors);
        r.value = gbps;
        r.unit = "GB/s host-to-host";
        r.gbps = gbps;
        r.baseline_name = "pinned H2D+D2H GB/s";
        r.baseline = base_gbps;
        r.ratio = gbps / base_gbps;
        ctx.out.add(r);
        tab.print_row({ v.name,
                        format("%.2f", gbps),
                        format("%.2f", base_gbps),
                        format("%.1f%%", 100 * r.ratio) });
    }
    cudaFreeHost(pinned_in);
    cudaFreeHost(pinned_out);
    cudaFree(d_buf);
}

} // namespace bench
} // namespace gpuldpc
} // namespace gr
