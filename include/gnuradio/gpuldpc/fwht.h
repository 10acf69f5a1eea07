/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_FWHT_H
#define INCLUDED_GPULDPC_FWHT_H

#include <gnuradio/gpuldpc/api.h>
#include <gnuradio/sync_block.h>
#include <string>

namespace gr {
namespace gpuldpc {

/*!
 * \brief Fast Walsh-Hadamard transform of float vectors.
 * \ingroup gpuldpc
 *
 * \details
 * Vectors of n = 2^k floats (2 ... 32768) in and out. X[u] = sum_x
 * (-1)^popcount(u & x) x[x], scaled by \p normalization ("none", "1/n",
 * "orthonormal": 1/sqrt(n), which makes it its own inverse), in \p ordering
 * "natural" (Hadamard) or "sequency" (by number of sign changes). Every
 * vector a work() call offers is transformed as one batch.
 */
class GPULDPC_API fwht : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<fwht> sptr;
    static sptr make(int n,
                     const std::string& normalization = "none",
                     const std::string& ordering = "natural",
                     const std::string& device = "auto");

    /*! Where the block transforms now: "cpu" or the GPU's name (any thread). */
    virtual std::string device_name() const = 0;
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_FWHT_H */
