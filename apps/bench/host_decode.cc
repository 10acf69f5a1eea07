/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// batch_decoder::decode() and decode_int8() of a large batch in pageable
// host memory (a numpy array's case), host to host, against the copy of its
// input from page-locked memory to the device (the bus's rate) and against
// the decoder on data already on the device, same frames, same run.

#include "common/cuda_check.h"
#include "decoding.h"
#include "sections.h"
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/simulation.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace bench {

namespace {

// Pinned host -> device copy rate of \p bytes (bytes/s).
double pinned_upload_rate(size_t bytes, int reps)
{
    void* host = nullptr;
    void* dev = nullptr;
    GPULDPC_CUDA_CHECK(cudaMallocHost(&host, bytes));
    GPULDPC_CUDA_CHECK(cudaMalloc(&dev, bytes));
    std::fill_n(static_cast<char*>(host), bytes, 1);
    const double ms = wall_ms(
        [&] { GPULDPC_CUDA_CHECK(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice)); },
        reps);
    cudaFree(dev);
    cudaFreeHost(host);
    return double(bytes) / (ms * 1e-3);
}

} // namespace

void bench_host_decode(const context& ctx,
                       const std::vector<std::string>& code_specs,
                       int reps)
{
    std::printf("\nHost to host: decode() and decode_int8() of a batch of about 512 MiB "
                "of float input in pageable memory (chunks staged through page-locked "
                "memory on two streams), information bits/s, 8-bit min-sum layered, 10 "
                "fixed iterations; against the pinned host-to-device copy rate of the "
                "same bytes and the decoder on the device\n");
    const table t({ { "code", 18, true },
                    { "input", 6, true },
                    { "frames", 7 },
                    { "h2h Gb/s", 9 },
                    { "in GB/s", 8 },
                    { "pinned GB/s", 11 },
                    { "of bus", 7 },
                    { "dev Gb/s", 9 },
                    { "of dev", 7 } });
    t.print_header();
    for (const auto& spec : code_specs) {
        auto code = std::make_shared<ldpc_code>(load_bench_code(spec));
        decoder_config cfg;
        cfg.gpu = ctx.tuning;
        cfg.algorithm = decoder_algorithm::min_sum;
        cfg.messages = message_precision::int8;
        cfg.schedule = decoder_schedule::layered;
        cfg.max_iterations = 10;
        cfg.early_termination = false;
        auto dec = batch_decoder::make(code, cfg, "cuda");
        const size_t nl = dec->llr_per_frame(), nb = dec->info_bytes_per_frame();
        const size_t frames =
            std::max<size_t>(1, (size_t(512) << 20) / (nl * sizeof(float)));
        std::vector<float> llr(frames * nl);
        simulation::make(dec)->frames(1,
                                      sim_channel::at(2.0, code->rate()),
                                      0,
                                      1,
                                      frames,
                                      nullptr,
                                      nullptr,
                                      llr.data());
        std::vector<int8_t> llr8(llr.size());
        for (size_t i = 0; i < llr.size(); ++i)
            llr8[i] = int8_t(
                std::clamp(std::nearbyint(cfg.llr_scale * llr[i]), -127.0f, 127.0f));
        std::vector<uint8_t> bits(frames * nb);
        std::vector<frame_status> status(frames);
        float* d_llr = nullptr;
        GPULDPC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_llr), llr.size() * 4));
        GPULDPC_CUDA_CHECK(
            cudaMemcpy(d_llr, llr.data(), llr.size() * 4, cudaMemcpyHostToDevice));
        const double dev = device_decode_rate(*dec, d_llr, frames, reps);
        cudaFree(d_llr);
        const double info = double(frames * dec->info_bits_per_frame());
        for (const bool eight : { true, false }) {
            const size_t in_bytes = llr.size() * (eight ? 1 : sizeof(float));
            const double ms = wall_ms(
                [&] {
                    if (eight)
                        dec->decode_int8(llr8.data(), frames, bits.data(), status.data());
                    else
                        dec->decode(llr.data(), frames, bits.data(), status.data());
                },
                reps);
            const double rate = info / (ms * 1e-3);
            const double in_rate = double(in_bytes) / (ms * 1e-3);
            const double bus = pinned_upload_rate(in_bytes, reps);
            const std::string input = eight ? "int8" : "float";
            t.print_row({ code_name(spec),
                          input,
                          format("%zu", frames),
                          format("%.2f", rate / 1e9),
                          format("%.1f", in_rate / 1e9),
                          format("%.1f", bus / 1e9),
                          format("%.0f%%", 100.0 * in_rate / bus),
                          format("%.2f", dev / 1e9),
                          format("%.0f%%", 100.0 * rate / dev) });
            record r;
            r.section = "host";
            r.name = code_name(spec) + " decode " + input + " host to host";
            r.n = double(code->n());
            r.batch = double(frames);
            r.value = rate;
            r.unit = "information bits/s, pageable host memory in and out";
            r.baseline_name = "pinned host-to-device copy of the input, bytes/s";
            r.baseline = bus;
            r.ratio = in_rate / bus;
            r.gbps = in_rate / 1e9;
            r.variant = "input " + format("%.2f", in_rate / 1e9) +
                        " GB/s; decoder on the device " + format("%.2f", dev / 1e9) +
                        " Gbit/s; kernel: " + dec->kernel_variant();
            ctx.out.add(r);
        }
    }
}

} // namespace bench
} // namespace gpuldpc
} // namespace gr
