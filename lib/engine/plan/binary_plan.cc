/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Host-side planning of the binary GPU decoder (kernels/binary/plan.h): the
// compact check records, the sizes of a group's state and of a launch's
// workspace, and the choice of a variant for a code on a device. Plain C++,
// in every build.

#include "../fixed_point_rule.h"
#include "binary/plan.h"
#include "binary/qc_profiles.h"
#include "binary/state_layout.h"
#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace kernels {

static_assert(min_sum_fixed8_belief_limit == detail::fixed_point_belief_limit,
              "the CPU reference and the GPU decoder limit beliefs alike");
static_assert(min_sum_three_smallest_offset_degree ==
                  detail::three_smallest_offset_degree,
              "the CPU reference and the GPU decoder offset the same checks");

bool min_sum_three_smallest_steps(const int8_t* f, size_t count, uint16_t steps[3])
{
    if (f == nullptr || count == 0 || count > 0xffff || f[0] > 3)
        return false;
    for (size_t x = 0; x < count; ++x)
        if (f[x] < 0 || (x > 0 && f[x] > f[x - 1]))
            return false;
    for (int j = 0; j < 3; ++j) {
        size_t above = 0;
        while (above < count && f[above] > j)
            ++above;
        steps[j] = uint16_t(above);
    }
    return true;
}

using binary::align_up;
using binary::block_kernel_registers;
using binary::counter_bytes;
using binary::grid_threads;
using binary::max_block_frames;
using binary::state_layout;

namespace {

// pairs: bits of this degree at most (exact fp16 sums)
constexpr unsigned max_pair_degree = 14;
// pairs on chip, layered: runs of this many checks at least on average
constexpr unsigned min_pair_run = 16;
// threads a block at least, flooding on chip
constexpr unsigned min_flooding_threads = 128;
// layered on chip: of groups with as many frames an SM, one whose block has
// this many threads at least
constexpr unsigned min_layered_threads = 96;
// lanes a group, in the order the choice of a variant tries them
constexpr std::array<unsigned, 6> smaller_first{ 1, 2, 4, 8, 16, 32 };
constexpr std::array<unsigned, 6> short_run_lanes{ 32, 16, 8, 0, 0, 0 };
// split: warps of an SM busy in a step at least (the blocks it holds times a
// run's checks over 32). H100, DVB-S2 rate 1/2 in runs of 360 checks (11
// warps) 0.6x the global variant; 16200 bits (22) 1.6x
constexpr size_t min_split_warps = 16;

} // namespace

bool min_sum_full_records(size_t checks, size_t edges, bool layered, bool on_chip)
{
    // H100: on chip, checks of 7 or 8 edges (Wi-Fi n = 1944) 1.12x, of 6
    // edges ((3,6) n = 1008) 0.93x; the global variant's DVB-S2 rate 1/2
    // (checks of 5.4 and 7 edges) 1.04x and 1.07x
    return layered && checks > 0 && (!on_chip || edges >= 7 * checks);
}

bool min_sum_compact_usable(unsigned n, unsigned max_check_degree, size_t edges)
{
    return n <= 65536 && max_check_degree <= min_sum_compact_degree &&
           edges < (size_t(1) << 28);
}

void min_sum_compact_checks(const uint32_t* check_offsets,
                            const uint32_t* edge_variable,
                            const uint32_t* order,
                            size_t checks,
                            unsigned n,
                            std::vector<uint32_t>& slot_edges,
                            std::vector<uint16_t>& slot_variables)
{
    constexpr unsigned D = min_sum_compact_degree;
    static_assert(D == 8, "a check's bits fill one min_sum_record");
    if (n > 65536)
        throw std::invalid_argument("min_sum_compact_checks: n=" + std::to_string(n) +
                                    " has no compact records; allowed: n <= 65536");
    slot_edges.assign(checks, 0);
    slot_variables.assign(checks * D, 0);
    for (size_t slot = 0; slot < checks; ++slot) {
        const uint32_t c = order[slot];
        if (c >= checks)
            throw std::invalid_argument("min_sum_compact_checks: order[" +
                                        std::to_string(slot) + "]=" + std::to_string(c) +
                                        " is not a check; allowed: below " +
                                        std::to_string(checks));
        const uint32_t e0 = check_offsets[c], deg = check_offsets[c + 1] - e0;
        if (deg > D || e0 >= (1u << 28))
            throw std::invalid_argument(
                "min_sum_compact_checks: check " + std::to_string(c) + " (degree " +
                std::to_string(deg) + ", first edge " + std::to_string(e0) +
                ") has no compact record; allowed: degree <= " + std::to_string(D) +
                ", edges < 2^28");
        slot_edges[slot] = e0 | deg << 28;
        for (uint32_t i = 0; i < deg; ++i)
            slot_variables[slot * D + i] = uint16_t(edge_variable[e0 + i]);
    }
}

