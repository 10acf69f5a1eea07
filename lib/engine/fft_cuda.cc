/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// fft_cuda's CUDA backend (CUDA builds only).

#include "gpu_transforms_cuda.h"
#include "transforms/fft_callback_info.h"
#include "transforms/fft_pow2.h"
#include "transforms/fft_window.h"
#include <gnuradio/gpuldpc/engine/device.h>
#include <cufft.h>
#include <cufftXt.h>
#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

namespace {

#define GPULDPC_CUFFT_CHECK(call)                                                       \
    do {                                                                                \
        const cufftResult r_ = (call);                                                  \
        if (r_ != CUFFT_SUCCESS)                                                        \
            throw cuda_error(std::string(__FILE__) + ":" + std::to_string(__LINE__) +   \
                                 ": " #call ": cufftResult " + std::to_string(int(r_)), \
                             int(r_));                                                  \
    } while (0)

// Makes \p plan transform \p batch contiguous vectors of \p n points.
cufftResult make_batch_plan(cufftHandle plan, size_t n, size_t batch, size_t* work_bytes)
{
    int nn = int(n);
    return cufftMakePlanMany(
        plan, 1, &nn, nullptr, 1, nn, nullptr, 1, nn, CUFFT_C2C, int(batch), work_bytes);
}

struct fft_state {
    fft_state(size_t n_,
              bool fwd,
              const std::vector<float>& win,
              bool shift,
              int dev,
              size_t chunk_,
              const gpu_tuning& tuning)
        : n(n_),
          name(cuda::device_label(dev)),
          shared_limit(cuda_shared_memory_limit(dev, tuning)),
          forward(fwd),
          chunk(chunk_ ? chunk_ : cuda::default_chunk(n_ * 8)),
          rotate_in(!fwd && shift ? n_ / 2 : 0),
          // an fftshift of the output is a (-1)^k modulation of the input for even n
          alternate(fwd && shift && n_ % 2 == 0),
          rotate_out(fwd && shift && n_ % 2 == 1 ? (n_ + 1) / 2 : 0),
          window(win.size()),
          pipeline(n_ * 8, n_ * 8, chunk)
    {
        if (!win.empty())
            GPULDPC_CUDA_CHECK(cudaMemcpy(window.data(),
                                          win.data(),
                                          win.size() * sizeof(float),
                                          cudaMemcpyHostToDevice));
        // Window and shift of power-of-two sizes live in the loads and stores
        // of the one-pass kernel, in the variant that fits the shared-memory
        // limit; cuFFT (plain, or after the preparation kernel) serves the
        // other sizes, sizes that no variant fits, and in-place calls a split
        // variant cannot take.
        if (prepares() && (n & (n - 1)) == 0 &&
            n >= (size_t(1) << kernels::fft_pow2_min_log2n) &&
            n <= (size_t(1) << kernels::fft_pow2_max_log2n))
            fused = kernels::fft_pow2_choose(
                checked_log2(n, 1, n, "fft_size"), !win.empty(), shared_limit);
        if (fused.piece_log2n) {
            std::vector<float2> table(kernels::fft_pow2_twiddle_count(fused));
            kernels::fft_pow2_fill_twiddles(fused, table.data());
            twiddles = cuda::device_buffer<float2>(table.size());
            GPULDPC_CUDA_CHECK(cudaMemcpy(twiddles.data(),
                                          table.data(),
                                          table.size() * sizeof(float2),
                                          cudaMemcpyHostToDevice));
            fused_blocks = kernels::fft_pow2_resident_blocks(fused, forward);
            callback_status = "window and shift fused into the one-pass FFT kernel";
        }
        if (fused.piece_log2n && kernels::fft_pow2_in_place_ok(fused))
            return; // cuFFT is never needed
        // per stream slot: a scratch buffer and one plan per power-of-two batch
        // up to the chunk, sharing one work area (the two slots run concurrently)
        for (int slot = 0; slot < cuda::stream_pipeline::kSlots; ++slot) {
            scratches[slot] = cuda::device_buffer<float2>(n * chunk);
            size_t work = 0;
            for (size_t b = 1; b <= chunk; b *= 2) {
                cufftHandle plan;
                GPULDPC_CUFFT_CHECK(cufftCreate(&plan));
                plans[slot].push_back(plan);
                GPULDPC_CUFFT_CHECK(cufftSetAutoAllocation(plan, 0));
                size_t ws = 0;
                GPULDPC_CUFFT_CHECK(make_batch_plan(plan, n, b, &ws));
                work = std::max(work, ws);
            }
            work_areas[slot] = cuda::device_buffer<unsigned char>(work);
            for (auto plan : plans[slot])
                GPULDPC_CUFFT_CHECK(cufftSetWorkArea(plan, work_areas[slot].data()));
        }
        if (fused.piece_log2n)
            return;
        // Linking the callback at plan time fails on the CUDA 13.0 cuFFT
        // measured so far (CUFFT_INTERNAL_ERROR from cufftMakePlanMany), and
        // a failed attempt costs about half a second: opt in to try it.
        if (prepares() && !rotate_out && tuning.cufft_callbacks)
            make_callback_plans();
        else if (prepares())
            callback_status =
                "cuFFT load callback off (GPULDPC_CUFFT_CALLBACKS=1 tries it)";
    }

