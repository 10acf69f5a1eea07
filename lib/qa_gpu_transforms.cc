/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// GPU transforms against their CPU twins and against definitions. Label gpu:
// without a CUDA device every case is skipped (and says so).
// GPULDPC_GPU_TEST_SMALL=1 shrinks the batches, for compute-sanitizer runs.
// Every case makes its engines with gpu_tuning::from_environment(), so that
// under GPULDPC_SHARED_MEMORY_LIMIT it runs the kernel variants that fit the
// cap; shared_memory_limit_routes_every_size sets caps itself.

#include "block_common.h"
#include "qa_helpers.h"
#include <gnuradio/gpuldpc/engine/butterfly_network.h>
#include <gnuradio/gpuldpc/engine/device.h>
#include <gnuradio/gpuldpc/engine/gpu_transforms.h>
#include <gnuradio/gpuldpc/engine/gpu_tuning.h>
#include <gnuradio/gpuldpc/engine/transforms.h>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <random>
#include <thread>
#include <utility>
#ifdef GPULDPC_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

using namespace gr::gpuldpc;
namespace utf = boost::unit_test;

namespace {

using qa::gpu_present;

using qa::small;

double max_abs(const std::vector<float>& v)
{
    double m = 0;
    for (float x : v)
        m = std::max(m, double(std::fabs(x)));
    return m;
}

} // namespace

BOOST_AUTO_TEST_CASE(fwht_gpu_equals_cpu, *utf::precondition(gpu_present()))
{
    const gpu_tuning tuning = gpu_tuning::from_environment();
    std::mt19937 rng(1);
    std::normal_distribution<float> gauss;
    size_t exact = 0, cases = 0;
    for (unsigned k = 1; k <= 15; ++k) {
        const size_t n = size_t(1) << k;
        const size_t large =
            std::max<size_t>(1, (small() ? (size_t(1) << 14) : (size_t(1) << 21)) / n);
        for (size_t batch : { size_t(1), size_t(7), size_t(129), large }) {
            std::vector<float> in(batch * n);
            for (auto& x : in)
                x = gauss(rng);
            for (auto norm : { fwht_normalization::none,
                               fwht_normalization::inverse_n,
                               fwht_normalization::orthonormal })
                for (auto order : { fwht_ordering::natural, fwht_ordering::sequency }) {
                    const fwht_cpu cpu(n, norm, order);
                    // small chunks exercise the two-stream pipeline and its tail
                    fwht_cuda gpu(n, norm, order, 0, batch > 64 ? 53 : 0, tuning);
                    std::vector<float> ref(in.size()), got(in.size(), NAN);
                    cpu.execute(in.data(), ref.data(), batch);
                    gpu.execute(in.data(), got.data(), batch);
                    double err = 0;
                    for (size_t i = 0; i < ref.size(); ++i)
                        err = std::max(err, double(std::fabs(ref[i] - got[i])));
                    // same butterflies in the same order: equal up to rounding
                    // of a few ulp of the largest coefficient
                    BOOST_REQUIRE_MESSAGE(err <= 1e-6 * max_abs(ref),
                                          "n=" << n << " batch=" << batch
                                               << " err=" << err);
                    exact += ref == got;
                    ++cases;
                }
        }
    }
    std::cout << "fwht: " << exact << " of " << cases
              << " GPU results bit-identical to the CPU" << std::endl;
}

#ifdef GPULDPC_HAVE_CUDA
// Device-resident data, in place and out of place: large vectors are split
// across blocks only when in and out do not overlap.
BOOST_AUTO_TEST_CASE(fwht_gpu_device_memory_in_place, *utf::precondition(gpu_present()))
{
    const gpu_tuning tuning = gpu_tuning::from_environment();
    std::mt19937 rng(2);
    std::normal_distribution<float> gauss;
    for (unsigned k : { 13u, 14u, 15u }) {
        const size_t n = size_t(1) << k;
        for (size_t batch : { size_t(1), size_t(3), size_t(33) }) {
            std::vector<float> in(batch * n);
            for (auto& x : in)
                x = gauss(rng);
            const fwht_cpu cpu(
                n, fwht_normalization::orthonormal, fwht_ordering::natural);
            std::vector<float> ref(in.size());
            cpu.execute(in.data(), ref.data(), batch);
            fwht_cuda gpu(
                n, fwht_normalization::orthonormal, fwht_ordering::natural, 0, 0, tuning);
            float* d = nullptr;
            const size_t bytes = in.size() * sizeof(float);
            BOOST_REQUIRE(cudaMalloc(reinterpret_cast<void**>(&d), 2 * bytes) ==
                          cudaSuccess);
            for (bool in_place : { true, false }) {
                BOOST_REQUIRE(cudaMemcpy(d, in.data(), bytes, cudaMemcpyHostToDevice) ==
                              cudaSuccess);
                // pageable H2D copies may return before the data lands, and the
                // engines' streams do not wait for the legacy default stream
                BOOST_REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
                float* out = in_place ? d : d + in.size();
                gpu.execute_device(d, out, batch, nullptr);
                BOOST_REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
                std::vector<float> got(in.size(), NAN);
                BOOST_REQUIRE(
                    cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost) ==
                    cudaSuccess);
                double err = 0;
                for (size_t i = 0; i < ref.size(); ++i)
                    err = std::max(err, double(std::fabs(ref[i] - got[i])));
                BOOST_CHECK_MESSAGE(err <= 1e-6 * max_abs(ref),
                                    "n=" << n << " batch=" << batch
                                         << " in_place=" << in_place << " err=" << err);
            }
            cudaFree(d);
        }
    }
}
#endif

