/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// min_sum_scale="auto", min_sum_offset="auto": the correction a code's
// structure calls for.

#include <gnuradio/gpuldpc/engine/decoder.h>
#include <cstdlib>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

namespace {

float parse_number_or_auto(const std::string& s,
                           float automatic,
                           const char* name,
                           const char* allowed)
{
    if (s == "auto")
        return automatic;
    char* end = nullptr;
    const float v = std::strtof(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size())
        throw std::invalid_argument(std::string(name) + "='" + s +
                                    "' is not a number; allowed: 'auto' or " + allowed);
    return v;
}

} // namespace

float parse_min_sum_scale(const std::string& s)
{
    return parse_number_or_auto(s, min_sum_scale_auto, "min_sum_scale", "(0, 1]");
}

float parse_min_sum_offset(const std::string& s)
{
    return parse_number_or_auto(s, min_sum_offset_auto, "min_sum_offset", ">= 0");
}

min_sum_magnitude_rule min_sum_auto_magnitude(const ldpc_code& code,
                                              message_precision messages)
{
    // Measured (docs/min_sum_correction.md, "The default check rule"): the
    // codes where min-sum stays more than 0.2 dB from belief propagation
    // whatever its correction are those of small checks, where three_smallest
    // sends nearly belief propagation's messages (exactly at 3 edges). Where
    // more than half the checks have 6 edges or fewer, the three smallest pay
    // for their cost; the float rule keeps min-sum, the only one its GPU
    // kernels run.
    if (messages != message_precision::int8)
        return min_sum_magnitude_rule::smallest;
    constexpr unsigned small_check = 6;
    size_t small = 0;
    for (unsigned c = 0; c < code.m(); ++c)
        small += code.check_degree(c) <= small_check;
    return 2 * small > size_t(code.m()) ? min_sum_magnitude_rule::three_smallest
                                        : min_sum_magnitude_rule::smallest;
}

min_sum_correction min_sum_auto_correction(const ldpc_code& code,
                                           min_sum_magnitude_rule magnitude,
                                           unsigned max_iterations)
{
    if (magnitude == min_sum_magnitude_rule::automatic)
        throw std::invalid_argument(
            "min_sum_magnitude='auto' names no rule here; allowed: smallest, "
            "two-smallest, three-smallest (min_sum_auto_magnitude() gives auto's)");
    // The two or three smallest combined already send belief propagation's
    // magnitude of a pair or of three: no scaling, and where parity bits do
    // not accumulate (5G NR, IEEE 802.11n) a small offset for the inputs left
    // out (two-smallest: within 0.05 dB of the best pair on every code
    // measured but 5G NR BG2 rate 1/5 at 50 iterations, 0.15; three-smallest
    // takes it at checks of 5 edges or more: docs/min_sum_correction.md,
    // "Three smallest combined")
    if (magnitude == min_sum_magnitude_rule::two_smallest ||
        magnitude == min_sum_magnitude_rule::three_smallest)
        return { 1.0f, code.has_accumulator_parity() ? 0.0f : 0.25f };
    // Measured with scripts/min_sum_scale_sweep.py (docs/min_sum_correction.md):
    // over scales 13/16 .. 1 and offsets 0 .. 0.75, at 10 and 50 iterations,
    // these pairs are within the measurement's 0.05 dB of each code's best,
    // rate by rate, or close to it. An accumulator (a chain of N - K degree-2
    // parity bits that information crosses check by check) loses on every
    // scaling: plain offset min-sum (as gr-dvbs2rx decodes DVB-S2); 15/16 with
    // that offset fails DVB-S2 rates 1/4 and 1/3 by more than 0.6 dB. The
    // other codes (5G NR's punctured, degree-1 extension; IEEE 802.11n) want
    // both, and 1 with 0.25 fails 5G NR at rate 1/3 by 0.4 dB.
    // With more iterations the larger offset pays where checks are large
    // (1000 frames a point, FER 1e-2, gap to sum-product with 0.25 / 0.5:
    // DVB-S2 rate 3/5, checks of 11 edges, 0.30 / 0.17 at 10 iterations,
    // 0.49 / 0.20 at 20, 0.54 / 0.19 at 50; rate 1/2, 7 edges, 0.15 / 0.22 at
    // 10, 0.23 / 0.16 at 20, 0.25 / 0.11 at 50; rate 2/5, 6 edges, 0.07 / 0.30
    // at 10, 0.38 / 0.21 at 50; rates 2/3 to 9/10 within 0.07 either way;
    // rates 1/3 and 1/4 and short 1/2, 4 to 5.4 edges, lose 0.1 to 0.5 with
    // 0.5 at every count). At 10 iterations checks of 11 edges and more
    // take 0.5 as well (H200, 1000 frames: rate 3/5 0.31 / 0.17, rates 3/4
    // to 9/10, 14 to 30 edges, 0.03 to 0.10 / 0.02 to 0.09), rate 2/3's 10
    // edges not (0.05 / 0.11).
    if (code.has_accumulator_parity()) {
        // 5.5 and 10.5 edges a check or more on average (the accumulator's
        // first check has one edge fewer: DVB-S2 rate 2/5 averages just below
        // 6, rate 3/5 just below 11)
        const size_t twice_edges = 2 * size_t(code.num_edges());
        const bool large_checks = twice_edges >= 11 * size_t(code.m());
        const bool larger_checks = twice_edges >= 21 * size_t(code.m());
        return { 1.0f,
                 larger_checks || (large_checks && max_iterations >= 20) ? 0.5f : 0.25f };
    }
    return { 15.0f / 16.0f, 0.5f };
}

} // namespace gpuldpc
} // namespace gr
