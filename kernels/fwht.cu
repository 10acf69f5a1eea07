/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Fast Walsh-Hadamard transform, n = 2 ... 32768 floats per vector, one pass
// over global memory. The index of an element splits into three fields that
// are transformed where they live:
//   [ element within thread (LOG_E bits) | lane (5 bits) | warp (LOG_W bits) ]
// element bits: butterflies in registers; lane bits: __shfl_xor_sync; warp
// bits: one exchange through (bank-conflict padded) shared memory, after which every
// thread holds whole groups that differ only in the warp bits. Vectors of 2 or 4 floats
// are held by one thread each; up to 128 floats, several vectors share a warp.
//
// The largest vectors (n = 32768, natural order, out of place) are split by the
// Kronecker form H_n = H_S (x) H_m, m = n / S: block j of a vector reads all S
// pieces x_i, combines them with the signs of row j of H_S and transforms the
// result, y_j = H_m (sum_i H_S[j][i] x_i). The S blocks of a vector run side
// by side, so the S-fold reads are served by L2 and DRAM still sees one read
// and one write; each block needs only m floats of shared memory, so several
// blocks share an SM and one block's loads overlap another's exchange.

#include "cuda_check.h"
#include "fwht.h"
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuldpc {
namespace kernels {

namespace {

template <int LOG_N>
struct fwht_traits {
    static constexpr int kN = 1 << LOG_N;
    // a float4 per thread for small vectors (consecutive threads read
    // consecutive 16 bytes), more registers per thread as n grows
    static constexpr int kLogE = LOG_N <= 2    ? LOG_N
                                 : LOG_N <= 7  ? 2
                                 : LOG_N <= 11 ? 3
                                 : LOG_N <= 13 ? 4
                                               : 5;
    static constexpr int kE = 1 << kLogE;       // elements per thread
    static constexpr int kLogT = LOG_N - kLogE; // threads per vector
    static constexpr int kT = 1 << kLogT;
    static constexpr int kLogLanes = kLogT < 5 ? kLogT : 5;
    static constexpr int kLanes = 1 << kLogLanes;   // lanes of one vector in a warp
    static constexpr int kLogW = kLogT - kLogLanes; // warps per vector
    static constexpr int kW = 1 << kLogW;
    static constexpr int kBlock = kT >= 128 ? kT : 128;
    static constexpr int kVectorsPerBlock = kBlock / kT;
    // shared memory per vector: one padding float per 32, so that the
    // exchange (stride kE) and the group reads hit distinct banks
    static constexpr int kSmemFloats = kN + kN / 32;
    // Blocks per SM the register allocation must allow (launch bounds): for
    // vectors spanning several warps, 1536 resident threads, so that one
    // block's loads overlap another's exchange and stores (n = 8192: 88 -> 95 %
    // of copy bandwidth on an H200). Not for n >= 16384, whose 32 elements
    // per thread would spill at the 40 registers this allows (16384: 78 -> 47 %).
    static constexpr int kMinBlocks =
        (kW > 1 && LOG_N <= 13 && 1536 / kBlock > 1) ? 1536 / kBlock : 1;

    static_assert(LOG_N >= 1 && LOG_N <= 15, "n must be 2 ... 32768");
    static_assert(kW <= kE, "each thread must own whole groups in the warp-bit stages");
    static_assert(kBlock <= 1024, "at most 1024 threads per block");
    static_assert(kE <= 32, "register budget");
};

__host__ __device__ constexpr unsigned bit_reverse(unsigned v, int bits)
{
    unsigned r = 0;
    for (int b = 0; b < bits; ++b)
        r |= ((v >> b) & 1u) << (bits - 1 - b);
    return r;
}

// Natural index of the coefficient that sequency order puts at position s.
__host__ __device__ constexpr unsigned sequency_source(unsigned s, int log2n)
{
    return bit_reverse(s ^ (s >> 1), log2n);
}

// Shared-memory address of element `index`, padded against bank conflicts.
__device__ __forceinline__ int padded(int index) { return index + (index >> 5); }

template <int E>
__device__ __forceinline__ void load_contiguous(const float* src, float (&x)[E])
{
    if constexpr (E % 4 == 0) {
#pragma unroll
        for (int i = 0; i < E / 4; ++i) {
            const float4 v = reinterpret_cast<const float4*>(src)[i];
            x[4 * i] = v.x;
            x[4 * i + 1] = v.y;
            x[4 * i + 2] = v.z;
            x[4 * i + 3] = v.w;
        }
    } else if constexpr (E == 2) {
        const float2 v = *reinterpret_cast<const float2*>(src);
        x[0] = v.x;
        x[1] = v.y;
    } else {
        x[0] = src[0];
    }
}

template <int E>
__device__ __forceinline__ void
store_contiguous(float* dst, const float (&x)[E], float scale)
{
    if constexpr (E % 4 == 0) {
#pragma unroll
        for (int i = 0; i < E / 4; ++i)
            reinterpret_cast<float4*>(dst)[i] = make_float4(x[4 * i] * scale,
                                                            x[4 * i + 1] * scale,
                                                            x[4 * i + 2] * scale,
                                                            x[4 * i + 3] * scale);
    } else if constexpr (E == 2) {
        *reinterpret_cast<float2*>(dst) = make_float2(x[0] * scale, x[1] * scale);
    } else {
        dst[0] = x[0] * scale;
    }
}

// Butterflies over all bits of a register array.
template <int E>
__device__ __forceinline__ void fwht_registers(float (&x)[E])
{
#pragma unroll
    for (int h = 1; h < E; h <<= 1)
#pragma unroll
        for (int i = 0; i < E; ++i)
            if ((i & h) == 0) {
                const float a = x[i], b = x[i + h];
                x[i] = a + b;
                x[i + h] = a - b;
            }
}

// LOG_N: the transform one block computes; LOG_S: split bits (the vectors
// in memory hold 2^(LOG_N + LOG_S) floats, see above).
template <int LOG_N, int LOG_S>
__global__ void __launch_bounds__(fwht_traits<LOG_N>::kBlock,
                                  fwht_traits<LOG_N>::kMinBlocks)
    fwht_kernel(const float* __restrict__ in,
                float* __restrict__ out,
                size_t n_vectors,
                float scale,
                bool sequency)
{
    using tr = fwht_traits<LOG_N>;
    constexpr int N = tr::kN, E = tr::kE, T = tr::kT, W = tr::kW;
    constexpr int S = 1 << LOG_S;
    static_assert(LOG_S == 0 || tr::kVectorsPerBlock == 1, "split: one piece per block");
    extern __shared__ float smem[];

    const int local_vec = threadIdx.x / T;
    const int t = threadIdx.x % T;
    const size_t piece = size_t(blockIdx.x) * tr::kVectorsPerBlock + local_vec;
    const size_t vec = piece >> LOG_S;
    const int part = int(piece & (S - 1));
    const bool active = vec < n_vectors;
    const float* src = in + vec * N * S;
    float* dst = out + vec * N * S + size_t(part) * N;

    float x[E];
    if (active) {
        load_contiguous<E>(src + size_t(t) * E, x);
#pragma unroll
        for (int i = 1; i < S; ++i) {
            float y[E];
            load_contiguous<E>(src + size_t(i) * N + size_t(t) * E, y);
            const float sign = (__popc(unsigned(i & part)) & 1) ? -1.0f : 1.0f;
#pragma unroll
            for (int e = 0; e < E; ++e)
                x[e] = fmaf(sign, y[e], x[e]);
        }
    } else {
#pragma unroll
        for (int i = 0; i < E; ++i)
            x[i] = 0.0f;
    }

    fwht_registers<E>(x);

    if constexpr (T == 1) {
        if (!active)
            return;
        if (!sequency) {
            store_contiguous<E>(dst, x, scale);
        } else {
#pragma unroll
            for (int s = 0; s < N; ++s)
                dst[s] = x[sequency_source(s, LOG_N)] * scale;
        }
        return;
    } else {
        const int lane = threadIdx.x & 31;
#pragma unroll
        for (int m = 1; m < tr::kLanes; m <<= 1)
#pragma unroll
            for (int i = 0; i < E; ++i) {
                const float y = __shfl_xor_sync(0xffffffffu, x[i], m);
                x[i] = (lane & m) ? y - x[i] : x[i] + y;
            }

        float* v = smem + size_t(local_vec) * tr::kSmemFloats;
        if constexpr (W > 1) {
            // exchange: afterwards a thread owns E / W groups of W elements
            // that differ only in the warp bits
#pragma unroll
            for (int i = 0; i < E; ++i)
                v[padded(t * E + i)] = x[i];
            __syncthreads();
            constexpr int stride = N / W;
#pragma unroll
            for (int g = 0; g < E / W; ++g) {
                const int low = g * T + t;
                float y[W];
#pragma unroll
                for (int w = 0; w < W; ++w)
                    y[w] = v[padded(low + w * stride)];
                fwht_registers<W>(y);
                if (!sequency) {
                    if (active)
#pragma unroll
                        for (int w = 0; w < W; ++w)
                            dst[low + w * stride] = y[w] * scale;
                } else {
#pragma unroll
                    for (int w = 0; w < W; ++w)
                        v[padded(low + w * stride)] = y[w];
                }
            }
            if (!sequency)
                return;
        } else {
            if (!sequency) {
                if (active)
                    store_contiguous<E>(dst + size_t(t) * E, x, scale);
                return;
            }
#pragma unroll
            for (int i = 0; i < E; ++i)
                v[padded(t * E + i)] = x[i];
        }
        // sequency order: coalesced writes, gathered from shared memory
        __syncthreads();
        if (active)
#pragma unroll
            for (int k = 0; k < E; ++k) {
                const unsigned s = unsigned(k * T + t);
                dst[s] = v[padded(int(sequency_source(s, LOG_N)))] * scale;
            }
    }
}

// n = 2: one float4 holds two vectors; natural and sequency order coincide.
__global__ void fwht2_kernel(const float* __restrict__ in,
                             float* __restrict__ out,
                             size_t n_vectors,
                             float scale)
{
    const size_t pairs = n_vectors / 2;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < pairs;
         i += size_t(gridDim.x) * blockDim.x) {
        const float4 v = reinterpret_cast<const float4*>(in)[i];
        reinterpret_cast<float4*>(out)[i] = make_float4((v.x + v.y) * scale,
                                                        (v.x - v.y) * scale,
                                                        (v.z + v.w) * scale,
                                                        (v.z - v.w) * scale);
    }
    if (n_vectors % 2 && blockIdx.x == 0 && threadIdx.x == 0) {
        const size_t last = n_vectors - 1;
        const float a = in[2 * last], b = in[2 * last + 1];
        out[2 * last] = (a + b) * scale;
        out[2 * last + 1] = (a - b) * scale;
    }
}

template <int LOG_N>
size_t shared_bytes(bool sequency)
{
    using tr = fwht_traits<LOG_N>;
    const bool needed = tr::kT > 1 && (tr::kW > 1 || sequency);
    return needed ? size_t(tr::kVectorsPerBlock) * tr::kSmemFloats * sizeof(float) : 0;
}

// Split bits for a vector of 2^log2n floats. n = 32768 runs as four blocks of
// 8192 (H200: 56.6 % of copy bandwidth against 53.6 % for one block of 32768;
// two of 16384: 48.6 %). n = 16384 stays whole: split in two it measured the
// same (78.6 against 79.1 %), the doubled reads through L2 eating the gain.
int split_bits(int log2n) { return log2n == 15 ? 2 : 0; }

template <int LOG_N, int LOG_S>
void launch_split(const fwht_params& p, cudaStream_t stream)
{
    using tr = fwht_traits<LOG_N>;
    const size_t smem = shared_bytes<LOG_N>(false);
    if (smem > 48 * 1024)
        allow_large_shared_memory(
            reinterpret_cast<const void*>(fwht_kernel<LOG_N, LOG_S>));
    const size_t blocks = p.n_vectors << LOG_S;
    fwht_kernel<LOG_N, LOG_S><<<unsigned(blocks), tr::kBlock, smem, stream>>>(
        p.in, p.out, p.n_vectors, p.scale, false);
    GPULDPC_CUDA_CHECK_LAUNCH("fwht_kernel (split)");
}

// Whether the byte ranges of in and out overlap (the split reads pieces that
// other blocks of the same vector write).
bool overlapping(const fwht_params& p)
{
    const size_t bytes = (p.n_vectors << p.log2n) * sizeof(float);
    const auto a = reinterpret_cast<uintptr_t>(p.in),
               b = reinterpret_cast<uintptr_t>(p.out);
    return a < b + bytes && b < a + bytes;
}

template <int LOG_N>
void launch(const fwht_params& p, cudaStream_t stream)
{
    using tr = fwht_traits<LOG_N>;
    if constexpr (LOG_N == 15)
        if (!p.sequency && !overlapping(p) && split_bits(LOG_N) == 2)
            return launch_split<13, 2>(p, stream);
    if constexpr (LOG_N == 1) {
        const size_t pairs = p.n_vectors / 2;
        const size_t blocks =
            std::max<size_t>(1, std::min<size_t>((pairs + 255) / 256, 1u << 20));
        fwht2_kernel<<<unsigned(blocks), 256, 0, stream>>>(
            p.in, p.out, p.n_vectors, p.scale);
        GPULDPC_CUDA_CHECK_LAUNCH("fwht2_kernel");
        return;
    }
    const size_t smem = shared_bytes<LOG_N>(p.sequency);
    if (smem > 48 * 1024) // above the default limit the kernel must opt in
        allow_large_shared_memory(reinterpret_cast<const void*>(fwht_kernel<LOG_N, 0>));
    const size_t blocks = (p.n_vectors + tr::kVectorsPerBlock - 1) / tr::kVectorsPerBlock;
    fwht_kernel<LOG_N, 0><<<unsigned(blocks), tr::kBlock, smem, stream>>>(
        p.in, p.out, p.n_vectors, p.scale, p.sequency);
    GPULDPC_CUDA_CHECK_LAUNCH("fwht_kernel");
}

template <int... L>
void dispatch(const fwht_params& p, cudaStream_t stream, std::integer_sequence<int, L...>)
{
    // the one switch from the runtime size to a compile-time size
    ((p.log2n == unsigned(L + 1) ? launch<L + 1>(p, stream) : void()), ...);
}

template <int... L>
size_t dispatch_smem(unsigned log2n, bool sequency, std::integer_sequence<int, L...>)
{
    size_t r = 0;
    ((log2n == unsigned(L + 1) ? (r = shared_bytes<L + 1>(sequency)) : 0), ...);
    return r;
}

} // namespace

void launch_fwht(const fwht_params& p, cudaStream_t stream)
{
    if (p.log2n < 1 || p.log2n > 15)
        throw std::invalid_argument("log2n=" + std::to_string(p.log2n) +
                                    " is out of range; allowed: 1 .. 15");
    const size_t align = p.log2n >= 2 ? 16 : 8;
    if (reinterpret_cast<uintptr_t>(p.in) % align ||
        reinterpret_cast<uintptr_t>(p.out) % align)
        throw std::invalid_argument("fwht: in and out must be " + std::to_string(align) +
                                    "-byte aligned");
    if (p.n_vectors == 0)
        return;
    if (p.n_vectors > (size_t(1) << 40))
        throw std::invalid_argument("fwht: too many vectors in one launch");
    dispatch(p, stream, std::make_integer_sequence<int, 15>{});
}

size_t fwht_shared_bytes(unsigned log2n, bool sequency)
{
    return dispatch_smem(log2n, sequency, std::make_integer_sequence<int, 15>{});
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
