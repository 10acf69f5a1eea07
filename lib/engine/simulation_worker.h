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

std::unique_ptr<simulation::worker> make_cpu_sim_worker(batch_decoder::sptr decoder);
/*! CUDA builds only; \p decoder decodes on CUDA device \p device. */
std::unique_ptr<simulation::worker> make_cuda_sim_worker(batch_decoder::sptr decoder,
                                                         int device);

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_SIMULATION_WORKER_H */
