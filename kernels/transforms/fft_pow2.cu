/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Complex FFT of n = 2^5 ... 2^14 points in one pass over global memory, with
// the fft block's window applied as the data is loaded and its shift applied
// as addresses of the loads and stores (cuFFT would need an extra pass or a
// load callback for either).
//
// Stockham autosort passes of radix 16 (the first one of radix 2, 4 or 8 when
// log2 n is not a multiple of 4): every thread owns one radix-16 butterfly per
// pass, 16 complex values in registers; between passes the data goes through
// shared memory, real and imaginary parts in separate padded arrays so that
// the strided accesses hit distinct banks. Pass P with radix Q and span p (the
// product of the radices before it) maps butterfly i, k = i mod p, to
//   u[q] = x[i + q n/Q] * w_{pQ}^{qk};  y[(i - k) Q + k + m p] = DFT_Q(u)[m],
// which leaves the result in natural order after the last pass.
//
// Blocks are persistent and pipelined: while a block transforms one group of
// vectors, the loads of its next group are in flight, issued a share at the
// start of every pass so that demand on memory is spread out, and the passes
// alternate between two shared-memory buffers (one barrier per pass). The
// window is copied to shared memory once per block. Without the pipeline all
// blocks of an SM load, then all compute, and the memory idles in between.
//
// n = 16384 is split once by decimation in frequency: piece j of a vector is
// z_j[m] = (x[m] +- x[m + n/2]) w_n^{jm}, an 8192-point FFT whose bin k is bin
// 2k + j of the vector. Both pieces read the whole vector (the second read
// comes from L2), and 8192 points fit a block.
//
// Where the device (or GPULDPC_SHARED_MEMORY_LIMIT) allows less shared memory
// per block than a size needs (n = 4096 takes 82 KiB with a window, 8192
// takes 164 KiB; sm_75 allows 64 KiB, sm_86/sm_89 99 KiB), smaller variants
// serve it, in this order: the window read from global memory (L1/L2)
// instead of a shared copy; one shared buffer instead of two (a second
// barrier per pass); n = 8192 split like 16384, in pieces of 4096. Sizes that
// none of them fits go to cuFFT (fft_pow2_choose).

#include "common/cuda_check.h"
#include "transforms/fft_pow2.h"
#include <type_traits>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace kernels {

namespace {

// LOG_R: log2 of the radix of the passes after the first (points per thread)
template <int LOG_N, int LOG_R>
struct fft_traits {
    static constexpr int kN = 1 << LOG_N; // points one block transforms
    static constexpr int kR = 1 << LOG_R;
    static constexpr int kT = kN / kR; // threads per vector
    static constexpr int kBlock = kT >= 128 ? kT : 128;
    static constexpr int kVectorsPerBlock = kBlock / kT;
    // the first pass, which needs no twiddles, takes the smaller radix when
    // log2 n is not a multiple of LOG_R
    static constexpr int kFirstLog = LOG_N % LOG_R ? LOG_N % LOG_R : LOG_R;
    static constexpr int kPasses = 1 + (LOG_N - kFirstLog) / LOG_R;
    __host__ __device__ static constexpr int log_radix(int pass)
    {
        return pass == 0 ? kFirstLog : LOG_R;
    }
    // product of the radices before a pass
    __host__ __device__ static constexpr int span(int pass)
    {
        return pass == 0 ? 1 : 1 << (kFirstLog + LOG_R * (pass - 1));
    }
    // twiddle table: LOG_R rows of span(pass) entries for each pass after
    // the first
    __host__ __device__ static constexpr int table_offset(int pass)
    {
        int offset = 0;
        for (int p = 1; p < pass; ++p)
            offset += LOG_R * span(p);
        return offset;
    }
    static constexpr int kTableSize = table_offset(kPasses);
    // one padding float per 32 against bank conflicts of strided accesses
    static constexpr int kSmemFloats = kN + kN / 32;
    // The pipelined kernel holds the next vectors' data too: 512 resident
    // threads (up to 128 registers). On an H200 (n = 4096, window and shift)
    // that beat 768 and 1024 threads, whose register limits spill or, with
    // the loads spread over the passes (80 registers), run no faster.
    static constexpr int kMinBlocksPipelined = 512 / kBlock > 0 ? 512 / kBlock : 1;

