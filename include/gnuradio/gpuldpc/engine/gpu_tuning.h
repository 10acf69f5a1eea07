/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_GPU_TUNING_H
#define INCLUDED_GPULDPC_ENGINE_GPU_TUNING_H

#include <gnuradio/gpuldpc/engine/config.h>
#include <cstddef>
#include <cstdint>

namespace gr {
namespace gpuldpc {

/*!
 * \brief How the GPU engines choose and launch their kernels: the defaults
 * are what every user wants; the other values exist for tests (a capped
 * shared-memory limit stands for a smaller card, a launch of few frames
 * exercises the multi-launch path) and for comparisons in benchmarks.
 *
 * Contract:
 * - A default-constructed value MUST give the engines' own choice on every
 *   device; no engine reads the environment for these.
 * - Engines read the struct once, at construction: the kernel variant and
 *   the launch plan are fixed from then on.
 * - from_environment() is the one place where the GPULDPC_* variables below
 *   are read. It is called once, at the edge: the Python API, the GRC
 *   templates and the command-line tools when they make an object, the
 *   transform blocks' make (which takes no tuning); the decoder block takes
 *   it in its params (ldpc_decoder::params::decoder.gpu), so a C++ program
 *   that wants the variables applied calls from_environment() itself. Tests
 *   pass the struct.
 */
struct gpu_tuning {
    //! Dynamic shared memory a block may use, bytes; 0: the device's opt-in
    //! limit. A cap below 48 KiB counts as 48 KiB. GPULDPC_SHARED_MEMORY_LIMIT
    //! (bytes, or KiB with a K or KiB suffix: "64K", "99KiB"; "0" is the
    //! smallest cap, 48 KiB).
    size_t shared_memory_limit = 0;
    //! Frames a decoder launch takes at most; 0: as the workspace allows.
    //! GPULDPC_GPU_DECODER_LAUNCH_FRAMES.
    size_t launch_frames = 0;

    //! FFT-BP: a check's messages may live in registers.
    //! GPULDPC_GPU_DECODER_REGISTERS.
    bool registers = true;
    //! FFT-BP: GF(64) transforms on tensor cores where the device has them.
    //! GPULDPC_GPU_DECODER_TENSOR_CORES.
    bool tensor_cores = true;
    //! FFT-BP flooding: the thread-per-edge family where the code allows it.
    //! GPULDPC_GPU_DECODER_EDGE_THREADS.
    bool edge_threads = true;
    //! FFT-BP: launch sequences replayed as CUDA graphs.
    //! GPULDPC_GPU_DECODER_GRAPHS.
    bool graphs = true;

    //! Binary: checks of up to 8 edges read compact records.
    //! GPULDPC_GPU_DECODER_COMPACT_CHECKS.
    bool compact_checks = true;
    //! Binary 8-bit rule: two frames a lane in fp16 pairs where exact.
    //! GPULDPC_GPU_DECODER_PAIRS.
    bool pairs = true;
    //! Binary 8-bit rule: 16-bit integer pairs (compute capability 9.0 and
    //! later) where fp16 pairs are not exact. GPULDPC_GPU_DECODER_WIDE_PAIRS.
    bool wide_pairs = true;
    //! Binary: compressed check messages in the global variant.
    //! GPULDPC_GPU_DECODER_COMPRESSED.
    bool compressed = true;
    //! Binary: compressed check messages on chip too.
    //! GPULDPC_GPU_DECODER_COMPRESSED_ON_CHIP.
    bool compressed_on_chip = false;
    //! Binary: false takes the global variant for every code.
    //! GPULDPC_GPU_DECODER_ON_CHIP.
    bool on_chip = true;
    //! Binary: the split variant where no on-chip group fits.
    //! GPULDPC_GPU_DECODER_SPLIT.
    bool split = true;
    //! Binary 8-bit rule, layered: the quasi-cyclic family for codes with a
    //! base matrix decoded in its base rows (addresses computed from the
    //! shifts). GPULDPC_GPU_DECODER_QUASI_CYCLIC.
    bool quasi_cyclic = true;
    //! Binary: the quasi-cyclic family before the on-chip groups with its
    //! loop kernel too (with checks unrolled by row degree it comes first
    //! anyway; else where no on-chip group is chosen).
    //! GPULDPC_GPU_DECODER_QUASI_CYCLIC_FIRST.
    bool quasi_cyclic_first = false;
    //! Binary: the quasi-cyclic family's kernel with checks unrolled by row
    //! degree (16-bit pairs; 5G NR's base graphs, rows of up to 24 blocks),
    //! else the one with a check's positions in a loop.
    //! GPULDPC_GPU_DECODER_QUASI_CYCLIC_UNROLLED.
    bool quasi_cyclic_unrolled = true;
    //! Binary: that kernel's check arithmetic in fp16 pairs (additions and
    //! the signs of the messages out on the FMA pipe), else in 16-bit integer
    //! pairs; the same results. GPULDPC_GPU_DECODER_QUASI_CYCLIC_HALF.
    bool quasi_cyclic_half = true;
    //! Binary: that kernel in fp16 pairs keeps the check messages of base
    //! rows of up to 12 blocks in 8-byte words a pair (16 otherwise): 0
    //! never, 1 where the 16-byte words of the resident blocks would outgrow
    //! the device's L2 cache and base rows average 6 blocks or more, 2
    //! always; the same results.
    //! GPULDPC_GPU_DECODER_QUASI_CYCLIC_COMPACT.
    unsigned quasi_cyclic_compact = 1;
    //! Binary: that kernel in fp16 pairs at lifting sizes above its blocks
    //! (384) in instances where a thread takes several checks of a row, for
    //! rows of up to 20 blocks (CCSDS AR4JA, .qc files), where its blocks
    //! keep 16 warps resident an SM; the same results.
    //! GPULDPC_GPU_DECODER_QUASI_CYCLIC_STRIDED.
    bool quasi_cyclic_strided = true;
    //! Binary on chip: lanes a group, 0 (chosen) or 1, 2, 4 ... 32 (the
    //! quasi-cyclic family: that group where it fits).
    //! GPULDPC_GPU_DECODER_LANES.
    unsigned lanes = 0;
    //! Binary on chip: threads a block, 0 (chosen) or a multiple of 32 up to
    //! 1024. GPULDPC_GPU_DECODER_BLOCK_THREADS.
    unsigned block_threads = 0;
    //! Binary split and quasi-cyclic variants: blocks a launch at most, 0
    //! (those resident).
    //! GPULDPC_GPU_DECODER_SPLIT_BLOCKS.
    unsigned split_blocks = 0;

    //! The decoder block: frames a chunk of a batch nothing waits behind;
    //! -1 the decoder's efficient chunk, 0 no chunks.
    //! GPULDPC_BLOCK_CHUNK_FRAMES.
    int64_t block_chunk_frames = -1;
    //! cuFFT load callbacks tried at plan time (off: they fail to link on
    //! the cuFFT releases measured). GPULDPC_CUFFT_CALLBACKS=1.
    bool cufft_callbacks = false;

    /*!
     * The defaults with every GPULDPC_* variable above that is set applied.
     * Switches take 0 or 1. Throws std::invalid_argument naming the variable,
     * its value and what is allowed for a value it cannot use.
     */
    static GPULDPC_ENGINE_API gpu_tuning from_environment();
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_GPU_TUNING_H */
