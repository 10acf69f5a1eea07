/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The simulator's GPU side: frames drawn, encoded and turned into LLRs on
// the device (kernels/common/simulate.cu), decoded there, counted there.

#include "common/simulate.h"
#include "cuda_on_device.h"
#include "cuda_resources.h"
#include "simulation_worker.h"
#include <gnuradio/gpuldpc/engine/device.h>
#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpuldpc {
namespace {

static_assert(sizeof(sim_frame_result) == sizeof(kernels::sim_frame_counts),
              "the kernel's counts are the simulation's results");

// The encoder's tables on the device.
struct device_encoder {
    kernels::sim_encoder kind;
    std::string variant;
    unsigned levels = 0;
    cuda::device_buffer<uint32_t> check_offsets, edge_variable;
    cuda::device_buffer<uint32_t> level_offsets, pivots, row_offsets, columns;
    cuda::device_buffer<uint8_t> values;
};

void upload_encoder(const ldpc_code& code, device_encoder& e)
{
    if (code.encoder() == ldpc_code::encoder_kind::accumulator) {
        e.kind = kernels::sim_encoder::accumulator;
        e.variant = "accumulator: a scan over the checks";
        e.check_offsets = cuda::upload(code.check_offsets());
        e.edge_variable = cuda::upload(code.edge_variable());
        return;
    }
    if (code.encoder() != ldpc_code::encoder_kind::echelon)
        throw std::invalid_argument(
            "code: its encoder (CCSDS AR4JA's structured solver) does not run on the "
            "GPU; allowed on a GPU: codes whose parity accumulates (DVB-S2) or that "
            "encode by back-substitution (matrices, 5G NR, 802.11n, 802.16e); "
            "simulate it on device='cpu'");
    const detail::echelon_levels l = detail::make_echelon_levels(code);
    e.kind = kernels::sim_encoder::echelon;
    e.levels = unsigned(l.levels());
    e.variant = "echelon: " + std::to_string(l.pivots.size()) + " pivots in " +
                std::to_string(l.levels()) + " levels, " +
                std::to_string(l.columns.size()) + " terms";
    e.level_offsets = cuda::upload(l.level_offsets);
    e.pivots = cuda::upload(l.pivots);
    e.row_offsets = cuda::upload(l.row_offsets);
    e.columns = cuda::upload(l.columns);
    e.values = cuda::upload(l.values);
}

class cuda_worker : public simulation::worker
{
public:
    cuda_worker(batch_decoder::sptr decoder, int device)
        : d_decoder(std::move(decoder)), d_device(device)
    {
        const ldpc_code& code = d_decoder->code();
        const size_t limit = cuda_shared_memory_limit(device, d_decoder->config().gpu);
        const size_t shared = kernels::sim_frames_shared_bytes(code.n(), code.q());
        if (shared > limit)
            throw std::invalid_argument(
                "code: a codeword of n=" + std::to_string(code.n()) + " GF(" +
                std::to_string(code.q()) + ") symbols takes " + std::to_string(shared) +
                " bytes of shared memory, above this device's " + std::to_string(limit) +
                "; allowed: up to the limit (simulate it on device='cpu')");
        cuda::scoped_device on(device);
        d_name = cuda::device_label(device);
        upload_encoder(code, d_encoder);
        d_info_positions = cuda::upload(code.info_positions());
        d_transmitted = cuda::upload(code.transmitted_positions());
        if (code.q() > 2) {
            const gf_tables_view t = code.field().tables();
            d_exp = cuda::upload(std::vector<uint8_t>(t.exp, t.exp + 2 * (code.q() - 1)));
            d_log = cuda::upload(std::vector<uint8_t>(t.log, t.log + code.q()));
        }
        // the decoder's batch, within 256 MiB of LLRs a buffer
        const size_t per_frame = d_decoder->llr_per_frame() * sizeof(float);
        const size_t by_memory = std::max<size_t>(1, (size_t(256) << 20) / per_frame);
        const size_t wanted =
            d_decoder->preferred_batch() ? d_decoder->preferred_batch() : 2048;
        d_batch = std::max<size_t>(1, std::min(wanted, by_memory));
        d_stream = std::make_unique<cuda::stream>();
    }

