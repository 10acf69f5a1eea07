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
#include <array>
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
    unsigned run = 0, slots = 0, levels = 0, widest_level = 0, slices = 0;
    cuda::device_buffer<uint32_t> entries;
    cuda::device_buffer<uint32_t> level_slices, offsets, lengths, pivots, columns;
    cuda::device_buffer<uint8_t> values;
};

void upload_encoder(const ldpc_code& code, device_encoder& e)
{
    if (code.encoder() == ldpc_code::encoder_kind::accumulator) {
        const detail::accumulator_runs a = detail::make_accumulator_runs(code);
        e.kind = kernels::sim_encoder::accumulator;
        e.variant =
            "accumulator: runs of " + std::to_string(a.run) + " checks chained by a scan";
        e.run = a.run;
        e.slots = a.slots;
        e.entries = cuda::upload(a.entries);
        return;
    }
    if (code.encoder() != ldpc_code::encoder_kind::echelon)
        throw std::invalid_argument(
            "code: its encoder (CCSDS AR4JA's structured solver) does not run on the "
            "GPU; allowed on a GPU: codes whose parity accumulates (DVB-S2) or that "
            "encode by back-substitution (matrices, 5G NR, 802.11n, 802.16e); "
            "simulate it on device='cpu'");
    const detail::echelon_slices l = detail::make_echelon_slices(code);
    e.kind = kernels::sim_encoder::echelon;
    e.levels = unsigned(l.levels());
    e.widest_level = l.widest_level;
    e.slices = unsigned(l.lengths.size());
    e.variant = "echelon: " + std::to_string(code.echelon_pivots().size()) +
                " pivots in " + std::to_string(l.levels()) + " levels, " +
                std::to_string(code.echelon_columns().size()) + " terms";
    e.level_slices = cuda::upload(l.level_slices);
    e.offsets = cuda::upload(l.offsets);
    e.lengths = cuda::upload(l.lengths);
    e.pivots = cuda::upload(l.pivots);
    e.columns = cuda::upload(l.columns);
    if (code.q() > 2)
        e.values = cuda::upload(l.values);
}

