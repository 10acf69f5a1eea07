/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Host planning of the GPU decoders, tested without a GPU: the FFT-BP
// decoder's edge-thread layout and variant text (kernels/gfq/plan.h) and the
// binary decoder's compact check records and variant choice
// (kernels/binary/plan.h; the quasi-cyclic family's in
// qa_quasi_cyclic_plan.cc, the three-smallest rule's in
// qa_three_smallest_plan.cc).

#include "binary/plan.h"
#include "binary/state_layout.h"
#include "gfq/plan.h"
#include "qa_plan_helpers.h"
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <boost/test/unit_test.hpp>
#include <algorithm>
#include <set>

using namespace gr::gpuldpc;

namespace {

// The edge-thread layout of a code, as the CUDA FFT-BP decoder makes it
kernels::fft_bp_edge_layout edge_layout_of(const ldpc_code& c)
{
    const unsigned q = c.q();
    std::vector<uint8_t> mul(size_t(q) * q);
    for (unsigned a = 0; a < q; ++a)
        std::copy_n(c.field().mul_row(uint8_t(a)), q, &mul[size_t(a) * q]);
    return kernels::fft_bp_make_edge_layout(c.n(),
                                            c.m(),
                                            q,
                                            c.check_offsets(),
                                            c.edge_variable(),
                                            c.edge_coefficient(),
                                            c.variable_offsets(),
                                            c.variable_edges(),
                                            mul);
}

} // namespace

