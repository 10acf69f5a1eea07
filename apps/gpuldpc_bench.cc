/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gpuldpc-bench: throughput of the GPU transforms, each against a baseline
// measured in the same run (device memcpy of the same bytes, raw cuFFT on the
// same batch, pinned copy bandwidth, fft.fft_vcc in the same flowgraph).
// Prints a table and, with --json FILE, writes every record with the device.

#include "cuda_check.h"
#include "device_query.h"
#include "engine/copy_pool.h"
#include <gnuradio/blocks/head.h>
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/fec/ldpc_decoder.h>
#include <gnuradio/fft/fft_v.h>
#include <gnuradio/fft/window.h>
#include <gnuradio/gpuldpc/engine/butterfly_network.h>
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/device.h>
#include <gnuradio/gpuldpc/engine/gpu_transforms.h>
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <gnuradio/gpuldpc/fft.h>
#include <gnuradio/gpuldpc/ldpc_decoder.h>
#include <gnuradio/io_signature.h>
#include <gnuradio/sync_block.h>
#include <gnuradio/top_block.h>
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <unistd.h>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace gr::gpuldpc;

namespace {

struct record {
    std::string section, name, unit, baseline_name, variant;
    double n = 0, batch = 0, value = 0, gbps = 0, baseline = 0, ratio = 0;
    size_t shared_bytes = 0; //!< the engine's kernel variant's, per block
};

std::string g_device;
// shared memory per block the engines may use, the device's opt-in limit and
// GPULDPC_SHARED_MEMORY_LIMIT (empty: unset)
size_t g_smem_limit = 0, g_smem_device = 0;
std::string g_smem_cap;
std::vector<record> g_records;
cudaStream_t g_stream = nullptr; // everything timed runs on this stream

// Median time (ms) of `reps` runs of fn, timed by events on `stream`, after a
// warm-up.
double time_ms(const std::function<void()>& fn, int reps, cudaStream_t stream = g_stream)
{
    fn();
    GPULDPC_CUDA_CHECK(cudaDeviceSynchronize());
    cudaEvent_t a, b;
    GPULDPC_CUDA_CHECK(cudaEventCreate(&a));
    GPULDPC_CUDA_CHECK(cudaEventCreate(&b));
    std::vector<float> t;
    for (int r = 0; r < reps; ++r) {
        GPULDPC_CUDA_CHECK(cudaEventRecord(a, stream));
        fn();
        GPULDPC_CUDA_CHECK(cudaEventRecord(b, stream));
        GPULDPC_CUDA_CHECK(cudaEventSynchronize(b));
        float ms = 0;
        GPULDPC_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

double wall_ms(const std::function<void()>& fn, int reps)
{
    fn();
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        fn();
        t.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - t0)
                        .count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// Baseline of the on-device sections: cudaMemcpy device to device of `bytes`,
// timed by the host around 8 copies and a synchronisation; ms per copy.
double copy_ms(const void* d_in, void* d_out, size_t bytes, int reps)
{
    return wall_ms(
               [&] {
                   for (int i = 0; i < 8; ++i)
                       GPULDPC_CUDA_CHECK(
                           cudaMemcpy(d_out, d_in, bytes, cudaMemcpyDeviceToDevice));
                   GPULDPC_CUDA_CHECK(cudaDeviceSynchronize());
               },
               reps) /
           8.0;
}

void bench_fwht(size_t bytes, int reps)
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
            fwht_cuda t(n, fwht_normalization::none, order, 0);
            const double ms =
                time_ms([&] { t.execute_device(d_in, d_out, vectors, g_stream); }, reps);
            rows.push_back({ n,
                             vectors,
                             ms,
                             order == fwht_ordering::sequency,
                             t.shared_memory_bytes(),
                             t.variant() });
        }
    }
    const double copy_after = copy_ms(d_in, d_out, bytes, reps);
    const double copy_gbps =
        2.0 * double(bytes) / std::max(copy_before, copy_after) / 1e6;
    std::printf(
        "  copy baseline: %.1f GB/s before, %.1f GB/s after the transforms; using %.1f\n",
        2.0 * double(bytes) / copy_before / 1e6,
        2.0 * double(bytes) / copy_after / 1e6,
        copy_gbps);
    std::printf("%6s %9s %14s %10s %10s %7s %9s\n",
                "n",
                "vectors",
                "transforms/ms",
                "GB/s",
                "copy GB/s",
                "ratio",
                "smem KiB");
    for (const row& w : rows) {
        const double gbps = 2.0 * double(w.vectors * w.n * 4) / w.ms / 1e6;
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
        g_records.push_back(r);
        std::printf("%6zu %9zu %14.0f %10.1f %10.1f %6.1f%% %9.1f%s\n",
                    w.n,
                    w.vectors,
                    r.value,
                    gbps,
                    copy_gbps,
                    100 * r.ratio,
                    double(w.smem) / 1024,
                    w.sequency ? " (sequency)" : "");
    }
    {
        // cross-check of the event timing: n = 1024 timed by the host clock
        fwht_cuda t(1024, fwht_normalization::none, fwht_ordering::natural, 0);
        const size_t vectors = bytes / (1024 * sizeof(float));
        const double ms = wall_ms(
                              [&] {
                                  for (int i = 0; i < 8; ++i)
                                      t.execute_device(d_in, d_out, vectors, g_stream);
                                  GPULDPC_CUDA_CHECK(cudaStreamSynchronize(g_stream));
                              },
                              reps) /
                          8.0;
        std::printf("  n=1024 timed by the host clock: %.1f GB/s\n",
                    2.0 * double(vectors * 1024 * 4) / ms / 1e6);
    }
    cudaFree(d_in);
    cudaFree(d_out);
}

void bench_fft(size_t bytes, int reps)
{
    std::printf(
        "\nFFT complex fp32, data on the device, %zu MiB per batch; baseline: raw "
        "cuFFT C2C on the same batch\n",
        bytes >> 20);
    std::printf("%6s %8s %-22s %10s %10s %7s %6s %8s %9s\n",
                "n",
                "vectors",
                "engine",
                "GB/s",
                "cuFFT GB/s",
                "ratio",
                "passes",
                "plans ms",
                "smem KiB");
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
        cufftSetStream(plan, g_stream);
        const double raw_ms = time_ms(
            [&] {
                cufftExecC2C(plan,
                             reinterpret_cast<cufftComplex*>(d_in),
                             reinterpret_cast<cufftComplex*>(d_out),
                             CUFFT_FORWARD);
            },
            reps);
        cufftDestroy(plan);
        const double raw_gbps = 2.0 * double(bytes) / raw_ms / 1e6;
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
            fft_cuda engine(
                n, true, v.windowed ? window : std::vector<float>(), v.shift, 0, vectors);
            const double plan_ms = std::chrono::duration<double, std::milli>(
                                       std::chrono::steady_clock::now() - t_plan)
                                       .count();
            const double ms = time_ms(
                [&] { engine.execute_device(d_in, d_out, vectors, g_stream); }, reps);
            const double gbps = 2.0 * double(bytes) / ms / 1e6;
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
            g_records.push_back(r);
            std::printf("%6zu %8zu %-22s %10.1f %10.1f %6.1f%% %6d %8.0f %9.1f\n",
                        n,
                        vectors,
                        v.name,
                        gbps,
                        raw_gbps,
                        100 * r.ratio,
                        engine.extra_passes(),
                        plan_ms,
                        double(r.shared_bytes) / 1024);
            if (v.windowed)
                std::printf("         %s; %s\n",
                            engine.variant().c_str(),
                            engine.callback_status().c_str());
        }
        cudaFree(d_in);
        cudaFree(d_out);
    }
}

