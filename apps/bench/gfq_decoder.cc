/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The "decoder" section: the GF(q) FFT-BP decoder on the GPU against the CPU
// reference, and the decoder block in a flowgraph against the engine alone.

#include "common/cuda_check.h"
#include "decoder_block.h"
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

namespace {

// The table's columns; the block rows use the first ones.
const table decoder_table({ { "code", 28, true },
                            { "schedule", 9, true },
                            { "mode", 14, true },
                            { "frames", 7 },
                            { "dev Mb/s", 10 },
                            { "rows Mb/s", 10 },
                            { "h2h Mb/s", 10 },
                            { "CPU Mb/s", 10 },
                            { "ratio", 7 },
                            { "FP32 %", 7 },
                            { "FER (GPU/CPU frames)", 0 } });

// The block in a flowgraph on the same frames as the engine's row \p r (host
// to host \p engine_rate), flooding with fp32 messages: a row and a record
// for each status_tags setting.
void block_rows(const context& ctx,
                const std::shared_ptr<ldpc_code>& code,
                const std::string& name,
                const decoder_config& cfg,
                const std::vector<float>& llr,
                size_t frames,
                size_t llr_per_frame,
                bool et,
                const std::string& mode,
                double engine_rate,
                const record& r)
{
    // at 1 dB, where most frames fail and the default status tags (failed
    // frames only) cost as much as tags on every frame, and at the
    // early-termination point (FER about 1e-3 at 50 iterations), where a
    // receiver runs
    // 16 batches of the block's automatic size (4096 frames, fewer where they
    // hold more than 64 MiB)
    const size_t block_batch = std::max<size_t>(
        1, std::min<size_t>(4096, (size_t(64) << 20) / (llr_per_frame * sizeof(float))));
    const unsigned passes =
        unsigned(std::max<size_t>(2, (16 * block_batch + frames - 1) / frames));
    // the block's default (status tags on failed frames only), tags on every
    // frame, and none
    for (const std::string status_tags : { "failed", "all", "none" }) {
        block_run run;
        const double b = block_rate(
            code, cfg, llr, frames, "cuda", passes, status_tags, nullptr, &run);
        const std::string row_mode =
            std::string(et ? "ET block" : "block") + " tags=" + status_tags;
        decoder_table.print_row(
            { name,
              "flooding",
              row_mode,
              format("%zu", frames * passes),
              "",
              "",
              format("%.1f", b / 1e6),
              "",
              format("%.0f%%", 100.0 * b / engine_rate) },
            format(" of the engine host to host (decoder block in a flowgraph%s; mean "
                   "batch %.0f frames, decoder busy %.0f%%, source busy %.0f%%)",
                   (", status_tags " + status_tags).c_str(),
                   run.mean_batch,
                   100.0 * run.decoder_busy,
                   100.0 * run.source_busy));
        record rb = r;
        rb.name = name + " fft-bp flooding " + mode + ", decoder block, status_tags " +
                  status_tags;
        rb.unit = "information bits/s, flowgraph";
        rb.value = b;
        rb.baseline_name = "engine host to host, same frames";
        rb.baseline = engine_rate;
        rb.ratio = b / engine_rate;
        rb.batch = double(frames * passes);
        rb.variant = "the frames " + std::to_string(passes) +
                     " times, after one untimed pass; mean batch " +
                     std::to_string(run.mean_batch) + " frames; decoder busy " +
                     std::to_string(run.decoder_busy) + " and source busy " +
                     std::to_string(run.source_busy) +
                     " of the time (frame source: memcpy on 4 "
                     "threads straight into the block's input)";
        ctx.out.add(rb);
    }
}

} // namespace

void bench_decoder(const context& ctx,
                   const std::vector<std::string>& code_paths,
                   int reps)
{
    const int cores = host_cores();
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
    decoder_table.print_header();
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
            et_cfg.gpu = ctx.tuning;
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
                    cfg.gpu = ctx.tuning;
                    cfg.algorithm = decoder_algorithm::fft_bp;
                    cfg.schedule = sched;
                    cfg.max_iterations = et ? 50 : 10;
                    cfg.early_termination = et;
                    cfg.messages = messages;
                    // the row kernels: the same decoder without messages in
                    // registers
                    decoder_config rows_cfg = cfg;
                    rows_cfg.gpu.registers = false;
                    const double ebn0 = et ? et_ebn0 : 1.0;
                    std::vector<uint8_t> sent, got_gpu, got_cpu;
                    const auto llr = noisy_llr(*code, frames, ebn0, 7, sent);
                    auto gpu = batch_decoder::make(code, cfg, "cuda");
                    auto rows = batch_decoder::make(code, rows_cfg, "cuda");
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
                    const std::string mode =
                        (et ? format("ET %.2fdB", ebn0) : std::string("10 it")) +
                        (messages == message_precision::fp16 ? " fp16" : "");
                    decoder_table.print_row(
                        { name,
                          to_string(sched),
                          mode,
                          format("%zu", frames),
                          format("%.1f", d / 1e6),
                          format("%.1f", dr / 1e6),
                          format("%.1f", g / 1e6),
                          format("%.3f", c / 1e6),
                          format("%.0fx", d / c),
                          et ? std::string("-") : format("%.1f", 100.0 * share),
                          format("%zu/%zu, %zu/%zu", eg, frames, ec, cpu_frames) });
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
                    ctx.out.add(r);
                    if (sched == decoder_schedule::flooding &&
                        messages == message_precision::fp32)
                        block_rows(ctx,
                                   code,
                                   name,
                                   cfg,
                                   llr,
                                   frames,
                                   gpu->llr_per_frame(),
                                   et,
                                   mode,
                                   g,
                                   r);
                }
        }
    }
}

} // namespace bench
} // namespace gpuldpc
} // namespace gr