BOOST_AUTO_TEST_CASE(edge_thread_layout_is_consistent_and_conflict_free)
{
    // Host side only (runs without a GPU). Where the check phase reads and
    // writes value x = h^-1 y of an edge (lane sub of its L, register r, y =
    // sub V + r) must be where the variable phase keeps x (lane x / V,
    // register x % V); an edge's values fill its q slots; and at every
    // register index the 32 lanes of a warp hit 32 distinct banks in both
    // phases (the edge colouring and, for GF(256), the bank mix).
    struct shape {
        unsigned n, dv, dc, q;
    };
    for (const shape sh : { shape{ 96, 2, 4, 64 },
                            shape{ 96, 2, 3, 64 },
                            shape{ 60, 2, 4, 64 },
                            shape{ 96, 3, 6, 16 },
                            shape{ 128, 2, 4, 32 },
                            shape{ 96, 2, 4, 8 },
                            shape{ 256, 2, 4, 4 },
                            shape{ 240, 3, 6, 2 },
                            shape{ 90, 3, 5, 2 },
                            shape{ 128, 2, 4, 2 },
                            shape{ 90, 2, 3, 2 },
                            shape{ 64, 2, 4, 256 },
                            shape{ 48, 2, 3, 256 } }) {
        const ldpc_code c = construct_regular_code(sh.n, sh.dv, sh.dc, sh.q, 5 + sh.dc);
        const unsigned q = c.q();
        const auto lay = edge_layout_of(c);
        BOOST_TEST_CONTEXT("n " << sh.n << ", degrees " << sh.dv << "/" << sh.dc
                                << ", GF(" << q << ")")
        {
            BOOST_REQUIRE(lay.chunks > 0);
            const unsigned L = lay.lanes_per_message, V = q / L, bits = 18;
            BOOST_TEST(L == (q > 64 ? 4u : 1u));
            BOOST_TEST(lay.group == (sh.dc <= 4 ? 4u : 8u));
            BOOST_TEST(lay.steps == sh.dv);
            // GF(2) pairs its lanes: lane l of chunk 2w + h serves edge h
            // group / 2 + l % (group / 2) of check w 64 / group + l / (group / 2)
            BOOST_TEST(lay.edges_per_lane == (q == 2 ? 2u : 1u));
            const unsigned lanes_per_check = lay.group * L, half = lay.group / 2;
            auto check_of = [&](size_t t) {
                return q == 2 ? unsigned(t / 64 * (64 / lay.group) + t % 32 / half)
                              : unsigned(t / lanes_per_check);
            };
            auto slot_of = [&](size_t t) {
                return q == 2 ? unsigned(t / 32 % 2 * half + t % 32 % half)
                              : unsigned(t / L % lay.group);
            };
            if (q == 2)
                BOOST_TEST(lay.chunks % 2 == 0u);
            // the check phase: (edge, x) -> byte address
            std::vector<uint32_t> at(c.num_edges() * q, 0xffffffffu);
            std::vector<unsigned> served(c.num_edges(), 0);
            for (size_t t = 0; t < size_t(lay.chunks) * 32; ++t) {
                const uint32_t* w = &lay.lanes[4 * t];
                const unsigned ch = check_of(t), slot = slot_of(t), sub = unsigned(t % L);
                const bool real = ch < c.m() && slot < c.check_degree(ch);
                BOOST_TEST((w[0] != 0xffffffffu) == real);
                if (!real)
                    continue;
                const uint32_t e = c.check_offsets()[ch] + slot;
                served[e] += sub == 0;
                BOOST_TEST(lay.lane_terms[t] ==
                           (sub == 0 ? c.edge_variable()[e] |
                                           uint32_t(c.edge_coefficient()[e]) << 24
                                     : 0xffffffffu));
                const unsigned h_inv = c.field().inv(c.edge_coefficient()[e]);
                uint32_t image[7] = {};
                for (unsigned b = 0; b < 6; ++b)
                    image[b] = (w[1 + b / 2] >> (16 * (b % 2))) & 0xffffu;
                image[6] = (w[0] >> bits) << 2;
                const uint32_t base = V > 64 ? w[0] & ((1u << bits) - 1) : w[0];
                for (unsigned r = 0; r < V; ++r) {
                    uint32_t a = base;
                    for (unsigned b = 0; b < 7; ++b)
                        if ((r >> b) & 1)
                            a ^= image[b];
                    const unsigned x =
                        c.field().mul(uint8_t(h_inv), uint8_t(sub * V + r));
                    BOOST_TEST(at[e * q + x] == 0xffffffffu); // each x once
                    at[e * q + x] = a;
                }
            }
            // every edge served by one lane
            BOOST_TEST(std::count(served.begin(), served.end(), 1u) ==
                       std::ptrdiff_t(c.num_edges()));
            // distinct banks in a check-phase chunk at each register index
            for (unsigned ch = 0; ch < lay.chunks; ++ch)
                for (unsigned r = 0; r < V; ++r) {
                    std::set<unsigned> banks;
                    unsigned used = 0;
                    for (unsigned l = 0; l < 32; ++l) {
                        const size_t t = size_t(ch) * 32 + l;
                        const uint32_t* w = &lay.lanes[4 * t];
                        if (w[0] == 0xffffffffu)
                            continue;
                        const unsigned chk = check_of(t), sub = unsigned(t % L);
                        const uint32_t e = c.check_offsets()[chk] + slot_of(t);
                        const unsigned x = c.field().mul(
                            c.field().inv(c.edge_coefficient()[e]), uint8_t(sub * V + r));
                        banks.insert(at[e * q + x] / 4 % 32);
                        ++used;
                    }
                    BOOST_TEST(banks.size() == used);
                }
            // the variable phase: the same addresses, distinct banks
            const unsigned per_warp = 32 / L;
            for (unsigned k = 0; k < lay.steps; ++k)
                for (unsigned v0 = 0; v0 < c.n(); v0 += per_warp)
                    for (unsigned r = 0; r < V; ++r) {
                        std::set<unsigned> banks;
                        unsigned used = 0;
                        for (unsigned v = v0; v < std::min(c.n(), v0 + per_warp); ++v) {
                            const uint32_t word =
                                lay.variable_columns[size_t(k) * c.n() + v];
                            if (k >= c.variable_degree(v)) {
                                BOOST_TEST(word == 0xffffffffu);
                                continue;
                            }
                            const uint32_t e =
                                c.variable_edges()[c.variable_offsets()[v] + k];
                            for (unsigned sub = 0; sub < L; ++sub) {
                                unsigned bank = sub;
                                for (unsigned i = 0; i < 7; ++i)
                                    if ((r >> i) & 1)
                                        bank ^= (word >> (bits + (L == 4 ? 2 : 1) * i)) &
                                                (L - 1);
                                const uint32_t a =
                                    L == 1 ? word + r * 128
                                           : ((word & ((1u << bits) - 1)) | bank << 2) +
                                                 r * 128;
                                BOOST_TEST(a == at[e * q + sub * V + r]);
                                banks.insert(a / 4 % 32);
                                ++used;
                            }
                        }
                        BOOST_TEST(banks.size() == used);
                    }
        }
    }
}

