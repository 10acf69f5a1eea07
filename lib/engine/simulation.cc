/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Compiled with -ffp-contract=off: the frames' arithmetic (sim_frame.h) must
// round as the device's does.

#include "common/sim_frame.h"
#include "sim_noise.h"
#include "simulation_worker.h"
#include <gnuradio/gpuldpc/engine/device.h>
#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <thread>
#include <vector>

namespace gr {
namespace gpuldpc {

sim_channel sim_channel::at(double ebn0_db, double rate)
{
    if (!std::isfinite(ebn0_db) || ebn0_db < -50.0 || ebn0_db > 100.0)
        throw std::invalid_argument("ebn0_db=" + std::to_string(ebn0_db) +
                                    " is out of range; allowed: -50 .. 100 dB");
    if (!(rate > 0.0 && rate <= 1.0))
        throw std::invalid_argument("rate=" + std::to_string(rate) +
                                    " is out of range; allowed: (0, 1]");
    const double var = 1.0 / (2.0 * rate * std::pow(10.0, ebn0_db / 10.0));
    return sim_channel{ float(std::sqrt(var)), float(-2.0 / var) };
}

namespace {

// Frame first + j * stride, j < count, drawn on the host: the same as the
// device's draw (sim_frame.h).
void draw_on_host(const ldpc_code& code,
                  uint64_t seed,
                  const sim_channel& ch,
                  uint64_t frame,
                  uint8_t* info,
                  uint8_t* codeword,
                  float* llr)
{
    const unsigned k = code.k(), q = code.q(), m = code.bits_per_symbol();
    for (unsigned b = 0; b * sim::info_per_block < k; ++b) {
        const sim::philox_out r = sim::draw(seed, frame, b, sim::info_stream);
        for (unsigned j = b * sim::info_per_block;
             j < std::min<unsigned>(k, (b + 1) * sim::info_per_block);
             ++j)
            info[j] = uint8_t(sim::info_symbol(r, j, q));
    }
    code.encode(info, codeword, 1);
    const auto& sent = code.transmitted_positions();
    const size_t bits = size_t(sent.size()) * m;
    // the transmitted symbols' bits, MSB first, a byte a bit
    thread_local std::vector<uint8_t> sent_bits;
    sent_bits.resize(bits);
    for (size_t t = 0; t < bits; ++t)
        sent_bits[t] = uint8_t((codeword[sent[t / m]] >> (m - 1 - t % m)) & 1u);
    // the noise in SIMD lanes where the CPU has fused multiply-adds
    detail::sim_bpsk_job job;
    job.seed = seed;
    job.frame = frame;
    job.sigma = ch.sigma;
    job.llr_gain = ch.llr_gain;
    job.bits = sent_bits.data();
    job.count = bits;
    job.llr = llr;
    if (!detail::sim_bpsk_llrs_simd(job))
        sim::bpsk_llrs(
            seed, frame, sent_bits.data(), 0, bits, ch.sigma, ch.llr_gain, llr);
}

// Bits of the decoder's output (unpacked or packed, MSB first) against the
// information symbols.
uint32_t count_bit_errors(
    const uint8_t* decoded, bool packed, const uint8_t* info, unsigned k, unsigned m)
{
    uint32_t errors = 0;
    for (unsigned j = 0; j < k; ++j)
        for (unsigned b = 0; b < m; ++b) {
            const size_t t = size_t(j) * m + b;
            const unsigned got =
                packed ? (decoded[t >> 3] >> (7 - (t & 7))) & 1u : decoded[t];
            errors += got != ((info[j] >> (m - 1 - b)) & 1u);
        }
    return errors;
}

class cpu_worker : public simulation::worker
{
public:
    explicit cpu_worker(batch_decoder::sptr decoder) : d_decoder(std::move(decoder)) {}

