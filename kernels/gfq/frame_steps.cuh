/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_GFQ_FRAME_STEPS_CUH
#define INCLUDED_GPULDPC_KERNELS_GFQ_FRAME_STEPS_CUH

// The steps of decoding a frame besides the check update, shared by the
// per-frame and check-parallel kernels: priors from the input, hard
// decisions, flooding's variable update, the syndrome. Internal to the
// kernels.

#include "gfq/check_registers.cuh"
#include "gfq/common.cuh"
#include "gfq/traits.cuh"
#include <cfloat>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace gfq {

namespace {

// The prior of variable v of a frame by a warp: log P(x) from its bit LLRs
// (MSB first) or its symbol log-likelihoods, normalised to a maximum of 0.
// Returns (in every lane) the NaN/Inf inputs it met.
template <unsigned Q>
__device__ unsigned
form_prior(const fft_bp_params& p, size_t frame, unsigned v, float* pr)
{
    constexpr unsigned q = Q, m = log2_of(Q);
    const fft_bp_graph& g = p.graph;
    const unsigned lane = threadIdx.x & 31;
    unsigned invalid = 0;
    float mx = -FLT_MAX;
    if (!p.symbol_input) {
        const float* llr = p.input + frame * size_t(g.n) * m + size_t(v) * m;
        float l = 0.0f;
        if (lane < m)
            l = sanitize(llr[lane], invalid) * p.to_log_p0_p1; // log(P(0)/P(1))
        // log P(bit = 0) and log P(bit = 1), stable for large |l|
        const float lp0 = -log1pf(expf(-fabsf(l))) + (l < 0.0f ? l : 0.0f);
        const float lp1 = lp0 - l;
        float a0[m], a1[m];
#pragma unroll
        for (unsigned b = 0; b < m; ++b) {
            a0[b] = __shfl_sync(full_mask, lp0, b);
            a1[b] = __shfl_sync(full_mask, lp1, b);
        }
        for (unsigned x = lane; x < q; x += 32) {
            float sum = 0.0f;
#pragma unroll
            for (unsigned b = 0; b < m; ++b)
                sum += ((x >> (m - 1 - b)) & 1) ? a1[b] : a0[b];
            pr[x] = sum;
            mx = fmaxf(mx, sum);
        }
    } else {
        const float* ll = p.input + (frame * g.n + v) * size_t(q);
        for (unsigned x = lane; x < q; x += 32) {
            const float val = sanitize(ll[x], invalid);
            pr[x] = val;
            mx = fmaxf(mx, val);
        }
    }
    mx = warp_max(mx);
    for (unsigned x = lane; x < q; x += 32)
        pr[x] -= mx;
    return warp_sum(invalid);
}

// Hard decision of every variable from its belief, by warps.
template <unsigned Q, typename State>
__device__ void decide(const fft_bp_params& p, const State& s)
{
    constexpr unsigned q = Q;
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (unsigned v = warp; v < p.graph.n; v += blockDim.x >> 5) {
        const float* a = s.app + size_t(v) * q;
        float best = -FLT_MAX;
        unsigned arg = 0;
        for (unsigned x = lane; x < q; x += 32)
            if (a[x] > best) {
                best = a[x];
                arg = x;
            }
        group_argmax<32>(best, arg);
        if (lane == 0)
            s.hard[v] = uint8_t(arg);
    }
}

// Flooding's variable phase: beliefs = prior + all incoming messages (in
// edge order, each value's sum in a register), then, where \p decide, the
// hard decision (only early termination and the last iteration use it). A
// variable takes a group of lanes with 4 values each (8 for q = 256), so that
// a warp serves 32 / group variables at once (small q: one warp a variable
// would leave most lanes idle and repeat the per-variable work); warp \p
// first takes variables from its first group on, in steps of \p step warps.
template <typename T>
__device__ __forceinline__ void variable_update(const fft_bp_params& p,
                                                const frame_state<typename T::message>& s,
                                                unsigned first,
                                                unsigned step,
                                                bool decide)
{
    constexpr unsigned Q = T::q;
    using M = typename T::message;
    // where the check-to-variable messages lie: the tensor-core family's
    // lane order (c2v_position), the register family's check domain, or the
    // variable's domain
    constexpr bool mma = T::family == fft_bp_family::tensor_cores;
    constexpr bool check_domain = T::family == fft_bp_family::registers;
    const fft_bp_graph& g = p.graph;
    constexpr unsigned q = Q;
    constexpr unsigned lanes = variable_lanes(Q);
    constexpr unsigned per_lane = Q / lanes, groups = 32 / lanes;
    const unsigned lane = threadIdx.x & 31, sub = lane % lanes;
    for (unsigned v0 = first * groups; v0 < g.n; v0 += step * groups) {
        const unsigned v = v0 + lane / lanes;
        const bool active = v < g.n; // shuffles below take the whole warp
        float sum[per_lane];
        float best = -FLT_MAX;
        unsigned arg = 0;
        if (active) {
            const uint32_t* offsets = mma ? s.variable_offsets : g.variable_offsets;
            const uint32_t i0 = offsets[v], i1 = offsets[v + 1];
            float* a = s.app + size_t(v) * q;
            const float* pr = s.prior + size_t(v) * q;
#pragma unroll
            for (unsigned r = 0; r < per_lane; ++r)
                sum[r] = pr[sub + lanes * r];
            if constexpr (mma) {
                // check's domain, lane order (c2v_position); two edges at a
                // time, so that their chains of loads overlap (a degree-2
                // variable: one step), added in edge order
                for (uint32_t i = i0; i < i1; i += 2) {
                    const bool second = i + 1 < i1;
                    const uint32_t words[2] = { s.variable_edges[i],
                                                s.variable_edges[second ? i + 1 : i] };
                    float m[2][per_lane];
#pragma unroll
                    for (unsigned j = 0; j < 2; ++j) {
                        const M* c = s.c2v + size_t(words[j] >> 8) * q;
                        const uint8_t* position = s.c2v_position + (words[j] & 0xff) * q;
                        const unsigned odd = ((words[j] >> 8) & 1) << 3;
#pragma unroll
                        for (unsigned r = 0; r < per_lane; ++r)
                            m[j][r] = message_value(c[position[sub + lanes * r] ^ odd]);
                    }
#pragma unroll
                    for (unsigned r = 0; r < per_lane; ++r)
                        sum[r] += m[0][r];
                    if (second)
#pragma unroll
                        for (unsigned r = 0; r < per_lane; ++r)
                            sum[r] += m[1][r];
                }
            } else {
                for (uint32_t i = i0; i < i1; ++i) {
                    const uint32_t e = g.variable_edges[i];
                    const M* c = s.c2v + size_t(e) * q;
                    if constexpr (check_domain) { // y = h x
                        const uint8_t* to_check =
                            s.gf_mul + unsigned(g.edge_coefficient[e]) * q;
                        const unsigned swizzle = c2v_swizzle<Q, T::edge_slots>(e);
#pragma unroll
                        for (unsigned r = 0; r < per_lane; ++r)
                            sum[r] +=
                                message_value(c[to_check[sub + lanes * r] ^ swizzle]);
                    } else {
#pragma unroll
                        for (unsigned r = 0; r < per_lane; ++r)
                            sum[r] += message_value(c[sub + lanes * r]);
                    }
                }
            }
#pragma unroll
            for (unsigned r = 0; r < per_lane; ++r)
                a[sub + lanes * r] = sum[r];
            if (decide)
#pragma unroll
                for (unsigned r = 0; r < per_lane; ++r)
                    if (sum[r] > best) {
                        best = sum[r];
                        arg = sub + lanes * r;
                    }
        }
        if (decide) {
            group_argmax<lanes>(best, arg);
            if (active && sub == 0)
                s.hard[v] = uint8_t(arg);
        }
    }
}

// Unsatisfied checks of the hard decision (call with the block in step).
template <typename State>
__device__ unsigned
syndrome_weight(const fft_bp_params& p, const State& s, unsigned* counter)
{
    const fft_bp_graph& g = p.graph;
    __syncthreads();
    if (threadIdx.x == 0)
        *counter = 0;
    __syncthreads();
    unsigned unsat = 0;
    for (unsigned c = threadIdx.x; c < g.checks; c += blockDim.x) {
        unsigned sum = 0;
        for (uint32_t e = g.check_offsets[c]; e < g.check_offsets[c + 1]; ++e)
            sum ^= s.gf_mul[unsigned(g.edge_coefficient[e]) * g.q +
                            s.hard[g.edge_variable[e]]];
        unsat += sum != 0;
    }
    if (unsat)
        atomicAdd(counter, unsat);
    __syncthreads();
    return *counter;
}

} // namespace

} // namespace gfq
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_GFQ_FRAME_STEPS_CUH */
