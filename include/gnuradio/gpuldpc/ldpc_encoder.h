/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_LDPC_ENCODER_H
#define INCLUDED_GPULDPC_LDPC_ENCODER_H

#include <gnuradio/block.h>
#include <gnuradio/gpuldpc/api.h>
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <cstdint>
#include <string>

namespace gr {
namespace gpuldpc {

/*!
 * \brief Systematic LDPC encoder over GF(q).
 * \ingroup gpuldpc
 *
 * \details
 * Input per frame, by \p input:
 * - "packed": information bits packed MSB first, ceil(k * m / 8) bytes (the
 *   unused low bits of the last byte are ignored)
 * - "bits": k * m bytes, one bit each (lowest bit counts)
 * - "symbols": k bytes, one GF(q) symbol each (values >= q are an error:
 *   the frame is counted and skipped)
 *
 * Output per frame, by \p output: "bits" (n * m bytes of 0/1, ready for a
 * constellation mapper; the default) or "packed" (ceil(n * m / 8) bytes).
 * Bits of a symbol are MSB first; codeword symbol order is the column order
 * of H, information at ldpc_code::info_positions().
 *
 * Framing, scheduling, end of stream, tags and topology as in ldpc_decoder:
 * with a length tag key each packet is a frame (other lengths are counted and
 * skipped) and each output frame carries the length tag, else consecutive
 * frames and no length tags out; output frames carry the input frame's other
 * tags; up to batch_size() frames per call; an
 * incomplete frame at the end of the stream is counted (truncated_frames());
 * stream input and output are used together or not at all.
 * Message ports: "pdus" in (u8vector of one or more frames) and "pdus" out
 * (u8vector per frame, input metadata kept).
 */
class GPULDPC_API ldpc_encoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<ldpc_encoder> sptr;

    /*! The block's parameters (the arguments of make() after the code). */
    struct params {
        std::string input = "packed";
        std::string output = "bits";
        std::string length_tag_key = "packet_len";
    };

    static sptr make(const std::string& code_file,
                     const std::string& format = "auto",
                     const std::string& coef = "exponent",
                     unsigned poly = 0,
                     const std::string& input = "packed",
                     const std::string& output = "bits",
                     const std::string& length_tag_key = "packet_len");

    static sptr make_from_code(ldpc_code::sptr code,
                               const std::string& input = "packed",
                               const std::string& output = "bits",
                               const std::string& length_tag_key = "packet_len");

    /*! The same with the parameters in one struct; every field is checked. */
    static sptr make_from_params(ldpc_code::sptr code, const params& p);

    virtual uint64_t frames() const = 0;            //!< frames encoded
    virtual uint64_t bad_length_frames() const = 0; //!< packets/PDUs of a wrong length
    virtual uint64_t missing_tag_items() const = 0; //!< items outside any packet
    virtual uint64_t invalid_frames() const = 0;    //!< frames with symbols >= q
    virtual uint64_t truncated_frames() const = 0;  //!< incomplete at end of stream
    virtual uint64_t dropped_tags() const = 0;      //!< tags on items with no output
    virtual int input_frame_length() const = 0;
    virtual int output_frame_length() const = 0;
    virtual int batch_size() const = 0; //!< frames per call at most
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_LDPC_ENCODER_H */
