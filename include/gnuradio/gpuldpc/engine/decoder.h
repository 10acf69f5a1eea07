/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_DECODER_H
#define INCLUDED_GPULDPC_ENGINE_DECODER_H

#include <gnuradio/gpuldpc/engine/bits.h>
#include <gnuradio/gpuldpc/engine/config.h>
#include <gnuradio/gpuldpc/engine/frame_status.h>
#include <gnuradio/gpuldpc/engine/gpu_tuning.h>
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <gnuradio/gpuldpc/engine/soft_demapper.h>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {

/*! Node update rule. */
enum class decoder_algorithm {
    automatic,   //!< fft_bp for q > 2, sum_product for q = 2
    fft_bp,      //!< GF(q) belief propagation, check nodes through the FWHT (any q)
    log_fft_bp,  //!< fft_bp with the FWHT in signed-log arithmetic (any q)
    sum_product, //!< binary sum-product (tanh rule), q = 2 only
    min_sum,     //!< binary normalized/offset min-sum, q = 2 only
};

/*! Message-passing schedule. */
enum class decoder_schedule {
    flooding, //!< all checks, then all variables, per iteration
    layered,  //!< check by check, each using the freshest variable beliefs
};

/*! Storage of the check-to-variable messages (fft-bp). */
enum class message_precision {
    fp32, //!< single precision
    //! each message value rounded to half precision (round to nearest even)
    //! when it is made: half the memory and traffic of the messages
    fp16,
    //! min-sum in 8-bit fixed point, exactly as a hardware or GPU decoder of
    //! 8-bit messages computes it (see decoder_config::llr_scale):
    //! - channel values: round(LLR * llr_scale) (ties to even) of the LLR
    //!   clipped to +-max_input_magnitude, saturated to +-127 (8-bit input
    //!   alike: v beyond 64 * llr_scale becomes +-round(min(64 * llr_scale,
    //!   127)));
    //! - messages into a check: the variable's belief minus the check's
    //!   previous message, saturated to +-127 (layered: the belief then adds
    //!   the check's new message to the unsaturated difference);
    //! - check messages: magnitude (max(min - offset_q, 0) * scale_q + 8) >> 4
    //!   with scale_q = round(16 * min_sum_scale) (min_sum_scale >= 1/32) and
    //!   offset_q = round(min_sum_offset * llr_scale) (at most 128), the sign
    //!   of the others' product; with min_sum_magnitude_rule::two_smallest, min is
    //!   m2 (+) m3 or m1 (+) m2 of the magnitudes clamped to 127, with
    //!   f(x) = round(llr_scale * ln(1 + e^-(x / llr_scale))) (ties to even)
    //!   and the result at least 0; with three_smallest, the two of the three
    //!   smallest other than the edge's own or (m1 (+) m2) (+) m3, alike, and
    //!   offset_q taken as 0 at checks of fewer than 5 edges;
    //! - beliefs: the channel value plus all the variable's check messages
    //!   (32-bit integers; 16 bits on a GPU), exact in flooding; layered, a
    //!   belief is limited to +-1920 after each check's update, which only
    //!   bits of 15 checks or more (such as 5G NR's first columns) can reach,
    //!   with the channel value and their messages near the largest
    //!   magnitude all agreeing; it keeps a belief less a message within
    //!   +-2047, whole numbers that fp16 holds exactly.
    int8,
};

/*! What a min-sum check message's magnitude is made of, before its correction. */
enum class min_sum_magnitude_rule {
    smallest, //!< the smallest input magnitude of the other edges (min-sum)
    //! the two smallest combined exactly, as belief propagation would combine
    //! them (the lambda-min rule of Guilloud, Boutillon and Danger, 2003, with
    //! lambda = 2): with m1 <= m2 <= m3 the check's three smallest input
    //! magnitudes, m2 (+) m3 on an edge whose input magnitude is m1 and
    //! m1 (+) m2 on the others, where a (+) b = a + f(a + b) - f(b - a) for
    //! a <= b and f(x) = ln(1 + e^-x); checks of degree 2 take smallest. The
    //! 8-bit rule computes it in its steps (message_precision::int8). Closer
    //! to belief propagation on codes with punctured bits and low rates (5G
    //! NR BG1 at rate 1/3 within 0.1 dB; docs/min_sum_correction.md). The
    //! CPU decoders run it; the GPU decoders do not yet.
    two_smallest,
    //! the three smallest combined exactly (lambda-min with lambda = 3): with
    //! m1 <= m2 <= m3 the check's three smallest input magnitudes, at the
    //! first positions of equal magnitudes first, an edge of the three takes
    //! the other two combined (m2 (+) m3, m1 (+) m3 or m1 (+) m2), every
    //! other edge (m1 (+) m2) (+) m3, with two_smallest's a (+) b; checks of
    //! degree 3 thus get belief propagation's messages, and checks of degree
    //! 2 take smallest. The offset applies at checks of 5 edges or more only
    //! (below, a message leaves out at most one input). The 8-bit rule
    //! computes it in its steps, the three magnitudes clamped to 127 first.
    //! 5G NR BG1 at rate 1/3 and BG2 at rate 1/5 within 0.13 dB of belief
    //! propagation at 10 iterations (docs/min_sum_correction.md). The CPU
    //! decoders run it, and the GPU decoder in the 8-bit rule: quasi-cyclic
    //! codes with a row profile (5G NR, IEEE 802.11n/16e, AR4JA; lifting
    //! sizes up to 384) two frames a lane in fp16 pairs (0.56 to 0.81 of the
    //! default's speed on an H100), other codes a frame a lane (DVB-S2 rate
    //! 1/2: a seventh).
    three_smallest,
    //! the rule min_sum_auto_magnitude() takes for the code (the default):
    //! three_smallest in the 8-bit rule where most checks are small, else
    //! smallest; the decoder's config() reports the rule taken
    automatic,
};

/*! Parses "auto", "smallest", "two-smallest", "three-smallest". */
GPULDPC_ENGINE_API min_sum_magnitude_rule parse_min_sum_magnitude(const std::string& s);
GPULDPC_ENGINE_API std::string to_string(min_sum_magnitude_rule m);

/*! Parses "auto", "fft-bp", "log-fft-bp", "sum-product", "min-sum". */
GPULDPC_ENGINE_API decoder_algorithm parse_decoder_algorithm(const std::string& s);
/*! Parses "flooding", "layered". */
GPULDPC_ENGINE_API decoder_schedule parse_decoder_schedule(const std::string& s);
GPULDPC_ENGINE_API std::string to_string(decoder_algorithm a);
GPULDPC_ENGINE_API std::string to_string(decoder_schedule s);
/*! Parses "fp32", "fp16", "int8". */
GPULDPC_ENGINE_API message_precision parse_message_precision(const std::string& s);
GPULDPC_ENGINE_API std::string to_string(message_precision p);
/*!
 * \p x rounded to the nearest IEEE half-precision value (ties to even), as a
 * float; beyond the half range, +-infinity. The CPU reference's model of fp16
 * message storage, bit for bit that of the GPU's __float2half_rn.
 */
GPULDPC_ENGINE_API float round_to_half(float x);

/*!
 * decoder_config::min_sum_scale of a decoder that takes the scale chosen for
 * its code (min_sum_auto_correction()); "auto" where a scale is given as text.
 */
constexpr float min_sum_scale_auto = 0.0f;
/*!
 * decoder_config::min_sum_offset of a decoder that takes the offset chosen for
 * its code where the scale is chosen too, and 0 where the scale is given;
 * "auto" where an offset is given as text.
 */
constexpr float min_sum_offset_auto = std::numeric_limits<float>::lowest();

/*!
 * Parses a min-sum scale: "auto" (min_sum_scale_auto) or a number; throws
 * std::invalid_argument naming min_sum_scale otherwise. The range is checked
 * where a decoder is made.
 */
GPULDPC_ENGINE_API float parse_min_sum_scale(const std::string& s);
/*! Parses a min-sum offset: "auto" (min_sum_offset_auto) or a number. */
GPULDPC_ENGINE_API float parse_min_sum_offset(const std::string& s);

/*! The check-message correction of min-sum: magnitude scale * max(min - offset, 0). */
struct min_sum_correction {
    float scale;  //!< a multiple of 1/16, (0, 1]
    float offset; //!< LLR units, a multiple of 1/4
};

/*!
 * \brief The check rule that min_sum_magnitude="auto" takes for \p code
 * decoded by min-sum with \p messages.
 *
 * Min-sum's smallest magnitude overstates a check's message most where checks
 * are small, and no scale or offset recovers it there: with the automatic
 * correction, 8-bit layered min-sum decodes 5G NR BG1 at rate 1/3 0.28 dB and
 * BG2 at rate 1/5 0.42 dB from belief propagation at 10 iterations, DVB-S2
 * rates 1/4 and 2/5 0.24 and 0.23 dB at 50, where three_smallest is within
 * 0.13 dB (docs/min_sum_correction.md). Where checks are large min-sum is
 * within about 0.2 dB and faster (measured: DVB-S2 rates 1/2 and up, 5G NR
 * BG1 at 4 to 16 rows and BG2 at 8, IEEE 802.11n). Hence:
 * - message_precision::int8: three_smallest where more than half the checks
 *   have 6 edges or fewer (5G NR BG1 at 29 to 46 rows, BG2 at 9 to 42,
 *   DVB-S2 rates 1/4 to 2/5 and short 1/2; not DVB-S2 rate 1/2 and up, 5G NR
 *   BG1 at up to 28 rows, BG2 at up to 8, IEEE 802.11n), else smallest;
 * - fp32: smallest (the GPU's float min-sum runs only that rule, and a GPU
 *   and a CPU decoder of one configuration take the same rule).
 * The result is never automatic.
 */
GPULDPC_ENGINE_API min_sum_magnitude_rule min_sum_auto_magnitude(
    const ldpc_code& code, message_precision messages = message_precision::int8);

/*!
 * \brief The min-sum correction that min_sum_scale="auto" and
 * min_sum_offset="auto" take for \p code decoded in up to \p max_iterations
 * iterations (decoder_config::max_iterations; decoders pass theirs).
 *
 * One normalization for every code costs up to 1 dB: the best one depends on
 * the code. Offset and scale together do better than either alone, and one
 * pair serves a whole family of codes. Measured by simulation
 * (scripts/min_sum_scale_sweep.py: 8-bit layered min-sum at 10 and 50
 * iterations, every scale from 13/16 to 1 with offsets 0 to 0.75, the Eb/N0
 * of a frame error rate of 1e-2, on 5G NR, DVB-S2 and IEEE 802.11n codes;
 * docs/min_sum_correction.md has the figures):
 * - codes whose parity bits accumulate (has_accumulator_parity(): DVB-S2,
 *   DVB-T2, ATSC 3.0): offset min-sum, scale 1, offset 0.25; offset 0.5
 *   where checks have 5.5 edges or more on average (DVB-S2 rates 2/5 and
 *   up, 6 to 30; not short frames' 1/2, 5.4) and \p max_iterations is 20 or
 *   more, and where they have 10.5 or more (rates 3/5 and 3/4 and up, 11 to
 *   30) at every count (1000 frames a point: rate 3/5 at 50 iterations 0.19
 *   dB from sum-product against 0.54, at 10 0.17 against 0.31; rate 1/2 at
 *   50 0.11 against 0.25);
 * - the rest (5G NR, IEEE 802.11n, regular and other codes): scale 15/16,
 *   offset 0.5.
 * With min_sum_magnitude_rule::two_smallest or three_smallest (measured the
 * same way): scale 1 with offset 0.25, and scale 1 without offset where the
 * parity bits accumulate.
 * Multiples of 1/16 and 1/4, so that the float rule and the 8-bit rule (at
 * the default llr_scale of 4) apply the same correction: the same for every
 * decoder of the code, CPU and GPU. \p magnitude MUST be a rule, not
 * automatic (std::invalid_argument): min_sum_auto_magnitude() gives the rule.
 */
GPULDPC_ENGINE_API min_sum_correction min_sum_auto_correction(
    const ldpc_code& code,
    min_sum_magnitude_rule magnitude = min_sum_magnitude_rule::smallest,
    unsigned max_iterations = 50);

/*! Configuration of a batch decoder. */
struct decoder_config {
    decoder_algorithm algorithm = decoder_algorithm::automatic;
    decoder_schedule schedule = decoder_schedule::flooding;
    //! iterations at most (>= 1); without early termination, exactly this many
    unsigned max_iterations = 50;
    //! stop a frame as soon as its hard decision satisfies every check
    bool early_termination = true;
    //! min-sum: check messages are scaled by this factor (normalized min-sum), (0, 1],
    //! or min_sum_scale_auto (the default): min_sum_auto_correction() of the
    //! code, which the decoder's config() then reports. One scale for every
    //! code costs up to 1 dB
    float min_sum_scale = min_sum_scale_auto;
    //! min-sum: subtracted from check message magnitudes (offset min-sum), >= 0,
    //! or min_sum_offset_auto (the default): min_sum_auto_correction()'s
    //! offset where min_sum_scale is auto too, else 0
    float min_sum_offset = min_sum_offset_auto;
    //! min-sum: what a check message's magnitude is made of; automatic (the
    //! default): min_sum_auto_magnitude() of the code and messages, which the
    //! decoder's config() then reports
    min_sum_magnitude_rule min_sum_magnitude = min_sum_magnitude_rule::automatic;
    //! false: LLR = log(P(1)/P(0)), positive means 1 (GNU Radio's convention);
    //! true: LLR = log(P(0)/P(1)), positive means 0
    bool flip_llr_sign = false;
    //! worker threads across frames; 0: one per hardware thread
    unsigned threads = 0;
    //! check-to-variable messages: fp32; fp16 (fft-bp); int8 (min-sum, fixed point)
    message_precision messages = message_precision::fp32;
    //! fixed-point steps per unit of LLR, (0, 64]: an 8-bit soft value v
    //! (decode_int8()) is the LLR v / llr_scale, so +-127 spans +-31.75 at the
    //! default 4; int8 messages count in the same steps
    float llr_scale = 4.0f;
    //! information bits out packed, 8 a byte MSB first (info_bytes_per_frame()
    //! bytes a frame, each frame from a byte boundary, the last byte's unused
    //! low bits 0) instead of one 0/1 a byte: an eighth of the results to copy
    //! off a GPU, and no packing on the host (the decoder block's packed output)
    bool pack_info_bits = false;
    //! how a GPU decoder chooses and launches its kernels (tests and
    //! comparisons; the defaults suit every user); the CPU decoders ignore it
    gpu_tuning gpu;
};


/*!
 * \brief Batch LDPC decoder: many frames in, information bits and per-frame
 * status out.
 *
 * Input layouts, frame after frame, of the code's transmitted symbols
 * (ldpc_code::transmitted_positions(); all N unless the code punctures some,
 * which are decoded as erasures):
 * - bit LLRs: n_transmitted * bits_per_symbol floats per frame, the bits of
 *   each symbol MSB first; sign convention per decoder_config::flip_llr_sign.
 * - symbol log-likelihoods: n_transmitted * q floats per frame, entry x of
 *   the j-th transmitted symbol being log P(symbol = x) up to a constant per
 *   symbol.
 *
 * Outputs: information bits, K * bits_per_symbol bytes (0/1) per frame, the
 * information symbols of ldpc_code::info_positions() MSB first, or those bits
 * packed (decoder_config::pack_info_bits; info_bytes_per_frame() bytes a frame
 * either way); optionally the whole hard-decided codeword, N * bits_per_symbol
 * bytes (0/1) per frame.
 *
 * Invalid input values: NaN and +-Inf become 0, an erasure (no information
 * about that bit or symbol value; an infinite value is treated as bad data,
 * not as certainty). Finite values are clipped to +-max_input_magnitude. The
 * number of NaN/Inf values is reported in frame_status::invalid_inputs of
 * that frame only; other frames are unaffected.
 *
 * Contract:
 * - decode() MUST produce for every frame the same result as decoding that
 *   frame alone: frames never influence each other.
 * - An object MUST NOT allocate per frame or per call once a batch size has
 *   been seen; decode() may be called any number of times with any number of
 *   frames. Worker threads, where a backend uses them, live with the object.
 * - Calls from several threads are safe: they take turns (one decodes at a
 *   time per object, since it owns its workspaces).
 * - Construction MUST reject an algorithm that does not fit the code
 *   (std::invalid_argument naming the argument).
 */
class GPULDPC_ENGINE_API batch_decoder
{
public:
    using sptr = std::shared_ptr<batch_decoder>;

    //! LLR and symbol log-likelihood magnitudes above this are clipped
    static constexpr float max_input_magnitude = 64.0f;

    virtual ~batch_decoder();

    /*!
     * Creates a decoder. \p device: "cpu" (the CPU reference), "auto" (a GPU
     * decoder when a CUDA device is usable and runs the configuration, else
     * the CPU reference; device_name() says which; the Python binding's
     * default), "cuda" or "cuda:N" (std::runtime_error without a usable
     * device, std::invalid_argument for a configuration no GPU decoder runs),
     * or a list of GPUs, "cuda:N,M,..." or "cuda:all": one decoder a device,
     * each call's frames split into contiguous shares decoded at once, begun
     * batches on the devices in turn (results as on one device).
     *
     * A binary rule (min-sum, sum-product) decoding layered a code whose
     * layered_runs() average fewer than 32 checks and that is not
     * quasi-cyclic (a code read from a file without known structure) decodes
     * it in the order of code->with_coloured_layers(), which the decoder's
     * code() then is: the same code, with runs a GPU updates at once (DVB-S2
     * read from an alist: 13 runs instead of 32400 for rate 1/2).
     */
    static sptr make(ldpc_code::sptr code,
                     const decoder_config& config = {},
                     const std::string& device = "cpu");

    /*! Decodes frames given as bit LLRs. codeword_bits may be null. */
    virtual void decode(const float* llr,
                        size_t n_frames,
                        uint8_t* info_bits,
                        frame_status* status,
                        uint8_t* codeword_bits = nullptr) = 0;

    /*! Decodes frames given as symbol log-likelihood vectors. */
    virtual void decode_symbol_llr(const float* symbol_ll,
                                   size_t n_frames,
                                   uint8_t* info_bits,
                                   frame_status* status,
                                   uint8_t* codeword_bits = nullptr) = 0;

    /*!
     * \brief Decodes frames given as received complex symbols of the
     * constellation matched to the code: code symbol x is sent as
     * \p c .points()[x], q = 2^bits_per_symbol points (GF(64) on 64-QAM, a
     * binary code on BPSK), so that no bit of a symbol is taken as
     * independent of the others.
     *
     * - \p symbols MUST hold n_frames * ldpc_code::n_transmitted() values,
     *   frame after frame; \p noise_var n_frames values, the complex noise
     *   variance N0 = E|n|^2 of each frame's symbols.
     * - The decoder takes the symbol log-likelihoods -|y - x|^2 / N0 of
     *   soft_demapper::symbol_log_likelihoods(), less the largest of each
     *   symbol: results are those of decode_symbol_llr() on them. A NaN or infinite
     * symbol is an erasure, counted as q invalid inputs of its frame.
     * - \p c MUST have the code's bits_per_symbol (std::invalid_argument
     *   naming constellation otherwise); every noise_var MUST be finite and
     *   at least 1.2e-38 (std::invalid_argument naming noise_var and the
     *   frame).
     * - This default implementation demaps on the host, in chunks of about
     *   1 MiB, without allocating per call once a constellation has been
     *   seen; a GPU decoder MAY demap on the device.
     */
    virtual void decode_symbols(const std::complex<float>* symbols,
                                size_t n_frames,
                                const constellation& c,
                                const float* noise_var,
                                uint8_t* info_bits,
                                frame_status* status,
                                uint8_t* codeword_bits = nullptr);

    /*!
     * \brief Decodes frames given as 8-bit bit LLRs: a quarter of the bytes of
     * float LLRs on the host bus and in the input buffers.
     *
     * \p llr holds n_frames * llr_per_frame() values, value v standing for
     * the LLR v / decoder_config::llr_scale in the decoder's sign convention;
     * -128 counts as -127. Results are those of decode() on those LLRs: an
     * int8-message decoder takes the values as its fixed-point channel values
     * unchanged, other decoders convert them to float (this default
     * implementation, in chunks, without allocating per call).
     */
    virtual void decode_int8(const int8_t* llr,
                             size_t n_frames,
                             uint8_t* info_bits,
                             frame_status* status,
                             uint8_t* codeword_bits = nullptr);

    /*!
     * Decodes frames whose bit LLRs are in device memory, with the results
     * written to device memory: a GPU pipeline's entry (a demapper or a
     * channel model on the GPU), where nothing crosses the host bus.
     * - \p llr MUST hold n_frames * llr_per_frame() floats, \p info_bits
     *   n_frames * info_bytes_per_frame() bytes and \p status n_frames
     *   entries, all in the memory of the decoder's device.
     * - Results are those of decode() on the same frames, but for a frame
     *   with no valid soft value at all, which the host never sees: its
     *   status says what the kernel found (converged, all inputs counted in
     *   invalid_inputs); callers MUST treat invalid_inputs equal to
     *   llr_per_frame() as a failed frame. The call returns
     *   when they are in place. The decoder reads \p llr on a stream of its
     *   own: work that writes it MUST be complete (synchronised) first.
     * - Decoders of host memory (the CPU reference) throw std::logic_error.
     */
    virtual void decode_device(const float* llr,
                               size_t n_frames,
                               uint8_t* info_bits,
                               frame_status* status);

    /*!
     * decode_device() for 8-bit bit LLRs in device memory (decode_int8()'s
     * values): a quarter of the bytes of float LLRs, for a GPU pipeline that
     * makes its LLRs in 8 bits (the simulator for an 8-bit decoder).
     * - The rules of decode_device(); results are those of decode_int8() on
     *   the same values. An int8-message decoder takes value v as the float
     *   LLR v / llr_scale, so values rounded from float LLRs (clipped to
     *   +-max_input_magnitude, times llr_scale, clipped to +-127, rounded to
     *   nearest, ties to even) give decode_device()'s results on those LLRs.
     * - Decoders without an 8-bit device input (decodes_device_int8() false:
     *   the CPU decoders, GPU decoders of float input only) throw
     *   std::logic_error.
     */
    virtual void decode_device_int8(const int8_t* llr,
                                    size_t n_frames,
                                    uint8_t* info_bits,
                                    frame_status* status);
    /*! Whether decode_device_int8() decodes (a GPU decoder with 8-bit input). */
    virtual bool decodes_device_int8() const { return false; }

    //! Batches that MAY be outstanding at once (begun and not yet ended).
    static constexpr unsigned max_outstanding = 2;

    /*!
     * Starts decoding a batch of bit-LLR frames and returns a ticket: a
     * pipeline formats batch k-1 and gathers batch k+1 on the host while a
     * GPU decodes batch k.
     * - The results (as decode() would give them) are in place once
     *   end_decode(ticket) has returned. Until then the caller MUST NOT
     *   touch \p llr, \p info_bits or \p status.
     * - At most max_outstanding batches MAY be outstanding; tickets MUST be
     *   ended in the order they were begun.
     * - With buffers from host_buffer() a GPU decoder copies while it
     *   decodes; with other host memory it MAY wait for the copies.
     *   Decoders that cannot overlap (the CPU decoders) decode before
     *   begin_decode() returns.
     * - On a GPU failure begin_decode() or end_decode() throws cuda_error;
     *   the inputs of the outstanding batches are untouched, so the caller
     *   MAY decode them on another decoder. A begin_decode() that throws
     *   leaves no batch outstanding; a ticket whose end_decode() throws is
     *   ended. The caller MAY still end the other outstanding tickets (in
     *   order), which waits for their batches: each either gives its results
     *   or throws cuda_error, and nothing of it is written after that.
     * - One caller (one pipeline) uses the pair at a time.
     */
    virtual uint64_t begin_decode(const float* llr,
                                  size_t n_frames,
                                  uint8_t* info_bits,
                                  frame_status* status);

    /*!
     * begin_decode() for 8-bit LLRs (decode_int8()'s input), with the same
     * rules; the tickets of both kinds share one sequence. Decoders without
     * an overlapping 8-bit path decode before returning.
     */
    virtual uint64_t begin_decode_int8(const int8_t* llr,
                                       size_t n_frames,
                                       uint8_t* info_bits,
                                       frame_status* status);

    /*! Waits for the batch of \p ticket (see begin_decode()). */
    virtual void end_decode(uint64_t ticket);

    /*!
     * \p bytes of host memory suited to this decoder's transfers: page-locked
     * for a GPU decoder (copies run while the GPU decodes), plain memory for
     * the CPU. Freed when the last copy of the pointer goes; it stays valid
     * after the decoder is gone.
     */
    virtual std::shared_ptr<void> host_buffer(size_t bytes) const;

    const ldpc_code& code() const { return *d_code; }
    ldpc_code::sptr code_ptr() const { return d_code; }
    const decoder_config& config() const { return d_config; }
    /*! The algorithm in use (automatic resolved). */
    decoder_algorithm algorithm() const { return d_config.algorithm; }
    /*! "cpu" or the GPU's name. */
    virtual std::string device_name() const = 0;
    /*! The CUDA device index a GPU decoder decodes on; -1 on the CPU. */
    virtual int cuda_device() const { return -1; }
    /*! Worker threads a call may use at most (the caller's included). */
    virtual unsigned threads() const = 0;
    /*!
     * Per-thread workspaces allocated so far: a CPU decoder makes one per
     * worker the first time a call has frames for it, so a one-frame caller
     * holds one whatever the thread count.
     */
    virtual size_t workspaces() const = 0;
    /*!
     * Frames a call SHOULD hold for the decoder to be busy throughout (a
     * GPU's SMs all decoding, with a second wave to cover the first's
     * tail; a SIMD CPU decoder's lanes on every thread); 0 where the
     * decoder has no preference (the scalar CPU reference, or where a call
     * of any size keeps it busy). Callers that choose their
     * batch SHOULD take this many where they can (the decoder block's
     * automatic batch does, within its 64 MiB of input).
     */
    virtual size_t preferred_batch() const { return 0; }
    /*!
     * Frames of a call that decodes at about the speed of larger ones (on a
     * GPU, whole waves of its SMs), or 0 where calls smaller than
     * preferred_batch() lose speed or the decoder has no preference. A caller
     * holding a large batch MAY split it into calls of a multiple of this
     * many frames (and a last one of the rest), so that the copies of one
     * overlap the decoding of the one before (the decoder block does, for a
     * batch that nothing waits behind). MUST be 0 or at most
     * preferred_batch().
     */
    virtual size_t efficient_chunk() const { return 0; }
    /*!
     * \p frames, or fewer where that many would end in a round mostly idle.
     * A SIMD CPU decoder's threads take groups of its lanes, a group each at
     * a time: a call of one group more than it has threads takes two rounds,
     * about twice the time, for little more than one round's frames; it
     * then gives the frames of its whole rounds. A caller whose batch is cut
     * by a bound other than the decoder's (memory) SHOULD take this many.
     * MUST return \p frames where a call of that many has no such tail (GPU
     * decoders, the scalar reference: this default) and at most \p frames;
     * at least 1 for \p frames >= 1.
     */
    virtual size_t whole_round_batch(size_t frames) const { return frames; }
    /*!
     * How a GPU decoder runs its batches: the kernel variant it chose for
     * this code, configuration and device, in words (e.g. "8-bit min-sum,
     * global: state in device memory, one grid, two frames a lane in 16-bit
     * integer pairs, 64 frames a group, 512 threads a block"), for logs and
     * tests. The CPU's SIMD decoders name their rule, schedule and
     * instruction set (e.g. "8-bit min-sum, layered, AVX2: 16 frames a group
     * in 16-bit lanes, up to 8 threads"); the scalar reference gives an empty
     * string. The choice is made at construction and
     * MUST NOT change afterwards. The wording MAY change between versions:
     * callers SHOULD look for a phrase in it, not compare it whole.
     */
    virtual std::string kernel_variant() const { return std::string(); }

    //! bit LLRs per frame: the transmitted symbols' bits
    size_t llr_per_frame() const
    {
        return size_t(d_code->n_transmitted()) * d_code->bits_per_symbol();
    }
    size_t info_bits_per_frame() const
    {
        return size_t(d_code->k()) * d_code->bits_per_symbol();
    }
    //! bytes of information bits a frame takes in a call's \p info_bits:
    //! info_bits_per_frame(), or packed_size() of it with
    //! decoder_config::pack_info_bits
    size_t info_bytes_per_frame() const
    {
        const size_t bits = info_bits_per_frame();
        return d_config.pack_info_bits ? packed_size(bits) : bits;
    }

protected:
    batch_decoder(ldpc_code::sptr code, const decoder_config& config);

    ldpc_code::sptr d_code;
    decoder_config d_config;

    //! Checks that \p ticket is the oldest outstanding one and retires it
    //! (std::logic_error otherwise); for end_decode() implementations.
    void retire_ticket(uint64_t ticket);
    //! The next ticket; std::logic_error when max_outstanding are out.
    uint64_t issue_ticket();
    //! Takes back the ticket just issued, for a begin_decode() that failed
    //! before anything of its batch was outstanding.
    void cancel_ticket();
    //! decode_symbols()'s argument checks (std::invalid_argument)
    void check_symbol_arguments(const constellation& c,
                                const float* noise_var,
                                size_t n_frames) const;
    //! decode_symbol_llr() of a binary code by decode(): each pair (l0, l1)
    //! becomes the bit LLR l1 - l0 (l0 - l1 with flip_llr_sign), a NaN or
    //! infinite value taken as 0 and counted in its frame's invalid_inputs.
    //! For decoders of bit LLRs.
    void decode_bit_pairs(const float* symbol_ll,
                          size_t n_frames,
                          uint8_t* info_bits,
                          frame_status* status,
                          uint8_t* codeword_bits);
    //! Marks the frames whose \p values_per_frame inputs are all NaN or
    //! infinite as not converged: with no valid soft value, the all-zero
    //! decision satisfies every check but carries no information. For every
    //! decode() and decode_symbol_llr() implementation, after decoding.
    static void fail_erased_frames(const float* in,
                                   size_t values_per_frame,
                                   size_t n_frames,
                                   frame_status* status);
    //! begin_decode() implementations: the batch of \p ticket (float input;
    //! null for 8-bit input), whose erased frames end_decode() marks through
    //! finish_ticket().
    void
    note_ticket(uint64_t ticket, const float* llr, size_t n_frames, frame_status* status);
    //! end_decode() implementations, after the batch of \p ticket finished
    //! without error: fail_erased_frames() on it.
    void finish_ticket(uint64_t ticket);

private:
    uint64_t d_tickets_issued = 0, d_tickets_retired = 0;
    struct pending_batch {
        const float* llr = nullptr;
        size_t n_frames = 0;
        frame_status* status = nullptr;
    };
    pending_batch d_pending[max_outstanding];
    // inputs converted for decode(): decode_int8()'s chunks, decode_bit_pairs()
    std::mutex d_convert_mutex; // guards the two below
    std::vector<float> d_converted;
    std::vector<uint32_t> d_converted_invalid;
    // decode_symbols(): the demapper of the last constellation and its chunks
    std::mutex d_symbols_mutex;
    std::unique_ptr<soft_demapper> d_demapper;
    std::vector<float> d_symbol_ll;
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_DECODER_H */
