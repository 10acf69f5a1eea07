/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gpuldpc/engine/gpu_transforms.h>
#include <type_traits>
#include <algorithm>
#include <stdexcept>

#ifdef GPULDPC_HAVE_CUDA
#include "butterfly.h"
#include "fft_callback_info.h"
#include "fft_pow2.h"
#include "fft_window.h"
#include "fwht.h"
#include "stream_pipeline.h"
#include <cufft.h>
#include <cufftXt.h>
#include <algorithm>
#include <cstdlib>
#endif

namespace gr {
namespace gpuldpc {

size_t gpu_buffer_items(size_t item_bytes)
{
    return std::max<size_t>(2, (size_t(8) << 20) / std::max<size_t>(1, item_bytes));
}

#ifndef GPULDPC_HAVE_CUDA

struct fwht_cuda::impl {
};
struct fft_cuda::impl {
};

namespace {
[[noreturn]] void no_cuda()
{
    throw std::runtime_error("this build of gr-gpuldpc has no CUDA support");
}
} // namespace

fwht_cuda::fwht_cuda(size_t, fwht_normalization, fwht_ordering, int, size_t)
{
    no_cuda();
}
fwht_cuda::~fwht_cuda() = default;
size_t fwht_cuda::length() const { no_cuda(); }
std::string fwht_cuda::device_name() const { no_cuda(); }
size_t fwht_cuda::shared_memory_limit() const { no_cuda(); }
size_t fwht_cuda::shared_memory_bytes() const { no_cuda(); }
std::string fwht_cuda::variant() const { no_cuda(); }
void fwht_cuda::execute(const float*, float*, size_t) { no_cuda(); }
void fwht_cuda::execute_device(const float*, float*, size_t, void*) { no_cuda(); }

fft_cuda::fft_cuda(size_t, bool, const std::vector<float>&, bool, int, size_t)
{
    no_cuda();
}
fft_cuda::~fft_cuda() = default;
size_t fft_cuda::length() const { no_cuda(); }
std::string fft_cuda::device_name() const { no_cuda(); }
int fft_cuda::extra_passes() const { no_cuda(); }
std::string fft_cuda::callback_status() const { no_cuda(); }
size_t fft_cuda::shared_memory_limit() const { no_cuda(); }
size_t fft_cuda::shared_memory_bytes() const { no_cuda(); }
std::string fft_cuda::variant() const { no_cuda(); }
void fft_cuda::execute(const std::complex<float>*, std::complex<float>*, size_t)
{
    no_cuda();
}
void fft_cuda::execute_device(const std::complex<float>*,
                              std::complex<float>*,
                              size_t,
                              void*)
{
    no_cuda();
}

template <typename T>
struct butterfly_cuda<T>::impl {
};
template <typename T>
butterfly_cuda<T>::butterfly_cuda(const butterfly_network&, int, bool, size_t)
{
    no_cuda();
}
template <typename T>
butterfly_cuda<T>::~butterfly_cuda() = default;
template <typename T>
size_t butterfly_cuda<T>::length() const
{
    no_cuda();
}
template <typename T>
std::string butterfly_cuda<T>::device_name() const
{
    no_cuda();
}
template <typename T>
size_t butterfly_cuda<T>::bank_conflicts() const
{
    no_cuda();
}
template <typename T>
size_t butterfly_cuda<T>::shared_memory_limit() const
{
    no_cuda();
}
template <typename T>
size_t butterfly_cuda<T>::shared_memory_bytes() const
{
    no_cuda();
}
template <typename T>
std::string butterfly_cuda<T>::variant() const
{
    no_cuda();
}
template <typename T>
void butterfly_cuda<T>::execute(const T*, T*, size_t)
{
    no_cuda();
}
template <typename T>
void butterfly_cuda<T>::execute_device(const T*, T*, size_t, void*)
{
    no_cuda();
}

#else

namespace {

std::string name_of(int device)
{
    cudaDeviceProp prop;
    GPULDPC_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    return std::string(prop.name) + " (cuda:" + std::to_string(device) + ")";
}

// Chunks of about 8 MiB keep both copy directions and the kernels busy
// without holding much pinned memory.
size_t default_chunk(size_t item_bytes)
{
    return std::max<size_t>(1, (size_t(8) << 20) / item_bytes);
}

// Device memory that kernels use between launches (a copy of in-place data, a
// global-memory work area), with an event so that work enqueued on another
// stream waits until the previous user is done.
template <typename T>
struct scratch_area {
    cuda::device_buffer<T> buffer;
    cuda::event free;
    size_t vectors = 0;
    void allocate(size_t count, size_t n)
    {
        buffer = cuda::device_buffer<T>(count * n);
        vectors = count;
    }
    void acquire(cudaStream_t s) const
    {
        GPULDPC_CUDA_CHECK(cudaStreamWaitEvent(s, free.get(), 0));
    }
    void release(cudaStream_t s) const { free.record(s); }
};

std::string kib(size_t bytes)
{
    return std::to_string(bytes) + " B (" + std::to_string((bytes + 1023) / 1024) +
           " KiB)";
}

#define GPULDPC_CUFFT_CHECK(call)                                                       \
    do {                                                                                \
        const cufftResult r_ = (call);                                                  \
        if (r_ != CUFFT_SUCCESS)                                                        \
            throw cuda_error(std::string(__FILE__) + ":" + std::to_string(__LINE__) +   \
                                 ": " #call ": cufftResult " + std::to_string(int(r_)), \
                             int(r_));                                                  \
    } while (0)

} // namespace

struct fwht_cuda::impl {
    impl(size_t n_, const fwht_cpu& cpu, int dev, size_t chunk)
        : n(n_),
          device(dev),
          name(name_of(dev)),
          shared_limit(cuda_shared_memory_limit(dev)),
          params{ nullptr,
                  nullptr,
                  0,
                  checked_log2(n_, fwht_cpu::min_length, fwht_cpu::max_length, "n"),
                  cpu.scale(),
                  cpu.ordering() == fwht_ordering::sequency,
                  shared_limit },
          apart(kernels::fwht_choose(params.log2n, params.sequency, false, shared_limit)),
          in_place(
              kernels::fwht_choose(params.log2n, params.sequency, true, shared_limit)),
          pipeline(n_ * sizeof(float),
                   n_ * sizeof(float),
                   chunk ? chunk : default_chunk(n_ * 4))
    {
        // in place where the whole vector does not fit a block: copied to a
        // scratch buffer first (execute_device only; the pipeline never
        // transforms in place)
        if (in_place.piece_log2n == 0)
            copy.allocate(pipeline.items_per_chunk(), n);
    }
    void launch(const float* in, float* out, size_t vectors, cudaStream_t s)
    {
        kernels::fwht_params p = params;
        p.in = in;
        p.out = out;
        p.n_vectors = vectors;
        kernels::launch_fwht(p, s);
    }
    size_t n;
    int device;
    std::string name;
    size_t shared_limit;
    kernels::fwht_params params;
    kernels::fwht_variant apart, in_place;
    scratch_area<float> copy;
    cuda::stream own_stream;
    cuda::stream_pipeline pipeline;
};

fwht_cuda::fwht_cuda(size_t n,
                     fwht_normalization normalization,
                     fwht_ordering ordering,
                     int device,
                     size_t vectors_per_chunk)
{
    const fwht_cpu cpu(n, normalization, ordering); // validates n
    cuda::scoped_device dev(device);
    d_impl = std::make_unique<impl>(n, cpu, device, vectors_per_chunk);
}

fwht_cuda::~fwht_cuda()
{
    if (!d_impl)
        return;
    // streams and buffers belong to the object's device
    cuda::scoped_device dev(d_impl->device, std::nothrow);
    d_impl.reset();
}
size_t fwht_cuda::length() const { return d_impl->n; }
std::string fwht_cuda::device_name() const { return d_impl->name; }
size_t fwht_cuda::shared_memory_limit() const { return d_impl->shared_limit; }

size_t fwht_cuda::shared_memory_bytes() const
{
    return std::max(d_impl->apart.shared_bytes, d_impl->in_place.shared_bytes);
}

std::string fwht_cuda::variant() const
{
    const kernels::fwht_variant& v = d_impl->apart;
    std::string text = v.split_log2 == 0
                           ? std::string("whole vectors per block")
                           : "vectors split in " + std::to_string(1u << v.split_log2) +
                                 " pieces of " + std::to_string(1u << v.piece_log2n);
    text += ", " + kib(v.shared_bytes) + " of shared memory";
    if (d_impl->in_place.piece_log2n == 0)
        text += "; in place through a device copy";
    return text;
}

void fwht_cuda::execute(const float* in, float* out, size_t n_vectors)
{
    cuda::scoped_device dev(d_impl->device);
    d_impl->pipeline.run(
        in,
        out,
        n_vectors,
        [this](const void* i, void* o, size_t v, cudaStream_t s, int) {
            d_impl->launch(static_cast<const float*>(i), static_cast<float*>(o), v, s);
        });
}

void fwht_cuda::execute_device(const float* d_in,
                               float* d_out,
                               size_t n_vectors,
                               void* stream)
{
    cuda::scoped_device dev(d_impl->device);
    const cudaStream_t s =
        stream ? static_cast<cudaStream_t>(stream) : d_impl->own_stream.get();
    if (d_in != d_out || d_impl->in_place.piece_log2n != 0) {
        d_impl->launch(d_in, d_out, n_vectors, s);
        return;
    }
    const auto& copy = d_impl->copy;
    const size_t n = d_impl->n;
    for (size_t done = 0; done < n_vectors; done += copy.vectors) {
        const size_t v = std::min(copy.vectors, n_vectors - done);
        copy.acquire(s);
        GPULDPC_CUDA_CHECK(cudaMemcpyAsync(copy.buffer.data(),
                                           d_in + done * n,
                                           v * n * sizeof(float),
                                           cudaMemcpyDeviceToDevice,
                                           s));
        d_impl->launch(copy.buffer.data(), d_out + done * n, v, s);
        copy.release(s);
    }
}

struct fft_cuda::impl {
    impl(size_t n_,
         bool fwd,
         const std::vector<float>& win,
         bool shift,
         int dev,
         size_t chunk_)
        : n(n_),
          device(dev),
          name(name_of(dev)),
          shared_limit(cuda_shared_memory_limit(dev)),
          forward(fwd),
          chunk(chunk_ ? chunk_ : default_chunk(n_ * 8)),
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
                int nn = int(n);
                size_t ws = 0;
                GPULDPC_CUFFT_CHECK(cufftMakePlanMany(plan,
                                                      1,
                                                      &nn,
                                                      nullptr,
                                                      1,
                                                      nn,
                                                      nullptr,
                                                      1,
                                                      nn,
                                                      CUFFT_C2C,
                                                      int(b),
                                                      &ws));
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
        const char* try_callbacks = std::getenv("GPULDPC_CUFFT_CALLBACKS");
        if (prepares() && !rotate_out && try_callbacks &&
            std::string(try_callbacks) == "1")
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
            int nn = int(n);
            size_t ws = 0;
            const cufftResult set =
                cufftXtSetJITCallback(plan,
                                      kernels::fft_callback_symbol,
                                      kernels::fft_callback_fatbin,
                                      kernels::fft_callback_fatbin_size,
                                      CUFFT_CB_LD_COMPLEX,
                                      &info_ptr);
            const cufftResult made = set != CUFFT_SUCCESS ? set
                                                          : cufftMakePlanMany(plan,
                                                                              1,
                                                                              &nn,
                                                                              nullptr,
                                                                              1,
                                                                              nn,
                                                                              nullptr,
                                                                              1,
                                                                              nn,
                                                                              CUFFT_C2C,
                                                                              int(chunk),
                                                                              &ws);
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
    ~impl()
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

