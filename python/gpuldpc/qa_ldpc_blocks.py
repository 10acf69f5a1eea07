#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#

import os
import time
import unittest

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest

from gnuradio import gpuldpc

CODES = gpuldpc.codes_dir()


def load(name):
    return gpuldpc.ldpc_code.load(os.path.join(CODES, name))


def make_tag(offset, key, value):
    t = gr.tag_t()
    t.offset = offset
    t.key = pmt.intern(key)
    t.value = value
    return t


def noisy_llr(code_bits, ebn0_db, rate, rng):
    """BPSK + AWGN, LLR log(P1/P0) = -2y/sigma^2 for bits b -> 1 - 2b."""
    sigma2 = 1.0 / (2.0 * rate * 10 ** (ebn0_db / 10.0))
    y = (1.0 - 2.0 * code_bits) + rng.normal(0.0, np.sqrt(sigma2), code_bits.shape)
    return (-2.0 / sigma2 * y).astype(np.float32)


def six_tagged_gf64_frames(seed):
    """Six frames of the GF(64) code at 4 dB, each with a packet_len tag."""
    code = load("regular_2_4_n96_gf64.alist")
    rng = np.random.default_rng(seed)
    info = rng.integers(0, code.q, size=(6, code.k), dtype=np.uint8)
    bits = gpuldpc.sim.symbols_to_bits(code.encode(info), code.bits_per_symbol)
    llr = noisy_llr(bits, 4.0, code.rate, rng)
    n = llr.shape[1]
    tags = [make_tag(i * n, "packet_len", pmt.from_long(n)) for i in range(6)]
    return code, info, llr, tags


def check_frames_come_out_at_once(test, device):
    """Frames that arrive one at a time on a tagged stream, with pauses, each
    come out before the next is sent: a batch in flight never waits for
    input that has not come."""
    from gnuradio import pdu
    code = load("regular_2_4_n96_gf64.alist")
    rng = np.random.default_rng(12)
    frames = 4
    info = rng.integers(0, code.q, size=(frames, code.k), dtype=np.uint8)
    bits = gpuldpc.sim.symbols_to_bits(code.encode(info), code.bits_per_symbol)
    llr = noisy_llr(bits, 5.0, code.rate, rng)
    tb = gr.top_block()
    src = pdu.pdu_to_tagged_stream(gr.types.float_t, "packet_len")
    dec = gpuldpc.ldpc_decoder(code, output="symbols", device=device,
                               length_tag_key="packet_len")
    snk = blocks.vector_sink_b()
    tb.connect(src, dec, snk)
    tb.start()
    try:
        for f in range(frames):
            src.to_basic_block()._post(pmt.intern("pdus"), pmt.cons(
                pmt.make_dict(), pmt.init_f32vector(llr.shape[1], llr[f].tolist())))
            deadline = time.time() + 10
            while len(snk.data()) < (f + 1) * code.k and time.time() < deadline:
                time.sleep(0.005)
            test.assertEqual(len(snk.data()), (f + 1) * code.k,
                             "frame %d did not come out on its own" % f)
    finally:
        tb.stop()
        tb.wait()
    np.testing.assert_array_equal(np.array(snk.data(), dtype=np.uint8).reshape(
        frames, code.k), info)


