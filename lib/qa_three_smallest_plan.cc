/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Host planning of the binary GPU decoder's three-smallest rule, tested
// without a GPU: its check accumulator against the CPU reference's 8-bit
// rule, the table of f as saturated steps, and the variants that run it
// (kernels/binary/plan.h, kernels/binary/three_smallest.h).

#include "binary/plan.h"
#include "binary/three_smallest.h"
#include "engine/check_rules.h"
#include "qa_plan_helpers.h"
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <boost/test/unit_test.hpp>
#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace gr::gpuldpc;
using qa::code_shape;
using qa::h100_choice;

BOOST_AUTO_TEST_CASE(binary_three_smallest_accumulator_equals_cpu)
{
    // The kernels' check accumulator of the three-smallest rule
    // (check_three_minima, the same code compiled for the host) against the
    // CPU reference's 8-bit rule, message for message: checks of 1 to 20
    // edges, inputs saturated (flooding) and exact differences up to +-300
    // (layered: the CPU sees them saturated), drawn from a few values so that
    // magnitudes tie, also at 127; three llr_scales (the table of f) and
    // corrections with and without offset.
    const gf_field field(1);
    std::mt19937 rng(38);
    size_t compared = 0, at_three = 0;
    for (const float llr_scale : { 4.0f, 8.0f, 2.0f })
        for (const auto& [scale, offset] : std::vector<std::pair<float, float>>{
                 { 1.0f, 0.25f }, { 1.0f, 0.0f }, { 0.875f, 0.5f } }) {
            decoder_config cfg;
            cfg.messages = message_precision::int8;
            cfg.min_sum_magnitude = min_sum_magnitude_rule::three_smallest;
            cfg.llr_scale = llr_scale;
            cfg.min_sum_scale = scale;
            cfg.min_sum_offset = offset;
            const detail::fixed_point_min_sum_rule cpu(field, 20, cfg);
            const auto k = detail::fixed_point_constants_of(cfg);
            const auto table = detail::two_smallest_table(llr_scale);
            kernels::binary::check_three_minima fresh;
            fresh.scale_q = k.scale_q;
            fresh.offset_q = k.offset_q;
            fresh.f = table.data();
            for (int trial = 0; trial < 4000; ++trial) {
                const unsigned deg = 1 + rng() % 20;
                int32_t palette[6];
                for (auto& v : palette)
                    v = int32_t(rng() % 601) - 300;
                palette[0] = rng() % 2 ? 127 : -128;
                const bool layered = rng() % 2;
                std::vector<int32_t> x(deg);
                std::vector<int8_t> in(deg), out(deg);
                for (unsigned i = 0; i < deg; ++i) {
                    x[i] = rng() % 3 ? palette[rng() % 6] : int32_t(rng() % 601) - 300;
                    if (!layered)
                        x[i] = std::clamp(x[i], -127, 127);
                    in[i] = int8_t(std::clamp(x[i], -127, 127));
                }
                cpu.check_update(in.data(), out.data(), nullptr, deg);
                auto mins = fresh;
                for (unsigned i = 0; i < deg; ++i)
                    mins.add(x[i], i);
                mins.finish();
                for (unsigned i = 0; i < deg; ++i) {
                    BOOST_TEST_CONTEXT("llr_scale " << llr_scale << " scale " << scale
                                                    << " offset " << offset << " trial "
                                                    << trial << " edge " << i << " of "
                                                    << deg)
                    BOOST_REQUIRE_EQUAL(mins.message(x[i], i), int32_t(out[i]));
                }
                compared += deg;
                at_three += deg == 3;
            }
        }
    BOOST_TEST_MESSAGE(compared << " messages compared");
    BOOST_CHECK_GT(at_three, 0u);
}

