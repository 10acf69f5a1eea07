/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_SIM_FRAME_H
#define INCLUDED_GPULDPC_KERNELS_SIM_FRAME_H

// The simulator's frames, defined once for the host (g++) and the device
// (nvcc): frame i's information symbols and channel noise are functions of
// the seed and i alone, drawn from the counter-based generator Philox4x32-10
// (Salmon, Moraes, Dror, Shaw, "Parallel random numbers: as easy as 1, 2, 3",
// SC'11), so any split of the frame indices over threads, GPUs or MPI ranks
// draws the same frames.
//
// Every floating-point step is an IEEE operation rounded once (add, multiply,
// fused multiply-add, divide, square root) in the order written: the device
// uses the _rn intrinsics, which nvcc never fuses, and the host file that
// includes this header is compiled with -ffp-contract=off. Host and device
// therefore give the same LLRs bit for bit, and an 8-bit decoder counts the
// same errors on both. The logarithm, sine and cosine are polynomials of
// these operations (not the math library's, whose last bits differ between
// the host and the device).
//
// Counters: (block, frame low 32 bits, frame high 32 bits, stream), key
// (seed low 32 bits, seed high 32 bits); stream 0 draws information, 16
// symbols a block (byte j % 16 of block j / 16, little-endian words, masked
// to q - 1), stream 1 draws noise, 4 transmitted bits a block (two
// Box-Muller pairs).

#include <cstdint>

// Internal linkage: every file that includes this header keeps its own
// copies, compiled with that file's flags (the engine's without contraction),
// so that no other file's copy can stand in for them at link time.
#ifdef __CUDACC__
#define GPULDPC_SIM_HD static __host__ __device__ __forceinline__
#else
#define GPULDPC_SIM_HD static inline
#endif

#ifndef __CUDA_ARCH__
#include <cmath>
#include <cstring>
#endif

