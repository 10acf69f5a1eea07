/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gpuldpc-cpu-bench: the CPU decoders (device "cpu") against the scalar
// reference on the same frames, one thread and all threads; a table and a
// JSON document naming the CPU, its instruction sets and the commit.

#include "bench/decoder_block.h"
#include "bench/gr_fec.h"
#include "bench/report.h"
#include "engine/simd_decoder.h"
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/simulation.h>
#include <gnuradio/logger.h>
#include <type_traits>
#include <boost/program_options.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace po = boost::program_options;
using namespace gr::gpuldpc;
using bench::format;

namespace {

std::string cpu_model()
{
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("model name", 0) == 0 || line.rfind("Model", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos)
                return line.substr(line.find_first_not_of(" \t", colon + 1));
        }
    return "unknown CPU";
}

batch_decoder::sptr
make_with(ldpc_code::sptr code, decoder_config cfg, const std::string& simd)
{
    setenv("GPULDPC_CPU_SIMD", simd.c_str(), 1);
    auto dec = batch_decoder::make(code, cfg, "cpu");
    unsetenv("GPULDPC_CPU_SIMD");
    return dec;
}

// Information bits/s of decode() on \p llr (frames of them, reused in
// turn), calls of \p batch frames for at least \p seconds.
template <class In>
double rate(batch_decoder& dec,
            const std::vector<In>& llr,
            size_t frames,
            size_t batch,
            double seconds)
{
    std::vector<uint8_t> bits(batch * dec.info_bytes_per_frame());
    std::vector<frame_status> status(batch);
    const size_t per = dec.llr_per_frame();
    std::vector<In> in(batch * per);
    for (size_t i = 0; i < batch; ++i)
        std::copy_n(&llr[(i % frames) * per], per, &in[i * per]);
    const auto call = [&] {
        if constexpr (std::is_same_v<In, int8_t>)
            dec.decode_int8(in.data(), batch, bits.data(), status.data());
        else
            dec.decode(in.data(), batch, bits.data(), status.data());
    };
    call(); // workspaces
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    size_t decoded = 0;
    double elapsed = 0.0;
    do {
        call();
        decoded += batch;
        elapsed = std::chrono::duration<double>(clock::now() - start).count();
    } while (elapsed < seconds);
    return double(decoded * dec.info_bits_per_frame()) / elapsed;
}

// \p frames of the simulator's BPSK frames at \p channel, as \p dec takes them
std::vector<float>
channel_frames(const batch_decoder::sptr& dec, const sim_channel& channel, size_t frames)
{
    std::vector<float> llr(frames * dec->llr_per_frame());
    simulation::make(dec)->frames(1, channel, 0, 1, frames, nullptr, nullptr, llr.data());
    return llr;
}

// A row's record: information bits/s \p r of \p n_threads against \p baseline
bench::record cpu_record(const std::string& name,
                         const ldpc_code& code,
                         unsigned n_threads,
                         double r,
                         double baseline,
                         const std::string& baseline_name,
                         const std::string& variant)
{
    bench::record rec;
    rec.section = "cpu";
    rec.name = name + ", " + std::to_string(n_threads) + " threads";
    rec.n = double(code.n());
    rec.batch = double(n_threads);
    rec.value = r;
    rec.unit = "information bits/s";
    rec.baseline_name = baseline_name;
    rec.baseline = baseline;
    rec.ratio = baseline > 0 ? r / baseline : 0.0;
    rec.variant = variant;
    return rec;
}

