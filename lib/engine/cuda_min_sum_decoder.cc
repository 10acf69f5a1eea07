/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Host side of the CUDA decoder of binary codes in 8-bit fixed-point min-sum
// (message_precision::int8): the graph and the layered runs uploaded once,
// workspaces sized for the largest batch seen (and kept), two of them with
// their own streams so that one batch's copies overlap another's decoding.

#include "cuda_decoder.h"
#include <gnuradio/gpuldpc/engine/device.h>
#include <stdexcept>

#ifdef GPULDPC_HAVE_CUDA
#include "cuda_resources.h"
#include "ldpc_min_sum.h"
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <numeric>
#include <vector>
#endif

namespace gr {
namespace gpuldpc {
namespace detail {

namespace {
constexpr size_t max_cuda_min_sum_variable_degree = 256;
}

std::string cuda_min_sum_refusal(const ldpc_code& code, const decoder_config& config)
{
    if (code.q() != 2)
        return "the CUDA binary decoder takes binary codes; this one is over GF(" +
               std::to_string(code.q()) + ")";
    const bool min_sum = config.algorithm == decoder_algorithm::min_sum;
    const bool sum_product = config.algorithm == decoder_algorithm::sum_product;
    const bool int8 = config.messages == message_precision::int8;
    const bool fp32 = config.messages == message_precision::fp32;
    if (!((min_sum && (int8 || fp32)) || (sum_product && fp32)))
        return "the CUDA binary decoder runs algorithm='min-sum' with messages='int8' "
               "or 'fp32', and algorithm='sum-product' with messages='fp32'";
    if (!int8)
        return "";
    // a bit's belief sums its channel value and check messages in 16 bits
    for (unsigned v = 0; v < code.n(); ++v)
        if (code.variable_degree(v) > max_cuda_min_sum_variable_degree)
            return "the CUDA min-sum decoder takes bits of degree up to " +
                   std::to_string(max_cuda_min_sum_variable_degree) + "; bit " +
                   std::to_string(v) + " has " + std::to_string(code.variable_degree(v));
    return "";
}

#ifdef GPULDPC_HAVE_CUDA

namespace {

static_assert(sizeof(kernels::min_sum_status) == sizeof(frame_status) &&
                  offsetof(kernels::min_sum_status, iterations) ==
                      offsetof(frame_status, iterations) &&
                  offsetof(kernels::min_sum_status, invalid_inputs) ==
                      offsetof(frame_status, invalid_inputs),
              "the kernel's status is the engine's frame_status");

kernels::binary_rule binary_rule_of(const decoder_config& c)
{
    if (c.messages == message_precision::int8)
        return kernels::binary_rule::fixed_min_sum;
    return c.algorithm == decoder_algorithm::min_sum
               ? kernels::binary_rule::float_min_sum
               : kernels::binary_rule::float_sum_product;
}

// Frames of one launch at most on chip (input and output buffers grow with it).
constexpr size_t max_on_chip_launch = 1 << 16;

class cuda_min_sum_decoder final : public batch_decoder
{
public:
    cuda_min_sum_decoder(ldpc_code::sptr code, const decoder_config& config, int device)
        : batch_decoder(code, config), d_device(device)
    {
        const std::string refusal = cuda_min_sum_refusal(*d_code, d_config);
        if (!refusal.empty())
            throw std::invalid_argument(refusal);
        cuda::scoped_device guard(d_device);
        cudaDeviceProp prop;
        GPULDPC_CUDA_CHECK(cudaGetDeviceProperties(&prop, d_device));
        d_name = prop.name;

        const ldpc_code& c = *d_code;
        std::vector<int32_t> input_index(c.n(), -1);
        const auto& sent = c.transmitted_positions();
        for (size_t t = 0; t < sent.size(); ++t)
            input_index[sent[t]] = int32_t(t);
        d_check_offsets = cuda::upload(c.check_offsets());
        d_edge_variable = cuda::upload(c.edge_variable());
        d_variable_offsets = cuda::upload(c.variable_offsets());
        d_variable_edges = cuda::upload(c.variable_edges());
        d_info_positions = cuda::upload(c.info_positions());
        d_input_index = cuda::upload(input_index);

        auto& g = d_graph;
        g.n = c.n();
        g.checks = c.m();
        g.k = c.k();
        g.n_input = c.n_transmitted();
        g.edges = c.num_edges();
        for (unsigned v = 0; v < c.n(); ++v)
            g.max_variable_degree = std::max(g.max_variable_degree, c.variable_degree(v));
        for (unsigned ch = 0; ch < c.m(); ++ch)
            g.max_check_degree = std::max(g.max_check_degree, c.check_degree(ch));
        g.check_offsets = d_check_offsets.data();
        g.edge_variable = d_edge_variable.data();
        g.variable_offsets = d_variable_offsets.data();
        g.variable_edges = d_variable_edges.data();
        g.info_positions = d_info_positions.data();
        g.input_index = d_input_index.data();
        const bool layered = d_config.schedule == decoder_schedule::layered;
        if (layered) {
            // runs of checks that share no bit: updated at once, the result
            // of one after another
            d_run_checks = cuda::upload(c.layered_check_order());
            d_run_offsets = cuda::upload(c.layered_runs());
            g.run_checks = d_run_checks.data();
            g.run_offsets = d_run_offsets.data();
            g.runs = unsigned(c.layered_runs().size() - 1);
            const auto& runs = c.layered_runs();
            for (size_t r = 0; r + 1 < runs.size(); ++r)
                g.longest_run = std::max(g.longest_run, runs[r + 1] - runs[r]);
        }
        // Checks of up to 8 edges read the graph from compact records, two
        // loads a check; GPULDPC_GPU_DECODER_COMPACT_CHECKS=0 leaves them out,
        // for comparisons
        if (kernels::min_sum_compact_usable(g.n, g.max_check_degree, g.edges) &&
            cuda::environment_switch("GPULDPC_GPU_DECODER_COMPACT_CHECKS")) {
            std::vector<uint32_t> order(c.m());
            if (layered)
                order = c.layered_check_order();
            else
                std::iota(order.begin(), order.end(), 0u);
            std::vector<uint32_t> slot_edges;
            std::vector<uint16_t> slot_variables;
            kernels::min_sum_compact_checks(c.check_offsets().data(),
                                            c.edge_variable().data(),
                                            order.data(),
                                            order.size(),
                                            c.n(),
                                            slot_edges,
                                            slot_variables);
            d_slot_edges = cuda::upload(slot_edges);
            d_slot_variables = cuda::upload(slot_variables);
            g.slot_edges = d_slot_edges.data();
            // 16-byte records at the start of a device allocation: aligned
            g.slot_variables = reinterpret_cast<const uint4*>(d_slot_variables.data());
        }
        // The 8-bit rule two frames a lane in fp16 pairs, where exact: an
        // instruction for two frames, the same bytes a frame. On chip (n =
        // 1944, H100) 1.4x one frame a lane with the block's threads filling
        // the SM; in the global variant a third less time (DVB-S2).
        // GPULDPC_GPU_DECODER_PAIRS=0 takes one frame a lane, for comparisons.
        kernels::min_sum_choice choice;
        choice.pairs = cuda::environment_switch("GPULDPC_GPU_DECODER_PAIRS");
        // Where fp16 pairs are not exact (bits of degree above 15), 16-bit
        // integer pairs in the global variant, on devices whose s16x2
        // instructions are native (compute capability 9.0 and later; elsewhere
        // unmeasured): two frames a lane halve the requests of a check's
        // reads, which bound that kernel (5G NR BG1). GPULDPC_GPU_DECODER_WIDE_PAIRS=0
        // leaves them out, for comparisons.
        choice.wide_pairs =
            prop.major >= 9 && cuda::environment_switch("GPULDPC_GPU_DECODER_WIDE_PAIRS");
        // Check messages compressed (a word a frame a check) where the code
        // allows it, in the global variant: DVB-S2 rate 1/2 layered 1.12x
        // (64800 bits) and 1.15x (16200), H100. On chip the making again of
        // the messages costs more than the bytes save (n = 1944 layered
        // 0.90x). GPULDPC_GPU_DECODER_COMPRESSED=0 and
        // GPULDPC_GPU_DECODER_COMPRESSED_ON_CHIP=1, for comparisons.
        choice.compressed = cuda::environment_switch("GPULDPC_GPU_DECODER_COMPRESSED");
        // GPULDPC_GPU_DECODER_ON_CHIP=0: the global variant for every code,
        // for tests and comparisons
        choice.on_chip = cuda::environment_switch("GPULDPC_GPU_DECODER_ON_CHIP");
        choice.compressed_on_chip =
            std::getenv("GPULDPC_GPU_DECODER_COMPRESSED_ON_CHIP") &&
            cuda::environment_switch("GPULDPC_GPU_DECODER_COMPRESSED_ON_CHIP");
        choice.shared_limit = cuda_shared_memory_limit(d_device);
        // an SM's shared memory as the limit allows (a capped limit stands
        // for a smaller card)
        choice.sm.shared_bytes =
            std::min<size_t>(prop.sharedMemPerMultiprocessor,
                             choice.shared_limit + prop.reservedSharedMemPerBlock);
        choice.sm.reserved_per_block = prop.reservedSharedMemPerBlock;
        choice.sm.threads = unsigned(prop.maxThreadsPerMultiProcessor);
        choice.sm.registers = unsigned(prop.regsPerMultiprocessor);
        choice.sm.blocks = unsigned(prop.maxBlocksPerMultiProcessor);
        choice.sms = unsigned(prop.multiProcessorCount);
        // GPULDPC_GPU_DECODER_SPLIT=0: no split variant (the global one where
        // no group fits a block), for comparisons
        choice.split = cuda::environment_switch("GPULDPC_GPU_DECODER_SPLIT");
        // whether a variant reads compact records in full (the split and
        // global variants do, as the kernels they launch)
        const auto full_records_of = [&](const kernels::min_sum_variant& v) {
            return g.slot_edges != nullptr &&
                   kernels::min_sum_full_records(
                       g.checks, g.edges, layered, v.on_chip && !v.split);
        };
        // the registers of the kernel a variant launches
        choice.registers = [&](const kernels::min_sum_variant& v) {
            kernels::min_sum_graph records = g;
            records.full_records = full_records_of(v);
            return kernels::min_sum_block_registers(v, records, layered);
        };
        // lanes a group on chip (1, 2, 4 ... 32), for comparisons
        if (const char* env = std::getenv("GPULDPC_GPU_DECODER_LANES")) {
            char* end = nullptr;
            const long v = std::strtol(env, &end, 10);
            if (end == env || *end != '\0' || v < 1 || v > 32 || (v & (v - 1)) != 0)
                throw std::invalid_argument(
                    std::string("GPULDPC_GPU_DECODER_LANES='") + env +
                    "' is not usable; allowed: 1, 2, 4, 8, 16 or 32");
            choice.lanes = unsigned(v);
        }
        d_variant = kernels::min_sum_choose(g, layered, binary_rule_of(d_config), choice);
        g.full_records = full_records_of(d_variant);
        // threads a block on chip (a multiple of 32, at most 1024; the warps
        // share out a group's checks), for comparisons
        if (const char* env = std::getenv("GPULDPC_GPU_DECODER_BLOCK_THREADS")) {
            char* end = nullptr;
            const long v = std::strtol(env, &end, 10);
            if (end == env || *end != '\0' || v < 32 || v > 1024 || v % 32 != 0)
                throw std::invalid_argument(
                    std::string("GPULDPC_GPU_DECODER_BLOCK_THREADS='") + env +
                    "' is not usable; allowed: a multiple of 32 from 32 to 1024");
            if (d_variant.on_chip)
                d_variant.threads = unsigned(v);
            if (d_variant.split)
                d_variant.blocks =
                    unsigned(std::max<size_t>(
                                 1,
                                 kernels::min_sum_blocks_per_sm(
                                     d_variant, choice.sm, choice.registers(d_variant))) *
                             choice.sms);
        }
        // split: blocks a launch at most (each then takes groups in turn),
        // for tests
        if (const char* env = std::getenv("GPULDPC_GPU_DECODER_SPLIT_BLOCKS")) {
            char* end = nullptr;
            const long v = std::strtol(env, &end, 10);
            if (end == env || *end != '\0' || v < 1)
                throw std::invalid_argument(
                    std::string("GPULDPC_GPU_DECODER_SPLIT_BLOCKS='") + env +
                    "' is not usable; allowed: a whole number >= 1");
            if (d_variant.split)
                d_variant.blocks = unsigned(std::min<long>(v, d_variant.blocks));
        }
        // a batch that fills every SM twice over (on chip: the blocks an SM
        // holds; global: a step's checks a warp each, min_sum_global_batch)
        if (d_variant.on_chip) {
            const size_t per_sm = kernels::min_sum_blocks_per_sm(
                d_variant, choice.sm, choice.registers(d_variant));
            d_preferred_batch = 2 * std::max<size_t>(per_sm, 1) *
                                size_t(prop.multiProcessorCount) * d_variant.frames;
        }
        if (d_variant.on_chip) {
            d_max_launch = max_on_chip_launch;
        } else {
            const size_t groups =
                std::max<size_t>(1,
                                 cuda::launch_workspace_bytes(prop.totalGlobalMem) /
                                     d_variant.state_bytes);
            d_max_launch = std::min(groups * d_variant.frames,
                                    kernels::min_sum_max_global_frames(g));
        }
        // frames per launch at most, for tests of multi-launch batches
        if (const char* env = std::getenv("GPULDPC_GPU_DECODER_LAUNCH_FRAMES")) {
            const long v = std::strtol(env, nullptr, 10);
            if (v < 1)
                throw std::invalid_argument(
                    std::string("GPULDPC_GPU_DECODER_LAUNCH_FRAMES='") + env +
                    "' is not usable; allowed: a whole number >= 1");
            d_max_launch = std::min(d_max_launch, size_t(v));
        }
        if (!d_variant.on_chip)
            d_preferred_batch =
                std::min(d_max_launch,
                         kernels::min_sum_global_batch(
                             g, d_variant, layered, unsigned(prop.multiProcessorCount)));
    }

