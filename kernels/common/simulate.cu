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
#include <stdexcept>

namespace gr {
namespace gpuldpc {
namespace kernels {

namespace {

constexpr unsigned channel_threads = 256;
constexpr unsigned count_threads = 128;
constexpr unsigned sliced_threads = 256;

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

__device__ __host__ inline size_t codeword_words(unsigned n, unsigned q)
{
    // symbol n, always 0, is what short and missing echelon rows read
    return q == 2 ? (size_t(n) + 1 + 31) / 32 : (size_t(n) + 1 + 3) / 4;
}

// XOR of bits lo .. hi - 1 of a shared bit array, a word at a time.
__device__ void xor_bit_range(uint32_t* words, unsigned lo, unsigned hi)
{
    while (lo < hi) {
        const unsigned end = min(hi, (lo | 31u) + 1);
        const unsigned width = end - lo;
        const uint32_t mask = (width == 32 ? ~0u : (1u << width) - 1) << (lo & 31);
        atomicXor(&words[lo >> 5], mask);
        lo = end;
    }
}

// Word w of a binary frame's information at positions 0 .. k - 1, from two
// generator blocks; bits at k and beyond (parity positions) are 0.
__device__ inline uint32_t
info_word(const sim_frames_params& p, uint64_t frame, unsigned w)
{
    uint32_t word = sim::info_bits16(sim::draw(p.seed, frame, 2 * w, sim::info_stream));
    if (w * 32 + 16 < p.k)
        word |= sim::info_bits16(sim::draw(p.seed, frame, 2 * w + 1, sim::info_stream))
                << 16;
    const unsigned valid = min(32u, p.k - w * 32);
    return valid < 32 ? word & ((1u << valid) - 1) : word;
}

// Frames drawn and encoded in shared memory, the codewords written to the
// scratch buffer for the channel kernel.
__global__ void __launch_bounds__(sim::encoder_threads)
    sim_encode_kernel(sim_frames_params p)
{
    extern __shared__ uint32_t shared[];
    const bool binary = p.q == 2;
    const size_t f = blockIdx.x;

    // layout: scan scratch (32 words), GF tables (q > 2), the codewords
    unsigned* scratch = shared;
    uint8_t* exp = reinterpret_cast<uint8_t*>(shared + 32);
    uint8_t* log = exp + (binary ? 0 : 2 * p.q);
    const unsigned table_words = binary ? 0 : (3 * p.q + 3) / 4;
    const unsigned cw_words = unsigned(codeword_words(p.n, p.q));
    uint32_t* words = shared + 32 + table_words;
    frame_codeword cw{ words, reinterpret_cast<uint8_t*>(words) };
    for (unsigned i = threadIdx.x; i < cw_words; i += blockDim.x)
        cw.words[i] = 0;
    if (!binary)
        for (unsigned i = threadIdx.x; i < 2 * (p.q - 1); i += blockDim.x) {
            exp[i] = p.gf_exp[i];
            if (i < p.q)
                log[i] = p.gf_log[i];
        }
    __syncthreads();
    const uint64_t frame = p.first + f * p.stride;

    // information
    if (binary && p.info_in_order) {
        // a codeword word a thread, from two generator blocks: no atomics
        for (unsigned w = threadIdx.x; w * 32 < p.k; w += blockDim.x) {
            const uint32_t word = info_word(p, frame, w);
            const unsigned valid = min(32u, p.k - w * 32);
            cw.words[w] = word;
            if (p.info)
                for (unsigned i = 0; i < valid; ++i)
                    p.info[f * p.k + w * 32 + i] = uint8_t((word >> i) & 1u);
        }
    } else {
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
    }
    __syncthreads();

    // parity
    if (p.encoder == sim_encoder::accumulator) {
        // (whole blocks of sim::encoder_threads only) parity bit r (position
        // k + r) is the XOR of the information bits of checks 0 .. r: each
        // thread takes a run of checks, the runs chained by a scan; the
        // entries of a warp's threads are consecutive words
        const unsigned t = threadIdx.x;
        const unsigned r0 = min(p.checks, t * p.run);
        const unsigned r1 = min(p.checks, r0 + p.run);
        unsigned acc = 0, r = r0;
        unsigned word = (p.k + r0) >> 5;
        uint32_t bits = 0;
        for (unsigned j = 0; j < p.slots; ++j) {
            const uint32_t e = p.acc_entries[size_t(j) * sim::encoder_threads + t];
            const uint32_t v = e & ~sim::acc_end;
            if (v != sim::acc_none)
                acc ^= (cw.words[v >> 5] >> (v & 31)) & 1u;
            if (e & sim::acc_end) {
                const unsigned position = p.k + r++;
                if (position >> 5 != word) {
                    if (bits)
                        atomicOr(&cw.words[word], bits);
                    word = position >> 5;
                    bits = 0;
                }
                bits |= acc << (position & 31);
            }
        }
        if (bits)
            atomicOr(&cw.words[word], bits);
        const unsigned carry = block_exclusive_xor(acc, scratch);
        if (carry)
            xor_bit_range(cw.words, p.k + r0, p.k + r1);
    } else {
        // a warp a slice, a lane a row, a level at a time
        const unsigned lane = threadIdx.x & 31;
        for (unsigned level = 0; level < p.levels; ++level) {
            for (unsigned s = p.level_slices[level] + (threadIdx.x >> 5);
                 s < p.level_slices[level + 1];
                 s += blockDim.x >> 5) {
                const uint32_t base = p.slice_offsets[s] + lane;
                const unsigned length = p.slice_length[s];
                unsigned acc = 0;
#pragma unroll 4
                for (unsigned j = 0; j < length; ++j) {
                    const uint32_t at = base + j * sim::slice_rows;
                    const unsigned symbol = cw.get(binary, p.slice_columns[at]);
                    acc ^= binary ? symbol : gf_mul(exp, log, p.slice_values[at], symbol);
                }
                // a missing row (pivot n) writes nothing: other lanes may
                // be reading symbol n, which stays 0
                const uint32_t pivot = p.slice_pivots[s * sim::slice_rows + lane];
                if (pivot != p.n)
                    cw.set(binary, pivot, acc);
            }
            __syncthreads();
        }
    }
    __syncthreads();

    uint32_t* out = p.codewords + f * cw_words;
    for (unsigned i = threadIdx.x; i < cw_words; i += blockDim.x)
        out[i] = cw.words[i];
    if (p.codeword)
        for (unsigned v = threadIdx.x; v < p.n; v += blockDim.x)
            p.codeword[f * p.n + v] = uint8_t(cw.get(binary, v));
}

// Bit v of 32 frames as a word, bit i for frame i: lane i's 32-bit word x
// becomes in lane b the word of bit b of every lane's x (a 32 x 32 bit
// transpose, one ballot a bit).
__device__ inline uint32_t transpose_bits(uint32_t x)
{
    const unsigned lane = threadIdx.x & 31;
    uint32_t mine = 0;
#pragma unroll
    for (unsigned b = 0; b < 32; ++b) {
        const uint32_t column = __ballot_sync(0xffffffffu, (x >> b) & 1u);
        if (lane == b)
            mine = column;
    }
    return mine;
}

// Binary echelon codes with the information at 0 .. k - 1, 32 frames a block
// in bit slices: shared word v holds position v of the block's frames, frame
// i in bit i, so that a row's XOR of its terms encodes 32 frames at once. The
// frames, their codewords in the scratch buffer and the optional outputs are
// those of sim_encode_kernel.
__global__ void __launch_bounds__(sliced_threads)
    sim_encode_sliced_kernel(sim_frames_params p)
{
    extern __shared__ uint32_t shared[];
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned warps = blockDim.x >> 5;
    const unsigned cw_words = unsigned(codeword_words(p.n, 2));
    uint32_t* slices = shared; // 32 * cw_words, position v at word v
    const size_t f0 = size_t(blockIdx.x) * 32;
    const size_t f = f0 + lane; // a lane's frame in the transposes
    const bool live = f < p.n_frames;
    const uint64_t frame = p.first + f * p.stride;

    for (unsigned v = p.k + threadIdx.x; v < 32 * cw_words; v += blockDim.x)
        slices[v] = 0;
    // information: a warp a codeword word of the 32 frames
    for (unsigned w = warp; w * 32 < p.k; w += warps) {
        const uint32_t word = live ? info_word(p, frame, w) : 0;
        const unsigned valid = min(32u, p.k - w * 32);
        const uint32_t column = transpose_bits(word);
        if (lane < valid)
            slices[w * 32 + lane] = column;
        if (p.info && live)
            for (unsigned i = 0; i < valid; ++i)
                p.info[f * p.k + w * 32 + i] = uint8_t((word >> i) & 1u);
    }
    __syncthreads();

    // parity: a warp a slice, a lane a row, a level at a time
    for (unsigned level = 0; level < p.levels; ++level) {
        for (unsigned s = p.level_slices[level] + warp; s < p.level_slices[level + 1];
             s += warps) {
            const uint32_t base = p.slice_offsets[s] + lane;
            const unsigned length = p.slice_length[s];
            uint32_t acc = 0;
#pragma unroll 4
            for (unsigned j = 0; j < length; ++j)
                acc ^= slices[p.slice_columns[base + j * sim::slice_rows]];
            // a missing row (pivot n) writes nothing: position n, which
            // short rows read, stays 0 without a store racing those reads
            const uint32_t pivot = p.slice_pivots[s * sim::slice_rows + lane];
            if (pivot != p.n)
                slices[pivot] = acc;
        }
        __syncthreads();
    }

    // back to a word of 32 positions a frame: a warp a codeword word
    for (unsigned w = warp; w < cw_words; w += warps) {
        const uint32_t word = transpose_bits(slices[w * 32 + lane]);
        if (live)
            p.codewords[f * cw_words + w] = word;
    }
    if (p.codeword)
        for (unsigned i = threadIdx.x; i < 32 * p.n; i += blockDim.x) {
            const unsigned g = i / p.n, v = i - g * p.n;
            if (f0 + g < p.n_frames)
                p.codeword[(f0 + g) * p.n + v] = uint8_t((slices[v] >> g) & 1u);
        }
}

// A thread a generator block of a frame's transmitted bits: BPSK over AWGN,
// LLRs; no shared memory, no barriers.
__global__ void __launch_bounds__(channel_threads)
    sim_channel_kernel(sim_frames_params p, uint32_t blocks_per_frame, uint32_t total)
{
    const uint32_t i = blockIdx.x * channel_threads + threadIdx.x;
    if (i >= total)
        return;
    const uint32_t f = i / blocks_per_frame, b = i - f * blocks_per_frame;
    const uint64_t frame = p.first + f * p.stride;
    const bool binary = p.q == 2;
    const uint32_t* words = p.codewords + size_t(f) * codeword_words(p.n, p.q);
    const uint8_t* bytes = reinterpret_cast<const uint8_t*>(words);
    const unsigned bits = p.n_transmitted * p.m;
    float noise[sim::noise_per_block];
    sim::noise_block(p.seed, frame, b, noise);
    float llr[sim::noise_per_block];
#pragma unroll
    for (unsigned j = 0; j < sim::noise_per_block; ++j) {
        const unsigned t = min(b * sim::noise_per_block + j, bits - 1);
        unsigned bit;
        if (binary) {
            const uint32_t v = p.transmitted_positions[t];
            bit = (words[v >> 5] >> (v & 31)) & 1u;
        } else {
            const unsigned symbol = bytes[p.transmitted_positions[t / p.m]];
            bit = (symbol >> (p.m - 1 - t % p.m)) & 1u;
        }
        llr[j] = sim::bpsk_llr(bit, noise[j], p.sigma, p.llr_gain);
    }
    const size_t at = size_t(f) * bits + size_t(b) * sim::noise_per_block;
    static_assert(sim::noise_per_block == 4,
                  "a generator block's LLRs are a word or float4");
    if (p.llr8) {
        // the decoder's float input rounding (kernels/binary/decode.cuh)
        int8_t q[sim::noise_per_block];
#pragma unroll
        for (unsigned j = 0; j < sim::noise_per_block; ++j) {
            const float l = fminf(fmaxf(llr[j], -64.0f), 64.0f);
            q[j] = int8_t(
                __float2int_rn(fminf(fmaxf(__fmul_rn(l, p.llr_scale), -127.0f), 127.0f)));
        }
        if (bits % 4 == 0) {
            *reinterpret_cast<char4*>(p.llr8 + at) = make_char4(q[0], q[1], q[2], q[3]);
        } else {
#pragma unroll
            for (unsigned j = 0; j < sim::noise_per_block; ++j)
                if (b * sim::noise_per_block + j < bits)
                    p.llr8[at + j] = q[j];
        }
        return;
    }
    float* out = p.llr + at;
    if (bits % 4 == 0) {
        *reinterpret_cast<float4*>(out) = make_float4(llr[0], llr[1], llr[2], llr[3]);
    } else {
#pragma unroll
        for (unsigned j = 0; j < sim::noise_per_block; ++j)
            if (b * sim::noise_per_block + j < bits)
                out[j] = llr[j];
    }
}

// The decisions on information bits 16 b .. 16 b + valid - 1 of a frame,
// bit i for bit 16 b + i, as info_bits16() lays out a block's draw.
// packed: 8 decisions a byte, MSB first; else one a byte (0 or 1), gathered
// four at a time by one multiply where \p words (valid is then a multiple of 4).
__device__ __forceinline__ uint32_t decided_bits16(
    const uint8_t* decoded, unsigned b, unsigned valid, bool packed, bool words)
{
    if (packed) {
        uint32_t got = __brev(decoded[2 * b]) >> 24;
        if (valid > 8)
            got |= (__brev(decoded[2 * b + 1]) >> 24) << 8;
        return got;
    }
    const uint8_t* at = decoded + 16 * b;
    uint32_t got = 0;
    if (words) {
        for (unsigned w = 0; w < valid / 4; ++w) {
            const uint32_t x = reinterpret_cast<const uint32_t*>(at)[w];
            got |= (((x & 0x01010101u) * 0x10204080u) >> 28) << (4 * w);
        }
    } else {
        for (unsigned i = 0; i < valid; ++i)
            got |= uint32_t(at[i] & 1u) << i;
    }
    return got;
}

// A block a frame, or, for codes of few information blocks, a warp a frame
// and count_threads / 32 frames a block.
__global__ void __launch_bounds__(count_threads)
    sim_count_kernel(sim_count_params p, bool warp_a_frame)
{
    __shared__ unsigned partial[count_threads / 32];
    const unsigned thread = warp_a_frame ? threadIdx.x & 31 : threadIdx.x;
    const unsigned threads = warp_a_frame ? 32 : blockDim.x;
    const size_t f = warp_a_frame
                         ? size_t(blockIdx.x) * (count_threads / 32) + (threadIdx.x >> 5)
                         : blockIdx.x;
    if (f >= p.n_frames)
        return; // a warp past the batch (warp_a_frame: no block barrier follows)
    const uint64_t frame = p.first + f * p.stride;
    const uint8_t* decoded = p.decoded + f * p.decoded_bytes;
    unsigned errors = 0;
    if (p.q == 2) {
        // four unpacked bytes at a time where a frame's bytes start on a word
        const bool words = !p.packed && p.decoded_bytes % 4 == 0 && p.k % 4 == 0;
        for (unsigned b = thread; b * sim::info_per_block < p.k; b += threads) {
            const uint32_t want =
                sim::info_bits16(sim::draw(p.seed, frame, b, sim::info_stream));
            const unsigned valid = min(16u, p.k - b * 16);
            const uint32_t got = decided_bits16(decoded, b, valid, p.packed, words);
            errors += __popc((want ^ got) & ((1u << valid) - 1));
        }
    } else {
        for (unsigned b = thread; b * sim::info_per_block < p.k; b += threads) {
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
    }
    for (unsigned d = 16; d > 0; d >>= 1)
        errors += __shfl_down_sync(0xffffffffu, errors, d);
    if (warp_a_frame) {
        if (thread == 0)
            p.counts[f] =
                sim_frame_counts{ errors, p.status[f].iterations, p.status[f].converged };
        return;
    }
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

size_t sim_codeword_words(unsigned n, unsigned q) { return codeword_words(n, q); }

namespace {
// Frames a block of the bit-sliced encoder, and the shared memory it may take
// (within what every GPU gives a block without opting in).
constexpr unsigned sliced_frames = 32;
constexpr size_t sliced_shared_limit = 48 * 1024;

unsigned frames_per_block(const sim_frames_params& p)
{
    return sim_encoder_frames_per_block(p.encoder, p.n, p.q, p.info_in_order);
}
} // namespace

unsigned sim_encoder_frames_per_block(sim_encoder encoder,
                                      unsigned n,
                                      unsigned q,
                                      bool info_in_order)
{
    return q == 2 && info_in_order && encoder == sim_encoder::echelon &&
                   sim_frames_shared_bytes(n, q, sliced_frames) <= sliced_shared_limit
               ? sliced_frames
               : 1;
}

size_t sim_frames_shared_bytes(unsigned n, unsigned q, unsigned frames)
{
    const size_t table_words = q == 2 ? 0 : (3 * q + 3) / 4;
    return 4 * (32 + table_words + frames * codeword_words(n, q));
}

size_t sim_frames_shared_bytes(const sim_frames_params& p)
{
    return sim_frames_shared_bytes(p.n, p.q, frames_per_block(p));
}

void launch_sim_frames(const sim_frames_params& params, cudaStream_t stream)
{
    if (params.n_frames == 0)
        return;
    if (!params.llr == !params.llr8)
        throw std::invalid_argument(
            "launch_sim_frames: LLRs wanted in float (llr) or in 8 bits (llr8), one");
    sim_frames_params p = params;
    p.frames_per_block = frames_per_block(p);
    const bool sliced = p.frames_per_block > 1;
    const size_t shared = sim_frames_shared_bytes(p);
    if (shared > 48 * 1024)
        allow_large_shared_memory(reinterpret_cast<const void*>(&sim_encode_kernel));
    // the accumulator's layout is made for sim::encoder_threads; echelon
    // levels take a warp a slice, the information a thread a word
    unsigned threads = sim::encoder_threads;
    if (sliced) {
        threads = sliced_threads;
    } else if (p.encoder == sim_encoder::echelon) {
        const size_t info = p.q == 2 ? (p.k + 31) / 32 : (p.k + 15) / 16;
        const size_t work = std::max<size_t>(size_t(p.widest_level) * 32, info);
        threads = unsigned(std::min<size_t>(sim::encoder_threads,
                                            std::max<size_t>(64, (work + 31) / 32 * 32)));
    }
    const size_t cw_words = codeword_words(p.n, p.q);
    const size_t bits = size_t(p.n_transmitted) * p.m;
    const uint32_t blocks_per_frame =
        uint32_t((bits + sim::noise_per_block - 1) / sim::noise_per_block);
    // frames a launch: at most 65535 * 1024 blocks, and the channel kernel's
    // thread index within 32 bits
    const size_t chunk =
        std::min<size_t>(65535u * 1024u, (size_t(1) << 31) / blocks_per_frame);
    for (size_t f0 = 0; f0 < p.n_frames; f0 += chunk) {
        sim_frames_params q = p;
        q.n_frames = std::min<size_t>(p.n_frames - f0, chunk);
        q.first = p.first + f0 * p.stride;
        q.codewords = p.codewords + f0 * cw_words;
        if (p.llr)
            q.llr = p.llr + f0 * bits;
        else
            q.llr8 = p.llr8 + f0 * bits;
        if (p.info)
            q.info = p.info + f0 * p.k;
        if (p.codeword)
            q.codeword = p.codeword + f0 * p.n;
        const unsigned blocks =
            unsigned((q.n_frames + p.frames_per_block - 1) / p.frames_per_block);
        if (sliced) {
            sim_encode_sliced_kernel<<<blocks, threads, shared, stream>>>(q);
            GPULDPC_CUDA_CHECK_LAUNCH("sim_encode_sliced_kernel");
        } else {
            sim_encode_kernel<<<blocks, threads, shared, stream>>>(q);
            GPULDPC_CUDA_CHECK_LAUNCH("sim_encode_kernel");
        }
        const uint32_t total = uint32_t(q.n_frames * blocks_per_frame);
        sim_channel_kernel<<<(total + channel_threads - 1) / channel_threads,
                             channel_threads,
                             0,
                             stream>>>(q, blocks_per_frame, total);
        GPULDPC_CUDA_CHECK_LAUNCH("sim_channel_kernel");
    }
}

void launch_sim_count(const sim_count_params& p, cudaStream_t stream)
{
    if (p.n_frames == 0)
        return;
    // a warp a frame where a lane has at most 4 information blocks to count
    const bool warp_a_frame = p.k <= 4 * 32 * sim::info_per_block;
    const size_t per_block = warp_a_frame ? count_threads / 32 : 1;
    const size_t chunk = 65535u * 1024u;
    for (size_t f0 = 0; f0 < p.n_frames; f0 += chunk) {
        sim_count_params q = p;
        q.n_frames = std::min<size_t>(p.n_frames - f0, chunk);
        q.first = p.first + f0 * p.stride;
        q.decoded = p.decoded + f0 * p.decoded_bytes;
        q.status = p.status + f0;
        q.counts = p.counts + f0;
        const unsigned blocks = unsigned((q.n_frames + per_block - 1) / per_block);
        sim_count_kernel<<<blocks, count_threads, 0, stream>>>(q, warp_a_frame);
        GPULDPC_CUDA_CHECK_LAUNCH("sim_count_kernel");
    }
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
