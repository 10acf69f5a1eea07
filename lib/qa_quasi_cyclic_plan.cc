/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Host planning of the binary decoder's quasi-cyclic family, tested without a
// GPU (kernels/binary/plan.h): base records, the variant and its groups, the
// profiles of the kernel with checks unrolled by row degree, the rows that
// need a barrier, the columns whose beliefs the kernels limit.

#include "binary/plan.h"
#include "binary/qc_profiles.h"
#include "binary/state_layout.h"
#include "qa_plan_helpers.h"
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <boost/test/unit_test.hpp>
#include <algorithm>
#include <vector>

using namespace gr::gpuldpc;
using qa::code_shape;
using qa::h100_choice;

BOOST_AUTO_TEST_CASE(binary_quasi_cyclic_variant)
{
    // A code given by its base matrix, layered, the 8-bit rule: the
    // quasi-cyclic family where no on-chip group is chosen (or first, where
    // asked), a lane a check of a base row, its beliefs in shared memory.
    using kernels::binary_rule;
    const auto fixed = binary_rule::fixed_min_sum;
    // base records: rows x cols shifts, -1 no block
    const std::vector<int32_t> shifts = { 3,  -1, 0, 1, //
                                          -1, 2,  5, 0 };
    std::vector<uint32_t> offsets, blocks;
    kernels::min_sum_qc_records(shifts.data(), 2, 4, 6, offsets, blocks);
    BOOST_CHECK(offsets == std::vector<uint32_t>({ 0, 3, 6 }));
    BOOST_CHECK(blocks == std::vector<uint32_t>({ 0u << 16 | 3,
                                                  2u << 16 | 0,
                                                  3u << 16 | 1,
                                                  1u << 16 | 2,
                                                  2u << 16 | 5,
                                                  3u << 16 | 0 }));
    const std::vector<int32_t> bad = { 6 };
    BOOST_CHECK_THROW(kernels::min_sum_qc_records(bad.data(), 1, 1, 6, offsets, blocks),
                      std::invalid_argument);
    BOOST_CHECK_THROW(
        kernels::min_sum_qc_records(shifts.data(), 2, 4, 70000, offsets, blocks),
        std::invalid_argument);

    // 5G NR BG1's base matrix (46 rows of 316 blocks, rows of up to 19) lifted
    // by z; only whether the records exist is weighed
    const uint32_t record = 0;
    auto bg1 = [&](kernels::min_sum_graph g, unsigned z) {
        g.qc_z = z;
        g.qc_rows = 46;
        g.qc_entries = 316;
        g.qc_max_row_degree = 19;
        g.qc_row_offsets = &record;
        g.qc_blocks = &record;
        g.run_checks = &record;
        g.run_offsets = &record;
        return g;
    };
    const kernels::min_sum_graph nr =
        bg1(code_shape(26112, 17664, 121344, 30, 19, 46), 384);
    BOOST_CHECK(kernels::min_sum_quasi_cyclic_usable(nr, true, fixed));
    BOOST_CHECK(!kernels::min_sum_quasi_cyclic_usable(nr, false, fixed));
    BOOST_CHECK(
        !kernels::min_sum_quasi_cyclic_usable(nr, true, binary_rule::float_min_sum));
    kernels::min_sum_choice h100 = h100_choice();
    h100.sms = 132;
    auto v = kernels::min_sum_choose(nr, true, fixed, h100);
    BOOST_CHECK(v.quasi_cyclic && !v.on_chip && !v.split && !v.pairs);
    BOOST_CHECK_EQUAL(v.frames, 1u);
    BOOST_CHECK_EQUAL(v.threads, 384u);
    BOOST_CHECK_EQUAL(v.shared_bytes,
                      kernels::binary::qc_shared_bytes(26112, 1, 46, 316, false));
    // the beliefs, then 8 bytes a block and the rows' 47 offsets
    BOOST_CHECK_GE(v.shared_bytes, 2u * 26113 + 8u * 316 + 4u * 47);
    BOOST_CHECK_EQUAL(v.message_bytes, 8u * 46 * 384);
    // 32 registers: shared memory holds 4 blocks an SM
    BOOST_CHECK_EQUAL(v.blocks, 4u * 132);
    BOOST_CHECK_EQUAL(kernels::min_sum_workspace_bytes(v, 10000),
                      v.blocks * v.message_bytes);
    BOOST_CHECK_EQUAL(kernels::min_sum_workspace_bytes(v, 3), 3 * v.message_bytes);
    BOOST_CHECK_EQUAL(
        kernels::min_sum_describe(v, false),
        "8-bit min-sum, quasi-cyclic: a base row's checks at once, beliefs "
        "on chip, compressed check messages in device memory, 528 blocks at "
        "most, a frame a lane, 1 frame a group, 384 threads a block");
    const auto key = kernels::min_sum_kernel_of(nr, v, true);
    BOOST_CHECK(key.family == kernels::min_sum_family::quasi_cyclic);
    BOOST_CHECK_EQUAL(key.lanes, 1u);
    BOOST_CHECK_EQUAL(key.row_degree, 24u);
    BOOST_CHECK_NO_THROW(kernels::min_sum_check_variant(nr, v, true));
    // fewer threads than a base row's checks: refused (checks left out)
    kernels::min_sum_variant narrow = v;
    narrow.threads = 256;
    BOOST_CHECK_THROW(kernels::min_sum_check_variant(nr, narrow, true),
                      std::invalid_argument);
    // two frames a lane in 16-bit pairs where allowed: 104 KB of beliefs a
    // block, 2 an SM
    kernels::min_sum_choice pairs_allowed = h100;
    pairs_allowed.wide_pairs = true;
    auto vp = kernels::min_sum_choose(nr, true, fixed, pairs_allowed);
    BOOST_CHECK(vp.quasi_cyclic && vp.pairs && vp.wide_pairs && !vp.qc_unrolled);
    BOOST_CHECK_EQUAL(vp.frames, 2u);
    BOOST_CHECK_EQUAL(vp.threads, 384u);
    BOOST_CHECK_EQUAL(vp.shared_bytes,
                      kernels::binary::qc_shared_bytes(26112, 2, 46, 316, false));
    BOOST_CHECK_EQUAL(vp.message_bytes, 16u * 46 * 384);
    BOOST_CHECK_EQUAL(vp.blocks, 2u * 132);
    const auto pair_key = kernels::min_sum_kernel_of(nr, vp, true);
    BOOST_CHECK(pair_key.arithmetic == kernels::min_sum_arithmetic::fixed8_wide_pairs);
    BOOST_CHECK_EQUAL(pair_key.lanes, 1u);
    BOOST_CHECK_NO_THROW(kernels::min_sum_check_variant(nr, vp, true));
    BOOST_CHECK_EQUAL(
        kernels::min_sum_describe(vp, false),
        "8-bit min-sum, quasi-cyclic: a base row's checks at once, beliefs "
        "on chip, compressed check messages in device memory, 264 blocks at "
        "most, two frames a lane in 16-bit integer pairs, 2 frames a group, "
        "384 threads a block");
    // pairs whose beliefs do not fit a 99 KiB card: a frame a lane there
    kernels::min_sum_choice ampere = pairs_allowed;
    ampere.shared_limit = 99 * 1024;
    ampere.sm.shared_bytes = 100 * 1024;
    vp = kernels::min_sum_choose(nr, true, fixed, ampere);
    BOOST_CHECK(vp.quasi_cyclic && !vp.pairs);
    BOOST_CHECK_EQUAL(vp.frames, 1u);
    // a card of 48 KiB a block: the beliefs (52 KB) do not fit
    kernels::min_sum_choice small_card = h100;
    small_card.shared_limit = 48 * 1024;
    small_card.sm.shared_bytes = 64 * 1024;
    BOOST_CHECK(!kernels::min_sum_choose(nr, true, fixed, small_card).quasi_cyclic);
    // off, or on_chip off (the global variant for every code)
    kernels::min_sum_choice off = h100;
    off.quasi_cyclic = false;
    BOOST_CHECK(!kernels::min_sum_choose(nr, true, fixed, off).quasi_cyclic);
    off = h100;
    off.on_chip = false;
    BOOST_CHECK(!kernels::min_sum_choose(nr, true, fixed, off).quasi_cyclic);
    // base rows of more than 32 blocks: a check's signs exceed a word
    kernels::min_sum_graph wide = nr;
    wide.qc_max_row_degree = 33;
    BOOST_CHECK(!kernels::min_sum_quasi_cyclic_usable(wide, true, fixed));
    BOOST_CHECK(!kernels::min_sum_choose(wide, true, fixed, h100).quasi_cyclic);
    // a variant of another family is refused for the quasi-cyclic kernels
    kernels::min_sum_variant pairs = v;
    pairs.pairs = true;
    BOOST_CHECK_THROW(kernels::min_sum_check_variant(nr, pairs, true),
                      std::invalid_argument);

    // Z = 2 (BG1: 136 bits): 32 lanes of 2 checks, 64 threads; on chip fits,
    // and takes the code unless the quasi-cyclic family comes first
    const kernels::min_sum_graph tiny = bg1(code_shape(136, 92, 632, 30, 19, 46), 2);
    BOOST_CHECK(kernels::min_sum_choose(tiny, true, fixed, h100).on_chip);
    kernels::min_sum_choice first = h100;
    first.quasi_cyclic_first = true;
    v = kernels::min_sum_choose(tiny, true, fixed, first);
    BOOST_CHECK(v.quasi_cyclic);
    BOOST_CHECK_EQUAL(v.frames, 32u);
    BOOST_CHECK_EQUAL(v.threads, 64u);
    BOOST_CHECK_EQUAL(kernels::min_sum_kernel_of(tiny, v, true).lanes, 32u);
    // Z = 15: 32 lanes of 15 checks in 480 threads
    kernels::min_sum_graph z15 = tiny;
    z15.qc_z = 15;
    z15.n = 68 * 15;
    v = kernels::min_sum_choose(z15, true, fixed, first);
    BOOST_CHECK_EQUAL(v.frames, 32u);
    BOOST_CHECK_EQUAL(v.threads, 480u);
}

