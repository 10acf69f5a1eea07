/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "gr_fec.h"
#include <gnuradio/fec/ldpc_decoder.h>
#include <unistd.h>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace gr {
namespace gpuldpc {
namespace bench {

double gr_fec_rate(const ldpc_code& code,
                   const std::vector<float>& llr,
                   size_t frames,
                   float sigma,
                   int iterations)
{
    if (code.n() > 4096 || !code.punctured_positions().empty())
        return 0.0;
    char path[] = "/tmp/gpuldpc-bench-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0)
        return 0.0;
    close(fd);
    code.save(path, { code_format::alist });
    auto dec = gr::fec::ldpc_decoder::make(path, sigma, iterations);
    std::remove(path);
    // gr-fec's decoder takes the LLRs log(P(1)/P(0)) themselves, as
    // examples/compare_gr_fec_ldpc.py gives them and checks by their errors
    // (channel samples make it run every iteration without converging)
    const size_t n = code.n();
    const std::vector<float>& y = llr;
    std::vector<uint8_t> out(size_t(dec->get_output_size()));
    const auto t0 = std::chrono::steady_clock::now();
    for (size_t f = 0; f < frames; ++f)
        dec->generic_work(const_cast<float*>(&y[f * n]), out.data());
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return double(frames) * code.k() / s;
}

} // namespace bench
} // namespace gpuldpc
} // namespace gr
