/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The simulator with every step on the device (frames drawn, encoded, sent
// through AWGN, decoded, counted) against the decoder alone on the same
// frames in device memory: 10 fixed iterations, the same configuration.

#include "common/cuda_check.h"
#include "decoding.h"
#include "sections.h"
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/device.h>
#include <gnuradio/gpuldpc/engine/simulation.h>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace bench {

void bench_simulation(const context& ctx,
                      const std::vector<std::string>& code_specs,
                      int reps)
{
    std::printf("\nSimulation on the device (gpuldpc.simulation: Philox frames, encoder, "
                "BPSK, AWGN, LLRs, decoder, error counts), information bits/s at 10 "
                "fixed iterations, 2 dB; baseline the decoder alone on the same frames "
                "in device memory (decode_device)\n");
    const table t({ { "code", 26, true },
                    { "decoder", 22, true },
                    { "frames", 7 },
                    { "sim Mb/s", 10 },
                    { "dec Mb/s", 10 },
                    { "sim/dec", 8 },
                    { "encoder", 0, true } });
    t.print_header();
    for (const auto& spec : code_specs) {
        auto code = std::make_shared<ldpc_code>(load_bench_code(spec));
        const std::string name = code_name(spec);
        decoder_config cfg;
        cfg.gpu = ctx.tuning;
        cfg.max_iterations = 10;
        cfg.early_termination = false;
        if (code->q() == 2) {
            cfg.algorithm = decoder_algorithm::min_sum;
            cfg.messages = message_precision::int8;
            cfg.schedule = decoder_schedule::layered;
        } else {
            cfg.algorithm = decoder_algorithm::fft_bp;
        }
        auto dec = batch_decoder::make(code, cfg, "cuda");
        auto sim = simulation::make(dec);
        const size_t frames = sim->preferred_batch();
        const auto ch = sim_channel::at(2.0, code->rate());
        std::vector<float> llr(frames * dec->llr_per_frame());
        sim->frames(1, ch, 0, 1, frames, nullptr, nullptr, llr.data());
        float* d_llr = nullptr;
        GPULDPC_CUDA_CHECK(
            cudaMalloc(reinterpret_cast<void**>(&d_llr), llr.size() * sizeof(float)));
        GPULDPC_CUDA_CHECK(cudaMemcpy(
            d_llr, llr.data(), llr.size() * sizeof(float), cudaMemcpyHostToDevice));
        const double d = device_decode_rate(*dec, d_llr, frames, reps);
        cudaFree(d_llr);
        std::vector<sim_frame_result> results(frames);
        uint64_t first = 0;
        sim->run(1, ch, first, 1, frames, results.data()); // buffers
        const double ms = wall_ms(
            [&] {
                first += frames;
                sim->run(1, ch, first, 1, frames, results.data());
            },
            reps);
        const double s = double(frames * dec->info_bits_per_frame()) / (ms * 1e-3);
        const std::string rule = code->q() == 2 ? "int8 min-sum layered" : "fft-bp fp32";
        t.print_row({ name,
                      rule,
                      format("%zu", frames),
                      format("%.1f", s / 1e6),
                      format("%.1f", d / 1e6),
                      format("%.2f", s / d),
                      sim->encoder_variant() });
        record r;
        r.section = "simulation";
        r.name = name + " " + rule + " 10 it";
        r.n = double(code->n());
        r.batch = double(frames);
        r.value = s;
        r.unit = "information bits/s simulated, every step on the device";
        r.baseline_name = "decode_device information bits/s, same frames";
        r.baseline = d;
        r.ratio = s / d;
        r.variant =
            "encoder: " + sim->encoder_variant() + "; kernel: " + dec->kernel_variant();
        ctx.out.add(r);

        // every GPU of the machine, against one
        const size_t gpus = cuda_devices().size();
        if (gpus < 2)
            continue;
        auto all = simulation::make(dec, "cuda:all");
        const size_t all_frames = all->preferred_batch();
        std::vector<sim_frame_result> all_results(all_frames);
        all->run(1, ch, 0, 1, all_frames, all_results.data());
        const double all_ms = wall_ms(
            [&] {
                first += all_frames;
                all->run(1, ch, first, 1, all_frames, all_results.data());
            },
            reps);
        const double a =
            double(all_frames * dec->info_bits_per_frame()) / (all_ms * 1e-3);
        t.print_row({ name,
                      rule + " x" + std::to_string(gpus),
                      format("%zu", all_frames),
                      format("%.1f", a / 1e6),
                      format("%.1f", s / 1e6),
                      format("%.2f", a / s),
                      "cuda:all against one GPU's simulation" });
        record g = r;
        g.name = name + " " + rule + " 10 it, " + std::to_string(gpus) + " GPUs";
        g.batch = double(all_frames);
        g.value = a;
        g.baseline_name = "the simulation on one GPU, information bits/s";
        g.baseline = s;
        g.ratio = a / s;
        g.variant = "device cuda:all (" + all->device_name() + ")";
        ctx.out.add(g);
    }
}

} // namespace bench
} // namespace gpuldpc
} // namespace gr