    ~cuda_min_sum_decoder() override
    {
        cuda::scoped_device guard(d_device, std::nothrow);
        for (auto& w : d_slots)
            if (w.stream && cudaStreamSynchronize(w.stream->get()) != cudaSuccess)
                cudaGetLastError();
        for (auto& w : d_slots)
            w = workspace{};
        d_check_offsets = {};
        d_edge_variable = {};
        d_variable_offsets = {};
        d_variable_edges = {};
        d_info_positions = {};
        d_input_index = {};
        d_run_checks = {};
        d_run_offsets = {};
        d_slot_edges = {};
        d_slot_variables = {};
    }

    std::string device_name() const override { return d_name; }
    std::string kernel_variant() const override
    {
        return kernels::min_sum_describe(d_variant, bool(d_slot_edges.data()));
    }
    unsigned threads() const override { return 1; }
    size_t preferred_batch() const override { return d_preferred_batch; }
    // On chip (split too), a call of whole waves runs at full speed. The grid
    // variant gains with more frames (more of a layer's checks in flight:
    // DVB-S2 9/10 on an H100 decodes 4.9 Gbit/s in calls of 1035 frames, 6.0
    // in calls of 4096), and where it is bound by its kernels (5G NR) the
    // decoder block lost with chunks of a preferred batch.
    size_t efficient_chunk() const override
    {
        return d_variant.on_chip ? d_preferred_batch : 0;
    }
    size_t workspaces() const override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        size_t n = 0;
        for (const auto& w : d_slots)
            n += w.capacity > 0;
        return n;
    }

