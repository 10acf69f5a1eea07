/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_PARITY_SOLVER_H
#define INCLUDED_GPULDPC_PARITY_SOLVER_H

#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <cstdint>
#include <string>

namespace gr {
namespace gpuldpc {
namespace detail {

/*!
 * \brief The encoder of a code whose structure solves for its parity faster
 * than a general elimination, or with the standard's information columns
 * (ldpc_code::set_parity_solver()).
 *
 * Contract: solve() MUST write all of the code's parity symbols (positions k()
 * to n() - 1) so that the codeword satisfies H, from the information symbols
 * in positions 0 .. k() - 1, whatever the parity positions held before; it
 * MUST NOT change the information symbols, and MUST be safe to call from
 * several threads at once.
 */
class parity_solver
{
public:
    virtual ~parity_solver() = default;
    virtual void solve(const ldpc_code& code, uint8_t* codeword) const = 0;
};

/*!
 * Whether \p base is the base matrix of ldpc_code::ar4ja(k, rate), with its
 * puncturing, and then which (\p k and \p rate set): a base matrix read
 * from a file keeps the standard's encoder and information columns.
 */
bool ar4ja_parameters_of(const ldpc_code::base_matrix& base,
                         unsigned& k,
                         std::string& rate);

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif
