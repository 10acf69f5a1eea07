/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_GFQ_SIZES_H
#define INCLUDED_GPULDPC_KERNELS_GFQ_SIZES_H

// The sizes that the FFT-BP kernels are built with and that the host plan
// (fft_bp_choose, the edge layout) MUST agree with: threads of a block,
// scratch rows, lanes of a message, the edge layout's columns. Plain C++; under
// nvcc the functions are also device functions (launch bounds, templates).

#include "gfq/plan.h"
#include <cstddef>
#include <cstdint>

#ifdef __CUDACC__
#define GPULDPC_FFT_BP_SIZE __host__ __device__
#else
#define GPULDPC_FFT_BP_SIZE
#endif

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace gfq {

// Threads of the row kernels (per frame, and every check-parallel kernel).
constexpr unsigned block_threads = 256;

// static __shared__ counters and what the runtime reserves beside them
constexpr size_t static_shared_bytes = 64;

GPULDPC_FFT_BP_SIZE constexpr unsigned log2_of(unsigned q)
{
    return q <= 1 ? 0 : 1 + log2_of(q >> 1);
}

// Threads of a per-frame kernel: 512 where a register check update leaves
// registers for it (twice the warps per frame on chip, which hides more
// latency), else 256; the tensor-core family 384 (two blocks of 80 registers a
// thread an SM). GF(256) with 4 edge slots takes the whole register file with
// 512 threads: only with fp16 messages, where a frame's block sits alone on its
// SM (H100, GF(256) with 64 symbols, flooding: 77 -> 86 Mbit/s; with fp32
// messages the layered schedule keeps two blocks of 256 an SM: 512 would cost
// 67 -> 41).
GPULDPC_FFT_BP_SIZE constexpr unsigned
frame_threads(fft_bp_family family, unsigned q, unsigned edge_slots, bool half_messages)
{
    if (family == fft_bp_family::tensor_cores)
        return 384;
    return family == fft_bp_family::registers &&
                   (q == 64 || (edge_slots == 4 && q == 128) ||
                    (edge_slots == 4 && q == 256 && half_messages))
               ? 512
               : block_threads;
}

// Blocks per SM that a per-frame kernel's registers must allow: two where one
// block leaves most of the SM's warps idle and two fit without spills (the
// compiler's own choice can put the SM at one block: H100, GF(64) at 73
// registers instead of 64, 358 -> 279 Mbit/s).
GPULDPC_FFT_BP_SIZE constexpr unsigned frame_min_blocks(fft_bp_family family,
                                                        unsigned q,
                                                        unsigned edge_slots,
                                                        bool half_messages)
{
    if (family == fft_bp_family::rows) // four blocks of 256 for small fields (64
        // registers; H100, GF(16) layered at 76 registers: 167 -> 133 Mbit/s)
        return q <= 16 ? 4 : 1;
    if (family == fft_bp_family::tensor_cores)
        return 2;
    return edge_slots == 4 && (q == 64 || (q == 256 && !half_messages)) ? 2 : 1;
}

// The edge slots of the register check update for q and a check degree; 0
// where it does not apply (each of these is a kernel instantiation).
constexpr unsigned register_edge_slots(unsigned q, unsigned max_check_degree)
{
    const unsigned slots = max_check_degree <= 4 ? 4 : max_check_degree <= 8 ? 8 : 0;
    if (slots == 4 && (q == 64 || q == 128 || q == 256))
        return 4;
    if (slots == 8 && (q == 64 || q == 128))
        return 8;
    return 0;
}

// Floats of one edge slot's row in the register check update (see
// register_layout::row), for q values of 32 / slots lanes each.
GPULDPC_FFT_BP_SIZE constexpr unsigned register_row_floats(unsigned q, unsigned slots)
{
    return (32 / slots * (q / (32 / slots) + 4) + 31) / 32 * 32 + 32 / slots;
}

// Whether an on-chip frame keeps a copy of the field's q x q table in shared
// memory (q <= 64: 4 KiB at most).
GPULDPC_FFT_BP_SIZE constexpr bool on_chip_field_table(unsigned q) { return q <= 64; }

// Lanes that serve one variable in flooding's variable phase.
GPULDPC_FFT_BP_SIZE constexpr unsigned variable_lanes(unsigned q)
{
    return q >= 128 ? 32 : (q >= 8 ? q / 4 : 1);
}

// The edge-thread family. Lanes that hold one message: 1 for q <= 64; GF(256)
// splits a message over lanes_256 lanes of 256 / lanes_256 values (y = sub * V
// + r: the lane's sub carries y's high bits, the register index r the low
// ones). H100, GF(256) with 64 symbols, 10 iterations, before the one-pass
// variable phase: 4 lanes of 64 values, 282 Mbit/s; 2 lanes of 128 (one
// shuffle stage a transform instead of two, but 255 registers and 8 warps an
// SM, latency-bound), 243.
constexpr unsigned lanes_256 = 4;
GPULDPC_FFT_BP_SIZE constexpr unsigned message_lanes(unsigned q)
{
    return q > 64 ? lanes_256 : 1;
}

// q <= 64: six warps a block and three blocks an SM, 96 registers a thread
// (warps are spread over the SM's four register files), which hold a message
// of 64 values and its addresses without spilling; the shared memory of a
// GF(64) frame of 96 symbols (74 KiB) also allows three. GF(256): a frame's
// 192 KiB allow one block an SM, so it takes up to 16 warps.
// GF(2): a message takes two registers, and a lane's work is short beside a
// block's barriers: 16 warps a block (H100, the (3,6) n = 1008 code: 1866
// Mbit/s at 6 warps, 2753 at 16, 2635 at 32). GF(4) and GF(8) keep six
// (GF(4), n = 256: 7246 at 6 warps, 6264 at 16).
GPULDPC_FFT_BP_SIZE constexpr unsigned edge_max_threads(unsigned q)
{
    return q == 2 ? 512 : message_lanes(q) == 1 ? 192 : 128 * message_lanes(q);
}
GPULDPC_FFT_BP_SIZE constexpr unsigned edge_min_blocks(unsigned q)
{
    return q == 2 ? 2 : message_lanes(q) == 1 ? 3 : 1;
}

// bytes from value x to x + 1 of an edge's column: 32 columns of floats side
// by side
constexpr unsigned column_stride = 128;
// bits of a column's byte offset in the layout's words
constexpr unsigned column_bits = 18;
// an idle lane's word in the edge layout
constexpr uint32_t idle_lane = 0xffffffffu;

} // namespace gfq
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_GFQ_SIZES_H */