    void decode(const float* llr,
                size_t n_frames,
                uint8_t* info_bits,
                frame_status* status,
                uint8_t* codeword_bits) override
    {
        decode_now(llr, nullptr, n_frames, info_bits, status, codeword_bits);
        fail_erased_frames(llr, llr_per_frame(), n_frames, status);
    }

    void decode_int8(const int8_t* llr,
                     size_t n_frames,
                     uint8_t* info_bits,
                     frame_status* status,
                     uint8_t* codeword_bits) override
    {
        decode_now(nullptr, llr, n_frames, info_bits, status, codeword_bits);
    }

    void decode_symbol_llr(const float* symbol_ll,
                           size_t n_frames,
                           uint8_t* info_bits,
                           frame_status* status,
                           uint8_t* codeword_bits) override
    {
        decode_bit_pairs(symbol_ll, n_frames, info_bits, status, codeword_bits);
    }

    uint64_t begin_decode(const float* llr,
                          size_t n_frames,
                          uint8_t* info_bits,
                          frame_status* status) override
    {
        return begin(llr, nullptr, n_frames, info_bits, status);
    }

    uint64_t begin_decode_int8(const int8_t* llr,
                               size_t n_frames,
                               uint8_t* info_bits,
                               frame_status* status) override
    {
        return begin(nullptr, llr, n_frames, info_bits, status);
    }

