/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_SIMULATION_WORKER_H
#define INCLUDED_GPULDPC_ENGINE_SIMULATION_WORKER_H

#include <gnuradio/gpuldpc/engine/simulation.h>

namespace gr {
namespace gpuldpc {

/*!
 * One device's part of a simulation: the frames given to it, drawn, decoded
 * and counted there. Contract: as simulation::run() and frames() for the
 * frames first + j * stride; one caller at a time.
 */
class simulation::worker
{
public:
    virtual ~worker() = default;
    virtual void run(uint64_t seed,
                     const sim_channel& channel,
                     uint64_t first,
                     uint64_t stride,
                     size_t count,
                     sim_frame_result* results) = 0;
    virtual void frames(uint64_t seed,
                        const sim_channel& channel,
                        uint64_t first,
                        uint64_t stride,
                        size_t count,
                        uint8_t* info,
                        uint8_t* codeword,
                        float* llr) = 0;
    virtual std::string name() const = 0;
    virtual size_t preferred_batch() const = 0;
    virtual std::string encoder_variant() const = 0;
};

namespace detail {

/*!
 * The back-substitution of ldpc_code::encode() (encoder() echelon) in
 * levels: a pivot's level is one more than the highest level of the pivots
 * its row reads (information at level 0), so that a level's pivots depend
 * on earlier levels only and may be solved at once. Pivots in level order:
 * level L is pivots[level_offsets[L] .. level_offsets[L + 1] - 1], pivot i's
 * row columns[row_offsets[i] .. row_offsets[i + 1] - 1] with values.
 */
struct echelon_levels {
    std::vector<uint32_t> level_offsets, pivots, row_offsets, columns;
    std::vector<uint8_t> values;
    size_t levels() const { return level_offsets.size() - 1; }
};
GPULDPC_ENGINE_API echelon_levels make_echelon_levels(const ldpc_code& code);

/*!
 * echelon_levels as the device encoder reads them (kernels/common/simulate.h):
 * a level's rows longest first, in slices of sim::slice_rows rows, a slice's
 * terms interleaved (term j of row i at offsets[s] + j * slice_rows + i) so
 * that a warp's lanes read consecutive words. Short rows are padded with
 * column n (a symbol always 0), a level's last slice with rows of pivot n.
 */
struct echelon_slices {
    std::vector<uint32_t> level_slices, offsets, lengths, pivots, columns;
    std::vector<uint8_t> values;
    unsigned widest_level = 0; //!< the most slices a level has
    size_t levels() const { return level_slices.size() - 1; }
};
GPULDPC_ENGINE_API echelon_slices make_echelon_slices(const ldpc_code& code);

/*!
 * The device encoder's accumulator (encoder() accumulator, the information
 * at positions 0 .. k - 1): thread t of sim::encoder_threads takes checks
 * t * run .. (t + 1) * run - 1, their information positions in order, each
 * check's last flagged sim::acc_end (sim::acc_none | sim::acc_end for a check
 * without one), sim::acc_none after its last check; entry j of thread t at
 * entries[j * sim::encoder_threads + t].
 */
struct accumulator_runs {
    unsigned run = 0, slots = 0;
    std::vector<uint32_t> entries;
};
GPULDPC_ENGINE_API accumulator_runs make_accumulator_runs(const ldpc_code& code);

std::unique_ptr<simulation::worker> make_cpu_sim_worker(batch_decoder::sptr decoder);
/*! CUDA builds only; \p decoder decodes on CUDA device \p device. */
std::unique_ptr<simulation::worker> make_cuda_sim_worker(batch_decoder::sptr decoder,
                                                         int device);

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_SIMULATION_WORKER_H */