    static_assert(LOG_R == 3 || LOG_R == 4, "8 or 16 points per thread");
    static_assert(kVectorsPerBlock * kT == kBlock, "whole vectors per block");
    static_assert(LOG_N >= 5 && LOG_N <= 13, "one block transforms 32 ... 8192 points");
    static_assert(kBlock <= 1024, "at most 1024 threads per block");
    static_assert(kT <= 32 || kT == kBlock || (kT % 32 == 0 && kVectorsPerBlock < 16),
                  "a named barrier per vector");
};

// cos(2 pi m / 32) for m in the first quadrant, 0 ... 8.
__host__ __device__ constexpr float cos_quadrant(int m)
{
    return m == 0   ? 1.0f
           : m == 1 ? 0.980785280f
           : m == 2 ? 0.923879533f
           : m == 3 ? 0.831469612f
           : m == 4 ? 0.707106781f
           : m == 5 ? 0.555570233f
           : m == 6 ? 0.382683432f
           : m == 7 ? 0.195090322f
                    : 0.0f;
}

__host__ __device__ constexpr float cos32(int m)
{
    m &= 31;
    return m <= 8    ? cos_quadrant(m)
           : m <= 16 ? -cos_quadrant(16 - m)
           : m <= 24 ? -cos_quadrant(m - 16)
                     : cos_quadrant(32 - m);
}

__host__ __device__ constexpr float sin32(int m) { return cos32(m - 8); }

__device__ __forceinline__ float2 cadd(float2 a, float2 b)
{
    return make_float2(a.x + b.x, a.y + b.y);
}
__device__ __forceinline__ float2 csub(float2 a, float2 b)
{
    return make_float2(a.x - b.x, a.y - b.y);
}
__device__ __forceinline__ float2 cmul(float2 a, float2 b)
{
    return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// Sign of the exponent: -1 forward, +1 inverse.
template <bool FWD>
constexpr float kDir = FWD ? -1.0f : 1.0f;

// a * exp(dir * 2 pi i m / 32) for an m known after unrolling. Multiples of
// a quarter turn need no multiplication.
template <bool FWD>
__device__ __forceinline__ float2 rotate32(float2 a, int m)
{
    constexpr float dir = kDir<FWD>;
    m &= 31;
    if (m == 0)
        return a;
    if (m == 16)
        return make_float2(-a.x, -a.y);
    if (m == 8) // times i * dir
        return FWD ? make_float2(a.y, -a.x) : make_float2(-a.y, a.x);
    if (m == 24) // times -i * dir
        return FWD ? make_float2(-a.y, a.x) : make_float2(a.y, -a.x);
    const float c = cos32(m), s = dir * sin32(m);
    return make_float2(a.x * c - a.y * s, a.x * s + a.y * c);
}

// a * w (forward) or a * conj(w) (inverse): the twiddle tables hold the
// forward twiddles.
template <bool FWD>
__device__ __forceinline__ float2 cmul_dir(float2 a, float2 w)
{
    return FWD ? make_float2(a.x * w.x - a.y * w.y, a.x * w.y + a.y * w.x)
               : make_float2(a.x * w.x + a.y * w.y, a.y * w.x - a.x * w.y);
}

__host__ __device__ constexpr int reverse_bits(int v, int bits)
{
    int r = 0;
    for (int b = 0; b < bits; ++b)
        r |= ((v >> b) & 1) << (bits - 1 - b);
    return r;
}

// In-register DFT of Q = 2, 4, 8 or 16 points, natural order in and out:
// radix-2 decimation in frequency with constant twiddles, then the bit
// reversal (a renaming of registers once unrolled).
template <int LOG_Q, bool FWD>
__device__ __forceinline__ void dft(float2 (&v)[1 << LOG_Q])
{
    constexpr int Q = 1 << LOG_Q;
#pragma unroll
    for (int len = Q; len >= 2; len >>= 1) {
        const int half = len >> 1;
#pragma unroll
        for (int b = 0; b < Q; b += len)
#pragma unroll
            for (int j = 0; j < half; ++j) {
                const float2 a = v[b + j], c = v[b + j + half];
                v[b + j] = cadd(a, c);
                v[b + j + half] = rotate32<FWD>(csub(a, c), j * (32 / len));
            }
    }
    float2 r[Q];
#pragma unroll
    for (int m = 0; m < Q; ++m)
        r[m] = v[reverse_bits(m, LOG_Q)];
#pragma unroll
    for (int m = 0; m < Q; ++m)
        v[m] = r[m];
}

// Twiddles of a pass of span p and radix R: w = exp(-2 pi i k / Rp), the
// table holding w, w^2, w^4, ... w^(R/2) (rows of p entries, computed in
// double on the host, so consecutive threads read consecutive entries); the
// other powers are products of at most LOG_R - 1 of them.
template <int LOG_R>
__device__ __forceinline__ void
load_twiddles(float2 (&w)[LOG_R], const float2* __restrict__ table, int k, int span)
{
#pragma unroll
    for (int b = 0; b < LOG_R; ++b)
        w[b] = __ldg(table + b * span + k);
}

// v[q] *= w^q, q = 1 ... R-1 (conjugated for the inverse)
template <int LOG_R, bool FWD>
__device__ __forceinline__ void apply_twiddles(float2 (&v)[1 << LOG_R],
                                               const float2 (&w)[LOG_R])
{
    constexpr int R = 1 << LOG_R;
    float2 p[R];
#pragma unroll
    for (int b = 0; b < LOG_R; ++b)
        p[1 << b] = w[b];
#pragma unroll
    for (int q = 3; q < R; ++q) {
        const int high = q >= 8 ? 8 : q >= 4 ? 4 : 2;
        if (q != high)
            p[q] = cmul(p[high], p[q - high]);
    }
#pragma unroll
    for (int q = 1; q < R; ++q)
        v[q] = cmul_dir<FWD>(v[q], p[q]);
}

__device__ __forceinline__ int padded(int index) { return index + (index >> 5); }

// Synchronises the threads of one vector: within a warp __syncwarp, across
// the two warps of a 1024-point vector a named barrier, otherwise the block.
// Vectors sharing a block then do not wait for each other.
template <int T, int BLOCK>
__device__ __forceinline__ void vector_sync(int barrier)
{
    if constexpr (T <= 32)
        __syncwarp();
    else if constexpr (T < BLOCK)
        asm volatile("bar.sync %0, %1;" ::"r"(barrier), "n"(T) : "memory");
    else
        __syncthreads();
}

struct vector_view {
    float* re; // shared memory of this vector
    float* im;
    float2* out_low; // where bins [0, n/2) of the block's output go (see below)
    float2* out_high;
    const float2* twiddles;
    int t;       // thread within the vector
    int barrier; // named barrier of the vector (see vector_sync)
    bool active;
};

// Pass PASS of a kN-point transform, on the values u the thread holds; then
// the following passes. hook(integral_constant<PASS>) runs as a pass begins. Passes
// alternate between two shared-memory buffers, so a pass need not wait for everyone's
// reads before it stores: one barrier per pass instead of two.
// Shared-memory addresses are a per-thread base plus constants wherever the index
// arithmetic allows, which it does when the strides are multiples of 32 (the padding is
// then linear in them).
// BUF: shared-memory buffers (1 or 2) of a vector.
template <int LOG_N, int LOG_S, bool FWD, int LOG_R, int BUF, int PASS, typename Hook>
__device__ __forceinline__ void
fft_pass(float2 (&u)[1 << LOG_R], const vector_view& v, Hook& hook)
{
    using tr = fft_traits<LOG_N, LOG_R>;
    constexpr int R = tr::kR, T = tr::kT;
    hook(std::integral_constant<int, PASS>{});
    constexpr bool last = PASS == tr::kPasses - 1;
    constexpr int LOG_Q = tr::log_radix(PASS);
    constexpr int Q = 1 << LOG_Q;
    constexpr int B = R / Q; // butterflies per thread in this pass
    constexpr int span = tr::span(PASS);
    static_assert(PASS == 0 || Q == R, "passes after the first are radix R");
    static_assert(!last || PASS > 0, "at least two passes");
    static_assert(BUF == 1 || BUF == 2, "one or two buffers");
    // offsets of the buffers this pass reads and writes
    constexpr int rd = BUF == 1 ? 0 : ((PASS + 1) & 1) * 2 * tr::kSmemFloats;
    constexpr int wr = BUF == 1 ? 0 : (PASS & 1) * 2 * tr::kSmemFloats;

    float2 w[LOG_R];
    if constexpr (PASS > 0) {
        // twiddle loads first, so that they overlap the shared-memory reads
        load_twiddles(w, v.twiddles + tr::table_offset(PASS), v.t & (span - 1), span);
        if constexpr (T % 32 == 0) {
            const int base = padded(v.t);
#pragma unroll
            for (int q = 0; q < Q; ++q) {
                const int index = base + q * T + (q * T >> 5);
                u[q] = make_float2(v.re[rd + index], v.im[rd + index]);
            }
        } else {
#pragma unroll
            for (int q = 0; q < Q; ++q) {
                const int index = padded(v.t + q * T);
                u[q] = make_float2(v.re[rd + index], v.im[rd + index]);
            }
        }
        // everyone has read before the stores below overwrite: with two
        // buffers only the last pass needs it (the next vector's first pass
        // writes buffer 0), with one every pass
        if constexpr (last || BUF == 1)
            vector_sync<T, tr::kBlock>(v.barrier);
    }

#pragma unroll
    for (int s = 0; s < B; ++s) {
        const int i = v.t + s * T;
        const int k = i & (span - 1);
        float2 x[Q];
#pragma unroll
        for (int q = 0; q < Q; ++q)
            x[q] = u[s * Q + q];
        if constexpr (PASS > 0)
            apply_twiddles<LOG_R, FWD>(x, w);
        dft<LOG_Q, FWD>(x);
        if constexpr (last) {
            // i = t, bin (t + m span) 2^LOG_S + part; the top bit of m picks
            // the half, which the output rotation swaps
            if (v.active)
#pragma unroll
                for (int m = 0; m < Q; ++m) {
                    float2* dst = m < Q / 2 ? v.out_low : v.out_high;
                    dst[((m % (Q / 2)) * span) << LOG_S] = x[m];
                }
        } else {
            const int j = (i - k) * Q + k;
            if constexpr (span * Q >= 32) {
                // (i - k) Q is a multiple of 32: padding splits into a base
                // and the constant part of m span
                const int base = padded((i - k) * Q) + k + (k >> 5);
#pragma unroll
                for (int m = 0; m < Q; ++m) {
                    const int index = base + m * span + ((m * span) >> 5);
                    v.re[wr + index] = x[m].x;
                    v.im[wr + index] = x[m].y;
                }
            } else {
#pragma unroll
                for (int m = 0; m < Q; ++m) {
                    const int index = padded(j + m * span);
                    v.re[wr + index] = x[m].x;
                    v.im[wr + index] = x[m].y;
                }
            }
        }
    }
    if constexpr (!last) {
        vector_sync<T, tr::kBlock>(v.barrier);
        fft_pass<LOG_N, LOG_S, FWD, LOG_R, BUF, PASS + 1>(u, v, hook);
    }
}

// Persistent blocks for unsplit vectors: each block walks a grid-stride
// sequence of vector groups, and while it transforms one group the loads of
// the next are in flight (16 more registers of data per thread), so that
// every block always has memory traffic outstanding instead of all blocks
// loading, then all computing.
//
// in and out are not __restrict__: they may be equal (every vector is read
// before a block writes it, and by that block alone). WG: the window is read
// from global memory instead of a copy in shared memory (a template
// parameter: as a run-time choice it cost the split kernel 124 bytes of
// register spills on sm_90).
template <int LOG_N, bool FWD, int LOG_R, int BUF, bool WG>
__global__ void __launch_bounds__(fft_traits<LOG_N, LOG_R>::kBlock,
                                  fft_traits<LOG_N, LOG_R>::kMinBlocksPipelined)
    fft_pow2_pipelined_kernel(const float2* in,
                              float2* out,
                              const float* __restrict__ window,
                              const float2* __restrict__ twiddles,
                              size_t n_vectors,
                              bool shift_in,
                              bool shift_out)
{
    using tr = fft_traits<LOG_N, LOG_R>;
    constexpr int N = tr::kN, T = tr::kT, R = tr::kR, V = tr::kVectorsPerBlock;
    constexpr int Q0 = 1 << tr::kFirstLog;
    extern __shared__ float smem[];

    const int local_vec = threadIdx.x / T;
    const int t = threadIdx.x % T;
    const size_t groups = (n_vectors + V - 1) / V;
    // the first pass's operands x[t + s T + q n/Q]; q >= Q/2 are the upper
    // half, which the input shift swaps with the lower one
    const int low = t + (shift_in ? N / 2 : 0), high = t + (shift_in ? 0 : N / 2);
    const auto offset = [&](int r) {
        const int s = r / Q0, q = r % Q0;
        return (q >= Q0 / 2 ? high : low) + s * T + (q % (Q0 / 2)) * (N / Q0);
    };
    const auto load = [&](float2(&d)[R], size_t group) {
        const size_t vec = group * V + local_vec;
        const float2* src = in + vec * N;
#pragma unroll
        for (int r = 0; r < R; ++r)
            d[r] = vec < n_vectors ? src[offset(r)] : make_float2(0.0f, 0.0f);
    };

    vector_view v;
    v.t = t;
    v.barrier = 1 + local_vec; // 0 is __syncthreads'
    v.re = smem + size_t(local_vec) * 2 * BUF * tr::kSmemFloats;
    v.im = v.re + tr::kSmemFloats;
    v.twiddles = twiddles;

    // the window, once per block, in shared memory after the buffers
    float* window_s = smem + size_t(V) * 2 * BUF * tr::kSmemFloats;
    if (window && !WG) {
        for (int i = threadIdx.x; i < N; i += blockDim.x)
            window_s[i] = window[i];
        __syncthreads();
    }

    size_t group = blockIdx.x;
    float2 u[R], ahead[R];
    load(u, group);
    for (;;) {
        const size_t next = group + gridDim.x;
        // the next group's loads, a share at the start of every pass, so that
        // the blocks' demand on memory is spread over their passes
        const size_t next_vec = next * V + local_vec;
        const bool prefetch = next < groups && next_vec < n_vectors;
        const float2* next_src = in + next_vec * N;
        auto hook = [&](auto pass) {
            constexpr int P = decltype(pass)::value;
#pragma unroll
            for (int r = P * R / tr::kPasses; r < (P + 1) * R / tr::kPasses; ++r)
                ahead[r] = prefetch ? next_src[offset(r)] : make_float2(0.0f, 0.0f);
        };
        if (window)
#pragma unroll
            for (int r = 0; r < R; ++r) {
                const float a = WG ? __ldg(window + offset(r)) : window_s[offset(r)];
                u[r] = make_float2(u[r].x * a, u[r].y * a);
            }
        const size_t vec = group * V + local_vec;
        v.active = vec < n_vectors;
        float2* out_vec = out + vec * N + t;
        v.out_low = out_vec + (shift_out ? N / 2 : 0);
        v.out_high = out_vec + (shift_out ? 0 : N / 2);
        // the last pass synchronises after its shared-memory reads, so the
        // next group's first pass may overwrite shared memory right away
        fft_pass<LOG_N, 0, FWD, LOG_R, BUF, 0>(u, v, hook);
        if (next >= groups)
            break;
        group = next;
#pragma unroll
        for (int r = 0; r < R; ++r)
            u[r] = ahead[r];
    }
}

// The pipelined kernel for vectors split in two (decimation in frequency, see
// above): piece 2v + j of vector v is z_j. Both halves of the next piece are
// loaded a share per pass and combined when that piece's turn comes.
// Never in place (a piece reads the half that the other piece writes).
template <int LOG_N, bool FWD, int LOG_R, int BUF, bool WG>
__global__ void __launch_bounds__(fft_traits<LOG_N, LOG_R>::kBlock,
                                  fft_traits<LOG_N, LOG_R>::kMinBlocksPipelined)
    fft_pow2_pipelined_split_kernel(const float2* __restrict__ in,
                                    float2* __restrict__ out,
                                    const float* __restrict__ window,
                                    const float2* __restrict__ twiddles,
                                    size_t n_vectors,
                                    bool shift_in,
                                    bool shift_out)
{
    using tr = fft_traits<LOG_N, LOG_R>;
    constexpr int N = tr::kN, T = tr::kT, R = tr::kR, NF = 2 * N;
    constexpr int Q0 = 1 << tr::kFirstLog;
    static_assert(tr::kVectorsPerBlock == 1, "one piece per block");
    extern __shared__ float smem[];

    const int t = threadIdx.x;
    const size_t pieces = 2 * n_vectors;
    // x from one half, y from the other: the input shift swaps them
    const int xo = shift_in ? N : 0, yo = shift_in ? 0 : N;
    const auto offset = [&](int r) {
        const int s = r / Q0, q = r % Q0;
        return t + s * T + q * (N / Q0);
    };

    float* window_s = smem + 2 * BUF * tr::kSmemFloats;
    if (window && !WG) {
        for (int i = threadIdx.x; i < NF; i += blockDim.x)
            window_s[i] = window[i];
        __syncthreads();
    }
    vector_view v;
    v.t = t;
    v.barrier = 1;
    v.re = smem;
    v.im = v.re + tr::kSmemFloats;
    v.twiddles = twiddles;
    v.active = true;

    size_t piece = blockIdx.x;
    float2 ax[R], ay[R];
    {
        const float2* src = in + (piece >> 1) * NF;
#pragma unroll
        for (int r = 0; r < R; ++r) {
            ax[r] = src[xo + offset(r)];
            ay[r] = src[yo + offset(r)];
        }
    }
    for (;;) {
        const int part = int(piece & 1);
        const size_t vec = piece >> 1;
        float2 u[R];
#pragma unroll
        for (int r = 0; r < R; ++r) {
            float2 x = ax[r], y = ay[r];
            if (window) {
                const int ia = xo + offset(r), ib = yo + offset(r);
                const float a = WG ? __ldg(window + ia) : window_s[ia];
                const float b = WG ? __ldg(window + ib) : window_s[ib];
                x = make_float2(x.x * a, x.y * a);
                y = make_float2(y.x * b, y.y * b);
            }
            u[r] = part ? csub(x, y) : cadd(x, y);
        }
        if (part) {
            // z_1[m] *= w_n^m, m = t + s T + q n/(2 Q0): w_n^t from the table,
            // times the constant w_n^{s T + q n / (2 Q0)} = w_32^{16 s / R + 16 q / Q0}
            const float2 wt = __ldg(twiddles + tr::kTableSize + t);
#pragma unroll
            for (int r = 0; r < R; ++r)
                u[r] = rotate32<FWD>(cmul_dir<FWD>(u[r], wt),
                                     16 * (r / Q0) / R + 16 * (r % Q0) / Q0);
        }
        const size_t next = piece + gridDim.x;
        const bool prefetch = next < pieces;
        const float2* next_src = in + (next >> 1) * NF;
        auto hook = [&](auto pass) {
            constexpr int P = decltype(pass)::value;
#pragma unroll
            for (int r = P * R / tr::kPasses; r < (P + 1) * R / tr::kPasses; ++r)
                if (prefetch) {
                    ax[r] = next_src[xo + offset(r)];
                    ay[r] = next_src[yo + offset(r)];
                }
        };
        float2* out_vec = out + vec * NF + 2 * t + part;
        v.out_low = out_vec + (shift_out ? NF / 2 : 0);
        v.out_high = out_vec + (shift_out ? 0 : NF / 2);
        fft_pass<LOG_N, 1, FWD, LOG_R, BUF, 0>(u, v, hook);
        if (!prefetch)
            break;
        piece = next;
    }
}

template <int LOG_N, int LOG_S, int LOG_R>
size_t twiddle_count()
{
    using tr = fft_traits<LOG_N, LOG_R>;
    return size_t(tr::kTableSize) + (LOG_S ? size_t(tr::kT) : 0);
}

template <int LOG_N, int LOG_S, int LOG_R>
void fill_twiddles(float2* table)
{
    using tr = fft_traits<LOG_N, LOG_R>;
    const auto forward = [](size_t num, size_t den) {
        const double a = -2.0 * M_PI * double(num) / double(den);
        return make_float2(float(std::cos(a)), float(std::sin(a)));
    };
    for (int pass = 1; pass < tr::kPasses; ++pass) {
        const size_t span = size_t(tr::span(pass));
        float2* t = table + tr::table_offset(pass);
        for (size_t b = 0; b < size_t(LOG_R); ++b)
            for (size_t k = 0; k < span; ++k)
                t[b * span + k] = forward((size_t(1) << b) * k, span * tr::kR);
    }
    if (LOG_S)
        for (size_t t = 0; t < size_t(tr::kT); ++t)
            table[tr::kTableSize + t] = forward(t, size_t(tr::kN) << LOG_S);
}

// The kernel that serves a variant: one vector group per pass of the loop, or
// one half-vector piece.
template <int LOG_N, int LOG_S, bool FWD, int LOG_R, int BUF, bool WG>
constexpr auto kernel_for()
{
    if constexpr (LOG_S == 0)
        return fft_pow2_pipelined_kernel<LOG_N, FWD, LOG_R, BUF, WG>;
    else
        return fft_pow2_pipelined_split_kernel<LOG_N, FWD, LOG_R, BUF, WG>;
}

template <int LOG_N, int LOG_S, bool FWD, int LOG_R, int BUF, bool WG>
size_t resident_blocks(const fft_pow2_variant& var)
{
    const auto kernel = kernel_for<LOG_N, LOG_S, FWD, LOG_R, BUF, WG>();
    if (var.shared_bytes > 48 * 1024) // above the default limit the kernel must opt in
        allow_large_shared_memory(reinterpret_cast<const void*>(kernel));
    int device = 0, sms = 0, per_sm = 0;
    GPULDPC_CUDA_CHECK(cudaGetDevice(&device));
    GPULDPC_CUDA_CHECK(
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    GPULDPC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, kernel, fft_traits<LOG_N, LOG_R>::kBlock, var.shared_bytes));
    return size_t(std::max(1, sms * per_sm));
}

template <int LOG_N, int LOG_S, bool FWD, int LOG_R, int BUF, bool WG>
void launch(const fft_pow2_params& p, cudaStream_t stream)
{
    using tr = fft_traits<LOG_N, LOG_R>;
    const size_t pieces = p.n_vectors << LOG_S;
    const size_t blocks = (pieces + tr::kVectorsPerBlock - 1) / tr::kVectorsPerBlock;
    const auto kernel = kernel_for<LOG_N, LOG_S, FWD, LOG_R, BUF, WG>();
    kernel<<<unsigned(std::min(blocks, p.resident_blocks)),
             tr::kBlock,
             p.variant.shared_bytes,
             stream>>>(
        p.in, p.out, p.window, p.twiddles, p.n_vectors, p.shift_in, p.shift_out);
    GPULDPC_CUDA_CHECK_LAUNCH("fft_pow2 kernel");
}

template <int V>
using int_c = std::integral_constant<int, V>;

// 16 points per thread. 8 (LOG_R = 3, 1536 resident threads) measured
// 2.5 times as many instructions and a third of the speed on an H200.
constexpr int kLogRadix = 4;

// The one switch from a runtime variant to compile-time sizes: calls
// f(int_c<LOG_N>, int_c<LOG_S>, int_c<BUF>, int_c<WG>) for the kernel that
// serves it. Single buffers, 4096-point pieces and the window from global
// memory exist only where a size needs them under a tighter limit (n >= 4096;
// below, two buffers and the window take at most 41 KiB).
template <typename F, int... L>
void with_variant(const fft_pow2_variant& v, F&& f, std::integer_sequence<int, L...>)
{
    constexpr int first = int(fft_pow2_min_log2n);
    const unsigned n = v.piece_log2n, s = v.split_log2, b = v.buffers;
    const bool g = !v.window_shared;
    auto whole = [&](auto G) {
        if (n == 12)
            return b == 1 ? f(int_c<12>{}, int_c<0>{}, int_c<1>{}, G)
                          : f(int_c<12>{}, int_c<0>{}, int_c<2>{}, G);
        if (n == 13)
            return b == 1 ? f(int_c<13>{}, int_c<0>{}, int_c<1>{}, G)
                          : f(int_c<13>{}, int_c<0>{}, int_c<2>{}, G);
        if constexpr (decltype(G)::value == 0)
            ((n == unsigned(L + first) ? f(int_c<L + first>{}, int_c<0>{}, int_c<2>{}, G)
                                       : void()),
             ...);
        else
            throw std::invalid_argument(
                "fft_pow2: the variant must come from fft_pow2_choose");
    };
    auto split = [&](auto G) {
        if (n == 12)
            return f(int_c<12>{}, int_c<1>{}, int_c<1>{}, G);
        return b == 1 ? f(int_c<13>{}, int_c<1>{}, int_c<1>{}, G)
                      : f(int_c<13>{}, int_c<1>{}, int_c<2>{}, G);
    };
    if (s == 0)
        return g ? whole(int_c<1>{}) : whole(int_c<0>{});
    return g ? split(int_c<1>{}) : split(int_c<0>{});
}

template <typename F>
void with_variant(const fft_pow2_variant& v, F&& f)
{
    if (v.piece_log2n == 0)
        throw std::invalid_argument("fft_pow2: no kernel variant (use cuFFT)");
    with_variant(v,
                 std::forward<F>(f),
                 std::make_integer_sequence<int, int(13 - fft_pow2_min_log2n + 1)>{});
}

void check_size(unsigned log2n)
{
    if (log2n < fft_pow2_min_log2n || log2n > fft_pow2_max_log2n)
        throw std::invalid_argument(
            "fft_pow2: log2n=" + std::to_string(log2n) +
            " is out of range; allowed: " + std::to_string(fft_pow2_min_log2n) + " .. " +
            std::to_string(fft_pow2_max_log2n));
}

// Dynamic shared memory of a block: the buffers of its vectors, and the
// window (of the whole, unsplit vector) when it is copied there.
size_t shared_bytes(unsigned piece_log2n,
                    unsigned split_log2,
                    unsigned buffers,
                    bool window_shared)
{
    const size_t n = size_t(1) << piece_log2n;
    const size_t threads = n >> kLogRadix; // per vector
    const size_t vectors = std::max<size_t>(1, 128 / threads);
    const size_t floats = n + n / 32; // padded, real or imaginary parts
    return vectors * 2 * buffers * floats * sizeof(float) +
           (window_shared ? (n << split_log2) * sizeof(float) : 0);
}

} // namespace

