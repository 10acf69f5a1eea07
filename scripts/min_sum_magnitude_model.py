#!/usr/bin/python3
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""A numpy model of the 8-bit layered min-sum rule on 5G NR codes, for trying
check-message magnitude rules before any decoder has them.

The model follows decoder.h's 8-bit arithmetic (channel values in steps of
1/4 saturated to +-127, inputs saturated to +-127, magnitudes (max(m -
offset_q, 0) * scale_q + 8) >> 4, beliefs limited to +-1920, layers by base
row) for the rules:

  plain  the smallest of the others (min-sum)
  two    min_sum_magnitude="two-smallest": m1 (+) m2 on the other edges,
         m2 (+) m3 on the smallest's
  first  as two, but m2 (+) m3 only on the first edge of the smallest
         magnitude (one position, as the compressed messages keep it), where
         two gives it to every edge of that magnitude
  scms   plain, self-corrected (Savin 2008): an input whose sign differs from
         what the same edge sent the check the iteration before (where that
         was not 0) enters the check as 0; the belief keeps the input
  A      m1 (+) m2 on the other edges, m2 on the smallest's (no third minimum)
  B      m1 (+) m2 on the other edges, m2 (+) m2 on the smallest's
  three  the three smallest combined (the lambda-min rule with lambda = 3):
         m1 (+) m2 (+) m3 on the other edges, and on an edge of the three
         the other two of them (the offset at every check, where
         min_sum_magnitude="three-smallest" takes it from 5 edges)
  three1 as three, but only the smallest's edge apart: m2 (+) m3 there, all
         three combined on every other edge (two magnitudes a check, as
         min-sum keeps)
  three2 as three, but m1 (+) m2 (+) m3 on the third smallest's edge too
  sp     float sum-product (the reference)

Each RULE:SCALE_Q:OFFSET_Q prints the frame errors at each Eb/N0 (BPSK,
AWGN, all-zero codewords, 10 iterations, fixed seed).

    PYTHONPATH=<build>/test_modules scripts/min_sum_magnitude_model.py \\
        1:32:46 2000 0.9,1.0,1.1,1.2,1.3,1.4,1.5 sp:0:0 plain:15:2 two:16:1 A:16:1
