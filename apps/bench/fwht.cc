/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "common/cuda_check.h"
#include "sections.h"
#include <gnuradio/gpuldpc/engine/gpu_transforms.h>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace bench {

void bench_fwht(const context& ctx, size_t bytes, int reps)
{
    std::printf(
        "\nFWHT fp32, data on the device, %zu MiB per batch; baseline: cudaMemcpy "
        "device-to-device of the same bytes\n",
        bytes >> 20);
    float *d_in = nullptr, *d_out = nullptr;
    GPULDPC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_in), bytes));
    GPULDPC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_out), bytes));
    GPULDPC_CUDA_CHECK(cudaMemset(d_in, 0, bytes));
    GPULDPC_CUDA_CHECK(cudaMemset(d_out, 0, bytes));
    // Baseline: cudaMemcpy device to device of the same bytes, timed by the
    // host around 8 copies and a synchronisation; measured before and after
    // the transforms (copies into freshly allocated buffers have shown
    // implausible speeds), the slower of the two kept.
    const double copy_before = copy_ms(d_in, d_out, bytes, reps);
    struct row {
        size_t n, vectors;
        double ms;
        bool sequency;
        size_t smem;
        std::string variant;
    };
    std::vector<row> rows;
    for (unsigned k = 1; k <= 15; ++k) {
        for (auto order : { fwht_ordering::natural, fwht_ordering::sequency }) {
            if (order == fwht_ordering::sequency && k != 8 && k != 10 && k != 15)
                continue;
            const size_t n = size_t(1) << k, vectors = bytes / (n * sizeof(float));
            fwht_cuda t(n, fwht_normalization::none, order, 0, 0, ctx.tuning);
            const double ms =
                time_ms([&] { t.execute_device(d_in, d_out, vectors, ctx.stream); },
                        reps,
                        ctx.stream);
            rows.push_back({ n,
                             vectors,
                             ms,
                             order == fwht_ordering::sequency,
                             t.shared_memory_bytes(),
                             t.variant() });
        }
    }
    const double copy_after = copy_ms(d_in, d_out, bytes, reps);
    const double copy_gbps = read_write_gbps(bytes, std::max(copy_before, copy_after));
    std::printf(
        "  copy baseline: %.1f GB/s before, %.1f GB/s after the transforms; using %.1f\n",
        read_write_gbps(bytes, copy_before),
        read_write_gbps(bytes, copy_after),
        copy_gbps);
    const table t({ { "n", 6 },
                    { "vectors", 9 },
                    { "transforms/ms", 14 },
                    { "GB/s", 10 },
                    { "copy GB/s", 10 },
                    { "ratio", 7 },
                    { "smem KiB", 9 } });
    t.print_header();
    for (const row& w : rows) {
        const double gbps = read_write_gbps(w.vectors * w.n * 4, w.ms);
        record r;
        r.section = "fwht";
        r.name = std::string("fwht ") + (w.sequency ? "sequency" : "natural");
        r.n = double(w.n);
        r.batch = double(w.vectors);
        r.value = double(w.vectors) / w.ms;
        r.unit = "transforms/ms";
        r.gbps = gbps;
        r.baseline_name = "cudaMemcpy D2D GB/s";
        r.baseline = copy_gbps;
        r.ratio = gbps / copy_gbps;
        r.shared_bytes = w.smem;
        r.variant = w.variant;
        ctx.out.add(r);
        t.print_row({ format("%zu", w.n),
                      format("%zu", w.vectors),
                      format("%.0f", r.value),
                      format("%.1f", gbps),
                      format("%.1f", copy_gbps),
                      format("%.1f%%", 100 * r.ratio),
                      format("%.1f", double(w.smem) / 1024) },
                    w.sequency ? " (sequency)" : "");
    }
    {
        // cross-check of the event timing: n = 1024 timed by the host clock
        fwht_cuda t(
            1024, fwht_normalization::none, fwht_ordering::natural, 0, 0, ctx.tuning);
        const size_t vectors = bytes / (1024 * sizeof(float));
        const double ms = wall_ms(
                              [&] {
                                  for (int i = 0; i < 8; ++i)
                                      t.execute_device(d_in, d_out, vectors, ctx.stream);
                                  GPULDPC_CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
                              },
                              reps) /
                          8.0;
        std::printf("  n=1024 timed by the host clock: %.1f GB/s\n",
                    read_write_gbps(vectors * 1024 * 4, ms));
    }
    cudaFree(d_in);
    cudaFree(d_out);
}

} // namespace bench
} // namespace gpuldpc
} // namespace gr
