/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_BINARY_THREE_SMALLEST_H
#define INCLUDED_GPULDPC_KERNELS_BINARY_THREE_SMALLEST_H

// The check accumulator of the 8-bit rule with the three smallest inputs
// combined (binary_rule::fixed_three_smallest), host and device code alike:
// the kernels run it, and a host test runs the same code against the CPU
// reference's rule (fixed_point_min_sum_rule under
// min_sum_magnitude_rule::three_smallest, lib/engine/check_rules.h).

#include "binary/plan.h"
#include "binary/state_layout.h"
#include <cstdint>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace binary {

// Integer helpers of host and device (min, max, abs: one instruction each on
// the device as written)
GPULDPC_BINARY_HD inline int32_t min_of(int32_t a, int32_t b) { return a < b ? a : b; }
GPULDPC_BINARY_HD inline int32_t max_of(int32_t a, int32_t b) { return a > b ? a : b; }
GPULDPC_BINARY_HD inline int32_t abs_of(int32_t a) { return a < 0 ? -a : a; }

// f[i] of a table in device memory (through the read-only cache), or host
// memory
GPULDPC_BINARY_HD inline int32_t table_at(const int8_t* f, int32_t i)
{
#ifdef __CUDA_ARCH__
    return __ldg(f + i);
#else
    return f[i];
#endif
}

// Keeps the compiler from recomputing \p x where it is used (for values made
// once a check and read at every edge); nothing on the host.
GPULDPC_BINARY_HD inline int32_t made_once(int32_t x)
{
#ifdef __CUDA_ARCH__
    asm volatile("" : "+r"(x));
#endif
    return x;
}

// The three smallest input magnitudes, saturated to 127 as the CPU's inputs
// are (layered inputs are exact differences, which may pass 127: saturated
// first, equal magnitudes keep the CPU's order, the first edge first), and
// the edges they are on; at those edges the other two combined, elsewhere
// all three (|a (+) b| = a + f(a + b) - f(b - a) for a <= b, at least 0, f
// the CPU's table, two_smallest_table()). Checks of 2 edges or fewer take
// min-sum's magnitudes; the offset applies at checks of
// min_sum_three_smallest_offset_degree edges or more. Edges are named as the
// kernels name them (an edge id, or a position in the check), in increasing
// order of add().
struct check_three_minima {
    int32_t min1 = 255, min2 = 255, min3 = 255;
    uint32_t at1 = ~0u, at2 = ~0u, at3 = ~0u;
    int32_t signs = 0; // sign bit: parity of the negative inputs
    uint32_t degree = 0;
    // the magnitudes out at at1, at2, at3 and elsewhere
    int32_t mag1 = 0, mag2 = 0, mag3 = 0, mag_rest = 0;
    int32_t scale_q = 16, offset_q = 0; // fixed_point_constants
    const int8_t* f = nullptr;          // f(x), x = 0 .. 254

    GPULDPC_BINARY_HD void add(int32_t x, uint32_t e)
    {
        const int32_t a = min_of(abs_of(x), 127);
        signs ^= x;
        ++degree;
        const bool below1 = a < min1, below2 = a < min2, below3 = a < min3;
        min3 = below2 ? min2 : below3 ? a : min3;
        at3 = below2 ? at2 : below3 ? e : at3;
        min2 = below1 ? min1 : below2 ? a : min2;
        at2 = below1 ? at1 : below2 ? e : at2;
        min1 = below1 ? a : min1;
        at1 = below1 ? e : at1;
    }
    GPULDPC_BINARY_HD int32_t combined(int32_t a, int32_t b) const
    {
        return max_of(a + table_at(f, a + b) - table_at(f, b - a), 0);
    }
    GPULDPC_BINARY_HD int32_t scaled(int32_t m, bool offset) const
    {
        return (max_of(m - (offset ? offset_q : 0), 0) * scale_q + 8) >> 4;
    }
    GPULDPC_BINARY_HD void finish()
    {
        if (degree <= 2) {
            mag1 = made_once(scaled(min_of(min2, 127), false));
            mag2 = mag3 = mag_rest = made_once(scaled(min1, false));
            return;
        }
        const bool offset = degree >= min_sum_three_smallest_offset_degree;
        const int32_t first_two = combined(min1, min2);
        mag1 = made_once(scaled(combined(min2, min3), offset));
        mag2 = made_once(scaled(combined(min1, min3), offset));
        mag3 = made_once(scaled(first_two, offset));
        // a pair's combination is at most its smaller magnitude: first_two
        // <= min3
        mag_rest = made_once(scaled(combined(first_two, min3), offset));
    }
    // The message out on edge e whose input was x.
    GPULDPC_BINARY_HD int32_t message(int32_t x, uint32_t e) const
    {
        const int32_t mag = e == at1   ? mag1
                            : e == at2 ? mag2
                            : e == at3 ? mag3
                                       : mag_rest;
        const int32_t negative = (signs ^ x) >> 31; // 0 or -1
        return (mag ^ negative) - negative;
    }
};

} // namespace binary
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_BINARY_THREE_SMALLEST_H */
