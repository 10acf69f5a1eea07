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
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <cstdint>
#include <string>

namespace gr {
namespace gpuldpc {

/*!
 * \brief Where a block's code comes from: a code object, or a parity-check
 * matrix file or built-in name read when the block is made.
 */
struct GPULDPC_API code_source {
    ldpc_code::sptr code; //!< the code; where null, \p file is read
    //! parity-check matrix file (alist, non-binary alist, .qc) or a built-in
    //! or shipped code's name ("dvbs2:1/2", "dvbs2:1/2:short", "nr:1:384",
    //! "wifi:1944:1/2", "regular_3_6_n1008_gf2"; see ldpc_code::load())
    std::string file;
    code_io_options io; //!< how \p file is read

    code_source() = default;
    code_source(ldpc_code::sptr c) : code(std::move(c)) {}
    code_source(std::shared_ptr<ldpc_code> c) : code(std::move(c)) {}
    /*!
     * \p file read with \p format ("auto", "alist", "nb-alist" or "qc"),
     * \p coef (non-binary coefficients: "exponent" or "polynomial") and
     * field polynomial \p poly (0: the default); std::invalid_argument
     * naming format or coef for an unknown word.
     */
    code_source(const std::string& file,
                const std::string& format = "auto",
                const std::string& coef = "exponent",
                unsigned poly = 0);

    /*!
     * The code: \p code, or \p file read (std::runtime_error for a file it
     * cannot read; std::invalid_argument "code: no code given" where both
     * are empty).
     */
    ldpc_code::sptr load() const;
};

/*!
 * \brief What every decoder of the module's blocks is made of: the code, the
 * engine's configuration and the device; ldpc_decoder::params and the FECAPI
 * definition's params add their own options.
 *
 * decoder is the engine's typed configuration (decoder_config: algorithm,
 * schedule, iterations, LLR sign, CPU threads, message precision, 8-bit
 * scale, min-sum scale, offset and magnitude rule), checked when the
 * decoder is made; decoder.gpu is used as given (its defaults are the
 * engines' own choice):
 * the edges that take settings from the environment (the Python keyword
 * functions, GRC's C++ flowgraphs, the command-line tools) fill it with
 * gpu_tuning::from_environment().
 *
 * The set_*() members take the user-facing words of the Python keywords and
 * GRC parameters of the same name, parsed once: each throws
 * std::invalid_argument naming the parameter, its value and what is allowed.
 */
struct GPULDPC_API decoder_params {
    code_source code;
    decoder_config decoder;
    //! "auto" (a GPU when one is usable and runs the configuration, else the
    //! CPU), "cpu", "cuda", "cuda:N", or several GPUs, "cuda:N,M,..." or
    //! "cuda:all" (batches on them in turn, frames out in order)
    std::string device = "auto";

    //! "auto", "fft-bp", "log-fft-bp", "sum-product", "min-sum"
    void set_algorithm(const std::string& s);
    //! "flooding" or "layered"
    void set_schedule(const std::string& s);
    //! "fp32"; "fp16" (fft-bp: half the memory and traffic of the
    //! check-to-variable messages); "int8" (min-sum in 8-bit fixed point)
    void set_messages(const std::string& s);
    //! 1..100000
    void set_max_iterations(int n);
    //! CPU decoder threads, 0 for all cores
    void set_threads(int n);
    //! min-sum: "auto" (min_sum_auto_magnitude() of the code), "smallest",
    //! "two-smallest", "three-smallest"
    void set_min_sum_magnitude(const std::string& s);
};

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
 * convention log(P(1)/P(0)) (positive means 1; decoder_config::flip_llr_sign
 * for the opposite), bits of a symbol MSB first. Output, one frame per input frame:
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
 * most \p max_batch; 0, the default, takes on the CPU four SIMD groups a
 * thread (256 to 4096, cut to whole rounds of groups) and on a GPU 4096,
 * or the decoder's batch_decoder::preferred_batch() where larger (a launch
 * needs thousands of frames to fill the device, small codes on chip tens of
 * thousands), so batches fill under load and a lone frame is decoded
 * at once when input runs dry. The block declares its rate (output frame per
 * input frame) and an output multiple of one batch, so GNU Radio gives the
 * upstream buffer room for two batches of input (2 * batch_size() *
 * input_frame_length() floats); batch_size() is \p max_batch unless a batch of
 * input would exceed 64 MiB, where it is lowered (with a log line). A batch
 * the block chooses (automatic or lowered) on the CPU is cut to whole rounds
 * of the SIMD decoder's groups where its last round would be mostly idle
 * (batch_decoder::whole_round_batch()).
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

