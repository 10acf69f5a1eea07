/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_LDPC_DECODER_H
#define INCLUDED_GPULDPC_LDPC_DECODER_H

#include <gnuradio/block.h>
#include <gnuradio/gpuldpc/api.h>
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <cstdint>
#include <string>

namespace gr {
namespace gpuldpc {

/*!
 * \brief LDPC decoder over GF(q), many frames per call.
 * \ingroup gpuldpc
 *
 * \details
 * Input "symbols": received complex points of the constellation matched to
 * the code (GF(64) on 64-QAM, GF(16) on 16-QAM, a binary code on BPSK;
 * code symbol x sent as point x of engine::constellation), n_transmitted
 * per frame, with the noise variance N0 of noise_var or of the latest
 * noise_var_tag_key tag (a tag's value that is not a positive finite number
 * is counted in "bad_noise_var_tags" and ignored). The decoder takes the
 * symbol log-likelihoods -|y - x|^2 / N0: no bit is taken as independent of
 * the others of its symbol (batch_decoder::decode_symbols(); a GPU demaps on
 * the device). PDUs: c32vector.
 *
 * Input: soft bits (float LLRs), n * bits_per_symbol per frame, GNU Radio's
 * convention log(P(1)/P(0)) (positive means 1; \p flip_llr_sign for the
 * opposite), bits of a symbol MSB first. Output, one frame per input frame:
 * - "packed": information bits packed MSB first, ceil(k * m / 8) bytes (the
 *   decoder packs them: a GPU copies back an eighth of the bytes)
 * - "bits": one information bit (0/1) per byte, k * m bytes
 * - "symbols": one GF(q) information symbol per byte, k bytes
 *
 * Framing: with a length tag key (default "packet_len") each tagged packet is
 * one frame; a packet of another length is counted and skipped whole, items
 * outside any packet are counted and skipped. With an empty key the input is
 * cut into consecutive frames and the output carries no length tags (its
 * frames are output_frame_length() bytes each).
 *
 * Batching: every call decodes as many complete frames as are waiting (at
 * most \p max_batch; 0, the default, takes 256 on the CPU and on a GPU 4096
 * or the decoder's batch_decoder::preferred_batch() where larger (a launch
 * needs thousands of frames to fill the device, small codes on chip tens of
 * thousands), so batches
 * fill under load and a lone frame is decoded
 * at once when input runs dry. The block declares its rate (output frame per
 * input frame) and an output multiple of one batch, so GNU Radio gives the
 * upstream buffer room for two batches of input (2 * batch_size() *
 * input_frame_length() floats); batch_size() is \p max_batch unless a batch of
 * input would exceed 64 MiB, where it is lowered (with a log line).
 *
 * End of stream: an incomplete frame left when the upstream finishes (a
 * packet cut short, or untagged items short of a frame) is counted
 * (truncated_frames()) and logged, and the flowgraph finishes.
 *
 * Tags: tags on the items of an output frame go with it. Tags on items that
 * yield no output frame (skipped packets and items, truncated frames, failed
 * frames that are dropped) are not forwarded; they are counted
 * (dropped_tags(), "dropped_tags" in the stats), length tags excluded.
 *
 * Topology: stream input and stream output are used together (for PDUs of
 * a stream, connect the output to pdu.tagged_stream_to_pdu), or neither (PDUs
 * alone on the "pdus" ports); one without the other is rejected with an error
 * when the flowgraph starts.
 *
 * Output tags on the first item of each frame: the length key (frame length)
 * unless the key is empty, and the status tags "ldpc_converged" (bool),
 * "ldpc_iterations" (long) and "ldpc_syndrome_weight" (long) as \p status_tags
 * says: "failed" (the default) on frames that did not converge only (with
 * pass_failed), so that failed frames stay flagged at no cost to good ones;
 * "all" on every frame; "none". Each tag costs the block's thread about half a
 * microsecond (GNU Radio's tag store, H100 host): three tags on every frame
 * hold a GPU decoder of small codes to a fraction of its rate, and at line
 * rate use untagged streams (an empty key). Tags of an input frame are carried to its
 * output frame at the proportional offset. Length tags may hold any PMT integer (long or
 * uint64).
 *
 * Failed frames (not converged) are passed on with ldpc_converged = false, or
 * dropped and counted when \p pass_failed is false.
 *
 * Message ports: "pdus" in (f32vector of one or more whole frames) and
 * "pdus" out (u8vector per frame, metadata of the input plus "ldpc_converged",
 * "ldpc_iterations", "ldpc_syndrome_weight"); "stats" out, a dictionary
 * published every \p stats_interval seconds and once more at the end of the
 * run: from work() when the stream input ended (it always reaches its
 * subscribers), or from stop() when the run ends otherwise (tb.stop(), a
 * downstream block such as a Head ending it, PDUs alone: GNU Radio may have
 * stopped the subscribers by then, so it can be lost; read stats() after
 * wait() instead). A new run starts from noise_var, not from the last tag of
 * the run before:
 * frames, failed, dropped, bad_length, missing_tag_items, truncated_frames,
 * dropped_tags, invalid_inputs, bad_noise_var_tags (with a constellation),
 * avg_iterations, frames_per_second, info_bits_per_second, batches (decoder
 * calls), largest_batch (frames), chunked_batches (batches that nothing waited
 * behind, decoded in chunks), device, kernel_variant (the GPU kernel in use,
 * in words; "" on the CPU), dropped_at_stop (frames in flight when the
 * flowgraph was stopped: decoded, but not written out).
 *
 * Bad data (wrong length, NaN/Inf values, a missing tag) never stops the
 * block: it is counted, logged and reported on "stats".
 *
 * GPU failures: a failed CUDA call while the block is made (also with
 * device "cuda") or while it runs makes the block decode on the CPU from
 * then on, with one error line in the log; no frame is lost, and the
 * batches in flight are decoded again on the CPU where the GPU did not
 * finish them. A device argument that names no usable device is an error
 * (std::runtime_error) when the block is made.
 *
 * Threads: every accessor below MAY be called from any thread while the
 * flowgraph runs; counters are atomic and no lock is held while decoding.
 */
class GPULDPC_API ldpc_decoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<ldpc_decoder> sptr;