class qa_ldpc_blocks(gr_unittest.TestCase):

    def setUp(self):
        self.tb = gr.top_block()

    def tearDown(self):
        self.tb = None

    def run_decoder(self, dec, llr, tags=()):
        src = blocks.vector_source_f(llr.ravel().tolist(), False, 1, list(tags))
        snk = blocks.vector_sink_b()
        self.tb.connect(src, dec, snk)
        self.tb.run()
        return np.array(snk.data(), dtype=np.uint8), snk.tags()

    def test_encoder_channel_decoder_flowgraph(self):
        for name in ("regular_3_6_n1008_gf2.alist", "regular_2_4_n96_gf64.alist",
                     "regular_2_4_n64_gf256.alist"):
            self.tb = gr.top_block()
            code = load(name)
            rng = np.random.default_rng(4)
            enc = gpuldpc.ldpc_encoder(code)  # packed in, bits out
            dec = gpuldpc.ldpc_decoder(code, max_batch=8,  # packed out
                                       status_tags="all")
            frames = 20
            data = rng.integers(0, 256, frames * enc.input_frame_length(), dtype=np.uint8)
            if (code.k * code.bits_per_symbol) % 8:
                self.skipTest("code needs whole bytes")
            src = blocks.vector_source_b(data.tolist(), False, 1,
                                         [make_tag(3 * enc.input_frame_length() + 1,
                                                   "marker", pmt.from_long(7))])
            s2t = blocks.stream_to_tagged_stream(gr.sizeof_char, 1, enc.input_frame_length(),
                                                 "packet_len")
            to_float = blocks.char_to_float(1, 1)
            # bit b -> BPSK 1 - 2b, noise at 4 dB, LLR -2y/sigma^2
            sigma2 = 1.0 / (2.0 * code.rate * 10 ** 0.4)
            bpsk = blocks.multiply_const_ff(-2.0)
            offset = blocks.add_const_ff(1.0)
            noise = blocks.vector_source_f(
                rng.normal(0, np.sqrt(sigma2), frames * code.n * code.bits_per_symbol).tolist())
            add = blocks.add_ff()
            llr = blocks.multiply_const_ff(-2.0 / sigma2)
            snk = blocks.vector_sink_b()
            self.tb.connect(src, s2t, enc, to_float, bpsk, offset, (add, 0))
            self.tb.connect(noise, (add, 1))
            self.tb.connect(add, llr, dec, snk)
            self.tb.run()
            out = np.array(snk.data(), dtype=np.uint8)
            np.testing.assert_array_equal(out, data)
            self.assertEqual(dec.frames(), frames)
            self.assertEqual(dec.failed_frames(), 0)
            tags = snk.tags()
            lens = [t for t in tags if pmt.symbol_to_string(t.key) == "packet_len"]
            self.assertEqual([t.offset for t in lens],
                             [i * dec.output_frame_length() for i in range(frames)])
            conv = [t for t in tags if pmt.symbol_to_string(t.key) == "ldpc_converged"]
            self.assertTrue(all(pmt.to_bool(t.value) for t in conv))
            self.assertEqual(len(conv), frames)
            # the marker on input frame 3 arrives in output frame 3
            marker = [t for t in tags if pmt.symbol_to_string(t.key) == "marker"]
            self.assertEqual(len(marker), 1)
            self.assertEqual(marker[0].offset // dec.output_frame_length(), 3)

    def test_every_batch_size_and_stream_end(self):
        code = load("regular_2_4_n128_gf16.alist")
        rng = np.random.default_rng(5)
        max_batch = 4
        for frames in range(1, 2 * max_batch + 2):
            for tagged in (True, False):
                self.tb = gr.top_block()
                info = rng.integers(0, code.q, size=(frames, code.k), dtype=np.uint8)
                bits = gpuldpc.sim.symbols_to_bits(code.encode(info), code.bits_per_symbol)
                llr = noisy_llr(bits, 5.0, code.rate, rng)
                n = llr.shape[1]
                tags = [make_tag(i * n, "packet_len", pmt.from_long(n))
                        for i in range(frames)] if tagged else []
                dec = gpuldpc.ldpc_decoder(code, output="symbols", max_batch=max_batch,
                                           length_tag_key="packet_len" if tagged else "")
                out, _ = self.run_decoder(dec, llr, tags)
                np.testing.assert_array_equal(out.reshape(-1, code.k), info,
                                              f"{frames} frames, tagged={tagged}")

    def test_bad_data_is_counted_and_good_frames_come_out(self):
        code = load("regular_3_6_n96_gf2.alist")
        rng = np.random.default_rng(6)
        info = rng.integers(0, 2, size=(4, code.k), dtype=np.uint8)
        llr = noisy_llr(code.encode(info), 6.0, code.rate, rng)
        n = code.n
        llr[2, 10] = np.nan
        llr[2, 11] = np.inf
        pieces, tags, pos = [], [], 0

        def packet(values, length=None):
            nonlocal pos
            tags.append(make_tag(pos, "packet_len", pmt.from_long(length or len(values))))
            pieces.append(values)
            pos += len(values)

        packet(llr[0])
        packet(np.zeros(n // 2, dtype=np.float32))      # wrong length
        packet(llr[1])
        pieces.append(np.ones(13, dtype=np.float32))   # no tag
        pos += 13
        packet(llr[2])                                  # NaN and Inf inside
        packet(np.zeros(n + 5, dtype=np.float32))      # wrong length, longer
        packet(llr[3])
        dec = gpuldpc.ldpc_decoder(code, output="bits", max_batch=2)
        out, out_tags = self.run_decoder(dec, np.concatenate(pieces), tags)
        np.testing.assert_array_equal(out.reshape(-1, code.k), info)
        self.assertEqual(dec.frames(), 4)
        self.assertEqual(dec.bad_length_frames(), 2)
        self.assertEqual(dec.missing_tag_items(), 13)
        self.assertEqual(dec.invalid_inputs(), 2)
        last = dec.stats()  # what the stats port publishes
        self.assertEqual(pmt.to_uint64(pmt.dict_ref(last, pmt.intern("bad_length"),
                                                    pmt.PMT_NIL)), 2)
        self.assertEqual(pmt.to_uint64(pmt.dict_ref(last, pmt.intern("invalid_inputs"),
                                                    pmt.PMT_NIL)), 2)
        # the device decoding (a GPU where one is usable: binary codes decode
        # there too)
        self.assertEqual(pmt.symbol_to_string(pmt.dict_ref(last, pmt.intern("device"),
                                                           pmt.PMT_NIL)), dec.device_name())
        # and its kernel, in words: a GPU's, or the CPU's SIMD decoder's
        # (this code and rule run in SIMD lanes)
        kernel = pmt.symbol_to_string(pmt.dict_ref(last, pmt.intern("kernel_variant"),
                                                   pmt.PMT_NIL))
        if dec.device_name() == "cpu":
            self.assertIn("frames a group", kernel)
        else:
            self.assertNotEqual(kernel, "")

    def test_failed_frames_passed_or_dropped(self):
        code = load("regular_3_6_n96_gf2.alist")
        rng = np.random.default_rng(7)
        info = rng.integers(0, 2, size=(3, code.k), dtype=np.uint8)
        llr = noisy_llr(code.encode(info), 6.0, code.rate, rng)
        llr[1] = rng.normal(0, 1, code.n)  # hopeless
        for pass_failed in (True, False):
            self.tb = gr.top_block()
            dec = gpuldpc.ldpc_decoder(code, output="bits", length_tag_key="",
                                       max_iterations=10, pass_failed=pass_failed,
                                       status_tags="all")
            out, tags = self.run_decoder(dec, llr)
            self.assertEqual(dec.failed_frames(), 1)
            conv = [pmt.to_bool(t.value) for t in tags
                    if pmt.symbol_to_string(t.key) == "ldpc_converged"]
            if pass_failed:
                self.assertEqual(conv, [True, False, True])
                np.testing.assert_array_equal(out.reshape(3, -1)[[0, 2]], info[[0, 2]])
            else:
                self.assertEqual(conv, [True, True])
                self.assertEqual(dec.dropped_frames(), 1)
                np.testing.assert_array_equal(out.reshape(2, -1), info[[0, 2]])

    def test_status_tags_modes(self):
        # the same frames out; status tags on every frame ("all"), on failed
        # frames only (the default "failed"), or none; the length tags and
        # the carried input tags always
        code, info, llr, tags = six_tagged_gf64_frames(13)
        n = llr.shape[1]
        tags.append(make_tag(2 * n + 5, "marker", pmt.from_long(7)))
        status = ["ldpc_converged", "ldpc_iterations", "ldpc_syndrome_weight"]
        for mode, expected in (("all", status), (True, status), ("none", []),
                               (False, []), ("failed", [])):
            self.tb = gr.top_block()
            dec = gpuldpc.ldpc_decoder(code, output="symbols", status_tags=mode)
            out, out_tags = self.run_decoder(dec, llr, tags)
            np.testing.assert_array_equal(out.reshape(6, code.k), info)
            keys = sorted(set(pmt.symbol_to_string(t.key) for t in out_tags))
            self.assertEqual(keys, sorted(["marker", "packet_len"] + expected), mode)
            self.assertEqual(len([t for t in out_tags
                                  if pmt.symbol_to_string(t.key) == "packet_len"]), 6)
        # "failed": a hopeless frame among good ones is the one flagged
        llr = llr.copy()
        llr[3] = np.random.default_rng(14).normal(0, 1, llr.shape[1])
        self.tb = gr.top_block()
        dec = gpuldpc.ldpc_decoder(code, output="symbols", max_iterations=5)
        out, out_tags = self.run_decoder(dec, llr, tags)
        flagged = [(t.offset, pmt.to_bool(t.value)) for t in out_tags
                   if pmt.symbol_to_string(t.key) == "ldpc_converged"]
        self.assertEqual(flagged, [(3 * dec.output_frame_length(), False)])
        self.assertEqual(dec.failed_frames(), 1)
        with self.assertRaisesRegex(ValueError, "status_tags='some'"):
            gpuldpc.ldpc_decoder(code, status_tags="some")

    def test_fp16_messages(self):
        # the block decodes with half-precision messages as the engine does
        code, info, llr, tags = six_tagged_gf64_frames(17)
        dec = gpuldpc.ldpc_decoder(code, output="bits", device="cpu", messages="fp16")
        out, _ = self.run_decoder(dec, llr, tags)
        engine = gpuldpc.batch_decoder(code, device="cpu", messages="fp16")
        expected, _ = engine.decode(llr)
        np.testing.assert_array_equal(out.reshape(expected.shape), expected)
        np.testing.assert_array_equal(
            expected, gpuldpc.sim.symbols_to_bits(info, code.bits_per_symbol))
        with self.assertRaisesRegex(ValueError, "messages='fp8'"):
            gpuldpc.ldpc_decoder(code, messages="fp8")

    def test_int8_input(self):
        # 8-bit LLRs on a byte stream and in PDUs: the results of the engine's
        # decode_int8 on the same values, with float and with int8 messages
        code = load("regular_3_6_n1008_gf2.alist")
        rng = np.random.default_rng(23)
        info = rng.integers(0, 2, size=(5, code.k), dtype=np.uint8)
        llr = noisy_llr(code.encode(info), 2.5, code.rate, rng)
        steps = np.clip(np.rint(llr * 8), -128, 127).astype(np.int8)
        n = code.n
        tags = [make_tag(i * n, "packet_len", pmt.from_long(n)) for i in range(5)]
        for messages, algorithm in (("fp32", "sum-product"), ("int8", "min-sum")):
            with self.subTest(messages=messages):
                self.tb = gr.top_block()
                dec = gpuldpc.ldpc_decoder(code, algorithm=algorithm, output="bits",
                                           device="cpu", messages=messages, input="int8",
                                           llr_scale=8.0, max_batch=2)
                self.assertEqual(dec.input_signature().sizeof_stream_item(0), 1)
                src = blocks.vector_source_b(steps.view(np.uint8).ravel().tolist(),
                                             False, 1, tags)
                snk = blocks.vector_sink_b()
                self.tb.connect(src, dec, snk)
                self.tb.run()
                engine = gpuldpc.batch_decoder(code, algorithm=algorithm,
                                               messages=messages, llr_scale=8.0,
                                               device="cpu")
                expected, _ = engine.decode_int8(steps)
                np.testing.assert_array_equal(
                    np.array(snk.data(), dtype=np.uint8).reshape(expected.shape), expected)
                self.assertEqual(dec.frames(), 5)
        np.testing.assert_array_equal(expected, info)  # at 2.5 dB all decode
        with self.assertRaisesRegex(ValueError, "input='int16'"):
            gpuldpc.ldpc_decoder(code, input="int16")
        with self.assertRaisesRegex(ValueError, "llr_scale=0"):
            gpuldpc.ldpc_decoder(code, algorithm="min-sum", input="int8", llr_scale=0)

    def test_min_sum_scale_and_offset_reach_the_decoder(self):
        # noisy frames where scale 0.5 / offset 0.25 decode otherwise than the
        # default: the block gives the engine's results with its arguments
        code = load("regular_3_6_n1008_gf2.alist")
        rng = np.random.default_rng(31)
        info = rng.integers(0, 2, size=(12, code.k), dtype=np.uint8)
        llr = noisy_llr(code.encode(info), 1.5, code.rate, rng).astype(np.float32)
        args = dict(algorithm="min-sum", schedule="layered", max_iterations=8)
        tuned = gpuldpc.batch_decoder(code, min_sum_scale=0.5, min_sum_offset=0.25,
                                      device="cpu", **args)
        expected, _ = tuned.decode(llr)
        default, _ = gpuldpc.batch_decoder(code, device="cpu", **args).decode(llr)
        self.assertFalse(np.array_equal(expected, default))
        dec = gpuldpc.ldpc_decoder(code, output="bits", device="cpu", length_tag_key="",
                                   min_sum_scale=0.5, min_sum_offset=0.25, **args)
        src = blocks.vector_source_f(llr.ravel().tolist())
        snk = blocks.vector_sink_b()
        self.tb.connect(src, dec, snk)
        self.tb.run()
        np.testing.assert_array_equal(
            np.array(snk.data(), dtype=np.uint8).reshape(expected.shape), expected)
        with self.assertRaisesRegex(ValueError, "min_sum_scale=1.5"):
            gpuldpc.ldpc_decoder(code, algorithm="min-sum", min_sum_scale=1.5)
        with self.assertRaisesRegex(ValueError, "min_sum_offset=-1"):
            gpuldpc.ldpc_decoder(code, algorithm="min-sum", min_sum_offset=-1.0)

    def test_min_sum_magnitude_reaches_the_decoder(self):
        # the (3,6) code's checks are small: 8-bit min-sum's default rule is
        # three-smallest, and frames at 1.5 dB decode otherwise with smallest
        code = load("regular_3_6_n1008_gf2.alist")
        rng = np.random.default_rng(32)
        info = rng.integers(0, 2, size=(12, code.k), dtype=np.uint8)
        llr = noisy_llr(code.encode(info), 1.5, code.rate, rng).astype(np.float32)
        args = dict(algorithm="min-sum", messages="int8", schedule="layered",
                    max_iterations=8)
        results = {}
        for rule in ("auto", "smallest", "three-smallest"):
            engine = gpuldpc.batch_decoder(code, min_sum_magnitude=rule, device="cpu",
                                           **args)
            expected, _ = engine.decode(llr)
            dec = gpuldpc.ldpc_decoder(code, output="bits", device="cpu",
                                       length_tag_key="", min_sum_magnitude=rule, **args)
            src = blocks.vector_source_f(llr.ravel().tolist())
            snk = blocks.vector_sink_b()
            tb = gr.top_block()
            tb.connect(src, dec, snk)
            tb.run()
            np.testing.assert_array_equal(
                np.array(snk.data(), dtype=np.uint8).reshape(expected.shape), expected)
            results[rule] = expected
        np.testing.assert_array_equal(results["auto"], results["three-smallest"])
        self.assertFalse(np.array_equal(results["auto"], results["smallest"]))
        with self.assertRaisesRegex(ValueError, "min_sum_magnitude='least'"):
            gpuldpc.ldpc_decoder(code, algorithm="min-sum", min_sum_magnitude="least")

    def test_min_sum_correction_defaults_to_the_codes_pair(self):
        for name, pair in (("dvbs2:1/2:short", (1.0, 0.25)), ("nr:1:16", (0.9375, 0.5))):
            code = gpuldpc.ldpc_code.load(name)
            self.assertEqual(gpuldpc.min_sum_auto_correction(code), pair)
            dec = gpuldpc.batch_decoder(code, algorithm="min-sum", device="cpu")
            self.assertEqual((dec.min_sum_scale, dec.min_sum_offset), pair)
            dec = gpuldpc.batch_decoder(code, algorithm="min-sum", device="cpu",
                                        min_sum_scale=0.75)
            self.assertEqual((dec.min_sum_scale, dec.min_sum_offset), (0.75, 0.0))
            dec = gpuldpc.batch_decoder(code, algorithm="min-sum", device="cpu",
                                        min_sum_scale="auto", min_sum_offset=1)
            self.assertEqual((dec.min_sum_scale, dec.min_sum_offset), (pair[0], 1.0))
        # accumulated parity with checks of 10 edges: the larger offset from
        # 20 iterations on (the default max_iterations is 50)
        code = gpuldpc.ldpc_code.load("dvbs2:2/3:short")
        self.assertEqual(gpuldpc.min_sum_auto_correction(code), (1.0, 0.5))
        self.assertEqual(gpuldpc.min_sum_auto_correction(code, max_iterations=10), (1.0, 0.25))
        dec = gpuldpc.batch_decoder(code, algorithm="min-sum", device="cpu", max_iterations=10)
        self.assertEqual((dec.min_sum_scale, dec.min_sum_offset), (1.0, 0.25))
        with self.assertRaisesRegex(ValueError, "max_iterations=0 is out of range; allowed: 1 .. 100000"):
            gpuldpc.min_sum_auto_correction(code, max_iterations=0)
        code = gpuldpc.ldpc_code.load("nr:1:16")
        # the GPU decoders do not run it: device "auto" takes the CPU
        dec = gpuldpc.batch_decoder(code, algorithm="min-sum", messages="fp32",
                                    min_sum_magnitude="two-smallest", device="auto")
        self.assertEqual((dec.min_sum_magnitude, dec.device), ("two-smallest", "cpu"))
        self.assertEqual((dec.min_sum_scale, dec.min_sum_offset), (1.0, 0.25))
        self.assertEqual(gpuldpc.min_sum_auto_correction(code, "two-smallest"), (1.0, 0.25))
        # three-smallest in 8 bits runs on the GPU too
        dec = gpuldpc.batch_decoder(code, algorithm="min-sum", messages="int8",
                                    min_sum_magnitude="three-smallest", device="auto")
        self.assertEqual(dec.min_sum_magnitude, "three-smallest")
        self.assertEqual(dec.device != "cpu", bool(gpuldpc.cuda_devices()))
        dec = gpuldpc.batch_decoder(code, algorithm="min-sum", messages="fp32",
                                    min_sum_magnitude="three-smallest", device="auto")
        self.assertEqual(dec.device, "cpu")
        self.assertEqual((dec.min_sum_scale, dec.min_sum_offset), (1.0, 0.25))
        with self.assertRaisesRegex(ValueError, "min_sum_magnitude='three' is unknown; "
                                    "allowed: auto, smallest, two-smallest, three-smallest"):
            gpuldpc.batch_decoder(code, algorithm="min-sum", min_sum_magnitude="three")
        # the default rule: three-smallest in 8 bits where most checks are small
        # (BG1 at 46 rows), smallest where they are large and in the float rule
        self.assertEqual(gpuldpc.min_sum_auto_magnitude(code), "three-smallest")
        self.assertEqual(gpuldpc.min_sum_auto_magnitude(code, "fp32"), "smallest")
        wifi = gpuldpc.ldpc_code.load("wifi:648:1/2")
        self.assertEqual(gpuldpc.min_sum_auto_magnitude(wifi), "smallest")
        for c, messages, rule, pair in ((code, "int8", "three-smallest", (1.0, 0.25)),
                                        (code, "fp32", "smallest", (0.9375, 0.5)),
                                        (wifi, "int8", "smallest", (0.9375, 0.5))):
            dec = gpuldpc.batch_decoder(c, algorithm="min-sum", messages=messages,
                                        device="cpu")
            self.assertEqual(dec.min_sum_magnitude, rule)
            self.assertEqual((dec.min_sum_scale, dec.min_sum_offset), pair)
        with self.assertRaisesRegex(ValueError, "min_sum_magnitude='auto' names no rule"):
            gpuldpc.min_sum_auto_correction(code, "auto")
        code = gpuldpc.ldpc_code.load("nr:1:16")
        for kw, error, pattern in (
                ({"min_sum_scale": 0}, ValueError, r"min_sum_scale=0 is out of range"),
                ({"min_sum_scale": "x"}, ValueError, r"min_sum_scale='x' is not a number"),
                ({"min_sum_offset": "-"}, ValueError, r"min_sum_offset='-' is not a"),
                ({"min_sum_scale": None}, TypeError, r"neither 'auto' nor a number")):
            with self.assertRaisesRegex(error, pattern):
                gpuldpc.ldpc_decoder(code, algorithm="min-sum", device="cpu", **kw)

    def test_punctured_code_through_encoder_and_decoder(self):
        # the encoder sends the transmitted bits only; the decoder takes those
        shifts = np.random.default_rng(4).integers(0, 32, size=(4, 8))
        for j in range(8):
            shifts[j % 4, j] = -1
        code = gpuldpc.ldpc_code.from_base_matrix(shifts, 32, transmitted=[0] + [1] * 7)
        rng = np.random.default_rng(5)
        info = rng.integers(0, 2, size=(4, code.k), dtype=np.uint8)
        enc = gpuldpc.ldpc_encoder(code, input="bits", output="bits", length_tag_key="")
        self.assertEqual(enc.output_frame_length(), 224)
        src = blocks.vector_source_b(info.ravel().tolist(), False)
        snk = blocks.vector_sink_b()
        self.tb.connect(src, enc, snk)
        self.tb.run()
        sent = np.array(snk.data(), dtype=np.uint8).reshape(4, 224)
        np.testing.assert_array_equal(sent, code.puncture(code.encode(info)))
        self.tb = gr.top_block()
        dec = gpuldpc.ldpc_decoder(code, output="bits", device="auto", length_tag_key="")
        self.assertEqual(dec.input_frame_length(), 224)
        out, _ = self.run_decoder(dec, noisy_llr(sent, 7.0, code.rate, rng))
        np.testing.assert_array_equal(out.reshape(info.shape), info)

    def test_frames_trickling_in_come_out_at_once(self):
        check_frames_come_out_at_once(self, "cpu")

    def test_pdu_ports(self):
        code = load("regular_2_4_n96_gf64.alist")
        rng = np.random.default_rng(8)
        enc = gpuldpc.ldpc_encoder(code, input="symbols", output="bits")
        dec = gpuldpc.ldpc_decoder(code, output="symbols", stats_interval=0.001)
        enc_out, dec_out, stats = (blocks.message_debug(), blocks.message_debug(),
                                   blocks.message_debug())
        self.tb.msg_connect((enc, "pdus"), (enc_out, "store"))
        self.tb.msg_connect((dec, "pdus"), (dec_out, "store"))
        self.tb.msg_connect((dec, "stats"), (stats, "store"))
        self.tb.start()
        info = rng.integers(0, code.q, size=(3, code.k), dtype=np.uint8)
        meta = pmt.dict_add(pmt.make_dict(), pmt.intern("id"), pmt.from_long(42))
        enc.to_basic_block()._post(pmt.intern("pdus"),
                                   pmt.cons(meta, pmt.init_u8vector(code.k, info[0].tolist())))
        deadline = time.time() + 10
        while enc_out.num_messages() < 1 and time.time() < deadline:
            time.sleep(0.01)
        cw_bits = np.array(pmt.u8vector_elements(pmt.cdr(enc_out.get_message(0))))
        llr = noisy_llr(np.vstack([cw_bits] + [
            gpuldpc.sim.symbols_to_bits(code.encode(info[1:]), code.bits_per_symbol)]),
            5.0, code.rate, rng)
        dec.to_basic_block()._post(pmt.intern("pdus"), pmt.cons(meta, pmt.init_f32vector(
            llr.size, llr.ravel().tolist())))
        dec.to_basic_block()._post(pmt.intern("pdus"), pmt.cons(meta, pmt.init_f32vector(
            7, [0.0] * 7)))  # wrong length
        while ((dec_out.num_messages() < 3 or stats.num_messages() < 1) and
               time.time() < deadline):
            time.sleep(0.01)
        time.sleep(0.1)
        self.tb.stop()
        self.tb.wait()
        self.assertEqual(dec_out.num_messages(), 3)
        for i in range(3):
            msg = dec_out.get_message(i)
            m = pmt.car(msg)
            self.assertEqual(pmt.to_long(pmt.dict_ref(m, pmt.intern("id"), pmt.PMT_NIL)), 42)
            self.assertTrue(pmt.to_bool(pmt.dict_ref(m, pmt.intern("ldpc_converged"),
                                                     pmt.PMT_NIL)))
            np.testing.assert_array_equal(pmt.u8vector_elements(pmt.cdr(msg)), info[i])
        self.assertEqual(dec.bad_length_frames(), 1)
        self.assertGreaterEqual(stats.num_messages(), 1)
        self.assertTrue(pmt.dict_has_key(stats.get_message(0), pmt.intern("frames")))

    def test_output_and_input_modes(self):
        code = load("regular_2_4_n128_gf16.alist")
        rng = np.random.default_rng(9)
        info = rng.integers(0, code.q, size=(2, code.k), dtype=np.uint8)
        bits = gpuldpc.sim.symbols_to_bits(info, code.bits_per_symbol)
        cw_bits = gpuldpc.sim.symbols_to_bits(code.encode(info), code.bits_per_symbol)
        inputs = {"symbols": info, "bits": bits, "packed": np.packbits(bits, axis=1)}
        for in_mode, data in inputs.items():
            for out_mode in ("bits", "packed"):
                self.tb = gr.top_block()
                enc = gpuldpc.ldpc_encoder(code, input=in_mode, output=out_mode,
                                           length_tag_key="")
                src = blocks.vector_source_b(data.ravel().tolist())
                snk = blocks.vector_sink_b()
                self.tb.connect(src, enc, snk)
                self.tb.run()
                out = np.array(snk.data(), dtype=np.uint8).reshape(2, -1)
                expected = cw_bits if out_mode == "bits" else np.packbits(cw_bits, axis=1)
                np.testing.assert_array_equal(out, expected, f"{in_mode} -> {out_mode}")
        llr = noisy_llr(cw_bits, 6.0, code.rate, rng)
        for out_mode, expected in (("bits", bits), ("symbols", info),
                                   ("packed", np.packbits(bits, axis=1))):
            self.tb = gr.top_block()
            dec = gpuldpc.ldpc_decoder(code, output=out_mode, length_tag_key="")
            out, _ = self.run_decoder(dec, llr)
            np.testing.assert_array_equal(out.reshape(2, -1), expected, out_mode)

    def test_bad_constructor_arguments(self):
        code = load("regular_2_4_n128_gf16.alist")
        path = os.path.join(CODES, "regular_2_4_n128_gf16.alist")
        cases = [
            (lambda: gpuldpc.ldpc_decoder(code, output="hex"), "output='hex'"),
            (lambda: gpuldpc.ldpc_decoder(code, max_batch=-1), "max_batch=-1"),
            (lambda: gpuldpc.ldpc_decoder(code, algorithm="min-sum"), "algorithm='min-sum'"),
            (lambda: gpuldpc.ldpc_decoder(code, schedule="random"), "schedule='random'"),
            (lambda: gpuldpc.ldpc_decoder(code, max_iterations=0), "max_iterations=0"),
            (lambda: gpuldpc.ldpc_decoder(code, device="tpu"), "device='tpu'"),
            (lambda: gpuldpc.ldpc_decoder(code, stats_interval=0), "stats_interval=0"),
            (lambda: gpuldpc.ldpc_decoder(path, format="xml"), "format='xml'"),
            (lambda: gpuldpc.ldpc_encoder(code, input="hex"), "input='hex'"),
            (lambda: gpuldpc.ldpc_encoder(code, output="symbols"), "output='symbols'"),
            (lambda: gpuldpc.ldpc_encoder(path, coef="log"), "coef='log'"),
        ]
        for make, needle in cases:
            with self.assertRaises(ValueError) as ctx:
                make()
            self.assertIn(needle, str(ctx.exception))
        with self.assertRaisesRegex(RuntimeError, "cannot open"):
            gpuldpc.ldpc_decoder("/nonexistent.alist")
        if not gpuldpc.cuda_devices():
            with self.assertRaisesRegex(RuntimeError, "device='cuda'"):
                gpuldpc.ldpc_decoder(code, device="cuda")


if __name__ == '__main__':
    gr_unittest.run(qa_ldpc_blocks)
