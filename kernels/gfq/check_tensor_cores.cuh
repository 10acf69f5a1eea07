/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_GFQ_CHECK_TENSOR_CORES_CUH
#define INCLUDED_GPULDPC_KERNELS_GFQ_CHECK_TENSOR_CORES_CUH

// The tensor-core check update (fft_bp_family::tensor_cores): q = 64, four
// checks a warp, flooding, on chip. Internal to the kernels.
//
// A warp updates four checks of up to 4 edges at once. Their 16 edge slots are
// the rows of m16n8k8 matrix products (TF32 operands, FP32 accumulation):
// lane (g = lane / 4, t = lane % 4) holds rows g and g + 8, edge slots g % 2
// and 2 + g % 2 of check g / 2, and of each row the 16 values
// y = 8 k + t + 4 i (k = 0..7, i = 0..1): the A operand's fragments of the 8
// column tiles k. The 64-point Walsh-Hadamard transform is H8 (x) H8:
// butterflies over the tile index k in registers, then one product with H8 a
// tile, its columns permuted so that the product's fragment (columns 2t and
// 2t + 1 of row g) holds values t and t + 4 again, the A layout. TF32 keeps 10
// of FP32's 23 mantissa bits: each operand is split into its 10 high bits and
// the remainder, and the two products add up to nearly FP32 precision (one
// product alone leaves an error floor: H100, GF(64) with 96 symbols, FER 1e-3
// moved from 2.5 to 5.5 dB). The CPU reference's stage order is not kept;
// results agree within rounding. The
// products over the other edges of a check: two rows in the lane, the other
// two in lane ^ 4, a shuffle per value pair. An idle slot enters as the
// distribution of the zero symbol, whose spectrum is all ones. Compared with
// the register check update, no value passes through shared memory between
// the transforms, and the check-to-variable messages of a lane are contiguous
// (16-byte loads and stores).

#include "gfq/common.cuh"
#include "gfq/traits.cuh"
#include <cfloat>