void bench_butterfly(size_t bytes, int reps)
{
    std::printf(
        "\nGeneric butterfly-network kernel (Onsjo et al.), data on the device, %zu MiB; "
        "baseline: cudaMemcpy device-to-device\n",
        bytes >> 20);
    std::printf("%-26s %6s %9s %10s %10s %7s %10s %9s\n",
                "network",
                "n",
                "vectors",
                "GB/s",
                "copy GB/s",
                "ratio",
                "conflicts",
                "smem KiB");
    unsigned char *d_in = nullptr, *d_out = nullptr;
    GPULDPC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_in), bytes));
    GPULDPC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_out), bytes));
    GPULDPC_CUDA_CHECK(cudaMemset(d_in, 0, bytes));
    const double copy_gbps =
        2.0 * double(bytes) / copy_ms(d_in, d_out, bytes, reps) / 1e6;
    auto report = [&](const std::string& name,
                      size_t n,
                      size_t vectors,
                      double ms,
                      size_t conflicts,
                      size_t smem) {
        const double gbps = 2.0 * double(bytes) / ms / 1e6;
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
        g_records.push_back(r);
        std::printf("%-26s %6zu %9zu %10.1f %10.1f %6.1f%% %10zu %9.1f\n",
                    name.c_str(),
                    n,
                    vectors,
                    gbps,
                    copy_gbps,
                    100 * r.ratio,
                    conflicts,
                    double(smem) / 1024);
    };
    for (size_t n : { size_t(256), size_t(1024), size_t(4096) }) {
        const size_t vectors = bytes / (n * 4);
        butterfly_cuda<float> t(
            butterfly_network::spectral(n, spectral_kind::walsh, true), 0);
        const double ms = time_ms(
            [&] {
                t.execute_device(reinterpret_cast<float*>(d_in),
                                 reinterpret_cast<float*>(d_out),
                                 vectors,
                                 g_stream);
            },
            reps);
        report(
            "walsh float", n, vectors, ms, t.bank_conflicts(), t.shared_memory_bytes());
    }
    {
        const size_t n = 1024, vectors = bytes / (n * 8);
        butterfly_cuda<std::complex<float>> t(butterfly_network::fft(n, true), 0);
        const double ms = time_ms(
            [&] {
                t.execute_device(reinterpret_cast<std::complex<float>*>(d_in),
                                 reinterpret_cast<std::complex<float>*>(d_out),
                                 vectors,
                                 g_stream);
            },
            reps);
        report("radix-2 fft complex",
               n,
               vectors,
               ms,
               t.bank_conflicts(),
               t.shared_memory_bytes());
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
            butterfly_cuda<float> t(net, 0, reorder);
            const double ms = time_ms(
                [&] {
                    t.execute_device(reinterpret_cast<float*>(d_in),
                                     reinterpret_cast<float*>(d_out),
                                     vectors,
                                     g_stream);
                },
                reps);
            report(reorder ? "walsh shuffled, reordered" : "walsh shuffled",
                   n,
                   vectors,
                   ms,
                   t.bank_conflicts(),
                   t.shared_memory_bytes());
        }
    }
    cudaFree(d_in);
    cudaFree(d_out);
}

void bench_stream(size_t bytes, int reps)
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
        reps);
    const double d2h = time_ms(
        [&] {
            GPULDPC_CUDA_CHECK(
                cudaMemcpy(pinned_out, d_buf, bytes, cudaMemcpyDeviceToHost));
        },
        reps);
    const double base_gbps = double(bytes) / (h2d + d2h) / 1e6;
    std::vector<float> pageable_in(bytes / 4, 0.0f), pageable_out(bytes / 4);
    fwht_cuda t(n, fwht_normalization::none, fwht_ordering::natural, 0);
    struct variant {
        const char* name;
        const float* in;
        float* out;
    };
    std::printf("%-28s %12s %16s %7s\n",
                "source/destination",
                "GB/s (host)",
                "pinned H2D+D2H",
                "ratio");
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
        g_records.push_back(r);
        std::printf(
            "%-28s %12.2f %16.2f %6.1f%%\n", v.name, gbps, base_gbps, 100 * r.ratio);
    }
    cudaFreeHost(pinned_in);
    cudaFreeHost(pinned_out);
    cudaFree(d_buf);
}

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

void bench_flowgraph(size_t vectors)
{
    const size_t n = 1024;
    const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
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
    std::printf("%-34s %14.1f Msamples/s\n",
                "source alone (not the bottleneck)",
                source_rate / 1e6);
    std::printf("%-34s %14.1f Msamples/s\n", "fft.fft_vcc", cpu_rate / 1e6);
    std::printf("%-34s %14.1f Msamples/s  (%.2fx)\n",
                "gpuldpc.fft (cuda)",
                gpu_rate / 1e6,
                gpu_rate / cpu_rate);
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
    g_records.push_back(r);
    record s = r;
    s.name = "source alone";
    s.value = source_rate;
    s.ratio = source_rate / cpu_rate;
    g_records.push_back(s);
}

// --- decoder --------------------------------------------------------------

// Noisy frames of a code: random information, systematic encoding, BPSK over
// AWGN at Eb/N0 = ebn0_db, bit LLRs log(P(1)/P(0)). Also returns the bits.
std::vector<float> noisy_llr(const ldpc_code& code,
                             size_t frames,
                             double ebn0_db,
                             uint32_t seed,
                             std::vector<uint8_t>& info_bits)
{
    std::mt19937 rng(seed);
    const unsigned m = code.bits_per_symbol();
    const double sigma2 = 1.0 / (2.0 * code.rate() * std::pow(10.0, ebn0_db / 10.0));
    std::normal_distribution<double> noise(0.0, std::sqrt(sigma2));
    std::vector<uint8_t> info(frames * code.k()), cw(frames * code.n());
    for (auto& x : info)
        x = uint8_t(rng() % code.q());
    code.encode(info.data(), cw.data(), frames);
    std::vector<uint8_t> sent(frames * code.n_transmitted());
    code.puncture(cw.data(), sent.data(), frames); // the punctured are not sent
    cw.swap(sent);
    info_bits.clear();
    for (uint8_t x : info)
        for (unsigned b = 0; b < m; ++b)
            info_bits.push_back((x >> (m - 1 - b)) & 1);
    std::vector<float> llr;
    llr.reserve(cw.size() * m);
    for (uint8_t x : cw)
        for (unsigned b = 0; b < m; ++b) {
            const double sym = 1.0 - 2.0 * ((x >> (m - 1 - b)) & 1);
            llr.push_back(float(-2.0 * (sym + noise(rng)) / sigma2));
        }
    return llr;
}

size_t count_frame_errors(const std::vector<uint8_t>& got,
                          const std::vector<uint8_t>& sent,
                          size_t frames,
                          size_t bits_per_frame)
{
    size_t errors = 0;
    for (size_t f = 0; f < frames; ++f)
        errors += !std::equal(got.begin() + f * bits_per_frame,
                              got.begin() + (f + 1) * bits_per_frame,
                              sent.begin() + f * bits_per_frame);
    return errors;
}

// Host to host through the engine: bit LLRs in host memory, information bits
// out; median wall time of `reps` calls. Returns information bits/s.
double decode_rate(batch_decoder& dec,
                   const std::vector<float>& llr,
                   size_t frames,
                   int reps,
                   std::vector<uint8_t>& bits)
{
    bits.resize(frames * dec.info_bits_per_frame());
    std::vector<frame_status> st(frames);
    const double ms =
        wall_ms([&] { dec.decode(llr.data(), frames, bits.data(), st.data()); }, reps);
    return double(frames * dec.info_bits_per_frame()) / (ms * 1e-3);
}

