/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Codes of standards built into the module: DVB-S2, 5G NR, IEEE 802.11n,
// IEEE 802.16e and CCSDS AR4JA.

#include "qa_helpers.h"
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/nr_rate_matching.h>
#include <boost/test/unit_test.hpp>
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <random>

using namespace gr::gpuldpc;

namespace {

const char* normal_rates[] = { "1/4", "1/3", "2/5", "1/2", "3/5", "2/3",
                               "3/4", "4/5", "5/6", "8/9", "9/10" };
const char* short_rates[] = { "1/4", "1/3", "2/5", "1/2", "3/5",
                              "2/3", "3/4", "4/5", "5/6", "8/9" };

// A code of a standard's base matrix lifted by z: systematic (the
// information bits the first k, encoded into a codeword that starts with
// them) and layered in runs of z checks (the base rows).
void check_systematic_base_rows(const ldpc_code& code, unsigned z, std::mt19937& rng)
{
    const auto& info_at = code.info_positions();
    for (unsigned i = 0; i < code.k(); ++i)
        BOOST_REQUIRE_EQUAL(info_at[i], i);
    BOOST_CHECK_EQUAL(code.layered_runs().size() - 1, code.m() / z);
    std::vector<uint8_t> info(code.k()), cw(code.n());
    for (auto& b : info)
        b = rng() & 1;
    code.encode(info.data(), cw.data(), 1);
    BOOST_CHECK_EQUAL(code.syndrome_weight(cw.data()), 0u);
    BOOST_CHECK(std::equal(info.begin(), info.end(), cw.begin()));
}

// Noiseless frames and frames at 3 dB decode to their information with
// 8-bit layered min-sum (50 iterations at most), every frame converged.
void check_frames_decode(const ldpc_code::sptr& code)
{
    const auto clean = qa::make_batch(*code, 2, INFINITY, 1);
    const auto noisy = qa::make_batch(*code, 4, 3.0, 2);
    decoder_config cfg;
    cfg.algorithm = decoder_algorithm::min_sum;
    cfg.messages = message_precision::int8;
    cfg.schedule = decoder_schedule::layered;
    cfg.max_iterations = 50;
    cfg.threads = 2;
    auto dec = batch_decoder::make(code, cfg);
    for (const auto* b : { &clean, &noisy }) {
        std::vector<uint8_t> bits(b->info_bits.size());
        std::vector<frame_status> st(b->llr.size() / code->n_transmitted());
        dec->decode(b->llr.data(), st.size(), bits.data(), st.data());
        BOOST_CHECK(bits == b->info_bits);
        for (const auto& s : st)
            BOOST_CHECK(s.converged);
    }
}

} // namespace

