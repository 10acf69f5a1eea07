/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// GF(q) FFT-BP decoding, one thread block per frame for all iterations. The
// arithmetic follows the CPU reference (check_rules.h, fft_bp_rule, and the
// schedules of cpu_decoder.cc) step by step, in the same order where it
// matters for rounding: bit LLRs to log-probability priors, messages in log
// probabilities normalised to a maximum of 0, check-to-variable messages
// floored at -30, products excluding an edge as prefix times suffix. The
// register and tensor-core check updates keep the steps but not every
// rounding (their sections say where); results agree within rounding.

#include "cuda_check.h"
#include "ldpc_fft_bp.h"
#include "ldpc_fft_bp_common.cuh"
#include <cuda_fp16.h>
#include <type_traits>
#include <algorithm>
#include <cfloat>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuldpc {
namespace kernels {

namespace {

constexpr unsigned block_threads = 256;

// Threads of a kernel: 512 where a register check update leaves registers for
// it (twice the warps per frame on chip, which hides more latency), else 256;
// the tensor-core variant 384 (two blocks of 80 registers a thread an SM).
// GF(256) with 4 edge slots takes the whole register file with 512 threads:
// only with fp16 messages, where a frame's block sits alone on its SM (H100,
// GF(256) with 64 symbols, flooding: 77 -> 86 Mbit/s; with fp32 messages the
// layered schedule keeps two blocks of 256 an SM: 512 would cost 67 -> 41).
__host__ __device__ constexpr unsigned
kernel_threads(unsigned q, unsigned edge_slots, bool half_messages)
{
    if (edge_slots == 16) // tensor cores: 80 registers a thread at two blocks
        return 384;
    return edge_slots > 0 && (q == 64 || (edge_slots == 4 && q == 128) ||
                              (edge_slots == 4 && q == 256 && half_messages))
               ? 512
               : block_threads;
}
// Blocks per SM that a kernel's registers must allow: two where one block
// leaves most of the SM's warps idle and two fit without spills (the
// compiler's own choice can put the SM at one block: H100, GF(64) at 73
// registers instead of 64, 358 -> 279 Mbit/s).
__host__ __device__ constexpr unsigned
kernel_min_blocks(unsigned q, unsigned edge_slots, bool half_messages)
{
    if (edge_slots == 0) // row kernels of small fields: four blocks of 256 (64
        // registers; H100, GF(16) layered at 76 registers: 167 -> 133 Mbit/s)
        return q <= 16 ? 4 : 1;
    return (edge_slots == 4 && (q == 64 || (q == 256 && !half_messages))) ||
                   (edge_slots == 16 && q == 64)
               ? 2
               : 1;
}
__device__ __forceinline__ float warp_max(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(full_mask, v, o));
    return v;
}

__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(full_mask, v, o);
    return v;
}


// The largest value and its index; the smallest index among equal values,
// as std::max_element in the CPU reference.
// The same over aligned groups of Lanes lanes (each group its own result).
template <unsigned Lanes>
__device__ __forceinline__ void group_argmax(float& v, unsigned& i)
{
#pragma unroll
    for (unsigned o = Lanes / 2; o > 0; o >>= 1) {
        const float ov = __shfl_xor_sync(full_mask, v, o);
        const unsigned oi = __shfl_xor_sync(full_mask, i, o);
        if (ov > v || (ov == v && oi < i)) {
            v = ov;
            i = oi;
        }
    }
}

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

// Check-to-variable messages are stored as M: float, or __half (rounded to
// nearest even when made; every later use sees the stored value).
__device__ __forceinline__ float message_value(float m) { return m; }
__device__ __forceinline__ float message_value(__half m) { return __half2float(m); }
template <typename M>
__device__ __forceinline__ M to_message(float x)
{
    if constexpr (half_storage<M>)
        return __float2half_rn(x);
    else
        return x;
}

template <typename M>
struct frame_state {
    const uint8_t* gf_mul; // q * q: the graph's table, or its copy on chip
    // q * q, tensor-core variant: position of h x in an even edge's
    // check-to-variable row (an odd edge's: ^ 8; mma_c2v_position)
    const uint8_t* c2v_position;
    // tensor-core variant: the graph in shared memory, an edge as a word
    const uint32_t* check_offsets;    // checks + 1
    const uint32_t* check_edges;      // variable << 8 | coefficient inverse
    const uint32_t* variable_offsets; // n + 1
    const uint32_t* variable_edges;   // edge << 8 | coefficient
    const float* prior;
    float* app;
    M* c2v;
    uint8_t* hard;
    float* spectra; // max_check_degree * q: transforms of one check's messages
    float* work;    // max_check_degree * q: products, then their transforms
    float* vin;     // max_check_degree * q: the check's variable-to-check messages
};

