/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_BINARY_DECODE_CUH
#define INCLUDED_GPULDPC_KERNELS_BINARY_DECODE_CUH

// The decoding of a team's frames, the body every binary kernel runs.
// decode(), at the end of this file, reads top-down: the channel values in,
// the iterations (layered: the runs of checks; flooding: all checks, then all
// bits), early termination, the decisions and status out; the functions
// above it are its steps. The schedule (Layered), the arithmetic with its
// check rule (A), the group size (G), how checks read the graph (R) and the
// team are template axes. Frames of a team are independent; a frame that
// converged (early termination) is left alone while the others go on.
//
// The steps take what they read as arguments, scalars by value, and a few
// bodies stay lambdas (for_each_item's, check_parity's marked): the kernels'
// registers, and so their speed, follow how the compiler inlines these
// steps, and small changes of form move them (check with nvcc -Xptxas -v).

#include "binary/check_update.cuh"
#include "binary/pair_arithmetic.cuh"
#include <cstdint>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace binary {

constexpr float input_limit = 64.0f; // batch_decoder::max_input_magnitude

// The team's frame of frame j of lane f of group gr, in groups of G lanes of
// P frames (A's frames_per_lane).
template <unsigned G, unsigned P>
__device__ inline uint32_t frame_of(uint32_t gr, unsigned f, unsigned j)
{
    return gr * (G * P) + f * P + j;
}

// Whether frame fr of the team's team_frames still decodes.
__device__ inline bool live(const frame_counters& k, uint32_t team_frames, uint32_t fr)
{
    return fr < team_frames && !k.done[fr];
}

// Whether lane f of group gr still decodes; keep: its frames that do not
// (0xffff a half, pair lanes).
template <unsigned G, unsigned P>
__device__ inline bool lane_live(const frame_counters& k,
                                 uint32_t team_frames,
                                 uint32_t gr,
                                 unsigned f,
                                 uint32_t& keep)
{
    bool any = false;
    keep = 0;
#pragma unroll
    for (unsigned j = 0; j < P; ++j) {
        if (live(k, team_frames, frame_of<G, P>(gr, f, j)))
            any = true;
        else
            keep |= 0xffffu << (16 * j);
    }
    return any;
}

// Where the team's groups keep their state (decode()'s layout, base and
// messages): group gr's at base + gr layout.bytes; split, its messages at
// messages.
template <typename A>
struct group_states {
    const state_layout& layout;
    uint8_t* const& base;
    uint8_t* const& messages;
    __device__ group_state<A> operator()(uint32_t group) const
    {
        return state_at<A>(layout, base + size_t(group) * layout.bytes, messages);
    }
};

template <typename Team>
__device__ void
start_counters(const Team& team, uint32_t team_frames, const frame_counters& k)
{
    for (uint32_t fr = team.thread(); fr < team_frames; fr += team.threads()) {
        k.invalid[fr] = 0;
        k.iterations[fr] = 0;
        k.done[fr] = 0;
        k.syndrome[fr] = 0;
    }
    if (team.thread() == 0)
        *k.active = int(team_frames);
    team.sync();
}

