/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Host side of the CUDA batch decoder: the code's graph uploaded once,
// per-frame workspaces sized for the largest batch seen (and kept), frames
// decoded in launches of a bounded number of frames.

#include "cuda_decoder.h"
#include <gnuradio/gpuldpc/engine/device.h>
#include <stdexcept>

#ifdef GPULDPC_HAVE_CUDA
#include "cuda_resources.h"
#include "ldpc_fft_bp.h"
#include "symbol_demap.h"
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>
#endif

namespace gr {
namespace gpuldpc {
namespace detail {

namespace {

bool row_order(const ldpc_code& code)
{
    const auto& order = code.layered_check_order();
    for (uint32_t c = 0; c < order.size(); ++c)
        if (order[c] != c)
            return false;
    return true;
}

} // namespace

bool cuda_decoder_supports(const ldpc_code& code, const decoder_config& config)
{
    return cuda_decoder_refusal(code, config, "cuda").empty();
}

std::string cuda_decoder_refusal(const ldpc_code& code,
                                 const decoder_config& config,
                                 const std::string& device)
{
    const decoder_algorithm algorithm = config.algorithm;
    if (algorithm != decoder_algorithm::fft_bp && code.q() == 2) {
        const std::string binary = cuda_min_sum_refusal(code, config);
        if (binary.empty())
            return "algorithm='" + to_string(algorithm) +
                   "' is the binary CUDA decoder's (batch_decoder::make chooses it)";
        return "algorithm='" + to_string(algorithm) + "' with messages='" +
               to_string(config.messages) + "' has no CUDA decoder (" + binary +
               "); allowed with device='" + device +
               "': fft-bp, min-sum (int8 or fp32 messages), sum-product (fp32)";
    }
    if (config.schedule == decoder_schedule::layered && !row_order(code))
        return "schedule='layered' visits this code's checks out of row order, which "
               "the CUDA fft-bp decoder does not; allowed with device='" +
               device +
               "': schedule='flooding' (device='cpu' or 'auto' decodes it "
               "layered)";
    if (algorithm != decoder_algorithm::fft_bp)
        return "algorithm='" + to_string(algorithm) +
               "' has no CUDA decoder; allowed with device='" + device +
               "': fft-bp (auto for q > 2)";
    if (!code.punctured_positions().empty())
        return "the code punctures " + std::to_string(code.punctured_positions().size()) +
               " columns, which the CUDA decoder does not take; allowed with "
               "device='" +
               device +
               "': codes without punctured columns (device='cpu' or 'auto' "
               "decodes this one)";
    return "";
}

#ifdef GPULDPC_HAVE_CUDA

namespace {

static_assert(sizeof(kernels::fft_bp_status) == sizeof(frame_status) &&
                  offsetof(kernels::fft_bp_status, iterations) ==
                      offsetof(frame_status, iterations) &&
                  offsetof(kernels::fft_bp_status, invalid_inputs) ==
                      offsetof(frame_status, invalid_inputs),
              "the kernel's status is the engine's frame_status");

using cuda::environment_switch;

using cuda::launch_workspace_bytes;
using cuda::upload;

// The check-parallel family's launch sequence (several launches an
// iteration) replayed as one CUDA graph, so that the host enqueues one graph
// launch a call: captured when the launch parameters change, instantiated
// once and updated in place after that.
class graph_launch
{
public:
    graph_launch() = default;
    graph_launch(const graph_launch&) = delete;
    graph_launch& operator=(const graph_launch&) = delete;
    ~graph_launch() { reset(); }

    void reset()
    {
        if (d_exec)
            cudaGraphExecDestroy(d_exec);
        d_exec = nullptr;
        d_valid = false;
    }

