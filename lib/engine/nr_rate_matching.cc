/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// 5G NR rate matching, 3GPP TS 38.212 clause 5.4.2: bit selection from a
// circular buffer and bit interleaving, and their inverse for soft values.

#include "nr_tables.h"
#include <gnuradio/gpuldpc/engine/nr_rate_matching.h>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuldpc {

nr_rate_matching::nr_rate_matching(unsigned base_graph,
                                   unsigned z,
                                   unsigned filler_bits,
                                   unsigned q_m,
                                   unsigned circular_buffer)
    : d_bg(base_graph), d_z(z), d_filler(filler_bits), d_qm(q_m)
{
    if (base_graph != 1 && base_graph != 2)
        throw std::invalid_argument("base_graph=" + std::to_string(base_graph) +
                                    " is not a 5G NR base graph; allowed: 1, 2");
    if (!detail::nr_lifting_size(z))
        throw std::invalid_argument(
            "z=" + std::to_string(z) +
            " is not a 5G NR lifting size; allowed: a * 2^j <= 384 with a in "
            "{2, 3, 5, 7, 9, 11, 13, 15}");
    d_n = (base_graph == 1 ? 68 : 52) * z;
    d_k = (base_graph == 1 ? 22 : 10) * z;
    d_ncb = circular_buffer ? circular_buffer : d_n - 2 * z;
    if (d_ncb < d_k - 2 * z || d_ncb > d_n - 2 * z)
        throw std::invalid_argument(
            "circular_buffer=" + std::to_string(circular_buffer) +
            " is out of range; allowed: 0 (N - 2 Z) or " + std::to_string(d_k - 2 * z) +
            " .. " + std::to_string(d_n - 2 * z));
    // the filler bits lie past the 2 Z punctured bits: K' > 2 Z keeps them in
    // the buffer, as the standard's segmentation does
    if (filler_bits + 2 * z >= d_k)
        throw std::invalid_argument(
            "filler_bits=" + std::to_string(filler_bits) +
            " is out of range; allowed: 0 .. " + std::to_string(d_k - 2 * z - 1) +
            " (K - 2 Z - 1 for K = " + std::to_string(d_k) + ")");
    if (q_m != 1 && q_m != 2 && q_m != 4 && q_m != 6 && q_m != 8 && q_m != 10)
        throw std::invalid_argument("q_m=" + std::to_string(q_m) +
                                    " is not a modulation order; allowed: 1, 2, 4, 6, "
                                    "8, 10");
}

unsigned nr_rate_matching::start(unsigned rv) const
{
    // Table 5.4.2.1-2: floor(a N_cb / (66 Z)) Z for base graph 1, with 50
    // for base graph 2 (a Z where N_cb is the whole N - 2 Z)
    static constexpr unsigned bg1[4] = { 0, 17, 33, 56 };
    static constexpr unsigned bg2[4] = { 0, 13, 25, 43 };
    if (rv > 3)
        throw std::invalid_argument("rv=" + std::to_string(rv) +
                                    " is not a redundancy version; allowed: 0 .. 3");
    const uint64_t a = d_bg == 1 ? bg1[rv] : bg2[rv];
    const uint64_t columns = d_bg == 1 ? 66 : 50;
    return unsigned(a * d_ncb / (columns * d_z) * d_z);
}

void nr_rate_matching::check(unsigned e, unsigned rv) const
{
    start(rv); // checks rv
    if (e == 0 || e % d_qm != 0)
        throw std::invalid_argument("e=" + std::to_string(e) +
                                    " is out of range; allowed: a positive multiple of "
                                    "q_m=" +
                                    std::to_string(d_qm));
}

std::vector<uint32_t> nr_rate_matching::positions(unsigned e, unsigned rv) const
{
    // buffer position j holds codeword bit 2 Z + j; the filler bits are
    // codeword bits K - F .. K - 1
    const unsigned filler_first = d_k - d_filler - 2 * d_z;
    const unsigned filler_end = d_k - 2 * d_z;
    std::vector<uint32_t> read(e);
    unsigned j = start(rv);
    for (unsigned k = 0; k < e; j = (j + 1) % d_ncb) {
        if (j >= filler_first && j < filler_end)
            continue;
        read[k++] = j;
    }
    // bit interleaving: f[i + j Q_m] = e[i E / Q_m + j]
    std::vector<uint32_t> interleaved(e);
    const unsigned rows = d_qm, cols = e / d_qm;
    for (unsigned c = 0; c < cols; ++c)
        for (unsigned r = 0; r < rows; ++r)
            interleaved[r + c * rows] = read[r * cols + c];
    return interleaved;
}

std::vector<uint8_t>
nr_rate_matching::select(const uint8_t* codeword, unsigned e, unsigned rv) const
{
    check(e, rv);
    const auto at = positions(e, rv);
    std::vector<uint8_t> out(e);
    for (unsigned i = 0; i < e; ++i)
        out[i] = codeword[2 * d_z + at[i]];
    return out;
}

void nr_rate_matching::combine(const float* received,
                               unsigned e,
                               unsigned rv,
                               float* buffer) const
{
    check(e, rv);
    const auto at = positions(e, rv);
    for (unsigned i = 0; i < e; ++i)
        buffer[at[i]] += received[i];
}

std::vector<float> nr_rate_matching::buffer(float known_zero) const
{
    std::vector<float> b(buffer_size(), 0.0f);
    for (unsigned j = d_k - d_filler - 2 * d_z; j < d_k - 2 * d_z; ++j)
        b[j] = known_zero;
    return b;
}

} // namespace gpuldpc
} // namespace gr
