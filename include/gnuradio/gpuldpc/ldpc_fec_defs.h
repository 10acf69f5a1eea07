/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_LDPC_FEC_DEFS_H
#define INCLUDED_GPULDPC_LDPC_FEC_DEFS_H

#include <gnuradio/fec/generic_decoder.h>
#include <gnuradio/fec/generic_encoder.h>
#include <gnuradio/gpuldpc/api.h>
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <gnuradio/gpuldpc/ldpc_decoder.h>
#include <atomic>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {

/*!
 * \brief gr-fec (FECAPI) decoder definition: use the gpuldpc batch decoder in
 * fec.extended_decoder, fec.tagged_decoder, fec.async_decoder, fec.decoder and
 * the BER curve tools.
 * \ingroup gpuldpc
 *
 * \details
 * Contract (generic_decoder):
 * - Input: frames_per_call * n * m floats, soft bits with positive meaning 1
 *   (what fec.extended_decoder feeds after a BPSK mapping 0 -> -1, 1 -> +1),
 *   multiplied by \p input_scale before decoding. Sum-product and FFT-BP need
 *   LLRs: set input_scale = 2 / sigma^2 for unit BPSK in noise of variance
 *   sigma^2 (min-sum does not depend on the scale). min_sum_scale,
 *   min_sum_offset and min_sum_magnitude (min-sum) as in decoder_config.
 * - Output: frames_per_call * k * m unpacked information bits (0/1).
 *   Products beyond float's range saturate; NaN/Inf inputs are erasures.
 * - frames_per_call is the number of codewords a call when made, and the most
 *   set_frame_size() accepts: set_frame_size(bits) serves a multiple of k * m
 *   from 1 to frames_per_call codewords and returns true; it refuses any other
 *   size (0, not a multiple, larger), returns false and logs and counts it
 *   (refused_frame_sizes()), as gr-fec's own coders do, and serves instead
 *   the whole codewords of the request that fit (at most frames_per_call; a
 *   request of less than a codeword keeps the previous size), so that a
 *   caller that goes on never reads past its data. It never throws: gr-fec
 *   calls it inside work() and message handlers. The frames of one call are
 *   decoded as one batch. Works inside fec.extended_decoder and fec.decoder
 *   (which fix their rate when made: do not change the size while they run),
 *   fec.tagged_decoder (packets of whole codewords, at most frames_per_call of
 *   them; a packet of 1.5 codewords gives its first codeword) and
 *   fec.async_decoder (PDUs of whole codewords; it rejects other PDUs
 *   itself).
 */
class GPULDPC_API ldpc_decoder_def : public gr::fec::generic_decoder
{
public:
    /*!
     * The definition's parameters: the code, the engine's configuration and
     * the device (decoder_params; decoder.flip_llr_sign and
     * decoder.pack_info_bits are the definition's: false), and:
     */
    struct GPULDPC_API params : decoder_params {
        //! codewords a call when made, and the most set_frame_size() accepts
        int frames_per_call = 1;
        //! the soft input's factor, a finite value > 0
        float input_scale = 1.0f;
    };

    /*! Every field of \p p checked (std::invalid_argument naming it). */
    static gr::fec::generic_decoder::sptr make(const params& p);

    explicit ldpc_decoder_def(const params& p);

    void generic_work(void* inbuffer, void* outbuffer) override;
    double rate() override;
    int get_input_size() override;
    int get_output_size() override;
    bool set_frame_size(unsigned int frame_size) override;
    float get_iterations() override { return d_last_iterations; }
    const char* get_input_conversion() override { return "none"; }
    const char* get_output_conversion() override { return "none"; }

    /*! Frames whose decoding did not converge, since construction. Any thread. */
    uint64_t failed_frames() const { return d_failed; }
    uint64_t frames() const { return d_frames; } //!< frames decoded; any thread
    //! set_frame_size() calls refused; any thread
    uint64_t refused_frame_sizes() const { return d_refused_sizes; }

private:
    batch_decoder::sptr d_decoder;
    size_t d_frames_per_call;
    size_t d_max_frames_per_call;
    std::atomic<uint64_t> d_refused_sizes{ 0 };
    float d_input_scale;
    std::vector<float> d_scaled;
    std::vector<frame_status> d_status;
    std::atomic<float> d_last_iterations{ 0.0f };
    std::atomic<uint64_t> d_frames{ 0 }, d_failed{ 0 };
};

/*!
 * \brief gr-fec (FECAPI) encoder definition of the gpuldpc systematic encoder.
 * \ingroup gpuldpc
 *
 * \details
 * Contract (generic_encoder): input frames_per_call * k * m unpacked bits
 * (lowest bit of each byte), output frames_per_call * n * m unpacked code
 * bits; set_frame_size(bits) serves a multiple of k * m from 1 to
 * frames_per_call codewords (returns true), and refuses any other size as the
 * decoder definition does (false, logged, counted, the whole codewords that
 * fit served instead; never a throw).
 */
class GPULDPC_API ldpc_encoder_def : public gr::fec::generic_encoder
{
public:
    //! The definition's parameters.
    struct GPULDPC_API params {
        code_source code;
        //! codewords a call when made, and the most set_frame_size() accepts
        int frames_per_call = 1;
    };

    /*! Every field of \p p checked (std::invalid_argument naming it). */
    static gr::fec::generic_encoder::sptr make(const params& p);

    explicit ldpc_encoder_def(const params& p);

    void generic_work(void* in_buffer, void* out_buffer) override;
    double rate() override;
    int get_input_size() override;
    int get_output_size() override;
    bool set_frame_size(unsigned int frame_size) override;
    const char* get_input_conversion() override { return "none"; }
    const char* get_output_conversion() override { return "none"; }
    //! set_frame_size() calls refused; any thread
    uint64_t refused_frame_sizes() const { return d_refused_sizes; }

private:
    ldpc_code::sptr d_code;
    size_t d_frames_per_call;
    size_t d_max_frames_per_call;
    std::atomic<uint64_t> d_refused_sizes{ 0 };
    std::vector<uint8_t> d_info, d_codeword;
    std::vector<uint8_t> d_sent; // the transmitted symbols of d_codeword
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_LDPC_FEC_DEFS_H */