BOOST_AUTO_TEST_CASE(small_fields_take_the_edge_threads)
{
    // flooding over GF(2), GF(4) and GF(8) takes a thread an edge (GF(2):
    // up to 16 warps a block, the others 6); GF(128) has no edge layout
    struct shape {
        unsigned n, dv, dc, q, threads;
    };
    for (const shape sh : { shape{ 240, 3, 6, 2, 512 },
                            shape{ 128, 2, 4, 4, 192 },
                            shape{ 96, 2, 4, 8, 192 },
                            shape{ 64, 2, 4, 128, 0 } }) {
        const ldpc_code c = construct_regular_code(sh.n, sh.dv, sh.dc, sh.q, 7);
        const auto lay = edge_layout_of(c);
        BOOST_TEST_CONTEXT("GF(" << sh.q << "), n " << sh.n)
        {
            if (sh.threads == 0) {
                BOOST_TEST(lay.chunks == 0u);
                continue;
            }
            BOOST_REQUIRE(lay.chunks > 0);
            kernels::fft_bp_graph g{};
            g.n = c.n();
            g.checks = c.m();
            g.q = sh.q;
            g.bits_per_symbol = c.bits_per_symbol();
            g.max_check_degree = sh.dc;
            g.edges = c.num_edges();
            g.edge_lanes = lay.lanes.data();
            g.edge_lane_terms = lay.lane_terms.data();
            g.variable_columns = lay.variable_columns.data();
            g.edge_chunks = lay.chunks;
            g.edge_group = lay.group;
            g.variable_steps = lay.steps;
            kernels::fft_bp_choice choice;
            choice.shared_limit = 99 * 1024; // a card of compute capability 8.6
            choice.edge_threads = true;
            const auto v = kernels::fft_bp_choose(g, choice);
            BOOST_TEST(int(v.family) == int(kernels::fft_bp_family::edge_threads));
            BOOST_TEST(v.threads == sh.threads);
            BOOST_TEST(v.threads == kernels::fft_bp_edge_threads(g));
            BOOST_TEST(v.edge_slots == (sh.dc <= 4 ? 4u : 8u));
        }
    }
}

BOOST_AUTO_TEST_CASE(binary_compact_check_records)
{
    // The binary decoder's compact records (kernels/binary/plan.h): slot s
    // holds check order[s]'s first edge and degree and its bits in edge
    // order, zeros after; codes that do not fit are refused by name.
    const ldpc_code code = construct_regular_code(96, 3, 6, 2, 11);
    BOOST_REQUIRE(kernels::min_sum_compact_usable(code.n(), 6, code.num_edges()));
    std::vector<uint32_t> order(code.m());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = uint32_t(order.size() - 1 - i);
    std::vector<uint32_t> edges;
    std::vector<uint16_t> variables;
    kernels::min_sum_compact_checks(code.check_offsets().data(),
                                    code.edge_variable().data(),
                                    order.data(),
                                    order.size(),
                                    code.n(),
                                    edges,
                                    variables);
    BOOST_REQUIRE_EQUAL(edges.size(), order.size());
    BOOST_REQUIRE_EQUAL(variables.size(), order.size() * kernels::min_sum_compact_degree);
    for (size_t s = 0; s < order.size(); ++s) {
        const uint32_t c = order[s], e0 = code.check_offsets()[c];
        const uint32_t deg = code.check_offsets()[c + 1] - e0;
        BOOST_CHECK_EQUAL(edges[s] & 0x0fffffffu, e0);
        BOOST_CHECK_EQUAL(edges[s] >> 28, deg);
        for (unsigned i = 0; i < kernels::min_sum_compact_degree; ++i)
            BOOST_CHECK_EQUAL(variables[s * kernels::min_sum_compact_degree + i],
                              i < deg ? code.edge_variable()[e0 + i] : 0u);
    }
    BOOST_CHECK(!kernels::min_sum_compact_usable(65537, 6, 1000));
    BOOST_CHECK(!kernels::min_sum_compact_usable(1000, 9, 1000));
    BOOST_CHECK(!kernels::min_sum_compact_usable(1000, 6, size_t(1) << 28));
    const ldpc_code dense = construct_regular_code(400, 3, 10, 2, 7);
    std::vector<uint32_t> natural(dense.m());
    for (size_t i = 0; i < natural.size(); ++i)
        natural[i] = uint32_t(i);
    BOOST_CHECK_EXCEPTION(kernels::min_sum_compact_checks(dense.check_offsets().data(),
                                                          dense.edge_variable().data(),
                                                          natural.data(),
                                                          natural.size(),
                                                          dense.n(),
                                                          edges,
                                                          variables),
                          std::invalid_argument,
                          [](const std::invalid_argument& e) {
                              return std::string(e.what()).find("degree <= 8") !=
                                     std::string::npos;
                          });
}

BOOST_AUTO_TEST_CASE(binary_full_records)
{
    // compact records are read in full by layered codes in the global
    // variant, and on chip where their checks average 7 edges or more
    using kernels::min_sum_full_records;
    BOOST_CHECK(min_sum_full_records(972, 6966, true, true));   // Wi-Fi 1944
    BOOST_CHECK(!min_sum_full_records(972, 6966, false, true)); // flooding
    BOOST_CHECK(!min_sum_full_records(972, 6966, false, false));
    BOOST_CHECK(!min_sum_full_records(504, 3024, true, true)); // (3,6)
    BOOST_CHECK(min_sum_full_records(504, 3024, true, false));
    BOOST_CHECK(min_sum_full_records(100, 700, true, true));
    BOOST_CHECK(!min_sum_full_records(100, 699, true, true));
    BOOST_CHECK(!min_sum_full_records(0, 0, true, false));
}

using qa::code_shape;
using qa::h100_choice;