    // Outstanding batches alternate between the two workspaces, each with its
    // own stream: the copies of one overlap the kernels of the other.
    uint64_t begin(const float* llr,
                   const int8_t* llr8,
                   size_t n_frames,
                   uint8_t* info_bits,
                   frame_status* status)
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        const uint64_t ticket = issue_ticket();
        const unsigned slot = unsigned(ticket % max_outstanding);
        try {
            cuda::scoped_device guard(d_device);
            if (n_frames > 0)
                enqueue(slot, llr, llr8, n_frames, info_bits, status, nullptr);
            note_ticket(ticket, llr, n_frames, status);
            const workspace& w = reserve(slot, 0);
            w.done->record(w.stream->get());
        } catch (...) {
            cuda::drain_after_failure(d_slots[slot].stream, d_device);
            cancel_ticket(); // nothing of it is outstanding
            throw;
        }
        return ticket;
    }

    void end_decode(uint64_t ticket) override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        cuda::scoped_device guard(d_device);
        const workspace& w = d_slots[ticket % max_outstanding];
        try {
            if (w.done)
                w.done->synchronize();
        } catch (...) {
            retire_ticket(ticket); // ended, failed: the next one may be ended
            throw;
        }
        retire_ticket(ticket);
        finish_ticket(ticket);
    }

