/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Binary min-sum in 8-bit fixed point, a thread block per group of frames for
// all iterations. Every step is the CPU reference's (cpu_fixed_point_decoder.cc)
// in integers: channel values rounded to steps of 1/llr_scale (ties to even)
// and saturated to +-127, messages into a check saturated to +-127, check
// magnitudes (max(min - offset, 0) * scale + 8) >> 4 in sixteenths, beliefs
// as exact sums. Frames of a block are independent; a frame that converged
// (early termination) is left alone while the others go on.

#include "cuda_check.h"
#include "ldpc_min_sum.h"
#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuldpc {
namespace kernels {

namespace {

constexpr unsigned block_threads = 256;
constexpr unsigned max_block_frames = 32;
constexpr float input_limit = 64.0f; // batch_decoder::max_input_magnitude
constexpr size_t state_alignment = 256;
// the kernel's static shared memory (per-frame counters) at most
constexpr size_t static_shared_bytes = 1024;

__device__ __forceinline__ int32_t saturate8(int32_t x) { return min(max(x, -127), 127); }

// Check message magnitude from the smallest other input magnitude.
struct fixed_point_rule {
    int32_t scale_q, offset_q;
    __device__ __forceinline__ int32_t magnitude(int32_t m) const
    {
        return (max(m - offset_q, 0) * scale_q + 8) >> 4;
    }
};

// The state of a block's frames, frame-interleaved: value x of frame f at
// x * frames + f. Layered: beliefs (16 bits: a message into a check plus a
// check message, within +-254) and check messages. Flooding: channel values,
// check messages, variable messages and hard decisions.
struct block_state {
    int16_t* belief;
    int8_t* channel;
    int8_t* c2v;
    int8_t* v2c;
    uint8_t* hard;
};

__host__ __device__ constexpr size_t align_up(size_t x, size_t a)
{
    return (x + a - 1) / a * a;
}

__host__ __device__ inline size_t state_layout(
    size_t n, size_t edges, bool layered, unsigned frames, block_state* s, uint8_t* base)
{
    size_t at = 0;
    auto take = [&](size_t bytes) {
        uint8_t* p = base ? base + at : nullptr;
        at = align_up(at + bytes, 16);
        return p;
    };
    if (layered) {
        uint8_t* belief = take(2 * n * frames);
        uint8_t* c2v = take(edges * frames);
        if (s)
            *s = block_state{ reinterpret_cast<int16_t*>(belief),
                              nullptr,
                              reinterpret_cast<int8_t*>(c2v),
                              nullptr,
                              nullptr };
    } else {
        uint8_t* channel = take(n * frames);
        uint8_t* c2v = take(edges * frames);
        uint8_t* v2c = take(edges * frames);
        uint8_t* hard = take(n * frames);
        if (s)
            *s = block_state{ nullptr,
                              reinterpret_cast<int8_t*>(channel),
                              reinterpret_cast<int8_t*>(c2v),
                              reinterpret_cast<int8_t*>(v2c),
                              hard };
    }
    return align_up(at, state_alignment);
}

template <bool Layered>
__device__ __forceinline__ bool
hard_bit(const block_state& s, uint32_t v, unsigned frames, unsigned f)
{
    if constexpr (Layered)
        return s.belief[v * frames + f] < 0;
    else
        return s.hard[v * frames + f] != 0;
}

// Counts the unsatisfied checks of the block's frames into syndrome[]; frames
// marked done are skipped unless \p all.
template <bool Layered>
__device__ void count_syndromes(const min_sum_graph& g,
                                const block_state& s,
                                unsigned frames,
                                unsigned valid,
                                const uint8_t* done,
                                bool all,
                                uint32_t* syndrome)
{
    if (threadIdx.x < frames)
        syndrome[threadIdx.x] = 0;
    __syncthreads();
    for (uint32_t w = threadIdx.x; w < g.checks * frames; w += blockDim.x) {
        const uint32_t c = w / frames, f = w - c * frames;
        if (f >= valid || (!all && done[f]))
            continue;
        bool parity = false;
        for (uint32_t e = g.check_offsets[c]; e < g.check_offsets[c + 1]; ++e)
            parity ^= hard_bit<Layered>(s, g.edge_variable[e], frames, f);
        if (parity)
            atomicAdd(&syndrome[f], 1u);
    }
    __syncthreads();
}

// The min-sum state of one check: the two smallest input magnitudes (ties to
// the first), the edge of the smallest, the parity of the signs; then the
// magnitudes of the messages out.
struct check_minima {
    int32_t min1 = 255, min2 = 255;
    uint32_t arg_min = 0;
    bool negative = false;
    int32_t mag1 = 0, mag2 = 0;

