#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#

import time

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest

from gnuradio import gpuldpc


def reference_llr(points, y, n0, max_log=False):
    """LLRs log(P(1)/P(0)) by the formula, MSB first, in float64."""
    m = int(np.log2(len(points)))
    metric = -np.abs(y[:, None] - points[None, :].astype(np.complex128)) ** 2 / n0
    labels = np.arange(len(points))
    out = np.empty((len(y), m))
    for b in range(m):
        one = ((labels >> (m - 1 - b)) & 1) == 1
        if max_log:
            out[:, b] = metric[:, one].max(axis=1) - metric[:, ~one].max(axis=1)
        else:
            out[:, b] = (np.logaddexp.reduce(metric[:, one], axis=1) -
                         np.logaddexp.reduce(metric[:, ~one], axis=1))
    return out.ravel()


class qa_soft_demapper(gr_unittest.TestCase):

    def setUp(self):
        self.tb = gr.top_block()

    def tearDown(self):
        self.tb = None

    def run_block(self, block, y, tags=()):
        src = blocks.vector_source_c(y.tolist(), False, 1, list(tags))
        snk = blocks.vector_sink_f()
        self.tb.connect(src, block, snk)
        self.tb.run()
        return np.array(snk.data())

    def test_block_matches_the_formula(self):
        rng = np.random.default_rng(1)
        for name in gpuldpc.constellation.names():
            for mode in ("exact", "max-log"):
                with self.subTest(constellation=name, demapping=mode):
                    self.tb = gr.top_block()
                    points = gpuldpc.constellation(name).points
                    n0 = 0.05
                    y = (points[rng.integers(0, len(points), 300)] +
                         np.sqrt(n0 / 2) * (rng.normal(size=300) + 1j * rng.normal(size=300)))
                    y = y.astype(np.complex64)
                    block = gpuldpc.soft_demapper_cf(name, mode, n0)
                    out = self.run_block(block, y)
                    want = reference_llr(points, y.astype(np.complex128), n0, mode == "max-log")
                    np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-4)
                    self.assertEqual(block.bits_per_symbol(), int(np.log2(len(points))))

    def test_noise_variance_from_tags(self):
        points = gpuldpc.constellation("gpuldpc-16qam").points
        rng = np.random.default_rng(2)
        y = (points[rng.integers(0, 16, 100)] + 0.1 * rng.normal(size=100)).astype(np.complex64)
        tags = []
        for offset, value in ((40, pmt.from_double(0.2)), (70, pmt.intern("high")),
                              (80, pmt.from_long(2))):
            t = gr.tag_t()
            t.offset, t.key, t.value = offset, pmt.intern("n0"), value
            tags.append(t)
        block = gpuldpc.soft_demapper_cf("gpuldpc-16qam", "exact", 0.05, "n0")
        out = self.run_block(block, y, tags)
        y64 = y.astype(np.complex128)
        want = np.concatenate([reference_llr(points, y64[:40], 0.05),
                               reference_llr(points, y64[40:80], 0.2),   # "high" ignored
                               reference_llr(points, y64[80:], 2.0)])
        np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-4)
        self.assertEqual(block.bad_noise_var_tags(), 1)
        self.assertEqual(block.noise_var(), 2.0)

    def test_noise_variance_estimated_per_packet(self):
        # 16-QAM packets at Es/N0 = 20, 23 and 26 dB (decisions right: the
        # estimator is unbiased there) and one packet of NaN: a tag per
        # estimated packet within 5 standard deviations (1/sqrt(n) relative)
        points = gpuldpc.constellation("gpuldpc-16qam").points
        rng = np.random.default_rng(4)
        n = 2000
        n0s = [10 ** (-es / 10) for es in (20.0, 23.0, 26.0)]
        packets = [points[rng.integers(0, 16, n)] +
                   np.sqrt(v / 2) * (rng.normal(size=n) + 1j * rng.normal(size=n))
                   for v in n0s]
        packets.append(np.full(n, np.nan + 0j))
        y = np.concatenate(packets).astype(np.complex64)
        tags = []
        for i in range(len(packets)):
            t = gr.tag_t()
            t.offset, t.key, t.value = i * n, pmt.intern("packet_len"), pmt.from_long(n)
            tags.append(t)
        src = blocks.vector_source_c(y.tolist(), False, 1, tags)
        est = gpuldpc.packet_noise_estimator_cc("gpuldpc-16qam", "packet_len", "n0", "decision")
        demapper = gpuldpc.soft_demapper_cf("gpuldpc-16qam", "exact", 1.0, "n0")
        symbols = blocks.vector_sink_c()
        llr = blocks.vector_sink_f()
        self.tb.connect(src, est, symbols)
        self.tb.connect(est, demapper, llr)
        self.tb.run()
        np.testing.assert_array_equal(np.array(symbols.data()), y)
        found = sorted((t.offset, pmt.to_double(t.value)) for t in symbols.tags()
                       if pmt.symbol_to_string(t.key) == "n0")
        self.assertEqual([o for o, _ in found], [0, n, 2 * n])
        for (_, got), want in zip(found, n0s):
            self.assertLess(abs(got / want - 1), 5 / np.sqrt(n))
        self.assertEqual(est.packets(), 4)
        self.assertEqual(est.unestimated_packets(), 1)
        # the demapper takes each packet's estimate (the NaN packet keeps the
        # last one and gives NaN LLRs)
        y64 = y.astype(np.complex128)
        want = np.concatenate([reference_llr(points, y64[i * n:(i + 1) * n], v)
                               for i, (_, v) in enumerate(found)])
        out = np.array(llr.data())
        np.testing.assert_allclose(out[:3 * n * 4], want, rtol=1e-4, atol=1e-4)
        self.assertTrue(np.all(np.isnan(out[3 * n * 4:])))

    def test_noise_estimators_at_low_snr(self):
        # 16-QAM at 6 dB Es/N0, 20 packets of 2000 symbols: the decision-
        # directed estimate is far low (about 0.45 N0), the moments and auto
        # estimates are unbiased: their mean within 5 standard errors of N0
        # (spread per packet about 13 %, i.e. 3 % over 20 packets)
        rng = np.random.default_rng(6)
        points = gpuldpc.constellation("gpuldpc-16qam").points.astype(np.complex128)
        d = gpuldpc.soft_demapper("gpuldpc-16qam", "exact")
        n0, n = 10 ** (-0.6), 2000
        est = {"decision": [], "moments": [], "auto": []}
        for _ in range(20):
            y = (points[rng.integers(0, 16, n)] +
                 np.sqrt(n0 / 2) * (rng.normal(size=n) + 1j * rng.normal(size=n)))
            for method in est:
                est[method].append(d.estimate_noise_var(y.astype(np.complex64), method) / n0)
        self.assertLess(np.mean(est["decision"]), 0.7)
        for method in ("moments", "auto"):
            e = np.array(est[method])
            self.assertLess(abs(e.mean() - 1), 5 * e.std() / np.sqrt(len(e)) + 1e-3, method)
            self.assertLess(e.std(), 0.3, method)
        # and at 25 dB auto takes the decisions: within 5/sqrt(n) of N0
        n0 = 10 ** (-2.5)
        y = points[rng.integers(0, 16, n)] + np.sqrt(n0 / 2) * (
            rng.normal(size=n) + 1j * rng.normal(size=n))
        got = d.estimate_noise_var(y.astype(np.complex64), "auto")
        self.assertEqual(got, d.estimate_noise_var(y.astype(np.complex64), "decision"))
        self.assertLess(abs(got / n0 - 1), 5 / np.sqrt(n))

    def test_into_the_ldpc_decoder(self):
        # QPSK at Es/N0 = 4 dB with the rate-1/2 code: calibrated LLRs decode
        code = gpuldpc.ldpc_code.load(gpuldpc.codes_dir() + "/regular_3_6_n1008_gf2.alist")
        rng = np.random.default_rng(3)
        info = rng.integers(0, 2, size=(4, code.k), dtype=np.uint8)
        bits = code.encode(info).reshape(-1, 2)
        points = gpuldpc.constellation("gpuldpc-qpsk").points
        n0 = 10 ** (-4.0 / 10)
        y = points[bits[:, 0] * 2 + bits[:, 1]]
        y = (y + np.sqrt(n0 / 2) * (rng.normal(size=len(y)) + 1j * rng.normal(size=len(y))))
        demapper = gpuldpc.soft_demapper_cf("gpuldpc-qpsk", "exact", n0)
        dec = gpuldpc.ldpc_decoder(code, output="bits", device="cpu", length_tag_key="")
        src = blocks.vector_source_c(y.astype(np.complex64).tolist())
        snk = blocks.vector_sink_b()
        self.tb.connect(src, demapper, dec, snk)
        self.tb.run()
        np.testing.assert_array_equal(np.array(snk.data()).reshape(info.shape), info)
        self.assertEqual(dec.failed_frames(), 0)

    def test_matched_mapping_beats_bitwise(self):
        # GF(64) on 64-QAM at Eb/N0 = 6 dB, the same frames and noise for both:
        # symbol log-likelihoods into the decoder against bit LLRs. Frames that
        # only one of the two decodes are the evidence: matched must win by
        # more than 3 standard deviations of that count (sqrt of the frames that
        # differ, their sign a fair coin if both were as good).
        from gnuradio.gpuldpc import sim
        code = gpuldpc.ldpc_code.load(gpuldpc.codes_dir() + "/regular_2_4_n96_gf64.alist")
        dec = gpuldpc.batch_decoder(code, max_iterations=30, threads=2)
        frames = 300
        info = np.random.default_rng(4).integers(0, 64, size=(frames, code.k), dtype=np.uint8)
        sent = code.encode(info)
        want = sim.symbols_to_bits(info, 6)
        wrong = {}
        for mapping in ("bits", "matched"):
            link = sim.channel(code, "gpuldpc-64qam", mapping)
            bits, _ = link.decode(dec, sent, 6.0, np.random.default_rng(5))
            wrong[mapping] = (bits != want).any(axis=1)
        only_bits = int(np.count_nonzero(wrong["bits"] & ~wrong["matched"]))
        only_matched = int(np.count_nonzero(wrong["matched"] & ~wrong["bits"]))
        self.assertGreater(only_bits - only_matched, 3 * np.sqrt(only_bits + only_matched),
                           (only_bits, only_matched))
        with self.assertRaisesRegex(ValueError, "64-point constellation"):
            sim.channel(code, "gpuldpc-qpsk", "matched")

    def test_decoder_block_takes_matched_symbols(self):
        # GF(64) on 64-QAM into the decoder block as complex symbols: N0 from
        # the argument, from tags (one per packet, a bad one counted and
        # ignored) and from PDU metadata; every frame decodes to what was sent
        code = gpuldpc.ldpc_code.load(gpuldpc.codes_dir() + "/regular_2_4_n96_gf64.alist")
        rng = np.random.default_rng(6)
        frames = 5
        info = rng.integers(0, 64, size=(frames, code.k), dtype=np.uint8)
        points = np.asarray(gpuldpc.constellation("gpuldpc-64qam").points)
        n0 = np.array([0.002, 0.004, 0.003, 0.002, 0.004])
        y = points[code.encode(info)]
        y = y + np.sqrt(n0[:, None] / 2) * (rng.normal(size=y.shape)
                                             + 1j * rng.normal(size=y.shape))
        y = y.astype(np.complex64)
        n = code.n
        # the argument alone
        dec = gpuldpc.ldpc_decoder(code, output="symbols", length_tag_key="",
                                   input="symbols", noise_var=0.003, threads=2)
        self.assertEqual(dec.input_frame_length(), n)
        snk = blocks.vector_sink_b()
        self.tb.connect(blocks.vector_source_c(y.ravel().tolist()), dec, snk)
        self.tb.run()
        np.testing.assert_array_equal(np.array(snk.data()).reshape(info.shape), info)
        # tags: packet_len and n0 at each frame; frame 2's n0 is bad (ignored:
        # frame 1's value stays)
        self.tb = gr.top_block()
        tags = []
        for f in range(frames):
            tags.append(gr.tag_utils.python_to_tag(
                (f * n, pmt.intern("packet_len"), pmt.from_long(n), pmt.PMT_F)))
            value = pmt.from_double(-1.0 if f == 2 else float(n0[f]))
            tags.append(gr.tag_utils.python_to_tag((f * n, pmt.intern("n0"), value,
                                                    pmt.PMT_F)))
        dec = gpuldpc.ldpc_decoder(code, output="symbols", input="symbols",
                                   constellation="gpuldpc-64qam", noise_var_tag_key="n0",
                                   threads=2)
        snk = blocks.vector_sink_b()
        self.tb.connect(blocks.vector_source_c(y.ravel().tolist(), False, 1, tags), dec,
                        snk)
        self.tb.run()
        np.testing.assert_array_equal(np.array(snk.data()).reshape(info.shape), info)
        stats = dec.stats()
        self.assertEqual(pmt.to_uint64(pmt.dict_ref(stats, pmt.intern("bad_noise_var_tags"),
                                                    pmt.PMT_NIL)), 1)
        # PDUs: c32vector, N0 in the metadata
        self.tb = gr.top_block()
        dec = gpuldpc.ldpc_decoder(code, output="symbols", input="symbols",
                                   noise_var_tag_key="n0", threads=2)
        store = blocks.message_debug()
        self.tb.msg_connect((dec, "pdus"), (store, "store"))
        for f in range(frames):
            meta = pmt.dict_add(pmt.make_dict(), pmt.intern("n0"), pmt.from_double(n0[f]))
            dec._post(pmt.intern("pdus"), pmt.cons(meta, pmt.init_c32vector(n, y[f].tolist())))
        self.tb.start()
        deadline = time.time() + 30
        while store.num_messages() < frames and time.time() < deadline:
            time.sleep(0.01)
        self.tb.stop()
        self.tb.wait()
        got = np.array([pmt.u8vector_elements(pmt.cdr(store.get_message(i)))
                        for i in range(store.num_messages())])
        np.testing.assert_array_equal(got, info)
        # a constellation that does not match the code is refused by name
        with self.assertRaisesRegex(ValueError, "constellation='gpuldpc-16qam'"):
            gpuldpc.ldpc_decoder(code, input="symbols", constellation="gpuldpc-16qam")
        with self.assertRaisesRegex(ValueError, "noise_var="):
            gpuldpc.ldpc_decoder(code, input="symbols", noise_var=0.0)

    def test_bad_arguments(self):
        with self.assertRaisesRegex(ValueError, "constellation='32apsk'"):
            gpuldpc.soft_demapper_cf("32apsk")
        with self.assertRaisesRegex(ValueError, "demapping='log-map'"):
            gpuldpc.soft_demapper_cf("gpuldpc-qpsk", "log-map")
        with self.assertRaisesRegex(ValueError, "noise_var=0"):
            gpuldpc.soft_demapper_cf("gpuldpc-qpsk", "exact", 0.0)
        block = gpuldpc.soft_demapper_cf("gpuldpc-qpsk", "exact", 1.0)
        with self.assertRaisesRegex(ValueError, "noise_var=-1"):
            block.set_noise_var(-1.0)
        with self.assertRaisesRegex(ValueError, "constellation='32apsk'"):
            gpuldpc.packet_noise_estimator_cc("32apsk")
        with self.assertRaisesRegex(ValueError, "length_tag_key"):
            gpuldpc.packet_noise_estimator_cc("gpuldpc-qpsk", "")
        with self.assertRaisesRegex(ValueError, "noise_var_tag_key"):
            gpuldpc.packet_noise_estimator_cc("gpuldpc-qpsk", "packet_len", "")
        with self.assertRaisesRegex(ValueError, "method='ml'"):
            gpuldpc.packet_noise_estimator_cc("gpuldpc-qpsk", "packet_len", "n0", "ml")
        d = gpuldpc.soft_demapper("gpuldpc-8psk", "max-log")
        self.assertEqual(d.demap(np.zeros(3, dtype=np.complex64), 1.0).shape, (9,))


if __name__ == '__main__':
    gr_unittest.run(qa_soft_demapper)