// The channel values, internal convention log(P(0)/P(1)) (8-bit rule: in
// steps), into the beliefs (flooding: and the channel values), read frame
// after frame (coalesced). Pair lanes: the frames beyond the batch in the
// last group start at 0, as a lane reads both. Then the bit past the last,
// which only compact checks' unused positions read.
template <typename A, bool Layered, unsigned G, typename Team>
__device__ void read_channel(const min_sum_params& p,
                             const Team& team,
                             const group_states<A>& state,
                             uint32_t groups,
                             size_t first_frame,
                             uint32_t team_frames,
                             const frame_counters& k)
{
    constexpr unsigned P = A::frames_per_lane, F = G * P;
    const min_sum_graph& g = p.graph;
    const uint32_t values = team_frames * g.n;
    const uint32_t slots = P > 1 ? groups * F * g.n : values;
    for (uint32_t w = team.thread(); w < slots; w += team.threads()) {
        const uint32_t fr = w / g.n, v = w - fr * g.n;
        const int32_t t = fr < team_frames ? __ldg(g.input_index + v) : -1;
        typename A::input_t x = 0;
        if (t >= 0 && !is_fixed_point(A::rule)) {
            // float: the LLR clipped to +-64 (8-bit input: steps times
            // int8_step), NaN/Inf an erasure
            const size_t at = (first_frame + fr) * g.n_input + uint32_t(t);
            float l = p.llr
                          ? p.llr[at]
                          : __fmul_rn(float(max(int32_t(p.llr8[at]), -127)), p.int8_step);
            if (!isfinite(l)) {
                atomicAdd(&k.invalid[fr], 1u);
                l = 0.0f;
            }
            l = fminf(fmaxf(l, -input_limit), input_limit);
            x = typename A::input_t(p.flip_llr_sign ? l : -l);
        } else if (t >= 0) {
            const size_t at = (first_frame + fr) * g.n_input + uint32_t(t);
            if (p.llr) {
                float l = p.llr[at];
                if (!isfinite(l)) {
                    atomicAdd(&k.invalid[fr], 1u);
                    l = 0.0f;
                }
                l = fminf(fmaxf(l, -input_limit), input_limit);
                const float scaled = __fmul_rn(p.flip_llr_sign ? l : -l, p.llr_scale);
                x = __float2int_rn(fminf(fmaxf(scaled, -127.0f), 127.0f));
            } else {
                int32_t in = max(int32_t(p.llr8[at]), -127);
                if (float(abs(in)) > p.int8_limit)
                    in = in < 0 ? -p.int8_clip : p.int8_clip;
                x = p.flip_llr_sign ? in : -in;
            }
        }
        const group_state<A> s = state(fr / F);
        A::set_input(s.belief, Layered ? nullptr : s.channel, size_t(v) * F + fr % F, x);
    }
    for (uint32_t w = team.thread(); w < groups * F; w += team.threads())
        A::set_input(state(w / F).belief, nullptr, size_t(g.n) * F + w % F, 0);
}

// Check messages start at 0 (the lanes of frames beyond the batch too;
// rounded up: the c2v region ends on a 16-byte boundary).
template <typename A, typename Team>
__device__ void
clear_messages(const Team& team, const group_states<A>& state, uint32_t groups)
{
    const uint32_t c2v_words = uint32_t((state.layout.c2v_bytes + 3) / 4);
    for (uint32_t w = team.thread(); w < groups * c2v_words; w += team.threads()) {
        const uint32_t gr = w / c2v_words;
        reinterpret_cast<uint32_t*>(state(gr).c2v)[w - gr * c2v_words] =
            A::zero_message_word;
    }
    team.sync();
}

// The grid: a lane's counts of group `counting` (local[j]: frame j's
// unsatisfied checks) into the frames' syndromes, and set back to 0.
template <unsigned G, unsigned P>
__device__ inline void
add_counts(const frame_counters& k, uint32_t (&local)[P], uint32_t counting)
{
    if (counting == UINT32_MAX)
        return;
#pragma unroll
    for (unsigned j = 0; j < P; ++j)
        if (local[j])
            atomicAdd(&k.syndrome[frame_of<G, P>(counting, threadIdx.x & (G - 1), j)],
                      local[j]);
#pragma unroll
    for (unsigned j = 0; j < P; ++j)
        local[j] = 0;
}

// The grid between iterations: whether frame fr is marked as having an
// unsatisfied check already.
template <typename Team>
__device__ inline bool marked(const frame_counters& k, bool all, uint32_t fr)
{
    if constexpr (Team::single_group)
        return false;
    else
        return !all && __ldcg(k.syndrome + fr) != 0;
}

