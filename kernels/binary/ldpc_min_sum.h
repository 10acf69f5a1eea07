/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_LDPC_MIN_SUM_H
#define INCLUDED_GPULDPC_KERNELS_LDPC_MIN_SUM_H

// Launcher of binary LDPC decoding; plain C++ for the engine's CUDA host
// code. The variant a code takes, the records and the sizes are planned by
// plan.h (host code of every build); a launch plan, made once from the
// variant (min_sum_plan_launch), names the kernel, its grid and shared
// memory, so that a launch (launch_min_sum) only launches. The kernels:
// on_chip.cu, split.cu and global.cu, their body decode.cuh.

#include "binary/plan.h"
#include <gnuradio/gpuldpc/engine/frame_status.h>
#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>

namespace gr {
namespace gpuldpc {
namespace kernels {

/*! One launch: n_frames frames, inputs and outputs in device memory. */
struct min_sum_params {
    min_sum_graph graph;
    min_sum_variant variant;
    const float* llr;   //!< n_input floats per frame, or null
    const int8_t* llr8; //!< n_input 8-bit values per frame (when llr is null)
    bool flip_llr_sign; //!< positive LLRs mean 0
    float llr_scale;    //!< steps per unit of LLR
    int32_t scale_q;    //!< round(16 * min_sum_scale), 1 .. 16
    int32_t offset_q;   //!< round(min_sum_offset * llr_scale), 0 .. 128
    //! fixed_three_smallest: f(x) for x = 0 .. 254 in device memory (the
    //! CPU reference's table, two_smallest_table() of
    //! lib/engine/fixed_point_rule.h); others null
    const int8_t* combine_table;
    //! fixed_three_smallest in fp16 pairs (min_sum_arithmetic::
    //! fixed8_three_pairs): the table as steps, f(x) the number of j with x <
    //! combine_steps[j] (min_sum_three_smallest_steps)
    uint16_t combine_steps[3];
    float min_sum_scale, min_sum_offset; //!< float_min_sum
    float int8_step; //!< float rules: an 8-bit input value is this much LLR
    //! 8-bit input: values beyond int8_limit (64 * llr_scale, the float
    //! input's clip in steps) become +-int8_clip (round(min(limit, 127)))
    float int8_limit;
    int32_t int8_clip;
    unsigned max_iterations;
    bool early_termination;
    bool layered;
    size_t n_frames;
    //! global and split variants: min_sum_workspace_bytes(variant, n_frames)
    //! bytes
    uint8_t* workspace;
    uint8_t* info_bits;     //!< k per frame (0/1), or packed
    bool pack_info_bits;    //!< info_bits 8 a byte, MSB first, ceil(k / 8) a frame
    uint8_t* codeword_bits; //!< n per frame (0/1), or null
    frame_status* status;   //!< per frame
};

/*!
 * How the launches of one variant go, resolved once: the kernel
 * instantiation, block and dynamic shared memory (opted into where above
 * 48 KiB), whether the launch is cooperative, and what bounds the grid.
 */
struct min_sum_launch_plan {
    min_sum_family family;
    const void* kernel;      //!< the instantiation's host stub
    const char* kernel_name; //!< for errors of its launches
    unsigned threads;        //!< a block
    size_t shared_bytes;     //!< dynamic shared memory a block
    bool cooperative;        //!< the global family: a grid-wide barrier
    //! on chip and split: frames a block's group; global: 32, the grid
    //! sized for a warp an item of every 32 frames
    unsigned frames;
    //! split: blocks a launch at most (min_sum_variant::blocks); global: the
    //! blocks resident on the device; on chip: 0 (a block a group)
    size_t max_blocks;
    //! global: a step's items a group at most (checks or bits)
    size_t items;
    //! frames a launch at most (global: min_sum_max_global_frames)
    size_t max_frames;
    bool needs_workspace; //!< split and global: params::workspace

    //! The blocks of a launch of \p n_frames frames.
    unsigned blocks(size_t n_frames) const;
};

/*!
 * The launch plan of variant \p v for \p g (its records and full_records as
 * the launches will have them), on the current device: checks the variant
 * (min_sum_check_variant), resolves its kernel (min_sum_kernel_of), lets it
 * take more than 48 KiB of shared memory where it needs to, and for the
 * global family counts the blocks resident on the device.
 * std::invalid_argument for a variant no kernel serves; cuda_error where the
 * device cannot be queried.
 */
min_sum_launch_plan
min_sum_plan_launch(const min_sum_graph& g, const min_sum_variant& v, bool layered);

/*! Registers a thread of the kernel of \p v for \p g's records
 *  (cudaFuncGetAttributes), for min_sum_choice::registers. */
unsigned
min_sum_block_registers(const min_sum_variant& v, const min_sum_graph& g, bool layered);

/*!
 * Whether the quasi-cyclic kernels with checks unrolled by row degree are
 * built for the current device (their code is compiled for sm_90 and later
 * only: a build whose architectures stop below 90 runs older PTX there);
 * callers MUST NOT choose them (min_sum_choice::quasi_cyclic_unrolled)
 * otherwise. cuda_error where the device cannot be queried.
 */
bool min_sum_qc_unrolled_built();

/*!
 * Enqueues the decoding of \p p on \p stream with \p plan (made for
 * p.graph, p.variant and p.layered): the status records cleared, the kernel
 * launched. p.n_frames MUST be at most plan.max_frames and p.workspace set
 * where plan.needs_workspace (std::invalid_argument otherwise); cuda_error
 * on a launch failure.
 */
void launch_min_sum(const min_sum_launch_plan& plan,
                    const min_sum_params& p,
                    cudaStream_t stream);

} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_LDPC_MIN_SUM_H */
