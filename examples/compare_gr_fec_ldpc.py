#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Frame error rate and speed of gpuldpc's batch decoder next to GNU Radio's own
gr-fec LDPC decoder (fec.ldpc_encoder / fec.ldpc_decoder, sum-product on an
alist file) on the same binary code, channel and machine.

Each decoder decodes codewords of its own encoder (GNU Radio's encoder places
the information bits by its own elimination), over BPSK/AWGN with the same
noise statistics. Timing covers decoding only: GNU Radio's decoder runs in a
flowgraph (vector source -> fec.decoder -> vector sink) on precomputed
channel values, gpuldpc's through batch_decoder.decode()."""

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


def write_plain_alist(code, path):
    """Binary alist without comments or padding, the form gr-fec reads."""
    code.save(path, format="alist")


def gnuradio_point(alist, code, ebn0, frames, iterations, seed):
    n, k = code.n, code.k
    sigma2 = sim.noise_variance(ebn0, k / n)
    rng = np.random.default_rng(seed)
    info = rng.integers(0, 2, size=(frames, k), dtype=np.uint8)

    enc = fec.ldpc_encoder.make(alist)
    tb = gr.top_block()
    src = blocks.vector_source_b(info.ravel().tolist())
    snk = blocks.vector_sink_b()
    tb.connect(src, fec.encoder(enc, gr.sizeof_char, gr.sizeof_char), snk)
    tb.run()
    cw = np.array(snk.data(), dtype=np.uint8).reshape(frames, n)

    # gr-fec's awgn_bp takes BPSK samples (bit 0 -> +1) and the noise sigma
    y = (1.0 - 2.0 * cw) + rng.normal(0.0, np.sqrt(sigma2), cw.shape)
    dec = fec.ldpc_decoder.make(alist, float(np.sqrt(sigma2)), iterations)
    tb = gr.top_block()
    src = blocks.vector_source_f(y.astype(np.float32).ravel().tolist())
    snk = blocks.vector_sink_b()
    tb.connect(src, fec.decoder(dec, gr.sizeof_float, gr.sizeof_char), snk)
    t0 = time.perf_counter()
    tb.run()
    elapsed = time.perf_counter() - t0
    out = np.array(snk.data(), dtype=np.uint8).reshape(frames, k)
    wrong = np.count_nonzero(out != info, axis=1)
    return {"decoder": "gr-fec ldpc_decoder", "threads": 1, "ebn0": ebn0,
            "frames": frames, "frame_errors": int(np.count_nonzero(wrong)),
            "fer": float(np.count_nonzero(wrong)) / frames,
            "ber": float(wrong.sum()) / (frames * k),
            "frames_per_second": frames / elapsed,
            "info_bits_per_second": frames * k / elapsed}


def gpuldpc_point(code, algorithm, schedule, threads, ebn0, frames, iterations, seed):
    dec = gpuldpc.batch_decoder(code, algorithm=algorithm, schedule=schedule,
                                max_iterations=iterations, threads=threads)
    rng = np.random.default_rng(seed)
    p = sim.simulate_point(code, dec, ebn0, frames, frames, 64 * dec.threads, rng)
    return {"decoder": f"gpuldpc {dec.algorithm} {dec.schedule}", "threads": dec.threads,
            "ebn0": ebn0, "frames": p["frames"], "frame_errors": p["frame_errors"],
            "fer": p["fer"], "ber": p["ber"],
            "frames_per_second": p["info_bits_per_second"] / code.k,
            "info_bits_per_second": p["info_bits_per_second"],
            "avg_iterations": p["avg_iterations"]}


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
    with tempfile.TemporaryDirectory() as tmp:
        alist = os.path.join(tmp, "code.alist")
        write_plain_alist(code, alist)
        for i, ebn0 in enumerate(float(x) for x in args.ebn0.split(",")):
            seed = 1000 + i
            rows.append(gnuradio_point(alist, code, ebn0, args.frames, args.iterations,
                                       seed))
            for alg, sched, threads in (("sum-product", "flooding", 1),
                                        ("sum-product", "flooding", args.threads),
                                        ("sum-product", "layered", args.threads),
                                        ("min-sum", "layered", args.threads)):
                rows.append(gpuldpc_point(code, alg, sched, threads, ebn0, args.frames,
                                          args.iterations, seed))
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