// Check c's parity for the frames of lane f of group gr, counted in the
// lane's local[] (the grid: of group `counting`; settled[j]: frame j of that
// group is done, beyond the batch or marked, and stays so for the count, its
// flags not read again). The grid between iterations (!all) marks a frame
// instead.
template <typename A, unsigned G, typename Team>
__device__ inline void check_parity(const min_sum_graph& g,
                                    const group_states<A>& state,
                                    uint32_t team_frames,
                                    const frame_counters& k,
                                    bool all,
                                    uint32_t (&local)[A::frames_per_lane],
                                    uint32_t& counting,
                                    bool (&settled)[A::frames_per_lane],
                                    uint32_t gr,
                                    uint32_t c,
                                    unsigned f)
{
    constexpr unsigned P = A::frames_per_lane;
    auto marked = [&](uint32_t fr) {
        if constexpr (Team::single_group)
            return false;
        else
            return !all && __ldcg(k.syndrome + fr) != 0;
    };
    if constexpr (!Team::single_group) {
        if (gr != counting) {
            add_counts<G, P>(k, local, counting);
            counting = gr;
#pragma unroll
            for (unsigned j = 0; j < P; ++j)
                settled[j] = false;
        }
    }
    bool counted[P], any = false;
#pragma unroll
    for (unsigned j = 0; j < P; ++j) {
        const uint32_t fr = frame_of<G, P>(gr, f, j);
        counted[j] =
            !settled[j] && fr < team_frames && (all || !k.done[fr]) && !marked(fr);
        if (!Team::single_group && !all)
            settled[j] = !counted[j];
        any |= counted[j];
    }
    if (!any)
        return;
    const group_state<A> s = state(gr);
    uint32_t parity = 0; // bit j: frame j
    const uint32_t e1 = __ldg(g.check_offsets + c + 1);
    for (uint32_t e = __ldg(g.check_offsets + c); e < e1; ++e)
        parity ^= A::negative_bits(s.belief[__ldg(g.edge_variable + e) * G + f]);
#pragma unroll
    for (unsigned j = 0; j < P; ++j) {
        const uint32_t odd = counted[j] ? (parity >> j) & 1u : 0u;
        if (Team::single_group || all)
            local[j] += odd;
        else if (odd) {
            __stcg(k.syndrome + frame_of<G, P>(gr, f, j), 1u); // read by __ldcg
            settled[j] = true;
        }
    }
}

// Unsatisfied checks of the live frames (all: every frame) into k.syndrome,
// which is 0 for them on entry. A block counts a lane's frames in registers;
// in the grid a warp takes a contiguous share of the checks of a group or
// two and adds its counts once a group (an atomic add an unsatisfied check of
// a failing frame took longer than the decoding: 5G NR BG1 at 1 dB, H100).
// Between iterations (!all) only whether a frame has one matters
// (retire_converged): there the grid marks the frame and skips the checks of
// frames already marked; the final count (all) gives the weights.
template <typename A, unsigned G, typename Team>
__device__ void count_syndromes(const Team& team,
                                const min_sum_graph& g,
                                const group_states<A>& state,
                                uint32_t groups,
                                uint32_t team_frames,
                                const frame_counters& k,
                                bool all)
{
    constexpr unsigned P = A::frames_per_lane;
    uint32_t local[P] = {};
    uint32_t counting = UINT32_MAX;
    bool settled[P] = {};
    auto parity = [&](uint32_t gr, uint32_t c, unsigned f) {
        check_parity<A, G, Team>(
            g, state, team_frames, k, all, local, counting, settled, gr, c, f);
    };
    if constexpr (Team::single_group) {
        for_each_item<G>(team, groups, g.checks, parity);
#pragma unroll
        for (unsigned j = 0; j < P; ++j)
            if (local[j])
                atomicAdd(&k.syndrome[(threadIdx.x & (G - 1)) * P + j], local[j]);
    } else {
        for_each_item<G, true>(team, groups, g.checks, parity);
        add_counts<G, P>(k, local, counting);
    }
    team.sync();
}

// Frames whose syndrome is zero stop; the syndromes of the live frames are
// set back to 0 for the next count.
template <typename Team>
__device__ void
retire_converged(const Team& team, uint32_t team_frames, const frame_counters& k)
{
    for (uint32_t fr = team.thread(); fr < team_frames; fr += team.threads()) {
        if (k.done[fr])
            continue;
        if (k.syndrome[fr] == 0) {
            k.done[fr] = 1;
            atomicSub(k.active, 1);
        }
        k.syndrome[fr] = 0;
    }
    team.sync();
}