    void run(const kernels::fft_bp_params& p, cudaStream_t s)
    {
        if (!d_valid || std::memcmp(&p, &d_params, sizeof p) != 0) {
            d_valid = false;
            kernels::prepare_fft_bp(p);
            cudaGraph_t graph = nullptr;
            GPULDPC_CUDA_CHECK(
                cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
            try {
                kernels::enqueue_fft_bp(p, s);
            } catch (...) {
                if (cudaStreamEndCapture(s, &graph) == cudaSuccess && graph)
                    cudaGraphDestroy(graph);
                cudaGetLastError();
                throw;
            }
            GPULDPC_CUDA_CHECK(cudaStreamEndCapture(s, &graph));
            std::unique_ptr<CUgraph_st, cudaError_t (*)(cudaGraph_t)> owned(
                graph, cudaGraphDestroy);
            if (d_exec) {
                cudaGraphExecUpdateResultInfo info;
                if (cudaGraphExecUpdate(d_exec, graph, &info) != cudaSuccess) {
                    cudaGetLastError(); // another shape: instantiated anew
                    reset();
                }
            }
            if (!d_exec)
                GPULDPC_CUDA_CHECK(cudaGraphInstantiate(&d_exec, graph, 0));
            d_params = p;
            d_valid = true;
        }
        GPULDPC_CUDA_CHECK(cudaGraphLaunch(d_exec, s));
    }

private:
    cudaGraphExec_t d_exec = nullptr;
    kernels::fft_bp_params d_params{};
    bool d_valid = false;
};

class cuda_decoder final : public batch_decoder
{
public:
    cuda_decoder(ldpc_code::sptr code, const decoder_config& config, int device)
        : batch_decoder(code, config), d_device(device)
    {
        if (!cuda_decoder_supports(*d_code, d_config))
            throw std::invalid_argument(cuda_decoder_refusal(*d_code, d_config, "cuda"));
        cuda::scoped_device guard(d_device);
        reserve(0, 0);
        cudaDeviceProp prop;
        GPULDPC_CUDA_CHECK(cudaGetDeviceProperties(&prop, d_device));
        d_name = prop.name;
        const ldpc_code& c = *d_code;
        d_check_offsets = upload(c.check_offsets());
        d_edge_variable = upload(c.edge_variable());
        d_edge_coefficient = upload(c.edge_coefficient());
        std::vector<uint8_t> inverse(c.edge_coefficient().size());
        for (size_t e = 0; e < inverse.size(); ++e)
            inverse[e] = c.field().inv(c.edge_coefficient()[e]);
        d_edge_coefficient_inverse = upload(inverse);
        d_variable_offsets = upload(c.variable_offsets());
        d_variable_edges = upload(c.variable_edges());
        d_info_positions = upload(c.info_positions());
        std::vector<uint8_t> mul(size_t(c.q()) * c.q());
        for (unsigned a = 0; a < c.q(); ++a)
            std::copy_n(c.field().mul_row(uint8_t(a)), c.q(), &mul[size_t(a) * c.q()]);
        d_gf_mul = upload(mul);

        auto& g = d_graph;
        g.n = c.n();
        g.checks = c.m();
        g.q = c.q();
        g.bits_per_symbol = c.bits_per_symbol();
        g.k = c.k();
        g.max_check_degree = 0;
        for (unsigned i = 0; i < c.m(); ++i)
            g.max_check_degree = std::max(g.max_check_degree, c.check_degree(i));
        g.edges = c.num_edges();
        g.check_offsets = d_check_offsets.data();
        g.edge_variable = d_edge_variable.data();
        g.edge_coefficient = d_edge_coefficient.data();
        g.edge_coefficient_inverse = d_edge_coefficient_inverse.data();
        g.variable_offsets = d_variable_offsets.data();
        g.variable_edges = d_variable_edges.data();
        g.info_positions = d_info_positions.data();
        g.gf_mul = d_gf_mul.data();
        if (d_config.schedule == decoder_schedule::layered) {
            // runs of consecutive checks that share no variable (at most 16,
            // the warps of the largest block): updated at once, the same
            // result as one after another
            std::vector<uint32_t> runs{ 0 };
            std::vector<uint32_t> last_run(c.n(), UINT32_MAX);
            const auto& off = c.check_offsets();
            const auto& var = c.edge_variable();
            uint32_t start = 0;
            for (uint32_t ch = 0; ch < c.m(); ++ch) {
                bool clash = ch - start >= 16;
                for (uint32_t e = off[ch]; e < off[ch + 1] && !clash; ++e)
                    clash = last_run[var[e]] == start;
                if (clash) {
                    runs.push_back(ch);
                    start = ch;
                }
                for (uint32_t e = off[ch]; e < off[ch + 1]; ++e)
                    last_run[var[e]] = start;
            }
            runs.push_back(c.m());
            d_run_offsets = upload(runs);
            g.run_offsets = d_run_offsets.data();
            g.runs = unsigned(runs.size() - 1);
        }
        // GPULDPC_GPU_DECODER_REGISTERS=0 keeps check messages out of
        // registers (the row kernels), for comparisons
        const bool registers = environment_switch("GPULDPC_GPU_DECODER_REGISTERS");
        // tensor cores where the code for this device has them (TF32, from
        // compute capability 8.0); GPULDPC_GPU_DECODER_TENSOR_CORES=0 keeps the
        // transforms off them, for comparisons
        const bool tensor_cores =
            environment_switch("GPULDPC_GPU_DECODER_TENSOR_CORES") &&
            kernels::fft_bp_tensor_cores();
        // flooding with a thread per edge where the code allows it;
        // GPULDPC_GPU_DECODER_EDGE_THREADS=0 leaves it out, for comparisons
        const bool edge_threads = d_config.schedule == decoder_schedule::flooding &&
                                  environment_switch("GPULDPC_GPU_DECODER_EDGE_THREADS");
        if (edge_threads) {
            const auto layout = kernels::fft_bp_make_edge_layout(c.n(),
                                                                 c.m(),
                                                                 c.q(),
                                                                 c.check_offsets(),
                                                                 c.edge_variable(),
                                                                 c.edge_coefficient(),
                                                                 c.variable_offsets(),
                                                                 c.variable_edges(),
                                                                 mul);
            if (layout.chunks > 0) {
                d_edge_lanes = upload(layout.lanes);
                d_edge_lane_terms = upload(layout.lane_terms);
                d_variable_columns = upload(layout.variable_columns);
                g.edge_lanes = d_edge_lanes.data();
                g.edge_lane_terms = d_edge_lane_terms.data();
                g.variable_columns = d_variable_columns.data();
                g.edge_chunks = layout.chunks;
                g.edge_group = layout.group;
                g.variable_steps = layout.steps;
            }
        }
        d_variant = kernels::fft_bp_choose(g,
                                           cuda_shared_memory_limit(d_device),
                                           d_config.schedule == decoder_schedule::layered,
                                           registers,
                                           half_messages(),
                                           tensor_cores,
                                           edge_threads);

        const size_t per_frame =
            2 * size_t(g.n) * g.q * sizeof(float) +
            (d_variant.on_chip ? 0 : g.edges * g.q * message_bytes());
        d_max_launch =
            std::max<size_t>(1, launch_workspace_bytes(prop.totalGlobalMem) / per_frame);
        // frames per launch at most, for tests of multi-launch batches
        if (const char* env = std::getenv("GPULDPC_GPU_DECODER_LAUNCH_FRAMES")) {
            const long v = std::strtol(env, nullptr, 10);
            if (v < 1)
                throw std::invalid_argument(
                    std::string("GPULDPC_GPU_DECODER_LAUNCH_FRAMES='") + env +
                    "' is not usable; allowed: a whole number >= 1");
            d_max_launch = std::min(d_max_launch, size_t(v));
        }
        // GPULDPC_GPU_DECODER_GRAPHS=0 enqueues launch sequences one launch
        // at a time, for comparisons
        d_graphs = environment_switch("GPULDPC_GPU_DECODER_GRAPHS");
    }