namespace {

// Definition: X[k] = sum_j x[j] e^{-+2 pi i jk/n}, with fft_vcc's window and shift.
std::vector<std::complex<double>> reference_fft(const std::complex<float>* x,
                                                size_t n,
                                                bool forward,
                                                const std::vector<float>& window,
                                                bool shift)
{
    std::vector<std::complex<double>> in(n), out(n);
    const size_t in_rot = (!forward && shift) ? n / 2 : 0;
    for (size_t k = 0; k < n; ++k) {
        const size_t src = (k + in_rot) % n;
        in[k] =
            std::complex<double>(x[src]) * (window.empty() ? 1.0 : double(window[src]));
    }
    const double sign = forward ? -1.0 : 1.0;
    std::vector<std::complex<double>> spec(n);
    for (size_t k = 0; k < n; ++k) {
        std::complex<double> acc = 0;
        for (size_t j = 0; j < n; ++j)
            acc += in[j] *
                   std::polar(1.0, sign * 2.0 * M_PI * double((j * k) % n) / double(n));
        spec[k] = acc;
    }
    const size_t out_rot = (forward && shift) ? (n + 1) / 2 : 0;
    for (size_t k = 0; k < n; ++k)
        out[k] = spec[(k + out_rot) % n];
    return out;
}

} // namespace

BOOST_AUTO_TEST_CASE(fft_gpu_matches_definition, *utf::precondition(gpu_present()))
{
    const gpu_tuning tuning = gpu_tuning::from_environment();
    std::mt19937 rng(2);
    std::normal_distribution<float> gauss;
    for (size_t n : { 1, 2, 7, 64, 1000, 1024 }) {
        std::vector<float> hann(n);
        for (size_t i = 0; i < n; ++i)
            hann[i] = float(0.5 - 0.5 * std::cos(2 * M_PI * double(i) / double(n)));
        for (size_t batch : { 1, 7, 40 }) {
            std::vector<std::complex<float>> in(batch * n);
            for (auto& x : in)
                x = { gauss(rng), gauss(rng) };
            for (bool forward : { true, false })
                for (bool shift : { false, true })
                    for (bool windowed : { false, true }) {
                        const std::vector<float> w =
                            windowed ? hann : std::vector<float>();
                        fft_cuda gpu(n, forward, w, shift, 0, batch > 8 ? 8 : 0, tuning);
                        std::vector<std::complex<float>> got(in.size());
                        gpu.execute(in.data(), got.data(), batch);
                        for (size_t v = 0; v < batch; v += (batch > 8 ? 13 : 1)) {
                            const auto ref =
                                reference_fft(&in[v * n], n, forward, w, shift);
                            double err = 0, scale = 1e-30;
                            for (size_t k = 0; k < n; ++k) {
                                err = std::max(err,
                                               std::abs(ref[k] - std::complex<double>(
                                                                     got[v * n + k])));
                                scale = std::max(scale, std::abs(ref[k]));
                            }
                            // float FFT: error ~ eps * log2(n) * |X|max
                            BOOST_REQUIRE_MESSAGE(
                                err <= 1e-5 * (1 + std::log2(double(n))) * scale,
                                "n=" << n << " fwd=" << forward << " shift=" << shift
                                     << " win=" << windowed << " err=" << err);
                        }
                    }
        }
    }
}

BOOST_AUTO_TEST_CASE(fft_gpu_large_sizes_spot_checked, *utf::precondition(gpu_present()))
{
    const gpu_tuning tuning = gpu_tuning::from_environment();
    // every power of two up to 32768, batch 1, odd and larger; 24 random bins
    // of every vector against the definition (O(n) each)
    std::mt19937 rng(9);
    std::normal_distribution<float> gauss;
    for (unsigned k = 1; k <= 15; ++k) {
        const size_t n = size_t(1) << k;
        for (size_t batch : { size_t(1), size_t(3), std::max<size_t>(2, 65536 / n) }) {
            std::vector<std::complex<float>> in(batch * n), out(batch * n);
            for (auto& x : in)
                x = { gauss(rng), gauss(rng) };
            for (bool forward : { true, false }) {
                fft_cuda(n, forward, {}, false, 0, 0, tuning)
                    .execute(in.data(), out.data(), batch);
                for (size_t v = 0; v < batch; v += std::max<size_t>(1, batch / 4))
                    for (int t = 0; t < 24; ++t) {
                        const size_t bin = rng() % n;
                        std::complex<double> acc = 0;
                        for (size_t j = 0; j < n; ++j)
                            acc += std::complex<double>(in[v * n + j]) *
                                   std::polar(1.0,
                                              (forward ? -2.0 : 2.0) * M_PI *
                                                  double((j * bin) % n) / double(n));
                        // random data: |X| ~ sqrt(n); float error ~ eps log2(n) sqrt(n)
                        BOOST_REQUIRE_MESSAGE(
                            std::abs(acc - std::complex<double>(out[v * n + bin])) <=
                                2e-5 * (1 + double(k)) * std::sqrt(double(n)) * 4,
                            "n=" << n << " bin=" << bin);
                    }
            }
        }
    }
}