bool info_in_order(const ldpc_code& code)
{
    const auto& positions = code.info_positions();
    for (size_t j = 0; j < positions.size(); ++j)
        if (positions[j] != j)
            return false;
    return true;
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
        d_info_in_order = info_in_order(code);
        if (kernels::sim_encoder_frames_per_block(
                d_encoder.kind, code.n(), code.q(), d_info_in_order) > 1)
            d_encoder.variant += ", 32 frames a block in bit slices";
        d_int8 = d_decoder->config().messages == message_precision::int8 &&
                 d_decoder->decodes_device_int8();
        d_transmitted = cuda::upload(code.transmitted_positions());
        if (code.q() > 2) {
            const gf_tables_view t = code.field().tables();
            d_exp = cuda::upload(std::vector<uint8_t>(t.exp, t.exp + 2 * (code.q() - 1)));
            d_log = cuda::upload(std::vector<uint8_t>(t.log, t.log + code.q()));
        }
        // four of the decoder's batches, within 256 MiB of LLRs a buffer: the
        // encoder's blocks are latency-bound, and a larger launch keeps more
        // of them on each SM
        const size_t per_frame =
            d_decoder->llr_per_frame() * (d_int8 ? sizeof(int8_t) : sizeof(float));
        const size_t by_memory = std::max<size_t>(1, (size_t(256) << 20) / per_frame);
        const size_t wanted =
            4 * (d_decoder->preferred_batch() ? d_decoder->preferred_batch() : 2048);
        d_batch = std::max<size_t>(1, std::min(wanted, by_memory));
        d_stream = std::make_unique<cuda::stream>();
        d_count_stream = std::make_unique<cuda::stream>();
    }

    ~cuda_worker() override
    {
        // buffers belong to the device
        cuda::scoped_device on(d_device, std::nothrow);
        d_stream.reset();
        d_count_stream.reset();
        d_slots = std::array<slot, 2>{};
        d_codewords = {};
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
        const cudaStream_t s = d_stream->get(), counting = d_count_stream->get();
        // Batch b + 1's frames are drawn while batch b decodes, and batch b is
        // counted (another stream) while batch b + 1 decodes: between two
        // decodes the host only launches. Slot b % 2 holds batch b's LLRs,
        // decisions and counts.
        const size_t batches = (count + d_batch - 1) / d_batch;
        std::vector<harvest> harvests(batches);
        auto draw = [&](size_t b) {
            const size_t f0 = b * d_batch, nf = std::min(d_batch, count - f0);
            kernels::sim_frames_params p =
                frame_params(seed, ch, first + f0 * stride, stride, nf);
            p.codewords = d_codewords.data();
            if (d_int8) {
                p.llr8 = d_slots[b % 2].llr8.data();
                p.llr_scale = d_decoder->config().llr_scale;
            } else {
                p.llr = d_slots[b % 2].llr.data();
            }
            kernels::launch_sim_frames(p, s);
        };
        try {
            draw(0);
            d_stream->synchronize();
            for (size_t b = 0; b < batches; ++b) {
                slot& sl = d_slots[b % 2];
                const size_t f0 = b * d_batch, nf = std::min(d_batch, count - f0);
                if (b + 1 < batches)
                    draw(b + 1);
                // batch b - 2's counting read this slot's decisions
                sl.counted->synchronize();
                if (d_int8)
                    d_decoder->decode_device_int8(
                        sl.llr8.data(), nf, sl.decoded.data(), sl.status.data());
                else
                    d_decoder->decode_device(
                        sl.llr.data(), nf, sl.decoded.data(), sl.status.data());
                kernels::sim_count_params c{};
                c.seed = seed;
                c.first = first + f0 * stride;
                c.stride = stride;
                c.n_frames = nf;
                c.k = code.k();
                c.m = code.bits_per_symbol();
                c.q = code.q();
                c.decoded = sl.decoded.data();
                c.decoded_bytes = d_decoder->info_bytes_per_frame();
                c.packed = d_decoder->config().pack_info_bits;
                c.status = sl.status.data();
                c.counts = sl.counts.data();
                kernels::launch_sim_count(c, counting);
                sl.counted->record(counting);
                GPULDPC_CUDA_CHECK(cudaMemcpyAsync(sl.host_counts.data(),
                                                   sl.counts.data(),
                                                   nf * sizeof(kernels::sim_frame_counts),
                                                   cudaMemcpyDeviceToHost,
                                                   counting));
                harvests[b] = harvest{ sl.host_counts.data(), results + f0, nf };
                GPULDPC_CUDA_CHECK(
                    cudaLaunchHostFunc(counting, &harvest::deliver, &harvests[b]));
                // batch b + 1's LLRs complete before the decoder reads them
                d_stream->synchronize();
            }
            d_count_stream->synchronize();
        } catch (...) {
            // no copy into results outlives the call
            cudaStreamSynchronize(counting);
            cudaStreamSynchronize(s);
            throw;
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
        cuda::device_buffer<uint32_t> words(
            count * kernels::sim_codeword_words(code.n(), code.q()));
        kernels::sim_frames_params p = frame_params(seed, ch, first, stride, count);
        p.codewords = words.data();
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
    std::string encoder_variant() const override
    {
        return d_encoder.variant + (d_int8 ? "; LLRs in 8 bits" : "; float LLRs");
    }

private:
    // The buffers of the batches, kept only when all are made.
    void allocate()
    {
        if (d_slots[1].host_counts.size())
            return;
        const ldpc_code& code = d_decoder->code();
        cuda::device_buffer<uint32_t> words(
            d_batch * kernels::sim_codeword_words(code.n(), code.q()));
        std::array<slot, 2> slots;
        for (slot& sl : slots) {
            if (d_int8)
                sl.llr8 =
                    cuda::device_buffer<int8_t>(d_batch * d_decoder->llr_per_frame());
            else
                sl.llr = cuda::device_buffer<float>(d_batch * d_decoder->llr_per_frame());
            sl.decoded =
                cuda::device_buffer<uint8_t>(d_batch * d_decoder->info_bytes_per_frame());
            sl.status = cuda::device_buffer<frame_status>(d_batch);
            sl.counts = cuda::device_buffer<kernels::sim_frame_counts>(d_batch);
            sl.host_counts = cuda::pinned_buffer<kernels::sim_frame_counts>(d_batch);
            sl.counted = std::make_unique<cuda::event>(); // on the worker's device
        }
        d_codewords = std::move(words);
        d_slots = std::move(slots);
    }

    // A batch's counts, copied into the caller's results by the counting
    // stream once they are on the host.
    struct harvest {
        const kernels::sim_frame_counts* counts = nullptr;
        sim_frame_result* results = nullptr;
        size_t frames = 0;
        static void CUDART_CB deliver(void* self)
        {
            const harvest& h = *static_cast<const harvest*>(self);
            for (size_t f = 0; f < h.frames; ++f)
                h.results[f] = sim_frame_result{ h.counts[f].bit_errors,
                                                 h.counts[f].iterations,
                                                 h.counts[f].converged };
        }
    };

    struct slot {
        cuda::device_buffer<float> llr;
        cuda::device_buffer<int8_t> llr8;
        cuda::device_buffer<uint8_t> decoded;
        cuda::device_buffer<frame_status> status;
        cuda::device_buffer<kernels::sim_frame_counts> counts;
        cuda::pinned_buffer<kernels::sim_frame_counts> host_counts;
        std::unique_ptr<cuda::event> counted; // the counting of the slot's last batch
    };

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
        p.info_in_order = d_info_in_order;
        p.transmitted_positions = d_transmitted.data();
        p.gf_exp = d_exp.data();
        p.gf_log = d_log.data();
        p.encoder = d_encoder.kind;
        p.checks = code.m();
        p.run = d_encoder.run;
        p.slots = d_encoder.slots;
        p.acc_entries = d_encoder.entries.data();
        p.levels = d_encoder.levels;
        p.widest_level = d_encoder.widest_level;
        p.slices = d_encoder.slices;
        p.level_slices = d_encoder.level_slices.data();
        p.slice_offsets = d_encoder.offsets.data();
        p.slice_length = d_encoder.lengths.data();
        p.slice_pivots = d_encoder.pivots.data();
        p.slice_columns = d_encoder.columns.data();
        p.slice_values = d_encoder.values.data();
        p.sigma = ch.sigma;
        p.llr_gain = ch.llr_gain;
        p.codewords = nullptr; // the caller's
        p.llr = nullptr;
        return p;
    }

    batch_decoder::sptr d_decoder;
    int d_device;
    std::string d_name;
    size_t d_batch = 1;
    device_encoder d_encoder;
    cuda::device_buffer<uint32_t> d_info_positions, d_transmitted;
    bool d_info_in_order = false;
    // an int8-message decoder takes the LLRs in 8 bits, as it would round them
    bool d_int8 = false;
    cuda::device_buffer<uint8_t> d_exp, d_log;
    std::unique_ptr<cuda::stream> d_stream, d_count_stream;
    cuda::device_buffer<uint32_t> d_codewords;
    std::array<slot, 2> d_slots;
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