// Butterflies over register index bits [B0, B1) of a[V].
template <unsigned V, unsigned B0, unsigned B1>
__device__ __forceinline__ void register_butterflies(float (&a)[V])
{
#pragma unroll
    for (unsigned h = 1u << B0; h < (1u << B1); h <<= 1) {
#pragma unroll
        for (unsigned r = 0; r < V; ++r) {
            if (!(r & h)) {
                const float u = a[r], w = a[r + h];
                a[r] = u + w;
                a[r + h] = u - w;
            }
        }
    }
}

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
template <unsigned Q, bool Warp, typename M>
__device__ void
check_update(const fft_bp_params& p, const frame_state<M>& s, unsigned c, bool layered)
{
    using G = group<Warp>;
    const fft_bp_graph& g = p.graph;
    constexpr unsigned q = Q;
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

// --- check update with a warp's messages in registers -----------------------
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
// Floats of one edge slot's row in the register check update (see
// register_layout::row), for q values of 32 / slots lanes each.
__host__ __device__ constexpr unsigned register_row_floats(unsigned q, unsigned slots)
{
    return (32 / slots * (q / (32 / slots) + 4) + 31) / 32 * 32 + 32 / slots;
}

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

// Check-to-variable messages of the register variant are kept in the check's
// domain (index y, so that a warp reads and writes them in layout A without a
// permutation), at position y ^ swizzle: the DS consecutive edges of a check
// then put a register index's G lanes on DS distinct groups of banks.
template <unsigned Q, unsigned DS>
__host__ __device__ __forceinline__ unsigned c2v_swizzle(unsigned edge)
{
    return (edge & (DS - 1)) << register_layout<Q, DS>::log2g;
}


__device__ __forceinline__ float exp_ftz(float x) { return exp2_ftz(x * log2e); }

__device__ __forceinline__ float log_ftz(float x) { return log2_ftz(x) * ln2; }

// Maximum over the G lanes of an edge (lanes whose index differs only in the
// low log2(G) bits).
template <unsigned G>
__device__ __forceinline__ float group_max(float v)
{
#pragma unroll
    for (unsigned o = 1; o < G; o <<= 1)
        v = fmaxf(v, __shfl_xor_sync(full_mask, v, o));
    return v;
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
template <unsigned Q, unsigned DS, typename M>
__device__ void check_update_registers(const fft_bp_params& p,
                                       const frame_state<M>& s,
                                       float* rows,
                                       unsigned c,
                                       bool layered)
{
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

// --- check update on tensor cores: q = 64, four checks a warp ---------------
//
// A warp updates four checks of up to 4 edges at once. Their 16 edge slots are
// the rows of m16n8k8 matrix products (TF32 operands, FP32 accumulation):
// lane (g = lane / 4, t = lane % 4) holds rows g and g + 8, edge slots g % 2
// and 2 + g % 2 of check g / 2, and of each row the 16 values
// y = 8 k + t + 4 i (k = 0..7, i = 0..1): the A operand's fragments of the 8
// column tiles k. The 64-point Walsh-Hadamard transform is H8 (x) H8:
// butterflies over the tile index k in registers, then one product with H8 a
// tile, its columns permuted so that the product's fragment (columns 2t and
// 2t + 1 of row g) holds values t and t + 4 again, the A layout. TF32 keeps 10
// of FP32's 23 mantissa bits: each operand is split into its 10 high bits and
// the remainder, and the two products add up to nearly FP32 precision (one
// product alone leaves an error floor: H100, GF(64) with 96 symbols, FER 1e-3
// moved from 2.5 to 5.5 dB). The CPU reference's stage order is not kept;
// results agree within rounding. The
// products over the other edges of a check: two rows in the lane, the other
// two in lane ^ 4, a shuffle per value pair. An idle slot enters as the
// distribution of the zero symbol, whose spectrum is all ones. Compared with
// the register check update, no value passes through shared memory between
// the transforms, and the check-to-variable messages of a lane are contiguous
// (16-byte loads and stores).
constexpr unsigned mma_edge_slots = 16; // edge_slots of this variant

// Position of check-domain value y in an edge's check-to-variable row: lane t
// = y % 4 keeps its 16 values (index w = y / 4) contiguous, their 16-byte
// units swizzled (fp32: by t and the edge's parity; fp16: by the parity) so
// that the 8 lanes of a quarter warp (two edges, four t) hit distinct banks.
// A lane's 16 values of an edge in 16-byte units: 4 of fp32, 2 of fp16.
template <typename M>
struct lane_units {
    static constexpr unsigned per_unit = 16 / sizeof(M), count = 16 / per_unit;
    // element offset of unit u of lane t in the row of \p edge
    static __host__ __device__ __forceinline__ unsigned
    offset(unsigned t, size_t edge, unsigned u)
    {
        const unsigned odd = unsigned(edge) & 1;
        const unsigned swizzle = half_storage<M> ? odd : (t >> 1) | (odd << 1);
        return (t << 4) + per_unit * (u ^ swizzle);
    }
    static __device__ __forceinline__ void load(const M* p, float (&v)[per_unit])
    {
        if constexpr (half_storage<M>) {
            const uint4 raw = *reinterpret_cast<const uint4*>(p);
            const __half2* h = reinterpret_cast<const __half2*>(&raw);
#pragma unroll
            for (unsigned j = 0; j < 4; ++j) {
                const float2 f = __half22float2(h[j]);
                v[2 * j] = f.x;
                v[2 * j + 1] = f.y;
            }
        } else {
            const float4 x = *reinterpret_cast<const float4*>(p);
            v[0] = x.x;
            v[1] = x.y;
            v[2] = x.z;
            v[3] = x.w;
        }
    }
    static __device__ __forceinline__ void store(M* p, const float (&v)[per_unit])
    {
        if constexpr (half_storage<M>) {
            uint4 raw;
            __half2* h = reinterpret_cast<__half2*>(&raw);
#pragma unroll
            for (unsigned j = 0; j < 4; ++j)
                h[j] = __floats2half2_rn(v[2 * j], v[2 * j + 1]);
            *reinterpret_cast<uint4*>(p) = raw;
        } else {
            *reinterpret_cast<float4*>(p) = make_float4(v[0], v[1], v[2], v[3]);
        }
    }
};

template <typename M>
__host__ __device__ __forceinline__ unsigned mma_c2v_position(unsigned y, size_t edge)
{
    const unsigned w = y >> 2; // lane y % 4's value index
    return lane_units<M>::offset(y & 3, edge, w / lane_units<M>::per_unit) +
           w % lane_units<M>::per_unit;
}

// A float at a 32-bit shared-memory address (ordered like any shared load)
__device__ __forceinline__ float load_shared(unsigned address)
{
    float v;
    asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "r"(address) : "memory");
    return v;
}

// x cut to TF32 (its 10 high mantissa bits): one logic operation, where the
// rounding conversion takes several on sm_90
__device__ __forceinline__ unsigned tf32_head(float x)
{
    return __float_as_uint(x) & 0xffffe000u;
}

// c += a * b for one m16n8k8 tile (TF32 operands as 32-bit patterns)
__device__ __forceinline__ void
mma_tf32(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, "
        "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
    __trap(); // fft_bp_tensor_cores() is false for code built below sm_80
#endif
}

// The B operand of the product with H8 (entries +-1, exact in TF32): lane
// (g, t) holds H8[t][s(g)] and H8[t + 4][s(g)], s(n) = n / 2 + 4 (n % 2).
struct mma_hadamard {
    unsigned b0, b1;
    __device__ explicit mma_hadamard(unsigned lane)
    {
        const unsigned g = lane >> 2, t = lane & 3;
        const unsigned col = (g >> 1) + 4 * (g & 1);
        b0 = __float_as_uint((__popc(t & col) & 1) ? -1.0f : 1.0f);
        b1 = __float_as_uint((__popc((t + 4) & col) & 1) ? -1.0f : 1.0f);
    }
};

// Walsh-Hadamard transforms of the warp's 16 rows; a[h][k][i]: row g + 8h,
// value 8k + t + 4i.
__device__ __forceinline__ void mma_wht64(float (&a)[2][8][2], const mma_hadamard& hb)
{
#pragma unroll
    for (unsigned s = 1; s < 8; s <<= 1)
#pragma unroll
        for (unsigned k = 0; k < 8; ++k)
            if (!(k & s))
#pragma unroll
                for (unsigned h = 0; h < 2; ++h)
#pragma unroll
                    for (unsigned i = 0; i < 2; ++i) {
                        const float u = a[h][k][i], w = a[h][k + s][i];
                        a[h][k][i] = u + w;
                        a[h][k + s][i] = u - w;
                    }
#pragma unroll
    for (unsigned k = 0; k < 8; ++k) {
        const float v[4] = { a[0][k][0], a[1][k][0], a[0][k][1], a[1][k][1] };
        unsigned big[4], rest[4];
#pragma unroll
        for (unsigned j = 0; j < 4; ++j) {
            big[j] = tf32_head(v[j]);
            // exact in FP32; the tensor core cuts its own low bits
            rest[j] = __float_as_uint(v[j] - __uint_as_float(big[j]));
        }
        float c[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
        mma_tf32(c, rest, hb.b0, hb.b1);
        mma_tf32(c, big, hb.b0, hb.b1);
        a[0][k][0] = c[0];
        a[0][k][1] = c[1];
        a[1][k][0] = c[2];
        a[1][k][1] = c[3];
    }
}

// Four checks c_first .. c_first + 3 (those that exist) by a warp, flooding.
template <typename M>
__device__ void check_update_mma(const fft_bp_params& p,
                                 const frame_state<M>& s,
                                 const mma_hadamard& hb,
                                 unsigned c_first)
{
    constexpr unsigned Q = 64;
    using units = lane_units<M>;
    const fft_bp_graph& gr = p.graph;
    const unsigned lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    const unsigned c = c_first + (g >> 1);
    unsigned e0 = 0, deg = 0;
    if (c < gr.checks) {
        e0 = s.check_offsets[c];
        deg = s.check_offsets[c + 1] - e0;
    }
    float a[2][8][2];
    float mx[2];
#pragma unroll
    for (unsigned h = 0; h < 2; ++h) {
        const unsigned slot = (g & 1) + 2 * h, e = e0 + slot;
        mx[h] = 0.0f;
        if (slot < deg) {
            // the variable's value of y = 8k + t + 4i is h^-1 y, linear over
            // GF(2): the images of t, t + 4 and of 8k (from those of 8, 16, 32)
            // combine by XOR, five table lookups instead of sixteen
            const uint32_t word = s.check_edges[e];
            const uint8_t* to_variable = s.gf_mul + (word & 0xff) * Q;
            unsigned low[2] = { to_variable[t], to_variable[t + 4] };
            const unsigned b8 = to_variable[8], b16 = to_variable[16],
                           b32 = to_variable[32];
            // the belief row starts at a 256-byte boundary (fft_bp_kernel):
            // its base ORs with four times a value index
            const unsigned row =
                unsigned(__cvta_generic_to_shared(s.app + size_t(word >> 8) * Q));
            const unsigned high[8] = { row,
                                       row | (b8 << 2),
                                       row | (b16 << 2),
                                       row | ((b16 ^ b8) << 2),
                                       row | (b32 << 2),
                                       row | ((b32 ^ b8) << 2),
                                       row | ((b32 ^ b16) << 2),
                                       row | ((b32 ^ b16 ^ b8) << 2) };
            low[0] <<= 2;
            low[1] <<= 2;
            const M* c2v = s.c2v + size_t(e) * Q;
            mx[h] = -FLT_MAX;
#pragma unroll
            for (unsigned u = 0; u < units::count; ++u) {
                float old[units::per_unit];
                units::load(c2v + units::offset(t, e, u), old);
#pragma unroll
                for (unsigned j = 0; j < units::per_unit; ++j) {
                    const unsigned w = u * units::per_unit + j, k = w >> 1, i = w & 1;
                    const float x = load_shared(high[k] ^ low[i]) - old[j];
                    a[h][k][i] = x;
                    mx[h] = fmaxf(mx[h], x);
                }
            }
        }
    }
#pragma unroll
    for (unsigned h = 0; h < 2; ++h) {
        mx[h] = group_max<4>(mx[h]);
        const bool active = (g & 1) + 2 * h < deg;
#pragma unroll
        for (unsigned k = 0; k < 8; ++k)
#pragma unroll
            for (unsigned i = 0; i < 2; ++i)
                a[h][k][i] = active ? exp2_ftz(a[h][k][i] * log2e - mx[h] * log2e)
                                    : (k == 0 && i == 0 && t == 0 ? 1.0f : 0.0f);
    }

    mma_wht64(a, hb);
    // spectra of the products over the other edges of the check
#pragma unroll
    for (unsigned k = 0; k < 8; ++k)
#pragma unroll
        for (unsigned i = 0; i < 2; ++i) {
            const float mine = a[0][k][i] * a[1][k][i];
            const float other = __shfl_xor_sync(full_mask, mine, 4);
            const float a0 = a[0][k][i];
            a[0][k][i] = a[1][k][i] * other;
            a[1][k][i] = a0 * other;
        }
    mma_wht64(a, hb);

    // check-to-variable messages: floored (rounding can leave tiny negative
    // probabilities), logarithms normalised to a maximum of 0
#pragma unroll
    for (unsigned h = 0; h < 2; ++h) {
        float wmax = -FLT_MAX;
#pragma unroll
        for (unsigned k = 0; k < 8; ++k)
#pragma unroll
            for (unsigned i = 0; i < 2; ++i)
                wmax = fmaxf(wmax, a[h][k][i]);
        wmax = group_max<4>(wmax);
        const unsigned slot = (g & 1) + 2 * h, e = e0 + slot;
        if (slot < deg) {
            // values below wmax e^-30, zero or negative (rounding) give -30
            const float log_max = log2_ftz(wmax) * ln2;
            M* c2v = s.c2v + size_t(e) * Q;
#pragma unroll
            for (unsigned u = 0; u < units::count; ++u) {
                float out[units::per_unit];
#pragma unroll
                for (unsigned j = 0; j < units::per_unit; ++j) {
                    const unsigned w = u * units::per_unit + j, k = w >> 1, i = w & 1;
                    out[j] = fmaxf(log2_ftz(a[h][k][i]) * ln2 - log_max, -log_floor);
                }
                units::store(c2v + units::offset(t, e, u), out);
            }
        }
    }
}

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

// Whether an on-chip frame keeps a copy of the field's q x q table in shared
// memory (q <= 64: 4 KiB at most).
__host__ __device__ constexpr bool on_chip_field_table(unsigned q) { return q <= 64; }

// Lanes that serve one variable in flooding's variable phase.
__host__ __device__ constexpr unsigned variable_lanes(unsigned q)
{
    return q >= 128 ? 32 : (q >= 8 ? q / 4 : 1);
}

// Flooding's variable phase: beliefs = prior + all incoming messages (in
// edge order, each value's sum in a register), then, where \p decide, the
// hard decision (only early termination and the last iteration use it). A
// variable takes a group of lanes with 4 values each (8 for q = 256), so that
// a warp serves 32 / group variables at once (small q: one warp a variable
// would leave most lanes idle and repeat the per-variable work); warp \p
// first takes variables from its first group on, in steps of \p step warps.
template <unsigned Q, unsigned DS, typename M>
__device__ __forceinline__ void variable_update(const fft_bp_params& p,
                                                const frame_state<M>& s,
                                                unsigned first,
                                                unsigned step,
                                                bool decide)
{
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
            const uint32_t* offsets =
                DS == mma_edge_slots ? s.variable_offsets : g.variable_offsets;
            const uint32_t i0 = offsets[v], i1 = offsets[v + 1];
            float* a = s.app + size_t(v) * q;
            const float* pr = s.prior + size_t(v) * q;
#pragma unroll
            for (unsigned r = 0; r < per_lane; ++r)
                sum[r] = pr[sub + lanes * r];
            if constexpr (DS == mma_edge_slots) {
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
                    if constexpr (DS > 0) { // kept in the check's domain: y = h x
                        const uint8_t* to_check =
                            s.gf_mul + unsigned(g.edge_coefficient[e]) * q;
                        const unsigned swizzle = c2v_swizzle<Q, DS>(e);
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

// A warp's check update: in registers (DS edge slots) or through rows.
template <unsigned Q, unsigned DS, typename M>
__device__ __forceinline__ void warp_check_update(const fft_bp_params& p,
                                                  const frame_state<M>& mine,
                                                  unsigned c,
                                                  bool layered)
{
    if constexpr (DS == mma_edge_slots)
        __trap(); // four checks at once: check_update_mma (flooding only)
    else if constexpr (DS > 0)
        check_update_registers<Q, DS, M>(p, mine, mine.spectra, c, layered);
    else
        check_update<Q, true, M>(p, mine, c, layered);
}

template <unsigned Q, unsigned DS>
__device__ constexpr size_t warp_scratch_floats(unsigned max_check_degree)
{
    if constexpr (DS == mma_edge_slots)
        return 0; // no value of a check leaves registers
    else if constexpr (DS > 0)
        return size_t(DS) * register_layout<Q, DS>::row;
    else
        return 3 * size_t(max_check_degree) * Q;
}

// OnChip: the frame's beliefs and messages in shared memory, known to the
// compiler, so that they take shared-memory instructions with 32-bit
// addresses rather than generic ones with 64-bit address arithmetic.
template <unsigned Q, unsigned DS, typename M, bool OnChip>
__global__ void __launch_bounds__(kernel_threads(Q, DS, half_storage<M>),
                                  kernel_min_blocks(Q, DS, half_storage<M>))
    fft_bp_kernel(const fft_bp_params p)
{
    extern __shared__ __align__(16) float smem[];
    __shared__ unsigned s_invalid, s_unsat;
    const fft_bp_graph& g = p.graph;
    static_assert(Q >= 2 && Q <= 256 && (Q & (Q - 1)) == 0, "q: a power of two, 2..256");
    constexpr unsigned q = Q, m = log2_of(Q);
    const size_t frame = blockIdx.x;
    const size_t nq = size_t(g.n) * q;
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned n_warps = blockDim.x >> 5;

    // scratch rows: one set per check-updating warp; warp 0's set serves the
    // whole block in the layered schedule without runs
    const size_t rows = size_t(g.max_check_degree) * q;
    const size_t per_warp = warp_scratch_floats<Q, DS>(g.max_check_degree);
    frame_state<M> s;
    s.spectra = smem;
    s.work = s.spectra + rows;
    s.vin = s.work + rows;
    float* scratch_end = smem + per_warp * p.variant.check_warps;
    s.gf_mul = g.gf_mul;
    if constexpr (OnChip) {
        s.app = scratch_end;
        if constexpr (DS == mma_edge_slots) {
            // beliefs from a 256-byte boundary (check_update_mma's addresses)
            const unsigned misaligned = unsigned(__cvta_generic_to_shared(s.app)) & 255;
            s.app += ((256 - misaligned) & 255) / sizeof(float);
        }
        s.c2v = reinterpret_cast<M*>(s.app + nq);
        if constexpr (on_chip_field_table(Q)) {
            // the field's table beside the messages: its lookups then take
            // shared-memory loads with 32-bit addresses
            uint8_t* table = reinterpret_cast<uint8_t*>(s.c2v + g.edges * q);
            // copied a word at a time (q * q is a multiple of 4; both ends
            // 4-byte aligned)
            for (unsigned t = threadIdx.x; t < Q * Q / 4; t += blockDim.x)
                reinterpret_cast<uint32_t*>(table)[t] =
                    reinterpret_cast<const uint32_t*>(g.gf_mul)[t];
            s.gf_mul = table; // read after the barrier below
            if constexpr (DS == mma_edge_slots) {
                uint8_t* position = table + Q * Q;
                for (unsigned t = threadIdx.x; t < Q * Q / 4; t += blockDim.x) {
                    const uint32_t products =
                        reinterpret_cast<const uint32_t*>(g.gf_mul)[t];
                    uint32_t positions = 0;
#pragma unroll
                    for (unsigned b = 0; b < 32; b += 8)
                        positions |= mma_c2v_position<M>((products >> b) & 0xff, 0) << b;
                    reinterpret_cast<uint32_t*>(position)[t] = positions;
                }
                s.c2v_position = position;
                // the graph beside it: a pass's first loads then take
                // shared memory, not chains of dependent global loads
                uint32_t* words = reinterpret_cast<uint32_t*>(position + Q * Q);
                s.check_offsets = words;
                s.check_edges = words + g.checks + 1;
                s.variable_offsets = s.check_edges + g.edges;
                s.variable_edges = s.variable_offsets + g.n + 1;
                for (unsigned t = threadIdx.x; t <= g.checks; t += blockDim.x)
                    words[t] = g.check_offsets[t];
                for (unsigned t = threadIdx.x; t <= g.n; t += blockDim.x)
                    words[g.checks + 1 + g.edges + t] = g.variable_offsets[t];
                for (unsigned t = threadIdx.x; t < g.edges; t += blockDim.x) {
                    words[g.checks + 1 + t] =
                        g.edge_variable[t] << 8 | g.edge_coefficient_inverse[t];
                    const uint32_t e = g.variable_edges[t];
                    words[g.checks + g.n + 2 + g.edges + t] =
                        e << 8 | g.edge_coefficient[e];
                }
            }
        }
    } else {
        s.app = p.app + frame * nq;
        s.c2v = static_cast<M*>(p.c2v) + frame * g.edges * q;
    }
    float* prior = p.prior + frame * nq;
    s.prior = prior;
    s.hard = p.hard + frame * g.n;

    if (threadIdx.x == 0)
        s_invalid = 0;
    __syncthreads();

    // priors: log P(x) of each symbol from its bit LLRs (MSB first) or its
    // symbol log-likelihoods, normalised to a maximum of 0
    for (unsigned v = warp; v < g.n; v += n_warps) {
        const unsigned invalid = form_prior<Q>(p, frame, v, prior + size_t(v) * q);
        if (lane == 0 && invalid)
            atomicAdd(&s_invalid, invalid);
    }
    __syncthreads();
    if constexpr (DS == mma_edge_slots) {
        // 16 bytes at a time: the beliefs start at a 256-byte boundary, rows
        // of 64 values, the priors at a multiple of 256 bytes of the buffer
        for (size_t t = threadIdx.x; t < nq / 4; t += blockDim.x)
            reinterpret_cast<float4*>(s.app)[t] =
                reinterpret_cast<const float4*>(prior)[t];
        for (size_t t = threadIdx.x; t < g.edges * q * sizeof(M) / 16; t += blockDim.x)
            reinterpret_cast<uint4*>(s.c2v)[t] = make_uint4(0, 0, 0, 0);
    } else {
        for (size_t t = threadIdx.x; t < nq; t += blockDim.x)
            s.app[t] = prior[t];
        for (size_t t = threadIdx.x; t < g.edges * q; t += blockDim.x)
            s.c2v[t] = to_message<M>(0.0f);
    }
    __syncthreads();
    // the priors' decisions and syndrome: only early termination reads them
    // before the first iteration
    unsigned unsat = 1;
    if (p.early_termination) {
        decide<Q>(p, s);
        unsat = syndrome_weight(p, s, &s_unsat);
    }

    unsigned iterations = 0;
    if (!(p.early_termination && unsat == 0)) {
        frame_state<M> mine = s; // this warp's scratch rows
        mine.spectra = smem + per_warp * warp;
        mine.work = mine.spectra + rows;
        mine.vin = mine.work + rows;
        for (unsigned it = 1; it <= p.max_iterations; ++it) {
            if (p.layered && p.variant.runs) {
                // runs of consecutive checks without a shared variable: their
                // updates commute, so warps take them at once and the result is
                // that of the checks in order
                for (unsigned r = 0; r < g.runs; ++r) {
                    if (warp < p.variant.check_warps)
                        for (unsigned c = g.run_offsets[r] + warp;
                             c < g.run_offsets[r + 1];
                             c += p.variant.check_warps)
                            warp_check_update<Q, DS, M>(p, mine, c, true);
                    __syncthreads();
                }
            } else if (p.layered) {
                if constexpr (DS == 0)
                    for (unsigned c = 0; c < g.checks; ++c)
                        check_update<Q, false, M>(p, s, c, true);
            } else {
                // checks are independent within a flooding iteration
                if constexpr (DS == mma_edge_slots) {
                    const mma_hadamard hadamard(lane);
                    if (warp < p.variant.check_warps)
                        for (unsigned c = 4 * warp; c < g.checks;
                             c += 4 * p.variant.check_warps)
                            check_update_mma<M>(p, mine, hadamard, c);
                } else if (warp < p.variant.check_warps) {
                    for (unsigned c = warp; c < g.checks; c += p.variant.check_warps)
                        warp_check_update<Q, DS, M>(p, mine, c, false);
                }
                __syncthreads();
                variable_update<Q, DS, M>(
                    p, s, warp, n_warps, p.early_termination || it == p.max_iterations);
                // the next iteration's checks read these beliefs
                __syncthreads();
            }
            iterations = it;
            // decisions and syndrome where they are used: each iteration with
            // early termination, else after the last
            if (p.early_termination || it == p.max_iterations) {
                if (p.layered)
                    decide<Q>(p, s);
                unsat = syndrome_weight(p, s, &s_unsat);
                if (p.early_termination && unsat == 0)
                    break;
            }
        }
    }

    write_frame_result<m>(p, frame, s.hard, unsat, iterations, s_invalid);
}


template <unsigned Q, unsigned DS, typename M>
void launch_kernel(const fft_bp_params& p, cudaStream_t stream, launch_mode mode)
{
    auto kernel = &fft_bp_kernel<Q, DS, M, true>;
    if constexpr (DS != mma_edge_slots) // on chip only (launch_checked)
        if (!p.variant.on_chip)
            kernel = &fft_bp_kernel<Q, DS, M, false>;
    launch_per_frame(
        kernel, p, kernel_threads(Q, DS, half_storage<M>), stream, mode, "fft_bp_kernel");
}

// --- check-parallel family (global variant, flooding) -----------------------
//
// An iteration is three launches over all frames of a launch: a thread block
// per check and frame updates that check through rows (check_update on the
// whole block), a warp per variable and frame sums its messages and decides,
// and a thread per check and frame counts the unsatisfied ones. The per-frame
// status holds the decoding state between launches: converged marks a frame
// that early termination has stopped (every later launch skips it), and
// syndrome_weight is the counter of the last syndrome. The arithmetic is that
// of fft_bp_kernel's flooding iterations, step by step.

template <unsigned Q, typename M>
__device__ __forceinline__ frame_state<M> global_frame(const fft_bp_params& p,
                                                       size_t frame)
{
    const size_t nq = size_t(p.graph.n) * Q;
    frame_state<M> s{};
    s.gf_mul = p.graph.gf_mul;
    s.prior = p.prior + frame * nq;
    s.app = p.app + frame * nq;
    s.c2v = static_cast<M*>(p.c2v) + frame * p.graph.edges * Q;
    s.hard = p.hard + frame * p.graph.n;
    return s;
}

// Priors, beliefs = priors, their decisions, check-to-variable messages 0;
// grid (variables / warps, frames).
template <unsigned Q, typename M>
__global__ void __launch_bounds__(block_threads)
    fft_bp_start_kernel(const fft_bp_params p)
{
    const size_t frame = blockIdx.y;
    const unsigned lane = threadIdx.x & 31;
    const unsigned warps = (blockDim.x >> 5) * gridDim.x;
    const frame_state<M> s = global_frame<Q, M>(p, frame);
    for (unsigned v = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); v < p.graph.n;
         v += warps) {
        float* pr = const_cast<float*>(s.prior) + size_t(v) * Q;
        const unsigned invalid = form_prior<Q>(p, frame, v, pr);
        float* a = s.app + size_t(v) * Q;
        float best = -FLT_MAX;
        unsigned arg = 0;
        for (unsigned x = lane; x < Q; x += 32) {
            a[x] = pr[x];
            if (pr[x] > best) {
                best = pr[x];
                arg = x;
            }
        }
        group_argmax<32>(best, arg);
        if (lane == 0) {
            s.hard[v] = uint8_t(arg);
            if (invalid)
                atomicAdd(&p.status[frame].invalid_inputs, invalid);
        }
    }
    // a block's share of the frame's check-to-variable messages
    const size_t total = p.graph.edges * Q;
    for (size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x; t < total;
         t += size_t(gridDim.x) * blockDim.x)
        s.c2v[t] = to_message<M>(0.0f);
}

// grid (checks, frames), clipped to the grid's limit (blocks loop)
template <unsigned Q, typename M>
__global__ void __launch_bounds__(block_threads)
    fft_bp_checks_kernel(const fft_bp_params p)
{
    extern __shared__ __align__(16) float smem[];
    const size_t frame = blockIdx.y;
    if (p.status[frame].converged)
        return;
    frame_state<M> s = global_frame<Q, M>(p, frame);
    const size_t rows = size_t(p.graph.max_check_degree) * Q;
    s.spectra = smem;
    s.work = s.spectra + rows;
    s.vin = s.work + rows;
    for (unsigned c = blockIdx.x; c < p.graph.checks; c += gridDim.x)
        check_update<Q, false, M>(p, s, c, false);
}

// grid (variables / warps, frames); the frame's syndrome counter restarts
template <unsigned Q, typename M>
__global__ void __launch_bounds__(block_threads)
    fft_bp_variables_kernel(const fft_bp_params p, bool decide)
{
    const size_t frame = blockIdx.y;
    if (p.status[frame].converged)
        return;
    if (blockIdx.x == 0 && threadIdx.x == 0)
        p.status[frame].syndrome_weight = 0;
    variable_update<Q, 0, M>(p,
                             global_frame<Q, M>(p, frame),
                             blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5),
                             (blockDim.x >> 5) * gridDim.x,
                             decide);
}

// Unsatisfied checks into the frame's counter; grid (checks / threads,
// frames). At the start the counter is zero (the status was cleared).
template <unsigned Q>
__global__ void __launch_bounds__(block_threads)
    fft_bp_syndrome_kernel(const fft_bp_params p)
{
    __shared__ unsigned s_unsat;
    const size_t frame = blockIdx.y;
    if (p.status[frame].converged)
        return;
    const fft_bp_graph& g = p.graph;
    const uint8_t* hard = p.hard + frame * g.n;
    if (threadIdx.x == 0)
        s_unsat = 0;
    __syncthreads();
    unsigned unsat = 0;
    for (unsigned c = blockIdx.x * blockDim.x + threadIdx.x; c < g.checks;
         c += gridDim.x * blockDim.x) {
        unsigned sum = 0;
        for (uint32_t e = g.check_offsets[c]; e < g.check_offsets[c + 1]; ++e)
            sum ^=
                g.gf_mul[unsigned(g.edge_coefficient[e]) * Q + hard[g.edge_variable[e]]];
        unsat += sum != 0;
    }
    unsat = warp_sum(unsat);
    if ((threadIdx.x & 31) == 0 && unsat)
        atomicAdd(&s_unsat, unsat);
    __syncthreads();
    if (threadIdx.x == 0 && s_unsat)
        atomicAdd(&p.status[frame].syndrome_weight, s_unsat);
}

// After iteration `it` (0: the priors alone): the frames still running count
// it, and with early termination a frame without unsatisfied checks stops.
// A thread per frame.
__global__ void
fft_bp_iteration_done_kernel(const fft_bp_params p, unsigned it, bool stop)
{
    const size_t frame = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (frame >= p.n_frames || p.status[frame].converged)
        return;
    p.status[frame].iterations = it;
    if (stop && p.status[frame].syndrome_weight == 0)
        p.status[frame].converged = 1;
}

// Information (and codeword) bits and the final status; grid (frames).
template <unsigned Q>
__global__ void __launch_bounds__(block_threads)
    fft_bp_finish_kernel(const fft_bp_params p)
{
    const size_t frame = blockIdx.x;
    write_frame_bits<log2_of(Q)>(p, frame, p.hard + frame * p.graph.n);
    if (threadIdx.x == 0)
        p.status[frame].converged = p.status[frame].syndrome_weight == 0;
}

template <unsigned Q, typename M>
void launch_check_parallel(fft_bp_params p, cudaStream_t stream, launch_mode mode)
{
    const fft_bp_graph& g = p.graph;
    constexpr unsigned warps = block_threads / 32;
    constexpr unsigned max_grid_y = 65535, max_grid_x = 1u << 30;
    const unsigned variable_blocks = std::min((g.n + warps - 1) / warps, max_grid_x);
    // the variables kernel: 32 / variable_lanes(q) variables a warp
    const unsigned per_block = warps * (32 / variable_lanes(Q));
    const unsigned update_blocks =
        std::min((g.n + per_block - 1) / per_block, max_grid_x);
    const unsigned check_blocks = std::min(g.checks, max_grid_x);
    const unsigned syndrome_blocks =
        std::min((g.checks + block_threads - 1) / block_threads, max_grid_x);
    if (mode != launch_mode::enqueue &&
        p.variant.shared_bytes + static_shared_bytes > 48 * 1024)
        opt_in_shared_memory(&fft_bp_checks_kernel<Q, M>);
    if (mode == launch_mode::prepare)
        return;
    const size_t total = p.n_frames;
    const size_t m = g.bits_per_symbol, nq = size_t(g.n) * Q;
    const size_t in_per_frame = p.symbol_input ? nq : size_t(g.n) * m;
    for (size_t f0 = 0; f0 < total; f0 += max_grid_y) {
        fft_bp_params c = p;
        c.n_frames = std::min<size_t>(max_grid_y, total - f0);
        c.input = p.input + f0 * in_per_frame;
        c.prior = p.prior + f0 * nq;
        c.app = p.app + f0 * nq;
        c.c2v = static_cast<M*>(p.c2v) + f0 * g.edges * Q;
        c.hard = p.hard + f0 * g.n;
        c.info_bits = p.info_bits + f0 * fft_bp_info_bytes(p);
        c.codeword_bits =
            p.codeword_bits ? p.codeword_bits + f0 * size_t(g.n) * m : nullptr;
        c.status = p.status + f0;
        const unsigned frames = unsigned(c.n_frames);
        const unsigned frame_blocks = (frames + block_threads - 1) / block_threads;
        GPULDPC_CUDA_CHECK(
            cudaMemsetAsync(c.status, 0, frames * sizeof(fft_bp_status), stream));
        fft_bp_start_kernel<Q, M>
            <<<dim3(variable_blocks, frames), block_threads, 0, stream>>>(c);
        GPULDPC_CUDA_CHECK_LAUNCH("fft_bp_start_kernel");
        if (p.early_termination) {
            fft_bp_syndrome_kernel<Q>
                <<<dim3(syndrome_blocks, frames), block_threads, 0, stream>>>(c);
            GPULDPC_CUDA_CHECK_LAUNCH("fft_bp_syndrome_kernel");
            fft_bp_iteration_done_kernel<<<frame_blocks, block_threads, 0, stream>>>(
                c, 0, true);
            GPULDPC_CUDA_CHECK_LAUNCH("fft_bp_iteration_done_kernel");
        }
        for (unsigned it = 1; it <= p.max_iterations; ++it) {
            fft_bp_checks_kernel<Q, M><<<dim3(check_blocks, frames),
                                         block_threads,
                                         p.variant.shared_bytes,
                                         stream>>>(c);
            GPULDPC_CUDA_CHECK_LAUNCH("fft_bp_checks_kernel");
            const bool last = it == p.max_iterations;
            fft_bp_variables_kernel<Q, M>
                <<<dim3(update_blocks, frames), block_threads, 0, stream>>>(
                    c, p.early_termination || last);
            GPULDPC_CUDA_CHECK_LAUNCH("fft_bp_variables_kernel");
            if (p.early_termination || last) {
                fft_bp_syndrome_kernel<Q>
                    <<<dim3(syndrome_blocks, frames), block_threads, 0, stream>>>(c);
                GPULDPC_CUDA_CHECK_LAUNCH("fft_bp_syndrome_kernel");
            }
            fft_bp_iteration_done_kernel<<<frame_blocks, block_threads, 0, stream>>>(
                c, it, p.early_termination);
            GPULDPC_CUDA_CHECK_LAUNCH("fft_bp_iteration_done_kernel");
        }
        fft_bp_finish_kernel<Q><<<frames, block_threads, 0, stream>>>(c);
        GPULDPC_CUDA_CHECK_LAUNCH("fft_bp_finish_kernel");
    }
}

// The edge slots of the register check update for q and a check degree; 0
// where it does not apply (each of these is a kernel instantiation).
unsigned register_edge_slots(unsigned q, unsigned max_check_degree)
{
    const unsigned slots = max_check_degree <= 4 ? 4 : max_check_degree <= 8 ? 8 : 0;
    if (slots == 4 && (q == 64 || q == 128 || q == 256))
        return 4;
    if (slots == 8 && (q == 64 || q == 128))
        return 8;
    return 0;
}

template <unsigned Q, typename M>
void launch_messages(const fft_bp_params& p, cudaStream_t stream, launch_mode mode)
{
    if (p.variant.check_parallel)
        return launch_check_parallel<Q, M>(p, stream, mode);
    switch (p.variant.edge_slots) {
    case 0:
        return launch_kernel<Q, 0, M>(p, stream, mode);
    case 4:
        if constexpr (Q >= 64)
            return launch_kernel<Q, 4, M>(p, stream, mode);
        break;
    case 8:
        if constexpr (Q == 64 || Q == 128)
            return launch_kernel<Q, 8, M>(p, stream, mode);
        break;
    case mma_edge_slots:
        if constexpr (Q == 64)
            return launch_kernel<Q, mma_edge_slots, M>(p, stream, mode);
        break;
    }
    throw std::invalid_argument("launch_fft_bp: edge_slots " +
                                std::to_string(p.variant.edge_slots) +
                                " not from fft_bp_choose");
}

template <unsigned Q>
void launch(const fft_bp_params& p, cudaStream_t stream, launch_mode mode)
{
    if (p.half_messages)
        launch_messages<Q, __half>(p, stream, mode);
    else
        launch_messages<Q, float>(p, stream, mode);
}

} // namespace

fft_bp_variant fft_bp_choose(const fft_bp_graph& g,
                             size_t shared_limit,
                             bool layered,
                             bool registers,
                             bool half_messages,
                             bool tensor_cores,
                             bool edge_threads)
{
    const unsigned slots = registers ? register_edge_slots(g.q, g.max_check_degree) : 0;
    const size_t usable =
        shared_limit > static_shared_bytes ? shared_limit - static_shared_bytes : 0;
    if (edge_threads && registers && !layered && g.edge_chunks > 0 && g.edge_lanes) {
        // a thread per edge, on chip; for q <= 64 where two blocks fit, so
        // that one block's barriers leave the SM work (H100: three blocks of
        // GF(64) with 96 symbols); GF(256) takes 16 warps a block
        const size_t bytes = fft_bp_edge_shared_bytes(g);
        const unsigned threads = fft_bp_edge_threads(g);
        if ((g.q > 64 ? 1 : 2) * bytes <= usable)
            return {
                true, bytes, threads, threads / 32, false, g.edge_group, false, true
            };
    }
    // beliefs, check-to-variable messages and, for small fields, the field's table
    const size_t messages =
        size_t(g.n) * g.q * sizeof(float) +
        g.edges * size_t(g.q) * (half_messages ? sizeof(__half) : sizeof(float)) +
        (on_chip_field_table(g.q) ? size_t(g.q) * g.q : 0);
    if (tensor_cores && !layered && slots == 4 && g.q == 64) {
        // four checks a warp on tensor cores, on chip (no scratch rows)
        const size_t on_chip = messages + size_t(g.q) * g.q + // c2v_position
                               sizeof(uint32_t) * (g.checks + g.n + 2 + 2 * g.edges) +
                               256; // the beliefs' alignment
        const unsigned threads = kernel_threads(g.q, mma_edge_slots, half_messages);
        if (on_chip <= usable)
            return { true, on_chip, threads, threads / 32, false, mma_edge_slots, false };
    }
    // per warp: DS rows of q + 32 / DS floats, or 3 * degree rows of q
    const size_t per_warp = (slots ? size_t(slots) * register_row_floats(g.q, slots)
                                   : 3 * size_t(g.max_check_degree) * g.q) *
                            sizeof(float);
    const unsigned threads = kernel_threads(g.q, slots, half_messages);
    const unsigned max_warps = threads / 32;
    if (per_warp > usable)
        throw std::invalid_argument(
            "the code's largest check (degree " + std::to_string(g.max_check_degree) +
            " over GF(" + std::to_string(g.q) + ")) needs " + std::to_string(per_warp) +
            " bytes of shared memory per block; this GPU allows " +
            std::to_string(shared_limit));
    // layered: warps on the checks of runs where a warp serves a check well
    // (registers, or checks too small for the block: degree * q below its 256
    // threads; H100: GF(4) 78 -> 106 Mbit/s with runs, GF(64) through rows
    // 62 -> 44) and runs hold several checks on average
    bool runs = false;
    if (layered && g.run_offsets && g.runs > 0)
        runs = slots > 0 || (size_t(g.max_check_degree) * g.q < block_threads &&
                             double(g.checks) / double(g.runs) >= 2.0);
    if (layered && !runs) {
        // one check at a time by the whole block, through rows
        const size_t rows = 3 * size_t(g.max_check_degree) * g.q * sizeof(float);
        return messages + rows <= usable
                   ? fft_bp_variant{ true, messages + rows, block_threads, 1, false, 0,
                                     false }
                   : fft_bp_variant{ false, rows, block_threads, 1, false, 0, false };
    }
    // as many warps on checks as fit; on chip only if the messages leave room
    // for half of them (else the global variant with all is faster)
    const unsigned all = unsigned(std::min<size_t>(max_warps, usable / per_warp));
    if (messages < usable) {
        const unsigned w =
            unsigned(std::min<size_t>(max_warps, (usable - messages) / per_warp));
        // flooding leaves the chip where a frame's block would be alone on
        // its SM with 8 warps at most: too few to hide latency, while the
        // check-parallel family fills the SM (H100, GF(256) with 64 symbols:
        // 52.8 Mbit/s on chip, 73.3 check-parallel)
        const bool starved =
            !layered && threads <= 256 && 2 * (messages + w * per_warp) > usable;
        if (w >= std::max(1u, all / 2) && !starved)
            return { true, messages + w * per_warp, threads, w, runs, slots, false };
    }
    if (!layered) {
        // messages in global memory: a block per check and frame, through
        // rows (the whole block on a check, as the layered schedule does)
        const size_t rows = 3 * size_t(g.max_check_degree) * g.q * sizeof(float);
        if (rows <= usable)
            return { false, rows, block_threads, 1, false, 0, true };
    }
    return { false, all * per_warp, threads, all, runs, slots, false };
}

namespace {

void launch_checked(const fft_bp_params& p, cudaStream_t stream, launch_mode mode)
{
    const fft_bp_graph& g = p.graph;
    if (g.q < 2 || g.q > 256 || (g.q & (g.q - 1)) != 0 ||
        (1u << g.bits_per_symbol) != g.q)
        throw std::invalid_argument("launch_fft_bp: q must be a power of two, 2 .. 256");
    if (g.max_check_degree == 0 || p.max_iterations == 0)
        throw std::invalid_argument("launch_fft_bp: empty checks or no iterations");
    if (p.n_frames > 0x7fffffffu)
        throw std::invalid_argument("launch_fft_bp: too many frames for one launch");
    if (p.variant.edge_threads) {
        if (p.n_frames == 0 && mode != launch_mode::prepare)
            return;
        return launch_fft_bp_edges(p, stream, mode);
    }
    if (p.variant.threads != kernel_threads(g.q, p.variant.edge_slots, p.half_messages) ||
        p.variant.check_warps < 1 || p.variant.check_warps > p.variant.threads / 32)
        throw std::invalid_argument("launch_fft_bp: variant not from fft_bp_choose");
    if (p.variant.edge_slots == mma_edge_slots && (p.layered || !p.variant.on_chip))
        throw std::invalid_argument(
            "launch_fft_bp: tensor cores serve flooding on chip only");
    if (p.layered && !p.variant.runs && p.variant.edge_slots)
        throw std::invalid_argument(
            "launch_fft_bp: registers need runs in the layered schedule");
    if (p.variant.check_parallel &&
        (p.layered || p.variant.on_chip || p.variant.edge_slots || !p.status))
        throw std::invalid_argument(
            "launch_fft_bp: check_parallel is the global variant of flooding");
    if (p.variant.runs && !g.run_offsets)
        throw std::invalid_argument("launch_fft_bp: the variant needs run_offsets");
    if (!p.variant.on_chip && (!p.app || !p.c2v))
        throw std::invalid_argument(
            "launch_fft_bp: the global variant needs app and c2v");
    if (p.n_frames == 0 && mode != launch_mode::prepare)
        return;
    switch (g.q) { // the one place where q becomes a compile-time constant
    case 2:
        return launch<2>(p, stream, mode);
    case 4:
        return launch<4>(p, stream, mode);
    case 8:
        return launch<8>(p, stream, mode);
    case 16:
        return launch<16>(p, stream, mode);
    case 32:
        return launch<32>(p, stream, mode);
    case 64:
        return launch<64>(p, stream, mode);
    case 128:
        return launch<128>(p, stream, mode);
    default:
        return launch<256>(p, stream, mode);
    }
}

} // namespace

void launch_fft_bp(const fft_bp_params& p, cudaStream_t stream)
{
    launch_checked(p, stream, launch_mode::both);
}

void prepare_fft_bp(const fft_bp_params& p)
{
    launch_checked(p, nullptr, launch_mode::prepare);
}

void enqueue_fft_bp(const fft_bp_params& p, cudaStream_t stream)
{
    launch_checked(p, stream, launch_mode::enqueue);
}

bool fft_bp_is_launch_sequence(const fft_bp_variant& v) { return v.check_parallel; }

std::string fft_bp_describe(const fft_bp_variant& v, bool layered, bool half_messages)
{
    std::string s = v.on_chip ? "FFT-BP, on chip: messages and beliefs in shared memory"
                              : "FFT-BP, global: messages and beliefs in device memory";
    const auto warps = [](unsigned w) {
        return std::to_string(w) + (w == 1 ? " warp" : " warps");
    };
    if (v.check_parallel)
        s += ", a block a check and frame, the iterations a sequence of launches";
    else if (v.edge_threads)
        s += ", a thread an edge";
    else if (v.edge_slots == mma_edge_slots)
        s += ", four checks a warp with their transforms on tensor cores, " +
             warps(v.check_warps);
    else if (layered && !v.runs)
        s += ", a check at a time by the whole block";
    else
        s += ", " + warps(v.check_warps) +
             (v.runs ? " on a run's checks at once" : " on checks at once") +
             (v.edge_slots ? ", a check's messages in registers (" +
                                 std::to_string(v.edge_slots) + " edge slots)"
                           : std::string());
    if (half_messages)
        s += ", fp16 messages";
    return s + ", " + std::to_string(v.threads) + " threads a block";
}

bool fft_bp_tensor_cores()
{
    // the code that runs on the current device: built (or JIT-compiled) from
    // PTX of compute capability 8.0 or later, where mma_tf32 is not a trap
    cudaFuncAttributes attr;
    GPULDPC_CUDA_CHECK(
        cudaFuncGetAttributes(&attr, &fft_bp_kernel<64, mma_edge_slots, float, true>));
    return attr.ptxVersion >= 80 && attr.binaryVersion >= 80;
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