namespace {

// Bin `bin` of reference_fft's output, in O(n).
std::complex<double> reference_bin(const std::complex<float>* x,
                                   size_t n,
                                   bool forward,
                                   const std::vector<float>& window,
                                   bool shift,
                                   size_t bin)
{
    const size_t in_rot = (!forward && shift) ? n / 2 : 0;
    const size_t out_rot = (forward && shift) ? (n + 1) / 2 : 0;
    const size_t b = (bin + out_rot) % n;
    std::complex<double> acc = 0;
    for (size_t j = 0; j < n; ++j) {
        const size_t src = (j + in_rot) % n;
        acc +=
            std::complex<double>(x[src]) * (window.empty() ? 1.0 : double(window[src])) *
            std::polar(1.0,
                       (forward ? -2.0 : 2.0) * M_PI * double((j * b) % n) / double(n));
    }
    return acc;
}

} // namespace

BOOST_AUTO_TEST_CASE(fft_gpu_window_and_shift_all_powers_of_two,
                     *utf::precondition(gpu_present()))
{
    const gpu_tuning tuning = gpu_tuning::from_environment();
    // the one-pass kernel with window and shift fused (n = 32 ... 16384) and
    // the cuFFT path around it (16, 32768): 24 random bins of every checked
    // vector against the definition
    std::mt19937 rng(11);
    std::normal_distribution<float> gauss;
    for (unsigned k = 4; k <= 15; ++k) {
        const size_t n = size_t(1) << k;
        std::vector<float> blackman(n);
        for (size_t i = 0; i < n; ++i) {
            const double a = 2 * M_PI * double(i) / double(n - 1);
            blackman[i] = float(0.42 - 0.5 * std::cos(a) + 0.08 * std::cos(2 * a));
        }
        for (size_t batch :
             { size_t(1), size_t(3), 2 * std::max<size_t>(2, 32768 / n) + 1 }) {
            std::vector<std::complex<float>> in(batch * n);
            for (auto& x : in)
                x = { gauss(rng), gauss(rng) };
            for (bool forward : { true, false })
                for (int variant = 0; variant < 3; ++variant) {
                    const bool windowed = variant != 2, shift = variant != 1;
                    const std::vector<float> w =
                        windowed ? blackman : std::vector<float>();
                    fft_cuda gpu(n, forward, w, shift, 0, batch > 8 ? 5 : 0, tuning);
                    // the one-pass kernel wherever a variant fits the limit
                    if (k >= 5 && k <= 14 && gpu.shared_memory_bytes() > 0)
                        BOOST_CHECK_EQUAL(gpu.extra_passes(), 0);
                    BOOST_CHECK_LE(gpu.shared_memory_bytes(), gpu.shared_memory_limit());
                    std::vector<std::complex<float>> out(in.size());
                    gpu.execute(in.data(), out.data(), batch);
                    for (size_t v = 0; v < batch; v += std::max<size_t>(1, batch / 4))
                        for (int t = 0; t < 24; ++t) {
                            const size_t bin = rng() % n;
                            const auto ref =
                                reference_bin(&in[v * n], n, forward, w, shift, bin);
                            BOOST_REQUIRE_MESSAGE(
                                std::abs(ref - std::complex<double>(out[v * n + bin])) <=
                                    2e-5 * (1 + double(k)) * std::sqrt(double(n)) * 4,
                                "n=" << n << " batch=" << batch << " fwd=" << forward
                                     << " win=" << windowed << " shift=" << shift
                                     << " bin=" << bin);
                        }
                }
        }
    }
}

