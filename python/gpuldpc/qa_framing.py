#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# How the frame blocks (ldpc_decoder, ldpc_encoder) meet GNU Radio's
# scheduler: frames larger than the default buffers, batches as large as
# max_batch, the end of a finite stream, topologies, length tags of every
# integer type, and tags on frames that produce no output.

import contextlib
import os
import threading
import time
import unittest

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest

from gnuradio import gpuldpc
from qa_ldpc_blocks import load, make_tag, noisy_llr  # this folder's block-test helpers
# LLR of a strongly received 0 bit (log P1/P0 < 0): the all-zero codeword
# belongs to every linear code, so no encoder is needed for long codes.
ZERO = -8.0


_CODE_CACHE = {}


def regular_code(n, dv, dc, q, seed=1):
    key = (n, dv, dc, q, seed)
    if key not in _CODE_CACHE:
        _CODE_CACHE[key] = gpuldpc.construct_regular_code(n, dv, dc, q, seed)
    return _CODE_CACHE[key]


def zero_llr(code, frames, rng):
    """Noisy soft bits of the all-zero codeword, well above threshold."""
    n = code.n * code.bits_per_symbol
    return (ZERO + rng.normal(0, 1.0, (frames, n))).astype(np.float32)


def run_with_deadline(tb, seconds=60):
    """tb.run() that fails instead of hanging; returns whether it finished."""
    t = threading.Thread(target=tb.run, daemon=True)
    t.start()
    t.join(seconds)
    if t.is_alive():
        tb.stop()
        tb.wait()
        return False
    return True


@contextlib.contextmanager
def chunk_frames_env(value):
    """GPULDPC_BLOCK_CHUNK_FRAMES=value while decoders are made."""
    old = os.environ.get("GPULDPC_BLOCK_CHUNK_FRAMES")
    os.environ["GPULDPC_BLOCK_CHUNK_FRAMES"] = value
    try:
        yield
    finally:
        if old is None:
            del os.environ["GPULDPC_BLOCK_CHUNK_FRAMES"]
        else:
            os.environ["GPULDPC_BLOCK_CHUNK_FRAMES"] = old


def run_chunked(test, chunk_frames, pieces, tags, code, device):
    """The decoder over the pieces as one stream, with its lone batches in
    chunks of chunk_frames (0: whole); output, tags, counters, decoder calls
    and batches in chunks."""
    with chunk_frames_env(str(chunk_frames)):
        dec = gpuldpc.ldpc_decoder(code, output="bits", pass_failed=False,
                                   max_iterations=8, max_batch=32,
                                   algorithm="min-sum", messages="int8",
                                   schedule="layered", status_tags="all",
                                   length_tag_key="packet_len", device=device)
    tb = gr.top_block()
    src = blocks.vector_source_f(np.concatenate(pieces).tolist(), False, 1, tags)
    snk = blocks.vector_sink_b()
    tb.connect(src, dec, snk)
    test.assertTrue(run_with_deadline(tb, 60))
    out_tags = sorted((t.offset, pmt.symbol_to_string(t.key), str(t.value))
                      for t in snk.tags())
    stats = dec.stats()

    def stat(key):
        return pmt.to_uint64(pmt.dict_ref(stats, pmt.intern(key), pmt.PMT_NIL))
    return (np.array(snk.data(), dtype=np.uint8), out_tags,
            (dec.frames(), dec.dropped_frames(), dec.dropped_tags(),
             stat("bad_length")), stat("batches"), stat("chunked_batches"))


