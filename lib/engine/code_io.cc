/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Readers and writers of parity-check matrix files: MacKay's binary alist and
// the non-binary alist with (index, coefficient) pairs. The readers are line
// based (every list on its own line) and check everything the format repeats:
// header against weights, weights against lists, column lists against row
// lists.

#include <gnuradio/gpuldpc/engine/code_names.h>
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace gr {
namespace gpuldpc {

code_file_error::code_file_error(const std::string& file,
                                 size_t line,
                                 const std::string& problem)
    : std::runtime_error(file + ":" + std::to_string(line) + ": " + problem),
      d_file(file),
      d_line(line),
      d_problem(problem)
{
}

code_format parse_code_format(const std::string& s, const std::string& arg)
{
    if (s == "auto" || s == "automatic")
        return code_format::automatic;
    if (s == "alist")
        return code_format::alist;
    if (s == "nb-alist" || s == "nb_alist")
        return code_format::nb_alist;
    if (s == "qc")
        return code_format::qc;
    throw std::invalid_argument(arg + "='" + s +
                                "' is not a code file format; allowed: auto, alist, "
                                "nb-alist, qc");
}

coef_convention parse_coef_convention(const std::string& s, const std::string& arg)
{
    if (s == "exponent")
        return coef_convention::exponent;
    if (s == "polynomial")
        return coef_convention::polynomial;
    throw std::invalid_argument(arg + "='" + s +
                                "' is not a coefficient convention; allowed: exponent, "
                                "polynomial");
}

namespace {

class line_reader
{
public:
    line_reader(std::istream& in, const std::string& name) : d_in(in), d_name(name) {}

    // Next line with content (comment lines starting with '#' and blank lines
    // are skipped), parsed as non-negative integers. Throws at end of file,
    // naming what was expected.
    std::vector<unsigned long> next(const std::string& expected)
    {
        std::vector<unsigned long> out;
        for (long v : next_signed(expected)) {
            if (v < 0)
                throw error("'" + std::to_string(v) + "' is not a non-negative integer");
            out.push_back((unsigned long)v);
        }
        return out;
    }

    // As next(), for lines that MAY hold negative integers.
    std::vector<long> next_signed(const std::string& expected)
    {
        std::string line;
        if (!content_line(line))
            throw error("file ends before " + expected + " (truncated file?)");
        return parse(line);
    }

    // The next content line, parsed, without consuming it; empty at the end.
    std::vector<long> peek_signed()
    {
        std::string line;
        const size_t line_before = d_line;
        if (!content_line(line))
            return {};
        d_peeked = line;
        d_peeked_line = d_line;
        d_has_peeked = true;
        // errors in the peeked line name its own line
        auto values = parse(line);
        d_line = line_before;
        return values;
    }

    // True when only blank or comment lines remain.
    bool at_end()
    {
        std::string line;
        return !content_line(line);
    }

    code_file_error error(const std::string& problem) const
    {
        return code_file_error(d_name, d_line, problem);
    }

private:
    bool content_line(std::string& line)
    {
        if (d_has_peeked) {
            d_has_peeked = false;
            line = d_peeked;
            d_line = d_peeked_line;
            return true;
        }
        while (std::getline(d_in, line)) {
            ++d_line;
            const size_t first = line.find_first_not_of(" \t\r");
            if (first == std::string::npos || line[first] == '#')
                continue;
            return true;
        }
        return false;
    }

    std::vector<long> parse(const std::string& line)
    {
        std::vector<long> out;
        std::istringstream ss(line);
        std::string tok;
        while (ss >> tok) {
            if (tok[0] == '#')
                break;
            char* end = nullptr;
            errno = 0;
            const long v = std::strtol(tok.c_str(), &end, 10);
            if (tok[0] == '+' || *end != '\0' || errno == ERANGE || v > 0xffffffffL ||
                v < -0x7fffffffL)
                throw error("'" + tok + "' is not an integer");
            out.push_back(v);
        }
        return out;
    }

    std::istream& d_in;
    const std::string& d_name;
    size_t d_line = 0;
    std::string d_peeked;
    size_t d_peeked_line = 0;
    bool d_has_peeked = false;
};

std::string plural(size_t n, const std::string& one, const std::string& many = "")
{
    return std::to_string(n) + " " + (n == 1 ? one : many.empty() ? one + "s" : many);
}

// The rest of a .qc file after its header 'columns rows z'.
ldpc_code read_qc(line_reader& rd, const std::vector<unsigned long>& header)
{
    ldpc_code::base_matrix base;
    base.cols = unsigned(std::min(header[0], 1ul << 27));
    base.rows = unsigned(std::min(header[1], 1ul << 27));
    base.z = unsigned(std::min(header[2], 1ul << 27));
    if (base.cols == 0 || base.rows == 0 || base.z == 0)
        throw rd.error("columns, rows and z must be positive, found " +
                       std::to_string(header[0]) + " " + std::to_string(header[1]) + " " +
                       std::to_string(header[2]));
    if (uint64_t(base.cols) * base.z > (1u << 26))
        throw rd.error("columns*z = " + std::to_string(uint64_t(base.cols) * base.z) +
                       " exceeds the supported size 2^26");
    for (unsigned i = 0; i < base.rows; ++i) {
        const auto row = rd.next_signed("row " + std::to_string(i + 1) + " of the " +
                                        std::to_string(base.rows) + "-row base matrix");
        if (row.size() != base.cols)
            throw rd.error("base matrix row " + std::to_string(i + 1) + " has " +
                           plural(row.size(), "value") + "; expected " +
                           std::to_string(base.cols) + " (the header's column count)");
        for (size_t j = 0; j < row.size(); ++j) {
            if (row[j] < -1 || row[j] >= long(base.z))
                throw rd.error("base matrix row " + std::to_string(i + 1) + ", column " +
                               std::to_string(j + 1) + ": shift " +
                               std::to_string(row[j]) + " is out of range; allowed: -1 " +
                               "(zero block) or 0.." + std::to_string(base.z - 1));
            base.shifts.push_back(int32_t(row[j]));
        }
    }
    if (!rd.peek_signed().empty()) {
        const auto pattern = rd.next_signed("the puncturing pattern");
        if (pattern.size() != base.cols)
            throw rd.error("the puncturing pattern has " +
                           plural(pattern.size(), "value") + "; expected " +
                           std::to_string(base.cols) + ", one 0/1 per base column");
        for (size_t j = 0; j < pattern.size(); ++j) {
            if (pattern[j] != 0 && pattern[j] != 1)
                throw rd.error("puncturing pattern value " + std::to_string(pattern[j]) +
                               " at column " + std::to_string(j + 1) +
                               "; allowed: 1 (transmitted) or 0 (punctured)");
            base.transmitted.push_back(uint8_t(pattern[j]));
        }
        if (std::count(base.transmitted.begin(), base.transmitted.end(), 1) == 0)
            throw rd.error("the puncturing pattern punctures every column; at least "
                           "one must be transmitted");
        if (!rd.at_end())
            throw rd.error("unexpected content after the puncturing pattern");
    }
    try {
        return ldpc_code::from_base_matrix(base);
    } catch (const std::invalid_argument& e) {
        throw rd.error(e.what());
    }
}

// For a header of three numbers and a next line of two non-negative numbers,
// both a non-binary alist of N = 2 ('max_col_weight max_row_weight') and a .qc
// file of two base columns fit. Their lengths differ: a .qc file has 'rows'
// lines of 2 shifts and at most a puncturing line after its header, an alist
// of M = rows checks at least M + 5 lines.
bool shaped_like_two_column_qc(const std::string& text, unsigned long rows)
{
    std::istringstream in(text);
    std::string line;
    unsigned long lines = 0;
    bool header = true;
    while (std::getline(in, line)) {
        const size_t first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#')
            continue;
        if (header) {
            header = false;
            continue;
        }
        std::istringstream values(line.substr(0, line.find('#')));
        std::string token;
        unsigned count = 0;
        while (values >> token)
            ++count;
        if (count != 2 || ++lines > rows + 1)
            return false;
    }
    return lines >= rows;
}

const char* const expected_code_file =
    "expected a parity-check matrix file (alist, non-binary alist or .qc) or a "
    "built-in code (dvbs2:RATE[:short], nr:BG:Z[:ROWS], wifi:N:RATE, wimax:N:RATE, "
    "ar4ja:K:RATE)";

} // namespace

ldpc_code
ldpc_code::read(std::istream& in, const std::string& name, const code_io_options& opts)
{
    // A directory opens as a stream whose first read fails, which the reader
    // would report as a file ending before its header; an empty file only
    // ends (eof, not bad).
    if (in.peek() == std::char_traits<char>::eof() && in.bad()) {
        std::error_code ec;
        if (std::filesystem::is_directory(name, ec))
            throw std::runtime_error("code file '" + name + "' is a directory; " +
                                     expected_code_file);
        throw std::runtime_error("cannot read code file '" + name + "'; " +
                                 expected_code_file);
    }
    // telling a two-column .qc file from a non-binary alist takes the whole file
    std::string whole_file;
    std::istringstream buffered;
    if (opts.format == code_format::automatic) {
        std::ostringstream whole;
        whole << in.rdbuf();
        whole_file = whole.str();
        buffered.str(whole_file);
    }
    line_reader rd(opts.format == code_format::automatic ? buffered : in, name);

    auto header = rd.next("the header line 'N M', 'N M q' or 'columns rows z'");
    code_format fmt = opts.format;
    if (fmt == code_format::automatic) {
        if (header.size() == 2) {
            fmt = code_format::alist;
        } else if (header.size() == 3) {
            // A non-binary alist goes on with 'max_col_weight max_row_weight',
            // a .qc file with a base matrix row of 'columns' shifts.
            const auto next = rd.peek_signed();
            const bool negative =
                std::any_of(next.begin(), next.end(), [](long v) { return v < 0; });
            const bool two_columns = next.size() == 2 && header[0] == 2 && !negative;
            fmt =
                next.size() == header[0] &&
                        (!two_columns || shaped_like_two_column_qc(whole_file, header[1]))
                    ? code_format::qc
                    : code_format::nb_alist;
        } else {
            throw rd.error("header has " + plural(header.size(), "number") +
                           "; expected 'N M' (binary alist), 'N M q' (non-binary "
                           "alist) or 'columns rows z' (qc)");
        }
    }
    if (fmt == code_format::qc) {
        if (header.size() != 3)
            throw rd.error("qc header must be 'columns rows z', found " +
                           plural(header.size(), "number"));
        return read_qc(rd, header);
    }
    const bool binary = fmt == code_format::alist;
    if (binary && header.size() != 2)
        throw rd.error(
            "binary alist header must be 'N M', found " +
            plural(header.size(), "number") +
            (header.size() == 3 ? " (a non-binary file? use format nb-alist)" : ""));
    if (!binary && header.size() != 3)
        throw rd.error("non-binary alist header must be 'N M q', found " +
                       plural(header.size(), "number"));
    const unsigned long n = header[0], m = header[1];
    const unsigned long q = binary ? 2 : header[2];
    if (n == 0 || m == 0)
        throw rd.error("N and M must be positive, found N=" + std::to_string(n) +
                       " M=" + std::to_string(m));
    if (n > (1ul << 26) || m > (1ul << 26))
        throw rd.error("N=" + std::to_string(n) + " M=" + std::to_string(m) +
                       " exceeds the supported size 2^26");
    bool q_ok = false;
    for (unsigned b = 1; b <= 8; ++b)
        q_ok |= q == (1ul << b);
    if (!q_ok)
        throw rd.error("q=" + std::to_string(q) +
                       " is not allowed; q must be a power of two from 2 to 256");

    std::unique_ptr<gf_field> field;
    if (!binary && opts.coef == coef_convention::exponent) {
        unsigned mm = 0;
        while ((1ul << mm) < q)
            ++mm;
        field.reset(new gf_field(mm, mm == 1 ? 0 : opts.poly));
    }

    auto maxw = rd.next("the line 'max_col_weight max_row_weight'");
    if (maxw.size() != 2)
        throw rd.error("expected 'max_col_weight max_row_weight', found " +
                       plural(maxw.size(), "number"));

    auto read_weights = [&](unsigned long count, unsigned long max, const char* what) {
        std::vector<unsigned long> w;
        while (w.size() < count) {
            auto line = rd.next(std::string("the ") + what + " weights (" +
                                std::to_string(count) + " expected, " +
                                std::to_string(w.size()) + " read)");
            if (w.size() + line.size() > count)
                throw rd.error(std::string("too many ") + what + " weights: expected " +
                               std::to_string(count));
            w.insert(w.end(), line.begin(), line.end());
        }
        const unsigned long actual = *std::max_element(w.begin(), w.end());
        if (actual != max)
            throw rd.error(std::string("largest ") + what + " weight is " +
                           std::to_string(actual) + " but the header says " +
                           std::to_string(max));
        return w;
    };
    const auto col_w = read_weights(n, maxw[0], "column");
    const auto row_w = read_weights(m, maxw[1], "row");
    unsigned long sum_c = 0, sum_r = 0;
    for (auto w : col_w)
        sum_c += w;
    for (auto w : row_w)
        sum_r += w;
    if (sum_c != sum_r)
        throw rd.error("column weights sum to " + std::to_string(sum_c) +
                       " but row weights sum to " + std::to_string(sum_r));

    const size_t stride = binary ? 1 : 2;
    // (row, col) -> coefficient, from the column lists, then checked against
    // the row lists.
    std::map<std::pair<uint32_t, uint32_t>, uint8_t> from_cols;

    auto convert_coef = [&](unsigned long c) -> uint8_t {
        if (binary)
            return 1;
        if (opts.coef == coef_convention::exponent) {
            if (c > q - 2)
                throw rd.error("coefficient exponent " + std::to_string(c) +
                               " is out of range; allowed: 0.." + std::to_string(q - 2) +
                               " (alpha^e)");
            return field->exp(unsigned(c));
        }
        if (c == 0 || c >= q)
            throw rd.error("coefficient " + std::to_string(c) +
                           " is not a nonzero element of GF(" + std::to_string(q) +
                           "); allowed: 1.." + std::to_string(q - 1));
        return uint8_t(c);
    };

    auto read_list = [&](bool columns,
                         unsigned long idx,
                         unsigned long weight,
                         unsigned long max_weight,
                         unsigned long range,
                         std::vector<std::pair<uint32_t, uint8_t>>& out) {
        const char* what = columns ? "column" : "row";
        auto line = rd.next(
            std::string("the list of ") + what + " " + std::to_string(idx + 1) + " (" +
            std::to_string(columns ? n : m) + " " + what + " lists expected)");
        if (line.size() % stride != 0)
            throw rd.error(std::string(what) + " " + std::to_string(idx + 1) +
                           ": odd number of values; expected (index, coefficient) pairs");
        out.clear();
        bool padding = false;
        for (size_t i = 0; i < line.size(); i += stride) {
            const unsigned long index = line[i];
            const unsigned long coef = binary ? 1 : line[i + 1];
            if (index == 0) {
                if (!binary && coef != 0)
                    throw rd.error(std::string(what) + " " + std::to_string(idx + 1) +
                                   ": index 0 with coefficient " + std::to_string(coef) +
                                   "; padding is '0 0'");
                padding = true;
                continue;
            }
            if (padding)
                throw rd.error(std::string(what) + " " + std::to_string(idx + 1) +
                               ": index after 0 padding");
            if (index > range)
                throw rd.error(std::string(what) + " " + std::to_string(idx + 1) +
                               ": index " + std::to_string(index) +
                               " is out of range; allowed: 1.." + std::to_string(range));
            out.push_back({ uint32_t(index - 1), convert_coef(coef) });
        }
        if (out.size() != weight)
            throw rd.error(std::string(what) + " " + std::to_string(idx + 1) + " lists " +
                           plural(out.size(), "entry", "entries") +
                           " but its weight is " + std::to_string(weight));
        if (line.size() / stride > max_weight)
            throw rd.error(std::string(what) + " " + std::to_string(idx + 1) + " has " +
                           std::to_string(line.size() / stride) +
                           " entries with padding, more than the maximum weight " +
                           std::to_string(max_weight));
    };

    std::vector<std::pair<uint32_t, uint8_t>> list;
    for (unsigned long c = 0; c < n; ++c) {
        read_list(true, c, col_w[c], maxw[0], m, list);
        for (const auto& [row, coef] : list)
            if (!from_cols.emplace(std::make_pair(row, uint32_t(c)), coef).second)
                throw rd.error("column " + std::to_string(c + 1) + ": row " +
                               std::to_string(row + 1) + " is listed twice");
    }
    std::vector<entry> entries;
    entries.reserve(from_cols.size());
    size_t matched = 0;
    for (unsigned long r = 0; r < m; ++r) {
        read_list(false, r, row_w[r], maxw[1], n, list);
        std::vector<uint32_t> seen;
        for (const auto& [col, coef] : list) {
            seen.push_back(col);
            const auto it = from_cols.find({ uint32_t(r), col });
            if (it == from_cols.end())
                throw rd.error("row " + std::to_string(r + 1) + " lists column " +
                               std::to_string(col + 1) + " but column " +
                               std::to_string(col + 1) + " does not list row " +
                               std::to_string(r + 1) +
                               " (column and row lists describe different matrices)");
            if (it->second != coef)
                throw rd.error("row " + std::to_string(r + 1) + ", column " +
                               std::to_string(col + 1) +
                               ": coefficient differs between the row and the column "
                               "lists");
            entries.push_back(entry{ uint32_t(r), col, coef });
            ++matched;
        }
        std::sort(seen.begin(), seen.end());
        if (std::adjacent_find(seen.begin(), seen.end()) != seen.end())
            throw rd.error("row " + std::to_string(r + 1) + " lists a column twice");
    }
    if (matched != from_cols.size())
        throw rd.error("column lists hold " + std::to_string(from_cols.size()) +
                       " entries but row lists only " + std::to_string(matched) +
                       " (column and row lists describe different matrices)");
    if (!rd.at_end())
        throw rd.error("unexpected content after the " + std::to_string(m) +
                       " row lists");

    return ldpc_code(unsigned(n), unsigned(m), unsigned(q), entries, opts.poly);
}

ldpc_code ldpc_code::load(const std::string& path, const code_io_options& opts)
{
    std::ifstream in(path);
    if (!in)
        // not a file it can open: a built-in or shipped code's name, or an
        // error naming the file or listing the names (code_names.cc)
        return load_named_code(path, opts);
    return read(in, path, opts);
}

void ldpc_code::write(std::ostream& out, const code_io_options& opts) const
{
    code_format fmt = opts.format;
    if (fmt == code_format::automatic)
        fmt = d_base.z != 0 ? code_format::qc
              : q() == 2    ? code_format::alist
                            : code_format::nb_alist;
    if (fmt != code_format::qc && !d_punctured_positions.empty())
        throw std::invalid_argument(
            "format=" + std::string(fmt == code_format::alist ? "alist" : "nb-alist") +
            " cannot hold the code's " + std::to_string(d_punctured_positions.size()) +
            " punctured columns; allowed: qc (for a quasi-cyclic code)");
    if (fmt == code_format::qc) {
        if (d_base.z == 0)
            throw std::invalid_argument(
                "format=qc needs a quasi-cyclic code (read from a .qc file or made by "
                "from_base_matrix); allowed for this code: alist, nb-alist");
        out << d_base.cols << ' ' << d_base.rows << ' ' << d_base.z << "\n\n";
        for (unsigned i = 0; i < d_base.rows; ++i)
            for (unsigned j = 0; j < d_base.cols; ++j)
                out << d_base.shifts[size_t(i) * d_base.cols + j]
                    << (j + 1 < d_base.cols ? ' ' : '\n');
        out << '\n';
        for (unsigned j = 0; j < d_base.cols; ++j)
            out << unsigned(d_base.transmitted[j]) << (j + 1 < d_base.cols ? ' ' : '\n');
        return;
    }
    const bool binary = fmt == code_format::alist;
    if (binary && q() != 2)
        throw std::invalid_argument("format=alist cannot hold a code over GF(" +
                                    std::to_string(q()) +
                                    "); allowed for q > 2: nb-alist");
    if (!binary && opts.poly != 0 && q() > 2 && opts.poly != d_field.polynomial())
        throw std::invalid_argument("poly=" + std::to_string(opts.poly) +
                                    " differs from the code's field polynomial " +
                                    std::to_string(d_field.polynomial()) +
                                    "; allowed: 0 or the same polynomial");

    auto coef_text = [&](uint8_t v) {
        if (opts.coef == coef_convention::exponent)
            return std::to_string(unsigned(d_field.log(v)));
        return std::to_string(unsigned(v));
    };

    unsigned max_cw = 0, max_rw = 0;
    for (unsigned v = 0; v < d_n; ++v)
        max_cw = std::max(max_cw, variable_degree(v));
    for (unsigned c = 0; c < d_m; ++c)
        max_rw = std::max(max_rw, check_degree(c));

    out << d_n << ' ' << d_m;
    if (!binary)
        out << ' ' << q();
    out << '\n' << max_cw << ' ' << max_rw << '\n';
    for (unsigned v = 0; v < d_n; ++v)
        out << variable_degree(v) << (v + 1 < d_n ? ' ' : '\n');
    for (unsigned c = 0; c < d_m; ++c)
        out << check_degree(c) << (c + 1 < d_m ? ' ' : '\n');

    std::vector<uint32_t> edge_check(num_edges());
    for (uint32_t c = 0; c < d_m; ++c)
        for (uint32_t e = d_check_offsets[c]; e < d_check_offsets[c + 1]; ++e)
            edge_check[e] = c;

    // Lists are not padded, so that GNU Radio's alist reader (which reads
    // exactly `weight` indices per list) accepts the file; an empty list is
    // written as a single 0 (or "0 0") so that its line is not blank.
    const char* empty_list = binary ? "0" : "0 0";
    for (unsigned v = 0; v < d_n; ++v) {
        bool first = true;
        for (uint32_t i = d_variable_offsets[v]; i < d_variable_offsets[v + 1]; ++i) {
            const uint32_t e = d_variable_edges[i];
            out << (first ? "" : " ") << edge_check[e] + 1;
            if (!binary)
                out << ' ' << coef_text(d_edge_coefficient[e]);
            first = false;
        }
        out << (first ? empty_list : "") << '\n';
    }
    for (unsigned c = 0; c < d_m; ++c) {
        bool first = true;
        for (uint32_t e = d_check_offsets[c]; e < d_check_offsets[c + 1]; ++e) {
            out << (first ? "" : " ") << d_edge_variable[e] + 1;
            if (!binary)
                out << ' ' << coef_text(d_edge_coefficient[e]);
            first = false;
        }
        out << (first ? empty_list : "") << '\n';
    }
}

void ldpc_code::save(const std::string& path, const code_io_options& opts) const
{
    std::ostringstream buf;
    write(buf, opts); // fails before the file is touched
    std::ofstream out(path);
    if (!out)
        throw std::runtime_error("cannot write code file '" + path +
                                 "': " + std::strerror(errno));
    out << buf.str();
    if (!out.flush())
        throw std::runtime_error("writing code file '" + path + "' failed");
}

} // namespace gpuldpc
} // namespace gr
