/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_DECODER_INPUT_H
#define INCLUDED_GPULDPC_DECODER_INPUT_H

#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/ldpc_decoder.h>
#include <pmt/pmt.h>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace gr {
namespace gpuldpc {

/*!
 * \brief The decoder block's soft input of one kind (float LLRs, 8-bit LLRs,
 * received symbols of the matched constellation): its items, its PDU
 * payloads, and how a batch of them reaches the batch decoder.
 *
 * The block picks one when it is made and calls it wherever the kinds
 * differ. Contract:
 * - decode() MUST decode the frames before it returns; begin() MUST start
 *   them as batch_decoder::begin_decode() does, and MAY be called only where
 *   overlaps() is true.
 * - Calls MUST NOT keep state between batches: the block MAY run the same
 *   batch again on another decoder (a GPU failure).
 */
class decoder_input
{
public:
    virtual ~decoder_input() = default;

    /*!
     * The input p.input of \p code. Input symbols: the constellation
     * (p.constellation, or the module's one of q points) and p.noise_var
     * are checked here (std::invalid_argument naming them).
     */
    static std::unique_ptr<decoder_input> make(const ldpc_decoder::params& p,
                                               const ldpc_code& code);

    virtual size_t item_size() const = 0;
    //! soft bits, or symbols, a frame of \p code
    virtual size_t items_per_frame(const ldpc_code& code) const = 0;
    //! the PDU payload types taken, in words (log lines)
    virtual const char* pdu_type() const = 0;
    //! the items of \p payload, or null for a payload of another type
    virtual const uint8_t* pdu_items(const pmt::pmt_t& payload,
                                     size_t& n_items) const = 0;
    //! whether frames need their noise variance N0 (decode()'s noise_var)
    virtual bool takes_noise_var() const { return false; }
    //! whether begin() overlaps decoding with the caller's work
    virtual bool overlaps() const { return true; }

    /*! Decodes \p n frames at \p in; \p noise_var: N0 a frame, or null. */
    virtual void decode(batch_decoder& dec,
                        const void* in,
                        size_t n,
                        const float* noise_var,
                        uint8_t* bits,
                        frame_status* status) const = 0;
    /*! Begins decoding \p n frames at \p in; the ticket of the batch. */
    virtual uint64_t begin(batch_decoder& dec,
                           const void* in,
                           size_t n,
                           uint8_t* bits,
                           frame_status* status) const;
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_DECODER_INPUT_H */
