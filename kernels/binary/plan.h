/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_BINARY_PLAN_H
#define INCLUDED_GPULDPC_KERNELS_BINARY_PLAN_H

// Host-side planning of binary LDPC decoding on the GPU: which variant a
// code takes on a device, the compact check records, the bytes of the
// state, the kernel a variant launches. Plain C++ (no CUDA header), compiled
// into the engine by g++ (lib/engine/plan/binary_plan.cc), so that the
// choices are testable in builds without CUDA. The kernels and their
// launcher: ldpc_min_sum.h.
//
// Three check rules (binary_rule): min-sum in 8-bit fixed point, whose
// arithmetic is that of the CPU reference (fixed_point_min_sum_rule in
// lib/engine/check_rules.h, decoder.h's message_precision::int8) integer for integer, so that GPU and
// CPU results are identical on every frame; and in single precision
// normalized/offset min-sum and sum-product (the check_rules.h rules in
// float: the same decisions at high SNR, the same error rates within
// statistics).
//
// Frames are decoded in groups of G (1, 2, 4 ... 32), their state laid out
// frame-interleaved (value x of frame f at x * G + f): G lanes of a warp, a
// frame each, take one check or bit, so that they touch G neighbouring bytes
// and share every read of the graph. A warp updates 32 / G checks at once.
// - on chip: a thread block decodes one group for all iterations, its state
//   in shared memory (codes of up to some ten thousand bits; min_sum_choose);
// - split (layered, 8-bit rule, compact records): a thread block decodes a
//   group of one lane at a time, its beliefs in shared memory and its check
//   messages in a region of global memory the block reuses, which stays in
//   L2 (DVB-S2's 64800 bits: 130 KB of beliefs a frame);
// - global: the whole grid of a cooperative launch decodes every group, the
//   state in a global workspace (where neither of the others is chosen),
//   each step spread over all blocks and a grid-wide barrier between steps.
// - quasi-cyclic (layered, 8-bit rule, codes with a base matrix decoded in
//   their base rows): a thread block decodes a group at a time, its beliefs
//   in shared memory, its compressed check messages in global memory; a
//   base row's Z checks at once, a lane each, the bits' addresses computed
//   from the base matrix's shifts (no per-edge index is read).
// Layered: the checks of a run (consecutive in the code's layered order,
// sharing no bit) are updated at once, which gives the sequential result.
// Pairs (the 8-bit rule only): a lane takes two neighbouring frames in fp16
// pairs, an instruction doing the work of two with the same integer results
// (min_sum_pairs_exact), so that a group of G lanes holds 2 G frames; where
// fp16 is not exact, in the global variant, 16-bit integer pairs
// (min_sum_variant::wide_pairs).

#include "common/plan_api.h"
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>