BOOST_AUTO_TEST_CASE(dvbs2_codes_have_the_standards_shape)
{
    // Check-node degrees of the normal-frame codes (every row but the first,
    // which lacks p[-1]): Eroz, Sun, Lee, "DVB-S2 low density parity check
    // codes with near Shannon limit performance", Int. J. Satell. Commun.
    // Network. 22 (2004), Table 1.
    const std::map<std::string, unsigned> check_degree = {
        { "1/4", 4 },  { "1/3", 5 },  { "2/5", 6 },  { "1/2", 7 },
        { "3/5", 11 }, { "2/3", 10 }, { "3/4", 14 }, { "4/5", 18 },
        { "5/6", 22 }, { "8/9", 27 }, { "9/10", 30 }
    };
    std::mt19937 rng(5);
    for (const char* rate : normal_rates) {
        BOOST_TEST_CONTEXT("normal " << rate)
        {
            const auto code = ldpc_code::dvbs2(rate);
            BOOST_CHECK_EQUAL(code.n(), 64800u);
            BOOST_CHECK(code.has_accumulator_parity());
            BOOST_CHECK_EQUAL(code.rank(), code.m());
            const unsigned num = rate[0] - '0';
            const unsigned den = unsigned(std::stoul(std::string(rate).substr(2)));
            BOOST_CHECK_EQUAL(code.k() * den, 64800u * num);
            BOOST_CHECK_EQUAL(code.check_degree(0), check_degree.at(rate) - 1);
            for (unsigned c = 1; c < code.m(); ++c)
                BOOST_REQUIRE_EQUAL(code.check_degree(c), check_degree.at(rate));
            BOOST_CHECK_EQUAL(count_4_cycles(code), 0u);
            // the layered order: a permutation in few, long runs of checks
            // that share no bit (row order gives runs of one: p[r] links
            // checks r and r + 1), a colour of the whole code a run: at most
            // 32 (13 for rate 1/2, against 98 in the layers j + iQ), larger
            // runs first, each layer by layer
            const auto& order = code.layered_check_order();
            BOOST_REQUIRE_EQUAL(order.size(), code.m());
            std::vector<uint32_t> seen(code.m(), 0);
            for (const uint32_t c : order)
                seen[c]++;
            BOOST_CHECK(
                std::all_of(seen.begin(), seen.end(), [](uint32_t c) { return c == 1; }));
            const auto& runs = code.layered_runs();
            BOOST_CHECK_EQUAL(runs.back(), code.m());
            BOOST_CHECK_LE(runs.size() - 1, 32u);
            if (std::string(rate) == "1/2")
                BOOST_CHECK_LE(runs.size() - 1, 16u);
            // no run holds two checks that share a bit
            std::vector<uint32_t> in_run(code.n(), UINT32_MAX);
            bool disjoint = true;
            const auto& off = code.check_offsets();
            for (size_t r = 0; r + 1 < runs.size(); ++r)
                for (uint32_t pos = runs[r]; pos < runs[r + 1]; ++pos)
                    for (uint32_t e = off[order[pos]]; e < off[order[pos] + 1]; ++e) {
                        const uint32_t v = code.edge_variable()[e];
                        disjoint &= in_run[v] != r;
                        in_run[v] = uint32_t(r);
                    }
            BOOST_CHECK(disjoint);
            const unsigned q = code.m() / 360;
            auto layer_place = [q](uint32_t c) { return c % q; };
            bool larger_first = true, layer_order = true;
            for (size_t r = 0; r + 1 < runs.size(); ++r) {
                if (r > 0)
                    larger_first &= runs[r + 1] - runs[r] <= runs[r] - runs[r - 1];
                for (uint32_t pos = runs[r] + 1; pos < runs[r + 1]; ++pos)
                    layer_order &= layer_place(order[pos - 1]) <= layer_place(order[pos]);
            }
            BOOST_CHECK(larger_first);
            BOOST_CHECK(layer_order);
            std::vector<uint8_t> info(2 * code.k()), cw(2 * code.n());
            for (auto& b : info)
                b = rng() & 1;
            code.encode(info.data(), cw.data(), 2);
            BOOST_CHECK_EQUAL(code.syndrome_weight(cw.data()), 0u);
            BOOST_CHECK_EQUAL(code.syndrome_weight(cw.data() + code.n()), 0u);
            BOOST_CHECK(std::equal(info.begin(), info.begin() + code.k(), cw.begin()));
        }
    }
    // short frames: the standard's K, 16200 bits
    const unsigned short_k[] = { 3240,  5400,  6480,  7200,  9720,
                                 10800, 11880, 12600, 13320, 14400 };
    for (size_t i = 0; i < std::size(short_rates); ++i) {
        BOOST_TEST_CONTEXT("short " << short_rates[i])
        {
            const auto code = ldpc_code::dvbs2(short_rates[i], "short");
            BOOST_CHECK_EQUAL(code.n(), 16200u);
            BOOST_CHECK_EQUAL(code.k(), short_k[i]);
            BOOST_CHECK(code.has_accumulator_parity());
            std::vector<uint8_t> info(code.k()), cw(code.n());
            for (auto& b : info)
                b = rng() & 1;
            code.encode(info.data(), cw.data(), 1);
            BOOST_CHECK_EQUAL(code.syndrome_weight(cw.data()), 0u);
        }
    }
}

BOOST_AUTO_TEST_CASE(dvbs2_names_and_errors)
{
    const auto by_name = ldpc_code::load("dvbs2:3/4");
    const auto by_call = ldpc_code::dvbs2("3/4");
    const auto a = by_name.entries(), b = by_call.entries();
    BOOST_REQUIRE_EQUAL(a.size(), b.size());
    BOOST_CHECK(
        std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) {
            return x.row == y.row && x.col == y.col && x.value == y.value;
        }));
    BOOST_CHECK_EQUAL(ldpc_code::load("dvbs2:1/2:short").n(), 16200u);
    for (const char* bad : { "dvbs2:7/8", "dvbs2:1/2:long", "dvbs2:9/10:short" }) {
        try {
            ldpc_code::load(bad);
            BOOST_ERROR("accepted " << bad);
        } catch (const std::invalid_argument& e) {
            const std::string what = e.what();
            BOOST_CHECK_MESSAGE(what.find("allowed") != std::string::npos, what);
        }
    }
}

