/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The GF(q) FFT-BP decoder on the GPU: an adapter on the CUDA batch pipeline
// (cuda_batch_decoder.h). What is its own: the code's graph uploaded once
// (with the layered schedule's runs and the edge-thread layout), the variant
// chosen once and its launch plan, a slot's beliefs and messages, the
// check-parallel family's launch sequence replayed as a CUDA graph, and
// complex symbols demapped on the device.

#include "cuda_decoders.h"
#include <gnuradio/gpuldpc/engine/device.h>
#include <stdexcept>

#ifdef GPULDPC_HAVE_CUDA
#include "common/symbol_demap.h"
#include "cuda_batch_decoder.h"
#include "cuda_resources.h"
#include "gfq/ldpc_fft_bp.h"
#include "gfq/plan.h"
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
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

bool cuda_fft_bp_runs(const ldpc_code& code, const decoder_config& config)
{
    return cuda_fft_bp_refusal(code, config, "cuda").empty();
}

std::string cuda_fft_bp_refusal(const ldpc_code& code,
                                const decoder_config& config,
                                const std::string& device)
{
    const decoder_algorithm algorithm = config.algorithm;
    if (algorithm != decoder_algorithm::fft_bp && code.q() == 2) {
        const std::string binary = cuda_binary_refusal(code, config);
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

    void run(const kernels::fft_bp_launch_plan& plan,
             const kernels::fft_bp_params& p,
             cudaStream_t s)
    {
        if (!d_valid || std::memcmp(&p, &d_params, sizeof p) != 0) {
            d_valid = false;
            cudaGraph_t graph = nullptr;
            GPULDPC_CUDA_CHECK(
                cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
            try {
                plan.launch(p, s);
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
            std::memcpy(&d_params, &p, sizeof p);
            d_valid = true;
        }
        GPULDPC_CUDA_CHECK(cudaGraphLaunch(d_exec, s));
    }

private:
    cudaGraphExec_t d_exec = nullptr;
    kernels::fft_bp_params d_params{};
    bool d_valid = false;
};

class cuda_fft_bp_decoder final : public cuda_batch_decoder
{
public:
    cuda_fft_bp_decoder(ldpc_code::sptr code, const decoder_config& config, int device)
        : cuda_batch_decoder(std::move(code), config, device)
    {
        if (!cuda_fft_bp_runs(*d_code, d_config))
            throw std::invalid_argument(cuda_fft_bp_refusal(*d_code, d_config, "cuda"));
        cuda::scoped_device guard(this->device());
        const std::vector<uint8_t> mul = upload_graph();
        if (layered())
            upload_runs();
        const gpu_tuning& tuning = d_config.gpu;
        // flooding with a thread per edge where the code allows it
        const bool edge_threads = !layered() && tuning.edge_threads;
        if (edge_threads)
            upload_edge_layout(mul);
        kernels::fft_bp_choice choice;
        choice.shared_limit = cuda_shared_memory_limit(this->device(), tuning);
        choice.layered = layered();
        choice.registers = tuning.registers;
        choice.half_messages = half_messages();
        // tensor cores where the code for this device has them (TF32, from
        // compute capability 8.0)
        choice.tensor_cores = tuning.tensor_cores && kernels::fft_bp_tensor_cores();
        choice.edge_threads = edge_threads;
        d_variant = kernels::fft_bp_choose(d_graph, choice);
        d_plan =
            kernels::fft_bp_launch_plan(d_graph, d_variant, layered(), half_messages());
        d_graphs = tuning.graphs;

        const auto& g = d_graph;
        const size_t per_frame =
            2 * size_t(g.n) * g.q * sizeof(float) +
            (d_variant.on_chip ? 0 : g.edges * g.q * message_bytes());
        set_max_launch(launch_workspace_bytes(properties().totalGlobalMem) / per_frame);
    }

    ~cuda_fft_bp_decoder() override
    {
        // everything goes on the decoder's device, after its last launch
        finish_all();
        cuda::scoped_device guard(device(), std::nothrow);
        for (auto& s : d_state)
            s.release();
        d_points = {};
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

    std::string kernel_variant() const override
    {
        return kernels::fft_bp_describe(d_variant, layered(), half_messages());
    }

    // Complex symbols demapped on the device into the slot's input (the host
    // never holds q values a symbol), then decoded as symbol input.
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
        cuda::scoped_device guard(device());
        try {
            demap_on_device(
                symbols, n_frames, c, noise_var, info_bits, status, codeword_bits);
            synchronize(0);
            // a frame of no finite symbol is a failed frame, as on the CPU
            const size_t n = d_graph.n;
            for (size_t f = 0; f < n_frames; ++f) {
                const std::complex<float>* y = symbols + f * n;
                if (std::none_of(y, y + n, [](const std::complex<float>& v) {
                        return std::isfinite(v.real()) && std::isfinite(v.imag());
                    }))
                    status[f].converged = 0;
            }
        } catch (...) {
            drain_after_failure(0);
            throw;
        }
    }

protected:
    void reserve_state(unsigned slot, size_t frames) override
    {
        slot_state& s = d_state[slot];
        const auto& g = d_graph;
        const size_t nq = size_t(g.n) * g.q;
        // the old buffers go first: peak memory is one workspace
        s.prior = {};
        s.app = {};
        s.c2v = {};
        s.hard = {};
        s.prior = cuda::device_buffer<float>(frames * nq);
        if (!d_variant.on_chip) {
            s.app = cuda::device_buffer<float>(frames * nq);
            // fp16 messages: two to a float of the buffer
            s.c2v = cuda::device_buffer<float>(
                (frames * g.edges * g.q * message_bytes() + sizeof(float) - 1) /
                sizeof(float));
        }
        s.hard = cuda::device_buffer<uint8_t>(frames * g.n);
    }

    void launch(unsigned slot, const launch_io& io, cudaStream_t stream) override
    {
        slot_state& s = d_state[slot];
        // every byte set, padding too: graph_launch compares launches bytewise
        kernels::fft_bp_params p;
        std::memset(static_cast<void*>(&p), 0, sizeof p);
        p.graph = d_graph;
        p.variant = d_variant;
        p.symbol_input = io.kind == input_kind::symbol_ll;
        p.to_log_p0_p1 = d_config.flip_llr_sign ? 1.0f : -1.0f;
        p.max_iterations = d_config.max_iterations;
        p.early_termination = d_config.early_termination;
        p.layered = layered();
        p.pack_info_bits = d_config.pack_info_bits;
        p.prior = s.prior.data();
        p.app = d_variant.on_chip ? nullptr : s.app.data();
        p.c2v = d_variant.on_chip ? nullptr : s.c2v.data();
        p.half_messages = half_messages();
        p.hard = s.hard.data();
        p.input = static_cast<const float*>(io.input);
        p.n_frames = io.n_frames;
        p.info_bits = io.info_bits;
        p.status = io.status;
        p.codeword_bits = io.codeword_bits;
        if (d_graphs && d_plan.is_sequence())
            s.graph.run(d_plan, p, stream);
        else
            d_plan.launch(p, stream);
    }

    bool takes(input_kind kind) const override
    {
        return kind == input_kind::llr || kind == input_kind::symbol_ll;
    }

private:
    // What a slot's batches need on the device besides the pipeline's buffers.
    struct slot_state {
        cuda::device_buffer<float> prior, app, c2v;
        cuda::device_buffer<uint8_t> hard;
        // decode_symbols(): received points and noise variances
        cuda::device_buffer<float2> symbols;
        cuda::device_buffer<float> noise_var;
        graph_launch graph; // launch sequences on this slot's stream

        void release()
        {
            graph.reset();
            prior = {};
            app = {};
            c2v = {};
            hard = {};
            symbols = {};
            noise_var = {};
        }
    };

    bool layered() const { return d_config.schedule == decoder_schedule::layered; }
    bool half_messages() const { return d_config.messages == message_precision::fp16; }
    size_t message_bytes() const { return half_messages() ? 2 : sizeof(float); }

    // The code's graph and field tables on the device; returns the field's
    // q x q products.
    std::vector<uint8_t> upload_graph()
    {
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
        return mul;
    }

    // Layered: runs of consecutive checks that share no variable (at most 16,
    // the warps of the largest block), updated at once with the result of
    // one after another.
    void upload_runs()
    {
        const ldpc_code& c = *d_code;
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
        d_graph.run_offsets = d_run_offsets.data();
        d_graph.runs = unsigned(runs.size() - 1);
    }

    // The edge-thread family's layout, where it serves the code.
    void upload_edge_layout(const std::vector<uint8_t>& mul)
    {
        const ldpc_code& c = *d_code;
        const auto layout = kernels::fft_bp_make_edge_layout(c.n(),
                                                             c.m(),
                                                             c.q(),
                                                             c.check_offsets(),
                                                             c.edge_variable(),
                                                             c.edge_coefficient(),
                                                             c.variable_offsets(),
                                                             c.variable_edges(),
                                                             mul);
        if (layout.chunks == 0)
            return;
        d_edge_lanes = upload(layout.lanes);
        d_edge_lane_terms = upload(layout.lane_terms);
        d_variable_columns = upload(layout.variable_columns);
        auto& g = d_graph;
        g.edge_lanes = d_edge_lanes.data();
        g.edge_lane_terms = d_edge_lane_terms.data();
        g.variable_columns = d_variable_columns.data();
        g.edge_chunks = layout.chunks;
        g.edge_group = layout.group;
        g.variable_steps = layout.steps;
    }

    // decode_symbols()'s batch on slot 0: each launch's symbols and noise
    // variances copied in and demapped into the launch's input. The caller
    // holds d_mutex and the device.
    void demap_on_device(const std::complex<float>* symbols,
                         size_t n_frames,
                         const constellation& c,
                         const float* noise_var,
                         uint8_t* info_bits,
                         frame_status* status,
                         uint8_t* codeword_bits)
    {
        if (d_points_host != c.points()) {
            std::vector<float2> pts;
            for (const auto& z : c.points())
                pts.push_back(make_float2(z.real(), z.imag()));
            d_points = cuda::upload(pts);
            d_points_host = c.points();
        }
        const size_t n = d_graph.n;
        const size_t launch_frames = std::min(n_frames, max_launch());
        slot_state& st = d_state[0];
        if (st.symbols.size() < launch_frames * n) {
            synchronize(0);
            st.symbols = {};
            st.symbols = cuda::device_buffer<float2>(launch_frames * n);
            st.noise_var = cuda::device_buffer<float>(launch_frames);
        }
        enqueue(0,
                input_kind::symbol_ll,
                n_frames,
                info_bits,
                status,
                codeword_bits,
                [&](size_t f0, size_t nf, void* device_in, cudaStream_t s) {
                    GPULDPC_CUDA_CHECK(cudaMemcpyAsync(st.symbols.data(),
                                                       symbols + f0 * n,
                                                       nf * n * sizeof(float2),
                                                       cudaMemcpyHostToDevice,
                                                       s));
                    GPULDPC_CUDA_CHECK(cudaMemcpyAsync(st.noise_var.data(),
                                                       noise_var + f0,
                                                       nf * sizeof(float),
                                                       cudaMemcpyHostToDevice,
                                                       s));
                    kernels::symbol_demap_params dp{};
                    dp.symbols = st.symbols.data();
                    dp.noise_var = st.noise_var.data();
                    dp.points = d_points.data();
                    dp.q = d_graph.q;
                    dp.n_frames = nf;
                    dp.symbols_per_frame = n;
                    dp.log_likelihoods = static_cast<float*>(device_in);
                    kernels::launch_symbol_demap(dp, s);
                });
    }

    cuda::device_buffer<uint32_t> d_check_offsets, d_edge_variable, d_variable_offsets,
        d_variable_edges, d_info_positions, d_run_offsets, d_edge_lanes,
        d_edge_lane_terms, d_variable_columns;
    cuda::device_buffer<uint8_t> d_edge_coefficient, d_edge_coefficient_inverse, d_gf_mul;
    // decode_symbols(): the last constellation's points
    cuda::device_buffer<float2> d_points;
    std::vector<std::complex<float>> d_points_host;
    kernels::fft_bp_graph d_graph{};
    kernels::fft_bp_variant d_variant{};
    kernels::fft_bp_launch_plan d_plan;
    bool d_graphs = true;
    slot_state d_state[max_outstanding];
};

} // namespace

batch_decoder::sptr
make_cuda_fft_bp_decoder(ldpc_code::sptr code, const decoder_config& config, int device)
{
    return std::make_shared<cuda_fft_bp_decoder>(std::move(code), config, device);
}

#else

batch_decoder::sptr make_cuda_fft_bp_decoder(ldpc_code::sptr, const decoder_config&, int)
{
    throw std::runtime_error("this build has no CUDA backend");
}

#endif

} // namespace detail
} // namespace gpuldpc
} // namespace gr
