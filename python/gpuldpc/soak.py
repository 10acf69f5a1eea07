#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Soak test of the LDPC decoder block (gpuldpc-soak).

--input pdus: the same on the block's "pdus" ports (see run_pdus()).

Frames whose information bits start with a 32-bit sequence number are
encoded, sent through BPSK over AWGN and fed, packet_len-tagged, to the
decoder block (CPU or GPU), with malformed input mixed in at random:

- packets of a wrong length (shorter or longer than a codeword),
- zero-length packets (a length tag of 0),
- length tags whose value is no length (a symbol), followed by untagged items,
- runs of untagged items (a missing tag),
- duplicated length tags on a good frame,
- NaN and infinite soft values inside a good frame.

At the end it checks that every good frame (those with NaN bursts and
duplicated tags included) came out exactly once, in order and intact, and
that the block counted every malformed input: bad_length, missing_tag_items
and invalid_inputs equal what was injected. It reports frames/s, the mean and
maximum latency (a chunk's generation to its frames' arrival at the sink) and
the growth of the process's resident memory after the first fifth of the run;
memory is flat when it grows less than --max-growth-mib (not checked under
AddressSanitizer, whose quarantine holds freed memory). Exit status 0 when
every check passes.
"""

import argparse
import collections
import json
import os
import sys
import threading
import time

import numpy as np
import pmt
from gnuradio import gr

from gnuradio import gpuldpc

SEQ_BITS = 32


def resident_mib():
    """The process's resident memory in MiB (Linux)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def progress(checked, total, seconds):
    print("[soak] %d/%d frames checked, %.0f frames/s, resident %.0f MiB" %
          (checked, total, checked / seconds, resident_mib()), file=sys.stderr)


