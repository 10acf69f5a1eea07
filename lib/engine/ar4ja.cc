/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The CCSDS AR4JA LDPC codes (CCSDS 131.0-B-5, clause 7.4): a protograph of
// 3 x 5, 7 or 11 blocks of M x M, each block a sum of the identity and the
// permutations of ar4ja_tables.h. Every permutation is four circulants of
// size M/4, so the code is quasi-cyclic with lifting size M/4 and a base
// matrix of 12 rows.

#include "ar4ja_tables.h"
#include "parity_solver.h"
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <algorithm>
#include <array>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace {

// A block of the rate-4/5 protograph (11 block columns; rate 2/3 keeps the
// last 7, rate 1/2 the last 5): the sum of the identity (0) and/or the
// permutations 1..26 listed, 0xff ending the list. 131.0-B-5, 7.4.3.2.
struct protograph_block {
    uint8_t row;
    uint8_t col;
    uint8_t terms[3];
};

constexpr uint8_t end = 0xff;

// clang-format off
constexpr protograph_block protograph[] = {
    // the rate-4/5 extension: columns 0 to 3
    { 1, 0, { 21, 22, 23 } }, { 2, 0, { 0, end, end } },
    { 1, 1, { 0, end, end } }, { 2, 1, { 24, 25, 26 } },
    { 1, 2, { 15, 16, 17 } }, { 2, 2, { 0, end, end } },
    { 1, 3, { 0, end, end } }, { 2, 3, { 18, 19, 20 } },
    // the rate-2/3 extension: columns 4 and 5
    { 1, 4, { 9, 10, 11 } }, { 2, 4, { 0, end, end } },
    { 1, 5, { 0, end, end } }, { 2, 5, { 12, 13, 14 } },
    // H_1/2: columns 6 to 10, the last punctured
    { 1, 6, { 0, end, end } }, { 2, 6, { 0, end, end } },
    { 1, 7, { 0, end, end } }, { 2, 7, { 5, 6, end } },
    { 0, 8, { 0, end, end } },
    { 1, 9, { 0, end, end } }, { 2, 9, { 7, 8, end } },
    { 0, 10, { 0, 1, end } }, { 1, 10, { 2, 3, 4 } }, { 2, 10, { 0, end, end } },
};
// clang-format on

constexpr unsigned protograph_cols = 11;

// The parity columns of every AR4JA code are the last three block columns of
// H_1/2 (7.4.3.2): with information u, parity a, b and the punctured c,
//   a + (I + P1) c        = s0,
//   b + (P2 + P3 + P4) c  = s1,
//   (P7 + P8) b + c       = s2,
// where s is the information's syndrome by block row. So c solves
// D c = s2 + (P7 + P8) s1 with D = I + (P7 + P8)(P2 + P3 + P4), an M x M
// matrix whose inverse is kept dense (8 MB at M = 8192, made at the first
// encode: decoders never need it), and b and a follow from their rows, where
// each has the identity. A general elimination would choose other
// information columns than the standard's.
class ar4ja_parity : public detail::parity_solver
{
public:
    explicit ar4ja_parity(unsigned m_size) : d_m(m_size), d_words(m_size / 64)
    {
        if (d_words == 0 || d_words > max_words)
            throw std::logic_error("ar4ja_parity: M=" + std::to_string(m_size) +
                                   "; allowed: 128 .. 8192");
    }

