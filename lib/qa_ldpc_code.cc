/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <dirent.h>
#include <boost/test/unit_test.hpp>
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
    expect_file_error("4 x2\n", 1, "'x2' is not a non-negative integer");
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
    for (const std::string base : { std::string(small_binary), std::string(small_gf4) }) {
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
