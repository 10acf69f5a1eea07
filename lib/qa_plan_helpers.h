/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_QA_PLAN_HELPERS_H
#define INCLUDED_GPULDPC_QA_PLAN_HELPERS_H

// What the tests of the binary decoder's host planning share: a code's shape
// as the choice of a variant weighs it, and an H100's SM.

#include "binary/plan.h"
#include <cstddef>

namespace gr {
namespace gpuldpc {
namespace qa {

// A binary code's shape, as the choice of a variant weighs it.
inline kernels::min_sum_graph code_shape(unsigned n,
                                         unsigned checks,
                                         size_t edges,
                                         unsigned max_variable_degree,
                                         unsigned max_check_degree,
                                         unsigned runs)
{
    kernels::min_sum_graph g{};
    g.n = n;
    g.checks = checks;
    g.edges = edges;
    g.max_variable_degree = max_variable_degree;
    g.max_check_degree = max_check_degree;
    g.runs = runs;
    return g;
}

// An H100's SM, kernels of 32 registers a thread.
inline kernels::min_sum_choice h100_choice()
{
    kernels::min_sum_choice c;
    c.shared_limit = 227 * 1024;
    c.sm = { 228 * 1024, 1024, 2048, 65536, 32 };
    c.registers = [](const kernels::min_sum_variant&) { return 32u; };
    return c;
}

} // namespace qa
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_QA_PLAN_HELPERS_H */