    void solve(const ldpc_code& code, uint8_t* cw) const override
    {
        std::call_once(d_inverted, [&] { invert(code); });
        const unsigned n = code.n();
        const unsigned a_col = n - 3 * d_m, b_col = n - 2 * d_m, c_col = n - d_m;
        std::fill(cw + a_col, cw + n, uint8_t(0));
        // b with c = 0, then the right-hand side of D c
        for (unsigned r = 0; r < d_m; ++r)
            cw[b_col + r] = row_sum(code, d_m + r, cw);
        std::array<uint64_t, max_words> rhs{};
        for (unsigned r = 0; r < d_m; ++r)
            rhs[r / 64] |= uint64_t(row_sum(code, 2 * d_m + r, cw)) << (r % 64);
        for (unsigned r = 0; r < d_m; ++r) {
            const uint64_t* row = &d_inverse[size_t(r) * d_words];
            uint64_t acc = 0;
            for (unsigned w = 0; w < d_words; ++w)
                acc ^= row[w] & rhs[w];
            cw[c_col + r] = uint8_t(__builtin_parityll(acc));
        }
        for (unsigned r = 0; r < d_m; ++r) {
            cw[b_col + r] = 0;
            cw[b_col + r] = row_sum(code, d_m + r, cw);
        }
        for (unsigned r = 0; r < d_m; ++r)
            cw[a_col + r] = row_sum(code, r, cw);
    }

private:
    static uint8_t row_sum(const ldpc_code& code, unsigned check, const uint8_t* cw)
    {
        const auto& offsets = code.check_offsets();
        const auto& variable = code.edge_variable();
        uint8_t sum = 0;
        for (uint32_t e = offsets[check]; e < offsets[check + 1]; ++e)
            sum ^= cw[variable[e]];
        return sum;
    }

    // D^-1 into d_inverse, by Gauss-Jordan elimination.
    void invert(const ldpc_code& code) const
    {
        const unsigned b_col = code.n() - 2 * d_m, c_col = code.n() - d_m;
        const auto& offsets = code.check_offsets();
        const auto& variable = code.edge_variable();
        // D by rows: row l of (P7 + P8) B is the sum of rows i of B, B = P2 +
        // P3 + P4 (block row 1 at c's columns), over the i in block row 2's
        // row l at b's columns
        std::vector<uint64_t> d(size_t(d_m) * d_words, 0);
        for (unsigned l = 0; l < d_m; ++l) {
            uint64_t* row = &d[size_t(l) * d_words];
            row[l / 64] ^= uint64_t(1) << (l % 64);
            for (uint32_t e = offsets[2 * d_m + l]; e < offsets[2 * d_m + l + 1]; ++e) {
                const uint32_t v = variable[e];
                if (v < b_col || v >= c_col)
                    continue;
                const unsigned i = v - b_col;
                for (uint32_t f = offsets[d_m + i]; f < offsets[d_m + i + 1]; ++f)
                    if (variable[f] >= c_col) {
                        const unsigned j = variable[f] - c_col;
                        row[j / 64] ^= uint64_t(1) << (j % 64);
                    }
            }
        }
        d_inverse.assign(d.size(), 0);
        for (unsigned r = 0; r < d_m; ++r)
            d_inverse[size_t(r) * d_words + r / 64] = uint64_t(1) << (r % 64);
        for (unsigned col = 0; col < d_m; ++col) {
            const unsigned word = col / 64;
            const uint64_t bit = uint64_t(1) << (col % 64);
            unsigned pivot = col;
            while (pivot < d_m && !(d[size_t(pivot) * d_words + word] & bit))
                ++pivot;
            if (pivot == d_m)
                throw std::logic_error("ldpc_code::ar4ja: the parity part is singular");
            if (pivot != col)
                for (unsigned w = 0; w < d_words; ++w) {
                    std::swap(d[size_t(pivot) * d_words + w],
                              d[size_t(col) * d_words + w]);
                    std::swap(d_inverse[size_t(pivot) * d_words + w],
                              d_inverse[size_t(col) * d_words + w]);
                }
            const uint64_t* prow = &d[size_t(col) * d_words];
            const uint64_t* pinv = &d_inverse[size_t(col) * d_words];
            for (unsigned r = 0; r < d_m; ++r) {
                uint64_t* row = &d[size_t(r) * d_words];
                if (r == col || !(row[word] & bit))
                    continue;
                for (unsigned w = word; w < d_words; ++w)
                    row[w] ^= prow[w];
                uint64_t* inv = &d_inverse[size_t(r) * d_words];
                for (unsigned w = 0; w < d_words; ++w)
                    inv[w] ^= pinv[w];
            }
        }
    }

    // the largest M, 8192: a frame's right-hand side on the stack
    static constexpr unsigned max_words = 8192 / 64;
    const unsigned d_m;
    const unsigned d_words;
    mutable std::once_flag d_inverted;
    mutable std::vector<uint64_t> d_inverse; // d_m rows of d_words
};

