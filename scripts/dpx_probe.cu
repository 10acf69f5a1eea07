/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Hopper's DPX instructions (16-bit pair integer min/max, fused with an add
// or of three inputs) against the fp16 pair instructions the quasi-cyclic
// min-sum kernels use, for the question whether DPX lowers the instruction
// count or raises the rate of a check update (docs/performance.md,
// "DPX"). Each thread applies one operation to 8 independent pairs of
// 16-bit values, so that the SM's issue and pipes, not latency, set the
// rate; one block of 1024 threads an SM. Prints warp instructions a cycle
// an SM (an SM issues at most 4: one a scheduler).
//
// Build and run on a GPU of compute capability 9.0 (not part of the build):
//   nvcc -O3 -arch=sm_90 -o dpx_probe scripts/dpx_probe.cu && ./dpx_probe

#include <cuda_fp16.h>
#include <cstdint>
#include <cstdio>

enum class op {
    hmin2,     // fp16 pair min (HMNMX2): the kernels' minima
    hfma2,     // fp16 pair multiply-add (HFMA2): their FMA-pipe arithmetic
    hadd2,     // fp16 pair add (HADD2)
    vmins2,    // 16-bit pair min (__vmins2)
    viminrelu, // DPX 16-bit pair min and relu (__vimin_s16x2_relu)
    viaddmin,  // DPX add then min (__viaddmin_s16x2): a belief's add and limit
    vimin3,    // DPX min of three (__vimin3_s16x2)
    lop3,      // integer logic (LOP3): the ALU pipe's plainest instruction
};

__device__ __forceinline__ uint32_t bits(__half2 h)
{
    return *reinterpret_cast<uint32_t*>(&h);
}
__device__ __forceinline__ __half2 half2_of(uint32_t u)
{
    return *reinterpret_cast<__half2*>(&u);
}

template <op OP>
__device__ __forceinline__ uint32_t apply(uint32_t a, uint32_t b, uint32_t c)
{
    if constexpr (OP == op::hmin2)
        return bits(__hmin2(half2_of(a), half2_of(b)));
    else if constexpr (OP == op::hfma2)
        return bits(__hfma2(half2_of(a), half2_of(b), half2_of(c)));
    else if constexpr (OP == op::hadd2)
        return bits(__hadd2(half2_of(a), half2_of(b)));
    else if constexpr (OP == op::vmins2)
        return __vmins2(a, b);
    else if constexpr (OP == op::viminrelu)
        return __vimin_s16x2_relu(a, b);
    else if constexpr (OP == op::viaddmin)
        return __viaddmin_s16x2(a, b, c);
    else if constexpr (OP == op::vimin3)
        return __vimin3_s16x2(a, b, c);
    else
        return (a ^ b) | c;
}

template <op OP>
__global__ void probe(unsigned steps, uint32_t seed, uint32_t* sink, long long* cycles)
{
    constexpr unsigned chains = 8;
    uint32_t v[chains];
    for (unsigned i = 0; i < chains; ++i)
        v[i] = (seed ^ (threadIdx.x * 0x9e3779b9u)) + i * 0x00010001u;
    // operands that vary by thread, so nothing folds; values stay finite
    const uint32_t b = 0x3c003c00u ^ (threadIdx.x & 0x00ff00ffu);
    const uint32_t c = 0x3c003c00u + (seed & 0x000f000fu);
    __syncthreads();
    const long long start = clock64();
    for (unsigned k = 0; k < steps; ++k) {
#pragma unroll
        for (unsigned i = 0; i < chains; ++i)
            v[i] = apply<OP>(v[i], b, c);
    }
    __syncthreads();
    const long long end = clock64();
    uint32_t sum = 0;
    for (unsigned i = 0; i < chains; ++i)
        sum ^= v[i];
    if (sum == seed + 1) // keeps the chains
        *sink = sum;
    if (threadIdx.x == 0)
        cycles[blockIdx.x] = end - start;
}

template <op OP>
void run(const char* name, int sms, uint32_t* sink, long long* cycles)
{
    const unsigned threads = 1024, steps = 1 << 14;
    probe<OP><<<sms, threads>>>(steps, 12345u, sink, cycles); // warm-up
    probe<OP><<<sms, threads>>>(steps, 12345u, sink, cycles);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        std::printf("%s: %s\n", name, cudaGetErrorString(e));
        return;
    }
    long long host[1024];
    cudaMemcpy(host, cycles, sizeof(long long) * sms, cudaMemcpyDeviceToHost);
    long long most = 0;
    for (int i = 0; i < sms; ++i)
        most = host[i] > most ? host[i] : most;
    // the loop's instructions: 8 a step a thread (the loop's own counter and
    // branch are a few a step of 8)
    const double warp_instructions = double(threads / 32) * steps * 8;
    std::printf("%-10s %6.2f warp instructions a cycle an SM\n",
                name,
                warp_instructions / double(most));
}

int main()
{
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, device);
    std::printf("%s, %d SMs, one block of 1024 threads an SM, 8 independent chains "
                "a thread\n",
                prop.name,
                sms);
    uint32_t* sink = nullptr;
    long long* cycles = nullptr;
    cudaMalloc(&sink, sizeof(uint32_t));
    cudaMalloc(&cycles, sizeof(long long) * 1024);
    run<op::hmin2>("hmin2", sms, sink, cycles);
    run<op::hfma2>("hfma2", sms, sink, cycles);
    run<op::hadd2>("hadd2", sms, sink, cycles);
    run<op::vmins2>("vmins2", sms, sink, cycles);
    run<op::viminrelu>("viminrelu", sms, sink, cycles);
    run<op::viaddmin>("viaddmin", sms, sink, cycles);
    run<op::vimin3>("vimin3", sms, sink, cycles);
    run<op::lop3>("lop3", sms, sink, cycles);
    cudaFree(sink);
    cudaFree(cycles);
    return 0;
}
