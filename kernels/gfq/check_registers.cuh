/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_GFQ_CHECK_REGISTERS_CUH
#define INCLUDED_GPULDPC_KERNELS_GFQ_CHECK_REGISTERS_CUH

// The register check update (fft_bp_family::registers). Its steps are those
// of the row check update (check_rows.cuh) but not every rounding; results
// agree within rounding. Internal to the kernels.
//
// A warp holds the DS edges of one check (DS >= degree), G = 32 / DS lanes an
// edge, V = q / G values of a message per lane; lane (i, j) serves edge slot i.
// A message's index y (log2 q bits) is split between lane and register in two
// layouts:
//   A: y = r * G + j   (the register index r carries the high bits)
//   B: y = j * V + r   (r carries the low bits; V >= G, so all of them that A
//                       left to the lane)
// The Walsh-Hadamard transform is separable over the bits of y: its
// butterflies over the high bits run in registers in layout A, the message
// changes layout through the lane's shared-memory row, and the butterflies
// over the low bits run in registers in layout B. No shuffles carry values;
// three group reductions (3 shuffles each for G = 8) remain per message. The
// products over the other edges read their spectra from the same rows in
// 16-byte loads. Only the beliefs are read (and, layered, written) through the
// field permutation; the check-to-variable messages stay in the check's domain
// (c2v_swizzle).

#include "gfq/common.cuh"
#include "gfq/traits.cuh"
#include <cfloat>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace gfq {

namespace {

template <unsigned Q, unsigned DS>
struct register_layout {
    static constexpr unsigned G = 32 / DS;
    static constexpr unsigned V = Q / G;
    static constexpr unsigned log2g = log2_of(G), log2v = log2_of(V);
    // A row holds a message in layout B with each lane's V values padded by
    // 4 floats (segment = V + 4), so that the 16-byte accesses of a quarter
    // warp's lanes (different j, segments apart) fall on distinct banks; the
    // row stride, G more than a multiple of 32 floats, puts the DS rows'
    // scalar accesses of one register index (layout A) on distinct banks.
    static constexpr unsigned segment = V + 4;
    static constexpr unsigned row = register_row_floats(Q, DS);
    // position in a row of value y = r * G + j of layout A
    static __device__ __forceinline__ unsigned a_position(unsigned r, unsigned j)
    {
        return ((r * G) >> log2v) * segment + ((r * G) & (V - 1)) + j;
    }
    static_assert(DS == 4 || DS == 8, "edge slots: 4 or 8");
    static_assert(V >= G, "layout B must take all the lane's bits of layout A");
    static_assert(V <= 32 && V % 4 == 0, "values per lane: 4 .. 32, whole float4s");
};

// Check-to-variable messages of the register family are kept in the check's
// domain (index y, so that a warp reads and writes them in layout A without a
// permutation), at position y ^ swizzle: the DS consecutive edges of a check
// then put a register index's G lanes on DS distinct groups of banks.
template <unsigned Q, unsigned DS>
__host__ __device__ __forceinline__ unsigned c2v_swizzle(unsigned edge)
{
    return (edge & (DS - 1)) << register_layout<Q, DS>::log2g;
}


template <unsigned V>
__device__ __forceinline__ void store_row(float* p, const float (&a)[V])
{
    // 16-byte stores: a quarter warp's lanes then fall on distinct banks.
    // Written as PTX because the compiler may split a float4 store into
    // scalars (it did for the first of a row's), which conflict four ways.
    const unsigned address = unsigned(__cvta_generic_to_shared(p));
#pragma unroll
    for (unsigned t = 0; t < V; t += 4)
        asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(address + 4 * t),
                     "f"(a[t]),
                     "f"(a[t + 1]),
                     "f"(a[t + 2]),
                     "f"(a[t + 3])
                     : "memory");
}

template <unsigned V>
__device__ __forceinline__ void load_row(const float* p, float (&a)[V])
{
#pragma unroll
    for (unsigned t = 0; t < V; t += 4) {
        const float4 f = *reinterpret_cast<const float4*>(p + t);
        a[t] = f.x;
        a[t + 1] = f.y;
        a[t + 2] = f.z;
        a[t + 3] = f.w;
    }
}