BOOST_AUTO_TEST_CASE(binary_compressed_messages)
{
    // Check messages compressed (a word a frame a check): the 8-bit rule,
    // layered, checks with compact records; the global variant by default,
    // on chip where asked for.
    using kernels::binary_rule;
    // DVB-S2 rate 1/2 in the runs of its 360-check layers (98)
    kernels::min_sum_graph g = code_shape(64800, 32400, 226799, 8, 7, 98);
    const auto fixed = binary_rule::fixed_min_sum;
    BOOST_CHECK(!kernels::min_sum_compressed_usable(g, true, fixed)); // no records
    const uint32_t record = 0; // only whether the records exist is weighed
    const kernels::min_sum_record variables{};
    g.slot_edges = &record;
    g.slot_variables = &variables;
    BOOST_CHECK(kernels::min_sum_compressed_usable(g, true, fixed));
    BOOST_CHECK(!kernels::min_sum_compressed_usable(g, false, fixed));
    BOOST_CHECK(!kernels::min_sum_compressed_usable(g, true, binary_rule::float_min_sum));
    const kernels::min_sum_choice h100 = h100_choice();
    auto v = kernels::min_sum_choose(g, true, fixed, h100);
    BOOST_CHECK(!v.on_chip && v.pairs && v.compressed);
    // 64 frames: 2 bytes a bit (and the bit past the last) and 4 a check,
    // against a byte an edge (and the message past the last)
    BOOST_CHECK_EQUAL(v.state_bytes,
                      kernels::min_sum_state_bytes(g, true, fixed, 64, true));
    BOOST_CHECK_GE(v.state_bytes, 64 * (2 * 64801 + 4 * 32400));
    BOOST_CHECK_LT(v.state_bytes, 64 * (2 * 64801 + 4 * 32400) + 512);
    BOOST_CHECK_GE(kernels::min_sum_state_bytes(g, true, fixed, 64, false),
                   64 * (2 * 64801 + 226800));
    kernels::min_sum_choice plain = h100;
    plain.compressed = false;
    v = kernels::min_sum_choose(g, true, fixed, plain);
    BOOST_CHECK(!v.on_chip && !v.compressed);
    BOOST_CHECK_EQUAL(v.state_bytes,
                      kernels::min_sum_state_bytes(g, true, fixed, 64, false));
    BOOST_CHECK(!kernels::min_sum_choose(g, false, fixed, h100).compressed);
    // on chip (Wi-Fi n = 1944) only where asked for
    const kernels::min_sum_graph dvbs2 = g;
    g = code_shape(1944, 972, 6966, 11, 8, 12);
    g.slot_edges = dvbs2.slot_edges;
    g.slot_variables = dvbs2.slot_variables;
    v = kernels::min_sum_choose(g, true, fixed, h100);
    BOOST_CHECK(v.on_chip && !v.compressed);
    kernels::min_sum_choice on_chip = h100;
    on_chip.compressed_on_chip = true;
    v = kernels::min_sum_choose(g, true, fixed, on_chip);
    BOOST_CHECK(v.on_chip && v.compressed);
    // the global variant where asked for, compressed there
    kernels::min_sum_choice global = h100;
    global.on_chip = false;
    v = kernels::min_sum_choose(g, true, fixed, global);
    BOOST_CHECK(!v.on_chip && v.compressed && v.pairs);
    BOOST_CHECK_EQUAL(v.frames, 64u);
    BOOST_CHECK_EQUAL(kernels::min_sum_describe(v, true),
                      "8-bit min-sum, global: state in device memory, one grid, two "
                      "frames a lane in fp16 pairs, compressed check messages, compact "
                      "check records, 64 frames a group, 512 threads a block");
    BOOST_CHECK_EQUAL(v.state_bytes,
                      kernels::min_sum_state_bytes(g, true, fixed, v.frames, true));
}