    // Plans of a full chunk whose load callback applies window, rotation and
    // modulation while cuFFT reads (no pass of their own). When cuFFT cannot
    // link the callback, the separate preparation kernel stays in use.
    void make_callback_plans()
    {
        if (kernels::fft_callback_fatbin_size == 0)
            return;
        kernels::fft_callback_info info{
            window.size() ? window.data() : nullptr, n, rotate_in, alternate ? 1 : 0
        };
        callback_info = cuda::device_buffer<kernels::fft_callback_info>(1);
        GPULDPC_CUDA_CHECK(cudaMemcpy(
            callback_info.data(), &info, sizeof(info), cudaMemcpyHostToDevice));
        for (int slot = 0; slot < cuda::stream_pipeline::kSlots; ++slot) {
            cufftHandle plan;
            if (cufftCreate(&plan) != CUFFT_SUCCESS)
                return;
            void* info_ptr = callback_info.data();
            size_t ws = 0;
            const cufftResult set =
                cufftXtSetJITCallback(plan,
                                      kernels::fft_callback_symbol,
                                      kernels::fft_callback_fatbin,
                                      kernels::fft_callback_fatbin_size,
                                      CUFFT_CB_LD_COMPLEX,
                                      &info_ptr);
            const cufftResult made =
                set != CUFFT_SUCCESS ? set : make_batch_plan(plan, n, chunk, &ws);
            if (made != CUFFT_SUCCESS) {
                cufftDestroy(plan);
                callback_status = std::string("cuFFT load callback not used: ") +
                                  (set != CUFFT_SUCCESS ? "cufftXtSetJITCallback"
                                                        : "cufftMakePlanMany") +
                                  " returned cufftResult " + std::to_string(int(made));
                return;
            }
            callback_status = "cuFFT load callback in use for full chunks";
            callback_plans[slot] = plan;
        }
    }
    ~fft_state()
    {
        for (auto plan : callback_plans)
            if (plan)
                cufftDestroy(plan);
        for (auto& slot_plans : plans)
            for (auto plan : slot_plans)
                cufftDestroy(plan);
    }
    bool prepares() const { return window.size() || rotate_in || alternate; }

    // vectors <= chunk, power-of-two pieces; in and out may alias. Each of the
    // pipeline's two streams has its own scratch buffer.
    void
    transform(const float2* in, float2* out, size_t vectors, cudaStream_t s, int slot)
    {
        if (fused.piece_log2n && (in != out || kernels::fft_pow2_in_place_ok(fused))) {
            kernels::launch_fft_pow2({ in,
                                       out,
                                       window.size() ? window.data() : nullptr,
                                       twiddles.data(),
                                       vectors,
                                       fused,
                                       forward,
                                       rotate_in != 0,
                                       forward && alternate,
                                       fused_blocks },
                                     s);
            return;
        }
        float2* scratch = scratches[slot].data();
        size_t done = 0;
        while (done < vectors) {
            size_t level = 0;
            while ((size_t(2) << level) <= std::min(vectors - done, chunk))
                ++level;
            const size_t b = size_t(1) << level;
            const float2* src = in + done * n;
            float2* dst = out + done * n;
            // a full chunk through the callback plan: the callback reads other
            // elements of a vector for the rotation, so not in place then
            if (callback_plans[slot] && b == chunk && !(rotate_in && src == dst)) {
                GPULDPC_CUFFT_CHECK(cufftSetStream(callback_plans[slot], s));
                GPULDPC_CUFFT_CHECK(cufftExecC2C(
                    callback_plans[slot],
                    reinterpret_cast<cufftComplex*>(const_cast<float2*>(src)),
                    reinterpret_cast<cufftComplex*>(dst),
                    forward ? CUFFT_FORWARD : CUFFT_INVERSE));
                done += b;
                continue;
            }
            float2* fft_in = const_cast<float2*>(src);
            if (prepares()) {
                // rotation reads across a vector, so it cannot work in place
                float2* target = (rotate_in && src == dst) || rotate_out ? scratch : dst;
                kernels::launch_fft_prepare({ src,
                                              target,
                                              window.size() ? window.data() : nullptr,
                                              n,
                                              b,
                                              rotate_in,
                                              alternate },
                                            s);
                fft_in = target;
            }
            cufftHandle plan = plans[slot][level];
            GPULDPC_CUFFT_CHECK(cufftSetStream(plan, s));
            float2* fft_out = rotate_out ? scratch : dst;
            GPULDPC_CUFFT_CHECK(cufftExecC2C(plan,
                                             reinterpret_cast<cufftComplex*>(fft_in),
                                             reinterpret_cast<cufftComplex*>(fft_out),
                                             forward ? CUFFT_FORWARD : CUFFT_INVERSE));
            if (rotate_out)
                kernels::launch_fft_rotate(scratch, dst, n, b, rotate_out, s);
            done += b;
        }
    }