    ~cuda_worker() override
    {
        // buffers belong to the device
        cuda::scoped_device on(d_device, std::nothrow);
        d_stream.reset();
        d_llr[0] = {};
        d_llr[1] = {};
        d_decoded = {};
        d_status = {};
        d_counts = {};
        d_host_counts = {};
        d_encoder = {};
        d_info_positions = {};
        d_transmitted = {};
        d_exp = {};
        d_log = {};
    }

    void run(uint64_t seed,
             const sim_channel& ch,
             uint64_t first,
             uint64_t stride,
             size_t count,
             sim_frame_result* results) override
    {
        cuda::scoped_device on(d_device);
        allocate();
        const ldpc_code& code = d_decoder->code();
        const cudaStream_t s = d_stream->get();
        // batch b's frames are drawn while batch b - 1 decodes (two LLR
        // buffers): the decoder's tail and the launches overlap the drawing
        const size_t batches = (count + d_batch - 1) / d_batch;
        auto draw = [&](size_t b) {
            const size_t f0 = b * d_batch, nf = std::min(d_batch, count - f0);
            kernels::sim_frames_params p =
                frame_params(seed, ch, first + f0 * stride, stride, nf);
            p.llr = d_llr[b % 2].data();
            kernels::launch_sim_frames(p, s);
        };
        draw(0);
        d_stream->synchronize();
        for (size_t b = 0; b < batches; ++b) {
            const size_t f0 = b * d_batch, nf = std::min(d_batch, count - f0);
            if (b + 1 < batches)
                draw(b + 1);
            d_decoder->decode_device(
                d_llr[b % 2].data(), nf, d_decoded.data(), d_status.data());
            kernels::sim_count_params c{};
            c.seed = seed;
            c.first = first + f0 * stride;
            c.stride = stride;
            c.n_frames = nf;
            c.k = code.k();
            c.m = code.bits_per_symbol();
            c.q = code.q();
            c.decoded = d_decoded.data();
            c.decoded_bytes = d_decoder->info_bytes_per_frame();
            c.packed = d_decoder->config().pack_info_bits;
            c.status = d_status.data();
            c.counts = d_counts.data();
            kernels::launch_sim_count(c, s);
            GPULDPC_CUDA_CHECK(cudaMemcpyAsync(d_host_counts.data(),
                                               d_counts.data(),
                                               nf * sizeof(kernels::sim_frame_counts),
                                               cudaMemcpyDeviceToHost,
                                               s));
            // also waits for batch b + 1's drawing: its LLRs are complete
            // before the decoder reads them
            d_stream->synchronize();
            for (size_t f = 0; f < nf; ++f) {
                const kernels::sim_frame_counts& k = d_host_counts.data()[f];
                results[f0 + f] =
                    sim_frame_result{ k.bit_errors, k.iterations, k.converged };
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
        if (count == 0)
            return;
        cuda::scoped_device on(d_device);
        const ldpc_code& code = d_decoder->code();
        cuda::device_buffer<float> l(count * d_decoder->llr_per_frame());
        cuda::device_buffer<uint8_t> i(count * code.k()), c(count * code.n());
        kernels::sim_frames_params p = frame_params(seed, ch, first, stride, count);
        p.llr = l.data();
        p.info = i.data();
        p.codeword = c.data();
        kernels::launch_sim_frames(p, d_stream->get());
        d_stream->synchronize();
        if (info)
            GPULDPC_CUDA_CHECK(
                cudaMemcpy(info, i.data(), i.size(), cudaMemcpyDeviceToHost));
        if (codeword)
            GPULDPC_CUDA_CHECK(
                cudaMemcpy(codeword, c.data(), c.size(), cudaMemcpyDeviceToHost));
        if (llr)
            GPULDPC_CUDA_CHECK(cudaMemcpy(
                llr, l.data(), l.size() * sizeof(float), cudaMemcpyDeviceToHost));
    }

    std::string name() const override { return d_name; }
    //! batches enough for the drawing of one to overlap the decoding of another
    size_t preferred_batch() const override { return 4 * d_batch; }
    std::string encoder_variant() const override { return d_encoder.variant; }

private:
    // The buffers of the batches, kept only when all are made.
    void allocate()
    {
        if (d_host_counts.size())
            return;
        const size_t values = d_batch * d_decoder->llr_per_frame();
        cuda::device_buffer<float> llr0(values), llr1(values);
        cuda::device_buffer<uint8_t> decoded(d_batch * d_decoder->info_bytes_per_frame());
        cuda::device_buffer<frame_status> status(d_batch);
        cuda::device_buffer<kernels::sim_frame_counts> counts(d_batch);
        cuda::pinned_buffer<kernels::sim_frame_counts> host_counts(d_batch);
        d_llr[0] = std::move(llr0);
        d_llr[1] = std::move(llr1);
        d_decoded = std::move(decoded);
        d_status = std::move(status);
        d_counts = std::move(counts);
        d_host_counts = std::move(host_counts);
    }

    kernels::sim_frames_params frame_params(uint64_t seed,
                                            const sim_channel& ch,
                                            uint64_t first,
                                            uint64_t stride,
                                            size_t nf) const
    {
        const ldpc_code& code = d_decoder->code();
        kernels::sim_frames_params p{};
        p.seed = seed;
        p.first = first;
        p.stride = stride;
        p.n_frames = nf;
        p.n = code.n();
        p.k = code.k();
        p.m = code.bits_per_symbol();
        p.q = code.q();
        p.n_transmitted = code.n_transmitted();
        p.info_positions = d_info_positions.data();
        p.transmitted_positions = d_transmitted.data();
        p.gf_exp = d_exp.data();
        p.gf_log = d_log.data();
        p.encoder = d_encoder.kind;
        p.checks = code.m();
        p.check_offsets = d_encoder.check_offsets.data();
        p.edge_variable = d_encoder.edge_variable.data();
        p.levels = d_encoder.levels;
        p.level_offsets = d_encoder.level_offsets.data();
        p.pivots = d_encoder.pivots.data();
        p.row_offsets = d_encoder.row_offsets.data();
        p.columns = d_encoder.columns.data();
        p.values = d_encoder.values.data();
        p.sigma = ch.sigma;
        p.llr_gain = ch.llr_gain;
        p.llr = nullptr; // the caller's
        return p;
    }

    batch_decoder::sptr d_decoder;
    int d_device;
    std::string d_name;
    size_t d_batch = 1;
    device_encoder d_encoder;
    cuda::device_buffer<uint32_t> d_info_positions, d_transmitted;
    cuda::device_buffer<uint8_t> d_exp, d_log;
    std::unique_ptr<cuda::stream> d_stream;
    cuda::device_buffer<float> d_llr[2];
    cuda::device_buffer<uint8_t> d_decoded;
    cuda::device_buffer<frame_status> d_status;
    cuda::device_buffer<kernels::sim_frame_counts> d_counts;
    cuda::pinned_buffer<kernels::sim_frame_counts> d_host_counts;
};

} // namespace

namespace detail {
std::unique_ptr<simulation::worker> make_cuda_sim_worker(batch_decoder::sptr decoder,
                                                         int device)
{
    if (decoder->cuda_device() != device)
        throw std::invalid_argument("simulation: the decoder of cuda:" +
                                    std::to_string(device) + " decodes elsewhere");
    return std::make_unique<cuda_worker>(std::move(decoder), device);
}
} // namespace detail

} // namespace gpuldpc
} // namespace gr