def check_lone_batches_in_chunks(test, device, whole_device):
    """A lone batch in chunks (ldpc_decoder's pipeline chunk) on \\p device
    gives the frames, tags and counters of whole batches on whole_device."""
    # 50 frames, some hopeless (dropped), a packet of another length and a
    # marker tag on every packet, written by the source at once: a batch
    # of 32 with 18 frames behind it, then a lone batch of 18 that goes in
    # chunks of 4, 4, 4, 4 and 2 frames beside the outstanding batch of 32
    code = load("regular_3_6_n96_gf2.alist")
    rng = np.random.default_rng(23)
    n = code.n
    info = rng.integers(0, 2, size=(50, code.k), dtype=np.uint8)
    llr = noisy_llr(code.encode(info).astype(np.float64), 5.0, code.rate, rng)
    hopeless = {7, 33, 40, 41}
    pieces, tags, pos = [], [], 0
    for f in range(50):
        p = rng.normal(0, 1, n).astype(np.float32) if f in hopeless else llr[f]
        if f == 36:
            pieces.append(np.zeros(n // 3, np.float32))
            tags.append(make_tag(pos, "packet_len", pmt.from_long(n // 3)))
            tags.append(make_tag(pos + 1, "marker", pmt.from_long(1000)))
            pos += n // 3
        pieces.append(p)
        tags.append(make_tag(pos, "packet_len", pmt.from_long(n)))
        tags.append(make_tag(pos + 2, "marker", pmt.from_long(f)))
        pos += n
    whole = run_chunked(test, 0, pieces, tags, code, whole_device)
    chunked = run_chunked(test, 4, pieces, tags, code, device)
    test.assertEqual((whole[3], whole[4]), (2, 0))
    test.assertEqual((chunked[3], chunked[4]), (1 + 5, 1))
    np.testing.assert_array_equal(chunked[0], whole[0])
    test.assertEqual(chunked[1], whole[1])
    test.assertEqual(chunked[2], whole[2])
    # chunks of 2 would be 9: at most 8, in whole multiples of 2 (4 again)
    capped = run_chunked(test, 2, pieces, tags, code, device)
    test.assertEqual((capped[3], capped[4]), (1 + 5, 1))
    np.testing.assert_array_equal(capped[0], whole[0])
    test.assertEqual(capped[1], whole[1])
    # two chunks (the smallest batch that goes in chunks): 9 + 9
    halves = run_chunked(test, 9, pieces, tags, code, device)
    test.assertEqual((halves[3], halves[4]), (1 + 2, 1))
    np.testing.assert_array_equal(halves[0], whole[0])
    test.assertEqual(halves[1], whole[1])
    test.assertEqual(halves[2], whole[2])
    # the first 20 frames alone: one lone batch, no batch outstanding before
    # it, in 5 chunks of 4
    end = 20 * n
    first20 = [t for t in tags if t.offset < end]
    whole20 = run_chunked(test, 0, pieces[:20], first20, code, whole_device)
    chunked20 = run_chunked(test, 4, pieces[:20], first20, code, device)
    test.assertEqual((whole20[3], chunked20[3]), (1, 5))
    test.assertEqual((whole20[4], chunked20[4]), (0, 1))
    np.testing.assert_array_equal(chunked20[0], whole20[0])
    test.assertEqual(chunked20[1], whole20[1])
    test.assertEqual(chunked20[2], whole20[2])
    test.assertEqual(whole20[2], (20, 1, 1, 0))
    # what the frames hold, whoever decoded them
    test.assertEqual(whole[2], (50, 4, 5, 1))
    kept = [f for f in range(50) if f not in hopeless]
    np.testing.assert_array_equal(whole[0].reshape(46, code.k), info[kept])
    iterations = [t for t in whole[1] if t[1] == "ldpc_iterations"]
    test.assertEqual(len(iterations), 46)
    test.assertGreater(len({t[2] for t in iterations}), 1)


class qa_framing(gr_unittest.TestCase):

    def setUp(self):
        self.tb = gr.top_block()

    def tearDown(self):
        self.tb = None

    # -- item 1: frames larger than GNU Radio's default buffers -------------

    def check_large_frames(self, code, frames, output, tagged, behind_copy,
                           max_batch=4):
        self.tb = gr.top_block()
        rng = np.random.default_rng(11)
        llr = zero_llr(code, frames, rng)
        n = llr.shape[1]
        tags = [make_tag(i * n, "packet_len", pmt.from_long(n))
                for i in range(frames)] if tagged else []
        src = blocks.vector_source_f(llr.ravel().tolist(), False, 1, tags)
        dec = gpuldpc.ldpc_decoder(code, output=output, max_batch=max_batch,
                                   max_iterations=5,
                                   length_tag_key="packet_len" if tagged else "")
        snk = blocks.vector_sink_b()
        if behind_copy:
            self.tb.connect(src, blocks.copy(gr.sizeof_float), dec, snk)
        else:
            self.tb.connect(src, dec, snk)
        what = f"n={n} {output} tagged={tagged} copy={behind_copy}"
        self.assertTrue(run_with_deadline(self.tb, 120), "hung: " + what)
        out = np.array(snk.data(), dtype=np.uint8)
        self.assertEqual(dec.frames(), frames, what)
        self.assertEqual(len(out), frames * dec.output_frame_length(), what)
        self.assertFalse(out.any(), what)

    def test_frames_beyond_the_default_buffer(self):
        # 20000 soft bits > 16383, the most a default float buffer offers
        code = regular_code(20000, 3, 6, 2)
        for output in ("packed", "bits", "symbols"):
            for tagged in (False, True):
                self.check_large_frames(code, 3, output, tagged, behind_copy=tagged)

    def test_gf256_frames_of_64800_soft_bits(self):
        code = regular_code(8100, 2, 4, 256)
        self.check_large_frames(code, 3, "packed", True, behind_copy=True, max_batch=2)
        self.check_large_frames(code, 3, "symbols", False, behind_copy=False,
                                max_batch=3)

    def test_gf256_frames_of_64800_symbols(self):
        # 518400 soft bits a frame: 32 times the default buffer
        code = regular_code(64800, 2, 4, 256)
        self.check_large_frames(code, 2, "packed", True, behind_copy=True, max_batch=2)

    def test_max_batch_is_reachable(self):
        # A slow decoder (low SNR, many iterations) behind a fast source: the
        # backlog must grow past what the default buffer holds (16 frames of
        # 1008 soft bits) up to max_batch.
        code = load("regular_3_6_n1008_gf2.alist")
        rng = np.random.default_rng(12)
        frames, max_batch = 512, 128
        llr = (-1.0 + rng.normal(0, 2.0, (frames, code.n))).astype(np.float32)
        src = blocks.vector_source_f(llr.ravel().tolist(), False)
        dec = gpuldpc.ldpc_decoder(code, max_batch=max_batch, length_tag_key="",
                                   max_iterations=20, threads=1)
        self.assertEqual(dec.batch_size(), max_batch)
        snk = blocks.null_sink(gr.sizeof_char)
        self.tb.connect(src, blocks.copy(gr.sizeof_float), dec, snk)
        self.assertTrue(run_with_deadline(self.tb, 120))
        stats = dec.stats()
        largest = pmt.to_uint64(pmt.dict_ref(stats, pmt.intern("largest_batch"),
                                             pmt.PMT_NIL))
        self.assertEqual(dec.frames(), frames)
        self.assertGreater(largest, 16)
        self.assertLessEqual(largest, max_batch)

    def test_automatic_batch(self):
        # max_batch=0 (the default): on the CPU four SIMD groups a thread,
        # 256 to 4096 frames, in whole rounds of groups (a group on each
        # thread); 4096 on a GPU; within 64 MiB of input
        def automatic(engine):
            if engine.device != "cpu":
                return 4096
            return engine.whole_round_batch(
                min(4096, max(256, 4 * engine.preferred_batch())))
        code = load("regular_2_4_n128_gf16.alist")
        engine = gpuldpc.batch_decoder(code, device="cpu")
        batch = gpuldpc.ldpc_decoder(code, device="cpu").batch_size()
        self.assertEqual(batch, automatic(engine))
        if engine.threads <= 2:
            self.assertEqual(batch, 256)
        big = regular_code(96, 2, 4, 256)
        dec = gpuldpc.ldpc_decoder(big, device="auto")
        engine = gpuldpc.batch_decoder(
            big, device="cpu" if dec.device_name() == "cpu" else "cuda")
        self.assertEqual(dec.batch_size(), engine.whole_round_batch(
            min(automatic(engine), (64 << 20) // (96 * 8 * 4))))

    def test_batch_is_bounded_in_bytes(self):
        # 64 MiB of input per batch at most, cut to whole rounds of a CPU
        # decoder's SIMD groups where the last round would be mostly idle
        code = regular_code(96, 2, 4, 256)
        dec = gpuldpc.ldpc_decoder(code, max_batch=100000)
        bound = (64 << 20) // (96 * 8 * 4)
        on_cpu = dec.device_name() == "cpu"
        engine = gpuldpc.batch_decoder(code, device="cpu" if on_cpu else "cuda")
        self.assertEqual(dec.batch_size(), engine.whole_round_batch(bound))
        self.assertLessEqual(dec.batch_size(), bound)
        # at most half a round (a group on each thread) less
        self.assertLess(2 * (bound - dec.batch_size()), max(1, engine.preferred_batch()))

    # -- item 2: the end of a finite stream --------------------------------

    def test_truncated_tagged_frame_at_stream_end(self):
        code = load("regular_3_6_n96_gf2.alist")
        rng = np.random.default_rng(13)
        n = code.n
        llr = zero_llr(code, 3, rng).ravel()[: 2 * n + n // 2]
        tags = [make_tag(i * n, "packet_len", pmt.from_long(n)) for i in range(3)]
        src = blocks.vector_source_f(llr.tolist(), False, 1, tags)
        dec = gpuldpc.ldpc_decoder(code, output="bits")
        snk = blocks.vector_sink_b()
        self.tb.connect(src, dec, snk)
        self.assertTrue(run_with_deadline(self.tb, 30), "tb.run() hung")
        self.assertEqual(dec.frames(), 2)
        self.assertEqual(dec.truncated_frames(), 1)
        self.assertEqual(len(snk.data()), 2 * code.k)

    def test_untagged_leftover_at_stream_end(self):
        code = load("regular_3_6_n96_gf2.alist")
        rng = np.random.default_rng(14)
        llr = zero_llr(code, 3, rng).ravel()[: 2 * code.n + 7]
        src = blocks.vector_source_f(llr.tolist(), False)
        dec = gpuldpc.ldpc_decoder(code, output="bits", length_tag_key="")
        snk = blocks.vector_sink_b()
        self.tb.connect(src, dec, snk)
        self.assertTrue(run_with_deadline(self.tb, 30), "tb.run() hung")
        self.assertEqual(dec.frames(), 2)
        self.assertEqual(dec.truncated_frames(), 1)

    def test_length_tags_out_only_for_tagged_input(self):
        # the key names the length tag of the input and of the output; an
        # empty key leaves both untagged (other tags still go with their frame)
        code = load("regular_3_6_n96_gf2.alist")
        rng = np.random.default_rng(16)
        llr = zero_llr(code, 3, rng).ravel()
        n = code.n
        for key in ("packet_len", "frame_len", ""):
            self.tb = gr.top_block()
            tags = [make_tag(i * n + 1, "marker", pmt.from_long(i)) for i in range(3)]
            if key:
                tags += [make_tag(i * n, key, pmt.from_long(n)) for i in range(3)]
            src = blocks.vector_source_f(llr.tolist(), False, 1, tags)
            dec = gpuldpc.ldpc_decoder(code, output="bits", length_tag_key=key,
                                       status_tags=False)
            enc = gpuldpc.ldpc_encoder(code, input="bits", output="bits",
                                       length_tag_key=key)
            dec_snk, enc_snk = blocks.vector_sink_b(), blocks.vector_sink_b()
            self.tb.connect(src, dec, dec_snk)
            self.tb.connect(dec, enc, enc_snk)
            self.assertTrue(run_with_deadline(self.tb, 30), "tb.run() hung")
            self.assertEqual(dec.frames(), 3)
            self.assertEqual(enc.frames(), 3)
            for snk, frame_len in ((dec_snk, code.k), (enc_snk, n)):
                self.assertEqual(len(snk.data()), 3 * frame_len)
                got = sorted((t.offset, pmt.symbol_to_string(t.key)) for t in snk.tags())
                expected = [(i * frame_len, "marker") for i in range(3)]
                if key:
                    expected += [(i * frame_len, key) for i in range(3)]
                self.assertEqual(got, sorted(expected), f"key {key!r}")

    def test_encoder_truncated_frame_at_stream_end(self):
        code = load("regular_3_6_n96_gf2.alist")
        enc = gpuldpc.ldpc_encoder(code, input="bits")
        k = enc.input_frame_length()
        data = [0] * (2 * k + k // 2)
        tags = [make_tag(i * k, "packet_len", pmt.from_long(k)) for i in range(3)]
        src = blocks.vector_source_b(data, False, 1, tags)
        snk = blocks.vector_sink_b()
        self.tb.connect(src, enc, snk)
        self.assertTrue(run_with_deadline(self.tb, 30), "tb.run() hung")
        self.assertEqual(enc.frames(), 2)
        self.assertEqual(enc.truncated_frames(), 1)
        self.assertEqual(len(snk.data()), 2 * enc.output_frame_length())

    # -- item 3: topologies --------------------------------------------------

    def test_stream_in_without_stream_out_is_rejected(self):
        code = load("regular_3_6_n96_gf2.alist")
        for make in (lambda: gpuldpc.ldpc_decoder(code),
                     lambda: gpuldpc.ldpc_encoder(code)):
            self.tb = gr.top_block()
            blk = make()
            itemsize = gr.sizeof_float if isinstance(blk, gpuldpc.ldpc_decoder) else 1
            src = blocks.vector_source_f([0.0] * 96) if itemsize == 4 else \
                blocks.vector_source_b([0] * 96)
            self.tb.connect(src, blk)
            with self.assertRaisesRegex(RuntimeError, "stream output"):
                self.tb.start()

    def test_stream_to_pdus_through_tagged_stream_to_pdu(self):
        # the documented way to PDUs from a stream
        from gnuradio import pdu
        code = load("regular_3_6_n96_gf2.alist")
        rng = np.random.default_rng(15)
        llr = zero_llr(code, 3, rng)
        n = code.n
        tags = [make_tag(i * n, "packet_len", pmt.from_long(n)) for i in range(3)]
        src = blocks.vector_source_f(llr.ravel().tolist(), False, 1, tags)
        dec = gpuldpc.ldpc_decoder(code, output="bits", status_tags="all")
        to_pdu = pdu.tagged_stream_to_pdu(gr.types.byte_t, "packet_len")
        dbg = blocks.message_debug()
        self.tb.connect(src, dec, to_pdu)
        self.tb.msg_connect((to_pdu, "pdus"), (dbg, "store"))
        self.assertTrue(run_with_deadline(self.tb, 30))
        self.assertEqual(dbg.num_messages(), 3)
        meta = pmt.car(dbg.get_message(0))
        self.assertTrue(pmt.to_bool(pmt.dict_ref(meta, pmt.intern("ldpc_converged"),
                                                 pmt.PMT_NIL)))

    def test_stream_out_without_stream_in_is_rejected(self):
        code = load("regular_3_6_n96_gf2.alist")
        dec = gpuldpc.ldpc_decoder(code)
        self.tb.connect(dec, blocks.null_sink(gr.sizeof_char))
        with self.assertRaisesRegex(RuntimeError, "stream input"):
            self.tb.start()

    # -- item 4: length tags of every PMT integer type -----------------------

    def test_length_tags_as_uint64(self):
        code = load("regular_3_6_n96_gf2.alist")
        rng = np.random.default_rng(16)
        llr = zero_llr(code, 2, rng)
        n = code.n
        tags = [make_tag(0, "packet_len", pmt.from_uint64(n)),
                make_tag(n, "packet_len", pmt.from_long(n))]
        src = blocks.vector_source_f(llr.ravel().tolist(), False, 1, tags)
        dec = gpuldpc.ldpc_decoder(code, output="bits")
        snk = blocks.vector_sink_b()
        self.tb.connect(src, dec, snk)
        self.assertTrue(run_with_deadline(self.tb, 30))
        self.assertEqual(dec.frames(), 2)
        self.assertEqual(dec.bad_length_frames(), 0)

    def test_encoder_length_tags_as_uint64(self):
        code = load("regular_3_6_n96_gf2.alist")
        enc = gpuldpc.ldpc_encoder(code, input="bits")
        k = enc.input_frame_length()
        src = blocks.vector_source_b([0] * k, False, 1,
                                     [make_tag(0, "packet_len", pmt.from_uint64(k))])
        snk = blocks.vector_sink_b()
        self.tb.connect(src, enc, snk)
        self.assertTrue(run_with_deadline(self.tb, 30))
        self.assertEqual(enc.frames(), 1)

    # -- item 5: tags on items that produce no output ------------------------

    def test_tags_on_skipped_and_dropped_frames_are_counted(self):
        code = load("regular_3_6_n96_gf2.alist")
        rng = np.random.default_rng(17)
        n = code.n
        good = zero_llr(code, 2, rng)
        hopeless = rng.normal(0, 1, n).astype(np.float32)
        pieces = [good[0], np.zeros(n // 2, np.float32), hopeless, good[1],
                  np.zeros(7, np.float32)]
        tags, pos = [], 0
        for i, p in enumerate(pieces[:4]):
            tags.append(make_tag(pos, "packet_len", pmt.from_long(len(p))))
            tags.append(make_tag(pos + 1, "marker", pmt.from_long(i)))
            pos += len(p)
        tags.append(make_tag(pos + 2, "marker", pmt.from_long(4)))  # untagged items
        src = blocks.vector_source_f(np.concatenate(pieces).tolist(), False, 1, tags)
        dec = gpuldpc.ldpc_decoder(code, output="bits", pass_failed=False,
                                   max_iterations=5)
        snk = blocks.vector_sink_b()
        self.tb.connect(src, dec, snk)
        self.assertTrue(run_with_deadline(self.tb, 30))
        self.assertEqual(dec.frames(), 3)
        self.assertEqual(dec.dropped_frames(), 1)
        markers = sorted(pmt.to_long(t.value) for t in snk.tags()
                         if pmt.symbol_to_string(t.key) == "marker")
        self.assertEqual(markers, [0, 3])
        # the bad-length packet's, the dropped frame's and the untagged one's
        self.assertEqual(dec.dropped_tags(), 3)
        stats = dec.stats()
        self.assertEqual(pmt.to_uint64(pmt.dict_ref(stats, pmt.intern("dropped_tags"),
                                                    pmt.PMT_NIL)), 3)

    # -- a lone batch in chunks ---------------------------------------------

    def test_lone_batches_in_chunks_come_out_as_whole_batches(self):
        check_lone_batches_in_chunks(self, "cpu", "cpu")

    def test_chunk_frames_from_the_environment_are_checked(self):
        code = load("regular_3_6_n96_gf2.alist")
        for bad in ("-3", "", "4x", str(1 << 31), "99999999999999999999"):
            with chunk_frames_env(bad):
                with self.assertRaisesRegex(Exception, "GPULDPC_BLOCK_CHUNK_FRAMES"):
                    gpuldpc.ldpc_decoder(code)


if __name__ == "__main__":
    gr_unittest.run(qa_framing)
