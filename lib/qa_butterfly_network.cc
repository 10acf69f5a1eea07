/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Butterfly networks on the host: they reproduce the CPU transforms exactly,
// the FFT network is the DFT, and the bank reordering changes nothing but the
// order (and does not add conflicts).

#include <gnuradio/gpuldpc/engine/butterfly_network.h>
#include <gnuradio/gpuldpc/engine/gf_field.h>
#include <gnuradio/gpuldpc/engine/transforms.h>
#include <boost/test/unit_test.hpp>
#include <algorithm>
#include <cmath>
#include <complex>
#include <random>

using namespace gr::gpuldpc;

namespace {

// What the GPU kernel does, written plainly, with the same operations.
template <typename T>
std::vector<T> run_network(const butterfly_network& net, const std::vector<T>& in)
{
    const size_t n = net.n;
    std::vector<T> x(n), out(n);
    for (size_t k = 0; k < n; ++k)
        x[k] = in[net.pre_perm.empty() ? k : net.pre_perm[k]];
    for (size_t s = 0; s < net.stages.size(); ++s)
        for (size_t p = 0; p < net.stages[s].size(); ++p) {
            const auto [i, j] = net.stages[s][p];
            const auto& k =
                net.kernels[net.kernel_ids.empty() ? 0 : net.kernel_ids[s][p]];
            const T a = x[i], b = x[j];
            if constexpr (std::is_same_v<T, std::complex<float>>) {
                x[i] = (k.k[0] * a + k.k[1] * b) / k.div;
                x[j] = (k.k[2] * a + k.k[3] * b) / k.div;
            } else if constexpr (std::is_same_v<T, int32_t>) {
                if (net.mod2) {
                    x[i] = a & 1;
                    x[j] = (a & 1) ^ (b & 1);
                } else {
                    const uint32_t r0 = uint32_t(int32_t(k.k[0].real())) * uint32_t(a) +
                                        uint32_t(int32_t(k.k[1].real())) * uint32_t(b);
                    const uint32_t r1 = uint32_t(int32_t(k.k[2].real())) * uint32_t(a) +
                                        uint32_t(int32_t(k.k[3].real())) * uint32_t(b);
                    x[i] = k.div == 1.0f ? int32_t(r0) : int32_t(r0) / int32_t(k.div);
                    x[j] = k.div == 1.0f ? int32_t(r1) : int32_t(r1) / int32_t(k.div);
                }
            } else {
                if (net.mod2) {
                    const float ma = float(int64_t(std::nearbyint(a)) & 1);
                    const float mb = float(int64_t(std::nearbyint(b)) & 1);
                    x[i] = ma;
                    x[j] = float(int(ma) ^ int(mb));
                } else {
                    const float r0 = k.k[0].real() * a + k.k[1].real() * b;
                    const float r1 = k.k[2].real() * a + k.k[3].real() * b;
                    x[i] = k.div == 1.0f ? r0 : r0 * (1.0f / k.div);
                    x[j] = k.div == 1.0f ? r1 : r1 * (1.0f / k.div);
                }
            }
        }
    for (size_t k = 0; k < n; ++k) {
        T y = x[net.post_perm.empty() ? k : net.post_perm[k]];
        if (net.final_div != 1.0f) {
            if constexpr (std::is_same_v<T, int32_t>)
                y = y / int32_t(net.final_div);
            else
                y = y / net.final_div;
        }
        out[k] = y;
    }
    return out;
}

} // namespace

