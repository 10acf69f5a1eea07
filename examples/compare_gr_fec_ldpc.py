#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Frame error rate and speed of gpuldpc's batch decoder next to GNU Radio's own
gr-fec LDPC decoder (fec.ldpc_decoder: sum-product on an alist file) on the
same binary code, the same noisy frames and the same machine.

Both decoders get the same codewords (gpuldpc's systematic encoder), BPSK
(bit b -> 1 - 2b), the same AWGN samples y and the same LLRs -2y/sigma^2
(log(P(1)/P(0)), GNU Radio's convention, which gr-fec's decoder takes too;
its sigma argument is passed the true value). gr-fec's decoder returns K bits from positions of its own choice;
they are found once from noiseless codewords. Timing covers decoding only:
gr-fec runs in a flowgraph (vector source -> fec.decoder -> vector sink),
gpuldpc through batch_decoder.decode()."""

import argparse
import json
import os
import sys
import tempfile
import time

import numpy as np
from gnuradio import blocks, fec, gr

from gnuradio import gpuldpc
from gnuradio.gpuldpc import sim


def run_gr_decoder(alist, sigma, iterations, samples, k):
    dec = fec.ldpc_decoder.make(alist, float(sigma), iterations)
    tb = gr.top_block()
    src = blocks.vector_source_f(samples.astype(np.float32).ravel().tolist())
    snk = blocks.vector_sink_b()
    tb.connect(src, fec.decoder(dec, gr.sizeof_float, gr.sizeof_char), snk)
    t0 = time.perf_counter()
    tb.run()
    elapsed = time.perf_counter() - t0
    return np.array(snk.data(), dtype=np.uint8).reshape(samples.shape[0], k), elapsed


def gr_output_positions(alist, code, iterations):
    """Codeword position of each of the K bits gr-fec's decoder returns."""
    rng = np.random.default_rng(12345)
    cw = code.encode(rng.integers(0, 2, size=(64, code.k), dtype=np.uint8))
    out, _ = run_gr_decoder(alist, 0.5, iterations, 2.0 * cw - 1.0, code.k)
    match = (out[:, :, None] == cw[:, None, :]).all(axis=0)
    if not (match.sum(axis=1) >= 1).all():
        raise RuntimeError("gr-fec's decoder output does not map onto codeword positions")
    return match.argmax(axis=1)


def row(name, threads, ebn0, frames, wrong_bits, elapsed, k, iterations=None):
    frame_errors = int(np.count_nonzero(wrong_bits))
    r = {"decoder": name, "threads": threads, "ebn0": ebn0, "frames": frames,
         "frame_errors": frame_errors, "fer": frame_errors / frames,
         "ber": float(wrong_bits.sum()) / (frames * k),
         "frames_per_second": frames / elapsed,
         "info_bits_per_second": frames * k / elapsed}
    if iterations is not None:
        r["avg_iterations"] = iterations
    return r


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--code", default=os.path.join(gpuldpc.codes_dir(),
                                                   "regular_3_6_n1008_gf2.alist"))
    ap.add_argument("--ebn0", default="1.5,2.0,2.5")
    ap.add_argument("--frames", type=int, default=2000)
    ap.add_argument("--iterations", type=int, default=50)
    ap.add_argument("--threads", type=int, default=0,
                    help="gpuldpc threads for the multi-threaded rows (0: all cores)")
    ap.add_argument("--json")
    args = ap.parse_args(argv)

    code = gpuldpc.ldpc_code.load(args.code)
    if code.q != 2:
        ap.error("GNU Radio's LDPC decoder is binary: --code must be a binary code")
    rows = []
    configs = (("sum-product", "flooding", 1), ("sum-product", "flooding", args.threads),
               ("sum-product", "layered", args.threads), ("min-sum", "layered", args.threads))
    decoders = [gpuldpc.batch_decoder(code, algorithm=a, schedule=s, threads=t,
                                      max_iterations=args.iterations, device="cpu")
                for a, s, t in configs]
    with tempfile.TemporaryDirectory() as tmp:
        alist = os.path.join(tmp, "code.alist")
        code.save(alist, format="alist")  # no comments, no padding: gr-fec reads it
        positions = gr_output_positions(alist, code, args.iterations)
        for i, ebn0 in enumerate(float(x) for x in args.ebn0.split(",")):
            rng = np.random.default_rng(1000 + i)
            sigma2 = sim.noise_variance(ebn0, code.rate)
            info = rng.integers(0, 2, size=(args.frames, code.k), dtype=np.uint8)
            cw = code.encode(info)
            y = (1.0 - 2.0 * cw) + rng.normal(0.0, np.sqrt(sigma2), cw.shape)
            llr = (-2.0 / sigma2 * y).astype(np.float32)
            out, elapsed = run_gr_decoder(alist, np.sqrt(sigma2), args.iterations, llr,
                                          code.k)
            rows.append(row("gr-fec ldpc_decoder", 1, ebn0, args.frames,
                            np.count_nonzero(out != cw[:, positions], axis=1), elapsed,
                            code.k))
            for dec in decoders:
                t0 = time.perf_counter()
                bits, status = dec.decode(llr)
                elapsed = time.perf_counter() - t0
                rows.append(row(f"gpuldpc {dec.algorithm} {dec.schedule}", dec.threads,
                                ebn0, args.frames, np.count_nonzero(bits != info, axis=1),
                                elapsed, code.k, float(status["iterations"].mean())))
    print(f"code {args.code}: n={code.n}, k={code.k}; {args.iterations} iterations max; "
          f"{os.cpu_count()} CPU cores")
    print(f"{'Eb/N0':>5} {'decoder':<34} {'thr':>3} {'frames':>6} {'FER':>9} {'BER':>9} "
          f"{'frames/s':>9} {'Mbit/s':>7}")
    for r in rows:
        print(f"{r['ebn0']:5.2f} {r['decoder']:<34} {r['threads']:3d} {r['frames']:6d} "
              f"{r['fer']:9.2e} {r['ber']:9.2e} {r['frames_per_second']:9.1f} "
              f"{r['info_bits_per_second'] / 1e6:7.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"code": args.code, "n": code.n, "k": code.k, "rows": rows}, f,
                      indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
