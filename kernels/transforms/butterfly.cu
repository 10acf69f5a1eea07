/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "transforms/butterfly.h"
#include "common/cuda_check.h"
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuldpc {
namespace kernels {

namespace {

constexpr int kThreads = 256;
// shared memory budget per block for several vectors (opt-in above 48 KiB); a
// single vector may take up to the limit. 64 KiB beat 96 on an H100 (128 MiB
// batches, Walsh n = 1024: 12.8 % of copy bandwidth against 9.2 %; n = 4096:
// 11.5 against 7.6 %): more blocks per SM.
constexpr size_t kSmemBudget = 64 * 1024;
// threads of a block of the global-memory variant, which holds one vector
constexpr int kGlobalThreads = 1024;

template <typename T>
struct elem;

template <>
struct elem<int32_t> {
    using kernel_t = float;
    __device__ static int32_t apply(int32_t a, int32_t b, float k0, float k1, float div)
    {
        // wrap modulo 2^32 like the CPU reference
        const uint32_t r =
            uint32_t(int32_t(k0)) * uint32_t(a) + uint32_t(int32_t(k1)) * uint32_t(b);
        return div == 1.0f ? int32_t(r) : int32_t(r) / int32_t(div);
    }
    __device__ static int32_t mod2(int32_t a) { return a & 1; }
    __device__ static int32_t divide(int32_t a, float d) { return a / int32_t(d); }
};

template <>
struct elem<float> {
    using kernel_t = float;
    __device__ static float apply(float a, float b, float k0, float k1, float div)
    {
        // the CPU reference computes a + b, b - a, (a + b) * 0.5: keep the same
        // operations (no fused multiply-add) so results are identical
        const float r = __fadd_rn(__fmul_rn(k0, a), __fmul_rn(k1, b));
        return div == 1.0f ? r : __fmul_rn(r, 1.0f / div);
    }
    __device__ static float mod2(float a) { return float(__float2ll_rn(a) & 1); }
    __device__ static float divide(float a, float d) { return a / d; }
};

template <>
struct elem<float2> {
    using kernel_t = float2;
    __device__ static float2 apply(float2 a, float2 b, float2 k0, float2 k1, float div)
    {
        float2 r;
        r.x = k0.x * a.x - k0.y * a.y + k1.x * b.x - k1.y * b.y;
        r.y = k0.x * a.y + k0.y * a.x + k1.x * b.y + k1.y * b.x;
        if (div != 1.0f) {
            r.x /= div;
            r.y /= div;
        }
        return r;
    }
    __device__ static float2 mod2(float2 a) { return a; }
    __device__ static float2 divide(float2 a, float d)
    {
        return make_float2(a.x / d, a.y / d);
    }
};

// The stages on `here` vectors of a block, vector v at x + v * stride, one
// barrier per stage. x is shared memory, or global memory that only this
// block touches (__syncthreads orders global memory within a block too).
template <typename T>
__device__ void
run_stages(const butterfly_params& p, T* x0, unsigned stride, unsigned here)
{
    using K = typename elem<T>::kernel_t;
    const K* kernels = reinterpret_cast<const K*>(p.kernels);
    for (unsigned s = 0; s < p.n_stages; ++s) {
        const unsigned begin = p.stage_offsets[s], count = p.stage_offsets[s + 1] - begin;
        for (unsigned e = threadIdx.x; e < here * count; e += blockDim.x) {
            const unsigned v = e / count, q = begin + (e - v * count);
            const uint32_t pair = __ldg(p.pairs + q);
            const unsigned i = pair & 0xffffu, j = pair >> 16;
            const unsigned kid = p.kernel_ids ? __ldg(p.kernel_ids + q) : 0u;
            T* x = x0 + size_t(v) * stride;
            const T a = x[i], b = x[j];
            if (p.arith == butterfly_arith::mod2) {
                const T ma = elem<T>::mod2(a);
                x[i] = ma;
                x[j] = elem<T>::mod2(elem<T>::apply(ma,
                                                    elem<T>::mod2(b),
                                                    kernels[4 * kid + 2],
                                                    kernels[4 * kid + 3],
                                                    1.0f));
            } else {
                const float div = p.kernel_divs[kid];
                x[i] = elem<T>::apply(a, b, kernels[4 * kid], kernels[4 * kid + 1], div);
                x[j] =
                    elem<T>::apply(a, b, kernels[4 * kid + 2], kernels[4 * kid + 3], div);
            }
        }
        __syncthreads();
    }
}

// Vectors of a block in shared memory, vector v at smem + v * stride; with
// several vectors the stride is odd (n + 1), which spreads them over the banks.
// Every vector is read before it is written, by its block alone: in may
// equal out.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    butterfly_kernel(butterfly_params p, unsigned vpb, unsigned stride)
{
    extern __shared__ unsigned char smem_raw[];
    T* smem = reinterpret_cast<T*>(smem_raw);
    const unsigned n = p.n;
    const size_t first = size_t(blockIdx.x) * vpb;
    const unsigned here = unsigned(min(size_t(vpb), p.n_vectors - first));
    const T* in = static_cast<const T*>(p.in) + first * n;
    T* out = static_cast<T*>(p.out) + first * n;

    // load (gathering through pre_perm), coalesced over the block's vectors
    for (unsigned e = threadIdx.x; e < here * n; e += blockDim.x) {
        const unsigned v = e / n, k = e - v * n;
        const unsigned src = p.pre_perm ? p.pre_perm[k] : k;
        smem[v * stride + k] = in[size_t(v) * n + src];
    }
    __syncthreads();
    run_stages<T>(p, smem, stride, here);
    for (unsigned e = threadIdx.x; e < here * n; e += blockDim.x) {
        const unsigned v = e / n, k = e - v * n;
        const unsigned src = p.post_perm ? p.post_perm[k] : k;
        T y = smem[v * stride + src];
        if (p.final_div != 1.0f)
            y = elem<T>::divide(y, p.final_div);
        out[size_t(v) * n + k] = y;
    }
}

// A vector larger than the shared memory a block may take: one block per
// vector, the stages on the vector's slot of `scratch` in global memory (L2
// holds it). Slower than shared memory, but on the GPU.
template <typename T>
__global__ void __launch_bounds__(kGlobalThreads)
    butterfly_global_kernel(butterfly_params p, T* scratch)
{
    const unsigned n = p.n;
    const T* in = static_cast<const T*>(p.in) + size_t(blockIdx.x) * n;
    T* out = static_cast<T*>(p.out) + size_t(blockIdx.x) * n;
    T* x = scratch + size_t(blockIdx.x) * n;
    for (unsigned k = threadIdx.x; k < n; k += blockDim.x)
        x[k] = in[p.pre_perm ? p.pre_perm[k] : k];
    __syncthreads();
    run_stages<T>(p, x, n, 1);
    for (unsigned k = threadIdx.x; k < n; k += blockDim.x) {
        T y = x[p.post_perm ? p.post_perm[k] : k];
        if (p.final_div != 1.0f)
            y = elem<T>::divide(y, p.final_div);
        out[k] = y;
    }
}

size_t elem_bytes(butterfly_type t) { return t == butterfly_type::complex64 ? 8 : 4; }

template <typename T>
void launch_typed(const butterfly_params& p, cudaStream_t stream)
{
    const butterfly_variant v = butterfly_choose(p.type, p.n, p.shared_limit);
    if (v.global) {
        if (!p.scratch || p.scratch_vectors == 0)
            throw std::invalid_argument("butterfly: n=" + std::to_string(p.n) +
                                        " needs a scratch buffer under a shared-memory "
                                        "limit of " +
                                        std::to_string(p.shared_limit) + " bytes");
        for (size_t first = 0; first < p.n_vectors; first += p.scratch_vectors) {
            butterfly_params q = p;
            q.in = static_cast<const T*>(p.in) + first * p.n;
            q.out = static_cast<T*>(p.out) + first * p.n;
            q.n_vectors = std::min(p.scratch_vectors, p.n_vectors - first);
            butterfly_global_kernel<T>
                <<<unsigned(q.n_vectors), kGlobalThreads, 0, stream>>>(
                    q, static_cast<T*>(p.scratch));
            GPULDPC_CUDA_CHECK_LAUNCH("butterfly_global_kernel");
        }
        return;
    }
    if (v.shared_bytes > 48 * 1024)
        allow_large_shared_memory(reinterpret_cast<const void*>(butterfly_kernel<T>));
    const size_t blocks = (p.n_vectors + v.vectors_per_block - 1) / v.vectors_per_block;
    butterfly_kernel<T><<<unsigned(blocks), kThreads, v.shared_bytes, stream>>>(
        p, v.vectors_per_block, v.stride);
    GPULDPC_CUDA_CHECK_LAUNCH("butterfly_kernel");
}

} // namespace

butterfly_variant butterfly_choose(butterfly_type type, unsigned n, size_t shared_limit)
{
    const size_t limit = shared_limit ? shared_limit : SIZE_MAX;
    const size_t elem = elem_bytes(type);
    butterfly_variant v{};
    const size_t fit = std::min(kSmemBudget, limit) / ((size_t(n) + 1) * elem);
    if (fit >= 2) {
        v.vectors_per_block = unsigned(std::min<size_t>(fit, 64));
        v.stride = n + 1;
    } else if (size_t(n) * elem <= limit) {
        v.vectors_per_block = 1; // one vector needs no odd stride
        v.stride = n;
    } else {
        v.global = true;
        return v;
    }
    v.shared_bytes = size_t(v.vectors_per_block) * v.stride * elem;
    return v;
}

void launch_butterfly(const butterfly_params& p, cudaStream_t stream)
{
    if (p.n < 2 || p.n > 32768 || (p.type == butterfly_type::complex64 && p.n > 16384))
        throw std::invalid_argument(
            "butterfly: n=" + std::to_string(p.n) +
            " is out of range; allowed: 2 .. 32768 (complex: 16384)");
    if (p.n_vectors == 0)
        return;
    switch (p.type) {
    case butterfly_type::int32:
        launch_typed<int32_t>(p, stream);
        break;
    case butterfly_type::float32:
        launch_typed<float>(p, stream);
        break;
    case butterfly_type::complex64:
        launch_typed<float2>(p, stream);
        break;
    }
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