#ifdef GPULDPC_HAVE_CUDA
BOOST_AUTO_TEST_CASE(fft_gpu_device_memory_in_place, *utf::precondition(gpu_present()))
{
    const gpu_tuning tuning = gpu_tuning::from_environment();
    // in place, 16384 points leave the split kernel for cuFFT; both agree
    std::mt19937 rng(12);
    std::normal_distribution<float> gauss;
    for (unsigned k : { 10u, 13u, 14u }) {
        const size_t n = size_t(1) << k, batch = 9;
        std::vector<float> hann(n);
        for (size_t i = 0; i < n; ++i)
            hann[i] = float(0.5 - 0.5 * std::cos(2 * M_PI * double(i) / double(n)));
        std::vector<std::complex<float>> in(batch * n);
        for (auto& x : in)
            x = { gauss(rng), gauss(rng) };
        for (bool forward : { true, false }) {
            fft_cuda gpu(n, forward, hann, true, 0, 0, tuning);
            std::complex<float>* d = nullptr;
            const size_t bytes = in.size() * sizeof(in[0]);
            BOOST_REQUIRE(cudaMalloc(reinterpret_cast<void**>(&d), 2 * bytes) ==
                          cudaSuccess);
            std::vector<std::complex<float>> got[2];
            for (int in_place = 0; in_place < 2; ++in_place) {
                BOOST_REQUIRE(cudaMemcpy(d, in.data(), bytes, cudaMemcpyHostToDevice) ==
                              cudaSuccess);
                BOOST_REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
                auto* out = in_place ? d : d + in.size();
                gpu.execute_device(d, out, batch, nullptr);
                BOOST_REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
                got[in_place].resize(in.size());
                BOOST_REQUIRE(cudaMemcpy(got[in_place].data(),
                                         out,
                                         bytes,
                                         cudaMemcpyDeviceToHost) == cudaSuccess);
            }
            cudaFree(d);
            for (size_t v = 0; v < batch; v += 4)
                for (int t = 0; t < 16; ++t) {
                    const size_t bin = rng() % n;
                    const auto ref =
                        reference_bin(&in[v * n], n, forward, hann, true, bin);
                    for (int in_place = 0; in_place < 2; ++in_place)
                        BOOST_REQUIRE_MESSAGE(
                            std::abs(ref -
                                     std::complex<double>(got[in_place][v * n + bin])) <=
                                2e-5 * (1 + double(k)) * std::sqrt(double(n)) * 4,
                            "n=" << n << " fwd=" << forward << " in_place=" << in_place
                                 << " bin=" << bin);
                }
        }
    }
}
#endif

BOOST_AUTO_TEST_CASE(butterfly_kernel_equals_cpu_transforms,
                     *utf::precondition(gpu_present()))
{
    const gpu_tuning tuning = gpu_tuning::from_environment();
    // same butterflies, same order, no fused multiply-add: bit-identical for
    // int32 and float
    std::mt19937 rng(3);
    for (unsigned k = 1; k <= 15; ++k) {
        const size_t n = size_t(1) << k;
        const size_t large =
            std::max<size_t>(1, (small() ? (size_t(1) << 13) : (size_t(1) << 19)) / n);
        for (size_t batch : { size_t(1), size_t(5), large }) {
            std::vector<int32_t> xi(batch * n);
            std::vector<float> xf(batch * n);
            for (size_t i = 0; i < xi.size(); ++i) {
                xi[i] = int32_t(rng() % 2001) - 1000;
                xf[i] = float(xi[i]) / 7.0f;
            }
            for (auto kind : { spectral_kind::walsh,
                               spectral_kind::reed_muller,
                               spectral_kind::arithmetic,
                               spectral_kind::haar })
                for (bool forward : { true, false }) {
                    if (k > 10 && batch != 1 && kind != spectral_kind::walsh)
                        continue; // large sizes: one kind is enough beyond batch 1
                    const auto net = butterfly_network::spectral(n, kind, forward);
                    spectral_transform_cpu<int32_t> ci(n, kind, forward);
                    spectral_transform_cpu<float> cf(n, kind, forward);
                    std::vector<int32_t> ri(xi.size()), gi(xi.size());
                    std::vector<float> rf(xf.size()), gf(xf.size());
                    ci.execute(xi.data(), ri.data(), batch);
                    cf.execute(xf.data(), rf.data(), batch);
                    butterfly_cuda<int32_t>(net, 0, true, batch > 64 ? 61 : 0, tuning)
                        .execute(xi.data(), gi.data(), batch);
                    butterfly_cuda<float>(net, 0, k % 2 == 0, 0, tuning)
                        .execute(xf.data(), gf.data(), batch);
                    BOOST_REQUIRE_MESSAGE(gi == ri,
                                          "int32 n=" << n << " batch=" << batch
                                                     << " kind=" << int(kind)
                                                     << " fwd=" << forward);
                    BOOST_REQUIRE_MESSAGE(gf == rf,
                                          "float n=" << n << " batch=" << batch
                                                     << " kind=" << int(kind)
                                                     << " fwd=" << forward);
                }
        }
    }
    // the radix-2 FFT network against the definition
    for (size_t n : { 2, 64, 1024 }) {
        std::normal_distribution<float> g;
        std::vector<std::complex<float>> x(3 * n), y(3 * n);
        for (auto& v : x)
            v = { g(rng), g(rng) };
        butterfly_cuda<std::complex<float>>(
            butterfly_network::fft(n, true), 0, true, 0, tuning)
            .execute(x.data(), y.data(), 3);
        for (size_t v = 0; v < 3; ++v) {
            const auto ref = reference_fft(&x[v * n], n, true, {}, false);
            double err = 0, scale = 1e-30;
            for (size_t i = 0; i < n; ++i) {
                err =
                    std::max(err, std::abs(ref[i] - std::complex<double>(y[v * n + i])));
                scale = std::max(scale, std::abs(ref[i]));
            }
            BOOST_REQUIRE_MESSAGE(err <= 1e-5 * (1 + std::log2(double(n))) * scale,
                                  "fft n=" << n);
        }
    }
}