BOOST_AUTO_TEST_CASE(binary_split_variant)
{
    // Layered 8-bit, compact records, no on-chip group chosen: one lane's
    // beliefs in shared memory, its messages in global memory, a region a
    // resident block; where a run's checks keep 16 warps of an SM busy.
    using kernels::binary_rule;
    const auto fixed = binary_rule::fixed_min_sum;
    const uint32_t record = 0;
    const kernels::min_sum_record variables{};
    kernels::min_sum_graph g = code_shape(64800, 32400, 226799, 8, 7, 13);
    g.slot_edges = &record;
    g.slot_variables = &variables;
    g.longest_run = 4000;
    kernels::min_sum_choice h100 = h100_choice();
    h100.sms = 132;
    auto v = kernels::min_sum_choose(g, true, fixed, h100);
    BOOST_CHECK(v.on_chip && v.split && v.compressed);
    // pairs' beliefs (4 bytes a bit) exceed 227 KiB: one frame a lane
    BOOST_CHECK(!v.pairs);
    BOOST_CHECK_EQUAL(v.frames, 1u);
    BOOST_CHECK_GE(v.shared_bytes, 2u * 64801);
    BOOST_CHECK_LT(v.shared_bytes, 2u * 64801 + 16);
    BOOST_CHECK_GE(v.message_bytes, 4u * 32400);
    BOOST_CHECK_GE(v.shared_bytes + v.message_bytes, v.state_bytes);
    BOOST_CHECK_EQUAL(v.message_bytes % 256, 0u); // regions on 256-byte boundaries
    BOOST_CHECK_EQUAL(v.threads, 1024u); // the longest run's checks, at most 1024
    BOOST_CHECK_EQUAL(v.blocks, 132u);   // a block an SM
    BOOST_CHECK_EQUAL(kernels::min_sum_describe(v, true),
                      "8-bit min-sum, split: beliefs on chip, check messages in device "
                      "memory, 132 blocks at most, a frame a lane, compressed check "
                      "messages, compact check records, 1 frame a group, 1024 threads a "
                      "block");
    // the workspace: a block's messages, for the blocks a launch takes
    BOOST_CHECK_EQUAL(kernels::min_sum_workspace_bytes(v, 1), v.message_bytes);
    BOOST_CHECK_EQUAL(kernels::min_sum_workspace_bytes(v, 10000), 132 * v.message_bytes);
    // in the 98 runs of the layers (331 checks on average, 11 warps): global
    g.runs = 98;
    g.longest_run = 360;
    BOOST_CHECK(!kernels::min_sum_choose(g, true, fixed, h100).on_chip);
    g.runs = 13;
    g.longest_run = 4000;
    // 99 KiB a block (RTX 30/40): the beliefs do not fit, global
    kernels::min_sum_choice small_card = h100;
    small_card.shared_limit = 99 * 1024;
    small_card.sm.shared_bytes = 100 * 1024;
    BOOST_CHECK(!kernels::min_sum_choose(g, true, fixed, small_card).on_chip);
    // not where turned off, nor flooding, nor float, nor without records
    kernels::min_sum_choice no_split = h100;
    no_split.split = false;
    BOOST_CHECK(!kernels::min_sum_choose(g, true, fixed, no_split).on_chip);
    BOOST_CHECK(!kernels::min_sum_choose(g, false, fixed, h100).split);
    BOOST_CHECK(
        !kernels::min_sum_choose(g, true, binary_rule::float_min_sum, h100).on_chip);
    kernels::min_sum_graph plain = g;
    plain.slot_edges = nullptr;
    plain.slot_variables = nullptr;
    BOOST_CHECK(!kernels::min_sum_choose(plain, true, fixed, h100).on_chip);
    // the short frame (16200 bits, 9000 checks) coloured: 10 runs of 900
    // checks on average (29 warps), the longest over 1024; pairs, 65 KB of
    // beliefs, 2 blocks of 1024 threads an SM; one an SM on the 99 KiB card
    // (RTX 30/40) and in 64 KiB (Turing), still in pairs; at 48 KiB one
    // frame a lane
    g = code_shape(16200, 9000, 48599, 8, 6, 10);
    g.slot_edges = &record;
    g.slot_variables = &variables;
    g.longest_run = 1200;
    v = kernels::min_sum_choose(g, true, fixed, h100);
    BOOST_CHECK(v.on_chip && v.split && v.pairs);
    BOOST_CHECK_EQUAL(v.frames, 2u);
    BOOST_CHECK_EQUAL(v.threads, 1024u);
    BOOST_CHECK_EQUAL(v.blocks, 2u * 132);
    v = kernels::min_sum_choose(g, true, fixed, small_card);
    BOOST_CHECK(v.split && v.pairs);
    BOOST_CHECK_EQUAL(v.blocks, 132u);
    kernels::min_sum_choice turing = h100;
    turing.shared_limit = 64 * 1024;
    turing.sm.shared_bytes = 65 * 1024;
    v = kernels::min_sum_choose(g, true, fixed, turing);
    BOOST_CHECK(v.split && v.pairs);
    kernels::min_sum_choice low = h100;
    low.shared_limit = 48 * 1024;
    low.sm.shared_bytes = 49 * 1024;
    v = kernels::min_sum_choose(g, true, fixed, low);
    BOOST_CHECK(v.split && !v.pairs);
    BOOST_CHECK_EQUAL(v.frames, 1u);
    // in its layers' runs (25, 360 checks: 12 warps): pairs, 3 blocks of 384
    // threads an SM (36 warps busy); in 64 KiB one block an SM keeps 12
    // warps busy: global
    g.runs = 25;
    g.longest_run = 360;
    v = kernels::min_sum_choose(g, true, fixed, h100);
    BOOST_CHECK(v.split && v.pairs);
    BOOST_CHECK_EQUAL(v.threads, 384u);
    BOOST_CHECK_EQUAL(v.blocks, 3u * 132);
    BOOST_CHECK(!kernels::min_sum_choose(g, true, fixed, turing).on_chip);
}