class soak_source(gr.sync_block):
    """Tagged LLR stream of numbered frames with malformed input mixed in."""

    def __init__(self, code, frames, ebn0_db, bad_rate, seed, chunk=512):
        gr.sync_block.__init__(self, "soak_source", None, [np.float32])
        self.code, self.n, self.k = code, code.n, code.k
        if self.k < SEQ_BITS:
            raise ValueError("the code must carry at least %d information bits; "
                             "this one has k=%d" % (SEQ_BITS, self.k))
        self.total, self.chunk, self.bad_rate = frames, chunk, bad_rate
        self.sigma2 = 1.0 / (2.0 * code.rate * 10 ** (ebn0_db / 10.0))
        self.rng = np.random.default_rng(seed)
        self.key = pmt.intern("packet_len")
        self.made = 0
        self.pos = 0                       # absolute offset of the next item made
        self.pending = []                  # float32 arrays not yet output
        self.pending_items = 0
        self.tags = []                     # (offset, value) not yet output
        # (first sequence number, packed information bytes of each frame), and
        # (good frames made so far, time), taken by the sink as frames arrive
        self.expected = collections.deque()
        self.made_at = collections.deque()
        self.memory = []                   # (good frames made so far, resident MiB)
        self.injected = dict(wrong_length=0, zero_length=0, bad_value=0,
                             missing_tag_items=0, duplicated_tags=0,
                             invalid_inputs=0, nan_frames=0)

    def _append(self, values, tag=None):
        if tag is not None:
            self.tags.append((self.pos, tag))
        self.pending.append(values.astype(np.float32, copy=False))
        self.pending_items += len(values)
        self.pos += len(values)

    def _noise(self, count):
        return self.rng.normal(0.0, 3.0, count).astype(np.float32)

    def _refill(self):
        m = min(self.chunk, self.total - self.made)
        info = self.rng.integers(0, 2, size=(m, self.k), dtype=np.uint8)
        seq = np.arange(self.made, self.made + m, dtype=np.uint64)
        for b in range(SEQ_BITS):  # the sequence number, MSB first
            info[:, b] = (seq >> np.uint64(SEQ_BITS - 1 - b)) & np.uint64(1)
        cw = np.asarray(self.code.encode(info), dtype=np.float32)
        y = (1.0 - 2.0 * cw) + self.rng.normal(0.0, np.sqrt(self.sigma2), cw.shape)
        llr = (-2.0 / self.sigma2 * y).astype(np.float32)
        n, inj, p = self.n, self.injected, self.bad_rate
        for i in range(m):
            r = self.rng.random()
            if r < p:
                length = int(self.rng.integers(1, 2 * n))
                length += length >= n  # never n
                self._append(self._noise(length), pmt.from_long(length))
                inj["wrong_length"] += 1
            elif r < 2 * p:
                self.tags.append((self.pos, pmt.from_long(0)))
                inj["zero_length"] += 1
            elif r < 3 * p:
                count = int(self.rng.integers(1, 3 * n))
                self._append(self._noise(count), pmt.intern("no length"))
                inj["bad_value"] += 1
                inj["missing_tag_items"] += count
            elif r < 4 * p:
                count = int(self.rng.integers(1, 3 * n))
                self._append(self._noise(count))
                inj["missing_tag_items"] += count
            frame = llr[i]
            r = self.rng.random()
            if r < p:
                frame = frame.copy()
                bad = self.rng.choice(n, size=int(self.rng.integers(1, 4)), replace=False)
                frame[bad] = self.rng.choice([np.nan, np.inf, -np.inf], size=len(bad))
                inj["invalid_inputs"] += len(bad)
                inj["nan_frames"] += 1
            elif r < 2 * p:
                self.tags.append((self.pos, pmt.from_long(n)))
                inj["duplicated_tags"] += 1
            self._append(frame, pmt.from_long(n))
        self.expected.append((self.made, np.packbits(info, axis=1)))
        self.made += m
        self.made_at.append((self.made, time.monotonic()))
        self.memory.append((self.made, resident_mib()))

    def work(self, input_items, output_items):
        out = output_items[0]
        while self.pending_items < len(out) and self.made < self.total:
            self._refill()
        if self.pending_items == 0:
            return -1  # WORK_DONE
        buf = np.concatenate(self.pending) if len(self.pending) > 1 else self.pending[0]
        count = min(len(out), len(buf))
        out[:count] = buf[:count]
        first = self.nitems_written(0)
        keep = []
        for offset, value in self.tags:
            if offset < first + count:
                self.add_item_tag(0, offset, self.key, value)
            else:
                keep.append((offset, value))
        self.tags = keep
        self.pending = [buf[count:]] if count < len(buf) else []
        self.pending_items = len(buf) - count
        return count


class checking_sink(gr.sync_block):
    """Checks the decoded frames as they arrive against what the source made:
    in order, once, intact; keeps no more than the frames in flight."""

    def __init__(self, source, out_len):
        gr.sync_block.__init__(self, "checking_sink", [np.uint8], None)
        self.src, self.out_len = source, out_len
        self.partial = np.zeros(0, np.uint8)
        self.next = 0                       # the sequence number due next
        self.chunk_first, self.chunk = 0, np.zeros((0, out_len), np.uint8)
        self.frames = self.lost = self.duplicated = self.corrupted = 0
        self.latency_sum, self.latency_count, self.latency_max = 0.0, 0, 0.0

    def _expected(self, seq):
        while seq >= self.chunk_first + len(self.chunk) and self.src.expected:
            self.chunk_first, self.chunk = self.src.expected.popleft()
        if self.chunk_first <= seq < self.chunk_first + len(self.chunk):
            return self.chunk[seq - self.chunk_first]
        return None

    def work(self, input_items, output_items):
        data = input_items[0]
        now = time.monotonic()
        buf = np.concatenate((self.partial, data)) if len(self.partial) else data
        whole = len(buf) // self.out_len
        frames = buf[:whole * self.out_len].reshape(whole, self.out_len)
        seqs = (frames[:, :4].astype(np.uint64) @
                np.array([1 << 24, 1 << 16, 1 << 8, 1], dtype=np.uint64))
        for f, seq in zip(frames, seqs.tolist()):
            if seq < self.next:          # again, or out of order
                self.duplicated += 1
                continue
            self.lost += seq - self.next
            want = self._expected(seq)
            if want is None or not np.array_equal(f, want):
                self.corrupted += 1
            self.next = seq + 1
            self.frames += 1
        self.partial = buf[whole * self.out_len:].copy()
        # latency: a chunk's generation to the arrival of its last frame
        while self.src.made_at and self.src.made_at[0][0] <= self.next:
            _, t = self.src.made_at.popleft()
            self.latency_sum += now - t
            self.latency_count += 1
            self.latency_max = max(self.latency_max, now - t)
        return len(data)


