/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// GF(q) FFT-BP decoding, one thread block per frame for all iterations: the
// rows, registers and tensor-core families. The arithmetic follows the CPU
// reference (check_rules.h, fft_bp_rule, and the schedules of cpu_decoder.cc)
// step by step: bit LLRs to log-probability priors, then the check updates
// (check_rows.cuh, check_registers.cuh, check_tensor_cores.cuh) and, flooding,
// the variable updates (frame_steps.cuh).

#include "common/cuda_check.h"
#include "gfq/check_registers.cuh"
#include "gfq/check_rows.cuh"
#include "gfq/check_tensor_cores.cuh"
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

// A warp's check update: in registers (T::edge_slots edge slots) or through
// rows.
template <typename T>
__device__ __forceinline__ void
warp_check_update(const fft_bp_params& p,
                  const frame_state<typename T::message>& mine,
                  unsigned c,
                  bool layered)
{
    if constexpr (T::family == fft_bp_family::tensor_cores)
        __trap(); // four checks at once: check_update_mma (flooding only)
    else if constexpr (T::family == fft_bp_family::registers)
        check_update_registers<T>(p, mine, mine.spectra, c, layered);
    else
        check_update_rows<T, true>(p, mine, c, layered);
}

template <typename T>
__device__ constexpr size_t warp_scratch_floats(unsigned max_check_degree)
{
    if constexpr (T::family == fft_bp_family::tensor_cores)
        return 0; // no value of a check leaves registers
    else if constexpr (T::family == fft_bp_family::registers)
        return size_t(T::edge_slots) * register_layout<T::q, T::edge_slots>::row;
    else
        return 3 * size_t(max_check_degree) * T::q;
}

// OnChip: the frame's beliefs and messages in shared memory, known to the
// compiler, so that they take shared-memory instructions with 32-bit
// addresses rather than generic ones with 64-bit address arithmetic.
template <typename T, bool OnChip>
__global__ void __launch_bounds__(T::threads, T::min_blocks)
    fft_bp_kernel(const fft_bp_params p)
{
    constexpr unsigned Q = T::q;
    using M = typename T::message;
    constexpr bool mma = T::family == fft_bp_family::tensor_cores;
    static_assert(OnChip || !mma, "tensor cores: on chip only");
    extern __shared__ __align__(16) float smem[];
    __shared__ unsigned s_invalid, s_unsat;
    const fft_bp_graph& g = p.graph;
    constexpr unsigned q = Q, m = log2_of(Q);
    const size_t frame = blockIdx.x;
    const size_t nq = size_t(g.n) * q;
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned n_warps = blockDim.x >> 5;

    // scratch rows: one set per check-updating warp; warp 0's set serves the
    // whole block in the layered schedule without runs
    const size_t rows = size_t(g.max_check_degree) * q;
    const size_t per_warp = warp_scratch_floats<T>(g.max_check_degree);
    frame_state<M> s;
    s.spectra = smem;
    s.work = s.spectra + rows;
    s.vin = s.work + rows;
    float* scratch_end = smem + per_warp * p.variant.check_warps;
    s.gf_mul = g.gf_mul;
    if constexpr (OnChip) {
        s.app = scratch_end;
        if constexpr (mma) {
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
            if constexpr (mma) {
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
    if constexpr (mma) {
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
                            warp_check_update<T>(p, mine, c, true);
                    __syncthreads();
                }
            } else if (p.layered) {
                if constexpr (T::family == fft_bp_family::rows)
                    for (unsigned c = 0; c < g.checks; ++c)
                        check_update_rows<T, false>(p, s, c, true);
            } else {
                // checks are independent within a flooding iteration
                if constexpr (mma) {
                    const mma_hadamard hadamard(lane);
                    if (warp < p.variant.check_warps)
                        for (unsigned c = 4 * warp; c < g.checks;
                             c += 4 * p.variant.check_warps)
                            check_update_mma<T>(p, mine, hadamard, c);
                } else if (warp < p.variant.check_warps) {
                    for (unsigned c = warp; c < g.checks; c += p.variant.check_warps)
                        warp_check_update<T>(p, mine, c, false);
                }
                __syncthreads();
                variable_update<T>(
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

// Whether a per-frame kernel of family F is built for field Q and S edge
// slots (each is an instantiation of fft_bp_kernel).
template <fft_bp_family F, unsigned Q, unsigned S>
constexpr bool frame_kernel_built()
{
    switch (F) {
    case fft_bp_family::rows:
        return S == 0;
    case fft_bp_family::registers:
        return (S == 4 && Q >= 64) || (S == 8 && (Q == 64 || Q == 128));
    case fft_bp_family::tensor_cores:
        return S == 0 && Q == 64;
    default:
        return false;
    }
}

template <fft_bp_family F, unsigned Q, unsigned S, typename M>
const void* frame_kernel_of(bool on_chip)
{
    if constexpr (frame_kernel_built<F, Q, S>()) {
        using T = check_traits<Q, F, S, M>;
        if (on_chip)
            return reinterpret_cast<const void*>(&fft_bp_kernel<T, true>);
        if constexpr (F != fft_bp_family::tensor_cores)
            return reinterpret_cast<const void*>(&fft_bp_kernel<T, false>);
    }
    return nullptr;
}

} // namespace

const void* frame_kernel(
    fft_bp_family family, unsigned q, unsigned edge_slots, bool half, bool on_chip)
{
    return dispatch(q, edge_slots, half, [&](auto Q, auto S, auto M) -> const void* {
        constexpr unsigned field = decltype(Q)::value, slots = decltype(S)::value;
        using message = typename decltype(M)::type;
        switch (family) {
        case fft_bp_family::rows:
            return frame_kernel_of<fft_bp_family::rows, field, slots, message>(on_chip);
        case fft_bp_family::registers:
            return frame_kernel_of<fft_bp_family::registers, field, slots, message>(
                on_chip);
        case fft_bp_family::tensor_cores:
            return frame_kernel_of<fft_bp_family::tensor_cores, field, slots, message>(
                on_chip);
        default:
            return nullptr;
        }
    });
}

} // namespace gfq

bool fft_bp_tensor_cores()
{
    // the code that runs on the current device: built (or JIT-compiled) from
    // PTX of compute capability 8.0 or later, where mma_tf32 is not a trap
    using T = gfq::check_traits<64, fft_bp_family::tensor_cores, 0, float>;
    cudaFuncAttributes attr;
    GPULDPC_CUDA_CHECK(cudaFuncGetAttributes(&attr, &gfq::fft_bp_kernel<T, true>));
    return attr.ptxVersion >= 80 && attr.binaryVersion >= 80;
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
