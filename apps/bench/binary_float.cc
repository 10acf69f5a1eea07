/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The float rules of the GPU binary decoder (fp32 messages): sum-product and
// normalized min-sum, 10 fixed iterations at 1 dB with the frames in device
// memory, against the CPU reference with every host core, same rule, same
// frames. Its records are in the "binary" section.

#include "common/cuda_check.h"
#include "decoding.h"
#include "sections.h"
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace bench {

void bench_binary_float(const context& ctx,
                        const std::vector<std::string>& code_specs,
                        int reps,
                        const std::string& schedules)
{
    const int cores = host_cores();
    std::printf("\nBinary decoder, float rules (fp32 messages), information bits/s at 10 "
                "fixed iterations, 1 dB, frames in device memory; baseline the CPU "
                "reference with %d threads, same rule, same frames (sum-product: the "
                "GPU in the phi form in single precision, the CPU through tanh in "
                "double precision)\n",
                cores);
    const table t({ { "code", 24, true },
                    { "schedule", 9, true },
                    { "rule", 12, true },
                    { "frames", 7 },
                    { "dev Mb/s", 10 },
                    { "CPU Mb/s", 10 },
                    { "xCPU", 8 },
                    { "FER (GPU/CPU frames)", 0 } });
    t.print_header();
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
                cfg.gpu = ctx.tuning;
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
                t.print_row({ name,
                              to_string(sched),
                              to_string(alg),
                              format("%zu", frames),
                              format("%.1f", d / 1e6),
                              format("%.3f", c / 1e6),
                              format("%.0fx", d / c),
                              format("%zu/%zu, %zu/%zu", eg, frames, ec, cpu_frames) });
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
                ctx.out.add(r);
            }
        }
        cudaFree(d_llr);
    }
}

} // namespace bench
} // namespace gpuldpc
} // namespace gr
