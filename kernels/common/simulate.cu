/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "common/cuda_check.h"
#include "common/sim_frame.h"
#include "common/simulate.h"
#include <algorithm>

namespace gr {
namespace gpuldpc {
namespace kernels {

namespace {

constexpr unsigned max_threads = 512;
constexpr unsigned count_threads = 128;

// A frame's codeword in shared memory: a bit a symbol in 32-bit words for a
// binary code (bits set with atomicOr, so that threads writing bits of one
// word do not race), a byte a symbol for GF(q).
struct frame_codeword {
    uint32_t* words; // binary
    uint8_t* bytes;  // q > 2

    __device__ unsigned get(bool binary, uint32_t v) const
    {
        return binary ? (words[v >> 5] >> (v & 31)) & 1u : bytes[v];
    }
    __device__ void set(bool binary, uint32_t v, unsigned symbol) const
    {
        if (binary)
            atomicOr(&words[v >> 5], uint32_t(symbol) << (v & 31));
        else
            bytes[v] = uint8_t(symbol);
    }
};

__device__ inline unsigned
gf_mul(const uint8_t* exp, const uint8_t* log, unsigned a, unsigned b)
{
    return a && b ? exp[unsigned(log[a]) + log[b]] : 0u;
}

// XOR of the values of threads 0 .. threadIdx.x - 1 (an exclusive scan);
// every thread of the block calls it.
__device__ unsigned block_exclusive_xor(unsigned x, unsigned* scratch)
{
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned inclusive = x;
    for (unsigned d = 1; d < 32; d <<= 1) {
        const unsigned y = __shfl_up_sync(0xffffffffu, inclusive, d);
        if (lane >= d)
            inclusive ^= y;
    }
    if (lane == 31)
        scratch[warp] = inclusive;
    __syncthreads();
    unsigned before = 0;
    for (unsigned w = 0; w < warp; ++w)
        before ^= scratch[w];
    return before ^ inclusive ^ x;
}

__global__ void __launch_bounds__(max_threads) sim_frames_kernel(sim_frames_params p)
{
    extern __shared__ uint32_t shared[];
    const bool binary = p.q == 2;
    const size_t f = blockIdx.x;
    const uint64_t frame = p.first + f * p.stride;

    // layout: scan scratch (32 words), GF tables (q > 2), the codeword
    unsigned* scratch = shared;
    uint8_t* exp = reinterpret_cast<uint8_t*>(shared + 32);
    uint8_t* log = exp + (binary ? 0 : 2 * p.q);
    const unsigned table_words = binary ? 0 : (3 * p.q + 3) / 4;
    frame_codeword cw{ shared + 32 + table_words,
                       reinterpret_cast<uint8_t*>(shared + 32 + table_words) };
    const unsigned cw_words = binary ? (p.n + 31) / 32 : (p.n + 3) / 4;
    for (unsigned i = threadIdx.x; i < cw_words; i += blockDim.x)
        cw.words[i] = 0;
    if (!binary)
        for (unsigned i = threadIdx.x; i < 2 * (p.q - 1); i += blockDim.x) {
            exp[i] = p.gf_exp[i];
            if (i < p.q)
                log[i] = p.gf_log[i];
        }
    __syncthreads();

    // information
    for (unsigned b = threadIdx.x; b * sim::info_per_block < p.k; b += blockDim.x) {
        const sim::philox_out r = sim::draw(p.seed, frame, b, sim::info_stream);
        const unsigned end = min(p.k, (b + 1) * sim::info_per_block);
        for (unsigned j = b * sim::info_per_block; j < end; ++j) {
            const unsigned s = sim::info_symbol(r, j, p.q);
            cw.set(binary, p.info_positions[j], s);
            if (p.info)
                p.info[f * p.k + j] = uint8_t(s);
        }
    }
    __syncthreads();

    // parity
    if (p.encoder == sim_encoder::accumulator) {
        // parity bit r (position k + r) is the XOR of the information bits of
        // checks 0 .. r: each thread takes a run of checks, the runs chained
        // by a scan
        const unsigned run = (p.checks + blockDim.x - 1) / blockDim.x;
        const unsigned r0 = min(p.checks, threadIdx.x * run);
        const unsigned r1 = min(p.checks, r0 + run);
        unsigned acc = 0;
        for (unsigned r = r0; r < r1; ++r) {
            for (uint32_t e = p.check_offsets[r]; e < p.check_offsets[r + 1]; ++e) {
                const uint32_t v = p.edge_variable[e];
                if (v >= p.k)
                    break; // a check's variables ascend: its parity bits follow
                acc ^= cw.get(true, v);
            }
            if (acc)
                cw.set(true, p.k + r, 1);
        }
        const unsigned carry = block_exclusive_xor(acc, scratch);
        if (carry)
            for (unsigned r = r0; r < r1; ++r)
                atomicXor(&cw.words[(p.k + r) >> 5], 1u << ((p.k + r) & 31));
    } else {
        for (unsigned level = 0; level < p.levels; ++level) {
            for (unsigned i = p.level_offsets[level] + threadIdx.x;
                 i < p.level_offsets[level + 1];
                 i += blockDim.x) {
                unsigned acc = 0;
                for (uint32_t j = p.row_offsets[i]; j < p.row_offsets[i + 1]; ++j) {
                    const unsigned s = cw.get(binary, p.columns[j]);
                    acc ^= binary ? s : gf_mul(exp, log, p.values[j], s);
                }
                cw.set(binary, p.pivots[i], acc);
            }
            __syncthreads();
        }
    }
    __syncthreads();

    if (p.codeword)
        for (unsigned v = threadIdx.x; v < p.n; v += blockDim.x)
            p.codeword[f * p.n + v] = uint8_t(cw.get(binary, v));

    // BPSK over AWGN, LLRs
    const size_t bits = size_t(p.n_transmitted) * p.m;
    float* out = p.llr + f * bits;
    for (unsigned b = threadIdx.x; b * sim::noise_per_block < bits; b += blockDim.x) {
        float noise[sim::noise_per_block];
        sim::noise_block(p.seed, frame, b, noise);
#pragma unroll
        for (unsigned i = 0; i < sim::noise_per_block; ++i) {
            const size_t t = size_t(b) * sim::noise_per_block + i;
            if (t >= bits)
                break;
            const unsigned symbol = cw.get(binary, p.transmitted_positions[t / p.m]);
            const unsigned bit = (symbol >> (p.m - 1 - t % p.m)) & 1u;
            out[t] = sim::bpsk_llr(bit, noise[i], p.sigma, p.llr_gain);
        }
    }
}

__global__ void __launch_bounds__(count_threads) sim_count_kernel(sim_count_params p)
{
    __shared__ unsigned partial[count_threads / 32];
    const size_t f = blockIdx.x;
    const uint64_t frame = p.first + f * p.stride;
    const uint8_t* decoded = p.decoded + f * p.decoded_bytes;
    unsigned errors = 0;
    for (unsigned b = threadIdx.x; b * sim::info_per_block < p.k; b += blockDim.x) {
        const sim::philox_out r = sim::draw(p.seed, frame, b, sim::info_stream);
        const unsigned end = min(p.k, (b + 1) * sim::info_per_block);
        for (unsigned j = b * sim::info_per_block; j < end; ++j) {
            const unsigned s = sim::info_symbol(r, j, p.q);
            for (unsigned i = 0; i < p.m; ++i) {
                const size_t t = size_t(j) * p.m + i;
                const unsigned got =
                    p.packed ? (decoded[t >> 3] >> (7 - (t & 7))) & 1u : decoded[t];
                errors += got != ((s >> (p.m - 1 - i)) & 1u);
            }
        }
    }
    for (unsigned d = 16; d > 0; d >>= 1)
        errors += __shfl_down_sync(0xffffffffu, errors, d);
    if ((threadIdx.x & 31) == 0)
        partial[threadIdx.x >> 5] = errors;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned total = 0;
        for (unsigned w = 0; w < count_threads / 32; ++w)
            total += partial[w];
        p.counts[f] =
            sim_frame_counts{ total, p.status[f].iterations, p.status[f].converged };
    }
}

} // namespace

size_t sim_frames_shared_bytes(unsigned n, unsigned q)
{
    const size_t table_words = q == 2 ? 0 : (3 * q + 3) / 4;
    const size_t cw_words = q == 2 ? (n + 31) / 32 : (n + 3) / 4;
    return 4 * (32 + table_words + cw_words);
}

void launch_sim_frames(const sim_frames_params& p, cudaStream_t stream)
{
    if (p.n_frames == 0)
        return;
    const size_t shared = sim_frames_shared_bytes(p.n, p.q);
    if (shared > 48 * 1024)
        allow_large_shared_memory(reinterpret_cast<const void*>(&sim_frames_kernel));
    // a block of threads enough for a generator block each of the frame's noise
    const size_t work =
        (size_t(p.n_transmitted) * p.m + sim::noise_per_block - 1) / sim::noise_per_block;
    const unsigned threads = unsigned(
        std::min<size_t>(max_threads, std::max<size_t>(64, (work + 31) / 32 * 32)));
    for (size_t f0 = 0; f0 < p.n_frames; f0 += 65535u * 1024u) {
        sim_frames_params q = p;
        q.n_frames = std::min<size_t>(p.n_frames - f0, 65535u * 1024u);
        q.first = p.first + f0 * p.stride;
        q.llr = p.llr + f0 * size_t(p.n_transmitted) * p.m;
        if (p.info)
            q.info = p.info + f0 * p.k;
        if (p.codeword)
            q.codeword = p.codeword + f0 * p.n;
        sim_frames_kernel<<<unsigned(q.n_frames), threads, shared, stream>>>(q);
        GPULDPC_CUDA_CHECK_LAUNCH("sim_frames_kernel");
    }
}

void launch_sim_count(const sim_count_params& p, cudaStream_t stream)
{
    if (p.n_frames == 0)
        return;
    for (size_t f0 = 0; f0 < p.n_frames; f0 += 65535u * 1024u) {
        sim_count_params q = p;
        q.n_frames = std::min<size_t>(p.n_frames - f0, 65535u * 1024u);
        q.first = p.first + f0 * p.stride;
        q.decoded = p.decoded + f0 * p.decoded_bytes;
        q.status = p.status + f0;
        q.counts = p.counts + f0;
        sim_count_kernel<<<unsigned(q.n_frames), count_threads, 0, stream>>>(q);
        GPULDPC_CUDA_CHECK_LAUNCH("sim_count_kernel");
    }
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