    void run(uint64_t seed,
             const sim_channel& ch,
             uint64_t first,
             uint64_t stride,
             size_t count,
             sim_frame_result* results) override
    {
        const ldpc_code& code = d_decoder->code();
        const size_t chunk = std::min<size_t>(count, preferred_batch());
        const size_t k = code.k(), nllr = d_decoder->llr_per_frame();
        const size_t nb = d_decoder->info_bytes_per_frame();
        d_info.resize(chunk * k);
        d_llr.resize(chunk * nllr);
        d_decoded.resize(chunk * nb);
        d_status.resize(chunk);
        for (size_t f0 = 0; f0 < count; f0 += chunk) {
            const size_t nf = std::min(chunk, count - f0);
            draw(seed, ch, first + f0 * stride, stride, nf, d_info.data(), d_llr.data());
            d_decoder->decode(d_llr.data(), nf, d_decoded.data(), d_status.data());
            const bool packed = d_decoder->config().pack_info_bits;
            for (size_t f = 0; f < nf; ++f) {
                sim_frame_result& r = results[f0 + f];
                r.bit_errors = count_bit_errors(&d_decoded[f * nb],
                                                packed,
                                                &d_info[f * k],
                                                unsigned(k),
                                                code.bits_per_symbol());
                r.iterations = d_status[f].iterations;
                r.converged = d_status[f].converged;
            }
        }
    }

    void frames(uint64_t seed,
                const sim_channel& ch,
                uint64_t first,
                uint64_t stride,
                size_t count,
                uint8_t* info,
                uint8_t* codeword,
                float* llr) override
    {
        const ldpc_code& code = d_decoder->code();
        std::vector<uint8_t> i1(code.k()), c1(code.n());
        std::vector<float> l1(d_decoder->llr_per_frame());
        for (size_t f = 0; f < count; ++f) {
            draw_on_host(
                code, seed, ch, first + f * stride, i1.data(), c1.data(), l1.data());
            if (info)
                std::copy(i1.begin(), i1.end(), info + f * i1.size());
            if (codeword)
                std::copy(c1.begin(), c1.end(), codeword + f * c1.size());
            if (llr)
                std::copy(l1.begin(), l1.end(), llr + f * l1.size());
        }
    }

    std::string name() const override { return "cpu"; }
    size_t preferred_batch() const override { return 64 * size_t(d_decoder->threads()); }
    std::string encoder_variant() const override
    {
        return "the CPU's ldpc_code::encode()";
    }

private:
    // Draws nf frames on the decoder's threads (a frame a thread at a time).
    void draw(uint64_t seed,
              const sim_channel& ch,
              uint64_t first,
              uint64_t stride,
              size_t nf,
              uint8_t* info,
              float* llr)
    {
        const ldpc_code& code = d_decoder->code();
        const size_t k = code.k(), nllr = d_decoder->llr_per_frame();
        const unsigned threads =
            unsigned(std::max<size_t>(1, std::min<size_t>(d_decoder->threads(), nf)));
        std::exception_ptr failure;
        std::mutex failure_mutex;
        auto part = [&](unsigned t) {
            try {
                std::vector<uint8_t> cw(code.n());
                for (size_t f = t; f < nf; f += threads)
                    draw_on_host(code,
                                 seed,
                                 ch,
                                 first + f * stride,
                                 info + f * k,
                                 cw.data(),
                                 llr + f * nllr);
            } catch (...) {
                std::lock_guard<std::mutex> lock(failure_mutex);
                failure = std::current_exception();
            }
        };
        std::vector<std::thread> pool;
        for (unsigned t = 1; t < threads; ++t)
            pool.emplace_back(part, t);
        part(0);
        for (auto& th : pool)
            th.join();
        if (failure)
            std::rethrow_exception(failure);
    }