BOOST_AUTO_TEST_CASE(binary_variant_choice)
{
    // The binary decoder's variant (kernels/binary/plan.h), host side:
    // flooding the smallest group that fits with the SM's threads shared out;
    // layered the group of the most frames an SM, a lane a check of a run, one
    // frame a lane for short runs, global where few frames fit.
    using kernels::binary_rule;
    kernels::min_sum_graph g = code_shape(1944, 972, 6966, 11, 8, 12); // runs of 81
    const kernels::min_sum_choice h100 = h100_choice();
    const auto fixed = binary_rule::fixed_min_sum;
    // a pair group's state: 2 bytes a bit and a check message a frame
    const size_t pair_lane = 2 * (2 * 1944 + 6966);
    auto v = kernels::min_sum_choose(g, true, fixed, h100);
    BOOST_REQUIRE(v.on_chip && v.pairs);
    // bits of degree 16: no pairs in either schedule (beliefs, a channel
    // value and a message a check, pass the 2048 that fp16 holds exactly)
    const kernels::min_sum_graph deep = code_shape(1944, 972, 6966, 16, 8, 12);
    BOOST_CHECK(kernels::min_sum_pairs_exact(g, fixed));
    BOOST_CHECK(!kernels::min_sum_pairs_exact(deep, fixed));
    BOOST_CHECK(!kernels::min_sum_choose(deep, true, fixed, h100).pairs);
    BOOST_CHECK(!kernels::min_sum_choose(deep, false, fixed, h100).pairs);
    // bits of degree 15 may reach the layered limit of 1920, which the fp16
    // pair kernels do not apply: no pairs; 14 stay below it (127 x 15)
    BOOST_CHECK(
        !kernels::min_sum_pairs_exact(code_shape(1944, 972, 6966, 15, 8, 12), fixed));
    BOOST_CHECK(
        kernels::min_sum_pairs_exact(code_shape(1944, 972, 6966, 14, 8, 12), fixed));
    // the kernels that limit beliefs: layered, 8-bit, bits of degree 15 or more
    const auto deep_layered = kernels::min_sum_choose(deep, true, fixed, h100);
    BOOST_CHECK(kernels::min_sum_kernel_of(deep, deep_layered, true).limited);
    BOOST_CHECK(!kernels::min_sum_kernel_of(g, v, true).limited);
    const auto deep_flooding = kernels::min_sum_choose(deep, false, fixed, h100);
    BOOST_CHECK(!kernels::min_sum_kernel_of(deep, deep_flooding, false).limited);
    // lanes of 2 frames: 1 lane (21.8 KB) makes 10 blocks an SM and 2 lanes
    // 5, 20 frames (the smaller group is taken); 4 or 8 lanes 16 frames
    BOOST_CHECK_EQUAL(v.frames, 2u);
    BOOST_CHECK_GE(v.state_bytes, pair_lane);
    BOOST_CHECK_EQUAL(v.threads, 96u); // a lane for each of a run's 81 checks
    BOOST_CHECK_EQUAL(kernels::min_sum_blocks_per_sm(v, h100.sm, 32), 10u);
    // registers bound the blocks: 3 warps a block of 64 registers a thread,
    // 10 blocks; of 72, 9
    BOOST_CHECK_EQUAL(
        kernels::min_sum_blocks_per_sm(v, { 1 << 20, 0, 2048, 65536, 32 }, 64), 10u);
    BOOST_CHECK_EQUAL(
        kernels::min_sum_blocks_per_sm(v, { 1 << 20, 0, 2048, 65536, 32 }, 72), 9u);
    // the lanes asked for
    kernels::min_sum_choice eight = h100;
    eight.lanes = 8;
    v = kernels::min_sum_choose(g, true, fixed, eight);
    BOOST_CHECK(v.on_chip && v.pairs);
    BOOST_CHECK_EQUAL(v.frames, 16u);
    BOOST_CHECK_EQUAL(v.threads, 672u); // 81 x 8 lanes, in whole warps
    // a card of 99 KiB: 8 frames an SM in groups of 1, 2 or 4 lanes
    kernels::min_sum_choice small_card = h100;
    small_card.shared_limit = 99 * 1024;
    small_card.sm.shared_bytes = 100 * 1024;
    v = kernels::min_sum_choose(g, true, fixed, small_card);
    BOOST_CHECK(v.on_chip && v.pairs);
    BOOST_CHECK_EQUAL(v.frames, 2u);
    BOOST_CHECK_EQUAL(kernels::min_sum_blocks_per_sm(v, small_card.sm, 32), 4u);
    // Wi-Fi n = 648 (runs of 27 checks): 56 frames an SM in groups of 1, 2 or
    // 4 lanes of pairs; 4 lanes have blocks of 4 warps
    const kernels::min_sum_graph w648 = code_shape(648, 324, 2376, 11, 8, 12);
    v = kernels::min_sum_choose(w648, true, fixed, h100);
    BOOST_CHECK(v.on_chip && v.pairs);
    BOOST_CHECK_EQUAL(v.frames, 8u);
    BOOST_CHECK_EQUAL(v.threads, 128u);
    // runs of about 7 checks: one frame a lane, the largest group that fits
    g.runs = 139;
    v = kernels::min_sum_choose(g, true, fixed, h100);
    BOOST_CHECK(v.on_chip && !v.pairs);
    BOOST_CHECK_EQUAL(v.frames, 16u);
    BOOST_CHECK_EQUAL(v.threads % 32, 0u);
    // flooding: the smallest group, a lane of pairs, the SM's 2048 threads
    // over the 8 blocks it holds
    g.runs = 0;
    v = kernels::min_sum_choose(g, false, fixed, h100);
    BOOST_CHECK(v.on_chip && v.pairs);
    BOOST_CHECK_EQUAL(v.frames, 2u);
    BOOST_CHECK_EQUAL(v.threads, 256u);
    BOOST_CHECK_EQUAL(kernels::min_sum_blocks_per_sm(v, h100.sm, 32), 8u);
    // pairs off: one frame a lane
    kernels::min_sum_choice single = h100;
    single.pairs = false;
    v = kernels::min_sum_choose(g, false, fixed, single);
    BOOST_CHECK(v.on_chip && !v.pairs);
    BOOST_CHECK_EQUAL(v.frames, 1u);
    // DVB-S2's short frame (16200 bits): flooding on chip, a block an SM of
    // 1024 threads; layered global, as 2 frames an SM keep too few warps
    // busy in runs of 360 checks
    g = code_shape(16200, 9000, 48599, 8, 6, 0);
    v = kernels::min_sum_choose(g, false, fixed, h100);
    BOOST_CHECK(v.on_chip && v.pairs);
    BOOST_CHECK_EQUAL(v.threads, 1024u);
    g.runs = 25;
    v = kernels::min_sum_choose(g, true, fixed, h100);
    BOOST_CHECK(!v.on_chip);
    // unless lanes are asked for
    kernels::min_sum_choice two = h100;
    two.lanes = 2;
    v = kernels::min_sum_choose(g, true, fixed, two);
    BOOST_CHECK(v.on_chip);
    // the normal frame fits no SM
    g = code_shape(64800, 32400, 226799, 8, 6, 90);
    v = kernels::min_sum_choose(g, true, fixed, h100);
    BOOST_CHECK(!v.on_chip && v.pairs);
    BOOST_CHECK_EQUAL(v.frames, 64u);
    v = kernels::min_sum_choose(g, false, fixed, h100);
    BOOST_CHECK(!v.on_chip);
}

