/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// butterfly_cuda's CUDA backend (CUDA builds only).

#include "gpu_transforms_cuda.h"
#include "transforms/butterfly.h"
#include <gnuradio/gpuldpc/engine/device.h>
#include <type_traits>
#include <cstdint>

namespace gr {
namespace gpuldpc {

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

template <typename T>
struct butterfly_state {
    butterfly_state(butterfly_network net,
                    int dev,
                    bool reorder,
                    size_t chunk,
                    const gpu_tuning& tuning)
        : n(net.n),
          name(cuda::device_label(dev)),
          shared_limit(cuda_shared_memory_limit(dev, tuning)),
          chosen(kernels::butterfly_choose(type_of<T>(), unsigned(net.n), shared_limit)),
          pipeline(net.n * sizeof(T),
                   net.n * sizeof(T),
                   chunk ? chunk : cuda::default_chunk(net.n * sizeof(T)))
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
        d_offsets = cuda::upload(offsets);
        d_pairs = cuda::upload(pairs);
        d_ids = cuda::upload(ids);
        d_coef = cuda::upload(coef);
        d_divs = cuda::upload(divs);
        d_pre = cuda::upload(net.pre_perm);
        d_post = cuda::upload(net.post_perm);
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
    void execute(const T* in, T* out, size_t n_vectors)
    {
        pipeline.run(in,
                     out,
                     n_vectors,
                     [this](const void* i, void* o, size_t v, cudaStream_t s, int slot) {
                         launch(i, o, v, s, slot);
                     });
    }

    std::string variant() const
    {
        if (chosen.global)
            return "one vector per block in global memory (larger than the "
                   "shared-memory limit)";
        return std::to_string(chosen.vectors_per_block) +
               " vector(s) per block in shared memory, " + cuda::kib(chosen.shared_bytes);
    }

    size_t n;
    std::string name;
    size_t shared_limit;
    kernels::butterfly_variant chosen;
    cuda::scratch_area<T> work[cuda::stream_pipeline::kSlots];
    size_t conflicts = 0;
    kernels::butterfly_params params{};
    cuda::device_buffer<uint32_t> d_offsets, d_pairs;
    cuda::device_buffer<uint16_t> d_ids, d_pre, d_post;
    cuda::device_buffer<float> d_coef, d_divs;
    cuda::stream own_stream;
    cuda::stream_pipeline pipeline;
};


} // namespace

template <typename T>
struct butterfly_cuda<T>::impl::cuda_engine final : butterfly_cuda<T>::impl {
    cuda_engine(const butterfly_network& network,
                int dev,
                bool reorder,
                size_t chunk,
                const gpu_tuning& tuning)
        : d_state(dev, network, dev, reorder, chunk, tuning)
    {
        const butterfly_state<T>& s = d_state.state();
        this->length = s.n;
        this->device_name = s.name;
        this->shared_memory_limit = s.shared_limit;
        this->shared_memory_bytes = s.chosen.shared_bytes;
        this->variant = s.variant();
        this->bank_conflicts = s.conflicts;
    }
    void execute(const T* in, T* out, size_t n_vectors) override
    {
        d_state([&](butterfly_state<T>& s) { s.execute(in, out, n_vectors); });
    }
    void execute_device(const T* d_in, T* d_out, size_t n_vectors, void* stream) override
    {
        d_state([&](butterfly_state<T>& s) {
            s.launch(d_in, d_out, n_vectors, cuda::stream_or(stream, s.own_stream), 0);
        });
    }
    cuda::on_device<butterfly_state<T>> d_state;
};

template <typename T>
std::unique_ptr<typename butterfly_cuda<T>::impl>
butterfly_cuda<T>::impl::make(const butterfly_network& network,
                              int device,
                              bool reorder,
                              size_t vectors_per_chunk,
                              const gpu_tuning& tuning)
{
    return std::make_unique<cuda_engine>(
        network, device, reorder, vectors_per_chunk, tuning);
}

template std::unique_ptr<butterfly_cuda<int32_t>::impl>
butterfly_cuda<int32_t>::impl::make(
    const butterfly_network&, int, bool, size_t, const gpu_tuning&);
template std::unique_ptr<butterfly_cuda<float>::impl> butterfly_cuda<float>::impl::make(
    const butterfly_network&, int, bool, size_t, const gpu_tuning&);
template std::unique_ptr<butterfly_cuda<std::complex<float>>::impl>
butterfly_cuda<std::complex<float>>::impl::make(
    const butterfly_network&, int, bool, size_t, const gpu_tuning&);

} // namespace gpuldpc
} // namespace gr
