/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_GFQ_PLAN_H
#define INCLUDED_GPULDPC_KERNELS_GFQ_PLAN_H

// Host planning of the GF(q) FFT-BP decoder: which kernel family serves a
// code (fft_bp_choose), in words (fft_bp_describe), and the edge-thread
// family's layout of a code's edges (fft_bp_make_edge_layout). Plain C++ with
// no CUDA header: compiled by g++ in the engine (lib/engine/plan/), usable and
// tested in builds without CUDA.

#include "common/plan_api.h"
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>


namespace gr {
namespace gpuldpc {
namespace kernels {

/*!
 * A code's Tanner graph and field tables in device memory (the planning
 * functions read only its sizes and whether the optional arrays exist).
 */
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
    //! check-phase lane (GF(2) reads the first), a word a lane for the
    //! syndrome, and the columns of each variable's edges; edge_chunks 0: no
    //! layout
    const uint32_t* edge_lanes;
    const uint32_t* edge_lane_terms;
    const uint32_t* variable_columns;
    unsigned edge_chunks;    //!< chunks of 32 check-phase lanes (32 columns each):
                             //!< a warp each, two for GF(2)
    unsigned edge_group;     //!< edges of a check: 4 or 8
    unsigned variable_steps; //!< largest variable degree
};

/*!
 * What updates a check node, and so which kernels decode. Each family's
 * arithmetic follows the CPU reference's fft_bp_rule; the families differ in
 * where a check's messages live while it is updated.
 */
enum class fft_bp_family {
    //! a warp a check (flooding; layered on the checks of a run) or the whole
    //! block a check (layered), its messages through shared-memory rows of
    //! 3 * degree * q floats; a block decodes a frame
    rows,
    //! a warp a check with its messages in registers, edge_slots (4 or 8,
    //! at least the check degree) edges a warp; q >= 64; a block a frame
    registers,
    //! a warp updates four checks of up to 4 edges at once, their transforms
    //! on tensor cores: GF(64), flooding, on chip, compute capability 8.0 or
    //! later; a block a frame
    tensor_cores,
    //! flooding in global memory: every check of every frame of a launch is a
    //! thread block of its own (through rows), an iteration a sequence of
    //! launches (checks, variables, syndrome), so that a long code fills the
    //! GPU with few frames
    check_parallel,
    //! flooding on chip, a thread an edge with its whole message in registers
    //! (graph.edge_lanes): the transforms are register butterflies, the field
    //! permutations shared-memory addresses, and only the products over a
    //! check's other edges cross lanes; a block a frame
    edge_threads,
};

/*! The variant that serves a code under a shared-memory limit. */
struct fft_bp_variant {
    fft_bp_family family = fft_bp_family::rows;
    //! the frame's messages and beliefs in shared memory for all iterations;
    //! else in global memory (per frame, mostly in L2) with only a check's
    //! working set in shared memory. Always for tensor_cores and
    //! edge_threads, never for check_parallel.
    bool on_chip = false;
    size_t shared_bytes = 0; //!< dynamic shared memory per block
    unsigned threads = 0;    //!< threads per block
    //! warps updating checks at once, each with its own scratch
    unsigned check_warps = 0;
    //! layered: warps take the checks of a run (graph.run_offsets) at once;
    //! else the whole block takes checks one by one
    bool runs = false;
    //! registers: a warp's edge slots, 4 or 8; edge_threads: lanes of a
    //! check (graph.edge_group); 0 for the other families
    unsigned edge_slots = 0;
};

/*! What fft_bp_choose weighs besides the graph. */
struct fft_bp_choice {
    //! dynamic shared memory a block may use, bytes
    size_t shared_limit = 0;
    //! layered schedule (check by check), else flooding
    bool layered = false;
    //! false: never the registers, tensor-core or edge-thread families (for
    //! comparisons)
    bool registers = true;
    //! check-to-variable messages in fp16 (2 bytes a value in shared memory on
    //! chip); launches MUST then set fft_bp_params::half_messages
    bool half_messages = false;
    //! the device runs TF32 matrix products (fft_bp_tensor_cores(); MUST NOT
    //! be true otherwise)
    bool tensor_cores = false;
    //! flooding may take the edge-thread family where the graph carries its
    //! layout
    bool edge_threads = false;
};

/*!
 * The variant for a graph's dimensions under \p c. Flooding takes the
 * edge-thread family where g carries its layout and two blocks fit the limit
 * (GF(256): one), if c.registers and c.edge_threads; then, if c.registers
 * and c.tensor_cores, GF(64) with checks of up to 4 edges takes the tensor
 * cores on chip. Where q >= 64 and the check degree fits 4 or 8 edge slots of
 * a warp, a warp updates a check with its messages in registers. Otherwise
 * flooding updates checks by warps through rows, as many at once as scratch
 * fits (up to the block's 8 or 16 warps), or in global memory a block a check
 * and frame (check_parallel); layered, by warps on the checks of a run
 * (graph.run_offsets, where the checks are small) or by the whole block, one
 * check after another. Throws std::invalid_argument when not even one check's
 * working set fits.
 */
GPULDPC_PLAN_API fft_bp_variant fft_bp_choose(const fft_bp_graph& g,
                                              const fft_bp_choice& c);

/*!
 * \p v (chosen for the \p layered or flooding schedule) in words: where the
 * messages live, what updates a check, threads a block; \p half_messages:
 * fp16 messages. For batch_decoder::kernel_variant().
 */
GPULDPC_PLAN_API std::string
fft_bp_describe(const fft_bp_variant& v, bool layered, bool half_messages);

/*!
 * Where a thread per edge keeps its messages (the edge-thread family, flooding,
 * q = 2 .. 64 with checks of up to 8 edges, or q = 256 with up to 4, L = 4
 * lanes an edge, each with V = 64 values). For L > 1 the value's bank within
 * its column is mixed per edge with its low bits, so that the check's lanes
 * take distinct banks too; variable_columns carries the mix above each
 * column's 18 bits. Check c takes L * edge_group adjacent
 * lanes of the check phase; lanes L i .. L i + L - 1 of a check serve its i-th
 * edge. GF(2) (edges_per_lane 2) pairs them: a thread serves edges s and s +
 * edge_group / 2 of its check, and a warp's 64 / edge_group checks take two
 * chunks, 2w and 2w + 1 (lane l of chunk 2w + h: check 64 / edge_group * w + l
 * / (edge_group / 2), edge h edge_group / 2 + l % (edge_group / 2)), so that
 * each half of the thread's accesses is a chunk of distinct banks. Every edge
 * owns a column of q floats in shared memory, which holds its
 * variable-to-check message, then its check-to-variable message, in the
 * variable's domain (value x at byte (x % V) * 128 + 4 (x / V) of the column,
 * L banks); a GF(2) message uses the first row only (log P(0) - log P(1)).
 * Columns are colours of a proper edge colouring of the bipartite graph
 * between check chunks (a check warp's lanes; GF(2): half of them) and
 * (variable warp, position of the edge at its variable), so that a warp's
 * lanes hit distinct banks in the variable phase and, for L = 1, in the check
 * phase; 32 / L colours always suffice (Koenig's edge-colouring theorem).
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
    unsigned edges_per_lane = 1;    //!< 2 for GF(2), whose lanes are paired
};

/*!
 * The edge-thread layout of a code; chunks == 0 where the family does not
 * serve it (q = 128; a check of more than 8 edges, or 4
 * for GF(256); 2^24 variables or more). \p gf_mul: q * q products; arrays as in
 * fft_bp_graph.
 */
GPULDPC_PLAN_API fft_bp_edge_layout
fft_bp_make_edge_layout(unsigned n,
                        unsigned checks,
                        unsigned q,
                        const std::vector<uint32_t>& check_offsets,
                        const std::vector<uint32_t>& edge_variable,
                        const std::vector<uint8_t>& edge_coefficient,
                        const std::vector<uint32_t>& variable_offsets,
                        const std::vector<uint32_t>& variable_edges,
                        const std::vector<uint8_t>& gf_mul);

/*!
 * A proper colouring with \p colours colours of the edges of a bipartite
 * multigraph whose vertices have degree \p colours at most (left[e], right[e]:
 * an edge's ends, below \p n_left and \p n_right), by alternating paths
 * (Koenig's theorem says that many suffice). Throws std::logic_error where a
 * vertex has a higher degree.
 */
GPULDPC_PLAN_API std::vector<unsigned> colour_edges(const std::vector<uint32_t>& left,
                                                    const std::vector<uint32_t>& right,
                                                    size_t n_left,
                                                    size_t n_right,
                                                    unsigned colours);

/*! Dynamic shared memory of an edge-thread block for graph \p g. */
GPULDPC_PLAN_API size_t fft_bp_edge_shared_bytes(const fft_bp_graph& g);

/*! Threads of an edge-thread block for graph \p g (with its layout). */
GPULDPC_PLAN_API unsigned fft_bp_edge_threads(const fft_bp_graph& g);

} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_GFQ_PLAN_H */
