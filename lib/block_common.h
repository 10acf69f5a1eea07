/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_BLOCK_COMMON_H
#define INCLUDED_GPULDPC_BLOCK_COMMON_H

// Pieces the frame-based blocks share: loading a code from block arguments,
// making a batch decoder and leaving a failing GPU, logging what a
// frame_scanner skipped, carrying tags from an input frame to its output
// frame.

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

/*!
 * What every block takes for a GPU failure: runs \p call and returns true, or,
 * where it throws cuda_error, calls \p fail(error) and returns false, so that
 * the caller redoes the work on the CPU. Any other exception (an invalid
 * argument, a logic error) is a bug, not a GPU failure: it propagates.
 */
template <typename Call, typename Fail>
bool gpu_call(Call&& call, Fail&& fail)
{
    try {
        call();
        return true;
    } catch (const cuda_error& e) {
        fail(e);
        return false;
    }
}

/*!
 * The batch decoder of \p code, \p config and \p device (batch_decoder::make(),
 * which checks the configuration and names the argument on error);
 * std::invalid_argument "code: no code given" for a null code.
 */
batch_decoder::sptr make_batch_decoder(ldpc_code::sptr code,
                                       const decoder_config& config,
                                       const std::string& device);

/*!
 * \brief A block's batch decoder, on a GPU until the GPU fails and on the CPU
 * from then on: the decoder blocks' one way to leave a failing GPU.
 *
 * - make() gives the decoder of the device argument, or the CPU's (with an
 *   error line) where a CUDA call fails while it is made; an unusable device
 *   argument and an invalid configuration are errors.
 * - run(call) runs call(decoder) on the decoder in use. A cuda_error from it
 *   replaces that decoder by a CPU decoder of the same configuration, with
 *   one error line, and runs call again on the CPU decoder: the caller keeps
 *   its inputs until run() returns, so nothing is lost. Any other exception
 *   (an invalid argument, a logic error) is a bug, not a GPU failure: it
 *   propagates and the decoder stays.
 * - finish(used, end, redo) ends a batch begun on \p used, which MAY have
 *   been replaced since: a cuda_error from end(*used) falls back as run()
 *   does (once: only where \p used is still in use) and redoes the batch
 *   with redo(cpu decoder); a batch that finished keeps its results.
 * - The block's work thread calls run(), finish() and current(); any thread
 *   MAY call shared() (the decoder is replaced atomically).
 */
class fallback_decoder
{
public:
    static batch_decoder::sptr make(ldpc_code::sptr code,
                                    const decoder_config& config,
                                    const std::string& device,
                                    gr::logger_ptr logger);

    fallback_decoder(batch_decoder::sptr decoder, gr::logger_ptr logger)
        : d_decoder(std::move(decoder)), d_logger(std::move(logger))
    {
    }

    //! the decoder in use; the work thread only
    const batch_decoder::sptr& current() const { return d_decoder; }
    //! the decoder in use; any thread
    batch_decoder::sptr shared() const { return std::atomic_load(&d_decoder); }

    template <typename Call>
    void run(Call&& call)
    {
        const batch_decoder::sptr used = d_decoder;
        if (!gpu_call([&] { call(used); },
                      [&](const cuda_error& e) { fall_back(*used, e); }))
            call(d_decoder);
    }

    template <typename End, typename Redo>
    void finish(const batch_decoder::sptr& used, End&& end, Redo&& redo)
    {
        if (!gpu_call([&] { end(*used); },
                      [&](const cuda_error& e) { fall_back(*used, e); }))
            redo(d_decoder);
    }

private:
    // A CPU decoder replaces \p failed where it is still in use.
    void fall_back(const batch_decoder& failed, const cuda_error& e);

    batch_decoder::sptr d_decoder;
    gr::logger_ptr d_logger;
};

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
    if (gpu && gpu_call([&] { on_gpu(*gpu); },
                        [&](const cuda_error& e) {
                            logger->error("GPU failed ({}); falling back to the CPU",
                                          e.what());
                            gpu.reset();
                            if (where)
                                where->left_gpu();
                        }))
        return;
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
    std::unique_ptr<Engine> engine;
    if (!gpu_call([&] { engine = make_gpu(index); },
                  [&](const cuda_error& e) {
                      logger->error("device={}: the GPU failed while the block was made "
                                    "({}); running on the CPU",
                                    device,
                                    e.what());
                  }))
        return nullptr;
    logger->info("device={}: running on {}", device, engine->device_name());
    return engine;
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
