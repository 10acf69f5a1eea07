#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#

import json
import os
import subprocess
import sys
import tempfile
import threading

import numpy as np
from gnuradio import gr_unittest

from gnuradio import gpuldpc
from gnuradio.gpuldpc import sim


def noisy_frames(code, frames, ebn0, seed):
    rng = np.random.default_rng(seed)
    info = rng.integers(0, code.q, size=(frames, code.k), dtype=np.uint8)
    bits = sim.symbols_to_bits(code.puncture(code.encode(info)), code.bits_per_symbol)
    sigma2 = sim.noise_variance(ebn0, code.rate)
    return sim.symbols_to_bits(info, code.bits_per_symbol), sim.bpsk_awgn_llr(bits, sigma2, rng)


class qa_batch_decoder(gr_unittest.TestCase):

    def test_calls_from_python_threads(self):
        # decode() runs without the GIL; concurrent calls on one decoder take
        # turns and each gets the answer of a lone call (CPU: its workspaces)
        code = gpuldpc.construct_regular_code(128, 2, 4, 16, seed=4)
        dec = gpuldpc.batch_decoder(code, max_iterations=20, threads=2, device="cpu")
        inputs = [noisy_frames(code, 10, 1.5, 40 + i)[1] for i in range(4)]
        expected = [dec.decode(llr) for llr in inputs]
        results = [[] for _ in inputs]

        def caller(i):
            for _ in range(5):
                results[i].append(dec.decode(inputs[i]))

        threads = [threading.Thread(target=caller, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for i, (bits, status) in enumerate(expected):
            for got_bits, got_status in results[i]:
                np.testing.assert_array_equal(got_bits, bits)
                np.testing.assert_array_equal(got_status["iterations"],
                                              status["iterations"])
        self.assertEqual(dec.workspaces(), 2)

    def test_decode_shapes_and_status(self):
        for q in (2, 4, 16, 64, 256):
            code = gpuldpc.construct_regular_code(96, 2, 4, q, seed=3)
            m = code.bits_per_symbol
            info_bits, llr = noisy_frames(code, 5, 6.0, q)
            for alg in (["sum-product", "min-sum"] if q == 2 else []) + ["fft-bp",
                                                                         "log-fft-bp"]:
                for sched in ("flooding", "layered"):
                    dec = gpuldpc.batch_decoder(code, algorithm=alg, schedule=sched,
                                                max_iterations=20, device="cpu")
                    self.assertEqual(dec.algorithm, alg)
                    self.assertEqual(dec.device, "cpu")
                    # the CPU: the SIMD decoders name their instruction set,
                    # the scalar reference (binary FFT-BP, log-FFT-BP) nothing
                    if q == 2 and alg in ("sum-product", "min-sum"):
                        self.assertRegex(dec.kernel_variant, f"float {alg}, {sched}, ")
                    elif q > 2 and alg == "fft-bp":
                        self.assertRegex(dec.kernel_variant, f"FFT-BP, {sched}, .*GF\\({q}\\)")
                    else:
                        self.assertEqual(dec.kernel_variant, "")
                    self.assertEqual(dec.llr_per_frame, code.n * m)
                    bits, status, cw = dec.decode(llr, return_codeword=True)
                    self.assertEqual(bits.shape, (5, code.k * m))
                    self.assertEqual(bits.dtype, np.uint8)
                    self.assertEqual(cw.shape, (5, code.n * m))
                    np.testing.assert_array_equal(bits, info_bits)
                    self.assertTrue(status["converged"].all())
                    np.testing.assert_array_equal(status["syndrome_weight"], 0)
                    # the information bits sit inside the codeword
                    sym_bits = cw.reshape(5, code.n, m)[:, code.info_positions, :]
                    np.testing.assert_array_equal(sym_bits.reshape(5, -1), bits)
            one_bits, one_status = gpuldpc.batch_decoder(code).decode(llr[0])
            np.testing.assert_array_equal(one_bits[0], info_bits[0])

    def test_packed_info_bits(self):
        # q = 64, n = 100: 300 bits a frame, the last byte half used; numpy's
        # packbits pads the same way
        code = gpuldpc.construct_regular_code(100, 2, 4, 64, seed=3)
        info_bits, llr = noisy_frames(code, 6, 1.5, 8)
        for alg in ("fft-bp", "log-fft-bp"):
            unpacked = gpuldpc.batch_decoder(code, algorithm=alg, max_iterations=10)
            packed = gpuldpc.batch_decoder(code, algorithm=alg, max_iterations=10,
                                           pack_info_bits=True)
            self.assertTrue(packed.pack_info_bits)
            self.assertFalse(unpacked.pack_info_bits)
            self.assertEqual(packed.info_bits_per_frame, 300)
            self.assertEqual(packed.info_bytes_per_frame, 38)
            self.assertEqual(unpacked.info_bytes_per_frame, 300)
            bits, status = unpacked.decode(llr)
            pbits, pstatus = packed.decode(llr)
            self.assertEqual(pbits.shape, (6, 38))
            np.testing.assert_array_equal(pbits, np.packbits(bits, axis=1))
            np.testing.assert_array_equal(pstatus, status)

    def test_symbol_llr_and_sign(self):
        code = gpuldpc.ldpc_code.load(os.path.join(gpuldpc.codes_dir(),
                                                   "regular_2_4_n128_gf16.alist"))
        info_bits, llr = noisy_frames(code, 4, 4.0, 1)
        flipped = gpuldpc.batch_decoder(code, flip_llr_sign=True)
        bits, _ = flipped.decode(-llr)
        np.testing.assert_array_equal(bits, info_bits)
        # symbol log-likelihoods built from the bit LLRs (MSB first)
        m, q = code.bits_per_symbol, code.q
        x_bits = sim.symbols_to_bits(np.arange(q, dtype=np.uint8)[None, :], m).reshape(q, m)
        l = llr.reshape(4, code.n, 1, m).astype(np.float64)
        ll = -np.log1p(np.exp(np.where(x_bits[None, None] == 1, -l, l))).sum(axis=3)
        bits, status = gpuldpc.batch_decoder(code).decode_symbol_llr(
            ll.reshape(4, -1).astype(np.float32))
        np.testing.assert_array_equal(bits, info_bits)

    def test_decode_symbols_matched_constellation(self):
        # GF(64) on 64-QAM (code symbol x sent as point x): the decoder's
        # demapping is the soft demapper's symbol log-likelihoods, each
        # symbol's less its largest, given to decode_symbol_llr
        code = gpuldpc.ldpc_code.load(os.path.join(gpuldpc.codes_dir(),
                                                   "regular_2_4_n96_gf64.alist"))
        rng = np.random.default_rng(5)
        frames = 6
        info = rng.integers(0, code.q, size=(frames, code.k), dtype=np.uint8)
        cw = code.puncture(code.encode(info))
        points = np.array(gpuldpc.constellation("gpuldpc-64qam").points, dtype=np.complex64)
        n0 = np.array([0.01, 0.02, 0.03, 0.02, 0.01, 0.015], dtype=np.float32)
        noise = (rng.normal(size=cw.shape) + 1j * rng.normal(size=cw.shape)) * np.sqrt(n0[:, None] / 2)
        y = (points[cw] + noise).astype(np.complex64)
        y[2, 7] = np.nan
        dec = gpuldpc.batch_decoder(code, threads=2)
        bits, status = dec.decode_symbols(y, "gpuldpc-64qam", n0)
        np.testing.assert_array_equal(
            bits, sim.symbols_to_bits(info, code.bits_per_symbol))
        # the NaN symbol: q erased values of frame 2 only
        np.testing.assert_array_equal(status["invalid_inputs"], [0, 0, 64, 0, 0, 0])
        demapper = gpuldpc.soft_demapper("gpuldpc-64qam")
        ll = np.stack([np.asarray(demapper.symbol_log_likelihoods(y[f], float(n0[f])))
                       for f in range(frames)]).reshape(frames, code.n, code.q)
        with np.errstate(invalid="ignore"):
            ll = ll - ll.max(axis=2, keepdims=True)
        ref_bits, ref_status = dec.decode_symbol_llr(ll.reshape(frames, -1).astype(np.float32))
        np.testing.assert_array_equal(bits, ref_bits)
        np.testing.assert_array_equal(status, ref_status)
        # one noise variance for every frame
        bits1, _ = dec.decode_symbols(y[:1], "gpuldpc-64qam", 0.01)
        np.testing.assert_array_equal(bits1, bits[:1])
        # the arguments are checked by name
        with self.assertRaisesRegex(ValueError, "constellation='gpuldpc-16qam'"):
            dec.decode_symbols(y, "gpuldpc-16qam", n0)
        with self.assertRaisesRegex(ValueError, "noise_var=0.000000 of frame 1"):
            dec.decode_symbols(y[:2], "gpuldpc-64qam", np.array([0.01, 0.0], dtype=np.float32))
        with self.assertRaisesRegex(ValueError, "noise_var has 2 values"):
            dec.decode_symbols(y[:3], "gpuldpc-64qam", np.array([0.01, 0.02], dtype=np.float32))

    def test_nan_is_counted_per_frame(self):
        code = gpuldpc.ldpc_code.load(os.path.join(gpuldpc.codes_dir(),
                                                   "regular_3_6_n1008_gf2.alist"))
        info_bits, llr = noisy_frames(code, 3, 4.0, 2)
        llr[1, 5] = np.nan
        llr[1, 9] = np.inf
        bits, status = gpuldpc.batch_decoder(code).decode(llr)
        np.testing.assert_array_equal(status["invalid_inputs"], [0, 2, 0])
        np.testing.assert_array_equal(bits, info_bits)

    def test_int8_input_and_fixed_point_min_sum(self):
        code = gpuldpc.ldpc_code.load(os.path.join(gpuldpc.codes_dir(),
                                                   "regular_3_6_n1008_gf2.alist"))
        info_bits, llr = noisy_frames(code, 6, 3.0, 5)
        steps = np.clip(np.rint(llr * 4), -127, 127).astype(np.int8)
        fixed = gpuldpc.batch_decoder(code, algorithm="min-sum", messages="int8",
                                      schedule="layered", threads=2,
                                      min_sum_magnitude="smallest")
        self.assertEqual((fixed.messages, fixed.llr_scale), ("int8", 4.0))
        # float LLRs are rounded to the same grid: the same results
        bits8, st8 = fixed.decode_int8(steps)
        bits, st = fixed.decode(llr)
        np.testing.assert_array_equal(bits8, bits)
        np.testing.assert_array_equal(st8, st)
        np.testing.assert_array_equal(bits, info_bits)
        # a float decoder takes int8 input as v / llr_scale
        fp = gpuldpc.batch_decoder(code, algorithm="sum-product", threads=2)
        np.testing.assert_array_equal(fp.decode_int8(steps)[0],
                                      fp.decode(steps.astype(np.float32) / 4)[0])
        # more frames than one conversion chunk (DVB-S2 short frames: 16
        # a chunk at least), a partial chunk last
        short = gpuldpc.ldpc_code.dvbs2("1/2", "short")
        _, llr = noisy_frames(short, 41, 2.5, 9)
        steps = np.clip(np.rint(llr * 4), -127, 127).astype(np.int8)
        fp = gpuldpc.batch_decoder(short, algorithm="min-sum", messages="fp32",
                                   threads=2, max_iterations=10)
        bits8, st8 = fp.decode_int8(steps)
        bits, st = fp.decode(steps.astype(np.float32) / 4)
        np.testing.assert_array_equal(bits8, bits)
        np.testing.assert_array_equal(st8, st)
        with self.assertRaisesRegex(ValueError, "messages='int8' applies to "
                                                "algorithm='min-sum' only"):
            gpuldpc.batch_decoder(code, algorithm="sum-product", messages="int8")
        with self.assertRaisesRegex(ValueError, "llr_scale=0"):
            gpuldpc.batch_decoder(code, algorithm="min-sum", llr_scale=0)

    def test_punctured_and_dvbs2_codes(self):
        code = gpuldpc.ldpc_code.dvbs2("1/2", "short")
        self.assertTrue(code.has_accumulator_parity)
        self.assertEqual((code.n, code.k), (16200, 7200))
        info_bits, llr = noisy_frames(code, 2, 3.0, 6)
        bits, status = gpuldpc.batch_decoder(code, schedule="layered", threads=2).decode(llr)
        np.testing.assert_array_equal(bits, info_bits)
        # a punctured quasi-cyclic code takes soft values of sent bits only
        rng = np.random.default_rng(8)
        shifts = rng.integers(0, 32, size=(4, 8))
        for j in range(8):
            shifts[j % 4, j] = -1
        qc = gpuldpc.ldpc_code.from_base_matrix(shifts, 32, transmitted=[0] + [1] * 7)
        dec = gpuldpc.batch_decoder(qc, algorithm="min-sum", messages="int8", threads=2)
        self.assertEqual(dec.llr_per_frame, 224)
        info = rng.integers(0, 2, size=(3, qc.k), dtype=np.uint8)
        sent = qc.puncture(qc.encode(info))
        llr = sim.bpsk_awgn_llr(sent, sim.noise_variance(7.0, qc.rate), rng)
        np.testing.assert_array_equal(dec.decode(llr)[0], info)

    def test_bad_arguments(self):
        code = gpuldpc.construct_regular_code(96, 2, 4, 16, seed=3)
        with self.assertRaisesRegex(ValueError, "algorithm='min-sum'.*binary codes only"):
            gpuldpc.batch_decoder(code, algorithm="min-sum")
        with self.assertRaisesRegex(ValueError, "algorithm='bp'"):
            gpuldpc.batch_decoder(code, algorithm="bp")
        with self.assertRaisesRegex(ValueError, "schedule='serial'"):
            gpuldpc.batch_decoder(code, schedule="serial")
        with self.assertRaisesRegex(ValueError, "max_iterations=0"):
            gpuldpc.batch_decoder(code, max_iterations=0)
        with self.assertRaisesRegex(ValueError, "messages='fp8'.*allowed: fp32, fp16, int8"):
            gpuldpc.batch_decoder(code, messages="fp8")
        with self.assertRaisesRegex(ValueError, "messages='fp16'.*fft-bp"):
            gpuldpc.batch_decoder(code, algorithm="log-fft-bp", messages="fp16")
        self.assertEqual(gpuldpc.batch_decoder(code, messages="fp16").messages, "fp16")
        with self.assertRaisesRegex(ValueError, "device='gpu'"):
            gpuldpc.batch_decoder(code, device="gpu")
        with self.assertRaisesRegex(ValueError, "llr has shape"):
            gpuldpc.batch_decoder(code).decode(np.zeros((2, 7), dtype=np.float32))
        # device memory is for GPU decoders; nothing is dereferenced
        with self.assertRaisesRegex(RuntimeError, "decode_device.*host memory"):
            gpuldpc.batch_decoder(code, device="cpu").decode_device(0, 1, 0, 0)
        cpu = gpuldpc.batch_decoder(code, device="cpu")
        self.assertFalse(cpu.decodes_device_int8)
        with self.assertRaisesRegex(RuntimeError, "decode_device_int8.*no 8-bit LLRs"):
            cpu.decode_device_int8(0, 1, 0, 0)


class qa_gpuldpc_sim(gr_unittest.TestCase):
    """The command-line interface that scripts rely on."""

    def sim_command(self):
        exe = os.environ.get("GPULDPC_SIM")
        return [exe] if exe else [sys.executable, "-c",
                                  "import sys; from gnuradio.gpuldpc import sim; "
                                  "sys.exit(sim.main())"]

    def test_json_and_plot(self):
        code = os.path.join(gpuldpc.codes_dir(), "regular_2_4_n96_gf64.alist")
        with tempfile.TemporaryDirectory() as tmp:
            out = subprocess.run(
                self.sim_command() + ["--code", code, "--ebn0", "1.0,3.0", "--frames", "60",
                                      "--max-frame-errors", "5", "--iterations", "20",
                                      "--schedule", "layered", "--threads", "2",
                                      "--batch", "16", "--seed", "3", "--quiet",
                                      "--device", "cpu",
                                      "--json", os.path.join(tmp, "r.json"),
                                      "--plot", os.path.join(tmp, "r.png")],
                capture_output=True, text=True, timeout=300)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertEqual(out.stderr, "")  # --quiet
            self.assertIn("FER", out.stdout)
            with open(os.path.join(tmp, "r.json")) as f:
                r = json.load(f)
            self.assertEqual(r["code"], {"path": code, "n": 96, "k": 48, "q": 64})
            self.assertEqual((r["device"], r["algorithm"], r["schedule"], r["iterations"]),
                             ("cpu", "fft-bp", "layered", 20))
            self.assertIn("FFT-BP, layered", r["kernel_variant"])  # the SIMD decoder
            p0, p1 = r["points"]
            for p in (p0, p1):
                for key in ("ebn0", "frames", "frame_errors", "bit_errors", "fer", "ber",
                            "avg_iterations", "info_bits_per_second"):
                    self.assertIn(key, p)
                self.assertAlmostEqual(p["fer"], p["frame_errors"] / p["frames"])
            # 1 dB stops exactly at the 5th frame error; 3 dB runs all 60 frames
            self.assertEqual(p0["frame_errors"], 5)
            self.assertLess(p0["frames"], 60)
            self.assertEqual(p1["frames"], 60)
            with open(os.path.join(tmp, "r.png"), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_bad_arguments_exit_2(self):
        code = os.path.join(gpuldpc.codes_dir(), "regular_2_4_n96_gf64.alist")
        for args in (["--ebn0", "1.0"],                                # no --code
                     ["--code", code, "--ebn0", "1.0,x"],
                     ["--code", code, "--ebn0", "1", "--frames", "0"],
                     ["--code", code, "--ebn0", "1", "--algorithm", "bp"],
                     ["--code", code, "--ebn0", "1", "--algorithm", "min-sum"],
                     ["--code", code, "--ebn0", "1", "--device", "gpu"],
                     ["--code", "/nonexistent.alist", "--ebn0", "1"]):
            out = subprocess.run(self.sim_command() + args, capture_output=True, text=True,
                                 timeout=60)
            self.assertEqual(out.returncode, 2, (args, out.stderr))
            self.assertIn("usage:", out.stderr)


if __name__ == '__main__':
    import unittest
    unittest.main()