// A source of precomputed items, repeated until `total` items went out: large
// copies into the output buffer, split over 4 threads, so that it feeds a
// block at memory speed (vector_source with repeat copies item by item and
// needs a head; one thread's memcpy bounds a GPU decoder block's rate).
class frame_source : public gr::sync_block
{
public:
    frame_source(const void* items, size_t count, size_t item_size, uint64_t total)
        : gr::sync_block("frame_source",
                         gr::io_signature::make(0, 0, 0),
                         gr::io_signature::make(1, 1, int(item_size))),
          d_items(static_cast<const uint8_t*>(items)),
          d_count(count),
          d_item_size(item_size),
          d_total(total),
          d_copies(3)
    {
    }

    void restart(uint64_t total)
    {
        d_sent = 0;
        d_total = total;
        d_calls = 0;
        d_busy = {};
    }

    int work(int noutput_items,
             gr_vector_const_void_star&,
             gr_vector_void_star& output_items) override
    {
        if (d_sent >= d_total)
            return WORK_DONE;
        const auto t0 = std::chrono::steady_clock::now();
        auto* out = static_cast<uint8_t*>(output_items[0]);
        const size_t n =
            size_t(std::min<uint64_t>(uint64_t(noutput_items), d_total - d_sent));
        for (size_t done = 0; done < n;) {
            const size_t at = size_t(d_sent % d_count);
            const size_t run = std::min(n - done, d_count - at);
            d_copies.copy(
                out + done * d_item_size, d_items + at * d_item_size, run * d_item_size);
            done += run;
            d_sent += run;
        }
        ++d_calls;
        d_busy += std::chrono::steady_clock::now() - t0;
        return int(n);
    }

    //! work() calls and the time spent in them since restart()
    uint64_t calls() const { return d_calls; }
    double busy_seconds() const { return std::chrono::duration<double>(d_busy).count(); }

private:
    const uint8_t* d_items;
    size_t d_count, d_item_size;
    uint64_t d_total, d_sent = 0;
    uint64_t d_calls = 0;
    std::chrono::steady_clock::duration d_busy{};
    copy_pool d_copies;
};

// The decoder block between a source of precomputed frames (repeated) and a
// null sink (untagged frames): float LLRs, or with \p llr8 the block's 8-bit
// input (a byte stream of signed steps). One pass over the frames first (the
// block's buffers and the decoder's workspaces are made then, and flowgraph
// threads start), then the timed run of `passes` passes, with the same block.
// Returns information bits/s through the flowgraph; \p run gets how the timed
// run went.
struct block_run {
    double mean_batch = 0;   //!< frames a decoder call
    double decoder_busy = 0; //!< share of the time the decoder had a batch
    double source_busy = 0;  //!< share of the time the source copied
    double chunked = 0;      //!< batches that went in chunks (no batch behind)
};

double block_rate(ldpc_code::sptr code,
                  const decoder_config& cfg,
                  const std::vector<float>& llr,
                  size_t frames,
                  const std::string& device,
                  unsigned passes,
                  const std::string& status_tags,
                  const std::vector<int8_t>* llr8 = nullptr,
                  block_run* run = nullptr)
{
    ldpc_decoder::params p;
    p.schedule = to_string(cfg.schedule);
    p.algorithm = to_string(cfg.algorithm);
    p.max_iterations = int(cfg.max_iterations);
    p.messages = to_string(cfg.messages);
    p.llr_scale = cfg.llr_scale;
    p.input = llr8 ? "int8" : "float";
    p.length_tag_key = "";
    p.max_batch = 0; // the block's automatic batch
    p.device = device;
    p.status_tags = status_tags;
    auto dec = ldpc_decoder::make_from_params(code, p);
    const void* items = llr8 ? static_cast<const void*>(llr8->data()) : llr.data();
    const size_t item_size = llr8 ? sizeof(int8_t) : sizeof(float);
    auto src =
        gnuradio::make_block_sptr<frame_source>(items, llr.size(), item_size, llr.size());
    auto sink = gr::blocks::null_sink::make(sizeof(uint8_t));
    auto tb = gr::make_top_block("decoder_bench");
    tb->connect(src, 0, dec, 0);
    tb->connect(dec, 0, sink, 0);
    tb->run();
    src->restart(uint64_t(llr.size()) * passes);
    // the block's counters, for the timed run's share of them
    const auto counters = [&dec] {
        const pmt::pmt_t st = dec->stats();
        const auto get = [&st](const char* key) {
            const pmt::pmt_t v = pmt::dict_ref(st, pmt::mp(key), pmt::PMT_NIL);
            return pmt::is_uint64(v)   ? double(pmt::to_uint64(v))
                   : pmt::is_number(v) ? pmt::to_double(v)
                                       : 0.0;
        };
        const double fps = get("frames_per_second"), f = get("frames");
        // frames, decoder calls, seconds the decoder was busy, batches in
        // chunks
        return std::array<double, 4>{
            f, get("batches"), fps > 0 ? f / fps : 0.0, get("chunked_batches")
        };
    };
    const auto before = counters();
    const uint64_t frames0 = dec->frames();
    const auto t0 = std::chrono::steady_clock::now();
    tb->run();
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (dec->frames() - frames0 != uint64_t(frames) * passes)
        throw std::runtime_error(
            "decoder block: " + std::to_string(dec->frames() - frames0) +
            " frames out of " + std::to_string(frames * passes));
    if (run) {
        const auto after = counters();
        const double batches = after[1] - before[1];
        run->mean_batch = batches > 0 ? (after[0] - before[0]) / batches : 0.0;
        run->decoder_busy = (after[2] - before[2]) / s;
        run->source_busy = src->busy_seconds() / s;
        run->chunked = after[3] - before[3];
    }
    return double(frames) * passes * code->k() * code->bits_per_symbol() / s;
}

// Bits/s of a GPU decoder on frames already in device memory (decode_device).
double device_decode_rate(batch_decoder& dec, const float* d_llr, size_t frames, int reps)
{
    const size_t nb = dec.info_bits_per_frame();
    uint8_t* d_bits = nullptr;
    frame_status* d_status = nullptr;
    GPULDPC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_bits), frames * nb));
    GPULDPC_CUDA_CHECK(
        cudaMalloc(reinterpret_cast<void**>(&d_status), frames * sizeof(frame_status)));
    dec.decode_device(d_llr, frames, d_bits, d_status); // workspaces
    const double ms =
        wall_ms([&] { dec.decode_device(d_llr, frames, d_bits, d_status); }, reps);
    cudaFree(d_bits);
    cudaFree(d_status);
    return double(frames * nb) / (ms * 1e-3);
}

// The lowest Eb/N0 on a 0.25 dB grid from 1 dB where the decoder's frame
// error rate is at most `target`: decoded in batches of `frames` noisy frames
// (a new seed each) until `trials` frames, and accepted when the errors are at
// most trials x target. Returns the Eb/N0 and sets the errors counted there.
double ebn0_at_fer(batch_decoder& dec,
                   const ldpc_code& code,
                   size_t frames,
                   size_t trials,
                   double target,
                   size_t& errors)
{
    const size_t nb = dec.info_bits_per_frame();
    std::vector<uint8_t> sent, got(frames * nb);
    std::vector<frame_status> st(frames);
    double ebn0 = 1.0;
    for (; ebn0 < 8.0; ebn0 += 0.25) {
        errors = 0;
        uint32_t seed = 1000;
        for (size_t done = 0; done < trials && errors <= trials * target;
             done += frames) {
            const auto llr = noisy_llr(code, frames, ebn0, seed++, sent);
            dec.decode(llr.data(), frames, got.data(), st.data());
            errors += count_frame_errors(got, sent, frames, nb);
        }
        if (double(errors) <= double(trials) * target)
            break;
    }
    return ebn0;
}

