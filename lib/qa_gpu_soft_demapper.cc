/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// soft_demapper_cuda against the CPU's soft_demapper: every constellation,
// exact and max-log, SNRs from -10 to 40 dB, confident and non-finite
// symbols, more symbols than a launch takes; the block's GPU path against its
// CPU path, and its fall-back on an injected fault. Without a CUDA device
// every case is skipped (and says so).

#include "qa_helpers.h"
#include <gnuradio/blocks/vector_sink.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/gpuldpc/engine/fault_injection.h>
#include <gnuradio/gpuldpc/engine/soft_demapper.h>
#include <gnuradio/gpuldpc/soft_demapper_cf.h>
#include <gnuradio/top_block.h>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <complex>
#include <limits>
#include <random>

using namespace gr::gpuldpc;
namespace utf = boost::unit_test;
using qa::gpu_present;

namespace {

std::vector<std::complex<float>>
noisy_symbols(const constellation& c, size_t n, double n0, std::mt19937& rng)
{
    std::uniform_int_distribution<size_t> pick(0, c.points().size() - 1);
    std::normal_distribution<double> gauss(0.0, std::sqrt(n0 / 2));
    std::vector<std::complex<float>> y(n);
    for (auto& v : y)
        v = c.points()[pick(rng)] +
            std::complex<float>(float(gauss(rng)), float(gauss(rng)));
    return y;
}

// The two largest metrics -|y - x|^2 / N0 of bit b's values, in double: the
// scale of the rounding of an LLR made from them.
double metric_scale(const constellation& c, std::complex<float> y, double n0, unsigned b)
{
    const unsigned m = c.bits_per_symbol();
    double best[2] = { -INFINITY, -INFINITY };
    for (size_t x = 0; x < c.points().size(); ++x) {
        const double d =
            std::norm(std::complex<double>(y) - std::complex<double>(c.points()[x])) / n0;
        double& v = best[(x >> (m - 1 - b)) & 1];
        v = std::max(v, -d);
    }
    return std::fabs(best[0]) + std::fabs(best[1]);
}

} // namespace

BOOST_AUTO_TEST_CASE(gpu_soft_demapper_equals_cpu, *utf::precondition(gpu_present()))
{
    std::mt19937 rng(5);
    const double eps = std::ldexp(1.0, -24);
    for (const auto& name : constellation::names()) {
        const auto c = constellation::make(name);
        const unsigned m = c.bits_per_symbol();
        for (auto mode : { demapping::exact, demapping::max_log }) {
            const soft_demapper cpu(c, mode);
            soft_demapper_cuda gpu(cpu, 0);
            for (double esn0_db : { -10.0, 0.0, 10.0, 25.0, 40.0 }) {
                const double n0 = std::pow(10.0, -esn0_db / 10);
                // more than one launch's 2^16 symbols for one case
                const size_t n = esn0_db == 10.0 && name == "gpuldpc-qpsk" ? 70001 : 3001;
                auto y = noisy_symbols(c, n, n0, rng);
                y[7] = { NAN, 0.0f };
                y[8] = { 0.0f, INFINITY };
                y[9] = { 1e3f, -1e3f }; // far outside: confident, still finite
                std::vector<float> want(n * m), got(n * m, -1.0f);
                cpu.demap(y.data(), n, float(n0), want.data());
                gpu.demap(y.data(), n, float(n0), got.data());
                for (size_t s = 0; s < n; ++s)
                    for (unsigned b = 0; b < m; ++b) {
                        const size_t i = s * m + b;
                        if (s == 7 || s == 8) {
                            BOOST_REQUIRE(std::isnan(want[i]) && std::isnan(got[i]));
                            continue;
                        }
                        BOOST_REQUIRE(std::isfinite(got[i]));
                        // distances rounded in float on both sides (a few
                        // roundings of each metric); the exact sums in float
                        // on the device (at most 128 terms of at most 1 each
                        // beside the largest, 1): relative 2^-24 per term,
                        // plus expf/logf's few ulp
                        const double tol = 8 * eps * metric_scale(c, y[s], n0, b) +
                                           (mode == demapping::exact ? 300 * eps : 0.0);
                        BOOST_REQUIRE_MESSAGE(
                            std::fabs(double(want[i]) - got[i]) <= tol,
                            name << (mode == demapping::exact ? " exact" : " max-log")
                                 << " at " << esn0_db << " dB, symbol " << s << " bit "
                                 << b << ": cpu " << want[i] << " gpu " << got[i]
                                 << " tol " << tol);
                    }
            }
            BOOST_CHECK_THROW(gpu.demap(nullptr, 0, 0.0f, nullptr),
                              std::invalid_argument);
        }
    }
}

namespace {

std::vector<float> run_block(const std::vector<std::complex<float>>& y,
                             const std::string& device,
                             std::string* device_name = nullptr)
{
    auto tb = gr::make_top_block("soft demapper");
    auto src = gr::blocks::vector_source_c::make(y);
    auto dem = soft_demapper_cf::make("gpuldpc-16qam", "exact", 0.1f, "", device);
    auto snk = gr::blocks::vector_sink_f::make();
    tb->connect(src, 0, dem, 0);
    tb->connect(dem, 0, snk, 0);
    tb->run();
    if (device_name)
        *device_name = dem->device_name();
    return snk->data();
}

} // namespace

BOOST_AUTO_TEST_CASE(soft_demapper_block_gpu_and_fallback,
                     *utf::precondition(gpu_present()))
{
    std::mt19937 rng(9);
    const auto y = noisy_symbols(constellation::make("gpuldpc-16qam"), 50000, 0.1, rng);
    const auto cpu = run_block(y, "cpu");
    BOOST_REQUIRE_EQUAL(cpu.size(), y.size() * 4);
    std::string name;
    const auto gpu = run_block(y, "cuda", &name);
    BOOST_REQUIRE_EQUAL(gpu.size(), cpu.size());
    BOOST_CHECK(name != "cpu");
    double err = 0;
    for (size_t i = 0; i < cpu.size(); ++i)
        err = std::max(err, double(std::fabs(cpu[i] - gpu[i])));
    // metrics of at most |y - x|^2 / N0 < 100 here: see the case above
    BOOST_CHECK_LE(err, 1e-4);

    // a launch that fails mid-stream: the rest on the CPU, nothing lost
    for (const char* kind : { "launch", "copy" }) {
        inject_cuda_fault(kind, 3);
        const auto after = run_block(y, "cuda", &name);
        clear_cuda_fault();
        BOOST_REQUIRE_EQUAL(after.size(), cpu.size());
        BOOST_CHECK_EQUAL(name, "cpu");
        double e = 0;
        for (size_t i = 0; i < cpu.size(); ++i)
            e = std::max(e, double(std::fabs(cpu[i] - after[i])));
        BOOST_CHECK_LE(e, 1e-4);
    }
}
