/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_BUTTERFLY_NETWORK_H
#define INCLUDED_GPULDPC_ENGINE_BUTTERFLY_NETWORK_H

#include <gnuradio/gpuldpc/engine/config.h>
#include <gnuradio/gpuldpc/engine/transforms.h>
#include <complex>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpuldpc {

/*!
 * \brief A transform written as a butterfly network (Onsjo, Kasai, Watanabe):
 * stages of index pairs (i, j), each pair with a 2x2 kernel
 * (a, b) -> ((k00 a + k01 b) / div, (k10 a + k11 b) / div), between an
 * optional gather (pre_perm) and an optional gather (post_perm) and a final
 * division. Built on the host, run by the generic GPU kernel.
 */
struct GPULDPC_ENGINE_API butterfly_network {
    struct kernel {
        std::complex<float> k[4];
        float div = 1.0f;
    };
    unsigned n = 0;
    bool mod2 = false; //!< Reed-Muller: values mod 2, y1 = a xor b
    std::vector<std::vector<std::pair<uint16_t, uint16_t>>> stages;
    std::vector<std::vector<uint16_t>> kernel_ids; //!< per stage; empty: kernel 0
    std::vector<kernel> kernels;
    std::vector<uint16_t> pre_perm, post_perm; //!< empty: identity
    float final_div = 1.0f;

    /*! The Kronecker and Haar transforms of spectral_transform_cpu, with the
     *  same butterflies in the same order (so results are identical). */
    static butterfly_network spectral(size_t n, spectral_kind kind, bool forward);
    /*! Radix-2 decimation-in-time FFT (unnormalised), complex data. */
    static butterfly_network fft(size_t n, bool forward);
    /*! Walsh-Hadamard transform of a vector indexed in GF(2^m) exponent order:
     *  entry 0 is the element 0, entry e + 1 the element alpha^e. */
    static butterfly_network walsh_gf_log_order(unsigned m, unsigned poly = 0);

    /*!
     * Shared-memory bank conflicts of the loads, as the kernel issues them: 32
     * consecutive pairs of a stage form one warp access to x[i] and one to
     * x[j]; each counts (largest number of distinct addresses in one bank) - 1
     * extra wavefronts. Summed over stages, one vector.
     */
    size_t bank_conflicts() const;

    /*!
     * Greedy reordering of the pairs of every stage to cut bank conflicts
     * (Onsjo et al.): each warp group is filled with pairs whose i and j
     * fall in banks not yet used by the group, when there are such pairs.
     * Pairs of one stage are independent, so the order does not change the
     * result.
     */
    void reorder_for_banks();
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_BUTTERFLY_NETWORK_H */
