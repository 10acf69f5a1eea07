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
from qa_framing import run_with_deadline  # this folder's block-test helpers

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
        # frames_per_call: the size when made and the most set_frame_size serves
        dec = gpuldpc.ldpc_decoder_def(code, frames_per_call=4)
        self.assertAlmostEqual(dec.rate(), 0.5)
        self.assertTrue(dec.set_frame_size(3 * code.k))
        self.assertEqual(dec.get_input_size(), 3 * code.n)
        # refused, never thrown (gr-fec calls it inside work()) and counted;
        # the whole codewords of the request that fit are served instead, a
        # request of less than a codeword keeps the size
        for i, (bad, served) in enumerate(((code.k + 1, 1), (0, 1), (5 * code.k, 4),
                                           (code.k - 1, 4), (2 * code.k + 7, 2))):
            self.assertFalse(dec.set_frame_size(bad))
            self.assertEqual(dec.refused_frame_sizes(), i + 1)
            self.assertEqual(dec.get_input_size(), served * code.n, bad)
            self.assertEqual(dec.get_output_size(), served * code.k, bad)
        self.assertTrue(dec.set_frame_size(4 * code.k))
        enc = gpuldpc.ldpc_encoder_def(os.path.join(CODES, "regular_3_6_n96_gf2.alist"))
        self.assertEqual((enc.get_input_size(), enc.get_output_size()), (code.k, code.n))
        self.assertFalse(enc.set_frame_size(7))
        self.assertFalse(enc.set_frame_size(2 * code.k))
        self.assertEqual(enc.refused_frame_sizes(), 2)
        with self.assertRaisesRegex(ValueError, "frames_per_call=2000000000"):
            gpuldpc.ldpc_decoder_def(code, frames_per_call=2000000000)
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
        # up to frames_per_call codewords
        code = gpuldpc.ldpc_code.load(os.path.join(CODES, "regular_2_4_n96_gf64.alist"))
        y, info_bits, scale = self.noisy_codewords(code, 8, 5.0, seed=3)
        dec = gpuldpc.ldpc_decoder_def(code, frames_per_call=2, input_scale=scale)
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

    @staticmethod
    def extended_decoder_flowgraph(dec, soft):
        """soft values -> fec.extended_decoder(dec) -> a sink: the top block
        and the sink."""
        tb = gr.top_block()
        src = blocks.vector_source_f(soft.ravel().tolist())
        xdec = fec.extended_decoder(decoder_obj_list=dec, threading=None, ann=None,
                                    puncpat="11", integration_period=10000)
        snk = blocks.vector_sink_b()
        tb.connect(src, xdec, snk)
        return tb, snk

    def test_tagged_decoder_survives_a_packet_of_no_whole_codewords(self):
        # packets of 1, 2 and 1.5 codewords (frames_per_call 2): the size of
        # the 1.5 is refused (not thrown inside work()) and its first codeword
        # served, never the 2 of the packet before; the flowgraph finishes
        # and every other packet decodes
        code = gpuldpc.ldpc_code.load(os.path.join(CODES, "regular_3_6_n96_gf2.alist"))
        y, info_bits, scale = self.noisy_codewords(code, 12, 6.0, seed=8)
        n_bits = code.n * code.bits_per_symbol
        # (codewords of data, packet length in codewords)
        layout = [(1, 1), (1, 1), (2, 2), (2, 1.5), (1, 1), (2, 2), (1, 1), (2, 2)]
        pieces, tags, offset, cw, expected = [], [], 0, 0, []
        for used, length in layout:
            items = int(length * n_bits)
            pieces.append(y[cw:cw + used].ravel()[:items])
            tags.append(gr.tag_utils.python_to_tag(
                (offset, pmt.intern("packet_len"), pmt.from_long(items))))
            offset += items
            expected.extend(range(cw, cw + int(length)))
            cw += used
        dec = gpuldpc.ldpc_decoder_def(code, frames_per_call=2, input_scale=scale)
        tb = gr.top_block()
        src = blocks.vector_source_f(np.concatenate(pieces).tolist(), False, 1, tags)
        tdec = fec.tagged_decoder(dec, gr.sizeof_float, gr.sizeof_char, "packet_len",
                                  4 * n_bits)
        snk = blocks.vector_sink_b()
        tb.connect(src, tdec, snk)
        refused_before = dec.refused_frame_sizes()
        self.assertTrue(run_with_deadline(tb), "the flowgraph did not finish")
        out = np.array(snk.data(), dtype=np.uint8).reshape(-1, code.k)
        np.testing.assert_array_equal(out, info_bits[expected])
        self.assertGreater(dec.refused_frame_sizes(), refused_before)
        self.assertEqual(dec.frames(), len(expected))

    def test_extended_decoder_keeps_its_size(self):
        # fec.extended_decoder fixes its rate when made: a larger size asked
        # for mid-run is refused, and frames() counts the codewords fed
        code = gpuldpc.ldpc_code.load(os.path.join(CODES, "regular_3_6_n96_gf2.alist"))
        frames = 600
        y, info_bits, scale = self.noisy_codewords(code, frames, 6.0, seed=9)
        dec = gpuldpc.ldpc_decoder_def(code, input_scale=scale)
        for size in (2, 3, 4):
            self.assertFalse(dec.set_frame_size(size * code.k))
        tb, snk = self.extended_decoder_flowgraph(dec, y)
        tb.start()
        for size in (2, 4, 1, 3):
            time.sleep(0.01)
            dec.set_frame_size(size * code.k)
        tb.wait()
        self.assertEqual(dec.frames(), frames)
        np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8),
                                      info_bits.ravel())

    def test_huge_input_scale_saturates(self):
        # input_scale = 1e38 takes unit soft bits past float's range: they
        # saturate instead of becoming erasures, and noise-free frames decode
        code = gpuldpc.ldpc_code.load(os.path.join(CODES, "regular_3_6_n96_gf2.alist"))
        rng = np.random.default_rng(10)
        info = rng.integers(0, 2, size=(8, code.k), dtype=np.uint8)
        bits = gpuldpc.sim.symbols_to_bits(code.encode(info), code.bits_per_symbol)
        y = (2.0 * bits - 1.0).astype(np.float32) * 4.0
        dec = gpuldpc.ldpc_decoder_def(code, input_scale=1e38, device="cpu")
        tb, snk = self.extended_decoder_flowgraph(dec, y)
        tb.run()
        np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8), info.ravel())
        self.assertEqual(dec.failed_frames(), 0)

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
        tb, snk = self.extended_decoder_flowgraph(dec, y)
        tb.run()
        np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8),
                                      tuned.ravel())
        with self.assertRaisesRegex(ValueError, "min_sum_scale=1.5"):
            gpuldpc.ldpc_decoder_def(code, algorithm="min-sum", min_sum_scale=1.5)

    def test_min_sum_magnitude(self):
        # 8-bit min-sum on the (3,6) code: the default rule ("auto") is
        # three-smallest there; "smallest" decodes these frames otherwise
        code = gpuldpc.ldpc_code.load(os.path.join(CODES, "regular_3_6_n1008_gf2.alist"))
        y, _, scale = self.noisy_codewords(code, 12, 1.5, seed=6)
        args = dict(algorithm="min-sum", messages="int8", schedule="layered",
                    max_iterations=8, device="cpu")
        llr = (y * scale).astype(np.float32)
        for rule in ("auto", "smallest"):
            want, _ = gpuldpc.batch_decoder(code, min_sum_magnitude=rule,
                                            **args).decode(llr)
            dec = gpuldpc.ldpc_decoder_def(code, frames_per_call=12, input_scale=scale,
                                           min_sum_magnitude=rule, **args)
            tb, snk = self.extended_decoder_flowgraph(dec, y)
            tb.run()
            np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8),
                                          want.ravel())
            if rule == "auto":
                three = want
        self.assertFalse(np.array_equal(three, want))
        with self.assertRaisesRegex(ValueError, "min_sum_magnitude='x' is unknown"):
            gpuldpc.ldpc_decoder_def(code, algorithm="min-sum", min_sum_magnitude="x")

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