    std::shared_ptr<void> host_buffer(size_t bytes) const override
    {
        cuda::scoped_device guard(d_device);
        void* p = nullptr;
        GPULDPC_CUDA_CHECK(cudaMallocHost(&p, std::max<size_t>(bytes, 1)));
        return std::shared_ptr<void>(p, [](void* q) { cudaFreeHost(q); });
    }

    void decode_device(const float* llr,
                       size_t n_frames,
                       uint8_t* info_bits,
                       frame_status* status) override
    {
        if (n_frames == 0)
            return;
        if (!llr || !info_bits || !status)
            throw std::invalid_argument("decode_device: null pointer");
        std::lock_guard<std::mutex> lock(d_mutex);
        cuda::scoped_device guard(d_device);
        const size_t launch = std::min(n_frames, d_max_launch);
        workspace& w = reserve(0, launch);
        auto p = params(w);
        for (size_t f0 = 0; f0 < n_frames; f0 += launch) {
            p.n_frames = std::min(launch, n_frames - f0);
            p.llr = llr + f0 * llr_per_frame();
            p.info_bits = info_bits + f0 * info_bytes_per_frame();
            p.status = reinterpret_cast<kernels::min_sum_status*>(status + f0);
            kernels::launch_min_sum(p, w.stream->get());
        }
        w.stream->synchronize();
    }

private:
    struct workspace {
        std::unique_ptr<cuda::stream> stream;
        std::unique_ptr<cuda::event> done; // recorded after a batch's copies
        cuda::device_buffer<float> llr;
        cuda::device_buffer<int8_t> llr8;
        cuda::device_buffer<uint8_t> state, info, codeword;
        cuda::device_buffer<kernels::min_sum_status> status;
        size_t capacity = 0;
    };

    // The workspace (global and split variants) of \p frames frames; the buffers of a
    // host batch come with ensure().
    workspace& reserve(unsigned slot, size_t frames)
    {
        workspace& w = d_slots[slot];
        if (!w.stream) {
            w.stream = std::make_unique<cuda::stream>();
            w.done = std::make_unique<cuda::event>();
        }
        if (frames <= w.capacity)
            return w;
        // the old buffers go first, once the batches on them are done
        w.stream->synchronize();
        w.capacity = 0;
        w.state = {};
        if (!d_variant.on_chip || d_variant.split)
            w.state = cuda::device_buffer<uint8_t>(
                kernels::min_sum_workspace_bytes(d_variant, frames));
        w.capacity = frames;
        return w;
    }

    // \p b with room for \p count elements, made anew (after the work on the
    // workspace's stream) when it has less; a call allocates what it uses.
    template <typename T>
    static void ensure(workspace& w, cuda::device_buffer<T>& b, size_t count)
    {
        if (b.size() >= count)
            return;
        w.stream->synchronize();
        b = {};
        b = cuda::device_buffer<T>(count);
    }

    kernels::min_sum_params params(const workspace& w) const
    {
        kernels::min_sum_params p{};
        p.graph = d_graph;
        p.variant = d_variant;
        p.flip_llr_sign = d_config.flip_llr_sign;
        p.llr_scale = d_config.llr_scale;
        p.scale_q = std::max(1, int32_t(std::nearbyint(16.0f * d_config.min_sum_scale)));
        p.offset_q = int32_t(std::min(
            std::nearbyint(d_config.min_sum_offset * d_config.llr_scale), 128.0f));
        p.min_sum_scale = d_config.min_sum_scale;
        p.min_sum_offset = d_config.min_sum_offset;
        p.int8_step = 1.0f / d_config.llr_scale; // as batch_decoder::decode_int8
        p.int8_limit = max_input_magnitude * d_config.llr_scale;
        p.int8_clip = int32_t(std::nearbyint(std::min(p.int8_limit, 127.0f)));
        p.max_iterations = d_config.max_iterations;
        p.early_termination = d_config.early_termination;
        p.layered = d_config.schedule == decoder_schedule::layered;
        p.pack_info_bits = d_config.pack_info_bits;
        p.workspace = w.state.data();
        return p;
    }

