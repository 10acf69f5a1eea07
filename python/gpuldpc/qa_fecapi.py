#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#

import os
import time

import numpy as np
import pmt
from gnuradio import blocks, digital, fec, gr, gr_unittest

from gnuradio import gpuldpc

CODES = gpuldpc.codes_dir()


class qa_fecapi(gr_unittest.TestCase):
    """gpuldpc's FECAPI definitions inside GNU Radio's own FEC blocks."""

    def loopback(self, code, frames_per_call, ebn0_db, frames, seed, messages="fp32"):
        """extended_encoder -> BPSK (0 -> -1, 1 -> +1) -> AWGN -> extended_decoder."""
        rng = np.random.default_rng(seed)
        k_bits = code.k * code.bits_per_symbol
        sigma2 = 1.0 / (2.0 * code.rate * 10 ** (ebn0_db / 10.0))
        enc = gpuldpc.ldpc_encoder_def(code, frames_per_call=frames_per_call)
        dec = gpuldpc.ldpc_decoder_def(code, frames_per_call=frames_per_call,
                                       input_scale=2.0 / sigma2, messages=messages)
        bits = rng.integers(0, 2, frames * k_bits, dtype=np.uint8)
        n_coded = frames * code.n * code.bits_per_symbol
        tb = gr.top_block()
        src = blocks.vector_source_b(bits.tolist())
        xenc = fec.extended_encoder(encoder_obj_list=enc, threading=None, puncpat="11")
        mapper = digital.map_bb([-1, 1])
        to_float = blocks.char_to_float(1, 1)
        noise = blocks.vector_source_f(rng.normal(0, np.sqrt(sigma2), n_coded).tolist())
        add = blocks.add_ff()
        xdec = fec.extended_decoder(decoder_obj_list=dec, threading=None, ann=None,
                                    puncpat="11", integration_period=10000)
        snk = blocks.vector_sink_b()
        tb.connect(src, xenc, mapper, to_float, (add, 0))
        tb.connect(noise, (add, 1))
        tb.connect(add, xdec, snk)
        tb.run()
        return bits, np.array(snk.data(), dtype=np.uint8), dec

    def test_extended_decoder_binary_and_gfq(self):
        for name in ("regular_3_6_n1008_gf2.alist", "regular_2_4_n96_gf64.alist"):
            code = gpuldpc.ldpc_code.load(os.path.join(CODES, name))
            sent, received, dec = self.loopback(code, 1, 4.5, 12, seed=1)
            self.assertEqual(len(received), len(sent), name)
            np.testing.assert_array_equal(received, sent, name)
            self.assertEqual(dec.failed_frames(), 0)

    def test_fp16_messages(self):
        code = gpuldpc.ldpc_code.load(os.path.join(CODES, "regular_2_4_n96_gf64.alist"))
        sent, received, dec = self.loopback(code, 2, 4.5, 8, seed=5, messages="fp16")
        np.testing.assert_array_equal(received, sent)
        with self.assertRaisesRegex(ValueError, "messages='half'"):
            gpuldpc.ldpc_decoder_def(code, messages="half")

    def test_several_codewords_per_call(self):
        code = gpuldpc.ldpc_code.load(os.path.join(CODES, "regular_2_4_n128_gf16.alist"))
        sent, received, dec = self.loopback(code, 4, 4.5, 12, seed=2)
        np.testing.assert_array_equal(received, sent)
        self.assertEqual(dec.get_input_size(), 4 * code.n * code.bits_per_symbol)
        self.assertEqual(dec.get_output_size(), 4 * code.k * code.bits_per_symbol)
        self.assertEqual(dec.frames(), 12)

    def test_frame_size_and_arguments(self):
        code = gpuldpc.ldpc_code.load(os.path.join(CODES, "regular_3_6_n96_gf2.alist"))
        dec = gpuldpc.ldpc_decoder_def(code)
        self.assertAlmostEqual(dec.rate(), 0.5)
        self.assertTrue(dec.set_frame_size(3 * code.k))
        self.assertEqual(dec.get_input_size(), 3 * code.n)
        for bad in (code.k + 1, 0):
            with self.assertRaisesRegex(RuntimeError, f"frame_size={bad} bits"):
                dec.set_frame_size(bad)
            self.assertEqual(dec.get_input_size(), 3 * code.n)  # unchanged
            self.assertEqual(dec.get_output_size(), 3 * code.k)
        enc = gpuldpc.ldpc_encoder_def(os.path.join(CODES, "regular_3_6_n96_gf2.alist"))
        self.assertEqual((enc.get_input_size(), enc.get_output_size()), (code.k, code.n))
        with self.assertRaisesRegex(RuntimeError, "frame_size=7 bits"):
            enc.set_frame_size(7)
        self.assertEqual((enc.get_input_size(), enc.get_output_size()), (code.k, code.n))
        with self.assertRaisesRegex(ValueError, "frames_per_call=0"):
            gpuldpc.ldpc_decoder_def(code, frames_per_call=0)
        with self.assertRaisesRegex(ValueError, "input_scale"):
            gpuldpc.ldpc_decoder_def(code, input_scale=-1.0)
        with self.assertRaisesRegex(ValueError, "algorithm='x'"):
            gpuldpc.ldpc_decoder_def(code, algorithm="x")

    def noisy_codewords(self, code, frames, ebn0_db, seed):
        rng = np.random.default_rng(seed)
        info = rng.integers(0, code.q, size=(frames, code.k), dtype=np.uint8)
        bits = gpuldpc.sim.symbols_to_bits(code.encode(info), code.bits_per_symbol)
        sigma2 = 1.0 / (2.0 * code.rate * 10 ** (ebn0_db / 10.0))
        y = (2.0 * bits - 1.0) + rng.normal(0, np.sqrt(sigma2), bits.shape)
        info_bits = gpuldpc.sim.symbols_to_bits(info, code.bits_per_symbol)
        return y.astype(np.float32), info_bits, 2.0 / sigma2

    def test_tagged_decoder(self):
        # packets of two codewords; the definition follows each packet's size
        code = gpuldpc.ldpc_code.load(os.path.join(CODES, "regular_2_4_n96_gf64.alist"))
        y, info_bits, scale = self.noisy_codewords(code, 8, 5.0, seed=3)
        dec = gpuldpc.ldpc_decoder_def(code, input_scale=scale)
        n_bits = code.n * code.bits_per_symbol
        tb = gr.top_block()
        src = blocks.vector_source_f(y.ravel().tolist())
        s2t = blocks.stream_to_tagged_stream(gr.sizeof_float, 1, 2 * n_bits, "packet_len")
        tdec = fec.tagged_decoder(dec, gr.sizeof_float, gr.sizeof_char, "packet_len",
                                  2 * n_bits)
        snk = blocks.vector_sink_b()
        tb.connect(src, s2t, tdec, snk)
        tb.run()
        np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8),
                                      info_bits.ravel())
        self.assertEqual(dec.frames(), 8)

    def test_min_sum_scale_and_offset(self):
        # the definition decodes as the engine with the same min-sum scale and
        # offset, on noisy frames where they change the result
        code = gpuldpc.ldpc_code.load(os.path.join(CODES, "regular_3_6_n1008_gf2.alist"))
        y, _, scale = self.noisy_codewords(code, 12, 1.5, seed=5)
        args = dict(algorithm="min-sum", schedule="layered", max_iterations=8)
        llr = (y * scale).astype(np.float32)
        tuned, _ = gpuldpc.batch_decoder(code, min_sum_scale=0.5, min_sum_offset=0.25,
                                         **args).decode(llr)
        default, _ = gpuldpc.batch_decoder(code, **args).decode(llr)
        self.assertFalse(np.array_equal(tuned, default))
        dec = gpuldpc.ldpc_decoder_def(code, frames_per_call=12, input_scale=scale,
                                       min_sum_scale=0.5, min_sum_offset=0.25, **args)
        tb = gr.top_block()
        src = blocks.vector_source_f(y.ravel().tolist())
        xdec = fec.extended_decoder(decoder_obj_list=dec, threading=None, ann=None,
                                    puncpat="11", integration_period=10000)
        snk = blocks.vector_sink_b()
        tb.connect(src, xdec, snk)
        tb.run()
        np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8),
                                      tuned.ravel())
        with self.assertRaisesRegex(ValueError, "min_sum_scale=1.5"):
            gpuldpc.ldpc_decoder_def(code, algorithm="min-sum", min_sum_scale=1.5)

    def test_async_decoder(self):
        code = gpuldpc.ldpc_code.load(os.path.join(CODES, "regular_3_6_n96_gf2.alist"))
        y, info_bits, scale = self.noisy_codewords(code, 3, 5.0, seed=4)
        dec = gpuldpc.ldpc_decoder_def(code, input_scale=scale)
        adec = fec.async_decoder(dec, False, False, 1500)
        dbg = blocks.message_debug()
        tb = gr.top_block()
        tb.msg_connect((adec, "out"), (dbg, "store"))
        tb.start()
        for f in range(3):
            adec.to_basic_block()._post(
                pmt.intern("in"),
                pmt.cons(pmt.make_dict(), pmt.init_f32vector(y.shape[1], y[f].tolist())))
        deadline = time.time() + 10
        while dbg.num_messages() < 3 and time.time() < deadline:
            time.sleep(0.01)
        tb.stop()
        tb.wait()
        self.assertEqual(dbg.num_messages(), 3)
        for f in range(3):
            out = np.array(pmt.u8vector_elements(pmt.cdr(dbg.get_message(f))))
            np.testing.assert_array_equal(out, info_bits[f])


if __name__ == '__main__':
    gr_unittest.run(qa_fecapi)