// row(decoder, threads, bits/s, kernel_variant) of \p cfg on each SIMD target
// on one thread, then on the best with \p threads (where more than one);
// calls of \p groups groups of frames
template <class Row>
void simd_rows(const ldpc_code::sptr& code,
               const decoder_config& cfg,
               const std::vector<std::string>& targets,
               unsigned threads,
               const std::vector<float>& llr,
               size_t frames,
               size_t groups,
               double seconds,
               Row row)
{
    for (const auto& target : targets) {
        auto simd = make_with(code, cfg, target);
        row("SIMD " + target,
            1u,
            rate(*simd, llr, frames, groups * simd->preferred_batch(), seconds),
            simd->kernel_variant());
    }
    if (threads > 1) {
        decoder_config all = cfg;
        all.threads = threads;
        auto simd = make_with(code, all, "auto");
        row("SIMD " + targets.front(),
            threads,
            rate(*simd, llr, frames, groups * simd->preferred_batch(), seconds),
            simd->kernel_variant());
    }
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> codes, gf_codes;
    std::string json, commit;
    unsigned iterations = 10, threads = 0;
    double ebn0 = 2.0, gf_ebn0 = 3.0, seconds = 1.0;
    bool only_gf = false, skip_block = false;
    po::options_description opts("gpuldpc-cpu-bench: the CPU decoders against the scalar "
                                 "reference on the same frames");
    opts.add_options()("help,h", "this help")(
        "code",
        po::value(&codes)->multitoken(),
        "codes (names or files; default dvbs2:1/2 wifi:1944:1/2 nr:1:384)")(
        "gf-code",
        po::value(&gf_codes)->multitoken(),
        "GF(q) codes of the FFT-BP table (default regular_2_4_n96_gf64)")(
        "gf-ebn0", po::value(&gf_ebn0), "Eb/N0 of their frames in dB (default 3)")(
        "only-gf", po::bool_switch(&only_gf), "the FFT-BP table alone")(
        "no-block", po::bool_switch(&skip_block), "without the decoder block's table")(
        "iterations", po::value(&iterations), "fixed iterations (default 10)")(
        "ebn0", po::value(&ebn0), "Eb/N0 of the frames in dB (default 2)")(
        "threads", po::value(&threads), "threads of the all-threads rows (default: all)")(
        "seconds", po::value(&seconds), "time a row at least (default 1)")(
        "json", po::value(&json), "write the records as JSON")(
        "commit", po::value(&commit), "the commit named in the JSON");
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, opts), vm);
        po::notify(vm);
    } catch (const std::exception& e) {
        std::cerr << "gpuldpc-cpu-bench: " << e.what() << "\n" << opts;
        return 2;
    }
    if (vm.count("help")) {
        std::cout << opts;
        return 0;
    }
    if (codes.empty() && !only_gf)
        codes = { "dvbs2:1/2", "wifi:1944:1/2", "nr:1:384" };
    if (gf_codes.empty())
        gf_codes = { "regular_2_4_n96_gf64" };
    if (threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
    const auto targets = detail::simd_targets();
    std::string sets;
    for (const auto& t : targets)
        sets += (sets.empty() ? "" : " ") + t;
    bench::device_description host;
    host.name = cpu_model() + ", " + std::to_string(std::thread::hardware_concurrency()) +
                " hardware threads; SIMD: " + (sets.empty() ? "none" : sets);
    bench::report out(host);
    std::printf("host: %s\n", host.name.c_str());
    const bench::table t({ { "code", 16, true },
                           { "decoder", 34, true },
                           { "threads", 7 },
                           { "Mb/s", 9 },
                           { "Mb/s/thread", 11 },
                           { "x ref", 7 } });
    if (!codes.empty()) {
        std::printf(
            "\n8-bit layered min-sum (each code's default check rule), %u fixed "
            "iterations, information bits/s on the "
            "same frames (%.1f dB); baseline the scalar reference on one thread\n",
            iterations,
            ebn0);
        t.print_header();
    }
    for (const auto& name : codes) {
        auto code = std::make_shared<ldpc_code>(ldpc_code::load(name));
        decoder_config cfg;
        cfg.algorithm = decoder_algorithm::min_sum;
        cfg.messages = message_precision::int8;
        cfg.schedule = decoder_schedule::layered;
        cfg.max_iterations = iterations;
        cfg.early_termination = false;
        cfg.threads = 1;
        auto reference = make_with(code, cfg, "off");
        const size_t frames = 64;
        const auto llr =
            channel_frames(reference, sim_channel::at(ebn0, code->rate()), frames);
        const double ref = rate(*reference, llr, frames, 4, seconds);
        const auto row = [&](const std::string& decoder,
                             unsigned n_threads,
                             double r,
                             const std::string& variant) {
            t.print_row({ name,
                          decoder,
                          format("%u", n_threads),
                          format("%.2f", r / 1e6),
                          format("%.2f", r / 1e6 / n_threads),
                          format("%.1f", r / ref) });
            out.add(cpu_record(name + " 8-bit layered min-sum " +
                                   std::to_string(iterations) + " it, " + decoder,
                               *code,
                               n_threads,
                               r,
                               ref,
                               "the scalar reference on one thread, information bits/s",
                               variant));
        };
        row("reference (scalar)", 1, ref, "scalar reference");
        if (detail::simd_refusal(*code, reference->config()).empty())
            simd_rows(code, cfg, targets, threads, llr, frames, 4, seconds, row);
    }
    // sum-product against gr-fec's decoder (same frames, one thread each)
    if (!only_gf) {
        const std::string name = "regular_3_6_n1008_gf2";
        const double spa_ebn0 = 2.0;
        auto code = std::make_shared<ldpc_code>(ldpc_code::load(name));
        decoder_config cfg;
        cfg.algorithm = decoder_algorithm::sum_product;
        cfg.max_iterations = 50;
        cfg.threads = 1;
        auto reference = make_with(code, cfg, "off");
        const size_t frames = 256;
        const auto channel = sim_channel::at(spa_ebn0, code->rate());
        const auto llr = channel_frames(reference, channel, frames);
        std::vector<float> gr_llr;
        for (size_t rep = 0; rep < 8; ++rep)
            gr_llr.insert(gr_llr.end(), llr.begin(), llr.end());
        const double grfec = bench::gr_fec_rate(
            *code, gr_llr, 8 * frames, channel.sigma, int(cfg.max_iterations));
        std::printf(
            "\nsum-product, flooding, at most %u iterations with early termination, "
            "%s at %.1f dB, information bits/s on the same frames; baseline gr-fec's "
            "ldpc_decoder on one thread\n",
            cfg.max_iterations,
            name.c_str(),
            spa_ebn0);
        const bench::table s({ { "decoder", 34, true },
                               { "threads", 7 },
                               { "Mb/s", 9 },
                               { "Mb/s/thread", 11 },
                               { "x gr-fec", 8 } });
        s.print_header();
        const auto row = [&](const std::string& decoder,
                             unsigned n_threads,
                             double r,
                             const std::string& variant) {
            s.print_row({ decoder,
                          format("%u", n_threads),
                          format("%.2f", r / 1e6),
                          format("%.2f", r / 1e6 / n_threads),
                          grfec > 0 ? format("%.1f", r / grfec) : std::string("-") });
            out.add(cpu_record(name + " sum-product flooding 50 it ET, " + decoder,
                               *code,
                               n_threads,
                               r,
                               grfec,
                               "gr-fec ldpc_decoder on one thread, information bits/s",
                               variant));
        };
        row("gr-fec ldpc_decoder",
            1,
            grfec,
            "gr::fec::ldpc_decoder, one generic_work a frame");
        row("reference (scalar)",
            1,
            rate(*reference, llr, frames, 16, seconds),
            "scalar reference");
        simd_rows(code, cfg, targets, threads, llr, frames, 8, seconds, row);
        // the layered schedule: fewer iterations to the same error rate
        decoder_config layered = cfg;
        layered.schedule = decoder_schedule::layered;
        auto simd = make_with(code, layered, "auto");
        row("SIMD " + targets.front() + ", layered",
            1,
            rate(*simd, llr, frames, 8 * simd->preferred_batch(), seconds),
            simd->kernel_variant());
    }
    // FFT-BP of GF(q) codes: the SIMD decoder against the reference
    for (const auto& name : gf_codes) {
        auto code = std::make_shared<ldpc_code>(ldpc_code::load(name));
        std::printf("\nFFT-BP, fp32 messages, %u fixed iterations, %s at %.1f dB, "
                    "information bits/s on the same frames; baseline the scalar "
                    "reference on one thread\n",
                    iterations,
                    name.c_str(),
                    gf_ebn0);
        const bench::table f({ { "schedule", 9, true },
                               { "decoder", 34, true },
                               { "threads", 7 },
                               { "Mb/s", 9 },
                               { "Mb/s/thread", 11 },
                               { "x ref", 7 } });
        f.print_header();
        for (auto schedule : { decoder_schedule::flooding, decoder_schedule::layered }) {
            decoder_config cfg;
            cfg.algorithm = decoder_algorithm::fft_bp;
            cfg.schedule = schedule;
            cfg.max_iterations = iterations;
            cfg.early_termination = false;
            cfg.threads = 1;
            auto reference = make_with(code, cfg, "off");
            const size_t frames = 64;
            const auto llr =
                channel_frames(reference, sim_channel::at(gf_ebn0, code->rate()), frames);
            const double ref = rate(*reference, llr, frames, 16, seconds);
            const std::string sched = to_string(schedule);
            const auto row = [&](const std::string& decoder,
                                 unsigned n_threads,
                                 double r,
                                 const std::string& variant) {
                f.print_row({ sched,
                              decoder,
                              format("%u", n_threads),
                              format("%.3f", r / 1e6),
                              format("%.3f", r / 1e6 / n_threads),
                              format("%.1f", r / ref) });
                out.add(cpu_record(name + " FFT-BP " + sched + " " +
                                       std::to_string(iterations) + " it, " + decoder,
                                   *code,
                                   n_threads,
                                   r,
                                   ref,
                                   "the scalar reference on one thread, information "
                                   "bits/s",
                                   variant));
            };
            row("reference (scalar)", 1, ref, "scalar reference");
            if (detail::simd_refusal(*code, reference->config()).empty())
                simd_rows(code, cfg, targets, threads, llr, frames, 8, seconds, row);
        }
    }
    // the decoder block on the CPU against its engine, same frames and
    // configuration, all threads
    if (!skip_block) {
        // the blocks' start and stop messages would split the table
        gr::logging::singleton().set_default_level(gr::log_level::warn);
        std::printf("\nThe decoder block (device cpu, its automatic batch, early "
                    "termination) in a flowgraph against batch_decoder.decode() "
                    "(decode_int8() for 8-bit input) on the same frames, %u threads\n",
                    threads);
        const bench::table b({ { "code", 22, true },
                               { "decoder", 40, true },
                               { "engine Mb/s", 11 },
                               { "block Mb/s", 10 },
                               { "block/engine", 12 },
                               { "frames/call", 11 },
                               { "busy", 5 } });
        b.print_header();
        struct block_row {
            std::string name;
            decoder_config cfg;
            bool int8_input;
        };
        std::vector<block_row> rows;
        if (!codes.empty()) {
            decoder_config c;
            c.algorithm = decoder_algorithm::min_sum;
            c.messages = message_precision::int8;
            c.schedule = decoder_schedule::layered;
            rows.push_back({ codes.front(), c, false });
            rows.push_back({ codes.front(), c, true });
        }
        decoder_config f;
        f.algorithm = decoder_algorithm::fft_bp;
        f.schedule = decoder_schedule::layered;
        rows.push_back({ gf_codes.front(), f, false });
        for (auto& [name, cfg, int8_input] : rows) {
            auto code = std::make_shared<ldpc_code>(ldpc_code::load(name));
            cfg.max_iterations = iterations;
            cfg.threads = threads;
            auto engine = make_with(code, cfg, "auto");
            const size_t frames = 256;
            const double at = code->q() == 2 ? ebn0 : gf_ebn0;
            const auto llr =
                channel_frames(engine, sim_channel::at(at, code->rate()), frames);
            // 8-bit input as decode_int8() takes it: steps of 1 / llr_scale
            std::vector<int8_t> llr8(int8_input ? llr.size() : 0);
            for (size_t i = 0; i < llr8.size(); ++i)
                llr8[i] =
                    int8_t(std::clamp(std::nearbyint(llr[i] * engine->config().llr_scale),
                                      -127.0f,
                                      127.0f));
            const size_t batch = 4 * engine->preferred_batch();
            const double e = int8_input ? rate(*engine, llr8, frames, batch, seconds)
                                        : rate(*engine, llr, frames, batch, seconds);
            const double bits_a_pass = double(frames) * engine->info_bits_per_frame();
            const unsigned passes =
                unsigned(std::max(2.0, std::ceil(seconds * e / bits_a_pass)));
            bench::block_run run;
            setenv("GPULDPC_CPU_SIMD", "auto", 1);
            const double r = bench::block_rate(code,
                                               cfg,
                                               llr,
                                               frames,
                                               "cpu",
                                               passes,
                                               "none",
                                               int8_input ? &llr8 : nullptr,
                                               &run);
            unsetenv("GPULDPC_CPU_SIMD");
            const std::string decoder =
                to_string(cfg.algorithm) + " " + to_string(cfg.messages) + " " +
                to_string(cfg.schedule) + ", " + std::to_string(iterations) + " it, " +
                (int8_input ? "int8" : "float") + " in";
            b.print_row({ name,
                          decoder,
                          format("%.2f", e / 1e6),
                          format("%.2f", r / 1e6),
                          format("%.2f", r / e),
                          format("%.0f", run.mean_batch),
                          format("%.0f%%", 100.0 * run.decoder_busy) });
            bench::record rec =
                cpu_record(name + " decoder block, " + decoder + ", ET",
                           *code,
                           threads,
                           r,
                           e,
                           "batch_decoder.decode() on the same frames and threads, "
                           "information bits/s",
                           engine->kernel_variant());
            out.add(rec);
        }
    }
    if (!json.empty()) {
        out.write_json(json, commit);
        std::printf("\nwrote %s\n", json.c_str());
    }
    return 0;
}
