#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""BER curve of a gpuldpc code through GNU Radio's own FEC blocks:
fec.extended_encoder(ldpc_encoder_def) -> BPSK (0 -> -1, 1 -> +1) -> AWGN ->
fec.extended_decoder(ldpc_decoder_def), one flowgraph per Eb/N0 point.
Prints a table and, with --plot, draws the curve."""

import argparse
import os
import sys

import numpy as np
from gnuradio import blocks, digital, fec, gr

from gnuradio import gpuldpc


def ber_point(code, ebn0_db, frames, frames_per_call, algorithm, seed):
    rng = np.random.default_rng(seed)
    k_bits = code.k * code.bits_per_symbol
    sigma2 = 1.0 / (2.0 * code.rate * 10 ** (ebn0_db / 10.0))
    enc = gpuldpc.ldpc_encoder_def(code, frames_per_call=frames_per_call)
    # the FEC tools feed unit BPSK samples: scale them to LLRs
    dec = gpuldpc.ldpc_decoder_def(code, algorithm=algorithm,
                                   frames_per_call=frames_per_call,
                                   input_scale=2.0 / sigma2)
    bits = rng.integers(0, 2, frames * k_bits, dtype=np.uint8)
    tb = gr.top_block()
    src = blocks.vector_source_b(bits.tolist())
    xenc = fec.extended_encoder(encoder_obj_list=enc, threading=None, puncpat="11")
    mapper = digital.map_bb([-1, 1])
    to_float = blocks.char_to_float(1, 1)
    noise = blocks.vector_source_f(
        rng.normal(0, np.sqrt(sigma2), frames * code.n * code.bits_per_symbol).tolist())
    add = blocks.add_ff()
    xdec = fec.extended_decoder(decoder_obj_list=dec, threading=None, ann=None,
                                puncpat="11", integration_period=10000)
    snk = blocks.vector_sink_b()
    tb.connect(src, xenc, mapper, to_float, (add, 0))
    tb.connect(noise, (add, 1))
    tb.connect(add, xdec, snk)
    tb.run()
    out = np.array(snk.data(), dtype=np.uint8)
    wrong = (out != bits[:len(out)]).reshape(-1, k_bits)
    return {"ebn0": ebn0_db, "frames": wrong.shape[0],
            "fer": float(wrong.any(axis=1).mean()), "ber": float(wrong.mean())}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--code", default=os.path.join(gpuldpc.codes_dir(),
                                                  "regular_3_6_n1008_gf2.alist"))
    p.add_argument("--ebn0", default="1.0,1.5,2.0,2.5")
    p.add_argument("--frames", type=int, default=400)
    p.add_argument("--frames-per-call", type=int, default=8)
    p.add_argument("--algorithm", default="auto")
    p.add_argument("--plot", metavar="FILE.png")
    args = p.parse_args(argv)
    code = gpuldpc.ldpc_code.load(args.code)
    points = [ber_point(code, float(e), args.frames, args.frames_per_call, args.algorithm,
                        i) for i, e in enumerate(args.ebn0.split(","))]
    print(f"{'Eb/N0':>6} {'frames':>7} {'FER':>9} {'BER':>9}")
    for pt in points:
        print(f"{pt['ebn0']:6.2f} {pt['frames']:7d} {pt['fer']:9.2e} {pt['ber']:9.2e}")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots()
        for key in ("fer", "ber"):
            pts = [pt for pt in points if pt[key] > 0]
            ax.semilogy([pt["ebn0"] for pt in pts], [pt[key] for pt in pts], "o-",
                        label=key.upper())
        ax.set_xlabel("Eb/N0 (dB)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        ax.set_title(f"{os.path.basename(args.code)} via fec.extended_decoder")
        fig.savefig(args.plot, dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main())
