/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_GFQ_EDGE_THREADS_CUH
#define INCLUDED_GPULDPC_KERNELS_GFQ_EDGE_THREADS_CUH

// GF(q) FFT-BP, flooding, a thread per edge (fft_bp_family::edge_threads).
//
// A lane holds the whole message of its edge, q <= 64 values, in registers.
// The Walsh-Hadamard transform is then register additions, without shuffles
// or changes of layout; the field permutation y -> h^-1 y, linear over GF(2),
// becomes the XOR of a few precomputed byte offsets folded into shared-memory
// addresses; and only the products over a check's other edges cross lanes: a
// check takes D = 4 or 8 adjacent lanes (GF(2): D / 2 lanes of two edges),
// log2 D shuffles a value. Compared
// with a warp per message (two values a lane), a message costs about a third
// of the instructions.
//
// State of a frame, all in shared memory (fft_bp_edge_layout): a column of q
// floats per edge that alternately holds the edge's variable-to-check message
// (written by the variable phase) and its check-to-variable message (written by
// the check phase), both in the variable's domain, and the priors. Columns are
// edge colours chosen so that both phases read and write conflict-free.
//
// Arithmetic, step by step as the CPU reference's flooding schedule and
// fft_bp_rule: beliefs = prior + the incoming messages in the variable's edge
// order; variable-to-check = belief - check-to-variable; the check exponentiates
// (after subtracting the maximum, which is the CPU's normalisation), transforms,
// multiplies the other edges' spectra, transforms back and takes logarithms
// normalised to a maximum of 0 and floored at -30. As in the register and
// tensor-core check updates, a message enters the transform normalised to a
// maximum of 1 rather than a sum of 1 (the output is normalised, so the scale
// cancels) and the exclusive products run as a butterfly over the check's
// lanes, not prefix times suffix: results agree with the CPU within rounding.
// fp16 messages are modelled by rounding each check-to-variable value to half
// precision as the CPU reference does; storage stays fp32.
//
// GF(2) takes a check update of its own (gf2_checks): two edges a lane, and a
// message of one value, log P(0) - log P(1), in place of two values and two
// transforms; its columns' second rows stay unused.
//
// This file: the family's traits and the steps of its kernel (edge_threads.cu):
// the check phase, the variable phase and the syndrome. Internal to the
// kernels.

#include "gfq/common.cuh"
#include <cuda_fp16.h>
#include <type_traits>
#include <cfloat>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace gfq {

