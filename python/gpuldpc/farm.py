#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""A decoder farm: PDUs of soft frames decoded by ldpc_decoder flowgraphs on
other machines (or other GPUs of one machine) over ZeroMQ, and put back in
order.

The dispatching flowgraph holds a farm_decoder, a hier block with a "pdus"
input and a "pdus" output like ldpc_decoder's:

    pdus -> farm_sequencer -> zeromq PUSH (bound to `dispatch`)
    zeromq PULL (bound to `collect`) -> farm_reorder -> pdus

Each decoding machine runs a farm_worker (the gpuldpc-farm-worker program):

    zeromq PULL (connects to `dispatch`) -> farm_frame_counter -> ldpc_decoder
        -> zeromq PUSH (connects to `collect`)

A PUSH socket deals its messages to the connected workers in turn and holds
back once a worker's queue is full, so a slow worker gets fewer PDUs; the
results of all workers meet at the one PULL socket of the collector.

Ordering. The sequencer numbers the input PDUs (`farm_seq` in the metadata).
A worker's decoder turns a PDU of k frames into k PDUs, in order, each with
the input's metadata; the worker adds `farm_frames` = k, so the collector
knows when PDU s is complete. farm_reorder releases the frames of PDU s only
after every PDU before s, so the output order is the input order whatever
the number of workers or their speeds.