fft_pow2_variant fft_pow2_choose(unsigned log2n, bool window, size_t shared_limit)
{
    check_size(log2n);
    const size_t limit = shared_limit ? shared_limit : SIZE_MAX;
    // n = 16384 goes as two pieces of 8192; 8192 stays whole where it fits
    // (H200, window and shift: 84 % of cuFFT, against 54-58 % as two pieces of
    // 4096, whose interleaved bins halve the efficiency of the stores).
    struct shape {
        unsigned piece, split, buffers;
    };
    std::vector<shape> shapes;
    const unsigned piece = log2n == 14 ? 13 : log2n, split = log2n == 14 ? 1 : 0;
    shapes.push_back({ piece, split, 2 });
    if (piece >= 12)
        shapes.push_back({ piece, split, 1 });
    if (log2n == 13)
        shapes.push_back({ 12, 1, 1 });
    for (const shape& sh : shapes)
        // without a window, window_shared stays true: the kernels that read no
        // window from global memory
        for (bool window_shared : { true, false }) {
            if (!window_shared && !window)
                continue;
            fft_pow2_variant v;
            v.log2n = log2n;
            v.piece_log2n = sh.piece;
            v.split_log2 = sh.split;
            v.buffers = sh.buffers;
            v.window_shared = window_shared;
            v.shared_bytes =
                shared_bytes(sh.piece, sh.split, sh.buffers, window && window_shared);
            if (v.shared_bytes <= limit)
                return v;
        }
    fft_pow2_variant none;
    none.log2n = log2n;
    return none;
}