bool min_sum_quasi_cyclic_usable(const min_sum_graph& g, bool layered, binary_rule rule)
{
    return layered && binary::is_fixed_point(rule) && g.qc_z >= 1 && g.qc_z <= 1024 &&
           g.qc_rows >= 1 && g.qc_row_offsets && g.qc_blocks &&
           g.qc_max_row_degree >= 1 && g.qc_max_row_degree <= min_sum_qc_max_row_degree;
}

bool min_sum_qc_strided_profile(unsigned profile)
{
    return profile == binary::qc_profile_any16 || profile == binary::qc_profile_any20;
}

void min_sum_qc_records(const int32_t* shifts,
                        unsigned rows,
                        unsigned cols,
                        unsigned z,
                        std::vector<uint32_t>& row_offsets,
                        std::vector<uint32_t>& blocks)
{
    if (z == 0 || z > 0xffff || cols > 0xffff)
        throw std::invalid_argument(
            "min_sum_qc_records: z=" + std::to_string(z) +
            ", cols=" + std::to_string(cols) + "; allowed: 1 .. 65535 each");
    row_offsets.assign(1, 0);
    blocks.clear();
    for (unsigned i = 0; i < rows; ++i) {
        for (unsigned j = 0; j < cols; ++j) {
            const int32_t s = shifts[size_t(i) * cols + j];
            if (s < -1 || s >= int32_t(z))
                throw std::invalid_argument(
                    "min_sum_qc_records: shift " + std::to_string(s) + " at (" +
                    std::to_string(i) + ", " + std::to_string(j) +
                    "); allowed: -1 (no block) or 0 .. z - 1 = " + std::to_string(z - 1));
            if (s >= 0)
                blocks.push_back(j << 16 | uint32_t(s));
        }
        row_offsets.push_back(uint32_t(blocks.size()));
    }
}

unsigned
min_sum_qc_limited_first(const uint32_t* row_offsets, uint32_t* blocks, unsigned rows)
{
    std::vector<unsigned> column_blocks;
    for (uint32_t e = 0; e < row_offsets[rows]; ++e) {
        const uint32_t j = blocks[e] >> 16;
        if (j >= column_blocks.size())
            column_blocks.resize(j + 1, 0);
        ++column_blocks[j];
    }
    unsigned most = 0;
    for (unsigned i = 0; i < rows; ++i) {
        uint32_t* const first = blocks + row_offsets[i];
        uint32_t* const end = blocks + row_offsets[i + 1];
        const uint32_t* const rest = std::stable_partition(first, end, [&](uint32_t b) {
            return column_blocks[b >> 16] >= min_sum_limited_degree;
        });
        most = std::max(most, unsigned(rest - first));
    }
    return most;
}

unsigned
min_sum_qc_profile_of(const uint32_t* row_offsets, unsigned rows, unsigned limited)
{
    if (rows == 0)
        return 0;
    for (const unsigned profile : { 1u, 2u }) {
        if (rows > binary::qc_profile_rows(profile) ||
            limited > binary::qc_profile_limited_positions(profile))
            continue;
        bool same = true;
        for (unsigned i = 0; i < rows && same; ++i)
            same = row_offsets[i + 1] - row_offsets[i] ==
                   binary::qc_profile_degree(profile, i);
        if (same)
            return profile;
    }
    // other base matrices: rows of up to 16, 20 or 24 blocks (the first
    // that holds them), and few enough rows for min_sum_qc_sync_rows()
    if (rows > 64)
        return 0;
    for (const unsigned profile : { binary::qc_profile_any16,
                                    binary::qc_profile_any20,
                                    binary::qc_profile_any24 }) {
        bool fits = limited <= binary::qc_profile_limited_positions(profile);
        for (unsigned i = 0; i < rows && fits; ++i)
            fits = binary::qc_profile_has_degree(profile,
                                                 row_offsets[i + 1] - row_offsets[i]);
        if (fits)
            return profile;
    }
    return 0;
}

