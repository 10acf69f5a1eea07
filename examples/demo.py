#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gr-gpuldpc demo: a GNU Radio flowgraph that encodes random bytes with the
LDPC encoder block, sends them as BPSK through an AWGN channel and decodes
them with the LDPC decoder block, then compares what came out with what went
in and prints frames, frame errors and throughput.

The blocks take and give packed bytes: k*m information bits a frame, MSB
first, in ceil(k*m/8) bytes; where k*m is not a multiple of 8 the last byte's
low bits are padding, which the encoder ignores and the decoder sets to 0.
The demo's frames hold zero padding, so that they compare byte for byte."""

import argparse
import os
import sys
import time

import numpy as np
from gnuradio import blocks, gr

from gnuradio import gpuldpc

DEFAULT_CODE = "regular_2_4_n96_gf64.alist"


def build(code, data, info_bytes, noise_samples, sigma2, args):
    """source -> framer -> encoder -> BPSK + AWGN -> LLR -> decoder -> sink."""
    tb = gr.top_block("gpuldpc demo")
    src = blocks.vector_source_b(data.tolist())
    framer = blocks.stream_to_tagged_stream(gr.sizeof_char, 1, info_bytes, "packet_len")
    enc = gpuldpc.ldpc_encoder(code, input="packed", output="bits")
    to_float = blocks.char_to_float(1, 1)
    bpsk = blocks.multiply_const_ff(-2.0)         # bit b -> 1 - 2b
    bpsk_offset = blocks.add_const_ff(1.0)
    noise = blocks.vector_source_f(noise_samples.tolist())
    channel = blocks.add_ff()
    to_llr = blocks.multiply_const_ff(-2.0 / sigma2)  # LLR log(P1/P0)
    dec = gpuldpc.ldpc_decoder(code, algorithm=args.algorithm, schedule=args.schedule,
                               max_iterations=args.iterations, output="packed",
                               max_batch=args.batch, device=args.device)
    snk = blocks.vector_sink_b()
    tb.connect(src, framer, enc, to_float, bpsk, bpsk_offset, (channel, 0))
    tb.connect(noise, (channel, 1))
    tb.connect(channel, to_llr, dec, snk)
    return tb, dec, snk


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--code", default=None,
                   help="parity-check matrix file or built-in code (dvbs2:1/2, "
                        f"nr:2:52, wifi:1944:1/2, ...; default: shipped {DEFAULT_CODE})")
    p.add_argument("--frames", type=int, default=5000)
    p.add_argument("--ebn0", type=float, default=3.0, help="Eb/N0 in dB (default 3)")
    p.add_argument("--algorithm", default="auto")
    p.add_argument("--schedule", default="layered", choices=["flooding", "layered"])
    p.add_argument("--iterations", type=int, default=50)
    p.add_argument("--batch", type=int, default=256, help="decoder max batch")
    p.add_argument("--device", default="auto")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if args.frames < 1:
        p.error("--frames must be at least 1")

    path = args.code or os.path.join(gpuldpc.codes_dir(), DEFAULT_CODE)
    code = gpuldpc.ldpc_code.load(path)
    info_bits = code.k * code.bits_per_symbol
    info_bytes = (info_bits + 7) // 8  # the last byte zero-padded where needed
    devices = gpuldpc.cuda_devices()
    print(gpuldpc.build_info())
    print("CUDA devices: " + (", ".join(map(repr, devices)) if devices else "none"))
    name = os.path.basename(path) if os.path.isfile(path) else path
    print(f"code      {name}: GF({code.q}), n={code.n} symbols "
          f"({code.n * code.bits_per_symbol} bits), k={code.k}, rate {code.rate:.3f}")

    rng = np.random.default_rng(args.seed)
    info = rng.integers(0, 2, (args.frames, info_bits), dtype=np.uint8)
    data = np.packbits(info, axis=1).reshape(-1)  # MSB first, zero padding
    n_bits = code.n * code.bits_per_symbol
    sigma2 = 1.0 / (2.0 * code.rate * 10 ** (args.ebn0 / 10.0))
    noise = rng.normal(0.0, np.sqrt(sigma2), args.frames * n_bits).astype(np.float32)
    tb, dec, snk = build(code, data, info_bytes, noise, sigma2, args)
    t0 = time.perf_counter()
    tb.run()
    elapsed = time.perf_counter() - t0

    out = np.array(snk.data(), dtype=np.uint8)
    frames_out = len(out) // info_bytes
    errors = int(np.count_nonzero(
        (out.reshape(-1, info_bytes) != data[:len(out)].reshape(-1, info_bytes)).any(axis=1)))
    print(f"channel   BPSK over AWGN at Eb/N0 {args.ebn0:.2f} dB")
    print(f"decoder   {dec.device_name()}, algorithm {args.algorithm}, {args.schedule}, "
          f"max batch {args.batch}")
    print(f"frames    {args.frames} sent, {frames_out} received, {errors} frame errors "
          f"(FER {errors / max(frames_out, 1):.2e}), {dec.failed_frames()} not converged, "
          f"{dec.average_iterations():.2f} iterations on average")
    print(f"speed     {frames_out / elapsed:.0f} frames/s, "
          f"{frames_out * info_bits / elapsed / 1e6:.2f} Mbit/s of information through "
          f"the whole flowgraph ({elapsed:.2f} s)")

    # The same frames through the engine alone: what the block costs on top.
    symbols = gpuldpc.sim.symbols_to_bits(
        code.encode(np.packbits(info.reshape(args.frames, code.k, -1), axis=2,
                                bitorder="big")[..., 0] >> (8 - code.bits_per_symbol)),
        code.bits_per_symbol)
    llr = (-2.0 / sigma2 * ((1.0 - 2.0 * symbols) + noise.reshape(args.frames, -1)))
    engine = gpuldpc.batch_decoder(code, algorithm=args.algorithm, schedule=args.schedule,
                                   max_iterations=args.iterations, device=args.device)
    llr = llr.astype(np.float32)
    engine_errors = 0
    engine_time = 0.0
    for start in range(0, args.frames, args.batch):
        t0 = time.perf_counter()
        bits, _ = engine.decode(llr[start:start + args.batch])
        engine_time += time.perf_counter() - t0
        engine_errors += int(np.count_nonzero(
            (bits != info[start:start + args.batch]).any(axis=1)))
    print(f"engine    the same frames through batch_decoder alone: "
          f"{args.frames / engine_time:.0f} frames/s, {engine_errors} frame errors "
          f"(the flowgraph reaches {engine_time / elapsed * 100:.0f} % of it)")
    return 0 if frames_out == args.frames else 1


if __name__ == "__main__":
    sys.exit(main())