    ~cuda_decoder() override
    {
        // everything goes on the decoder's device, after its last launch
        cuda::scoped_device guard(d_device, std::nothrow);
        for (auto& w : d_slots)
            if (w.stream && cudaStreamSynchronize(w.stream->get()) != cudaSuccess)
                cudaGetLastError();
        for (auto& w : d_slots)
            w.release();
        d_check_offsets = {};
        d_edge_variable = {};
        d_variable_offsets = {};
        d_variable_edges = {};
        d_info_positions = {};
        d_run_offsets = {};
        d_edge_lanes = {};
        d_edge_lane_terms = {};
        d_variable_columns = {};
        d_edge_coefficient = {};
        d_edge_coefficient_inverse = {};
        d_gf_mul = {};
    }

    std::string device_name() const override { return d_name; }
    unsigned threads() const override { return 1; }
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
        decode_now(llr, false, n_frames, info_bits, status, codeword_bits);
        fail_erased_frames(llr, llr_per_frame(), n_frames, status);
    }

    void decode_symbol_llr(const float* symbol_ll,
                           size_t n_frames,
                           uint8_t* info_bits,
                           frame_status* status,
                           uint8_t* codeword_bits) override
    {
        decode_now(symbol_ll, true, n_frames, info_bits, status, codeword_bits);
        fail_erased_frames(
            symbol_ll, size_t(d_code->n_transmitted()) * d_code->q(), n_frames, status);
    }