// Whether lane f of group gr decodes in this iteration (keep: its frames
// that do not): a block's lane has one group, known for the whole iteration
// (block_live, block_keep: frames retire between iterations); the grid asks
// a lane at a time.
template <unsigned G, unsigned P, typename Team>
__device__ inline bool live_lane(const frame_counters& k,
                                 uint32_t team_frames,
                                 bool block_live,
                                 uint32_t block_keep,
                                 uint32_t gr,
                                 unsigned f,
                                 uint32_t& keep)
{
    if constexpr (Team::single_group) {
        keep = block_keep;
        return block_live;
    } else {
        return lane_live<G, P>(k, team_frames, gr, f, keep);
    }
}

// One iteration. Layered: a run's checks at once, run after run; flooding:
// every check, then every bit.
template <typename A, bool Layered, unsigned G, check_records R, typename Team>
__device__ void iterate(const Team& team,
                        const min_sum_graph& g,
                        const group_states<A>& state,
                        const typename A::check_t& rule,
                        uint32_t groups,
                        uint32_t team_frames,
                        const frame_counters& k)
{
    constexpr unsigned P = A::frames_per_lane;
    uint32_t block_keep = 0;
    const bool block_live =
        Team::single_group &&
        lane_live<G, P>(k, team_frames, 0, threadIdx.x & (G - 1), block_keep);
    if constexpr (Layered) {
        for (unsigned r = 0; r < g.runs; ++r) {
            const uint32_t r0 = __ldg(g.run_offsets + r),
                           r1 = __ldg(g.run_offsets + r + 1);
            auto step = [&](uint32_t gr, uint32_t i, unsigned f) {
                uint32_t keep;
                if (live_lane<G, P, Team>(
                        k, team_frames, block_live, block_keep, gr, f, keep))
                    check_step<A, true, G, R>(g, state(gr), rule, r0 + i, f, keep);
            };
            for_each_item<G>(team, groups, r1 - r0, step);
            team.sync();
        }
    } else {
        for_each_item<G>(
            team, groups, g.checks, [&](uint32_t gr, uint32_t c, unsigned f) {
                uint32_t keep;
                if (live_lane<G, P, Team>(
                        k, team_frames, block_live, block_keep, gr, f, keep))
                    check_step<A, false, G, R>(g, state(gr), rule, c, f, keep);
            });
        team.sync();
        for_each_item<G>(team, groups, g.n, [&](uint32_t gr, uint32_t v, unsigned f) {
            uint32_t keep;
            if (live_lane<G, P, Team>(
                    k, team_frames, block_live, block_keep, gr, f, keep))
                update_variable<A, G>(g, state(gr), v, f, keep);
        });
        team.sync();
    }
}

// Hard decision of frame fr's information bit i.
template <typename A, unsigned G>
__device__ inline unsigned
info_bit(const min_sum_graph& g, const group_states<A>& state, uint32_t fr, uint32_t i)
{
    constexpr unsigned F = G * A::frames_per_lane;
    const uint32_t v = __ldg(g.info_positions + i);
    return A::negative_at(state(fr / F).belief, size_t(v) * F + fr % F);
}

