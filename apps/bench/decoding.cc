/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "common.h"
#include "common/cuda_check.h"
#include "decoding.h"
#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

namespace gr {
namespace gpuldpc {
namespace bench {

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

std::string code_name(const std::string& spec)
{
    // built-in codes by name (dvbs2:1/2, wifi:1944:1/2, wimax:2304:1/2, nr:1:384,
    // ar4ja:1024:1/2), also through an alist (alist:dvbs2:1/2)
    for (const char* builtin : { "dvbs2:", "wifi:", "wimax:", "ar4ja:", "nr:", "alist:" })
        if (spec.rfind(builtin, 0) == 0)
            return spec;
    return spec.substr(spec.find_last_of('/') + 1);
}

const std::string coloured_suffix = "+coloured";

bool coloured_spec(const std::string& spec)
{
    return spec.size() > coloured_suffix.size() &&
           spec.compare(spec.size() - coloured_suffix.size(),
                        coloured_suffix.size(),
                        coloured_suffix) == 0;
}

const std::string through_alist_prefix = "alist:";

ldpc_code load_bench_code(const std::string& spec)
{
    if (spec.rfind(through_alist_prefix, 0) == 0) {
        // the code as a file would give it: H alone, no structure known
        std::stringstream alist;
        ldpc_code::load(spec.substr(through_alist_prefix.size())).write(alist);
        return ldpc_code::read(alist, spec);
    }
    if (!coloured_spec(spec))
        return ldpc_code::load(spec);
    return ldpc_code::load(spec.substr(0, spec.size() - coloured_suffix.size()))
        .with_coloured_layers();
}

} // namespace bench
} // namespace gpuldpc
} // namespace gr
