#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The packet link: framing, bursts, and the simulated twin (transmitter ->
channels.channel_model with noise, frequency offset, timing offset and three
taps -> receiver) against the decoder alone on an AWGN channel."""

import os
import socket
import subprocess
import sys
import tempfile
import time

import numpy as np
from gnuradio import blocks, channels, gr, gr_unittest

from gnuradio import gpuldpc
from gnuradio.gpuldpc import link_app

CODE = "wifi:1944:1/2"
TAPS = gpuldpc.link.EXAMPLE_TAPS
AMPLITUDE = 0.5  # packet_link_tx's default


def run_link(fmt, payloads, esn0_db, freq, epsilon, taps, seed):
    """Sends the payloads through the twin; returns the receiver. Es/N0 is
    at the receiver input: the symbol energy after the channel over N0."""
    tb = gr.top_block()
    data = np.concatenate([np.frombuffer(p, dtype=np.uint8) for p in payloads])
    lengths = [len(p) for p in payloads]
    src = blocks.vector_source_b(data.tolist(), False, 1,
                                 link_tags(lengths))
    tx = gpuldpc.packet_link_tx(fmt)
    noise_voltage = gpuldpc.link.channel_noise_voltage(fmt, esn0_db, AMPLITUDE, taps)
    ch = channels.channel_model(noise_voltage, freq, 1.0 + epsilon, list(taps), seed,
                                False)
    rx = gpuldpc.packet_link_rx(fmt, device="cpu")
    tb.connect(src, tx, ch, rx)
    tb.run()
    return rx


link_tags = gpuldpc.link.length_tags


def delivered(rx, payloads):
    """Payloads the receiver gave back intact, by sequence number."""
    return sum(1 for seq, p in rx.received()
               if seq < len(payloads) and bytes(p) == payloads[seq])


class qa_link(gr_unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.fmt = gpuldpc.link_format(CODE, "qpsk")

    def test_format_arguments_named(self):
        with self.assertRaisesRegex(ValueError, "sps=1"):
            gpuldpc.link_format(CODE, "qpsk", sps=1)
        with self.assertRaisesRegex(ValueError, "rolloff=0"):
            gpuldpc.link_format(CODE, "qpsk", rolloff=0)
        with self.assertRaisesRegex(ValueError, "binary"):
            gpuldpc.link_format(_gf4_code(), "qpsk")
        tiny = _code_from_text("4 2\n2 3\n1 1 2 2\n3 3\n1 0\n2 0\n1 2\n1 2\n1 3 4\n2 3 4\n")
        with self.assertRaisesRegex(ValueError, "4 transmitted bits .* 8psk"):
            gpuldpc.link_format(tiny, "8psk")
        with self.assertRaisesRegex(ValueError, "holds no payload byte"):
            gpuldpc.link_format(tiny, "bpsk")

    def test_modulations_are_the_modules_gray_constellations(self):
        # the short names and the prefixed ones name the same constellation,
        # whose labels are the code bits that soft_demapper_cf gives back
        self.assertEqual((self.fmt.modulation, self.fmt.constellation),
                         ("qpsk", "gpuldpc-qpsk"))
        fmt = gpuldpc.link_format(CODE, "gpuldpc-16qam")
        self.assertEqual((fmt.modulation, fmt.constellation), ("16qam", "gpuldpc-16qam"))
        np.testing.assert_array_equal(
            fmt.points, np.asarray(gpuldpc.constellation("gpuldpc-16qam").points,
                                   dtype=np.complex64))
        with self.assertRaisesRegex(ValueError, "modulation='32qam' is unknown; allowed: "
                                    "bpsk, qpsk, 8psk, 16qam, 64qam, 256qam"):
            gpuldpc.link_format(CODE, "32qam")

    def test_frame_bits_round_trip_and_crc(self):
        fmt = self.fmt
        self.assertEqual(fmt.max_payload, 972 // 8 - 8)
        payload = bytes(range(1, 40))
        bits = fmt.frame_bits(payload, 65535 + 3)
        self.assertEqual(len(bits), fmt.k)
        self.assertEqual(fmt.parse_bits(bits), (True, 2, payload))
        for flip in (0, 17, 8 * (fmt.k // 8) - 1):  # header, payload, CRC
            bad = bits.copy()
            bad[flip] ^= 1
            self.assertFalse(fmt.parse_bits(bad)[0])
        with self.assertRaisesRegex(ValueError, "allowed: 1 to 113"):
            fmt.frame_bits(bytes(114), 0)
        # layout: the preamble, then pilots after every 32 data symbols and the last
        self.assertEqual(fmt.n_data, 972)
        self.assertEqual(len(fmt.known_index), 192 + 2 * (972 // 32 + 1))
        self.assertEqual(fmt.n_symbols, fmt.n_data + len(fmt.known_index))

    def test_noiseless_bursts_every_packet_in_order(self):
        # payloads of every length class, both signs of frequency offset
        rng = np.random.default_rng(3)
        payloads = [rng.integers(0, 256, n, dtype=np.uint8).tobytes()
                    for n in (1, 2, 50, 112, 113) * 4]
        for freq in (1e-3, -1e-3):
            rx = run_link(self.fmt, payloads, 40.0, freq, 1e-4, TAPS, 11)
            got = rx.received()
            self.assertEqual([s for s, _ in got], list(range(len(payloads))))
            self.assertEqual([bytes(p) for _, p in got], payloads)
            s = rx.stats()
            self.assertEqual((s["detected"], s["crc_failures"], s["missed"]),
                             (len(payloads), 0, 0))

    def test_bad_packets_counted_not_sent(self):
        fmt = self.fmt
        payloads = [b"a" * 10, b"b" * 114, b"c" * 10]  # the middle one is too long
        tb = gr.top_block()
        data = np.frombuffer(b"".join(payloads), dtype=np.uint8)
        src = blocks.vector_source_b(data.tolist(), False, 1, link_tags([10, 114, 10]))
        tx = gpuldpc.packet_link_tx(fmt)
        snk = blocks.vector_sink_c()
        tb.connect(src, tx, snk)
        tb.run()
        self.assertEqual(tx.framer.bad_packets, 1)
        self.assertEqual(tx.framer.packets, 2)
        self.assertEqual(len(snk.data()), 2 * fmt.burst_samples)

    def test_incomplete_last_packet_ends_the_stream(self):
        # the last tag promises 50 bytes, 20 come: the stream still ends
        fmt = self.fmt
        tb = gr.top_block()
        data = np.arange(10 + 20, dtype=np.uint8)
        src = blocks.vector_source_b(data.tolist(), False, 1, link_tags([10, 50]))
        tx = gpuldpc.packet_link_tx(fmt)
        snk = blocks.vector_sink_c()
        tb.connect(src, tx, snk)
        tb.run()
        self.assertEqual(tx.framer.packets, 1)
        self.assertEqual(len(snk.data()), fmt.burst_samples)

    def test_non_finite_samples_skip_their_burst_only(self):
        fmt = self.fmt
        payloads = [bytes([i]) * 40 for i in range(6)]
        tb = gr.top_block()
        data = np.frombuffer(b"".join(payloads), dtype=np.uint8)
        src = blocks.vector_source_b(data.tolist(), False, 1, link_tags([40] * 6))
        tx = gpuldpc.packet_link_tx(fmt)
        snk = blocks.vector_sink_c()
        tb.connect(src, tx, snk)
        tb.run()
        samples = np.array(snk.data(), dtype=np.complex64)
        samples[2 * fmt.burst_samples + 700] = np.nan  # inside burst 2
        samples[4 * fmt.burst_samples + 1500] = np.inf  # inside burst 4
        tb = gr.top_block()
        rx = gpuldpc.packet_link_rx(fmt, device="cpu")
        tb.connect(blocks.vector_source_c(samples.tolist()), rx)
        tb.run()
        self.assertEqual(rx.stats()["bad_bursts"], 2)
        self.assertEqual([(s, bytes(p)) for s, p in rx.received()],
                         [(i, payloads[i]) for i in (0, 1, 3, 5)])
        with self.assertRaisesRegex(ValueError, "guard=4"):
            gpuldpc.link.burst_synchronizer(gpuldpc.link_format(CODE, "qpsk", guard=4))

    def test_twin_within_1db_of_the_decoder_alone(self):
        """At Es/N0 = 2.25 dB (the receiver's input, QPSK, rate 1/2) at least
        99 % of 1000 packets pass CRC through noise, a frequency offset of
        +-1e-3 cycles/sample, epsilon = 1e-4 and three taps; the decoder alone
        on AWGN at 1.25 dB has FER above 1e-2 (so its FER 1e-2 point lies
        within 1 dB below)."""
        fmt = self.fmt
        esn0 = 2.25
        # decoder alone: the same decoder settings as packet_link_rx
        dec = gpuldpc.batch_decoder(fmt.code, algorithm="min-sum", schedule="layered",
                                    max_iterations=20, device="cpu")
        sim = gpuldpc.sim.channel(fmt.code, "qpsk")
        rng = np.random.default_rng(7)
        frames = 1000
        info = rng.integers(0, 2, (frames, fmt.code.k), dtype=np.uint8)
        bits, _ = sim.decode(dec, fmt.code.encode(info), esn0 - 1.0, rng)
        errors = int(np.any(bits != info, axis=1).sum())
        # the FER's lower 3-sigma bound (binomial) above 1e-2
        p = errors / frames
        self.assertGreater(p - 3 * np.sqrt(p * (1 - p) / frames), 1e-2,
                           f"decoder alone at {esn0 - 1} dB: {errors} of {frames}")

        rng = np.random.default_rng(5)
        packets = 1000
        payloads = [rng.integers(0, 256, fmt.max_payload, dtype=np.uint8).tobytes()
                    for _ in range(packets)]
        for freq, seed in ((1e-3, 21), (-1e-3, 22)):
            start = time.time()
            rx = run_link(fmt, payloads, esn0, freq, 1e-4, TAPS, seed)
            seconds = time.time() - start
            good = delivered(rx, payloads)
            s = rx.stats()
            print(f"twin at {esn0} dB, offset {freq:+g}: {good}/{packets} delivered, "
                  f"{s['detected']} detected, {s['crc_failures']} CRC failures, "
                  f"{s['missed']} missed, {s['avg_iterations']:.2f} iterations, "
                  f"{packets / seconds:.0f} packets/s")
            self.assertGreaterEqual(good, 990)
            self.assertEqual(len(rx.received()), good)  # nothing wrong passed the CRC


class qa_link_rate(gr_unittest.TestCase):

    def test_rate_reads_zero_while_idle_and_ignores_idle_time(self):
        """The counter lines' packets/s: over the interval since the line
        before (0 while nothing arrives, not a figure decaying with the time
        since the start) and, on the last line, over the active period."""
        rate = link_app.packet_rate(0.0)
        self.assertIsNone(rate.active())
        rate.burst_seen(10.0)  # 10 s of waiting for the transmitter
        for i in range(1, 101):
            rate.packet(10.0 + 0.01 * i)  # 100 packets a second for 1 s
        self.assertAlmostEqual(rate.recent(11.0), 100 / 11.0)
        self.assertEqual(rate.recent(12.0), 0.0)
        self.assertEqual(rate.recent(60.0), 0.0)
        self.assertAlmostEqual(rate.active(), 100.0)
        # a packet whose burst no poll saw: no figure instead of 1000/s
        lone = link_app.packet_rate(0.0)
        lone.packet(5.0)
        self.assertIsNone(lone.active())


def link_program():
    """The gpuldpc-link program of the build tree, or the module's main."""
    path = os.environ.get("GPULDPC_LINK")
    if path and os.path.exists(path):
        return [sys.executable, path]
    return [sys.executable, "-m", "gnuradio.gpuldpc.link_app"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class qa_link_programs(gr_unittest.TestCase):

    def test_zmq_twin_two_processes_same_bytes(self):
        """gpuldpc-link tx (with a simulated channel) and gpuldpc-link rx as two
        processes over ZeroMQ: the receiver writes the bytes that were sent."""
        try:
            from gnuradio import zeromq  # noqa: F401 (Debian: python3-zmq, a
        except ImportError as e:         # dependency of the gnuradio package)
            self.skipTest(f"gnuradio.zeromq is not importable here: {e}")
        rng = np.random.default_rng(9)
        data = rng.integers(0, 256, 30 * 113 + 57, dtype=np.uint8).tobytes()
        packets = 31
        with tempfile.TemporaryDirectory() as d:
            sent, got = os.path.join(d, "sent.bin"), os.path.join(d, "got.bin")
            with open(sent, "wb") as f:
                f.write(data)
            address = f"tcp://127.0.0.1:{free_port()}"
            common = ["--radio", "zmq", "--address", address, "--code", CODE]
            rx = subprocess.Popen(link_program() + ["rx"] + common + [
                "--output", got, "--packets", str(packets), "--duration", "90",
                "--device", "cpu", "--quiet"], stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True)
            tx = subprocess.run(link_program() + ["tx"] + common + [
                "--input", sent, "--channel-esn0", "8", "--channel-freq", "1e-3",
                "--channel-epsilon", "1e-4"], capture_output=True, text=True,
                timeout=120)
            self.assertEqual(tx.returncode, 0, tx.stderr)
            self.assertIn(f"{packets} packets sent", tx.stderr)
            out, err = rx.communicate(timeout=120)
            self.assertEqual(rx.returncode, 0, err)
            self.assertIn(f"{packets} decoded, 0 CRC failures, 0 missed", err)
            with open(got, "rb") as f:
                self.assertEqual(f.read(), data)

    def _zmq_or_skip(self):
        try:
            from gnuradio import zeromq  # noqa: F401
        except ImportError as e:
            self.skipTest(f"gnuradio.zeromq is not importable here: {e}")

    def test_rx_writes_each_packet_and_stops_at_the_end_of_input(self):
        """Over ZeroMQ, whose stream never ends: the output file holds each
        payload while rx still runs (written and flushed packet by packet),
        and rx stops by itself --idle-timeout seconds after the last burst."""
        self._zmq_or_skip()
        data = np.random.default_rng(4).integers(0, 256, 12 * 113, dtype=np.uint8).tobytes()
        with tempfile.TemporaryDirectory() as d:
            sent, got = os.path.join(d, "sent.bin"), os.path.join(d, "got.bin")
            with open(sent, "wb") as f:
                f.write(data)
            common = ["--radio", "zmq", "--address", f"tcp://127.0.0.1:{free_port()}",
                      "--code", CODE]
            rx = subprocess.Popen(link_program() + ["rx"] + common + [
                "--output", got, "--packets", "0", "--idle-timeout", "4", "--device",
                "cpu", "--stats-interval", "60"], stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True)
            try:
                tx = subprocess.run(link_program() + ["tx"] + common + ["--input", sent],
                                    capture_output=True, text=True, timeout=120)
                self.assertEqual(tx.returncode, 0, tx.stderr)
                deadline = time.monotonic() + 60
                while (not os.path.exists(got) or os.path.getsize(got) < len(data)) and \
                        rx.poll() is None and time.monotonic() < deadline:
                    time.sleep(0.02)
                self.assertIsNone(rx.poll(), "rx ended before its output was complete")
                with open(got, "rb") as f:
                    self.assertEqual(f.read(), data)
                out, err = rx.communicate(timeout=60)  # no --packets, no --duration
            finally:
                if rx.poll() is None:
                    rx.kill()
                    rx.communicate()
            self.assertEqual(rx.returncode, 0, err)
            self.assertIn("12 decoded, 0 CRC failures, 0 missed", err)
            self.assertIn("rx: stopped: no burst for 4 s (--idle-timeout)", err)

    def test_rx_stops_after_packets(self):
        """rx --packets 10 ends by itself while the transmitter sends 40, and
        writes the payloads of those 10 frames only."""
        self._zmq_or_skip()
        with tempfile.TemporaryDirectory() as d:
            got = os.path.join(d, "got.bin")
            common = ["--radio", "zmq", "--address", f"tcp://127.0.0.1:{free_port()}",
                      "--code", CODE]
            rx = subprocess.Popen(link_program() + ["rx"] + common + [
                "--output", got, "--packets", "10", "--idle-timeout", "0", "--device",
                "cpu"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:
                tx = subprocess.run(link_program() + ["tx"] + common + ["--packets", "40"],
                                    capture_output=True, text=True, timeout=120)
                self.assertEqual(tx.returncode, 0, tx.stderr)
                out, err = rx.communicate(timeout=60)
            finally:
                if rx.poll() is None:
                    rx.kill()
                    rx.communicate()
            self.assertEqual(rx.returncode, 0, err)
            self.assertIn("rx: stopped: 10 frames (--packets)", err)
            size = gpuldpc.link_format(CODE).max_payload
            with open(got, "rb") as f:
                self.assertEqual(f.read(), b"".join(gpuldpc.link.test_payload(i, size)
                                                    for i in range(10)))

    def _fails_in_one_line(self, args, expected):
        """The program exits with status 1 and one line of its own on
        stderr, no traceback; returns that line."""
        res = subprocess.run(link_program() + args, capture_output=True, text=True,
                             timeout=120)
        self.assertEqual(res.returncode, 1, res.stderr)
        self.assertNotIn("Traceback", res.stderr)
        lines = [x for x in res.stderr.splitlines() if x.startswith("gpuldpc-link:")]
        self.assertEqual(len(lines), 1, res.stderr)
        self.assertIn(expected, lines[0])
        return lines[0]

    def test_what_cannot_be_opened_is_named(self):
        with tempfile.TemporaryDirectory() as d:
            missing = os.path.join(d, "missing.c64")
            self._fails_in_one_line(
                ["rx", "--radio", "file", "--file", missing],
                f"gpuldpc-link: cannot read --file '{missing}': No such file or directory")
            self._fails_in_one_line(
                ["tx", "--radio", "file", "--file", os.path.join(d, "no", "x.c64")],
                f"cannot write --file '{os.path.join(d, 'no', 'x.c64')}'")
            self._fails_in_one_line(
                ["tx", "--radio", "file", "--file", os.path.join(d, "x.c64"), "--input",
                 missing], f"cannot read --input '{missing}': No such file or directory")
            self.assertFalse(os.path.exists(os.path.join(d, "x.c64")))

    def test_radios_need_and_name_their_arguments(self):
        # SoapySDR would open the first device of any driver: the link wants one named
        self._fails_in_one_line(["rx", "--radio", "soapy"],
                                "--radio soapy needs --args naming the device, e.g. "
                                "--args driver=hackrf")
        try:
            from gnuradio import soapy  # noqa: F401
        except ImportError:
            self._fails_in_one_line(["rx", "--radio", "soapy", "--args", "driver=none"],
                                    "--radio soapy: cannot import gnuradio.soapy")
            return
        # no such device on any machine: the error names the radio, its
        # arguments and what to check
        line = self._fails_in_one_line(
            ["tx", "--radio", "soapy", "--args", "driver=gpuldpc_no_such_driver"],
            "cannot open the radio (soapy, args 'driver=gpuldpc_no_such_driver'): ")
        self.assertIn("check that it is plugged in and that --args names it "
                      "(SoapySDRUtil --find lists them)", line)

    def test_program_arguments_named(self):
        res = subprocess.run(link_program() + ["rx", "--radio", "file"], capture_output=True,
                             text=True, timeout=60)
        self.assertNotEqual(res.returncode, 0)
        self.assertIn("--radio file needs --file", res.stderr)
        res = subprocess.run(link_program() + ["tx", "--sps", "1"], capture_output=True,
                             text=True, timeout=60)
        self.assertIn("--sps=1", res.stderr)

    def test_file_twin(self):
        """tx to a file of samples, rx from it: the test packets, checked."""
        with tempfile.TemporaryDirectory() as d:
            samples = os.path.join(d, "link.c64")
            tx = subprocess.run(link_program() + [
                "tx", "--radio", "file", "--file", samples, "--packets", "20",
                "--channel-esn0", "6"], capture_output=True, text=True, timeout=120)
            self.assertEqual(tx.returncode, 0, tx.stderr)
            rx = subprocess.run(link_program() + [
                "rx", "--radio", "file", "--file", samples, "--device", "cpu", "--quiet"],
                capture_output=True, text=True, timeout=120)
            self.assertEqual(rx.returncode, 0, rx.stderr)
            self.assertIn("20 decoded, 0 CRC failures, 0 missed", rx.stderr)


def _gf4_code():
    # a (2 x 4) code over GF(4)
    return _code_from_text(
        "4 2 4\n2 3\n1 1 2 1\n3 2\n1 0 0 0\n2 1\n1 2 2 0\n1 1\n1 0 3 2 4 1\n2 1 3 0 0 0\n")


def _code_from_text(text):
    with tempfile.NamedTemporaryFile("w", suffix=".alist", delete=False) as f:
        f.write(text)
    return gpuldpc.ldpc_code.load(f.name)


if __name__ == "__main__":
    import unittest
    unittest.main()