// FP32 operations per second of the device: SMs x FP32 lanes x clock.
double fp32_peak_flops()
{
    int dev = 0, sms = 0, khz = 0, major = 0, minor = 0;
    GPULDPC_CUDA_CHECK(cudaGetDevice(&dev));
    GPULDPC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    GPULDPC_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev));
    GPULDPC_CUDA_CHECK(
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    GPULDPC_CUDA_CHECK(
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    // FP32 lanes per SM: 64 on sm_75 and sm_80, 128 on sm_86 .. sm_90
    const int lanes = (major == 7 || (major == 8 && minor == 0)) ? 64 : 128;
    return double(sms) * lanes * double(khz) * 1e3;
}

void bench_decoder(const std::vector<std::string>& code_paths, int reps)
{
    const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
    const double peak = fp32_peak_flops();
    std::printf(
        "\nDecoder (fft-bp), information bits/s: GPU with the frames in device memory "
        "(flooding with a thread per edge, tensor-core or register check update where "
        "the code and the GPU allow it, else the row kernels), host to host through "
        "the engine; baseline: the CPU "
        "reference with %d threads on the same frames. Roofline: FP32 peak %.1f "
        "TFLOP/s (SMs x lanes x clock); the kernel's share counts the transforms and "
        "products it must do, edges x q x (2 log2 q + 3) per iteration, as FP32 work "
        "(without GPULDPC_GPU_DECODER_EDGE_THREADS=0, GF(64) flooding runs them in "
        "registers, a thread per edge). ET: early "
        "termination (50 iterations at "
        "most) at the Eb/N0 where the GPU decoder's FER is about 1e-3 (searched on a "
        "0.25 dB grid). fp16: check-to-variable messages stored in half precision, "
        "the CPU reference rounding them alike\n",
        cores,
        peak / 1e12);
    std::printf("%-28s %-9s %-14s %7s %10s %10s %10s %10s %7s %7s %s\n",
                "code",
                "schedule",
                "mode",
                "frames",
                "dev Mb/s",
                "rows Mb/s",
                "h2h Mb/s",
                "CPU Mb/s",
                "ratio",
                "FP32 %",
                "FER (GPU/CPU frames)");
    for (const auto& path : code_paths) {
        auto code = std::make_shared<ldpc_code>(ldpc_code::load(path));
        const std::string name = path.substr(path.find_last_of('/') + 1);
        const size_t bits = size_t(code->n()) * code->bits_per_symbol();
        // batches of up to 64 MiB of LLRs, at most 8192 frames
        const size_t frames =
            std::clamp<size_t>((size_t(64) << 20) / (bits * sizeof(float)), 64, 8192);
        const size_t cpu_frames = std::max<size_t>(32, frames / 32);
        const double flop_per_iteration =
            double(code->num_edges()) * code->q() * (2.0 * code->bits_per_symbol() + 3.0);
        // trials for the FER search: 1e4 frames, fewer where they would hold
        // more than 1 GiB of LLRs
        const size_t trials = std::max(
            frames, std::min<size_t>(10000, (size_t(1) << 30) / (bits * sizeof(float))));
        for (auto sched : { decoder_schedule::flooding, decoder_schedule::layered }) {
            decoder_config et_cfg;
            et_cfg.algorithm = decoder_algorithm::fft_bp;
            et_cfg.schedule = sched;
            et_cfg.max_iterations = 50;
            size_t et_errors = 0;
            const double et_ebn0 = [&] {
                auto dec = batch_decoder::make(code, et_cfg, "cuda");
                return ebn0_at_fer(*dec, *code, frames, trials, 1e-3, et_errors);
            }();
            // 10 fixed iterations at 1 dB; early termination at FER ~ 1e-3
            for (bool et : { false, true })
                for (auto messages :
                     { message_precision::fp32, message_precision::fp16 }) {
                    decoder_config cfg;
                    cfg.algorithm = decoder_algorithm::fft_bp;
                    cfg.schedule = sched;
                    cfg.max_iterations = et ? 50 : 10;
                    cfg.early_termination = et;
                    cfg.messages = messages;
                    const double ebn0 = et ? et_ebn0 : 1.0;
                    std::vector<uint8_t> sent, got_gpu, got_cpu;
                    const auto llr = noisy_llr(*code, frames, ebn0, 7, sent);
                    auto gpu = batch_decoder::make(code, cfg, "cuda");
                    setenv("GPULDPC_GPU_DECODER_REGISTERS", "0", 1);
                    auto rows = batch_decoder::make(code, cfg, "cuda");
                    unsetenv("GPULDPC_GPU_DECODER_REGISTERS");
                    auto cpu = batch_decoder::make(code, cfg, "cpu");
                    float* d_llr = nullptr;
                    GPULDPC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_llr),
                                                  llr.size() * sizeof(float)));
                    GPULDPC_CUDA_CHECK(cudaMemcpy(d_llr,
                                                  llr.data(),
                                                  llr.size() * sizeof(float),
                                                  cudaMemcpyHostToDevice));
                    const double d = device_decode_rate(*gpu, d_llr, frames, reps);
                    const double dr = device_decode_rate(*rows, d_llr, frames, reps);
                    cudaFree(d_llr);
                    const double g = decode_rate(*gpu, llr, frames, reps, got_gpu);
                    const double c = decode_rate(*cpu, llr, cpu_frames, 1, got_cpu);
                    const size_t nb = gpu->info_bits_per_frame();
                    const size_t eg = count_frame_errors(got_gpu, sent, frames, nb);
                    const size_t ec = count_frame_errors(got_cpu, sent, cpu_frames, nb);
                    // the FP32 share with every frame taking 10 iterations
                    const double share =
                        et ? 0.0 : d / double(nb) * 10.0 * flop_per_iteration / peak;
                    char mode_text[48];
                    if (et)
                        std::snprintf(mode_text, sizeof mode_text, "ET %.2fdB", ebn0);
                    else
                        std::snprintf(mode_text, sizeof mode_text, "10 it");
                    const std::string mode =
                        std::string(mode_text) +
                        (messages == message_precision::fp16 ? " fp16" : "");
                    char share_text[16] = "-";
                    if (!et)
                        std::snprintf(
                            share_text, sizeof share_text, "%.1f", 100.0 * share);
                    std::printf(
                        "%-28s %-9s %-14s %7zu %10.1f %10.1f %10.1f %10.3f %6.0fx %7s "
                        "%zu/%zu, %zu/%zu\n",
                        name.c_str(),
                        to_string(sched).c_str(),
                        mode.c_str(),
                        frames,
                        d / 1e6,
                        dr / 1e6,
                        g / 1e6,
                        c / 1e6,
                        d / c,
                        share_text,
                        eg,
                        frames,
                        ec,
                        cpu_frames);
                    record r;
                    r.section = "decoder";
                    r.name = name + " fft-bp " + to_string(sched) + " " + mode;
                    r.n = double(code->n());
                    r.batch = double(frames);
                    r.value = d;
                    r.unit = "information bits/s, data on the device";
                    r.baseline_name =
                        "CPU reference bits/s (" + std::to_string(cores) + " threads)";
                    r.baseline = c;
                    r.ratio = d / c;
                    r.variant = "kernel: " + gpu->kernel_variant() + "; frame errors " +
                                std::to_string(eg) + "/" + std::to_string(frames) +
                                "; row kernels " + std::to_string(dr) +
                                " bits/s; host to host " + std::to_string(g) + " bits/s" +
                                (et ? "; Eb/N0 " + std::to_string(ebn0) +
                                          " dB where the FER search found " +
                                          std::to_string(et_errors) + "/" +
                                          std::to_string(trials) + " frame errors"
                                    : "; FP32 roofline share " + std::to_string(share)) +
                                "; messages " + to_string(messages);
                    g_records.push_back(r);
                    if (sched == decoder_schedule::flooding &&
                        messages == message_precision::fp32) {
                        // the block in a flowgraph on the same frames, against the
                        // engine alone: at 1 dB, where most frames fail and the
                        // default status tags (failed frames only) cost as much
                        // as tags on every frame, and at the early-termination
                        // point (FER about 1e-3 at 50 iterations), where a
                        // receiver runs
                        // 16 batches of the block's automatic size (4096 frames,
                        // fewer where they hold more than 64 MiB)
                        const size_t block_batch = std::max<size_t>(
                            1,
                            std::min<size_t>(4096,
                                             (size_t(64) << 20) /
                                                 (gpu->llr_per_frame() * sizeof(float))));
                        const unsigned passes = unsigned(std::max<size_t>(
                            2, (16 * block_batch + frames - 1) / frames));
                        // the block's default (status tags on failed frames
                        // only), tags on every frame, and none
                        for (const std::string status_tags :
                             { "failed", "all", "none" }) {
                            block_run run;
                            const double b = block_rate(code,
                                                        cfg,
                                                        llr,
                                                        frames,
                                                        "cuda",
                                                        passes,
                                                        status_tags,
                                                        nullptr,
                                                        &run);
                            const std::string row_mode =
                                std::string(et ? "ET block" : "block") +
                                " tags=" + status_tags;
                            std::printf(
                                "%-28s %-9s %-14s %7zu %10s %10s %10.1f %10s %6.0f%% "
                                "of the engine host to host (decoder block in a "
                                "flowgraph%s; mean batch %.0f frames, decoder busy "
                                "%.0f%%, source busy %.0f%%)\n",
                                name.c_str(),
                                "flooding",
                                row_mode.c_str(),
                                frames * passes,
                                "",
                                "",
                                b / 1e6,
                                "",
                                100.0 * b / g,
                                (", status_tags " + status_tags).c_str(),
                                run.mean_batch,
                                100.0 * run.decoder_busy,
                                100.0 * run.source_busy);
                            record rb = r;
                            rb.name = name + " fft-bp flooding " + mode +
                                      ", decoder block, status_tags " + status_tags;
                            rb.unit = "information bits/s, flowgraph";
                            rb.value = b;
                            rb.baseline_name = "engine host to host, same frames";
                            rb.baseline = g;
                            rb.ratio = b / g;
                            rb.batch = double(frames * passes);
                            rb.variant = "the frames " + std::to_string(passes) +
                                         " times, after one untimed pass; mean batch " +
                                         std::to_string(run.mean_batch) +
                                         " frames; decoder busy " +
                                         std::to_string(run.decoder_busy) +
                                         " and source busy " +
                                         std::to_string(run.source_busy) +
                                         " of the time (frame source: memcpy on 4 "
                                         "threads straight into the block's input)";
                            g_records.push_back(rb);
                        }
                    }
                }
        }
    }
}

