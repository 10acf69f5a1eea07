/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Encodes frames of a generated GF(16) code, sends them through a noiseless
// channel and decodes them with the CPU batch decoder: the engine without
// GNU Radio.

#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <iostream>
#include <memory>
#include <vector>

int main()
{
    using namespace gr::gpuldpc;
    auto code = std::make_shared<ldpc_code>(construct_regular_code(64, 2, 4, 16, 1));
    const unsigned m = code->bits_per_symbol();
    const size_t frames = 4;
    std::vector<uint8_t> info(frames * code->k()), cw(frames * code->n());
    for (size_t i = 0; i < info.size(); ++i)
        info[i] = uint8_t((7 * i + 3) % code->q());
    code->encode(info.data(), cw.data(), frames);

    // log(P(1)/P(0)) of each code bit, MSB first within a symbol
    std::vector<float> llr;
    for (uint8_t s : cw)
        for (unsigned b = 0; b < m; ++b)
            llr.push_back((s >> (m - 1 - b)) & 1 ? 6.0f : -6.0f);

    auto dec = batch_decoder::make(code, decoder_config{}, "cpu");
    std::vector<uint8_t> bits(frames * dec->info_bits_per_frame());
    std::vector<frame_status> status(frames);
    dec->decode(llr.data(), frames, bits.data(), status.data());

    size_t errors = 0;
    for (size_t i = 0; i < info.size(); ++i)
        for (unsigned b = 0; b < m; ++b)
            errors += bits[i * m + b] != ((info[i] >> (m - 1 - b)) & 1);
    std::cout << "n=" << code->n() << " k=" << code->k() << " q=" << code->q() << ": "
              << frames << " frames decoded on " << dec->device_name() << ", " << errors
              << " bit errors\n";
    return errors == 0 && status[0].converged ? 0 : 1;
}