class pdu_checker(gr.basic_block):
    """Checks the decoder's output PDUs (packed information bytes) as they
    arrive: in order, once, intact; the latency from each frame's posting."""

    def __init__(self, out_len):
        gr.basic_block.__init__(self, "pdu_checker", None, None)
        self.out_len = out_len
        self.port = pmt.intern("in")
        self.message_port_register_in(self.port)
        self.set_msg_handler(self.port, self.handle)
        self.lock = threading.Lock()
        self.expected = {}                 # seq -> (packed bytes, time posted)
        self.next = 0
        self.frames = self.lost = self.duplicated = self.corrupted = 0
        self.latency_sum, self.latency_count, self.latency_max = 0.0, 0, 0.0

    def expect(self, seq, packed, posted):
        with self.lock:
            self.expected[seq] = (packed, posted)

    def handle(self, msg):
        now = time.monotonic()
        data = pmt.cdr(msg) if pmt.is_pair(msg) else pmt.PMT_NIL
        payload = (np.array(pmt.u8vector_elements(data), dtype=np.uint8)
                   if pmt.is_u8vector(data) else np.zeros(0, np.uint8))
        with self.lock:
            if len(payload) != self.out_len:
                self.corrupted += 1
                return
            seq = int.from_bytes(payload[:4].tobytes(), "big")
            if seq < self.next:
                self.duplicated += 1
                return
            self.lost += seq - self.next
            want = self.expected.pop(seq, None)
            for skipped in range(self.next, seq):
                self.expected.pop(skipped, None)
            if want is None or not np.array_equal(payload, want[0]):
                self.corrupted += 1
            if want is not None:
                latency = now - want[1]
                self.latency_sum += latency
                self.latency_count += 1
                self.latency_max = max(self.latency_max, latency)
            self.next = seq + 1
            self.frames += 1