// A code's name in tables: a file's base name, or a built-in code's name.
std::string code_name(const std::string& spec)
{
    // built-in codes by name (dvbs2:1/2, wifi:1944:1/2, nr:1:384)
    for (const char* builtin : { "dvbs2:", "wifi:", "nr:" })
        if (spec.rfind(builtin, 0) == 0)
            return spec;
    return spec.substr(spec.find_last_of('/') + 1);
}

// A code of the binary benches: ldpc_code::load()'s spec, or with "+coloured"
// at its end that code's coloured layers (ldpc_code::with_coloured_layers;
// layered rows only, as flooding does not change)
const std::string coloured_suffix = "+coloured";
bool coloured_spec(const std::string& spec)
{
    return spec.size() > coloured_suffix.size() &&
           spec.compare(spec.size() - coloured_suffix.size(),
                        coloured_suffix.size(),
                        coloured_suffix) == 0;
}
ldpc_code load_bench_code(const std::string& spec)
{
    if (!coloured_spec(spec))
        return ldpc_code::load(spec);
    return ldpc_code::load(spec.substr(0, spec.size() - coloured_suffix.size()))
        .with_coloured_layers();
}

// Bits/s of gr-fec's ldpc_decoder (sum-product on an alist file) on one core:
// frames of BPSK samples y, decoded one generic_work() call a frame. Returns
// 0 where it cannot be made (it builds dense matrices: codes of a few
// thousand bits at most).
double gr_fec_rate(const ldpc_code& code,
                   const std::vector<float>& llr,
                   size_t frames,
                   float sigma,
                   int iterations)
{
    if (code.n() > 4096 || !code.punctured_positions().empty())
        return 0.0;
    char path[] = "/tmp/gpuldpc-bench-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0)
        return 0.0;
    close(fd);
    code.save(path, { code_format::alist });
    auto dec = gr::fec::ldpc_decoder::make(path, sigma, iterations);
    std::remove(path);
    // gr-fec's decoder takes the channel samples: y = -llr * sigma^2 / 2
    const size_t n = code.n();
    std::vector<float> y(frames * n);
    for (size_t i = 0; i < y.size(); ++i)
        y[i] = -llr[i] * sigma * sigma / 2.0f;
    std::vector<uint8_t> out(size_t(dec->get_output_size()));
    const auto t0 = std::chrono::steady_clock::now();
    for (size_t f = 0; f < frames; ++f)
        dec->generic_work(&y[f * n], out.data());
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return double(frames) * code.k() / s;
}