namespace {

/*!
 * An edge-thread kernel's field (q = Q: 2 to 64 or 256), edges of a check
 * (D = 4 or 8 lanes' groups) and stored message type M (float or __half; the
 * storage stays fp32, fp16 rounds each value); L lanes a message of V values
 * each.
 */
template <unsigned Q, unsigned D_, typename M>
struct edge_traits {
    static_assert(Q == 2 || Q == 4 || Q == 8 || Q == 16 || Q == 32 || Q == 64 || Q == 256,
                  "q: 2, 4, 8, 16, 32, 64 or 256");
    static_assert(D_ == 4 || D_ == 8, "edges of a check: 4 or 8");
    static_assert(std::is_same<M, float>::value || std::is_same<M, __half>::value,
                  "messages: float or __half");
    static constexpr unsigned q = Q, m = log2_of(Q), D = D_;
    static constexpr unsigned L = message_lanes(Q), V = Q / L;
    static_assert(D * L <= 32, "a check within a warp");
    using message = M;
    static constexpr unsigned max_threads = edge_max_threads(Q);
    static constexpr unsigned min_blocks = edge_min_blocks(Q);
};

// Values a message keeps in its column: q (V a lane), or for GF(2) one, the
// log ratio log P(0) - log P(1) (gf2_checks).
template <unsigned Q>
constexpr unsigned stored_values = Q == 2 ? 1 : Q / message_lanes(Q);

__host__ __device__ constexpr unsigned lowest_bit(unsigned i)
{
    return (i & 1) ? 0 : 1 + lowest_bit(i >> 1);
}

__device__ __forceinline__ float& column_value(char* base, unsigned byte_offset)
{
    return *reinterpret_cast<float*>(base + byte_offset);
}

// In-place Walsh-Hadamard transform of q = V * L values, V in each of the L
// lanes of a message: strides below V in registers, then the larger ones
// across the lanes (a shuffle a value), stride 1 first (the CPU's
// fwht_inplace order). Every lane of the warp MUST take part.
template <unsigned V, unsigned L>
__device__ __forceinline__ void message_fwht(float (&a)[V], unsigned sub)
{
#pragma unroll
    for (unsigned s = 1; s < V; s <<= 1)
#pragma unroll
        for (unsigned y = 0; y < V; ++y)
            if (!(y & s)) {
                const float u = a[y], w = a[y + s];
                a[y] = u + w;
                a[y + s] = u - w;
            }
#pragma unroll
    for (unsigned s = 1; s < L; s <<= 1) {
        // the upper lane of a pair keeps u - w: -a + partner
        const float sign = (sub & s) ? -1.0f : 1.0f;
#pragma unroll
        for (unsigned y = 0; y < V; ++y)
            a[y] = fmaf(a[y], sign, __shfl_xor_sync(full_mask, a[y], s));
    }
}

// Maximum over the L lanes of a message (every lane MUST take part).
template <unsigned L>
__device__ __forceinline__ float message_max(float v)
{
#pragma unroll
    for (unsigned s = 1; s < L; s <<= 1)
        v = fmaxf(v, __shfl_xor_sync(full_mask, v, s));
    return v;
}

// Shared-memory state of a frame.
struct edge_frame {
    char* slots;   // a column per edge (fft_bp_edge_layout)
    char* prior;   // per variable-phase lane: value r at r * 128 of its column
    uint8_t* hard; // n
};

// Byte offsets of a lane's values in the slots: value r at hi[r / B] ^ lo[r %
// B], the images of its high and low bits under y -> h^-1 y (the column's own
// offset, and for L > 1 the image of the lane's high bits of y, folded into
// hi: their bits are disjoint from the others').
template <unsigned V>
struct value_offsets {
    static constexpr unsigned m = log2_of(V);
    static constexpr unsigned low_bits = m < 3 ? m : 3, B = 1u << low_bits, H = V / B;
    unsigned lo[B], hi[H];
    __device__ __forceinline__ explicit value_offsets(const uint4& w)
    {
        const uint32_t words[3] = { w.y, w.z, w.w };
        unsigned image[m];
#pragma unroll
        for (unsigned b = 0; b < m; ++b)
            image[b] = b < 6 ? (words[b / 2] >> (16 * (b % 2))) & 0xffffu
                             : (w.x >> column_bits) << 2;
        lo[0] = 0;
#pragma unroll
        for (unsigned i = 1; i < B; ++i)
            lo[i] = lo[i & (i - 1)] ^ image[lowest_bit(i)];
        hi[0] = m > 6 ? w.x & ((1u << column_bits) - 1) : w.x;
#pragma unroll
        for (unsigned j = 1; j < H; ++j)
            hi[j] = hi[j & (j - 1)] ^ image[low_bits + lowest_bit(j)];
    }
    __device__ __forceinline__ unsigned operator[](unsigned r) const
    {
        return hi[r / B] ^ lo[r % B];
    }
};

// The spectra of the products over a check's other edges, at lane distance
// L between edges: at step s a lane has the product of its aligned group of s
// edges (acc) and gathers the partner group's.
template <unsigned V, unsigned L, unsigned D>
__device__ __forceinline__ void exclusive_products(float (&a)[V])
{
#pragma unroll
    for (unsigned r = 0; r < V; ++r) {
        float acc = a[r], others = 1.0f;
#pragma unroll
        for (unsigned s = 1; s < D; s <<= 1) {
            const float partner = __shfl_xor_sync(full_mask, acc, s * L);
            others = s == 1 ? partner : others * partner;
            if (2 * s < D)
                acc *= partner;
        }
        a[r] = others;
    }
}

// Gathers a lane's variable-to-check values into a (in the check's domain)
// and returns their maximum.
template <unsigned V>
__device__ __forceinline__ float
gather(const edge_frame& f, const uint4& w, float (&a)[V])
{
    const value_offsets<V> at(w);
    float mx = -FLT_MAX;
#pragma unroll
    for (unsigned r = 0; r < V; ++r) {
        a[r] = column_value(f.slots, at[r]);
        mx = fmaxf(mx, a[r]);
    }
    return mx;
}

// The values' distribution, normalised to a maximum of 1, from log values
// whose maximum is mx.
template <unsigned V>
__device__ __forceinline__ void exponentiate(float (&a)[V], float mx)
{
    const float shift = mx * log2e;
#pragma unroll
    for (unsigned r = 0; r < V; ++r)
        a[r] = exp2_ftz(fmaf(a[r], log2e, -shift));
}

// Check-to-variable messages from the transformed products (whose maximum
// over the message is wmax), scattered back into the variable's domain:
// values below wmax e^-30, zero or negative (rounding) give -30.
template <unsigned V, typename M>
__device__ __forceinline__ void
scatter(const edge_frame& f, const uint4& w, const float (&a)[V], float wmax)
{
    const float log_max = log2_ftz(wmax) * ln2;
    // the offsets are computed again: cheaper than keeping them in registers
    // through the transforms
    const value_offsets<V> at(w);
#pragma unroll
    for (unsigned r = 0; r < V; ++r) {
        float out = fmaxf(log2_ftz(a[r]) * ln2 - log_max, -log_floor);
        if constexpr (half_storage<M>)
            out = __half2float(__float2half_rn(out));
        column_value(f.slots, at[r]) = out;
    }
}

// GF(2) checks, two edges a lane (fft_bp_edge_layout, edges_per_lane 2). A
// binary message's transform is (p0 + p1, p0 - p1), and the normalisation
// before the logarithms makes only the ratio of the two spectral values count:
// tanh of half the difference of the log values. So a GF(2) message keeps
// that difference only, log P(0) - log P(1), in its column's first row (the
// priors too; the variable phase adds and subtracts it as it would the two
// values, and decides 1 where it is negative), and one value an edge crosses
// the check, without the transforms. The message out is the difference of
// (0, ln((1 - P) / (1 + P))) for the product P of the other edges' ratios,
// its two values swapped where P < 0 (the larger value normalised to 0, the
// other floored at -30): the CPU's values within rounding. A lane multiplies
// its two ratios, so the products over a check's other lanes take log2(group
// / 2) shuffles. An idle edge's ratio is 1 (the zero symbol).
__device__ __forceinline__ float gf2_ratio(const edge_frame& f, uint32_t at)
{
    const float d = column_value(f.slots, at);
    const float e = exp2_ftz(-fabsf(d) * log2e);
    return copysignf(__fdividef(1.0f - e, 1.0f + e), d);
}

template <typename M>
__device__ __forceinline__ void gf2_message(const edge_frame& f, uint32_t at, float ratio)
{
    const float p = fabsf(ratio);
    float out = fmaxf(log2_ftz(__fdividef(1.0f - p, 1.0f + p)) * ln2, -log_floor);
    if constexpr (half_storage<M>)
        out = __half2float(__float2half_rn(out));
    column_value(f.slots, at) = ratio < 0.0f ? out : -out;
}

// Lane t of the check phase's paired layout: the first of its two lanes' words
// (chunk 2w, lane l; the second is 32 lanes on).
__device__ __forceinline__ unsigned gf2_first_lane(unsigned t)
{
    return (t / 32) * 64 + t % 32;
}

template <typename T>
__device__ void gf2_checks(const fft_bp_graph& g, const edge_frame& f)
{
    static_assert(T::q == 2 && T::L == 1, "GF(2): a lane an edge pair");
    constexpr unsigned G = T::D / 2; // lanes of a check
    const uint4* words = reinterpret_cast<const uint4*>(g.edge_lanes);
    const unsigned lanes = g.edge_chunks / 2 * 32;
    for (unsigned t = threadIdx.x; t < lanes; t += blockDim.x) {
        const unsigned first = gf2_first_lane(t);
        const uint32_t a = __ldg(&words[first].x), b = __ldg(&words[first + 32].x);
        const float ra = a != idle_lane ? gf2_ratio(f, a) : 1.0f;
        const float rb = b != idle_lane ? gf2_ratio(f, b) : 1.0f;
        // the product of the check's other lanes' pairs
        float acc = ra * rb, others = 1.0f;
#pragma unroll
        for (unsigned s = 1; s < G; s <<= 1) {
            const float partner = __shfl_xor_sync(full_mask, acc, s);
            others = s == 1 ? partner : others * partner;
            if (2 * s < G)
                acc *= partner;
        }
        if (a != idle_lane)
            gf2_message<typename T::message>(f, a, others * rb);
        if (b != idle_lane)
            gf2_message<typename T::message>(f, b, others * ra);
    }
}

// All checks, L lanes per edge: variable-to-check messages in,
// check-to-variable messages out, in the same column.
template <typename T>
__device__ void edge_checks(const fft_bp_graph& g, const edge_frame& f)
{
    constexpr unsigned L = T::L, V = T::V, D = T::D;
    using M = typename T::message;
    if constexpr (T::q == 2) {
        gf2_checks<T>(g, f);
        return;
    }
    const unsigned lanes = g.edge_chunks * 32;
    for (unsigned t = threadIdx.x; t < lanes; t += blockDim.x) {
        const uint4 w = __ldg(reinterpret_cast<const uint4*>(g.edge_lanes) + t);
        const bool valid = w.x != idle_lane;
        float a[V];
        if constexpr (L == 1) {
            // idle_lane lanes skip the transforms (branches kept apart: merged,
            // the compiler spills)
            if (valid) {
                exponentiate(a, gather(f, w, a));
                message_fwht<V, 1>(a, 0);
            } else {
                // an idle_lane edge's spectrum: that of the zero symbol, all ones
#pragma unroll
                for (unsigned r = 0; r < V; ++r)
                    a[r] = 1.0f;
            }
            exclusive_products<V, 1, D>(a);
            if (valid) {
                message_fwht<V, 1>(a, 0);
                float wmax = -FLT_MAX;
#pragma unroll
                for (unsigned r = 0; r < V; ++r)
                    wmax = fmaxf(wmax, a[r]);
                scatter<V, M>(f, w, a, wmax);
            }
        } else {
            // every lane takes the shuffles of the transforms and maxima
            const unsigned sub = t % L;
            float mx = -FLT_MAX;
            if (valid)
                mx = gather(f, w, a);
            mx = message_max<L>(mx);
            if (valid) {
                exponentiate(a, mx);
            } else {
                // an idle_lane edge: the distribution of the zero symbol
#pragma unroll
                for (unsigned r = 0; r < V; ++r)
                    a[r] = r == 0 && sub == 0 ? 1.0f : 0.0f;
            }
            message_fwht<V, L>(a, sub);
            exclusive_products<V, L, D>(a);
            message_fwht<V, L>(a, sub);
            float wmax = -FLT_MAX;
#pragma unroll
            for (unsigned r = 0; r < V; ++r)
                wmax = fmaxf(wmax, a[r]);
            wmax = message_max<L>(wmax);
            if (valid)
                scatter<V, M>(f, w, a, wmax);
        }
    }
}

// Byte offsets of a variable-phase lane's values r (x = sub * V + r) in the
// column of one of its edges, from the edge's word in variable_columns: the
// column's offset in the low column_bits bits; for L > 1 above them, two bits
// for each of r's six bits, the edge's bank mix (fft_bp_edge_layout): value x
// lies in bank (sub ^ mix(r)) of the column's L banks.
template <unsigned V, unsigned L>
struct variable_offsets {
    static_assert(L == 1 || V >= 8, "a message over several lanes has 8 values or more");
    static constexpr unsigned B = V < 8 ? V : 8, H = V / B;
    unsigned lo[B], hi[H];
    __device__ __forceinline__ variable_offsets() {}
    __device__ __forceinline__ variable_offsets(uint32_t word, unsigned sub)
    {
        if constexpr (L == 1) {
            hi[0] = word;
        } else {
            constexpr unsigned lb = log2_of(L);
            const uint32_t mix = word >> column_bits;
            lo[0] = 0;
#pragma unroll
            for (unsigned i = 1; i < B; ++i)
                lo[i] =
                    lo[i & (i - 1)] ^ (((mix >> (lb * lowest_bit(i))) & (L - 1)) << 2);
            hi[0] = (word & ((1u << column_bits) - 1)) | (sub << 2);
#pragma unroll
            for (unsigned j = 1; j < H; ++j)
                hi[j] = hi[j & (j - 1)] ^
                        (((mix >> (lb * (3 + lowest_bit(j)))) & (L - 1)) << 2);
        }
    }
    __device__ __forceinline__ unsigned operator[](unsigned r) const
    {
        if constexpr (L == 1)
            return hi[0] + r * column_stride;
        else
            return (hi[r / B] ^ lo[r % B]) + r * column_stride;
    }
};

// Position of variable-phase lane i (variable i / L, sub i % L) in the priors.
template <unsigned Q>
__device__ __forceinline__ unsigned prior_offset(unsigned i)
{
    constexpr unsigned V = Q / message_lanes(Q);
    return (i >> 5) * (V * column_stride) + (i & 31) * 4;
}

// The best value and its index over the L lanes of a variable; the smallest
// index among equal values (std::max_element in the CPU reference).
template <unsigned L>
__device__ __forceinline__ unsigned message_argmax(float best, unsigned arg)
{
#pragma unroll
    for (unsigned s = 1; s < L; s <<= 1) {
        const float ob = __shfl_xor_sync(full_mask, best, s);
        const unsigned oa = __shfl_xor_sync(full_mask, arg, s);
        if (ob > best || (ob == best && oa < arg)) {
            best = ob;
            arg = oa;
        }
    }
    return arg;
}

// A variable of E edges in one pass: each value's belief from the prior and
// the E messages in registers, then the outgoing messages (the operations of
// edge_variables' loops, in the same order, without reading the messages
// twice). H100, two edges: GF(256) with 64 symbols 283 -> 320 Mbit/s, GF(16)
// 3898 -> 4184; two to four for GF(2): (3,6) n = 1008 3100 -> 3690 (with
// the GF(2) check step). Not for GF(64), where the registers of both paths spill at 96 a
// thread (1380 -> 1291). One instance a degree: a path of up to four edges
// that tested each edge cost GF(4) 14 % (7230 -> 6230).
template <unsigned Q, unsigned E>
__device__ __forceinline__ void variable_in_one_pass(const edge_frame& f,
                                                     const uint32_t* col,
                                                     unsigned i,
                                                     bool decide,
                                                     float& best,
                                                     unsigned& arg)
{
    constexpr unsigned L = message_lanes(Q), V = Q / L;
    const unsigned sub = i % L;
    const char* pr = f.prior + prior_offset<Q>(i);
    variable_offsets<V, L> at[E];
#pragma unroll
    for (unsigned k = 0; k < E; ++k)
        at[k] = variable_offsets<V, L>(col[k], sub);
#pragma unroll
    for (unsigned r = 0; r < stored_values<Q>; ++r) {
        float m[E];
        float belief = *reinterpret_cast<const float*>(pr + r * column_stride);
#pragma unroll
        for (unsigned k = 0; k < E; ++k) {
            m[k] = column_value(f.slots, at[k][r]);
            belief += m[k];
        }
        if constexpr (Q == 2) {
            if (decide)
                arg = belief < 0.0f; // GF(2): the log ratio (gf2_checks)
        } else if (decide && belief > best) {
            best = belief;
            arg = sub * V + r;
        }
#pragma unroll
        for (unsigned k = 0; k < E; ++k)
            column_value(f.slots, at[k][r]) = belief - m[k];
    }
}

// All variables, L lanes each: beliefs (and, where \p decide, the hard
// decision), then each edge's variable-to-check message over its
// check-to-variable message. Lane sub of a variable holds its values x = sub *
// V + r, at r * 128 + 4 sub of its edges' columns.
template <unsigned Q>
__device__ void edge_variables(const fft_bp_graph& g, const edge_frame& f, bool decide)
{
    constexpr unsigned L = message_lanes(Q), V = Q / L, S = stored_values<Q>;
    // whole warps, so that the lanes of a variable take the shuffles together
    const unsigned total = (g.n * L + 31) / 32 * 32;
    for (unsigned i = threadIdx.x; i < total; i += blockDim.x) {
        const unsigned v = i / L, sub = i % L;
        const bool active = v < g.n;
        float best = -FLT_MAX;
        unsigned arg = 0;
        // a variable of 2 to E edges in one pass (variable_in_one_pass),
        // where the registers allow it
        constexpr bool one_pass = Q != 64;
        constexpr unsigned E = Q == 2 ? 4 : 2;
        uint32_t col[E];
        unsigned degree = 0;
        if (one_pass && active && g.variable_steps >= 2) {
#pragma unroll
            for (unsigned k = 0; k < E; ++k) {
                col[k] = k < g.variable_steps
                             ? __ldg(g.variable_columns + size_t(k) * g.n + v)
                             : idle_lane;
                degree += col[k] != idle_lane; // a variable's edges come first
            }
            if (degree == E && g.variable_steps > E &&
                __ldg(g.variable_columns + size_t(E) * g.n + v) != idle_lane)
                degree = 0; // more edges: the loops below
        }
        const bool few = degree >= 2;
        if (few) {
            if constexpr (E == 4) {
                if (degree == 4)
                    variable_in_one_pass<Q, 4>(f, col, i, decide, best, arg);
                else if (degree == 3)
                    variable_in_one_pass<Q, 3>(f, col, i, decide, best, arg);
                else
                    variable_in_one_pass<Q, 2>(f, col, i, decide, best, arg);
            } else {
                variable_in_one_pass<Q, 2>(f, col, i, decide, best, arg);
            }
        }
        float sum[V];
        if (active && !few) {
            const char* pr = f.prior + prior_offset<Q>(i);
#pragma unroll
            for (unsigned r = 0; r < S; ++r)
                sum[r] = *reinterpret_cast<const float*>(pr + r * column_stride);
            for (unsigned k = 0; k < g.variable_steps; ++k) {
                const uint32_t col = __ldg(g.variable_columns + size_t(k) * g.n + v);
                if (col == idle_lane)
                    break;
                const variable_offsets<V, L> at(col, sub);
#pragma unroll
                for (unsigned r = 0; r < S; ++r)
                    sum[r] += column_value(f.slots, at[r]);
            }
            if constexpr (Q == 2) {
                if (decide)
                    arg = sum[0] < 0.0f;
            } else if (decide) {
#pragma unroll
                for (unsigned r = 0; r < V; ++r)
                    if (sum[r] > best) {
                        best = sum[r];
                        arg = sub * V + r;
                    }
            }
        }
        if (decide) {
            arg = message_argmax<L>(best, arg);
            if (active && sub == 0)
                f.hard[v] = uint8_t(arg);
        }
        if (active && !few)
            for (unsigned k = 0; k < g.variable_steps; ++k) {
                const uint32_t col = __ldg(g.variable_columns + size_t(k) * g.n + v);
                if (col == idle_lane)
                    break;
                const variable_offsets<V, L> at(col, sub);
#pragma unroll
                for (unsigned r = 0; r < S; ++r) {
                    float& c = column_value(f.slots, at[r]);
                    c = sum[r] - c;
                }
            }
    }
}

// Unsatisfied checks of the hard decision (call with the block in step).
template <typename T>
__device__ unsigned
edge_syndrome(const fft_bp_graph& g, const uint8_t* hard, unsigned* counter)
{
    constexpr unsigned Q = T::q, lanes_per_check = T::D * T::L;
    __syncthreads();
    if (threadIdx.x == 0)
        *counter = 0;
    __syncthreads();
    unsigned unsat = 0;
    if constexpr (Q == 2) {
        // the paired layout (gf2_checks); the coefficients are 1
        const unsigned lanes = g.edge_chunks / 2 * 32;
        for (unsigned t = threadIdx.x; t < lanes; t += blockDim.x) {
            const unsigned first = gf2_first_lane(t);
            const uint32_t a = __ldg(g.edge_lane_terms + first),
                           b = __ldg(g.edge_lane_terms + first + 32);
            unsigned sum = (a == idle_lane ? 0u : hard[a & 0xffffffu]) ^
                           (b == idle_lane ? 0u : hard[b & 0xffffffu]);
#pragma unroll
            for (unsigned s = 1; s < T::D / 2; s <<= 1)
                sum ^= __shfl_xor_sync(full_mask, sum, s);
            unsat += t % (T::D / 2) == 0 && sum != 0;
        }
    } else {
        const unsigned lanes = g.edge_chunks * 32;
        for (unsigned t = threadIdx.x; t < lanes; t += blockDim.x) {
            const uint32_t term = __ldg(g.edge_lane_terms + t);
            unsigned sum =
                term == idle_lane
                    ? 0u
                    : __ldg(g.gf_mul + (term >> 24) * Q + hard[term & 0xffffffu]);
#pragma unroll
            for (unsigned s = 1; s < lanes_per_check; s <<= 1)
                sum ^= __shfl_xor_sync(full_mask, sum, s);
            unsat += t % lanes_per_check == 0 && sum != 0;
        }
    }
    unsat = warp_sum(unsat);
    if ((threadIdx.x & 31) == 0 && unsat)
        atomicAdd(counter, unsat);
    __syncthreads();
    return *counter;
}

} // namespace

} // namespace gfq
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_GFQ_EDGE_THREADS_CUH */
