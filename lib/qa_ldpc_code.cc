/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <dirent.h>
#include <boost/test/unit_test.hpp>
#include <algorithm>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>

using namespace gr::gpuldpc;

namespace {

ldpc_code parse(const std::string& text, const code_io_options& opts = {})
{
    std::istringstream in(text);
    return ldpc_code::read(in, "test.alist", opts);
}

// Expects a code_file_error at \p line whose message contains \p needle.
void expect_file_error(const std::string& text,
                       size_t line,
                       const std::string& needle,
                       const code_io_options& opts = {})
{
    try {
        parse(text, opts);
        BOOST_ERROR("accepted a bad file; expected: " << needle);
    } catch (const code_file_error& e) {
        BOOST_CHECK_MESSAGE(e.line() == line,
                            "line " << e.line() << " instead of " << line << ": "
                                    << e.what());
        BOOST_CHECK_MESSAGE(std::string(e.what()).find(needle) != std::string::npos,
                            "message '" << e.what() << "' lacks '" << needle << "'");
        BOOST_CHECK(std::string(e.what()).rfind("test.alist:", 0) == 0);
    }
}

void check_same(const ldpc_code& a, const ldpc_code& b)
{
    BOOST_REQUIRE_EQUAL(a.n(), b.n());
    BOOST_REQUIRE_EQUAL(a.m(), b.m());
    BOOST_REQUIRE_EQUAL(a.q(), b.q());
    BOOST_REQUIRE_EQUAL(a.field().polynomial(), b.field().polynomial());
    const auto ea = a.entries(), eb = b.entries();
    BOOST_REQUIRE_EQUAL(ea.size(), eb.size());
    for (size_t i = 0; i < ea.size(); ++i) {
        BOOST_REQUIRE_EQUAL(ea[i].row, eb[i].row);
        BOOST_REQUIRE_EQUAL(ea[i].col, eb[i].col);
        BOOST_REQUIRE_EQUAL(ea[i].value, eb[i].value);
    }
}

std::string source_dir()
{
    const char* s = std::getenv("GPULDPC_SOURCE_DIR");
    return s ? s : ".";
}

// (2 x 4) binary example; column 4 is padded with a 0.
const char* small_binary = "4 2\n"
                           "2 3\n"
                           "1 1 2 2\n"
                           "3 3\n"
                           "1 0\n"
                           "2 0\n"
                           "1 2\n"
                           "1 2\n"
                           "1 3 4\n"
                           "2 3 4\n";

// (2 x 4) over GF(4), exponent convention.
const char* small_gf4 = "4 2 4\n"
                        "2 3\n"
                        "1 1 2 1\n"
                        "3 2\n"
                        "1 0 0 0\n"
                        "2 1\n"
                        "1 2 2 0\n"
                        "1 1\n"
                        "1 0 3 2 4 1\n"
                        "2 1 3 0 0 0\n";

} // namespace

BOOST_AUTO_TEST_CASE(binary_alist_graph_in_both_orders)
{
    const auto code = parse(small_binary);
    BOOST_CHECK_EQUAL(code.n(), 4u);
    BOOST_CHECK_EQUAL(code.m(), 2u);
    BOOST_CHECK_EQUAL(code.q(), 2u);
    BOOST_CHECK_EQUAL(code.num_edges(), 6u);
    const std::vector<uint8_t> expected = { 1, 0, 1, 1, 0, 1, 1, 1 };
    BOOST_CHECK(code.dense() == expected);
    // check-major lists and variable -> edge lists describe the same graph
    for (unsigned v = 0; v < code.n(); ++v)
        for (uint32_t i = code.variable_offsets()[v]; i < code.variable_offsets()[v + 1];
             ++i)
            BOOST_CHECK_EQUAL(code.edge_variable()[code.variable_edges()[i]], v);
    BOOST_CHECK_EQUAL(code.variable_degree(2), 2u);
    BOOST_CHECK_EQUAL(code.check_degree(0), 3u);
}

