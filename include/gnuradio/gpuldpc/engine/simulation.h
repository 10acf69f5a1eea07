/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_SIMULATION_H
#define INCLUDED_GPULDPC_ENGINE_SIMULATION_H

#include <gnuradio/gpuldpc/engine/config.h>
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {

/*! What the simulator keeps of one decoded frame. */
struct sim_frame_result {
    uint32_t bit_errors; //!< wrong information bits (a frame error when > 0)
    uint32_t iterations; //!< decoder iterations
    uint32_t converged;  //!< 1 when the decoder found a codeword
};

/*! The real-BPSK AWGN channel of an Eb/N0 point. */
struct GPULDPC_ENGINE_API sim_channel {
    float sigma;    //!< noise standard deviation: sigma^2 = 1 / (2 R Eb/N0)
    float llr_gain; //!< -2 / sigma^2: LLR = llr_gain * received value
    static sim_channel at(double ebn0_db, double rate);
};

/*!
 * \brief An error-rate simulation with every step of a frame on the
 * decoder's device: information, encoding, BPSK, AWGN, LLRs, decoding and
 * error counting; only the per-frame counts leave a GPU.
 *
 * Frame i of a seed is a function of the seed and i alone (Philox4x32-10,
 * kernels/common/sim_frame.h): its information symbols, its noise and so
 * its LLRs are the same on the CPU and on any GPU, bit for bit, whichever
 * call, device or process draws it. The channel is BPSK (bit b sent as
 * 1 - 2b) over real AWGN, sigma^2 = 1 / (2 R Eb/N0), R = code.rate(); the
 * decoder gets the float LLRs -2 y / sigma^2 (GNU Radio's sign).
 *
 * Contract:
 * - run() MUST give, for frame first + j * stride, the counts of decoding it
 *   alone, whatever the other frames of the call, the number of devices and
 *   the call's size: an 8-bit decoder (messages int8) counts the same on the
 *   CPU and on every GPU; a float decoder's counts agree within float
 *   rounding of its arithmetic.
 * - A GPU simulation encodes on the device (the accumulator of DVB-S2 and
 *   codes like it, the echelon back-substitution of ldpc_code::encode()
 *   for the others); make() throws std::invalid_argument naming the code
 *   for a code whose encoder the device does not have (ldpc_code::encoder()
 *   structured: CCSDS AR4JA), and for a code too large for a thread block's
 *   shared memory.
 * - Several devices ("cuda:0,1", "cuda:all") take the frames of a call in
 *   turn (frame j to device j mod D), each with its own decoder, at once.
 * - Calls from several threads take turns.
 */
class GPULDPC_ENGINE_API simulation
{
public:
    using sptr = std::shared_ptr<simulation>;
    virtual ~simulation();

    /*!
     * A simulation decoding with \p decoder's configuration. \p device: ""
     * (the decoder's own device), "cpu", "auto", "cuda", "cuda:N", a list
     * "cuda:N,M,..." or "cuda:all"; where it names the decoder's device, the
     * decoder itself decodes there. std::invalid_argument for a malformed
     * list or a repeated device, std::runtime_error for a device that does
     * not exist.
     */
    static sptr make(batch_decoder::sptr decoder, const std::string& device = "");

    /*!
     * Simulates frames first + j * stride, j < count, at \p channel, and
     * writes their counts into \p results (count entries).
     */
    void run(uint64_t seed,
             const sim_channel& channel,
             uint64_t first,
             uint64_t stride,
             size_t count,
             sim_frame_result* results);

    /*!
     * The frames run() decodes, drawn on the first device (for tests): \p info
     * count * k() symbols, \p codeword count * n() symbols, \p llr count *
     * llr_per_frame() floats; any of them MAY be null.
     */
    void frames(uint64_t seed,
                const sim_channel& channel,
                uint64_t first,
                uint64_t stride,
                size_t count,
                uint8_t* info,
                uint8_t* codeword,
                float* llr);

    /*! "cpu" or the GPUs' names, comma-separated. */
    std::string device_name() const;
    /*! Devices that share a call (1 but for a list of GPUs). */
    size_t devices() const { return d_workers.size(); }
    /*! Frames a call SHOULD hold for every device to be busy. */
    size_t preferred_batch() const;
    /*! How the first device encodes, in words (e.g. "accumulator"). */
    std::string encoder_variant() const;
    const batch_decoder& decoder() const { return *d_decoder; }

    class worker; // one device's part (lib/engine/simulation_worker.h)

private:
    simulation(batch_decoder::sptr decoder, std::vector<std::unique_ptr<worker>> workers);
    batch_decoder::sptr d_decoder;
    std::vector<std::unique_ptr<worker>> d_workers;
    std::mutex d_mutex;
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_SIMULATION_H */
