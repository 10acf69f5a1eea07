#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#

import numpy as np
from gnuradio import blocks, fft, gr, gr_unittest

from gnuradio import gpuldpc


def sylvester(n):
    h = np.array([[1]], dtype=np.int64)
    while h.shape[0] < n:
        h = np.kron(np.array([[1, 1], [1, -1]]), h)
    return h


def kron_power(kernel, n):
    m = np.array([[1]], dtype=np.int64)
    while m.shape[0] < n:
        m = np.kron(np.array(kernel, dtype=np.int64), m)
    return m


def haar_matrix(n):
    """Unnormalised Haar: rows [sum of all, then differences coarse to fine]."""
    if n == 1:
        return np.array([[1]], dtype=np.int64)
    h = haar_matrix(n // 2)
    top = np.kron(h, [1, 1])
    bottom = np.kron(np.eye(n // 2, dtype=np.int64), [1, -1])
    return np.vstack([top, bottom])


def numpy_fwht(x):
    """Reference FWHT by reshaping (independent of the engine's loops)."""
    x = np.array(x, dtype=np.float64)
    n = x.shape[-1]
    h = 1
    while h < n:
        y = x.reshape(x.shape[:-1] + (n // (2 * h), 2, h))
        x = np.concatenate([y[..., 0, :] + y[..., 1, :], y[..., 0, :] - y[..., 1, :]],
                           axis=-1).reshape(x.shape)
        h *= 2
    return x


def run_vectors(block, data, item, vlen):
    tb = gr.top_block()
    if item == "f":
        src, snk = blocks.vector_source_f(data.ravel().tolist(), False, vlen), \
            blocks.vector_sink_f(vlen)
    elif item == "i":
        src, snk = blocks.vector_source_i(data.ravel().tolist(), False, vlen), \
            blocks.vector_sink_i(vlen)
    else:
        src, snk = blocks.vector_source_c(data.ravel().tolist(), False, vlen), \
            blocks.vector_sink_c(vlen)
    tb.connect(src, block, snk)
    tb.run()
    return np.array(snk.data()).reshape(-1, vlen)


class qa_transforms(gr_unittest.TestCase):

    def test_fwht_engine_all_sizes(self):
        rng = np.random.default_rng(1)
        for k in range(1, 16):
            n = 1 << k
            vectors = 3 if n > 4096 else 5
            x = rng.standard_normal((vectors, n)).astype(np.float32)
            ref = numpy_fwht(x)
            got = gpuldpc.fwht_cpu(n).execute(x)
            # float sums of n terms of unit size: relative error ~ log2(n) ulp
            np.testing.assert_allclose(got, ref, rtol=0, atol=1e-5 * np.sqrt(n) * k)
            if n <= 256:
                np.testing.assert_allclose(ref, x.astype(np.float64) @ sylvester(n).T,
                                           atol=1e-9 * n)

    def test_fwht_options(self):
        rng = np.random.default_rng(2)
        n = 64
        x = rng.standard_normal((4, n)).astype(np.float32)
        nat = numpy_fwht(x)
        np.testing.assert_allclose(gpuldpc.fwht_cpu(n, "1/n").execute(x), nat / n, atol=1e-5)
        ortho = gpuldpc.fwht_cpu(n, "orthonormal")
        np.testing.assert_allclose(ortho.execute(x), nat / 8.0, atol=1e-5)
        np.testing.assert_allclose(ortho.execute(ortho.execute(x)), x, atol=1e-5)
        # sequency order: row k of the reordered matrix changes sign k times
        seq_rows = gpuldpc.fwht_cpu(n, ordering="sequency").execute(
            np.eye(n, dtype=np.float32)).T
        changes = [int(np.count_nonzero(np.diff(np.sign(r)) != 0)) for r in seq_rows]
        self.assertEqual(changes, list(range(n)))
        # the block batches whatever the scheduler hands it
        blk = gpuldpc.fwht(n, normalization="orthonormal", ordering="sequency",
                           device="cpu")
        got = run_vectors(blk, x, "f", n)
        ref = gpuldpc.fwht_cpu(n, "orthonormal", "sequency").execute(x)
        np.testing.assert_array_equal(got, ref)

    def test_spectral_transforms_against_matrices(self):
        rng = np.random.default_rng(3)
        mats = {
            "walsh": (sylvester, None),
            "arithmetic": (lambda n: kron_power([[1, 0], [-1, 1]], n),
                           lambda n: kron_power([[1, 0], [1, 1]], n)),
            "reed-muller": (lambda n: kron_power([[1, 0], [1, 1]], n), None),
            "haar": (haar_matrix, None),
        }
        for n in (2, 4, 8, 64, 256):
            xi = rng.integers(-1000, 1000, size=(3, n), dtype=np.int32)
            for kind, (fwd, inv) in mats.items():
                ref = xi.astype(np.int64) @ fwd(n).T
                if kind == "reed-muller":
                    ref = (xi.astype(np.int64) & 1) @ fwd(n).T % 2
                results = []
                for alg in ("cooley-tukey", "constant-geometry"):
                    t = gpuldpc.spectral_transform_cpu_ii(n, kind, True, alg)
                    got = t.execute(xi)
                    np.testing.assert_array_equal(got, ref, f"{kind} {alg} n={n}")
                    back = gpuldpc.spectral_transform_cpu_ii(n, kind, False, alg).execute(got)
                    expected = (xi & 1) if kind == "reed-muller" else xi
                    np.testing.assert_array_equal(back, expected, f"{kind} inverse {alg}")
                    if inv is not None:
                        np.testing.assert_array_equal(
                            gpuldpc.spectral_transform_cpu_ii(n, kind, False, alg).execute(xi),
                            xi.astype(np.int64) @ inv(n).T)
                    xf = xi.astype(np.float32) / 7.0
                    results.append(gpuldpc.spectral_transform_cpu_ff(n, kind, True,
                                                                     alg).execute(xf))
                # identical float results from both algorithms
                np.testing.assert_array_equal(results[0], results[1], f"{kind} float n={n}")

    def test_spectral_blocks(self):
        rng = np.random.default_rng(4)
        n = 32
        xi = rng.integers(-50, 50, size=(7, n), dtype=np.int32)
        for kind in ("walsh", "reed-muller", "arithmetic", "haar"):
            blk = gpuldpc.spectral_transform_ii(n, kind, True, "constant-geometry")
            got = run_vectors(blk, xi, "i", n)
            np.testing.assert_array_equal(
                got, gpuldpc.spectral_transform_cpu_ii(n, kind, True).execute(xi))
            xf = xi.astype(np.float32)
            blk = gpuldpc.spectral_transform_ff(n, kind, False)
            np.testing.assert_array_equal(
                run_vectors(blk, xf, "f", n),
                gpuldpc.spectral_transform_cpu_ff(n, kind, False).execute(xf))

    def test_fft_matches_fft_vcc(self):
        rng = np.random.default_rng(5)
        for n in (1, 2, 7, 64, 1000, 1024):
            x = (rng.standard_normal((6, n)) + 1j * rng.standard_normal((6, n))).astype(
                np.complex64)
            for forward in (True, False):
                for shift in (False, True):
                    for window in ([], list(np.hanning(n).astype(np.float32))):
                        ours = run_vectors(gpuldpc.fft(n, forward, window, shift, 1, "cpu"),
                                           x, "c", n)
                        ref = run_vectors(fft.fft_vcc(n, forward, window, shift, 1), x, "c", n)
                        np.testing.assert_allclose(ours, ref, rtol=1e-5, atol=1e-5 * n,
                                                   err_msg=f"n={n} fwd={forward} "
                                                           f"shift={shift} win={len(window)}")
            # and against numpy, DC at index 0
            ours = run_vectors(gpuldpc.fft(n), x, "c", n)
            np.testing.assert_allclose(ours, np.fft.fft(x, axis=1), rtol=1e-4,
                                       atol=1e-4 * n)

    def test_bad_arguments(self):
        cases = [
            (lambda: gpuldpc.fwht(3), "n=3"),
            (lambda: gpuldpc.fwht(65536), "n=65536"),
            (lambda: gpuldpc.fwht(8, normalization="sqrt"), "normalization='sqrt'"),
            (lambda: gpuldpc.fwht(8, ordering="gray"), "ordering='gray'"),
            (lambda: gpuldpc.fwht(8, device="gpu"), "device='gpu'"),
            (lambda: gpuldpc.spectral_transform_ff(6), "n=6"),
            (lambda: gpuldpc.spectral_transform_ii(8, kind="fourier"), "kind='fourier'"),
            (lambda: gpuldpc.spectral_transform_ii(8, algorithm="radix4"), "algorithm='radix4'"),
            (lambda: gpuldpc.fft(0), "fft_size=0"),
            (lambda: gpuldpc.fft(8, window=[1.0] * 7), "window"),
            (lambda: gpuldpc.fft(8, nthreads=0), "nthreads=0"),
        ]
        for make, needle in cases:
            with self.assertRaises(ValueError) as ctx:
                make()
            self.assertIn(needle, str(ctx.exception))
        with self.assertRaisesRegex(RuntimeError, "device='cuda:1'"):
            gpuldpc.fwht(8, device="cuda:1")
        # the fault-injection switch checks its arguments (no GPU needed)
        with self.assertRaisesRegex(ValueError, "kind"):
            gpuldpc.inject_cuda_fault("kernel", 1)
        with self.assertRaisesRegex(ValueError, "nth"):
            gpuldpc.inject_cuda_fault("copy", 0)
        gpuldpc.inject_cuda_fault("copy", 1)
        gpuldpc.clear_cuda_fault()
        self.assertEqual(gpuldpc.fwht(8, device="cpu").device_name(), "cpu")

    def test_output_buffer_floor_bounded(self):
        # On a GPU engine a block asks for as many items as fit 8 MiB, at least
        # 2, so never more than max(8 MiB, 2 items) (it was 64 items: 8 GiB at
        # fft_size 2^24); on the CPU it sets no floor.
        self.assertEqual(gpuldpc.gpu_buffer_items(8 << 24), 2)
        self.assertEqual(gpuldpc.gpu_buffer_items(1 << 17), 64)
        for item in (1, 8, 4096, 1 << 20, 3 << 20, 1 << 27, 1 << 30):
            items = gpuldpc.gpu_buffer_items(item)
            self.assertGreaterEqual(items, 2)
            self.assertLessEqual(items * item, max(8 << 20, 2 * item))
        for device in ("cpu", "auto"):
            for blk, item in ((gpuldpc.fwht(32768, device=device), 4 * 32768),
                              (gpuldpc.spectral_transform_ff(16384, device=device),
                               4 * 16384),
                              (gpuldpc.fft(1 << 16, device=device), 8 << 16)):
                floor = blk.min_output_buffer(0)
                self.assertLessEqual(floor * item, max(8 << 20, 2 * item), device)
                if device == "cpu":
                    self.assertLessEqual(floor, 0)


if __name__ == '__main__':
    gr_unittest.run(qa_transforms)