uint64_t
min_sum_qc_sync_rows(const uint32_t* row_offsets, const uint32_t* blocks, unsigned rows)
{
    if (rows > 64)
        throw std::invalid_argument("min_sum_qc_sync_rows: rows=" + std::to_string(rows) +
                                    "; allowed: 0 .. 64");
    uint64_t sync = 0;
    std::vector<uint32_t> since; // the columns of the rows since the last sync
    for (unsigned i = 0; i < rows; ++i) {
        std::vector<uint32_t> columns;
        for (uint32_t e = row_offsets[i]; e < row_offsets[i + 1]; ++e)
            columns.push_back(blocks[e] >> 16);
        const bool shares =
            i == 0 || std::any_of(columns.begin(), columns.end(), [&](uint32_t c) {
                return std::find(since.begin(), since.end(), c) != since.end();
            });
        if (shares) {
            sync |= uint64_t(1) << i;
            since.clear();
        }
        since.insert(since.end(), columns.begin(), columns.end());
    }
    return sync;
}

size_t min_sum_state_bytes(const min_sum_graph& g,
                           bool layered,
                           binary_rule rule,
                           unsigned frames,
                           bool compressed)
{
    return state_layout(g.n, g.edges, g.checks, layered, rule, frames, compressed).bytes;
}

bool min_sum_compressed_usable(const min_sum_graph& g, bool layered, binary_rule rule)
{
    return layered && rule == binary_rule::fixed_min_sum && g.slot_edges != nullptr &&
           g.slot_variables != nullptr;
}

size_t min_sum_global_batch(const min_sum_graph& g,
                            const min_sum_variant& v,
                            bool layered,
                            size_t grid_blocks)
{
    // a step's items (a run's checks, or all checks), a warp each for a
    // group: twice the grid's warps
    const size_t warps = grid_blocks * (grid_threads / 32);
    const size_t items = std::max<size_t>(
        1, layered && g.runs > 0 ? (g.checks + g.runs - 1) / g.runs : g.checks);
    return (2 * warps + items - 1) / items * v.frames;
}

size_t min_sum_max_global_frames(const min_sum_graph& g)
{
    // the grid's indices over frames x bits and frames x edges are 32-bit
    // (the state has a bit and a message more than the code)
    const size_t per_frame = std::max<size_t>({ g.n + 1, g.k, g.edges + 1 });
    // whole groups of pairs, so that a last group rounded up stays in range
    constexpr size_t whole = 2 * max_block_frames;
    const size_t fit = size_t(UINT32_MAX) / per_frame;
    return fit > 2 * whole ? (fit - whole) / whole * whole : whole;
}

size_t min_sum_workspace_bytes(const min_sum_variant& v, size_t n_frames)
{
    const size_t groups = (n_frames + v.frames - 1) / v.frames;
    if (v.split || v.quasi_cyclic)
        return std::min<size_t>(groups, v.blocks) * v.message_bytes;
    if (v.on_chip)
        return 0;
    // the group states, then 4 counters a frame and the count of live frames
    return align_up(groups * v.state_bytes, 16) + 4 * sizeof(uint32_t) * n_frames +
           sizeof(int);
}

namespace {

min_sum_variant on_chip_variant(const min_sum_graph& g,
                                bool layered,
                                binary_rule rule,
                                unsigned lanes,
                                unsigned per_lane,
                                bool compressed)
{
    min_sum_variant v{};
    v.rule = rule;
    v.pairs = per_lane == 2;
    v.on_chip = true;
    v.frames = lanes * per_lane;
    v.threads = 32;
    v.compressed = compressed;
    v.state_bytes = min_sum_state_bytes(g, layered, rule, v.frames, compressed);
    v.shared_bytes = v.state_bytes;
    return v;
}

} // namespace