BOOST_AUTO_TEST_CASE(device_selection, *utf::precondition(gpu_present()))
{
    const size_t count = cuda_devices().size();
    BOOST_CHECK_EQUAL(select_cuda_device("cuda"), 0);
    BOOST_CHECK_EQUAL(select_cuda_device("auto"), 0);
    BOOST_CHECK_EQUAL(select_cuda_device("cpu"), -1);
    BOOST_CHECK_THROW(select_cuda_device("cuda:" + std::to_string(count)),
                      std::runtime_error);
    std::cout << "device: "
              << fwht_cuda(8,
                           fwht_normalization::none,
                           fwht_ordering::natural,
                           0,
                           0,
                           gpu_tuning::from_environment())
                     .device_name()
              << std::endl;
}

BOOST_AUTO_TEST_CASE(without_gpu_selection_is_cpu_or_an_error)
{
    if (!cuda_devices().empty())
        return; // covered above
    BOOST_CHECK_EQUAL(select_cuda_device("auto"), -1);
    BOOST_CHECK_THROW(select_cuda_device("cuda"), std::runtime_error);
    BOOST_CHECK_THROW(select_cuda_device("gpu"), std::invalid_argument);
}

namespace {

// Sets GPULDPC_SHARED_MEMORY_LIMIT for the lifetime of the object (for
// gpu_tuning::from_environment() to read) and restores the value it had.
class env_cap
{
public:
    explicit env_cap(const char* value)
    {
        if (const char* old = std::getenv(kName))
            d_old = old;
        if (value)
            setenv(kName, value, 1);
        else
            unsetenv(kName);
    }
    ~env_cap()
    {
        if (d_old)
            setenv(kName, d_old->c_str(), 1);
        else
            unsetenv(kName);
    }

private:
    static constexpr const char* kName = "GPULDPC_SHARED_MEMORY_LIMIT";
    std::optional<std::string> d_old;
};

template <typename T>
double max_diff(const std::vector<T>& a, const std::vector<T>& b)
{
    double err = 0;
    for (size_t i = 0; i < a.size(); ++i)
        err = std::max(err, double(std::abs(a[i] - b[i])));
    return err;
}

} // namespace