    void
    execute(const std::complex<float>* in, std::complex<float>* out, size_t n_vectors)
    {
        pipeline.run(
            in,
            out,
            n_vectors,
            [this](const void* i, void* o, size_t v, cudaStream_t s, int slot) {
                transform(
                    static_cast<const float2*>(i), static_cast<float2*>(o), v, s, slot);
            });
    }

    void execute_device(const std::complex<float>* d_in,
                        std::complex<float>* d_out,
                        size_t n_vectors,
                        cudaStream_t s)
    {
        const auto* in = reinterpret_cast<const float2*>(d_in);
        auto* out = reinterpret_cast<float2*>(d_out);
        for (size_t done = 0; done < n_vectors; done += chunk) {
            const size_t v = std::min(chunk, n_vectors - done);
            transform(in + done * n, out + done * n, v, s, 0);
        }
    }

    std::string variant() const
    {
        const kernels::fft_pow2_variant& v = fused;
        if (v.piece_log2n == 0)
            return prepares() ? "cuFFT after the preparation kernel" : "cuFFT";
        std::string text = "one-pass kernel, ";
        text += v.split_log2 ? "vectors split in " + std::to_string(1u << v.split_log2) +
                                   " pieces of " + std::to_string(1u << v.piece_log2n)
                             : std::string("whole vectors per block");
        text += v.buffers == 2 ? ", two buffers" : ", one buffer";
        if (!window.size())
            text += ", no window";
        else
            text += v.window_shared ? ", window in shared memory"
                                    : ", window from global memory";
        return text + ", " + cuda::kib(v.shared_bytes) + " of shared memory";
    }

    int extra_passes() const
    {
        // full chunks; a shorter tail takes the preparation kernel
        if (callback_plans[0] || fused.piece_log2n)
            return 0;
        return (prepares() ? 1 : 0) + (rotate_out ? 1 : 0);
    }

    size_t n;
    std::string name;
    size_t shared_limit;
    bool forward;
    size_t chunk;
    size_t rotate_in;
    bool alternate;
    size_t rotate_out;
    cuda::device_buffer<float> window;
    cuda::device_buffer<float2> scratches[cuda::stream_pipeline::kSlots];
    cuda::device_buffer<unsigned char> work_areas[cuda::stream_pipeline::kSlots];
    cuda::device_buffer<kernels::fft_callback_info> callback_info;
    cufftHandle callback_plans[cuda::stream_pipeline::kSlots] = {};
    std::string callback_status = "no callback needed";
    // one-pass kernel with window and shift (piece_log2n 0: cuFFT)
    kernels::fft_pow2_variant fused;
    size_t fused_blocks = 0;              // its persistent grid on this device
    cuda::device_buffer<float2> twiddles; // of the one-pass kernel
    std::vector<cufftHandle> plans[cuda::stream_pipeline::kSlots];
    cuda::stream own_stream;
    cuda::stream_pipeline pipeline;
};


} // namespace

struct fft_cuda::impl::cuda_engine final : fft_cuda::impl {
    cuda_engine(size_t n,
                bool forward,
                const std::vector<float>& window,
                bool shift,
                int dev,
                size_t chunk,
                const gpu_tuning& tuning)
        : d_state(dev, n, forward, window, shift, dev, chunk, tuning)
    {
        const fft_state& s = d_state.state();
        length = s.n;
        device_name = s.name;
        shared_memory_limit = s.shared_limit;
        shared_memory_bytes = s.fused.shared_bytes;
        variant = s.variant();
        extra_passes = s.extra_passes();
        callback_status = s.callback_status;
    }
    void execute(const std::complex<float>* in,
                 std::complex<float>* out,
                 size_t n_vectors) override
    {
        d_state([&](fft_state& s) { s.execute(in, out, n_vectors); });
    }
    void execute_device(const std::complex<float>* d_in,
                        std::complex<float>* d_out,
                        size_t n_vectors,
                        void* stream) override
    {
        d_state([&](fft_state& s) {
            s.execute_device(
                d_in, d_out, n_vectors, cuda::stream_or(stream, s.own_stream));
        });
    }
    cuda::on_device<fft_state> d_state;
};

std::unique_ptr<fft_cuda::impl> fft_cuda::impl::make(size_t n,
                                                     bool forward,
                                                     const std::vector<float>& window,
                                                     bool shift,
                                                     int device,
                                                     size_t vectors_per_chunk,
                                                     const gpu_tuning& tuning)
{
    if (n < 1 || n > (size_t(1) << 24))
        throw std::invalid_argument("fft_size=" + std::to_string(n) +
                                    " is out of range; allowed: 1 .. 2^24");
    if (!window.empty() && window.size() != n)
        throw std::invalid_argument(
            "window has " + std::to_string(window.size()) +
            " taps; allowed: none or fft_size=" + std::to_string(n));
    return std::make_unique<cuda_engine>(
        n, forward, window, shift, device, vectors_per_chunk, tuning);
}

} // namespace gpuldpc
} // namespace gr