    // Outstanding batches alternate between the two workspaces, each with its
    // own stream: the copies of one overlap the kernels of the other. A
    // workspace's stream orders its batches, so decode() (workspace 0) may
    // run between them.
    uint64_t begin_decode(const float* llr,
                          size_t n_frames,
                          uint8_t* info_bits,
                          frame_status* status) override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        const uint64_t ticket = issue_ticket();
        const unsigned slot = unsigned(ticket % max_outstanding);
        try {
            cuda::scoped_device guard(d_device);
            if (n_frames > 0)
                enqueue(slot, llr, false, n_frames, info_bits, status, nullptr);
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

    /*! Whether the frame's messages stay in shared memory. */
    bool on_chip() const { return d_variant.on_chip; }
    std::string kernel_variant() const override
    {
        return kernels::fft_bp_describe(
            d_variant, d_config.schedule == decoder_schedule::layered, half_messages());
    }

private:
    // What one batch in flight needs on the device.
    struct workspace {
        // made on the decoder's device, when first used
        std::unique_ptr<cuda::stream> stream;
        std::unique_ptr<cuda::event> done; // recorded after a batch's copies
        cuda::device_buffer<float> input, prior, app, c2v;
        cuda::device_buffer<uint8_t> hard, info, codeword;
        // decode_symbols(): received points and noise variances
        cuda::device_buffer<float2> symbols;
        cuda::device_buffer<float> noise_var;
        cuda::device_buffer<kernels::fft_bp_status> status;
        graph_launch graph; // launch sequences on this workspace's stream
        size_t capacity = 0;

        void release()
        {
            graph.reset();
            input = {};
            prior = {};
            app = {};
            c2v = {};
            hard = {};
            info = {};
            codeword = {};
            status = {};
            symbols = {};
            noise_var = {};
            capacity = 0;
            done.reset();
            stream.reset();
        }
    };

    workspace& reserve(unsigned slot, size_t frames)
    {
        workspace& w = d_slots[slot];
        if (!w.stream) {
            w.stream = std::make_unique<cuda::stream>();
            w.done = std::make_unique<cuda::event>();
        }
        if (frames <= w.capacity)
            return w;
        const auto& g = d_graph;
        const size_t m = g.bits_per_symbol, nq = size_t(g.n) * g.q;
        // the old buffers go first (peak memory is one workspace), once the
        // batches on them are done
        w.stream->synchronize();
        w.capacity = 0;
        w.input = {};
        w.prior = {};
        w.app = {};
        w.c2v = {};
        w.input = cuda::device_buffer<float>(frames * std::max(nq, size_t(g.n) * m));
        w.prior = cuda::device_buffer<float>(frames * nq);
        if (!d_variant.on_chip) {
            w.app = cuda::device_buffer<float>(frames * nq);
            // fp16 messages: two to a float of the buffer
            w.c2v = cuda::device_buffer<float>(
                (frames * g.edges * g.q * message_bytes() + sizeof(float) - 1) /
                sizeof(float));
        }
        w.hard = cuda::device_buffer<uint8_t>(frames * g.n);
        w.info = cuda::device_buffer<uint8_t>(frames * info_bytes_per_frame());
        w.codeword = cuda::device_buffer<uint8_t>(frames * size_t(g.n) * m);
        w.status = cuda::device_buffer<kernels::fft_bp_status>(frames);
        w.symbols = {};
        w.noise_var = {};
        w.capacity = frames;
        return w;
    }

public:
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
        const auto& g = d_graph;
        const size_t m = g.bits_per_symbol;
        const size_t launch = std::min(n_frames, d_max_launch);
        workspace& w = reserve(0, launch);
        auto p = params(w, false);
        for (size_t f0 = 0; f0 < n_frames; f0 += launch) {
            p.n_frames = std::min(launch, n_frames - f0);
            p.input = llr + f0 * size_t(g.n) * m;
            p.info_bits = info_bits + f0 * info_bytes_per_frame();
            p.status = reinterpret_cast<kernels::fft_bp_status*>(status + f0);
            run_decoder(w, p);
        }
        w.stream->synchronize();
    }

private:
    // Launch parameters on a workspace, input and outputs to be set per
    // launch.
    kernels::fft_bp_params params(const workspace& w, bool symbol_input) const
    {
        kernels::fft_bp_params p{};
        p.graph = d_graph;
        p.variant = d_variant;
        p.symbol_input = symbol_input;
        p.to_log_p0_p1 = d_config.flip_llr_sign ? 1.0f : -1.0f;
        p.max_iterations = d_config.max_iterations;
        p.early_termination = d_config.early_termination;
        p.layered = d_config.schedule == decoder_schedule::layered;
        p.pack_info_bits = d_config.pack_info_bits;
        p.prior = w.prior.data();
        p.app = d_variant.on_chip ? nullptr : w.app.data();
        p.c2v = d_variant.on_chip ? nullptr : w.c2v.data();
        p.half_messages = half_messages();
        p.hard = w.hard.data();
        return p;
    }

