/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_LDPC_FFT_BP_H
#define INCLUDED_GPULDPC_KERNELS_LDPC_FFT_BP_H

// Launcher of the GF(q) FFT-BP decoding kernels; plain C++.
//
// A thread block decodes one frame through all its iterations (the loop runs
// on the device; a converged frame's block stops), except in the
// check-parallel family. The check update follows the CPU reference's
// fft_bp_rule: messages permuted by their coefficients, Walsh-Hadamard
// transformed, multiplied excluding each edge, transformed back and permuted
// again, in log probabilities with the same normalisation and floor. Which
// family updates the checks (fft_bp_family) is chosen per code on the host
// (gfq/plan.h); a launch plan made once from that choice holds the kernels of
// the chosen instantiation, and a launch only fills in the frames' buffers.
// Check-to-variable messages are stored in fp32, or in fp16
// (fft_bp_params::half_messages), rounded to nearest even when made, as the
// CPU reference's round_to_half models.
//
// Files: check_rows.cuh, check_registers.cuh, check_tensor_cores.cuh (the
// check updates), frame_steps.cuh (priors, variables, syndrome),
// per_frame.cu (a block a frame: rows, registers, tensor cores),
// check_parallel.cu, edge_threads.cuh/.cu, dispatch.cuh (sizes to template
// arguments), launch.cu (the plan).

#include "gfq/plan.h"
#include <gnuradio/gpuldpc/engine/frame_status.h>
#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>

namespace gr {
namespace gpuldpc {
namespace kernels {

/*! One launch: n_frames frames, frame after frame in every buffer. */
struct fft_bp_params {
    fft_bp_graph graph;
    fft_bp_variant variant;
    const float* input; //!< bit LLRs (n * m per frame) or symbol LLs (n * q)
    bool symbol_input;  //!< input holds symbol log-likelihoods
    float to_log_p0_p1; //!< bit LLR * this = log(P(0)/P(1)): -1 or +1
    unsigned max_iterations;
    bool early_termination;
    bool layered; //!< layered schedule (check by check), else flooding
    size_t n_frames;
    float* prior;           //!< n * q per frame (log probabilities)
    float* app;             //!< n * q per frame; global variant only
    void* c2v;              //!< edges * q per frame (float or __half); global variant
    bool half_messages;     //!< c2v in fp16 (fft_bp_choice::half_messages)
    bool pack_info_bits;    //!< info_bits 8 a byte, MSB first, ceil(k * m / 8) a frame
    uint8_t* hard;          //!< n per frame
    uint8_t* info_bits;     //!< k * m per frame (0/1, MSB first), or packed
    uint8_t* codeword_bits; //!< n * m per frame, or null
    frame_status* status;   //!< per frame
};

/*! Bytes of info_bits a frame (packed or not). */
inline size_t fft_bp_info_bytes(const fft_bp_params& p)
{
    const size_t bits = size_t(p.graph.k) * p.graph.bits_per_symbol;
    return p.pack_info_bits ? (bits + 7) / 8 : bits;
}

/*!
 * The launches of one variant for one graph, resolved once: the kernel
 * functions of the chosen instantiation (q, edge slots, message type and
 * where the state lives made template arguments), their grids, blocks and
 * dynamic shared memory.
 *
 * Contract:
 * - The constructor MUST run on the device that launches (it lets the kernels
 *   take more than 48 KiB of dynamic shared memory where the variant needs
 *   it). It throws std::invalid_argument for a variant that fft_bp_choose
 *   does not give for \p g, cuda_error when the device refuses.
 * - launch() enqueues p.n_frames frames on \p stream: the per-frame kernel
 *   (its status cleared first), or the check-parallel family's sequence of
 *   launches. p MUST carry the graph sizes, variant, schedule and message
 *   precision the plan was made for, app and c2v for a variant not on chip,
 *   and a status for every frame. It makes only calls that a stream capture
 *   allows (memsets, kernel launches), so that a caller may capture it into
 *   a CUDA graph; cuda_error on a launch failure.
 */
class fft_bp_launch_plan
{
public:
    fft_bp_launch_plan() = default;
    fft_bp_launch_plan(const fft_bp_graph& g,
                       const fft_bp_variant& v,
                       bool layered,
                       bool half_messages);

    void launch(const fft_bp_params& p, cudaStream_t stream) const;

    //! Whether a launch is a sequence of kernels (worth a CUDA graph).
    bool is_sequence() const { return d_family == fft_bp_family::check_parallel; }

private:
    struct kernel {
        const void* function = nullptr;
        unsigned blocks = 0; //!< grid x (the frames are grid y or x)
        unsigned threads = 0;
        size_t shared_bytes = 0;
        const char* name = nullptr;
    };
    void launch_sequence(const fft_bp_params& p, cudaStream_t stream) const;

    fft_bp_family d_family = fft_bp_family::rows;
    kernel d_frame; // a block a frame
    // check_parallel: grid (blocks, frames), except d_done (a thread a
    // frame) and d_finish (a block a frame)
    kernel d_start, d_checks, d_variables, d_syndrome, d_done, d_finish;
    size_t d_message_bytes = sizeof(float);
};

/*!
 * Whether the current device runs the tensor-core family: the kernels built
 * for it (or JIT-compiled from the PTX the build carries) are of compute
 * capability 8.0 or later. The value for fft_bp_choice::tensor_cores.
 */
bool fft_bp_tensor_cores();

} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_LDPC_FFT_BP_H */
