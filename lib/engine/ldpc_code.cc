/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "parity_solver.h"
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <algorithm>
#include <numeric>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace gr {
namespace gpuldpc {

namespace {

unsigned bits_of_q(unsigned q)
{
    for (unsigned m = 1; m <= 8; ++m)
        if (q == (1u << m))
            return m;
    std::ostringstream msg;
    msg << "ldpc_code: q=" << q
        << " is not allowed; q must be a power of two: 2, 4, 8, 16, 32, 64, 128 or 256";
    throw std::invalid_argument(msg.str());
}

gf_field make_field(unsigned q, unsigned poly)
{
    const unsigned m = bits_of_q(q);
    // GF(2) has a single field polynomial; callers pass one poly for all q.
    return gf_field(m, m == 1 ? 0 : poly);
}

} // namespace

ldpc_code::ldpc_code(unsigned n,
                     unsigned m,
                     unsigned q,
                     const std::vector<entry>& entries,
                     unsigned poly,
                     const std::vector<uint32_t>& punctured)
    : ldpc_code(n, m, q, entries, poly, punctured, true)
{
}

ldpc_code::ldpc_code(unsigned n,
                     unsigned m,
                     unsigned q,
                     const std::vector<entry>& entries,
                     unsigned poly,
                     const std::vector<uint32_t>& punctured,
                     bool eliminate)
    : d_n(n), d_m(m), d_field(make_field(q, poly))
{
    if (n == 0)
        throw std::invalid_argument("ldpc_code: n=0; the code needs at least one "
                                    "variable node (column of H)");
    if (m == 0)
        throw std::invalid_argument("ldpc_code: m=0; the code needs at least one "
                                    "check node (row of H)");
    if (entries.empty())
        throw std::invalid_argument("ldpc_code: H has no nonzero entry");
    build_graph(entries);
    set_punctured(punctured);
    d_check_order.resize(d_m);
    for (uint32_t c = 0; c < d_m; ++c)
        d_check_order[c] = c;
    build_layered_runs();
    d_accumulator_parity = detect_accumulator_parity();
    if (d_accumulator_parity) {
        take_information_first();
    } else if (eliminate) {
        build_encoder();
    }
}

ldpc_code ldpc_code::from_base_matrix(const base_matrix& base)
{
    // a CCSDS AR4JA code written to a .qc file and read back: the standard's
    // encoder, whose information stays in the first k columns
    unsigned k = 0;
    std::string rate;
    if (detail::ar4ja_parameters_of(base, k, rate))
        return ar4ja(k, rate);
    return lift_base_matrix(base, true);
}

ldpc_code ldpc_code::lift_base_matrix(const base_matrix& base, bool eliminate)
{
    auto fail = [](const std::string& what) {
        throw std::invalid_argument("ldpc_code::from_base_matrix: " + what);
    };
    if (base.rows == 0 || base.cols == 0)
        fail("rows=" + std::to_string(base.rows) + ", cols=" + std::to_string(base.cols) +
             "; both must be at least 1");
    if (base.z == 0)
        fail("z=0; the lifting size must be at least 1");
    if (uint64_t(base.cols) * base.z > (1u << 26) ||
        uint64_t(base.rows) * base.z > (1u << 26))
        fail("cols*z and rows*z must not exceed 2^26");
    if (base.shifts.size() != size_t(base.rows) * base.cols)
        fail("shifts holds " + std::to_string(base.shifts.size()) +
             " values; expected rows*cols=" +
             std::to_string(size_t(base.rows) * base.cols));
    if (!base.transmitted.empty() && base.transmitted.size() != base.cols)
        fail("transmitted holds " + std::to_string(base.transmitted.size()) +
             " values; expected none (all transmitted) or cols=" +
             std::to_string(base.cols));
    std::vector<entry> entries;
    for (unsigned i = 0; i < base.rows; ++i)
        for (unsigned j = 0; j < base.cols; ++j) {
            const int32_t s = base.shifts[size_t(i) * base.cols + j];
            if (s < -1 || s >= int32_t(base.z))
                fail("shift " + std::to_string(s) + " at block (" + std::to_string(i) +
                     ", " + std::to_string(j) + ") is out of range; allowed: -1 (zero " +
                     "block) or 0.." + std::to_string(base.z - 1));
            if (s < 0)
                continue;
            for (unsigned r = 0; r < base.z; ++r)
                entries.push_back(
                    entry{ i * base.z + r, j * base.z + (r + s) % base.z, 1 });
        }
    std::vector<uint32_t> punctured;
    for (unsigned j = 0; j < base.transmitted.size(); ++j) {
        if (base.transmitted[j] > 1)
            fail("transmitted[" + std::to_string(j) +
                 "]=" + std::to_string(base.transmitted[j]) + "; allowed: 0 or 1");
        if (base.transmitted[j] == 0)
            for (unsigned r = 0; r < base.z; ++r)
                punctured.push_back(j * base.z + r);
    }
    ldpc_code code(
        base.cols * base.z, base.rows * base.z, 2, entries, 0, punctured, eliminate);
    code.d_base = base;
    if (code.d_base.transmitted.empty())
        code.d_base.transmitted.assign(base.cols, 1);
    return code;
}

ldpc_code::base_matrix ldpc_code::find_quasi_cyclic_base() const
{
    if (d_base.z != 0)
        return d_base;
    if (q() != 2)
        return {};
    // base matrices of more entries than this are not made (a code
    // quasi-cyclic only in blocks of a few bits gains nothing from them)
    constexpr size_t most_entries = size_t(1) << 24;
    const unsigned common = std::gcd(d_n, d_m);
    std::vector<uint8_t> punctured(d_n, 0);
    for (uint32_t v : d_punctured_positions)
        punctured[v] = 1;
    for (unsigned z = common; z >= 2; --z) {
        if (common % z != 0)
            continue;
        const unsigned rows = d_m / z, cols = d_n / z;
        if (size_t(rows) * cols > most_entries)
            break; // smaller z only make larger base matrices
        // a base row at a time: its blocks' shifts and ones (a row of the
        // base matrix, reset after it), the nonzero blocks kept
        std::vector<int32_t> shift(cols, -1);
        std::vector<uint32_t> ones(cols, 0), touched;
        std::vector<std::pair<size_t, int32_t>> blocks;
        bool fits = true;
        for (unsigned i = 0; i < rows && fits; ++i) {
            for (unsigned r = 0; r < z && fits; ++r) {
                const unsigned c = i * z + r;
                for (uint32_t e = d_check_offsets[c]; e < d_check_offsets[c + 1]; ++e) {
                    const uint32_t j = d_edge_variable[e] / z;
                    const int32_t s = int32_t((d_edge_variable[e] % z + z - r) % z);
                    if (shift[j] >= 0 && shift[j] != s) {
                        fits = false;
                        break;
                    }
                    if (shift[j] < 0)
                        touched.push_back(j);
                    shift[j] = s;
                    ++ones[j];
                }
            }
            // every nonzero block a whole permutation: z ones, one a row
            for (uint32_t j : touched) {
                fits = fits && ones[j] == z;
                blocks.emplace_back(size_t(i) * cols + j, shift[j]);
                shift[j] = -1;
                ones[j] = 0;
            }
            touched.clear();
        }
        base_matrix b;
        b.rows = rows;
        b.cols = cols;
        b.z = z;
        b.transmitted.assign(cols, 1);
        for (unsigned j = 0; j < cols && fits; ++j) {
            unsigned sent = 0;
            for (unsigned t = 0; t < z; ++t)
                sent += punctured[size_t(j) * z + t] ? 0 : 1;
            fits = sent == 0 || sent == z;
            b.transmitted[j] = sent == z ? 1 : 0;
        }
        if (!fits)
            continue;
        b.shifts.assign(size_t(rows) * cols, -1);
        for (const auto& [at, s] : blocks)
            b.shifts[at] = s;
        return b;
    }
    return {};
}

void ldpc_code::build_layered_runs()
{
    d_layered_runs.assign(1, 0);
    std::vector<uint32_t> in_run(d_n, UINT32_MAX);
    for (uint32_t pos = 0; pos < d_check_order.size(); ++pos) {
        const uint32_t c = d_check_order[pos];
        const uint32_t run = uint32_t(d_layered_runs.size() - 1);
        bool clash = false;
        for (uint32_t e = d_check_offsets[c]; e < d_check_offsets[c + 1] && !clash; ++e)
            clash = in_run[d_edge_variable[e]] == run;
        if (clash)
            d_layered_runs.push_back(pos);
        for (uint32_t e = d_check_offsets[c]; e < d_check_offsets[c + 1]; ++e)
            in_run[d_edge_variable[e]] = uint32_t(d_layered_runs.size() - 1);
    }
    d_layered_runs.push_back(d_m);
}

std::vector<uint32_t> ldpc_code::clash_colours(const uint32_t* checks,
                                               uint32_t count) const
{
    // the checks (places 0 .. count - 1) that share a bit with each: the
    // (bit, place) pairs of the checks' edges, sorted, give each bit's places
    std::vector<std::pair<uint32_t, uint32_t>> edges;
    for (uint32_t i = 0; i < count; ++i)
        for (uint32_t e = d_check_offsets[checks[i]]; e < d_check_offsets[checks[i] + 1];
             ++e)
            edges.emplace_back(d_edge_variable[e], i);
    std::sort(edges.begin(), edges.end());
    std::vector<std::vector<uint32_t>> clashes(count);
    for (size_t a = 0, b = 0; a < edges.size(); a = b) {
        while (b < edges.size() && edges[b].first == edges[a].first)
            ++b;
        for (size_t i = a; i < b; ++i)
            for (size_t o = a; o < b; ++o)
                if (o != i)
                    clashes[edges[i].second].push_back(edges[o].second);
    }
    for (auto& c : clashes) {
        std::sort(c.begin(), c.end());
        c.erase(std::unique(c.begin(), c.end()), c.end());
    }
    // DSatur (Brelaz 1979): the uncoloured check with the most colours among
    // its clashes next (ties: more clashes, then the earlier place), in the
    // first colour free of them; two colours where every cycle of clashes is
    // even
    constexpr uint32_t none = UINT32_MAX;
    std::vector<uint32_t> colour(count, none), saturation(count, 0);
    std::vector<std::vector<bool>> seen(count); // colours among its clashes
    using key = std::tuple<int64_t, int64_t, uint32_t>;
    auto key_of = [&](uint32_t i) {
        return key{ -int64_t(saturation[i]), -int64_t(clashes[i].size()), i };
    };
    std::set<key> waiting;
    for (uint32_t i = 0; i < count; ++i)
        waiting.insert(key_of(i));
    while (!waiting.empty()) {
        const uint32_t next = std::get<2>(*waiting.begin());
        waiting.erase(waiting.begin());
        uint32_t c = 0;
        while (c < seen[next].size() && seen[next][c])
            ++c;
        colour[next] = c;
        for (const uint32_t o : clashes[next]) {
            if (colour[o] != none)
                continue;
            if (seen[o].size() <= c)
                seen[o].resize(c + 1, false);
            if (!seen[o][c]) {
                waiting.erase(key_of(o));
                seen[o][c] = true;
                ++saturation[o];
                waiting.insert(key_of(o));
            }
        }
    }
    return colour;
}

void ldpc_code::split_layers_into_runs(unsigned layer)
{
    if (layer == 0 || d_m % layer != 0)
        throw std::logic_error("ldpc_code: layers of " + std::to_string(layer) +
                               " checks do not tile " + std::to_string(d_m));
    d_layered_runs.assign(1, 0);
    std::vector<uint32_t> order(d_check_order);
    for (uint32_t first = 0; first < d_m; first += layer) {
        const uint32_t* checks = d_check_order.data() + first;
        const std::vector<uint32_t> colour = clash_colours(checks, layer);
        // the runs, larger first, each in the layer's order
        const uint32_t colours = *std::max_element(colour.begin(), colour.end()) + 1;
        std::vector<uint32_t> size(colours, 0);
        for (const uint32_t c : colour)
            ++size[c];
        std::vector<uint32_t> runs(colours);
        for (uint32_t c = 0; c < colours; ++c)
            runs[c] = c;
        std::stable_sort(runs.begin(), runs.end(), [&](uint32_t a, uint32_t b) {
            return size[a] > size[b];
        });
        uint32_t pos = first;
        for (const uint32_t c : runs) {
            for (uint32_t i = 0; i < layer; ++i)
                if (colour[i] == c)
                    order[pos++] = checks[i];
            d_layered_runs.push_back(pos);
        }
    }
    d_check_order = std::move(order);
}

ldpc_code ldpc_code::with_coloured_layers() const
{
    ldpc_code code(*this);
    if (d_m > 0)
        code.split_layers_into_runs(d_m);
    return code;
}

void ldpc_code::set_punctured(const std::vector<uint32_t>& punctured)
{
    std::vector<uint8_t> is_punctured(d_n, 0);
    for (uint32_t v : punctured) {
        if (v >= d_n)
            throw std::invalid_argument(
                "ldpc_code: punctured column " + std::to_string(v) +
                " is out of range; allowed: " + "0.." + std::to_string(d_n - 1));
        if (is_punctured[v])
            throw std::invalid_argument("ldpc_code: punctured column " +
                                        std::to_string(v) + " is given more than once");
        is_punctured[v] = 1;
    }
    if (punctured.size() >= d_n)
        throw std::invalid_argument("ldpc_code: all " + std::to_string(d_n) +
                                    " columns are punctured; at least one must be "
                                    "transmitted");
    for (uint32_t v = 0; v < d_n; ++v)
        (is_punctured[v] ? d_punctured_positions : d_transmitted_positions).push_back(v);
}

bool ldpc_code::detect_accumulator_parity() const
{
    if (d_field.q() != 2 || d_m >= d_n)
        return false;
    const uint32_t k = d_n - d_m;
    for (uint32_t r = 0; r < d_m; ++r) {
        const uint32_t v = k + r;
        const unsigned expected = r + 1 < d_m ? 2 : 1;
        if (variable_degree(v) != expected)
            return false;
        // Variable-major lists are in check order: check r, then check r + 1.
        for (unsigned i = 0; i < expected; ++i) {
            const uint32_t e = d_variable_edges[d_variable_offsets[v] + i];
            if (e < d_check_offsets[r + i] || e >= d_check_offsets[r + i + 1])
                return false;
        }
    }
    return true;
}

void ldpc_code::puncture(const uint8_t* codeword,
                         uint8_t* transmitted,
                         size_t n_frames) const
{
    const size_t nt = d_transmitted_positions.size();
    for (size_t f = 0; f < n_frames; ++f)
        for (size_t i = 0; i < nt; ++i)
            transmitted[f * nt + i] = codeword[f * d_n + d_transmitted_positions[i]];
}

ldpc_code
ldpc_code::from_dense(unsigned m, unsigned n, unsigned q, const uint8_t* h, unsigned poly)
{
    if (!h)
        throw std::invalid_argument("ldpc_code::from_dense: h is null");
    std::vector<entry> entries;
    for (unsigned r = 0; r < m; ++r)
        for (unsigned c = 0; c < n; ++c) {
            const uint8_t v = h[size_t(r) * n + c];
            if (v != 0)
                entries.push_back(entry{ r, c, v });
        }
    return ldpc_code(n, m, q, entries, poly);
}

void ldpc_code::build_graph(const std::vector<entry>& entries_in)
{
    const unsigned q = d_field.q();
    for (const auto& e : entries_in) {
        if (e.row >= d_m || e.col >= d_n || e.value == 0 || e.value >= q) {
            std::ostringstream msg;
            msg << "ldpc_code: entry (row " << e.row << ", col " << e.col << ", value "
                << unsigned(e.value) << ") is invalid; allowed: row < m=" << d_m
                << ", col < n=" << d_n << ", value in 1.." << q - 1;
            throw std::invalid_argument(msg.str());
        }
    }
    std::vector<entry> sorted(entries_in);
    std::sort(sorted.begin(), sorted.end(), [](const entry& a, const entry& b) {
        return a.row != b.row ? a.row < b.row : a.col < b.col;
    });
    for (size_t i = 1; i < sorted.size(); ++i) {
        if (sorted[i].row == sorted[i - 1].row && sorted[i].col == sorted[i - 1].col) {
            std::ostringstream msg;
            msg << "ldpc_code: entry (row " << sorted[i].row << ", col " << sorted[i].col
                << ") is given more than once";
            throw std::invalid_argument(msg.str());
        }
    }

    d_check_offsets.assign(d_m + 1, 0);
    d_edge_variable.resize(sorted.size());
    d_edge_coefficient.resize(sorted.size());
    std::vector<uint32_t> var_degree(d_n, 0);
    for (size_t e = 0; e < sorted.size(); ++e) {
        d_check_offsets[sorted[e].row + 1]++;
        d_edge_variable[e] = sorted[e].col;
        d_edge_coefficient[e] = sorted[e].value;
        var_degree[sorted[e].col]++;
    }
    for (unsigned r = 0; r < d_m; ++r)
        d_check_offsets[r + 1] += d_check_offsets[r];

    d_variable_offsets.assign(d_n + 1, 0);
    for (unsigned v = 0; v < d_n; ++v)
        d_variable_offsets[v + 1] = d_variable_offsets[v] + var_degree[v];
    d_variable_edges.resize(sorted.size());
    std::vector<uint32_t> fill(d_variable_offsets.begin(), d_variable_offsets.end() - 1);
    // Edges are visited in check order, so each variable's list comes out sorted
    // by check.
    for (uint32_t e = 0; e < sorted.size(); ++e)
        d_variable_edges[fill[d_edge_variable[e]]++] = e;
}

void ldpc_code::build_encoder()
{
    // Sparse Gaussian elimination with a Markowitz-style pivot choice (lightest
    // row, then its column present in the fewest active rows), which keeps
    // fill-in low on sparse H. Only rows still active are reduced, giving a
    // row-echelon form that back-substitution solves per frame.
    const gf_field& f = d_field;
    struct sparse_row {
        std::vector<uint32_t> col;
        std::vector<uint8_t> val;
    };
    std::vector<sparse_row> rows(d_m);
    for (unsigned r = 0; r < d_m; ++r)
        for (uint32_t e = d_check_offsets[r]; e < d_check_offsets[r + 1]; ++e) {
            rows[r].col.push_back(d_edge_variable[e]);
            rows[r].val.push_back(d_edge_coefficient[e]);
        }

    std::vector<uint32_t> col_count(d_n, 0);
    std::vector<std::vector<uint32_t>> col_rows(d_n); // may hold stale row ids
    for (unsigned v = 0; v < d_n; ++v) {
        col_count[v] = variable_degree(v);
        for (uint32_t i = d_variable_offsets[v]; i < d_variable_offsets[v + 1]; ++i) {
            const uint32_t e = d_variable_edges[i];
            // the check of edge e: edges are check-major, find by offsets
            const auto it =
                std::upper_bound(d_check_offsets.begin(), d_check_offsets.end(), e);
            col_rows[v].push_back(uint32_t(it - d_check_offsets.begin() - 1));
        }
    }

    std::set<std::pair<uint32_t, uint32_t>> by_weight; // (weight, row) of active rows
    std::vector<char> active(d_m, 1);
    for (unsigned r = 0; r < d_m; ++r)
        by_weight.insert({ uint32_t(rows[r].col.size()), r });

    std::vector<uint32_t> is_pivot(d_n, 0);
    std::vector<uint32_t> pivot_order;
    std::vector<uint32_t> pivot_col;
    sparse_row merged;

    while (!by_weight.empty()) {
        const uint32_t r = by_weight.begin()->second;
        by_weight.erase(by_weight.begin());
        active[r] = 0;
        sparse_row& pr = rows[r];
        if (pr.col.empty())
            continue; // linearly dependent on earlier pivot rows

        size_t best = 0;
        for (size_t i = 1; i < pr.col.size(); ++i) {
            // ties go to the higher column so that parity tends to sit at the end
            if (col_count[pr.col[i]] <= col_count[pr.col[best]])
                best = i;
        }
        const uint32_t c = pr.col[best];
        const uint8_t pivot_inv = f.inv(pr.val[best]);
        for (uint32_t col : pr.col)
            col_count[col]--;

        std::vector<uint32_t> candidates;
        candidates.swap(col_rows[c]);
        for (uint32_t s : candidates) {
            if (!active[s])
                continue;
            sparse_row& sr = rows[s];
            const auto pos = std::lower_bound(sr.col.begin(), sr.col.end(), c);
            if (pos == sr.col.end() || *pos != c)
                continue;
            const uint8_t factor = f.mul(sr.val[pos - sr.col.begin()], pivot_inv);
            const uint8_t* scale = f.mul_row(factor);
            merged.col.clear();
            merged.val.clear();
            size_t i = 0, j = 0;
            while (i < sr.col.size() || j < pr.col.size()) {
                if (j == pr.col.size() || (i < sr.col.size() && sr.col[i] < pr.col[j])) {
                    merged.col.push_back(sr.col[i]);
                    merged.val.push_back(sr.val[i]);
                    ++i;
                } else if (i == sr.col.size() || pr.col[j] < sr.col[i]) {
                    merged.col.push_back(pr.col[j]);
                    merged.val.push_back(scale[pr.val[j]]);
                    col_count[pr.col[j]]++;
                    col_rows[pr.col[j]].push_back(s);
                    ++j;
                } else {
                    const uint8_t v = sr.val[i] ^ scale[pr.val[j]];
                    if (v) {
                        merged.col.push_back(sr.col[i]);
                        merged.val.push_back(v);
                    } else {
                        col_count[sr.col[i]]--;
                    }
                    ++i;
                    ++j;
                }
            }
            by_weight.erase({ uint32_t(sr.col.size()), s });
            std::swap(sr.col, merged.col);
            std::swap(sr.val, merged.val);
            by_weight.insert({ uint32_t(sr.col.size()), s });
        }
        is_pivot[c] = 1;
        pivot_order.push_back(r);
        pivot_col.push_back(c);
    }

    d_rank = uint32_t(pivot_order.size());
    d_echelon_pivot = pivot_col;
    d_echelon_offsets.assign(1, 0);
    d_echelon_col.clear();
    d_echelon_value.clear();
    for (size_t p = 0; p < pivot_order.size(); ++p) {
        const sparse_row& row = rows[pivot_order[p]];
        const auto pos = std::lower_bound(row.col.begin(), row.col.end(), pivot_col[p]);
        const uint8_t* scale = f.mul_row(f.inv(row.val[pos - row.col.begin()]));
        for (size_t i = 0; i < row.col.size(); ++i) {
            if (row.col[i] == pivot_col[p])
                continue;
            d_echelon_col.push_back(row.col[i]);
            d_echelon_value.push_back(scale[row.val[i]]);
        }
        d_echelon_offsets.push_back(uint32_t(d_echelon_col.size()));
    }

    d_info_positions.clear();
    d_parity_positions.clear();
    for (uint32_t v = 0; v < d_n; ++v)
        (is_pivot[v] ? d_parity_positions : d_info_positions).push_back(v);
}

void ldpc_code::take_information_first()
{
    d_rank = d_m;
    d_info_positions.clear();
    d_parity_positions.clear();
    for (uint32_t v = 0; v < d_n; ++v)
        (v < d_n - d_m ? d_info_positions : d_parity_positions).push_back(v);
}

void ldpc_code::set_parity_solver(std::shared_ptr<const detail::parity_solver> solver)
{
    d_parity_solver = std::move(solver);
    take_information_first();
}

std::vector<ldpc_code::entry> ldpc_code::entries() const
{
    std::vector<entry> out;
    out.reserve(num_edges());
    for (uint32_t r = 0; r < d_m; ++r)
        for (uint32_t e = d_check_offsets[r]; e < d_check_offsets[r + 1]; ++e)
            out.push_back(entry{ r, d_edge_variable[e], d_edge_coefficient[e] });
    return out;
}

std::vector<uint8_t> ldpc_code::dense() const
{
    std::vector<uint8_t> h(size_t(d_m) * d_n, 0);
    for (uint32_t r = 0; r < d_m; ++r)
        for (uint32_t e = d_check_offsets[r]; e < d_check_offsets[r + 1]; ++e)
            h[size_t(r) * d_n + d_edge_variable[e]] = d_edge_coefficient[e];
    return h;
}

ldpc_code::encoder_kind ldpc_code::encoder() const
{
    if (d_accumulator_parity)
        return encoder_kind::accumulator;
    return d_parity_solver ? encoder_kind::structured : encoder_kind::echelon;
}

void ldpc_code::encode(const uint8_t* info, uint8_t* codeword, size_t n_frames) const
{
    const unsigned q = d_field.q();
    const size_t kk = k();
    for (size_t i = 0; i < n_frames * kk; ++i) {
        if (info[i] >= q) {
            std::ostringstream msg;
            msg << "ldpc_code::encode: info symbol " << unsigned(info[i]) << " (frame "
                << i / kk << ", position " << i % kk << ") is not an element of GF(" << q
                << "); allowed: 0.." << q - 1;
            throw std::invalid_argument(msg.str());
        }
    }
    for (size_t fr = 0; fr < n_frames; ++fr) {
        const uint8_t* in = info + fr * kk;
        uint8_t* cw = codeword + fr * d_n;
        for (size_t i = 0; i < kk; ++i)
            cw[d_info_positions[i]] = in[i];
        if (d_accumulator_parity) {
            // Row r holds information bits, p[r] and p[r - 1]; rows are
            // sorted by column, so the information bits come first.
            uint8_t p = 0;
            for (uint32_t r = 0; r < d_m; ++r) {
                for (uint32_t e = d_check_offsets[r];
                     e < d_check_offsets[r + 1] && d_edge_variable[e] < kk;
                     ++e)
                    p ^= cw[d_edge_variable[e]];
                cw[kk + r] = p;
            }
            continue;
        }
        if (d_parity_solver) {
            d_parity_solver->solve(*this, cw);
            continue;
        }
        for (size_t p = d_rank; p-- > 0;) {
            uint8_t acc = 0;
            for (uint32_t j = d_echelon_offsets[p]; j < d_echelon_offsets[p + 1]; ++j)
                acc ^= d_field.mul(d_echelon_value[j], cw[d_echelon_col[j]]);
            cw[d_echelon_pivot[p]] = acc;
        }
    }
}

unsigned ldpc_code::syndrome_weight(const uint8_t* codeword) const
{
    unsigned weight = 0;
    for (uint32_t r = 0; r < d_m; ++r) {
        uint8_t acc = 0;
        for (uint32_t e = d_check_offsets[r]; e < d_check_offsets[r + 1]; ++e)
            acc ^= d_field.mul(d_edge_coefficient[e], codeword[d_edge_variable[e]]);
        weight += acc != 0;
    }
    return weight;
}

size_t count_4_cycles(const ldpc_code& code)
{
    // Two variables in a 4-cycle share two checks: count, for each pair of
    // checks, the variables they share.
    size_t cycles = 0;
    std::vector<uint32_t> shared(code.m(), 0);
    const auto& coff = code.check_offsets();
    const auto& evar = code.edge_variable();
    const auto& voff = code.variable_offsets();
    const auto& vedge = code.variable_edges();
    std::vector<uint32_t> edge_check(code.num_edges());
    for (uint32_t c = 0; c < code.m(); ++c)
        for (uint32_t e = coff[c]; e < coff[c + 1]; ++e)
            edge_check[e] = c;
    for (uint32_t c = 0; c < code.m(); ++c) {
        std::fill(shared.begin(), shared.end(), 0);
        for (uint32_t e = coff[c]; e < coff[c + 1]; ++e) {
            const uint32_t v = evar[e];
            for (uint32_t i = voff[v]; i < voff[v + 1]; ++i) {
                const uint32_t c2 = edge_check[vedge[i]];
                if (c2 > c)
                    shared[c2]++;
            }
        }
        for (uint32_t c2 = c + 1; c2 < code.m(); ++c2)
            if (shared[c2] > 1)
                cycles += size_t(shared[c2]) * (shared[c2] - 1) / 2;
    }
    return cycles;
}

} // namespace gpuldpc
} // namespace gr
