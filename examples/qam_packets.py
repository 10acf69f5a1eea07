#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""LDPC-coded packets over a QAM constellation with the noise variance
estimated per packet:

  bytes -> framer -> LDPC encoder (bits, packet_len tags) -> repack to
  m-bit labels -> Gray constellation points -> + complex AWGN ->
  Packet Noise Estimator (N0 tag per packet) -> Soft Demapper (N0 from the
  tags) -> length tags x m -> LDPC decoder (GPU when one is usable) -> bytes

No N0 is given to the receiver: each packet's LLRs are scaled by its own
estimate (--estimator auto|decision|moments; --known-n0: the true N0
instead). Prints, per Es/N0, the packets, packet errors and the mean estimated
N0 against the true one. The decision-directed estimate is low where
decisions go wrong (16-QAM below about 16 dB Es/N0), which makes the LLRs
overconfident; auto switches to the moments estimate there: compare the
packet error rates of the estimators and --known-n0."""

import argparse
import os
import sys

import numpy as np
import pmt
from gnuradio import analog, blocks, digital, gr

from gnuradio import gpuldpc


def run_point(code, points, esn0_db, packets, args, seed):
    m = int(np.log2(len(points)))
    n0 = 10 ** (-esn0_db / 10.0)
    info_bytes = code.k // 8
    rng = np.random.default_rng(seed)
    data = rng.integers(0, 256, packets * info_bytes, dtype=np.uint8)

    tb = gr.top_block("gpuldpc qam packets")
    src = blocks.vector_source_b(data.tolist())
    framer = blocks.stream_to_tagged_stream(gr.sizeof_char, 1, info_bytes, "packet_len")
    enc = gpuldpc.ldpc_encoder(code, input="packed", output="bits")
    to_labels = blocks.repack_bits_bb(1, m, "packet_len", False, gr.GR_MSB_FIRST)
    mapper = digital.chunks_to_symbols_bc(points.tolist())
    # complex noise of E|n|^2 = N0
    noise = analog.noise_source_c(analog.GR_GAUSSIAN, float(np.sqrt(n0)), seed)
    channel = blocks.add_cc()
    estimator = gpuldpc.packet_noise_estimator_cc(args.modulation, "packet_len",
                                                  "noise_var", args.estimator)
    if args.known_n0:  # the receiver told the true N0; the estimates only shown
        demapper = gpuldpc.soft_demapper_cf(args.modulation, "exact", n0)
    else:
        demapper = gpuldpc.soft_demapper_cf(args.modulation, "exact", 1.0, "noise_var")
    # the length tags count symbols; the decoder counts LLRs
    lengths = blocks.tagged_stream_multiply_length(gr.sizeof_float, "packet_len", m)
    dec = gpuldpc.ldpc_decoder(code, schedule="layered", output="packed",
                               device=args.device)
    snk = blocks.vector_sink_b()
    n0_probe = blocks.tag_debug(gr.sizeof_gr_complex, "", "noise_var")
    n0_probe.set_display(False)
    tb.connect(src, framer, enc, to_labels, mapper, (channel, 0))
    tb.connect(noise, (channel, 1))
    tb.connect(channel, estimator, demapper, lengths, dec, snk)
    tb.connect(estimator, n0_probe)
    tb.run()

    out = np.array(snk.data(), dtype=np.uint8)
    if len(out) != len(data):
        raise RuntimeError(f"{len(out)} bytes out for {len(data)} in: frames were lost")
    wrong = (out != data).reshape(packets, info_bytes).any(axis=1)
    estimates = [pmt.to_double(t.value) for t in n0_probe.current_tags()]
    return {"esn0": esn0_db, "packets": packets, "errors": int(wrong.sum()),
            "n0": n0, "n0_estimated": float(np.mean(estimates)) if estimates else float("nan"),
            }


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--code", default=os.path.join(gpuldpc.codes_dir(),
                                                  "regular_3_6_n1008_gf2.alist"),
                   help="binary code (file or built-in name, e.g. wifi:1944:1/2)")
    p.add_argument("--modulation", default="gpuldpc-16qam",
                   choices=["gpuldpc-bpsk", "gpuldpc-qpsk", "gpuldpc-8psk", "gpuldpc-16qam", "gpuldpc-64qam", "gpuldpc-256qam"])
    p.add_argument("--esn0", default="6,7,8,9", help="comma-separated Es/N0 in dB")
    p.add_argument("--packets", type=int, default=400)
    p.add_argument("--estimator", default="auto", choices=["auto", "decision", "moments"],
                   help="N0 estimator of the packets (default auto)")
    p.add_argument("--known-n0", action="store_true",
                   help="give the demapper the true N0 instead of the estimates")
    p.add_argument("--device", default="auto")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if args.packets < 1:
        p.error(f"--packets={args.packets}: allowed: 1 or more")
    code = gpuldpc.ldpc_code.load(args.code)
    points = gpuldpc.constellation(args.modulation).points
    m = int(np.log2(len(points)))
    if code.q != 2 or code.n_transmitted % m or code.k % 8:
        p.error(f"--code: needs a binary code with k a multiple of 8 and n a multiple "
                f"of {m} (bits a {args.modulation} point)")
    print(f"code {args.code}: n={code.n_transmitted}, k={code.k}; {args.modulation}, "
          f"{'N0 given' if args.known_n0 else 'N0 estimated per packet: ' + args.estimator}")
    print(f"{'Es/N0':>6} {'packets':>8} {'errors':>7} {'PER':>9} {'N0':>10} "
          f"{'N0 est.':>10}")
    for i, esn0 in enumerate(float(v) for v in args.esn0.split(",")):
        r = run_point(code, points, esn0, args.packets, args, args.seed + i)
        print(f"{r['esn0']:6.2f} {r['packets']:8d} {r['errors']:7d} "
              f"{r['errors'] / r['packets']:9.2e} {r['n0']:10.4g} {r['n0_estimated']:10.4g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