BOOST_AUTO_TEST_CASE(binary_three_smallest_steps)
{
    // The fp16 pairs compute the rule's f as three saturated steps
    // (min_sum_three_smallest_steps): f(x) = the number of steps above x for
    // every x of the CPU's table, at the llr_scales whose f(0) is 3 or less;
    // larger scales (f(0) above 3) and tables that rise are refused.
    for (const float llr_scale : { 1.0f, 2.0f, 3.0f, 4.0f, 4.3f }) {
        const auto f = detail::two_smallest_table(llr_scale);
        uint16_t steps[3] = { 7, 7, 7 };
        BOOST_TEST_CONTEXT("llr_scale " << llr_scale)
        {
            BOOST_REQUIRE(
                kernels::min_sum_three_smallest_steps(f.data(), f.size(), steps));
            for (size_t x = 0; x < f.size(); ++x) {
                int count = 0;
                for (const uint16_t t : steps)
                    count += x < t ? 1 : 0;
                BOOST_REQUIRE_EQUAL(count, int(f[x]));
            }
        }
    }
    // llr_scale 4: f = 3, 2, 2, 2, 1 ... from x = 0, 1, 4, 9 on (docs)
    const auto f4 = detail::two_smallest_table(4.0f);
    uint16_t steps[3];
    BOOST_REQUIRE(kernels::min_sum_three_smallest_steps(f4.data(), f4.size(), steps));
    BOOST_CHECK_EQUAL(steps[0], 9u);
    BOOST_CHECK_EQUAL(steps[1], 4u);
    BOOST_CHECK_EQUAL(steps[2], 1u);
    const auto f8 = detail::two_smallest_table(8.0f);
    BOOST_CHECK(!kernels::min_sum_three_smallest_steps(f8.data(), f8.size(), steps));
    const int8_t rising[4] = { 1, 2, 0, 0 };
    BOOST_CHECK(!kernels::min_sum_three_smallest_steps(rising, 4, steps));
    BOOST_CHECK(!kernels::min_sum_three_smallest_steps(nullptr, 4, steps));
}

