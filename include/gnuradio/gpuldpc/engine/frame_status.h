/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_FRAME_STATUS_H
#define INCLUDED_GPULDPC_ENGINE_FRAME_STATUS_H

// A leaf header (it includes nothing of the module): the one per-frame result
// type of every layer, written by the GPU kernels, returned by the engine's
// decoders and seen in Python as a structured array.

#include <cstdint>

namespace gr {
namespace gpuldpc {

/*!
 * \brief Per-frame result of a decode call.
 *
 * converged: the final hard decision satisfies every check (syndrome zero).
 * iterations: iterations run; 0 when the channel decision already was a
 * codeword and early termination is on.
 * syndrome_weight: unsatisfied checks of the final hard decision.
 * invalid_inputs: NaN or infinite input values that were neutralised.
 */
struct frame_status {
    uint8_t converged;
    uint32_t iterations;
    uint32_t syndrome_weight;
    uint32_t invalid_inputs;
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_FRAME_STATUS_H */