// One check node update by a warp; \p rows: the warp's DS scratch rows. The
// same arithmetic as check_update, except that a message enters the transform
// normalised to a maximum of 1 rather than a sum of 1 (the output is
// normalised to its maximum, so the scale cancels; products of DS - 1 spectra
// bounded by q each cannot overflow).
template <typename T>
__device__ void check_update_registers(const fft_bp_params& p,
                                       const frame_state<typename T::message>& s,
                                       float* rows,
                                       unsigned c,
                                       bool layered)
{
    static_assert(T::family == fft_bp_family::registers, "the register check update");
    constexpr unsigned Q = T::q, DS = T::edge_slots;
    using M = typename T::message;
    using L = register_layout<Q, DS>;
    constexpr unsigned G = L::G, V = L::V;
    const fft_bp_graph& g = p.graph;
    const unsigned lane = threadIdx.x & 31, slot = lane >> L::log2g, j = lane & (G - 1);
    const unsigned e0 = g.check_offsets[c];
    const unsigned deg = g.check_offsets[c + 1] - e0;
    const bool active = slot < deg;
    // idle slots follow the last edge's addresses and write nothing
    const unsigned e = e0 + (active ? slot : deg - 1);
    const unsigned v = g.edge_variable[e];
    // check-domain value y of this edge is the variable's value h^-1 * y
    const uint8_t* to_variable = s.gf_mul + unsigned(g.edge_coefficient_inverse[e]) * Q;
    float* app = s.app + size_t(v) * Q;
    M* c2v = s.c2v + size_t(e) * Q;
    const unsigned swizzle = c2v_swizzle<Q, DS>(e);
    float* row = rows + slot * L::row;

    // variable-to-check message, permuted into the check's domain (layout A)
    constexpr bool keep_indices = V <= 8; // else looked up again
    unsigned xs[keep_indices ? V : 1];
    float in[V], a[V];
    float mx = -FLT_MAX;
#pragma unroll
    for (unsigned r = 0; r < V; ++r) {
        const unsigned y = r * G + j;
        const unsigned x = to_variable[y];
        if constexpr (keep_indices)
            xs[r] = x;
        in[r] = app[x] - message_value(c2v[y ^ swizzle]);
        mx = fmaxf(mx, in[r]);
    }
    mx = group_max<G>(mx);
#pragma unroll
    for (unsigned r = 0; r < V; ++r) {
        in[r] -= mx;
        a[r] = exp_ftz(in[r]);
    }

    // forward transform: high bits (A), to B through the row, low bits (B)
    register_butterflies<V, 0, L::log2v>(a);
#pragma unroll
    for (unsigned r = 0; r < V; ++r)
        row[L::a_position(r, j)] = a[r];
    __syncwarp();
    load_row<V>(row + j * L::segment, a);
    register_butterflies<V, 0, L::log2g>(a);
    __syncwarp();
    store_row<V>(row + j * L::segment, a);
    __syncwarp();

    // spectrum of the sum of the other edges: prefix times suffix products,
    // in the CPU reference's order
    if (active) {
#pragma unroll
        for (unsigned t = 0; t < V; t += 4) {
            float4 pre = make_float4(1.0f, 1.0f, 1.0f, 1.0f);
            for (unsigned k = 0; k < slot; ++k) {
                const float4 f = *reinterpret_cast<const float4*>(rows + k * L::row +
                                                                  j * L::segment + t);
                pre.x *= f.x;
                pre.y *= f.y;
                pre.z *= f.z;
                pre.w *= f.w;
            }
            float4 suf = make_float4(1.0f, 1.0f, 1.0f, 1.0f);
            for (unsigned k = deg; k-- > slot + 1;) {
                const float4 f = *reinterpret_cast<const float4*>(rows + k * L::row +
                                                                  j * L::segment + t);
                suf.x = suf.x * f.x;
                suf.y = suf.y * f.y;
                suf.z = suf.z * f.z;
                suf.w = suf.w * f.w;
            }
            a[t] = pre.x * suf.x;
            a[t + 1] = pre.y * suf.y;
            a[t + 2] = pre.z * suf.z;
            a[t + 3] = pre.w * suf.w;
        }
    }
    __syncwarp();

    // inverse transform: low bits (B), to A through the row, high bits (A)
    register_butterflies<V, 0, L::log2g>(a);
    store_row<V>(row + j * L::segment, a);
    __syncwarp();
#pragma unroll
    for (unsigned r = 0; r < V; ++r)
        a[r] = row[L::a_position(r, j)];
    __syncwarp();
    register_butterflies<V, 0, L::log2v>(a);

    // check-to-variable message: floored (rounding can leave tiny negative
    // probabilities), logarithms normalised to a maximum of 0
    float wmax = -FLT_MAX;
#pragma unroll
    for (unsigned r = 0; r < V; ++r)
        wmax = fmaxf(wmax, a[r]);
    wmax = group_max<G>(wmax);
    const float floor = wmax * exp_ftz(-log_floor);
    const float log_max = log_ftz(wmax);
    float amax = -FLT_MAX;
#pragma unroll
    for (unsigned r = 0; r < V; ++r) {
        a[r] = message_value(
            to_message<M>(fmaxf(log_ftz(fmaxf(a[r], floor)) - log_max, -log_floor)));
        if (layered) {
            in[r] += a[r]; // the variable's new belief
            amax = fmaxf(amax, in[r]);
        }
    }
    if (layered)
        amax = group_max<G>(amax);
    if (active) {
#pragma unroll
        for (unsigned r = 0; r < V; ++r) {
            const unsigned y = r * G + j;
            c2v[y ^ swizzle] = to_message<M>(a[r]);
            if (layered) {
                unsigned x;
                if constexpr (keep_indices)
                    x = xs[r];
                else
                    x = to_variable[y];
                app[x] = in[r] - amax;
            }
        }
    }
}

} // namespace

} // namespace gfq
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_GFQ_CHECK_REGISTERS_CUH */