// Binary codes in 8-bit fixed-point min-sum on the GPU: information bits/s
// with the frames in device memory (float LLRs), host to host with float and
// with 8-bit LLRs; the CPU reference (float min-sum and the same 8-bit
// arithmetic) with all host threads and gr-fec's ldpc_decoder on one core on
// the same frames.
// The float rules of the GPU binary decoder (fp32 messages): sum-product and
// normalized min-sum, 10 fixed iterations at 1 dB with the frames in device
// memory, against the CPU reference with every host core, same rule, same
// frames.
void bench_binary_float(const std::vector<std::string>& code_specs,
                        int reps,
                        const std::string& schedules)
{
    const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
    std::printf("\nBinary decoder, float rules (fp32 messages), information bits/s at 10 "
                "fixed iterations, 1 dB, frames in device memory; baseline the CPU "
                "reference with %d threads, same rule, same frames (sum-product: the "
                "GPU in the phi form in single precision, the CPU through tanh in "
                "double precision)\n",
                cores);
    std::printf("%-24s %-9s %-12s %7s %10s %10s %8s %s\n",
                "code",
                "schedule",
                "rule",
                "frames",
                "dev Mb/s",
                "CPU Mb/s",
                "xCPU",
                "FER (GPU/CPU frames)");
    for (const auto& spec : code_specs) {
        auto code = std::make_shared<ldpc_code>(load_bench_code(spec));
        const std::string name = code_name(spec);
        const size_t nl = code->n_transmitted();
        // float state is four times the 8-bit decoder's: half its frames
        const size_t frames =
            std::clamp<size_t>((size_t(32) << 20) / (nl * sizeof(float)), 32, 8192);
        const size_t cpu_frames = std::max<size_t>(16, frames / 64);
        std::vector<uint8_t> sent;
        const auto llr = noisy_llr(*code, frames, 1.0, 7, sent);
        float* d_llr = nullptr;
        GPULDPC_CUDA_CHECK(
            cudaMalloc(reinterpret_cast<void**>(&d_llr), llr.size() * sizeof(float)));
        GPULDPC_CUDA_CHECK(cudaMemcpy(
            d_llr, llr.data(), llr.size() * sizeof(float), cudaMemcpyHostToDevice));
        for (auto sched : { decoder_schedule::layered, decoder_schedule::flooding }) {
            if (schedules.find(to_string(sched)) == std::string::npos ||
                (coloured_spec(spec) && sched == decoder_schedule::flooding))
                continue;
            for (auto alg :
                 { decoder_algorithm::sum_product, decoder_algorithm::min_sum }) {
                decoder_config cfg;
                cfg.algorithm = alg;
                cfg.messages = message_precision::fp32;
                cfg.schedule = sched;
                cfg.max_iterations = 10;
                cfg.early_termination = false;
                auto gpu = batch_decoder::make(code, cfg, "cuda");
                auto cpu = batch_decoder::make(code, cfg, "cpu");
                const double d = device_decode_rate(*gpu, d_llr, frames, reps);
                std::vector<uint8_t> got_gpu, got_cpu;
                decode_rate(*gpu, llr, frames, 1, got_gpu);
                const double c = decode_rate(*cpu, llr, cpu_frames, 1, got_cpu);
                const size_t nb = gpu->info_bits_per_frame();
                const size_t eg = count_frame_errors(got_gpu, sent, frames, nb);
                const size_t ec = count_frame_errors(got_cpu, sent, cpu_frames, nb);
                std::printf(
                    "%-24s %-9s %-12s %7zu %10.1f %10.3f %7.0fx %zu/%zu, %zu/%zu\n",
                    name.c_str(),
                    to_string(sched).c_str(),
                    to_string(alg).c_str(),
                    frames,
                    d / 1e6,
                    c / 1e6,
                    d / c,
                    eg,
                    frames,
                    ec,
                    cpu_frames);
                record r;
                r.section = "binary";
                r.name =
                    name + " " + to_string(alg) + " fp32 " + to_string(sched) + " 10 it";
                r.n = double(code->n());
                r.batch = double(frames);
                r.value = d;
                r.unit = "information bits/s, data on the device";
                r.baseline_name =
                    "CPU reference bits/s (" + std::to_string(cores) + " threads)";
                r.baseline = c;
                r.ratio = d / c;
                r.variant = "frame errors " + std::to_string(eg) + "/" +
                            std::to_string(frames) + " GPU, " + std::to_string(ec) + "/" +
                            std::to_string(cpu_frames) +
                            " CPU; 1 dB; kernel: " + gpu->kernel_variant();
                g_records.push_back(r);
            }
        }
        cudaFree(d_llr);
    }
}

