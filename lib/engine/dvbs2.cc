/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The DVB-S2 LDPC codes (ETSI EN 302 307-1, clause 5.3.2) built from the
// standard's tables of parity bit accumulator addresses.

#include "dvbs2_tables.h"
#include <gnuradio/gpuldpc/engine/ldpc_code.h>

namespace gr {
namespace gpuldpc {

namespace {

std::string allowed_rates(const std::string& frame)
{
    std::string out;
    for (const auto& t : detail::dvbs2::tables)
        if (frame == t.frame)
            out += (out.empty() ? "" : ", ") + std::string(t.rate);
    return out;
}

} // namespace

ldpc_code ldpc_code::dvbs2(const std::string& rate, const std::string& frame)
{
    if (frame != "normal" && frame != "short")
        throw std::invalid_argument("frame='" + frame +
                                    "' is not a DVB-S2 frame size; allowed: normal "
                                    "(64800 bits), short (16200 bits)");
    const detail::dvbs2::table* table = nullptr;
    for (const auto& t : detail::dvbs2::tables)
        if (frame == t.frame && rate == t.rate)
            table = &t;
    if (!table)
        throw std::invalid_argument("rate='" + rate + "' is not a DVB-S2 code rate for " +
                                    frame + " frames; allowed: " + allowed_rates(frame));

    // Information bit m of group g (360 bits a group) adds into the parity
    // accumulators (x + (m mod 360) * q) mod (n - k) for each address x of
    // row g; then p[r] ^= p[r - 1] (EN 302 307-1, 5.3.2.1). As H: row r holds
    // those information bits, p[r] and p[r - 1].
    const unsigned n = table->n, k = table->k, m = n - k, q = m / 360;
    std::vector<entry> entries;
    size_t pos = 0;
    for (unsigned group = 0; group < k / 360; ++group) {
        const unsigned count = table->rows[pos++];
        const uint16_t* addresses = table->rows + pos;
        pos += count;
        for (unsigned bit = 0; bit < 360; ++bit)
            for (unsigned a = 0; a < count; ++a)
                entries.push_back(
                    entry{ (addresses[a] + bit * q) % m, group * 360 + bit, 1 });
    }
    if (pos != table->size)
        throw std::logic_error("dvbs2: the table of rate " + rate +
                               " does not hold k / 360 rows"); // a table defect
    for (unsigned r = 0; r < m; ++r) {
        entries.push_back(entry{ r, k + r, 1 });
        if (r > 0)
            entries.push_back(entry{ r, k + r - 1, 1 });
    }
    ldpc_code code(n, m, 2, entries);
    // Layers first (the order the colouring below keeps within each of its
    // runs): checks j + i * q (i = 0 .. 359) share no parity bit, and
    // an information bit meets them once per address of its row congruent to
    // j mod q. Mostly once: where two addresses of a row are congruent, bit
    // m of the group meets checks i and i + d of the layer, for every m, and
    // the layer splits into two runs (the alternate checks of the cycles
    // i, i + d, i + 2d, ...) rather than into pieces wherever a clash falls.
    for (unsigned j = 0, pos = 0; j < q; ++j)
        for (unsigned i = 0; i < 360; ++i)
            code.d_check_order[pos++] = j + i * q;
    code.split_layers_into_runs(360);
    // Then the whole code in runs, a colour of its checks a run, each in
    // that order: 10 to 30 runs instead of 34 to 139 (rate 1/2: 13 instead
    // of 98), so that a GPU updates some 2500 checks of a frame at a time
    // instead of 360. 8-bit layered min-sum, 20 iterations, 4096 frames an
    // Eb/N0, every normal rate and short 1/4, 1/2, 2/3, 8/9: failures as in
    // the layers' order within statistics, or fewer (rate 1/2, 1.2 dB: 72
    // against 112; 1/3, 1.2 dB: 2772 against 3026; 2/5, 1.0 dB: 1842 against
    // 2135; short 1/2, 1.4 dB: 66 against 78; none either way at the points
    // taken for 4/5 and above and short 2/3 and 8/9), in as many iterations
    // or fewer.
    code.split_layers_into_runs(m);
    return code;
}

} // namespace gpuldpc
} // namespace gr
