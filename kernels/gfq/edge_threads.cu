/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// GF(q) FFT-BP, flooding, a thread per edge (fft_bp_family::edge_threads): the
// kernel, a block a frame, and its instantiations. The family's layout is
// made on the host (lib/engine/plan/fft_bp_edge_layout.cc), its steps are in
// edge_threads.cuh.

#include "gfq/common.cuh"
#include "gfq/dispatch.cuh"
#include "gfq/edge_threads.cuh"
#include "gfq/kernel_table.h"
#include <cfloat>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace gfq {

namespace {

template <typename T>
__global__ void __launch_bounds__(T::max_threads, T::min_blocks)
    fft_bp_edges_kernel(const fft_bp_params p)
{
    constexpr unsigned Q = T::q, L = T::L, V = T::V;
    extern __shared__ __align__(16) float smem[];
    __shared__ unsigned s_invalid, s_unsat;
    constexpr unsigned m = T::m;
    const fft_bp_graph& g = p.graph;
    const size_t frame = blockIdx.x;
    edge_frame f;
    f.slots = reinterpret_cast<char*>(smem);
    f.prior = f.slots + size_t(g.edge_chunks) * V * column_stride;
    f.hard = reinterpret_cast<uint8_t*>(f.prior +
                                        size_t((g.n * L + 31) / 32) * V * column_stride);
    if (threadIdx.x == 0)
        s_invalid = 0;
    __syncthreads();
    const bool et = p.early_termination;

    // priors: log P(x) of each symbol from its bit LLRs (MSB first) or its
    // symbol log-likelihoods, normalised to a maximum of 0; every edge's
    // variable-to-check message starts as its variable's prior
    const unsigned total = (g.n * L + 31) / 32 * 32;
    for (unsigned i = threadIdx.x; i < total; i += blockDim.x) {
        const unsigned v = i / L, sub = i % L;
        const bool active = v < g.n;
        float pr[V];
        unsigned invalid = 0;
        float mx = -FLT_MAX;
        if (active && !p.symbol_input) {
            const float* llr = p.input + (frame * g.n + v) * m;
            float lp0[m], lp1[m];
#pragma unroll
            for (unsigned b = 0; b < m; ++b) {
                const float l = sanitize(llr[b], invalid) * p.to_log_p0_p1;
                // log P(bit = 0) and log P(bit = 1), stable for large |l|
                lp0[b] = -log1pf(expf(-fabsf(l))) + (l < 0.0f ? l : 0.0f);
                lp1[b] = lp0[b] - l;
            }
            if (sub != 0) // the variable's lanes read the same LLRs
                invalid = 0;
#pragma unroll
            for (unsigned r = 0; r < V; ++r) {
                const unsigned x = sub * V + r;
                float s = 0.0f;
#pragma unroll
                for (unsigned b = 0; b < m; ++b)
                    s += ((x >> (m - 1 - b)) & 1) ? lp1[b] : lp0[b];
                pr[r] = s;
                mx = fmaxf(mx, s);
            }
        } else if (active) {
            const float* ll = p.input + (frame * g.n + v) * Q + sub * V;
#pragma unroll
            for (unsigned r = 0; r < V; ++r) {
                pr[r] = sanitize(ll[r], invalid);
                mx = fmaxf(mx, pr[r]);
            }
        }
        mx = message_max<L>(mx);
        float best = -FLT_MAX;
        unsigned arg = 0;
        if (active) {
#pragma unroll
            for (unsigned r = 0; r < V; ++r) {
                pr[r] -= mx;
                if (pr[r] > best) {
                    best = pr[r];
                    arg = sub * V + r;
                }
            }
            // GF(2): one value, log P(0) - log P(1) (gf2_checks)
            if constexpr (Q == 2)
                pr[0] -= pr[1];
            char* out = f.prior + prior_offset<Q>(i);
#pragma unroll
            for (unsigned r = 0; r < stored_values<Q>; ++r)
                column_value(out, r * column_stride) = pr[r];
        }
        arg = message_argmax<L>(best, arg);
        if (active) {
            if (sub == 0)
                f.hard[v] = uint8_t(arg);
            for (unsigned k = 0; k < g.variable_steps; ++k) {
                const uint32_t col = __ldg(g.variable_columns + size_t(k) * g.n + v);
                if (col == idle_lane)
                    break;
                const variable_offsets<V, L> at(col, sub);
#pragma unroll
                for (unsigned r = 0; r < stored_values<Q>; ++r)
                    column_value(f.slots, at[r]) = pr[r];
            }
            if (invalid)
                atomicAdd(&s_invalid, invalid);
        }
    }
    __syncthreads();
    // the priors' syndrome: only early termination reads it before the first
    // iteration
    unsigned unsat = 1;
    if (et)
        unsat = edge_syndrome<T>(g, f.hard, &s_unsat);

    unsigned iterations = 0;
    if (!(et && unsat == 0)) {
        for (unsigned it = 1; it <= p.max_iterations; ++it) {
            edge_checks<T>(g, f);
            __syncthreads();
            const bool decide = et || it == p.max_iterations;
            edge_variables<Q>(g, f, decide);
            // the next iteration's checks (or the syndrome) read these
            __syncthreads();
            iterations = it;
            if (decide) {
                unsat = edge_syndrome<T>(g, f.hard, &s_unsat);
                if (et && unsat == 0)
                    break;
            }
        }
    }

    write_frame_result<m>(p, frame, f.hard, unsat, iterations, s_invalid);
}

} // namespace

const void* edge_kernel(unsigned q, unsigned group, bool half)
{
    return dispatch(q, group, half, [](auto Q, auto D, auto M) -> const void* {
        constexpr unsigned field = decltype(Q)::value, edges = decltype(D)::value;
        // checks of up to 8 edges a lane each, or (GF(256)) 4 edges of 4 lanes
        constexpr bool built = (field <= 64 || field == 256) &&
                               (edges == 4 || (edges == 8 && message_lanes(field) == 1));
        if constexpr (built)
            return reinterpret_cast<const void*>(
                &fft_bp_edges_kernel<
                    edge_traits<field, edges, typename decltype(M)::type>>);
        else
            return nullptr;
    });
}

} // namespace gfq
} // namespace kernels
} // namespace gpuldpc
} // namespace gr