def run_pdus(args, code, dec):
    """The soak on the decoder's "pdus" ports: PDUs of 1 to 4 frames with
    malformed messages mixed in (a length that is no whole number of frames,
    no items, a u8vector or c32vector payload, a message that is no PDU), NaN
    and infinite values inside good frames, and good PDUs whose metadata is no
    dictionary."""
    rng = np.random.default_rng(args.seed)
    n, k = code.n, code.k
    sigma2 = 1.0 / (2.0 * code.rate * 10 ** (args.ebn0 / 10.0))
    checker = pdu_checker(dec.output_frame_length())
    tb = gr.top_block("gpuldpc-soak pdus")
    tb.msg_connect(dec, "pdus", checker, "in")
    port = pmt.intern("pdus")
    post = dec.to_basic_block()._post
    injected = dict(wrong_length=0, empty=0, wrong_type=0, not_a_pdu=0,
                    invalid_inputs=0, nan_frames=0, bad_metadata=0)
    memory = []
    window = 256  # good frames posted and not yet out, at most
    start = last = time.monotonic()
    tb.start()
    made, p = 0, args.bad_rate
    while made < args.frames and time.monotonic() - start < args.timeout:
        m = min(512, args.frames - made)
        info = rng.integers(0, 2, size=(m, k), dtype=np.uint8)
        seq = np.arange(made, made + m, dtype=np.uint64)
        for b in range(SEQ_BITS):
            info[:, b] = (seq >> np.uint64(SEQ_BITS - 1 - b)) & np.uint64(1)
        cw = np.asarray(code.encode(info), dtype=np.float32)
        y = (1.0 - 2.0 * cw) + rng.normal(0.0, np.sqrt(sigma2), cw.shape)
        llr = (-2.0 / sigma2 * y).astype(np.float32)
        packed = np.packbits(info, axis=1)
        i = 0
        while i < m:
            r = rng.random()
            if r < p:
                length = int(rng.integers(1, 3 * n))
                length += length % n == 0
                post(port, pmt.cons(pmt.make_dict(), pmt.init_f32vector(
                    length, rng.normal(0, 3, length).astype(np.float32).tolist())))
                injected["wrong_length"] += 1
            elif r < 2 * p:
                post(port, pmt.cons(pmt.make_dict(), pmt.init_f32vector(0, [])))
                injected["empty"] += 1
            elif r < 3 * p:
                bad = (pmt.init_u8vector(n, [0] * n) if rng.random() < 0.5
                       else pmt.init_c32vector(n, [0j] * n))
                post(port, pmt.cons(pmt.make_dict(), bad))
                injected["wrong_type"] += 1
            elif r < 4 * p:
                post(port, pmt.intern("no PDU") if rng.random() < 0.5
                     else pmt.from_long(7))
                injected["not_a_pdu"] += 1
            count = min(int(rng.integers(1, 5)), m - i)
            frames = llr[i:i + count].copy()
            if rng.random() < p:
                f = int(rng.integers(0, count))
                bad = rng.choice(n, size=int(rng.integers(1, 4)), replace=False)
                frames[f, bad] = rng.choice([np.nan, np.inf, -np.inf], size=len(bad))
                injected["invalid_inputs"] += len(bad)
                injected["nan_frames"] += 1
            meta = pmt.make_dict()
            if rng.random() < p:
                meta = pmt.from_long(3)  # not a dictionary: the PDU still counts
                injected["bad_metadata"] += 1
            now = time.monotonic()
            for j in range(count):
                checker.expect(made + i + j, packed[i + j], now)
            post(port, pmt.cons(meta, pmt.init_f32vector(count * n,
                                                         frames.ravel().tolist())))
            i += count
            while (made + i - checker.next > window and  # the decoder's pace
                   time.monotonic() - start < args.timeout):
                time.sleep(0.0005)
        made += m
        memory.append((made, resident_mib()))
        now = time.monotonic()
        if args.progress and now - last >= 5.0:
            last = now
            progress(checker.frames, args.frames, now - start)
    deadline = time.monotonic() + 30.0
    while checker.next < made and time.monotonic() < deadline:
        time.sleep(0.01)
    elapsed = time.monotonic() - start
    tb.stop()
    tb.wait()
    lost = checker.lost + (made - checker.next)
    counted_bad = (injected["wrong_length"] + injected["empty"] +
                   injected["wrong_type"] + injected["not_a_pdu"])
    checks = {
        "lost": lost == 0 and made == args.frames,
        "duplicated or reordered": checker.duplicated == 0,
        "intact": checker.corrupted == 0,
        "bad PDUs counted (bad_length)": dec.bad_length_frames() == counted_bad,
        "invalid_inputs counted": dec.invalid_inputs() == injected["invalid_inputs"],
    }
    return dict(frames=made, frames_out=checker.frames, lost=lost,
                duplicated_or_reordered=checker.duplicated, corrupted=checker.corrupted,
                injected=injected,
                counted={"bad_length": dec.bad_length_frames(),
                         "invalid_inputs": dec.invalid_inputs(),
                         "failed_frames": dec.failed_frames()},
                seconds=elapsed,
                frames_per_second=made / elapsed if elapsed > 0 else 0.0,
                latency_mean_ms=1e3 * checker.latency_sum / max(checker.latency_count, 1),
                latency_max_ms=1e3 * checker.latency_max,
                memory=memory, checks=checks)