    batch_decoder::sptr d_decoder;
    std::vector<uint8_t> d_info, d_decoded;
    std::vector<float> d_llr;
    std::vector<frame_status> d_status;
};

} // namespace

namespace detail {

echelon_levels make_echelon_levels(const ldpc_code& code)
{
    const auto& piv = code.echelon_pivots();
    const auto& off = code.echelon_offsets();
    const auto& col = code.echelon_columns();
    const auto& val = code.echelon_values();
    std::vector<uint32_t> level_of(code.n(), 0), pivot_level(piv.size());
    uint32_t levels = 0;
    // from the last pivot to the first, as encode() solves them
    for (size_t p = piv.size(); p-- > 0;) {
        uint32_t l = 0;
        for (uint32_t j = off[p]; j < off[p + 1]; ++j)
            l = std::max(l, level_of[col[j]]);
        level_of[piv[p]] = pivot_level[p] = l + 1;
        levels = std::max(levels, l + 1);
    }
    std::vector<uint32_t> order(piv.size());
    for (size_t p = 0; p < order.size(); ++p)
        order[p] = uint32_t(p);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return pivot_level[a] < pivot_level[b];
    });
    echelon_levels out;
    out.level_offsets.assign(levels + 1, 0);
    out.row_offsets.push_back(0);
    for (const uint32_t p : order) {
        out.level_offsets[pivot_level[p]]++;
        out.pivots.push_back(piv[p]);
        for (uint32_t j = off[p]; j < off[p + 1]; ++j) {
            out.columns.push_back(col[j]);
            out.values.push_back(val[j]);
        }
        out.row_offsets.push_back(uint32_t(out.columns.size()));
    }
    for (uint32_t l = 0; l < levels; ++l)
        out.level_offsets[l + 1] += out.level_offsets[l];
    return out;
}

echelon_slices make_echelon_slices(const ldpc_code& code)
{
    const echelon_levels l = make_echelon_levels(code);
    const uint32_t rows = sim::slice_rows;
    echelon_slices out;
    out.level_slices.push_back(0);
    for (size_t lv = 0; lv < l.levels(); ++lv) {
        std::vector<uint32_t> order;
        for (uint32_t i = l.level_offsets[lv]; i < l.level_offsets[lv + 1]; ++i)
            order.push_back(i);
        auto length = [&](uint32_t i) { return l.row_offsets[i + 1] - l.row_offsets[i]; };
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
            return length(a) > length(b);
        });
        for (size_t first = 0; first < order.size(); first += rows) {
            const uint32_t longest = length(order[first]);
            out.offsets.push_back(uint32_t(out.columns.size()));
            out.lengths.push_back(longest);
            out.columns.resize(out.columns.size() + size_t(longest) * rows, code.n());
            out.values.resize(out.columns.size(), 0);
            for (uint32_t r = 0; r < rows; ++r) {
                const bool real = first + r < order.size();
                const uint32_t i = real ? order[first + r] : 0;
                out.pivots.push_back(real ? l.pivots[i] : code.n());
                if (!real)
                    continue;
                for (uint32_t j = 0; j < length(i); ++j) {
                    out.columns[out.offsets.back() + j * rows + r] =
                        l.columns[l.row_offsets[i] + j];
                    out.values[out.offsets.back() + j * rows + r] =
                        l.values[l.row_offsets[i] + j];
                }
            }
        }
        out.level_slices.push_back(uint32_t(out.lengths.size()));
        out.widest_level =
            std::max(out.widest_level, out.level_slices.back() - out.level_slices[lv]);
    }
    return out;
}

accumulator_runs make_accumulator_runs(const ldpc_code& code)
{
    if (code.encoder() != ldpc_code::encoder_kind::accumulator)
        throw std::invalid_argument("code: its parity does not accumulate");
    for (size_t j = 0; j < code.k(); ++j)
        if (code.info_positions()[j] != j)
            throw std::invalid_argument(
                "code: an accumulator's information is at positions 0 .. k - 1");
    const unsigned threads = sim::encoder_threads;
    const auto& offsets = code.check_offsets();
    const auto& variable = code.edge_variable();
    accumulator_runs out;
    out.run = unsigned((code.m() + threads - 1) / threads);
    std::vector<std::vector<uint32_t>> lists(threads);
    for (unsigned t = 0; t < threads; ++t) {
        const size_t r0 = std::min<size_t>(code.m(), size_t(t) * out.run);
        const size_t r1 = std::min<size_t>(code.m(), r0 + out.run);
        for (size_t r = r0; r < r1; ++r) {
            auto& list = lists[t];
            const size_t before = list.size();
            for (uint32_t e = offsets[r]; e < offsets[r + 1]; ++e)
                if (variable[e] < code.k())
                    list.push_back(variable[e]);
            if (list.size() == before)
                list.push_back(sim::acc_none);
            list.back() |= sim::acc_end;
        }
        out.slots = std::max(out.slots, unsigned(lists[t].size()));
    }
    out.entries.assign(size_t(out.slots) * threads, sim::acc_none);
    for (unsigned t = 0; t < threads; ++t)
        for (size_t j = 0; j < lists[t].size(); ++j)
            out.entries[j * threads + t] = lists[t][j];
    return out;
}

