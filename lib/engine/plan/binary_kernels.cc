/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Which kernel a binary decoder variant launches (kernels/binary/plan.h):
// the checks a variant passes before a launch plan is made of it, the key of
// its kernel instantiation, and the variant in words. Plain C++, in every
// build.

#include "binary/plan.h"
#include "binary/qc_profiles.h"
#include "binary/state_layout.h"
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuldpc {
namespace kernels {

void min_sum_check_variant(const min_sum_graph& g, const min_sum_variant& v, bool layered)
{
    if (v.quasi_cyclic) {
        if (!min_sum_quasi_cyclic_usable(g, layered, v.rule))
            throw std::invalid_argument(
                "min_sum_check_variant: variant.quasi_cyclic takes the 8-bit rule, "
                "layered, a graph with its base matrix (qc_*) and base rows of up to " +
                std::to_string(min_sum_qc_max_row_degree) + " blocks");
        const unsigned lanes = v.pairs ? v.frames / 2 : v.frames;
        if (v.on_chip || v.split || v.pairs != v.wide_pairs || v.compressed ||
            v.blocks == 0 || v.message_bytes == 0 || lanes == 0 ||
            lanes > binary::max_block_frames || (lanes & (lanes - 1)) ||
            v.frames != lanes * (v.pairs ? 2 : 1) || v.threads < 32 ||
            v.threads > (v.pairs ? min_sum_qc_pair_threads : 1024) ||
            v.threads % 32 != 0 ||
            (!v.qc_strided && size_t(v.threads) < size_t(lanes) * g.qc_z))
            throw std::invalid_argument(
                "min_sum_check_variant: variant.quasi_cyclic takes 1, 2, 4 ... 32 lanes "
                "a group of a frame, or of two in 16-bit integer pairs (pairs and "
                "wide_pairs), a multiple of 32 threads up to 1024 (pairs: " +
                std::to_string(min_sum_qc_pair_threads) +
                ") and at least a lane for each check of a base row, blocks and "
                "message_bytes (min_sum_choose), and no on_chip, split or compressed");
        if (v.qc_compact && !v.qc_half)
            throw std::invalid_argument(
                "min_sum_check_variant: variant.qc_compact takes qc_half (fp16 pairs)");
        if (v.qc_strided &&
            (!v.qc_half || lanes != 1 || g.qc_z <= min_sum_qc_pair_threads ||
             !min_sum_qc_strided_profile(g.qc_profile)))
            throw std::invalid_argument(
                "min_sum_check_variant: variant.qc_strided takes qc_half (fp16 pairs), "
                "one lane a group, a lifting size above " +
                std::to_string(min_sum_qc_pair_threads) +
                " and rows of up to 16 or 20 blocks (min_sum_qc_strided_profile); "
                "the code has Z=" +
                std::to_string(g.qc_z));
    }
    if (v.split && (!v.on_chip || v.blocks == 0 || v.message_bytes == 0))
        throw std::invalid_argument("min_sum_check_variant: variant.split needs on_chip, "
                                    "blocks and message_bytes (min_sum_choose)");
    if (layered && (!g.run_checks || !g.run_offsets))
        throw std::invalid_argument("min_sum_check_variant: layered needs the runs");
    if (binary::is_fixed_point(v.rule) &&
        g.max_variable_degree > min_sum_max_fixed_degree)
        throw std::invalid_argument(
            "min_sum_check_variant: a bit of degree " +
            std::to_string(g.max_variable_degree) +
            " overflows the 16-bit beliefs; allowed: degrees up to " +
            std::to_string(min_sum_max_fixed_degree));
    if (g.slot_edges && g.slot_variables &&
        !min_sum_compact_usable(g.n, g.max_check_degree, g.edges))
        throw std::invalid_argument(
            "min_sum_check_variant: compact check records for a code of n=" +
            std::to_string(g.n) + " with checks of degree " +
            std::to_string(g.max_check_degree) + " and " + std::to_string(g.edges) +
            " edges; allowed: n <= 65536, degree <= " +
            std::to_string(min_sum_compact_degree) + ", edges < 2^28");
    if (v.on_chip && (v.threads < 32 || v.threads > 1024 || v.threads % 32 != 0))
        throw std::invalid_argument(
            "min_sum_check_variant: variant.threads=" + std::to_string(v.threads) +
            " is not usable on chip; allowed: a multiple of 32 "
            "from 32 to 1024");
    if (v.pairs && v.frames % 2 != 0)
        throw std::invalid_argument(
            "min_sum_check_variant: variant.frames=" + std::to_string(v.frames) +
            " with pairs; allowed: an even number");
    if (v.compressed && !min_sum_compressed_usable(g, layered, v.rule))
        throw std::invalid_argument("min_sum_check_variant: variant.compressed takes the "
                                    "8-bit rule, layered, with compact check records");
    // (the three-smallest rule's pairs: fp16, checks unrolled)
    if (v.wide_pairs && (!v.pairs || !(v.rule == binary_rule::fixed_min_sum ||
                                       (v.rule == binary_rule::fixed_three_smallest &&
                                        v.quasi_cyclic && v.qc_half))))
        throw std::invalid_argument(
            "min_sum_check_variant: variant.wide_pairs takes pairs and the 8-bit rule "
            "(the three-smallest rule: fp16 pairs in the quasi-cyclic family, qc_half)");
    if (v.pairs && !v.wide_pairs && !min_sum_pairs_exact(g, v.rule))
        throw std::invalid_argument(
            "min_sum_check_variant: variant.pairs (fp16) takes the 8-bit rule, and bits "
            "of degree 14 at most; wide_pairs any degree");
    if (!v.on_chip && !v.quasi_cyclic &&
        (v.frames != binary::max_block_frames * (v.pairs ? 2 : 1) ||
                       v.threads != binary::grid_threads))
        throw std::invalid_argument("min_sum_check_variant: the global variant takes " +
                                    std::to_string(binary::max_block_frames) +
                                    " lanes a group (frames, or pairs of them) of " +
                                    std::to_string(binary::grid_threads) + " threads");
}

min_sum_kernel_key
min_sum_kernel_of(const min_sum_graph& g, const min_sum_variant& v, bool layered)
{
    using M = min_sum_arithmetic;
    using R = min_sum_records;
    const bool compact = g.slot_edges != nullptr && g.slot_variables != nullptr;
    min_sum_kernel_key k{};
    if (v.quasi_cyclic) {
        if (!min_sum_quasi_cyclic_usable(g, layered, v.rule))
            throw std::invalid_argument(
                "min_sum_kernel_of: variant.quasi_cyclic takes the 8-bit rule, layered, "
                "and a graph with its base matrix (min_sum_quasi_cyclic_usable)");
        k.family = min_sum_family::quasi_cyclic;
        k.arithmetic = v.wide_pairs ? M::fixed8_wide_pairs
                       : v.rule == binary_rule::fixed_three_smallest ? M::fixed8_three
                                                                     : M::fixed8;
        const bool three = v.rule == binary_rule::fixed_three_smallest;
        if (three && (v.qc_strided || v.qc_compact || v.pairs != v.qc_half ||
                      (v.pairs && (!v.qc_unrolled || g.qc_profile == 0 ||
                                   binary::qc_profile_max_degree(g.qc_profile) >
                                       min_sum_qc_three_pair_degree))))
            throw std::invalid_argument(
                "min_sum_kernel_of: the three-smallest rule takes the quasi-cyclic "
                "family a frame a lane in integers, or with checks unrolled in fp16 "
                "pairs for rows of up to " +
                std::to_string(min_sum_qc_three_pair_degree) +
                " blocks (no strided checks or compact words)");
        k.layered = true;
        k.records = R::graph;
        k.lanes = v.wide_pairs ? v.frames / 2 : v.frames;
        k.row_degree = (g.qc_max_row_degree + 7) / 8 * 8;
        if (v.qc_unrolled) {
            if ((!v.wide_pairs && !three) || g.qc_profile == 0 ||
                k.lanes > min_sum_qc_unrolled_lanes)
                throw std::invalid_argument(
                    "min_sum_kernel_of: variant.qc_unrolled takes 16-bit pairs, a "
                    "graph with a qc_profile and at most " +
                    std::to_string(min_sum_qc_unrolled_lanes) + " lanes");
            k.qc_profile = g.qc_profile;
            if (v.qc_half)
                k.arithmetic = three ? M::fixed8_three_pairs : M::fixed8_pairs;
            k.qc_compact = v.qc_compact;
            k.qc_strided = v.qc_strided;
        } else if (v.qc_half || v.qc_strided) {
            throw std::invalid_argument("min_sum_kernel_of: variant.qc_half and "
                                        "qc_strided take variant.qc_unrolled");
        }
        return k;
    }
    k.layered = layered;
    k.records = !compact ? R::graph : layered && g.full_records ? R::full : R::compact;
    // beliefs of bits of 14 checks at most stay within 127 x 15 = 1905
    k.limited = layered && binary::is_fixed_point(v.rule) &&
                g.max_variable_degree >= min_sum_limited_degree;
    switch (v.rule) {
    case binary_rule::fixed_min_sum:
        if (v.wide_pairs) {
            if (v.on_chip || compact)
                throw std::invalid_argument(
                    "min_sum_kernel_of: variant.wide_pairs takes the global variant with "
                    "checks read from the graph's arrays (no compact records)");
            k.family = min_sum_family::global;
            k.arithmetic = M::fixed8_wide_pairs;
            k.lanes = binary::max_block_frames;
            return k;
        }
        if (v.compressed) {
            // layered with compact records only (min_sum_compressed_usable)
            k.arithmetic = v.pairs ? M::fixed8_pairs_compressed : M::fixed8_compressed;
            k.layered = true;
            k.records = k.records == R::full ? R::full : R::compact;
        } else {
            k.arithmetic = v.pairs ? M::fixed8_pairs : M::fixed8;
        }
        break;
    case binary_rule::fixed_three_smallest:
        if (v.pairs || v.compressed)
            throw std::invalid_argument(
                "min_sum_kernel_of: the three-smallest rule takes a frame a lane and "
                "a byte a message (no pairs, no compressed messages)");
        k.arithmetic = M::fixed8_three;
        break;
    case binary_rule::float_min_sum:
        k.arithmetic = M::float_min_sum;
        break;
    case binary_rule::float_sum_product:
        k.arithmetic = M::float_sum_product;
        break;
    default:
        throw std::invalid_argument("min_sum_kernel_of: unknown variant.rule");
    }
    const bool in_pairs =
        k.arithmetic == M::fixed8_pairs || k.arithmetic == M::fixed8_pairs_compressed;
    const unsigned per_lane = in_pairs ? 2 : 1;
    if (v.split) {
        if (k.layered && binary::is_fixed_point(v.rule) && k.records != R::graph &&
            v.frames == per_lane) {
            k.family = min_sum_family::split;
            k.lanes = 1;
            return k;
        }
        throw std::invalid_argument(
            "min_sum_kernel_of: variant.split takes the 8-bit rules, layered, with "
            "compact check records and one lane a group; variant.frames=" +
            std::to_string(v.frames));
    }
    if (!v.on_chip) {
        k.family = min_sum_family::global;
        k.lanes = binary::max_block_frames;
        return k;
    }
    k.family = min_sum_family::on_chip;
    k.lanes = v.frames / per_lane;
    if (k.lanes == 0 || k.lanes > binary::max_block_frames || (k.lanes & (k.lanes - 1)))
        throw std::invalid_argument(
            "min_sum_kernel_of: variant.frames=" + std::to_string(v.frames) +
            " is not usable on chip; allowed: 1, 2, 4, 8, 16, 32 (2 to 64 in pairs)");
    return k;
}

std::string min_sum_describe(const min_sum_variant& v, bool compact_records)
{
    std::string s = v.rule == binary_rule::fixed_min_sum ? "8-bit min-sum"
                    : v.rule == binary_rule::fixed_three_smallest
                        ? "8-bit min-sum, three smallest combined"
                    : v.rule == binary_rule::float_min_sum ? "float min-sum"
                                                           : "float sum-product";
    if (v.quasi_cyclic)
        return s + ", quasi-cyclic: a base row's checks at once" +
               (v.qc_unrolled ? " (checks unrolled for the base graph's row degrees)"
                              : "") +
               (v.qc_strided ? ", several checks a thread" : "") +
               ", beliefs on chip, "
               "compressed check messages in device memory, " +
               (v.qc_compact ? "compact words for rows of up to " +
                                   std::to_string(min_sum_qc_compact_degree) + " blocks, "
                             : std::string()) +
               std::to_string(v.blocks) + " blocks at most, " +
               (v.qc_half      ? "two frames a lane in fp16 pairs, "
                : v.wide_pairs ? "two frames a lane in 16-bit integer pairs, "
                               : "a frame a lane, ") +
               std::to_string(v.frames) +
               (v.frames == 1 ? " frame a group, " : " frames a group, ") +
               std::to_string(v.threads) + " threads a block";
    s += !v.on_chip ? ", global: state in device memory, one grid"
         : v.split  ? ", split: beliefs on chip, check messages in device memory, " +
                         std::to_string(v.blocks) + " blocks at most"
                   : ", on chip: state in shared memory";
    s += v.wide_pairs ? ", two frames a lane in 16-bit integer pairs"
         : v.pairs    ? ", two frames a lane in fp16 pairs"
                      : ", a frame a lane";
    if (v.compressed)
        s += ", compressed check messages";
    if (compact_records)
        s += ", compact check records";
    return s + ", " + std::to_string(v.frames) +
           (v.frames == 1 ? " frame a group, " : " frames a group, ") +
           std::to_string(v.threads) + " threads a block";
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
