/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_BINARY_QC_PROFILES_H
#define INCLUDED_GPULDPC_KERNELS_BINARY_QC_PROFILES_H

// The row degrees the quasi-cyclic family unrolls checks for
// (min_sum_graph::qc_profile): those of 5G NR's base graphs, whose rows the
// host matches against the tables here, and any degree up to 16, 20 or 24
// for other base matrices. One definition for nvcc and g++.

#include "binary/state_layout.h"

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace binary {

//! The profile of base matrices whose rows have 16 blocks at most (other
//! than 5G NR's).
constexpr unsigned qc_profile_any16 = 3;

//! The profiles of base matrices with rows of 17 to 20 blocks (rate 5/6 of
//! IEEE 802.16e, 20; of IEEE 802.11n n = 1944, 19 and 20) and of 21 to 24
//! (IEEE 802.11n n = 648 and 1296 at rate 5/6, 21 and 22): kernels of their
//! own, so that a longer check's registers leave the shorter rows' kernels
//! as they are (any24's kernel decoded rows of 20 3 to 6 % slower than
//! any20's). 24 is what the fp16 kernels' stored word holds
//! (qc_half_stored).
constexpr unsigned qc_profile_any20 = 4;
constexpr unsigned qc_profile_any24 = 5;

//! The most blocks a row of profile \p profile has where it is one of
//! any16, any20 and any24 (rows of any degree up to that), else 0.
GPULDPC_BINARY_HD constexpr unsigned qc_profile_any_degree(unsigned profile)
{
    return profile == qc_profile_any16   ? 16
           : profile == qc_profile_any20 ? 20
           : profile == qc_profile_any24 ? 24
                                         : 0;
}

//! Base rows of profile \p profile (1: 5G NR base graph 1, 2: base graph 2;
//! else 0: any).
GPULDPC_BINARY_HD constexpr unsigned qc_profile_rows(unsigned profile)
{
    return profile == 1 ? 46 : profile == 2 ? 42 : 0;
}

//! Nonzero blocks of base row \p row of profile \p profile (TS 38.212 Tables
//! 5.3.2-2 and 5.3.2-3: 316 and 197 in all); 0 past its rows.
GPULDPC_BINARY_HD constexpr unsigned qc_profile_degree(unsigned profile, unsigned row)
{
    constexpr unsigned char bg1[46] = { 19, 19, 19, 19, 3, 8, 9, 7, 10, 9, 7, 8,
                                        7,  6,  7,  7,  6, 6, 6, 6, 6,  6, 5, 5,
                                        6,  5,  5,  4,  5, 5, 5, 5, 5,  5, 5, 5,
                                        5,  4,  5,  5,  4, 5, 4, 5, 5,  4 };
    constexpr unsigned char bg2[42] = { 8, 10, 8, 10, 4, 6, 6, 6, 4, 5, 5, 5, 4, 5,
                                        5, 4,  5, 5,  4, 4, 4, 4, 3, 4, 4, 3, 5, 3,
                                        4, 3,  5, 3,  4, 4, 4, 4, 4, 3, 4, 4, 4, 4 };
    return row >= qc_profile_rows(profile) ? 0 : profile == 1 ? bg1[row] : bg2[row];
}

//! The offset of base row \p row's first record (the degrees of the rows
//! before it).
GPULDPC_BINARY_HD constexpr unsigned qc_profile_first_record(unsigned profile,
                                                             unsigned row)
{
    unsigned e = 0;
    for (unsigned i = 0; i < row; ++i)
        e += qc_profile_degree(profile, i);
    return e;
}

//! Whether a base row of profile \p profile may have \p degree blocks.
GPULDPC_BINARY_HD constexpr bool qc_profile_has_degree(unsigned profile, unsigned degree)
{
    if (qc_profile_any_degree(profile) != 0)
        return degree >= 1 && degree <= qc_profile_any_degree(profile);
    for (unsigned i = 0; i < qc_profile_rows(profile); ++i)
        if (qc_profile_degree(profile, i) == degree)
            return true;
    return false;
}

//! A row's first positions whose beliefs the kernel of profile \p profile
//! limits (min_sum_fixed8_belief_limit; the host puts the blocks of columns
//! of 15 blocks or more first in each row, min_sum_qc_limited_first()): 5G
//! NR BG1's columns 0 and 1 (30 and 28 blocks at 46 rows; the others 13 at
//! most), BG2's 0, 1 and 11 (22, 23, 16; the others 14 at most); none for
//! other base matrices, whose columns then have 14 blocks at most.
GPULDPC_BINARY_HD constexpr unsigned qc_profile_limited_positions(unsigned profile)
{
    return profile == 1 ? 2 : profile == 2 ? 3 : 0;
}

//! The most nonzero blocks a base row of profile \p profile has.
GPULDPC_BINARY_HD constexpr unsigned qc_profile_max_degree(unsigned profile)
{
    if (qc_profile_any_degree(profile) != 0)
        return qc_profile_any_degree(profile);
    unsigned d = 0;
    for (unsigned i = 0; i < qc_profile_rows(profile); ++i)
        d = qc_profile_degree(profile, i) > d ? qc_profile_degree(profile, i) : d;
    return d;
}

static_assert(qc_profile_first_record(1, 46) == 316 &&
                  qc_profile_first_record(2, 42) == 197,
              "the base graphs' nonzero entries");

} // namespace binary
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_BINARY_QC_PROFILES_H */
