/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The IEEE 802.16e LDPC codes: a 24-column base matrix for each rate, lifted
// by z = n / 24 with its shifts scaled from z0 = 96.

#include "wimax_tables.h"
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <cctype>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

ldpc_code ldpc_code::wimax(unsigned n, const std::string& rate)
{
    // n = 576, 672, ..., 2304: z = 24 .. 96 in steps of 4
    if (n < 576 || n > 2304 || n % 96 != 0)
        throw std::invalid_argument("n=" + std::to_string(n) +
                                    " is not an IEEE 802.16e codeword length; "
                                    "allowed: 576 .. 2304 in steps of 96");
    std::string wanted = rate;
    if (!wanted.empty())
        wanted.back() = char(std::toupper(static_cast<unsigned char>(wanted.back())));
    const detail::wimax::base_table* found = nullptr;
    for (const auto& t : detail::wimax::tables)
        if (wanted == t.rate)
            found = &t;
    if (!found)
        throw std::invalid_argument("rate='" + rate +
                                    "' is not available for IEEE 802.16e codes; "
                                    "allowed: 1/2, 2/3A, 2/3B, 3/4A, 3/4B, 5/6");
    base_matrix base;
    base.rows = found->rows;
    base.cols = 24;
    base.z = n / 24;
    base.shifts.resize(size_t(base.rows) * base.cols);
    // 802.16-2009, 8.4.9.2.5.1: p(f, i, j) = p(i, j) mod z for rate 2/3A,
    // floor(p(i, j) z / z0) for the others; -1 and 0 stay
    for (size_t i = 0; i < base.shifts.size(); ++i) {
        const int p = found->shifts[i];
        if (p <= 0)
            base.shifts[i] = p;
        else if (found->modulo_scaling)
            base.shifts[i] = p % int(base.z);
        else
            base.shifts[i] = int(unsigned(p) * base.z / detail::wimax::z0);
    }
    return from_base_matrix(base);
}

} // namespace gpuldpc
} // namespace gr
