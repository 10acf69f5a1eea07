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
// floored at -30, products excluding an edge as prefix times suffix.

#include "cuda_check.h"
#include "ldpc_fft_bp.h"
#include <algorithm>
#include <cfloat>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuldpc {
namespace kernels {

namespace {

constexpr float log_floor = 30.0f;   // log_prob_domain::log_floor
constexpr float input_limit = 64.0f; // batch_decoder::max_input_magnitude
constexpr unsigned block_threads = 256;
constexpr unsigned full_mask = 0xffffffffu;

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

__device__ __forceinline__ unsigned warp_sum(unsigned v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(full_mask, v, o);
    return v;
}

// The largest value and its index; the smallest index among equal values,
// as std::max_element in the CPU reference.
__device__ __forceinline__ void warp_argmax(float& v, unsigned& i)
{
    for (int o = 16; o > 0; o >>= 1) {
        const float ov = __shfl_xor_sync(full_mask, v, o);
        const unsigned oi = __shfl_xor_sync(full_mask, i, o);
        if (ov > v || (ov == v && oi < i)) {
            v = ov;
            i = oi;
        }
    }
}

// NaN and +-Inf become 0 (an erasure); finite values are clipped.
__device__ __forceinline__ float sanitize(float x, unsigned& invalid)
{
    if (!isfinite(x)) {
        ++invalid;
        return 0.0f;
    }
    return fminf(fmaxf(x, -input_limit), input_limit);
}

__host__ __device__ constexpr unsigned log2_of(unsigned q)
{
    return q <= 1 ? 0 : 1 + log2_of(q >> 1);
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

struct frame_state {
    const float* prior;
    float* app;
    float* c2v;
    uint8_t* hard;
    float* spectra; // max_check_degree * q: transforms of one check's messages
    float* work;    // max_check_degree * q: products, then their transforms
    float* vin;     // max_check_degree * q: the check's variable-to-check messages
};

// In-place Walsh-Hadamard transforms of `rows` rows of q floats (q = 2^log2q),
// the butterflies of the CPU's fwht_inplace, by a group.
template <unsigned Q, bool Warp>
__device__ void fwht_rows(float* rows, unsigned n_rows)
{
    constexpr unsigned q = Q, log2q = log2_of(Q);
    using G = group<Warp>;
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

// One check node update by a group (block or warp): variable-to-check
// messages from the beliefs and the old check-to-variable messages, then new
// check-to-variable messages; with `layered`, the beliefs of its variables at
// once. \p s holds the group's own scratch rows.
template <unsigned Q, bool Warp>
__device__ void
check_update(const fft_bp_params& p, const frame_state& s, unsigned c, bool layered)
{
    using G = group<Warp>;
    const fft_bp_graph& g = p.graph;
    constexpr unsigned q = Q, log2q = log2_of(Q);
    constexpr unsigned per_lane = (Q + 31) / 32; // values of a row per lane
    const unsigned lane = threadIdx.x & 31;
    const unsigned e0 = g.check_offsets[c];
    const unsigned deg = g.check_offsets[c + 1] - e0;

    for (unsigned i = G::first_edge(); i < deg; i += G::edge_step()) {
        const unsigned v = g.edge_variable[e0 + i];
        const uint8_t* mul = g.gf_mul + unsigned(g.edge_coefficient[e0 + i]) * q;
        const float* app = s.app + size_t(v) * q;
        const float* old = s.c2v + size_t(e0 + i) * q;
        float* in = s.vin + size_t(i) * q;
        float* u = s.spectra + size_t(i) * q;
        float mx = -FLT_MAX;
        for (unsigned x = lane; x < q; x += 32) {
            const float val = app[x] - old[x];
            in[x] = val;
            mx = fmaxf(mx, val);
        }
        mx = warp_max(mx);
        float sum = 0.0f;
        for (unsigned x = lane; x < q; x += 32) {
            const float val = in[x] - mx;
            in[x] = val;
            const float e = expf(val);
            u[mul[x]] = e; // U[h x] = P(x)
            sum += e;
        }
        sum = warp_sum(sum);
        __syncwarp();
        const float norm = 1.0f / sum;
        for (unsigned x = lane; x < q; x += 32)
            u[x] *= norm;
    }
    G::sync();
    fwht_rows<Q, Warp>(s.spectra, deg);

    // spectrum of the sum of all other edges: prefix times suffix products
    for (unsigned t = G::rank(); t < deg * q; t += G::size()) {
        const unsigned i = t >> log2q, x = t & (q - 1);
        float prefix = 1.0f;
        for (unsigned j = 0; j < i; ++j)
            prefix *= s.spectra[size_t(j) * q + x];
        float suffix = 1.0f;
        for (unsigned j = deg; j-- > i + 1;)
            suffix = suffix * s.spectra[size_t(j) * q + x];
        s.work[t] = prefix * suffix;
    }
    G::sync();
    fwht_rows<Q, Warp>(s.work, deg);

    for (unsigned i = G::first_edge(); i < deg; i += G::edge_step()) {
        const unsigned v = g.edge_variable[e0 + i];
        const uint8_t* mul = g.gf_mul + unsigned(g.edge_coefficient[e0 + i]) * q;
        const float* w = s.work + size_t(i) * q;
        float mx = -FLT_MAX;
        for (unsigned x = lane; x < q; x += 32)
            mx = fmaxf(mx, w[x]);
        mx = warp_max(mx);
        // rounding can leave tiny negative probabilities: floored
        const float floor = mx * expf(-log_floor);
        float o[per_lane];
        float omax = -FLT_MAX;
#pragma unroll
        for (unsigned r = 0; r < per_lane; ++r) {
            const unsigned x = lane + 32 * r;
            if (q < 32 && x >= q)
                break;
            o[r] = logf(fmaxf(w[mul[x]], floor));
            omax = fmaxf(omax, o[r]);
        }
        omax = warp_max(omax);
        float* out = s.c2v + size_t(e0 + i) * q;
        const float* in = s.vin + size_t(i) * q;
        float amax = -FLT_MAX;
#pragma unroll
        for (unsigned r = 0; r < per_lane; ++r) {
            const unsigned x = lane + 32 * r;
            if (q < 32 && x >= q)
                break;
            o[r] = fmaxf(o[r] - omax, -log_floor);
            out[x] = o[r];
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

// Hard decision of every variable from its belief, by warps.
template <unsigned Q>
__device__ void decide(const fft_bp_params& p, const frame_state& s)
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
        warp_argmax(best, arg);
        if (lane == 0)
            s.hard[v] = uint8_t(arg);
    }
}

// Flooding's variable phase: beliefs = prior + all incoming messages, then
// the hard decision.
template <unsigned Q>
__device__ void variable_update(const fft_bp_params& p, const frame_state& s)
{
    const fft_bp_graph& g = p.graph;
    constexpr unsigned q = Q;
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (unsigned v = warp; v < g.n; v += blockDim.x >> 5) {
        const uint32_t i0 = g.variable_offsets[v], i1 = g.variable_offsets[v + 1];
        float* a = s.app + size_t(v) * q;
        const float* pr = s.prior + size_t(v) * q;
        float best = -FLT_MAX;
        unsigned arg = 0;
        for (unsigned x = lane; x < q; x += 32) {
            float sum = pr[x];
            for (uint32_t i = i0; i < i1; ++i)
                sum += s.c2v[size_t(g.variable_edges[i]) * q + x];
            a[x] = sum;
            if (sum > best) {
                best = sum;
                arg = x;
            }
        }
        warp_argmax(best, arg);
        if (lane == 0)
            s.hard[v] = uint8_t(arg);
    }
}

// Unsatisfied checks of the hard decision (call with the block in step).
__device__ unsigned
syndrome_weight(const fft_bp_params& p, const frame_state& s, unsigned* counter)
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
            sum ^= g.gf_mul[unsigned(g.edge_coefficient[e]) * g.q +
                            s.hard[g.edge_variable[e]]];
        unsat += sum != 0;
    }
    if (unsat)
        atomicAdd(counter, unsat);
    __syncthreads();
    return *counter;
}

template <unsigned Q>
__global__ void __launch_bounds__(block_threads) fft_bp_kernel(const fft_bp_params p)
{
    extern __shared__ float smem[];
    __shared__ unsigned s_invalid, s_unsat;
    const fft_bp_graph& g = p.graph;
    static_assert(Q >= 2 && Q <= 256 && (Q & (Q - 1)) == 0, "q: a power of two, 2..256");
    constexpr unsigned q = Q, m = log2_of(Q);
    const size_t frame = blockIdx.x;
    const size_t nq = size_t(g.n) * q;
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned n_warps = blockDim.x >> 5;

    // scratch rows: one set per check-updating warp; warp 0's set serves the
    // whole block in the layered schedule
    const size_t rows = size_t(g.max_check_degree) * q;
    frame_state s;
    s.spectra = smem;
    s.work = s.spectra + rows;
    s.vin = s.work + rows;
    float* scratch_end = smem + 3 * rows * p.variant.check_warps;
    if (p.variant.on_chip) {
        s.app = scratch_end;
        s.c2v = s.app + nq;
    } else {
        s.app = p.app + frame * nq;
        s.c2v = p.c2v + frame * g.edges * q;
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
        float* pr = prior + size_t(v) * q;
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
            const float* ll = p.input + frame * nq + size_t(v) * q;
            for (unsigned x = lane; x < q; x += 32) {
                const float val = sanitize(ll[x], invalid);
                pr[x] = val;
                mx = fmaxf(mx, val);
            }
        }
        mx = warp_max(mx);
        for (unsigned x = lane; x < q; x += 32)
            pr[x] -= mx;
        invalid = warp_sum(invalid);
        if (lane == 0 && invalid)
            atomicAdd(&s_invalid, invalid);
    }
    __syncthreads();
    for (size_t t = threadIdx.x; t < nq; t += blockDim.x)
        s.app[t] = prior[t];
    for (size_t t = threadIdx.x; t < g.edges * q; t += blockDim.x)
        s.c2v[t] = 0.0f;
    __syncthreads();
    decide<Q>(p, s);
    unsigned unsat = syndrome_weight(p, s, &s_unsat);

    unsigned iterations = 0;
    if (!(p.early_termination && unsat == 0)) {
        frame_state mine = s; // this warp's scratch rows (flooding)
        mine.spectra = smem + 3 * rows * warp;
        mine.work = mine.spectra + rows;
        mine.vin = mine.work + rows;
        for (unsigned it = 1; it <= p.max_iterations; ++it) {
            if (p.layered && p.variant.check_warps > 1) {
                // runs of consecutive checks without a shared variable: their
                // updates commute, so warps take them at once and the result is
                // that of the checks in order
                for (unsigned r = 0; r < g.runs; ++r) {
                    if (warp < p.variant.check_warps)
                        for (unsigned c = g.run_offsets[r] + warp;
                             c < g.run_offsets[r + 1];
                             c += p.variant.check_warps)
                            check_update<Q, true>(p, mine, c, true);
                    __syncthreads();
                }
                decide<Q>(p, s);
            } else if (p.layered) {
                for (unsigned c = 0; c < g.checks; ++c)
                    check_update<Q, false>(p, s, c, true);
                decide<Q>(p, s);
            } else {
                // checks are independent within a flooding iteration
                if (warp < p.variant.check_warps)
                    for (unsigned c = warp; c < g.checks; c += p.variant.check_warps)
                        check_update<Q, true>(p, mine, c, false);
                __syncthreads();
                variable_update<Q>(p, s);
            }
            iterations = it;
            unsat = syndrome_weight(p, s, &s_unsat);
            if (p.early_termination && unsat == 0)
                break;
        }
    }

    const unsigned k = g.k;
    uint8_t* info = p.info_bits + frame * size_t(k) * m;
    for (unsigned t = threadIdx.x; t < k * m; t += blockDim.x) {
        const unsigned i = t / m, b = t - i * m;
        info[t] = (s.hard[g.info_positions[i]] >> (m - 1 - b)) & 1;
    }
    if (p.codeword_bits) {
        uint8_t* cw = p.codeword_bits + frame * size_t(g.n) * m;
        for (unsigned t = threadIdx.x; t < g.n * m; t += blockDim.x) {
            const unsigned v = t / m, b = t - v * m;
            cw[t] = (s.hard[v] >> (m - 1 - b)) & 1;
        }
    }
    if (threadIdx.x == 0) {
        fft_bp_status st;
        st.converged = unsat == 0;
        st.iterations = iterations;
        st.syndrome_weight = unsat;
        st.invalid_inputs = s_invalid;
        p.status[frame] = st;
    }
}

template <unsigned Q>
void launch(const fft_bp_params& p, cudaStream_t stream)
{
    const auto kernel = &fft_bp_kernel<Q>;
    if (p.variant.shared_bytes > 48 * 1024) {
        // dynamic shared memory up to the device's opt-in limit less the
        // kernel's static counters (the attribute is the function's, so always
        // the same value, whatever the launch)
        int device = 0, optin = 0;
        cudaFuncAttributes attr;
        GPULDPC_CUDA_CHECK(cudaGetDevice(&device));
        GPULDPC_CUDA_CHECK(cudaDeviceGetAttribute(
            &optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
        GPULDPC_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
        GPULDPC_CUDA_CHECK(
            cudaFuncSetAttribute(kernel,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 optin - int(attr.sharedSizeBytes)));
    }
    kernel<<<unsigned(p.n_frames), block_threads, p.variant.shared_bytes, stream>>>(p);
    GPULDPC_CUDA_CHECK_LAUNCH("fft_bp_kernel");
}

size_t scratch_bytes(const fft_bp_graph& g)
{
    return 3 * size_t(g.max_check_degree) * g.q * sizeof(float);
}

// static __shared__ counters and what the runtime reserves beside them
constexpr size_t static_shared_bytes = 64;

} // namespace

fft_bp_variant fft_bp_choose(const fft_bp_graph& g, size_t shared_limit, bool layered)
{
    const size_t per_warp = scratch_bytes(g);
    const size_t messages = (size_t(g.n) + g.edges) * size_t(g.q) * sizeof(float);
    const size_t usable =
        shared_limit > static_shared_bytes ? shared_limit - static_shared_bytes : 0;
    const unsigned max_warps = block_threads / 32;
    if (per_warp > usable)
        throw std::invalid_argument(
            "the code's largest check (degree " + std::to_string(g.max_check_degree) +
            " over GF(" + std::to_string(g.q) + ")) needs " + std::to_string(per_warp) +
            " bytes of shared memory per block; this GPU allows " +
            std::to_string(shared_limit));
    if (layered && !g.run_offsets) // one check at a time by the whole block
        return messages + per_warp <= usable
                   ? fft_bp_variant{ true, messages + per_warp, block_threads, 1 }
                   : fft_bp_variant{ false, per_warp, block_threads, 1 };
    // as many warps on checks as fit (layered: on the checks of a run); on
    // chip only if the messages
    // leave room for half of them (else the global variant with all is faster)
    const unsigned all = unsigned(std::min<size_t>(max_warps, usable / per_warp));
    if (messages < usable) {
        const unsigned w =
            unsigned(std::min<size_t>(max_warps, (usable - messages) / per_warp));
        if (w >= std::max(1u, all / 2))
            return { true, messages + w * per_warp, block_threads, w };
    }
    return { false, all * per_warp, block_threads, all };
}

void launch_fft_bp(const fft_bp_params& p, cudaStream_t stream)
{
    const fft_bp_graph& g = p.graph;
    if (g.q < 2 || g.q > 256 || (g.q & (g.q - 1)) != 0 ||
        (1u << g.bits_per_symbol) != g.q)
        throw std::invalid_argument("launch_fft_bp: q must be a power of two, 2 .. 256");
    if (g.max_check_degree == 0 || p.max_iterations == 0)
        throw std::invalid_argument("launch_fft_bp: empty checks or no iterations");
    if (p.variant.threads != block_threads || p.variant.check_warps < 1 ||
        p.variant.check_warps > block_threads / 32)
        throw std::invalid_argument("launch_fft_bp: variant not from fft_bp_choose");
    if (!p.variant.on_chip && (!p.app || !p.c2v))
        throw std::invalid_argument(
            "launch_fft_bp: the global variant needs app and c2v");
    if (p.n_frames == 0)
        return;
    if (p.n_frames > 0x7fffffffu)
        throw std::invalid_argument("launch_fft_bp: too many frames for one launch");
    switch (g.q) { // the one place where q becomes a compile-time constant
    case 2:
        return launch<2>(p, stream);
    case 4:
        return launch<4>(p, stream);
    case 8:
        return launch<8>(p, stream);
    case 16:
        return launch<16>(p, stream);
    case 32:
        return launch<32>(p, stream);
    case 64:
        return launch<64>(p, stream);
    case 128:
        return launch<128>(p, stream);
    default:
        return launch<256>(p, stream);
    }
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