BOOST_AUTO_TEST_CASE(binary_wide_pairs)
{
    // 16-bit integer pairs: where fp16 pairs are not exact (bits of degree
    // above 15), only in the global variant with checks read from the graph's
    // arrays, and only where the caller allows them (a device with native
    // s16x2 instructions).
    using kernels::binary_rule;
    const auto fixed = binary_rule::fixed_min_sum;
    // 5G NR BG1 lifted by 384: bits of degree up to 30, checks of up to 19
    const kernels::min_sum_graph nr = code_shape(26112, 17664, 121344, 30, 19, 46);
    kernels::min_sum_choice h100 = h100_choice();
    auto v = kernels::min_sum_choose(nr, true, fixed, h100);
    BOOST_CHECK(!v.on_chip && !v.pairs && !v.wide_pairs); // not allowed: one frame
    BOOST_CHECK_EQUAL(v.frames, 32u);
    h100.wide_pairs = true;
    // flooding fits a frame an SM on an H100 (one frame a lane on chip); on
    // a card of 99 KiB it takes the global variant
    v = kernels::min_sum_choose(nr, false, fixed, h100);
    BOOST_CHECK(v.on_chip && !v.pairs && !v.wide_pairs);
    BOOST_CHECK_EQUAL(kernels::min_sum_describe(v, false).rfind(
                          "8-bit min-sum, on chip: state in shared memory, a frame a "
                          "lane, 1 frame a group, ",
                          0),
                      0u);
    kernels::min_sum_choice small_card = h100;
    small_card.shared_limit = 99 * 1024;
    small_card.sm.shared_bytes = 100 * 1024;
    for (bool layered : { true, false }) {
        v = kernels::min_sum_choose(nr, layered, fixed, layered ? h100 : small_card);
        BOOST_CHECK(!v.on_chip && v.pairs && v.wide_pairs);
        BOOST_CHECK_EQUAL(v.frames, 64u);
        BOOST_CHECK_EQUAL(kernels::min_sum_describe(v, false),
                          "8-bit min-sum, global: state in device memory, one grid, two "
                          "frames a lane in 16-bit integer pairs, 64 frames a group, 512 "
                          "threads a block");
        // the same bytes a frame as one frame a lane
        BOOST_CHECK_EQUAL(v.state_bytes,
                          kernels::min_sum_state_bytes(nr, layered, fixed, 64, false));
    }
    // the float rules, or pairs off: one frame a lane
    v = kernels::min_sum_choose(nr, true, binary_rule::float_min_sum, h100);
    BOOST_CHECK(!v.pairs && !v.wide_pairs);
    kernels::min_sum_choice single = h100;
    single.pairs = false;
    v = kernels::min_sum_choose(nr, true, fixed, single);
    BOOST_CHECK(!v.pairs && !v.wide_pairs);
    // exact fp16 pairs stay fp16 (a shape of checks of 30 edges and bits of
    // degree 4 at most, as DVB-S2 rate 9/10)
    const kernels::min_sum_graph s2 = code_shape(64800, 6480, 194399, 4, 30, 19);
    v = kernels::min_sum_choose(s2, true, fixed, h100);
    BOOST_CHECK(!v.on_chip && v.pairs && !v.wide_pairs);
    // a code small enough for chip keeps one frame a lane there
    const kernels::min_sum_graph small_nr = code_shape(1088, 736, 5056, 30, 19, 46);
    v = kernels::min_sum_choose(small_nr, false, fixed, h100);
    BOOST_CHECK(v.on_chip && !v.pairs && !v.wide_pairs);
    // checks with compact records: no wide pairs (in the global variant, the
    // split one off)
    kernels::min_sum_graph compact = code_shape(26112, 17664, 121344, 30, 8, 46);
    const uint32_t record = 0;
    const kernels::min_sum_record variables{};
    compact.slot_edges = &record;
    compact.slot_variables = &variables;
    kernels::min_sum_choice no_split = h100;
    no_split.split = false;
    v = kernels::min_sum_choose(compact, true, fixed, no_split);
    BOOST_CHECK(!v.on_chip && !v.pairs && !v.wide_pairs);
}