BOOST_AUTO_TEST_CASE(binary_quasi_cyclic_unrolled)
{
    // Codes whose base rows have 5G NR's degrees take the kernel with checks
    // unrolled for those degrees (16-bit pairs, up to 8 lanes); rows that
    // share no column with those since the last barrier start without one.
    using kernels::binary_rule;
    auto records = [](const ldpc_code& c,
                      std::vector<uint32_t>& offsets,
                      std::vector<uint32_t>& blocks) {
        const auto b = c.find_quasi_cyclic_base();
        BOOST_REQUIRE(b.z != 0);
        kernels::min_sum_qc_records(
            b.shifts.data(), b.rows, b.cols, b.z, offsets, blocks);
        return b.rows;
    };
    std::vector<uint32_t> offsets, blocks;
    for (const unsigned rows : { 4u, 8u, 27u, 46u }) {
        BOOST_TEST_CONTEXT("BG1, " << rows << " rows")
        {
            const unsigned r = records(ldpc_code::nr(1, 8, rows), offsets, blocks);
            BOOST_CHECK_EQUAL(kernels::min_sum_qc_profile_of(offsets.data(), r, 0), 1u);
        }
    }
    for (const unsigned rows : { 4u, 42u }) {
        BOOST_TEST_CONTEXT("BG2, " << rows << " rows")
        {
            const unsigned r = records(ldpc_code::nr(2, 8, rows), offsets, blocks);
            BOOST_CHECK_EQUAL(kernels::min_sum_qc_profile_of(offsets.data(), r, 0), 2u);
        }
    }
    // columns of 15 blocks or more (beliefs that may reach the 8-bit rule's
    // limit) first in each row: BG1's columns 0 and 1, BG2's 0, 1 and 11;
    // the profiles' kernels limit beliefs at that many first positions
    for (const unsigned bg : { 1u, 2u }) {
        BOOST_TEST_CONTEXT("BG" << bg << ", all rows")
        {
            const unsigned r = records(ldpc_code::nr(bg, 8), offsets, blocks);
            const auto before = blocks;
            const unsigned limited =
                kernels::min_sum_qc_limited_first(offsets.data(), blocks.data(), r);
            BOOST_CHECK_EQUAL(limited, bg == 1 ? 2u : 3u);
            BOOST_CHECK_EQUAL(kernels::min_sum_qc_profile_of(offsets.data(), r, limited),
                              bg);
            std::vector<unsigned> column_blocks(68, 0);
            for (const uint32_t b : blocks)
                ++column_blocks[b >> 16];
            for (unsigned i = 0; i < r; ++i) {
                // the same blocks, those of the deep columns first
                std::vector<uint32_t> was(before.begin() + offsets[i],
                                          before.begin() + offsets[i + 1]);
                std::vector<uint32_t> now(blocks.begin() + offsets[i],
                                          blocks.begin() + offsets[i + 1]);
                BOOST_CHECK(std::is_permutation(was.begin(), was.end(), now.begin()));
                BOOST_CHECK(std::is_partitioned(now.begin(), now.end(), [&](uint32_t b) {
                    return column_blocks[b >> 16] >= 15;
                }));
            }
        }
    }
    // a base matrix with a deep column and no profile limiting it: none
    const std::vector<uint32_t> deep_offsets = { 0, 2, 4 };
    std::vector<uint32_t> deep_blocks = { 1u << 16, 0u, 1u << 16, 2u << 16 };
    BOOST_CHECK_EQUAL(kernels::min_sum_qc_profile_of(deep_offsets.data(), 2, 1), 0u);
    BOOST_CHECK_EQUAL(kernels::min_sum_qc_profile_of(deep_offsets.data(), 2, 0), 3u);
    BOOST_CHECK_EQUAL(
        kernels::min_sum_qc_limited_first(deep_offsets.data(), deep_blocks.data(), 2),
        0u);
    // other base matrices: any rows of up to 16 blocks (Wi-Fi: 7 and 8;
    // BG2's rows with one changed), 64 rows at most
    const unsigned wifi_rows = records(ldpc_code::wifi(1944, "1/2"), offsets, blocks);
    BOOST_CHECK_EQUAL(kernels::min_sum_qc_profile_of(offsets.data(), wifi_rows, 0), 3u);
    const std::vector<uint32_t> longer = { 0, 19, 38, 57, 76, 79, 87, 96, 103, 113 };
    BOOST_CHECK_EQUAL(kernels::min_sum_qc_profile_of(longer.data(), 9, 0), 1u);
    // BG1's first rows with the fifth changed (19 blocks: any of up to 20),
    // BG2's with its first changed (16 at most: any of up to 16)
    const std::vector<uint32_t> changed = { 0, 19, 38, 57, 76, 80 };
    BOOST_CHECK_EQUAL(kernels::min_sum_qc_profile_of(changed.data(), 5, 0),
                      kernels::binary::qc_profile_any20);
    BOOST_CHECK_EQUAL(kernels::min_sum_qc_profile_of(changed.data(), 0, 0), 0u);
    const std::vector<uint32_t> bg2_changed = { 0, 9, 19, 27 };
    BOOST_CHECK_EQUAL(kernels::min_sum_qc_profile_of(bg2_changed.data(), 3, 0), 3u);
    // rows of 17 to 20 blocks, of 21 to 24 (IEEE 802.16e and 802.11n at rate
    // 5/6: 19 to 22), not 25
    const std::vector<uint32_t> rows_of_17 = { 0, 17, 19, 39 };
    BOOST_CHECK_EQUAL(kernels::min_sum_qc_profile_of(rows_of_17.data(), 3, 0),
                      kernels::binary::qc_profile_any20);
    const std::vector<uint32_t> rows_of_24 = { 0, 17, 19, 43 };
    BOOST_CHECK_EQUAL(kernels::min_sum_qc_profile_of(rows_of_24.data(), 3, 0),
                      kernels::binary::qc_profile_any24);
    const std::vector<uint32_t> rows_of_25 = { 0, 3, 28 };
    BOOST_CHECK_EQUAL(kernels::min_sum_qc_profile_of(rows_of_25.data(), 2, 0), 0u);
    for (unsigned n : { 648u, 1296u, 1944u }) {
        const unsigned rows = records(ldpc_code::wifi(n, "5/6"), offsets, blocks);
        BOOST_CHECK_EQUAL(kernels::min_sum_qc_profile_of(offsets.data(), rows, 0),
                          n == 1944 ? kernels::binary::qc_profile_any20
                                    : kernels::binary::qc_profile_any24);
    }
    const unsigned wimax_rows = records(ldpc_code::wimax(2304, "5/6"), offsets, blocks);
    BOOST_CHECK_EQUAL(kernels::min_sum_qc_profile_of(offsets.data(), wimax_rows, 0),
                      kernels::binary::qc_profile_any20);
    std::vector<uint32_t> many(66);
    for (size_t i = 0; i < many.size(); ++i)
        many[i] = uint32_t(3 * i);
    BOOST_CHECK_EQUAL(kernels::min_sum_qc_profile_of(many.data(), 64, 0), 3u);
    BOOST_CHECK_EQUAL(kernels::min_sum_qc_profile_of(many.data(), 65, 0), 0u);

    // rows on columns {0, 1}, {2, 3}, {1, 2}, {4}, {0}: row 2 meets row 0's
    // column 1 (since the barrier before row 0), row 4 none of rows 2 and 3
    const std::vector<uint32_t> row_offsets = { 0, 2, 4, 6, 7, 8 };
    const std::vector<uint32_t> columns = { 0u << 16, 1u << 16 | 3, 2u << 16, 3u << 16,
                                            1u << 16, 2u << 16 | 1, 4u << 16, 0u << 16 };
    BOOST_CHECK_EQUAL(
        kernels::min_sum_qc_sync_rows(row_offsets.data(), columns.data(), 5), 0b00101u);
    // a column again after rows without a barrier: row 2 reads row 1's
    const std::vector<uint32_t> again = { 0u << 16, 1u << 16, 1u << 16 };
    const std::vector<uint32_t> single_rows = { 0, 1, 2, 3 };
    BOOST_CHECK_EQUAL(kernels::min_sum_qc_sync_rows(single_rows.data(), again.data(), 3),
                      0b101u);
    BOOST_CHECK_THROW(kernels::min_sum_qc_sync_rows(single_rows.data(), again.data(), 65),
                      std::invalid_argument);
    // BG1: row 0 and 31 of the others wait (rows 16 on come in pairs that
    // share no column); BG2: row 0 and 27
    unsigned r = records(ldpc_code::nr(1, 8, 46), offsets, blocks);
    uint64_t sync = kernels::min_sum_qc_sync_rows(offsets.data(), blocks.data(), r);
    BOOST_CHECK_EQUAL(__builtin_popcountll(sync), 32);
    BOOST_CHECK_EQUAL(sync & 0x1ffffu, 0x1ffffu);
    BOOST_CHECK_EQUAL((sync >> 17) & 1u, 0u);
    r = records(ldpc_code::nr(2, 8, 42), offsets, blocks);
    sync = kernels::min_sum_qc_sync_rows(offsets.data(), blocks.data(), r);
    BOOST_CHECK_EQUAL(__builtin_popcountll(sync), 28);

    // the choice: NR BG1 Z = 384 in pairs takes it, and smaller Z (below);
    // off, a frame a lane, or more lanes than 8 do not
    const uint32_t record = 0;
    // a code's shape with a base matrix (only whether its records exist is
    // weighed)
    auto base_matrix = [&](kernels::min_sum_graph g,
                           unsigned z,
                           unsigned rows,
                           unsigned entries,
                           unsigned max_row_degree,
                           unsigned profile) {
        g.qc_z = z;
        g.qc_rows = rows;
        g.qc_entries = entries;
        g.qc_max_row_degree = max_row_degree;
        g.qc_row_offsets = g.qc_blocks = &record;
        g.run_checks = g.run_offsets = &record;
        g.qc_profile = profile;
        return g;
    };
    kernels::min_sum_graph nr =
        base_matrix(code_shape(26112, 17664, 121344, 30, 19, 46), 384, 46, 316, 19, 1);
    kernels::min_sum_choice pairs = h100_choice();
    pairs.sms = 132;
    pairs.wide_pairs = true;
    pairs.l2_bytes = 50 << 20;
    const auto fixed = binary_rule::fixed_min_sum;
    auto v = kernels::min_sum_choose(nr, true, fixed, pairs);
    BOOST_CHECK(v.quasi_cyclic && v.wide_pairs && v.qc_unrolled && v.qc_half);
    BOOST_CHECK_EQUAL(kernels::min_sum_kernel_of(nr, v, true).qc_profile, 1u);
    // in fp16 pairs: that arithmetic's key; compact words, the 16-byte words
    // of 264 blocks (46 x 384 x 16 bytes each, 71.6 MB) outgrowing 50 MiB
    BOOST_CHECK(kernels::min_sum_kernel_of(nr, v, true).arithmetic ==
                kernels::min_sum_arithmetic::fixed8_pairs);
    BOOST_CHECK_EQUAL(v.message_bytes, 46u * 384 * 16);
    BOOST_CHECK(v.qc_compact && kernels::min_sum_kernel_of(nr, v, true).qc_compact);
    BOOST_CHECK_NO_THROW(kernels::min_sum_check_variant(nr, v, true));
    BOOST_CHECK_EQUAL(kernels::min_sum_describe(v, false),
                      "8-bit min-sum, quasi-cyclic: a base row's checks at once (checks "
                      "unrolled for the base graph's row degrees), beliefs on chip, "
                      "compressed check messages in device memory, compact words for "
                      "rows of up to 12 blocks, 264 blocks at most, two frames a lane "
                      "in fp16 pairs, 2 frames a group, 384 threads a block");
    // where they fit L2 (8 rows: 12.5 MB; or 100 MB of L2) or rows average
    // fewer than 6 blocks (BG2 at 42 rows: 197 blocks), 16-byte words, unless
    // compact words are asked for always; none when turned off; an unknown
    // L2 taken as outgrown; 3 is no setting
    {
        kernels::min_sum_graph rows8 = nr;
        rows8.qc_rows = 8;
        rows8.qc_entries = 103;
        BOOST_CHECK(!kernels::min_sum_choose(rows8, true, fixed, pairs).qc_compact);
        kernels::min_sum_graph bg2 = nr;
        bg2.n = 52 * 384;
        bg2.qc_rows = 42;
        bg2.qc_entries = 197;
        bg2.qc_profile = 2;
        BOOST_CHECK(!kernels::min_sum_choose(bg2, true, fixed, pairs).qc_compact);
        bg2.qc_entries = 6 * 42;
        BOOST_CHECK(kernels::min_sum_choose(bg2, true, fixed, pairs).qc_compact);
        kernels::min_sum_choice c = pairs;
        c.l2_bytes = 100 << 20;
        BOOST_CHECK(!kernels::min_sum_choose(nr, true, fixed, c).qc_compact);
        c.quasi_cyclic_compact = 2;
        BOOST_CHECK(kernels::min_sum_choose(rows8, true, fixed, c).qc_compact);
        c = pairs;
        c.quasi_cyclic_compact = 0;
        v = kernels::min_sum_choose(nr, true, fixed, c);
        BOOST_CHECK(v.qc_half && !v.qc_compact);
        BOOST_CHECK(!kernels::min_sum_kernel_of(nr, v, true).qc_compact);
        c = pairs;
        c.l2_bytes = 0;
        BOOST_CHECK(kernels::min_sum_choose(rows8, true, fixed, c).qc_compact);
        c.quasi_cyclic_compact = 3;
        BOOST_CHECK_THROW(kernels::min_sum_choose(nr, true, fixed, c),
                          std::invalid_argument);
        // compact words are fp16 pairs'
        kernels::min_sum_choice integer = pairs;
        integer.quasi_cyclic_half = false;
        integer.quasi_cyclic_compact = 2;
        v = kernels::min_sum_choose(nr, true, fixed, integer);
        BOOST_CHECK(!v.qc_half && !v.qc_compact);
        v.qc_compact = true;
        BOOST_CHECK_THROW(kernels::min_sum_check_variant(nr, v, true),
                          std::invalid_argument);
    }
    kernels::min_sum_choice integer = pairs;
    integer.quasi_cyclic_half = false;
    v = kernels::min_sum_choose(nr, true, fixed, integer);
    BOOST_CHECK(v.quasi_cyclic && v.wide_pairs && v.qc_unrolled && !v.qc_half);
    // the unrolled kernels' rows (16 bytes each) and scaled blocks (8 each)
    // beside the records
    BOOST_CHECK_EQUAL(
        v.shared_bytes,
        kernels::binary::qc_shared_bytes(nr.n, 2, nr.qc_rows, nr.qc_entries, false) +
            16 * nr.qc_rows + kernels::binary::align_up(8 * nr.qc_entries, 16));
    BOOST_CHECK(kernels::min_sum_kernel_of(nr, v, true).arithmetic ==
                kernels::min_sum_arithmetic::fixed8_wide_pairs);
    BOOST_CHECK_EQUAL(kernels::min_sum_describe(v, false),
                      "8-bit min-sum, quasi-cyclic: a base row's checks at once (checks "
                      "unrolled for the base graph's row degrees), beliefs on chip, "
                      "compressed check messages in device memory, 264 blocks at most, "
                      "two frames a lane in 16-bit integer pairs, 2 frames a group, 384 "
                      "threads a block");
    kernels::min_sum_choice off = pairs;
    off.quasi_cyclic_unrolled = false;
    v = kernels::min_sum_choose(nr, true, fixed, off);
    BOOST_CHECK(v.quasi_cyclic && v.wide_pairs && !v.qc_unrolled && !v.qc_half);
    BOOST_CHECK_EQUAL(kernels::min_sum_kernel_of(nr, v, true).qc_profile, 0u);
    BOOST_CHECK_EQUAL(
        v.shared_bytes,
        kernels::binary::qc_shared_bytes(nr.n, 2, nr.qc_rows, nr.qc_entries, false));
    off = pairs;
    off.wide_pairs = false;
    BOOST_CHECK(!kernels::min_sum_choose(nr, true, fixed, off).qc_unrolled);
    // smaller lifting sizes: the family before the on-chip groups, the
    // smallest group of up to 8 lanes and 2 warps or more that keeps
    // min_sum_qc_resident_warps warps resident an SM
    auto lanes_of = [&](const kernels::min_sum_graph& graph,
                        const kernels::min_sum_choice& c) {
        const auto chosen = kernels::min_sum_choose(graph, true, fixed, c);
        BOOST_CHECK(chosen.quasi_cyclic && chosen.wide_pairs && chosen.qc_unrolled);
        return chosen.quasi_cyclic && chosen.qc_unrolled
                   ? kernels::min_sum_kernel_of(graph, chosen, true).lanes
                   : 0u;
    };
    // the warps that groups of lanes lanes leave resident an SM
    auto warps = [&](const kernels::min_sum_graph& graph, unsigned lanes) {
        kernels::min_sum_choice c = pairs;
        c.lanes = lanes;
        const auto chosen = kernels::min_sum_choose(graph, true, fixed, c);
        BOOST_CHECK(chosen.quasi_cyclic && chosen.qc_unrolled);
        BOOST_CHECK_EQUAL(chosen.frames, 2 * lanes);
        return size_t(chosen.blocks / pairs.sms) * (chosen.threads / 32);
    };
    auto smallest_busy = [&](const kernels::min_sum_graph& graph) {
        const unsigned lanes = lanes_of(graph, pairs);
        BOOST_CHECK(lanes >= 1 && lanes <= 8);
        BOOST_CHECK_GE(warps(graph, lanes), kernels::min_sum_qc_resident_warps);
        for (unsigned other = 1; other < lanes; other *= 2)
            if (other * graph.qc_z > 32)
                BOOST_CHECK_LT(warps(graph, other), kernels::min_sum_qc_resident_warps);
        return lanes;
    };
    kernels::min_sum_graph z64 = nr;
    z64.qc_z = 64;
    z64.n = 68 * 64;
    smallest_busy(z64);
    kernels::min_sum_choice first = pairs;
    first.quasi_cyclic_first = true;
    kernels::min_sum_graph z15 = nr;
    z15.qc_z = 15;
    z15.n = 68 * 15;
    // Z = 15: groups of 1 and 2 lanes fill less than a warp (and 2 warps),
    // passed over for those of 4 or 8 (64 or 128 threads)
    BOOST_CHECK_GE(lanes_of(z15, pairs), 4u);
    BOOST_CHECK_GE(lanes_of(z15, first), 4u);
    // choice.lanes takes that group where it fits: 16 lanes of 15 checks
    // exceed the unrolled kernels' 8, and go to the loop kernel in pairs
    // (z15 keeps BG1 Z = 384's checks and edges: no on-chip group fits)
    kernels::min_sum_choice sixteen = pairs;
    sixteen.lanes = 16;
    v = kernels::min_sum_choose(z15, true, fixed, sixteen);
    BOOST_CHECK(v.quasi_cyclic && v.wide_pairs && !v.qc_unrolled);
    BOOST_CHECK_EQUAL(v.frames, 32u);
    // where that group does not fit (Z = 384: 16 lanes of 384 checks), the
    // family's own choice
    v = kernels::min_sum_choose(nr, true, fixed, sixteen);
    BOOST_CHECK(v.quasi_cyclic && v.qc_unrolled);
    BOOST_CHECK_EQUAL(v.frames, 2u);
    // IEEE 802.11n n = 1944 (Z = 81, rows of up to 16 blocks): one lane of
    // 81 checks in 96 threads keeps warps enough resident, and is chosen
    // before the on-chip group of fp16 pairs
    const kernels::min_sum_graph wifi =
        base_matrix(code_shape(1944, 972, 88 * 81, 11, 8, 12),
                    81,
                    12,
                    88,
                    8,
                    kernels::binary::qc_profile_any16);
    v = kernels::min_sum_choose(wifi, true, fixed, pairs);
    BOOST_CHECK(v.quasi_cyclic && v.qc_unrolled && v.qc_half);
    BOOST_CHECK_EQUAL(v.frames, 2u);
    BOOST_CHECK_EQUAL(v.threads, 96u);
    BOOST_CHECK_EQUAL(smallest_busy(wifi), 1u);
    // rate 5/6: rows of 19 to 20 blocks (n = 1944, any20) and of 21 and 22
    // (n = 648, any24) take the unrolled kernel in fp16 pairs as well
    const kernels::min_sum_graph wifi56 =
        base_matrix(code_shape(1944, 324, 79 * 81, 4, 20, 4),
                    81,
                    4,
                    79,
                    20,
                    kernels::binary::qc_profile_any20);
    v = kernels::min_sum_choose(wifi56, true, fixed, pairs);
    BOOST_CHECK(v.quasi_cyclic && v.qc_unrolled && v.qc_half);
    const kernels::min_sum_graph wifi648_56 =
        base_matrix(code_shape(648, 108, 88 * 27, 4, 22, 4),
                    27,
                    4,
                    88,
                    22,
                    kernels::binary::qc_profile_any24);
    v = kernels::min_sum_choose(wifi648_56, true, fixed, pairs);
    BOOST_CHECK(v.quasi_cyclic && v.qc_unrolled && v.qc_half);
    // without 16-bit pair instructions (before sm_90) the on-chip group;
    // and where choice.lanes asks for another group than the family's (8
    // lanes of 81 checks do not fit its blocks) that group on chip
    kernels::min_sum_choice older = pairs;
    older.wide_pairs = false;
    BOOST_CHECK(kernels::min_sum_choose(wifi, true, fixed, older).on_chip);
    kernels::min_sum_choice eight = pairs;
    eight.lanes = 8;
    v = kernels::min_sum_choose(wifi, true, fixed, eight);
    BOOST_CHECK(v.on_chip && v.frames == 16);
    // a value that is no group (3) is not taken
    eight.lanes = 3;
    v = kernels::min_sum_choose(wifi, true, fixed, eight);
    BOOST_CHECK(v.quasi_cyclic && v.frames == 2);
    // Z = 2 (5G NR BG1, 136 bits): 8 lanes fill half a warp; the on-chip
    // group comes first
    kernels::min_sum_graph tiny = z15;
    tiny.qc_z = 2;
    tiny.n = 68 * 2;
    tiny.checks = 46 * 2;
    tiny.edges = 316 * 2;
    BOOST_CHECK(kernels::min_sum_choose(tiny, true, fixed, pairs).on_chip);
    // CCSDS AR4JA k = 4096 rate 1/2 (Z = 512: more checks a row than the
    // pair kernels' blocks take): the strided instance, two checks a thread
    // in 256 threads; without it the family's frame a lane gives way to the
    // split variant in pairs, and is taken where that is off; at Z = 128 (k
    // = 1024) the unrolled kernel in pairs
    kernels::min_sum_graph ar4ja =
        base_matrix(code_shape(10240, 6144, 60 * 512, 6, 6, 12),
                    512,
                    12,
                    60,
                    6,
                    kernels::binary::qc_profile_any16);
    const kernels::min_sum_record slot_record{};
    ar4ja.slot_edges = &record;
    ar4ja.slot_variables = &slot_record;
    ar4ja.longest_run = 512;
    v = kernels::min_sum_choose(ar4ja, true, fixed, pairs);
    BOOST_CHECK(v.quasi_cyclic && v.qc_unrolled && v.qc_half && v.qc_strided);
    BOOST_CHECK_EQUAL(v.frames, 2u);
    BOOST_CHECK_EQUAL(v.threads, 256u);
    BOOST_CHECK_NO_THROW(kernels::min_sum_check_variant(ar4ja, v, true));
    {
        const auto key = kernels::min_sum_kernel_of(ar4ja, v, true);
        BOOST_CHECK(key.qc_strided && key.lanes == 1);
        BOOST_CHECK(key.arithmetic == kernels::min_sum_arithmetic::fixed8_pairs);
    }
    BOOST_CHECK(kernels::min_sum_describe(v, false).find("several checks a thread") !=
                std::string::npos);
    // Z = 1000: three checks a thread (the last ones two) in 352 threads;
    // rows of up to 20 blocks (any20) too, not of 21 to 24 (any24: no such
    // instances)
    kernels::min_sum_graph z1000 = ar4ja;
    z1000.qc_z = 1000;
    z1000.n = 20 * 1000;
    v = kernels::min_sum_choose(z1000, true, fixed, pairs);
    BOOST_CHECK(v.qc_strided && v.threads == 352);
    z1000.qc_profile = kernels::binary::qc_profile_any20;
    BOOST_CHECK(kernels::min_sum_choose(z1000, true, fixed, pairs).qc_strided);
    z1000.qc_profile = kernels::binary::qc_profile_any24;
    BOOST_CHECK(!kernels::min_sum_choose(z1000, true, fixed, pairs).qc_strided);
    BOOST_CHECK(!kernels::min_sum_qc_strided_profile(1) &&
                !kernels::min_sum_qc_strided_profile(2));
    // where an SM keeps fewer than 16 warps of it (Z = 1000, 160 KB of pair
    // beliefs: one block of 11 warps), the split variant in pairs where the
    // checks have compact records; strided where they have none (rows of
    // checks of 10 edges: CCSDS AR4JA k = 16384 rate 2/3)
    z1000.qc_profile = kernels::binary::qc_profile_any16;
    z1000.n = 40000;
    v = kernels::min_sum_choose(z1000, true, fixed, pairs);
    BOOST_CHECK(!v.qc_strided && v.split && v.pairs);
    z1000.slot_edges = nullptr;
    z1000.slot_variables = nullptr;
    v = kernels::min_sum_choose(z1000, true, fixed, pairs);
    BOOST_CHECK(v.qc_strided && v.threads == 352);
    // a variant asking for it elsewhere is refused: integer pairs, Z that
    // the blocks take, a profile without instances
    {
        auto strided = kernels::min_sum_choose(ar4ja, true, fixed, pairs);
        auto bad = strided;
        bad.qc_half = false;
        BOOST_CHECK_THROW(kernels::min_sum_check_variant(ar4ja, bad, true),
                          std::invalid_argument);
        kernels::min_sum_graph z384 = ar4ja;
        z384.qc_z = 384;
        BOOST_CHECK_THROW(kernels::min_sum_check_variant(z384, strided, true),
                          std::invalid_argument);
        kernels::min_sum_graph nr_like = ar4ja;
        nr_like.qc_profile = 1;
        BOOST_CHECK_THROW(kernels::min_sum_check_variant(nr_like, strided, true),
                          std::invalid_argument);
    }
    kernels::min_sum_choice unstrided = pairs;
    unstrided.quasi_cyclic_strided = false;
    v = kernels::min_sum_choose(ar4ja, true, fixed, unstrided);
    BOOST_CHECK(!v.quasi_cyclic && v.split && v.pairs);
    kernels::min_sum_choice no_split = unstrided;
    no_split.split = false;
    v = kernels::min_sum_choose(ar4ja, true, fixed, no_split);
    BOOST_CHECK(v.quasi_cyclic && !v.pairs && v.threads == 512);
    // a frame a lane for want of 16-bit pair instructions (before sm_90), Z
    // = 384: not weighed against the split variant, the family as before
    kernels::min_sum_choice older_pairs = pairs;
    older_pairs.wide_pairs = false;
    kernels::min_sum_graph z384 = ar4ja;
    z384.qc_z = 384;
    v = kernels::min_sum_choose(z384, true, fixed, older_pairs);
    BOOST_CHECK(v.quasi_cyclic && !v.pairs && v.threads == 384);
    ar4ja.qc_z = 128;
    ar4ja.n = 2560;
    ar4ja.checks = 1536;
    ar4ja.edges = 60 * 128;
    ar4ja.longest_run = 128;
    v = kernels::min_sum_choose(ar4ja, true, fixed, pairs);
    BOOST_CHECK(v.quasi_cyclic && v.qc_unrolled && v.pairs);
    // a variant that asks for it where the graph has no profile: refused
    kernels::min_sum_graph plain = nr;
    plain.qc_profile = 0;
    v = kernels::min_sum_choose(nr, true, fixed, pairs);
    BOOST_CHECK_THROW(kernels::min_sum_kernel_of(plain, v, true), std::invalid_argument);
}
