#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gpuldpc-link: the packet link (gnuradio.gpuldpc.link) without a GUI.

  gpuldpc-link tx --radio uhd|soapy|osmosdr|zmq|file [options]
  gpuldpc-link rx --radio uhd|soapy|osmosdr|zmq|file [options]

Both ends MUST use the same --code, --modulation and --sps. The transmitter
sends the bytes of --input (cut into packets of the largest payload the code
holds) or, without --input, --packets numbered test packets; --channel-esn0
puts a simulated channel (channels.channel_model: noise, --channel-freq,
--channel-epsilon, three taps) between the link and the radio, for twins
over zmq or files. The receiver writes the good payloads in order of arrival
to --output (each as it arrives) and prints a line of counters every
--stats-interval seconds; it stops after --packets frames, after --duration
seconds, at the end of a file, after --idle-timeout seconds without a burst
once one came (default 5 over zmq, whose stream has no end), or on Ctrl-C.

A radio, file or socket that cannot be opened is one line on stderr naming
it and what to check, and exit status 1.
"""

import argparse
import re
import sys
import threading
import time

import numpy as np
from gnuradio import blocks, channels, gr

from . import link

RADIOS = ("uhd", "soapy", "osmosdr", "zmq", "file")
TAPS = link.EXAMPLE_TAPS
# what lists the devices a radio's --args can name
FINDERS = {"uhd": "uhd_find_devices lists them",
           "soapy": "SoapySDRUtil --find lists them",
           "osmosdr": "rtl_test or hackrf_info lists them"}
# --idle-timeout's default by radio: a ZeroMQ stream never ends by itself; a
# file ends at its end; a radio keeps sending noise
IDLE_TIMEOUTS = {"zmq": 5.0}


class LinkError(Exception):
    """A problem the user can fix (a radio, file or socket that cannot be
    opened): main() prints it as one line and exits with status 1."""


def _one_line(error):
    """An exception's text in one line, without the exception class names
    that SWIG and pybind11 wrappers put in front (UHD: 'LookupError:
    KeyError: No devices found ...')."""
    # UHD's "No devices found for ----->\nDevice Address:\n    type: b200"
    text = " ".join(re.sub(r"-+>", " ", str(error)).split()).rstrip(". ")
    while True:
        head, sep, rest = text.partition(": ")
        if not sep or not head.endswith(("Error", "Exception")) or " " in head:
            return text or type(error).__name__
        text = rest


def _need(module, radio):
    try:
        return __import__(module, fromlist=["_"])
    except ImportError as e:
        raise LinkError(f"--radio {radio}: cannot import {module} ({e}); install its "
                        "Debian package (README: over-the-air link)") from e


def _tune_channel0(dev, set_rate, args):
    """Rate, frequency, gain and antenna of channel 0 (UHD and osmosdr share
    these calls but for the rate's name)."""
    set_rate(args.rate)
    dev.set_center_freq(args.freq, 0)
    dev.set_gain(args.gain, 0)
    if args.antenna:
        dev.set_antenna(args.antenna, 0)
    return dev


def _file_end(args, transmit):
    """The file sink (transmit) or source of --radio file, after checking
    that the file opens (GNU Radio's blocks say only "can't open file")."""
    if not args.file:
        raise LinkError("--radio file needs --file PATH (complex64 samples)")
    try:
        open(args.file, "wb" if transmit else "rb").close()
    except OSError as e:
        action = "write" if transmit else "read"
        raise LinkError(f"cannot {action} --file '{args.file}': {e.strerror}; check the "
                        "path" + ("" if transmit else " (gpuldpc-link tx --radio file "
                                  "writes it)")) from e
    if transmit:
        return blocks.file_sink(gr.sizeof_gr_complex, args.file, False)
    return blocks.file_source(gr.sizeof_gr_complex, args.file, False)


def _open_radio(args, transmit):
    """The UHD, SoapySDR or osmosdr block of --radio, opened and tuned."""
    r = args.radio
    if r == "soapy" and not args.args.strip():
        # SoapySDR opens the first device of any driver without one; a link
        # names the device it means
        raise LinkError("--radio soapy needs --args naming the device, e.g. --args "
                        "driver=hackrf (or driver=plutosdr, driver=lime, "
                        f"driver=rtlsdr); {FINDERS['soapy']}")
    module = {"uhd": "gnuradio.uhd", "soapy": "gnuradio.soapy", "osmosdr": "osmosdr"}[r]
    mod = _need(module, r)
    try:
        if r == "uhd":
            stream = mod.stream_args(cpu_format="fc32", channels=[0])
            dev = (mod.usrp_sink(args.args, stream, "packet_len") if transmit
                   else mod.usrp_source(args.args, stream))
        elif r == "soapy":
            make = mod.sink if transmit else mod.source
            dev = make(args.args, "fc32", 1, "", "", [""], [""])
        else:
            dev = (mod.sink(args="numchan=1 " + args.args) if transmit
                   else mod.source(args="numchan=1 " + args.args))
    except (RuntimeError, LookupError, ValueError) as e:
        raise LinkError(f"cannot open the radio ({r}, args '{args.args}'): "
                        f"{_one_line(e)}; check that it is plugged in and that --args "
                        f"names it ({FINDERS[r]})") from e
    try:
        if r == "soapy":
            if transmit:
                dev.set_length_tag_name("packet_len")
            dev.set_sample_rate(0, args.rate)
            dev.set_frequency(0, args.freq)
            dev.set_gain(0, args.gain)
            if args.antenna:
                dev.set_antenna(0, args.antenna)
            return dev
        return _tune_channel0(dev, dev.set_samp_rate if r == "uhd" else dev.set_sample_rate,
                              args)
    except (RuntimeError, LookupError, ValueError) as e:
        raise LinkError(f"cannot set up the radio ({r}, args '{args.args}'): "
                        f"{_one_line(e)}; check --rate, --freq, --gain and --antenna "
                        "against what the device takes") from e


def make_radio(args, transmit):
    """The radio sink (transmit) or source block for --radio; LinkError when
    it cannot be opened."""
    r = args.radio
    if r == "file":
        return _file_end(args, transmit)
    if r == "zmq":
        zeromq = _need("gnuradio.zeromq", r)
        try:
            if transmit:
                return zeromq.push_sink(gr.sizeof_gr_complex, 1, args.address, 100, False,
                                        -1)
            return zeromq.pull_source(gr.sizeof_gr_complex, 1, args.address, 100, False,
                                      -1)
        except RuntimeError as e:
            raise LinkError(f"cannot {'bind' if transmit else 'connect'} the ZeroMQ "
                            f"socket --address '{args.address}': {_one_line(e)}; check "
                            "the address" + (" and that no other program binds it"
                                             if transmit else "")) from e
    return _open_radio(args, transmit)


def packets_of(args, fmt):
    if args.input:
        try:
            if args.input == "-":
                data = sys.stdin.buffer.read()
            else:
                with open(args.input, "rb") as f:
                    data = f.read()
        except OSError as e:
            raise LinkError(f"cannot read --input '{args.input}': {e.strerror}") from e
        size = fmt.max_payload
        return [data[i:i + size] for i in range(0, len(data), size)]
    return [link.test_payload(i & 0xFFFF, fmt.max_payload) for i in range(args.packets)]


def run_tx(args, fmt):
    payloads = packets_of(args, fmt)
    if not payloads:
        raise LinkError("nothing to send: --input is empty or --packets is 0")
    tb = gr.top_block("gpuldpc-link tx")
    data = np.frombuffer(b"".join(payloads), dtype=np.uint8)
    src = blocks.vector_source_b(data.tolist(), False, 1,
                                 link.length_tags(len(p) for p in payloads))
    tx = link.packet_link_tx(fmt, amplitude=args.amplitude)
    tb.connect(src, tx)
    chain = [tx]
    if args.radio in ("zmq", "file"):
        # idle samples after the last burst (before any simulated channel, whose
        # resampler changes the count), so that a receiver sees its end; a
        # radio sink ends each burst by its length tag instead
        tail = blocks.vector_source_c([0j] * (2 * fmt.burst_samples), False)
        cat = blocks.stream_mux(gr.sizeof_gr_complex, [len(payloads) * fmt.burst_samples,
                                                       2 * fmt.burst_samples])
        tb.connect(tx, (cat, 0))
        tb.connect(tail, (cat, 1))
        chain = [cat]
    if args.channel_esn0 is not None:
        voltage = link.channel_noise_voltage(fmt, args.channel_esn0, args.amplitude, TAPS)
        chain.append(channels.channel_model(voltage, args.channel_freq,
                                            1.0 + args.channel_epsilon, TAPS.tolist(),
                                            args.seed, False))
    radio = make_radio(args, transmit=True)
    tb.connect(*chain, radio)
    start = time.time()
    tb.run()
    seconds = time.time() - start
    print(f"tx: {tx.framer.packets} packets sent ({tx.framer.bad_packets} refused), "
          f"{tx.modulator.bursts} bursts of {fmt.burst_samples} samples, "
          f"{tx.framer.packets / max(seconds, 1e-9):.0f} packets/s", file=sys.stderr)
    if args.radio == "zmq":
        time.sleep(args.linger)  # the socket sends what it holds before it closes
    return 0


class packet_rate:
    """Good packets a second for the counter lines. A line's figure is over
    the interval since the line before, so it reads 0 while nothing arrives
    instead of decaying with the time since the start; the last line's is
    over the active period, from the first burst detected (polled, so up to
    a poll late) to the last packet."""

    def __init__(self, now):
        self.first_burst = None
        self.last_packet = None
        self.count = 0
        self._mark = (now, 0)

    def burst_seen(self, now):
        if self.first_burst is None:
            self.first_burst = now

    def packet(self, now):
        self.burst_seen(now)  # a packet is a burst, whether a poll saw it or not
        self.count += 1
        self.last_packet = now

    def recent(self, now):
        """Packets a second since the previous call (or the start)."""
        then, count = self._mark
        self._mark = (now, self.count)
        return (self.count - count) / max(now - then, 1e-9)

    def active(self):
        """Packets a second over the active period; None before a packet."""
        if not self.count or self.last_packet <= self.first_burst:
            return None  # no time to rate (one packet, its burst not polled)
        return self.count / (self.last_packet - self.first_burst)


def counters_line(rx, rate, final=False):
    if final:
        active = rate.active()
        speed = (f"{rate.count} packets" if active is None
                 else f"{active:.0f} packets/s while receiving")
    else:
        speed = f"{rate.recent(time.monotonic()):.0f} packets/s"
    return f"rx: {rx.stats_text()}, {speed}"


def _open_output(path):
    if path == "-":
        return sys.stdout.buffer
    try:
        return open(path, "wb")
    except OSError as e:
        raise LinkError(f"cannot write --output '{path}': {e.strerror}") from e


def run_rx(args, fmt):
    tb = gr.top_block("gpuldpc-link rx")
    radio = make_radio(args, transmit=False)
    rx = link.packet_link_rx(fmt, device=args.device, keep=False)
    tb.connect(radio, rx)
    out = _open_output(args.output) if args.output else None
    idle = (args.idle_timeout if args.idle_timeout is not None
            else IDLE_TIMEOUTS.get(args.radio, 0.0))
    start = time.monotonic()
    rate = packet_rate(start)
    state = {"test_errors": 0}

    def frames():
        return rx.deframer.decoded + rx.deframer.crc_failures

    def on_payload(seq, payload):
        # the scheduler's thread, one frame at a time: frames() counts this one
        if args.packets and frames() > args.packets:
            return  # after the last frame asked for, before the flowgraph stops
        rate.packet(time.monotonic())
        if out:
            out.write(payload)
            out.flush()  # a reader of the file sees each packet as it arrives
        elif payload != link.test_payload(seq, len(payload)):  # seq: 16 bits
            state["test_errors"] += 1

    rx.deframer.on_payload = on_payload
    finished = threading.Event()
    tb.start()
    threading.Thread(target=lambda: (tb.wait(), finished.set()), daemon=True).start()
    last_line = last_activity = start
    activity = 0
    stop = "end of input"
    try:
        while not finished.is_set():
            finished.wait(0.05)
            now = time.monotonic()
            seen = rx.sync.detected + frames()
            if seen != activity:
                activity, last_activity = seen, now
                rate.burst_seen(now)
            if args.packets and frames() >= args.packets:
                stop = f"{args.packets} frames (--packets)"
                break
            if args.duration and now - start >= args.duration:
                stop = f"{args.duration:g} s (--duration)"
                break
            if idle and activity and now - last_activity >= idle:
                stop = f"no burst for {idle:g} s (--idle-timeout)"
                break
            if now - last_line >= args.stats_interval and not args.quiet:
                print(counters_line(rx, rate), file=sys.stderr, flush=True)
                last_line = now
    except KeyboardInterrupt:
        stop = "interrupted"
    tb.stop()
    tb.wait()
    if out and out is not sys.stdout.buffer:
        out.close()
    print(counters_line(rx, rate, final=True), file=sys.stderr, flush=True)
    if not args.quiet:
        print(f"rx: stopped: {stop}", file=sys.stderr, flush=True)
    if state["test_errors"]:
        print(f"rx: {state['test_errors']} payloads passed the CRC but differ from the "
              "test packets", file=sys.stderr)
        return 1
    return 0


def make_parser():
    p = argparse.ArgumentParser(prog="gpuldpc-link", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["tx", "rx"])
    p.add_argument("--radio", choices=RADIOS, default="zmq")
    p.add_argument("--code", default="wifi:1944:1/2",
                   help="binary code: a file, a shipped code's name or a built-in code "
                   "(dvbs2:RATE[:short], nr:BG:Z[:ROWS], wifi:N:RATE, wimax:N:RATE, "
                   "ar4ja:K:RATE; "
                   "default wifi:1944:1/2)")
    p.add_argument("--modulation", default="gpuldpc-qpsk",
                   choices=["gpuldpc-" + m for m in link.MODULATIONS] + list(link.MODULATIONS),
                   metavar="{" + ",".join("gpuldpc-" + m for m in link.MODULATIONS) + "}",
                   help="the module's Gray constellation, not GNU Radio's (the short "
                   "names qpsk, ... name the same): the m code bits of a symbol, MSB "
                   "first, are the label of its point (default gpuldpc-qpsk)")
    p.add_argument("--sps", type=int, default=2, help="samples a symbol (default 2)")
    p.add_argument("--freq", type=float, default=915e6, help="centre frequency, Hz")
    p.add_argument("--rate", type=float, default=1e6, help="sample rate, Hz")
    p.add_argument("--gain", type=float, default=30.0, help="gain, dB")
    p.add_argument("--args", default="", help="device arguments (uhd: 'type=b200', "
                   "empty for the first USRP found; soapy, required: 'driver=hackrf', "
                   "'driver=plutosdr', 'driver=lime'; osmosdr: 'rtl=0', 'hackrf=0')")
    p.add_argument("--antenna", default="")
    p.add_argument("--address", default="tcp://127.0.0.1:5555",
                   help="zmq: the transmitter binds it, the receiver connects")
    p.add_argument("--file", help="file: complex64 samples written (tx) or read (rx)")
    p.add_argument("--device", default="auto", help="rx: the decoder's device (auto, cpu, "
                   "cuda, cuda:N)")
    p.add_argument("--packets", type=int, default=1000,
                   help="tx: test packets to send (without --input); rx: stop after "
                   "this many frames, good or not (0: no limit; default 1000)")
    p.add_argument("--input", help="tx: the bytes to send ('-': standard input)")
    p.add_argument("--output", help="rx: write the payloads here ('-': standard output); "
                   "without it, payloads are checked against the test packets")
    p.add_argument("--duration", type=float, default=0.0, help="rx: stop after this many "
                   "seconds (0: no limit)")
    p.add_argument("--idle-timeout", type=float, default=None, metavar="SECONDS",
                   help="rx: once a burst came, stop when none comes for this long (0: "
                   "never; default 5 for zmq, whose stream has no end, else 0: a file "
                   "ends by itself, a radio is stopped by --packets, --duration or "
                   "Ctrl-C)")
    p.add_argument("--amplitude", type=float, default=0.5,
                   help="tx: amplitude at the symbol instants (default 0.5)")
    p.add_argument("--channel-esn0", type=float, help="tx: a simulated channel with this "
                   "Es/N0 (dB) at the receiver's input before the radio")
    p.add_argument("--channel-freq", type=float, default=0.0,
                   help="tx, simulated channel: frequency offset, cycles a sample "
                   "(a negative one as --channel-freq=-1e-3)")
    p.add_argument("--channel-epsilon", type=float, default=0.0,
                   help="tx, simulated channel: sample clock offset (e.g. 1e-4)")
    p.add_argument("--seed", type=int, default=1, help="tx, simulated channel: noise seed")
    p.add_argument("--linger", type=float, default=1.0,
                   help="tx, zmq: seconds to wait for the socket to send its last samples")
    p.add_argument("--stats-interval", type=float, default=1.0)
    p.add_argument("--quiet", action="store_true", help="rx: only the final counters")
    return p


def main(argv=None):
    p = make_parser()
    args = p.parse_args(argv)
    if args.sps < 2:
        p.error(f"--sps={args.sps}: allowed: 2 or more")
    if args.packets < 0:
        p.error(f"--packets={args.packets}: allowed: 0 or more")
    if args.idle_timeout is not None and args.idle_timeout < 0:
        p.error(f"--idle-timeout={args.idle_timeout:g}: allowed: 0 (never) or more")
    try:
        fmt = link.link_format(args.code, args.modulation, args.sps)
    except (ValueError, RuntimeError) as e:
        p.error(f"--code/--modulation: {e}")
    try:
        return run_tx(args, fmt) if args.mode == "tx" else run_rx(args, fmt)
    except LinkError as e:
        print(f"gpuldpc-link: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
