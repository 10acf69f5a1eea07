#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#

import glob
import os
import re
import tempfile
import unittest

import numpy as np
from gnuradio import gr, gr_unittest

from gnuradio import gpuldpc

SOURCE_DIR = os.environ.get(
    "GPULDPC_SOURCE_DIR",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SHARED_CODES = os.path.join(SOURCE_DIR, "..", "shared", "codes")


def gf_syndrome(code, cw):
    """H c over GF(q) with numpy and the field's multiplication table."""
    h = code.dense().astype(np.intp)
    mul = code.field.mul_table
    prod = mul[h[None, :, :], cw.astype(np.intp)[:, None, :]]
    return np.bitwise_xor.reduce(prod, axis=2)


def load_text(text, suffix):
    """The code that a file of this text and suffix holds (written to a
    temporary file: ldpc_code.load reads files and names)."""
    with tempfile.NamedTemporaryFile('w', suffix=suffix, delete=False) as f:
        f.write(text)
    try:
        return gpuldpc.ldpc_code.load(f.name)
    finally:
        os.unlink(f.name)


def dense_rank(h, field):
    """Rank over GF(q) by Gauss-Jordan elimination in numpy."""
    h = h.copy()
    mul, inv = field.mul_table, field.inv_table
    rank = 0
    for c in range(h.shape[1]):
        rows = np.nonzero(h[rank:, c])[0]
        if len(rows) == 0:
            continue
        p = rank + rows[0]
        h[[rank, p]] = h[[p, rank]]
        h[rank] = mul[inv[h[rank, c]], h[rank]]
        for r in np.nonzero(h[:, c])[0]:
            if r != rank:
                h[r] ^= mul[h[r, c], h[rank]]
        rank += 1
        if rank == h.shape[0]:
            break
    return rank


class qa_ldpc_code(gr_unittest.TestCase):

    def check_encoder(self, code, frames=8, seed=1):
        rng = np.random.default_rng(seed)
        info = rng.integers(0, code.q, size=(frames, code.k), dtype=np.uint8)
        cw = code.encode(info)
        self.assertEqual(cw.shape, (frames, code.n))
        self.assertEqual(cw.dtype, np.uint8)
        np.testing.assert_array_equal(cw[:, code.info_positions], info)
        np.testing.assert_array_equal(gf_syndrome(code, cw), 0)
        np.testing.assert_array_equal(code.syndrome_weight(cw), 0)
        self.assertTrue((cw < code.q).all())

    def test_shipped_codes(self):
        files = sorted(glob.glob(os.path.join(gpuldpc.codes_dir(), "*.alist")))
        self.assertGreaterEqual(len(files), 5)
        qs = set()
        for path in files:
            code = gpuldpc.ldpc_code.load(path)
            n, q = (int(x) for x in re.search(r"_n(\d+)_gf(\d+)", path).groups())
            self.assertEqual((code.n, code.q), (n, q))
            self.assertEqual(code.bits_per_symbol, q.bit_length() - 1)
            self.assertEqual(gpuldpc.count_4_cycles(code), 0)
            self.assertEqual(code.k, code.n - dense_rank(code.dense(), code.field))
            qs.add(code.q)
        for q in (2, 4, 16, 64, 256):
            self.assertIn(q, qs)

    def test_nr_rate_matching_round_trip(self):
        # two redundancy versions of 5G NR BG2 Z=16 with 8 filler bits, combined
        rm = gpuldpc.nr_rate_matching(2, 16, filler_bits=8, q_m=2)
        code = gpuldpc.ldpc_code.nr(2, 16)
        self.assertEqual((rm.buffer_size, rm.codeword_size), (code.n_transmitted, code.n))
        self.assertEqual([rm.start(rv) for rv in range(4)], [0, 13 * 16, 25 * 16, 43 * 16])
        info = np.random.default_rng(3).integers(0, 2, code.k).astype(np.uint8)
        info[-8:] = 0
        cw = code.encode(info)
        buf = rm.buffer()
        self.assertTrue(np.all(buf[code.k - 8 - 32:code.k - 32] == -64.0))
        for rv in (0, 2):
            bits = rm.select(cw, 12 * 16, rv)
            self.assertEqual(bits.shape, (12 * 16,))
            buf = rm.combine(np.where(bits == 1, 6.0, -6.0), rv, buf)
        dec = gpuldpc.batch_decoder(code, algorithm="min-sum", messages="int8",
                                    schedule="layered", device="cpu")
        out, status = dec.decode(buf.astype(np.float32))
        self.assertTrue(np.array_equal(np.asarray(out).ravel(), info))
        with self.assertRaisesRegex(ValueError, "rv=4 is not a redundancy version"):
            rm.select(cw, 4, 4)
        with self.assertRaisesRegex(ValueError, "e=3 is out of range; allowed: a positive "
                                    "multiple of q_m=2"):
            rm.select(cw, 3, 0)
        with self.assertRaisesRegex(ValueError, "filler_bits=150 is out of range"):
            gpuldpc.nr_rate_matching(2, 16, filler_bits=150)
        lbrm = gpuldpc.nr_rate_matching(2, 16, circular_buffer=30 * 16)
        self.assertEqual((lbrm.circular_buffer_size, lbrm.buffer_size), (480, 800))
        self.assertEqual(lbrm.start(2), (25 * 480 // (50 * 16)) * 16)
        with self.assertRaisesRegex(ValueError, "circular_buffer=100 is out of range"):
            gpuldpc.nr_rate_matching(2, 16, circular_buffer=100)

    def test_coloured_layers(self):
        code = gpuldpc.ldpc_code.load(
            os.path.join(gpuldpc.codes_dir(), "regular_3_6_n1008_gf2.alist"))
        coloured = code.with_coloured_layers()
        runs = coloured.layered_runs
        order = coloured.layered_check_order
        self.assertLess(len(runs), len(code.layered_runs) // 4)
        np.testing.assert_array_equal(np.sort(order), np.arange(code.checks))
        dense = code.dense()
        for r in range(len(runs) - 1):
            rows = dense[order[runs[r]:runs[r + 1]]]
            self.assertLessEqual(rows.sum(axis=0).max(), 1)  # no shared bit
        np.testing.assert_array_equal(coloured.dense(), dense)

    def test_encode_every_q(self):
        for q in (2, 4, 16, 64, 256):
            code = gpuldpc.construct_regular_code(120, 2, 4, q, seed=q)
            self.check_encoder(code, seed=q)
            one = code.encode(np.zeros(code.k, dtype=np.uint8))
            self.assertEqual(one.shape, (code.n,))
            np.testing.assert_array_equal(one, 0)  # linear code

    def test_rank_deficient(self):
        rng = np.random.default_rng(5)
        for q in (2, 4, 16, 64, 256):
            base = gpuldpc.construct_regular_code(40, 3, 6, q, seed=3)
            h = base.dense()
            mul = base.field.mul_table
            extra = mul[rng.integers(1, q), h[0]] ^ mul[rng.integers(1, q), h[5]]
            h2 = np.vstack([h, extra[None, :], h[7][None, :]])
            code = gpuldpc.ldpc_code.from_dense(h2, q=q)
            self.assertEqual(code.checks, base.checks + 2)
            self.assertEqual(code.rank, dense_rank(h2, code.field))
            self.assertEqual(code.k, base.k)
            self.check_encoder(code, seed=q + 1)

    def test_gnuradio_alist_files(self):
        d = os.path.join(gr.prefix(), "share", "gnuradio", "fec", "ldpc")
        files = sorted(glob.glob(os.path.join(d, "*.alist")))
        if not files:
            raise unittest.SkipTest(f"no GNU Radio alist files in {d}")
        for path in files:
            code = gpuldpc.ldpc_code.load(path)
            self.assertEqual(code.q, 2)
            m = re.search(r"n_(\d+)_k_(\d+)", os.path.basename(path))
            if m and "gen_matrix" not in path:
                # GNU Radio names its parity-check files by N and K = N - rank(H);
                # *_gen_matrix.alist holds a generator matrix (K rows) instead
                self.assertEqual((code.n, code.k), (int(m.group(1)), int(m.group(2))))
            if code.n <= 600:
                self.check_encoder(code, frames=3)

    def test_written_files_load_in_gnuradio(self):
        from gnuradio import fec
        with tempfile.TemporaryDirectory() as tmp:
            code = gpuldpc.ldpc_code.load(os.path.join(gpuldpc.codes_dir(),
                                                       "regular_3_6_n96_gf2.alist"))
            path = os.path.join(tmp, "copy.alist")
            code.save(path)
            dec = fec.ldpc_decoder.make(path)
            self.assertEqual((dec.get_input_size(), dec.get_output_size()),
                             (code.n, code.k))

    def test_shared_codes(self):
        if not os.path.isdir(SHARED_CODES):
            raise unittest.SkipTest(f"{SHARED_CODES} is absent")
        expected = {  # file: (n symbols, m, q)
            "binary/DEBUG_6_3.alist": (6, 3, 2),
            "binary/MACKAY_504_1008.alist": (1008, 504, 2),
            "binary/PEG_Reg_1008x504.alist": (1008, 504, 2),
            "binary/10GBPS-ETHERNET_1723_2048.alist": (2048, 384, 2),
            "nonbinary/rptu_N96_K48_GF64.alist": (16, 8, 64),
            "nonbinary/rptu_N96_K48_GF256.alist": (12, 6, 256),
            "nonbinary/rptu_N128_K64_GF256.alist": (16, 8, 256),
            "nonbinary/rptu_N512_K256_GF256.alist": (64, 32, 256),
            "nonbinary/rptu_N64800_K48600_GF256.alist": (8100, 2025, 256),
        }
        for name, (n, m, q) in expected.items():
            code = gpuldpc.ldpc_code.load(os.path.join(SHARED_CODES, name))
            self.assertEqual((code.n, code.checks, code.q), (n, m, q), name)
            k_bits = re.search(r"_K(\d+)_", name)
            if k_bits:
                self.assertEqual(code.k * code.bits_per_symbol, int(k_bits.group(1)))
            elif name.startswith("binary/10GBPS"):
                self.assertEqual(code.k, 1723)
            self.check_encoder(code, frames=2)

    def test_save_load_round_trip(self):
        with tempfile.TemporaryDirectory() as tmp:
            for q in (2, 16, 256):
                code = gpuldpc.construct_regular_code(64, 2, 4, q, seed=9)
                for coef in ("exponent", "polynomial"):
                    path = os.path.join(tmp, f"c{q}{coef}.alist")
                    code.save(path, coef=coef)
                    again = gpuldpc.ldpc_code.load(path, coef=coef)
                    np.testing.assert_array_equal(again.dense(), code.dense())
                    self.assertEqual(again.to_string(coef=coef), code.to_string(coef=coef))
            rows, cols, vals = code.sparse()
            h = np.zeros((code.checks, code.n), dtype=np.uint8)
            h[rows, cols] = vals
            np.testing.assert_array_equal(h, code.dense())

    def test_errors(self):
        code = gpuldpc.construct_regular_code(64, 2, 4, 16, seed=2)
        with self.assertRaisesRegex(ValueError, "format='xml'"):
            gpuldpc.ldpc_code.load("x.alist", format="xml")
        with self.assertRaisesRegex(ValueError, "coef='log'"):
            gpuldpc.ldpc_code.load("x.alist", coef="log")
        with self.assertRaisesRegex(RuntimeError, "cannot open"):
            gpuldpc.ldpc_code.load("/nonexistent.alist")
        with self.assertRaisesRegex(ValueError, "info has shape"):
            code.encode(np.zeros((2, code.k + 1), dtype=np.uint8))
        bad = np.zeros((1, code.k), dtype=np.uint8)
        bad[0, 3] = 16
        with self.assertRaisesRegex(ValueError, "not an element of GF\\(16\\)"):
            code.encode(bad)
        with self.assertRaisesRegex(ValueError, "q=6"):
            gpuldpc.ldpc_code.from_dense(np.eye(3, dtype=np.uint8), q=6)
        with tempfile.NamedTemporaryFile("w", suffix=".alist") as f:
            f.write("4 2\n2 3\n1 1 2 2\n3 3\n1 0\n2 0\n1 2\n")
            f.flush()
            with self.assertRaisesRegex(RuntimeError, re.escape(f.name) + ":7: .*truncated"):
                gpuldpc.ldpc_code.load(f.name)

    def test_quasi_cyclic_code_with_puncturing(self):
        shifts = np.array([[0, -1, 1, 2], [2, 0, -1, 0]])
        code = gpuldpc.ldpc_code.from_base_matrix(shifts, 3, transmitted=[1, 1, 1, 0])
        self.assertEqual((code.n, code.checks, code.lifting), (12, 6, 3))
        self.assertEqual(code.n_transmitted, 9)
        np.testing.assert_array_equal(code.punctured_positions, [9, 10, 11])
        np.testing.assert_array_equal(code.base_matrix, shifts)
        rng = np.random.default_rng(3)
        info = rng.integers(0, 2, size=(5, code.k), dtype=np.uint8)
        cw = code.encode(info)
        sent = code.puncture(cw)
        self.assertEqual(sent.shape, (5, 9))
        np.testing.assert_array_equal(sent, cw[:, code.transmitted_positions])
        # .qc text round trip; 'auto' recognises the format
        again = load_text(code.to_string(format='qc'), '.qc')
        np.testing.assert_array_equal(again.dense(), code.dense())
        np.testing.assert_array_equal(again.punctured_positions, [9, 10, 11])
        with self.assertRaisesRegex(ValueError, r'shift 3 at block \(0, 0\) is out of range'):
            gpuldpc.ldpc_code.from_base_matrix([[3]], 3)
        np.testing.assert_array_equal(gf_syndrome(code, cw), 0)
        plain = gpuldpc.ldpc_code.load(
            os.path.join(SOURCE_DIR, 'codes', 'regular_3_6_n96_gf2.alist'))
        self.assertIsNone(plain.base_matrix)
        self.assertEqual(plain.lifting, 0)
        cw = plain.encode(rng.integers(0, 2, (2, plain.k), dtype=np.uint8))
        np.testing.assert_array_equal(plain.puncture(cw), cw)
        # the structure found in H: through an alist file, the base matrix
        # again (the code itself stays an alist code); none in a random code
        self.assertIsNone(plain.find_quasi_cyclic_base())
        wifi = gpuldpc.ldpc_code.load('wifi:648:1/2')
        read = load_text(wifi.to_string(format='alist'), '.alist')
        self.assertIsNone(read.base_matrix)
        z, found = read.find_quasi_cyclic_base()
        self.assertEqual(z, 27)
        np.testing.assert_array_equal(found, wifi.base_matrix)
        z, own = code.find_quasi_cyclic_base()
        self.assertEqual(z, 3)
        np.testing.assert_array_equal(own, shifts)

    def test_wimax(self):
        # IEEE 802.16e: z = n / 24, the shifts of z0 = 96 scaled down
        # (floor(p z / 96); modulo z for rate 2/3A), named or constructed
        rng = np.random.default_rng(5)
        for n, rate, k in ((576, '1/2', 288), (1344, '2/3A', 896), (2304, '5/6', 1920)):
            code = gpuldpc.ldpc_code.wimax(n, rate)
            self.assertEqual((code.n, code.k, code.lifting), (n, k, n // 24))
            np.testing.assert_array_equal(
                gpuldpc.ldpc_code.load(f'wimax:{n}:{rate}').base_matrix, code.base_matrix)
            cw = code.encode(rng.integers(0, 2, (3, code.k), dtype=np.uint8))
            np.testing.assert_array_equal(code.syndrome_weight(cw), 0)
        self.assertEqual(gpuldpc.ldpc_code.wimax(576, '1/2').base_matrix[0, 1], 94 * 24 // 96)
        self.assertEqual(gpuldpc.ldpc_code.wimax(576, '2/3A').base_matrix[1, 4], 36 % 24)
        with self.assertRaisesRegex(ValueError, r"n=600 is not an IEEE 802\.16e codeword "
                                    r"length; allowed: 576 \.\. 2304"):
            gpuldpc.ldpc_code.wimax(600, '1/2')
        with self.assertRaisesRegex(ValueError, r"rate='2/3' .*allowed: 1/2, 2/3A"):
            gpuldpc.ldpc_code.wimax(576, '2/3')

    def test_ar4ja(self):
        # CCSDS AR4JA: the information first, the last M = k / 2, k / 4, k / 8
        # bits punctured, quasi-cyclic at z = M / 4
        rng = np.random.default_rng(6)
        for k, rate, m in ((1024, '1/2', 512), (1024, '4/5', 128), (4096, '2/3', 1024)):
            code = gpuldpc.ldpc_code.ar4ja(k, rate)
            self.assertEqual((code.k, code.n, code.n_transmitted, code.lifting),
                             (k, k + 3 * m, k + 2 * m, m // 4))
            np.testing.assert_array_equal(
                gpuldpc.ldpc_code.load(f'ar4ja:{k}:{rate}').base_matrix, code.base_matrix)
            info = rng.integers(0, 2, (3, code.k), dtype=np.uint8)
            cw = code.encode(info)
            np.testing.assert_array_equal(code.syndrome_weight(cw), 0)
            np.testing.assert_array_equal(cw[:, :k], info)
        with self.assertRaisesRegex(ValueError, r"k=2048 is not an AR4JA information "
                                    r"length; allowed: 1024, 4096, 16384"):
            gpuldpc.ldpc_code.ar4ja(2048, '1/2')
        with self.assertRaisesRegex(ValueError, r"rate='7/8' .*allowed: 1/2, 2/3, 4/5"):
            gpuldpc.ldpc_code.ar4ja(1024, '7/8')

if __name__ == '__main__':
    gr_unittest.run(qa_ldpc_code)