BOOST_AUTO_TEST_CASE(fft_bp_variant_text)
{
    // batch_decoder::kernel_variant() of the FFT-BP decoder: what updates a
    // check in each family of fft_bp_choose
    using kernels::fft_bp_family;
    auto variant = [](fft_bp_family family,
                      bool on_chip,
                      unsigned threads,
                      unsigned check_warps,
                      bool runs,
                      unsigned edge_slots) {
        kernels::fft_bp_variant v;
        v.family = family;
        v.on_chip = on_chip;
        v.shared_bytes = 4096;
        v.threads = threads;
        v.check_warps = check_warps;
        v.runs = runs;
        v.edge_slots = edge_slots;
        return v;
    };
    struct text_case {
        kernels::fft_bp_variant variant;
        bool layered, half_messages;
        const char* want; // after "FFT-BP, "
    };
    const text_case cases[] = {
        { variant(fft_bp_family::rows, true, 256, 1, false, 0),
          true,
          false,
          "on chip: messages and beliefs in shared memory, a check at a time by the "
          "whole block, 256 threads a block" },
        { variant(fft_bp_family::check_parallel, false, 256, 1, false, 0),
          false,
          true,
          "global: messages and beliefs in device memory, a block a check and frame, "
          "the iterations a sequence of launches, fp16 messages, 256 threads a block" },
        { variant(fft_bp_family::registers, true, 512, 16, true, 4),
          true,
          false,
          "on chip: messages and beliefs in shared memory, 16 warps on a run's checks "
          "at once, a check's messages in registers (4 edge slots), 512 threads a "
          "block" },
        { variant(fft_bp_family::rows, true, 128, 1, false, 0),
          false,
          false,
          "on chip: messages and beliefs in shared memory, 1 warp on checks at once, "
          "128 threads a block" },
        { variant(fft_bp_family::tensor_cores, true, 256, 8, false, 0),
          false,
          false,
          "on chip: messages and beliefs in shared memory, four checks a warp with "
          "their transforms on tensor cores, 8 warps, 256 threads a block" },
        { variant(fft_bp_family::edge_threads, true, 192, 6, false, 4),
          false,
          false,
          "on chip: messages and beliefs in shared memory, a thread an edge, 192 "
          "threads a block" },
    };
    for (const auto& c : cases)
        BOOST_CHECK_EQUAL(kernels::fft_bp_describe(c.variant, c.layered, c.half_messages),
                          std::string("FFT-BP, ") + c.want);
}