BOOST_AUTO_TEST_CASE(shared_memory_limit_routes_every_size,
                     *utf::precondition(gpu_present()))
{
    // Under caps of 48, 64 (sm_75) and 99 KiB (sm_86/sm_89) and none, every size
    // of every engine runs on the GPU, within the cap, with the CPU's results
    // (the FFT's against the definition on spot-checked bins).
    const gpu_tuning base = gpu_tuning::from_environment();
    const size_t device_limit = [&base] {
        gpu_tuning none = base;
        none.shared_memory_limit = 0;
        return cuda_shared_memory_limit(0, none);
    }();
    std::mt19937 rng(21);
    std::normal_distribution<float> gauss;
    const std::pair<const char*, size_t> caps[] = { { "48K", size_t(48) << 10 },
                                                    { "65536", size_t(65536) },
                                                    { "99KiB", size_t(99) << 10 },
                                                    { nullptr, 0 } };
    for (const auto& [cap, cap_bytes] : caps) {
        gpu_tuning tuning = base;
        tuning.shared_memory_limit = cap_bytes;
        const size_t limit = cuda_shared_memory_limit(0, tuning);
        const size_t expected =
            cap ? std::min(device_limit,
                           std::string(cap) == "65536" ? size_t(65536)
                                                       : size_t(std::atoi(cap)) * 1024)
                : device_limit;
        BOOST_REQUIRE_EQUAL(limit, expected);
        const std::string label = cap ? cap : "none";
        for (unsigned k = 1; k <= 15; ++k) {
            const size_t n = size_t(1) << k, batch = 3;
            std::vector<float> in(batch * n);
            for (auto& x : in)
                x = gauss(rng);
            for (auto order : { fwht_ordering::natural, fwht_ordering::sequency }) {
                const fwht_cpu cpu(n, fwht_normalization::none, order);
                fwht_cuda gpu(n, fwht_normalization::none, order, 0, 0, tuning);
                BOOST_CHECK_EQUAL(gpu.shared_memory_limit(), limit);
                BOOST_CHECK_LE(gpu.shared_memory_bytes(), limit);
                std::vector<float> ref(in.size()), got(in.size(), NAN);
                cpu.execute(in.data(), ref.data(), batch);
                gpu.execute(in.data(), got.data(), batch);
                BOOST_CHECK_MESSAGE(max_diff(ref, got) <= 1e-6 * max_abs(ref),
                                    "fwht cap=" << label << " n=" << n << " "
                                                << gpu.variant());
                if (k >= 13)
                    std::cout << "cap " << label << ": fwht n=" << n
                              << (order == fwht_ordering::sequency ? " sequency: "
                                                                   : " natural: ")
                              << gpu.variant() << std::endl;
            }
        }
        for (unsigned k = 5; k <= 14; ++k) {
            const size_t n = size_t(1) << k, batch = 5;
            std::vector<float> hann(n);
            for (size_t i = 0; i < n; ++i)
                hann[i] = float(0.5 - 0.5 * std::cos(2 * M_PI * double(i) / double(n)));
            std::vector<std::complex<float>> in(batch * n), out(in.size());
            for (auto& x : in)
                x = { gauss(rng), gauss(rng) };
            for (bool windowed : { false, true }) {
                const std::vector<float> w = windowed ? hann : std::vector<float>();
                fft_cuda gpu(n, true, w, true, 0, 0, tuning);
                BOOST_CHECK_EQUAL(gpu.shared_memory_limit(), limit);
                BOOST_CHECK_LE(gpu.shared_memory_bytes(), limit);
                gpu.execute(in.data(), out.data(), batch);
                for (size_t v = 0; v < batch; v += 2)
                    for (int t = 0; t < 8; ++t) {
                        const size_t bin = rng() % n;
                        const auto ref = reference_bin(&in[v * n], n, true, w, true, bin);
                        BOOST_CHECK_MESSAGE(
                            std::abs(ref - std::complex<double>(out[v * n + bin])) <=
                                2e-5 * (1 + double(k)) * std::sqrt(double(n)) * 4,
                            "fft cap=" << label << " n=" << n << " " << gpu.variant());
                    }
                if (k >= 12)
                    std::cout << "cap " << label << ": fft n=" << n
                              << (windowed ? " window+shift: " : " shift: ")
                              << gpu.variant() << std::endl;
            }
        }
        for (unsigned k : { 12u, 13u, 14u, 15u }) {
            const size_t n = size_t(1) << k, batch = 3;
            std::vector<float> xf(batch * n), rf(xf.size()), gf(xf.size());
            for (auto& x : xf)
                x = float(int(rng() % 2001) - 1000) / 7.0f;
            const auto net = butterfly_network::spectral(n, spectral_kind::walsh, true);
            spectral_transform_cpu<float>(n, spectral_kind::walsh, true)
                .execute(xf.data(), rf.data(), batch);
            butterfly_cuda<float> gpu(net, 0, true, 0, tuning);
            BOOST_CHECK_EQUAL(gpu.shared_memory_limit(), limit);
            BOOST_CHECK_LE(gpu.shared_memory_bytes(), limit);
            gpu.execute(xf.data(), gf.data(), batch);
            BOOST_CHECK_MESSAGE(gf == rf,
                                "butterfly float cap=" << label << " n=" << n << " "
                                                       << gpu.variant());
            if (k <= 14) {
                std::vector<std::complex<float>> xc(batch * n), yc(xc.size());
                for (auto& x : xc)
                    x = { gauss(rng), gauss(rng) };
                butterfly_cuda<std::complex<float>> fft(
                    butterfly_network::fft(n, true), 0, true, 0, tuning);
                BOOST_CHECK_LE(fft.shared_memory_bytes(), limit);
                fft.execute(xc.data(), yc.data(), batch);
                for (int t = 0; t < 8; ++t) {
                    const size_t bin = rng() % n;
                    const auto ref = reference_bin(&xc[0], n, true, {}, false, bin);
                    BOOST_CHECK_MESSAGE(std::abs(ref - std::complex<double>(yc[bin])) <=
                                            2e-5 * (1 + double(k)) *
                                                std::sqrt(double(n)) * 4,
                                        "butterfly complex cap=" << label << " n=" << n
                                                                 << " " << fft.variant());
                }
            }
            std::cout << "cap " << label << ": butterfly float n=" << n << ": "
                      << gpu.variant() << std::endl;
        }
    }
}

BOOST_AUTO_TEST_CASE(shared_memory_limit_variable_is_parsed,
                     *utf::precondition(gpu_present()))
{
    // GPULDPC_SHARED_MEMORY_LIMIT as gpu_tuning::from_environment() reads it
    const size_t device_limit = [] {
        env_cap none(nullptr);
        return cuda_shared_memory_limit(0, gpu_tuning::from_environment());
    }();
    {
        env_cap set("64k");
        BOOST_CHECK_EQUAL(cuda_shared_memory_limit(0, gpu_tuning::from_environment()),
                          std::min(device_limit, size_t(65536)));
    }
    // the caps shared_memory_limit_routes_every_size sets
    for (const auto& [value, bytes] :
         { std::pair<const char*, size_t>{ "48K", size_t(48) << 10 },
           std::pair<const char*, size_t>{ "65536", size_t(65536) },
           std::pair<const char*, size_t>{ "99KiB", size_t(99) << 10 } }) {
        env_cap set(value);
        BOOST_CHECK_EQUAL(cuda_shared_memory_limit(0, gpu_tuning::from_environment()),
                          std::min(device_limit, bytes));
    }
    {
        env_cap set("1000"); // below what every device gives: 48 KiB
        BOOST_CHECK_EQUAL(cuda_shared_memory_limit(0, gpu_tuning::from_environment()),
                          size_t(48) << 10);
    }
    {
        env_cap set("100000000");
        BOOST_CHECK_EQUAL(cuda_shared_memory_limit(0, gpu_tuning::from_environment()),
                          device_limit);
    }
    for (const char* bad : { "64 KiB", "64M", "-1", "KiB", "0x10000" }) {
        env_cap set(bad);
        BOOST_CHECK_THROW(cuda_shared_memory_limit(0, gpu_tuning::from_environment()),
                          std::invalid_argument);
        BOOST_CHECK_THROW(fwht_cuda(64,
                                    fwht_normalization::none,
                                    fwht_ordering::natural,
                                    0,
                                    0,
                                    gpu_tuning::from_environment()),
                          std::invalid_argument);
    }
}