void bench_binary_decoder(const std::vector<std::string>& code_specs,
                          int reps,
                          double fixed_et_ebn0,
                          const std::string& schedules)
{
    const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
    std::printf(
        "\nBinary decoder (min-sum, 8-bit fixed point: messages int8, scale %.4g, 4 "
        "steps per LLR unit), information bits/s: GPU with the frames in device "
        "memory (the batch repeated to 'dev fr' frames), host to host with float and "
        "8-bit LLRs; baselines on the same "
        "frames: the CPU reference with %d threads (float min-sum, and the same "
        "8-bit arithmetic) and gr-fec's ldpc_decoder (sum-product, same iterations) "
        "on one core. ET: early termination (50 iterations at most) at the Eb/N0 "
        "where the GPU's FER is about 1e-3 (0.25 dB grid). GPU=CPU: frames whose "
        "8-bit decisions differ between GPU and CPU (must be 0)\n",
        double(decoder_config{}.min_sum_scale),
        cores);
    std::printf("%-24s %-9s %-10s %7s %7s %10s %10s %10s %10s %10s %10s %7s %7s %s\n",
                "code",
                "schedule",
                "mode",
                "frames",
                "dev fr",
                "dev Mb/s",
                "h2h Mb/s",
                "h2h8 Mb/s",
                "CPU Mb/s",
                "CPU8 Mb/s",
                "gr-fec",
                "xCPU",
                "xgr-fec",
                "GPU=CPU, FER");
    for (const auto& spec : code_specs) {
        auto code = std::make_shared<ldpc_code>(load_bench_code(spec));
        const std::string name = code_name(spec);
        const size_t nl = code->n_transmitted();
        const size_t frames =
            std::clamp<size_t>((size_t(64) << 20) / (nl * sizeof(float)), 64, 16384);
        const size_t cpu_frames = std::max<size_t>(16, frames / 64);
        const size_t grfec_frames = std::max<size_t>(4, frames / 1024);
        const size_t dev_frames = std::clamp<size_t>(
            (size_t(2) << 30) / (nl * sizeof(float)), frames, size_t(16384));
        const size_t trials = std::max(
            frames, std::min<size_t>(20000, (size_t(1) << 30) / (nl * sizeof(float))));
        for (auto sched : { decoder_schedule::layered, decoder_schedule::flooding }) {
            if (schedules.find(to_string(sched)) == std::string::npos ||
                (coloured_spec(spec) && sched == decoder_schedule::flooding))
                continue;
            decoder_config base;
            base.algorithm = decoder_algorithm::min_sum;
            base.messages = message_precision::int8;
            base.schedule = sched;
            base.max_iterations = 50;
            size_t et_errors = 0;
            const double et_ebn0 = [&] {
                if (fixed_et_ebn0 >= 0.0)
                    return fixed_et_ebn0;
                auto dec = batch_decoder::make(code, base, "cuda");
                return ebn0_at_fer(*dec, *code, frames, trials, 1e-3, et_errors);
            }();
            for (bool et : { false, true }) {
                decoder_config cfg = base;
                cfg.max_iterations = et ? 50 : 10;
                cfg.early_termination = et;
                const double ebn0 = et ? et_ebn0 : 1.0;
                std::vector<uint8_t> sent, got, got_cpu8, got_cpu, got8;
                const auto llr = noisy_llr(*code, frames, ebn0, 7, sent);
                std::vector<int8_t> llr8(llr.size());
                for (size_t i = 0; i < llr.size(); ++i)
                    llr8[i] = int8_t(
                        std::clamp(std::nearbyint(llr[i] * 4.0f), -127.0f, 127.0f));
                auto gpu = batch_decoder::make(code, cfg, "cuda");
                auto cpu8 = batch_decoder::make(code, cfg, "cpu");
                decoder_config float_cfg = cfg;
                float_cfg.messages = message_precision::fp32;
                auto cpu = batch_decoder::make(code, float_cfg, "cpu");
                // the device row repeats the batch up to dev_frames, enough
                // groups of frames to fill the GPU for long codes
                float* d_llr = nullptr;
                GPULDPC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_llr),
                                              dev_frames * nl * sizeof(float)));
                for (size_t f0 = 0; f0 < dev_frames; f0 += frames)
                    GPULDPC_CUDA_CHECK(
                        cudaMemcpy(d_llr + f0 * nl,
                                   llr.data(),
                                   std::min(frames, dev_frames - f0) * nl * sizeof(float),
                                   cudaMemcpyHostToDevice));
                const double d = device_decode_rate(*gpu, d_llr, dev_frames, reps);
                cudaFree(d_llr);
                const double g = decode_rate(*gpu, llr, frames, reps, got);
                const size_t nb = gpu->info_bits_per_frame();
                got8.resize(frames * nb);
                std::vector<frame_status> st(frames);
                const double ms8 = wall_ms(
                    [&] {
                        gpu->decode_int8(llr8.data(), frames, got8.data(), st.data());
                    },
                    reps);
                const double g8 = double(frames * nb) / (ms8 * 1e-3);
                const double c8 = decode_rate(*cpu8, llr, cpu_frames, 1, got_cpu8);
                const double c = decode_rate(*cpu, llr, cpu_frames, 1, got_cpu);
                const size_t differ = count_frame_errors(
                    std::vector<uint8_t>(got.begin(), got.begin() + cpu_frames * nb),
                    got_cpu8,
                    cpu_frames,
                    nb);
                const size_t errors = count_frame_errors(got, sent, frames, nb);
                const float sigma = float(
                    std::sqrt(1.0 / (2.0 * code->rate() * std::pow(10.0, ebn0 / 10.0))));
                const double fec =
                    et || sched != decoder_schedule::flooding
                        ? 0.0
                        : gr_fec_rate(
                              *code, llr, grfec_frames, sigma, int(cfg.max_iterations));
                char mode[32];
                if (et)
                    std::snprintf(mode, sizeof mode, "ET %.2fdB", ebn0);
                else
                    std::snprintf(mode, sizeof mode, "10 it");
                char fec_text[16] = "-", fec_ratio[16] = "-";
                if (fec > 0) {
                    std::snprintf(fec_text, sizeof fec_text, "%.3f", fec / 1e6);
                    std::snprintf(fec_ratio, sizeof fec_ratio, "%.0fx", d / fec);
                }
                std::printf("%-24s %-9s %-10s %7zu %7zu %10.1f %10.1f %10.1f %10.2f "
                            "%10.2f %10s %6.0fx %7s %zu/%zu, %zu/%zu\n",
                            name.c_str(),
                            to_string(sched).c_str(),
                            mode,
                            frames,
                            dev_frames,
                            d / 1e6,
                            g / 1e6,
                            g8 / 1e6,
                            c / 1e6,
                            c8 / 1e6,
                            fec_text,
                            d / c,
                            fec_ratio,
                            differ,
                            cpu_frames,
                            errors,
                            frames);
                record r;
                r.section = "decoder";
                r.name = name + " min-sum int8 " + to_string(sched) + " " + mode;
                r.n = double(code->n());
                r.batch = double(frames);
                r.value = d;
                r.unit = "information bits/s, data on the device";
                r.baseline_name = "CPU reference float min-sum bits/s (" +
                                  std::to_string(cores) + " threads)";
                r.baseline = c;
                r.ratio = d / c;
                r.variant =
                    "host to host " + std::to_string(g) + " bits/s, 8-bit input " +
                    std::to_string(g8) + " bits/s; CPU 8-bit " + std::to_string(c8) +
                    " bits/s; gr-fec ldpc_decoder one core " +
                    (fec > 0 ? std::to_string(fec) + " bits/s (x" +
                                   std::to_string(d / fec) + ")"
                             : std::string("not run")) +
                    "; device row on " + std::to_string(dev_frames) +
                    " frames (the batch repeated); kernel: " + gpu->kernel_variant() +
                    "; frames differing GPU/CPU " + std::to_string(differ) + "/" +
                    std::to_string(cpu_frames) + "; frame errors " +
                    std::to_string(errors) + "/" + std::to_string(frames) +
                    (!et ? std::string("; 1 dB")
                     : fixed_et_ebn0 >= 0.0
                         ? "; Eb/N0 " + std::to_string(ebn0) + " dB (given)"
                         : "; Eb/N0 " + std::to_string(ebn0) + " dB (" +
                               std::to_string(et_errors) + "/" + std::to_string(trials) +
                               " frame errors there)");
                g_records.push_back(r);
                if (et)
                    continue;
                // the decoder block in a flowgraph, float and 8-bit input
                // (status tags off: line rate), against the engine's host-to-host
                // figures of the same input
                // 16 batches of 4096 frames (fewer where they hold more than
                // 64 MiB of input; the block's automatic batch may be larger,
                // its decoder's preferred batch) or more, so that
                // filling and draining its pipeline count little, and 0.5 s
                // at the engine's host-to-host rate at least (small frames:
                // 16 batches of n = 648 are some 10 ms, where the start of
                // the flowgraph's threads weighs)
                const auto passes_for = [&](size_t item_bytes, double engine_rate) {
                    const size_t batch = std::max<size_t>(
                        1,
                        std::min<size_t>(4096, (size_t(64) << 20) / (nl * item_bytes)));
                    const double bits_a_pass = double(frames) * nb;
                    const size_t by_time =
                        engine_rate > 0
                            ? size_t(std::ceil(0.5 * engine_rate / bits_a_pass))
                            : 0;
                    return unsigned(std::min<size_t>(
                        4096,
                        std::max<size_t>(
                            { 2, (16 * batch + frames - 1) / frames, by_time })));
                };
                const unsigned passes = passes_for(sizeof(float), g),
                               passes8 = passes_for(sizeof(int8_t), g8);
                block_run run_f, run_8;
                const double bf = block_rate(
                    code, cfg, llr, frames, "cuda", passes, "none", nullptr, &run_f);
                const double b8 = block_rate(
                    code, cfg, llr, frames, "cuda", passes8, "none", &llr8, &run_8);
                std::printf("%-24s %-9s %-10s %7zu %7s   decoder block: float %.1f Mb/s "
                            "(%.0f%% of h2h), 8-bit %.1f Mb/s (%.0f%% of h2h8, %.2fx "
                            "the float block; decoder busy %.0f%%, source %.0f%%; "
                            "batches in chunks: float %.0f, 8-bit %.0f)\n",
                            name.c_str(),
                            to_string(sched).c_str(),
                            "block",
                            frames * passes,
                            "",
                            bf / 1e6,
                            100.0 * bf / g,
                            b8 / 1e6,
                            100.0 * b8 / g8,
                            b8 / bf,
                            100.0 * run_8.decoder_busy,
                            100.0 * run_8.source_busy,
                            run_f.chunked,
                            run_8.chunked);
                for (bool eight : { false, true }) {
                    record b;
                    b.section = "decoder";
                    b.name = name + " min-sum int8 " + to_string(sched) + " block " +
                             (eight ? "8-bit input" : "float input");
                    b.n = double(code->n());
                    b.batch = double(frames * (eight ? passes8 : passes));
                    b.value = eight ? b8 : bf;
                    b.unit = "information bits/s, decoder block in a flowgraph";
                    b.baseline_name = eight ? "engine host to host, 8-bit LLRs"
                                            : "engine host to host, float LLRs";
                    b.baseline = eight ? g8 : g;
                    b.ratio = b.value / b.baseline;
                    const block_run& run = eight ? run_8 : run_f;
                    char busy[200];
                    std::snprintf(busy,
                                  sizeof busy,
                                  "; mean batch %.0f frames, decoder busy %.0f %%, "
                                  "source busy %.0f %%, batches in chunks %.0f",
                                  run.mean_batch,
                                  100.0 * run.decoder_busy,
                                  100.0 * run.source_busy,
                                  run.chunked);
                    b.variant = "10 iterations at 1 dB, status tags off; 8-bit block / "
                                "float block " +
                                std::to_string(b8 / bf) + busy;
                    g_records.push_back(b);
                }
            }
        }
    }
}