namespace gr {
namespace gpuldpc {
namespace sim {

constexpr uint32_t info_stream = 0;
constexpr uint32_t noise_stream = 1;
//! information symbols a generator block gives
constexpr unsigned info_per_block = 16;
//! transmitted bits a generator block gives noise for
constexpr unsigned noise_per_block = 4;

// The device encoder's tables (simulate.h), made on the host
// (simulation_worker.h).
//! threads of the encoder's blocks, for which the accumulator's runs are laid out
constexpr unsigned encoder_threads = 512;
//! rows of an echelon slice: a warp's lanes, a row each
constexpr unsigned slice_rows = 32;
//! an accumulator entry's flag: the last of its check
constexpr uint32_t acc_end = 0x80000000u;
//! an accumulator entry without an information position
constexpr uint32_t acc_none = 0x7FFFFFFFu;

struct philox_out {
    uint32_t w[4];
};

GPULDPC_SIM_HD uint32_t mul_high(uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    return __umulhi(a, b);
#else
    return uint32_t((uint64_t(a) * b) >> 32);
#endif
}

//! Philox4x32's multipliers and key increments (Random123)
constexpr uint32_t philox_m0 = 0xD2511F53u, philox_m1 = 0xCD9E8D57u;
constexpr uint32_t philox_w0 = 0x9E3779B9u, philox_w1 = 0xBB67AE85u;

/*! Philox4x32 with 10 rounds (the Random123 definition and constants). */
GPULDPC_SIM_HD philox_out philox4x32_10(
    uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0, uint32_t k1)
{
    constexpr uint32_t m0 = philox_m0, m1 = philox_m1;
    constexpr uint32_t w0 = philox_w0, w1 = philox_w1;
    for (int round = 0; round < 10; ++round) {
        const uint32_t lo0 = m0 * c0, hi0 = mul_high(m0, c0);
        const uint32_t lo1 = m1 * c2, hi1 = mul_high(m1, c2);
        const uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
        c0 = n0;
        c1 = lo1;
        c2 = n2;
        c3 = lo0;
        k0 += w0;
        k1 += w1;
    }
    return philox_out{ { c0, c1, c2, c3 } };
}

/*! Block \p block of stream \p stream of frame \p frame. */
GPULDPC_SIM_HD philox_out draw(uint64_t seed,
                               uint64_t frame,
                               uint32_t block,
                               uint32_t stream)
{
    return philox4x32_10(block,
                         uint32_t(frame),
                         uint32_t(frame >> 32),
                         stream,
                         uint32_t(seed),
                         uint32_t(seed >> 32));
}

/*! Information symbol \p j of a frame from its block (j / info_per_block). */
GPULDPC_SIM_HD unsigned info_symbol(const philox_out& r, unsigned j, unsigned q)
{
    const unsigned byte = j % info_per_block;
    return (r.w[byte / 4] >> (8 * (byte % 4))) & (q - 1);
}

/*!
 * The 16 binary information symbols of a block (info_symbol(r, j, 2)), symbol
 * j at bit j: the low bit of each byte, four bytes gathered by one multiply
 * (byte i's bit lands at 28 + i; no two partial products meet, so nothing
 * carries into bits 28 .. 31).
 */
GPULDPC_SIM_HD uint32_t info_bits16(const philox_out& r)
{
    uint32_t out = 0;
    for (unsigned w = 0; w < 4; ++w)
        out |= (((r.w[w] & 0x01010101u) * 0x10204080u) >> 28) << (4 * w);
    return out;
}

// IEEE operations rounded once each, never fused
GPULDPC_SIM_HD float mul(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}
GPULDPC_SIM_HD float add(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}
GPULDPC_SIM_HD float fma(float a, float b, float c)
{
#ifdef __CUDA_ARCH__
    return __fmaf_rn(a, b, c);
#else
    return std::fma(a, b, c);
#endif
}
GPULDPC_SIM_HD float div(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fdiv_rn(a, b);
#else
    return a / b;
#endif
}
GPULDPC_SIM_HD float sqrt(float a)
{
#ifdef __CUDA_ARCH__
    return __fsqrt_rn(a);
#else
    return std::sqrt(a);
#endif
}
GPULDPC_SIM_HD float to_float(uint32_t x)
{
#ifdef __CUDA_ARCH__
    return __uint2float_rn(x);
#else
    return float(x); // round to nearest, as the device's __uint2float_rn
#endif
}
GPULDPC_SIM_HD uint32_t bits_of(float x)
{
#ifdef __CUDA_ARCH__
    return __float_as_uint(x);
#else
    uint32_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
#endif
}
GPULDPC_SIM_HD float float_of(uint32_t b)
{
#ifdef __CUDA_ARCH__
    return __uint_as_float(b);
#else
    float x;
    std::memcpy(&x, &b, sizeof x);
    return x;
#endif
}

// The noise's constants, shared with the host's SIMD copy (sim_noise.cc)
//! 2^-32 and 2^-33: a 32-bit draw x as the uniform x / 2^32 + 2^-33 in (0, 1]
constexpr float uniform_scale = 2.3283064365386963e-10f;
constexpr float uniform_offset = 1.1641532182693481e-10f;
//! 1/9, 1/7, 1/5, 1/3: the series of atanh
constexpr float atanh_9 = 0.111111111f, atanh_7 = 0.142857143f, atanh_5 = 0.2f,
                atanh_3 = 0.333333333f;
constexpr float ln2 = 0.693147180559945309f;
//! 2^-30 and pi/2: a 30-bit draw as an angle in [-pi/4, pi/4)
constexpr float angle_scale = 9.313225746154785e-10f;
constexpr float half_pi = 1.5707963267948966f;
//! the sine's Taylor terms of a^9 .. a^3, the cosine's of a^8 .. a^2
constexpr float sin_9 = 2.75573192e-6f, sin_7 = -1.98412698e-4f, sin_5 = 8.33333333e-3f,
                sin_3 = -0.166666667f;
constexpr float cos_8 = 2.48015873e-5f, cos_6 = -1.38888889e-3f, cos_4 = 4.16666667e-2f,
                cos_2 = -0.5f;
//! mantissas above sqrt(2) (as float bits) are halved
constexpr uint32_t sqrt2_bits = 0x3FB504F3u;

/*!
 * ln(x / 2^32 + 2^-33), in (-22.9, 0]: the logarithm of a uniform draw in
 * (0, 1], to within a few float ulps (2 atanh((m - 1)/(m + 1)) on the
 * mantissa m in [sqrt(1/2), sqrt(2)), terms to t^9).
 */
GPULDPC_SIM_HD float log_uniform(uint32_t x)
{
    const float u = fma(to_float(x), uniform_scale, uniform_offset);
    uint32_t b = bits_of(u);
    int e = int(b >> 23) - 127;
    b = (b & 0x7FFFFFu) | 0x3F800000u; // mantissa in [1, 2)
    if (b > sqrt2_bits) {              // above sqrt(2): halve it (exactly)
        b -= 0x00800000u;
        e += 1;
    }
    const float m = float_of(b);
    const float t = div(add(m, -1.0f), add(m, 1.0f));
    const float t2 = mul(t, t);
    float p = fma(t2, atanh_9, atanh_7);
    p = fma(p, t2, atanh_5);
    p = fma(p, t2, atanh_3);
    p = fma(p, t2, 1.0f);
    return fma(float(e), ln2, mul(add(t, t), p));
}

/*!
 * Two independent standard normal values from two 32-bit draws (Box-Muller):
 * radius sqrt(-2 ln u1), angle 2 pi u2 - pi/4 (a uniform angle all the same),
 * the sine and cosine of its quarter-turn remainder in [-pi/4, pi/4) by
 * Taylor polynomials (to a^9 and a^8: errors below 3e-8).
 */
GPULDPC_SIM_HD void gaussian_pair(uint32_t x1, uint32_t x2, float& n0, float& n1)
{
    const float r = sqrt(mul(-2.0f, log_uniform(x1)));
    const unsigned quadrant = x2 >> 30;
    const float a =
        mul(add(mul(to_float(x2 & 0x3FFFFFFFu), angle_scale), -0.5f), half_pi);
    const float a2 = mul(a, a);
    float s = fma(a2, sin_9, sin_7);
    s = fma(s, a2, sin_5);
    s = fma(s, a2, sin_3);
    s = fma(mul(s, a2), a, a);
    float c = fma(a2, cos_8, cos_6);
    c = fma(c, a2, cos_4);
    c = fma(c, a2, cos_2);
    c = fma(c, a2, 1.0f);
    float cs = c, sn = s;
    if (quadrant == 1) {
        cs = -s;
        sn = c;
    } else if (quadrant == 2) {
        cs = -c;
        sn = -s;
    } else if (quadrant == 3) {
        cs = s;
        sn = -c;
    }
    n0 = mul(r, cs);
    n1 = mul(r, sn);
}

/*! The noise of transmitted bits 4 b .. 4 b + 3 of a frame (block b). */
GPULDPC_SIM_HD void noise_block(uint64_t seed, uint64_t frame, uint32_t b, float n[4])
{
    const philox_out r = draw(seed, frame, b, noise_stream);
    gaussian_pair(r.w[0], r.w[1], n[0], n[1]);
    gaussian_pair(r.w[2], r.w[3], n[2], n[3]);
}

/*!
 * The channel LLR of a code bit sent as BPSK (bit -> 1 - 2 bit) with noise
 * sigma * n: llr_gain * (1 - 2 bit + sigma * n), llr_gain = -2 / sigma^2
 * (log P(1)/P(0), GNU Radio's sign).
 */
GPULDPC_SIM_HD float bpsk_llr(unsigned bit, float n, float sigma, float llr_gain)
{
    return mul(llr_gain, fma(sigma, n, bit ? -1.0f : 1.0f));
}

/*!
 * The channel values of a frame's transmitted bits begin .. end - 1 (bits[t]
 * 0 or 1, noise index t): llr[t] = bpsk_llr(bits[t], noise t). The scalar
 * form that the device, the host's fallback and the SIMD lanes' tests share.
 */
GPULDPC_SIM_HD void bpsk_llrs(uint64_t seed,
                              uint64_t frame,
                              const uint8_t* bits,
                              size_t begin,
                              size_t end,
                              float sigma,
                              float llr_gain,
                              float* llr)
{
    float n[noise_per_block];
    for (size_t t = begin; t < end; ++t) {
        if (t == begin || t % noise_per_block == 0)
            noise_block(seed, frame, uint32_t(t / noise_per_block), n);
        llr[t] = bpsk_llr(bits[t], n[t % noise_per_block], sigma, llr_gain);
    }
}

} // namespace sim
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_SIM_FRAME_H */