bool fft_pow2_in_place_ok(const fft_pow2_variant& v) { return v.split_log2 == 0; }

size_t fft_pow2_twiddle_count(const fft_pow2_variant& v)
{
    size_t count = 0;
    with_variant(v, [&](auto L, auto S, auto, auto) {
        count = twiddle_count<L(), S(), kLogRadix>();
    });
    return count;
}

void fft_pow2_fill_twiddles(const fft_pow2_variant& v, float2* table)
{
    with_variant(v, [&](auto L, auto S, auto, auto) {
        fill_twiddles<L(), S(), kLogRadix>(table);
    });
}

size_t fft_pow2_resident_blocks(const fft_pow2_variant& v, bool forward)
{
    size_t blocks = 0;
    with_variant(v, [&](auto L, auto S, auto B, auto G) {
        blocks = forward ? resident_blocks<L(), S(), true, kLogRadix, B(), G() != 0>(v)
                         : resident_blocks<L(), S(), false, kLogRadix, B(), G() != 0>(v);
    });
    return blocks;
}

void launch_fft_pow2(const fft_pow2_params& p, cudaStream_t stream)
{
    const fft_pow2_variant& v = p.variant;
    check_size(v.log2n);
    const size_t n = size_t(1) << v.log2n;
    if (v.piece_log2n + v.split_log2 != v.log2n)
        throw std::invalid_argument(
            "fft_pow2: the variant must come from fft_pow2_choose");
    if (reinterpret_cast<uintptr_t>(p.in) % 8 || reinterpret_cast<uintptr_t>(p.out) % 8)
        throw std::invalid_argument("fft_pow2: in and out must be 8-byte aligned");
    if (!p.twiddles)
        throw std::invalid_argument("fft_pow2: twiddles must point to the device table");
    if (p.resident_blocks == 0)
        throw std::invalid_argument(
            "fft_pow2: resident_blocks must come from fft_pow2_resident_blocks");
    if (p.n_vectors == 0)
        return;
    if (p.n_vectors > (size_t(1) << 30))
        throw std::invalid_argument("fft_pow2: too many vectors in one launch");
    const size_t bytes = p.n_vectors * n * sizeof(float2);
    const auto a = reinterpret_cast<uintptr_t>(p.in);
    const auto b = reinterpret_cast<uintptr_t>(p.out);
    const bool overlap = a < b + bytes && b < a + bytes;
    if (overlap && (a != b || !fft_pow2_in_place_ok(v)))
        throw std::invalid_argument("fft_pow2: n=" + std::to_string(n) +
                                    (a != b ? ": in and out must be equal or apart"
                                            : " in this variant needs in and out apart"));
    with_variant(v, [&](auto L, auto S, auto B, auto G) {
        if (p.forward)
            launch<L(), S(), true, kLogRadix, B(), G() != 0>(p, stream);
        else
            launch<L(), S(), false, kLogRadix, B(), G() != 0>(p, stream);
    });
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
