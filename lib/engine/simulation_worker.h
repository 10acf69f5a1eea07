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

std::unique_ptr<simulation::worker> make_cpu_sim_worker(batch_decoder::sptr decoder);
/*! CUDA builds only; \p decoder decodes on CUDA device \p device. */
std::unique_ptr<simulation::worker> make_cuda_sim_worker(batch_decoder::sptr decoder,
                                                         int device);

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_SIMULATION_WORKER_H */