// Decisions, frame after frame (coalesced); packed, a thread's byte has
// eight of them. values: the team's bits (team_frames n).
template <typename A, unsigned G, typename Team>
__device__ void write_decisions(const min_sum_params& p,
                                const Team& team,
                                const group_states<A>& state,
                                size_t first_frame,
                                uint32_t team_frames,
                                uint32_t values)
{
    constexpr unsigned F = G * A::frames_per_lane;
    const min_sum_graph& g = p.graph;
    if (p.pack_info_bits) {
        const uint32_t bytes = (g.k + 7) / 8, info = team_frames * bytes;
        for (uint32_t w = team.thread(); w < info; w += team.threads()) {
            const uint32_t fr = w / bytes, i0 = 8 * (w - fr * bytes);
            unsigned byte = 0;
            for (uint32_t i = i0; i < min(i0 + 8, g.k); ++i)
                byte |= info_bit<A, G>(g, state, fr, i) << (7 - (i - i0));
            p.info_bits[(first_frame + fr) * bytes + (i0 / 8)] = uint8_t(byte);
        }
    } else {
        const uint32_t info = team_frames * g.k;
        for (uint32_t w = team.thread(); w < info; w += team.threads()) {
            const uint32_t fr = w / g.k, i = w - fr * g.k;
            p.info_bits[(first_frame + fr) * g.k + i] = info_bit<A, G>(g, state, fr, i);
        }
    }
    if (p.codeword_bits)
        for (uint32_t w = team.thread(); w < values; w += team.threads()) {
            const uint32_t fr = w / g.n, v = w - fr * g.n;
            p.codeword_bits[(first_frame + fr) * g.n + v] =
                A::negative_at(state(fr / F).belief, size_t(v) * F + fr % F);
        }
}

template <typename Team>
__device__ void write_status(const min_sum_params& p,
                             const Team& team,
                             size_t first_frame,
                             uint32_t team_frames,
                             const frame_counters& k)
{
    for (uint32_t fr = team.thread(); fr < team_frames; fr += team.threads()) {
        frame_status& st = p.status[first_frame + fr];
        st.converged = k.syndrome[fr] == 0;
        st.iterations = k.iterations[fr];
        st.syndrome_weight = k.syndrome[fr];
        st.invalid_inputs = k.invalid[fr];
    }
}

// Decodes the team's frames (first_frame .. first_frame + team_frames - 1 of
// the launch) in groups of G lanes of A's frames_per_lane frames, their
// state at state_base (split: the group's messages at messages).
template <typename A, bool Layered, unsigned G, check_records R, typename Team>
__device__ void decode(const min_sum_params& p,
                       const Team& team,
                       uint8_t* state_base,
                       size_t first_frame,
                       uint32_t team_frames,
                       const frame_counters& k,
                       uint8_t* messages = nullptr)
{
    static_assert(arithmetic_traits<A>::value, "an arithmetic decode() takes");
    constexpr unsigned F = G * A::frames_per_lane;
    const min_sum_graph& g = p.graph;
    const state_layout layout(g.n, g.edges, g.checks, Layered, A::rule, F, A::compressed);
    const uint32_t groups = (team_frames + F - 1) / F;
    const typename A::check_t rule = A::check(p);
    const group_states<A> state{ layout, state_base, messages };

    start_counters(team, team_frames, k);
    const uint32_t values = team_frames * g.n; // the team's bits
    read_channel<A, Layered, G>(p, team, state, groups, first_frame, team_frames, k);
    clear_messages(team, state, groups);
    if (p.early_termination) {
        count_syndromes<A, G>(team, g, state, groups, team_frames, k, true);
        retire_converged(team, team_frames, k);
    }
    for (unsigned it = 1; it <= p.max_iterations; ++it) {
        if (*k.active == 0)
            break;
        iterate<A, Layered, G, R>(team, g, state, rule, groups, team_frames, k);
        for (uint32_t fr = team.thread(); fr < team_frames; fr += team.threads())
            if (!k.done[fr])
                k.iterations[fr] = it;
        if (p.early_termination) {
            count_syndromes<A, G>(team, g, state, groups, team_frames, k, false);
            retire_converged(team, team_frames, k);
        }
    }
    // the final syndromes of every frame
    for (uint32_t fr = team.thread(); fr < team_frames; fr += team.threads())
        k.syndrome[fr] = 0;
    team.sync();
    count_syndromes<A, G>(team, g, state, groups, team_frames, k, true);
    write_decisions<A, G>(p, team, state, first_frame, team_frames, values);
    write_status(p, team, first_frame, team_frames, k);
}

} // namespace binary
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_BINARY_DECODE_CUH */
