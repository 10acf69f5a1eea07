#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The Python API's argument handling: array arguments take their documented
dtype (or one converted without changing a value) and raise TypeError naming
the argument otherwise; integer arguments out of range raise ValueError
naming them; the deprecated ldpc_code.m warns."""

import contextlib
import io
import os
import tempfile
import warnings

import numpy as np
from gnuradio import gr_unittest

from gnuradio import gpuldpc
from gnuradio.gpuldpc import soak


def shipped(name):
    return gpuldpc.ldpc_code.load(os.path.join(gpuldpc.codes_dir(), name))


class qa_python_api(gr_unittest.TestCase):

    def setUp(self):
        self.code = shipped("regular_3_6_n96_gf2.alist")
        self.dec = gpuldpc.batch_decoder(self.code, max_iterations=10, device="cpu")
        rng = np.random.default_rng(3)
        self.info = rng.integers(0, 2, size=(3, self.code.k), dtype=np.uint8)
        cw = self.code.encode(self.info)
        self.llr = np.where(cw == 1, 6.0, -6.0)  # noiseless, float64

    def test_decode_int8_takes_int8_only(self):
        # float32 and int16 values would wrap modulo 256 (+200 becoming -56)
        for dtype in (np.float32, np.int16, np.uint8, np.float64):
            with self.assertRaises(TypeError) as ctx:
                self.dec.decode_int8(self.llr.astype(dtype))
            text = str(ctx.exception)
            self.assertIn("decode_int8", text)
            self.assertIn("llr", text)
            self.assertIn(np.dtype(dtype).name, text)
            self.assertIn("expected int8", text)
        # Python ints are taken where every value fits int8, else ValueError
        ints = np.rint(self.llr).astype(int).tolist()
        bits, status = self.dec.decode_int8(ints)
        np.testing.assert_array_equal(bits, self.info)
        self.assertTrue(status["converged"].all())
        ints[1][5] = 200
        with self.assertRaisesRegex(ValueError, r"decode_int8: llr holds 200.*-128\.\.127"):
            self.dec.decode_int8(ints)
        with self.assertRaisesRegex(TypeError, "decode_int8: llr has dtype float64"):
            self.dec.decode_int8(self.llr.tolist())

    def test_int8_values_are_not_wrapped(self):
        # the int8 input decodes exactly as the float input of value v / llr_scale
        steps = np.rint(self.llr * 4).clip(-127, 127).astype(np.int8)
        bits8, status8 = self.dec.decode_int8(steps)
        bits, status = self.dec.decode(steps.astype(np.float32) / 4)
        np.testing.assert_array_equal(bits8, bits)
        np.testing.assert_array_equal(status8, status)
        np.testing.assert_array_equal(bits8, self.info)

    def test_float_arguments(self):
        ref_bits, ref_status = self.dec.decode(self.llr.astype(np.float32))
        np.testing.assert_array_equal(ref_bits, self.info)
        # real dtypes convert to float32 without changing these values
        for llr in (self.llr, self.llr.astype(np.float16), self.llr.astype(np.int16),
                    self.llr.astype(np.int64), self.llr.tolist(),
                    np.asfortranarray(self.llr.astype(np.float32)),
                    np.repeat(self.llr.astype(np.float32), 2, axis=1)[:, ::2]):
            bits, status = self.dec.decode(llr)
            np.testing.assert_array_equal(bits, ref_bits)
            np.testing.assert_array_equal(status, ref_status)
        # complex and bool are no LLRs
        for bad, name in ((self.llr.astype(np.complex64), "complex64"),
                          (self.llr.astype(np.complex128), "complex128"),
                          (self.llr > 0, "bool")):
            with self.assertRaisesRegex(TypeError, f"decode: llr has dtype {name}; "
                                                   "expected float32"):
                self.dec.decode(bad)
        with self.assertRaisesRegex(TypeError, "decode: llr has dtype complex128"):
            self.dec.decode((self.llr + 0j).tolist())
        with self.assertRaisesRegex(TypeError, "decode_symbol_llr: symbol_ll has dtype "
                                               "complex64"):
            self.dec.decode_symbol_llr(np.zeros((1, 2 * self.code.n), np.complex64))
        with self.assertRaisesRegex(TypeError, "decode: llr has dtype object"):
            self.dec.decode(None)

    def test_complex_arguments(self):
        # BPSK: code bit b sent as point b of the constellation
        points = np.asarray(gpuldpc.constellation("bpsk").points)
        y = points[self.code.encode(self.info)]
        ref_bits, ref_status = self.dec.decode_symbols(y.astype(np.complex64), "bpsk", 0.5)
        np.testing.assert_array_equal(ref_bits, self.info)
        for symbols in (y, y.real.astype(np.float32), y.tolist()):
            bits, status = self.dec.decode_symbols(symbols, "bpsk", 0.5)
            np.testing.assert_array_equal(bits, ref_bits)
            np.testing.assert_array_equal(status, ref_status)
        with self.assertRaisesRegex(TypeError, "decode_symbols: symbols has dtype bool"):
            self.dec.decode_symbols(y.real > 0, "bpsk", 0.5)
        with self.assertRaisesRegex(TypeError, "decode_symbols: noise_var has dtype "
                                               "complex128"):
            self.dec.decode_symbols(y, "bpsk", 0.5 + 0j)
        demapper = gpuldpc.soft_demapper("qpsk")
        llr = demapper.demap(np.array([1 + 1j, -1 - 1j], np.complex64), 1.0)
        np.testing.assert_array_equal(demapper.demap([1 + 1j, -1 - 1j], 1.0), llr)
        for method in ("demap", "symbol_log_likelihoods"):
            with self.assertRaisesRegex(TypeError, f"{method}: y has dtype bool"):
                getattr(demapper, method)(np.ones(4, bool), 1.0)
        with self.assertRaisesRegex(TypeError, "estimate_noise_var: y has dtype <U"):
            demapper.estimate_noise_var("1+1j")

    def test_symbol_arguments(self):
        code = self.code
        # encode(0.7) used to become symbol 0
        with self.assertRaisesRegex(TypeError, r"encode: info has dtype float64 \(from a "
                                               r"Python float\); expected uint8 or bool"):
            code.encode(0.7)
        for dtype in (np.float32, np.int16, np.int64, np.int8):
            with self.assertRaisesRegex(TypeError, "encode: info has dtype " +
                                        np.dtype(dtype).name):
                code.encode(self.info.astype(dtype))
        cw = code.encode(self.info)
        np.testing.assert_array_equal(code.encode(self.info.astype(bool)), cw)
        np.testing.assert_array_equal(code.encode(self.info.tolist()), cw)
        np.testing.assert_array_equal(code.encode(np.asfortranarray(self.info)), cw)
        info = self.info.tolist()
        info[0][0] = 256
        with self.assertRaisesRegex(ValueError, "encode: info holds 256.*0..255"):
            code.encode(info)
        info[0][0] = -1
        with self.assertRaisesRegex(ValueError, "encode: info holds -1"):
            code.encode(info)
        np.testing.assert_array_equal(code.syndrome_weight(cw.tolist()), [0, 0, 0])
        with self.assertRaisesRegex(TypeError, "syndrome_weight: codeword has dtype "
                                               "float64"):
            code.syndrome_weight(cw.astype(float))
        with self.assertRaisesRegex(TypeError, "puncture: codeword has dtype int32"):
            code.puncture(cw.astype(np.int32))
        with self.assertRaisesRegex(TypeError, "from_dense: H has dtype float64"):
            gpuldpc.ldpc_code.from_dense(code.dense().astype(float))
        dense = gpuldpc.ldpc_code.from_dense(code.dense().tolist())
        self.assertEqual((dense.n, dense.k, dense.checks), (code.n, code.k, code.checks))

    def test_base_matrix_arguments(self):
        shifts = [[0, 1, -1, 0], [2, -1, 0, 1]]
        ref = gpuldpc.ldpc_code.from_base_matrix(np.array(shifts, np.int32), 3)
        for given in (shifts, np.array(shifts, np.int16), np.array(shifts, np.int64)):
            code = gpuldpc.ldpc_code.from_base_matrix(given, 3)
            np.testing.assert_array_equal(code.base_matrix, ref.base_matrix)
        with self.assertRaisesRegex(TypeError, "from_base_matrix: shifts has dtype "
                                               "float64"):
            gpuldpc.ldpc_code.from_base_matrix(np.array(shifts, float), 3)
        # integer dtypes wider than int32 are taken when every value fits
        for big in ([[2 ** 32, 0], [0, 1]], np.array([[2 ** 32, 0], [0, 1]], np.int64),
                    np.array([[2 ** 32, 0], [0, 1]], np.uint64)):
            with self.assertRaisesRegex(ValueError, "from_base_matrix: shifts holds "
                                                    "4294967296, outside int32's range"):
                gpuldpc.ldpc_code.from_base_matrix(big, 3)
        with self.assertRaisesRegex(TypeError, "from_base_matrix: transmitted has dtype "
                                               "float64"):
            gpuldpc.ldpc_code.from_base_matrix(shifts, 3, transmitted=[1.0, 1, 1, 1])
        with self.assertRaisesRegex(ValueError, "z=-3 is out of range"):
            gpuldpc.ldpc_code.from_base_matrix(shifts, -3)

    def test_transform_arguments(self):
        x = np.arange(8, dtype=np.float32)
        fwht = gpuldpc.fwht_cpu(8)
        np.testing.assert_array_equal(fwht.execute(x.astype(np.int16)), fwht.execute(x))
        with self.assertRaisesRegex(TypeError, "execute: x has dtype complex64"):
            fwht.execute(x.astype(np.complex64))
        ii = gpuldpc.spectral_transform_cpu_ii(8)
        ref = ii.execute(x.astype(np.int32))
        for given in (x.astype(np.int16), x.astype(np.int64), x.astype(np.int32).tolist()):
            np.testing.assert_array_equal(ii.execute(given), ref)
        with self.assertRaisesRegex(ValueError, "execute: x holds -2147483649"):
            ii.execute(x.astype(np.int64) - 2 ** 31 - 1)
        with self.assertRaisesRegex(TypeError, r"execute: x has dtype float32; expected "
                                               "int32"):
            ii.execute(x)

    def test_integer_arguments_out_of_range(self):
        # pybind11 raised a TypeError listing the whole signature for these
        for name, value, allowed in (("max_iterations", -1, "1..100000"),
                                     ("threads", -1, "0 (all cores) .. 1024"),
                                     ("threads", 1025, "0 (all cores) .. 1024")):
            with self.assertRaises(ValueError) as ctx:
                gpuldpc.batch_decoder(self.code, device="cpu", **{name: value})
            self.assertEqual(str(ctx.exception),
                             f"{name}={value} is out of range; allowed: {allowed}")
        for make, pattern in (
                (lambda: gpuldpc.ldpc_code.nr(-1, 2), "base_graph=-1 is out of range"),
                (lambda: gpuldpc.ldpc_code.nr(1, -2), "z=-2 is out of range"),
                (lambda: gpuldpc.ldpc_code.wifi(-648, "1/2"), "n=-648 is out of range"),
                (lambda: gpuldpc.ldpc_code.from_dense(self.code.dense(), q=-2),
                 "q=-2 is out of range"),
                (lambda: gpuldpc.ldpc_code.load("dvbs2:1/2", poly=-1),
                 "poly=-1 is out of range"),
                (lambda: gpuldpc.construct_regular_code(-96, 3, 6), "n=-96 is out of range"),
                (lambda: gpuldpc.construct_regular_code(96, 3, 6, seed=-1),
                 "seed=-1 is out of range"),
                (lambda: gpuldpc.gf_field(-1), "m=-1 is out of range"),
                (lambda: gpuldpc.gf_field(2).add(-1, 0), "a=-1 is not an element of GF"),
                (lambda: gpuldpc.gf_field(2).exp(-1), "e=-1 is out of range")):
            with self.assertRaisesRegex(ValueError, pattern):
                make()
        # numpy integers are integers
        dec = gpuldpc.batch_decoder(self.code, max_iterations=np.int64(7),
                                    threads=np.uint8(1), device="cpu")
        self.assertEqual((dec.max_iterations, dec.threads), (7, 1))
        code = gpuldpc.construct_regular_code(96, 3, 6, seed=np.uint64(2 ** 63))
        self.assertEqual(code.n, 96)

    def test_default_device_is_auto(self):
        # as the blocks: the GPU when one is usable, else the CPU
        self.assertIn("device: str = 'auto'", gpuldpc.batch_decoder.__init__.__doc__)
        self.assertEqual(gpuldpc.batch_decoder(self.code).device,
                         gpuldpc.batch_decoder(self.code, device="auto").device)
        if not gpuldpc.cuda_devices():
            self.assertEqual(gpuldpc.batch_decoder(self.code).device, "cpu")

    def test_checks_and_deprecated_m(self):
        code = shipped("regular_2_4_n96_gf64.alist")
        self.assertEqual(code.checks, code.dense().shape[0])
        self.assertEqual(code.bits_per_symbol, 6)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            m = code.m
        self.assertEqual(m, code.checks)
        self.assertEqual(len(caught), 1)
        self.assertTrue(issubclass(caught[0].category, DeprecationWarning))
        self.assertIn("checks", str(caught[0].message))
        self.assertEqual(caught[0].filename, __file__)  # points at the caller
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            _ = code.checks  # no warning
            with self.assertRaises(DeprecationWarning):
                _ = code.m
        self.assertIn(f"checks={code.checks}", repr(code))

    def test_directory_as_code_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaisesRegex(RuntimeError, f"code file '{tmp}' is a directory; "
                                                      "expected a parity-check matrix "
                                                      "file"):
                gpuldpc.ldpc_code.load(tmp)
            for fmt in ("alist", "nb-alist", "qc"):
                with self.assertRaisesRegex(RuntimeError, "is a directory"):
                    gpuldpc.ldpc_code.load(tmp, format=fmt)
            # an empty file is still a file that ends early
            empty = os.path.join(tmp, "empty.alist")
            open(empty, "w").close()
            with self.assertRaisesRegex(RuntimeError, "file ends before the header"):
                gpuldpc.ldpc_code.load(empty)

    def test_soak_errors(self):
        def soak_main(args):
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                try:
                    rc = soak.main(args)
                except SystemExit as e:
                    rc = e.code
            return rc, err.getvalue()

        with tempfile.TemporaryDirectory() as tmp:
            rc, err = soak_main(["--code", tmp, "--frames", "1", "--device", "cpu"])
        self.assertEqual(rc, 2)
        self.assertIn("argument --code: code file", err)
        self.assertIn("is a directory", err)
        rc, err = soak_main(["--device", "gpu", "--frames", "1"])
        self.assertEqual(rc, 2)
        self.assertIn("argument --device: 'gpu'", err)
        if not gpuldpc.cuda_devices():
            # as gpuldpc-sim: one line, no traceback
            rc, err = soak_main(["--device", "cuda", "--frames", "1"])
            self.assertEqual(rc, 1)
            self.assertTrue(err.startswith("gpuldpc-soak: error: device='cuda'"), err)
            self.assertEqual(err.count("\n"), 1, err)
            self.assertNotIn("Traceback", err)


if __name__ == '__main__':
    gr_unittest.run(qa_python_api)