"""

import math
import sys

import numpy as np
from gnuradio import gpuldpc


def table(llr_scale=4.0):
    """f(x) = round(llr_scale ln(1 + e^-(x / llr_scale))), x = 0 .. 254"""
    return np.array([round(llr_scale * math.log1p(math.exp(-x / llr_scale)))
                     for x in range(255)], dtype=np.int32)


F = table()


def combined(a, b):
    """|a (+) b| in steps for 0 <= a <= b <= 127"""
    return np.maximum(a + F[a + b] - F[b - a], 0)


def layers_of(code, frames, dtype):
    base = np.asarray(code.base_matrix)
    z = code.lifting
    r = np.arange(z)
    layers = []
    for i in range(base.shape[0]):
        cols = [j for j in range(base.shape[1]) if base[i, j] >= 0]
        bits = np.stack([j * z + (r + base[i, j]) % z for j in cols], axis=1)
        layers.append((bits, np.zeros((frames, z, len(cols)), dtype)))
    return layers


def decode_sum_product(code, layers, llr, iterations):
    frames = llr.shape[0]
    belief = np.zeros((frames, code.n))
    belief[:, np.asarray(code.transmitted_positions)] = llr
    limit = 1 - 1e-12
    for _ in range(iterations):
        for bits, msg in layers:
            x = belief[:, bits] - msg
            t = np.tanh(0.5 * x)
            t = np.where(t == 0, 1e-300, t)
            others = np.prod(t, axis=2, keepdims=True) / t
            msg[...] = 2 * np.arctanh(np.clip(others, -limit, limit))
            belief[:, bits] = x + msg
    return belief


def decode(code, llr, rule, scale_q, offset_q, iterations=10):
    """Beliefs after the iterations; llr positive for 0 (the textbook
    convention, in which a check message's sign is the others' product)."""
    frames = llr.shape[0]
    layers = layers_of(code, frames, np.float64 if rule == "sp" else np.int32)
    if rule == "sp":
        return decode_sum_product(code, layers, llr, iterations)
    channel = np.clip(np.rint(np.clip(llr, -64, 64) * 4), -127, 127).astype(np.int32)
    belief = np.zeros((frames, code.n), np.int32)
    belief[:, np.asarray(code.transmitted_positions)] = channel

    def magnitude(m):
        return (np.maximum(np.minimum(m, 127) - offset_q, 0) * scale_q + 8) >> 4

    previous = [np.zeros_like(msg) for _, msg in layers]
    for _ in range(iterations):
        for (bits, msg), before in zip(layers, previous):
            x = belief[:, bits] - msg
            sent = np.clip(x, -127, 127)
            if rule == "scms":
                sent = np.where(sent * before < 0, 0, sent)
                before[...] = sent
            a = np.abs(sent)
            s = np.sort(a, axis=2)
            m1, m2, m3 = s[..., 0:1], s[..., 1:2], s[..., 2:3]
            negative = sent < 0
            parity = np.logical_xor.reduce(negative, axis=2, keepdims=True)
            first = np.arange(a.shape[2])[None, None, :] == np.argmin(a, axis=2)[..., None]
            if rule in ("plain", "scms"):
                out = np.where(first, magnitude(m2), magnitude(m1))
            elif rule == "two":
                out = np.where(a == m1, magnitude(combined(m2, m3)),
                               magnitude(combined(m1, m2)))
            elif rule == "first":
                out = np.where(first, magnitude(combined(m2, m3)),
                               magnitude(combined(m1, m2)))
            elif rule == "A":
                out = np.where(first, magnitude(m2), magnitude(combined(m1, m2)))
            elif rule == "B":
                out = np.where(first, magnitude(combined(m2, m2)),
                               magnitude(combined(m1, m2)))
            elif rule in ("three", "three1", "three2"):
                # each edge's place among the check's inputs, ties in order
                rank = np.argsort(np.argsort(a, axis=2, kind="stable"), axis=2,
                                  kind="stable")
                c12, c13, c23 = combined(m1, m2), combined(m1, m3), combined(m2, m3)
                # c12 <= m1 <= m3: all three are c12 (+) m3
                apart = [magnitude(c23), magnitude(c13), magnitude(c12)]
                kept = {"three": 3, "three1": 1, "three2": 2}[rule]
                out = np.select([rank == k for k in range(kept)], apart[:kept],
                                magnitude(combined(c12, m3)))
            else:
                raise ValueError(
                    f"rule {rule!r}: plain, scms, two, first, A, B, three, three1, "
                    "three2 or sp")
            msg[...] = np.where(negative ^ parity, -out, out)
            belief[:, bits] = np.clip(x + msg, -1920, 1920)
    return belief


def frame_errors(code, ebn0_db, frames, rule, scale_q, offset_q, seed=1):
    rng = np.random.default_rng(seed)
    sigma2 = 1.0 / (2 * code.rate * 10 ** (ebn0_db / 10))
    y = 1.0 + math.sqrt(sigma2) * rng.standard_normal((frames, code.n_transmitted))
    belief = decode(code, (2.0 / sigma2) * y, rule, scale_q, offset_q)
    return int(np.count_nonzero((belief[:, :code.k] <= 0).any(axis=1)))


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    bg, z, rows = map(int, sys.argv[1].split(":"))
    code = gpuldpc.ldpc_code.nr(bg, z, rows)
    frames = int(sys.argv[2])
    grid = [float(e) for e in sys.argv[3].split(",")]
    for spec in sys.argv[4:]:
        rule, scale_q, offset_q = spec.split(":")
        errors = [frame_errors(code, e, frames, rule, int(scale_q), int(offset_q))
                  for e in grid]
        print(spec, " ".join(f"{e:.2f}:{n}" for e, n in zip(grid, errors)), flush=True)


if __name__ == "__main__":
    main()
