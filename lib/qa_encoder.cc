/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gpuldpc/engine/bits.h>
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <boost/test/unit_test.hpp>
#include <random>

using namespace gr::gpuldpc;

namespace {

// Rank by plain dense Gauss-Jordan elimination: an independent reference for
// the sparse elimination inside ldpc_code.
unsigned dense_rank(std::vector<uint8_t> h, unsigned m, unsigned n, const gf_field& f)
{
    unsigned rank = 0;
    for (unsigned c = 0; c < n && rank < m; ++c) {
        unsigned p = rank;
        while (p < m && h[p * n + c] == 0)
            ++p;
        if (p == m)
            continue;
        for (unsigned j = 0; j < n; ++j)
            std::swap(h[p * n + j], h[rank * n + j]);
        const uint8_t inv = f.inv(h[rank * n + c]);
        for (unsigned j = 0; j < n; ++j)
            h[rank * n + j] = f.mul(h[rank * n + j], inv);
        for (unsigned r = 0; r < m; ++r) {
            if (r == rank || h[r * n + c] == 0)
                continue;
            const uint8_t factor = h[r * n + c];
            for (unsigned j = 0; j < n; ++j)
                h[r * n + j] ^= f.mul(factor, h[rank * n + j]);
        }
        ++rank;
    }
    return rank;
}

void check_encoder(const ldpc_code& code, std::mt19937& rng, size_t frames)
{
    const unsigned k = code.k(), n = code.n(), q = code.q();
    BOOST_REQUIRE_EQUAL(code.info_positions().size(), k);
    BOOST_REQUIRE_EQUAL(code.parity_positions().size(), code.rank());
    std::vector<uint8_t> info(frames * k), cw(frames * n, 0xee);
    for (auto& s : info)
        s = uint8_t(rng() % q);
    code.encode(info.data(), cw.data(), frames);
    for (size_t f = 0; f < frames; ++f) {
        const uint8_t* c = &cw[f * n];
        BOOST_REQUIRE_EQUAL(code.syndrome_weight(c), 0u);
        for (unsigned i = 0; i < k; ++i)
            BOOST_REQUIRE_EQUAL(c[code.info_positions()[i]], info[f * k + i]);
        for (unsigned j = 0; j < n; ++j)
            BOOST_REQUIRE_LT(c[j], q);
    }
    // a single changed symbol breaks at least one check (no zero columns here)
    std::vector<uint8_t> bad(cw.begin(), cw.begin() + n);
    bad[n / 2] ^= 1;
    BOOST_CHECK_GT(code.syndrome_weight(bad.data()), 0u);
}

unsigned bits_of(unsigned q)
{
    unsigned m = 0;
    while ((1u << m) < q)
        ++m;
    return m;
}

} // namespace

BOOST_AUTO_TEST_CASE(encoded_frames_are_codewords_for_every_q)
{
    std::mt19937 rng(1234);
    for (unsigned q : { 2u, 4u, 8u, 16u, 32u, 64u, 128u, 256u }) {
        for (auto [n, dv, dc] : { std::tuple<unsigned, unsigned, unsigned>{ 96, 2, 4 },
                                  { 120, 3, 6 },
                                  { 200, 3, 8 } }) {
            const auto code = construct_regular_code(n, dv, dc, q, 99 + q + n);
            BOOST_CHECK_EQUAL(code.rank(),
                              dense_rank(code.dense(), code.m(), n, code.field()));
            BOOST_CHECK_EQUAL(code.k(), n - code.rank());
            check_encoder(code, rng, 17);
        }
    }
}