#ifdef GPULDPC_HAVE_CUDA
BOOST_AUTO_TEST_CASE(fwht_misaligned_and_in_place_on_device,
                     *utf::precondition(gpu_present()))
{
    // n = 2 on pointers 8 bytes off a 16-byte boundary (float2 path), and every
    // size in place (execute_device(d, d)) in both orders, against the CPU
    const gpu_tuning tuning = gpu_tuning::from_environment();
    std::mt19937 rng(22);
    std::normal_distribution<float> gauss;
    float* d = nullptr;
    const size_t room = (size_t(1) << 17) + 64;
    BOOST_REQUIRE(cudaMalloc(reinterpret_cast<void**>(&d), 2 * room * sizeof(float)) ==
                  cudaSuccess);
    for (size_t batch : { size_t(1), size_t(7), size_t(1000) }) {
        std::vector<float> in(2 * batch), ref(in.size()), got(in.size());
        for (auto& x : in)
            x = gauss(rng);
        const fwht_cpu cpu(2, fwht_normalization::orthonormal, fwht_ordering::natural);
        cpu.execute(in.data(), ref.data(), batch);
        fwht_cuda gpu(
            2, fwht_normalization::orthonormal, fwht_ordering::natural, 0, 0, tuning);
        float* src = d + 2;        // 8 bytes past the allocation's alignment
        float* dst = d + room + 6; // 24 bytes past
        for (bool in_place : { false, true }) {
            float* out = in_place ? src : dst;
            BOOST_REQUIRE(cudaMemcpy(src,
                                     in.data(),
                                     in.size() * sizeof(float),
                                     cudaMemcpyHostToDevice) == cudaSuccess);
            BOOST_REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
            gpu.execute_device(src, out, batch, nullptr);
            BOOST_REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
            BOOST_REQUIRE(cudaMemcpy(got.data(),
                                     out,
                                     got.size() * sizeof(float),
                                     cudaMemcpyDeviceToHost) == cudaSuccess);
            BOOST_CHECK_MESSAGE(max_diff(ref, got) <= 1e-6 * max_abs(ref),
                                "n=2 batch=" << batch << " in_place=" << in_place);
        }
    }
    for (unsigned k = 1; k <= 15; ++k) {
        const size_t n = size_t(1) << k, batch = std::max<size_t>(1, 4096 / n) + 1;
        std::vector<float> in(batch * n), ref(in.size()), got(in.size());
        for (auto& x : in)
            x = gauss(rng);
        for (auto order : { fwht_ordering::natural, fwht_ordering::sequency }) {
            fwht_cpu(n, fwht_normalization::inverse_n, order)
                .execute(in.data(), ref.data(), batch);
            fwht_cuda gpu(n, fwht_normalization::inverse_n, order, 0, 0, tuning);
            BOOST_REQUIRE(cudaMemcpy(d,
                                     in.data(),
                                     in.size() * sizeof(float),
                                     cudaMemcpyHostToDevice) == cudaSuccess);
            BOOST_REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
            gpu.execute_device(d, d, batch, nullptr);
            BOOST_REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
            BOOST_REQUIRE(cudaMemcpy(got.data(),
                                     d,
                                     got.size() * sizeof(float),
                                     cudaMemcpyDeviceToHost) == cudaSuccess);
            BOOST_CHECK_MESSAGE(
                max_diff(ref, got) <= 1e-6 * max_abs(ref),
                "in place n=" << n << " sequency=" << (order == fwht_ordering::sequency));
        }
    }
    // in and out overlapping without being equal is an invalid argument
    fwht_cuda gpu(1024, fwht_normalization::none, fwht_ordering::natural, 0, 0, tuning);
    BOOST_CHECK_THROW(gpu.execute_device(d, d + 1024, 4, nullptr), std::invalid_argument);
    cudaFree(d);
}

