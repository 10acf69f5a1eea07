#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""gr-gpuldpc demo: loads a shipped LDPC code, encodes random frames with the
systematic encoder and checks every codeword against H."""

import argparse
import os
import sys
import time

import numpy as np
from gnuradio import gpuldpc

DEFAULT_CODE = "regular_2_4_n96_gf64.alist"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--code", default=None,
                   help=f"parity-check matrix file (default: shipped {DEFAULT_CODE})")
    p.add_argument("--format", default="auto", choices=["auto", "alist", "nb-alist"])
    p.add_argument("--coef", default="exponent", choices=["exponent", "polynomial"])
    p.add_argument("--poly", type=lambda s: int(s, 0), default=0)
    p.add_argument("--frames", type=int, default=10000, help="frames to encode")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if args.frames < 1:
        p.error("--frames must be at least 1")

    path = args.code or os.path.join(gpuldpc.codes_dir(), DEFAULT_CODE)
    t0 = time.perf_counter()
    code = gpuldpc.ldpc_code.load(path, format=args.format, coef=args.coef, poly=args.poly)
    t_load = time.perf_counter() - t0

    devices = gpuldpc.cuda_devices()
    print(gpuldpc.build_info())
    print("CUDA devices: " + (", ".join(map(repr, devices)) if devices else "none"))
    print(f"code      {os.path.basename(path)}: GF({code.q}), n={code.n} symbols "
          f"({code.n * code.bits_per_symbol} bits), k={code.k}, m={code.m} checks, "
          f"rate {code.rate:.3f}, {code.num_edges} edges, "
          f"4-cycles {gpuldpc.count_4_cycles(code)}")
    print(f"set-up    load + elimination {t_load * 1e3:.1f} ms")

    rng = np.random.default_rng(args.seed)
    info = rng.integers(0, code.q, size=(args.frames, code.k), dtype=np.uint8)
    t0 = time.perf_counter()
    cw = code.encode(info)
    t_enc = time.perf_counter() - t0
    bad_syndrome = int(np.count_nonzero(code.syndrome_weight(cw)))
    bad_info = int(np.count_nonzero((cw[:, code.info_positions] != info).any(axis=1)))
    info_bits = args.frames * code.k * code.bits_per_symbol
    print(f"encoded   {args.frames} frames in {t_enc * 1e3:.1f} ms "
          f"({t_enc / args.frames * 1e6:.2f} us/frame, {info_bits / t_enc / 1e6:.1f} "
          f"Mbit/s of information)")
    print(f"checked   H*c != 0: {bad_syndrome} frames; information not at "
          f"info_positions: {bad_info} frames")
    return 0 if bad_syndrome == 0 and bad_info == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
