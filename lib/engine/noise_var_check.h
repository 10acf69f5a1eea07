/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_NOISE_VAR_CHECK_H
#define INCLUDED_GPULDPC_ENGINE_NOISE_VAR_CHECK_H

// The soft demappers' (CPU and GPU) check of N0: a normal positive float,
// else every LLR would be NaN or infinite.

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuldpc {

inline void check_noise_var(float noise_var)
{
    if (!(noise_var >= std::numeric_limits<float>::min()) || !std::isfinite(noise_var))
        throw std::invalid_argument("noise_var=" + std::to_string(noise_var) +
                                    " is out of range; allowed: finite and > 0, at least "
                                    "1.2e-38");
}

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_NOISE_VAR_CHECK_H */
