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
#include <string>
#include <vector>

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
    //! flooding, a thread per edge (fft_bp_edge_layout, uploaded): 4 words a
    //! check-phase lane, a word a lane for the syndrome, and the columns of
    //! each variable's edges; edge_chunks 0: no layout
    const uint32_t* edge_lanes;
    const uint32_t* edge_lane_terms;
    const uint32_t* variable_columns;
    unsigned edge_chunks;    //!< warps of check-phase lanes (32 columns each)
    unsigned edge_group;     //!< lanes of a check: 4 or 8
    unsigned variable_steps; //!< largest variable degree
};

/*!
 * Where a thread per edge keeps its messages (the edge-thread family, flooding,
 * q = 16, 32 or 64 with checks of up to 8 edges, or q = 256 with up to 4, L = 4
 * lanes an edge, each with V = 64 values). For L > 1 the value's bank within
 * its column is mixed per edge with its low bits, so that the check's lanes
 * take distinct banks too; variable_columns carries the mix above each
 * column's 18 bits. Check c takes L * edge_group adjacent
 * lanes of the check phase; lanes L i .. L i + L - 1 of a check serve its i-th
 * edge. Every edge owns a column of q floats in shared memory, which holds its
 * variable-to-check message, then its check-to-variable message, in the
 * variable's domain (value x at byte (x % V) * 128 + 4 (x / V) of the column,
 * L banks). Columns are colours of a proper edge colouring of the bipartite
 * graph between check warps and (variable warp, position of the edge at its
 * variable), so that a warp's lanes hit distinct banks in the variable phase
 * and, for L = 1, in the check phase; 32 / L colours always suffice (Koenig's
 * edge-colouring theorem).
 */
struct fft_bp_edge_layout {
    //! per lane: the byte offset of its value 0 (the column's, XOR that of
    //! h^-1 (sub V)); 0xffffffff: idle lane), then the byte offsets of h^-1 2^b,
    //! b = 0 .. log2 V - 1, packed two a word (a seventh, for V = 128, in
    //! words above the first word's 18 bits)
    std::vector<uint32_t> lanes;
    //! per lane: variable | coefficient << 24, 0xffffffff where idle
    std::vector<uint32_t> lane_terms;
    //! steps * n: the column of each variable's k-th edge, 0xffffffff past its degree
    std::vector<uint32_t> variable_columns;
    unsigned chunks = 0, group = 0, steps = 0;
    unsigned lanes_per_message = 1; //!< L
};

/*!
 * The edge-thread layout of a code; chunks == 0 where the family does not
 * serve it (q other than 16, 32, 64, 256; a check of more than 8 edges, or 4
 * for GF(256); 2^24 variables or more). \p gf_mul: q * q products; arrays as in
 * fft_bp_graph.
 */
fft_bp_edge_layout fft_bp_make_edge_layout(unsigned n,
                                           unsigned checks,
                                           unsigned q,
                                           const std::vector<uint32_t>& check_offsets,
                                           const std::vector<uint32_t>& edge_variable,
                                           const std::vector<uint8_t>& edge_coefficient,
                                           const std::vector<uint32_t>& variable_offsets,
                                           const std::vector<uint32_t>& variable_edges,
                                           const std::vector<uint8_t>& gf_mul);

/*! Dynamic shared memory of an edge-thread block for graph \p g. */
size_t fft_bp_edge_shared_bytes(const fft_bp_graph& g);

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
    //! flooding on chip, a thread per edge with the whole message in its
    //! registers (graph.edge_lanes; edge_slots = graph.edge_group): the
    //! transforms are register butterflies, the field permutations shared-memory
    //! addresses, and only the products over a check's other edges cross lanes
    bool edge_threads;
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
 * four checks a warp, if \p registers. \p edge_threads: flooding takes the edge-thread
 * family where g carries its layout and two blocks fit \p shared_limit (before the
 * tensor cores; GF(256) where one block fits), if \p registers.
 */
fft_bp_variant fft_bp_choose(const fft_bp_graph& g,
                             size_t shared_limit,
                             bool layered,
                             bool registers = true,
                             bool half_messages = false,
                             bool tensor_cores = false,
                             bool edge_threads = false);

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
    bool pack_info_bits;    //!< info_bits 8 a byte, MSB first, ceil(k * m / 8) a frame
    uint8_t* hard;          //!< n per frame
    uint8_t* info_bits;     //!< k * m per frame (0/1, MSB first), or packed
    uint8_t* codeword_bits; //!< n * m per frame, or null
    fft_bp_status* status;  //!< per frame
};

/*! Bytes of info_bits a frame (packed or not). */
inline size_t fft_bp_info_bytes(const fft_bp_params& p)
{
    const size_t bits = size_t(p.graph.k) * p.graph.bits_per_symbol;
    return p.pack_info_bits ? (bits + 7) / 8 : bits;
}

/*! Enqueues the decoding on \p stream; cuda_error on a launch failure. */
void launch_fft_bp(const fft_bp_params& p, cudaStream_t stream);

/*!
 * launch_fft_bp in two steps, for capture into a CUDA graph: prepare_fft_bp
 * sets the kernels' attributes (shared memory beyond 48 KiB) and MUST precede
 * enqueue_fft_bp, which only enqueues (no call that a stream capture forbids).
 */
void prepare_fft_bp(const fft_bp_params& p);
void enqueue_fft_bp(const fft_bp_params& p, cudaStream_t stream);

/*!
 * \p v (chosen for the \p layered or flooding schedule) in words: where the
 * messages live, what updates a check, threads a block; \p half_messages:
 * fp16 messages. For batch_decoder::kernel_variant().
 */
std::string fft_bp_describe(const fft_bp_variant& v, bool layered, bool half_messages);

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
