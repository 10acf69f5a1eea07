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
//
// The same split serves sizes whose whole-vector block does not fit the
// shared memory a device (or GPULDPC_SHARED_MEMORY_LIMIT) allows: pieces of
// m = 8192 floats need 33 KiB. In sequency order, natural coefficient j m + k
// sits at position s = seq_m(k) S + (ginv(rev_S(j)) ^ (parity(k) ? S - 1 : 0))
// (ginv: inverse Gray code, rev_S: bit reversal of log2 S bits), and
// parity(k) is the lowest bit of seq_m(k): piece j writes its m-point
// sequency output with stride S. A split vector cannot be transformed in
// place (a block reads pieces that other blocks write); the engine copies
// first then (fwht_choose says when).

#include "common/cuda_check.h"
#include "transforms/fwht.h"
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

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

// NC: through the read-only data cache, for inputs that no thread of the
// launch writes (split vectors, which are never in place)
template <int E, bool NC = false>
__device__ __forceinline__ void load_contiguous(const float* src, float (&x)[E])
{
    if constexpr (E % 4 == 0) {
#pragma unroll
        for (int i = 0; i < E / 4; ++i) {
            const float4* p = reinterpret_cast<const float4*>(src) + i;
            const float4 v = NC ? __ldg(p) : *p;
            x[4 * i] = v.x;
            x[4 * i + 1] = v.y;
            x[4 * i + 2] = v.z;
            x[4 * i + 3] = v.w;
        }
    } else if constexpr (E == 2) {
        const float2* p = reinterpret_cast<const float2*>(src);
        const float2 v = NC ? __ldg(p) : *p;
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

// Inverse Gray code: bit b of the result is the parity of bits >= b.
__host__ __device__ constexpr unsigned gray_inverse(unsigned g)
{
    unsigned s = 0;
    for (; g; g >>= 1)
        s ^= g;
    return s;
}

// LOG_N: the transform one block computes; LOG_S: split bits (the vectors
// in memory hold 2^(LOG_N + LOG_S) floats, see above). in and out are not
// __restrict__: an unsplit vector may be transformed in place (each block
// reads all of its vectors before it writes them).
template <int LOG_N, int LOG_S>
__global__ void __launch_bounds__(fwht_traits<LOG_N>::kBlock,
                                  fwht_traits<LOG_N>::kMinBlocks)
    fwht_kernel(const float* in, float* out, size_t n_vectors, float scale, bool sequency)
{
    using tr = fwht_traits<LOG_N>;
    constexpr int N = tr::kN, E = tr::kE, T = tr::kT, W = tr::kW;
    constexpr int S = 1 << LOG_S;
    static_assert(LOG_S == 0 || tr::kVectorsPerBlock == 1, "split: one piece per block");
    static_assert(LOG_S == 0 || T > 1, "split pieces span threads");
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
        load_contiguous<E, (LOG_S > 0)>(src + size_t(t) * E, x);
#pragma unroll
        for (int i = 1; i < S; ++i) {
            float y[E];
            load_contiguous<E, true>(src + size_t(i) * N + size_t(t) * E, y);
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
        // sequency order: coalesced writes, gathered from shared memory; a
        // piece of a split vector writes with stride S (see above)
        __syncthreads();
        if (active) {
            float* seq = out + vec * N * S;
            const unsigned low = gray_inverse(bit_reverse(unsigned(part), LOG_S));
#pragma unroll
            for (int k = 0; k < E; ++k) {
                const unsigned s = unsigned(k * T + t);
                const float y = v[padded(int(sequency_source(s, LOG_N)))] * scale;
                if constexpr (LOG_S == 0)
                    seq[s] = y;
                else
                    seq[size_t(s) * S + (low ^ ((s & 1u) ? unsigned(S - 1) : 0u))] = y;
            }
        }
    }
}

// n = 2, natural and sequency order coincide. VEC4: one float4 holds two
// vectors (in and out 16-byte aligned); otherwise a float2 per vector. Each
// thread reads what it writes, so in may equal out.
template <bool VEC4>
__global__ void fwht2_kernel(const float* in, float* out, size_t n_vectors, float scale)
{
    const size_t stride = size_t(gridDim.x) * blockDim.x;
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if constexpr (VEC4) {
        for (; i < n_vectors / 2; i += stride) {
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
    } else {
        for (; i < n_vectors; i += stride) {
            const float2 v = reinterpret_cast<const float2*>(in)[i];
            reinterpret_cast<float2*>(out)[i] =
                make_float2((v.x + v.y) * scale, (v.x - v.y) * scale);
        }
    }
}

template <int LOG_N>
size_t shared_bytes(bool sequency)
{
    using tr = fwht_traits<LOG_N>;
    const bool needed = tr::kT > 1 && (tr::kW > 1 || sequency);
    return needed ? size_t(tr::kVectorsPerBlock) * tr::kSmemFloats * sizeof(float) : 0;
}

template <int... L>
size_t dispatch_smem(unsigned log2n, bool sequency, std::integer_sequence<int, L...>)
{
    size_t r = 0;
    ((log2n == unsigned(L + 2) ? (r = shared_bytes<L + 2>(sequency)) : 0), ...);
    return r;
}

size_t whole_shared_bytes(unsigned log2n, bool sequency)
{
    // n = 2 runs in registers (fwht2_kernel)
    return log2n < 2
               ? 0
               : dispatch_smem(log2n, sequency, std::make_integer_sequence<int, 14>{});
}

// Pieces of split vectors: 8192 floats. n = 32768, and n = 16384 in natural
// order, run out of place as pieces even where the whole vector fits. H100,
// 128 MiB batches, share of copy bandwidth: 16384 as two pieces 93.5 %
// against 87.0 % whole; 32768 in sequency order as four 43.7 % against 36.3 %
// whole. (H200, natural order: 32768 as four 56.6 % against 53.6 % whole, as
// two of 16384 48.6 %; 16384 as two 78.6 % against 79.1 % whole.)
constexpr unsigned kPieceLog2n = 13;

template <int LOG_N, int LOG_S>
void launch_kernel(const fwht_params& p, size_t smem, cudaStream_t stream)
{
    using tr = fwht_traits<LOG_N>;
    if (smem > 48 * 1024) // above the default limit the kernel must opt in
        allow_large_shared_memory(
            reinterpret_cast<const void*>(fwht_kernel<LOG_N, LOG_S>));
    const size_t pieces = p.n_vectors << LOG_S;
    const size_t blocks = (pieces + tr::kVectorsPerBlock - 1) / tr::kVectorsPerBlock;
    fwht_kernel<LOG_N, LOG_S><<<unsigned(blocks), tr::kBlock, smem, stream>>>(
        p.in, p.out, p.n_vectors, p.scale, p.sequency);
    GPULDPC_CUDA_CHECK_LAUNCH("fwht_kernel");
}

void launch_n2(const fwht_params& p, cudaStream_t stream)
{
    const bool vec4 = reinterpret_cast<uintptr_t>(p.in) % 16 == 0 &&
                      reinterpret_cast<uintptr_t>(p.out) % 16 == 0;
    const size_t threads = vec4 ? p.n_vectors / 2 : p.n_vectors;
    const unsigned blocks =
        unsigned(std::max<size_t>(1, std::min<size_t>((threads + 255) / 256, 1u << 20)));
    if (vec4)
        fwht2_kernel<true><<<blocks, 256, 0, stream>>>(p.in, p.out, p.n_vectors, p.scale);
    else
        fwht2_kernel<false>
            <<<blocks, 256, 0, stream>>>(p.in, p.out, p.n_vectors, p.scale);
    GPULDPC_CUDA_CHECK_LAUNCH("fwht2_kernel");
}

template <int... L>
void dispatch_whole(const fwht_params& p,
                    size_t smem,
                    cudaStream_t stream,
                    std::integer_sequence<int, L...>)
{
    // the one switch from the runtime size to a compile-time size
    ((p.log2n == unsigned(L + 2) ? launch_kernel<L + 2, 0>(p, smem, stream) : void()),
     ...);
}

} // namespace

fwht_variant
fwht_choose(unsigned log2n, bool sequency, bool in_place, size_t shared_limit)
{
    if (log2n < 1 || log2n > 15)
        throw std::invalid_argument("fwht: log2n=" + std::to_string(log2n) +
                                    " is out of range; allowed: 1 .. 15");
    const size_t limit = shared_limit ? shared_limit : SIZE_MAX;
    const fwht_variant whole{ log2n, 0, whole_shared_bytes(log2n, sequency) };
    const fwht_variant split{ kPieceLog2n,
                              log2n > kPieceLog2n ? log2n - kPieceLog2n : 0,
                              whole_shared_bytes(kPieceLog2n, sequency) };
    // measured faster as pieces (above); 16384 in sequency order not measured
    if ((log2n == 15 || (log2n == 14 && !sequency)) && !in_place)
        return split;
    if (whole.shared_bytes <= limit)
        return whole;
    if (in_place || log2n <= kPieceLog2n)
        return fwht_variant{ 0, 0, 0 }; // in place needs the whole vector in a block
    return split;
}

void launch_fwht(const fwht_params& p, cudaStream_t stream)
{
    if (p.log2n < 1 || p.log2n > 15)
        throw std::invalid_argument("fwht: log2n=" + std::to_string(p.log2n) +
                                    " is out of range; allowed: 1 .. 15");
    // n = 2 reads a float2 per vector (or a float4 per two when both pointers
    // allow it), larger sizes float4s
    const size_t align = p.log2n >= 2 ? 16 : 8;
    if (reinterpret_cast<uintptr_t>(p.in) % align ||
        reinterpret_cast<uintptr_t>(p.out) % align)
        throw std::invalid_argument("fwht: in and out must be " + std::to_string(align) +
                                    "-byte aligned");
    if (p.n_vectors == 0)
        return;
    if (p.n_vectors > (size_t(1) << 40))
        throw std::invalid_argument("fwht: too many vectors in one launch");
    const size_t bytes = (p.n_vectors << p.log2n) * sizeof(float);
    const auto a = reinterpret_cast<uintptr_t>(p.in),
               b = reinterpret_cast<uintptr_t>(p.out);
    if (a != b && a < b + bytes && b < a + bytes)
        throw std::invalid_argument("fwht: in and out must be equal or apart");
    if (p.log2n == 1)
        return launch_n2(p, stream);
    const fwht_variant v = fwht_choose(p.log2n, p.sequency, a == b, p.shared_limit);
    if (v.piece_log2n == 0)
        throw std::invalid_argument(
            "fwht: n=" + std::to_string(size_t(1) << p.log2n) +
            " in place needs more shared memory than the limit of " +
            std::to_string(p.shared_limit) + " bytes; copy in to another buffer first");
    if (v.split_log2 == 1)
        return launch_kernel<kPieceLog2n, 1>(p, v.shared_bytes, stream);
    if (v.split_log2 == 2)
        return launch_kernel<kPieceLog2n, 2>(p, v.shared_bytes, stream);
    dispatch_whole(p, v.shared_bytes, stream, std::make_integer_sequence<int, 14>{});
}

size_t fwht_shared_bytes(unsigned log2n, bool sequency)
{
    return whole_shared_bytes(log2n, sequency);
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