BOOST_AUTO_TEST_CASE(comments_blank_lines_and_padding_are_tolerated)
{
    const std::string text = "# VN CN\n  6  3\n# dmax\n  2 3\n\n# d_VN\n1 1 2 2 1 1\n"
                             "# d_CN\n2 3 3\n# VN lists\n1 0\n2 0\n1 2\n2 3\n3 0\n3 0\n"
                             "# CN lists\n1 3 0\n2 4 3\n3 4 6\n";
    // Entries of a list may come in any order, but a row list that disagrees
    // with the column lists (check 3 of `text`) is an error.
    const std::string good = "# VN CN\n  6  3\n# dmax\n  2 3\n\n# d_VN\n1 1 2 2 1 1\n"
                             "# d_CN\n2 3 3\n# VN lists\n1 0\n2 0\n1 2\n2 3\n3 0\n3 0\n"
                             "# CN lists\n1 3 0\n2 3 4\n4 5 6\n";
    const auto code = parse(good);
    BOOST_CHECK_EQUAL(code.n(), 6u);
    BOOST_CHECK_EQUAL(code.m(), 3u);
    expect_file_error(text, 20, "describe different matrices");
}

BOOST_AUTO_TEST_CASE(nonbinary_alist_coefficient_conventions)
{
    const auto code = parse(small_gf4);
    BOOST_CHECK_EQUAL(code.q(), 4u);
    const gf_field& f = code.field();
    // exponent convention: entry e is alpha^e
    std::vector<uint8_t> expected = { f.exp(0), 0,        f.exp(2), f.exp(1),
                                      0,        f.exp(1), f.exp(0), 0 };
    BOOST_CHECK(code.dense() == expected);
    // the same matrix written in polynomial form reads back identically
    std::ostringstream out;
    code_io_options poly_opts;
    poly_opts.coef = coef_convention::polynomial;
    code.write(out, poly_opts);
    check_same(code, parse(out.str(), poly_opts));
    // polynomial reading of the exponent file means other coefficients: an
    // exponent 0 is not a nonzero element
    expect_file_error(small_gf4, 5, "not a nonzero element", poly_opts);
}

