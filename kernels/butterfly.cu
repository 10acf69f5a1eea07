/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "butterfly.h"
#include "cuda_check.h"
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuldpc {
namespace kernels {

namespace {

constexpr int kThreads = 256;
// shared memory budget per block for the vectors (opt-in above 48 KiB)
constexpr size_t kSmemBudget = 96 * 1024;

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

// Vector v of a block lives at smem + v * stride; an odd stride spreads
// vectors of a warp over the banks.
__host__ __device__ inline unsigned vector_stride(unsigned n) { return n + 1; }

template <typename T>
__global__ void __launch_bounds__(kThreads)
    butterfly_kernel(butterfly_params p, unsigned vpb)
{
    using K = typename elem<T>::kernel_t;
    extern __shared__ unsigned char smem_raw[];
    T* smem = reinterpret_cast<T*>(smem_raw);
    const unsigned n = p.n, stride = vector_stride(n);
    const size_t first = size_t(blockIdx.x) * vpb;
    const unsigned here = unsigned(min(size_t(vpb), p.n_vectors - first));
    const T* in = static_cast<const T*>(p.in) + first * n;
    T* out = static_cast<T*>(p.out) + first * n;
    const K* kernels = reinterpret_cast<const K*>(p.kernels);

    // load (gathering through pre_perm), coalesced over the block's vectors
    for (unsigned e = threadIdx.x; e < here * n; e += blockDim.x) {
        const unsigned v = e / n, k = e - v * n;
        const unsigned src = p.pre_perm ? p.pre_perm[k] : k;
        smem[v * stride + k] = in[size_t(v) * n + src];
    }
    __syncthreads();
    for (unsigned s = 0; s < p.n_stages; ++s) {
        const unsigned begin = p.stage_offsets[s], count = p.stage_offsets[s + 1] - begin;
        for (unsigned e = threadIdx.x; e < here * count; e += blockDim.x) {
            const unsigned v = e / count, q = begin + (e - v * count);
            const uint32_t pair = __ldg(p.pairs + q);
            const unsigned i = pair & 0xffffu, j = pair >> 16;
            const unsigned kid = p.kernel_ids ? __ldg(p.kernel_ids + q) : 0u;
            T* x = smem + v * stride;
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
    for (unsigned e = threadIdx.x; e < here * n; e += blockDim.x) {
        const unsigned v = e / n, k = e - v * n;
        const unsigned src = p.post_perm ? p.post_perm[k] : k;
        T y = smem[v * stride + src];
        if (p.final_div != 1.0f)
            y = elem<T>::divide(y, p.final_div);
        out[size_t(v) * n + k] = y;
    }
}

size_t elem_bytes(butterfly_type t) { return t == butterfly_type::complex64 ? 8 : 4; }

template <typename T>
void launch_typed(const butterfly_params& p, cudaStream_t stream)
{
    const unsigned vpb = butterfly_vectors_per_block(p.type, p.n);
    const size_t smem = size_t(vpb) * vector_stride(p.n) * sizeof(T);
    if (smem > 48 * 1024)
        allow_large_shared_memory(reinterpret_cast<const void*>(butterfly_kernel<T>));
    const size_t blocks = (p.n_vectors + vpb - 1) / vpb;
    butterfly_kernel<T><<<unsigned(blocks), kThreads, smem, stream>>>(p, vpb);
    GPULDPC_CUDA_CHECK_LAUNCH("butterfly_kernel");
}

} // namespace

unsigned butterfly_vectors_per_block(butterfly_type type, unsigned n)
{
    const size_t per_vector = size_t(vector_stride(n)) * elem_bytes(type);
    const size_t fit = kSmemBudget / per_vector;
    if (fit == 0)
        return 1; // one vector above the budget: needs the opt-in up to 227 KiB
    return unsigned(fit < 64 ? fit : 64);
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
