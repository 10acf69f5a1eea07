/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_BINARY_STATE_LAYOUT_H
#define INCLUDED_GPULDPC_KERNELS_BINARY_STATE_LAYOUT_H

// Where a group's decoder state lies in its memory, and the sizes the kernels
// are built for: one definition for the kernels (nvcc) and for the host-side
// planning that sizes shared memory and workspaces (g++), so that both count
// the same bytes.
//
// The state of a group of F frames is frame-interleaved: value x of frame f
// at x * F + f, so that the lanes of a warp, a frame each, touch neighbouring
// values of one check or bit. belief (16 bits a bit in the 8-bit rule, else
// fp32): the channel value plus all check messages into the bit; c2v: the
// check messages (compressed: a 4-byte word a frame a check); channel
// (flooding): the channel values.

#include "binary/plan.h"
#include <cstddef>

#ifdef __CUDACC__
#define GPULDPC_BINARY_HD __host__ __device__
#else
#define GPULDPC_BINARY_HD
#endif

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace binary {

//! lanes a group at most; the global variant's groups have this many
constexpr unsigned max_block_frames = 32;
//! threads a block of the global variant
constexpr unsigned grid_threads = 512;
//! a group's state starts on this boundary (the global variant's groups, a
//! split block's region of messages)
constexpr size_t state_alignment = 256;
//! registers a thread of the block kernels at most (__launch_bounds__(1024))
constexpr unsigned block_kernel_registers = 64;

//! the block kernels' static shared memory (the per-frame counters) for F
//! frames, as the choice of a variant counts it
GPULDPC_BINARY_HD constexpr size_t counter_bytes(unsigned frames)
{
    return 16 * size_t(frames) + 16;
}

GPULDPC_BINARY_HD constexpr size_t align_up(size_t x, size_t a)
{
    return (x + a - 1) / a * a;
}

//! Bytes of a belief, a check message and a channel value.
struct value_sizes {
    size_t belief, message, channel;
};

//! Whether \p rule computes in the 8-bit rule's integers (decoder.h,
//! message_precision::int8): channel values and messages in bytes, beliefs
//! in 16 bits.
GPULDPC_BINARY_HD constexpr bool is_fixed_point(binary_rule rule)
{
    return rule == binary_rule::fixed_min_sum ||
           rule == binary_rule::fixed_three_smallest;
}

GPULDPC_BINARY_HD constexpr value_sizes sizes_of(binary_rule rule)
{
    return is_fixed_point(rule) ? value_sizes{ 2, 1, 1 } : value_sizes{ 4, 4, 4 };
}

//! Byte offsets of a group's state (split: the beliefs in shared memory, the
//! rest, from c2v on, in global memory).
struct state_layout {
    size_t belief, c2v, c2v_bytes, channel, bytes;

    //! F frames; compressed: a 4-byte word a frame a check
    GPULDPC_BINARY_HD state_layout(size_t n,
                                   size_t edges,
                                   size_t checks,
                                   bool layered,
                                   binary_rule rule,
                                   unsigned F,
                                   bool compressed)
    {
        const value_sizes z = sizes_of(rule);
        // a bit and (not compressed) a message more, never written: what a
        // compact check's positions past its degree read
        // (update_compact_check)
        belief = 0;
        c2v = align_up(z.belief * (n + 1) * F, 16);
        c2v_bytes = compressed ? 4 * checks * F : z.message * (edges + 1) * F;
        channel = align_up(c2v + c2v_bytes, 16);
        bytes =
            align_up(layered ? channel : channel + z.channel * n * F, state_alignment);
    }
    //! split: the bytes of the beliefs (shared memory)
    GPULDPC_BINARY_HD size_t belief_bytes() const { return c2v; }
    //! split: the bytes of the rest (global memory; a block's region starts
    //! on a state_alignment boundary)
    GPULDPC_BINARY_HD size_t message_bytes() const
    {
        return align_up(bytes - c2v, state_alignment);
    }
};

//! The quasi-cyclic family's dynamic shared memory: the beliefs of F frames
//! (16 bits a bit, frame-interleaved, a bit past the last as state_layout
//! has them), then the base matrix's records from this offset: its blocks,
//! 8 bytes each (the column's first bit and the shift), and the rows'
//! offsets (min_sum_qc_records); then, from qc_unrolled_records_offset, for
//! the kernels with checks unrolled by degree (\p unrolled), the rows (16
//! bytes each) and the blocks again, scaled to bytes (8 bytes each).
GPULDPC_BINARY_HD constexpr size_t qc_records_offset(size_t n, unsigned F)
{
    return align_up(2 * (n + 1) * size_t(F), 16);
}
GPULDPC_BINARY_HD constexpr size_t
qc_unrolled_records_offset(size_t n, unsigned F, unsigned rows, unsigned entries)
{
    return qc_records_offset(n, F) +
           align_up(8 * size_t(entries) + 4 * (size_t(rows) + 1), 16);
}
GPULDPC_BINARY_HD constexpr size_t
qc_shared_bytes(size_t n, unsigned F, unsigned rows, unsigned entries, bool unrolled)
{
    return qc_unrolled_records_offset(n, F, rows, entries) +
           (unrolled ? 16 * size_t(rows) + align_up(8 * size_t(entries), 16) : 0);
}
//! The quasi-cyclic family's check messages of a block in global memory, 8
//! bytes a frame a check (a frame a lane: a uint2, signs; mag1, mag2 and the
//! position of the smallest input; pair lanes: a uint4 for both frames),
//! check r of base row i of lane f at word (i z + r) G + f (G lanes); with
//! compact words (min_sum_variant::qc_compact) rows of 8 bytes a pair a check
//! among them, each row from a multiple of 16 bytes, within this size.
//! \p frame_bytes: 16 under the three-smallest rule (a uint4 a frame).
GPULDPC_BINARY_HD constexpr size_t
qc_message_bytes(unsigned rows, unsigned z, unsigned F, unsigned frame_bytes = 8)
{
    return align_up(size_t(frame_bytes) * rows * z * F, state_alignment);
}
//! The quasi-cyclic family's check messages of a block kept a byte a frame
//! an edge (the three-smallest rule in fp16 pairs): base row i's from a
//! multiple of 16 bytes, the message of position k of check r of lane f
//! (G lanes) at pair (k z + r) G + f of the row's.
GPULDPC_BINARY_HD constexpr size_t
qc_edge_message_bytes(unsigned rows, unsigned entries, unsigned z, unsigned F)
{
    return align_up(size_t(entries) * z * F + 16 * size_t(rows), state_alignment);
}

} // namespace binary
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_BINARY_STATE_LAYOUT_H */
