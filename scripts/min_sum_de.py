#!/usr/bin/python3
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""Density evolution of the 8-bit min-sum rule (message_precision::int8).

The exact integer arithmetic of decoder.h's 8-bit rule: channel values
round(LLR * llr_scale) saturated to +-127, messages into a check saturated to
+-127, check magnitudes (max(min - offset_q, 0) * scale_q + 8) >> 4, beliefs
exact. The code enters as a type graph: variable types (degree, punctured),
check types (degree), and the edge counts between them; a node's inputs are
i.i.d. draws from the mixture of its neighbours' types (the cycle-free limit
of flooding on an ensemble with the code's joint degree profile).

Tried as the derivation of min_sum_scale="auto"; it models regular
ensembles well but not the standard codes' structure (accumulator chains,
punctured degree-1 extensions), so the pairs in
lib/engine/min_sum_correction.cc come from scripts/min_sum_scale_sweep.py
instead (docs/min_sum_correction.md): python3 scripts/min_sum_de.py --help.
"""

import argparse
import math
import sys
from collections import Counter, defaultdict

import numpy as np

LEVELS = 127  # messages -127 .. 127, index v + 127


def code_type_graph(code):
    """(vtypes, ctypes, edges): vtypes {(degree, punctured): count}, ctypes
    {(degree, degree-1 neighbours): count}, edges {(vtype, ctype): count}.
    Checks are told apart by their degree-1 neighbours (the accumulator ends
    of DVB-S2, the extension parity bits of 5G NR): a check has as many of
    them as it has, not a random number."""
    offsets = np.asarray(code.check_offsets)
    ev = np.asarray(code.edge_variable)
    n = code.n
    vdeg = np.bincount(ev, minlength=n)
    punct = np.zeros(n, dtype=bool)
    punct[np.asarray(code.punctured_positions, dtype=np.int64)] = True
    cdeg = np.diff(offsets)
    ones = np.add.reduceat((vdeg[ev] == 1).astype(np.int64), offsets[:-1])
    edge_ctype = list(zip(np.repeat(cdeg, cdeg).tolist(), np.repeat(ones, cdeg).tolist()))
    vt = Counter(zip(vdeg.tolist(), punct.tolist()))
    ct = Counter(zip(cdeg.tolist(), ones.tolist()))
    edges = Counter(zip(zip(vdeg[ev].tolist(), punct[ev].tolist()), edge_ctype))
    return dict(vt), dict(ct), dict(edges)


def channel_density(ebn0_db, rate, llr_scale):
    """Density of the quantized channel value of a 0 bit (LLR > 0 means 0)."""
    ebn0 = 10 ** (ebn0_db / 10)
    mu = 4 * rate * ebn0  # LLR ~ N(mu, 2 mu)
    sd = math.sqrt(2 * mu)
    edges = (np.arange(-LEVELS, LEVELS + 2) - 0.5) / llr_scale  # bin edges in LLR
    cdf = 0.5 * (1 + np.vectorize(math.erf)((edges - mu) / (sd * math.sqrt(2))))
    cdf[0], cdf[-1] = 0.0, 1.0
    return np.diff(cdf)


class type_graph_de:
    def __init__(self, code, llr_scale=4.0, offset_q=0):
        self.vt, self.ct, self.edges = code_type_graph(code)
        self.rate = code.rate
        self.llr_scale = llr_scale
        self.offset_q = offset_q
        self.vkeys = sorted(self.vt)
        self.ckeys = sorted(self.ct)
        self.degrees = sorted({d for d, _ in self.ckeys})
        # weights of the input mixtures: a check's degree-1 inputs apart
        self.c_in = {}  # check type -> [(vtype, weight)] of its other inputs
        for c in self.ckeys:
            tot = sum(cnt for (v, cc), cnt in self.edges.items() if cc == c and v[0] > 1)
            self.c_in[c] = [(v, cnt / max(tot, 1)) for (v, cc), cnt in self.edges.items()
                            if cc == c and v[0] > 1]
        self.v_in = {}
        for v in self.vkeys:
            tot = sum(cnt for (vv, c), cnt in self.edges.items() if vv == v)
            self.v_in[v] = [(c, cnt / tot) for (vv, c), cnt in self.edges.items() if vv == v]
        maxd = max(d for d, _ in self.vkeys)
        self.nfft = 1 << math.ceil(math.log2(2 * LEVELS * (maxd + 1) + 1))

    def magnitudes(self, scale_q):
        m = np.arange(LEVELS + 1)
        return (np.maximum(m - self.offset_q, 0) * scale_q + 8) >> 4

    @staticmethod
    def tails(p):
        """(P(X >= t), P(X <= -t)) for t = 0 .. 128, P(X < 0) at t = 0."""
        tail_pos = np.cumsum(p[::-1])[::-1]  # P(X >= v), index v + 127
        tail_neg = np.cumsum(p)  # P(X <= v)
        pos = np.zeros(LEVELS + 2)
        neg = np.zeros(LEVELS + 2)
        t = np.arange(LEVELS + 1)
        pos[: LEVELS + 1] = tail_pos[LEVELS + t]
        neg[1: LEVELS + 1] = tail_neg[LEVELS - t[1:]]
        neg[0] = tail_neg[LEVELS - 1]
        return pos, neg

    def check_out(self, groups, scale_q):
        """Check message density on an edge whose other inputs are groups
        [(density, count)]: the magnitude the rule's of the smallest input
        magnitude, the sign the product of the inputs' (0 counts positive)."""
        s = np.ones(LEVELS + 2)
        d = np.ones(LEVELS + 2)
        for p, count in groups:
            if count == 0:
                continue
            pos, neg = self.tails(p)
            s *= np.clip(pos + neg, 0, 1) ** count
            d *= (pos - neg) ** count
        gp = 0.5 * (s + d)
        gn = 0.5 * (s - d)
        gp[-1] = gn[-1] = 0
        fp = gp[:-1] - gp[1:]
        fn = gn[:-1] - gn[1:]
        mag = self.magnitudes(scale_q)
        out = np.zeros(2 * LEVELS + 1)
        np.add.at(out, LEVELS + mag, fp)
        np.add.at(out, LEVELS - mag, fn)
        return np.maximum(out, 0)

    def run(self, ebn0_db, scales, iterations, target=1e-6):
        """Bit error probability of the beliefs after each iteration (stops
        early below target); scales: check degree -> scale_q."""
        chan = channel_density(ebn0_db, self.rate, self.llr_scale)
        erased = np.zeros(2 * LEVELS + 1)
        erased[LEVELS] = 1
        N = self.nfft
        c2v = {c: erased.copy() for c in self.ckeys}
        c2v_one = {c: erased.copy() for c in self.ckeys}
        nv = sum(self.vt.values())
        history = []
        chan_f = np.fft.rfft(chan, N)
        erased_f = np.fft.rfft(erased, N)
        for it in range(iterations):
            # variable side: v2c per vtype, belief error
            v2c = {}
            pe = 0.0
            for v in self.vkeys:
                dv, punctured = v
                into = c2v_one if dv == 1 else c2v
                mix = sum(w * into[c] for c, w in self.v_in[v])
                mf = np.fft.rfft(mix, N)
                base = erased_f if punctured else chan_f
                # values span -127 (dv + 1) ..: index 0 of each density is -127
                ext = np.fft.irfft(base * mf ** (dv - 1), N)[: 2 * LEVELS * dv + 1]
                ext = np.maximum(ext, 0)
                lo = LEVELS * (dv - 1)  # index of value -127 in ext (offset 127 dv)
                sat = ext[lo: lo + 2 * LEVELS + 1].copy()
                sat[0] += ext[:lo].sum()
                sat[-1] += ext[lo + 2 * LEVELS + 1:].sum()
                v2c[v] = sat / sat.sum()
                bel = np.fft.irfft(base * mf ** dv, N)[: 2 * LEVELS * (dv + 1) + 1]
                bel = np.maximum(bel, 0)
                zero = LEVELS * (dv + 1)
                pe += self.vt[v] * bel[:zero].sum() / bel.sum()
            pe /= nv
            history.append(pe)
            if pe < target:
                break
            single = v2c.get((1, False))
            for c in self.ckeys:
                degree, ones = c
                mix = sum(w * v2c[v] for v, w in self.c_in[c])
                scale = scales.get(degree, 13)
                # what the check sends to its other bits, and to a degree-1 bit
                c2v[c] = self.check_out([(mix, degree - ones - 1), (single, ones)], scale)
                if ones:
                    c2v_one[c] = self.check_out(
                        [(mix, degree - ones), (single, ones - 1)], scale)
        return history

    def converges(self, ebn0_db, scales, iterations, target=1e-6):
        return self.run(ebn0_db, scales, iterations, target)[-1] < target

    def threshold(self, scales, iterations, lo=-2.0, hi=12.0, step=0.02, target=1e-6):
        """Smallest Eb/N0 (dB, to step) at which the error probability falls
        below target within the iterations."""
        if not self.converges(hi, scales, iterations, target):
            return math.inf
        while hi - lo > step:
            mid = 0.5 * (lo + hi)
            if self.converges(mid, scales, iterations, target):
                hi = mid
            else:
                lo = mid
        return hi