    __device__ __forceinline__ void add(int32_t x, uint32_t e)
    {
        const int32_t a = abs(x);
        negative ^= x < 0;
        if (a < min1) {
            min2 = min1;
            min1 = a;
            arg_min = e;
        } else if (a < min2) {
            min2 = a;
        }
    }
    __device__ __forceinline__ void finish(const fixed_point_rule& rule)
    {
        mag1 = rule.magnitude(min(min1, 127));
        mag2 = rule.magnitude(min(min2, 127));
    }
    // The message out on edge e, whose input was x.
    __device__ __forceinline__ int32_t message(int32_t x, uint32_t e) const
    {
        const int32_t mag = e == arg_min ? mag2 : mag1;
        return (negative ^ (x < 0)) ? -mag : mag;
    }
};

// One check of one frame, layered: messages in from the beliefs less the
// check's previous messages, new messages out, beliefs updated. The messages
// in are made twice (once for the minima, once for the update) rather than
// kept: the beliefs of a check's bits change only through this check within
// a run.
__device__ __forceinline__ void update_check_layered(const min_sum_graph& g,
                                                     const block_state& s,
                                                     const fixed_point_rule& rule,
                                                     uint32_t c,
                                                     unsigned frames,
                                                     unsigned f)
{
    const uint32_t e0 = g.check_offsets[c], e1 = g.check_offsets[c + 1];
    check_minima mins;
    for (uint32_t e = e0; e < e1; ++e) {
        const uint32_t v = g.edge_variable[e];
        mins.add(
            saturate8(int32_t(s.belief[v * frames + f]) - int32_t(s.c2v[e * frames + f])),
            e);
    }
    mins.finish(rule);
    for (uint32_t e = e0; e < e1; ++e) {
        const uint32_t v = g.edge_variable[e];
        const int32_t x =
            saturate8(int32_t(s.belief[v * frames + f]) - int32_t(s.c2v[e * frames + f]));
        const int32_t m = mins.message(x, e);
        s.c2v[e * frames + f] = int8_t(m);
        s.belief[v * frames + f] = int16_t(x + m);
    }
}

// One check of one frame, flooding: variable messages in, check messages out.
__device__ __forceinline__ void update_check_flooding(const min_sum_graph& g,
                                                      const block_state& s,
                                                      const fixed_point_rule& rule,
                                                      uint32_t c,
                                                      unsigned frames,
                                                      unsigned f)
{
    const uint32_t e0 = g.check_offsets[c], e1 = g.check_offsets[c + 1];
    check_minima mins;
    for (uint32_t e = e0; e < e1; ++e)
        mins.add(s.v2c[e * frames + f], e);
    mins.finish(rule);
    for (uint32_t e = e0; e < e1; ++e)
        s.c2v[e * frames + f] = int8_t(mins.message(s.v2c[e * frames + f], e));
}

// One variable of one frame, flooding: belief, messages out, decision.
__device__ __forceinline__ void update_variable(
    const min_sum_graph& g, const block_state& s, uint32_t v, unsigned frames, unsigned f)
{
    const uint32_t i0 = g.variable_offsets[v], i1 = g.variable_offsets[v + 1];
    int32_t total = s.channel[v * frames + f];
    for (uint32_t i = i0; i < i1; ++i)
        total += s.c2v[g.variable_edges[i] * frames + f];
    for (uint32_t i = i0; i < i1; ++i) {
        const uint32_t e = g.variable_edges[i];
        s.v2c[e * frames + f] = int8_t(saturate8(total - s.c2v[e * frames + f]));
    }
    s.hard[v * frames + f] = total < 0;
}

template <bool Layered>
__global__ void __launch_bounds__(block_threads) min_sum_kernel(const min_sum_params p)
{
    extern __shared__ __align__(16) uint8_t shared[];
    __shared__ uint32_t syndrome[max_block_frames], invalid[max_block_frames],
        iterations[max_block_frames];
    __shared__ uint8_t done[max_block_frames];
    __shared__ int all_done;

    const min_sum_graph& g = p.graph;
    const unsigned frames = p.variant.frames;
    const size_t first = size_t(blockIdx.x) * frames;
    const unsigned valid = unsigned(min(size_t(frames), p.n_frames - first));
    uint8_t* base = p.variant.on_chip
                        ? shared
                        : p.workspace + size_t(blockIdx.x) * p.variant.state_bytes;
    block_state s;
    state_layout(g.n, g.edges, Layered, frames, &s, base);
    const fixed_point_rule rule{ p.scale_q, p.offset_q };

    if (threadIdx.x < max_block_frames) {
        invalid[threadIdx.x] = 0;
        iterations[threadIdx.x] = 0;
        done[threadIdx.x] = 0;
    }
    __syncthreads();

    // channel values, internal convention log(P(0)/P(1)), in steps
    for (uint32_t w = threadIdx.x; w < g.n * frames; w += blockDim.x) {
        const uint32_t v = w / frames, f = w - v * frames;
        if (f >= valid)
            continue;
        const int32_t t = g.input_index[v];
        int32_t x = 0;
        if (t >= 0) {
            const size_t at = (first + f) * g.n_input + uint32_t(t);
            if (p.llr) {
                float l = p.llr[at];
                if (!isfinite(l)) {
                    atomicAdd(&invalid[f], 1u);
                    l = 0.0f;
                }
                l = fminf(fmaxf(l, -input_limit), input_limit);
                const float scaled = __fmul_rn(p.flip_llr_sign ? l : -l, p.llr_scale);
                x = __float2int_rn(fminf(fmaxf(scaled, -127.0f), 127.0f));
            } else {
                int32_t in = max(int32_t(p.llr8[at]), -127);
                if (float(abs(in)) > p.int8_limit)
                    in = in < 0 ? -p.int8_clip : p.int8_clip;
                x = p.flip_llr_sign ? in : -in;
            }
        }
        if constexpr (Layered) {
            s.belief[w] = int16_t(x);
        } else {
            s.channel[w] = int8_t(x);
            s.hard[w] = x < 0;
        }
    }
    __syncthreads();
    // (slots of frames beyond the batch stay untouched: nothing reads them)
    for (uint32_t w = threadIdx.x; w < g.edges * frames; w += blockDim.x) {
        const uint32_t e = w / frames, f = w - e * frames;
        if (f >= valid)
            continue;
        if constexpr (Layered)
            s.c2v[w] = 0;
        else
            s.v2c[w] = s.channel[g.edge_variable[e] * frames + f];
    }
    __syncthreads();

    if (p.early_termination) {
        count_syndromes<Layered>(g, s, frames, valid, done, true, syndrome);
        if (threadIdx.x < valid)
            done[threadIdx.x] = syndrome[threadIdx.x] == 0;
        __syncthreads();
    }

    for (unsigned it = 1; it <= p.max_iterations; ++it) {
        if (threadIdx.x == 0) {
            int all = 1;
            for (unsigned f = 0; f < valid; ++f)
                all &= done[f];
            all_done = all;
        }
        __syncthreads();
        if (all_done)
            break;
        if constexpr (Layered) {
            for (unsigned r = 0; r < g.runs; ++r) {
                const uint32_t r0 = g.run_offsets[r], r1 = g.run_offsets[r + 1];
                for (uint32_t w = threadIdx.x; w < (r1 - r0) * frames; w += blockDim.x) {
                    const uint32_t i = w / frames, f = w - i * frames;
                    if (f < valid && !done[f])
                        update_check_layered(g, s, rule, g.run_checks[r0 + i], frames, f);
                }
                __syncthreads();
            }
        } else {
            for (uint32_t w = threadIdx.x; w < g.checks * frames; w += blockDim.x) {
                const uint32_t c = w / frames, f = w - c * frames;
                if (f < valid && !done[f])
                    update_check_flooding(g, s, rule, c, frames, f);
            }
            __syncthreads();
            for (uint32_t w = threadIdx.x; w < g.n * frames; w += blockDim.x) {
                const uint32_t v = w / frames, f = w - v * frames;
                if (f < valid && !done[f])
                    update_variable(g, s, v, frames, f);
            }
            __syncthreads();
        }
        if (threadIdx.x < valid && !done[threadIdx.x])
            iterations[threadIdx.x] = it;
        if (p.early_termination) {
            count_syndromes<Layered>(g, s, frames, valid, done, false, syndrome);
            if (threadIdx.x < valid && !done[threadIdx.x] && syndrome[threadIdx.x] == 0)
                done[threadIdx.x] = 1;
            __syncthreads();
        }
    }

    count_syndromes<Layered>(g, s, frames, valid, done, true, syndrome);
    for (uint32_t w = threadIdx.x; w < g.k * frames; w += blockDim.x) {
        const uint32_t i = w / frames, f = w - i * frames;
        if (f < valid)
            p.info_bits[(first + f) * g.k + i] =
                hard_bit<Layered>(s, g.info_positions[i], frames, f);
    }
    if (p.codeword_bits)
        for (uint32_t w = threadIdx.x; w < g.n * frames; w += blockDim.x) {
            const uint32_t v = w / frames, f = w - v * frames;
            if (f < valid)
                p.codeword_bits[(first + f) * g.n + v] =
                    hard_bit<Layered>(s, v, frames, f);
        }
    if (threadIdx.x < valid) {
        min_sum_status& st = p.status[first + threadIdx.x];
        st.converged = syndrome[threadIdx.x] == 0;
        st.iterations = iterations[threadIdx.x];
        st.syndrome_weight = syndrome[threadIdx.x];
        st.invalid_inputs = invalid[threadIdx.x];
    }
}

} // namespace

size_t min_sum_state_bytes(const min_sum_graph& g, bool layered, unsigned frames)
{
    return state_layout(g.n, g.edges, layered, frames, nullptr, nullptr);
}

min_sum_variant min_sum_choose(const min_sum_graph& g,
                               bool layered,
                               size_t shared_limit,
                               size_t sm_shared_bytes,
                               unsigned min_on_chip_frames)
{
    // room for the kernel's static counters
    const size_t budget =
        shared_limit > static_shared_bytes ? shared_limit - static_shared_bytes : 0;
    unsigned fit = 0;
    while (fit < max_block_frames && min_sum_state_bytes(g, layered, fit + 1) <= budget)
        ++fit;
    // two blocks an SM where that still leaves 8 frames a block (latency of
    // one block's synchronisations hidden by the other's work); each block
    // also takes its static counters and the 1 KiB the runtime reserves
    const size_t per_block = sm_shared_bytes / 2;
    const size_t half_budget = per_block > 2 * static_shared_bytes
                                   ? std::min(budget, per_block - 2 * static_shared_bytes)
                                   : 0;
    unsigned half = 0;
    while (half < max_block_frames &&
           min_sum_state_bytes(g, layered, half + 1) <= half_budget)
        ++half;
    min_sum_variant v{};
    v.threads = block_threads;
    if (fit >= std::max(min_on_chip_frames, 1u)) {
        v.on_chip = true;
        v.frames = half >= 8 ? half : fit;
        v.state_bytes = min_sum_state_bytes(g, layered, v.frames);
        v.shared_bytes = v.state_bytes;
    } else {
        v.on_chip = false;
        v.frames = max_block_frames;
        v.state_bytes = min_sum_state_bytes(g, layered, v.frames);
        v.shared_bytes = 0;
    }
    return v;
}

void launch_min_sum(const min_sum_params& p, cudaStream_t stream)
{
    if (p.n_frames == 0)
        return;
    if (p.variant.frames < 1 || p.variant.frames > max_block_frames)
        throw std::invalid_argument(
            "launch_min_sum: variant.frames=" + std::to_string(p.variant.frames) +
            " is out of range; allowed: 1.." + std::to_string(max_block_frames));
    if (!p.variant.on_chip && !p.workspace)
        throw std::invalid_argument("launch_min_sum: the global variant needs a "
                                    "workspace");
    if (p.layered && (!p.graph.run_checks || !p.graph.run_offsets))
        throw std::invalid_argument("launch_min_sum: layered needs the runs");
    auto kernel = p.layered ? &min_sum_kernel<true> : &min_sum_kernel<false>;
    // beyond 48 KiB with the static counters, dynamic shared memory is opted into
    if (p.variant.shared_bytes + static_shared_bytes > 48 * 1024)
        allow_large_shared_memory(reinterpret_cast<const void*>(kernel));
    // the kernel writes the status fields, not the struct's padding, which
    // the engine copies to the host with them
    GPULDPC_CUDA_CHECK(
        cudaMemsetAsync(p.status, 0, p.n_frames * sizeof(min_sum_status), stream));
    const size_t blocks = (p.n_frames + p.variant.frames - 1) / p.variant.frames;
    kernel<<<unsigned(blocks), p.variant.threads, p.variant.shared_bytes, stream>>>(p);
    GPULDPC_CUDA_CHECK_LAUNCH("min_sum_kernel");
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