    /*! The block's parameters (the arguments of make() after the code). */
    struct params {
        std::string algorithm = "auto";
        std::string schedule = "flooding";
        int max_iterations = 50;
        bool flip_llr_sign = false;
        std::string output = "packed";
        int max_batch = 0;
        std::string device = "auto";
        std::string length_tag_key = "packet_len";
        bool pass_failed = true;
        int threads = 0;
        double stats_interval = 1.0;
        std::string status_tags = "failed";
        std::string messages = "fp32";
        std::string input = "float";   //!< soft bit items: "float" or "int8"
        float llr_scale = 4.0f;        //!< int8: steps per unit of LLR, (0, 64]
        float min_sum_scale = 0.8125f; //!< min-sum: normalization, (0, 1]
        float min_sum_offset = 0.0f;   //!< min-sum: offset, >= 0
        //! input "symbols": the matched constellation ("" for the module's
        //! one of q points: gpuldpc-bpsk ... gpuldpc-256qam; any name of
        //! engine::constellation::make())
        std::string constellation = "";
        float noise_var = 1.0f; //!< input "symbols": N0 = E|n|^2, > 0
        //! input "symbols": a tag of this key sets N0 from its offset on
        std::string noise_var_tag_key = "";
    };

    /*!
     * \param code_file parity-check matrix file (alist, non-binary alist, .qc)
     *        or a built-in code ("dvbs2:1/2", "dvbs2:1/2:short", "nr:1:384")
     * \param format "auto", "alist", "nb-alist" or "qc"
     * \param coef non-binary coefficient convention, "exponent" or "polynomial"
     * \param poly field polynomial, 0 for the default
     * \param algorithm "auto", "fft-bp", "log-fft-bp", "sum-product", "min-sum"
     * \param schedule "flooding" or "layered"
     * \param max_iterations 1..100000
     * \param flip_llr_sign true when positive LLRs mean 0
     * \param output "packed", "bits" or "symbols"
     * \param max_batch frames per decoder call at most; 0: automatic, 256 on
     *        the CPU and on a GPU 4096 or the decoder's preferred batch where
     *        larger (less where 64 MiB of input is less)
     * \param device "auto", "cpu", "cuda" or "cuda:N"
     * \param length_tag_key length tag key; "" for untagged streams (in and out)
     * \param pass_failed pass frames that did not converge (flagged) or drop them
     * \param threads CPU decoder threads, 0 for all cores
     * \param stats_interval seconds between "stats" messages, > 0
     * \param status_tags which output frames carry status tags: "failed" (those
     *        that did not converge), "all", "none" (PDUs always carry the status
     *        in their metadata)
     * \param messages "fp32", "fp16" (fft-bp: half the memory and traffic of
     *        the check-to-variable messages) or "int8" (min-sum in 8-bit fixed
     *        point)
     * \param input soft bit items: "float" LLRs, or "int8" (GNU Radio's byte
     *        stream; PDUs of s8 or u8 vectors), value v the LLR v / llr_scale:
     *        a quarter of the bytes per frame
     * \param llr_scale int8: steps per unit of LLR, (0, 64]; the int8
     *        message arithmetic counts in the same steps
     * \param min_sum_scale min-sum: check messages scaled by this, (0, 1]
     *        (13/16 suits checks of degree 6 to 8: 802.11n, DVB-S2 rate 1/2)
     * \param min_sum_offset min-sum: subtracted from check message
     *        magnitudes, >= 0
     * \param constellation input "symbols": the constellation matched to the
     *        code, code symbol x sent as its point x ("" picks the module's
     *        one of q points: gpuldpc-bpsk, gpuldpc-qpsk, gpuldpc-8psk,
     *        gpuldpc-16qam, gpuldpc-64qam, gpuldpc-256qam)
     * \param noise_var input "symbols": the complex noise variance
     *        N0 = E|n|^2, > 0
     * \param noise_var_tag_key input "symbols": a tag of this key (a positive
     *        number, e.g. from packet_noise_estimator_cc) sets N0 from its
     *        offset on; on PDUs, the metadata's value of this key; "" for
     *        noise_var alone
     */
    static sptr make(const std::string& code_file,
                     const std::string& format = "auto",
                     const std::string& coef = "exponent",
                     unsigned poly = 0,
                     const std::string& algorithm = "auto",
                     const std::string& schedule = "flooding",
                     int max_iterations = 50,
                     bool flip_llr_sign = false,
                     const std::string& output = "packed",
                     int max_batch = 0,
                     const std::string& device = "auto",
                     const std::string& length_tag_key = "packet_len",
                     bool pass_failed = true,
                     int threads = 0,
                     double stats_interval = 1.0,
                     const std::string& status_tags = "failed",
                     const std::string& messages = "fp32",
                     const std::string& input = "float",
                     float llr_scale = 4.0f,
                     float min_sum_scale = 0.8125f,
                     float min_sum_offset = 0.0f,
                     const std::string& constellation = "",
                     float noise_var = 1.0f,
                     const std::string& noise_var_tag_key = "");

