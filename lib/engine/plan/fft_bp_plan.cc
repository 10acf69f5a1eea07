/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The GF(q) FFT-BP decoder's choice of a kernel family for a code, and its
// description. Host code: the kernels' sizes come from gfq/sizes.h, which the
// kernels are built with.

#include "gfq/plan.h"
#include "gfq/sizes.h"
#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuldpc {
namespace kernels {

namespace {

using namespace gfq;

// Bytes of a check-to-variable message value.
size_t message_value_bytes(bool half_messages)
{
    return half_messages ? 2 : sizeof(float);
}

} // namespace

fft_bp_variant fft_bp_choose(const fft_bp_graph& g, const fft_bp_choice& c)
{
    const bool layered = c.layered;
    const unsigned slots = c.registers ? register_edge_slots(g.q, g.max_check_degree) : 0;
    const size_t usable =
        c.shared_limit > static_shared_bytes ? c.shared_limit - static_shared_bytes : 0;
    if (c.edge_threads && c.registers && !layered && g.edge_chunks > 0 && g.edge_lanes) {
        // a thread per edge, on chip; for q <= 64 where two blocks fit, so
        // that one block's barriers leave the SM work (H100: three blocks of
        // GF(64) with 96 symbols); GF(256) takes 16 warps a block
        const size_t bytes = fft_bp_edge_shared_bytes(g);
        const unsigned threads = fft_bp_edge_threads(g);
        if ((g.q > 64 ? 1 : 2) * bytes <= usable) {
            fft_bp_variant v;
            v.family = fft_bp_family::edge_threads;
            v.on_chip = true;
            v.shared_bytes = bytes;
            v.threads = threads;
            v.check_warps = threads / 32;
            v.edge_slots = g.edge_group;
            return v;
        }
    }
    // beliefs, check-to-variable messages and, for small fields, the field's table
    const size_t messages = size_t(g.n) * g.q * sizeof(float) +
                            g.edges * size_t(g.q) * message_value_bytes(c.half_messages) +
                            (on_chip_field_table(g.q) ? size_t(g.q) * g.q : 0);
    if (c.tensor_cores && !layered && slots == 4 && g.q == 64) {
        // four checks a warp on tensor cores, on chip (no scratch rows)
        const size_t on_chip = messages + size_t(g.q) * g.q + // c2v_position
                               sizeof(uint32_t) * (g.checks + g.n + 2 + 2 * g.edges) +
                               256; // the beliefs' alignment
        const unsigned threads =
            frame_threads(fft_bp_family::tensor_cores, g.q, 0, c.half_messages);
        if (on_chip <= usable) {
            fft_bp_variant v;
            v.family = fft_bp_family::tensor_cores;
            v.on_chip = true;
            v.shared_bytes = on_chip;
            v.threads = threads;
            v.check_warps = threads / 32;
            return v;
        }
    }
    // a warp's family: its check's messages in registers or through rows
    const fft_bp_family warp_family =
        slots ? fft_bp_family::registers : fft_bp_family::rows;
    // per warp: DS rows of q + 32 / DS floats, or 3 * degree rows of q
    const size_t per_warp = (slots ? size_t(slots) * register_row_floats(g.q, slots)
                                   : 3 * size_t(g.max_check_degree) * g.q) *
                            sizeof(float);
    const unsigned threads = frame_threads(warp_family, g.q, slots, c.half_messages);
    const unsigned max_warps = threads / 32;
    if (per_warp > usable)
        throw std::invalid_argument(
            "the code's largest check (degree " + std::to_string(g.max_check_degree) +
            " over GF(" + std::to_string(g.q) + ")) needs " + std::to_string(per_warp) +
            " bytes of shared memory per block; this GPU allows " +
            std::to_string(c.shared_limit));
    // the whole block on one check at a time, through rows
    const size_t block_rows = 3 * size_t(g.max_check_degree) * g.q * sizeof(float);
    auto whole_block = [&](bool on_chip, size_t shared_bytes, fft_bp_family family) {
        fft_bp_variant v;
        v.family = family;
        v.on_chip = on_chip;
        v.shared_bytes = shared_bytes;
        v.threads = block_threads;
        v.check_warps = 1;
        return v;
    };
    // layered: warps on the checks of runs where a warp serves a check well
    // (registers, or checks too small for the block: degree * q below its 256
    // threads; H100: GF(4) 78 -> 106 Mbit/s with runs, GF(64) through rows
    // 62 -> 44) and runs hold several checks on average
    bool runs = false;
    if (layered && g.run_offsets && g.runs > 0)
        runs = slots > 0 || (size_t(g.max_check_degree) * g.q < block_threads &&
                             double(g.checks) / double(g.runs) >= 2.0);
    if (layered && !runs)
        return messages + block_rows <= usable
                   ? whole_block(true, messages + block_rows, fft_bp_family::rows)
                   : whole_block(false, block_rows, fft_bp_family::rows);
    auto warps = [&](bool on_chip, size_t shared_bytes, unsigned check_warps) {
        fft_bp_variant v;
        v.family = warp_family;
        v.on_chip = on_chip;
        v.shared_bytes = shared_bytes;
        v.threads = threads;
        v.check_warps = check_warps;
        v.runs = runs;
        v.edge_slots = slots;
        return v;
    };
    // as many warps on checks as fit; on chip only if the messages leave room
    // for half of them (else the global variant with all is faster)
    const unsigned all = unsigned(std::min<size_t>(max_warps, usable / per_warp));
    if (messages < usable) {
        const unsigned w =
            unsigned(std::min<size_t>(max_warps, (usable - messages) / per_warp));
        // flooding leaves the chip where a frame's block would be alone on
        // its SM with 8 warps at most: too few to hide latency, while the
        // check-parallel family fills the SM (H100, GF(256) with 64 symbols:
        // 52.8 Mbit/s on chip, 73.3 check-parallel)
        const bool starved =
            !layered && threads <= 256 && 2 * (messages + w * per_warp) > usable;
        if (w >= std::max(1u, all / 2) && !starved)
            return warps(true, messages + w * per_warp, w);
    }
    // messages in global memory: a block per check and frame, through rows
    // (the whole block on a check, as the layered schedule does)
    if (!layered && block_rows <= usable)
        return whole_block(false, block_rows, fft_bp_family::check_parallel);
    return warps(false, all * per_warp, all);
}

std::string fft_bp_describe(const fft_bp_variant& v, bool layered, bool half_messages)
{
    std::string s = v.on_chip ? "FFT-BP, on chip: messages and beliefs in shared memory"
                              : "FFT-BP, global: messages and beliefs in device memory";
    const auto warps = [](unsigned w) {
        return std::to_string(w) + (w == 1 ? " warp" : " warps");
    };
    switch (v.family) {
    case fft_bp_family::check_parallel:
        s += ", a block a check and frame, the iterations a sequence of launches";
        break;
    case fft_bp_family::edge_threads:
        s += ", a thread an edge";
        break;
    case fft_bp_family::tensor_cores:
        s += ", four checks a warp with their transforms on tensor cores, " +
             warps(v.check_warps);
        break;
    case fft_bp_family::rows:
    case fft_bp_family::registers:
        if (layered && !v.runs)
            s += ", a check at a time by the whole block";
        else
            s += ", " + warps(v.check_warps) +
                 (v.runs ? " on a run's checks at once" : " on checks at once") +
                 (v.family == fft_bp_family::registers
                      ? ", a check's messages in registers (" +
                            std::to_string(v.edge_slots) + " edge slots)"
                      : std::string());
        break;
    }
    if (half_messages)
        s += ", fp16 messages";
    return s + ", " + std::to_string(v.threads) + " threads a block";
}

} // namespace kernels
} // namespace gpuldpc
} // namespace gr