std::unique_ptr<simulation::worker> make_cpu_sim_worker(batch_decoder::sptr decoder)
{
    return std::make_unique<cpu_worker>(std::move(decoder));
}
#ifndef GPULDPC_HAVE_CUDA
std::unique_ptr<simulation::worker> make_cuda_sim_worker(batch_decoder::sptr, int)
{
    throw std::runtime_error("simulation: this build has no CUDA support");
}
#endif
} // namespace detail

simulation::~simulation() = default;

simulation::simulation(batch_decoder::sptr decoder,
                       std::vector<std::unique_ptr<worker>> workers)
    : d_decoder(std::move(decoder)), d_workers(std::move(workers))
{
}

simulation::sptr simulation::make(batch_decoder::sptr decoder, const std::string& device)
{
    if (!decoder)
        throw std::invalid_argument("decoder: null");
    std::vector<int> gpus;
    if (device.empty()) {
        if (decoder->cuda_device() >= 0)
            gpus.push_back(decoder->cuda_device());
    } else {
        gpus = cuda_device_list(device);
        if (gpus.empty()) {
            const int index = select_cuda_device(device);
            if (index >= 0)
                gpus.push_back(index);
        }
    }
    std::vector<std::unique_ptr<worker>> workers;
    if (gpus.empty()) {
        auto cpu =
            decoder->cuda_device() < 0
                ? decoder
                : batch_decoder::make(decoder->code_ptr(), decoder->config(), "cpu");
        workers.push_back(detail::make_cpu_sim_worker(cpu));
    }
    for (const int g : gpus) {
        auto d = decoder->cuda_device() == g
                     ? decoder
                     : batch_decoder::make(decoder->code_ptr(),
                                           decoder->config(),
                                           "cuda:" + std::to_string(g));
        workers.push_back(detail::make_cuda_sim_worker(d, g));
    }
    return sptr(new simulation(std::move(decoder), std::move(workers)));
}

void simulation::run(uint64_t seed,
                     const sim_channel& channel,
                     uint64_t first,
                     uint64_t stride,
                     size_t count,
                     sim_frame_result* results)
{
    if (count == 0)
        return;
    if (!results)
        throw std::invalid_argument("results: null");
    if (stride == 0)
        throw std::invalid_argument("stride=0; allowed: >= 1");
    std::lock_guard<std::mutex> lock(d_mutex);
    const size_t devices = d_workers.size();
    if (devices == 1) {
        d_workers[0]->run(seed, channel, first, stride, count, results);
        return;
    }
    // device d takes frames j = d, d + D, ...: results gathered back in order
    std::vector<std::vector<sim_frame_result>> parts(devices);
    std::vector<std::exception_ptr> failures(devices);
    std::vector<std::thread> threads;
    for (size_t d = 0; d < devices && d < count; ++d) {
        parts[d].resize((count - d + devices - 1) / devices);
        threads.emplace_back([&, d] {
            try {
                d_workers[d]->run(seed,
                                  channel,
                                  first + d * stride,
                                  stride * devices,
                                  parts[d].size(),
                                  parts[d].data());
            } catch (...) {
                failures[d] = std::current_exception();
            }
        });
    }
    for (auto& t : threads)
        t.join();
    for (auto& f : failures)
        if (f)
            std::rethrow_exception(f);
    for (size_t d = 0; d < devices; ++d)
        for (size_t i = 0; i < parts[d].size(); ++i)
            results[d + i * devices] = parts[d][i];
}

void simulation::frames(uint64_t seed,
                        const sim_channel& channel,
                        uint64_t first,
                        uint64_t stride,
                        size_t count,
                        uint8_t* info,
                        uint8_t* codeword,
                        float* llr)
{
    if (stride == 0)
        throw std::invalid_argument("stride=0; allowed: >= 1");
    std::lock_guard<std::mutex> lock(d_mutex);
    d_workers[0]->frames(seed, channel, first, stride, count, info, codeword, llr);
}

std::string simulation::device_name() const
{
    std::string out;
    for (const auto& w : d_workers)
        out += (out.empty() ? "" : ", ") + w->name();
    return out;
}

size_t simulation::preferred_batch() const
{
    size_t total = 0;
    for (const auto& w : d_workers)
        total += w->preferred_batch();
    return total;
}

std::string simulation::encoder_variant() const
{
    return d_workers[0]->encoder_variant();
}

} // namespace gpuldpc
} // namespace gr
