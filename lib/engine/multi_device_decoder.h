/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_MULTI_DEVICE_DECODER_H
#define INCLUDED_GPULDPC_ENGINE_MULTI_DEVICE_DECODER_H

#include <gnuradio/gpuldpc/engine/decoder.h>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace detail {

/*!
 * A decoder of several GPUs (a device list, "cuda:0,1" or "cuda:all"), one
 * decoder a device, all of one configuration: a call's frames split into
 * as many contiguous shares, decoded at once, each on its device; begun
 * batches go to the devices in turn and end in the order begun. Results are
 * those of one device's decoder, frame for frame.
 */
batch_decoder::sptr make_multi_device_decoder(std::vector<batch_decoder::sptr> decoders);

} // namespace detail
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_MULTI_DEVICE_DECODER_H */