    void decode_now(const float* llr,
                    const int8_t* llr8,
                    size_t n_frames,
                    uint8_t* info_bits,
                    frame_status* status,
                    uint8_t* codeword_bits)
    {
        if (n_frames == 0)
            return;
        std::lock_guard<std::mutex> lock(d_mutex);
        cuda::scoped_device guard(d_device);
        try {
            enqueue(0, llr, llr8, n_frames, info_bits, status, codeword_bits);
            d_slots[0].stream->synchronize();
        } catch (...) {
            cuda::drain_after_failure(d_slots[0].stream, d_device);
            throw;
        }
    }

    // Enqueues a host-to-host batch on workspace \p slot's stream: copies in,
    // launches, copies out, in launches of d_max_launch frames at most.
    void enqueue(unsigned slot,
                 const float* llr,
                 const int8_t* llr8,
                 size_t n_frames,
                 uint8_t* info_bits,
                 frame_status* status,
                 uint8_t* codeword_bits)
    {
        const size_t nl = llr_per_frame(), nb = info_bytes_per_frame(), nc = d_graph.n;
        const size_t launch = std::min(n_frames, d_max_launch);
        workspace& w = reserve(slot, launch);
        if (llr)
            ensure(w, w.llr, launch * nl);
        else
            ensure(w, w.llr8, launch * nl);
        ensure(w, w.info, launch * nb);
        ensure(w, w.status, launch);
        if (codeword_bits)
            ensure(w, w.codeword, launch * nc);
        const cudaStream_t s = w.stream->get();
        auto p = params(w);
        p.info_bits = w.info.data();
        p.status = w.status.data();
        for (size_t f0 = 0; f0 < n_frames; f0 += launch) {
            const size_t nf = std::min(launch, n_frames - f0);
            p.n_frames = nf;
            p.codeword_bits = codeword_bits ? w.codeword.data() : nullptr;
            if (llr) {
                p.llr = w.llr.data();
                p.llr8 = nullptr;
                GPULDPC_CUDA_CHECK(cudaMemcpyAsync(w.llr.data(),
                                                   llr + f0 * nl,
                                                   nf * nl * sizeof(float),
                                                   cudaMemcpyHostToDevice,
                                                   s));
            } else {
                p.llr = nullptr;
                p.llr8 = w.llr8.data();
                GPULDPC_CUDA_CHECK(cudaMemcpyAsync(
                    w.llr8.data(), llr8 + f0 * nl, nf * nl, cudaMemcpyHostToDevice, s));
            }
            kernels::launch_min_sum(p, s);
            cuda::copy_launch_results(s,
                                      f0,
                                      nf,
                                      nb,
                                      sizeof(frame_status),
                                      nc,
                                      w.info.data(),
                                      w.status.data(),
                                      w.codeword.data(),
                                      info_bits,
                                      status,
                                      codeword_bits);
        }
    }

    int d_device;
    std::string d_name;
    mutable std::mutex d_mutex; // calls take turns on the workspaces
    cuda::device_buffer<uint32_t> d_check_offsets, d_edge_variable, d_variable_offsets,
        d_variable_edges, d_info_positions, d_run_checks, d_run_offsets, d_slot_edges;
    cuda::device_buffer<uint16_t> d_slot_variables;
    cuda::device_buffer<int32_t> d_input_index;
    kernels::min_sum_graph d_graph{};
    kernels::min_sum_variant d_variant{};
    size_t d_preferred_batch = 0;
    size_t d_max_launch = 1;
    // 0: decode(), decode_device() and even tickets; 1: odd tickets
    workspace d_slots[max_outstanding];
};

} // namespace

batch_decoder::sptr
make_cuda_min_sum_decoder(ldpc_code::sptr code, const decoder_config& config, int device)
{
    return std::make_shared<cuda_min_sum_decoder>(std::move(code), config, device);
}

#else

batch_decoder::sptr make_cuda_min_sum_decoder(ldpc_code::sptr, const decoder_config&, int)
{
    throw std::runtime_error("this build has no CUDA backend");
}

#endif

} // namespace detail
} // namespace gpuldpc
} // namespace gr
