#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""GPU paths of the transform blocks against their CPU paths (label gpu).
Exits with 77 (CTest: skipped) when there is no CUDA device."""

import os
import re
import sys

import numpy as np
from gnuradio import blocks, fft, gr, gr_unittest

from gnuradio import gpuldpc


def run(block, data, item, vlen):
    tb = gr.top_block()
    if item == "i":
        src, snk = blocks.vector_source_i(data.ravel().tolist(), False, vlen), \
            blocks.vector_sink_i(vlen)
    elif item == "f":
        src, snk = blocks.vector_source_f(data.ravel().tolist(), False, vlen), \
            blocks.vector_sink_f(vlen)
    else:
        src, snk = blocks.vector_source_c(data.ravel().tolist(), False, vlen), \
            blocks.vector_sink_c(vlen)
    tb.connect(src, block, snk)
    tb.run()
    return np.array(snk.data()).reshape(-1, vlen)


class qa_gpu_blocks(gr_unittest.TestCase):

    def test_ldpc_decoder_block_gpu_equals_cpu(self):
        # encoder -> BPSK/AWGN LLRs -> decoder on the GPU and on the CPU, tagged
        # stream with a marker tag, and PDUs: the same frames out, in order
        import pmt
        from gnuradio.gpuldpc import sim
        for name in ("regular_2_4_n96_gf64.alist", "regular_2_4_n64_gf256.alist"):
            code = gpuldpc.ldpc_code.load(os.path.join(gpuldpc.codes_dir(), name))
            rng = np.random.default_rng(3)
            frames = 40
            info = rng.integers(0, code.q, size=(frames, code.k), dtype=np.uint8)
            bits = sim.symbols_to_bits(code.encode(info), code.bits_per_symbol)
            llr = sim.bpsk_awgn_llr(bits, sim.noise_variance(3.0, code.rate), rng)
            n = llr.shape[1]
            outs = {}
            for device in ("cuda", "cpu"):
                tags = [gr.tag_utils.python_to_tag((i * n, pmt.intern("packet_len"),
                                                    pmt.from_long(n)))
                        for i in range(frames)]
                tags.append(gr.tag_utils.python_to_tag((5 * n + 3, pmt.intern("marker"),
                                                        pmt.from_long(1))))
                tb = gr.top_block()
                src = blocks.vector_source_f(llr.ravel().tolist(), False, 1, tags)
                dec = gpuldpc.ldpc_decoder(code, output="symbols", device=device,
                                           max_batch=16, status_tags="all")
                snk = blocks.vector_sink_b()
                tb.connect(src, dec, snk)
                tb.run()
                self.assertEqual(dec.frames(), frames)
                out = np.array(snk.data(), dtype=np.uint8).reshape(frames, code.k)
                markers = [t.offset // code.k for t in snk.tags()
                           if pmt.symbol_to_string(t.key) == "marker"]
                self.assertEqual(markers, [5])
                outs[device] = out
                # per-frame status tags belong to their frames, batches in
                # flight or not: those of the engine on the same frames
                iterations = sorted((t.offset // code.k, pmt.to_long(t.value))
                                    for t in snk.tags()
                                    if pmt.symbol_to_string(t.key) == "ldpc_iterations")
                engine = gpuldpc.batch_decoder(code, device=device)
                _, status = engine.decode(llr.astype(np.float32))
                self.assertEqual([v for _, v in iterations],
                                 [int(i) for i in status["iterations"]])
                self.assertEqual([f for f, _ in iterations], list(range(frames)))
                if device == "cuda":
                    self.assertNotEqual(dec.device_name(), "cpu")
                    # FFT-BP's kernel, named in the stats
                    kernel = pmt.symbol_to_string(pmt.dict_ref(
                        dec.stats(), pmt.intern("kernel_variant"), pmt.PMT_NIL))
                    self.assertEqual(kernel, engine.kernel_variant)
                    self.assertTrue(kernel.startswith("FFT-BP, "), kernel)
            np.testing.assert_array_equal(outs["cuda"], outs["cpu"])
            np.testing.assert_array_equal(outs["cuda"], info)

    def test_ldpc_decoder_frames_trickling_in_come_out_at_once(self):
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from qa_ldpc_blocks import check_frames_come_out_at_once
        check_frames_come_out_at_once(self, "cuda")

    def test_ldpc_decoder_lone_batch_in_gpu_chunks_equals_cpu(self):
        # the chunked path on the GPU's two outstanding batches: the frames,
        # tags and counters of whole batches decoded on the CPU
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from qa_framing import check_lone_batches_in_chunks
        check_lone_batches_in_chunks(self, "cuda", "cpu")

    def test_ldpc_decoder_large_batch_formatted_in_shares_equals_cpu(self):
        # a batch with at least 2^20 bytes of results is formatted on the
        # staging threads too (the bits output here, 1.4 MB; the packed one,
        # packed by the decoder, 180 KB on the block's thread): every frame
        # where it belongs, as the CPU block gives it
        import pmt
        from gnuradio.gpuldpc import sim
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from qa_framing import chunk_frames_env
        code = gpuldpc.ldpc_code.load("dvbs2:1/2:short")
        rng = np.random.default_rng(11)
        frames = 200  # 200 x 7200 bits
        info = rng.integers(0, 2, size=(frames, code.k), dtype=np.uint8)
        llr = sim.bpsk_awgn_llr(code.encode(info), sim.noise_variance(2.5, code.rate),
                                rng).astype(np.float32)
        for output, width in (("packed", (code.k + 7) // 8), ("bits", code.k)):
            outs = {}
            for device in ("cuda", "cpu"):
                tb = gr.top_block()
                src = blocks.vector_source_f(llr.ravel().tolist(), False)
                # one whole batch of 200 frames (no chunks), so that its
                # formatting is shared out
                with chunk_frames_env("0"):
                    dec = gpuldpc.ldpc_decoder(code, output=output, device=device,
                                               algorithm="min-sum", schedule="layered",
                                               messages="int8", max_batch=256,
                                               length_tag_key="")
                snk = blocks.vector_sink_b()
                tb.connect(src, dec, snk)
                tb.run()
                self.assertEqual(dec.frames(), frames)
                stats = dec.stats()
                self.assertEqual(pmt.to_uint64(pmt.dict_ref(
                    stats, pmt.intern("largest_batch"), pmt.PMT_NIL)), frames)
                self.assertEqual(pmt.to_uint64(pmt.dict_ref(
                    stats, pmt.intern("chunked_batches"), pmt.PMT_NIL)), 0)
                outs[device] = np.array(snk.data(), dtype=np.uint8).reshape(-1, width)
            self.assertEqual(len(outs["cuda"]), frames)
            np.testing.assert_array_equal(outs["cuda"], outs["cpu"])
            sent = np.packbits(info, axis=1) if output == "packed" else info
            np.testing.assert_array_equal(outs["cuda"], sent)

    def test_all_erased_frames_fail_on_the_gpu_as_on_the_cpu(self):
        # a frame with no valid soft value is a failed frame on every decoder
        # family, through decode() and through the block's begin/end pipeline
        for name, kwargs in (("regular_3_6_n96_gf2.alist",
                              dict(algorithm="min-sum", messages="int8",
                                   min_sum_magnitude="smallest")),
                             ("regular_3_6_n96_gf2.alist",
                              dict(algorithm="min-sum", messages="int8",
                                   min_sum_magnitude="three-smallest")),
                             ("regular_3_6_n96_gf2.alist", dict(algorithm="sum-product")),
                             ("regular_2_4_n96_gf64.alist", dict())):
            code = gpuldpc.ldpc_code.load(os.path.join(gpuldpc.codes_dir(), name))
            nl = code.n * code.bits_per_symbol
            llr = np.full((4, nl), -4.0, np.float32)
            llr[1] = np.nan
            llr[3] = np.inf
            results = {}
            for device in ("cpu", "cuda"):
                dec = gpuldpc.batch_decoder(code, device=device, **kwargs)
                _, status = dec.decode(llr)
                results[device] = (list(status["converged"]),
                                   list(status["invalid_inputs"]))
            self.assertEqual(results["cuda"], results["cpu"], name)
            self.assertEqual(results["cpu"][0], [1, 0, 1, 0], name)
            tb = gr.top_block()
            src = blocks.vector_source_f(llr.ravel().tolist())
            blk = gpuldpc.ldpc_decoder(code, output="bits", length_tag_key="",
                                       pass_failed=False, device="cuda", **kwargs)
            snk = blocks.null_sink(1)
            tb.connect(src, blk, snk)
            tb.run()
            self.assertEqual((blk.frames(), blk.failed_frames()), (4, 2), name)

    def test_tiny_noise_var_saturates_on_the_gpu(self):
        # N0 at the bottom of the allowed range: the device's metrics saturate
        # as the CPU's do, and noise-free GF(256) frames on 256-QAM decode
        code = gpuldpc.ldpc_code.load(os.path.join(gpuldpc.codes_dir(),
                                                   "regular_2_4_n64_gf256.alist"))
        rng = np.random.default_rng(11)
        info = rng.integers(0, 256, size=(8, code.k), dtype=np.uint8)
        points = np.asarray(gpuldpc.constellation("gpuldpc-256qam").points)
        y = points[code.encode(info)].astype(np.complex64)
        dec = gpuldpc.batch_decoder(code, device="cuda")
        for n0 in (1.2e-38, 3e-38, 5e-38):
            bits, status = dec.decode_symbols(y, "gpuldpc-256qam", n0)
            self.assertTrue(all(status["converged"]), n0)
            self.assertEqual(int(status["invalid_inputs"].sum()), 0, n0)
        tb = gr.top_block()
        src = blocks.vector_source_c(y.ravel()[:512].tolist())
        dm = gpuldpc.soft_demapper_cf("gpuldpc-256qam", "exact", 1.3e-38, "", "cuda")
        snk = blocks.vector_sink_f()
        tb.connect(src, dm, snk)
        tb.run()
        self.assertTrue(np.all(np.isfinite(np.array(snk.data()))))

    def test_fwht_block_gpu_equals_cpu(self):
        rng = np.random.default_rng(1)
        for n in (2, 32, 64, 1024, 32768):
            x = rng.standard_normal((33 if n < 32768 else 5, n)).astype(np.float32)
            for norm in ("none", "orthonormal"):
                for order in ("natural", "sequency"):
                    gpu = run(gpuldpc.fwht(n, norm, order, "cuda"), x, "f", n)
                    cpu = run(gpuldpc.fwht(n, norm, order, "cpu"), x, "f", n)
                    np.testing.assert_allclose(gpu, cpu, rtol=0,
                                               atol=1e-6 * np.abs(cpu).max())

    def test_injected_fault_from_python_block_goes_to_cpu(self):
        # gpuldpc.inject_cuda_fault: the fwht block's first launch fails; the
        # rest runs on the CPU and every vector comes out right
        rng = np.random.default_rng(4)
        x = rng.standard_normal((500, 256)).astype(np.float32)
        cpu = run(gpuldpc.fwht(256, "none", "natural", "cpu"), x, "f", 256)
        block = gpuldpc.fwht(256, "none", "natural", "cuda")
        self.assertNotEqual(block.device_name(), "cpu")
        fired = gpuldpc.injected_cuda_faults()
        gpuldpc.inject_cuda_fault("launch", 1)
        try:
            got = run(block, x, "f", 256)
        finally:
            gpuldpc.clear_cuda_fault()
        self.assertEqual(gpuldpc.injected_cuda_faults(), fired + 1)
        self.assertEqual(block.device_name(), "cpu")
        np.testing.assert_allclose(got, cpu, rtol=0, atol=1e-6 * np.abs(cpu).max())

    def test_fft_block_gpu_equals_fft_vcc(self):
        rng = np.random.default_rng(2)
        for n in (7, 64, 1024, 4096):
            x = (rng.standard_normal((20, n)) + 1j * rng.standard_normal((20, n))).astype(
                np.complex64)
            for forward in (True, False):
                for shift in (False, True):
                    for window in ([], list(np.hanning(n).astype(np.float32))):
                        gpu = run(gpuldpc.fft(n, forward, window, shift, 1, "cuda"), x, "c", n)
                        ref = run(fft.fft_vcc(n, forward, window, shift, 1), x, "c", n)
                        np.testing.assert_allclose(
                            gpu, ref, rtol=0, atol=1e-5 * np.log2(max(n, 2)) * np.abs(ref).max())

    def test_spectral_block_gpu_equals_cpu(self):
        rng = np.random.default_rng(4)
        for n in (2, 64, 4096):
            xi = rng.integers(-1000, 1000, size=(9, n), dtype=np.int32)
            for kind in ("walsh", "reed-muller", "arithmetic", "haar"):
                for forward in (True, False):
                    for blk, data, item in ((gpuldpc.spectral_transform_ii, xi, "i"),
                                            (gpuldpc.spectral_transform_ff,
                                             (xi / 7.0).astype(np.float32), "f")):
                        gpu = run(blk(n, kind, forward, "cooley-tukey", "cuda"), data, item, n)
                        cpu = run(blk(n, kind, forward, "cooley-tukey", "cpu"), data, item, n)
                        np.testing.assert_array_equal(gpu, cpu, f"{kind} {forward} n={n}")

    def test_engines_direct(self):
        rng = np.random.default_rng(3)
        x = rng.standard_normal((1000, 256)).astype(np.float32)
        gpu = gpuldpc.fwht_cuda(256, "1/n", "sequency", vectors_per_chunk=37).execute(x)
        cpu = gpuldpc.fwht_cpu(256, "1/n", "sequency").execute(x)
        np.testing.assert_allclose(gpu, cpu, rtol=0, atol=1e-6 * np.abs(cpu).max())
        self.assertIn("cuda:0", gpuldpc.fwht_cuda(8).device_name)

    def test_binary_decoder_block_batch_fills_the_gpu(self):
        # the automatic batch: the GPU decoder's preferred batch where above
        # 4096 (small binary codes on chip: twice the frames its SMs hold)
        code = gpuldpc.ldpc_code.wifi(648, "1/2")
        args = dict(algorithm="min-sum", schedule="layered", messages="int8")
        engine = gpuldpc.batch_decoder(code, device="cuda", **args)
        preferred = engine.preferred_batch()
        self.assertGreater(preferred, 0)
        dec = gpuldpc.ldpc_decoder(code, device="cuda", input="int8", **args)
        self.assertEqual(dec.batch_size(), max(4096, preferred))
        # a SIMD CPU decoder prefers a group of frames for each of its
        # threads, and the CPU block's batch holds four times that many; no
        # chunks
        cpu = gpuldpc.batch_decoder(code, device="cpu", **args)
        lanes = int(re.search(r"(\d+) frames a group", cpu.kernel_variant).group(1))
        self.assertEqual(cpu.preferred_batch(), lanes * cpu.threads)
        self.assertEqual(cpu.efficient_chunk(), 0)
        blk = gpuldpc.ldpc_decoder(code, device="cpu", input="int8", **args)
        self.assertEqual(blk.batch_size(), cpu.whole_round_batch(
            min(4096, max(256, 4 * cpu.preferred_batch()))))
        # chunks of lone batches: whole waves on chip; none for the grid
        # variant, whose calls gain speed with every frame
        self.assertEqual(engine.efficient_chunk(), preferred)
        os.environ["GPULDPC_GPU_DECODER_ON_CHIP"] = "0"
        try:
            grid = gpuldpc.batch_decoder(code, device="cuda", **args)
        finally:
            del os.environ["GPULDPC_GPU_DECODER_ON_CHIP"]
        self.assertGreater(grid.preferred_batch(), 0)
        self.assertEqual(grid.efficient_chunk(), 0)

    def test_output_buffer_floor_on_gpu(self):
        # as many items as fit 8 MiB, at least 2 (it was 64: 128 MiB here)
        blk = gpuldpc.fft(1 << 18, True, [], False, 1, "cuda")
        self.assertEqual(blk.min_output_buffer(0), 4)
        blk = gpuldpc.fwht(32768, "none", "natural", "cuda")
        self.assertEqual(blk.min_output_buffer(0), 64)

    def test_shared_memory_cap_routes_to_gpu_variants(self):
        # Under the caps of sm_75 (64 KiB) and sm_86/sm_89 (99 KiB) every size
        # stays on the GPU in a variant within the cap, with the CPU's results.
        rng = np.random.default_rng(5)
        old = os.environ.get("GPULDPC_SHARED_MEMORY_LIMIT")
        try:
            for cap, cap_bytes in (("64K", 65536), ("99KiB", 101376)):
                os.environ["GPULDPC_SHARED_MEMORY_LIMIT"] = cap
                for n in (4096, 16384, 32768):
                    x = rng.standard_normal((3, n)).astype(np.float32)
                    for order in ("natural", "sequency"):
                        gpu = gpuldpc.fwht_cuda(n, "none", order)
                        self.assertLessEqual(gpu.shared_memory_limit, cap_bytes)
                        self.assertLessEqual(gpu.shared_memory_bytes,
                                             gpu.shared_memory_limit)
                        cpu = gpuldpc.fwht_cpu(n, "none", order).execute(x)
                        np.testing.assert_allclose(gpu.execute(x), cpu, rtol=0,
                                                   atol=1e-6 * np.abs(cpu).max(),
                                                   err_msg=f"{cap} {n} {gpu.variant}")
                        blk = run(gpuldpc.fwht(n, "none", order, "cuda"), x, "f", n)
                        np.testing.assert_allclose(blk, cpu, rtol=0,
                                                   atol=1e-6 * np.abs(cpu).max())
                for n in (4096, 8192, 16384):
                    x = (rng.standard_normal((4, n)) +
                         1j * rng.standard_normal((4, n))).astype(np.complex64)
                    window = np.hanning(n).astype(np.float32)
                    gpu = gpuldpc.fft_cuda(n, True, list(window), True)
                    self.assertLessEqual(gpu.shared_memory_bytes, gpu.shared_memory_limit)
                    self.assertLessEqual(gpu.shared_memory_limit, cap_bytes)
                    ref = np.fft.fftshift(np.fft.fft(x * window, axis=1), axes=1)
                    np.testing.assert_allclose(gpu.execute(x), ref, rtol=0,
                                               atol=2e-5 * np.log2(n) * np.abs(ref).max(),
                                               err_msg=f"{cap} {n} {gpu.variant}")
        finally:
            if old is None:
                os.environ.pop("GPULDPC_SHARED_MEMORY_LIMIT", None)
            else:
                os.environ["GPULDPC_SHARED_MEMORY_LIMIT"] = old


if __name__ == '__main__':
    if not gpuldpc.cuda_devices():
        print("gpu tests skipped: no CUDA device")
        sys.exit(77)
    gr_unittest.run(qa_gpu_blocks)
