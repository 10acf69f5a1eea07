/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Binary codes in 8-bit fixed-point min-sum on the GPU: information bits/s
// with the frames in device memory (float LLRs), host to host with float and
// with 8-bit LLRs; the CPU reference (float min-sum and the same 8-bit
// arithmetic) with all host threads and gr-fec's ldpc_decoder on one core on
// the same frames; the decoder block in a flowgraph. Its records are in the
// "decoder" section.

#include "common/cuda_check.h"
#include "decoder_block.h"
#include "decoding.h"
#include "gr_fec.h"
#include "sections.h"
#include <gnuradio/fec/ldpc_decoder.h>
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace bench {

namespace {

const table binary_table({ { "code", 24, true },
                           { "schedule", 9, true },
                           { "mode", 10, true },
                           { "frames", 7 },
                           { "dev fr", 7 },
                           { "dev Mb/s", 10 },
                           { "h2h Mb/s", 10 },
                           { "h2h8 Mb/s", 10 },
                           { "CPU Mb/s", 10 },
                           { "CPU8 Mb/s", 10 },
                           { "gr-fec", 10 },
                           { "xCPU", 7 },
                           { "xgr-fec", 7 },
                           { "GPU=CPU, FER", 0 } });

// The decoder block in a flowgraph, float and 8-bit input (status tags off:
// line rate), against the engine's host-to-host figures of the same input,
// \p g (float) and \p g8 (8-bit): a row and two records.
void block_rows(const context& ctx,
                const std::shared_ptr<ldpc_code>& code,
                const std::string& name,
                decoder_schedule sched,
                const decoder_config& cfg,
                const std::vector<float>& llr,
                const std::vector<int8_t>& llr8,
                size_t frames,
                size_t nb,
                double g,
                double g8)
{
    const size_t nl = code->n_transmitted();
    // 16 batches of 4096 frames (fewer where they hold more than 64 MiB of
    // input; the block's automatic batch may be larger, its decoder's
    // preferred batch) or more, so that filling and draining its pipeline
    // count little, and 0.5 s at the engine's host-to-host rate at least
    // (small frames: 16 batches of n = 648 are some 10 ms, where the start of
    // the flowgraph's threads weighs)
    const auto passes_for = [&](size_t item_bytes, double engine_rate) {
        const size_t batch = std::max<size_t>(
            1, std::min<size_t>(4096, (size_t(64) << 20) / (nl * item_bytes)));
        const double bits_a_pass = double(frames) * nb;
        const size_t by_time =
            engine_rate > 0 ? size_t(std::ceil(0.5 * engine_rate / bits_a_pass)) : 0;
        return unsigned(std::min<size_t>(
            4096, std::max<size_t>({ 2, (16 * batch + frames - 1) / frames, by_time })));
    };
    const unsigned passes = passes_for(sizeof(float), g),
                   passes8 = passes_for(sizeof(int8_t), g8);
    block_run run_f, run_8;
    const double bf =
        block_rate(code, cfg, llr, frames, "cuda", passes, "none", nullptr, &run_f);
    const double b8 =
        block_rate(code, cfg, llr, frames, "cuda", passes8, "none", &llr8, &run_8);
    binary_table.print_row(
        { name, to_string(sched), "block", format("%zu", frames * passes), "" },
        format("   decoder block: float %.1f Mb/s (%.0f%% of h2h), 8-bit %.1f Mb/s "
               "(%.0f%% of h2h8, %.2fx the float block; decoder busy %.0f%%, source "
               "%.0f%%; batches in chunks: float %.0f, 8-bit %.0f)",
               bf / 1e6,
               100.0 * bf / g,
               b8 / 1e6,
               100.0 * b8 / g8,
               b8 / bf,
               100.0 * run_8.decoder_busy,
               100.0 * run_8.source_busy,
               run_f.chunked,
               run_8.chunked));
    for (bool eight : { false, true }) {
        record b;
        b.section = "decoder";
        b.name = name + " min-sum int8 " + to_string(sched) + " block " +
                 (eight ? "8-bit input" : "float input");
        b.n = double(code->n());
        b.batch = double(frames * (eight ? passes8 : passes));
        b.value = eight ? b8 : bf;
        b.unit = "information bits/s, decoder block in a flowgraph";
        b.baseline_name =
            eight ? "engine host to host, 8-bit LLRs" : "engine host to host, float LLRs";
        b.baseline = eight ? g8 : g;
        b.ratio = b.value / b.baseline;
        const block_run& run = eight ? run_8 : run_f;
        const std::string busy = format("; mean batch %.0f frames, decoder busy %.0f %%, "
                                        "source busy %.0f %%, batches in chunks %.0f",
                                        run.mean_batch,
                                        100.0 * run.decoder_busy,
                                        100.0 * run.source_busy,
                                        run.chunked);
        b.variant = "10 iterations at 1 dB, status tags off; 8-bit block / "
                    "float block " +
                    std::to_string(b8 / bf) + busy;
        ctx.out.add(b);
    }
}

} // namespace

void bench_binary_decoder(const context& ctx,
                          const std::vector<std::string>& code_specs,
                          int reps,
                          double fixed_et_ebn0,
                          const std::string& schedules,
                          const std::string& magnitudes)
{
    std::vector<min_sum_magnitude_rule> rules;
    for (size_t at = 0; at <= magnitudes.size();) {
        const size_t comma = std::min(magnitudes.find(',', at), magnitudes.size());
        rules.push_back(parse_min_sum_magnitude(magnitudes.substr(at, comma - at)));
        at = comma + 1;
    }
    const int cores = host_cores();
    std::printf(
        "\nBinary decoder (min-sum, 8-bit fixed point: messages int8, scale auto: "
        "min_sum_auto_correction() of each code, 4 steps per LLR unit), information "
        "bits/s: GPU with the frames in device "
        "memory (the batch repeated to 'dev fr' frames), host to host with float and "
        "8-bit LLRs; baselines on the same "
        "frames: the CPU reference with %d threads (float min-sum, and the same "
        "8-bit arithmetic) and gr-fec's ldpc_decoder (sum-product, same iterations) "
        "on one core. ET: early termination (50 iterations at most) at the Eb/N0 "
        "where the GPU's FER is about 1e-3 (0.25 dB grid). GPU=CPU: frames whose "
        "8-bit decisions differ between GPU and CPU (must be 0)\n",
        cores);
    binary_table.print_header();
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
        for (auto sched : { decoder_schedule::layered, decoder_schedule::flooding })
            for (const auto magnitude : rules) {
                if (schedules.find(to_string(sched)) == std::string::npos ||
                    (coloured_spec(spec) && sched == decoder_schedule::flooding))
                    continue;
                // rows of another check rule than min-sum's name it
                const bool plain = magnitude == min_sum_magnitude_rule::smallest;
                const std::string rule_name =
                    plain ? ""
                    : magnitude == min_sum_magnitude_rule::automatic
                        ? " auto: " + to_string(min_sum_auto_magnitude(*code))
                        : " " + to_string(magnitude);
                decoder_config base;
                base.min_sum_magnitude = magnitude;
                base.gpu = ctx.tuning;
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
                    // the 8-bit decoders' rule (auto resolves by the messages)
                    float_cfg.min_sum_magnitude = cpu8->config().min_sum_magnitude;
                    auto cpu = batch_decoder::make(code, float_cfg, "cpu");
                    // the device row repeats the batch up to dev_frames, enough
                    // groups of frames to fill the GPU for long codes
                    float* d_llr = nullptr;
                    GPULDPC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_llr),
                                                  dev_frames * nl * sizeof(float)));
                    for (size_t f0 = 0; f0 < dev_frames; f0 += frames)
                        GPULDPC_CUDA_CHECK(cudaMemcpy(d_llr + f0 * nl,
                                                      llr.data(),
                                                      std::min(frames, dev_frames - f0) *
                                                          nl * sizeof(float),
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
                    const float sigma = float(std::sqrt(
                        1.0 / (2.0 * code->rate() * std::pow(10.0, ebn0 / 10.0))));
                    const double fec = et || sched != decoder_schedule::flooding
                                           ? 0.0
                                           : gr_fec_rate(*code,
                                                         llr,
                                                         grfec_frames,
                                                         sigma,
                                                         int(cfg.max_iterations));
                    const std::string mode =
                        et ? format("ET %.2fdB", ebn0) : std::string("10 it");
                    binary_table.print_row(
                        { name + rule_name,
                          to_string(sched),
                          mode,
                          format("%zu", frames),
                          format("%zu", dev_frames),
                          format("%.1f", d / 1e6),
                          format("%.1f", g / 1e6),
                          format("%.1f", g8 / 1e6),
                          format("%.2f", c / 1e6),
                          format("%.2f", c8 / 1e6),
                          fec > 0 ? format("%.3f", fec / 1e6) : std::string("-"),
                          format("%.0fx", d / c),
                          fec > 0 ? format("%.0fx", d / fec) : std::string("-"),
                          format(
                              "%zu/%zu, %zu/%zu", differ, cpu_frames, errors, frames) });
                    record r;
                    r.section = "decoder";
                    r.name = name + " min-sum int8" + rule_name + " " + to_string(sched) +
                             " " + mode;
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
                                   std::to_string(et_errors) + "/" +
                                   std::to_string(trials) + " frame errors there)");
                    ctx.out.add(r);
                    if (!et && plain)
                        block_rows(
                            ctx, code, name, sched, cfg, llr, llr8, frames, nb, g, g8);
                }
            }
    }
}

} // namespace bench
} // namespace gpuldpc
} // namespace gr
