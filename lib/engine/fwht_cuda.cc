/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// fwht_cuda's CUDA backend (CUDA builds only).

#include "gpu_transforms_cuda.h"
#include "transforms/fwht.h"
#include <gnuradio/gpuldpc/engine/device.h>
#include <algorithm>

namespace gr {
namespace gpuldpc {

namespace {

struct fwht_state {
    fwht_state(const fwht_cpu& cpu, int dev, size_t chunk, const gpu_tuning& tuning)
        : n(cpu.length()),
          name(cuda::device_label(dev)),
          shared_limit(cuda_shared_memory_limit(dev, tuning)),
          params{ nullptr,
                  nullptr,
                  0,
                  checked_log2(n, fwht_cpu::min_length, fwht_cpu::max_length, "n"),
                  cpu.scale(),
                  cpu.ordering() == fwht_ordering::sequency,
                  shared_limit },
          apart(kernels::fwht_choose(params.log2n, params.sequency, false, shared_limit)),
          in_place(
              kernels::fwht_choose(params.log2n, params.sequency, true, shared_limit)),
          pipeline(n * sizeof(float),
                   n * sizeof(float),
                   chunk ? chunk : cuda::default_chunk(n * 4))
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

    void execute(const float* in, float* out, size_t n_vectors)
    {
        pipeline.run(in,
                     out,
                     n_vectors,
                     [this](const void* i, void* o, size_t v, cudaStream_t s, int) {
                         launch(
                             static_cast<const float*>(i), static_cast<float*>(o), v, s);
                     });
    }

    void execute_device(const float* d_in, float* d_out, size_t n_vectors, cudaStream_t s)
    {
        if (d_in != d_out || in_place.piece_log2n != 0) {
            launch(d_in, d_out, n_vectors, s);
            return;
        }
        for (size_t done = 0; done < n_vectors; done += copy.vectors) {
            const size_t v = std::min(copy.vectors, n_vectors - done);
            copy.acquire(s);
            GPULDPC_CUDA_CHECK(cudaMemcpyAsync(copy.buffer.data(),
                                               d_in + done * n,
                                               v * n * sizeof(float),
                                               cudaMemcpyDeviceToDevice,
                                               s));
            launch(copy.buffer.data(), d_out + done * n, v, s);
            copy.release(s);
        }
    }

    std::string variant() const
    {
        const kernels::fwht_variant& v = apart;
        std::string text =
            v.split_log2 == 0 ? std::string("whole vectors per block")
                              : "vectors split in " + std::to_string(1u << v.split_log2) +
                                    " pieces of " + std::to_string(1u << v.piece_log2n);
        text += ", " + cuda::kib(v.shared_bytes) + " of shared memory";
        if (in_place.piece_log2n == 0)
            text += "; in place through a device copy";
        return text;
    }

    size_t n;
    std::string name;
    size_t shared_limit;
    kernels::fwht_params params;
    kernels::fwht_variant apart, in_place;
    cuda::scratch_area<float> copy;
    cuda::stream own_stream;
    cuda::stream_pipeline pipeline;
};

} // namespace

struct fwht_cuda::impl::cuda_engine final : fwht_cuda::impl {
    cuda_engine(const fwht_cpu& cpu, int dev, size_t chunk, const gpu_tuning& tuning)
        : d_state(dev, cpu, dev, chunk, tuning)
    {
        const fwht_state& s = d_state.state();
        length = s.n;
        device_name = s.name;
        shared_memory_limit = s.shared_limit;
        shared_memory_bytes = std::max(s.apart.shared_bytes, s.in_place.shared_bytes);
        variant = s.variant();
    }
    void execute(const float* in, float* out, size_t n_vectors) override
    {
        d_state([&](fwht_state& s) { s.execute(in, out, n_vectors); });
    }
    void execute_device(const float* d_in,
                        float* d_out,
                        size_t n_vectors,
                        void* stream) override
    {
        d_state([&](fwht_state& s) {
            s.execute_device(
                d_in, d_out, n_vectors, cuda::stream_or(stream, s.own_stream));
        });
    }
    cuda::on_device<fwht_state> d_state;
};

std::unique_ptr<fwht_cuda::impl> fwht_cuda::impl::make(size_t n,
                                                       fwht_normalization normalization,
                                                       fwht_ordering ordering,
                                                       int device,
                                                       size_t vectors_per_chunk,
                                                       const gpu_tuning& tuning)
{
    const fwht_cpu cpu(n, normalization, ordering); // validates n
    return std::make_unique<cuda_engine>(cpu, device, vectors_per_chunk, tuning);
}

} // namespace gpuldpc
} // namespace gr
