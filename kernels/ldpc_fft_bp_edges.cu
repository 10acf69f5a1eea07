/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// GF(q) FFT-BP, flooding, a thread per edge (fft_bp_variant::edge_threads).
//
// A lane holds the whole message of its edge, q <= 64 values, in registers.
// The Walsh-Hadamard transform is then register additions, without shuffles
// or changes of layout; the field permutation y -> h^-1 y, linear over GF(2),
// becomes the XOR of a few precomputed byte offsets folded into shared-memory
// addresses; and only the products over a check's other edges cross lanes: a
// check takes D = 4 or 8 adjacent lanes, log2 D shuffles a value. Compared
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

#include "ldpc_fft_bp_common.cuh"
#include <algorithm>
#include <cfloat>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuldpc {
namespace kernels {

namespace {

// Lanes that hold one message: 1 for q <= 64; GF(256) splits a message over
// lanes_256 lanes of 256 / lanes_256 values (y = sub * V + r: the lane's sub
// carries y's high bits, the register index r the low ones). H100, GF(256)
// with 64 symbols, 10 iterations, before the one-pass variable phase: 4 lanes
// of 64 values, 282 Mbit/s; 2 lanes of 128 (one shuffle stage a transform
// instead of two, but 255 registers and 8 warps an SM, latency-bound), 243.
constexpr unsigned lanes_256 = 4;
__host__ __device__ constexpr unsigned message_lanes(unsigned q)
{
    return q > 64 ? lanes_256 : 1;
}

// q <= 64: six warps a block and three blocks an SM, 96 registers a thread
// (warps are spread over the SM's four register files), which hold a message
// of 64 values and its addresses without spilling; the shared memory of a
// GF(64) frame of 96 symbols (74 KiB) also allows three. GF(256): a frame's
// 192 KiB allow one block an SM, so it takes up to 16 warps.
__host__ __device__ constexpr unsigned edge_max_threads(unsigned q)
{
    return message_lanes(q) == 1 ? 192 : 128 * message_lanes(q);
}
__host__ __device__ constexpr unsigned edge_min_blocks(unsigned q)
{
    return message_lanes(q) == 1 ? 3 : 1;
}
// bytes from value x to x + 1 of a column: 32 columns of floats side by side
constexpr unsigned column_stride = 128;
// bits of a column's byte offset in the layout's words
constexpr unsigned column_bits = 18;
constexpr uint32_t idle = 0xffffffffu;

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

// All checks, L lanes per edge: variable-to-check messages in,
// check-to-variable messages out, in the same column.
template <unsigned Q, unsigned D, typename M>
__device__ void edge_checks(const fft_bp_graph& g, const edge_frame& f)
{
    constexpr unsigned L = message_lanes(Q), V = Q / L;
    const unsigned lanes = g.edge_chunks * 32;
    for (unsigned t = threadIdx.x; t < lanes; t += blockDim.x) {
        const uint4 w = __ldg(reinterpret_cast<const uint4*>(g.edge_lanes) + t);
        const bool valid = w.x != idle;
        float a[V];
        if constexpr (L == 1) {
            // idle lanes skip the transforms (branches kept apart: merged,
            // the compiler spills)
            if (valid) {
                exponentiate(a, gather(f, w, a));
                message_fwht<V, 1>(a, 0);
            } else {
                // an idle edge's spectrum: that of the zero symbol, all ones
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
                // an idle edge: the distribution of the zero symbol
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
    static constexpr unsigned B = 8, H = V / B;
    unsigned lo[B], hi[H];
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

// All variables, L lanes each: beliefs (and, where \p decide, the hard
// decision), then each edge's variable-to-check message over its
// check-to-variable message. Lane sub of a variable holds its values x = sub *
// V + r, at r * 128 + 4 sub of its edges' columns.
template <unsigned Q>
__device__ void edge_variables(const fft_bp_graph& g, const edge_frame& f, bool decide)
{
    constexpr unsigned L = message_lanes(Q), V = Q / L;
    // whole warps, so that the lanes of a variable take the shuffles together
    const unsigned total = (g.n * L + 31) / 32 * 32;
    for (unsigned i = threadIdx.x; i < total; i += blockDim.x) {
        const unsigned v = i / L, sub = i % L;
        const bool active = v < g.n;
        float best = -FLT_MAX;
        unsigned arg = 0;
        // a variable of two edges in one pass: each value's belief from the
        // prior and both messages in registers, then both outgoing messages
        // (the same operations as below, without reading the messages twice;
        // H100, GF(256) with 64 symbols: 283 -> 320 Mbit/s, GF(16) 3898 ->
        // 4184; not for GF(64), where the registers of both paths spill at
        // 96 a thread: 1380 -> 1291)
        constexpr bool one_pass = Q != 64;
        const uint32_t col0 = one_pass && active && g.variable_steps >= 2
                                  ? __ldg(g.variable_columns + v)
                                  : idle;
        const uint32_t col1 =
            col0 != idle ? __ldg(g.variable_columns + size_t(g.n) + v) : idle;
        const bool two = one_pass && col1 != idle &&
                         (g.variable_steps == 2 ||
                          __ldg(g.variable_columns + size_t(2) * g.n + v) == idle);
        if (two) {
            const char* pr = f.prior + prior_offset<Q>(i);
            const variable_offsets<V, L> at0(col0, sub), at1(col1, sub);
#pragma unroll
            for (unsigned r = 0; r < V; ++r) {
                float& c0 = column_value(f.slots, at0[r]);
                float& c1 = column_value(f.slots, at1[r]);
                const float m0 = c0, m1 = c1;
                const float belief =
                    *reinterpret_cast<const float*>(pr + r * column_stride) + m0 + m1;
                if (decide && belief > best) {
                    best = belief;
                    arg = sub * V + r;
                }
                c0 = belief - m0;
                c1 = belief - m1;
            }
        }
        float sum[V];
        if (active && !two) {
            const char* pr = f.prior + prior_offset<Q>(i);
#pragma unroll
            for (unsigned r = 0; r < V; ++r)
                sum[r] = *reinterpret_cast<const float*>(pr + r * column_stride);
            for (unsigned k = 0; k < g.variable_steps; ++k) {
                const uint32_t col = __ldg(g.variable_columns + size_t(k) * g.n + v);
                if (col == idle)
                    break;
                const variable_offsets<V, L> at(col, sub);
#pragma unroll
                for (unsigned r = 0; r < V; ++r)
                    sum[r] += column_value(f.slots, at[r]);
            }
            if (decide)
#pragma unroll
                for (unsigned r = 0; r < V; ++r)
                    if (sum[r] > best) {
                        best = sum[r];
                        arg = sub * V + r;
                    }
        }
        if (decide) {
            arg = message_argmax<L>(best, arg);
            if (active && sub == 0)
                f.hard[v] = uint8_t(arg);
        }
        if (active && !two)
            for (unsigned k = 0; k < g.variable_steps; ++k) {
                const uint32_t col = __ldg(g.variable_columns + size_t(k) * g.n + v);
                if (col == idle)
                    break;
                const variable_offsets<V, L> at(col, sub);
#pragma unroll
                for (unsigned r = 0; r < V; ++r) {
                    float& c = column_value(f.slots, at[r]);
                    c = sum[r] - c;
                }
            }
    }
}

// Unsatisfied checks of the hard decision (call with the block in step).
template <unsigned Q, unsigned D>
__device__ unsigned
edge_syndrome(const fft_bp_graph& g, const uint8_t* hard, unsigned* counter)
{
    constexpr unsigned lanes_per_check = D * message_lanes(Q);
    __syncthreads();
    if (threadIdx.x == 0)
        *counter = 0;
    __syncthreads();
    unsigned unsat = 0;
    const unsigned lanes = g.edge_chunks * 32;
    for (unsigned t = threadIdx.x; t < lanes; t += blockDim.x) {
        const uint32_t term = __ldg(g.edge_lane_terms + t);
        unsigned sum = term == idle
                           ? 0u
                           : __ldg(g.gf_mul + (term >> 24) * Q + hard[term & 0xffffffu]);
#pragma unroll
        for (unsigned s = 1; s < lanes_per_check; s <<= 1)
            sum ^= __shfl_xor_sync(full_mask, sum, s);
        unsat += t % lanes_per_check == 0 && sum != 0;
    }
    unsat = warp_sum(unsat);
    if ((threadIdx.x & 31) == 0 && unsat)
        atomicAdd(counter, unsat);
    __syncthreads();
    return *counter;
}

template <unsigned Q, unsigned D, typename M>
__global__ void __launch_bounds__(edge_max_threads(Q), edge_min_blocks(Q))
    fft_bp_edges_kernel(const fft_bp_params p)
{
    static_assert(Q == 16 || Q == 32 || Q == 64 || Q == 256, "q: 16, 32, 64 or 256");
    static_assert(D == 4 || D == 8, "edges of a check: 4 or 8");
    constexpr unsigned L = message_lanes(Q), V = Q / L;
    static_assert(D * L <= 32, "a check within a warp");
    extern __shared__ __align__(16) float smem[];
    __shared__ unsigned s_invalid, s_unsat;
    constexpr unsigned m = log2_of(Q);
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
            char* out = f.prior + prior_offset<Q>(i);
#pragma unroll
            for (unsigned r = 0; r < V; ++r) {
                pr[r] -= mx;
                column_value(out, r * column_stride) = pr[r];
                if (pr[r] > best) {
                    best = pr[r];
                    arg = sub * V + r;
                }
            }
        }
        arg = message_argmax<L>(best, arg);
        if (active) {
            if (sub == 0)
                f.hard[v] = uint8_t(arg);
            for (unsigned k = 0; k < g.variable_steps; ++k) {
                const uint32_t col = __ldg(g.variable_columns + size_t(k) * g.n + v);
                if (col == idle)
                    break;
                const variable_offsets<V, L> at(col, sub);
#pragma unroll
                for (unsigned r = 0; r < V; ++r)
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
        unsat = edge_syndrome<Q, D>(g, f.hard, &s_unsat);

    unsigned iterations = 0;
    if (!(et && unsat == 0)) {
        for (unsigned it = 1; it <= p.max_iterations; ++it) {
            edge_checks<Q, D, M>(g, f);
            __syncthreads();
            const bool decide = et || it == p.max_iterations;
            edge_variables<Q>(g, f, decide);
            // the next iteration's checks (or the syndrome) read these
            __syncthreads();
            iterations = it;
            if (decide) {
                unsat = edge_syndrome<Q, D>(g, f.hard, &s_unsat);
                if (et && unsat == 0)
                    break;
            }
        }
    }

    write_frame_result<m>(p, frame, f.hard, unsat, iterations, s_invalid);
}

template <unsigned Q, unsigned D, typename M>
void launch_edges(const fft_bp_params& p, cudaStream_t stream, launch_mode mode)
{
    launch_per_frame(&fft_bp_edges_kernel<Q, D, M>,
                     p,
                     p.variant.threads,
                     stream,
                     mode,
                     "fft_bp_edges_kernel");
}

template <unsigned Q, typename M>
void launch_group(const fft_bp_params& p, cudaStream_t stream, launch_mode mode)
{
    if (p.graph.edge_group == 4)
        launch_edges<Q, 4, M>(p, stream, mode);
    else if constexpr (message_lanes(Q) == 1)
        launch_edges<Q, 8, M>(p, stream, mode);
    else
        throw std::invalid_argument("launch_fft_bp: edge group not from the layout");
}

template <typename M>
void launch_field(const fft_bp_params& p, cudaStream_t stream, launch_mode mode)
{
    switch (p.graph.q) {
    case 16:
        return launch_group<16, M>(p, stream, mode);
    case 32:
        return launch_group<32, M>(p, stream, mode);
    case 64:
        return launch_group<64, M>(p, stream, mode);
    default:
        return launch_group<256, M>(p, stream, mode);
    }
}

// Proper colouring with \p colours colours of the edges of a bipartite
// multigraph whose vertices have degree \p colours at most (left[e], right[e]:
// an edge's ends), by alternating paths (Koenig's theorem says that many
// suffice).
std::vector<unsigned> colour_edges(const std::vector<uint32_t>& left,
                                   const std::vector<uint32_t>& right,
                                   size_t n_left,
                                   size_t n_right,
                                   unsigned colours)
{
    constexpr int32_t none = -1;
    const size_t edges = left.size();
    std::vector<unsigned> colour(edges, colours);
    std::vector<int32_t> at_left(n_left * colours, none),
        at_right(n_right * colours, none);
    auto use = [&](size_t e, bool set) {
        at_left[left[e] * colours + colour[e]] = set ? int32_t(e) : none;
        at_right[right[e] * colours + colour[e]] = set ? int32_t(e) : none;
    };
    auto free_colour = [&](const std::vector<int32_t>& at, size_t vertex) {
        for (unsigned c = 0; c < colours; ++c)
            if (at[vertex * colours + c] == none)
                return c;
        throw std::logic_error("fft_bp_make_edge_layout: a vertex of too high degree");
    };
    std::vector<size_t> path;
    for (size_t e = 0; e < edges; ++e) {
        const unsigned a = free_colour(at_left, left[e]);
        const unsigned b = free_colour(at_right, right[e]);
        if (at_right[right[e] * colours + a] != none) {
            // the path from right[e] along colours a, b, a, ... never reaches
            // left[e] (where a is free); swapping a and b on it frees a there
            path.clear();
            bool on_right = true;
            size_t vertex = right[e];
            unsigned c = a;
            for (;;) {
                const int32_t f = (on_right ? at_right : at_left)[vertex * colours + c];
                if (f == none)
                    break;
                path.push_back(size_t(f));
                vertex = on_right ? left[f] : right[f];
                on_right = !on_right;
                c = c == a ? b : a;
            }
            for (size_t f : path)
                use(f, false);
            for (size_t f : path) {
                colour[f] = colour[f] == a ? b : a;
                use(f, true);
            }
        }
        colour[e] = a;
        use(e, true);
    }
    // a proper colouring: no colour twice at a vertex
    std::vector<uint8_t> seen_left(n_left * colours), seen_right(n_right * colours);
    for (size_t e = 0; e < edges; ++e) {
        if (colour[e] >= colours || seen_left[left[e] * colours + colour[e]]++ ||
            seen_right[right[e] * colours + colour[e]]++)
            throw std::logic_error("fft_bp_make_edge_layout: edge colouring failed");
    }
    return colour;
}

} // namespace

fft_bp_edge_layout fft_bp_make_edge_layout(unsigned n,
                                           unsigned checks,
                                           unsigned q,
                                           const std::vector<uint32_t>& check_offsets,
                                           const std::vector<uint32_t>& edge_variable,
                                           const std::vector<uint8_t>& edge_coefficient,
                                           const std::vector<uint32_t>& variable_offsets,
                                           const std::vector<uint32_t>& variable_edges,
                                           const std::vector<uint8_t>& gf_mul)
{
    fft_bp_edge_layout out;
    unsigned max_check_degree = 0, steps = 0;
    for (unsigned c = 0; c < checks; ++c)
        max_check_degree =
            std::max(max_check_degree, check_offsets[c + 1] - check_offsets[c]);
    for (unsigned v = 0; v < n; ++v)
        steps = std::max(steps, variable_offsets[v + 1] - variable_offsets[v]);
    const unsigned L = message_lanes(q), V = q / L;
    // checks of up to 8 edges a lane each, or (GF(256)) 4 edges of 4 lanes
    if ((q != 16 && q != 32 && q != 64 && q != 256) || max_check_degree == 0 ||
        max_check_degree > (L == 1 ? 8 : 4) || n >= (1u << 24) || steps == 0)
        return out;
    const unsigned group = max_check_degree <= 4 ? 4 : 8;
    // checks and edges a warp; (v / per_warp, k): a variable warp's k-th edges
    const unsigned per_chunk = 32 / (group * L), per_warp = 32 / L, colours = 32 / L;
    const unsigned chunks = (checks + per_chunk - 1) / per_chunk;
    const size_t edges = edge_variable.size();

    // an edge's check warp, and its (variable warp, position at its variable)
    std::vector<uint32_t> left(edges), right(edges);
    for (unsigned c = 0; c < checks; ++c)
        for (uint32_t e = check_offsets[c]; e < check_offsets[c + 1]; ++e)
            left[e] = c / per_chunk;
    for (unsigned v = 0; v < n; ++v)
        for (uint32_t i = variable_offsets[v]; i < variable_offsets[v + 1]; ++i)
            right[variable_edges[i]] = (v / per_warp) * steps + (i - variable_offsets[v]);
    const std::vector<unsigned> colour = colour_edges(
        left, right, chunks, size_t((n + per_warp - 1) / per_warp) * steps, colours);
    // an edge's column: L banks of V values
    auto column = [&](uint32_t e) {
        return uint32_t(left[e] * V * column_stride + colour[e] * L * 4);
    };
    if (size_t(chunks) * V * column_stride >= (size_t(1) << column_bits))
        return out; // beyond any GPU's shared memory

    std::vector<uint8_t> inverse(q, 0);
    for (unsigned a = 1; a < q; ++a)
        for (unsigned b = 1; b < q; ++b)
            if (gf_mul[size_t(a) * q + b] == 1)
                inverse[a] = uint8_t(b);
    // For L > 1, variable-domain value x of an edge lies in bank
    // bank(x) = x / V ^ mix(x % V) of its column (mix: linear, two bits for
    // each of the six low bits), at row x % V: a variable's lanes (x / V =
    // sub) then take distinct banks, and the mix is chosen so that the
    // check's lanes (y / V = sub, x = h^-1 y) do too: y -> bank(h^-1 y)
    // must map the lanes' high bits of y one to one (a 2 x 2 matrix over
    // GF(2) of full rank; some mix always gives one).
    std::vector<uint32_t> mix(edges, 0);
    auto bank = [&](unsigned x, uint32_t m) {
        unsigned b = x / V;
        for (unsigned i = 0; i < log2_of(V); ++i)
            if ((x >> i) & 1)
                b ^= (m >> (log2_of(L) * i)) & (L - 1);
        return b;
    };
    if (L > 1)
        for (size_t e = 0; e < edges; ++e) {
            const uint8_t* to_variable =
                &gf_mul[size_t(inverse[edge_coefficient[e]]) * q];
            uint32_t m = 0;
            const uint32_t mixes = 1u << (log2_of(L) * log2_of(V));
            for (; m < mixes; ++m) {
                unsigned seen = 0;
                for (unsigned sub = 0; sub < L; ++sub)
                    seen |= 1u << bank(to_variable[sub * V], m);
                if (seen == (1u << L) - 1)
                    break;
            }
            if (m == mixes)
                throw std::logic_error(
                    "fft_bp_make_edge_layout: no bank mix for an edge");
            mix[e] = m;
        }
    // byte offset of variable-domain value x in edge e's column: linear over
    // GF(2)
    auto value_offset = [&](unsigned x, uint32_t e) {
        return uint32_t((x % V) * column_stride + bank(x, mix[e]) * 4);
    };
    out.lanes.assign(size_t(chunks) * 32 * 4, 0);
    out.lane_terms.assign(size_t(chunks) * 32, idle);
    for (size_t t = 0; t < size_t(chunks) * 32; ++t) {
        const unsigned c = unsigned(t / (group * L)), slot = unsigned(t / L % group),
                       sub = unsigned(t % L);
        uint32_t* word = &out.lanes[4 * t];
        word[0] = idle;
        if (c >= checks || check_offsets[c] + slot >= check_offsets[c + 1])
            continue;
        const uint32_t e = check_offsets[c] + slot;
        const unsigned h = edge_coefficient[e];
        const uint8_t* to_variable = &gf_mul[size_t(inverse[h]) * q];
        // the lane's values y = sub * V + r: the image of sub * V folded into
        // the column's offset, those of r's bits packed two a word
        word[0] = column(e) ^ value_offset(to_variable[sub * V], e);
        for (unsigned b = 0; b < log2_of(V); ++b) {
            const uint32_t image = value_offset(to_variable[1u << b], e);
            if (b < 6)
                word[1 + b / 2] |= image << (16 * (b % 2));
            else // V = 128: the seventh above the column's offset, in words
                word[0] |= image >> 2 << column_bits;
        }
        if (sub == 0)
            out.lane_terms[t] = edge_variable[e] | uint32_t(h) << 24;
    }
    out.variable_columns.assign(size_t(steps) * n, idle);
    for (unsigned v = 0; v < n; ++v)
        for (uint32_t i = variable_offsets[v]; i < variable_offsets[v + 1]; ++i)
            out.variable_columns[size_t(i - variable_offsets[v]) * n + v] =
                column(variable_edges[i]) | mix[variable_edges[i]] << column_bits;
    out.chunks = chunks;
    out.group = group;
    out.steps = steps;
    out.lanes_per_message = L;
    return out;
}

size_t fft_bp_edge_shared_bytes(const fft_bp_graph& g)
{
    const unsigned L = message_lanes(g.q), V = g.q / L;
    return (size_t(g.edge_chunks) + (size_t(g.n) * L + 31) / 32) * V * column_stride +
           (size_t(g.n) + 15) / 16 * 16;
}

void launch_fft_bp_edges(const fft_bp_params& p, cudaStream_t stream, launch_mode mode)
{
    const fft_bp_graph& g = p.graph;
    if (!g.edge_lanes || !g.edge_lane_terms || !g.variable_columns ||
        g.edge_chunks == 0 || (g.edge_group != 4 && g.edge_group != 8) ||
        (g.q != 16 && g.q != 32 && g.q != 64 && g.q != 256))
        throw std::invalid_argument("launch_fft_bp: the edge-thread family needs the "
                                    "graph's fft_bp_edge_layout");
    if (p.layered || !p.variant.on_chip || p.variant.threads != fft_bp_edge_threads(g))
        throw std::invalid_argument("launch_fft_bp: variant not from fft_bp_choose");
    if (p.half_messages)
        launch_field<__half>(p, stream, mode);
    else
        launch_field<float>(p, stream, mode);
}

unsigned fft_bp_edge_threads(const fft_bp_graph& g)
{
    const unsigned L = message_lanes(g.q);
    const unsigned warps = std::max(g.edge_chunks, (g.n * L + 31) / 32);
    return std::min(edge_max_threads(g.q), 32 * warps);
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
