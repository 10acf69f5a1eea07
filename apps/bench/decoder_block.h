/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_BENCH_DECODER_BLOCK_H
#define INCLUDED_GPULDPC_BENCH_DECODER_BLOCK_H

#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace bench {

//! How a timed run of the decoder block went.
struct block_run {
    double mean_batch = 0;   //!< frames a decoder call
    double decoder_busy = 0; //!< share of the time the decoder had a batch
    double source_busy = 0;  //!< share of the time the source copied
    double chunked = 0;      //!< batches that went in chunks (no batch behind)
};

/*!
 * The decoder block between a source of precomputed frames (repeated) and a
 * null sink (untagged frames): float LLRs, or with \p llr8 the block's 8-bit
 * input (a byte stream of signed steps). One pass over the frames first (the
 * block's buffers and the decoder's workspaces are made then, and flowgraph
 * threads start), then the timed run of \p passes passes, with the same
 * block. Returns information bits/s through the flowgraph; \p run gets how
 * the timed run went.
 */
double block_rate(ldpc_code::sptr code,
                  const decoder_config& cfg,
                  const std::vector<float>& llr,
                  size_t frames,
                  const std::string& device,
                  unsigned passes,
                  const std::string& status_tags,
                  const std::vector<int8_t>* llr8 = nullptr,
                  block_run* run = nullptr);

} // namespace bench
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_BENCH_DECODER_BLOCK_H */
