#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Error-rate regression tests of the CPU reference decoders.

Each case decodes N frames (BPSK, AWGN, fixed seed) and requires the number
of frame errors to lie in an interval derived from the trial counts: the
reference rate comes from a long run with other seeds
(scripts/error-rate-references, frames and errors recorded below); its
99.9 % Clopper-Pearson interval is widened by the 0.05 %/99.95 % binomial
quantiles for N frames. A correct decoder thus fails a case with probability
below 0.1 % (0.05 % per side, beyond the reference's own 0.1 %).

N is sized per case so that a regression fails: the smallest N (on a grid
growing by 10 %) for which a decoder whose frame error rate is twice the
reference's, 2 * p0 (for p0 > 1/3, where doubling would pass 2/3: half the
reference's success rate, (1 + p0) / 2), exceeds the upper bound with
probability >= 99 % (exact binomial tail). So a 2x FER regression fails each
case with probability >= 99 %. Low error rates need many frames (about 29000
for a GF(64) point at p0 = 0.5 %); the whole file decodes in about three
minutes on two cores."""

import math
import os

import numpy as np
from gnuradio import gr_unittest

from gnuradio import gpuldpc
from gnuradio.gpuldpc import sim

ITERATIONS = 50

# (shipped code, algorithm, schedule, Eb/N0 in dB)
CASES = [
    ("regular_3_6_n1008_gf2.alist", "sum-product", "flooding", 1.5),
    ("regular_3_6_n1008_gf2.alist", "sum-product", "flooding", 2.0),
    ("regular_3_6_n1008_gf2.alist", "sum-product", "layered", 1.5),
    ("regular_3_6_n1008_gf2.alist", "sum-product", "layered", 2.0),
    ("regular_3_6_n1008_gf2.alist", "min-sum", "flooding", 1.5),
    ("regular_3_6_n1008_gf2.alist", "min-sum", "flooding", 2.0),
    ("regular_2_4_n256_gf4.alist", "fft-bp", "flooding", 1.0),
    ("regular_2_4_n256_gf4.alist", "fft-bp", "flooding", 2.0),
    ("regular_2_4_n96_gf64.alist", "fft-bp", "flooding", 1.0),
    ("regular_2_4_n96_gf64.alist", "fft-bp", "flooding", 2.0),
    ("regular_2_4_n96_gf64.alist", "fft-bp", "layered", 1.0),
    ("regular_2_4_n96_gf64.alist", "fft-bp", "layered", 2.0),
    ("regular_2_4_n128_gf16.alist", "log-fft-bp", "flooding", 1.0),
    ("regular_2_4_n128_gf16.alist", "log-fft-bp", "flooding", 2.0),
    ("regular_2_4_n64_gf256.alist", "fft-bp", "flooding", 1.0),
    ("regular_2_4_n64_gf256.alist", "fft-bp", "flooding", 1.5),
]

# from scripts/error-rate-references (seeds 100000 + case index)
REFERENCE = {  # (frames, frame errors); 20000 frames or 2000 errors
    ('regular_3_6_n1008_gf2.alist', 'sum-product', 'flooding', 1.5): (9447, 2000),
    ('regular_3_6_n1008_gf2.alist', 'sum-product', 'flooding', 2.0): (20000, 353),
    ('regular_3_6_n1008_gf2.alist', 'sum-product', 'layered', 1.5): (11092, 2000),
    ('regular_3_6_n1008_gf2.alist', 'sum-product', 'layered', 2.0): (20000, 242),
    ('regular_3_6_n1008_gf2.alist', 'min-sum', 'flooding', 1.5): (7336, 2000),
    ('regular_3_6_n1008_gf2.alist', 'min-sum', 'flooding', 2.0): (20000, 444),
    ('regular_2_4_n256_gf4.alist', 'fft-bp', 'flooding', 1.0): (2303, 2000),
    ('regular_2_4_n256_gf4.alist', 'fft-bp', 'flooding', 2.0): (6357, 2000),
    ('regular_2_4_n96_gf64.alist', 'fft-bp', 'flooding', 1.0): (7391, 2000),
    ('regular_2_4_n96_gf64.alist', 'fft-bp', 'flooding', 2.0): (20000, 109),
    ('regular_2_4_n96_gf64.alist', 'fft-bp', 'layered', 1.0): (7665, 2000),
    ('regular_2_4_n96_gf64.alist', 'fft-bp', 'layered', 2.0): (20000, 107),
    ('regular_2_4_n128_gf16.alist', 'log-fft-bp', 'flooding', 1.0): (4371, 2000),
    ('regular_2_4_n128_gf16.alist', 'log-fft-bp', 'flooding', 2.0): (20000, 692),
    ('regular_2_4_n64_gf256.alist', 'fft-bp', 'flooding', 1.0): (7767, 2000),
    ('regular_2_4_n64_gf256.alist', 'fft-bp', 'flooding', 1.5): (20000, 947),
}

# chance that a doubled frame error rate fails a case
POWER = 0.99


def binom_pmf(i, n, p):
    """P(X = i), X ~ Binomial(n, p), in log space (n up to millions)."""
    if p <= 0.0:
        return 1.0 if i == 0 else 0.0
    if p >= 1.0:
        return 1.0 if i == n else 0.0
    return math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) +
                    i * math.log(p) + (n - i) * math.log1p(-p))


def binom_cdf(k, n, p):
    return min(1.0, sum(binom_pmf(i, n, p) for i in range(k + 1)))


def binom_quantile(n, p, level):
    """Smallest k with P(X <= k) >= level, X ~ Binomial(n, p)."""
    acc = 0.0
    for k in range(n + 1):
        acc += binom_pmf(k, n, p)
        if acc >= level:
            return k
    return n


def clopper_pearson(k, n, alpha):
    """Exact two-sided (1 - alpha) interval for a binomial proportion, by bisection."""
    def solve(target, k_tail, upper):
        lo, hi = 0.0, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if upper:  # P(X <= k) = alpha/2
                (lo, hi) = (mid, hi) if binom_cdf(k_tail, n, mid) > target else (lo, mid)
            else:  # P(X >= k) = alpha/2
                tail = 1 - binom_cdf(k_tail - 1, n, mid) if k_tail > 0 else 1.0
                (lo, hi) = (lo, mid) if tail > target else (mid, hi)
        return (lo + hi) / 2
    p_lo = 0.0 if k == 0 else solve(alpha / 2, k, upper=False)
    p_hi = 1.0 if k == n else solve(alpha / 2, k, upper=True)
    return p_lo, p_hi


def allowed_errors(ref_frames, ref_errors, trials):
    p_lo, p_hi = clopper_pearson(ref_errors, ref_frames, 1e-3)
    return binom_quantile(trials, p_lo, 0.0005), binom_quantile(trials, p_hi, 0.9995)


def regressed_rate(p0):
    """The frame error rate of a regression the test must catch."""
    return min(2.0 * p0, (1.0 + p0) / 2.0)


def binom_sf(k, n, p):
    """P(X > k), X ~ Binomial(n, p)."""
    return max(0.0, 1.0 - binom_cdf(k, n, p))


def trials_for(ref_frames, ref_errors, power=POWER):
    """Smallest N (grid) at which a doubled FER exceeds the bound with `power`."""
    p_lo, p_hi = clopper_pearson(ref_errors, ref_frames, 1e-3)
    p1 = regressed_rate(ref_errors / ref_frames)
    n = 100
    while True:
        hi = binom_quantile(n, p_hi, 0.9995)
        if binom_sf(hi, n, p1) >= power:
            return n
        n = int(n * 1.1) + 1


def run_case(index, code_name, algorithm, schedule, ebn0, trials=300):
    code = gpuldpc.ldpc_code.load(os.path.join(gpuldpc.codes_dir(), code_name))
    # the CPU reference, as the references were made
    dec = gpuldpc.batch_decoder(code, algorithm=algorithm, schedule=schedule,
                                max_iterations=ITERATIONS, device="cpu")
    rng = np.random.default_rng(7 + index)
    return sim.simulate_point(code, dec, ebn0, trials, trials, 100, rng)


class qa_error_rates(gr_unittest.TestCase):

    def test_frame_error_rates_match_reference(self):
        self.assertEqual(set(REFERENCE), set(CASES))
        for i, case in enumerate(CASES):
            ref_frames, ref_errors = REFERENCE[case]
            trials = trials_for(ref_frames, ref_errors)
            lo, hi = allowed_errors(ref_frames, ref_errors, trials)
            p = run_case(i, *case, trials=trials)
            with self.subTest(case=case):
                self.assertEqual(p["frames"], trials)
                self.assertTrue(
                    lo <= p["frame_errors"] <= hi,
                    f"{case}: {p['frame_errors']} frame errors in {trials}, allowed "
                    f"{lo}..{hi} (reference {ref_errors}/{ref_frames})")

    def test_trial_counts_catch_a_doubled_error_rate(self):
        # the sizing itself: at each case's N a doubled FER lands above the
        # bound with POWER, the reference's upper rate at most 0.05 % of the time
        for case in CASES:
            ref_frames, ref_errors = REFERENCE[case]
            n = trials_for(ref_frames, ref_errors)
            lo, hi = allowed_errors(ref_frames, ref_errors, n)
            p1 = regressed_rate(ref_errors / ref_frames)
            self.assertGreaterEqual(binom_sf(hi, n, p1), POWER, case)
            _, p_hi = clopper_pearson(ref_errors, ref_frames, 1e-3)
            self.assertLessEqual(binom_sf(hi, n, p_hi), 0.0005 + 1e-12, case)
            # 300 frames, the former size, could not see it
            if n > 300:
                _, hi300 = allowed_errors(ref_frames, ref_errors, 300)
                self.assertLess(binom_sf(hi300, 300, p1), POWER, case)

    def test_layered_needs_fewer_iterations(self):
        # same frames for both schedules; equal FER within chance, fewer iterations
        for i, (code_name, ebn0) in enumerate([("regular_3_6_n1008_gf2.alist", 2.0),
                                               ("regular_2_4_n96_gf64.alist", 1.5)]):
            res = {s: run_case(100 + i, code_name, "auto", s, ebn0)
                   for s in ("flooding", "layered")}
            f, l = res["flooding"], res["layered"]
            self.assertLess(l["avg_iterations"], 0.8 * f["avg_iterations"],
                            f"{code_name}: {l} vs {f}")
            # layered must not lose more than chance allows: one-sided 99.95 %
            lo, hi = allowed_errors(300, f["frame_errors"], 300)
            self.assertLessEqual(l["frame_errors"], hi)

    def test_below_the_shannon_limit_nothing_decodes(self):
        # Rate 1/2 over the BPSK-input AWGN channel needs Eb/N0 >= 0.19 dB;
        # at -1 dB a long code fails almost surely (first principles, no reference).
        p = run_case(200, "regular_3_6_n1008_gf2.alist", "sum-product", "layered", -1.0,
                     trials=100)
        self.assertGreaterEqual(p["frame_errors"], 95)

    def test_interval_arithmetic(self):
        # the helpers themselves: known values
        self.assertEqual(binom_quantile(10, 0.5, 0.5), 5)
        lo, hi = clopper_pearson(0, 100, 0.05)
        self.assertEqual(lo, 0.0)
        self.assertAlmostEqual(hi, 0.0362, places=3)
        lo, hi = clopper_pearson(50, 100, 0.05)
        self.assertAlmostEqual(lo, 0.3983, places=3)
        self.assertAlmostEqual(hi, 0.6017, places=3)


if __name__ == '__main__':
    gr_unittest.run(qa_error_rates)