def make_decoder(code, args):
    """The decoder block under test."""
    return gpuldpc.ldpc_decoder(code, algorithm=args.algorithm, device=args.device,
                                max_iterations=args.iterations, output="packed",
                                status_tags=False, stats_interval=1e9)


def run(args, code, dec):
    """The soak of the decoder block dec (made by make_decoder) on code."""
    if args.input == "pdus":
        report = run_pdus(args, code, dec)
        mem = report.pop("memory") or [(0, resident_mib())]
        base = next((mib for m, mib in mem if m >= args.frames // 5), mem[0][1])
        growth = mem[-1][1] - base
        asan = "libasan" in open("/proc/self/maps").read()
        if not asan:
            report["checks"]["memory flat"] = growth < args.max_growth_mib
        report.update(device=dec.device_name(), code=args.code, input="pdus",
                      resident_mib_start=base, resident_mib_end=mem[-1][1],
                      memory_growth_mib=growth, memory_checked=not asan)
        return report
    src = soak_source(code, args.frames, args.ebn0, args.bad_rate, args.seed)
    sink = checking_sink(src, dec.output_frame_length())
    tb = gr.top_block("gpuldpc-soak")
    tb.connect(src, dec, sink)
    start = last = time.monotonic()
    tb.start()
    waiter = threading.Thread(target=tb.wait)
    waiter.start()
    stopped = False
    while waiter.is_alive():
        waiter.join(0.5)
        now = time.monotonic()
        if args.progress and now - last >= 5.0:
            last = now
            progress(sink.frames, args.frames, now - start)
        if now - start > args.timeout and not stopped:
            print("[soak] --timeout=%g s reached: stopping" % args.timeout,
                  file=sys.stderr)
            stopped = True
            tb.stop()
    waiter.join()
    elapsed = time.monotonic() - start
    inj = src.injected
    good = src.made
    lost = sink.lost + (good - sink.next)  # the end of the run missing too
    mem = src.memory or [(0, resident_mib())]
    base = next((mib for m, mib in mem if m >= args.frames // 5), mem[0][1])
    growth = mem[-1][1] - base

    checks = {
        "lost": lost == 0,
        "duplicated or reordered": sink.duplicated == 0,
        "intact": sink.corrupted == 0,
        "bad_length counted": dec.bad_length_frames() ==
        inj["wrong_length"] + inj["zero_length"] + inj["bad_value"],
        "missing_tag_items counted": dec.missing_tag_items() == inj["missing_tag_items"],
        "invalid_inputs counted": dec.invalid_inputs() == inj["invalid_inputs"],
    }
    # AddressSanitizer holds freed memory in its quarantine (up to 256 MiB):
    # resident memory then says nothing about leaks
    asan = "libasan" in os.environ.get("LD_PRELOAD", "") or "libasan" in open(
        "/proc/self/maps").read()
    if not asan:
        checks["memory flat"] = growth < args.max_growth_mib

    report = {
        "device": dec.device_name(),
        "code": args.code,
        "frames": good,
        "frames_out": sink.frames,
        "lost": lost,
        "duplicated_or_reordered": sink.duplicated,
        "corrupted": sink.corrupted,
        "injected": inj,
        "counted": {
            "bad_length": dec.bad_length_frames(),
            "missing_tag_items": dec.missing_tag_items(),
            "invalid_inputs": dec.invalid_inputs(),
            "failed_frames": dec.failed_frames(),
        },
        "seconds": elapsed,
        "frames_per_second": good / elapsed if elapsed > 0 else 0.0,
        "latency_mean_ms": 1e3 * sink.latency_sum / max(sink.latency_count, 1),
        "latency_max_ms": 1e3 * sink.latency_max,
        "resident_mib_start": base,
        "resident_mib_end": mem[-1][1],
        "memory_growth_mib": growth,
        "memory_checked": not asan,
        "checks": checks,
    }
    return report


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="gpuldpc-soak",
        description="Soak test of the LDPC decoder block: numbered frames with "
        "malformed input mixed in; checks that no good frame is lost, duplicated, "
        "reordered or corrupted and that every malformed input is counted.")
    p.add_argument("--frames", type=int, default=100000,
                   help="good frames to send (default 100000)")
    p.add_argument("--code", default=gpuldpc.codes_dir() + "/regular_3_6_n96_gf2.alist",
                   help="parity-check matrix, at least 32 information bits "
                   "(default: the shipped (3,6) n = 96 code)")
    p.add_argument("--device", default="auto", help="auto, cpu, cuda or cuda:N")
    p.add_argument("--input", default="stream", choices=["stream", "pdus"],
                   help="a tagged stream (default) or PDUs on the 'pdus' ports")
    p.add_argument("--algorithm", default="auto", help="the decoder's algorithm")
    p.add_argument("--iterations", type=int, default=50, help="maximum iterations")
    p.add_argument("--ebn0", type=float, default=8.0,
                   help="Eb/N0 in dB of the channel (default 8: every frame decodes)")
    p.add_argument("--bad-rate", type=float, default=0.01,
                   help="probability of each kind of malformed input before a frame "
                   "(default 0.01)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-growth-mib", type=float, default=64.0,
                   help="resident memory growth allowed after the first fifth")
    p.add_argument("--timeout", type=float, default=3600.0, help="seconds at most")
    p.add_argument("--json", help="write the report here")
    p.add_argument("--progress", action="store_true", help="a line every 5 s")
    args = p.parse_args(argv)
    if args.frames < 1:
        p.error("--frames=%d: allowed: 1 or more" % args.frames)
    if not 0.0 <= args.bad_rate <= 0.2:
        p.error("--bad-rate=%g: allowed: 0 to 0.2" % args.bad_rate)
    if not (args.device in ("auto", "cpu", "cuda") or
            (args.device.startswith("cuda:") and args.device[5:].isdigit())):
        p.error("argument --device: '%s' is not one of auto, cpu, cuda, cuda:N" %
                args.device)
    try:
        code = gpuldpc.ldpc_code.load(args.code)
    except (ValueError, RuntimeError) as e:
        p.error("argument --code: %s" % e)
    if code.k < SEQ_BITS:
        p.error("argument --code: the code must carry at least %d information bits; "
                "this one has k=%d" % (SEQ_BITS, code.k))
    # as gpuldpc-sim: a bad argument is a usage error, a missing GPU (device
    # cuda without one, a build without CUDA) a one-line error, no traceback
    try:
        dec = make_decoder(code, args)
    except ValueError as e:
        p.error(str(e))
    except RuntimeError as e:
        print("gpuldpc-soak: error: %s" % e, file=sys.stderr)
        return 1
    report = run(args, code, dec)
    print("gpuldpc-soak on %s (%s): %d frames in %.1f s (%.0f frames/s), latency mean "
          "%.1f ms, max %.1f ms; resident memory %.0f -> %.0f MiB" %
          (report["device"], args.input, report["frames"], report["seconds"],
           report["frames_per_second"], report["latency_mean_ms"],
           report["latency_max_ms"], report["resident_mib_start"],
           report["resident_mib_end"]))
    print("  lost %d, duplicated or reordered %d, corrupted %d" %
          (report["lost"], report["duplicated_or_reordered"], report["corrupted"]))
    print("  injected %s" % json.dumps(report["injected"]))
    print("  counted  %s" % json.dumps(report["counted"]))
    failed = [name for name, ok in report["checks"].items() if not ok]
    print("  checks: " + ("all pass" if not failed else "FAILED: " + ", ".join(failed)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
