/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Distributed shared memory against local shared memory, for the question
// whether a layered decoder can keep one frame pair's beliefs in the shared
// memory of a cluster of two blocks (docs/performance.md, DVB-S2). Each
// thread makes 4-byte read-modify-writes, a belief update's pattern, a share
// of them in the partner block's shared memory; addresses random a lane, or
// 32 consecutive words a warp (a quasi-cyclic layer's bits j Z + (r + s) mod
// Z). Prints updates a second over the GPU.
//
// Build and run on a GPU of compute capability 9.0 (not part of the build):
//   nvcc -O3 -arch=sm_90 -o dsmem_probe scripts/dsmem_probe.cu && ./dsmem_probe

#include <cooperative_groups.h>
#include <cstdint>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) read_modify_write(uint32_t words,
                                                            unsigned steps,
                                                            unsigned remote_per_1024,
                                                            bool warp_consecutive,
                                                            uint32_t* sink)
{
    extern __shared__ uint32_t local[];
    cg::cluster_group cluster = cg::this_cluster();
    uint32_t* partner = cluster.map_shared_rank(local, cluster.block_rank() ^ 1);
    for (uint32_t i = threadIdx.x; i < words; i += blockDim.x)
        local[i] = i;
    cluster.sync();
    const unsigned lane = threadIdx.x % 32;
    // a generator a lane, or one a warp (its lanes then take consecutive
    // words and the same block)
    uint32_t x =
        (warp_consecutive ? threadIdx.x / 32 : threadIdx.x) * 2654435761u + blockIdx.x;
    uint32_t sum = 0;
    for (unsigned k = 0; k < steps; ++k) {
        x = x * 1664525u + 1013904223u;
        const uint32_t at = ((x >> 8) + (warp_consecutive ? lane : 0)) % words;
        uint32_t* p = ((x >> 4) & 1023) < remote_per_1024 ? partner + at : local + at;
        const uint32_t v = *p;
        sum += v;
        *p = v + 1;
    }
    // no block leaves while its partner may still write its shared memory
    cluster.sync();
    if (sum == 0xdeadbeef) // keeps the loads
        *sink = sum;
}

int main()
{
    const uint32_t bytes = 128 * 1024, words = bytes / 4;
    const unsigned steps = 4096;
    if (cudaFuncSetAttribute(read_modify_write,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             bytes) != cudaSuccess) {
        std::printf("needs 128 KiB of shared memory a block and clusters (sm_90)\n");
        return 1;
    }
    uint32_t* sink;
    cudaMalloc(&sink, 4);
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    std::printf("%s; cluster of 2 blocks, %u KiB of shared words each\n",
                prop.name,
                bytes / 1024);
    const unsigned blocks = unsigned(sms) / 2 * 2 * 4;
    for (bool consecutive : { false, true })
        for (unsigned threads : { 384u, 1024u })
            for (unsigned remote : { 0u, 256u, 512u, 1024u }) {
                cudaEvent_t start, stop;
                cudaEventCreate(&start);
                cudaEventCreate(&stop);
                // the first launch warms up
                read_modify_write<<<blocks, threads, bytes>>>(
                    words, steps, remote, consecutive, sink);
                cudaEventRecord(start);
                read_modify_write<<<blocks, threads, bytes>>>(
                    words, steps, remote, consecutive, sink);
                cudaEventRecord(stop);
                cudaEventSynchronize(stop);
                float ms = 0;
                cudaEventElapsedTime(&ms, start, stop);
                const cudaError_t err = cudaGetLastError();
                std::printf("%-27s %4u threads, %4.0f %% remote: %7.1f G updates/s%s%s\n",
                            consecutive ? "32 consecutive words a warp" : "random a lane",
                            threads,
                            100.0 * remote / 1024,
                            double(blocks) * threads * steps / ms / 1e6,
                            err == cudaSuccess ? "" : ", ",
                            err == cudaSuccess ? "" : cudaGetErrorString(err));
                cudaEventDestroy(start);
                cudaEventDestroy(stop);
            }
    cudaFree(sink);
    return 0;
}
