/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// GF(q) FFT-BP, the check-parallel family (fft_bp_family::check_parallel:
// flooding, messages and beliefs in global memory).
//
// An iteration is three launches over all frames of a launch: a thread block
// per check and frame updates that check through rows (check_update_rows on
// the whole block), a warp per variable and frame sums its messages and decides,
// and a thread per check and frame counts the unsatisfied ones. The per-frame
// status holds the decoding state between launches: converged marks a frame
// that early termination has stopped (every later launch skips it), and
// syndrome_weight is the counter of the last syndrome. The arithmetic is that
// of fft_bp_kernel's flooding iterations (per_frame.cu), step by step.

#include "gfq/check_rows.cuh"
#include "gfq/common.cuh"
#include "gfq/dispatch.cuh"
#include "gfq/frame_steps.cuh"
#include "gfq/kernel_table.h"
#include "gfq/traits.cuh"
#include <cfloat>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace gfq {

namespace {

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
template <typename T>
__global__ void __launch_bounds__(block_threads)
    fft_bp_start_kernel(const fft_bp_params p)
{
    constexpr unsigned Q = T::q;
    using M = typename T::message;
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
template <typename T>
__global__ void __launch_bounds__(block_threads)
    fft_bp_checks_kernel(const fft_bp_params p)
{
    constexpr unsigned Q = T::q;
    using M = typename T::message;
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
        check_update_rows<T, false>(p, s, c, false);
}

// grid (variables / warps, frames); the frame's syndrome counter restarts
template <typename T>
__global__ void __launch_bounds__(block_threads)
    fft_bp_variables_kernel(const fft_bp_params p, bool decide)
{
    constexpr unsigned Q = T::q;
    using M = typename T::message;
    const size_t frame = blockIdx.y;
    if (p.status[frame].converged)
        return;
    if (blockIdx.x == 0 && threadIdx.x == 0)
        p.status[frame].syndrome_weight = 0;
    variable_update<T>(p,
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

template <typename T>
check_parallel_kernels kernels_of()
{
    constexpr unsigned Q = T::q;
    check_parallel_kernels k;
    k.start = reinterpret_cast<const void*>(&fft_bp_start_kernel<T>);
    k.checks = reinterpret_cast<const void*>(&fft_bp_checks_kernel<T>);
    k.variables = reinterpret_cast<const void*>(&fft_bp_variables_kernel<T>);
    k.syndrome = reinterpret_cast<const void*>(&fft_bp_syndrome_kernel<Q>);
    k.iteration_done = reinterpret_cast<const void*>(&fft_bp_iteration_done_kernel);
    k.finish = reinterpret_cast<const void*>(&fft_bp_finish_kernel<Q>);
    return k;
}

} // namespace

check_parallel_kernels check_parallel_kernels_of(unsigned q, bool half)
{
    return dispatch(q, 0, half, [](auto Q, auto S, auto M) {
        constexpr unsigned field = decltype(Q)::value;
        if constexpr (decltype(S)::value == 0)
            return kernels_of<rows_traits<field, typename decltype(M)::type>>();
        else
            return check_parallel_kernels{};
    });
}

} // namespace gfq
} // namespace kernels
} // namespace gpuldpc
} // namespace gr
