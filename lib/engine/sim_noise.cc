/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The simulator's BPSK channel values on the host with noise blocks in SIMD
// lanes: Philox and the noise of kernels/common/sim_frame.h, operation for
// operation, each rounded once (built without contraction into fused
// multiply-adds, and run only on targets whose MulAdd is one fused
// operation), so the floats are those of sim::noise_block() and
// sim::bpsk_llr() on the device and on the host.

#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SVE | HWY_SVE2 | HWY_SVE_256 | HWY_SVE2_128 | HWY_RVV)
#endif
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/sim_noise.cc"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include "common/sim_frame.h"
#include "sim_noise.h"
#include <hwy/highway.h>
#include <algorithm>

HWY_BEFORE_NAMESPACE();
namespace gr {
namespace gpuldpc {
namespace detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_NATIVE_FMA && HWY_TARGET != HWY_SCALAR

using DF = hn::ScalableTag<float>;
using DU = hn::RebindToUnsigned<DF>;
using DI = hn::RebindToSigned<DF>;
using VF = hn::Vec<DF>;
using VU = hn::Vec<DU>;

// The high 32 bits of each lane's 64-bit product
HWY_INLINE VU mul_high(VU a, VU b)
{
    const DU du;
    const hn::Repartition<uint64_t, DU> d64;
    const auto even = hn::MulEven(a, b);
    const auto odd =
        hn::MulEven(hn::BitCast(du, hn::ShiftRight<32>(hn::BitCast(d64, a))),
                    hn::BitCast(du, hn::ShiftRight<32>(hn::BitCast(d64, b))));
    return hn::OddEven(hn::BitCast(du, odd), hn::BitCast(du, hn::ShiftRight<32>(even)));
}

// sim::log_uniform()
HWY_INLINE VF log_uniform(VU x)
{
    const DF df;
    const DU du;
    const DI di;
    const VF u = hn::MulAdd(hn::ConvertTo(df, x),
                            hn::Set(df, sim::uniform_scale),
                            hn::Set(df, sim::uniform_offset));
    VU b = hn::BitCast(du, u);
    auto e = hn::Sub(hn::BitCast(di, hn::ShiftRight<23>(b)), hn::Set(di, 127));
    b = hn::Or(hn::And(b, hn::Set(du, 0x7FFFFFu)), hn::Set(du, 0x3F800000u));
    // b < 2^30: a signed comparison
    const auto big = hn::BitCast(di, b) > hn::Set(di, int32_t(sim::sqrt2_bits));
    b = hn::BitCast(du,
                    hn::IfThenElse(big,
                                   hn::Sub(hn::BitCast(di, b), hn::Set(di, 0x00800000)),
                                   hn::BitCast(di, b)));
    e = hn::IfThenElse(big, hn::Add(e, hn::Set(di, 1)), e);
    const VF m = hn::BitCast(df, b);
    const VF one = hn::Set(df, 1.0f);
    const VF t = hn::Div(hn::Add(m, hn::Set(df, -1.0f)), hn::Add(m, one));
    const VF t2 = hn::Mul(t, t);
    VF p = hn::MulAdd(t2, hn::Set(df, sim::atanh_9), hn::Set(df, sim::atanh_7));
    p = hn::MulAdd(p, t2, hn::Set(df, sim::atanh_5));
    p = hn::MulAdd(p, t2, hn::Set(df, sim::atanh_3));
    p = hn::MulAdd(p, t2, one);
    return hn::MulAdd(
        hn::ConvertTo(df, e), hn::Set(df, sim::ln2), hn::Mul(hn::Add(t, t), p));
}

// sim::gaussian_pair()
HWY_INLINE void gaussian_pair(VU x1, VU x2, VF& n0, VF& n1)
{
    const DF df;
    const DU du;
    const DI di;
    const VF r = hn::Sqrt(hn::Mul(hn::Set(df, -2.0f), log_uniform(x1)));
    const VU quadrant = hn::ShiftRight<30>(x2);
    const VF a = hn::Mul(
        hn::Add(hn::Mul(hn::ConvertTo(
                            df, hn::BitCast(di, hn::And(x2, hn::Set(du, 0x3FFFFFFFu)))),
                        hn::Set(df, sim::angle_scale)),
                hn::Set(df, -0.5f)),
        hn::Set(df, sim::half_pi));
    const VF a2 = hn::Mul(a, a);
    VF s = hn::MulAdd(a2, hn::Set(df, sim::sin_9), hn::Set(df, sim::sin_7));
    s = hn::MulAdd(s, a2, hn::Set(df, sim::sin_5));
    s = hn::MulAdd(s, a2, hn::Set(df, sim::sin_3));
    s = hn::MulAdd(hn::Mul(s, a2), a, a);
    VF c = hn::MulAdd(a2, hn::Set(df, sim::cos_8), hn::Set(df, sim::cos_6));
    c = hn::MulAdd(c, a2, hn::Set(df, sim::cos_4));
    c = hn::MulAdd(c, a2, hn::Set(df, sim::cos_2));
    c = hn::MulAdd(c, a2, hn::Set(df, 1.0f));
    // quadrants 1 and 3 swap sine and cosine; 1 and 2 negate the cosine's
    // place, 2 and 3 the sine's
    const VU zero = hn::Zero(du);
    const auto swap =
        hn::RebindMask(df, hn::Ne(hn::And(quadrant, hn::Set(du, 1u)), zero));
    const auto negate_cos = hn::RebindMask(
        df,
        hn::Ne(hn::And(hn::Xor(quadrant, hn::ShiftRight<1>(quadrant)), hn::Set(du, 1u)),
               zero));
    const auto negate_sin =
        hn::RebindMask(df, hn::Ne(hn::And(quadrant, hn::Set(du, 2u)), zero));
    const VF cs = hn::IfThenElse(swap, s, c), sn = hn::IfThenElse(swap, c, s);
    n0 = hn::Mul(r, hn::IfThenElse(negate_cos, hn::Neg(cs), cs));
    n1 = hn::Mul(r, hn::IfThenElse(negate_sin, hn::Neg(sn), sn));
}

bool bpsk_llrs(const sim_bpsk_job& job)
{
    const DF df;
    const DU du;
    const size_t L = hn::Lanes(df);
    const size_t blocks = (job.count + sim::noise_per_block - 1) / sim::noise_per_block;
    const uint32_t f0 = uint32_t(job.frame), f1 = uint32_t(job.frame >> 32);
    HWY_ALIGN float noise[4 * HWY_MAX_BYTES / sizeof(float)];
    const VF sigma = hn::Set(df, job.sigma), gain = hn::Set(df, job.llr_gain);
    const VF plus = hn::Set(df, 1.0f), minus = hn::Set(df, -1.0f);
    for (size_t b0 = 0; b0 < blocks; b0 += L) {
        VU c0 = hn::Iota(du, uint32_t(b0)), c1 = hn::Set(du, f0), c2 = hn::Set(du, f1),
           c3 = hn::Set(du, sim::noise_stream);
        uint32_t k0 = uint32_t(job.seed), k1 = uint32_t(job.seed >> 32);
        const VU m0 = hn::Set(du, sim::philox_m0), m1 = hn::Set(du, sim::philox_m1);
        for (int round = 0; round < 10; ++round) {
            const VU lo0 = hn::Mul(m0, c0), hi0 = mul_high(m0, c0);
            const VU lo1 = hn::Mul(m1, c2), hi1 = mul_high(m1, c2);
            c0 = hn::Xor(hn::Xor(hi1, c1), hn::Set(du, k0));
            c2 = hn::Xor(hn::Xor(hi0, c3), hn::Set(du, k1));
            c1 = lo1;
            c3 = lo0;
            k0 += sim::philox_w0;
            k1 += sim::philox_w1;
        }
        VF n0, n1, n2, n3;
        gaussian_pair(c0, c1, n0, n1);
        gaussian_pair(c2, c3, n2, n3);
        hn::StoreInterleaved4(n0, n1, n2, n3, df, noise);
        // the channel values of these blocks' bits, L at a time
        const size_t t0 = b0 * sim::noise_per_block;
        const size_t end = std::min(job.count, t0 + 4 * L);
        for (size_t t = t0; t < end; t += L) {
            if (t + L <= end) {
                const auto one_bit = hn::RebindMask(
                    df,
                    hn::Ne(hn::PromoteTo(
                               du, hn::LoadU(hn::Rebind<uint8_t, DU>(), job.bits + t)),
                           hn::Zero(du)));
                const VF sign = hn::IfThenElse(one_bit, minus, plus);
                const VF llr = hn::Mul(
                    gain, hn::MulAdd(sigma, hn::Load(df, noise + (t - t0)), sign));
                hn::StoreU(llr, df, job.llr + t);
            } else {
                sim::bpsk_llrs(job.seed,
                               job.frame,
                               job.bits,
                               t,
                               end,
                               job.sigma,
                               job.llr_gain,
                               job.llr);
            }
        }
    }
    return true;
}

size_t bpsk_lanes() { return hn::Lanes(DF()); }

#else

// MulAdd would round twice here: the scalar draw runs
bool bpsk_llrs(const sim_bpsk_job&) { return false; }
size_t bpsk_lanes() { return 0; }

#endif

// NOLINTNEXTLINE(google-readability-namespace-comments)
} // namespace HWY_NAMESPACE
} // namespace detail
} // namespace gpuldpc
} // namespace gr
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "simd_dispatch.h"

namespace gr {
namespace gpuldpc {
namespace detail {

HWY_EXPORT(bpsk_llrs);
HWY_EXPORT(bpsk_lanes);

namespace {

// The best target this CPU runs with fused multiply-adds: its index in the
// dispatch tables, or -1
int bpsk_entry()
{
    static const int entry = [] {
        int found = -1;
        for_each_dispatch_entry([&](size_t index, const char*) {
            if (found < 0 && HWY_DISPATCH_TABLE(bpsk_lanes)[index]() > 0)
                found = int(index);
        });
        return found;
    }();
    return entry;
}

} // namespace

bool sim_bpsk_llrs_simd(const sim_bpsk_job& job)
{
    const int entry = bpsk_entry();
    return entry >= 0 && HWY_DISPATCH_TABLE(bpsk_llrs)[entry](job);
}

std::string sim_bpsk_simd_target()
{
    std::string name;
    const int entry = bpsk_entry();
    for_each_dispatch_entry([&](size_t index, const char* target) {
        if (int(index) == entry)
            name = target;
    });
    return name;
}

} // namespace detail
} // namespace gpuldpc
} // namespace gr
#endif
