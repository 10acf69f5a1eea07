/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_CUDA_BATCH_DECODER_H
#define INCLUDED_GPULDPC_ENGINE_CUDA_BATCH_DECODER_H

// The one host pipeline of the GPU decoders (CUDA builds only): two slots,
// each with its own stream, so that the copies of one batch overlap the
// kernels of the other; tickets; page-locked staging; launches of a bounded
// number of frames; results copied back per launch. A decoder family (FFT-BP,
// binary) derives from it and supplies its state and one launch.

#include "cuda_resources.h"
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace gr {
namespace gpuldpc {
namespace detail {

/*!
 * \brief A batch_decoder on a CUDA device whose host side (copies, streams,
 * tickets, workspaces, launches of at most max_launch() frames) is this
 * class, and whose kernels a family adapter launches.
 *
 * Contract for a family adapter:
 * - Its constructor uploads the code and chooses its kernel variant (once),
 *   then MUST call set_max_launch() with the frames one launch of its state
 *   takes at most.
 * - reserve_state() MUST make the family's per-slot state (device memory of
 *   the chosen variant) hold \p frames frames; it is called with the slot's
 *   stream idle, only when a launch needs more than the slot holds.
 * - launch() MUST enqueue the decoding of io.n_frames frames on \p stream,
 *   inputs and outputs in device memory, and nothing else; it MUST NOT
 *   synchronise.
 * - takes() says which inputs it launches on directly: bit LLRs always;
 *   8-bit LLRs and symbol log-likelihoods where the kernels read them (other
 *   calls go through batch_decoder's conversions).
 * - Its destructor MUST call finish_all() before it frees device memory
 *   that queued work may still read.
 */
class cuda_batch_decoder : public batch_decoder
{
public:
    ~cuda_batch_decoder() override;

    //! What a launch reads.
    enum class input_kind { llr, llr8, symbol_ll };

    std::string device_name() const override { return d_name; }
    int cuda_device() const override { return d_device; }
    unsigned threads() const override { return 1; }
    size_t workspaces() const override;

    void decode(const float* llr,
                size_t n_frames,
                uint8_t* info_bits,
                frame_status* status,
                uint8_t* codeword_bits) override;
    void decode_int8(const int8_t* llr,
                     size_t n_frames,
                     uint8_t* info_bits,
                     frame_status* status,
                     uint8_t* codeword_bits) override;
    void decode_symbol_llr(const float* symbol_ll,
                           size_t n_frames,
                           uint8_t* info_bits,
                           frame_status* status,
                           uint8_t* codeword_bits) override;
    void decode_device(const float* llr,
                       size_t n_frames,
                       uint8_t* info_bits,
                       frame_status* status) override;
    void decode_device_int8(const int8_t* llr,
                            size_t n_frames,
                            uint8_t* info_bits,
                            frame_status* status) override;
    bool decodes_device_int8() const override { return takes(input_kind::llr8); }
    uint64_t begin_decode(const float* llr,
                          size_t n_frames,
                          uint8_t* info_bits,
                          frame_status* status) override;
    uint64_t begin_decode_int8(const int8_t* llr,
                               size_t n_frames,
                               uint8_t* info_bits,
                               frame_status* status) override;
    void end_decode(uint64_t ticket) override;
    std::shared_ptr<void> host_buffer(size_t bytes) const override;

protected:
    //! Makes \p device current while the family constructs; cuda_error when
    //! the device cannot be used.
    cuda_batch_decoder(ldpc_code::sptr code, const decoder_config& config, int device);

    //! One launch's inputs and outputs, in device memory.
    struct launch_io {
        input_kind kind;
        const void* input; //!< float (llr, symbol_ll) or int8_t (llr8) values
        size_t n_frames;
        uint8_t* info_bits;     //!< info_bytes_per_frame() a frame
        frame_status* status;   //!< a frame
        uint8_t* codeword_bits; //!< n * bits_per_symbol a frame, or null
    };

    virtual void reserve_state(unsigned slot, size_t frames) = 0;
    virtual void launch(unsigned slot, const launch_io& io, cudaStream_t stream) = 0;
    virtual bool takes(input_kind kind) const = 0;

    //! Frames a launch takes at most: \p frames, capped by
    //! gpu_tuning::launch_frames where that is set; at least 1.
    void set_max_launch(size_t frames);
    size_t max_launch() const { return d_max_launch; }
    int device() const { return d_device; }
    const cudaDeviceProp& properties() const { return d_properties; }
    //! Waits for every slot's queued work; never throws.
    void finish_all() noexcept;

    //! Soft values a frame of \p kind.
    size_t values_per_frame(input_kind kind) const;

    /*!
     * A host batch on slot \p slot, enqueued (not waited for), in launches of
     * max_launch() frames at most: load(f0, nf, device_input, stream) queues
     * the input of frames f0 .. f0 + nf - 1 into device_input (room for
     * max_launch() frames of \p kind), then the launch and the copies of its
     * results to the host follow. The caller holds d_mutex and the device.
     */
    template <typename Load>
    void enqueue(unsigned slot,
                 input_kind kind,
                 size_t n_frames,
                 uint8_t* info_bits,
                 frame_status* status,
                 uint8_t* codeword_bits,
                 Load&& load);

    //! decode_device() and decode_device_int8(): the input already on the
    //! device, launched on slot 0 and waited for
    void decode_in_place(input_kind kind,
                         const void* input,
                         size_t n_frames,
                         uint8_t* info_bits,
                         frame_status* status);
    //! decode_now() of host memory: enqueue() on slot 0 with the input
    //! copied from \p in, waited for; on a failure the slot's stream is
    //! drained and the error rethrown.
    void decode_now(input_kind kind,
                    const void* in,
                    size_t n_frames,
                    uint8_t* info_bits,
                    frame_status* status,
                    uint8_t* codeword_bits);

    /*!
     * decode_now() of a batch of several chunks of \p chunk frames: chunk c
     * on slot c % 2, its input staged through page-locked memory when the
     * caller's is pageable, so that the copies of one chunk overlap the
     * decoding of the other; results land in the caller's memory as chunks
     * finish. The caller holds d_mutex and the device.
     */
    void decode_chunks(input_kind kind,
                       const void* in,
                       size_t n_frames,
                       size_t chunk,
                       uint8_t* info_bits,
                       frame_status* status,
                       uint8_t* codeword_bits);
    //! Frames of decode_chunks()' chunks: about 16 MiB of input, whole
    //! efficient_chunk()s where there is one, at most max_launch().
    size_t pipeline_chunk(input_kind kind) const;

    //! Waits for slot \p slot's queued work (cuda_error on a failure).
    void synchronize(unsigned slot);
    //! After a failure: waits for what slot \p slot's stream holds, so that
    //! no copy lands in a caller's buffer after the error; never throws.
    void drain_after_failure(unsigned slot) noexcept;

    mutable std::mutex d_mutex; // calls take turns on the slots

private:
    struct slot_buffers {
        std::unique_ptr<cuda::stream> stream;
        std::unique_ptr<cuda::event> done; // recorded after a batch's copies
        cuda::device_buffer<float> input;
        cuda::device_buffer<int8_t> input8;
        cuda::device_buffer<uint8_t> info, codeword;
        cuda::device_buffer<frame_status> status;
        size_t capacity = 0; // frames the family's state holds
    };

    slot_buffers& prepare(unsigned slot, size_t frames);
    template <typename T>
    void ensure(slot_buffers& w, cuda::device_buffer<T>& b, size_t count);
    void* device_input(slot_buffers& w, input_kind kind, size_t frames);
    uint64_t begin(input_kind kind,
                   const void* in,
                   size_t n_frames,
                   uint8_t* info_bits,
                   frame_status* status);
    void copy_in(input_kind kind,
                 const void* in,
                 void* device_in,
                 size_t f0,
                 size_t nf,
                 cudaStream_t s) const;

    int d_device;
    cudaDeviceProp d_properties;
    std::string d_name;
    size_t d_max_launch = 1;
    // 0: decode(), decode_device() and even tickets; 1: odd tickets and
    // decode_chunks()' odd chunks
    slot_buffers d_slots[max_outstanding];
    struct host_staging; // decode_chunks()' page-locked buffers
    std::unique_ptr<host_staging> d_staging;
};

template <typename Load>
void cuda_batch_decoder::enqueue(unsigned slot,
                                 input_kind kind,
                                 size_t n_frames,
                                 uint8_t* info_bits,
                                 frame_status* status,
                                 uint8_t* codeword_bits,
                                 Load&& load)
{
    const size_t launch_frames = std::min(n_frames, d_max_launch);
    const size_t nb = info_bytes_per_frame();
    const size_t nc = size_t(d_code->n()) * d_code->bits_per_symbol();
    slot_buffers& w = prepare(slot, launch_frames);
    void* in = device_input(w, kind, launch_frames);
    ensure(w, w.info, launch_frames * nb);
    ensure(w, w.status, launch_frames);
    if (codeword_bits)
        ensure(w, w.codeword, launch_frames * nc);
    const cudaStream_t s = w.stream->get();
    launch_io io{ kind, in, 0, w.info.data(), w.status.data(), nullptr };
    io.codeword_bits = codeword_bits ? w.codeword.data() : nullptr;
    for (size_t f0 = 0; f0 < n_frames; f0 += launch_frames) {
        const size_t nf = std::min(launch_frames, n_frames - f0);
        io.n_frames = nf;
        load(f0, nf, in, s);
        launch(slot, io, s);
        cuda::copy_launch_results(s,
                                  f0,
                                  nf,
                                  nb,
                                  sizeof(frame_status),
                                  nc,
                                  w.info.data(),
                                  w.status.data(),
                                  w.codeword.data(),
                                  info_bits,
                                  status,
                                  codeword_bits);
    }
}

template <typename T>
void cuda_batch_decoder::ensure(slot_buffers& w, cuda::device_buffer<T>& b, size_t count)
{
    if (b.size() >= count)
        return;
    // the old buffer goes once the batches on it are done
    w.stream->synchronize();
    b = {};
    b = cuda::device_buffer<T>(count);
}

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_CUDA_BATCH_DECODER_H */
