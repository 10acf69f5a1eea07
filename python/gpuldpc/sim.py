#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Error-rate simulation of LDPC codes: random information, a modulation
(BPSK by default) over AWGN, bit-wise or matched (symbol) demapping.

This is the engine of the `gpuldpc-sim` command. With BPSK and bit LLRs
every step of a frame runs on the decoder's device (`run_point` on a
`gpuldpc.simulation`: counter-based frames, the same on the CPU and any GPU,
split over GPUs and MPI ranks with the same counts); other channels draw
their frames here with numpy (`simulate_point`). Both are usable from
Python too.
"""

import argparse
import json
import math
import os
import sys
import time

import numpy as np

from . import gpuldpc_python as _core

ALGORITHMS = ["auto", "fft-bp", "log-fft-bp", "sum-product", "min-sum"]
# The modulations of the simulation and of the packet link: the module's Gray
# constellations (a GF(2^m) code symbol x, or m code bits MSB first, is the
# label x of its point), named here without their "gpuldpc-" prefix
MODULATIONS = ("bpsk", "qpsk", "8psk", "16qam", "64qam", "256qam")


def gray_constellation(modulation):
    """The module's Gray constellation a modulation names: 'qpsk' and
    'gpuldpc-qpsk' both give 'gpuldpc-qpsk' (GNU Radio's own constellations,
    whose labels differ, are not the simulation's). ValueError for another
    name."""
    short = modulation[len("gpuldpc-"):] if modulation.startswith("gpuldpc-") else modulation
    if short not in MODULATIONS:
        raise ValueError(f"modulation='{modulation}' is unknown; allowed: "
                         f"{', '.join(MODULATIONS)} (the module's Gray constellations "
                         "gpuldpc-bpsk ... gpuldpc-256qam)")
    return "gpuldpc-" + short


def symbols_to_bits(symbols, m):
    """GF(2^m) symbols -> bits, MSB first: (frames, n) -> (frames, n * m)."""
    shifts = np.arange(m - 1, -1, -1, dtype=np.uint8)
    return ((symbols[..., None] >> shifts) & 1).reshape(symbols.shape[0], -1)


def bpsk_awgn_llr(bits, sigma2, rng):
    """BPSK (bit b -> 1 - 2b) over AWGN; LLRs log(P(1)/P(0)) = -2y/sigma^2."""
    y = (1.0 - 2.0 * bits) + rng.normal(0.0, math.sqrt(sigma2), bits.shape)
    return (-2.0 / sigma2 * y).astype(np.float32)


def noise_variance(ebn0_db, rate):
    """sigma^2 = 1 / (2 R Eb/N0) for unit-energy BPSK."""
    return 1.0 / (2.0 * rate * 10.0 ** (ebn0_db / 10.0))


def channel_n0(ebn0_db, rate, bits_per_point):
    """N0 = E|n|^2 for a unit-energy constellation of bits_per_point bits:
    Es = 1 carries rate * bits_per_point information bits."""
    return 1.0 / (rate * bits_per_point * 10.0 ** (ebn0_db / 10.0))


class channel:
    """A modulation over complex AWGN and its demapping into decoder input.

    modulation: 'bpsk' (real BPSK, the default), or another of MODULATIONS
    (the module's Gray constellation of that name, gray_constellation(); then
    complex AWGN of N0 = E|n|^2 and the soft demapper's calibrated LLRs);
    mapping 'bits' (bit LLRs, decoder.decode) or 'matched' (a GF(q) symbol on
    a q-point constellation, symbol log-likelihoods into
    decoder.decode_symbol_llr)."""

    def __init__(self, code, modulation="bpsk", mapping="bits"):
        self.code, self.modulation, self.mapping = code, modulation, mapping
        name = gray_constellation(modulation)
        self.real_bpsk = name == "gpuldpc-bpsk" and mapping == "bits"
        if self.real_bpsk:
            return
        self.demapper = _core.soft_demapper(name, "exact")
        self.m_c = self.demapper.bits_per_symbol
        self.points = _core.constellation(name).points
        frame_bits = code.n_transmitted * code.bits_per_symbol
        if mapping == "matched":
            if code.q != len(self.points):
                raise ValueError(f"mapping='matched' needs a {code.q}-point "
                                 f"constellation for GF({code.q}); modulation="
                                 f"'{modulation}' has {len(self.points)} points")
        elif mapping != "bits":
            raise ValueError(f"mapping='{mapping}' is unknown; allowed: bits, matched")
        if frame_bits % self.m_c:
            raise ValueError(f"a frame of {frame_bits} bits does not fill whole "
                             f"{modulation} symbols of {self.m_c} bits")

    def transmit(self, sent, ebn0_db, rng):
        """The channel's output for the frames of symbols `sent` (frames,
        n_transmitted): BPSK LLRs, or complex symbols with their N0."""
        code = self.code
        m = code.bits_per_symbol
        if self.real_bpsk:
            sigma2 = noise_variance(ebn0_db, code.rate)
            return bpsk_awgn_llr(symbols_to_bits(sent, m), sigma2, rng)
        bits = symbols_to_bits(sent, m).reshape(sent.shape[0], -1, self.m_c)
        labels = (bits << np.arange(self.m_c - 1, -1, -1, dtype=np.uint8)).sum(axis=2)
        n0 = channel_n0(ebn0_db, code.rate, self.m_c)
        noise = rng.normal(size=labels.shape) + 1j * rng.normal(size=labels.shape)
        return (self.points[labels] + math.sqrt(n0 / 2) * noise).astype(np.complex64), n0

    def receive(self, decoder, received):
        """Demaps transmit()'s output and decodes it; returns (bits, status)."""
        if self.real_bpsk:
            return decoder.decode(received)
        y, n0 = received
        if self.mapping == "matched":
            ll = self.demapper.symbol_log_likelihoods(y, n0)
            return decoder.decode_symbol_llr(ll.reshape(y.shape[0], -1))
        return decoder.decode(self.demapper.demap(y, n0).reshape(y.shape[0], -1))

    def decode(self, decoder, sent, ebn0_db, rng):
        """transmit() then receive()."""
        return self.receive(decoder, self.transmit(sent, ebn0_db, rng))


def _frames_to_count(wrong, errors, max_frame_errors):
    """How many of a batch's frames (wrong: their wrong bits, in frame order)
    count, after `errors` frame errors so far: all of them, or up to and with
    the max_frame_errors-th frame error, where the point stops exactly."""
    cum = np.cumsum(wrong > 0)
    if errors + cum[-1] >= max_frame_errors:
        return int(np.searchsorted(cum, max_frame_errors - errors)) + 1
    return len(wrong)


def _stopped_by(done, errors, frames, max_frame_errors):
    """What ended a point: its errors, its frames, or else its time limit."""
    if errors >= max_frame_errors:
        return "errors"
    return "frames" if done >= frames else "seconds"


def simulate_point(code, decoder, ebn0_db, frames, max_frame_errors, batch, rng,
                   progress=None, link=None, max_seconds=None):
    """Runs one Eb/N0 point; stops after `frames` frames, exactly at the
    `max_frame_errors`-th frame error, or (with `max_seconds`) at the end of
    the first batch past that wall time. A frame error is any wrong
    information bit, converged or not. Throughput counts the receiver's time
    only (demapping, where there is one, and decoding). link: a `channel`
    (default: BPSK, bit LLRs)."""
    m = code.bits_per_symbol
    link = link or channel(code)
    done = errors = bit_errors = iterations = 0
    decode_time = 0.0
    last_report = time.perf_counter()
    start = last_report
    while (done < frames and errors < max_frame_errors and
           (max_seconds is None or done == 0 or
            time.perf_counter() - start < max_seconds)):
        b = min(batch, frames - done)
        info = rng.integers(0, code.q, size=(b, code.k), dtype=np.uint8)
        received = link.transmit(code.puncture(code.encode(info)), ebn0_db, rng)
        t0 = time.perf_counter()
        bits, status = link.receive(decoder, received)
        decode_time += time.perf_counter() - t0
        wrong = np.count_nonzero(bits != symbols_to_bits(info, m), axis=1)
        b = _frames_to_count(wrong, errors, max_frame_errors)
        done += b
        errors += int(np.count_nonzero(wrong[:b]))
        bit_errors += int(wrong[:b].sum())
        iterations += int(status["iterations"][:b].sum())
        now = time.perf_counter()
        if progress and (now - last_report > 0.5 or done >= frames or
                         errors >= max_frame_errors):
            last_report = now
            progress(f"Eb/N0 {ebn0_db:5.2f} dB: {done} frames, {errors} errors, "
                     f"FER {errors / done:.2e}, {done / (now - start):.0f} frames/s")
    info_bits = done * code.k * m
    return {
        "ebn0": ebn0_db,
        "stopped_by": _stopped_by(done, errors, frames, max_frame_errors),
        "frames": done,
        "frame_errors": errors,
        "bit_errors": bit_errors,
        "fer": errors / done,
        "ber": bit_errors / info_bits,
        "avg_iterations": iterations / done,
        "info_bits_per_second": info_bits / decode_time if decode_time > 0 else 0.0,
    }


def wilson_interval(errors, trials, z=1.959964):
    """The Wilson score interval of a rate errors/trials (95 % for the default
    z): (low, high), both within [0, 1]; (0, 1) for no trials."""
    if trials == 0:
        return 0.0, 1.0
    p = errors / trials
    d = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / d
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


class _single_process:
    """The frame split of one process (MPI's communicator stands in for it)."""
    rank, size = 0, 1

    @staticmethod
    def allgather(value):
        return [value]


def mpi_world():
    """MPI's world communicator when this process is one of several ranks
    started by mpirun (Open MPI's or MPICH's environment says so), else a
    stand-in for a single process. Needs mpi4py under mpirun."""
    if int(os.environ.get("OMPI_COMM_WORLD_SIZE", os.environ.get("PMI_SIZE", "1"))) <= 1:
        return _single_process()
    from mpi4py import MPI  # Debian: python3-mpi4py
    return MPI.COMM_WORLD


def run_point(simulation, code, ebn0_db, frames, max_frame_errors, batch, seed,
              progress=None, comm=None, first_frame=0, max_seconds=None):
    """One Eb/N0 point of an engine `simulation` (every step of a frame on
    its device): frames first_frame, first_frame + 1, ... of the seed, in
    order, up to `frames` or exactly the `max_frame_errors`-th frame error,
    or, with `max_seconds`, the first round of `batch` frames that ends past
    that wall time. With an MPI communicator, rank r of N simulates frames r,
    r + N, ... of each round and every rank gathers the counts: the result is
    the same for any N (and any device split). Points of disjoint frame
    ranges of one seed add up (a long point run in pieces). Throughput counts
    the whole simulation (frames drawn, encoded, decoded, counted) over the
    wall time."""
    comm = comm or _single_process()
    m = code.bits_per_symbol
    done = errors = bit_errors = iterations = 0
    start = last_report = time.perf_counter()
    out_of_time = False
    while done < frames and errors < max_frame_errors and not out_of_time:
        b = min(batch, frames - done)
        mine = len(range(comm.rank, b, comm.size))
        part = simulation.run(seed, ebn0_db, first_frame + done + comm.rank, mine,
                              stride=comm.size)
        parts = comm.allgather(part)
        r = np.empty(b, dtype=part.dtype)
        for rank, p in enumerate(parts):
            r[rank::comm.size] = p
        wrong = r["bit_errors"].astype(np.int64)
        b = _frames_to_count(wrong, errors, max_frame_errors)
        done += b
        errors += int(np.count_nonzero(wrong[:b]))
        bit_errors += int(wrong[:b].sum())
        iterations += int(r["iterations"][:b].sum())
        now = time.perf_counter()
        if max_seconds is not None:
            # every rank stops after the same round
            out_of_time = any(comm.allgather(now - start >= max_seconds))
        if progress and (now - last_report > 0.5 or done >= frames or
                         errors >= max_frame_errors or out_of_time):
            last_report = now
            progress(f"Eb/N0 {ebn0_db:5.2f} dB: {done} frames, {errors} errors, "
                     f"FER {errors / done:.2e}, {done / (now - start):.0f} frames/s")
    seconds = time.perf_counter() - start
    info_bits = done * code.k * m
    fer_low, fer_high = wilson_interval(errors, done)
    return {
        "ebn0": ebn0_db,
        "first_frame": first_frame,
        "stopped_by": _stopped_by(done, errors, frames, max_frame_errors),
        "frames": done,
        "frame_errors": errors,
        "bit_errors": bit_errors,
        "fer": errors / done,
        "fer_ci95": [fer_low, fer_high],
        "ber": bit_errors / info_bits,
        "avg_iterations": iterations / done,
        "seconds": seconds,
        "info_bits_per_second": info_bits / seconds if seconds > 0 else 0.0,
    }


def format_table(points):
    lines = [f"{'Eb/N0':>6} {'frames':>8} {'errors':>7} {'FER':>9} {'BER':>9} "
             f"{'avg it':>7} {'info Mbit/s':>11}"]
    for p in points:
        lines.append(f"{p['ebn0']:6.2f} {p['frames']:8d} {p['frame_errors']:7d} "
                     f"{p['fer']:9.2e} {p['ber']:9.2e} {p['avg_iterations']:7.2f} "
                     f"{p['info_bits_per_second'] / 1e6:11.3f}")
    return "\n".join(lines)


def plot(result, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    pts = result["points"]
    fig, ax = plt.subplots(figsize=(6.4, 4.8))
    for key, label, style in (("fer", "FER", "o-"), ("ber", "BER", "s--")):
        shown = [p for p in pts if p[key] > 0]
        xs = [p["ebn0"] for p in shown]
        ys = [p[key] for p in shown]
        if not xs:
            continue
        if key == "fer" and all("fer_ci95" in p for p in shown):
            err = [[y - p["fer_ci95"][0] for p, y in zip(shown, ys)],
                   [p["fer_ci95"][1] - y for p, y in zip(shown, ys)]]
            ax.errorbar(xs, ys, yerr=err, fmt=style, capsize=3,
                        label=label + " (95 % interval)")
            ax.set_yscale("log")
        else:
            ax.semilogy(xs, ys, style, label=label)
    c = result["code"]
    # a file by its name; a built-in code (dvbs2:1/2) as given
    name = os.path.basename(c["path"]) if os.path.isfile(c["path"]) else c["path"]
    messages = {"int8": "8-bit ", "fp16": "fp16 "}.get(result.get("messages"), "")
    ax.set_title(f"{name}: GF({c['q']}), n={c['n']}, k={c['k']}\n"
                 f"{messages}{result['algorithm']}, {result['schedule']}, "
                 f"{result['iterations']} iterations, {result['device']}, "
                 f"{result.get('modulation', 'bpsk')} {result.get('mapping', 'bits')}",
                 fontsize=9)
    ax.set_xlabel("Eb/N0 (dB)")
    ax.set_ylabel("error rate")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def list_codes():
    """The shipped codes, a line each (name, n, k, q), and the built-in
    families: what --code takes besides a file."""
    from . import codes  # the package's, which imports this module first
    lines = []
    for name in codes():
        c = _core.ldpc_code.load(name)
        lines.append(f"{name:32} n={c.n:<6} k={c.k:<6} GF({c.q})")
    lines += ["built in: dvbs2:RATE[:short] (DVB-S2; RATE 1/4, 1/3, 2/5, 1/2, 3/5, 2/3, "
              "3/4, 4/5, 5/6, 8/9, 9/10, short frames to 8/9)",
              "          nr:BG:Z[:ROWS] (5G NR; BG 1 or 2, Z = a*2^j <= 384, a in 2, 3, "
              "5, 7, 9, 11, 13, 15; ROWS 4 .. 46 for BG1, 4 .. 42 for BG2)",
              "          wifi:N:RATE (IEEE 802.11n; N 648, 1296 or 1944, RATE 1/2, 2/3, "
              "3/4 or 5/6)",
              "          wimax:N:RATE (IEEE 802.16e; N 576 .. 2304 in steps of 96, RATE "
              "1/2, 2/3A, 2/3B, 3/4A, 3/4B or 5/6)",
              "          ar4ja:K:RATE (CCSDS AR4JA; K 1024, 4096 or 16384, RATE 1/2, "
              "2/3 or 4/5)"]
    return "\n".join(lines)


def _ebn0_list(text):
    try:
        values = [float(x) for x in text.split(",") if x.strip() != ""]
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a comma-separated list of numbers")
    if not values or not all(math.isfinite(v) for v in values):
        raise argparse.ArgumentTypeError(f"'{text}' is not a list of finite numbers")
    return values


def _number_or_auto(text):
    if text == "auto":
        return text
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is neither auto nor a number")


def _positive(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an integer")
    if v < 1:
        raise argparse.ArgumentTypeError(f"{v} must be at least 1")
    return v


def _positive_float(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number")
    if not v > 0:
        raise argparse.ArgumentTypeError(f"{text} must be above 0")
    return v


def _non_negative(text):
    try:
        v = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an integer")
    if v < 0:
        raise argparse.ArgumentTypeError(f"{v} must not be negative")
    return v


def make_parser():
    p = argparse.ArgumentParser(
        prog="gpuldpc-sim",
        description="LDPC error-rate simulation: random information, systematic "
                    "encoding, BPSK over AWGN (sigma^2 = 1/(2 R Eb/N0)) or another "
                    "constellation over complex AWGN (--modulation, --mapping), batch "
                    "decoding.")
    p.add_argument("--code",
                   help="a shipped code's name (--list-codes lists them), a parity-check "
                        "matrix file (alist, nb-alist, .qc) or a built-in code: "
                        "dvbs2:RATE[:short], nr:BG:Z[:ROWS], wifi:N:RATE, wimax:N:RATE, "
                        "ar4ja:K:RATE")
    p.add_argument("--list-codes", action="store_true",
                   help="list the shipped codes (name, n, k, q) and the built-in "
                        "families, then exit")
    p.add_argument("--format", default="auto", choices=["auto", "alist", "nb-alist", "qc"])
    p.add_argument("--coef", default="exponent", choices=["exponent", "polynomial"],
                   help="non-binary alist coefficient convention")
    p.add_argument("--poly", type=_non_negative, default=0,
                   help="field polynomial (0: default)")
    p.add_argument("--ebn0", type=_ebn0_list,
                   help="comma-separated Eb/N0 values in dB, e.g. 1.0,1.5,2.0")
    p.add_argument("--frames", type=_positive, default=10000,
                   help="frames per point at most (default 10000)")
    p.add_argument("--max-frame-errors", type=_positive, default=100,
                   help="stop a point after this many frame errors (default 100)")
    p.add_argument("--seconds", type=_positive_float, default=None,
                   help="stop a point after this wall time too, at the end of a "
                        "batch (default: no limit)")
    p.add_argument("--first-frame", type=_non_negative, default=0,
                   help="the points' first frame index (on-device simulation, BPSK "
                        "with bit LLRs): runs of disjoint frame ranges of one seed "
                        "add up to one run of their frames (default 0)")
    p.add_argument("--iterations", type=_positive, default=50,
                   help="maximum decoder iterations (default 50)")
    p.add_argument("--algorithm", default="auto", choices=ALGORITHMS)
    p.add_argument("--schedule", default="flooding", choices=["flooding", "layered"])
    p.add_argument("--messages", default="fp32", choices=["fp32", "fp16", "int8"],
                   help="check-to-variable messages: fp32 (default), fp16 (fft-bp), "
                        "int8 (8-bit fixed-point min-sum)")
    p.add_argument("--llr-scale", type=float, default=4.0,
                   help="int8: fixed-point steps per unit of LLR (default 4)")
    p.add_argument("--modulation", default="bpsk",
                   choices=list(MODULATIONS) + ["gpuldpc-" + m for m in MODULATIONS],
                   help="the module's Gray constellation of that name (gpuldpc-qpsk "
                        "for qpsk, ...) of unit energy over complex AWGN, N0 = "
                        "1/(R m Eb/N0) for m bits a point (default bpsk: real BPSK, "
                        "sigma^2 = 1/(2 R Eb/N0))")
    p.add_argument("--mapping", default="bits", choices=["bits", "matched"],
                   help="bits: calibrated bit LLRs (soft demapper); matched: a GF(q) "
                        "symbol on a q-point constellation, its q log-likelihoods into "
                        "the decoder (default bits)")
    p.add_argument("--min-sum-scale", type=_number_or_auto, default="auto",
                   help="min-sum: normalization factor, (0, 1], or auto: chosen for the "
                        "code (gpuldpc.min_sum_auto_correction; the default)")
    p.add_argument("--min-sum-offset", type=_number_or_auto, default="auto",
                   help="min-sum: offset subtracted from magnitudes, >= 0, or auto: "
                        "chosen with an auto scale, else 0 (the default)")
    p.add_argument("--min-sum-magnitude", default="auto",
                   choices=["auto", "smallest", "two-smallest", "three-smallest"],
                   help="min-sum: the smallest input magnitude, or the two or three "
                        "smallest combined exactly (two-smallest on the CPU only); auto "
                        "(the default): three-smallest for 8-bit messages where most "
                        "checks have 6 edges or fewer, else smallest "
                        "(gpuldpc.min_sum_auto_magnitude)")
    p.add_argument("--device", default="auto",
                   help="auto, cpu, cuda, cuda:N, or several GPUs: cuda:N,M,... or "
                        "cuda:all (default auto). Under mpirun, ranks given cuda or auto "
                        "take a GPU each")
    p.add_argument("--threads", type=_non_negative, default=0,
                   help="decoder threads (default 0: all cores)")
    p.add_argument("--batch", type=_positive, default=None,
                   help="frames per decoder call (default 64 per thread)")
    p.add_argument("--seed", type=_non_negative, default=1)
    p.add_argument("--json", metavar="FILE", help="write the results as JSON")
    p.add_argument("--plot", metavar="FILE.png", help="plot FER and BER into a PNG")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return p


def main(argv=None):
    parser = make_parser()
    args = parser.parse_args(argv)
    if args.list_codes:
        print(list_codes())
        return 0
    for name in ("code", "ebn0"):
        if getattr(args, name) is None:
            parser.error(f"the following arguments are required: --{name}")
    gpu_list = args.device == "cuda:all" or (
        args.device.startswith("cuda:") and "," in args.device and
        all(x.isdigit() for x in args.device[5:].split(",")))
    if not (args.device in ("auto", "cpu", "cuda") or gpu_list or
            (args.device.startswith("cuda:") and args.device[5:].isdigit())):
        parser.error(f"argument --device: '{args.device}' is not one of auto, cpu, "
                     "cuda, cuda:N, cuda:N,M,..., cuda:all")
    comm = mpi_world()
    decoder_device = args.device
    if gpu_list:
        decoder_device = "cuda" if args.device == "cuda:all" else args.device.split(",")[0]
    elif comm.size > 1 and args.device in ("auto", "cuda") and _core.cuda_devices():
        # one GPU a rank: the node's ranks in turn on its GPUs
        local = int(os.environ.get("OMPI_COMM_WORLD_LOCAL_RANK",
                                   os.environ.get("MPI_LOCALRANKID", comm.rank)))
        decoder_device = f"cuda:{local % len(_core.cuda_devices())}"
    try:
        code = _core.ldpc_code.load(args.code, format=args.format, coef=args.coef,
                                    poly=args.poly)
    except (ValueError, RuntimeError) as e:
        parser.error(f"argument --code: {e}")
    try:
        decoder = _core.batch_decoder(code, algorithm=args.algorithm,
                                      schedule=args.schedule,
                                      messages=args.messages,
                                      llr_scale=args.llr_scale,
                                      min_sum_scale=args.min_sum_scale,
                                      min_sum_offset=args.min_sum_offset,
                                      min_sum_magnitude=args.min_sum_magnitude,
                                      max_iterations=args.iterations,
                                      threads=args.threads, device=decoder_device)
    except ValueError as e:
        parser.error(str(e))
    except RuntimeError as e:
        print(f"gpuldpc-sim: error: {e}", file=sys.stderr)
        return 1
    try:
        link = channel(code, args.modulation, args.mapping)
    except ValueError as e:
        parser.error(f"argument --mapping/--modulation: {e}")
    simulation = None
    if link.real_bpsk:
        # every step of a frame on the decoder's device, counter-based frames
        try:
            simulation = _core.simulation(decoder, args.device if gpu_list else "")
        except ValueError as e:
            parser.error(f"argument --code/--device: {e}")
        except RuntimeError as e:
            print(f"gpuldpc-sim: error: {e}", file=sys.stderr)
            return 1
        batch = args.batch or simulation.preferred_batch() * comm.size
    else:
        if args.first_frame:
            parser.error("argument --first-frame: frames are counter-based (drawn from "
                         "the seed and their index) only for BPSK with bit LLRs "
                         "(--modulation bpsk --mapping bits)")
        if comm.size > 1 or gpu_list:
            parser.error("argument --modulation/--mapping: several ranks or GPUs "
                         "simulate BPSK with bit LLRs only (--modulation bpsk --mapping "
                         "bits)")
        # the GPU decoder takes one frame per thread block: large batches fill it
        batch = args.batch or (64 * decoder.threads if decoder.device == "cpu" else 1024)
    main_rank = comm.rank == 0

    def progress(line):
        if not args.quiet and main_rank:
            print("\r" + line.ljust(78), end="", file=sys.stderr, flush=True)

    def say(line):
        if main_rank:
            print(line)

    rng = np.random.default_rng(args.seed)
    device = simulation.device if simulation else decoder.device
    say(f"code {args.code}: GF({code.q}), n={code.n} symbols "
        f"({code.n * code.bits_per_symbol} bits), k={code.k}, rate {code.rate:.4f}")
    say(f"decoder {decoder.algorithm}, {decoder.schedule}, {args.iterations} iterations "
        f"max, device {device}, {decoder.threads} threads, batch {batch}; "
        f"{args.modulation}, {args.mapping} demapping")
    if simulation:
        say(f"every step of a frame on {device}: counter-based frames (seed {args.seed}), "
            f"encoder {simulation.encoder_variant}"
            + (f"; {comm.size} MPI ranks" if comm.size > 1 else ""))
    if decoder.kernel_variant:
        say(f"kernel: {decoder.kernel_variant}")
    points = []
    result = {
        "code": {"path": args.code, "n": code.n, "k": code.k, "q": code.q},
        "device": device,
        "simulation": "device" if simulation else "host",
        "encoder": simulation.encoder_variant if simulation else "",
        "ranks": comm.size,
        "kernel_variant": decoder.kernel_variant,
        "threads": decoder.threads,
        "algorithm": decoder.algorithm,
        "schedule": decoder.schedule,
        "messages": decoder.messages,
        "min_sum_scale": decoder.min_sum_scale,
        "min_sum_offset": decoder.min_sum_offset,
        "min_sum_magnitude": decoder.min_sum_magnitude,
        "llr_scale": args.llr_scale,
        "iterations": args.iterations,
        "modulation": args.modulation,
        "mapping": args.mapping,
        "seed": args.seed,
        "points": points,
    }

    def write_json():
        # after every point: a long run that is stopped keeps what it finished
        if args.json and main_rank:
            with open(args.json, "w") as f:
                json.dump(result, f, indent=2)

    for ebn0 in args.ebn0:
        if simulation:
            points.append(run_point(simulation, code, ebn0, args.frames,
                                    args.max_frame_errors, batch, args.seed, progress,
                                    comm, args.first_frame, args.seconds))
        else:
            points.append(simulate_point(code, decoder, ebn0, args.frames,
                                         args.max_frame_errors, batch, rng, progress,
                                         link, args.seconds))
        if not args.quiet and main_rank:
            print(file=sys.stderr)
        write_json()
    if not main_rank:
        return 0
    print(format_table(points))
    if args.plot:
        plot(result, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