std::string json_escape(const std::string& s)
{
    std::string o;
    for (char c : s)
        o += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    return o;
}

void write_json(const std::string& path, const std::string& commit)
{
    std::ofstream f(path);
    f << "{\n  \"device\": \"" << json_escape(g_device) << "\",\n  \"commit\": \""
      << json_escape(commit) << "\",\n  \"build\": \"" << json_escape(build_info())
      << "\",\n  \"shared_memory_limit\": " << g_smem_limit
      << ",\n  \"shared_memory_device_limit\": " << g_smem_device
      << ",\n  \"shared_memory_cap\": "
      << (g_smem_cap.empty() ? std::string("null")
                             : "\"" + json_escape(g_smem_cap) + "\"")
      << ",\n  \"records\": [\n";
    for (size_t i = 0; i < g_records.size(); ++i) {
        const record& r = g_records[i];
        f << "    {\"device\": \"" << json_escape(g_device) << "\", \"section\": \""
          << r.section << "\", \"name\": \"" << json_escape(r.name)
          << "\", \"n\": " << r.n << ", \"batch\": " << r.batch
          << ", \"value\": " << r.value << ", \"unit\": \"" << r.unit
          << "\", \"gb_per_s\": " << r.gbps << ", \"baseline\": \""
          << json_escape(r.baseline_name) << "\", \"baseline_value\": " << r.baseline
          << ", \"ratio\": " << r.ratio << ", \"shared_memory_bytes\": " << r.shared_bytes
          << ", \"shared_memory_limit\": " << g_smem_limit << ", \"variant\": \""
          << json_escape(r.variant) << "\"}" << (i + 1 < g_records.size() ? "," : "")
          << "\n";
    }
    f << "  ]\n}\n";
}

void usage(const char* prog)
{
    std::fprintf(
        stderr,
        "usage: %s [--json FILE] [--sections "
        "fwht,fft,butterfly,stream,flowgraph,decoder,binary] [--mib M] "
        "[--reps R] [--commit ID] [--codes DIR] [--code PATH|NAME]... [--only TEXT] "
        "[--schedule layered,flooding] [--et-ebn0 DB]\n"
        "  --et-ebn0: binary codes' early-termination rows at this Eb/N0 instead of "
        "the searched one of FER about 1e-3\n"
        "  --codes: where the shipped codes are (default: GPULDPC_CODES_DIR, the "
        "installed ones, the source tree's)\n",
        prog);
}

} // namespace

int main(int argc, char** argv)
{
    std::string json, sections = "fwht,fft,butterfly,stream,flowgraph,decoder",
                      commit = "unknown";
    // the shipped codes by name (code_names.h: GPULDPC_CODES_DIR, else the
    // installed ones, else the source tree's); --codes DIR sets the first
    std::vector<std::string> extra_codes;
    std::string only; // decoder: the codes whose file name contains this
    std::string schedules = "layered,flooding"; // binary decoder section
    double et_ebn0 = -1.0; // binary decoder section: searched when negative
    size_t mib = 256;
    int reps = 10;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                usage(argv[0]);
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--json")
            json = value();
        else if (a == "--sections")
            sections = value();
        else if (a == "--mib")
            mib = std::stoul(value());
        else if (a == "--reps")
            reps = std::stoi(value());
        else if (a == "--commit")
            commit = value();
        else if (a == "--codes")
            setenv("GPULDPC_CODES_DIR", value().c_str(), 1);
        else if (a == "--code")
            extra_codes.push_back(value());
        else if (a == "--only")
            only = value();
        else if (a == "--schedule")
            schedules = value();
        else if (a == "--et-ebn0")
            et_ebn0 = std::stod(value());
        else {
            usage(argv[0]);
            return 2;
        }
    }
    const auto devices = cuda_devices();
    if (devices.empty()) {
        std::fprintf(stderr, "gpuldpc-bench: no CUDA device; nothing to measure\n");
        return 1;
    }
    g_device = devices[0].name;
    GPULDPC_CUDA_CHECK(cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking));
    std::printf("%s\ndevice: %s (sm_%d%d)\n",
                build_info().c_str(),
                g_device.c_str(),
                devices[0].compute_major,
                devices[0].compute_minor);
    g_smem_device = kernels::cuda_shared_memory_optin(0);
    g_smem_limit = cuda_shared_memory_limit(0);
    if (const char* cap = std::getenv("GPULDPC_SHARED_MEMORY_LIMIT"))
        g_smem_cap = cap;
    std::printf("shared memory per block for the engines: %zu B (device opt-in limit "
                "%zu B; GPULDPC_SHARED_MEMORY_LIMIT %s)\n",
                g_smem_limit,
                g_smem_device,
                g_smem_cap.empty() ? "unset" : ("= " + g_smem_cap).c_str());
    const size_t bytes = mib << 20;
    auto has = [&](const char* s) { return sections.find(s) != std::string::npos; };
    try {
        if (has("fwht"))
            bench_fwht(bytes, reps);
        if (has("fft"))
            bench_fft(bytes, reps);
        if (has("butterfly"))
            bench_butterfly(bytes, reps);
        if (has("stream"))
            bench_stream(bytes, std::max(3, reps / 3));
        if (has("flowgraph"))
            bench_flowgraph(200000);
        // decoder: the GF(q) and the binary decoders; binary: the latter only
        if (has("decoder") || has("binary")) {
            // shipped codes by name (with the extension, as the tables and JSON
            // name them)
            std::vector<std::string> paths{ "regular_2_4_n256_gf4.alist",
                                            "regular_2_4_n128_gf16.alist",
                                            "regular_2_4_n96_gf64.alist",
                                            "regular_2_4_n64_gf256.alist",
                                            "regular_3_6_n1008_gf2.alist" };
            paths.insert(paths.end(), extra_codes.begin(), extra_codes.end());
            paths.erase(
                std::remove_if(paths.begin(),
                               paths.end(),
                               [&](const std::string& p) {
                                   return p.substr(p.find_last_of('/') + 1).find(only) ==
                                          std::string::npos;
                               }),
                paths.end());
            if (has("decoder"))
                bench_decoder(paths, std::max(3, reps / 2));
            // binary codes in 8-bit min-sum: the shipped rate-1/2 code,
            // ../shared's binary codes when given (--code), IEEE 802.11n, DVB-S2,
            // 5G NR
            std::vector<std::string> binary{ "regular_3_6_n1008_gf2.alist",
                                             "regular_3_6_n1008_gf2.alist" +
                                                 coloured_suffix };
            for (const auto& c : extra_codes)
                if (load_bench_code(c).q() == 2)
                    binary.push_back(c);
            for (const char* c : { "wifi:648:1/2",
                                   "wifi:1944:1/2",
                                   "dvbs2:1/2:short",
                                   "dvbs2:1/2",
                                   "dvbs2:9/10",
                                   "nr:1:384" })
                binary.push_back(c);
            binary.erase(std::remove_if(binary.begin(),
                                        binary.end(),
                                        [&](const std::string& p) {
                                            return code_name(p).find(only) ==
                                                   std::string::npos;
                                        }),
                         binary.end());
            bench_binary_decoder(binary, std::max(3, reps / 2), et_ebn0, schedules);
            bench_binary_float(binary, std::max(3, reps / 2), schedules);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpuldpc-bench: %s\n", e.what());
        if (!json.empty())
            write_json(json, commit);
        return 1;
    }
    if (!json.empty())
        write_json(json, commit);
    return 0;
}