    /*! The same with a code object instead of a file. */
    static sptr make_from_code(ldpc_code::sptr code,
                               const std::string& algorithm = "auto",
                               const std::string& schedule = "flooding",
                               int max_iterations = 50,
                               bool flip_llr_sign = false,
                               const std::string& output = "packed",
                               int max_batch = 0,
                               const std::string& device = "auto",
                               const std::string& length_tag_key = "packet_len",
                               bool pass_failed = true,
                               int threads = 0,
                               double stats_interval = 1.0,
                               const std::string& status_tags = "failed",
                               const std::string& messages = "fp32",
                               const std::string& input = "float",
                               float llr_scale = 4.0f,
                               float min_sum_scale = 0.8125f,
                               float min_sum_offset = 0.0f,
                               const std::string& constellation = "",
                               float noise_var = 1.0f,
                               const std::string& noise_var_tag_key = "");

    /*! The same with the parameters in one struct; every field is checked. */
    static sptr make_from_params(ldpc_code::sptr code, const params& p);

    virtual uint64_t frames() const = 0;            //!< frames decoded
    virtual uint64_t failed_frames() const = 0;     //!< frames that did not converge
    virtual uint64_t dropped_frames() const = 0;    //!< failed frames not passed on
    virtual uint64_t bad_length_frames() const = 0; //!< packets/PDUs of a wrong length
    virtual uint64_t missing_tag_items() const = 0; //!< items outside any packet
    virtual uint64_t truncated_frames() const = 0;  //!< incomplete at end of stream
    virtual uint64_t dropped_tags() const = 0;      //!< tags on items with no output
    //! frames in flight when the flowgraph was stopped: decoded, not written out
    virtual uint64_t dropped_at_stop() const = 0;
    virtual uint64_t invalid_inputs() const = 0; //!< NaN/Inf soft values
    virtual double average_iterations() const = 0;
    /*! The dictionary that the "stats" port publishes, as of now. */
    virtual pmt::pmt_t stats() const = 0;
    virtual std::string device_name() const = 0;
    virtual int input_frame_length() const = 0;  //!< soft bits per frame
    virtual int output_frame_length() const = 0; //!< bytes per output frame
    virtual int batch_size() const = 0;          //!< frames per decoder call at most
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_LDPC_DECODER_H */