    size_t n;
    int device;
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

fft_cuda::fft_cuda(size_t n,
                   bool forward,
                   const std::vector<float>& window,
                   bool shift,
                   int device,
                   size_t vectors_per_chunk)
{
    if (n < 1 || n > (size_t(1) << 24))
        throw std::invalid_argument("fft_size=" + std::to_string(n) +
                                    " is out of range; allowed: 1 .. 2^24");
    if (!window.empty() && window.size() != n)
        throw std::invalid_argument(
            "window has " + std::to_string(window.size()) +
            " taps; allowed: none or fft_size=" + std::to_string(n));
    cuda::scoped_device dev(device);
    d_impl = std::make_unique<impl>(n, forward, window, shift, device, vectors_per_chunk);
}

fft_cuda::~fft_cuda()
{
    if (!d_impl)
        return;
    // plans, streams and buffers belong to the object's device
    cuda::scoped_device dev(d_impl->device, std::nothrow);
    d_impl.reset();
}
size_t fft_cuda::length() const { return d_impl->n; }
std::string fft_cuda::device_name() const { return d_impl->name; }
std::string fft_cuda::callback_status() const { return d_impl->callback_status; }
size_t fft_cuda::shared_memory_limit() const { return d_impl->shared_limit; }
size_t fft_cuda::shared_memory_bytes() const { return d_impl->fused.shared_bytes; }

std::string fft_cuda::variant() const
{
    const kernels::fft_pow2_variant& v = d_impl->fused;
    if (v.piece_log2n == 0)
        return d_impl->prepares() ? "cuFFT after the preparation kernel" : "cuFFT";
    std::string text = "one-pass kernel, ";
    text += v.split_log2 ? "vectors split in " + std::to_string(1u << v.split_log2) +
                               " pieces of " + std::to_string(1u << v.piece_log2n)
                         : std::string("whole vectors per block");
    text += v.buffers == 2 ? ", two buffers" : ", one buffer";
    if (!d_impl->window.size())
        text += ", no window";
    else
        text +=
            v.window_shared ? ", window in shared memory" : ", window from global memory";
    return text + ", " + kib(v.shared_bytes) + " of shared memory";
}

int fft_cuda::extra_passes() const
{
    // full chunks; a shorter tail takes the preparation kernel
    if (d_impl->callback_plans[0] || d_impl->fused.piece_log2n)
        return 0;
    return (d_impl->prepares() ? 1 : 0) + (d_impl->rotate_out ? 1 : 0);
}

void fft_cuda::execute(const std::complex<float>* in,
                       std::complex<float>* out,
                       size_t n_vectors)
{
    cuda::scoped_device dev(d_impl->device);
    d_impl->pipeline.run(
        in,
        out,
        n_vectors,
        [this](const void* i, void* o, size_t v, cudaStream_t s, int slot) {
            d_impl->transform(
                static_cast<const float2*>(i), static_cast<float2*>(o), v, s, slot);
        });
}

void fft_cuda::execute_device(const std::complex<float>* d_in,
                              std::complex<float>* d_out,
                              size_t n_vectors,
                              void* stream)
{
    cuda::scoped_device dev(d_impl->device);
    const cudaStream_t s =
        stream ? static_cast<cudaStream_t>(stream) : d_impl->own_stream.get();
    const auto* in = reinterpret_cast<const float2*>(d_in);
    auto* out = reinterpret_cast<float2*>(d_out);
    for (size_t done = 0; done < n_vectors; done += d_impl->chunk) {
        const size_t v = std::min(d_impl->chunk, n_vectors - done);
        d_impl->transform(in + done * d_impl->n, out + done * d_impl->n, v, s, 0);
    }
}

namespace {
template <typename T>
constexpr kernels::butterfly_type type_of()
{
    if constexpr (std::is_same_v<T, int32_t>)
        return kernels::butterfly_type::int32;
    else if constexpr (std::is_same_v<T, float>)
        return kernels::butterfly_type::float32;
    else
        return kernels::butterfly_type::complex64;
}

template <typename V>
cuda::device_buffer<V> upload(const std::vector<V>& host)
{
    cuda::device_buffer<V> d(host.size());
    if (!host.empty())
        GPULDPC_CUDA_CHECK(cudaMemcpy(
            d.data(), host.data(), host.size() * sizeof(V), cudaMemcpyHostToDevice));
    return d;
}
} // namespace

template <typename T>
struct butterfly_cuda<T>::impl {
    impl(butterfly_network net, int dev, bool reorder, size_t chunk)
        : n(net.n),
          device(dev),
          name(name_of(dev)),
          shared_limit(cuda_shared_memory_limit(dev)),
          chosen(kernels::butterfly_choose(type_of<T>(), unsigned(net.n), shared_limit)),
          pipeline(net.n * sizeof(T),
                   net.n * sizeof(T),
                   chunk ? chunk : default_chunk(net.n * sizeof(T)))
    {
        // vectors larger than the shared memory allowed run in global memory:
        // a work area per pipeline stream (the two run concurrently)
        if (chosen.global)
            for (auto& area : work)
                area.allocate(pipeline.items_per_chunk(), n);
        if (reorder)
            net.reorder_for_banks();
        conflicts = net.bank_conflicts();
        std::vector<uint32_t> offsets{ 0 }, pairs;
        std::vector<uint16_t> ids;
        for (size_t s = 0; s < net.stages.size(); ++s) {
            for (size_t p = 0; p < net.stages[s].size(); ++p) {
                pairs.push_back(uint32_t(net.stages[s][p].first) |
                                (uint32_t(net.stages[s][p].second) << 16));
                if (!net.kernel_ids.empty())
                    ids.push_back(net.kernel_ids[s][p]);
            }
            offsets.push_back(uint32_t(pairs.size()));
        }
        std::vector<float> coef, divs;
        for (const auto& k : net.kernels) {
            for (int c = 0; c < 4; ++c) {
                coef.push_back(k.k[c].real());
                if (type_of<T>() == kernels::butterfly_type::complex64)
                    coef.push_back(k.k[c].imag());
            }
            divs.push_back(k.div);
        }
        d_offsets = upload(offsets);
        d_pairs = upload(pairs);
        d_ids = upload(ids);
        d_coef = upload(coef);
        d_divs = upload(divs);
        d_pre = upload(net.pre_perm);
        d_post = upload(net.post_perm);
        params.type = type_of<T>();
        params.arith =
            net.mod2 ? kernels::butterfly_arith::mod2 : kernels::butterfly_arith::ring;
        params.n = net.n;
        params.n_stages = unsigned(net.stages.size());
        params.stage_offsets = d_offsets.data();
        params.pairs = d_pairs.data();
        params.kernel_ids = ids.empty() ? nullptr : d_ids.data();
        params.kernels = d_coef.data();
        params.kernel_divs = d_divs.data();
        params.pre_perm = net.pre_perm.empty() ? nullptr : d_pre.data();
        params.post_perm = net.post_perm.empty() ? nullptr : d_post.data();
        params.final_div = net.final_div;
        params.shared_limit = shared_limit;
    }
    void launch(const void* in, void* out, size_t vectors, cudaStream_t s, int slot)
    {
        kernels::butterfly_params p = params;
        p.in = in;
        p.out = out;
        p.n_vectors = vectors;
        if (!chosen.global) {
            kernels::launch_butterfly(p, s);
            return;
        }
        const auto& area = work[slot];
        p.scratch = area.buffer.data();
        p.scratch_vectors = area.vectors;
        area.acquire(s);
        kernels::launch_butterfly(p, s);
        area.release(s);
    }
    size_t n;
    int device;
    std::string name;
    size_t shared_limit;
    kernels::butterfly_variant chosen;
    scratch_area<T> work[cuda::stream_pipeline::kSlots];
    size_t conflicts = 0;
    kernels::butterfly_params params{};
    cuda::device_buffer<uint32_t> d_offsets, d_pairs;
    cuda::device_buffer<uint16_t> d_ids, d_pre, d_post;
    cuda::device_buffer<float> d_coef, d_divs;
    cuda::stream own_stream;
    cuda::stream_pipeline pipeline;
};

template <typename T>
butterfly_cuda<T>::butterfly_cuda(const butterfly_network& network,
                                  int device,
                                  bool reorder,
                                  size_t vectors_per_chunk)
{
    cuda::scoped_device dev(device);
    d_impl = std::make_unique<impl>(network, device, reorder, vectors_per_chunk);
}

template <typename T>
butterfly_cuda<T>::~butterfly_cuda()
{
    if (!d_impl)
        return;
    cuda::scoped_device dev(d_impl->device, std::nothrow);
    d_impl.reset();
}

template <typename T>
size_t butterfly_cuda<T>::length() const
{
    return d_impl->n;
}

template <typename T>
std::string butterfly_cuda<T>::device_name() const
{
    return d_impl->name;
}

template <typename T>
size_t butterfly_cuda<T>::bank_conflicts() const
{
    return d_impl->conflicts;
}

template <typename T>
size_t butterfly_cuda<T>::shared_memory_limit() const
{
    return d_impl->shared_limit;
}

template <typename T>
size_t butterfly_cuda<T>::shared_memory_bytes() const
{
    return d_impl->chosen.shared_bytes;
}

template <typename T>
std::string butterfly_cuda<T>::variant() const
{
    const kernels::butterfly_variant& v = d_impl->chosen;
    if (v.global)
        return "one vector per block in global memory (larger than the shared-memory "
               "limit)";
    return std::to_string(v.vectors_per_block) +
           " vector(s) per block in shared memory, " + kib(v.shared_bytes);
}

template <typename T>
void butterfly_cuda<T>::execute(const T* in, T* out, size_t n_vectors)
{
    cuda::scoped_device dev(d_impl->device);
    d_impl->pipeline.run(
        in,
        out,
        n_vectors,
        [this](const void* i, void* o, size_t v, cudaStream_t s, int slot) {
            d_impl->launch(i, o, v, s, slot);
        });
}

template <typename T>
void butterfly_cuda<T>::execute_device(const T* d_in,
                                       T* d_out,
                                       size_t n_vectors,
                                       void* stream)
{
    cuda::scoped_device dev(d_impl->device);
    d_impl->launch(d_in,
                   d_out,
                   n_vectors,
                   stream ? static_cast<cudaStream_t>(stream) : d_impl->own_stream.get(),
                   0);
}

#endif

template class butterfly_cuda<int32_t>;
template class butterfly_cuda<float>;
template class butterfly_cuda<std::complex<float>>;

} // namespace gpuldpc
} // namespace gr
