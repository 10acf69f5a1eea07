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

// Six warps a block and three blocks an SM: 112 registers a thread, which
// holds a message of 64 values and its addresses without spilling; the
// shared memory of a GF(64) frame of 96 symbols (74 KiB) also allows three.
constexpr unsigned edge_block_threads = 192;
constexpr unsigned edge_min_blocks = 3;
// bytes from value x to x + 1 of a column: 32 columns of floats side by side
constexpr unsigned column_stride = 128;
constexpr uint32_t idle = 0xffffffffu;

__host__ __device__ constexpr unsigned lowest_bit(unsigned i)
{
    return (i & 1) ? 0 : 1 + lowest_bit(i >> 1);
}

__device__ __forceinline__ float& column_value(char* base, unsigned byte_offset)
{
    return *reinterpret_cast<float*>(base + byte_offset);
}

// In-place Walsh-Hadamard transform of a lane's Q values, stride 1 first (the
// CPU's fwht_inplace order).
template <unsigned Q>
__device__ __forceinline__ void register_fwht(float (&a)[Q])
{
#pragma unroll
    for (unsigned s = 1; s < Q; s <<= 1)
#pragma unroll
        for (unsigned y = 0; y < Q; ++y)
            if (!(y & s)) {
                const float u = a[y], w = a[y + s];
                a[y] = u + w;
                a[y + s] = u - w;
            }
}

// Shared-memory state of a frame.
struct edge_frame {
    char* slots;   // a column per edge (fft_bp_edge_layout)
    char* prior;   // columns of 32 variables: value x of v at x * 128 + 4 (v % 32)
    uint8_t* hard; // n
};

// Byte offsets of a lane's values in the slots: value y at hi[y / L] ^ lo[y %
// L], the images of its high and low bits under y -> h^-1 y (the column's own
// offset folded into hi: its bits are disjoint from theirs).
template <unsigned Q>
struct value_offsets {
    static constexpr unsigned m = log2_of(Q);
    static constexpr unsigned low_bits = m < 3 ? m : 3, L = 1u << low_bits, H = Q / L;
    unsigned lo[L], hi[H];
    __device__ __forceinline__ explicit value_offsets(const uint4& w)
    {
        const uint32_t words[3] = { w.y, w.z, w.w };
        unsigned image[m];
#pragma unroll
        for (unsigned b = 0; b < m; ++b)
            image[b] = (words[b / 2] >> (16 * (b % 2))) & 0xffffu;
        lo[0] = 0;
#pragma unroll
        for (unsigned i = 1; i < L; ++i)
            lo[i] = lo[i & (i - 1)] ^ image[lowest_bit(i)];
        hi[0] = w.x;
#pragma unroll
        for (unsigned j = 1; j < H; ++j)
            hi[j] = hi[j & (j - 1)] ^ image[low_bits + lowest_bit(j)];
    }
    __device__ __forceinline__ unsigned operator[](unsigned y) const
    {
        return hi[y / L] ^ lo[y % L];
    }
};

// All checks, a lane per edge: variable-to-check messages in, check-to-variable
// messages out, in the same column.
template <unsigned Q, unsigned D, typename M>
__device__ void edge_checks(const fft_bp_graph& g, const edge_frame& f)
{
    const unsigned lanes = g.edge_chunks * 32;
    for (unsigned t = threadIdx.x; t < lanes; t += blockDim.x) {
        const uint4 w = __ldg(reinterpret_cast<const uint4*>(g.edge_lanes) + t);
        const bool valid = w.x != idle;
        float a[Q];
        if (valid) {
            // the offsets are computed again for the stores: cheaper than
            // keeping them in registers through the transforms
            const value_offsets<Q> at(w);
            float mx = -FLT_MAX;
#pragma unroll
            for (unsigned y = 0; y < Q; ++y) {
                a[y] = column_value(f.slots, at[y]);
                mx = fmaxf(mx, a[y]);
            }
            const float shift = mx * log2e;
#pragma unroll
            for (unsigned y = 0; y < Q; ++y)
                a[y] = exp2_ftz(fmaf(a[y], log2e, -shift));
            register_fwht<Q>(a);
        } else {
            // an idle lane enters as the distribution of the zero symbol,
            // whose spectrum is all ones
#pragma unroll
            for (unsigned y = 0; y < Q; ++y)
                a[y] = 1.0f;
        }
        // spectra of the products over the check's other edges: at step s a
        // lane has the product of its aligned group of s lanes (acc) and
        // gathers the partner group's
#pragma unroll
        for (unsigned y = 0; y < Q; ++y) {
            float acc = a[y], others = 1.0f;
#pragma unroll
            for (unsigned s = 1; s < D; s <<= 1) {
                const float partner = __shfl_xor_sync(full_mask, acc, s);
                others = s == 1 ? partner : others * partner;
                if (2 * s < D)
                    acc *= partner;
            }
            a[y] = others;
        }
        if (valid) {
            register_fwht<Q>(a);
            float wmax = -FLT_MAX;
#pragma unroll
            for (unsigned y = 0; y < Q; ++y)
                wmax = fmaxf(wmax, a[y]);
            // values below wmax e^-30, zero or negative (rounding) give -30
            const float log_max = log2_ftz(wmax) * ln2;
            const value_offsets<Q> at(w);
#pragma unroll
            for (unsigned y = 0; y < Q; ++y) {
                float out = fmaxf(log2_ftz(a[y]) * ln2 - log_max, -log_floor);
                if constexpr (half_storage<M>)
                    out = __half2float(__float2half_rn(out));
                column_value(f.slots, at[y]) = out;
            }
        }
    }
}