    bool half_messages() const { return d_config.messages == message_precision::fp16; }
    size_t message_bytes() const { return half_messages() ? 2 : sizeof(float); }

    // One launch of the decoder on the workspace's stream; a launch sequence
    // as a graph.
    void run_decoder(workspace& w, const kernels::fft_bp_params& p)
    {
        if (d_graphs && kernels::fft_bp_is_launch_sequence(p.variant))
            w.graph.run(p, w.stream->get());
        else
            kernels::launch_fft_bp(p, w.stream->get());
    }

    // Complex symbols demapped on the device into the workspace's input (the
    // host never holds q values a symbol), then decoded as symbol input.
    void decode_symbols(const std::complex<float>* symbols,
                        size_t n_frames,
                        const constellation& c,
                        const float* noise_var,
                        uint8_t* info_bits,
                        frame_status* status,
                        uint8_t* codeword_bits) override
    {
        check_symbol_arguments(c, noise_var, n_frames);
        if (n_frames == 0)
            return;
        std::lock_guard<std::mutex> lock(d_mutex);
        cuda::scoped_device guard(d_device);
        try {
            if (d_points_host != c.points()) {
                std::vector<float2> pts;
                for (const auto& z : c.points())
                    pts.push_back(make_float2(z.real(), z.imag()));
                d_points = cuda::upload(pts);
                d_points_host = c.points();
            }
            const auto& g = d_graph;
            const size_t n = g.n;
            const size_t launch = std::min(n_frames, d_max_launch);
            workspace& w = reserve(0, launch);
            const cudaStream_t s = w.stream->get();
            if (w.symbols.size() < launch * n) {
                w.stream->synchronize();
                w.symbols = {};
                w.symbols = cuda::device_buffer<float2>(launch * n);
                w.noise_var = cuda::device_buffer<float>(launch);
            }
            run_launches(w,
                         params(w, true),
                         n_frames,
                         launch,
                         info_bits,
                         status,
                         codeword_bits,
                         [&](size_t f0, size_t nf) {
                             GPULDPC_CUDA_CHECK(cudaMemcpyAsync(w.symbols.data(),
                                                                symbols + f0 * n,
                                                                nf * n * sizeof(float2),
                                                                cudaMemcpyHostToDevice,
                                                                s));
                             GPULDPC_CUDA_CHECK(cudaMemcpyAsync(w.noise_var.data(),
                                                                noise_var + f0,
                                                                nf * sizeof(float),
                                                                cudaMemcpyHostToDevice,
                                                                s));
                             kernels::symbol_demap_params dp{};
                             dp.symbols = w.symbols.data();
                             dp.noise_var = w.noise_var.data();
                             dp.points = d_points.data();
                             dp.q = g.q;
                             dp.n_frames = nf;
                             dp.symbols_per_frame = n;
                             dp.log_likelihoods = w.input.data();
                             kernels::launch_symbol_demap(dp, s);
                         });
            w.stream->synchronize();
            // a frame of no finite symbol is a failed frame, as on the CPU
            for (size_t f = 0; f < n_frames; ++f) {
                const std::complex<float>* y = symbols + f * n;
                if (std::none_of(y, y + n, [](const std::complex<float>& v) {
                        return std::isfinite(v.real()) && std::isfinite(v.imag());
                    }))
                    status[f].converged = 0;
            }
        } catch (...) {
            cuda::drain_after_failure(d_slots[0].stream, d_device);
            throw;
        }
    }

    // A host-to-host batch on workspace 0, waited for.
    void decode_now(const float* in,
                    bool symbol_input,
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
            enqueue(0, in, symbol_input, n_frames, info_bits, status, codeword_bits);
            d_slots[0].stream->synchronize();
        } catch (...) {
            cuda::drain_after_failure(d_slots[0].stream, d_device);
            throw;
        }
    }