namespace gr {
namespace gpuldpc {
namespace kernels {

//! Checks of this many edges at most have compact records.
constexpr unsigned min_sum_compact_degree = 8;

//! The 8-bit rule: bits of this degree at most (a belief sums a channel value
//! and a message a check in 16 bits).
constexpr unsigned min_sum_max_fixed_degree = 256;

//! The 8-bit rule, layered: a belief is limited to +-this after each check
//! update (decoder.h, message_precision::int8). A belief less a message is
//! then within +-2047, which fp16 holds exactly, whatever the bit's degree;
//! bits of degree 14 or less never reach it (127 x 15 = 1905).
constexpr int32_t min_sum_fixed8_belief_limit = 1920;
//! Bits of this degree or more may reach min_sum_fixed8_belief_limit.
constexpr unsigned min_sum_limited_degree = 15;

//! binary_rule::fixed_three_smallest subtracts the offset at checks of this
//! many edges or more (decoder.h, min_sum_magnitude_rule::three_smallest).
constexpr unsigned min_sum_three_smallest_offset_degree = 5;

/*!
 * The bits of a check's compact record: min_sum_compact_degree 16-bit bit
 * indices, 0 past the check's degree; 16 bytes, read by the kernels in one
 * load.
 */
struct alignas(16) min_sum_record {
    uint16_t bits[min_sum_compact_degree];
};
static_assert(sizeof(min_sum_record) == 16, "a compact record is one 16-byte load");

/*! A binary code as the kernel reads it (device pointers). */
struct min_sum_graph {
    unsigned n;                       //!< bits per codeword
    unsigned checks;                  //!< rows of H
    unsigned k;                       //!< information bits
    unsigned n_input;                 //!< soft values per frame (transmitted bits)
    size_t edges;                     //!< nonzeros of H
    const uint32_t* check_offsets;    //!< checks + 1, check-major edges
    const uint32_t* edge_variable;    //!< edges
    const uint32_t* variable_offsets; //!< n + 1
    const uint32_t* variable_edges;   //!< edges: check-major edge ids per variable
    const uint32_t* info_positions;   //!< k
    unsigned max_variable_degree;     //!< 8-bit rule: at most 256 (16-bit sums)
    unsigned max_check_degree;
    const int32_t* input_index; //!< n: soft value of each bit, -1 punctured
    //! layered: checks in the code's layered order, and runs of them that
    //! share no bit (run i: run_checks[run_offsets[i] .. run_offsets[i+1]-1])
    const uint32_t* run_checks;
    const uint32_t* run_offsets;
    unsigned runs;
    unsigned longest_run; //!< checks of the longest run (0: not known)
    //! compact check records (min_sum_compact_checks), or null: then the
    //! kernel reads check_offsets, edge_variable and run_checks
    const uint32_t* slot_edges;
    const min_sum_record* slot_variables;
    //! layered, compact records: a check reads all min_sum_compact_degree
    //! positions of its record, those past its degree from a bit and a
    //! message never written, rather than branch (min_sum_full_records())
    bool full_records;
    //! A quasi-cyclic code whose layered order is its row order, for the
    //! quasi-cyclic family (qc_z 0: none): base row i's nonzero blocks are
    //! qc_blocks[qc_row_offsets[i] .. qc_row_offsets[i+1] - 1], each
    //! (base column << 16) | shift; check r of base row i (check i * qc_z +
    //! r) reads bit column * qc_z + (r + shift) mod qc_z.
    unsigned qc_z;
    unsigned qc_rows;           //!< base rows (qc_rows * qc_z == checks)
    unsigned qc_entries;        //!< nonzero blocks (qc_row_offsets[qc_rows])
    unsigned qc_max_row_degree; //!< nonzero blocks of a base row at most
    const uint32_t* qc_row_offsets;
    const uint32_t* qc_blocks;
    //! the base rows' degrees as a built-in profile has them
    //! (min_sum_qc_profile_of(): 1 5G NR base graph 1, 2 base graph 2, 3
    //! rows of up to 16 blocks, 4 of up to 20, 5 of up to 24), 0 none: the
    //! quasi-cyclic family's kernels with checks unrolled for those degrees
    unsigned qc_profile;
    //! with qc_profile: bit i set where base row i reads a column that a row
    //! since the last such row writes (min_sum_qc_sync_rows()), so that the
    //! checks of row i wait for those rows' updates; rows without the bit
    //! start at once
    uint64_t qc_sync_rows;
};

//! The quasi-cyclic family: base rows of this many nonzero blocks at most (a
//! check's message signs in a 32-bit word).
constexpr unsigned min_sum_qc_max_row_degree = 32;
//! The quasi-cyclic family in fp16 pairs: base rows of this many blocks at
//! most keep a check's messages in a compact word, 8 bytes a pair
//! (min_sum_variant::qc_compact).
constexpr unsigned min_sum_qc_compact_degree = 12;
//! Compact words are chosen (min_sum_choice::quasi_cyclic_compact 1) for
//! base rows of this many blocks on average or more.
constexpr unsigned min_sum_qc_compact_row_blocks = 6;

/*!
 * The base matrix of a quasi-cyclic code as the quasi-cyclic family reads it
 * (min_sum_graph::qc_*): \p row_offsets rows + 1 offsets into \p blocks,
 * (column << 16) | shift a nonzero block, row-major. \p shifts rows x cols,
 * -1 a zero block, else 0 .. z - 1. std::invalid_argument where a shift is
 * out of range or the code is too large for the records (z or cols above
 * 65535).
 */
GPULDPC_PLAN_API void min_sum_qc_records(const int32_t* shifts,
                                         unsigned rows,
                                         unsigned cols,
                                         unsigned z,
                                         std::vector<uint32_t>& row_offsets,
                                         std::vector<uint32_t>& blocks);

/*!
 * The built-in profile of a code's base rows (\p row_offsets, rows + 1
 * offsets as min_sum_qc_records() makes them): 1 where its \p rows rows
 * have the degrees of 5G NR base graph 1's first rows (TS 38.212 Table
 * 5.3.2-2, 46 rows), 2 of base graph 2's (Table 5.3.2-3, 42 rows), else,
 * with 64 rows at most, 3 (qc_profile_any16) where no row has more than 16
 * blocks, 4 (qc_profile_any20) where none has more than 20 and 5
 * (qc_profile_any24) where none has more than 24; 0 otherwise; and where a
 * row has more than \p limited blocks of columns of min_sum_limited_degree
 * blocks or more (min_sum_qc_limited_first()), only a profile whose kernel
 * limits beliefs at that many positions (qc_profile_limited_positions(): 5G
 * NR's, 2 and 3).
 */
GPULDPC_PLAN_API unsigned
min_sum_qc_profile_of(const uint32_t* row_offsets, unsigned rows, unsigned limited);

/*!
 * Puts the blocks of each base row whose columns have min_sum_limited_degree
 * blocks or more (bits whose layered beliefs may reach the 8-bit rule's
 * limit) first in the row, in their order, the others after them in theirs
 * (records as min_sum_qc_records() makes them; the order of a row's blocks
 * changes no result), so that a kernel limits beliefs at a row's first
 * positions only. Returns the most such blocks a row has.
 */
GPULDPC_PLAN_API unsigned
min_sum_qc_limited_first(const uint32_t* row_offsets, uint32_t* blocks, unsigned rows);

/*!
 * The base rows whose checks MUST wait for the rows before them in a layered
 * iteration (min_sum_graph::qc_sync_rows): bit i set where row i has a
 * column in common with a row since the last row with its bit set (row 0's
 * bit: the rows of the iteration before, always set). Rows that share no
 * column read and write disjoint bits, so that updating them at once gives
 * the results of updating them in turn. \p rows at most 64; \p row_offsets
 * and \p blocks as min_sum_qc_records() makes them.
 */
GPULDPC_PLAN_API uint64_t min_sum_qc_sync_rows(const uint32_t* row_offsets,
                                               const uint32_t* blocks,
                                               unsigned rows);

//! Whether compact records are read in full: layered, in the global and
//! split variants (\p on_chip false), or on chip where the checks average 7
//! edges or more.
GPULDPC_PLAN_API bool
min_sum_full_records(size_t checks, size_t edges, bool layered, bool on_chip);

/*!
 * Whether a code's checks can have compact records: no check has more than
 * min_sum_compact_degree edges, the bits are numbered in 16 bits and the
 * edges in 28.
 */
GPULDPC_PLAN_API bool
min_sum_compact_usable(unsigned n, unsigned max_check_degree, size_t edges);

/*!
 * The compact records of the checks, in the order the schedule visits them
 * (\p order: the layered order, or 0, 1, ... for flooding), a slot a check:
 * \p slot_edges gets the check's first edge (low 28 bits) and its degree
 * (high 4 bits); \p slot_variables min_sum_compact_degree 16-bit bits (0
 * past the degree), a min_sum_record a slot. A check's reads of the graph
 * are then two loads, not 2 + its degree. The code MUST be
 * min_sum_compact_usable(); std::invalid_argument otherwise.
 */
GPULDPC_PLAN_API void min_sum_compact_checks(const uint32_t* check_offsets,
                                             const uint32_t* edge_variable,
                                             const uint32_t* order,
                                             size_t checks,
                                             unsigned n,
                                             std::vector<uint32_t>& slot_edges,
                                             std::vector<uint16_t>& slot_variables);

//! The check rule and the arithmetic of the messages.
enum class binary_rule : uint8_t {
    fixed_min_sum,     //!< 8-bit messages, 16-bit beliefs (integer steps)
    float_min_sum,     //!< fp32, scale * max(min - offset, 0)
    float_sum_product, //!< fp32, the tanh rule in the phi form
    //! fixed_min_sum's arithmetic with the three smallest inputs combined
    //! (min_sum_magnitude_rule::three_smallest): a frame a lane, a byte a
    //! message (the quasi-cyclic family: 16 bytes a check), no compressed
    //! messages; two frames a lane in fp16 pairs only in the quasi-cyclic
    //! kernel with checks unrolled by degree (a byte a frame an edge)
    fixed_three_smallest,
};

/*!
 * Whether the quasi-cyclic family can decode \p g: layered, the 8-bit rule,
 * the graph's qc_* fields set (lifting size 1 .. 1024: a lane a check of a
 * base row) and base rows of min_sum_qc_max_row_degree blocks at most.
 */
GPULDPC_PLAN_API bool
min_sum_quasi_cyclic_usable(const min_sum_graph& g, bool layered, binary_rule rule);

/*! Where a launch keeps the frames' state, and how many frames a group has. */
struct min_sum_variant {
    binary_rule rule;
    //! two frames a lane, the 8-bit rule in fp16 pairs (min_sum_pairs_exact),
    //! or with wide_pairs in 16-bit integer pairs
    bool pairs;
    //! with pairs: the halves are 16-bit integers, exact for bits of any
    //! degree the 8-bit rule takes; the global variant with checks read from
    //! the graph's arrays only
    bool wide_pairs;
    bool on_chip; //!< state in shared memory, else in params::workspace
    //! with on_chip (the 8-bit rule, layered, one lane a group): only the
    //! beliefs in shared memory; the check messages in params::workspace,
    //! message_bytes a block, and blocks blocks at most, each decoding
    //! groups in turn (where no on-chip group is chosen); compact records
    //! read in full, as in the global variant
    bool split;
    //! check messages compressed, a 4-byte word a frame a check (mag1, mag2,
    //! signs, positions of the smallest input) instead of a byte an edge:
    //! min_sum_compressed_usable() codes
    bool compressed;
    //! the quasi-cyclic family (on_chip and split false): frames a group
    //! lanes, a base row's checks a lane each; the beliefs in shared memory,
    //! the check messages (8 bytes a frame a check) in params::workspace,
    //! message_bytes a block, blocks blocks at most
    bool quasi_cyclic;
    //! with quasi_cyclic, 16-bit pairs (fixed_three_smallest: fp16 pairs or a
    //! frame a lane, a row's checks within min_sum_qc_pair_threads threads)
    //! and a graph
    //! with a qc_profile, at most min_sum_qc_unrolled_lanes lanes: the
    //! kernel with a check's positions unrolled for its row's degree (an
    //! instance of the check for each degree the profile has; addresses
    //! made once a check; rows that share no column updated without a
    //! barrier between them)
    bool qc_unrolled;
    //! with qc_unrolled: the check arithmetic in fp16 pairs (the 8-bit
    //! rule's values, all within +-2047, exact), else 16-bit integer pairs
    //! (fixed_three_smallest: fp16 pairs, or a frame a lane in integers;
    //! pairs for profiles of rows of up to min_sum_qc_three_pair_degree
    //! blocks, where min_sum_choice::three_smallest_pairs)
    bool qc_half;
    //! with qc_half: rows of up to min_sum_qc_compact_degree blocks keep a
    //! check's messages in 8 bytes a pair (signs, the position of each
    //! frame's smallest input, the magnitudes as bytes), others in 16
    bool qc_compact;
    //! with qc_unrolled, one lane a group and a lifting size above
    //! min_sum_qc_pair_threads: a thread takes checks r, r + threads, r + 2
    //! threads ... of a base row (the strided instances of the kernel,
    //! profiles that min_sum_qc_strided_profile() names)
    bool qc_strided;
    unsigned frames; //!< frames a group: 1 to 32 lanes on chip, 32 global (x2 pairs)
    //! threads a block: on chip a multiple of 32 up to 1024, global 512
    unsigned threads;
    size_t shared_bytes;  //!< dynamic shared memory a block
    size_t state_bytes;   //!< a group's state (in shared or global memory)
    size_t message_bytes; //!< split: a group's state in global memory
    unsigned blocks;      //!< split: blocks a launch at most (those resident)
};

/*! One SM of the device, as the choice of an on-chip variant weighs it. */
struct min_sum_sm {
    size_t shared_bytes;       //!< shared memory an SM holds (as the limit allows)
    size_t reserved_per_block; //!< shared memory the runtime takes a block
    unsigned threads;          //!< resident threads at most
    unsigned registers;        //!< 32-bit registers
    unsigned blocks;           //!< resident blocks at most
};

/*! What min_sum_choose() weighs besides the code. */
struct min_sum_choice {
    size_t shared_limit = 48 * 1024; //!< dynamic and static shared memory a block
    //! the SM; blocks are sized for it (a capped shared_limit stands for a
    //! smaller card: the SM's shared memory SHOULD then be the cap plus the
    //! reserve)
    min_sum_sm sm{ 100 * 1024, 1024, 2048, 65536, 32 };
    bool pairs = true; //!< fp16 pairs where min_sum_pairs_exact()
    //! with pairs: 16-bit integer pairs in the global variant where fp16 ones
    //! are not exact and checks read the graph's arrays (callers SHOULD set
    //! it only where the s16x2 instructions are native: sm_90 and later)
    bool wide_pairs = false;
    //! compressed check messages where min_sum_compressed_usable(): in the
    //! global variant, and on chip where compressed_on_chip
    bool compressed = true;
    bool compressed_on_chip = false;
    //! false: the global variant for every code, quasi-cyclic ones too (for
    //! tests and comparisons)
    bool on_chip = true;
    //! the split variant where no on-chip group is chosen and one lane's
    //! beliefs fit a block (layered, the 8-bit rule, compact records)
    bool split = true;
    //! the quasi-cyclic family where min_sum_quasi_cyclic_usable() and one
    //! frame's beliefs fit a block (before the on-chip groups where its
    //! checks are unrolled by degree, else where no on-chip group is chosen)
    bool quasi_cyclic = true;
    //! with quasi_cyclic: that family before the on-chip groups (where its
    //! checks are not unrolled: they come first anyway)
    bool quasi_cyclic_first = false;
    //! with quasi_cyclic: the kernel with checks unrolled by row degree
    //! where the variant allows it (min_sum_variant::qc_unrolled)
    bool quasi_cyclic_unrolled = true;
    //! with quasi_cyclic_unrolled: its check arithmetic in fp16 pairs
    //! (min_sum_variant::qc_half)
    bool quasi_cyclic_half = true;
    //! with quasi_cyclic_half, the three-smallest rule in fp16 pairs (callers
    //! MUST clear it where the rule's table of f is not min_sum_three_smallest_steps()
    //! steps)
    bool three_smallest_pairs = true;
    //! with quasi_cyclic_half: compact message words
    //! (min_sum_variant::qc_compact): 0 never, 1 where the 16-byte words of
    //! the resident blocks would outgrow l2_bytes and base rows average
    //! min_sum_qc_compact_row_blocks blocks or more, 2 always
    unsigned quasi_cyclic_compact = 1;
    //! with quasi_cyclic_half: lifting sizes above min_sum_qc_pair_threads in
    //! the strided kernel (min_sum_variant::qc_strided); where its blocks keep
    //! fewer than min_sum_qc_strided_warps warps resident an SM, the split
    //! variant in pairs comes first
    bool quasi_cyclic_strided = true;
    //! the device's L2 cache (callers SHOULD set it; 0: unknown, taken as
    //! outgrown)
    size_t l2_bytes = 0;
    //! SMs of the device: split, the blocks of a launch are those resident
    //! on all of them (callers SHOULD set it; 1 launches an SM's worth)
    unsigned sms = 1;
    //! lanes a group on chip and in the quasi-cyclic family: 0 (chosen), or
    //! 1, 2, 4 ... 32
    unsigned lanes = 0;
    //! registers a thread of the block kernel of a variant (the
    //! kernels' own: min_sum_block_registers()); null: 64, their bound
    std::function<unsigned(const min_sum_variant&)> registers;
};

/*!
 * The variant for a code. Quasi-cyclic (choice.quasi_cyclic and
 * min_sum_quasi_cyclic_usable()): with checks unrolled by degree
 * (min_sum_variant::qc_unrolled), of the groups of up to
 * min_sum_qc_unrolled_lanes lanes that fit and whose blocks have 2 warps or
 * more, the smallest that keeps min_sum_qc_resident_warps warps resident an
 * SM, where none does the one with the most checks' lanes resident (blocks
 * of 2 warps or more first, of as many the smaller); else the smallest group
 * whose lanes give a block min_sum_qc_threads threads (a lane a check of a
 * base row; at most 32 lanes and 1024 threads), halved until its beliefs
 * fit; choice.lanes, where set and its group fits: that group; its blocks
 * those resident on choice.sms SMs. Lifting sizes above the pair blocks'
 * min_sum_qc_pair_threads take one lane in the strided kernel
 * (min_sum_variant::qc_strided) where choice.quasi_cyclic_strided and the
 * profile has it. The family comes before the on-chip
 * groups where its checks are unrolled, its blocks have 2 warps or more and
 * choice.lanes, where set, is its group (and, strided, an SM keeps
 * min_sum_qc_strided_warps warps), or with choice.quasi_cyclic_first;
 * else where no on-chip group is chosen (before the split variant unless
 * that takes pairs and the family a frame a lane, or strided fewer warps,
 * at lifting sizes above min_sum_qc_pair_threads). Otherwise: a group of G lanes (G =
 * 1, 2, ... 32; a lane one
 * frame, or two in fp16 pairs where min_sum_pairs_exact()) a thread block,
 * its state in shared memory, or the global variant where no group fits.
 * - Flooding: the smallest group that fits (the most blocks an SM, each a
 *   frame or two a lane: a check step has enough checks to keep all of an
 *   SM's threads busy), its threads filling the SM (the most that keep the
 *   blocks its shared memory holds, at least 128).
 * - Layered: the group with the most frames resident an SM (ties: the
 *   smaller group whose block has 3 warps or more), its threads a lane for
 *   each check of a run; the global variant where fewer than
 *   min_sum_layered_frames_per_sm frames would be resident (a run's checks
 *   then keep too few warps busy). Codes whose runs average fewer than 16
 *   checks take one frame a lane in the largest group of 8 lanes or more
 *   that fits (few busy warps, and a pair's check takes longer).
 * Where groups in pairs do not fit, groups of one frame a lane are weighed
 * by the same rules. Layered with the 8-bit rule and compact records, where
 * no group is chosen: the split variant (choice.split) of one lane, a lane
 * for each check of the longest run, in pairs where their beliefs fit and
 * the blocks an SM then holds keep 16 warps busy with a run's checks (on
 * average), else of one frame a lane by the same test; else the global
 * variant. \p choice.lanes, where set (1, 2, 4 ... 32; other values fit no
 * group), takes that group wherever it fits (and is not weighed for split).
 */
GPULDPC_PLAN_API min_sum_variant min_sum_choose(const min_sum_graph& g,
                                                bool layered,
                                                binary_rule rule,
                                                const min_sum_choice& choice);

//! The three-smallest rule in fp16 pairs (min_sum_variant::qc_half): base
//! rows of up to this many blocks (every profile's).
constexpr unsigned min_sum_qc_three_pair_degree = 24;

/*!
 * The three-smallest rule's table of f (\p f[x] for x = 0 .. \p count - 1,
 * two_smallest_table() of the CPU reference) as three steps, which the fp16
 * pairs compute instead of reading the table: true, and steps[j] the number
 * of x with f[x] > j, where f is non-increasing from at most 3 down to 0 or
 * more (f[x] is then the number of j with x < steps[j]; llr_scale 4 gives
 * 1, 4, 9); false otherwise (llr_scale 8: f[0] = 6).
 */
GPULDPC_PLAN_API bool
min_sum_three_smallest_steps(const int8_t* f, size_t count, uint16_t steps[3]);

//! The quasi-cyclic family: threads a block the choice of a group aims at.
constexpr unsigned min_sum_qc_threads = 256;
//! The quasi-cyclic family in 16-bit pairs: threads a block at most (a lane
//! a check of a base row: lifting sizes up to this).
constexpr unsigned min_sum_qc_pair_threads = 384;

//! The quasi-cyclic family with checks unrolled by row degree: lanes a
//! group at most (a group's threads min_sum_qc_pair_threads at most).
constexpr unsigned min_sum_qc_unrolled_lanes = 8;

//! The quasi-cyclic family with checks unrolled by row degree: warps
//! resident an SM that the choice of a group aims at.
constexpr unsigned min_sum_qc_resident_warps = 20;

//! The quasi-cyclic family's strided kernel (min_sum_variant::qc_strided):
//! warps resident an SM below which the split variant in pairs, where it
//! exists, comes first (a row's barrier exposed: CCSDS AR4JA k = 16384 rate
//! 1/2, Z = 2048, one block of 11 warps an SM, 5.44 Gbit/s against 8.04 in
//! the split variant, H200, in a form of the kernel that took such Z).
constexpr unsigned min_sum_qc_strided_warps = 16;

/*!
 * Whether the quasi-cyclic family has strided instances of its unrolled
 * kernel (min_sum_variant::qc_strided) for rows of \p profile: the
 * profiles of up to 16 and 20 blocks a row (binary::qc_profile_any16,
 * qc_profile_any20), whose codes come at lifting sizes above
 * min_sum_qc_pair_threads (CCSDS AR4JA, .qc files); 5G NR's Z is 384 at most.
 */
GPULDPC_PLAN_API bool min_sum_qc_strided_profile(unsigned profile);

//! Layered on chip: frames resident an SM at least.
constexpr unsigned min_sum_layered_frames_per_sm = 8;

/*!
 * Blocks of an on-chip variant that an SM \p sm holds at once with
 * \p registers registers a thread (as cudaOccupancy counts them: by shared
 * memory, threads, registers a warp in units of 256, and blocks).
 */
GPULDPC_PLAN_API size_t min_sum_blocks_per_sm(const min_sum_variant& v,
                                              const min_sum_sm& sm,
                                              unsigned registers);

/*!
 * Whether fp16 pairs give the integer results of the 8-bit rule: the rule is
 * fixed_min_sum, and the bits of degree 14 at most (the beliefs, a channel
 * value and a message a check, then within the 2048 that fp16 holds
 * exactly, and under the layered limit, which the pair kernels do not
 * apply), in either schedule.
 */
GPULDPC_PLAN_API bool min_sum_pairs_exact(const min_sum_graph& g, binary_rule rule);

/*! The state bytes of one group of \p frames frames. */
GPULDPC_PLAN_API size_t min_sum_state_bytes(const min_sum_graph& g,
                                            bool layered,
                                            binary_rule rule,
                                            unsigned frames,
                                            bool compressed);

/*!
 * Whether the check messages can be stored compressed
 * (min_sum_variant::compressed): the 8-bit rule, layered, and the checks
 * have compact records (min_sum_graph::slot_edges).
 */
GPULDPC_PLAN_API bool
min_sum_compressed_usable(const min_sum_graph& g, bool layered, binary_rule rule);

/*! Workspace bytes (params::workspace) of a launch of \p n_frames frames:
 *  0 on chip; split, the messages of the blocks the launch takes; for the
 *  global variant, the groups' state and per-frame counters. */
GPULDPC_PLAN_API size_t min_sum_workspace_bytes(const min_sum_variant& v,
                                                size_t n_frames);

/*!
 * Frames that keep every warp of the global variant's grid busy twice over
 * in a step (a run's checks, a warp a group each), the grid being
 * \p grid_blocks blocks (min_sum_launch_plan::max_blocks: those resident on
 * the device).
 */
GPULDPC_PLAN_API size_t min_sum_global_batch(const min_sum_graph& g,
                                             const min_sum_variant& v,
                                             bool layered,
                                             size_t grid_blocks);

/*! Frames one launch of the global variant takes at most. */
GPULDPC_PLAN_API size_t min_sum_max_global_frames(const min_sum_graph& g);

/*!
 * \p v in words (the rule, where the state lives, frames a lane, a group and
 * threads a block; \p compact_records: the checks read compact records), for
 * batch_decoder::kernel_variant().
 */
GPULDPC_PLAN_API std::string min_sum_describe(const min_sum_variant& v,
                                              bool compact_records);

//! The kernels of a variant: a block a group with its state on chip, a
//! block a group at a time with its messages in global memory, or one
//! cooperative grid.
enum class min_sum_family : uint8_t { on_chip, split, global, quasi_cyclic };

//! How a check reads the graph: its compact record, read in full where
//! min_sum_graph::full_records, or the graph's arrays.
enum class min_sum_records : uint8_t { graph, compact, full };

//! The arithmetic of a variant's kernels: the rule, frames a lane, and how
//! check messages are stored.
enum class min_sum_arithmetic : uint8_t {
    fixed8,                  //!< 8-bit rule, a frame a lane
    fixed8_pairs,            //!< 8-bit rule, two frames a lane in fp16 pairs
    fixed8_compressed,       //!< fixed8, compressed check messages
    fixed8_pairs_compressed, //!< fixed8_pairs, compressed check messages
    fixed8_wide_pairs,       //!< 8-bit rule, 16-bit integer pairs
    fixed8_three,            //!< fixed_three_smallest, a frame a lane
    fixed8_three_pairs,      //!< fixed_three_smallest, fp16 pairs
    float_min_sum,           //!< fp32 min-sum
    float_sum_product,       //!< fp32 sum-product
};

/*! Which kernel instantiation a variant launches. */
struct min_sum_kernel_key {
    min_sum_family family;
    min_sum_arithmetic arithmetic;
    bool layered;
    min_sum_records records;
    unsigned lanes; //!< lanes a group (1, 2, 4 ... 32; the global family: 32)
    //! the quasi-cyclic family: base rows of this many blocks at most, 8, 16,
    //! 24 or 32 (a check's values in registers); others 0
    unsigned row_degree;
    //! the quasi-cyclic family with checks unrolled by row degree: the graph's
    //! qc_profile (min_sum_variant::qc_unrolled); 0 the kernel with a
    //! check's positions in a loop
    unsigned qc_profile;
    //! with qc_profile, fp16 pairs: compact message words
    //! (min_sum_variant::qc_compact)
    bool qc_compact;
    //! with qc_profile: the strided instance (min_sum_variant::qc_strided)
    bool qc_strided;
    //! the 8-bit rule, layered, on a graph with bits of 15 checks or more
    //! (the only ones whose beliefs reach min_sum_fixed8_belief_limit): the
    //! kernel that limits beliefs (the quasi-cyclic family's always do)
    bool limited;
};

/*!
 * The kernel instantiation of variant \p v for graph \p g (whose
 * slot_edges, slot_variables and full_records say how checks read it).
 * std::invalid_argument where no kernel serves the variant (a group size
 * other than 1, 2, 4 ... 32 lanes on chip; split other than one lane of the
 * 8-bit rule, layered, with compact records; 16-bit pairs other than in the
 * global variant with checks read from the graph's arrays).
 */
GPULDPC_PLAN_API min_sum_kernel_key min_sum_kernel_of(const min_sum_graph& g,
                                                      const min_sum_variant& v,
                                                      bool layered);

/*!
 * Checks that \p v can decode \p g (as min_sum_choose() makes variants):
 * the runs where layered, degrees within the rule's range, records usable,
 * threads, pairs and compression where they are exact, the global
 * variant's group. std::invalid_argument naming what is wrong otherwise.
 */
GPULDPC_PLAN_API void
min_sum_check_variant(const min_sum_graph& g, const min_sum_variant& v, bool layered);

} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_BINARY_PLAN_H */
