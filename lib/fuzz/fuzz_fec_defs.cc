/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The FECAPI definitions' frame sizes: a decoder and an encoder definition of
// a small binary or GF(4) code (CPU) take random frame sizes (up to 2^20
// bits, and multiples of a codeword), then work on the fuzzer's data (soft
// values include NaN and infinities; sizes of 64 codewords at most).
// set_frame_size MUST accept exactly the positive multiples of k m bits up to
// frames_per_call codewords, refuse the others (false, never a throw: gr-fec
// calls it inside work()), serving instead the whole codewords of the request
// that fit, or keeping the previous size when it holds none; the sizes
// reported follow; the decoder's output is 0/1 bits whatever its input; and an
// encoded frame, sent clean, decodes to its information bits.

#include "fuzz_input.h"
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <gnuradio/gpuldpc/ldpc_fec_defs.h>
#include <gnuradio/logger.h>
#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

using namespace gr::gpuldpc;

namespace {

struct codes {
    codes()
    {
        // a refused size is logged as an error: quiet, at the fuzzer's rate
        gr::logging::singleton().set_default_level(gr::log_level::off);
    }
    ldpc_code::sptr binary =
        std::make_shared<ldpc_code>(construct_regular_code(48, 2, 4, 2, 1));
    ldpc_code::sptr gf4 =
        std::make_shared<ldpc_code>(construct_regular_code(24, 2, 4, 4, 2));
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const codes built; // once per process: the codes are the same each run
    fuzz::input_reader in(data, size);
    const uint8_t pick = in.byte();
    const ldpc_code::sptr code = (pick & 1) ? built.gf4 : built.binary;
    const int frames_per_call = 1 + (pick >> 1) % 4;
    ldpc_decoder_def::params dp;
    dp.code = code;
    dp.decoder.max_iterations = 8;
    dp.decoder.threads = 1;
    dp.frames_per_call = frames_per_call;
    dp.device = "cpu";
    auto dec = ldpc_decoder_def::make(dp);
    ldpc_encoder_def::params ep;
    ep.code = code;
    ep.frames_per_call = frames_per_call;
    auto enc = ldpc_encoder_def::make(ep);
    const unsigned m = code->bits_per_symbol();
    const size_t k_bits = size_t(code->k()) * m,
                 n_bits = size_t(code->n_transmitted()) * m;
    size_t frames = size_t(frames_per_call);

    for (int step = 0; step < 16 && !in.empty(); ++step) {
        const uint8_t how = in.byte();
        unsigned int bits = in.take<uint32_t>();
        if (how & 1)
            bits = unsigned(k_bits * (1 + bits % frames_per_call)); // a valid size
        else
            bits %= 1u << 20;
        const bool valid =
            bits > 0 && bits % k_bits == 0 && bits / k_bits <= size_t(frames_per_call);
        auto accepts = [bits](auto& definition) {
            try {
                return definition->set_frame_size(bits);
            } catch (const std::exception&) {
                fuzz::broken("set_frame_size threw");
            }
            return false;
        };
        if (accepts(dec) != valid || accepts(enc) != valid)
            fuzz::broken("set_frame_size accepted an invalid size or refused a valid "
                         "one");
        if (valid || bits / k_bits >= 1)
            frames = std::min<size_t>(bits / k_bits, size_t(frames_per_call));
        if (size_t(dec->get_output_size()) != frames * k_bits ||
            size_t(dec->get_input_size()) != frames * n_bits ||
            size_t(enc->get_input_size()) != frames * k_bits ||
            size_t(enc->get_output_size()) != frames * n_bits)
            fuzz::broken("sizes do not follow the frame size in force");

        // work at 64 frames a call at most: larger sizes are checked above,
        // their decoding only costs time
        if (frames > 64)
            continue;
        // the decoder on the fuzzer's soft values
        std::vector<float> soft(frames * n_bits);
        for (auto& x : soft)
            x = in.empty() ? 1.0f : in.take<float>();
        std::vector<uint8_t> out(frames * k_bits, 7);
        dec->generic_work(soft.data(), out.data());
        for (uint8_t b : out)
            if (b > 1)
                fuzz::broken("decoder output not 0/1");

        // an encoded frame, sent clean (FECAPI soft bits: positive means 1)
        std::vector<uint8_t> info(frames * k_bits), coded(frames * n_bits);
        for (auto& b : info)
            b = in.byte() & 1;
        enc->generic_work(info.data(), coded.data());
        for (size_t i = 0; i < coded.size(); ++i)
            soft[i] = coded[i] ? 4.0f : -4.0f;
        dec->generic_work(soft.data(), out.data());
        if (out != info)
            fuzz::broken("a clean encoded frame did not decode to its bits");
    }
    return 0;
}