namespace gr {
namespace gpuldpc {
namespace kernels {
namespace gfq {

namespace {

// Position of check-domain value y in an edge's check-to-variable row: lane t
// = y % 4 keeps its 16 values (index w = y / 4) contiguous, their 16-byte
// units swizzled (fp32: by t and the edge's parity; fp16: by the parity) so
// that the 8 lanes of a quarter warp (two edges, four t) hit distinct banks.
// A lane's 16 values of an edge in 16-byte units: 4 of fp32, 2 of fp16.
template <typename M>
struct lane_units {
    static constexpr unsigned per_unit = 16 / sizeof(M), count = 16 / per_unit;
    // element offset of unit u of lane t in the row of \p edge
    static __host__ __device__ __forceinline__ unsigned
    offset(unsigned t, size_t edge, unsigned u)
    {
        const unsigned odd = unsigned(edge) & 1;
        const unsigned swizzle = half_storage<M> ? odd : (t >> 1) | (odd << 1);
        return (t << 4) + per_unit * (u ^ swizzle);
    }
    static __device__ __forceinline__ void load(const M* p, float (&v)[per_unit])
    {
        if constexpr (half_storage<M>) {
            const uint4 raw = *reinterpret_cast<const uint4*>(p);
            const __half2* h = reinterpret_cast<const __half2*>(&raw);
#pragma unroll
            for (unsigned j = 0; j < 4; ++j) {
                const float2 f = __half22float2(h[j]);
                v[2 * j] = f.x;
                v[2 * j + 1] = f.y;
            }
        } else {
            const float4 x = *reinterpret_cast<const float4*>(p);
            v[0] = x.x;
            v[1] = x.y;
            v[2] = x.z;
            v[3] = x.w;
        }
    }
    static __device__ __forceinline__ void store(M* p, const float (&v)[per_unit])
    {
        if constexpr (half_storage<M>) {
            uint4 raw;
            __half2* h = reinterpret_cast<__half2*>(&raw);
#pragma unroll
            for (unsigned j = 0; j < 4; ++j)
                h[j] = __floats2half2_rn(v[2 * j], v[2 * j + 1]);
            *reinterpret_cast<uint4*>(p) = raw;
        } else {
            *reinterpret_cast<float4*>(p) = make_float4(v[0], v[1], v[2], v[3]);
        }
    }
};

template <typename M>
__host__ __device__ __forceinline__ unsigned mma_c2v_position(unsigned y, size_t edge)
{
    const unsigned w = y >> 2; // lane y % 4's value index
    return lane_units<M>::offset(y & 3, edge, w / lane_units<M>::per_unit) +
           w % lane_units<M>::per_unit;
}

// A float at a 32-bit shared-memory address (ordered like any shared load)
__device__ __forceinline__ float load_shared(unsigned address)
{
    float v;
    asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "r"(address) : "memory");
    return v;
}

// x cut to TF32 (its 10 high mantissa bits): one logic operation, where the
// rounding conversion takes several on sm_90
__device__ __forceinline__ unsigned tf32_head(float x)
{
    return __float_as_uint(x) & 0xffffe000u;
}

// c += a * b for one m16n8k8 tile (TF32 operands as 32-bit patterns)
__device__ __forceinline__ void
mma_tf32(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, "
        "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
    __trap(); // fft_bp_tensor_cores() is false for code built below sm_80
#endif
}

// The B operand of the product with H8 (entries +-1, exact in TF32): lane
// (g, t) holds H8[t][s(g)] and H8[t + 4][s(g)], s(n) = n / 2 + 4 (n % 2).
struct mma_hadamard {
    unsigned b0, b1;
    __device__ explicit mma_hadamard(unsigned lane)
    {
        const unsigned g = lane >> 2, t = lane & 3;
        const unsigned col = (g >> 1) + 4 * (g & 1);
        b0 = __float_as_uint((__popc(t & col) & 1) ? -1.0f : 1.0f);
        b1 = __float_as_uint((__popc((t + 4) & col) & 1) ? -1.0f : 1.0f);
    }
};

// Walsh-Hadamard transforms of the warp's 16 rows; a[h][k][i]: row g + 8h,
// value 8k + t + 4i.
__device__ __forceinline__ void mma_wht64(float (&a)[2][8][2], const mma_hadamard& hb)
{
#pragma unroll
    for (unsigned s = 1; s < 8; s <<= 1)
#pragma unroll
        for (unsigned k = 0; k < 8; ++k)
            if (!(k & s))
#pragma unroll
                for (unsigned h = 0; h < 2; ++h)
#pragma unroll
                    for (unsigned i = 0; i < 2; ++i) {
                        const float u = a[h][k][i], w = a[h][k + s][i];
                        a[h][k][i] = u + w;
                        a[h][k + s][i] = u - w;
                    }
#pragma unroll
    for (unsigned k = 0; k < 8; ++k) {
        const float v[4] = { a[0][k][0], a[1][k][0], a[0][k][1], a[1][k][1] };
        unsigned big[4], rest[4];
#pragma unroll
        for (unsigned j = 0; j < 4; ++j) {
            big[j] = tf32_head(v[j]);
            // exact in FP32; the tensor core cuts its own low bits
            rest[j] = __float_as_uint(v[j] - __uint_as_float(big[j]));
        }
        float c[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
        mma_tf32(c, rest, hb.b0, hb.b1);
        mma_tf32(c, big, hb.b0, hb.b1);
        a[0][k][0] = c[0];
        a[0][k][1] = c[1];
        a[1][k][0] = c[2];
        a[1][k][1] = c[3];
    }
}

// Four checks c_first .. c_first + 3 (those that exist) by a warp, flooding.
template <typename T>
__device__ void check_update_mma(const fft_bp_params& p,
                                 const frame_state<typename T::message>& s,
                                 const mma_hadamard& hb,
                                 unsigned c_first)
{
    static_assert(T::family == fft_bp_family::tensor_cores,
                  "the tensor-core check update");
    constexpr unsigned Q = T::q;
    using M = typename T::message;
    using units = lane_units<M>;
    const fft_bp_graph& gr = p.graph;
    const unsigned lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    const unsigned c = c_first + (g >> 1);
    unsigned e0 = 0, deg = 0;
    if (c < gr.checks) {
        e0 = s.check_offsets[c];
        deg = s.check_offsets[c + 1] - e0;
    }
    float a[2][8][2];
    float mx[2];
#pragma unroll
    for (unsigned h = 0; h < 2; ++h) {
        const unsigned slot = (g & 1) + 2 * h, e = e0 + slot;
        mx[h] = 0.0f;
        if (slot < deg) {
            // the variable's value of y = 8k + t + 4i is h^-1 y, linear over
            // GF(2): the images of t, t + 4 and of 8k (from those of 8, 16, 32)
            // combine by XOR, five table lookups instead of sixteen
            const uint32_t word = s.check_edges[e];
            const uint8_t* to_variable = s.gf_mul + (word & 0xff) * Q;
            unsigned low[2] = { to_variable[t], to_variable[t + 4] };
            const unsigned b8 = to_variable[8], b16 = to_variable[16],
                           b32 = to_variable[32];
            // the belief row starts at a 256-byte boundary (fft_bp_kernel):
            // its base ORs with four times a value index
            const unsigned row =
                unsigned(__cvta_generic_to_shared(s.app + size_t(word >> 8) * Q));
            const unsigned high[8] = { row,
                                       row | (b8 << 2),
                                       row | (b16 << 2),
                                       row | ((b16 ^ b8) << 2),
                                       row | (b32 << 2),
                                       row | ((b32 ^ b8) << 2),
                                       row | ((b32 ^ b16) << 2),
                                       row | ((b32 ^ b16 ^ b8) << 2) };
            low[0] <<= 2;
            low[1] <<= 2;
            const M* c2v = s.c2v + size_t(e) * Q;
            mx[h] = -FLT_MAX;
#pragma unroll
            for (unsigned u = 0; u < units::count; ++u) {
                float old[units::per_unit];
                units::load(c2v + units::offset(t, e, u), old);
#pragma unroll
                for (unsigned j = 0; j < units::per_unit; ++j) {
                    const unsigned w = u * units::per_unit + j, k = w >> 1, i = w & 1;
                    const float x = load_shared(high[k] ^ low[i]) - old[j];
                    a[h][k][i] = x;
                    mx[h] = fmaxf(mx[h], x);
                }
            }
        }
    }
#pragma unroll
    for (unsigned h = 0; h < 2; ++h) {
        mx[h] = group_max<4>(mx[h]);
        const bool active = (g & 1) + 2 * h < deg;
#pragma unroll
        for (unsigned k = 0; k < 8; ++k)
#pragma unroll
            for (unsigned i = 0; i < 2; ++i)
                a[h][k][i] = active ? exp2_ftz(a[h][k][i] * log2e - mx[h] * log2e)
                                    : (k == 0 && i == 0 && t == 0 ? 1.0f : 0.0f);
    }

    mma_wht64(a, hb);
    // spectra of the products over the other edges of the check
#pragma unroll
    for (unsigned k = 0; k < 8; ++k)
#pragma unroll
        for (unsigned i = 0; i < 2; ++i) {
            const float mine = a[0][k][i] * a[1][k][i];
            const float other = __shfl_xor_sync(full_mask, mine, 4);
            const float a0 = a[0][k][i];
            a[0][k][i] = a[1][k][i] * other;
            a[1][k][i] = a0 * other;
        }
    mma_wht64(a, hb);

    // check-to-variable messages: floored (rounding can leave tiny negative
    // probabilities), logarithms normalised to a maximum of 0
#pragma unroll
    for (unsigned h = 0; h < 2; ++h) {
        float wmax = -FLT_MAX;
#pragma unroll
        for (unsigned k = 0; k < 8; ++k)
#pragma unroll
            for (unsigned i = 0; i < 2; ++i)
                wmax = fmaxf(wmax, a[h][k][i]);
        wmax = group_max<4>(wmax);
        const unsigned slot = (g & 1) + 2 * h, e = e0 + slot;
        if (slot < deg) {
            // values below wmax e^-30, zero or negative (rounding) give -30
            const float log_max = log2_ftz(wmax) * ln2;
            M* c2v = s.c2v + size_t(e) * Q;
#pragma unroll
            for (unsigned u = 0; u < units::count; ++u) {
                float out[units::per_unit];
#pragma unroll
                for (unsigned j = 0; j < units::per_unit; ++j) {
                    const unsigned w = u * units::per_unit + j, k = w >> 1, i = w & 1;
                    out[j] = fmaxf(log2_ftz(a[h][k][i]) * ln2 - log_max, -log_floor);
                }
                units::store(c2v + units::offset(t, e, u), out);
            }
        }
    }
}

} // namespace

} // namespace gfq
} // namespace kernels
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_KERNELS_GFQ_CHECK_TENSOR_CORES_CUH */
