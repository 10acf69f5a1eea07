/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gpuldpc-bench: throughput of the GPU transforms and decoders, each against
// a baseline measured in the same run (device memcpy of the same bytes, raw
// cuFFT on the same batch, pinned copy bandwidth, fft.fft_vcc in the same
// flowgraph, the CPU reference decoders and gr-fec on the same frames).
// Prints a table a section and, with --json FILE, writes every record with
// the device.

#include "common/cuda_check.h"
#include "decoding.h"
#include "report.h"
#include "sections.h"
#include <gnuradio/gpuldpc/engine/device.h>
#include <gnuradio/gpuldpc/engine/gpu_tuning.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

using namespace gr::gpuldpc;
using namespace gr::gpuldpc::bench;

namespace {

void usage(const char* prog)
{
    std::fprintf(
        stderr,
        "usage: %s [--json FILE] [--sections "
        "fwht,fft,butterfly,stream,flowgraph,decoder,binary,simulation,host] [--mib M] "
        "[--reps R] [--commit ID] [--codes DIR] [--code PATH|NAME]... [--only TEXT,...] "
        "[--schedule layered,flooding] [--et-ebn0 DB] "
        "[--min-sum-magnitude smallest,three-smallest]\n"
        "  --only: the decoder sections' codes whose name contains one of the TEXTs, "
        "or is one where a TEXT starts with = (=dvbs2:1/2 leaves out "
        "dvbs2:1/2:short and alist:dvbs2:1/2)\n"
        "  --et-ebn0: binary codes' early-termination rows at this Eb/N0 instead of "
        "the searched one of FER about 1e-3\n"
        "  --min-sum-magnitude: the binary decoder section's check rules, rows for "
        "each (default smallest; auto: the default decoder's, min_sum_auto_magnitude())\n"
        "  --codes: where the shipped codes are (default: GPULDPC_CODES_DIR, the "
        "installed ones, the source tree's)\n",
        prog);
}

struct options {
    std::string json, sections = "fwht,fft,butterfly,stream,flowgraph,decoder",
                      commit = "unknown";
    // the shipped codes by name (code_names.h: GPULDPC_CODES_DIR, else the
    // installed ones, else the source tree's); --codes DIR sets the first
    std::vector<std::string> extra_codes;
    std::string only; // decoder sections: the codes named so (only_named)
    std::string schedules = "layered,flooding"; // binary decoder section
    double et_ebn0 = -1.0; // binary decoder section: searched when negative
    std::string magnitudes = "smallest"; // binary decoder section
    size_t mib = 256;
    int reps = 10;
};

// The options, or exits with the usage (status 2).
options parse(int argc, char** argv)
{
    options o;
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
            o.json = value();
        else if (a == "--sections")
            o.sections = value();
        else if (a == "--mib")
            o.mib = std::stoul(value());
        else if (a == "--reps")
            o.reps = std::stoi(value());
        else if (a == "--commit")
            o.commit = value();
        else if (a == "--codes")
            setenv("GPULDPC_CODES_DIR", value().c_str(), 1);
        else if (a == "--code")
            o.extra_codes.push_back(value());
        else if (a == "--only")
            o.only = value();
        else if (a == "--schedule")
            o.schedules = value();
        else if (a == "--et-ebn0")
            o.et_ebn0 = std::stod(value());
        else if (a == "--min-sum-magnitude")
            o.magnitudes = value();
        else {
            usage(argv[0]);
            std::exit(2);
        }
    }
    return o;
}