BOOST_AUTO_TEST_CASE(dvbs2_frames_decode)
{
    struct point {
        const char* rate;
        const char* frame;
        double ebn0_db;
    };
    // about 1 dB above where the decoders reach FER 1e-3 with 50 iterations
    for (const point p : { point{ "1/2", "normal", 2.0 },
                           point{ "1/2", "short", 3.0 },
                           point{ "8/9", "short", 5.0 } }) {
        const auto code = std::make_shared<ldpc_code>(ldpc_code::dvbs2(p.rate, p.frame));
        const auto clean = qa::make_batch(*code, 2, INFINITY, 1);
        const auto noisy = qa::make_batch(*code, 2, p.ebn0_db, 2);
        for (auto alg : { decoder_algorithm::sum_product, decoder_algorithm::min_sum }) {
            decoder_config cfg;
            cfg.algorithm = alg;
            cfg.schedule = decoder_schedule::layered;
            cfg.max_iterations = 50;
            // the default scale, 13/16: 0.75 leaves frames of the rate-1/2
            // normal code stuck on a few parity bits at 1.5 dB
            cfg.threads = 2;
            auto dec = batch_decoder::make(code, cfg);
            BOOST_TEST_CONTEXT(p.frame << " " << p.rate << " " << to_string(alg))
            {
                for (const auto* b : { &clean, &noisy }) {
                    std::vector<uint8_t> bits(b->info_bits.size());
                    std::vector<frame_status> st(2);
                    dec->decode(b->llr.data(), 2, bits.data(), st.data());
                    BOOST_CHECK(bits == b->info_bits);
                    BOOST_CHECK(st[0].converged && st[1].converged);
                }
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(nr_codes_have_the_standards_shape)
{
    std::mt19937 rng(9);
    // nonzero entries of the base graphs: 316 (BG1) and 197 (BG2)
    for (unsigned bg : { 1u, 2u })
        for (unsigned z : { 2u, 15u, 52u, 384u }) {
            BOOST_TEST_CONTEXT("base graph " << bg << ", Z=" << z)
            {
                const auto code = ldpc_code::nr(bg, z);
                const unsigned cols = bg == 1 ? 68 : 52, rows = bg == 1 ? 46 : 42;
                BOOST_CHECK_EQUAL(code.n(), cols * z);
                BOOST_CHECK_EQUAL(code.m(), rows * z);
                BOOST_CHECK_EQUAL(code.k(), (bg == 1 ? 22 : 10) * z); // H of full rank
                BOOST_CHECK_EQUAL(code.num_edges(), (bg == 1 ? 316u : 197u) * z);
                BOOST_CHECK_EQUAL(code.n_transmitted(), (cols - 2) * z);
                BOOST_CHECK_EQUAL(code.punctured_positions().back(), 2 * z - 1);
                BOOST_CHECK_EQUAL(code.quasi_cyclic_base().z, z);
                std::vector<uint8_t> info(code.k()), cw(code.n());
                for (auto& b : info)
                    b = rng() & 1;
                code.encode(info.data(), cw.data(), 1);
                BOOST_CHECK_EQUAL(code.syndrome_weight(cw.data()), 0u);
            }
        }
    BOOST_CHECK_EQUAL(ldpc_code::load("nr:2:52").n(), 52u * 52);
    for (const char* bad : { "nr:3:52", "nr:1:17", "nr:1:768", "nr:1", "nr:x:52" }) {
        try {
            ldpc_code::load(bad);
            BOOST_ERROR("accepted " << bad);
        } catch (const std::invalid_argument& e) {
            BOOST_TEST_MESSAGE(e.what());
        }
    }
}

BOOST_AUTO_TEST_CASE(nr_codes_of_fewer_parity_rows_are_the_mother_codes_top_left)
{
    std::mt19937 rng(10);
    for (unsigned bg : { 1u, 2u })
        for (unsigned rows : { 4u, 5u, 8u, 16u, bg == 1 ? 45u : 41u }) {
            BOOST_TEST_CONTEXT("base graph " << bg << ", " << rows << " rows")
            {
                const unsigned z = 15, kb = bg == 1 ? 22 : 10;
                const auto mother = ldpc_code::nr(bg, z);
                const auto code = ldpc_code::nr(bg, z, rows);
                BOOST_CHECK_EQUAL(code.n(), (kb + rows) * z);
                BOOST_CHECK_EQUAL(code.checks(), rows * z);
                BOOST_CHECK_EQUAL(code.k(), kb * z);
                BOOST_CHECK_EQUAL(code.n_transmitted(), (kb + rows - 2) * z);
                BOOST_CHECK_CLOSE(code.rate(), double(kb) / (kb + rows - 2), 1e-9);
                // H is the mother's first rows * z rows, first n() columns, and
                // the mother's other rows never touch those columns' parity part
                const auto& mb = mother.quasi_cyclic_base();
                const auto& b = code.quasi_cyclic_base();
                BOOST_REQUIRE_EQUAL(b.rows, rows);
                BOOST_REQUIRE_EQUAL(b.cols, kb + rows);
                for (unsigned i = 0; i < mb.rows; ++i)
                    for (unsigned j = 0; j < mb.cols; ++j) {
                        const int32_t s = mb.shifts[size_t(i) * mb.cols + j];
                        if (i < rows && j < b.cols)
                            BOOST_CHECK_EQUAL(b.shifts[size_t(i) * b.cols + j], s);
                        else if (i < rows)
                            BOOST_CHECK_EQUAL(s, -1);
                    }
                std::vector<uint8_t> info(code.k()), cw(code.n()), mother_cw(mother.n());
                for (auto& x : info)
                    x = rng() & 1;
                code.encode(info.data(), cw.data(), 1);
                BOOST_CHECK_EQUAL(code.syndrome_weight(cw.data()), 0u);
                // a mother codeword's first n() bits are a codeword
                mother.encode(info.data(), mother_cw.data(), 1);
                BOOST_CHECK_EQUAL(code.syndrome_weight(mother_cw.data()), 0u);
            }
        }
    BOOST_CHECK_EQUAL(ldpc_code::load("nr:1:384:8").n(), 30u * 384);
    BOOST_CHECK_EQUAL(ldpc_code::load("nr:2:52:42").n(), ldpc_code::nr(2, 52).n());
    BOOST_CHECK_EQUAL(ldpc_code::nr(1, 2, 0).n(), ldpc_code::nr(1, 2).n());
    BOOST_CHECK_EQUAL(ldpc_code::load("nr:1:2:0").n(), ldpc_code::nr(1, 2).n());
    for (const char* bad : { "nr:1:384:3", "nr:1:384:47", "nr:2:52:43",
                             "nr:1:384:8:1", "nr:1:384:x" }) {
        try {
            ldpc_code::load(bad);
            BOOST_ERROR("accepted " << bad);
        } catch (const std::invalid_argument& e) {
            BOOST_TEST_MESSAGE(e.what());
            BOOST_CHECK(std::string(e.what()).find("4 .. 4") != std::string::npos ||
                        std::string(e.what()).find("nr:BG:Z:ROWS") != std::string::npos);
        }
    }
}

BOOST_AUTO_TEST_CASE(nr_rate_matching_selects_and_recovers_the_circular_buffer)
{
    // TS 38.212 Table 5.4.2.1-2 with N_cb = N
    const nr_rate_matching bg1(1, 384, 0, 2), bg2(2, 384, 0, 2);
    const unsigned k0_bg1[4] = { 0, 17, 33, 56 }, k0_bg2[4] = { 0, 13, 25, 43 };
    for (unsigned rv = 0; rv < 4; ++rv) {
        BOOST_CHECK_EQUAL(bg1.start(rv), k0_bg1[rv] * 384);
        BOOST_CHECK_EQUAL(bg2.start(rv), k0_bg2[rv] * 384);
    }
    const unsigned z = 16, filler = 20;
    const auto code = std::make_shared<ldpc_code>(ldpc_code::nr(1, z));
    BOOST_REQUIRE_EQUAL(code->info_positions().front(), 0u);
    BOOST_REQUIRE_EQUAL(code->info_positions().back(), code->k() - 1);
    std::mt19937 rng(11);
    std::vector<uint8_t> info(code->k()), cw(code->n());
    for (size_t i = 0; i + filler < info.size(); ++i)
        info[i] = rng() & 1; // the last `filler` stay 0
    code->encode(info.data(), cw.data(), 1);
    const nr_rate_matching rm(1, z, filler, 2);
    BOOST_CHECK_EQUAL(rm.buffer_size(), code->n_transmitted());
    const unsigned first_filler = code->k() - filler - 2 * z;
    // Q_m = 2: rows of E / 2, read out column by column
    for (unsigned rv = 0; rv < 4; ++rv) {
        const auto f = rm.select(cw.data(), 4, rv);
        const unsigned k0 = rm.start(rv);
        const auto d = [&](unsigned j) { return cw[2 * z + (k0 + j) % rm.buffer_size()]; };
        if (k0 + 4 <= first_filler || k0 >= first_filler + filler) {
            BOOST_CHECK_EQUAL(int(f[0]), int(d(0)));
            BOOST_CHECK_EQUAL(int(f[1]), int(d(2)));
            BOOST_CHECK_EQUAL(int(f[2]), int(d(1)));
            BOOST_CHECK_EQUAL(int(f[3]), int(d(3)));
        }
    }
    // every bit but the fillers once: the buffer is the codeword's soft values
    for (unsigned rv = 0; rv < 4; ++rv) {
        const unsigned e = rm.buffer_size() - filler;
        const auto sent = rm.select(cw.data(), e, rv);
        std::vector<float> received(e);
        for (unsigned i = 0; i < e; ++i)
            received[i] = sent[i] ? 8.0f : -8.0f; // GNU Radio: positive means 1
        auto buffer = rm.buffer(-64.0f);
        rm.combine(received.data(), e, rv, buffer.data());
        for (unsigned j = 0; j < rm.buffer_size(); ++j) {
            const bool is_filler = j >= first_filler && j < first_filler + filler;
            const float want = is_filler ? -64.0f : (cw[2 * z + j] ? 8.0f : -8.0f);
            if (buffer[j] != want) {
                BOOST_ERROR("rv " << rv << ", position " << j << ": " << buffer[j]
                                  << " instead of " << want);
                break;
            }
        }
        // and twice over, twice the values
        rm.combine(received.data(), e, rv, buffer.data());
        const unsigned after = first_filler + filler;
        BOOST_CHECK_EQUAL(buffer[after], 2 * (cw[2 * z + after] ? 8.0f : -8.0f));
    }
    // a short version and another one decode together
    decoder_config cfg;
    cfg.algorithm = decoder_algorithm::min_sum;
    cfg.messages = message_precision::int8;
    cfg.schedule = decoder_schedule::layered;
    auto dec = batch_decoder::make(code, cfg, "cpu");
    auto buffer = rm.buffer(-64.0f);
    for (unsigned rv : { 0u, 2u }) {
        const unsigned e = 22 * z;
        const auto sent = rm.select(cw.data(), e, rv);
        std::vector<float> received(e);
        for (unsigned i = 0; i < e; ++i)
            received[i] = sent[i] ? 4.0f : -4.0f;
        rm.combine(received.data(), e, rv, buffer.data());
    }
    std::vector<uint8_t> bits(code->k());
    frame_status st;
    dec->decode(buffer.data(), 1, bits.data(), &st);
    BOOST_CHECK(st.converged);
    BOOST_CHECK(bits == info);
    // limited buffer: N_cb = 40 Z, k0 = floor(a N_cb / (66 Z)) Z, and the
    // bits past N_cb never sent
    const nr_rate_matching lbrm(1, z, 0, 2, 40 * z);
    BOOST_CHECK_EQUAL(lbrm.circular_buffer_size(), 40 * z);
    BOOST_CHECK_EQUAL(lbrm.buffer_size(), 66 * z);
    BOOST_CHECK_EQUAL(lbrm.start(1), (17 * 40 / 66) * z);
    BOOST_CHECK_EQUAL(lbrm.start(3), (56 * 40 / 66) * z);
    {
        const unsigned e = 2 * 40 * z; // twice around
        BOOST_CHECK_EQUAL(lbrm.select(cw.data(), e, 1).size(), e);
        std::vector<float> received(e, 1.0f);
        auto b = lbrm.buffer(-64.0f);
        lbrm.combine(received.data(), e, 1, b.data());
        for (unsigned j = 0; j < 66 * z; ++j)
            if (b[j] != (j < 40 * z ? 2.0f : 0.0f)) {
                BOOST_ERROR("limited buffer, position " << j << ": " << b[j]);
                break;
            }
    }
    BOOST_CHECK_THROW(nr_rate_matching(1, z, 0, 2, 20 * z - 1), std::invalid_argument);
    BOOST_CHECK_THROW(nr_rate_matching(1, z, 0, 2, 66 * z + 1), std::invalid_argument);
    // arguments
    const uint8_t* no_bits = cw.data();
    BOOST_CHECK_THROW(rm.select(no_bits, 4, 4), std::invalid_argument);
    BOOST_CHECK_THROW(rm.select(no_bits, 0, 0), std::invalid_argument);
    BOOST_CHECK_THROW(rm.select(no_bits, 5, 0), std::invalid_argument);
    BOOST_CHECK_THROW(nr_rate_matching(3, 16, 0, 2), std::invalid_argument);
    BOOST_CHECK_THROW(nr_rate_matching(1, 17, 0, 2), std::invalid_argument);
    BOOST_CHECK_THROW(nr_rate_matching(1, 16, 22 * 16 - 32, 2), std::invalid_argument);
    BOOST_CHECK_THROW(nr_rate_matching(1, 16, 0, 3), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(nr_frames_decode)
{
    // base graph 2, Z = 52 (K = 520): the punctured 2Z bits are recovered
    check_frames_decode(std::make_shared<ldpc_code>(ldpc_code::nr(2, 52)));
}

BOOST_AUTO_TEST_CASE(wifi_codes_have_the_standards_shape)
{
    std::mt19937 rng(13);
    // nonzero blocks of the base matrices: the tables are read whole
    const std::map<std::string, unsigned> blocks = {
        { "648 1/2", 88 },  { "648 2/3", 88 },  { "648 3/4", 88 },  { "1296 1/2", 86 },
        { "1296 2/3", 88 }, { "1296 3/4", 88 }, { "1944 1/2", 86 }, { "1944 2/3", 88 },
        { "1944 3/4", 85 }, { "648 5/6", 88 },  { "1296 5/6", 85 }, { "1944 5/6", 79 }
    };
    for (unsigned n : { 648u, 1296u, 1944u })
        for (const char* rate : { "1/2", "2/3", "3/4", "5/6" }) {
            BOOST_TEST_CONTEXT("n=" << n << ", rate " << rate)
            {
                const auto code = ldpc_code::wifi(n, rate);
                const unsigned z = n / 24, num = rate[0] - '0', den = rate[2] - '0';
                BOOST_CHECK_EQUAL(code.n(), n);
                BOOST_CHECK_EQUAL(code.k() * den, n * num); // H of full rank
                BOOST_CHECK_EQUAL(code.num_edges(),
                                  blocks.at(std::to_string(n) + " " + rate) * z);
                BOOST_CHECK_EQUAL(code.quasi_cyclic_base().z, z);
                // the rate-1/2 codes have no 4-cycle (some others have a few
                // in the standard's tables, e.g. 648 at 3/4: two in the base
                // matrix, 54 lifted)
                if (rate[2] == '2')
                    BOOST_CHECK_EQUAL(count_4_cycles(code), 0u);
                check_systematic_base_rows(code, z, rng);
            }
        }
    BOOST_CHECK_EQUAL(ldpc_code::load("wifi:1296:2/3").k(), 864u);
    for (const char* bad :
         { "wifi:1944:7/8", "wifi:1000:1/2", "wifi:1944", "wifi:x:1/2" }) {
        try {
            ldpc_code::load(bad);
            BOOST_ERROR("accepted " << bad);
        } catch (const std::invalid_argument& e) {
            BOOST_TEST_MESSAGE(e.what());
        }
    }
}

BOOST_AUTO_TEST_CASE(wimax_codes_have_the_standards_shape)
{
    std::mt19937 rng(17);
    struct rate_shape {
        const char* rate;
        unsigned info_columns; // of 24
        unsigned blocks;       // nonzero blocks of the base matrix
    };
    const rate_shape rates[] = { { "1/2", 12, 76 },  { "2/3A", 16, 80 },
                                 { "2/3B", 16, 81 }, { "3/4A", 18, 85 },
                                 { "3/4B", 18, 88 }, { "5/6", 20, 80 } };
    for (const auto& r : rates) {
        // every rate at the largest z (the table as printed), its parity part
        // the dual diagonal that makes it encodable: a first parity column of
        // three blocks, the outer two of one shift (their sum cancels in the
        // sum of the rows), then a staircase of unshifted identities
        const auto largest = ldpc_code::wimax(2304, r.rate).quasi_cyclic_base();
        BOOST_TEST_CONTEXT("rate " << r.rate)
        {
            const unsigned rows = 24 - r.info_columns;
            BOOST_REQUIRE_EQUAL(largest.rows, rows);
            BOOST_REQUIRE_EQUAL(largest.cols, 24u);
            auto at = [&](unsigned i, unsigned j) { return largest.shifts[i * 24 + j]; };
            std::vector<unsigned> first;
            for (unsigned i = 0; i < rows; ++i)
                if (at(i, r.info_columns) >= 0)
                    first.push_back(i);
            BOOST_REQUIRE_EQUAL(first.size(), 3u);
            BOOST_CHECK_EQUAL(first.front(), 0u);
            BOOST_CHECK_EQUAL(first.back(), rows - 1);
            BOOST_CHECK_EQUAL(at(0, r.info_columns), at(rows - 1, r.info_columns));
            for (unsigned j = r.info_columns + 1; j < 24; ++j)
                for (unsigned i = 0; i < rows; ++i) {
                    const bool staircase =
                        i + r.info_columns + 1 == j || i + r.info_columns == j;
                    BOOST_CHECK_EQUAL(at(i, j), staircase ? 0 : -1);
                }
        }
        for (unsigned n : { 576u, 672u, 1440u, 2304u })
            BOOST_TEST_CONTEXT("n=" << n << ", rate " << r.rate)
            {
                const auto code = ldpc_code::wimax(n, r.rate);
                const unsigned z = n / 24;
                BOOST_CHECK_EQUAL(code.n(), n);
                BOOST_CHECK_EQUAL(code.k(), r.info_columns * z); // H of full rank
                BOOST_CHECK_EQUAL(code.num_edges(), r.blocks * z);
                BOOST_CHECK_EQUAL(code.quasi_cyclic_base().z, z);
                check_systematic_base_rows(code, z, rng);
            }
    }
    // the shifts scaled as 802.16-2009 8.4.9.2.5.1 says: floor(p z / 96),
    // and modulo z for rate 2/3A (entries of the first rows at z0 = 96: rate
    // 1/2 (0, 1) = 94, (0, 2) = 73; rate 2/3A (1, 4) = 36, (2, 7) = 40)
    const auto half = ldpc_code::wimax(576, "1/2").quasi_cyclic_base();
    BOOST_CHECK_EQUAL(half.shifts[1], 94 * 24 / 96);
    BOOST_CHECK_EQUAL(half.shifts[2], 73 * 24 / 96);
    BOOST_CHECK_EQUAL(ldpc_code::wimax(1440, "1/2").quasi_cyclic_base().shifts[1],
                      94 * 60 / 96);
    const auto a576 = ldpc_code::wimax(576, "2/3A").quasi_cyclic_base();
    BOOST_CHECK_EQUAL(a576.shifts[24 + 4], 36 % 24);
    BOOST_CHECK_EQUAL(a576.shifts[48 + 7], 40 % 24);
    BOOST_CHECK_EQUAL(ldpc_code::wimax(960, "2/3A").quasi_cyclic_base().shifts[24 + 4],
                      36 % 40);
    // by name, the type letter in either case
    BOOST_CHECK_EQUAL(ldpc_code::load("wimax:1152:3/4b").k(), 864u);
    BOOST_CHECK(ldpc_code::load("wimax:1152:3/4B").quasi_cyclic_base().shifts ==
                ldpc_code::wimax(1152, "3/4b").quasi_cyclic_base().shifts);
    for (const char* bad : { "wimax:2304:2/3",
                             "wimax:600:1/2",
                             "wimax:2400:1/2",
                             "wimax:480:1/2",
                             "wimax:2304",
                             "wimax:x:1/2" }) {
        try {
            ldpc_code::load(bad);
            BOOST_ERROR("accepted " << bad);
        } catch (const std::invalid_argument& e) {
            BOOST_TEST_MESSAGE(e.what());
            BOOST_CHECK(std::string(e.what()).find("allowed") != std::string::npos);
        }
    }
}

BOOST_AUTO_TEST_CASE(quasi_cyclic_structure_is_found_in_h)
{
    // Wi-Fi codes through an alist file: no base matrix kept, the same one
    // found in H
    for (const char* rate : { "1/2", "2/3", "3/4" }) {
        const auto code = ldpc_code::wifi(1944, rate);
        code_io_options alist;
        alist.format = code_format::alist;
        std::stringstream file;
        code.write(file, alist);
        const auto read = ldpc_code::read(file, "wifi.alist", alist);
        BOOST_TEST_CONTEXT("Wi-Fi 1944 " << rate)
        {
            BOOST_CHECK_EQUAL(read.quasi_cyclic_base().z, 0u);
            const auto found = read.find_quasi_cyclic_base();
            BOOST_CHECK_EQUAL(found.z, 81u);
            BOOST_CHECK_EQUAL(found.rows, code.quasi_cyclic_base().rows);
            BOOST_CHECK_EQUAL(found.cols, 24u);
            BOOST_CHECK(found.shifts == code.quasi_cyclic_base().shifts);
            BOOST_CHECK(found.transmitted == std::vector<uint8_t>(24, 1));
            // the code itself is unchanged: written as an alist again
            std::stringstream again;
            read.write(again);
            BOOST_CHECK_EQUAL(again.str(), file.str());
        }
    }
    // 5G NR from its entries with its punctured columns: the base matrix of
    // nr(), the first two base columns not sent
    const auto nr = ldpc_code::nr(2, 15, 8);
    const ldpc_code plain(nr.n(), nr.m(), 2, nr.entries(), 0, nr.punctured_positions());
    const auto found = plain.find_quasi_cyclic_base();
    BOOST_CHECK_EQUAL(found.z, 15u);
    BOOST_CHECK(found.shifts == nr.quasi_cyclic_base().shifts);
    BOOST_CHECK(found.transmitted == nr.quasi_cyclic_base().transmitted);
    // a code's own base matrix is returned as it is
    BOOST_CHECK(nr.find_quasi_cyclic_base().shifts == nr.quasi_cyclic_base().shifts);
    // punctured columns that are not whole blocks: not found
    std::vector<uint32_t> some = nr.punctured_positions();
    some.pop_back();
    BOOST_CHECK_EQUAL(
        ldpc_code(nr.n(), nr.m(), 2, nr.entries(), 0, some).find_quasi_cyclic_base().z,
        0u);
    // a code without the structure, and DVB-S2 (quasi-cyclic only after its
    // rows and columns are permuted)
    BOOST_CHECK_EQUAL(construct_regular_code(1008, 3, 6, 2, 5).find_quasi_cyclic_base().z,
                      0u);
    BOOST_CHECK_EQUAL(ldpc_code::dvbs2("1/2", "short").find_quasi_cyclic_base().z, 0u);
    BOOST_CHECK_EQUAL(ldpc_code::dvbs2("1/4").find_quasi_cyclic_base().z, 0u);
    // a layered decoder keeps such a code in its base rows (Wi-Fi 648 rate
    // 1/2: runs of 27 checks, which a code without the structure would have
    // coloured)
    {
        const auto wifi = ldpc_code::wifi(648, "1/2");
        code_io_options alist;
        alist.format = code_format::alist;
        std::stringstream file;
        wifi.write(file, alist);
        const auto read =
            std::make_shared<ldpc_code>(ldpc_code::read(file, "wifi.alist", alist));
        decoder_config cfg;
        cfg.algorithm = decoder_algorithm::min_sum;
        cfg.schedule = decoder_schedule::layered;
        const auto dec = batch_decoder::make(read, cfg, "cpu");
        const auto& order = dec->code().layered_check_order();
        BOOST_CHECK(std::is_sorted(order.begin(), order.end()));
        BOOST_CHECK_EQUAL(dec->code().layered_runs().size() - 1, 12u);
    }
    // a block of two shifts (weight 2) is not a permutation
    const std::vector<ldpc_code::entry> two = { { 0, 0, 1 }, { 0, 1, 1 }, { 1, 1, 1 },
                                                { 1, 0, 1 }, { 0, 2, 1 }, { 1, 3, 1 } };
    BOOST_CHECK_EQUAL(ldpc_code(4, 2, 2, two).find_quasi_cyclic_base().z, 0u);
}

BOOST_AUTO_TEST_CASE(ar4ja_codes_have_the_standards_shape)
{
    std::mt19937 rng(19);
    struct rate_shape {
        const char* rate;
        unsigned info_blocks; // M-blocks of information: k = info_blocks M
        unsigned blocks;      // nonzero blocks of the base matrix (z = M / 4)
    };
    // CCSDS 131.0-B-5, 7.4.3.2: H_1/2 holds 15 identities or permutations in
    // 3 x 5 blocks, each 4 circulants at z = M / 4; H_2/3 and H_4/5 add 8
    // and 16
    const rate_shape rates[] = { { "1/2", 2, 60 }, { "2/3", 4, 92 }, { "4/5", 8, 156 } };
    for (const auto& r : rates)
        for (unsigned k : { 1024u, 4096u }) {
            BOOST_TEST_CONTEXT("k=" << k << ", rate " << r.rate)
            {
                const auto code = ldpc_code::ar4ja(k, r.rate);
                const unsigned m_size = k / r.info_blocks, z = m_size / 4;
                const auto& base = code.quasi_cyclic_base();
                BOOST_CHECK_EQUAL(base.z, z);
                BOOST_CHECK_EQUAL(base.rows, 12u);
                BOOST_CHECK_EQUAL(code.n(), k + 3 * m_size);
                BOOST_CHECK_EQUAL(code.k(), k);
                BOOST_CHECK_EQUAL(code.rank(), code.m());
                BOOST_CHECK_EQUAL(code.num_edges(), r.blocks * z);
                // 7.4.2.1: the last M bits are punctured; rates 1/2, 2/3, 4/5
                BOOST_CHECK_EQUAL(code.n_transmitted(), k + 2 * m_size);
                BOOST_CHECK_EQUAL(code.punctured_positions().front(), code.n() - m_size);
                BOOST_CHECK_EQUAL(code.rate(),
                                  double(r.info_blocks) / (r.info_blocks + 2));
                check_systematic_base_rows(code, z, rng);
            }
        }
    // 7.4.2.4: permutation k maps row i of its M x M block to column
    // M/4 ((theta_k + floor(4i/M)) mod 4) + (phi_k(floor(4i/M), M) + i) mod M/4;
    // entries of Tables 7-3 and 7-4 written out here, checked on the lifted H
    struct permutation {
        const char* rate;
        unsigned k;
        unsigned row_block, col_block; // of H_1/2 or H_4/5 as printed
        unsigned theta;
        unsigned phi[4];
    };
    const permutation checks[] = {
        { "1/2", 1024, 0, 4, 3, { 16, 0, 0, 0 } },          // pi_1, M = 512
        { "1/2", 1024, 1, 4, 0, { 103, 53, 8, 35 } },       // pi_2
        { "1/2", 4096, 2, 1, 3, { 28, 84, 403, 7 } },       // pi_6, M = 2048
        { "4/5", 1024, 1, 0, 0, { 4, 2, 2, 20 } },          // pi_21, M = 128
        { "4/5", 4096, 2, 1, 3, { 126, 116, 120, 62 } },    // pi_26, M = 512
        { "2/3", 16384, 1, 0, 2, { 409, 762, 698, 154 } },  // pi_11, M = 4096
        { "1/2", 16384, 2, 1, 2, { 485, 1989, 757, 1039 } } // pi_5, M = 8192
    };
    for (const auto& p : checks)
        BOOST_TEST_CONTEXT("k=" << p.k << ", rate " << p.rate << ", block ("
                                << p.row_block << ", " << p.col_block << ")")
        {
            const auto code = ldpc_code::ar4ja(p.k, p.rate);
            const unsigned info_blocks = p.rate[0] == '1' ? 2 : p.rate[0] == '2' ? 4 : 8;
            const unsigned m_size = p.k / info_blocks;
            const auto& offsets = code.check_offsets();
            const auto& variable = code.edge_variable();
            for (unsigned i = 0; i < m_size; ++i) {
                const unsigned j = 4 * i / m_size;
                const uint32_t col = p.col_block * m_size +
                                     m_size / 4 * ((p.theta + j) % 4) +
                                     (p.phi[j] + i) % (m_size / 4);
                const uint32_t check = p.row_block * m_size + i;
                BOOST_REQUIRE(std::binary_search(variable.begin() + offsets[check],
                                                 variable.begin() + offsets[check + 1],
                                                 col));
            }
        }
    // k = 16384 at rates 4/5 and 2/3 (M = 2048, 4096: the encoder's inverse
    // of 4096 x 4096); rate 1/2's structure above (its inverse is M = 8192's)
    for (const char* rate : { "4/5", "2/3" })
        BOOST_TEST_CONTEXT("k=16384, rate " << rate)
        {
            const auto large = ldpc_code::load(std::string("ar4ja:16384:") + rate);
            BOOST_CHECK_EQUAL(large.n_transmitted(), rate[0] == '4' ? 20480u : 24576u);
            check_systematic_base_rows(large, large.quasi_cyclic_base().z, rng);
        }
    // written to a .qc file and read back: the same code, the standard's
    // encoder (a general elimination would move information columns)
    {
        const auto code = ldpc_code::ar4ja(1024, "2/3");
        code_io_options qc;
        qc.format = code_format::qc;
        std::stringstream file;
        code.write(file, qc);
        const auto read = ldpc_code::read(file, "ar4ja.qc", qc);
        BOOST_CHECK(read.punctured_positions() == code.punctured_positions());
        BOOST_CHECK(read.quasi_cyclic_base().shifts == code.quasi_cyclic_base().shifts);
        check_systematic_base_rows(read, 64, rng);
        std::vector<uint8_t> info(1024), cw(code.n()), again(code.n());
        for (auto& b : info)
            b = rng() & 1;
        code.encode(info.data(), cw.data(), 1);
        read.encode(info.data(), again.data(), 1);
        BOOST_CHECK(cw == again);
        // without its puncturing it is another code, of a general elimination
        auto unpunctured = code.quasi_cyclic_base();
        unpunctured.transmitted.assign(unpunctured.cols, 1);
        BOOST_CHECK_EQUAL(ldpc_code::from_base_matrix(unpunctured).n_transmitted(),
                          code.n());
    }
    for (const char* bad :
         { "ar4ja:2048:1/2", "ar4ja:1024:7/8", "ar4ja:1024", "ar4ja:x:1/2" }) {
        try {
            ldpc_code::load(bad);
            BOOST_ERROR("accepted " << bad);
        } catch (const std::invalid_argument& e) {
            BOOST_TEST_MESSAGE(e.what());
        }
    }
}

BOOST_AUTO_TEST_CASE(ar4ja_frames_decode)
{
    // the punctured M bits are recovered: layered 8-bit min-sum, CPU or GPU
    check_frames_decode(std::make_shared<ldpc_code>(ldpc_code::ar4ja(1024, "1/2")));
}
