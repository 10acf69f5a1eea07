/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The IEEE 802.11n LDPC codes: a 24-column base matrix lifted by Z = n / 24.

#include "wifi_tables.h"
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

ldpc_code ldpc_code::wifi(unsigned n, const std::string& rate)
{
    const detail::wifi::base_table* found = nullptr;
    bool known_n = false;
    for (const auto& t : detail::wifi::tables) {
        known_n |= t.n == n;
        if (t.n == n && rate == t.rate)
            found = &t;
    }
    if (!known_n)
        throw std::invalid_argument("n=" + std::to_string(n) +
                                    " is not an IEEE 802.11n codeword length; "
                                    "allowed: 648, 1296, 1944");
    if (!found)
        throw std::invalid_argument("rate='" + rate +
                                    "' is not available for IEEE 802.11n codes; "
                                    "allowed: 1/2, 2/3, 3/4, 5/6");
    base_matrix base;
    base.rows = found->rows;
    base.cols = 24;
    base.z = n / 24;
    base.shifts.assign(found->shifts, found->shifts + size_t(base.rows) * base.cols);
    return from_base_matrix(base);
}

} // namespace gpuldpc
} // namespace gr
