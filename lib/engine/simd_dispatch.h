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
#include <cstddef>
#include <cstdint>
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

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_SIMD_DISPATCH_H */
