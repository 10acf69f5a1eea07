/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The 5G NR LDPC codes (3GPP TS 38.212, clause 5.3.2): a base graph lifted
// by Z, the shift of each nonzero entry V mod Z with V from the column of
// Z's lifting-size set.

#include "nr_tables.h"
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <iterator>

namespace gr {
namespace gpuldpc {

namespace {

// Set index i_LS of a lifting size Z = a * 2^j (Table 5.3.2-1); -1 when Z
// is not one.
int lifting_set(unsigned z)
{
    const unsigned a_of_set[] = { 2, 3, 5, 7, 9, 11, 13, 15 };
    for (int set = 0; set < 8; ++set)
        for (unsigned s = a_of_set[set]; s <= 384; s *= 2)
            if (s == z)
                return set;
    return -1;
}

} // namespace

namespace detail {
bool nr_lifting_size(unsigned z) { return lifting_set(z) >= 0; }
} // namespace detail

ldpc_code ldpc_code::nr(unsigned base_graph, unsigned z) { return nr(base_graph, z, 0); }

ldpc_code ldpc_code::nr(unsigned base_graph, unsigned z, unsigned parity_rows)
{
    if (base_graph != 1 && base_graph != 2)
        throw std::invalid_argument("base_graph=" + std::to_string(base_graph) +
                                    " is not a 5G NR base graph; allowed: 1, 2");
    const unsigned all_rows = base_graph == 1 ? 46 : 42;
    if (parity_rows == 0)
        parity_rows = all_rows;
    if (parity_rows < 4 || parity_rows > all_rows)
        throw std::invalid_argument(
            "parity_rows=" + std::to_string(parity_rows) + " is out of range for base graph " +
            std::to_string(base_graph) + "; allowed: 4 .. " + std::to_string(all_rows) +
            " (0: all)");
    const int set = lifting_set(z);
    if (set < 0)
        throw std::invalid_argument(
            "z=" + std::to_string(z) +
            " is not a 5G NR lifting size; allowed: a * 2^j <= 384 with a in "
            "{2, 3, 5, 7, 9, 11, 13, 15} (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, ... 384)");
    base_matrix base;
    // Rows 0-3 and the first K_b + 4 columns are the core; extension row i
    // adds the degree-1 parity column K_b + i, which no other row touches, so
    // the first parity_rows rows and K_b + parity_rows columns are a code.
    const unsigned info_columns = base_graph == 1 ? 22 : 10;
    base.rows = parity_rows;
    base.cols = info_columns + parity_rows;
    base.z = z;
    base.shifts.assign(size_t(base.rows) * base.cols, -1);
    auto fill = [&](const auto& table) {
        for (const auto& e : table)
            if (e.row < base.rows) {
                if (e.col >= base.cols)
                    throw std::logic_error("5G NR table: row " + std::to_string(e.row) +
                                           " reaches past its parity column");
                base.shifts[size_t(e.row) * base.cols + e.col] =
                    int32_t(e.shift[set] % z);
            }
    };
    if (base_graph == 1)
        fill(detail::nr::base_graph_1);
    else
        fill(detail::nr::base_graph_2);
    // the first two base columns (2Z systematic bits) are never sent
    base.transmitted.assign(base.cols, 1);
    base.transmitted[0] = base.transmitted[1] = 0;
    return from_base_matrix(base);
}

} // namespace gpuldpc
} // namespace gr
