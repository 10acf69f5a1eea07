#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The decoder farm: ordering and loss rules of farm_reorder, and a loopback
farm of two workers over ZeroMQ on this machine whose output equals one
decoder's."""

import socket
import time

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest

from gnuradio import gpuldpc
from gnuradio.gpuldpc import farm


class captured_reorder(farm.farm_reorder):
    """farm_reorder with its output kept in a list (no flowgraph needed)."""

    def __init__(self, **kw):
        farm.farm_reorder.__init__(self, **kw)
        self.out = []

    def _publish(self, out):
        self.out.extend(out)


def result(seq, frames, tag, rejected=None):
    meta = pmt.dict_add(pmt.make_dict(), farm.KEY_SEQ, pmt.from_uint64(seq))
    meta = pmt.dict_add(meta, farm.KEY_FRAMES, pmt.from_uint64(frames))
    if rejected:
        meta = pmt.dict_add(meta, farm.KEY_REJECTED, pmt.intern(rejected))
    return pmt.cons(meta, pmt.init_u8vector(2, [seq % 256, tag]))


def payloads(msgs):
    return [tuple(pmt.u8vector_elements(pmt.cdr(m))) for m in msgs]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class qa_farm(gr_unittest.TestCase):

    def test_reorder_puts_any_arrival_order_back(self):
        rng = np.random.default_rng(7)
        frames = rng.integers(1, 4, 60)
        arrivals = [(s, j) for s in range(60) for j in range(frames[s])]
        # a worker's frames of one PDU stay in order; PDUs interleave freely
        order = rng.permutation(len(arrivals))
        by_seq = {s: iter(range(frames[s])) for s in range(60)}
        r = captured_reorder(timeout=100.0, max_pending=1000)
        for i in order:
            s = arrivals[i][0]
            r._handle(result(s, frames[s], next(by_seq[s])))
        expected = [(s % 256, j) for s, j in arrivals]
        self.assertEqual(payloads(r.out), expected)
        st = r.stats()
        self.assertEqual((st["frames_out"], st["pdus_complete"], st["lost_pdus"],
                          st["pending"]), (len(arrivals), 60, 0, 0))
        # farm keys removed from what goes out
        self.assertFalse(pmt.dict_has_key(pmt.car(r.out[0]), farm.KEY_SEQ))

    def test_a_missing_pdu_is_declared_lost_past_max_pending(self):
        r = captured_reorder(timeout=100.0, max_pending=3)
        r._handle(result(0, 1, 0))
        r._handle(result(1, 2, 0))  # PDU 1: one of its two frames arrives
        for s in (2, 3, 4):
            r._handle(result(s, 1, 0))
        self.assertEqual(payloads(r.out), [(0, 0)])
        r._handle(result(5, 1, 0))  # a fourth PDU waits: PDU 1 is lost
        self.assertEqual(payloads(r.out), [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0),
                                           (5, 0)])
        st = r.stats()
        self.assertEqual((st["lost_pdus"], st["lost_frames"], st["frames_out"]), (1, 1, 6))
        r._handle(result(1, 2, 1))  # its second frame, too late
        self.assertEqual(r.stats()["late"], 1)
        self.assertEqual(len(r.out), 6)

    def test_a_missing_pdu_is_declared_lost_after_the_timeout(self):
        r = captured_reorder(timeout=0.5, max_pending=1000)
        r._handle(result(1, 1, 0))
        r._handle(result(2, 1, 0))
        self.assertEqual(r.out, [])
        with r._lock:
            self.assertEqual(r._release(time.monotonic() + 0.1), [])
            out = r._release(time.monotonic() + 0.6)
        self.assertEqual(payloads(out), [(1, 0), (2, 0)])
        st = r.stats()
        # nothing of PDU 0 arrived: a lost PDU whose frame count is unknown
        self.assertEqual((st["lost_pdus"], st["lost_frames"], st["pending"]), (1, 0, 0))

    def test_missing_pdus_in_a_row_go_together_and_a_lone_head_waits(self):
        r = captured_reorder(timeout=0.5, max_pending=1000)
        r._handle(result(0, 2, 0))  # half of PDU 0, nothing behind it
        with r._lock:
            self.assertEqual(r._release(time.monotonic() + 10.0), [])
        r._handle(result(3, 1, 0))  # PDUs 1 and 2 missing, 3 waits
        with r._lock:
            out = r._release(time.monotonic() + 0.6)
        # PDU 0 (one frame missing), 1 and 2 (nothing arrived) lost at once
        self.assertEqual(payloads(out), [(0, 0), (3, 0)])
        st = r.stats()
        self.assertEqual((st["lost_pdus"], st["lost_frames"], st["pending"]), (3, 1, 0))

    def test_the_worker_rejects_a_payload_of_another_type(self):
        c = farm.farm_frame_counter(4, "float")
        sent = []
        c.message_port_pub = lambda port, msg: sent.append((pmt.symbol_to_string(port),
                                                             msg))
        meta = pmt.dict_add(pmt.make_dict(), farm.KEY_SEQ, pmt.from_uint64(7))
        c._handle(pmt.cons(meta, pmt.init_s8vector(8, [0] * 8)))
        c._handle(pmt.cons(meta, pmt.init_f32vector(6, [0.0] * 6)))
        c._handle(pmt.cons(meta, pmt.init_f32vector(8, [0.0] * 8)))
        self.assertEqual([p for p, _ in sent], ["rejects", "rejects", "pdus"])
        self.assertEqual(c.rejected, 2)
        self.assertIn("float input", pmt.symbol_to_string(
            pmt.dict_ref(pmt.car(sent[0][1]), farm.KEY_REJECTED, pmt.PMT_NIL)))
        self.assertEqual(pmt.to_uint64(pmt.dict_ref(pmt.car(sent[2][1]), farm.KEY_FRAMES,
                                                    pmt.PMT_NIL)), 2)
        with self.assertRaisesRegex(ValueError, "payload"):
            farm.farm_frame_counter(4, "bytes")

    def test_rejections_and_unnumbered_messages_are_counted(self):
        r = captured_reorder(timeout=100.0)
        r._handle(result(0, 0, 0, rejected="7 soft values"))
        r._handle(result(1, 1, 9))
        r._handle(pmt.cons(pmt.make_dict(), pmt.init_u8vector(1, [0])))
        self.assertEqual(payloads(r.out), [(1, 9)])
        st = r.stats()
        self.assertEqual((st["rejected_pdus"], st["unnumbered"], st["pdus_complete"]),
                         (1, 1, 1))

    def test_bad_arguments_are_named(self):
        with self.assertRaisesRegex(ValueError, "timeout"):
            farm.farm_reorder(timeout=0)
        with self.assertRaisesRegex(ValueError, "max_pending"):
            farm.farm_reorder(max_pending=0)
        with self.assertRaisesRegex(ValueError, "dispatch"):
            farm.farm_decoder(dispatch="5555")
        with self.assertRaisesRegex(ValueError, "different"):
            farm.farm_decoder(dispatch="tcp://*:5555", collect="tcp://*:5555")
        with self.assertRaisesRegex(ValueError, "frame_items"):
            farm.farm_frame_counter(0)

    def test_loopback_farm_of_two_workers_equals_one_decoder(self):
        code_name = "regular_3_6_n1008_gf2"
        code = gpuldpc.ldpc_code.load(code_name)
        dispatch_port, collect_port = free_port(), free_port()
        tb = gr.top_block()
        f = farm.farm_decoder(f"tcp://127.0.0.1:{dispatch_port}",
                              f"tcp://127.0.0.1:{collect_port}", timeout=30.0)
        sink = blocks.message_debug()
        tb.msg_connect(f, "pdus", sink, "store")
        workers = [farm.farm_worker(code_name, f"tcp://127.0.0.1:{dispatch_port}",
                                    f"tcp://127.0.0.1:{collect_port}", device="cpu",
                                    max_iterations=20)
                   for _ in range(2)]
        # frames near the waterfall, so that some fail and come back failed
        rng = np.random.default_rng(3)
        sizes = [1 + (i % 4) for i in range(40)]
        total = sum(sizes)
        info = rng.integers(0, 2, (total, code.k), dtype=np.uint8)
        cw = np.array([code.encode(row) for row in info], dtype=np.uint8)
        llr = (2.0 * (1.0 - 2.0 * cw) / 0.8 +
               rng.normal(0.0, 2.0 / np.sqrt(0.8), cw.shape)).astype(np.float32)
        reference = gpuldpc.batch_decoder(code, device="cpu", max_iterations=20)
        expected_bits, expected_status = reference.decode(llr)
        tb.start()
        for w in workers:
            w.start()
        time.sleep(1.0)  # both workers connected, so that the PUSH socket deals to both
        first = 0
        for i, k in enumerate(sizes):
            vec = llr[first:first + k].ravel()
            f.sequencer._post(pmt.intern("pdus"),
                              pmt.cons(pmt.make_dict(), pmt.init_f32vector(len(vec), vec)))
            first += k
            if i == 20:  # a PDU of a wrong length in the middle
                f.sequencer._post(pmt.intern("pdus"),
                                  pmt.cons(pmt.make_dict(), pmt.init_f32vector(5, [0.0] * 5)))
        deadline = time.monotonic() + 60
        while sink.num_messages() < total and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)  # nothing more should arrive
        st = f.stats()
        tb.stop()
        tb.wait()
        for w in workers:
            w.stop()
            w.wait()
        self.assertEqual(sink.num_messages(), total)
        self.assertEqual((st["dispatched"], st["pdus_complete"], st["rejected_pdus"],
                          st["lost_pdus"], st["late"], st["frames_out"]),
                         (len(sizes) + 1, len(sizes), 1, 0, 0, total))
        worker_frames = [w.decoder.frames() for w in workers]
        self.assertEqual(sum(worker_frames), total)
        self.assertTrue(all(x > 0 for x in worker_frames), worker_frames)
        k_bytes = (code.k + 7) // 8
        failed = 0
        for j in range(total):
            msg = sink.get_message(j)
            got = np.array(pmt.u8vector_elements(pmt.cdr(msg)), dtype=np.uint8)
            self.assertEqual(len(got), k_bytes)
            np.testing.assert_array_equal(
                np.unpackbits(got)[:code.k], expected_bits[j], err_msg=f"frame {j}")
            converged = pmt.to_bool(pmt.dict_ref(pmt.car(msg),
                                                 pmt.intern("ldpc_converged"),
                                                 pmt.PMT_NIL))
            self.assertEqual(converged, bool(expected_status[j]["converged"]))
            failed += not converged
        self.assertGreater(failed, 0)
        self.assertLess(failed, total)


if __name__ == "__main__":
    gr_unittest.run(qa_farm)
