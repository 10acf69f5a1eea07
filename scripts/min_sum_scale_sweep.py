#!/usr/bin/python3
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""Which min-sum scale a code wants: the simulation behind min_sum_scale="auto".

For each code, the Eb/N0 at which a decoder reaches a frame error rate
(default 1e-2) is estimated for float sum-product and for the 8-bit min-sum
rule at each scale_q / 16 (BPSK, AWGN, all-zero codewords: every decoder here
is symmetric; fixed seeds). The first points bracket sum-product's, the
others are read off the same Eb/N0 grid by log-linear interpolation. Prints a
table and writes JSON; docs/min_sum_correction.md records a run and the rule
fitted to it (lib/engine/min_sum_correction.cc), and --report FILE.json ...
prints the tables it shows.

    PYTHONPATH=<build>/test_modules scripts/min_sum_scale_sweep.py \\
        --device cuda --json out.json nr:1:128:46 dvbs2:1/2 ...
"""

import argparse
import json
import math
import sys
import time

import numpy as np


def frame_errors(code, dec, ebn0_db, frames, seed, batch=256):
    rng = np.random.default_rng(seed)
    sigma2 = 1.0 / (2 * code.rate * 10 ** (ebn0_db / 10))
    n = code.n_transmitted
    errors = 0
    done = 0
    while done < frames:
        b = min(batch, frames - done)
        y = 1.0 + math.sqrt(sigma2) * rng.standard_normal((b, n), dtype=np.float32)
        # GNU Radio's sign convention: positive LLR means 1; bit 0 is sent as +1
        llr = (-2.0 / sigma2) * y
        bits, status = dec.decode(llr.astype(np.float32))
        errors += int(np.count_nonzero(np.asarray(bits).reshape(b, -1).any(axis=1)))
        done += b
    return errors


def crossing(points, target):
    """Eb/N0 where the FER falls through target, log-linear between the grid
    points around it; None when the grid does not bracket it."""
    points = sorted(points)
    for (e0, f0), (e1, f1) in zip(points, points[1:]):
        if f0 >= target > f1:
            l0 = math.log(max(f0, 1e-9))
            l1 = math.log(max(f1, 0.5 / 1e9))
            return e0 + (e1 - e0) * (l0 - math.log(target)) / (l0 - l1)
    if points and points[0][1] < target:
        return -math.inf
    return None


def label_of(scale, offset):
    return f"{round(scale * 16)}/16" + (f"-{offset:g}" if offset else "")


def report(files):
    """Markdown tables of sweeps' JSON files: per code, the Eb/N0 (dB) of the
    target FER for sum-product, the former default (13/16), the automatic
    correction (gpuldpc.min_sum_auto_correction) and the best pair measured,
    with their distances from sum-product."""
    from gnuradio import gpuldpc

    fmt = lambda v: "–" if v is None or v in (math.inf, -math.inf) else f"{v:.2f}"
    gap = lambda v, ref: None if None in (v, ref) or -math.inf in (v, ref) else v - ref
    for path in files:
        with open(path) as f:
            d = json.load(f)
        print(f"\n{d['iterations']} iterations, {d['schedule']}, FER {d['target']:g}, "
              f"{d['results'][0]['frames']} frames a point, {d['device']}; "
              f"Eb/N0 in dB (gap: from sum-product):\n")
        print("| code | rate | sum-product | 13/16 | auto | auto's gap | best | best's gap |")
        print("|---" * 8 + "|")
        for r in d["results"]:
            c = r["crossing"]
            ref = c["sum-product"]
            auto = label_of(*gpuldpc.min_sum_auto_correction(
                gpuldpc.ldpc_code.load(r["code"]), d.get("magnitude", "smallest"),
                max_iterations=d["iterations"]))
            best = r["best"]
            print(f"| {r['code']} | {r['rate']:.3f} | {fmt(ref)} | {fmt(c.get('13/16'))} | "
                  f"{auto}: {fmt(c.get(auto))} | {fmt(gap(c.get(auto), ref))} | "
                  f"{best}: {fmt(c.get(best))} | {fmt(gap(c.get(best), ref))} |")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--report":
        return report(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("codes", nargs="+")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--schedule", default="layered")
    ap.add_argument("--frames", type=int, default=400)
    ap.add_argument("--target", type=float, default=1e-2)
    ap.add_argument("--scales", default="9,10,11,12,13,14")
    ap.add_argument("--magnitude", default="smallest",
                    choices=["smallest", "two-smallest", "three-smallest"],
                    help="min_sum_magnitude of the min-sum decoders")
    ap.add_argument("--offsets", default="0",
                    help="min_sum_offset values (LLR units), each with every scale")
    ap.add_argument("--step", type=float, default=0.1, help="grid step, dB")
    ap.add_argument("--points", type=int, default=8, help="grid points past sum-product's")
    ap.add_argument("--json")
    args = ap.parse_args()
    from gnuradio import gpuldpc

    scales = [int(s) for s in args.scales.split(",")]
    offsets = [float(o) for o in args.offsets.split(",")]
    results = []
    device_name = args.device
    for name in args.codes:
        t0 = time.time()
        code = gpuldpc.ldpc_code.load(name)
        common = dict(schedule=args.schedule, max_iterations=args.iterations,
                      early_termination=True, device=args.device)
        decoders = {"sum-product": gpuldpc.batch_decoder(code, algorithm="sum-product",
                                                         **common)}
        for o in offsets:
            for s in scales:
                label = f"{s}/16" + (f"-{o:g}" if o else "")
                decoders[label] = gpuldpc.batch_decoder(
                    code, algorithm="min-sum", messages="int8", min_sum_scale=s / 16,
                    min_sum_offset=o, min_sum_magnitude=args.magnitude, **common)
        # sum-product's crossing, to the grid step
        lo, hi = -1.0, 8.0
        sp = decoders["sum-product"]
        device_name = sp.device  # the device's name, as the decoder reports it
        while hi - lo > args.step:
            mid = round((lo + hi) / 2 / args.step) * args.step
            if mid in (lo, hi):
                break
            fer = frame_errors(code, sp, mid, args.frames, 1) / args.frames
            lo, hi = (mid, hi) if fer >= args.target else (lo, mid)
        grid = [round(lo + i * args.step, 3) for i in range(-1, args.points + 1)]
        row = {"code": name, "n": code.n, "k": code.k, "rate": code.rate,
               "frames": args.frames, "grid": grid, "fer": {}, "crossing": {}}
        for label, dec in decoders.items():
            fers = []
            for e in grid:
                fer = frame_errors(code, dec, e, args.frames, 1 + int(round((e + 10) * 1000)))
                fers.append(fer / args.frames)
                if fer == 0:
                    break
            row["fer"][label] = fers
            row["crossing"][label] = crossing(list(zip(grid, fers)), args.target)
        cross = {k: v for k, v in row["crossing"].items() if k != "sum-product"}
        finite = {k: v for k, v in cross.items() if v is not None}
        best = min(finite, key=finite.get) if finite else None
        row["best"] = best
        results.append(row)
        ref = row["crossing"]["sum-product"]
        fmt = lambda v: "  -  " if v is None else f"{v:5.2f}"
        print(f"{name:16s} rate {code.rate:.3f}  SP {fmt(ref)} dB  " +
              " ".join(f"{k} {fmt(v)}" for k, v in cross.items()) +
              f"  best {best}  ({time.time() - t0:.0f} s)", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"iterations": args.iterations, "schedule": args.schedule,
                       "magnitude": args.magnitude,
                       "target": args.target, "device": device_name,
                       "results": results}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
