/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The edge-thread family's layout of a code's edges (fft_bp_edge_layout):
// columns from an edge colouring, bank mixes for GF(256), and the shared
// memory and threads of its blocks. Host code, built with the kernels' sizes
// (gfq/sizes.h).

#include "gfq/plan.h"
#include "gfq/sizes.h"
#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace gr {
namespace gpuldpc {
namespace kernels {

using namespace gfq;

std::vector<unsigned> colour_edges(const std::vector<uint32_t>& left,
                                   const std::vector<uint32_t>& right,
                                   size_t n_left,
                                   size_t n_right,
                                   unsigned colours)
{
    constexpr int32_t none = -1;
    const size_t edges = left.size();
    std::vector<unsigned> colour(edges, colours);
    std::vector<int32_t> at_left(n_left * colours, none),
        at_right(n_right * colours, none);
    auto use = [&](size_t e, bool set) {
        at_left[left[e] * colours + colour[e]] = set ? int32_t(e) : none;
        at_right[right[e] * colours + colour[e]] = set ? int32_t(e) : none;
    };
    auto free_colour = [&](const std::vector<int32_t>& at, size_t vertex) {
        for (unsigned c = 0; c < colours; ++c)
            if (at[vertex * colours + c] == none)
                return c;
        throw std::logic_error("fft_bp_make_edge_layout: a vertex of too high degree");
    };
    std::vector<size_t> path;
    for (size_t e = 0; e < edges; ++e) {
        const unsigned a = free_colour(at_left, left[e]);
        const unsigned b = free_colour(at_right, right[e]);
        if (at_right[right[e] * colours + a] != none) {
            // the path from right[e] along colours a, b, a, ... never reaches
            // left[e] (where a is free); swapping a and b on it frees a there
            path.clear();
            bool on_right = true;
            size_t vertex = right[e];
            unsigned c = a;
            for (;;) {
                const int32_t f = (on_right ? at_right : at_left)[vertex * colours + c];
                if (f == none)
                    break;
                path.push_back(size_t(f));
                vertex = on_right ? left[f] : right[f];
                on_right = !on_right;
                c = c == a ? b : a;
            }
            for (size_t f : path)
                use(f, false);
            for (size_t f : path) {
                colour[f] = colour[f] == a ? b : a;
                use(f, true);
            }
        }
        colour[e] = a;
        use(e, true);
    }
    // a proper colouring: no colour twice at a vertex
    std::vector<uint8_t> seen_left(n_left * colours), seen_right(n_right * colours);
    for (size_t e = 0; e < edges; ++e) {
        if (colour[e] >= colours || seen_left[left[e] * colours + colour[e]]++ ||
            seen_right[right[e] * colours + colour[e]]++)
            throw std::logic_error("fft_bp_make_edge_layout: edge colouring failed");
    }
    return colour;
}

fft_bp_edge_layout fft_bp_make_edge_layout(unsigned n,
                                           unsigned checks,
                                           unsigned q,
                                           const std::vector<uint32_t>& check_offsets,
                                           const std::vector<uint32_t>& edge_variable,
                                           const std::vector<uint8_t>& edge_coefficient,
                                           const std::vector<uint32_t>& variable_offsets,
                                           const std::vector<uint32_t>& variable_edges,
                                           const std::vector<uint8_t>& gf_mul)
{
    fft_bp_edge_layout out;
    unsigned max_check_degree = 0, steps = 0;
    for (unsigned c = 0; c < checks; ++c)
        max_check_degree =
            std::max(max_check_degree, check_offsets[c + 1] - check_offsets[c]);
    for (unsigned v = 0; v < n; ++v)
        steps = std::max(steps, variable_offsets[v + 1] - variable_offsets[v]);
    const unsigned L = message_lanes(q), V = q / L;
    // checks of up to 8 edges a lane each, or (GF(256)) 4 edges of 4 lanes
    if (q == 128 || max_check_degree == 0 || max_check_degree > (L == 1 ? 8 : 4) ||
        n >= (1u << 24) || steps == 0)
        return out;
    const unsigned group = max_check_degree <= 4 ? 4 : 8;
    // GF(2): two edges a lane, slots s and s + group / 2 of a check in lane s
    // of its group / 2; the chunks of a check warp hold its first and second
    // edges. (check, slot) of lane t, and the chunk of (check, slot):
    const bool paired = q == 2;
    const unsigned per_warp_checks = paired ? 64 / group : 32 / (group * L);
    auto lane_edge = [&](size_t t) {
        const unsigned chunk = unsigned(t / 32), l = unsigned(t % 32);
        if (paired)
            return std::pair<unsigned, unsigned>(
                chunk / 2 * per_warp_checks + l / (group / 2),
                chunk % 2 * (group / 2) + l % (group / 2));
        return std::pair<unsigned, unsigned>(unsigned(t / (group * L)),
                                             unsigned(t / L % group));
    };
    auto chunk_of = [&](unsigned c, unsigned slot) {
        return paired ? c / per_warp_checks * 2 + slot / (group / 2)
                      : c / per_warp_checks;
    };
    // (v / per_warp, k): a variable warp's k-th edges
    const unsigned per_warp = 32 / L, colours = 32 / L;
    const unsigned chunks =
        (checks + per_warp_checks - 1) / per_warp_checks * (paired ? 2 : 1);
    const size_t edges = edge_variable.size();

    // an edge's check chunk, and its (variable warp, position at its variable)
    std::vector<uint32_t> left(edges), right(edges);
    for (unsigned c = 0; c < checks; ++c)
        for (uint32_t e = check_offsets[c]; e < check_offsets[c + 1]; ++e)
            left[e] = chunk_of(c, e - check_offsets[c]);
    for (unsigned v = 0; v < n; ++v)
        for (uint32_t i = variable_offsets[v]; i < variable_offsets[v + 1]; ++i)
            right[variable_edges[i]] = (v / per_warp) * steps + (i - variable_offsets[v]);
    const std::vector<unsigned> colour = colour_edges(
        left, right, chunks, size_t((n + per_warp - 1) / per_warp) * steps, colours);
    // an edge's column: L banks of V values
    auto column = [&](uint32_t e) {
        return uint32_t(left[e] * V * column_stride + colour[e] * L * 4);
    };
    if (size_t(chunks) * V * column_stride >= (size_t(1) << column_bits))
        return out; // beyond any GPU's shared memory

    std::vector<uint8_t> inverse(q, 0);
    for (unsigned a = 1; a < q; ++a)
        for (unsigned b = 1; b < q; ++b)
            if (gf_mul[size_t(a) * q + b] == 1)
                inverse[a] = uint8_t(b);
    // For L > 1, variable-domain value x of an edge lies in bank
    // bank(x) = x / V ^ mix(x % V) of its column (mix: linear, two bits for
    // each of the six low bits), at row x % V: a variable's lanes (x / V =
    // sub) then take distinct banks, and the mix is chosen so that the
    // check's lanes (y / V = sub, x = h^-1 y) do too: y -> bank(h^-1 y)
    // must map the lanes' high bits of y one to one (a 2 x 2 matrix over
    // GF(2) of full rank; some mix always gives one).
    std::vector<uint32_t> mix(edges, 0);
    auto bank = [&](unsigned x, uint32_t m) {
        unsigned b = x / V;
        for (unsigned i = 0; i < log2_of(V); ++i)
            if ((x >> i) & 1)
                b ^= (m >> (log2_of(L) * i)) & (L - 1);
        return b;
    };
    if (L > 1)
        for (size_t e = 0; e < edges; ++e) {
            const uint8_t* to_variable =
                &gf_mul[size_t(inverse[edge_coefficient[e]]) * q];
            uint32_t m = 0;
            const uint32_t mixes = 1u << (log2_of(L) * log2_of(V));
            for (; m < mixes; ++m) {
                unsigned seen = 0;
                for (unsigned sub = 0; sub < L; ++sub)
                    seen |= 1u << bank(to_variable[sub * V], m);
                if (seen == (1u << L) - 1)
                    break;
            }
            if (m == mixes)
                throw std::logic_error(
                    "fft_bp_make_edge_layout: no bank mix for an edge");
            mix[e] = m;
        }
    // byte offset of variable-domain value x in edge e's column: linear over
    // GF(2)
    auto value_offset = [&](unsigned x, uint32_t e) {
        return uint32_t((x % V) * column_stride + bank(x, mix[e]) * 4);
    };
    out.lanes.assign(size_t(chunks) * 32 * 4, 0);
    out.lane_terms.assign(size_t(chunks) * 32, idle_lane);
    for (size_t t = 0; t < size_t(chunks) * 32; ++t) {
        const auto [c, slot] = lane_edge(t);
        const unsigned sub = unsigned(t % L);
        uint32_t* word = &out.lanes[4 * t];
        word[0] = idle_lane;
        if (c >= checks || check_offsets[c] + slot >= check_offsets[c + 1])
            continue;
        const uint32_t e = check_offsets[c] + slot;
        const unsigned h = edge_coefficient[e];
        const uint8_t* to_variable = &gf_mul[size_t(inverse[h]) * q];
        // the lane's values y = sub * V + r: the image of sub * V folded into
        // the column's offset, those of r's bits packed two a word
        word[0] = column(e) ^ value_offset(to_variable[sub * V], e);
        for (unsigned b = 0; b < log2_of(V); ++b) {
            const uint32_t image = value_offset(to_variable[1u << b], e);
            if (b < 6)
                word[1 + b / 2] |= image << (16 * (b % 2));
            else // V = 128: the seventh above the column's offset, in words
                word[0] |= image >> 2 << column_bits;
        }
        if (sub == 0)
            out.lane_terms[t] = edge_variable[e] | uint32_t(h) << 24;
    }
    out.variable_columns.assign(size_t(steps) * n, idle_lane);
    for (unsigned v = 0; v < n; ++v)
        for (uint32_t i = variable_offsets[v]; i < variable_offsets[v + 1]; ++i)
            out.variable_columns[size_t(i - variable_offsets[v]) * n + v] =
                column(variable_edges[i]) | mix[variable_edges[i]] << column_bits;
    out.chunks = chunks;
    out.group = group;
    out.steps = steps;
    out.lanes_per_message = L;
    out.edges_per_lane = paired ? 2 : 1;
    return out;
}

size_t fft_bp_edge_shared_bytes(const fft_bp_graph& g)
{
    const unsigned L = message_lanes(g.q), V = g.q / L;
    return (size_t(g.edge_chunks) + (size_t(g.n) * L + 31) / 32) * V * column_stride +
           (size_t(g.n) + 15) / 16 * 16;
}

unsigned fft_bp_edge_threads(const fft_bp_graph& g)
{
    const unsigned L = message_lanes(g.q);
    const unsigned warps = std::max(g.edge_chunks, (g.n * L + 31) / 32);
    return std::min(edge_max_threads(g.q), 32 * warps);
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
