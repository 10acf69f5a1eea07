/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "copy_pool.h"
#include "cuda_batch_decoder.h"
#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gr {
namespace gpuldpc {
namespace detail {

cuda_batch_decoder::cuda_batch_decoder(ldpc_code::sptr code,
                                       const decoder_config& config,
                                       int device)
    : batch_decoder(std::move(code), config), d_device(device)
{
    cuda::scoped_device guard(d_device);
    GPULDPC_CUDA_CHECK(cudaGetDeviceProperties(&d_properties, d_device));
    d_name = d_properties.name;
    // slot 0's stream now: a device that cannot be used fails construction,
    // where the caller still falls back
    d_slots[0].stream = std::make_unique<cuda::stream>();
    d_slots[0].done = std::make_unique<cuda::event>();
}

struct cuda_batch_decoder::host_staging {
    host_staging() : copies(copy_pool::default_helpers()) {}
    copy_pool copies;
    size_t frames = 0; // what the result buffers hold, per slot
    bool codeword = false;
    cuda::pinned_buffer<uint8_t> in[max_outstanding], info[max_outstanding],
        codeword_bits[max_outstanding];
    cuda::pinned_buffer<frame_status> status[max_outstanding];
    cuda::event done[max_outstanding];
};

cuda_batch_decoder::~cuda_batch_decoder()
{
    finish_all();
    cuda::scoped_device guard(d_device, std::nothrow);
    d_staging.reset();
    for (auto& w : d_slots)
        w = slot_buffers{};
}

void cuda_batch_decoder::finish_all() noexcept
{
    cuda::scoped_device guard(d_device, std::nothrow);
    for (auto& w : d_slots)
        if (w.stream && cudaStreamSynchronize(w.stream->get()) != cudaSuccess)
            cudaGetLastError();
}

void cuda_batch_decoder::set_max_launch(size_t frames)
{
    d_max_launch = std::max<size_t>(frames, 1);
    if (d_config.gpu.launch_frames > 0)
        d_max_launch = std::min(d_max_launch, d_config.gpu.launch_frames);
}

size_t cuda_batch_decoder::values_per_frame(input_kind kind) const
{
    if (kind == input_kind::symbol_ll)
        return size_t(d_code->n_transmitted()) * d_code->q();
    return llr_per_frame();
}

size_t cuda_batch_decoder::workspaces() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    size_t n = 0;
    for (const auto& w : d_slots)
        n += w.capacity > 0;
    return n;
}

cuda_batch_decoder::slot_buffers& cuda_batch_decoder::prepare(unsigned slot,
                                                              size_t frames)
{
    slot_buffers& w = d_slots[slot];
    if (!w.stream) {
        w.stream = std::make_unique<cuda::stream>();
        w.done = std::make_unique<cuda::event>();
    }
    if (frames <= w.capacity)
        return w;
    // the family's old state goes first (peak memory is one workspace), once
    // the batches on it are done
    w.stream->synchronize();
    w.capacity = 0;
    reserve_state(slot, frames);
    w.capacity = frames;
    return w;
}

void* cuda_batch_decoder::device_input(slot_buffers& w, input_kind kind, size_t frames)
{
    const size_t count = frames * values_per_frame(kind);
    if (kind == input_kind::llr8) {
        ensure(w, w.input8, count);
        return w.input8.data();
    }
    ensure(w, w.input, count);
    return w.input.data();
}

void cuda_batch_decoder::copy_in(input_kind kind,
                                 const void* in,
                                 void* device_in,
                                 size_t f0,
                                 size_t nf,
                                 cudaStream_t s) const
{
    const size_t bytes = kind == input_kind::llr8 ? 1 : sizeof(float);
    const size_t per_frame = values_per_frame(kind) * bytes;
    GPULDPC_CUDA_CHECK(cudaMemcpyAsync(device_in,
                                       static_cast<const uint8_t*>(in) + f0 * per_frame,
                                       nf * per_frame,
                                       cudaMemcpyHostToDevice,
                                       s));
}

void cuda_batch_decoder::synchronize(unsigned slot)
{
    if (d_slots[slot].stream)
        d_slots[slot].stream->synchronize();
}

void cuda_batch_decoder::drain_after_failure(unsigned slot) noexcept
{
    cuda::drain_after_failure(d_slots[slot].stream, d_device);
}

void cuda_batch_decoder::decode_now(input_kind kind,
                                    const void* in,
                                    size_t n_frames,
                                    uint8_t* info_bits,
                                    frame_status* status,
                                    uint8_t* codeword_bits)
{
    if (n_frames == 0)
        return;
    std::lock_guard<std::mutex> lock(d_mutex);
    cuda::scoped_device guard(d_device);
    const size_t chunk = pipeline_chunk(kind);
    if (n_frames >= 2 * chunk) {
        try {
            decode_chunks(kind, in, n_frames, chunk, info_bits, status, codeword_bits);
        } catch (...) {
            drain_after_failure(0);
            drain_after_failure(1);
            throw;
        }
        return;
    }
    try {
        enqueue(0,
                kind,
                n_frames,
                info_bits,
                status,
                codeword_bits,
                [&](size_t f0, size_t nf, void* device_in, cudaStream_t s) {
                    copy_in(kind, in, device_in, f0, nf, s);
                });
        synchronize(0);
    } catch (...) {
        drain_after_failure(0);
        throw;
    }
}

size_t cuda_batch_decoder::pipeline_chunk(input_kind kind) const
{
    const size_t per_frame =
        values_per_frame(kind) * (kind == input_kind::llr8 ? 1 : sizeof(float));
    size_t chunk = std::max<size_t>(1, (size_t(16) << 20) / per_frame);
    if (const size_t unit = efficient_chunk())
        chunk = std::max(unit, chunk / unit * unit);
    return std::min(chunk, d_max_launch);
}

void cuda_batch_decoder::decode_chunks(input_kind kind,
                                       const void* in,
                                       size_t n_frames,
                                       size_t chunk,
                                       uint8_t* info_bits,
                                       frame_status* status,
                                       uint8_t* codeword_bits)
{
    const size_t per_frame =
        values_per_frame(kind) * (kind == input_kind::llr8 ? 1 : sizeof(float));
    const size_t nb = info_bytes_per_frame();
    const size_t nc = size_t(d_code->n()) * d_code->bits_per_symbol();
    cudaPointerAttributes attributes;
    bool pinned = false;
    if (cudaPointerGetAttributes(&attributes, in) == cudaSuccess)
        pinned = attributes.type == cudaMemoryTypeHost;
    else
        cudaGetLastError(); // older runtimes report pageable memory as an error
    if (!d_staging)
        d_staging = std::make_unique<host_staging>();
    host_staging& h = *d_staging;
    // buffers made first and kept only when all are made: a failed
    // allocation leaves the old ones, and their sizes, as they were
    if (h.frames < chunk || (codeword_bits && !h.codeword)) {
        const bool codeword = h.codeword || codeword_bits;
        cuda::pinned_buffer<uint8_t> info[max_outstanding], cw[max_outstanding];
        cuda::pinned_buffer<frame_status> st[max_outstanding];
        for (unsigned s = 0; s < max_outstanding; ++s) {
            info[s] = cuda::pinned_buffer<uint8_t>(chunk * nb);
            st[s] = cuda::pinned_buffer<frame_status>(chunk);
            cw[s] = cuda::pinned_buffer<uint8_t>(codeword ? chunk * nc : 0);
        }
        for (unsigned s = 0; s < max_outstanding; ++s) {
            h.info[s] = std::move(info[s]);
            h.status[s] = std::move(st[s]);
            h.codeword_bits[s] = std::move(cw[s]);
        }
        h.frames = chunk;
        h.codeword = codeword;
    }
    if (!pinned &&
        (h.in[0].size() < chunk * per_frame || h.in[1].size() < chunk * per_frame)) {
        cuda::pinned_buffer<uint8_t> staged[max_outstanding];
        for (unsigned s = 0; s < max_outstanding; ++s)
            staged[s] = cuda::pinned_buffer<uint8_t>(chunk * per_frame);
        for (unsigned s = 0; s < max_outstanding; ++s)
            h.in[s] = std::move(staged[s]);
    }
    const size_t chunks = (n_frames + chunk - 1) / chunk;
    // chunk c's results, from its slot's page-locked buffers to the caller's;
    // split over the copy threads as the input is: the host loop copies a
    // chunk in and a chunk out for each chunk the device decodes
    auto drain = [&](size_t c) {
        const unsigned s = unsigned(c % max_outstanding);
        h.done[s].synchronize();
        const size_t f0 = c * chunk, nf = std::min(chunk, n_frames - f0);
        h.copies.copy(info_bits + f0 * nb, h.info[s].data(), nf * nb);
        std::memcpy(status + f0, h.status[s].data(), nf * sizeof(frame_status));
        if (codeword_bits)
            h.copies.copy(codeword_bits + f0 * nc, h.codeword_bits[s].data(), nf * nc);
    };
    for (size_t c = 0; c < chunks; ++c) {
        const unsigned s = unsigned(c % max_outstanding);
        if (c >= max_outstanding)
            drain(c - max_outstanding);
        const size_t f0 = c * chunk, nf = std::min(chunk, n_frames - f0);
        const uint8_t* src = static_cast<const uint8_t*>(in) + f0 * per_frame;
        if (!pinned) {
            // the other slot's copies and decoding run meanwhile
            h.copies.copy(h.in[s].data(), src, nf * per_frame);
            src = h.in[s].data();
        }
        enqueue(s,
                kind,
                nf,
                h.info[s].data(),
                h.status[s].data(),
                codeword_bits ? h.codeword_bits[s].data() : nullptr,
                [&](size_t g0, size_t ng, void* device_in, cudaStream_t stream) {
                    GPULDPC_CUDA_CHECK(cudaMemcpyAsync(device_in,
                                                       src + g0 * per_frame,
                                                       ng * per_frame,
                                                       cudaMemcpyHostToDevice,
                                                       stream));
                });
        h.done[s].record(d_slots[s].stream->get());
    }
    for (size_t c = chunks > max_outstanding ? chunks - max_outstanding : 0; c < chunks;
         ++c)
        drain(c);
}

void cuda_batch_decoder::decode(const float* llr,
                                size_t n_frames,
                                uint8_t* info_bits,
                                frame_status* status,
                                uint8_t* codeword_bits)
{
    decode_now(input_kind::llr, llr, n_frames, info_bits, status, codeword_bits);
    fail_erased_frames(llr, llr_per_frame(), n_frames, status);
}

void cuda_batch_decoder::decode_int8(const int8_t* llr,
                                     size_t n_frames,
                                     uint8_t* info_bits,
                                     frame_status* status,
                                     uint8_t* codeword_bits)
{
    if (!takes(input_kind::llr8)) {
        batch_decoder::decode_int8(llr, n_frames, info_bits, status, codeword_bits);
        return;
    }
    decode_now(input_kind::llr8, llr, n_frames, info_bits, status, codeword_bits);
}

void cuda_batch_decoder::decode_symbol_llr(const float* symbol_ll,
                                           size_t n_frames,
                                           uint8_t* info_bits,
                                           frame_status* status,
                                           uint8_t* codeword_bits)
{
    if (!takes(input_kind::symbol_ll)) {
        decode_bit_pairs(symbol_ll, n_frames, info_bits, status, codeword_bits);
        return;
    }
    decode_now(
        input_kind::symbol_ll, symbol_ll, n_frames, info_bits, status, codeword_bits);
    fail_erased_frames(
        symbol_ll, values_per_frame(input_kind::symbol_ll), n_frames, status);
}

void cuda_batch_decoder::decode_device(const float* llr,
                                       size_t n_frames,
                                       uint8_t* info_bits,
                                       frame_status* status)
{
    if (n_frames > 0 && (!llr || !info_bits || !status))
        throw std::invalid_argument("decode_device: null pointer");
    decode_in_place(input_kind::llr, llr, n_frames, info_bits, status);
}

void cuda_batch_decoder::decode_device_int8(const int8_t* llr,
                                            size_t n_frames,
                                            uint8_t* info_bits,
                                            frame_status* status)
{
    if (!takes(input_kind::llr8)) {
        batch_decoder::decode_device_int8(llr, n_frames, info_bits, status);
        return;
    }
    if (n_frames > 0 && (!llr || !info_bits || !status))
        throw std::invalid_argument("decode_device_int8: null pointer");
    decode_in_place(input_kind::llr8, llr, n_frames, info_bits, status);
}

void cuda_batch_decoder::decode_in_place(input_kind kind,
                                         const void* input,
                                         size_t n_frames,
                                         uint8_t* info_bits,
                                         frame_status* status)
{
    if (n_frames == 0)
        return;
    std::lock_guard<std::mutex> lock(d_mutex);
    cuda::scoped_device guard(d_device);
    const size_t launch_frames = std::min(n_frames, d_max_launch);
    slot_buffers& w = prepare(0, launch_frames);
    const size_t value_bytes = kind == input_kind::llr8 ? 1 : sizeof(float);
    launch_io io{ kind, nullptr, 0, nullptr, nullptr, nullptr };
    for (size_t f0 = 0; f0 < n_frames; f0 += launch_frames) {
        io.n_frames = std::min(launch_frames, n_frames - f0);
        io.input =
            static_cast<const uint8_t*>(input) + f0 * llr_per_frame() * value_bytes;
        io.info_bits = info_bits + f0 * info_bytes_per_frame();
        io.status = status + f0;
        launch(0, io, w.stream->get());
    }
    w.stream->synchronize();
}

// Outstanding batches alternate between the two slots, each with its own
// stream: the copies of one overlap the kernels of the other. A slot's stream
// orders its batches, so decode() (slot 0) may run between them.
uint64_t cuda_batch_decoder::begin(input_kind kind,
                                   const void* in,
                                   size_t n_frames,
                                   uint8_t* info_bits,
                                   frame_status* status)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    const uint64_t ticket = issue_ticket();
    const unsigned slot = unsigned(ticket % max_outstanding);
    try {
        cuda::scoped_device guard(d_device);
        if (n_frames > 0)
            enqueue(slot,
                    kind,
                    n_frames,
                    info_bits,
                    status,
                    nullptr,
                    [&](size_t f0, size_t nf, void* device_in, cudaStream_t s) {
                        copy_in(kind, in, device_in, f0, nf, s);
                    });
        note_ticket(ticket,
                    kind == input_kind::llr ? static_cast<const float*>(in) : nullptr,
                    n_frames,
                    status);
        const slot_buffers& w = prepare(slot, 0);
        w.done->record(w.stream->get());
    } catch (...) {
        drain_after_failure(slot);
        cancel_ticket(); // nothing of it is outstanding
        throw;
    }
    return ticket;
}

