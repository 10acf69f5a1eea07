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

#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
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
    throw std::invalid_argument(arg + "='" + s +
                                "' is not a code file format; allowed: auto, alist, "
                                "nb-alist");
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
        std::string line;
        while (std::getline(d_in, line)) {
            ++d_line;
            const size_t first = line.find_first_not_of(" \t\r");
            if (first == std::string::npos || line[first] == '#')
                continue;
            return parse(line);
        }
        throw error("file ends before " + expected + " (truncated file?)");
    }

    // True when only blank or comment lines remain.
    bool at_end()
    {
        std::string line;
        while (std::getline(d_in, line)) {
            ++d_line;
            const size_t first = line.find_first_not_of(" \t\r");
            if (first == std::string::npos || line[first] == '#')
                continue;
            return false;
        }
        return true;
    }

    code_file_error error(const std::string& problem) const
    {
        return code_file_error(d_name, d_line, problem);
    }

private:
    std::vector<unsigned long> parse(const std::string& line)
    {
        std::vector<unsigned long> out;
        std::istringstream ss(line);
        std::string tok;
        while (ss >> tok) {
            if (tok[0] == '#')
                break;
            char* end = nullptr;
            errno = 0;
            const unsigned long v = std::strtoul(tok.c_str(), &end, 10);
            if (tok[0] == '-' || tok[0] == '+' || *end != '\0' || errno == ERANGE ||
                v > 0xffffffffUL)
                throw error("'" + tok + "' is not a non-negative integer");
            out.push_back(v);
        }
        return out;
    }

    std::istream& d_in;
    const std::string& d_name;
    size_t d_line = 0;
};

std::string plural(size_t n, const std::string& one, const std::string& many = "")
{
    return std::to_string(n) + " " + (n == 1 ? one : many.empty() ? one + "s" : many);
}

} // namespace

ldpc_code
ldpc_code::read(std::istream& in, const std::string& name, const code_io_options& opts)
{
    line_reader rd(in, name);

    auto header = rd.next("the header line 'N M' or 'N M q'");
    code_format fmt = opts.format;
    if (fmt == code_format::automatic) {
        if (header.size() == 2)
            fmt = code_format::alist;
        else if (header.size() == 3)
            fmt = code_format::nb_alist;
        else
            throw rd.error("header has " + plural(header.size(), "number") +
                           "; expected 'N M' (binary alist) or 'N M q' (non-binary "
                           "alist)");
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
        throw std::runtime_error("cannot open code file '" + path +
                                 "': " + std::strerror(errno));
    return read(in, path, opts);
}

void ldpc_code::write(std::ostream& out, const code_io_options& opts) const
{
    code_format fmt = opts.format;
    if (fmt == code_format::automatic)
        fmt = q() == 2 ? code_format::alist : code_format::nb_alist;
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