BOOST_AUTO_TEST_CASE(binary_three_smallest_variants)
{
    // The three-smallest rule in 8 bits: a frame a lane, a byte a message,
    // on chip, split or global as the 8-bit rule's codes are, never
    // compressed; its own kernels (min_sum_arithmetic::fixed8_three), limited
    // where bits reach the layered beliefs' limit; in the quasi-cyclic family
    // with checks unrolled, two frames a lane in fp16 pairs where the table of
    // f is three steps
    // (min_sum_arithmetic::fixed8_three_pairs).
    using kernels::binary_rule;
    using kernels::min_sum_arithmetic;
    using kernels::min_sum_family;
    const auto three = binary_rule::fixed_three_smallest;
    const uint32_t record = 0;
    const kernels::min_sum_record variables{};
    kernels::min_sum_choice h100 = h100_choice();
    h100.sms = 132;
    // DVB-S2 rate 1/2 in runs of up to 4000 checks: split, a frame a lane
    kernels::min_sum_graph g = code_shape(64800, 32400, 226799, 8, 7, 13);
    g.slot_edges = &record;
    g.slot_variables = &variables;
    g.longest_run = 4000;
    BOOST_CHECK(!kernels::min_sum_compressed_usable(g, true, three));
    BOOST_CHECK(!kernels::min_sum_pairs_exact(g, three));
    auto v = kernels::min_sum_choose(g, true, three, h100);
    BOOST_CHECK(v.on_chip && v.split && !v.pairs && !v.compressed);
    BOOST_CHECK_EQUAL(v.frames, 1u);
    // a byte an edge in device memory, 2 bytes a bit on chip
    BOOST_CHECK_GE(v.message_bytes, 226800u);
    BOOST_CHECK_GE(v.shared_bytes, 2u * 64801);
    auto k = kernels::min_sum_kernel_of(g, v, true);
    BOOST_CHECK(k.family == min_sum_family::split);
    BOOST_CHECK(k.arithmetic == min_sum_arithmetic::fixed8_three);
    BOOST_CHECK(!k.limited);
    BOOST_CHECK_EQUAL(kernels::min_sum_describe(v, true),
                      "8-bit min-sum, three smallest combined, split: beliefs on chip, "
                      "check messages in device memory, 132 blocks at most, a frame a "
                      "lane, compact check records, 1 frame a group, 1024 threads a "
                      "block");
    // Wi-Fi n = 1944: on chip, a frame a lane; flooding too
    g = code_shape(1944, 972, 6966, 11, 8, 12);
    for (bool layered : { true, false }) {
        v = kernels::min_sum_choose(g, layered, three, h100);
        BOOST_CHECK(v.on_chip && !v.split && !v.pairs && !v.compressed);
        k = kernels::min_sum_kernel_of(g, v, layered);
        BOOST_CHECK(k.family == min_sum_family::on_chip);
        BOOST_CHECK(k.arithmetic == min_sum_arithmetic::fixed8_three);
        BOOST_CHECK_EQUAL(k.layered, layered);
    }
    // the global variant where asked for: a frame a lane, 32 a group
    kernels::min_sum_choice global = h100;
    global.on_chip = false;
    v = kernels::min_sum_choose(g, true, three, global);
    BOOST_CHECK(!v.on_chip && !v.pairs && !v.wide_pairs && !v.compressed);
    BOOST_CHECK_EQUAL(v.frames, 32u);
    k = kernels::min_sum_kernel_of(g, v, true);
    BOOST_CHECK(k.family == min_sum_family::global);
    BOOST_CHECK(k.arithmetic == min_sum_arithmetic::fixed8_three);
    // bits of 15 checks or more: the limited kernels, layered
    g.max_variable_degree = 30;
    BOOST_CHECK(kernels::min_sum_kernel_of(g, v, true).limited);
    BOOST_CHECK(!kernels::min_sum_kernel_of(g, v, false).limited);
    // a quasi-cyclic code with a profile: a frame a lane in integers, checks
    // unrolled by row degree, 16 bytes a frame a check
    g.max_variable_degree = 11;
    g.qc_z = 81;
    g.qc_rows = 12;
    g.qc_entries = 88;
    g.qc_max_row_degree = 8;
    g.qc_profile = 3;
    const uint32_t offsets = 0;
    g.qc_row_offsets = &offsets;
    g.qc_blocks = &offsets;
    BOOST_CHECK(
        kernels::min_sum_quasi_cyclic_usable(g, true, binary_rule::fixed_min_sum));
    BOOST_CHECK(kernels::min_sum_quasi_cyclic_usable(g, true, three));
    BOOST_CHECK(!kernels::min_sum_quasi_cyclic_usable(g, false, three));
    // checks unrolled: the family before the on-chip groups, as the default
    // rule's
    BOOST_CHECK(kernels::min_sum_choose(g, true, three, h100).qc_unrolled);
    kernels::min_sum_choice qc_first = h100;
    qc_first.quasi_cyclic_first = true;
    qc_first.wide_pairs = true;
    // the default rule: checks unrolled in fp16 pairs
    const auto fixed_qc =
        kernels::min_sum_choose(g, true, binary_rule::fixed_min_sum, qc_first);
    BOOST_CHECK(fixed_qc.quasi_cyclic && fixed_qc.pairs && fixed_qc.qc_unrolled);
    // three-smallest: checks unrolled in fp16 pairs, a byte a frame an edge,
    // never compact words
    qc_first.quasi_cyclic_compact = 2;
    auto qc = kernels::min_sum_choose(g, true, three, qc_first);
    BOOST_CHECK(qc.quasi_cyclic && qc.pairs && qc.wide_pairs && qc.qc_unrolled &&
                qc.qc_half && !qc.qc_compact && !qc.qc_strided);
    BOOST_CHECK_EQUAL(qc.frames % 2, 0u);
    BOOST_CHECK_LE(qc.threads, kernels::min_sum_qc_pair_threads);
    BOOST_CHECK_EQUAL(qc.message_bytes,
                      kernels::binary::align_up(88u * 81 * qc.frames + 16 * 12, 256));
    k = kernels::min_sum_kernel_of(g, qc, true);
    BOOST_CHECK(k.family == min_sum_family::quasi_cyclic);
    BOOST_CHECK(k.arithmetic == min_sum_arithmetic::fixed8_three_pairs);
    BOOST_CHECK_EQUAL(k.qc_profile, 3u);
    BOOST_CHECK_EQUAL(k.lanes, qc.frames / 2);
    {
        // (a layered graph has runs; the shape's records are not read)
        auto with_runs = g;
        with_runs.run_checks = &offsets;
        with_runs.run_offsets = &offsets;
        BOOST_CHECK_NO_THROW(kernels::min_sum_check_variant(with_runs, qc, true));
    }
    BOOST_CHECK(kernels::min_sum_describe(qc, false).find(
                    "three smallest combined, quasi-cyclic") != std::string::npos);
    BOOST_CHECK(kernels::min_sum_describe(qc, false).find(
                    "two frames a lane in fp16 pairs") != std::string::npos);
    // compact words or strided checks have no such kernel
    auto bad = qc;
    bad.qc_compact = true;
    BOOST_CHECK_THROW(kernels::min_sum_kernel_of(g, bad, true), std::invalid_argument);
    bad = qc;
    bad.qc_half = false;
    BOOST_CHECK_THROW(kernels::min_sum_kernel_of(g, bad, true), std::invalid_argument);
    // rows of up to 24 blocks (any24) in pairs too
    g.qc_profile = 5;
    qc = kernels::min_sum_choose(g, true, three, qc_first);
    BOOST_CHECK(qc.pairs && qc.qc_half);
    BOOST_CHECK(kernels::min_sum_kernel_of(g, qc, true).arithmetic ==
                min_sum_arithmetic::fixed8_three_pairs);
    // a table of more steps (three_smallest_pairs cleared), or fp16 off: a
    // frame a lane in integers, 16 bytes a frame a check
    for (int off = 1; off < 3; ++off) {
        kernels::min_sum_choice c = qc_first;
        g.qc_profile = off == 1 ? 5 : 3;
        c.three_smallest_pairs = off != 1;
        c.quasi_cyclic_half = off != 2;
        qc = kernels::min_sum_choose(g, true, three, c);
        BOOST_CHECK(qc.quasi_cyclic && !qc.pairs && !qc.wide_pairs && qc.qc_unrolled &&
                    !qc.qc_half && !qc.qc_compact && !qc.qc_strided);
        BOOST_CHECK_LE(qc.threads, kernels::min_sum_qc_pair_threads);
        BOOST_CHECK_EQUAL(qc.message_bytes,
                          kernels::binary::align_up(16u * 12 * 81 * qc.frames, 256));
        k = kernels::min_sum_kernel_of(g, qc, true);
        BOOST_CHECK(k.family == min_sum_family::quasi_cyclic);
        BOOST_CHECK(k.arithmetic == min_sum_arithmetic::fixed8_three);
        BOOST_CHECK_EQUAL(k.qc_profile, g.qc_profile);
    }
    g.qc_profile = 3;
    qc_first.quasi_cyclic_compact = 1;
    // the kernel with a check's positions in a loop where unrolling is off,
    // and at lifting sizes above the unrolled blocks' threads
    qc_first.quasi_cyclic_unrolled = false;
    qc = kernels::min_sum_choose(g, true, three, qc_first);
    BOOST_CHECK(qc.quasi_cyclic && !qc.pairs && !qc.qc_unrolled);
    k = kernels::min_sum_kernel_of(g, qc, true);
    BOOST_CHECK(k.arithmetic == min_sum_arithmetic::fixed8_three);
    BOOST_CHECK_EQUAL(k.qc_profile, 0u);
    BOOST_CHECK_EQUAL(k.row_degree, 8u);
    qc_first.quasi_cyclic_unrolled = true;
    // Z = 64: groups of up to 6 lanes fit the unrolled blocks (4 chosen at
    // most), never the loop kernel's larger groups; in pairs as well
    g.qc_z = 64;
    g.n = 24 * 64;
    g.checks = 12 * 64;
    qc = kernels::min_sum_choose(g, true, three, h100);
    BOOST_CHECK(qc.quasi_cyclic && qc.qc_unrolled && !qc.pairs);
    BOOST_CHECK_LE(qc.frames * 64, kernels::min_sum_qc_pair_threads);
    qc = kernels::min_sum_choose(g, true, three, qc_first);
    BOOST_CHECK(qc.quasi_cyclic && qc.qc_unrolled && qc.qc_half);
    BOOST_CHECK_LE(qc.frames / 2 * 64, kernels::min_sum_qc_pair_threads);
    g.qc_z = 512;
    g.n = 24 * 512;
    g.checks = 12 * 512;
    qc = kernels::min_sum_choose(g, true, three, qc_first);
    BOOST_CHECK(qc.quasi_cyclic && !qc.qc_unrolled && !qc.qc_strided && !qc.pairs);
    BOOST_CHECK_EQUAL(qc.threads, 512u);
    // pairs outside the quasi-cyclic family or compressed messages have no
    // three-smallest kernel
    v.pairs = true;
    BOOST_CHECK_THROW(kernels::min_sum_kernel_of(g, v, true), std::invalid_argument);
}