BOOST_AUTO_TEST_CASE(rank_deficient_h_gets_the_right_k)
{
    std::mt19937 rng(77);
    for (unsigned q : { 2u, 4u, 16u, 64u, 256u }) {
        const gf_field f(bits_of(q));
        // H = A * B with A (m x r) and B (r x n) random: rank at most r < m
        for (auto [m, r, n] : { std::tuple<unsigned, unsigned, unsigned>{ 12, 7, 30 },
                                { 20, 20, 25 },
                                { 9, 1, 14 } }) {
            std::vector<uint8_t> a(m * r), b(r * n), h(m * n, 0);
            for (auto& x : a)
                x = uint8_t(rng() % q);
            for (auto& x : b)
                x = uint8_t(rng() % q);
            for (unsigned i = 0; i < m; ++i)
                for (unsigned j = 0; j < n; ++j)
                    for (unsigned t = 0; t < r; ++t)
                        h[i * n + j] ^= f.mul(a[i * r + t], b[t * n + j]);
            bool any = false;
            for (auto x : h)
                any |= x != 0;
            if (!any)
                continue;
            const auto code = ldpc_code::from_dense(m, n, q, h.data());
            const unsigned expected = dense_rank(h, m, n, f);
            BOOST_CHECK_LE(expected, r);
            BOOST_CHECK_EQUAL(code.rank(), expected);
            BOOST_CHECK_EQUAL(code.k(), n - expected);
            std::vector<uint8_t> info(3 * code.k()), cw(3 * n);
            for (auto& s : info)
                s = uint8_t(rng() % q);
            code.encode(info.data(), cw.data(), 3);
            for (unsigned fr = 0; fr < 3; ++fr) {
                BOOST_CHECK_EQUAL(code.syndrome_weight(&cw[fr * n]), 0u);
                for (unsigned i = 0; i < code.k(); ++i)
                    BOOST_CHECK_EQUAL(cw[fr * n + code.info_positions()[i]],
                                      info[fr * code.k() + i]);
            }
        }
    }
    // duplicated and summed rows of a sparse code
    const auto base = construct_regular_code(60, 3, 6, 16, 5);
    auto h = base.dense();
    const unsigned n = base.n(), m = base.m();
    std::vector<uint8_t> h2(h);
    h2.resize((m + 2) * n);
    for (unsigned j = 0; j < n; ++j) {
        h2[m * n + j] = h[j] ^ base.field().mul(7, h[n + j]);
        h2[(m + 1) * n + j] = h[2 * n + j];
    }
    const auto code = ldpc_code::from_dense(m + 2, n, 16, h2.data());
    BOOST_CHECK_EQUAL(code.rank(), base.rank());
    BOOST_CHECK_EQUAL(code.k(), base.k());
    check_encoder(code, rng, 5);
}

BOOST_AUTO_TEST_CASE(encode_rejects_symbols_outside_the_field)
{
    const auto code = construct_regular_code(48, 2, 4, 16, 3);
    std::vector<uint8_t> info(code.k(), 1), cw(code.n(), 0xaa);
    info[5] = 16;
    BOOST_CHECK_THROW(code.encode(info.data(), cw.data(), 1), std::invalid_argument);
    for (auto x : cw)
        BOOST_CHECK_EQUAL(x, 0xaa); // nothing written
}

BOOST_AUTO_TEST_CASE(pack_bits_matches_a_bit_by_bit_packing)
{
    // every length up to 5 words and a tail, bytes with only their lowest bit
    // meaning anything (the others set at random), into a dirty destination
    std::mt19937 rng(5);
    for (size_t n = 0; n <= 45; ++n)
        for (int trial = 0; trial < 8; ++trial) {
            std::vector<uint8_t> bits(n);
            for (auto& b : bits)
                b = uint8_t(rng());
            std::vector<uint8_t> expected(packed_size(n), 0);
            for (size_t i = 0; i < n; ++i)
                expected[i / 8] |= uint8_t((bits[i] & 1) << (7 - i % 8));
            std::vector<uint8_t> packed(packed_size(n), 0xA5);
            pack_bits(bits.data(), n, packed.data());
            BOOST_CHECK_EQUAL_COLLECTIONS(
                packed.begin(), packed.end(), expected.begin(), expected.end());
            std::vector<uint8_t> back(n);
            unpack_bits(packed.data(), n, back.data());
            for (size_t i = 0; i < n; ++i)
                BOOST_CHECK_EQUAL(back[i], bits[i] & 1);
        }
}
