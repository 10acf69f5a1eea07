/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_BLOCK_COMMON_H
#define INCLUDED_GPULDPC_BLOCK_COMMON_H

// Pieces the frame-based blocks share: loading a code from block arguments,
// logging what a frame_scanner skipped, carrying tags from an input frame to
// its output frame.

#include "frame_scanner.h"
#include "rate_limited_log.h"
#include <gnuradio/block.h>
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/device.h>
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {

ldpc_code::sptr load_code(const std::string& path,
                          const std::string& format,
                          const std::string& coef,
                          unsigned poly);

/*! The batch decoder of a block's arguments, each checked and named on error. */
batch_decoder::sptr
make_batch_decoder(ldpc_code::sptr code,
                   const std::string& algorithm,
                   const std::string& schedule,
                   int max_iterations,
                   bool flip_llr_sign,
                   const std::string& device,
                   int threads,
                   const std::string& messages = "fp32",
                   float llr_scale = 4.0f,
                   float min_sum_scale = decoder_config{}.min_sum_scale,
                   float min_sum_offset = 0.0f,
                   bool pack_info_bits = false);

/*!
 * Where a block with a GPU path runs, for device_name() from any thread: the
 * GPU's name from construction until the block falls back, then "cpu".
 * set() only while the block is made; left_gpu() from the work thread
 * (run_on_gpu_or_cpu() calls it when it drops the engine).
 */
class device_status
{
public:
    //! the engine choose_engine() made, or null (the CPU)
    template <typename Engine>
    void set(const Engine* gpu)
    {
        d_gpu_name = gpu ? gpu->device_name() : std::string();
        d_on_gpu.store(gpu != nullptr);
    }
    void left_gpu() { d_on_gpu.store(false); }
    std::string name() const { return d_on_gpu.load() ? d_gpu_name : "cpu"; }

private:
    std::string d_gpu_name;
    std::atomic<bool> d_on_gpu{ false };
};

/*!
 * Runs \p on_gpu when a GPU engine is present, else \p on_cpu. A GPU failure
 * at run time (a cuda_error) drops the engine (with a log line) and redoes the
 * call on the CPU: work() has consumed nothing yet, so nothing is lost. Any
 * other exception (an invalid argument, a logic error) is a bug, not a GPU
 * failure: it propagates and the engine stays. \p where, if given, learns
 * that the block left the GPU.
 */
template <typename Engine, typename Gpu, typename Cpu>
void run_on_gpu_or_cpu(std::unique_ptr<Engine>& gpu,
                       gr::logger_ptr logger,
                       Gpu&& on_gpu,
                       Cpu&& on_cpu,
                       device_status* where = nullptr)
{
    if (gpu) {
        try {
            on_gpu(*gpu);
            return;
        } catch (const cuda_error& e) {
            logger->error("GPU failed ({}); falling back to the CPU", e.what());
            gpu.reset();
            if (where)
                where->left_gpu();
        }
    }
    on_cpu();
}

/*!
 * Chooses where a block with a GPU path runs: makes the GPU engine with
 * \p make_gpu(device_index) when the `device` argument selects a CUDA device,
 * and returns it, or returns null for the CPU. "auto" runs on the CPU (with a
 * log line) when no device is usable; an explicit "cuda"/"cuda:N" naming no
 * usable device throws. A CUDA error while the engine is made (the device
 * exists but fails) falls back to the CPU for every device argument, with a
 * log line, as a failure at run time does; any other error (an invalid
 * argument) throws.
 */
template <typename Engine, typename Make>
std::unique_ptr<Engine>
choose_engine(const std::string& device, gr::logger_ptr logger, Make&& make_gpu)
{
    const int index = select_cuda_device(device);
    if (index < 0) {
        logger->info("device={}: running on the CPU{}",
                     device,
                     device == "auto" ? " (no usable CUDA device)" : "");
        return nullptr;
    }
    try {
        auto engine = make_gpu(index);
        logger->info("device={}: running on {}", device, engine->device_name());
        return engine;
    } catch (const cuda_error& e) {
        logger->error("device={}: the GPU failed while the block was made ({}); running "
                      "on the CPU",
                      device,
                      e.what());
        return nullptr;
    }
}

/*! Logs (rate-limited) what the scanner skipped since \p reported; updates it. */
/*!
 * The value of a tag that holds a real number: any PMT integer (long or
 * uint64) or real; false (and \p out untouched) for anything else, complex
 * numbers included. Never throws.
 */
bool pmt_real_number(const pmt::pmt_t& value, double& out);

void log_skipped(gr::logger_ptr logger,
                 const frame_scanner& scanner,
                 frame_scanner::counters& reported,
                 const char* unit);

/*!
 * Moves \p tags of input items [in_abs, in_abs + in_len) to the output frame
 * at out_abs, at the proportional offset, dropping the length tag (the
 * output frame gets its own). Rewrites \p tags in place.
 */
void move_frame_tags(std::vector<gr::tag_t>& tags,
                     const frame_scanner& scanner,
                     uint64_t in_abs,
                     size_t in_len,
                     uint64_t out_abs,
                     size_t out_len);

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_BLOCK_COMMON_H */