    // Enqueues a host-to-host batch on workspace \p slot's stream: copies in,
    // launches, copies out, in launches of d_max_launch frames at most.
    void enqueue(unsigned slot,
                 const float* in,
                 bool symbol_input,
                 size_t n_frames,
                 uint8_t* info_bits,
                 frame_status* status,
                 uint8_t* codeword_bits)
    {
        const auto& g = d_graph;
        const size_t m = g.bits_per_symbol;
        const size_t in_per_frame = symbol_input ? size_t(g.n) * g.q : size_t(g.n) * m;
        const size_t launch = std::min(n_frames, d_max_launch);
        workspace& w = reserve(slot, launch);
        const cudaStream_t s = w.stream->get();

        run_launches(w,
                     params(w, symbol_input),
                     n_frames,
                     launch,
                     info_bits,
                     status,
                     codeword_bits,
                     [&](size_t f0, size_t nf) {
                         GPULDPC_CUDA_CHECK(
                             cudaMemcpyAsync(w.input.data(),
                                             in + f0 * in_per_frame,
                                             nf * in_per_frame * sizeof(float),
                                             cudaMemcpyHostToDevice,
                                             s));
                     });
    }

    // A host batch on workspace \p w in launches of \p launch frames at
    // most: load(f0, nf) queues the input of frames f0 .. f0 + nf - 1 into
    // w.input, then the decoder and the copies of its results follow.
    template <typename Load>
    void run_launches(workspace& w,
                      kernels::fft_bp_params p,
                      size_t n_frames,
                      size_t launch,
                      uint8_t* info_bits,
                      frame_status* status,
                      uint8_t* codeword_bits,
                      Load&& load)
    {
        p.input = w.input.data();
        p.info_bits = w.info.data();
        p.status = w.status.data();
        p.codeword_bits = codeword_bits ? w.codeword.data() : nullptr;
        for (size_t f0 = 0; f0 < n_frames; f0 += launch) {
            const size_t nf = std::min(launch, n_frames - f0);
            p.n_frames = nf;
            load(f0, nf);
            run_decoder(w, p);
            copy_results(w, f0, nf, info_bits, status, codeword_bits);
        }
    }

    // Queues the copies of a launch's results (frames f0 .. f0 + nf - 1 of
    // the batch) to the caller's host memory, on the workspace's stream.
    void copy_results(const workspace& w,
                      size_t f0,
                      size_t nf,
                      uint8_t* info_bits,
                      frame_status* status,
                      uint8_t* codeword_bits) const
    {
        const auto& g = d_graph;
        const size_t m = g.bits_per_symbol;
        cuda::copy_launch_results(w.stream->get(),
                                  f0,
                                  nf,
                                  info_bytes_per_frame(),
                                  sizeof(frame_status),
                                  size_t(g.n) * m,
                                  w.info.data(),
                                  w.status.data(),
                                  w.codeword.data(),
                                  info_bits,
                                  status,
                                  codeword_bits);
    }

    int d_device;
    std::string d_name;
    mutable std::mutex d_mutex; // calls take turns: one workspace
    cuda::device_buffer<uint32_t> d_check_offsets, d_edge_variable, d_variable_offsets,
        d_variable_edges, d_info_positions, d_run_offsets, d_edge_lanes,
        d_edge_lane_terms, d_variable_columns;
    cuda::device_buffer<uint8_t> d_edge_coefficient, d_edge_coefficient_inverse, d_gf_mul;
    // decode_symbols(): the last constellation's points
    cuda::device_buffer<float2> d_points;
    std::vector<std::complex<float>> d_points_host;
    kernels::fft_bp_graph d_graph{};
    kernels::fft_bp_variant d_variant{};
    size_t d_max_launch = 1;
    bool d_graphs = true;
    // 0: decode(), decode_device() and even tickets; 1: odd tickets
    workspace d_slots[max_outstanding];
};

} // namespace

batch_decoder::sptr
make_cuda_decoder(ldpc_code::sptr code, const decoder_config& config, int device)
{
    return std::make_shared<cuda_decoder>(std::move(code), config, device);
}

#else

batch_decoder::sptr make_cuda_decoder(ldpc_code::sptr, const decoder_config&, int)
{
    throw std::runtime_error("this build has no CUDA backend");
}

#endif

} // namespace detail
} // namespace gpuldpc
} // namespace gr