Losses are counted, never silent. A PDU whose results have not all arrived
is declared lost once a later PDU has waited `timeout` seconds for it, or at
once when more than `max_pending` later PDUs wait (a worker that died, or a
network that dropped it; PDUs missing one after another go together): the
frames of it that did arrive go out, the rest count as `lost_frames`, and a
warning names the sequence number. Nothing is declared lost while nothing
waits behind it. Results
arriving after that count as `late` and are dropped. A PDU a worker cannot
decode (a length that is not a whole number of frames) comes back as a
rejection and counts in `rejected_pdus` without waiting for the timeout.
Workers decode with pass_failed on, so every frame comes back, and the
decoder's `converged`, `iterations` and `syndrome_weight` annotations tell
the receiver which frames failed.
"""

import argparse
import collections
import sys
import threading
import time

import pmt
from gnuradio import gr

__all__ = ["farm_sequencer", "farm_reorder", "farm_frame_counter", "farm_decoder",
           "farm_worker", "KEY_SEQ", "KEY_FRAMES", "KEY_REJECTED", "worker_main"]

KEY_SEQ = pmt.intern("farm_seq")
KEY_FRAMES = pmt.intern("farm_frames")
KEY_REJECTED = pmt.intern("farm_rejected")
PORT = pmt.intern("pdus")


def _meta(msg):
    if not pmt.is_pair(msg):
        return None
    meta = pmt.car(msg)
    return meta if pmt.is_dict(meta) else pmt.make_dict()


def _dict_uint(meta, key):
    if meta is None or not pmt.dict_has_key(meta, key):
        return None
    value = pmt.dict_ref(meta, key, pmt.PMT_NIL)
    if pmt.is_uint64(value):
        return pmt.to_uint64(value)
    if pmt.is_integer(value):
        v = pmt.to_long(value)
        return v if v >= 0 else None
    return None


class farm_sequencer(gr.basic_block):
    """Numbers PDUs: adds `farm_seq` (0, 1, 2, ...) to each PDU's metadata.
    A message that is not a PDU (a pair of a dictionary or nil and a vector)
    is dropped and counted in `bad_messages`."""

    def __init__(self):
        gr.basic_block.__init__(self, name="farm_sequencer", in_sig=None, out_sig=None)
        self.message_port_register_in(PORT)
        self.message_port_register_out(PORT)
        self.set_msg_handler(PORT, self._handle)
        self.pdus = 0
        self.bad_messages = 0

    def _handle(self, msg):
        if not pmt.is_pair(msg) or not pmt.is_uniform_vector(pmt.cdr(msg)):
            self.bad_messages += 1
            gr.log.warn(f"farm_sequencer: dropped a message that is not a PDU "
                        f"({self.bad_messages} so far)")
            return
        meta = pmt.dict_add(_meta(msg), KEY_SEQ, pmt.from_uint64(self.pdus))
        self.pdus += 1
        self.message_port_pub(PORT, pmt.cons(meta, pmt.cdr(msg)))


class farm_reorder(gr.basic_block):
    """Puts the decoded frames of numbered PDUs back in the order of their
    numbers (see the module's documentation for the loss rules).

    Args:
        timeout: seconds a missing PDU may hold up later ones (> 0)
        max_pending: later PDUs held at most while one is missing (>= 1)
        strip_keys: remove farm_seq and farm_frames from the output metadata
    """

    def __init__(self, timeout=5.0, max_pending=4096, strip_keys=True):
        gr.basic_block.__init__(self, name="farm_reorder", in_sig=None, out_sig=None)
        if not timeout > 0:
            raise ValueError(f"farm_reorder: timeout must be > 0 seconds, got {timeout}")
        if int(max_pending) < 1:
            raise ValueError(f"farm_reorder: max_pending must be >= 1, got {max_pending}")
        self.timeout = float(timeout)
        self.max_pending = int(max_pending)
        self.strip_keys = bool(strip_keys)
        self.message_port_register_in(PORT)
        self.message_port_register_out(PORT)
        self.set_msg_handler(PORT, self._handle)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._thread = None
        self._reset()

    def _reset(self):
        self._next = 0          # the first sequence number not yet released
        self._pending = {}      # seq -> [expected frames, [PDUs]]
        self._arrivals = collections.deque()  # (time, seq) of each first arrival
        self.frames_out = 0
        self.pdus_complete = 0
        self.lost_pdus = 0
        self.lost_frames = 0
        self.rejected_pdus = 0
        self.late = 0
        self.unnumbered = 0
        self.dropped_at_stop = 0

    def stats(self):
        """Counters: frames_out, pdus_complete, lost_pdus, lost_frames (the
        missing frames of lost PDUs of which something arrived: a PDU of which
        nothing arrived has no known frame count), rejected_pdus, late,
        unnumbered, dropped_at_stop (frames waiting at stop()), pending (PDUs
        waiting)."""
        with self._lock:
            return {"frames_out": self.frames_out, "pdus_complete": self.pdus_complete,
                    "lost_pdus": self.lost_pdus, "lost_frames": self.lost_frames,
                    "rejected_pdus": self.rejected_pdus, "late": self.late,
                    "unnumbered": self.unnumbered, "dropped_at_stop": self.dropped_at_stop,
                    "pending": len(self._pending)}

    def start(self):
        self._stop_event.clear()
        self._thread = threading.Thread(target=self._watch, name="farm_reorder",
                                        daemon=True)
        self._thread.start()
        return True

    def stop(self):
        self._stop_event.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        with self._lock:
            waiting = sum(len(p[1]) for p in self._pending.values())
            self.dropped_at_stop += waiting
        if waiting:
            gr.log.warn(f"farm_reorder: stopped with {waiting} decoded frames of "
                        f"{len(self._pending)} PDUs waiting for earlier PDUs")
        return True

    def _watch(self):
        period = min(self.timeout / 4.0, 0.25)
        while not self._stop_event.wait(period):
            # published under the lock, so that two releases keep their order
            with self._lock:
                self._publish(self._release(time.monotonic()))

    def _publish(self, out):
        for msg in out:
            self.message_port_pub(PORT, msg)

    def _handle(self, msg):
        meta = _meta(msg)
        seq = _dict_uint(meta, KEY_SEQ)
        frames = _dict_uint(meta, KEY_FRAMES)
        with self._lock:
            if seq is None or frames is None:
                self.unnumbered += 1
                count = self.unnumbered
            elif seq < self._next:
                self.late += 1
                count = None
            else:
                count = None
                entry = self._pending.get(seq)
                if entry is None:
                    entry = self._pending[seq] = [frames, []]
                    self._arrivals.append((time.monotonic(), seq))
                if pmt.dict_has_key(meta, KEY_REJECTED):
                    entry[0] = 0
                    self.rejected_pdus += 1
                    gr.log.warn("farm_reorder: a worker rejected PDU {}: {}".format(
                        seq, pmt.symbol_to_string(
                            pmt.dict_ref(meta, KEY_REJECTED, pmt.intern("?")))))
                else:
                    entry[1].append(self._outgoing(msg, meta))
                self._publish(self._release(time.monotonic()))
        if count is not None and (count <= 10 or count % 1000 == 0):
            gr.log.warn(f"farm_reorder: dropped a message without farm_seq/farm_frames "
                        f"({count} so far)")

    def _outgoing(self, msg, meta):
        if not self.strip_keys:
            return msg
        meta = pmt.dict_delete(pmt.dict_delete(meta, KEY_SEQ), KEY_FRAMES)
        return pmt.cons(meta, pmt.cdr(msg))

    def _oldest_later_arrival(self):
        """When the first PDU after the head arrived (None: none waits)."""
        while self._arrivals and self._arrivals[0][1] < self._next:
            self._arrivals.popleft()
        for t, seq in self._arrivals:  # the head itself, then the first later
            if seq > self._next:
                return t
        return None

    def _release(self, now):
        """Releases what is in order; declares the head lost when later PDUs
        have waited `timeout` seconds, or more than `max_pending` of them
        wait. Called with the lock held."""
        out = []
        while self._pending:
            head = self._pending.get(self._next)
            if head is not None and len(head[1]) >= head[0]:
                out.extend(head[1])
                self.frames_out += len(head[1])
                self.pdus_complete += head[0] > 0
                del self._pending[self._next]
                self._next += 1
                continue
            since = self._oldest_later_arrival()
            if since is None:  # nothing waits behind the head
                break
            waiting = len(self._pending) - (head is not None)
            if waiting <= self.max_pending and now - since < self.timeout:
                break
            got = head[1] if head is not None else []
            out.extend(got)
            self.frames_out += len(got)
            self.lost_pdus += 1
            if head is not None:
                self.lost_frames += head[0] - len(got)
            gr.log.warn("farm_reorder: PDU {} declared lost ({}); {} PDUs lost so "
                        "far".format(self._next,
                                     "nothing of it arrived" if head is None else
                                     f"{head[0] - len(got)} of its {head[0]} frames "
                                     "missing", self.lost_pdus))
            self._pending.pop(self._next, None)
            self._next += 1
        return out


class farm_frame_counter(gr.basic_block):
    """The worker's first block: adds `farm_frames` (the PDU's frames for a
    decoder taking `frame_items` soft values a frame) and passes the PDU to
    the decoder; a PDU that is not a whole number of frames goes back on
    "rejects" as an empty PDU with `farm_rejected` saying why."""

    def __init__(self, frame_items, payload="float"):
        gr.basic_block.__init__(self, name="farm_frame_counter", in_sig=None,
                                out_sig=None)
        kinds = {"float": (pmt.is_f32vector,), "int8": (pmt.is_s8vector, pmt.is_u8vector),
                 "symbols": (pmt.is_c32vector,)}
        if payload not in kinds:
            raise ValueError(f"farm_frame_counter: payload must be one of "
                             f"{', '.join(kinds)}, got {payload!r}")
        self.payload = payload
        self._payload_ok = kinds[payload]
        if int(frame_items) < 1:
            raise ValueError(f"farm_frame_counter: frame_items must be >= 1, got "
                             f"{frame_items}")
        self.frame_items = int(frame_items)
        self.message_port_register_in(PORT)
        self.message_port_register_out(PORT)
        self.message_port_register_out(pmt.intern("rejects"))
        self.set_msg_handler(PORT, self._handle)
        self.rejected = 0

    def _handle(self, msg):
        meta = _meta(msg)
        vec = pmt.cdr(msg) if pmt.is_pair(msg) else None
        typed = vec is not None and any(ok(vec) for ok in self._payload_ok)
        n = pmt.length(vec) if typed else 0
        if n == 0 or n % self.frame_items or _dict_uint(meta, KEY_SEQ) is None:
            self.rejected += 1
            if _dict_uint(meta, KEY_SEQ) is None:
                why = "no farm_seq"
            elif not typed:
                why = f"not a PDU of the decoder's {self.payload} input"
            else:
                why = (f"{n} soft values, not a whole number of frames of "
                       f"{self.frame_items}")
            gr.log.warn(f"farm worker: rejected a PDU: {why} ({self.rejected} so far)")
            if meta is not None and _dict_uint(meta, KEY_SEQ) is not None:
                meta = pmt.dict_add(meta, KEY_FRAMES, pmt.from_uint64(0))
                meta = pmt.dict_add(meta, KEY_REJECTED, pmt.intern(why))
                self.message_port_pub(pmt.intern("rejects"),
                                      pmt.cons(meta, pmt.init_u8vector(0, [])))
            return
        meta = pmt.dict_add(meta, KEY_FRAMES, pmt.from_uint64(n // self.frame_items))
        self.message_port_pub(PORT, pmt.cons(meta, vec))


class farm_decoder(gr.hier_block2):
    """The dispatching end of a decoder farm (see the module's documentation):
    PDUs in on "pdus", decoded PDUs out on "pdus" in the input's order.

    Args:
        dispatch: ZeroMQ address the PDUs are dealt from, bound here
            (e.g. "tcp://*:5555"; workers connect to tcp://THIS_HOST:5555)
        collect: ZeroMQ address the results come back to, bound here
        timeout: seconds a missing PDU may hold up later ones
        max_pending: later PDUs held at most while one is missing
        zmq_timeout_ms: the ZeroMQ blocks' poll timeout
    """

    def __init__(self, dispatch="tcp://*:5555", collect="tcp://*:5556", timeout=5.0,
                 max_pending=4096, zmq_timeout_ms=100):
        gr.hier_block2.__init__(self, "farm_decoder", gr.io_signature(0, 0, 0),
                                gr.io_signature(0, 0, 0))
        from gnuradio import zeromq
        for name, value in (("dispatch", dispatch), ("collect", collect)):
            if not isinstance(value, str) or "://" not in value:
                raise ValueError(f"farm_decoder: {name} must be a ZeroMQ address such "
                                 f"as tcp://*:5555, got {value!r}")
        if dispatch == collect:
            raise ValueError("farm_decoder: dispatch and collect must be different "
                             f"addresses, both are {dispatch!r}")
        self.message_port_register_hier_in("pdus")
        self.message_port_register_hier_out("pdus")
        self.sequencer = farm_sequencer()
        self.push = zeromq.push_msg_sink(dispatch, zmq_timeout_ms, True)
        self.pull = zeromq.pull_msg_source(collect, zmq_timeout_ms, True)
        self.reorder = farm_reorder(timeout, max_pending)
        self.msg_connect(self, "pdus", self.sequencer, "pdus")
        self.msg_connect(self.sequencer, "pdus", self.push, "in")
        self.msg_connect(self.pull, "out", self.reorder, "pdus")
        self.msg_connect(self.reorder, "pdus", self, "pdus")

    def stats(self):
        """The reorder counters (farm_reorder.stats()) and `dispatched`."""
        s = self.reorder.stats()
        s["dispatched"] = self.sequencer.pdus
        return s


class farm_worker(gr.top_block):
    """A decoding end of a farm: PDUs from `dispatch` through an ldpc_decoder
    (made with `code` and the keyword arguments of ldpc_decoder, pass_failed
    forced on) to `collect`. Both addresses are connected to, e.g.
    tcp://dispatcher-host:5555 and tcp://dispatcher-host:5556."""

    def __init__(self, code, dispatch, collect, zmq_timeout_ms=100, **decoder_args):
        gr.top_block.__init__(self, "farm_worker")
        from gnuradio import zeromq
        from .gpuldpc_python import ldpc_decoder
        decoder_args["pass_failed"] = True
        decoder_args.setdefault("length_tag_key", "")
        self.decoder = ldpc_decoder(code, **decoder_args)
        self.pull = zeromq.pull_msg_source(dispatch, zmq_timeout_ms, False)
        self.counter = farm_frame_counter(self.decoder.input_frame_length(),
                                          decoder_args.get("input", "float"))
        self.push = zeromq.push_msg_sink(collect, zmq_timeout_ms, False)
        self.msg_connect(self.pull, "out", self.counter, "pdus")
        self.msg_connect(self.counter, "pdus", self.decoder, "pdus")
        self.msg_connect(self.counter, "rejects", self.push, "in")
        self.msg_connect(self.decoder, "pdus", self.push, "in")


def worker_main(argv=None):
    """gpuldpc-farm-worker: runs a farm_worker until interrupted."""
    p = argparse.ArgumentParser(
        prog="gpuldpc-farm-worker",
        description="Decode PDUs dealt by a farm_decoder over ZeroMQ and send the "
                    "results back (see gnuradio.gpuldpc.farm).")
    p.add_argument("--dispatch", required=True,
                   help="the farm_decoder's dispatch address, e.g. tcp://host:5555")
    p.add_argument("--collect", required=True,
                   help="the farm_decoder's collect address, e.g. tcp://host:5556")
    p.add_argument("--code", required=True,
                   help="the code: a shipped name, a file, or dvbs2:/nr:/wifi:/... "
                        "as for ldpc_decoder")
    p.add_argument("--device", default="auto", help="cpu, cuda, cuda:N, cuda:0,1, "
                   "cuda:all or auto (default auto)")
    for opt, what in (("--algorithm", "sum-product, min-sum, fft-bp, ..."),
                      ("--schedule", "flooding or layered"),
                      ("--messages", "fp32, fp16 or int8"),
                      ("--input", "float, int8, ... (the decoder's input kinds)"),
                      ("--output", "packed, bits or symbols")):
        p.add_argument(opt, help=f"ldpc_decoder's {opt[2:]}: {what} (default: the "
                       "decoder's)")
    p.add_argument("--max-iterations", type=int, help="default: the decoder's (50)")
    p.add_argument("--seconds", type=float, default=0.0,
                   help="stop after this many seconds (default: run until interrupted)")
    a = p.parse_args(argv)
    options = {k: v for k, v in (("algorithm", a.algorithm), ("schedule", a.schedule),
                                 ("messages", a.messages), ("input", a.input),
                                 ("output", a.output),
                                 ("max_iterations", a.max_iterations))
               if v is not None}
    w = farm_worker(a.code, a.dispatch, a.collect, device=a.device, **options)
    print(f"gpuldpc-farm-worker: {a.code} on {w.decoder.device_name()}, "
          f"{w.decoder.input_frame_length()} soft values a frame; pulling from "
          f"{a.dispatch}, pushing to {a.collect}", file=sys.stderr, flush=True)
    w.start()
    try:
        if a.seconds > 0:
            time.sleep(a.seconds)
        else:
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        pass
    w.stop()
    w.wait()
    print(f"gpuldpc-farm-worker: decoded {w.decoder.frames()} frames, "
          f"{w.decoder.failed_frames()} did not converge, {w.counter.rejected} PDUs "
          "rejected", file=sys.stderr)
    return 0
