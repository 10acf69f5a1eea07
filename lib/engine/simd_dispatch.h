/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_SIMD_DISPATCH_H
#define INCLUDED_GPULDPC_ENGINE_SIMD_DISPATCH_H

// The entries of Highway's dispatch tables (HWY_EXPORT) one target at a
// time, without Highway's process-wide choice: every decoder keeps its own.
// For the HWY_ONCE part of a file compiled with foreach_target.h.

#include <hwy/highway.h>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace detail {

//! Calls use(index, name) for each target compiled here that this CPU runs,
//! best first; index selects the target's entry of an HWY_DISPATCH_TABLE.
template <class F>
void for_each_dispatch_entry(F use)
{
    for (const int64_t target : hwy::SupportedAndGeneratedTargets()) {
        const int64_t bit =
            HWY_CHOSEN_TARGET_SHIFT(target) & HWY_CHOSEN_TARGET_MASK_TARGETS;
        if (bit != 0)
            use(size_t(hwy::Num0BitsBelowLS1Bit_Nonzero64(uint64_t(bit))),
                hwy::TargetName(target));
    }
}

//! The kernels of the targets for_each_dispatch_entry() lists, from the
//! HWY_DISPATCH_TABLE()s of a file's decode and lanes functions
template <class Kernel, class DecodeTable, class LanesTable>
std::vector<Kernel> dispatch_kernels(const DecodeTable& decode, const LanesTable& lanes)
{
    std::vector<Kernel> out;
    for_each_dispatch_entry([&](size_t index, const char* name) {
        Kernel k;
        k.decode = decode[index];
        k.lanes = lanes[index]();
        k.target = name;
        out.push_back(k);
    });
    return out;
}

/*!
 * The kernel a decoder on \p chosen runs for calls too small to give each of
 * its threads a group: AVX2's under an AVX-512 target, where \p exact (the
 * rule's arithmetic is the same in any lanes: integers, or float operations
 * without transcendental functions), so that a call's size never changes a
 * frame's result; otherwise \p chosen itself.
 */
template <class Kernel>
Kernel
narrower_kernel(const std::vector<Kernel>& kernels, const Kernel& chosen, bool exact)
{
    if (exact && std::string(chosen.target).rfind("AVX3", 0) == 0)
        for (const auto& k : kernels)
            if (std::string(k.target) == "AVX2" && k.lanes < chosen.lanes)
                return k;
    return chosen;
}

//! kernels[1] where a call of \p frames leaves some of \p workers without a
//! group of kernels[0]'s lanes, else kernels[0]
template <class Kernel>
const Kernel&
narrow_or_wide(const std::array<Kernel, 2>& kernels, size_t frames, size_t workers)
{
    return frames < kernels[0].lanes * workers ? kernels[1] : kernels[0];
}

//! \p frames, or fewer where their last round of groups (a group of the
//! lanes of the kernel that narrow_or_wide() takes, on each of \p workers)
//! would be less than half full: then the whole rounds before it
template <class Kernel>
size_t
whole_round_frames(const std::array<Kernel, 2>& kernels, size_t frames, size_t workers)
{
    // a multiple of the wide kernel's round takes the wide kernel, one below
    // it the narrow kernel, as the frames do
    const size_t round = narrow_or_wide(kernels, frames, workers).lanes * workers;
    const size_t whole = frames / round * round;
    return whole > 0 && 2 * (frames - whole) < round ? whole : frames;
}

//! kernel_variant()'s note on kernels[1], empty where it is kernels[0]
template <class Kernel>
std::string narrower_note(const std::array<Kernel, 2>& kernels, size_t workers)
{
    if (kernels[1].lanes == kernels[0].lanes)
        return std::string();
    return std::string("; ") + kernels[1].target + " (" +
           std::to_string(kernels[1].lanes) +
           " frames a group) for calls of fewer than " +
           std::to_string(kernels[0].lanes * workers) + " frames";
}

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_SIMD_DISPATCH_H */