BOOST_AUTO_TEST_CASE(engines_restore_the_callers_device,
                     *utf::precondition(gpu_present()))
{
    // Every public call makes the engine's device current only for its
    // duration: the calling thread's device is the same before and after
    // construction, execution and destruction, also when another thread
    // destroys the engine. With one GPU both devices are 0.
    const gpu_tuning tuning = gpu_tuning::from_environment();
    const int count = int(cuda_devices().size());
    const int engine_device = count - 1, caller_device = 0;
    auto current = [] {
        int d = -1;
        BOOST_REQUIRE(cudaGetDevice(&d) == cudaSuccess);
        return d;
    };
    BOOST_REQUIRE(cudaSetDevice(caller_device) == cudaSuccess);
    auto fwht = std::make_unique<fwht_cuda>(
        64, fwht_normalization::none, fwht_ordering::natural, engine_device, 0, tuning);
    auto fft = std::make_unique<fft_cuda>(
        4096, true, std::vector<float>(4096, 1.0f), true, engine_device, 0, tuning);
    auto bf = std::make_unique<butterfly_cuda<float>>(
        butterfly_network::spectral(256, spectral_kind::haar, true),
        engine_device,
        true,
        0,
        tuning);
    BOOST_CHECK_EQUAL(current(), caller_device);
    std::vector<float> x(64 * 8, 1.0f), y(x.size());
    std::vector<std::complex<float>> cx(4096 * 2, 1.0f), cy(cx.size());
    fwht->execute(x.data(), y.data(), 8);
    fft->execute(cx.data(), cy.data(), 2);
    bf->execute(x.data(), y.data(), 2);
    BOOST_CHECK_EQUAL(current(), caller_device);
    int other_before = -1, other_after = -1;
    std::thread destroyer([&] {
        cudaSetDevice(caller_device);
        cudaGetDevice(&other_before);
        fwht.reset();
        fft.reset();
        bf.reset();
        cudaGetDevice(&other_after);
    });
    destroyer.join();
    BOOST_CHECK_EQUAL(other_before, caller_device);
    BOOST_CHECK_EQUAL(other_after, caller_device);
    BOOST_CHECK_EQUAL(current(), caller_device);
}
#endif

namespace {
struct fake_engine {
    std::string device_name() const { return "fake"; }
};
} // namespace

BOOST_AUTO_TEST_CASE(only_cuda_errors_fall_back_to_the_cpu)
{
    // run_on_gpu_or_cpu: a cuda_error drops the engine and redoes the call on
    // the CPU; any other exception is a bug and propagates, the engine stays.
    auto logger = std::make_shared<gr::logger>("qa_fallback");
    auto engine = std::make_unique<fake_engine>();
    int cpu_calls = 0;
    BOOST_CHECK_THROW(run_on_gpu_or_cpu(
                          engine,
                          logger,
                          [](fake_engine&) { throw std::invalid_argument("bad size"); },
                          [&] { ++cpu_calls; }),
                      std::invalid_argument);
    BOOST_CHECK(engine != nullptr);
    BOOST_CHECK_THROW(run_on_gpu_or_cpu(
                          engine,
                          logger,
                          [](fake_engine&) { throw std::logic_error("bug"); },
                          [&] { ++cpu_calls; }),
                      std::logic_error);
    BOOST_CHECK(engine != nullptr);
    BOOST_CHECK_EQUAL(cpu_calls, 0);
    run_on_gpu_or_cpu(
        engine,
        logger,
        [](fake_engine&) { throw cuda_error("qa: cudaErrorLaunchFailure", 719); },
        [&] { ++cpu_calls; });
    BOOST_CHECK(engine == nullptr);
    BOOST_CHECK_EQUAL(cpu_calls, 1);
    // choose_engine: a cuda_error while the engine is made means the CPU, for
    // device=auto and an explicit device alike; other errors propagate
    if (select_cuda_device("auto") >= 0) {
        for (const char* device : { "auto", "cuda" })
            BOOST_CHECK(!choose_engine<fake_engine>(device, logger, [](int) {
                throw cuda_error("qa: cudaErrorMemoryAllocation", 2);
                return std::make_unique<fake_engine>();
            }));
        BOOST_CHECK_THROW(
            choose_engine<fake_engine>("auto",
                                       logger,
                                       [](int) {
                                           throw std::invalid_argument("bad");
                                           return std::make_unique<fake_engine>();
                                       }),
            std::invalid_argument);
    }
}

BOOST_AUTO_TEST_CASE(gpu_buffer_floor_is_bounded_in_bytes)
{
    // about 8 MiB of items, at least 2; never more than max(8 MiB, 2 items)
    BOOST_CHECK_EQUAL(gpu_buffer_items(8), size_t(1) << 20);
    BOOST_CHECK_EQUAL(gpu_buffer_items(size_t(128) << 10), size_t(64));
    BOOST_CHECK_EQUAL(gpu_buffer_items(size_t(8) << 24), size_t(2)); // 2^24-point FFT
    for (size_t bytes = 1; bytes <= (size_t(1) << 30); bytes *= 3) {
        const size_t items = gpu_buffer_items(bytes);
        BOOST_CHECK_GE(items, size_t(2));
        BOOST_CHECK_LE(items * bytes, std::max(size_t(8) << 20, 2 * bytes));
    }
}
