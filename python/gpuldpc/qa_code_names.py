#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Shipped codes by name from any working directory: ldpc_code.load, the
blocks, link_format, gpuldpc-sim; gpuldpc.codes(); errors that list the
built-in families and the shipped codes."""

import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from gnuradio import gr_unittest

from gnuradio import gpuldpc

SOURCE_CODES = os.path.join(os.environ.get("GPULDPC_SOURCE_DIR",
                                           os.path.join(os.path.dirname(__file__),
                                                        "..", "..")), "codes")
# what an error about a code's name lists
FAMILIES = ("dvbs2:RATE", "9/10", "nr:BG:Z", "wifi:N:RATE", "1944", "wimax:N:RATE", "3/4B",
            "ar4ja:K:RATE", "16384")


def source_code_names():
    return sorted(f[:-len(".alist")] for f in os.listdir(SOURCE_CODES)
                  if f.endswith(".alist"))


def sim_program():
    """The gpuldpc-sim program of the build tree, or the module's main."""
    path = os.environ.get("GPULDPC_SIM")
    if path and os.path.exists(path):
        return [sys.executable, path]
    return [sys.executable, "-m", "gnuradio.gpuldpc.sim"]


class qa_code_names(gr_unittest.TestCase):

    def setUp(self):
        # an empty working directory and no override: names resolve through
        # the module, never through files that happen to be here
        self.cwd = os.getcwd()
        self.dir = tempfile.mkdtemp(prefix="gpuldpc-code-names-")
        os.chdir(self.dir)
        self.env = os.environ.pop("GPULDPC_CODES_DIR", None)

    def tearDown(self):
        os.chdir(self.cwd)
        shutil.rmtree(self.dir)
        if self.env is not None:
            os.environ["GPULDPC_CODES_DIR"] = self.env

    def assert_lists_the_names(self, text):
        for part in FAMILIES + tuple(source_code_names()):
            self.assertIn(part, text)

    def test_codes_lists_every_shipped_file(self):
        names = gpuldpc.codes()
        self.assertGreaterEqual(len(names), 7)
        self.assertEqual(names, source_code_names())

    def test_every_shipped_code_loads_by_name(self):
        for name in gpuldpc.codes():
            by_path = gpuldpc.ldpc_code.load(os.path.join(SOURCE_CODES, name + ".alist"))
            for spec in (name, name + ".alist"):
                code = gpuldpc.ldpc_code.load(spec)
                self.assertEqual((code.n, code.k, code.q),
                                 (by_path.n, by_path.k, by_path.q), spec)
                for a, b in zip(code.sparse(), by_path.sparse()):
                    np.testing.assert_array_equal(a, b)

    def test_blocks_and_link_take_names(self):
        # the blocks' frame lengths follow from the code they loaded
        dec = gpuldpc.ldpc_decoder("regular_3_6_n96_gf2", device="cpu")
        self.assertEqual(dec.input_frame_length(), 96)
        enc = gpuldpc.ldpc_encoder("regular_2_4_n96_gf64.alist")
        ref = gpuldpc.ldpc_encoder(os.path.join(SOURCE_CODES, "regular_2_4_n96_gf64.alist"))
        self.assertEqual((enc.input_frame_length(), enc.output_frame_length()),
                         (ref.input_frame_length(), ref.output_frame_length()))
        fmt = gpuldpc.link_format("regular_3_6_n1008_gf2", "qpsk")
        self.assertEqual(fmt.k, 504)
        self.assertEqual(fmt.constellation, "gpuldpc-qpsk")

    def test_nr_codes_of_fewer_parity_rows(self):
        # BG1 at 8 parity rows: 30 base columns, rate 22/28
        code = gpuldpc.ldpc_code.nr(1, 384, parity_rows=8)
        self.assertEqual((code.n, code.k, code.checks), (30 * 384, 22 * 384, 8 * 384))
        self.assertEqual(gpuldpc.ldpc_code.load("nr:1:384:8").n, code.n)
        self.assertEqual(gpuldpc.ldpc_code.nr(2, 52, 0).n, gpuldpc.ldpc_code.nr(2, 52).n)
        for spec in ("nr:1:384:3", "nr:2:52:43"):
            with self.assertRaisesRegex(ValueError, r"parity_rows=\d+ is out of range for "
                                        r"base graph \d; allowed: 4 \.\. 4[26]"):
                gpuldpc.ldpc_code.load(spec)

    def test_unknown_names_list_the_families(self):
        for spec in ("dvbs2", "nr:1", "wifi:1944", "regular_3_6_n97_gf2", ""):
            with self.assertRaises(ValueError) as ctx:
                gpuldpc.ldpc_code.load(spec)
            self.assert_lists_the_names(str(ctx.exception))
        with self.assertRaises(ValueError) as ctx:
            gpuldpc.ldpc_decoder("dvbs2", device="cpu")
        self.assert_lists_the_names(str(ctx.exception))
        # a path stays a file's error, naming it, and points at the name
        with self.assertRaisesRegex(RuntimeError, "cannot open code file 'codes/"
                                    "regular_3_6_n96_gf2.alist'.*'regular_3_6_n96_gf2' "
                                    "loads by its name"):
            gpuldpc.ldpc_code.load("codes/regular_3_6_n96_gf2.alist")

    def test_override_directory(self):
        mine = os.path.join(self.dir, "mine")
        os.mkdir(mine)
        shutil.copy(os.path.join(SOURCE_CODES, "regular_3_6_n96_gf2.alist"),
                    os.path.join(mine, "small.alist"))
        os.environ["GPULDPC_CODES_DIR"] = mine
        try:
            self.assertEqual(gpuldpc.codes(), ["small"])
            self.assertEqual(gpuldpc.ldpc_code.load("small").n, 96)
            with self.assertRaisesRegex(ValueError, "a shipped code: small "):
                gpuldpc.ldpc_code.load("regular_3_6_n96_gf2")
        finally:
            del os.environ["GPULDPC_CODES_DIR"]

    def test_sim_takes_names_from_elsewhere(self):
        res = subprocess.run(sim_program() + [
            "--code", "regular_3_6_n96_gf2", "--ebn0", "4", "--frames", "64",
            "--device", "cpu", "--threads", "1", "--quiet"],
            capture_output=True, text=True, timeout=120, cwd=self.dir)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("code regular_3_6_n96_gf2: GF(2), n=96", res.stdout)

        for spec in ("dvbs2", "no_such_code"):
            res = subprocess.run(sim_program() + ["--code", spec, "--ebn0", "1"],
                                 capture_output=True, text=True, timeout=60,
                                 cwd=self.dir)
            self.assertEqual(res.returncode, 2, res.stderr)
            self.assertNotIn("Traceback", res.stderr)
            self.assertIn(f"argument --code: code '{spec}'", res.stderr)
            self.assert_lists_the_names(res.stderr)

        res = subprocess.run(sim_program() + ["--list-codes"], capture_output=True,
                             text=True, timeout=120, cwd=self.dir)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("regular_3_6_n1008_gf2", res.stdout)
        self.assertIn("n=1008", res.stdout)
        for name in source_code_names():
            self.assertIn(name, res.stdout)


if __name__ == "__main__":
    gr_unittest.run(qa_code_names)