BOOST_AUTO_TEST_CASE(round_trips_are_exact)
{
    for (unsigned q : { 2u, 4u, 16u, 64u, 256u }) {
        const auto code = construct_regular_code(48, 2, 4, q, 7 + q);
        for (auto coef : { coef_convention::exponent, coef_convention::polynomial }) {
            code_io_options opts;
            opts.coef = coef;
            std::ostringstream out1;
            code.write(out1, opts);
            const auto again = parse(out1.str(), opts);
            check_same(code, again);
            std::ostringstream out2;
            again.write(out2, opts);
            BOOST_CHECK_EQUAL(out1.str(), out2.str());
        }
    }
    // a binary code also round-trips through the non-binary format
    const auto bin = construct_regular_code(60, 3, 6, 2, 3);
    code_io_options nb;
    nb.format = code_format::nb_alist;
    std::ostringstream out;
    bin.write(out, nb);
    check_same(bin, parse(out.str()));
    // and a GF(q) code cannot be written as binary alist
    code_io_options b;
    b.format = code_format::alist;
    std::ostringstream sink;
    BOOST_CHECK_THROW(construct_regular_code(48, 2, 4, 16, 1).write(sink, b),
                      std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(empty_rows_and_columns_round_trip)
{
    // column 2 and row 3 hold nothing
    const uint8_t h[] = { 1, 0, 1, 3, 0, 2, 0, 1, 0, 0, 0, 0 };
    for (unsigned q : { 2u, 4u }) {
        std::vector<uint8_t> hq(h, h + 12);
        if (q == 2)
            for (auto& x : hq)
                x = x != 0;
        const auto code = ldpc_code::from_dense(3, 4, q, hq.data());
        std::ostringstream out;
        code.write(out);
        check_same(code, parse(out.str()));
    }
}

BOOST_AUTO_TEST_CASE(alternative_field_polynomial)
{
    // GF(16) with x^4 + x^3 + 1 instead of the default x^4 + x + 1
    code_io_options opts;
    opts.poly = 0x19;
    const auto code = construct_regular_code(32, 2, 4, 16, 11, 0x19);
    std::ostringstream out;
    code.write(out, opts);
    const auto again = parse(out.str(), opts);
    BOOST_CHECK_EQUAL(again.field().polynomial(), 0x19u);
    check_same(code, again);
    // read with the default polynomial, the same exponents give other elements
    const auto other = parse(out.str());
    BOOST_CHECK(other.dense() != code.dense());
    opts.poly = 0x17; // x^4+x^2+x+1 is not primitive
    BOOST_CHECK_THROW(parse(out.str(), opts), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(bad_files_name_file_line_and_problem)
{
    // header
    expect_file_error("4\n", 1, "header has 1 number");
    expect_file_error("4 2 6\n2 3\n", 1, "q=6 is not allowed");
    expect_file_error("4 2 0\n", 1, "q=0 is not allowed");
    expect_file_error("0 2\n", 1, "must be positive");
    expect_file_error("4 x2\n", 1, "'x2' is not an integer");
    expect_file_error("4 -2\n", 1, "not a non-negative integer");
    // counts that disagree
    expect_file_error("4 2\n2 3\n1 1 2 2 2\n", 3, "too many column weights");
    expect_file_error("4 2\n2 4\n1 1 2 2\n3 3\n", 4, "largest row weight is 3");
    expect_file_error("4 2\n2 3\n1 1 2 2\n3 2\n", 4, "sum to 6 but row weights sum to 5");
    expect_file_error("4 2\n2 3\n1 1 2 2\n3 3\n1 2\n2 0\n1 2\n1 2\n1 3 4\n2 3 4\n",
                      5,
                      "column 1 lists 2 entries but its weight is 1");
    expect_file_error(
        "4 2\n2 3\n1 1 2 2\n3 3\n1 0 0\n", 5, "more than the maximum weight");
    // index out of range
    expect_file_error("4 2\n2 3\n1 1 2 2\n3 3\n3 0\n", 5, "index 3 is out of range");
    expect_file_error("4 2\n2 3\n1 1 2 2\n3 3\n1 0\n2 0\n1 2\n1 2\n1 3 5\n",
                      9,
                      "index 5 is out of range");
    // row and column lists describe different matrices
    expect_file_error("4 2\n2 3\n1 1 2 2\n3 3\n1 0\n2 0\n1 2\n1 2\n1 2 4\n2 3 4\n",
                      9,
                      "describe different matrices");
    // repeated index
    expect_file_error("4 2\n2 3\n1 1 2 2\n3 3\n1 0\n2 0\n1 1\n1 2\n", 7, "listed twice");
    // coefficients
    expect_file_error("4 2 4\n2 3\n1 1 2 1\n3 2\n1 3\n", 5, "exponent 3 is out of range");
    code_io_options poly;
    poly.coef = coef_convention::polynomial;
    expect_file_error(
        "4 2 4\n2 3\n1 1 2 1\n3 2\n1 4\n", 5, "not a nonzero element", poly);
    expect_file_error(
        "4 2 4\n2 3\n1 1 2 1\n3 2\n1 1\n2 2\n1 0 2 1\n1 2\n1 1 3 2 4 2\n2 2 3 1\n",
        9,
        "coefficient differs");
    expect_file_error(
        "4 2 4\n2 3\n1 1 2 1\n3 2\n1 0 0 1\n", 5, "index 0 with coefficient");
    expect_file_error("4 2 4\n2 3\n1 1 2 1\n3 2\n1 0 0\n", 5, "odd number of values");
    // truncated files, at every stage
    const std::string full = small_binary;
    size_t lines = 0;
    for (size_t pos = 0; (pos = full.find('\n', pos)) != std::string::npos; ++pos) {
        ++lines;
        if (pos + 1 == full.size())
            break;
        expect_file_error(full.substr(0, pos + 1), lines, "truncated file");
    }
    expect_file_error(full + "1 2 3\n", 11, "unexpected content");
    // a binary alist header read as non-binary, and the reverse
    code_io_options nb;
    nb.format = code_format::nb_alist;
    expect_file_error(small_binary, 1, "must be 'N M q'", nb);
    code_io_options b;
    b.format = code_format::alist;
    expect_file_error(small_gf4, 1, "use format nb-alist", b);
}

BOOST_AUTO_TEST_CASE(mutated_files_never_crash)
{
    // Random edits of valid files either load as a valid code or raise one of
    // the documented errors; anything else (a crash, another exception) fails.
    std::mt19937 rng(2024);
    const char alphabet[] = "0123456789 \n#-x";
    for (const std::string& base :
         { std::string(small_binary), std::string(small_gf4) }) {
        for (int trial = 0; trial < 2000; ++trial) {
            std::string text = base;
            const int edits = 1 + int(rng() % 3);
            for (int e = 0; e < edits; ++e) {
                const size_t pos = rng() % text.size();
                switch (rng() % 3) {
                case 0:
                    text[pos] = alphabet[rng() % (sizeof(alphabet) - 1)];
                    break;
                case 1:
                    text.erase(pos, 1 + rng() % 3);
                    break;
                default:
                    text.insert(pos, 1, alphabet[rng() % (sizeof(alphabet) - 1)]);
                }
                if (text.empty())
                    text = "\n";
            }
            try {
                const auto code = parse(text);
                BOOST_CHECK_GT(code.num_edges(), 0u);
                std::vector<uint8_t> info(code.k(), 1), cw(code.n());
                code.encode(info.data(), cw.data(), 1);
                BOOST_CHECK_EQUAL(code.syndrome_weight(cw.data()), 0u);
            } catch (const code_file_error&) {
            } catch (const std::invalid_argument&) {
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(missing_file_and_bad_arguments)
{
    BOOST_CHECK_THROW(ldpc_code::load("/nonexistent/code.alist"), std::runtime_error);
    BOOST_CHECK_THROW(parse_code_format("xml"), std::invalid_argument);
    BOOST_CHECK_THROW(parse_coef_convention("log"), std::invalid_argument);
    BOOST_CHECK(parse_code_format("nb-alist") == code_format::nb_alist);
    const std::vector<ldpc_code::entry> bad_value = { { 0, 0, 4 } };
    BOOST_CHECK_THROW(ldpc_code(2, 1, 4, bad_value), std::invalid_argument);
    const std::vector<ldpc_code::entry> out_of_range = { { 1, 0, 1 } };
    BOOST_CHECK_THROW(ldpc_code(2, 1, 2, out_of_range), std::invalid_argument);
    const std::vector<ldpc_code::entry> twice = { { 0, 0, 1 }, { 0, 0, 1 } };
    BOOST_CHECK_THROW(ldpc_code(2, 1, 2, twice), std::invalid_argument);
    const std::vector<ldpc_code::entry> ok = { { 0, 0, 1 } };
    BOOST_CHECK_THROW(ldpc_code(2, 1, 12, ok), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(constructed_codes_are_regular_and_free_of_4_cycles)
{
    for (unsigned q : { 2u, 16u, 256u }) {
        const auto code = construct_regular_code(120, 3, 6, q, 42);
        BOOST_CHECK_EQUAL(code.m(), 60u);
        for (unsigned v = 0; v < code.n(); ++v)
            BOOST_CHECK_EQUAL(code.variable_degree(v), 3u);
        for (unsigned c = 0; c < code.m(); ++c)
            BOOST_CHECK_EQUAL(code.check_degree(c), 6u);
        BOOST_CHECK_EQUAL(count_4_cycles(code), 0u);
    }
    // the counter does see a 4-cycle
    const uint8_t h[] = { 1, 1, 0, 1, 1, 1 };
    BOOST_CHECK_EQUAL(count_4_cycles(ldpc_code::from_dense(2, 3, 2, h)), 1u);
    BOOST_CHECK_THROW(construct_regular_code(10, 3, 4, 2, 1), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(shipped_codes_load)
{
    const std::string dir = source_dir() + "/codes";
    DIR* d = opendir(dir.c_str());
    BOOST_REQUIRE_MESSAGE(d, "cannot open " << dir);
    unsigned loaded = 0;
    while (dirent* ent = readdir(d)) {
        const std::string name = ent->d_name;
        if (name.size() < 6 || name.substr(name.size() - 6) != ".alist")
            continue;
        const auto code = ldpc_code::load(dir + "/" + name);
        BOOST_CHECK_EQUAL(count_4_cycles(code), 0u);
        BOOST_CHECK(code.k() > 0);
        ++loaded;
    }
    closedir(d);
    BOOST_CHECK_GE(loaded, 5u);
}

namespace {

// 2 x 4 base matrix, z = 3, the last base column punctured.
const char* small_qc = "# a quasi-cyclic test code\n"
                       "4 2 3\n"
                       "\n"
                       "0 -1 1 2\n"
                       "2 0 -1 0\n"
                       "\n"
                       "1 1 1 0\n";

} // namespace

BOOST_AUTO_TEST_CASE(qc_file_expands_block_by_block)
{
    const auto code = parse(small_qc); // format detected
    BOOST_CHECK_EQUAL(code.n(), 12u);
    BOOST_CHECK_EQUAL(code.m(), 6u);
    BOOST_CHECK_EQUAL(code.q(), 2u);
    BOOST_CHECK_EQUAL(code.n_transmitted(), 9u);
    BOOST_CHECK(code.punctured_positions() == (std::vector<uint32_t>{ 9, 10, 11 }));
    const auto& base = code.quasi_cyclic_base();
    BOOST_CHECK_EQUAL(base.z, 3u);
    BOOST_CHECK(base.transmitted == (std::vector<uint8_t>{ 1, 1, 1, 0 }));
    // block (i, j) with shift s: row i*z + r has its 1 in column j*z + (r+s)%z
    const int shifts[2][4] = { { 0, -1, 1, 2 }, { 2, 0, -1, 0 } };
    const auto h = code.dense();
    for (unsigned row = 0; row < 6; ++row)
        for (unsigned col = 0; col < 12; ++col) {
            const int s = shifts[row / 3][col / 3];
            const bool one = s >= 0 && col % 3 == (row % 3 + unsigned(s)) % 3;
            BOOST_CHECK_EQUAL(h[row * 12 + col], one ? 1 : 0);
        }

    // qc round trip keeps the base matrix and the puncturing
    std::ostringstream qc_text;
    code.write(qc_text, { code_format::qc });
    const auto again = parse(qc_text.str());
    check_same(code, again);
    BOOST_CHECK(again.quasi_cyclic_base().shifts == base.shifts);
    BOOST_CHECK(again.punctured_positions() == code.punctured_positions());
    // puncturing is not an alist notion: such a code is not written as one
    std::ostringstream alist_text;
    BOOST_CHECK_THROW(code.write(alist_text, { code_format::alist }),
                      std::invalid_argument);

    // without a pattern nothing is punctured; the format may be named
    const auto plain = parse("4 2 3\n0 -1 1 2\n2 0 -1 0\n", { code_format::qc });
    // its expansion as an alist describes the same H
    plain.write(alist_text, { code_format::alist });
    const auto expanded = parse(alist_text.str());
    check_same(plain, expanded);
    BOOST_CHECK_THROW(expanded.write(qc_text, { code_format::qc }),
                      std::invalid_argument);
    // format auto writes a quasi-cyclic code as qc
    std::ostringstream auto_text;
    code.write(auto_text);
    BOOST_CHECK(parse(auto_text.str()).punctured_positions() ==
                code.punctured_positions());
    BOOST_CHECK_EQUAL(plain.n_transmitted(), 12u);
    BOOST_CHECK_EQUAL(plain.rate(), double(plain.k()) / 12.0);
    BOOST_CHECK_EQUAL(code.rate(), double(code.k()) / 9.0);
    BOOST_CHECK(parse_code_format("qc") == code_format::qc);
    // two base columns without a -1: the first two lines also begin a
    // non-binary alist of N = 2 (here q = z = 4); the file's length decides
    const auto two_columns = parse("2 2 4\n1 2\n0 3\n");
    BOOST_CHECK_EQUAL(two_columns.n(), 8u);
    BOOST_CHECK_EQUAL(two_columns.q(), 2u);
    std::ostringstream two_columns_text;
    two_columns.write(two_columns_text);
    check_same(two_columns, parse(two_columns_text.str()));
    const auto gf4_two_columns = parse("2 1 4\n1 2\n1 1\n2\n1 0\n1 1\n1 0 2 1\n");
    BOOST_CHECK_EQUAL(gf4_two_columns.n(), 2u);
    BOOST_CHECK_EQUAL(gf4_two_columns.q(), 4u);
    // layered runs: the base rows, z checks each (rows of a block row share
    // no column; the two block rows share block columns 0 and 3)
    BOOST_CHECK(code.layered_runs() == (std::vector<uint32_t>{ 0, 3, 6 }));
    // any code: a run ends where a check meets a bit of the run
    const auto small = parse(small_binary);
    BOOST_CHECK(small.layered_runs() == (std::vector<uint32_t>{ 0, 1, 2 }));
}

BOOST_AUTO_TEST_CASE(coloured_layers_are_long_runs_of_the_same_code)
{
    // a regular (3,6) code: row order gives runs of a few checks; coloured,
    // at most one run more than the checks a check shares a bit with
    // (DSatur's bound), each run free of shared bits, the order a
    // permutation, and H, the encoder and the punctured bits unchanged
    const auto code = construct_regular_code(1008, 3, 6, 2, 5);
    const auto coloured = code.with_coloured_layers();
    const auto& order = coloured.layered_check_order();
    const auto& runs = coloured.layered_runs();
    std::vector<uint32_t> sorted(order);
    std::sort(sorted.begin(), sorted.end());
    for (uint32_t c = 0; c < code.m(); ++c)
        BOOST_REQUIRE_EQUAL(sorted[c], c);
    BOOST_CHECK_EQUAL(runs.front(), 0u);
    BOOST_CHECK_EQUAL(runs.back(), code.m());
    // degree-3 bits, degree-6 checks: 6 * 2 = 12 checks share a bit with one
    BOOST_CHECK_LE(runs.size() - 1, 13u);
    BOOST_CHECK_LT(runs.size() - 1, (code.layered_runs().size() - 1) / 4);
    // no run holds two checks that share a bit; larger runs first
    auto runs_share_no_bit = [](const ldpc_code& c) {
        const auto& o = c.layered_check_order();
        const auto& r = c.layered_runs();
        std::vector<uint32_t> in_run(c.n(), UINT32_MAX);
        bool disjoint = true;
        for (size_t i = 0; i + 1 < r.size(); ++i)
            for (uint32_t pos = r[i]; pos < r[i + 1]; ++pos)
                for (uint32_t e = c.check_offsets()[o[pos]];
                     e < c.check_offsets()[o[pos] + 1];
                     ++e) {
                    disjoint &= in_run[c.edge_variable()[e]] != i;
                    in_run[c.edge_variable()[e]] = uint32_t(i);
                }
        return disjoint;
    };
    BOOST_CHECK(runs_share_no_bit(coloured));
    bool larger_first = true;
    for (size_t r = 1; r + 1 < runs.size(); ++r)
        larger_first &= runs[r + 1] - runs[r] <= runs[r] - runs[r - 1];
    BOOST_CHECK(larger_first);
    // a quasi-cyclic code, coloured: its 12 base rows' checks in runs too
    const auto wifi = ldpc_code::wifi(648, "1/2").with_coloured_layers();
    BOOST_CHECK(runs_share_no_bit(wifi));
    BOOST_CHECK_EQUAL(wifi.layered_runs().back(), wifi.m());
    BOOST_CHECK_LE(wifi.layered_runs().size() - 1, 24u);
}

BOOST_AUTO_TEST_CASE(bad_qc_files_name_file_line_and_problem)
{
    const code_io_options qc{ code_format::qc };
    expect_file_error("4 2\n", 1, "qc header must be 'columns rows z'", qc);
    expect_file_error("4 2 0\n0 0 0 0\n0 0 0 0\n", 1, "must be positive", qc);
    expect_file_error("4 2 3\n0 -1 1 2\n2 0 -1\n", 3, "row 2 has 3 values", qc);
    expect_file_error("4 2 3\n0 -1 1 3\n2 0 -1 0\n", 2, "shift 3 is out of range", qc);
    expect_file_error("4 2 3\n0 -2 1 2\n2 0 -1 0\n", 2, "shift -2 is out of range", qc);
    expect_file_error("4 2 3\n0 -1 1 2\n", 2, "file ends before row 2", qc);
    expect_file_error(
        "4 2 3\n0 -1 1 2\n2 0 -1 0\n1 1 0\n", 4, "pattern has 3 values", qc);
    expect_file_error(
        "4 2 3\n0 -1 1 2\n2 0 -1 0\n1 2 1 1\n", 4, "pattern value 2 at column 2", qc);
    expect_file_error(
        "4 2 3\n0 -1 1 2\n2 0 -1 0\n0 0 0 0\n", 4, "punctures every column", qc);
    expect_file_error(
        "4 2 3\n0 -1 1 2\n2 0 -1 0\n1 1 1 1\n7\n", 5, "unexpected content", qc);
    expect_file_error("4 2 3\n0 -1 x 2\n2 0 -1 0\n", 2, "'x' is not an integer", qc);
    // found by auto: errors in the line after the header name that line
    expect_file_error("4 2 3\n0 -1 x 2\n2 0 -1 0\n", 2, "'x' is not an integer");
    expect_file_error("4 2 4\n2 x\n", 2, "'x' is not an integer");

    ldpc_code::base_matrix base;
    base.rows = 1;
    base.cols = 2;
    base.z = 4;
    base.shifts = { 0, 4 };
    BOOST_CHECK_THROW(ldpc_code::from_base_matrix(base), std::invalid_argument);
    base.shifts = { 0 };
    BOOST_CHECK_THROW(ldpc_code::from_base_matrix(base), std::invalid_argument);
    base.shifts = { 0, 1 };
    base.transmitted = { 1, 2 };
    BOOST_CHECK_THROW(ldpc_code::from_base_matrix(base), std::invalid_argument);
    base.transmitted = { 1, 0 };
    BOOST_CHECK_EQUAL(ldpc_code::from_base_matrix(base).n_transmitted(), 4u);
    const std::vector<ldpc_code::entry> one = { { 0, 0, 1 }, { 0, 1, 1 } };
    BOOST_CHECK_THROW(ldpc_code(2, 1, 2, one, 0, { 2 }), std::invalid_argument);
    BOOST_CHECK_THROW(ldpc_code(2, 1, 2, one, 0, { 1, 1 }), std::invalid_argument);
    BOOST_CHECK_THROW(ldpc_code(2, 1, 2, one, 0, { 0, 1 }), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(accumulator_parity_is_detected_and_encodes)
{
    // Random information part, dual-diagonal parity part.
    const unsigned k = 40, m = 24, n = k + m;
    std::mt19937 rng(7);
    std::vector<ldpc_code::entry> entries;
    for (unsigned r = 0; r < m; ++r) {
        std::vector<unsigned> cols;
        while (cols.size() < 5) {
            const unsigned c = rng() % k;
            if (std::find(cols.begin(), cols.end(), c) == cols.end())
                cols.push_back(c);
        }
        for (unsigned c : cols)
            entries.push_back({ r, c, 1 });
        entries.push_back({ r, k + r, 1 });
        if (r > 0)
            entries.push_back({ r, k + r - 1, 1 });
    }
    const ldpc_code code(n, m, 2, entries);
    BOOST_REQUIRE(code.has_accumulator_parity());
    BOOST_CHECK_EQUAL(code.k(), k);
    for (unsigned i = 0; i < k; ++i)
        BOOST_CHECK_EQUAL(code.info_positions()[i], i);
    const size_t frames = 20;
    std::vector<uint8_t> info(frames * k), cw(frames * n);
    for (auto& b : info)
        b = rng() & 1;
    code.encode(info.data(), cw.data(), frames);
    for (size_t f = 0; f < frames; ++f) {
        BOOST_CHECK_EQUAL(code.syndrome_weight(&cw[f * n]), 0u);
        BOOST_CHECK(std::equal(&info[f * k], &info[f * k] + k, &cw[f * n]));
    }
    // one more parity entry breaks the structure: elimination takes over and
    // still encodes
    entries.push_back({ 0, k + 5, 1 });
    const ldpc_code general(n, m, 2, entries);
    BOOST_CHECK(!general.has_accumulator_parity());
    general.encode(info.data(), cw.data(), frames);
    for (size_t f = 0; f < frames; ++f)
        BOOST_CHECK_EQUAL(general.syndrome_weight(&cw[f * n]), 0u);
}
