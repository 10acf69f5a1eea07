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
to --output and prints a line of counters every --stats-interval seconds;
it stops after --packets frames, after --duration seconds, at the end of a
file, or on Ctrl-C.
"""

import argparse
import sys
import threading
import time

import numpy as np
from gnuradio import blocks, channels, gr

from . import link

RADIOS = ("uhd", "soapy", "osmosdr", "zmq", "file")
TAPS = link.EXAMPLE_TAPS


def _need(module, radio):
    try:
        return __import__(module, fromlist=["_"])
    except ImportError as e:
        raise SystemExit(f"--radio {radio}: cannot import {module} ({e}); install "
                         f"its Debian package (README: over-the-air link)") from e


def _tune_channel0(dev, set_rate, args):
    """Rate, frequency, gain and antenna of channel 0 (UHD and osmosdr share
    these calls but for the rate's name)."""
    set_rate(args.rate)
    dev.set_center_freq(args.freq, 0)
    dev.set_gain(args.gain, 0)
    if args.antenna:
        dev.set_antenna(args.antenna, 0)
    return dev


def make_radio(args, transmit):
    """The radio sink (transmit) or source block for --radio."""
    r = args.radio
    if r == "file":
        if not args.file:
            raise SystemExit("--radio file needs --file PATH (complex64 samples)")
        if transmit:
            return blocks.file_sink(gr.sizeof_gr_complex, args.file, False)
        return blocks.file_source(gr.sizeof_gr_complex, args.file, False)
    if r == "zmq":
        zeromq = _need("gnuradio.zeromq", r)
        if transmit:
            return zeromq.push_sink(gr.sizeof_gr_complex, 1, args.address, 100, False, -1)
        return zeromq.pull_source(gr.sizeof_gr_complex, 1, args.address, 100, False, -1)
    if r == "uhd":
        uhd = _need("gnuradio.uhd", r)
        stream = uhd.stream_args(cpu_format="fc32", channels=[0])
        dev = (uhd.usrp_sink(args.args, stream, "packet_len") if transmit
               else uhd.usrp_source(args.args, stream))
        return _tune_channel0(dev, dev.set_samp_rate, args)
    if r == "soapy":
        soapy = _need("gnuradio.soapy", r)
        driver = args.args or "driver=hackrf"
        make = soapy.sink if transmit else soapy.source
        dev = make(driver, "fc32", 1, "", "", [""], [""])
        if transmit:
            dev.set_length_tag_name("packet_len")
        dev.set_sample_rate(0, args.rate)
        dev.set_frequency(0, args.freq)
        dev.set_gain(0, args.gain)
        if args.antenna:
            dev.set_antenna(0, args.antenna)
        return dev
    osmosdr = _need("osmosdr", r)
    dev = (osmosdr.sink(args="numchan=1 " + args.args) if transmit
           else osmosdr.source(args="numchan=1 " + args.args))
    return _tune_channel0(dev, dev.set_sample_rate, args)


def packets_of(args, fmt):
    if args.input:
        data = (sys.stdin.buffer.read() if args.input == "-"
                else open(args.input, "rb").read())
        size = fmt.max_payload
        return [data[i:i + size] for i in range(0, len(data), size)]
    return [link.test_payload(i & 0xFFFF, fmt.max_payload) for i in range(args.packets)]


def run_tx(args, fmt):
    payloads = packets_of(args, fmt)
    if not payloads:
        raise SystemExit("nothing to send: --input is empty or --packets is 0")
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


def counters_line(rx, seconds):
    return (f"rx: {rx.stats_text()}, "
            f"{rx.stats()['decoded'] / max(seconds, 1e-9):.0f} packets/s")


def run_rx(args, fmt):
    tb = gr.top_block("gpuldpc-link rx")
    radio = make_radio(args, transmit=False)
    rx = link.packet_link_rx(fmt, device=args.device, keep=False)
    tb.connect(radio, rx)
    out = None
    if args.output:
        out = sys.stdout.buffer if args.output == "-" else open(args.output, "wb")
    lock = threading.Lock()
    state = {"frames": 0, "payloads": 0, "test_errors": 0}

    def on_frame(stats):
        state["frames"] = stats["decoded"] + stats["crc_failures"]

    def on_payload(seq, payload):
        with lock:
            state["payloads"] += 1
            if out:
                out.write(payload)
            elif payload != link.test_payload(seq, len(payload)):  # seq: 16 bits
                state["test_errors"] += 1

    rx.deframer.on_stats = on_frame
    rx.deframer.on_payload = on_payload
    finished = threading.Event()
    tb.start()
    threading.Thread(target=lambda: (tb.wait(), finished.set()), daemon=True).start()
    start = last = time.time()
    try:
        while not finished.is_set():
            finished.wait(0.05)
            now = time.time()
            if args.packets and state["frames"] >= args.packets:
                break
            if args.duration and now - start >= args.duration:
                break
            if now - last >= args.stats_interval and not args.quiet:
                print(counters_line(rx, now - start), file=sys.stderr, flush=True)
                last = now
    except KeyboardInterrupt:
        pass
    tb.stop()
    tb.wait()
    if out and out is not sys.stdout.buffer:
        out.close()
    print(counters_line(rx, time.time() - start), file=sys.stderr, flush=True)
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
                   help="binary code: file or built-in name (default wifi:1944:1/2)")
    p.add_argument("--modulation", default="qpsk",
                   choices=["bpsk", "qpsk", "8psk", "16qam", "64qam", "256qam"])
    p.add_argument("--sps", type=int, default=2, help="samples a symbol (default 2)")
    p.add_argument("--freq", type=float, default=915e6, help="centre frequency, Hz")
    p.add_argument("--rate", type=float, default=1e6, help="sample rate, Hz")
    p.add_argument("--gain", type=float, default=30.0, help="gain, dB")
    p.add_argument("--args", default="", help="device arguments (uhd: 'type=b200'; "
                   "soapy: 'driver=hackrf', 'driver=plutosdr', 'driver=lime'; osmosdr: "
                   "'rtl=0', 'hackrf=0')")
    p.add_argument("--antenna", default="")
    p.add_argument("--address", default="tcp://127.0.0.1:5555",
                   help="zmq: the transmitter binds it, the receiver connects")
    p.add_argument("--file", help="file: complex64 samples written (tx) or read (rx)")
    p.add_argument("--device", default="auto", help="rx: the decoder's device (auto, cpu, "
                   "cuda, cuda:N)")
    p.add_argument("--packets", type=int, default=1000,
                   help="tx: test packets to send (without --input); rx: stop after "
                   "this many frames (0: no limit)")
    p.add_argument("--input", help="tx: the bytes to send ('-': standard input)")
    p.add_argument("--output", help="rx: write the payloads here ('-': standard output); "
                   "without it, payloads are checked against the test packets")
    p.add_argument("--duration", type=float, default=0.0, help="rx: stop after this many "
                   "seconds (0: no limit)")
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
    try:
        fmt = link.link_format(args.code, args.modulation, args.sps)
    except (ValueError, RuntimeError) as e:
        p.error(f"--code/--modulation: {e}")
    return run_tx(args, fmt) if args.mode == "tx" else run_rx(args, fmt)


if __name__ == "__main__":
    sys.exit(main())