// All variables, a thread each: beliefs (and, where \p decide, the hard
// decision), then each edge's variable-to-check message over its
// check-to-variable message.
template <unsigned Q>
__device__ void edge_variables(const fft_bp_graph& g, const edge_frame& f, bool decide)
{
    for (unsigned v = threadIdx.x; v < g.n; v += blockDim.x) {
        const char* pr = f.prior + (v >> 5) * (Q * column_stride) + (v & 31) * 4;
        float sum[Q];
#pragma unroll
        for (unsigned x = 0; x < Q; ++x)
            sum[x] = *reinterpret_cast<const float*>(pr + x * column_stride);
        for (unsigned k = 0; k < g.variable_steps; ++k) {
            const uint32_t col = __ldg(g.variable_columns + size_t(k) * g.n + v);
            if (col == idle)
                break;
#pragma unroll
            for (unsigned x = 0; x < Q; ++x)
                sum[x] += column_value(f.slots, col + x * column_stride);
        }
        if (decide) {
            float best = sum[0];
            unsigned arg = 0;
#pragma unroll
            for (unsigned x = 1; x < Q; ++x)
                if (sum[x] > best) {
                    best = sum[x];
                    arg = x;
                }
            f.hard[v] = uint8_t(arg);
        }
        for (unsigned k = 0; k < g.variable_steps; ++k) {
            const uint32_t col = __ldg(g.variable_columns + size_t(k) * g.n + v);
            if (col == idle)
                break;
#pragma unroll
            for (unsigned x = 0; x < Q; ++x) {
                float& c = column_value(f.slots, col + x * column_stride);
                c = sum[x] - c;
            }
        }
    }
}

// Unsatisfied checks of the hard decision (call with the block in step).
template <unsigned Q, unsigned D>
__device__ unsigned
edge_syndrome(const fft_bp_graph& g, const uint8_t* hard, unsigned* counter)
{
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
        for (unsigned s = 1; s < D; s <<= 1)
            sum ^= __shfl_xor_sync(full_mask, sum, s);
        unsat += (t & (D - 1)) == 0 && sum != 0;
    }
    unsat = warp_sum(unsat);
    if ((threadIdx.x & 31) == 0 && unsat)
        atomicAdd(counter, unsat);
    __syncthreads();
    return *counter;
}