BOOST_AUTO_TEST_CASE(spectral_networks_equal_the_cpu_transforms)
{
    std::mt19937 rng(3);
    for (size_t n : { 2, 4, 8, 64, 1024 }) {
        std::vector<int32_t> xi(n);
        std::vector<float> xf(n);
        for (size_t i = 0; i < n; ++i) {
            xi[i] = int32_t(rng() % 2001) - 1000;
            xf[i] = float(xi[i]) / 7.0f;
        }
        for (auto kind : { spectral_kind::walsh,
                           spectral_kind::reed_muller,
                           spectral_kind::arithmetic,
                           spectral_kind::haar })
            for (bool forward : { true, false }) {
                auto net = butterfly_network::spectral(n, kind, forward);
                spectral_transform_cpu<int32_t> ci(n, kind, forward);
                spectral_transform_cpu<float> cf(n, kind, forward);
                std::vector<int32_t> ri(n);
                std::vector<float> rf(n);
                ci.execute(xi.data(), ri.data(), 1);
                cf.execute(xf.data(), rf.data(), 1);
                BOOST_REQUIRE(run_network(net, xi) == ri);
                BOOST_REQUIRE(run_network(net, xf) == rf);
                const size_t before = net.bank_conflicts();
                net.reorder_for_banks();
                BOOST_CHECK_LE(net.bank_conflicts(), before);
                BOOST_REQUIRE(run_network(net, xi) == ri);
                BOOST_REQUIRE(run_network(net, xf) == rf);
            }
    }
}

BOOST_AUTO_TEST_CASE(fft_network_is_the_dft)
{
    std::mt19937 rng(4);
    std::normal_distribution<float> g;
    for (size_t n : { 2, 8, 256 })
        for (bool forward : { true, false }) {
            auto net = butterfly_network::fft(n, forward);
            net.reorder_for_banks();
            std::vector<std::complex<float>> x(n);
            for (auto& v : x)
                v = { g(rng), g(rng) };
            const auto y = run_network(net, x);
            for (size_t k = 0; k < n; ++k) {
                std::complex<double> acc = 0;
                for (size_t j = 0; j < n; ++j)
                    acc += std::complex<double>(x[j]) *
                           std::polar(1.0,
                                      (forward ? -2.0 : 2.0) * M_PI * double(j * k % n) /
                                          double(n));
                BOOST_REQUIRE_SMALL(std::abs(acc - std::complex<double>(y[k])),
                                    1e-4 * std::sqrt(double(n)));
            }
        }
}

BOOST_AUTO_TEST_CASE(walsh_in_gf_exponent_order)
{
    const gf_field f(4);
    auto net = butterfly_network::walsh_gf_log_order(4);
    std::vector<float> natural(16), logorder(16);
    for (size_t a = 0; a < 16; ++a)
        natural[a] = float(a * a % 7);
    logorder[0] = natural[0];
    for (unsigned e = 0; e < 15; ++e)
        logorder[e + 1] = natural[f.exp(e)];
    const auto out = run_network(net, logorder);
    std::vector<float> ref(16);
    fwht_cpu(16, fwht_normalization::none, fwht_ordering::natural)
        .execute(natural.data(), ref.data(), 1);
    BOOST_CHECK_EQUAL(out[0], ref[0]);
    for (unsigned e = 0; e < 15; ++e)
        BOOST_CHECK_EQUAL(out[e + 1], ref[f.exp(e)]);
}

BOOST_AUTO_TEST_CASE(reordering_recovers_a_conflict_poor_order)
{
    // Natural Cooley-Tukey order is already as good as bank assignment allows
    // (the i of a stage with stride h < 32 only reach some banks). A network
    // whose pairs come in random order has many more conflicts; the greedy
    // reordering brings them back to at most the natural count.
    for (size_t n : { 256, 1024, 4096 }) {
        auto natural = butterfly_network::spectral(n, spectral_kind::walsh, true);
        const size_t best = natural.bank_conflicts();
        natural.reorder_for_banks();
        BOOST_CHECK_EQUAL(natural.bank_conflicts(), best);

        auto shuffled = butterfly_network::spectral(n, spectral_kind::walsh, true);
        std::mt19937 rng(5);
        for (auto& stage : shuffled.stages)
            std::shuffle(stage.begin(), stage.end(), rng);
        const size_t before = shuffled.bank_conflicts();
        shuffled.reorder_for_banks();
        const size_t after = shuffled.bank_conflicts();
        BOOST_TEST_MESSAGE("walsh " << n << ": natural " << best << ", shuffled "
                                    << before << " -> reordered " << after);
        BOOST_CHECK_GT(before, best);
        BOOST_CHECK_LE(after, best);
    }
}
