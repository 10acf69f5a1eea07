/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_BENCH_GR_FEC_H
#define INCLUDED_GPULDPC_BENCH_GR_FEC_H

// gr-fec's LDPC decoder as a baseline of the benches

#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <cstddef>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace bench {

/*!
 * Information bits/s of gr-fec's ldpc_decoder (sum-product on an alist file)
 * on one core: \p frames frames of \p llr (log(P(1)/P(0)), BPSK at noise
 * standard deviation \p sigma, its argument), decoded one generic_work()
 * call a frame. 0
 * where it cannot be made (it builds dense matrices: codes of a few thousand
 * bits at most, none punctured).
 */
double gr_fec_rate(const ldpc_code& code,
                   const std::vector<float>& llr,
                   size_t frames,
                   float sigma,
                   int iterations);

} // namespace bench
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_BENCH_GR_FEC_H */
