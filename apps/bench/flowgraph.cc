/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "sections.h"
#include <gnuradio/blocks/head.h>
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/fft/fft_v.h>
#include <gnuradio/fft/window.h>
#include <gnuradio/gpuldpc/fft.h>
#include <gnuradio/top_block.h>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace bench {

namespace {

// Samples/s through vector source -> head -> fft_block -> null sink, or the
// source and head alone where fft_block is null.
double run_flowgraph(gr::block_sptr fft_block, size_t n, size_t vectors)
{
    std::vector<gr_complex> data(n * 64);
    for (size_t i = 0; i < data.size(); ++i)
        data[i] = gr_complex(float(i % 17) - 8.0f, float(i % 5) - 2.0f);
    auto tb = gr::make_top_block("bench");
    auto src = gr::blocks::vector_source_c::make(data, true, int(n));
    auto head = gr::blocks::head::make(sizeof(gr_complex) * n, vectors);
    auto sink = gr::blocks::null_sink::make(sizeof(gr_complex) * n);
    // Buffers of 8 MiB between the blocks (the same for both flowgraphs), so
    // that a work() call can see a batch of a thousand vectors.
    const int items = int((size_t(8) << 20) / (sizeof(gr_complex) * n));
    src->set_min_output_buffer(items);
    head->set_min_output_buffer(items);
    if (fft_block)
        fft_block->set_min_output_buffer(items);
    if (fft_block) {
        tb->connect(src, 0, head, 0);
        tb->connect(head, 0, fft_block, 0);
        tb->connect(fft_block, 0, sink, 0);
    } else {
        tb->connect(src, 0, head, 0);
        tb->connect(head, 0, sink, 0);
    }
    const auto t0 = std::chrono::steady_clock::now();
    tb->run();
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return double(vectors * n) / s;
}

} // namespace

void bench_flowgraph(const context& ctx, size_t vectors)
{
    const size_t n = 1024;
    const int cores = host_cores();
    std::printf(
        "\nFlowgraph: vector source -> head -> FFT n=%zu (window, shift) -> null sink, "
        "%zu vectors; baseline: fft.fft_vcc with %d threads\n",
        n,
        vectors,
        cores);
    const auto window = gr::fft::window::blackmanharris(int(n));
    const double source_rate = run_flowgraph(nullptr, n, vectors * 4);
    const double cpu_rate = run_flowgraph(
        gr::fft::fft_v<gr_complex, true>::make(int(n), window, true, cores), n, vectors);
    const double gpu_rate = run_flowgraph(
        gr::gpuldpc::fft::make(int(n), true, window, true, 1, "cuda"), n, vectors);
    const table t({ { "", 34, true }, { "", 14 } });
    t.print_row(
        { "source alone (not the bottleneck)", format("%.1f", source_rate / 1e6) },
        " Msamples/s");
    t.print_row({ "fft.fft_vcc", format("%.1f", cpu_rate / 1e6) }, " Msamples/s");
    t.print_row({ "gpuldpc.fft (cuda)", format("%.1f", gpu_rate / 1e6) },
                format(" Msamples/s  (%.2fx)", gpu_rate / cpu_rate));
    record r;
    r.section = "flowgraph";
    r.name = "gpuldpc.fft block";
    r.n = double(n);
    r.batch = double(vectors);
    r.value = gpu_rate;
    r.unit = "samples/s";
    r.baseline_name = "fft.fft_vcc samples/s (" + std::to_string(cores) + " threads)";
    r.baseline = cpu_rate;
    r.ratio = gpu_rate / cpu_rate;
    ctx.out.add(r);
    record s = r;
    s.name = "source alone";
    s.value = source_rate;
    s.ratio = source_rate / cpu_rate;
    ctx.out.add(s);
}

} // namespace bench
} // namespace gpuldpc
} // namespace gr
