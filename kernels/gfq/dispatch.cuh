/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_GFQ_DISPATCH_CUH
#define INCLUDED_GPULDPC_KERNELS_GFQ_DISPATCH_CUH

// The one place where a plan's runtime sizes become template arguments: the
// field size q, a warp's edge slots (or an edge-thread check's lanes) and the
// stored message type. Each kernel family's file asks it for the kernel of
// its instantiation once, when a launch plan is made. Internal to the kernels.

#include <cuda_fp16.h>
#include <type_traits>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace gfq {

template <unsigned V>
using size_constant = std::integral_constant<unsigned, V>;

template <typename T>
struct type_constant {
    using type = T;
};

/*!
 * f(size_constant<q>, size_constant<slots>, type_constant<M>) for q = 2 .. 256
 * (a power of two), slots = 0, 4 or 8 and M = __half where \p half, else
 * float; f MUST return the same type for all of them (the instantiations it
 * does not build it answers without naming a kernel). std::invalid_argument
 * for other sizes.
 */
template <typename F>
auto dispatch(unsigned q, unsigned slots, bool half, F&& f)
    -> decltype(f(size_constant<2>{}, size_constant<0>{}, type_constant<float>{}))
{
    auto messages = [&](auto Q, auto S) {
        return half ? f(Q, S, type_constant<__half>{}) : f(Q, S, type_constant<float>{});
    };
    auto edge_slots = [&](auto Q) {
        switch (slots) {
        case 0:
            return messages(Q, size_constant<0>{});
        case 4:
            return messages(Q, size_constant<4>{});
        case 8:
            return messages(Q, size_constant<8>{});
        }
        throw std::invalid_argument("fft_bp: " + std::to_string(slots) +
                                    " edge slots; allowed: 0, 4, 8");
    };
    switch (q) {
    case 2:
        return edge_slots(size_constant<2>{});
    case 4:
        return edge_slots(size_constant<4>{});
    case 8:
        return edge_slots(size_constant<8>{});
    case 16:
        return edge_slots(size_constant<16>{});
    case 32:
        return edge_slots(size_constant<32>{});
    case 64:
        return edge_slots(size_constant<64>{});
    case 128:
        return edge_slots(size_constant<128>{});
    case 256:
        return edge_slots(size_constant<256>{});
    }
    throw std::invalid_argument("fft_bp: q = " + std::to_string(q) +
                                "; allowed: a power of two, 2 .. 256");
}

} // namespace gfq
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_GFQ_DISPATCH_CUH */
