/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_GFQ_CHECK_ROWS_CUH
#define INCLUDED_GPULDPC_KERNELS_GFQ_CHECK_ROWS_CUH

// The row check update (fft_bp_family::rows): a check's messages pass through
// shared-memory rows of q floats, 3 * degree rows a group, updated by a warp
// or by the whole block. The arithmetic follows the CPU reference
// (check_rules.h, fft_bp_rule) step by step, in the same order where it
// matters for rounding: messages in log probabilities normalised to a maximum
// of 0, check-to-variable messages floored at -30, products excluding an edge
// as prefix times suffix. Internal to the kernels.

#include "gfq/common.cuh"
#include "gfq/traits.cuh"
#include <cfloat>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace gfq {

namespace {

// The threads that update one check: the whole block (layered: checks in
// order) or one warp (flooding: each warp its own checks, at once).
template <bool Warp>
struct group {
    static __device__ __forceinline__ unsigned rank()
    {
        return Warp ? (threadIdx.x & 31) : threadIdx.x;
    }
    static __device__ __forceinline__ unsigned size() { return Warp ? 32u : blockDim.x; }
    static __device__ __forceinline__ void sync()
    {
        if (Warp)
            __syncwarp();
        else
            __syncthreads();
    }
    // edges are spread over the group's warps
    static __device__ __forceinline__ unsigned first_edge()
    {
        return Warp ? 0u : threadIdx.x >> 5;
    }
    static __device__ __forceinline__ unsigned edge_step()
    {
        return Warp ? 1u : blockDim.x >> 5;
    }
};

// In-place Walsh-Hadamard transforms of `rows` rows of q floats (q = 2^log2q)
// by a group, with the butterflies of the CPU's fwht_inplace in its order
// (stride 1 first). For q >= 32 each warp of the group takes whole rows: lane
// l holds x = l + 32 r, the strides below 32 pair lanes by shuffles and the
// larger ones pair registers, so that a row costs two passes through shared
// memory instead of two per stage.
template <unsigned Q, bool Warp>
__device__ void fwht_rows(float* rows, unsigned n_rows)
{
    constexpr unsigned q = Q, log2q = log2_of(Q);
    using G = group<Warp>;
    if constexpr (Q >= 32) {
        constexpr unsigned V = Q / 32;
        const unsigned lane = threadIdx.x & 31;
        for (unsigned row = G::first_edge(); row < n_rows; row += G::edge_step()) {
            float* r = rows + size_t(row) * q;
            float a[V];
#pragma unroll
            for (unsigned k = 0; k < V; ++k)
                a[k] = r[lane + 32 * k];
#pragma unroll
            for (unsigned h = 1; h < 32; h <<= 1) {
#pragma unroll
                for (unsigned k = 0; k < V; ++k) {
                    const float other = __shfl_xor_sync(full_mask, a[k], h);
                    // the lower index of a pair holds u + w, the upper u - w
                    a[k] = (lane & h) ? other - a[k] : a[k] + other;
                }
            }
            register_butterflies<V, 0, log2_of(V)>(a);
#pragma unroll
            for (unsigned k = 0; k < V; ++k)
                r[lane + 32 * k] = a[k];
        }
        G::sync();
    } else {
        const unsigned half = q >> 1;
        const unsigned total = n_rows * half;
        for (unsigned h = 1; h < q; h <<= 1) {
            for (unsigned t = G::rank(); t < total; t += G::size()) {
                const unsigned row = t >> (log2q - 1);
                const unsigned j = t & (half - 1);
                const unsigned a = ((j & ~(h - 1)) << 1) | (j & (h - 1));
                float* r = rows + size_t(row) * q;
                const float u = r[a], w = r[a + h];
                r[a] = u + w;
                r[a + h] = u - w;
            }
            G::sync();
        }
    }
}

// Spectra of the products over all other edges of a check, prefix times
// suffix in the CPU reference's order (prefix left to right, suffix right to
// left), from `deg` rows of spectra into `deg` rows of work, by a group.
template <unsigned Q, bool Warp>
__device__ void exclusive_products(const float* spectra, float* work, unsigned deg)
{
    using G = group<Warp>;
    constexpr unsigned q = Q, log2q = log2_of(Q);
    // running products, a column x per thread: 2 deg accesses per column
    // where the degree is small enough to keep the column in registers
    constexpr unsigned cached = 8;
    if (Q >= 32 && deg <= cached) {
        for (unsigned x = G::rank(); x < q; x += G::size()) {
            float col[cached], out[cached];
            float prefix = 1.0f;
#pragma unroll
            for (unsigned i = 0; i < cached; ++i)
                if (i < deg) {
                    col[i] = spectra[size_t(i) * q + x];
                    out[i] = prefix;
                    prefix *= col[i];
                }
            float suffix = 1.0f;
#pragma unroll
            for (unsigned i = cached; i-- > 0;)
                if (i < deg) {
                    work[size_t(i) * q + x] = out[i] * suffix;
                    suffix = suffix * col[i];
                }
        }
        return;
    }
    for (unsigned t = G::rank(); t < deg * q; t += G::size()) {
        const unsigned i = t >> log2q, x = t & (q - 1);
        float prefix = 1.0f;
        for (unsigned j = 0; j < i; ++j)
            prefix *= spectra[size_t(j) * q + x];
        float suffix = 1.0f;
        for (unsigned j = deg; j-- > i + 1;)
            suffix = suffix * spectra[size_t(j) * q + x];
        work[t] = prefix * suffix;
    }
}

// One check node update by a group (block or warp): variable-to-check
// messages from the beliefs and the old check-to-variable messages, then new
// check-to-variable messages; with `layered`, the beliefs of its variables at
// once. \p s holds the group's own scratch rows. A lane keeps the values
// x = lane + 32 r of an edge's message in registers between its passes.
template <typename T, bool Warp>
__device__ void check_update_rows(const fft_bp_params& p,
                                  const frame_state<typename T::message>& s,
                                  unsigned c,
                                  bool layered)
{
    static_assert(T::family == fft_bp_family::rows, "the row check update");
    using G = group<Warp>;
    using M = typename T::message;
    const fft_bp_graph& g = p.graph;
    constexpr unsigned Q = T::q, q = Q;
    constexpr unsigned per_lane = (Q + 31) / 32; // values of a row per lane
    const unsigned lane = threadIdx.x & 31;
    const unsigned e0 = g.check_offsets[c];
    const unsigned deg = g.check_offsets[c + 1] - e0;

    for (unsigned i = G::first_edge(); i < deg; i += G::edge_step()) {
        const unsigned v = g.edge_variable[e0 + i];
        const uint8_t* mul = s.gf_mul + unsigned(g.edge_coefficient[e0 + i]) * q;
        const float* app = s.app + size_t(v) * q;
        const M* old = s.c2v + size_t(e0 + i) * q;
        float* in = s.vin + size_t(i) * q;
        float* u = s.spectra + size_t(i) * q;
        float val[per_lane];
        float mx = -FLT_MAX;
#pragma unroll
        for (unsigned r = 0; r < per_lane; ++r) {
            const unsigned x = lane + 32 * r;
            if (q < 32 && x >= q)
                break;
            val[r] = app[x] - message_value(old[x]);
            mx = fmaxf(mx, val[r]);
        }
        mx = warp_max(mx);
        float sum = 0.0f;
#pragma unroll
        for (unsigned r = 0; r < per_lane; ++r) {
            const unsigned x = lane + 32 * r;
            if (q < 32 && x >= q)
                break;
            val[r] -= mx;
            if (layered)
                in[x] = val[r];
            val[r] = expf(val[r]); // P(x), not yet normalised
            sum += val[r];
        }
        sum = warp_sum(sum);
        const float norm = 1.0f / sum;
#pragma unroll
        for (unsigned r = 0; r < per_lane; ++r) {
            const unsigned x = lane + 32 * r;
            if (q < 32 && x >= q)
                break;
            u[mul[x]] = val[r] * norm; // U[h x] = P(x)
        }
    }
    G::sync();
    fwht_rows<Q, Warp>(s.spectra, deg);

    exclusive_products<Q, Warp>(s.spectra, s.work, deg);
    G::sync();
    fwht_rows<Q, Warp>(s.work, deg);

    for (unsigned i = G::first_edge(); i < deg; i += G::edge_step()) {
        const unsigned v = g.edge_variable[e0 + i];
        const uint8_t* mul = s.gf_mul + unsigned(g.edge_coefficient[e0 + i]) * q;
        const float* w = s.work + size_t(i) * q;
        float o[per_lane];
        float mx = -FLT_MAX;
#pragma unroll
        for (unsigned r = 0; r < per_lane; ++r) {
            const unsigned x = lane + 32 * r;
            if (q < 32 && x >= q)
                break;
            o[r] = w[mul[x]];
            mx = fmaxf(mx, o[r]);
        }
        mx = warp_max(mx);
        // rounding can leave tiny negative probabilities: floored
        const float floor = mx * expf(-log_floor);
        float omax = -FLT_MAX;
#pragma unroll
        for (unsigned r = 0; r < per_lane; ++r) {
            const unsigned x = lane + 32 * r;
            if (q < 32 && x >= q)
                break;
            o[r] = logf(fmaxf(o[r], floor));
            omax = fmaxf(omax, o[r]);
        }
        omax = warp_max(omax);
        M* out = s.c2v + size_t(e0 + i) * q;
        const float* in = s.vin + size_t(i) * q;
        float amax = -FLT_MAX;
#pragma unroll
        for (unsigned r = 0; r < per_lane; ++r) {
            const unsigned x = lane + 32 * r;
            if (q < 32 && x >= q)
                break;
            const M stored = to_message<M>(fmaxf(o[r] - omax, -log_floor));
            out[x] = stored;
            o[r] = message_value(stored);
            if (layered) {
                o[r] = in[x] + o[r]; // the variable's new belief
                amax = fmaxf(amax, o[r]);
            }
        }
        if (layered) {
            amax = warp_max(amax);
            float* app = s.app + size_t(v) * q;
#pragma unroll
            for (unsigned r = 0; r < per_lane; ++r) {
                const unsigned x = lane + 32 * r;
                if (q < 32 && x >= q)
                    break;
                app[x] = o[r] - amax;
            }
        }
    }
    G::sync();
}

} // namespace

} // namespace gfq
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_GFQ_CHECK_ROWS_CUH */
