/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_NR_RATE_MATCHING_H
#define INCLUDED_GPULDPC_ENGINE_NR_RATE_MATCHING_H

#include <gnuradio/gpuldpc/engine/config.h>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpuldpc {

/*!
 * \brief 5G NR LDPC rate matching (3GPP TS 38.212, clause 5.4.2) and its
 * inverse for soft values, with filler bits.
 *
 * The transmitter's side: the mother codeword of ldpc_code::nr(base_graph,
 * z) less its first 2 Z bits, d, holds the circular buffer: its first N_cb
 * bits (N_cb = N - 2 Z = 66 Z for base graph 1, 50 Z for 2; less with limited
 * buffer rate matching, N_cb = min(N, N_ref)); redundancy version rv starts
 * at k0 (Table 5.4.2.1-2), E bits are read from there around the buffer,
 * skipping filler bits, and the bit interleaver writes them in Q_m rows
 * (clause 5.4.2.2).
 *
 * The receiver's side: combine() de-interleaves E soft values and adds them
 * where they were read from, into a buffer laid out as the decoder's input
 * (the N_cb transmitted bits of ldpc_code::nr(base_graph, z); its first
 * (K_b + rows - 2) Z values are the input of ldpc_code::nr(base_graph, z,
 * rows)); several versions, or repeats, accumulate (chase and incremental
 * redundancy combining). buffer() starts one: 0 (nothing known) everywhere
 * but on the filler bits, which are known zeros.
 *
 * Filler bits: the last \p filler_bits of the K = K_b Z information bits
 * (K' = K - F carry data); the encoder MUST be given zeros there.
 *
 * Contract:
 * - The constructor MUST throw std::invalid_argument naming the argument
 *   for a base graph other than 1 or 2, a z that is not a lifting size, a
 *   filler count of K - 2 Z or more, a modulation order not in
 *   {1, 2, 4, 6, 8, 10}, or a circular buffer out of its range.
 * - select() and combine() MUST throw std::invalid_argument for rv > 3 or an
 *   e that is 0 or not a multiple of q_m, before writing anything.
 * - All members are const and safe to call from several threads at once.
 */
class GPULDPC_ENGINE_API nr_rate_matching
{
public:
    /*!
     * \param circular_buffer N_cb: 0 for all N - 2 Z bits, else at least the
     *        K - 2 Z information bits past the punctured ones and at most
     *        N - 2 Z (limited buffer rate matching)
     */
    nr_rate_matching(unsigned base_graph,
                     unsigned z,
                     unsigned filler_bits,
                     unsigned q_m,
                     unsigned circular_buffer = 0);

    //! the decoder's input: N - 2 Z soft values (ldpc_code::nr's n_transmitted())
    unsigned buffer_size() const { return d_n - 2 * d_z; }
    unsigned circular_buffer_size() const { return d_ncb; } //!< N_cb
    //! N: the mother codeword's bits, N_cb + 2 Z
    unsigned codeword_size() const { return d_n; }
    unsigned filler_bits() const { return d_filler; }
    unsigned info_bits() const { return d_k; } //!< K, fillers included
    //! k0 of redundancy version \p rv (Table 5.4.2.1-2)
    unsigned start(unsigned rv) const;

    /*!
     * The E bits (0/1) of version \p rv, interleaved, from \p codeword: the
     * N bits of ldpc_code::nr(base_graph, z)'s encode().
     */
    std::vector<uint8_t> select(const uint8_t* codeword, unsigned e, unsigned rv) const;

    /*!
     * Adds the E soft values \p received of version \p rv (any sign
     * convention; as the decoder takes them) into \p buffer (buffer_size()
     * values; those past N_cb are never sent and stay as they are).
     */
    void combine(const float* received, unsigned e, unsigned rv, float* buffer) const;

    /*!
     * A buffer to combine into: buffer_size() zeros, the filler bits at
     * \p known_zero (the decoder's value of a certain 0: -max in GNU
     * Radio's convention, where positive means 1).
     */
    std::vector<float> buffer(float known_zero) const;

private:
    // the buffer positions version rv reads, in the order it reads them
    std::vector<uint32_t> positions(unsigned e, unsigned rv) const;
    void check(unsigned e, unsigned rv) const;

    unsigned d_bg, d_z, d_filler, d_qm, d_n, d_ncb, d_k;
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_NR_RATE_MATCHING_H */