template <unsigned Q, unsigned D, typename M>
__global__ void __launch_bounds__(edge_block_threads, edge_min_blocks)
    fft_bp_edges_kernel(const fft_bp_params p)
{
    static_assert(Q >= 16 && Q <= 64 && (Q & (Q - 1)) == 0, "q: 16, 32 or 64");
    static_assert(D == 4 || D == 8, "lanes of a check: 4 or 8");
    extern __shared__ __align__(16) float smem[];
    __shared__ unsigned s_invalid, s_unsat;
    constexpr unsigned m = log2_of(Q);
    const fft_bp_graph& g = p.graph;
    const size_t frame = blockIdx.x;
    edge_frame f;
    f.slots = reinterpret_cast<char*>(smem);
    f.prior = f.slots + size_t(g.edge_chunks) * Q * column_stride;
    f.hard =
        reinterpret_cast<uint8_t*>(f.prior + size_t((g.n + 31) / 32) * Q * column_stride);
    if (threadIdx.x == 0)
        s_invalid = 0;
    __syncthreads();
    const bool et = p.early_termination;

    // priors: log P(x) of each symbol from its bit LLRs (MSB first) or its
    // symbol log-likelihoods, normalised to a maximum of 0; every edge's
    // variable-to-check message starts as its variable's prior
    for (unsigned v = threadIdx.x; v < g.n; v += blockDim.x) {
        float pr[Q];
        unsigned invalid = 0;
        float mx = -FLT_MAX;
        if (!p.symbol_input) {
            const float* llr = p.input + (frame * g.n + v) * m;
            float lp0[m], lp1[m];
#pragma unroll
            for (unsigned b = 0; b < m; ++b) {
                const float l = sanitize(llr[b], invalid) * p.to_log_p0_p1;
                // log P(bit = 0) and log P(bit = 1), stable for large |l|
                lp0[b] = -log1pf(expf(-fabsf(l))) + (l < 0.0f ? l : 0.0f);
                lp1[b] = lp0[b] - l;
            }
#pragma unroll
            for (unsigned x = 0; x < Q; ++x) {
                float s = 0.0f;
#pragma unroll
                for (unsigned b = 0; b < m; ++b)
                    s += ((x >> (m - 1 - b)) & 1) ? lp1[b] : lp0[b];
                pr[x] = s;
                mx = fmaxf(mx, s);
            }
        } else {
            const float* ll = p.input + (frame * g.n + v) * Q;
#pragma unroll
            for (unsigned x = 0; x < Q; ++x) {
                pr[x] = sanitize(ll[x], invalid);
                mx = fmaxf(mx, pr[x]);
            }
        }
        char* out = f.prior + (v >> 5) * (Q * column_stride) + (v & 31) * 4;
        float best = -FLT_MAX;
        unsigned arg = 0;
#pragma unroll
        for (unsigned x = 0; x < Q; ++x) {
            pr[x] -= mx;
            column_value(out, x * column_stride) = pr[x];
            if (pr[x] > best) {
                best = pr[x];
                arg = x;
            }
        }
        f.hard[v] = uint8_t(arg);
        for (unsigned k = 0; k < g.variable_steps; ++k) {
            const uint32_t col = __ldg(g.variable_columns + size_t(k) * g.n + v);
            if (col == idle)
                break;
#pragma unroll
            for (unsigned x = 0; x < Q; ++x)
                column_value(f.slots, col + x * column_stride) = pr[x];
        }
        if (invalid)
            atomicAdd(&s_invalid, invalid);
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

    const unsigned k = g.k;
    uint8_t* info = p.info_bits + frame * size_t(k) * m;
    for (unsigned t = threadIdx.x; t < k * m; t += blockDim.x) {
        const unsigned i = t / m, b = t - i * m;
        info[t] = (f.hard[g.info_positions[i]] >> (m - 1 - b)) & 1;
    }
    if (p.codeword_bits) {
        uint8_t* cw = p.codeword_bits + frame * size_t(g.n) * m;
        for (unsigned t = threadIdx.x; t < g.n * m; t += blockDim.x) {
            const unsigned v = t / m, b = t - v * m;
            cw[t] = (f.hard[v] >> (m - 1 - b)) & 1;
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

template <unsigned Q, unsigned D, typename M>
void launch_edges(const fft_bp_params& p, cudaStream_t stream, launch_mode mode)
{
    auto kernel = &fft_bp_edges_kernel<Q, D, M>;
    if (mode != launch_mode::enqueue &&
        p.variant.shared_bytes + static_shared_bytes > 48 * 1024)
        opt_in_shared_memory(kernel);
    if (mode == launch_mode::prepare)
        return;
    // the kernel writes the status fields, not the struct's padding, which
    // the engine copies to the host with them
    GPULDPC_CUDA_CHECK(
        cudaMemsetAsync(p.status, 0, p.n_frames * sizeof(fft_bp_status), stream));
    kernel<<<unsigned(p.n_frames), p.variant.threads, p.variant.shared_bytes, stream>>>(
        p);
    GPULDPC_CUDA_CHECK_LAUNCH("fft_bp_edges_kernel");
}

template <unsigned Q, typename M>
void launch_group(const fft_bp_params& p, cudaStream_t stream, launch_mode mode)
{
    if (p.graph.edge_group == 4)
        launch_edges<Q, 4, M>(p, stream, mode);
    else
        launch_edges<Q, 8, M>(p, stream, mode);
}

template <typename M>
void launch_field(const fft_bp_params& p, cudaStream_t stream, launch_mode mode)
{
    switch (p.graph.q) {
    case 16:
        return launch_group<16, M>(p, stream, mode);
    case 32:
        return launch_group<32, M>(p, stream, mode);
    default:
        return launch_group<64, M>(p, stream, mode);
    }
}

// Proper colouring with 32 colours of the edges of a bipartite multigraph
// whose vertices have degree 32 at most (left[e], right[e]: an edge's ends),
// by alternating paths (Koenig's theorem says 32 suffice).
std::vector<unsigned> colour_edges(const std::vector<uint32_t>& left,
                                   const std::vector<uint32_t>& right,
                                   size_t n_left,
                                   size_t n_right)
{
    constexpr unsigned colours = 32;
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
        throw std::logic_error("fft_bp_make_edge_layout: a vertex of degree above 32");
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
    if ((q != 16 && q != 32 && q != 64) || max_check_degree == 0 ||
        max_check_degree > 8 || n >= (1u << 24) || steps == 0)
        return out;
    const unsigned group = max_check_degree <= 4 ? 4 : 8, per_chunk = 32 / group;
    const unsigned chunks = (checks + per_chunk - 1) / per_chunk;
    const size_t edges = edge_variable.size();
    const unsigned m = log2_of(q);

    // an edge's check warp, and its (variable warp, position at its variable)
    std::vector<uint32_t> left(edges), right(edges), position(edges);
    for (unsigned c = 0; c < checks; ++c)
        for (uint32_t e = check_offsets[c]; e < check_offsets[c + 1]; ++e)
            left[e] = c / per_chunk;
    for (unsigned v = 0; v < n; ++v)
        for (uint32_t i = variable_offsets[v]; i < variable_offsets[v + 1]; ++i) {
            const uint32_t e = variable_edges[i];
            position[e] = i - variable_offsets[v];
            right[e] = (v / 32) * steps + position[e];
        }
    const std::vector<unsigned> colour =
        colour_edges(left, right, chunks, size_t((n + 31) / 32) * steps);
    auto column = [&](uint32_t e) {
        return uint32_t(left[e] * q * column_stride + colour[e] * 4);
    };

    std::vector<uint8_t> inverse(q, 0);
    for (unsigned a = 1; a < q; ++a)
        for (unsigned b = 1; b < q; ++b)
            if (gf_mul[size_t(a) * q + b] == 1)
                inverse[a] = uint8_t(b);
    out.lanes.assign(size_t(chunks) * 32 * 4, 0);
    out.lane_terms.assign(size_t(chunks) * 32, idle);
    for (size_t t = 0; t < size_t(chunks) * 32; ++t) {
        const unsigned c = unsigned(t / group), slot = unsigned(t % group);
        uint32_t* word = &out.lanes[4 * t];
        word[0] = idle;
        if (c >= checks || check_offsets[c] + slot >= check_offsets[c + 1])
            continue;
        const uint32_t e = check_offsets[c] + slot;
        const unsigned h = edge_coefficient[e], h_inv = inverse[h];
        word[0] = column(e);
        for (unsigned b = 0; b < m; ++b) {
            const uint32_t image = gf_mul[size_t(h_inv) * q + (1u << b)] * column_stride;
            word[1 + b / 2] |= image << (16 * (b % 2));
        }
        out.lane_terms[t] = edge_variable[e] | uint32_t(h) << 24;
    }
    out.variable_columns.assign(size_t(steps) * n, idle);
    for (unsigned v = 0; v < n; ++v)
        for (uint32_t i = variable_offsets[v]; i < variable_offsets[v + 1]; ++i)
            out.variable_columns[size_t(i - variable_offsets[v]) * n + v] =
                column(variable_edges[i]);
    out.chunks = chunks;
    out.group = group;
    out.steps = steps;
    return out;
}

size_t fft_bp_edge_shared_bytes(const fft_bp_graph& g)
{
    return (size_t(g.edge_chunks) + (g.n + 31) / 32) * g.q * column_stride +
           (size_t(g.n) + 15) / 16 * 16;
}

void launch_fft_bp_edges(const fft_bp_params& p, cudaStream_t stream, launch_mode mode)
{
    const fft_bp_graph& g = p.graph;
    if (!g.edge_lanes || !g.edge_lane_terms || !g.variable_columns ||
        g.edge_chunks == 0 || (g.edge_group != 4 && g.edge_group != 8) ||
        (g.q != 16 && g.q != 32 && g.q != 64))
        throw std::invalid_argument("launch_fft_bp: the edge-thread family needs the "
                                    "graph's fft_bp_edge_layout");
    if (p.layered || !p.variant.on_chip || p.variant.threads == 0 ||
        p.variant.threads > edge_block_threads || p.variant.threads % 32 != 0)
        throw std::invalid_argument("launch_fft_bp: variant not from fft_bp_choose");
    if (p.half_messages)
        launch_field<__half>(p, stream, mode);
    else
        launch_field<float>(p, stream, mode);
}

unsigned fft_bp_edge_threads(const fft_bp_graph& g)
{
    const unsigned warps = std::max(g.edge_chunks, (g.n + 31) / 32);
    return std::min(edge_block_threads, 32 * warps);
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