    //! What a frame's output holds
    enum class output_format {
        packed,  //!< information bits packed MSB first, ceil(k * m / 8) bytes
        bits,    //!< one information bit (0/1) a byte, k * m bytes
        symbols, //!< one GF(q) information symbol a byte, k bytes
    };
    //! What the input items are
    enum class input_format {
        float_llr, //!< float soft bits ("float")
        int8_llr,  //!< 8-bit soft bits, v / llr_scale ("int8")
        symbols,   //!< received complex points ("symbols")
    };
    //! Which stream frames carry status tags
    enum class status_tag_mode {
        failed, //!< those that did not converge
        all,    //!< every frame
        none,   //!< none (PDUs always carry the status in their metadata)
    };

    /*!
     * \brief The block's parameters: the code, the engine's configuration
     * and the block's options.
     *
     * decoder.pack_info_bits is the block's: it is set exactly for output
     * packed. The set_*() members take the user-facing words of the
     * parameters of the same name (Python keywords, GRC parameters).
     */
    struct GPULDPC_API params : decoder_params {
        output_format output = output_format::packed;
        //! frames per decoder call at most; 0: automatic, on the CPU four
        //! SIMD groups a thread (256 to 4096, cut to whole rounds of groups), on
        //! a GPU 4096 or the decoder's preferred batch where larger (less
        //! where 64 MiB of input is less)
        int max_batch = 0;
        //! length tag key; "" for untagged streams (in and out)
        std::string length_tag_key = "packet_len";
        //! pass frames that did not converge (flagged) or drop them
        bool pass_failed = true;
        double stats_interval = 1.0; //!< seconds between "stats" messages, > 0
        status_tag_mode status_tags = status_tag_mode::failed;
        input_format input = input_format::float_llr;
        //! input symbols: the constellation matched to the code, code symbol x
        //! sent as its point x ("" picks the module's one of q points:
        //! gpuldpc-bpsk, gpuldpc-qpsk, gpuldpc-8psk, gpuldpc-16qam,
        //! gpuldpc-64qam, gpuldpc-256qam; any name of
        //! engine::constellation::make())
        std::string constellation = "";
        //! input symbols: the complex noise variance N0 = E|n|^2, > 0
        float noise_var = 1.0f;
        //! input symbols: a tag of this key (a positive number, e.g. from
        //! packet_noise_estimator_cc) sets N0 from its offset on; on PDUs,
        //! the metadata's value of this key; "" for noise_var alone
        std::string noise_var_tag_key = "";

        //! "packed", "bits" or "symbols"
        void set_output(const std::string& s);
        //! "float" LLRs, or "int8" (GNU Radio's byte stream; PDUs of s8 or u8
        //! vectors), value v the LLR v / llr_scale: a quarter of the bytes a
        //! frame; or "symbols"
        void set_input(const std::string& s);
        //! "failed", "all" or "none"; "True"/"true"/"1" and
        //! "False"/"false"/"0" (flowgraphs saved when it was a bool) mean
        //! "all" and "none"
        void set_status_tags(const std::string& s);
    };

    /*!
     * Makes the block. Every field of \p p is checked: std::invalid_argument
     * names the parameter, its value and what is allowed. \p p.decoder.gpu is
     * used as given (the Python keyword function fills it from the
     * environment, gpu_tuning::from_environment()).
     */
    static sptr make(const params& p);

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