// The base matrix of ar4ja(k, rate) at lifting size M / 4.
ldpc_code::base_matrix ar4ja_base(unsigned k, const std::string& rate)
{
    // 131.0-B-5, Table 7-2: M = K / 2, K / 4, K / 8 for rates 1/2, 2/3, 4/5
    unsigned info_blocks = 0, first_col = 0;
    if (rate == "1/2") {
        info_blocks = 2;
        first_col = 6;
    } else if (rate == "2/3") {
        info_blocks = 4;
        first_col = 4;
    } else if (rate == "4/5") {
        info_blocks = 8;
        first_col = 0;
    } else {
        throw std::invalid_argument("rate='" + rate +
                                    "' is not an AR4JA code rate; allowed: 1/2, 2/3, "
                                    "4/5");
    }
    if (k != 1024 && k != 4096 && k != 16384)
        throw std::invalid_argument("k=" + std::to_string(k) +
                                    " is not an AR4JA information length; allowed: "
                                    "1024, 4096, 16384");
    const unsigned m_size = k / info_blocks;
    unsigned m_index = 0;
    while ((128u << m_index) < m_size)
        ++m_index;

    ldpc_code::base_matrix base;
    base.z = m_size / 4;
    base.rows = 12;
    base.cols = 4 * (protograph_cols - first_col);
    base.shifts.assign(size_t(base.rows) * base.cols, -1);
    base.transmitted.assign(base.cols, 1);
    for (unsigned j = base.cols - 4; j < base.cols; ++j)
        base.transmitted[j] = 0; // the last M bits are never sent (7.4.2.1)

    for (const auto& block : protograph) {
        if (block.col < first_col)
            continue;
        const unsigned col = block.col - first_col;
        for (uint8_t term : block.terms) {
            if (term == end)
                break;
            for (unsigned sub = 0; sub < 4; ++sub) {
                // identity: four blocks on the diagonal; permutation term:
                // sub-row sub goes to sub-column (theta + sub) mod 4, shifted
                // by phi(sub, M)
                const unsigned sub_col =
                    term == 0 ? sub : (detail::ar4ja::theta[term - 1] + sub) % 4;
                const int shift =
                    term == 0 ? 0 : detail::ar4ja::phi[m_index][sub][term - 1];
                int32_t& at = base.shifts[size_t(4 * block.row + sub) * base.cols +
                                          4 * col + sub_col];
                // the terms of a block fall on distinct sub-blocks: the
                // standard's sums have no overlapping entries
                if (at != -1)
                    throw std::logic_error("ldpc_code::ar4ja: terms overlap");
                at = shift;
            }
        }
    }
    return base;
}

} // namespace

namespace detail {

bool ar4ja_parameters_of(const ldpc_code::base_matrix& base,
                         unsigned& k,
                         std::string& rate)
{
    // 12 rows of 20, 28 or 44 blocks (2, 4 or 8 information blocks of M)
    // lifted by M / 4, M = 128 .. 8192
    if (base.rows != 12 || (base.cols != 20 && base.cols != 28 && base.cols != 44) ||
        base.z < 32 || base.z > 2048 || (base.z & (base.z - 1)))
        return false;
    const unsigned info_blocks = base.cols / 4 - 3;
    const unsigned candidate = info_blocks * 4 * base.z;
    if (candidate != 1024 && candidate != 4096 && candidate != 16384)
        return false;
    const std::string candidate_rate = info_blocks == 2   ? "1/2"
                                       : info_blocks == 4 ? "2/3"
                                                          : "4/5";
    const auto standard = ar4ja_base(candidate, candidate_rate);
    if (base.shifts != standard.shifts || base.transmitted != standard.transmitted)
        return false;
    k = candidate;
    rate = candidate_rate;
    return true;
}

} // namespace detail

ldpc_code ldpc_code::ar4ja(unsigned k, const std::string& rate)
{
    const base_matrix base = ar4ja_base(k, rate);
    // the standard's codeword: the k information bits first (7.4.3.4)
    ldpc_code code = lift_base_matrix(base, false);
    code.set_parity_solver(std::make_shared<ar4ja_parity>(4 * base.z));
    return code;
}

} // namespace gpuldpc
} // namespace gr
