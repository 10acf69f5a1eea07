/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_LDPC_FFT_BP_H
#define INCLUDED_GPULDPC_KERNELS_LDPC_FFT_BP_H

// Launcher of the GF(q) FFT-BP decoding kernel (ldpc_fft_bp.cu); plain C++.
//
// One thread block decodes one frame through all its iterations (the loop
// runs on the device; a converged frame's block stops). Check nodes are
// updated by a warp each (flooding: several checks at once; GF(64) on tensor
// cores: four checks a warp) or by the whole block (layered: one after
// another, or the checks of a run by warps at once): messages permuted by their
// coefficients, Walsh-Hadamard transformed, multiplied excluding each edge, transformed
// back and permuted again, as the CPU reference's fft_bp_rule does, in log
// probabilities with the same normalisation and floor. Two variants, chosen
// per code from the shared memory a block may use:
// - on chip: the frame's check-to-variable messages and beliefs live in
//   shared memory for all iterations;
// - global: they live in global memory (per frame, mostly in L2); only one
//   check's working set is in shared memory. With the flooding schedule each
//   check of each frame is then a thread block of its own, and an iteration a
//   few launches (check_parallel; the engine replays the sequence as a CUDA
//   graph: prepare_fft_bp, then enqueue_fft_bp under stream capture).
// Check-to-variable messages are stored in fp32, or in fp16
// (fft_bp_params::half_messages), rounded to nearest even when made, as the
// CPU reference's round_to_half models.

#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>

namespace gr {
namespace gpuldpc {
namespace kernels {

/*! A code's Tanner graph and field tables in device memory. */
struct fft_bp_graph {
    unsigned n;                      //!< variables (symbols)
    unsigned checks;                 //!< check nodes
    unsigned q;                      //!< field size, 2 .. 256
    unsigned bits_per_symbol;        //!< m = log2 q
    unsigned k;                      //!< information symbols
    unsigned max_check_degree;       //!< largest check degree
    size_t edges;                    //!< edges (nonzeros of H)
    const uint32_t* check_offsets;   //!< checks + 1; edges of check c, check-major
    const uint32_t* edge_variable;   //!< edges
    const uint8_t* edge_coefficient; //!< edges, nonzero field elements
    const uint8_t* edge_coefficient_inverse; //!< edges: their inverses
    const uint32_t* variable_offsets;        //!< n + 1
    const uint32_t* variable_edges;          //!< edges: check-major edge ids per variable
    const uint32_t* info_positions;          //!< k
    const uint8_t* gf_mul;                   //!< q * q: gf_mul[a * q + b] = a * b
    //! layered schedule: checks run_offsets[r] .. run_offsets[r+1]-1 share no
    //! variable (at most 16 a run); null: the block takes checks one by one
    //! (fft_bp_choose decides whether a variant uses them)
    const uint32_t* run_offsets;
    unsigned runs;
};

/*! Per-frame result; the layout of the engine's frame_status. */
struct fft_bp_status {
    uint8_t converged;
    uint32_t iterations;
    uint32_t syndrome_weight;
    uint32_t invalid_inputs;
};

/*! The variant that serves a code under a shared-memory limit. */
struct fft_bp_variant {
    bool on_chip;         //!< messages and beliefs in shared memory
    size_t shared_bytes;  //!< dynamic shared memory per block
    unsigned threads;     //!< threads per block
    unsigned check_warps; //!< warps updating checks at once, each with its own
                          //!< scratch rows
    //! layered: warps take the checks of a run (graph.run_offsets) at once;
    //! else the whole block takes checks one by one
    bool runs;
    //! 0: a check's messages go through shared-memory rows (3 * degree * q
    //! floats a warp). 4 or 8: a warp holds a check's messages in registers,
    //! q / (32 / edge_slots) values of an edge per lane, edge_slots >= degree;
    //! q >= 64 (see ldpc_fft_bp.cu). 16: a warp updates four checks of up to
    //! 4 edges at once, their transforms on tensor cores (q = 64, flooding,
    //! on chip, compute capability 8.0 or later)
    unsigned edge_slots;
    //! global variant, flooding: every check of every frame of a launch is a
    //! thread block of its own (through rows), the iterations a sequence of
    //! launches (checks, variables, syndrome), so that a long code fills the
    //! GPU with few frames; else a block decodes a whole frame
    bool check_parallel;
};

/*!
 * The variant for a graph's dimensions and schedule under \p shared_limit
 * bytes of dynamic shared memory per block. Where q >= 64 and the check
 * degree fits 4 or 8 edge slots of a warp, a warp updates a check with its
 * messages in registers. Otherwise flooding updates checks by warps, as many
 * at once as scratch fits (up to the block's 8 or 16 warps); layered, by warps on the
 * checks of a run (graph.run_offsets, where the checks are small) or by the whole block,
 * one check after another. Throws std::invalid_argument when not even one check's working
 * set fits. \p registers false: never in registers (for comparisons). \p half_messages:
 * check-to-variable messages in fp16 (2 bytes a value in shared memory on chip); launches
 * MUST then set fft_bp_params::half_messages. \p tensor_cores: the device runs TF32
 * matrix products (fft_bp_tensor_cores(); the caller MUST NOT pass true otherwise):
 * GF(64) flooding with checks of up to 4 edges then takes its transforms there, on chip,
 * four checks a warp, if \p registers.
 */
fft_bp_variant fft_bp_choose(const fft_bp_graph& g,
                             size_t shared_limit,
                             bool layered,
                             bool registers = true,
                             bool half_messages = false,
                             bool tensor_cores = false);

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
    bool half_messages;     //!< c2v in fp16 (fft_bp_choose with half_messages)
    uint8_t* hard;          //!< n per frame
    uint8_t* info_bits;     //!< k * m per frame (0/1, MSB first)
    uint8_t* codeword_bits; //!< n * m per frame, or null
    fft_bp_status* status;  //!< per frame
};

/*! Enqueues the decoding on \p stream; cuda_error on a launch failure. */
void launch_fft_bp(const fft_bp_params& p, cudaStream_t stream);

/*!
 * launch_fft_bp in two steps, for capture into a CUDA graph: prepare_fft_bp
 * sets the kernels' attributes (shared memory beyond 48 KiB) and MUST precede
 * enqueue_fft_bp, which only enqueues (no call that a stream capture forbids).
 */
void prepare_fft_bp(const fft_bp_params& p);
void enqueue_fft_bp(const fft_bp_params& p, cudaStream_t stream);

/*! Kernel launches of one call: 1, or the check-parallel family's sequence. */
bool fft_bp_is_launch_sequence(const fft_bp_variant& v);

/*!
 * Whether the current device runs the tensor-core variant: the kernels built
 * for it (or JIT-compiled from the PTX the build carries) are of compute
 * capability 8.0 or later. The value for fft_bp_choose's \p tensor_cores.
 */
bool fft_bp_tensor_cores();

} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_LDPC_FFT_BP_H */
