#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#

import numpy as np
from gnuradio import gr_unittest

from gnuradio import gpuldpc


def reference_mul_table(m, poly):
    """Carry-less multiplication modulo poly, computed with numpy."""
    q = 1 << m
    a = np.arange(q, dtype=np.int64)[:, None]
    b = np.arange(q, dtype=np.int64)[None, :]
    prod = np.zeros((q, q), dtype=np.int64)
    for i in range(m):
        prod ^= np.where((b >> i) & 1, a << i, 0)
    for bit in range(2 * m - 2, m - 1, -1):
        prod ^= np.where((prod >> bit) & 1, poly << (bit - m), 0)
    return prod.astype(np.uint8)


class qa_gf_field(gr_unittest.TestCase):

    def test_tables_match_reference(self):
        for m in range(1, 9):
            f = gpuldpc.gf_field(m)
            self.assertEqual(f.q, 1 << m)
            np.testing.assert_array_equal(f.mul_table, reference_mul_table(m, f.poly))
            nz = np.arange(1, f.q)
            np.testing.assert_array_equal(f.exp_table[f.log_table[nz]], nz)
            np.testing.assert_array_equal(f.mul_table[nz, f.inv_table[nz]], 1)

    def test_alternative_polynomial(self):
        f = gpuldpc.gf_field(8, 0x12b)  # x^8+x^5+x^3+x+1, primitive
        np.testing.assert_array_equal(f.mul_table, reference_mul_table(8, 0x12b))
        self.assertNotEqual(f.mul(3, 200), gpuldpc.gf_field(8).mul(3, 200))

    def test_errors(self):
        with self.assertRaisesRegex(ValueError, "m=9"):
            gpuldpc.gf_field(9)
        with self.assertRaisesRegex(ValueError, "not a primitive"):
            gpuldpc.gf_field(8, 0x11b)
        f = gpuldpc.gf_field(4)
        with self.assertRaisesRegex(ValueError, "not an element of GF\\(16\\)"):
            f.mul(16, 1)
        with self.assertRaises(ValueError):
            f.inv(0)
        with self.assertRaises(ValueError):
            f.div(1, 0)


if __name__ == '__main__':
    gr_unittest.run(qa_gf_field)