size_t
min_sum_blocks_per_sm(const min_sum_variant& v, const min_sum_sm& sm, unsigned registers)
{
    const size_t per_block =
        v.shared_bytes + counter_bytes(v.frames) + sm.reserved_per_block;
    const size_t warps = std::max<size_t>((v.threads + 31) / 32, 1);
    const size_t warp_registers = align_up(size_t(std::max(registers, 1u)) * 32, 256);
    return std::min({ sm.shared_bytes / per_block,
                      size_t(sm.threads) / (32 * warps),
                      size_t(sm.registers) / (warp_registers * warps),
                      size_t(sm.blocks) });
}

min_sum_variant min_sum_choose(const min_sum_graph& g,
                               bool layered,
                               binary_rule rule,
                               const min_sum_choice& choice)
{
    const min_sum_sm& sm = choice.sm;
    auto registers = [&](const min_sum_variant& v) {
        return choice.registers ? choice.registers(v) : block_kernel_registers;
    };
    const bool pairs = choice.pairs && min_sum_pairs_exact(g, rule);
    const bool compressed =
        choice.compressed && min_sum_compressed_usable(g, layered, rule);
    const bool compressed_on_chip = compressed && choice.compressed_on_chip;
    // layered: the checks of a run at once, a lane each
    const size_t run_checks =
        layered && g.runs > 0 ? (g.checks + g.runs - 1) / g.runs : 0;
    // Runs of few checks keep few warps busy, and a pair lane's check takes
    // longer: there one frame a lane in groups of 8 lanes or more (the (3,6)
    // n = 1008 code, runs of 7 checks, H100: 32 lanes of one frame 4.15
    // Gbit/s; 1, 2 or 4 lanes of pairs 2.5 to 2.9)
    const bool short_runs = layered && g.runs > 0 && run_checks < min_pair_run;

    // The threads of a block of v (flooding, and layered short runs): as
    // many as keep the blocks an SM holds by its shared memory (as far as
    // threads and registers allow), at least 128 (a check step has checks
    // enough for them); a multiple of 32 up to 1024.
    auto block_threads = [&](min_sum_variant v) {
        const size_t per_block =
            v.shared_bytes + counter_bytes(v.frames) + sm.reserved_per_block;
        const size_t by_shared =
            std::max<size_t>(1, std::min<size_t>(sm.shared_bytes / per_block, sm.blocks));
        const unsigned r = registers(v);
        unsigned fill = 32;
        for (unsigned t = 1024; t > 32; t -= 32) {
            v.threads = t;
            if (min_sum_blocks_per_sm(v, sm, r) >= by_shared) {
                fill = t;
                break;
            }
        }
        return unsigned(
            std::clamp<size_t>(std::max<size_t>(fill, min_flooding_threads), 32, 1024));
    };

    // Quasi-cyclic: a base row's checks at once, a lane each; with checks
    // unrolled by degree the group of up to 8 lanes chosen below, else
    // groups whose lanes give a block min_sum_qc_threads threads (5G NR Z =
    // 384: one lane, a frame or a pair, a block of 384 threads; Z = 2: 32
    // lanes of 64 threads); choice.lanes, where that group fits
    // Two frames a lane in 16-bit integer pairs where the caller allows them
    // (choice.wide_pairs: native s16x2 instructions) and their beliefs fit:
    // a check's addresses and instructions serve both.
    const bool three = rule == binary_rule::fixed_three_smallest;
    // the three-smallest rule in fp16 pairs: checks unrolled, rows whose
    // positions its word holds
    const bool three_pairs =
        three && choice.quasi_cyclic_unrolled && choice.quasi_cyclic_half &&
        choice.three_smallest_pairs && g.qc_profile != 0 &&
        binary::qc_profile_max_degree(g.qc_profile) <= min_sum_qc_three_pair_degree;
    if (choice.quasi_cyclic_compact > 2)
        throw std::invalid_argument(
            "min_sum_choose: choice.quasi_cyclic_compact=" +
            std::to_string(choice.quasi_cyclic_compact) +
            "; allowed: 0 (never), 1 (where the words outgrow L2), 2 (always)");
    // The variant of the family for groups of lanes lanes, per_lane frames
    // a lane; false where its block does not fit.
    auto qc_variant = [&](unsigned lanes, unsigned per_lane, min_sum_variant& v) {
        // the kernels with checks unrolled by degree keep their rows and
        // scaled blocks beside the records
        // (the three-smallest rule: in fp16 pairs or a frame a lane in
        // integers, a lane a check in blocks of up to
        // min_sum_qc_pair_threads threads; its pairs only so)
        const bool unrolled =
            choice.quasi_cyclic_unrolled && (per_lane == 2 || three) &&
            g.qc_profile != 0 && lanes <= min_sum_qc_unrolled_lanes &&
            (!three || size_t(lanes) * g.qc_z <= min_sum_qc_pair_threads);
        if (three && per_lane == 2 && !(unrolled && three_pairs))
            return false;
        const size_t most = per_lane == 2 || unrolled ? min_sum_qc_pair_threads : 1024;
        // a row's checks more than a block's threads: the strided kernel,
        // ceil(Z / most) checks a thread, in as few threads as that needs
        const bool strided = unrolled && !three && choice.quasi_cyclic_half &&
                             choice.quasi_cyclic_strided && lanes == 1 && g.qc_z > most &&
                             min_sum_qc_strided_profile(g.qc_profile);
        const unsigned frames = lanes * per_lane;
        const size_t shared =
            binary::qc_shared_bytes(g.n, frames, g.qc_rows, g.qc_entries, unrolled);
        if ((!strided && size_t(lanes) * g.qc_z > most) ||
            shared + counter_bytes(frames) > choice.shared_limit)
            return false;
        v = min_sum_variant{};
        v.rule = rule;
        v.quasi_cyclic = true;
        v.pairs = v.wide_pairs = per_lane == 2;
        v.qc_unrolled = unrolled;
        v.qc_half =
            v.qc_unrolled && choice.quasi_cyclic_half && (!three || per_lane == 2);
        v.qc_strided = strided;
        v.frames = frames;
        const size_t per_thread = strided ? (g.qc_z + most - 1) / most : 1;
        v.threads = unsigned(
            align_up((size_t(lanes) * g.qc_z + per_thread - 1) / per_thread, 32));
        v.shared_bytes = shared;
        // (the three-smallest rule: 16 bytes a frame a check, in fp16 pairs
        // a byte a frame an edge)
        v.message_bytes =
            three && per_lane == 2
                ? binary::qc_edge_message_bytes(g.qc_rows, g.qc_entries, g.qc_z, frames)
                : binary::qc_message_bytes(g.qc_rows, g.qc_z, frames, three ? 16 : 8);
        v.state_bytes = v.shared_bytes + v.message_bytes;
        auto resident = [&] {
            const size_t per_sm = min_sum_blocks_per_sm(v, sm, registers(v));
            return unsigned(std::max<size_t>(per_sm, 1) * std::max(choice.sms, 1u));
        };
        v.blocks = resident();
        // compact words (8 bytes a pair a check for rows of up to 12
        // blocks) where the 16-byte words of the resident blocks would
        // outgrow L2 and rows average 6 blocks or more (measured on two
        // codes, H100, same run: 5G NR BG1 Z = 384 at 46 rows, 74 MB of
        // words, 6.9 blocks a row, 5.69 -> 6.07 Gbit/s, early
        // termination 5.17 -> 5.17; BG2 at 42 rows, 68 MB, 4.7 blocks a
        // row, 3.46 -> 3.49 but early termination 3.56 -> 3.31; BG1 at 8
        // rows, 13 MB, 21.1 -> 20.3)
        const bool outgrows_l2 =
            choice.l2_bytes == 0 || v.message_bytes * v.blocks > choice.l2_bytes;
        v.qc_compact = v.qc_half && !three &&
                       (choice.quasi_cyclic_compact == 2 ||
                        (choice.quasi_cyclic_compact == 1 && outgrows_l2 &&
                         g.qc_entries >= min_sum_qc_compact_row_blocks * g.qc_rows));
        // the blocks its kernel's registers leave resident
        if (v.qc_compact)
            v.blocks = resident();
        return true;
    };
    // blocks of fewer threads leave a warp's lanes idle
    constexpr unsigned qc_roomy_threads = 2 * 32;
    auto quasi_cyclic = [&](min_sum_variant& v) {
        if (!choice.on_chip || !choice.quasi_cyclic ||
            !min_sum_quasi_cyclic_usable(g, layered, rule))
            return false;
        // (the three-smallest rule: fp16 pairs where three_pairs, else a
        // frame a lane)
        const bool allow_pairs = choice.pairs && choice.wide_pairs &&
                                 (rule == binary_rule::fixed_min_sum || three_pairs);
        // choice.lanes: that group where it fits (1, 2, 4 ... 32; other
        // values fit no group), else the family's own
        const bool lanes_valid = choice.lanes != 0 &&
                                 (choice.lanes & (choice.lanes - 1)) == 0 &&
                                 choice.lanes <= max_block_frames;
        for (const unsigned per_lane : { allow_pairs ? 2u : 1u, 1u }) {
            if (lanes_valid && qc_variant(choice.lanes, per_lane, v))
                return true;
            if (choice.quasi_cyclic_unrolled && (per_lane == 2 || three) &&
                g.qc_profile != 0) {
                // checks unrolled by degree: of the groups of up to
                // min_sum_qc_unrolled_lanes lanes whose blocks have 2 warps
                // or more, the smallest that keeps
                // min_sum_qc_resident_warps warps resident an SM (fewer
                // frames a group: under early termination a group waits for
                // its slowest); where none does, the one with the most
                // checks' lanes resident. H100, same run, Gbit/s at 10
                // iterations / early termination, groups of 1, 2, 4 lanes:
                // Wi-Fi n = 1944 rate 2/3 (Z = 81; 24, 24, 22 warps) 16.7 /
                // 18.3, 16.4 / 16.2, 17.2 / 14.2; n = 648 rate 3/4 (Z = 27;
                // one warp, 24, 24) 17.9 / 17.6, 19.1 / 17.6, 19.7 / 17.0;
                // 5G NR BG1 Z = 64 (16, 20, 24 warps) 6.4 / 4.2, 7.3 / 4.5,
                // 7.3 / 3.9; BG2 Z = 32 (one warp, 24, 28) 3.2 / 2.3, 3.4 /
                // 2.4, 3.4 / 1.9
                min_sum_variant best{};
                size_t best_busy = 0;
                bool found = false, best_roomy = false;
                for (unsigned lanes = 1; lanes <= min_sum_qc_unrolled_lanes; lanes *= 2) {
                    min_sum_variant c{};
                    // (three-smallest: groups whose checks exceed the unrolled
                    // blocks' threads take the loop kernel, weighed below)
                    if (!qc_variant(lanes, per_lane, c) || !c.qc_unrolled)
                        continue;
                    const bool roomy = c.threads >= qc_roomy_threads;
                    const size_t per_sm = min_sum_blocks_per_sm(c, sm, registers(c));
                    if (roomy && per_sm * (c.threads / 32) >= min_sum_qc_resident_warps) {
                        v = c;
                        return true;
                    }
                    const size_t busy = per_sm * lanes * g.qc_z;
                    if (!found || (roomy && !best_roomy) ||
                        (roomy == best_roomy && busy > best_busy)) {
                        best = c;
                        best_busy = busy;
                        best_roomy = roomy;
                        found = true;
                    }
                }
                if (found) {
                    v = best;
                    return true;
                }
            }
            // the group that gives min_sum_qc_threads threads, halved until
            // its block fits
            unsigned lanes = 1;
            while (lanes < max_block_frames &&
                   size_t(lanes) * g.qc_z < min_sum_qc_threads)
                lanes *= 2;
            for (; lanes >= 1; lanes /= 2)
                if (qc_variant(lanes, per_lane, v))
                    return true;
        }
        return false;
    };
    // The family before the on-chip groups where its checks are unrolled by
    // degree (H100, same run, Gbit/s at 10 iterations / early termination,
    // on chip against quasi-cyclic: Wi-Fi n = 1944 rate 1/2 10.3 / 7.3
    // against 11.7 / 8.4, rate 3/4 12.4 / 11.5 against 20.2 / 20.1; n = 648
    // rate 3/4 12.5 / 9.6 against 19.1 / 17.6; 5G NR BG1 Z = 16 at 8 rows
    // 12.8 / 5.1 against 21.0 / 9.9)
    // Not where its blocks would have less than 2 warps (Z of 4 or less: 8
    // lanes fill a warp at most; BG1 Z = 16 at 8 rows in one lane, half a
    // warp, 11.0 Gbit/s against 12.8 on chip), nor where choice.lanes asks
    // for another group than its own (the on-chip group of those lanes is
    // weighed first).
    min_sum_variant qc{};
    const bool qc_chosen = quasi_cyclic(qc);
    const unsigned qc_lanes = qc.frames / (qc.pairs ? 2 : 1);
    // The strided kernel where an SM keeps fewer than
    // min_sum_qc_strided_warps warps of it (a block of a large code's
    // beliefs an SM) gives way to the split variant in pairs, where that
    // exists, and is weighed after the on-chip groups.
    const bool qc_thin =
        qc_chosen && qc.qc_strided &&
        min_sum_blocks_per_sm(qc, sm, registers(qc)) * (qc.threads / 32) <
            min_sum_qc_strided_warps;
    if (qc_chosen && (choice.quasi_cyclic_first ||
                      (qc.qc_unrolled && !qc_thin && qc.threads >= qc_roomy_threads &&
                       (choice.lanes == 0 || qc_lanes == choice.lanes))))
        return qc;

    min_sum_variant best{};
    size_t best_frames = 0; // resident an SM
    for (const unsigned per_lane : { pairs && !short_runs ? 2u : 1u, 1u }) {
        if (!choice.on_chip)
            break;
        // flooding and layered in pairs: the smallest group first; layered
        // short runs: one frame a lane in the largest group that fits
        const bool largest_first = short_runs && per_lane == 1 && !choice.lanes;
        const auto& order = largest_first ? short_run_lanes : smaller_first;
        for (const unsigned lanes : order) {
            if (lanes == 0 || (choice.lanes && lanes != choice.lanes))
                continue;
            min_sum_variant v =
                on_chip_variant(g, layered, rule, lanes, per_lane, compressed_on_chip);
            if (v.shared_bytes + counter_bytes(v.frames) > choice.shared_limit)
                continue;
            // layered: a lane for each check of a run (more threads than
            // that only wait at the runs' barriers: n = 1944, 1 lane of pairs,
            // H100: 96 threads 10.0 Gbit/s, 160 9.8, 256 8.9)
            v.threads = layered && !largest_first
                            ? unsigned(std::clamp<size_t>(
                                  align_up(run_checks * lanes, 32), 32, 1024))
                            : block_threads(v);
            const size_t frames =
                std::max<size_t>(1, min_sum_blocks_per_sm(v, sm, registers(v))) *
                v.frames;
            if (!layered || largest_first)
                return v; // the first that fits
            // layered: the most frames resident an SM; of as many, the
            // smaller group, but blocks of 3 warps or more (n = 648: 8 lanes
            // of pairs in 4 warps 8.9 Gbit/s, 2 lanes in 2 warps 8.8, 1 lane
            // in 1 or 2 warps 5.4 to 8.1)
            const bool roomier =
                best.threads < min_layered_threads && v.threads >= min_layered_threads;
            if (frames > best_frames || (frames == best_frames && roomier)) {
                best = v;
                best_frames = frames;
            }
        }
        if (best_frames >= min_sum_layered_frames_per_sm ||
            (choice.lanes && best_frames > 0))
            return best;
    }
    // Quasi-cyclic (a frame a lane, or pairs without the unrolled checks)
    // where no on-chip group is chosen (Wi-Fi n = 1944 on chip in pairs 10.3
    // Gbit/s, the loop kernel in pairs 4.3: H100), but not a frame a lane
    // of a lifting size above min_sum_qc_pair_threads (no pairs there) where
    // the split variant takes pairs (CCSDS AR4JA k = 4096 rate 1/2, Z = 512,
    // H200, same run: quasi-cyclic a frame a lane 4.94 Gbit/s, split in
    // pairs 7.78). Where the family lacks pairs for other reasons (before
    // sm_90, shared-memory caps) that comparison is not measured, and it
    // stays first.
    // Split: one lane's beliefs in shared memory, in pairs where they fit;
    // a lane for each check of a run. DVB-S2 rate 1/2 (64800 bits, one
    // frame a block): the messages of the 132 resident blocks of an H100
    // are 17 MB, which L2 holds.
    // Compact records only: a check's bits in two loads (read from the
    // graph's arrays, one dependent load an edge, a step of the few warps
    // takes 8x longer: DVB-S2 rate 3/4).
    auto split_variant = [&](min_sum_variant& out) {
        if (!choice.on_chip || !choice.split || !layered ||
            !binary::is_fixed_point(rule) || !g.slot_edges || !g.slot_variables)
            return false;
        for (const unsigned per_lane : { pairs ? 2u : 1u, 1u }) {
            min_sum_variant v{};
            v.rule = rule;
            v.pairs = per_lane == 2;
            v.on_chip = true;
            v.split = true;
            v.compressed = compressed;
            v.frames = per_lane;
            const state_layout layout(
                g.n, g.edges, g.checks, layered, rule, v.frames, compressed);
            v.state_bytes = layout.bytes;
            v.shared_bytes = layout.belief_bytes();
            v.message_bytes = layout.message_bytes();
            if (v.shared_bytes + counter_bytes(v.frames) > choice.shared_limit)
                continue;
            // a lane for each check of the longest run (DVB-S2: 360, where
            // the average is 331)
            v.threads = unsigned(std::clamp<size_t>(
                align_up(std::max<size_t>(g.longest_run, run_checks), 32), 32, 1024));
            const size_t per_sm = min_sum_blocks_per_sm(v, sm, registers(v));
            // the warps of an SM busy in a step, at least (else the global
            // variant, whose steps take a run's checks of many frames)
            if (per_sm * ((run_checks + 31) / 32) < min_split_warps)
                continue;
            v.blocks = unsigned(per_sm * std::max(choice.sms, 1u));
            out = v;
            return true;
        }
        return false;
    };
    min_sum_variant split{};
    const bool split_found = split_variant(split);
    if (qc_chosen && ((qc.pairs && !qc_thin) || !split_found || !split.pairs ||
                      g.qc_z <= min_sum_qc_pair_threads))
        return qc;
    if (split_found)
        return split;
    min_sum_variant v{};
    v.rule = rule;
    v.pairs = pairs;
    // 16-bit pairs where fp16 ones are not exact, for checks read from the
    // graph's arrays (5G NR BG1, H100: see choice.wide_pairs)
    v.wide_pairs = !pairs && choice.pairs && choice.wide_pairs &&
                   rule == binary_rule::fixed_min_sum &&
                   !(g.slot_edges && g.slot_variables);
    v.pairs = v.pairs || v.wide_pairs;
    v.on_chip = false;
    v.compressed = compressed;
    v.frames = max_block_frames * (v.pairs ? 2 : 1);
    v.threads = grid_threads;
    v.state_bytes = min_sum_state_bytes(g, layered, rule, v.frames, compressed);
    v.shared_bytes = 0;
    return v;
}

bool min_sum_pairs_exact(const min_sum_graph& g, binary_rule rule)
{
    // beliefs sum the channel value and a message a check (layered too):
    // within 127 (1 + 14) = 1905 for bits of degree 14 at most, so that the
    // layered limit of 1920 (min_sum_fixed8_belief_limit) never binds
    return rule == binary_rule::fixed_min_sum && g.max_variable_degree <= max_pair_degree;
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