uint64_t cuda_batch_decoder::begin_decode(const float* llr,
                                          size_t n_frames,
                                          uint8_t* info_bits,
                                          frame_status* status)
{
    return begin(input_kind::llr, llr, n_frames, info_bits, status);
}

uint64_t cuda_batch_decoder::begin_decode_int8(const int8_t* llr,
                                               size_t n_frames,
                                               uint8_t* info_bits,
                                               frame_status* status)
{
    if (!takes(input_kind::llr8))
        return batch_decoder::begin_decode_int8(llr, n_frames, info_bits, status);
    return begin(input_kind::llr8, llr, n_frames, info_bits, status);
}

void cuda_batch_decoder::end_decode(uint64_t ticket)
{
    std::lock_guard<std::mutex> lock(d_mutex);
    cuda::scoped_device guard(d_device);
    const slot_buffers& w = d_slots[ticket % max_outstanding];
    try {
        if (w.done)
            w.done->synchronize();
    } catch (...) {
        retire_ticket(ticket); // ended, failed: the next one may be ended
        throw;
    }
    retire_ticket(ticket);
    finish_ticket(ticket);
}

std::shared_ptr<void> cuda_batch_decoder::host_buffer(size_t bytes) const
{
    cuda::scoped_device guard(d_device);
    void* p = nullptr;
    GPULDPC_CUDA_CHECK(cudaMallocHost(&p, std::max<size_t>(bytes, 1)));
    return std::shared_ptr<void>(p, [](void* q) { cudaFreeHost(q); });
}

} // namespace detail
} // namespace gpuldpc
} // namespace gr