// The codes whose name (by name_of) matches an entry of the comma-separated
// `only`: contains it, or equals it where the entry starts with '='. An
// empty `only` keeps every code.
std::vector<std::string> only_named(std::vector<std::string> codes,
                                    const std::string& only,
                                    std::string (*name_of)(const std::string&))
{
    if (only.empty())
        return codes;
    std::vector<std::string> entries;
    for (size_t start = 0;;) {
        const size_t comma = only.find(',', start);
        entries.push_back(only.substr(start, comma - start));
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    auto wanted = [&](const std::string& c) {
        const std::string name = name_of(c);
        for (const auto& e : entries)
            if (!e.empty() &&
                (e[0] == '=' ? name == e.substr(1) : name.find(e) != std::string::npos))
                return true;
        return false;
    };
    codes.erase(std::remove_if(codes.begin(),
                               codes.end(),
                               [&](const std::string& c) { return !wanted(c); }),
                codes.end());
    return codes;
}

// The GF(q) section names a code by the file name of its path.
std::string file_name(const std::string& path)
{
    return path.substr(path.find_last_of('/') + 1);
}

void run_sections(const context& ctx, const options& o)
{
    auto has = [&](const char* s) { return o.sections.find(s) != std::string::npos; };
    const size_t bytes = o.mib << 20;
    if (has("fwht"))
        bench_fwht(ctx, bytes, o.reps);
    if (has("fft"))
        bench_fft(ctx, bytes, o.reps);
    if (has("butterfly"))
        bench_butterfly(ctx, bytes, o.reps);
    if (has("stream"))
        bench_stream(ctx, bytes, std::max(3, o.reps / 3));
    if (has("flowgraph"))
        bench_flowgraph(ctx, 200000);
    if (has("simulation")) {
        // the simulator against the decoder alone: the codes
        std::vector<std::string> sim_codes{
            "dvbs2:1/2", "wifi:1944:1/2", "nr:1:384", "regular_2_4_n96_gf64.alist"
        };
        bench_simulation(
            ctx, only_named(sim_codes, o.only, code_name), std::max(3, o.reps / 2));
    }
    if (has("host")) {
        // decode() host to host, the PCIe-bound figures
        std::vector<std::string> host_codes{ "wifi:1944:1/2", "dvbs2:1/2" };
        bench_host_decode(
            ctx, only_named(host_codes, o.only, code_name), std::max(3, o.reps / 4));
    }
    // decoder: the GF(q) and the binary decoders; binary: the latter only
    if (!has("decoder") && !has("binary"))
        return;
    const int reps = std::max(3, o.reps / 2);
    if (has("decoder")) {
        // shipped codes by name (with the extension, as the tables and JSON
        // name them)
        std::vector<std::string> paths{ "regular_2_4_n256_gf4.alist",
                                        "regular_2_4_n128_gf16.alist",
                                        "regular_2_4_n96_gf64.alist",
                                        "regular_2_4_n64_gf256.alist",
                                        "regular_3_6_n1008_gf2.alist" };
        paths.insert(paths.end(), o.extra_codes.begin(), o.extra_codes.end());
        bench_decoder(ctx, only_named(paths, o.only, file_name), reps);
    }
    // binary codes in 8-bit min-sum: the shipped rate-1/2 code, ../shared's
    // binary codes when given (--code), IEEE 802.11n and 802.16e (rate 5/6:
    // rows of 20 blocks), CCSDS AR4JA (k = 1024, 4096 and 16384 at rate 1/2,
    // z = 128, 512: the strided kernel, and 2048), DVB-S2 (rate 1/2 also through an alist: no structure known,
    // the decoder colours it), 5G NR
    std::vector<std::string> binary{ "regular_3_6_n1008_gf2.alist" };
    for (const auto& c : o.extra_codes)
        if (load_bench_code(c).q() == 2)
            binary.push_back(c);
    for (const char* c : { "wifi:648:1/2",
                           "wifi:1944:1/2",
                           "wimax:2304:1/2",
                           "wimax:2304:5/6",
                           "ar4ja:1024:1/2",
                           "ar4ja:4096:1/2",
                           "ar4ja:16384:1/2",
                           "dvbs2:1/2:short",
                           "dvbs2:1/4",
                           "dvbs2:1/2",
                           "alist:dvbs2:1/2",
                           "dvbs2:9/10",
                           "nr:1:384",
                           "nr:1:384:8",
                           "nr:2:384" })
        binary.push_back(c);
    binary = only_named(binary, o.only, code_name);
    bench_binary_decoder(ctx, binary, reps, o.et_ebn0, o.schedules, o.magnitudes);
    bench_binary_float(ctx, binary, reps, o.schedules);
}

} // namespace

int main(int argc, char** argv)
{
    const options o = parse(argc, argv);
    if (cuda_devices().empty()) {
        std::fprintf(stderr, "gpuldpc-bench: no CUDA device; nothing to measure\n");
        return 1;
    }
    // the one read of the GPULDPC_* tuning variables: every decoder the
    // sections make starts from it
    gpu_tuning tuning;
    try {
        tuning = gpu_tuning::from_environment();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpuldpc-bench: %s\n", e.what());
        return 1;
    }
    report out(describe_device(tuning));
    const device_description& dev = out.device();
    cudaStream_t stream = nullptr;
    GPULDPC_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    std::printf("%s\ndevice: %s (sm_%d%d)\n",
                build_info().c_str(),
                dev.name.c_str(),
                dev.compute_major,
                dev.compute_minor);
    std::printf("shared memory per block for the engines: %zu B (device opt-in limit "
                "%zu B; GPULDPC_SHARED_MEMORY_LIMIT %s)\n",
                dev.shared_memory_limit,
                dev.shared_memory_device_limit,
                dev.shared_memory_cap.empty() ? "unset"
                                              : ("= " + dev.shared_memory_cap).c_str());
    const context ctx{ out, stream, tuning };
    try {
        run_sections(ctx, o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpuldpc-bench: %s\n", e.what());
        if (!o.json.empty())
            out.write_json(o.json, o.commit);
        return 1;
    }
    if (!o.json.empty())
        out.write_json(o.json, o.commit);
    return 0;
}