def optimise(de, iterations, candidates=range(8, 17), passes=2, start=13, log=None):
    """Per check degree scale_q, by coordinate descent on the threshold."""
    scales = {c: start for c in de.degrees}
    # the degrees carrying most edges first
    weight = defaultdict(int)
    for (v, (c, _)), cnt in de.edges.items():
        weight[c] += cnt
    order = sorted(de.degrees, key=lambda c: -weight[c])
    best = de.threshold(scales, iterations)
    for _ in range(passes):
        changed = False
        for c in order:
            if weight[c] < 0.01 * sum(weight.values()):
                continue  # too few edges to matter
            for s in candidates:
                if s == scales[c]:
                    continue
                trial = {**scales, c: s}
                th = de.threshold(trial, iterations, lo=best - 1.0, hi=best + 0.1)
                if th < best - 1e-9:
                    best, scales, changed = th, trial, True
            if log:
                log(f"  degree {c}: scale {scales[c]}/16, threshold {best:.2f} dB")
        if not changed:
            break
    return scales, best


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("codes", nargs="+", help="code names (dvbs2:1/2, nr:1:384:46, ...)")
    ap.add_argument("--iterations", type=int, default=20)
    ap.add_argument("--scale", type=int, default=None,
                    help="only the threshold of this scale_q on every check")
    args = ap.parse_args()
    from gnuradio import gpuldpc

    for name in args.codes:
        code = gpuldpc.ldpc_code.load(name)
        de = type_graph_de(code)
        print(f"{name}: rate {code.rate:.3f}, check degrees "
              f"{ {c: n for c, n in sorted(Counter(d for d, _ in Counter(de.ct).elements()).items())} }",
              flush=True)
        if args.scale:
            th = de.threshold({c: args.scale for c in de.degrees}, args.iterations)
            print(f"  scale {args.scale}/16 everywhere: {th:.2f} dB")
            continue
        flat = {s: de.threshold({c: s for c in de.degrees}, args.iterations)
                for s in (10, 11, 12, 13, 14)}
        print("  one scale: " + ", ".join(f"{s}/16 {t:.2f} dB" for s, t in flat.items()),
              flush=True)
        scales, th = optimise(de, args.iterations, log=lambda s: print(s, flush=True))
        print(f"  by degree: {scales} -> {th:.2f} dB", flush=True)


if __name__ == "__main__":
    main()
