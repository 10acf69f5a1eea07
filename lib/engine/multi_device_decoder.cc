/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "multi_device_decoder.h"
#include <deque>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace gr {
namespace gpuldpc {
namespace detail {

namespace {

class multi_device_decoder : public batch_decoder
{
public:
    explicit multi_device_decoder(std::vector<batch_decoder::sptr> decoders)
        : batch_decoder(decoders.at(0)->code_ptr(), decoders.at(0)->config()),
          d_decoders(std::move(decoders))
    {
        for (const auto& d : d_decoders)
            d_name += (d_name.empty() ? "" : ", ") + d->device_name() +
                      " (cuda:" + std::to_string(d->cuda_device()) + ")";
    }

    void decode(const float* llr,
                size_t n_frames,
                uint8_t* info_bits,
                frame_status* status,
                uint8_t* codeword_bits) override
    {
        split(llr_per_frame(),
              llr,
              n_frames,
              info_bits,
              status,
              codeword_bits,
              [](auto& d, auto... a) { d.decode(a...); });
    }

    void decode_int8(const int8_t* llr,
                     size_t n_frames,
                     uint8_t* info_bits,
                     frame_status* status,
                     uint8_t* codeword_bits) override
    {
        split(llr_per_frame(),
              llr,
              n_frames,
              info_bits,
              status,
              codeword_bits,
              [](auto& d, auto... a) { d.decode_int8(a...); });
    }

    void decode_symbol_llr(const float* symbol_ll,
                           size_t n_frames,
                           uint8_t* info_bits,
                           frame_status* status,
                           uint8_t* codeword_bits) override
    {
        split(size_t(d_code->n_transmitted()) * d_code->q(),
              symbol_ll,
              n_frames,
              info_bits,
              status,
              codeword_bits,
              [](auto& d, auto... a) { d.decode_symbol_llr(a...); });
    }

    //! On the first device: device memory belongs to one GPU.
    void decode_device(const float* llr,
                       size_t n_frames,
                       uint8_t* info_bits,
                       frame_status* status) override
    {
        d_decoders[0]->decode_device(llr, n_frames, info_bits, status);
    }
    void decode_device_int8(const int8_t* llr,
                            size_t n_frames,
                            uint8_t* info_bits,
                            frame_status* status) override
    {
        d_decoders[0]->decode_device_int8(llr, n_frames, info_bits, status);
    }
    bool decodes_device_int8() const override
    {
        return d_decoders[0]->decodes_device_int8();
    }

    uint64_t begin_decode(const float* llr,
                          size_t n_frames,
                          uint8_t* info_bits,
                          frame_status* status) override
    {
        return begin([&](batch_decoder& d) {
            return d.begin_decode(llr, n_frames, info_bits, status);
        });
    }

    uint64_t begin_decode_int8(const int8_t* llr,
                               size_t n_frames,
                               uint8_t* info_bits,
                               frame_status* status) override
    {
        return begin([&](batch_decoder& d) {
            return d.begin_decode_int8(llr, n_frames, info_bits, status);
        });
    }

    void end_decode(uint64_t ticket) override
    {
        std::unique_lock<std::mutex> lock(d_tickets_mutex);
        if (d_outstanding.empty() || d_outstanding.front().ticket != ticket)
            throw std::logic_error("end_decode: ticket " + std::to_string(ticket) +
                                   " is not the oldest outstanding batch");
        const outstanding o = d_outstanding.front();
        d_outstanding.pop_front();
        lock.unlock();
        d_decoders[o.device]->end_decode(o.inner);
    }

    std::shared_ptr<void> host_buffer(size_t bytes) const override
    {
        // page-locked memory is page-locked for every device of the process
        return d_decoders[0]->host_buffer(bytes);
    }

    std::string device_name() const override { return d_name; }
    int cuda_device() const override { return d_decoders[0]->cuda_device(); }
    unsigned threads() const override { return unsigned(d_decoders.size()); }
    size_t workspaces() const override
    {
        size_t n = 0;
        for (const auto& d : d_decoders)
            n += d->workspaces();
        return n;
    }
    size_t preferred_batch() const override
    {
        size_t n = 0;
        for (const auto& d : d_decoders)
            n += d->preferred_batch();
        return n;
    }
    size_t efficient_chunk() const override
    {
        return d_decoders[0]->efficient_chunk() * d_decoders.size();
    }
    std::string kernel_variant() const override
    {
        return d_decoders[0]->kernel_variant() + "; " +
               std::to_string(d_decoders.size()) + " GPUs, a share of each call on each";
    }

private:
    // The frames in contiguous shares, a thread a device at once.
    template <typename T, typename Call>
    void split(size_t values_per_frame,
               const T* in,
               size_t n_frames,
               uint8_t* info_bits,
               frame_status* status,
               uint8_t* codeword_bits,
               const Call& call)
    {
        const size_t devices = d_decoders.size();
        const size_t nb = info_bytes_per_frame();
        const size_t nc = size_t(d_code->n()) * d_code->bits_per_symbol();
        std::vector<std::exception_ptr> failures(devices);
        std::vector<std::thread> threads;
        size_t f0 = 0;
        for (size_t d = 0; d < devices; ++d) {
            const size_t nf = n_frames / devices + (d < n_frames % devices);
            if (nf == 0)
                continue;
            threads.emplace_back([&, d, f0, nf] {
                try {
                    call(*d_decoders[d],
                         in + f0 * values_per_frame,
                         nf,
                         info_bits + f0 * nb,
                         status + f0,
                         codeword_bits ? codeword_bits + f0 * nc : nullptr);
                } catch (...) {
                    failures[d] = std::current_exception();
                }
            });
            f0 += nf;
        }
        for (auto& t : threads)
            t.join();
        for (auto& f : failures)
            if (f)
                std::rethrow_exception(f);
    }

    template <typename Begin>
    uint64_t begin(const Begin& start)
    {
        std::lock_guard<std::mutex> lock(d_tickets_mutex);
        const size_t device = size_t(d_next_ticket % d_decoders.size());
        const uint64_t inner = start(*d_decoders[device]);
        d_outstanding.push_back(outstanding{ d_next_ticket, device, inner });
        return d_next_ticket++;
    }

    struct outstanding {
        uint64_t ticket;
        size_t device;
        uint64_t inner;
    };

    std::vector<batch_decoder::sptr> d_decoders;
    std::string d_name;
    std::mutex d_tickets_mutex;
    std::deque<outstanding> d_outstanding;
    uint64_t d_next_ticket = 0;
};

} // namespace

batch_decoder::sptr make_multi_device_decoder(std::vector<batch_decoder::sptr> decoders)
{
    if (decoders.empty())
        throw std::invalid_argument("make_multi_device_decoder: no decoder");
    if (decoders.size() == 1)
        return decoders[0];
    return std::make_shared<multi_device_decoder>(std::move(decoders));
}

} // namespace detail
} // namespace gpuldpc
} // namespace gr
