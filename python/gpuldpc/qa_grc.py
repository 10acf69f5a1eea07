#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The GRC side: block definitions load, every .grc in the repository
compiles with grcc, the examples run (QT ones offscreen), each code source of
the encoder and decoder blocks and of the FECAPI definitions builds the code
it names, what can be checked before running fails in grcc, and the GRC
defaults are the Python ones."""

import ast
import glob
import importlib
import inspect
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import yaml
from gnuradio import gr, gr_unittest

from gnuradio import gpuldpc

SOURCE_DIR = os.environ.get(
    "GPULDPC_SOURCE_DIR",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
GRC_DIR = os.path.join(SOURCE_DIR, "grc")
EXAMPLES_DIR = os.path.join(SOURCE_DIR, "examples")


def grc_env():
    env = dict(os.environ)
    env["GRC_BLOCKS_PATH"] = GRC_DIR
    return env


def grcc(out, *paths):
    return subprocess.run(["grcc", "-o", out, *paths], env=grc_env(), capture_output=True,
                          text=True, timeout=300)


def have_pyqt():
    try:
        from PyQt5 import Qt  # noqa: F401
        from gnuradio import qtgui  # noqa: F401
    except ImportError:
        return False
    return True


_platform = None


def platform():
    """GRC's platform with the module's blocks, built once."""
    global _platform
    if _platform is None:
        from gnuradio.grc.core.platform import Platform
        _platform = Platform(name="qa", prefs=gr.prefs(), version=gr.version(),
                             version_parts=(gr.major_version(), gr.api_version(),
                                            gr.minor_version()))
        _platform.build_library([GRC_DIR] + _platform.config.block_paths)
    return _platform


def flowgraph(fg_id, blocks, connections=()):
    """A .grc document: blocks as (name, block id, parameters)."""
    return {
        "options": {"parameters": {"id": fg_id, "generate_options": "no_gui",
                                   "output_language": "python", "title": fg_id},
                    "states": {"coordinate": [8, 8], "rotation": 0, "state": "enabled"}},
        "blocks": [{"name": name, "id": key, "parameters": params,
                    "states": {"coordinate": [8 + 160 * i, 100], "rotation": 0,
                               "state": "enabled"}}
                   for i, (name, key, params) in enumerate(blocks)],
        "connections": [list(c) for c in connections],
        "metadata": {"file_format": 1},
    }


def write_grc(directory, doc):
    path = os.path.join(directory, doc["options"]["parameters"]["id"] + ".grc")
    with open(path, "w") as f:
        yaml.safe_dump(doc, f)
    return path


def validation_errors(doc):
    """GRC's verdict on a flowgraph, as grcc reaches it (in process)."""
    fg = platform().make_flow_graph()
    fg.import_data(doc)
    fg.rewrite()
    fg.validate()
    # the blocks' own checks; ports left unconnected here do not matter
    return [f"{elem}: {msg}" for elem, msg in fg.iter_error_messages()
            if not str(elem).startswith(("Source - ", "Sink - "))]


# The code sources: GRC parameters (encoder, decoder and both definitions take
# the same ones) and the code they name.
def code_sources():
    codes = gpuldpc.codes_dir()
    return {
        "file": ({"code_source": "file",
                  "code_file": repr(os.path.join(codes, "regular_3_6_n96_gf2.alist"))},
                 os.path.join(codes, "regular_3_6_n96_gf2.alist")),
        "shipped": ({"code_source": "shipped", "shipped_code": "regular_2_4_n64_gf256"},
                    "regular_2_4_n64_gf256"),
        "dvbs2": ({"code_source": "dvbs2", "dvbs2_rate": "1/2", "dvbs2_frame": "short"},
                  "dvbs2:1/2:short"),
        # Z as an expression: the generated code builds the name at run time
        "nr": ({"code_source": "nr", "nr_base_graph": "2", "nr_z": "lifting",
                "nr_rows": "8"}, "nr:2:52:8"),
        "wifi": ({"code_source": "wifi", "wifi_n": "648", "wifi_rate": "2/3"},
                 "wifi:648:2/3"),
        "wimax": ({"code_source": "wimax", "wimax_n": "672", "wimax_rate": "3/4B"},
                  "wimax:672:3/4B"),
        "ar4ja": ({"code_source": "ar4ja", "ar4ja_k": "1024", "ar4ja_rate": "4/5"},
                  "ar4ja:1024:4/5"),
    }


def code_source_flowgraph(fg_id, code_params):
    """Packed bytes -> encoder -> noiseless LLRs -> decoder -> sink, untagged,
    and the FECAPI definitions of the same code."""
    return flowgraph(fg_id, [
        ("lifting", "variable", {"value": "52"}),
        ("imports", "import", {"imports": "from gnuradio import gpuldpc"}),
        ("enc_def", "variable_gpuldpc_encoder_def", dict(code_params)),
        ("dec_def", "variable_gpuldpc_decoder_def", dict(code_params)),
        ("source", "blocks_vector_source_x", {"type": "byte", "vector": "[0]",
                                              "repeat": "False", "vlen": "1"}),
        ("encoder", "gpuldpc_ldpc_encoder",
         dict(code_params, input="packed", output="bits", length_tag_key="''")),
        ("to_float", "blocks_char_to_float", {"vlen": "1", "scale": "1"}),
        # bit b -> LLR log(P1/P0) = 8 b - 4
        ("to_llr_scale", "blocks_multiply_const_xx",
         {"type": "float", "const": "8.0", "vlen": "1"}),
        ("to_llr", "blocks_add_const_vxx", {"type": "float", "const": "-4.0", "vlen": "1"}),
        ("decoder", "gpuldpc_ldpc_decoder",
         dict(code_params, output="packed", length_tag_key="''", device="cpu")),
        ("sink", "blocks_vector_sink_x", {"type": "byte", "vlen": "1"}),
    ], [("source", "0", "encoder", "0"), ("encoder", "0", "to_float", "0"),
        ("to_float", "0", "to_llr_scale", "0"), ("to_llr_scale", "0", "to_llr", "0"),
        ("to_llr", "0", "decoder", "0"), ("decoder", "0", "sink", "0")])


def import_generated(out, name):
    sys.path.insert(0, out)
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(out)


# Runs a generated QT flowgraph offscreen for a while, then prints what the
# caller asked for (a Python expression on tb) as a repr.
QT_RUNNER = r"""
import importlib, sys, time
from PyQt5 import Qt
out, name, seconds, probe = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
app = Qt.QApplication(["qa_grc"])
sys.path.insert(0, out)
tb = getattr(importlib.import_module(name), name)()
tb.start()
t0 = time.time()
while time.time() - t0 < seconds:
    app.processEvents()
    time.sleep(0.05)
tb.stop()
tb.wait()
print("RESULT", repr(eval(probe, {"tb": tb, "np": __import__("numpy")})))
"""


def run_qt(out, name, seconds, probe):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    res = subprocess.run([sys.executable, "-c", QT_RUNNER, out, name, str(seconds), probe],
                         capture_output=True, text=True, timeout=300, env=env)
    lines = [line for line in res.stdout.splitlines() if line.startswith("RESULT ")]
    assert res.returncode == 0 and lines, f"{name}:\n{res.stdout}\n{res.stderr}"
    return ast.literal_eval(lines[-1][len("RESULT "):])


def signature_defaults(obj):
    """{argument: default} of a block's Python constructor (a pybind11 class:
    every overload's, first one first; a Python class: its __init__)."""
    if not isinstance(obj, type) or not hasattr(obj.__init__, "__code__"):
        out = {}
        for sig in re.findall(r"__init__\((.*?)\) -> None", obj.__init__.__doc__ or ""):
            args, depth, start, quote = [], 0, 0, None
            for i, ch in enumerate(sig):
                if quote:
                    quote = None if ch == quote else quote
                elif ch in "'\"":
                    quote = ch
                elif ch in "([{":
                    depth += 1
                elif ch in ")]}":
                    depth -= 1
                elif ch == "," and depth == 0:
                    args.append(sig[start:i])
                    start = i + 1
            args.append(sig[start:])
            for arg in args:
                m = re.match(r"\s*(\w+): [^=]*?(?: = (.*))?$", arg.strip())
                if m and m.group(2) is not None and m.group(1) not in out:
                    out[m.group(1)] = ast.literal_eval(m.group(2))
        return out
    sig = inspect.signature(obj.__init__)
    return {k: p.default for k, p in sig.parameters.items()
            if p.default is not inspect.Parameter.empty}


def grc_default(param, like):
    """A GRC parameter's default as the Python value of the type of `like`."""
    text = param.default
    if isinstance(like, bool):
        return text == "True"
    if isinstance(like, (int, float)):
        return type(like)(ast.literal_eval(text))
    if isinstance(like, list):
        return list(ast.literal_eval(text or "[]"))
    if param.dtype == "enum":
        return text
    try:  # a string parameter holds an expression or a bare word
        value = ast.literal_eval(text)
        return value if isinstance(value, str) else text
    except (ValueError, SyntaxError):
        return text


class qa_grc(gr_unittest.TestCase):

    def assertRefused(self, errors, msg=None):
        # refused by one of the block's own checks (an assertion), not
        # something else that happens to be wrong
        self.assertTrue(any("Assertion" in e for e in errors), (msg, errors))

    def test_block_definitions_load(self):
        files = sorted(glob.glob(os.path.join(GRC_DIR, "*.block.yml")))
        self.assertGreaterEqual(len(files), 4)
        for path in files:
            key = os.path.basename(path)[:-len(".block.yml")]
            self.assertIn(key, platform().blocks, f"{path} did not load")

    def test_shipped_code_options_are_the_shipped_codes(self):
        # the Shipped Code dropdown of every block that has one lists codes/
        for path in sorted(glob.glob(os.path.join(GRC_DIR, "*.block.yml"))):
            with open(path) as f:
                params = yaml.safe_load(f)["parameters"]
            for p in params:
                if p["id"] == "shipped_code":
                    self.assertEqual(sorted(p["options"]), gpuldpc.codes(), path)
                    self.assertIn(p["default"], p["options"], path)

    def test_grc_defaults_are_the_python_defaults(self):
        blocks = {
            "gpuldpc_farm_decoder": gpuldpc.farm_decoder,
            "gpuldpc_fft": gpuldpc.fft,
            "gpuldpc_fwht": gpuldpc.fwht,
            "gpuldpc_ldpc_decoder": gpuldpc.ldpc_decoder,
            "gpuldpc_ldpc_encoder": gpuldpc.ldpc_encoder,
            "gpuldpc_packet_link_rx": gpuldpc.packet_link_rx,
            "gpuldpc_packet_link_tx": gpuldpc.packet_link_tx,
            "gpuldpc_packet_noise_estimator_cc": gpuldpc.packet_noise_estimator_cc,
            "gpuldpc_soft_demapper_cf": gpuldpc.soft_demapper_cf,
            "gpuldpc_spectral_transform": gpuldpc.spectral_transform_ff,
            "gpuldpc_test_packet_source": gpuldpc.test_packet_source,
            "variable_gpuldpc_decoder_def": gpuldpc.ldpc_decoder_def,
            "variable_gpuldpc_encoder_def": gpuldpc.ldpc_encoder_def,
        }
        keys = {os.path.basename(p)[:-len(".block.yml")]
                for p in glob.glob(os.path.join(GRC_DIR, "*.block.yml"))}
        self.assertEqual(keys, set(blocks), "a block without its Python constructor here")
        fg = platform().make_flow_graph()
        compared = 0
        for key, obj in sorted(blocks.items()):
            defaults = signature_defaults(obj)
            self.assertTrue(defaults, key)
            block = fg.new_block(key)
            for pid, param in block.params.items():
                if pid in defaults:
                    self.assertEqual(grc_default(param, defaults[pid]), defaults[pid],
                                     f"{key}: {pid}")
                    compared += 1
        self.assertGreater(compared, 50)

    def test_every_flowgraph_compiles(self):
        files = sorted(glob.glob(os.path.join(SOURCE_DIR, "**", "*.grc"), recursive=True))
        files = [f for f in files
                 if not os.path.relpath(f, SOURCE_DIR).startswith("build")]
        self.assertGreaterEqual(len(files), 4)
        with tempfile.TemporaryDirectory() as out:
            res = grcc(out, *files)
            self.assertEqual(res.returncode, 0, f"{res.stdout}\n{res.stderr}")
            for path in files:
                name = os.path.splitext(os.path.basename(path))[0]
                self.assertTrue(os.path.isfile(os.path.join(out, name + ".py")), path)

    def test_code_sources_build_their_codes(self):
        sources = code_sources()
        with tempfile.TemporaryDirectory() as out:
            paths = [write_grc(out, code_source_flowgraph(f"code_{key}", params))
                     for key, (params, _) in sources.items()]
            res = grcc(out, *paths)
            self.assertEqual(res.returncode, 0, f"{res.stdout}\n{res.stderr}")
            for key, (_, name) in sources.items():
                code = gpuldpc.ldpc_code.load(name)
                info_bits = code.k * code.bits_per_symbol
                fg_id = f"code_{key}"
                tb = getattr(import_generated(out, fg_id), fg_id)()
                # both blocks and both definitions hold the code named
                self.assertEqual(tb.encoder.input_frame_length(), (info_bits + 7) // 8, key)
                self.assertEqual(tb.decoder.input_frame_length(),
                                 code.n_transmitted * code.bits_per_symbol, key)
                self.assertEqual(tb.enc_def.get_input_size(), info_bits, key)
                self.assertEqual(tb.enc_def.get_output_size(),
                                 code.n_transmitted * code.bits_per_symbol, key)
                self.assertEqual(tb.dec_def.get_output_size(), info_bits, key)
                # and a frame goes through them: packed bytes, MSB first, the
                # last byte zero-padded
                rng = np.random.default_rng(3)
                frames = np.packbits(rng.integers(0, 2, (3, info_bits), dtype=np.uint8),
                                     axis=1)
                tb.source.set_data(frames.reshape(-1).tolist(), [])
                tb.run()
                self.assertEqual(list(tb.sink.data()), frames.reshape(-1).tolist(), key)

    def test_checks_fail_in_grcc_not_at_run_time(self):
        good = code_sources()["wifi"][0]
        with tempfile.TemporaryDirectory() as out:
            # an empty Code File (the default) and a device GNU Radio does not
            # know: grcc refuses them
            for fg_id, params, expected in [
                    ("empty_file", {"code_source": "file", "code_file": ""}, "code_file"),
                    ("bad_device", dict(good, device="gpu"), "device"),
            ]:
                doc = flowgraph(fg_id, [("decoder", "gpuldpc_ldpc_decoder", params)])
                res = grcc(out, write_grc(out, doc))
                self.assertNotEqual(res.returncode, 0, fg_id)
                self.assertIn("Assertion", res.stdout + res.stderr, fg_id)
                self.assertIn(expected, res.stdout + res.stderr, fg_id)
                self.assertFalse(os.path.exists(os.path.join(out, fg_id + ".py")), fg_id)

        def errors(key, params, extra=()):
            return validation_errors(flowgraph("check", list(extra) + [("b", key, params)]))

        # what the definitions cannot take, block by block (GRC's checks, as
        # grcc runs them)
        for key in ("gpuldpc_ldpc_decoder", "gpuldpc_ldpc_encoder",
                    "variable_gpuldpc_decoder_def", "variable_gpuldpc_encoder_def"):
            self.assertEqual(errors(key, good), [], key)
            self.assertRefused(errors(key, {"code_source": "file"}), key)
            for z in ("2", "15", "36", "384", "352"):  # a * 2^j, a in {2, 3, ..., 15}
                self.assertEqual(errors(key, {"code_source": "nr", "nr_z": z}), [], (key, z))
            for z in ("1", "17", "385", "768", "0"):
                self.assertRefused(errors(key, {"code_source": "nr", "nr_z": z}), (key, z))
            for bg, rows in (("1", "0"), ("1", "4"), ("1", "46"), ("2", "42")):
                self.assertEqual(errors(key, {"code_source": "nr", "nr_base_graph": bg,
                                              "nr_rows": rows}), [], (key, bg, rows))
            for bg, rows in (("1", "3"), ("1", "47"), ("2", "43")):
                self.assertRefused(errors(key, {"code_source": "nr", "nr_base_graph": bg,
                                                "nr_rows": rows}), (key, bg, rows))
            self.assertEqual(errors(key, {"code_source": "dvbs2", "dvbs2_rate": "9/10"}), [])
            self.assertRefused(errors(key, {"code_source": "dvbs2", "dvbs2_rate": "9/10",
                                            "dvbs2_frame": "short"}), key)
        for key in ("gpuldpc_fft", "gpuldpc_fwht", "gpuldpc_spectral_transform",
                    "gpuldpc_soft_demapper_cf", "gpuldpc_packet_link_rx",
                    "gpuldpc_ldpc_decoder", "variable_gpuldpc_decoder_def"):
            base = good if "ldpc" in key else {}
            for device in ("auto", "cpu", "cuda", "cuda:0", "cuda:12", "'cuda:1'"):
                self.assertEqual(errors(key, dict(base, device=device)), [], (key, device))
            for device in ("gpu", "cuda:", "cuda:x", "CPU", "''"):
                self.assertRefused(errors(key, dict(base, device=device)), (key, device))
        # the demapper's constellation object: a variable holding one
        variable = [("bpsk", "variable_constellation", {"type": "bpsk"})]
        self.assertEqual(errors("gpuldpc_soft_demapper_cf",
                                {"constellation": "object", "constellation_object": "bpsk"},
                                variable), [])
        self.assertRefused(errors("gpuldpc_soft_demapper_cf",
                                  {"constellation": "object", "constellation_object": ""}))
        # a decoder definition's scales: one per decoder of dimension 1
        scales = {"ndim": "2", "dim1": "3", "dim2": "1"}
        self.assertEqual(errors("variable_gpuldpc_decoder_def",
                                dict(good, input_scale="[1.0, 2.0, 3.0]", **scales)), [])
        self.assertRefused(errors("variable_gpuldpc_decoder_def",
                                  dict(good, input_scale="[1.0, 2.0]", **scales)))
        self.assertRefused(errors("variable_gpuldpc_decoder_def",
                                  dict(good, input_scale="[1.0, 2.0, 3.0]")))

    def test_flowgraphs_saved_before_the_code_source_load(self):
        # such a flowgraph has Code File and no Code source: its code stays
        # the file's, and its device, a Python expression, stays valid
        for key in ("gpuldpc_ldpc_decoder", "gpuldpc_ldpc_encoder",
                    "variable_gpuldpc_decoder_def", "variable_gpuldpc_encoder_def"):
            params = {"code_file": "code_file"}
            if "decoder" in key:
                params["device"] = '"auto"'
            fg = platform().make_flow_graph()
            fg.import_data(flowgraph("old", [
                ("code_file", "variable", {"value": "'wifi:648:1/2'"}),
                ("b", key, params)]))
            fg.rewrite()
            fg.validate()
            errors = [msg for _, msg in fg.iter_error_messages()
                      if not msg.startswith("Port is not connected")]
            self.assertEqual(errors, [], key)
            block = [b for b in fg.blocks if b.name == "b"][0]
            self.assertEqual(block.params["code_source"].get_value(), "file", key)
            make = block.templates.render("var_make" if key.startswith("variable") else "make")
            self.assertIn("(code_file, ", make, key)

    def test_nr_lifting_sizes_are_the_engines(self):
        built = set()
        for z in range(0, 400):
            try:
                gpuldpc.ldpc_code.load(f"nr:2:{z}")
                built.add(z)
            except (RuntimeError, ValueError):
                pass
        self.assertEqual(len(built), 51)
        checked = 0
        for path in sorted(glob.glob(os.path.join(GRC_DIR, "*.block.yml"))):
            with open(path) as f:
                asserts = [a for a in yaml.safe_load(f).get("asserts", []) if "nr_z" in a]
            for expr in asserts:
                expr = expr.strip()[2:-1]  # ${ ... }
                taken = {z for z in range(0, 400)
                         if eval(expr, {"code_source": "nr", "nr_z": z})}
                self.assertEqual(taken, built, path)
                checked += 1
        self.assertEqual(checked, 4)

    def test_demapper_takes_a_constellation_object(self):
        with tempfile.TemporaryDirectory() as out:
            doc = flowgraph("demap_object", [
                ("qpsk", "variable_constellation", {"type": "qpsk"}),
                ("demapper", "gpuldpc_soft_demapper_cf",
                 {"constellation": "object", "constellation_object": "qpsk",
                  "device": "cpu"}),
                ("named", "gpuldpc_soft_demapper_cf", {"constellation": "qpsk",
                                                      "device": "cpu"}),
                ("source", "blocks_vector_source_x", {"type": "complex", "vector": "[0]",
                                                      "repeat": "False", "vlen": "1"}),
                ("sink", "blocks_vector_sink_x", {"type": "float", "vlen": "1"}),
                ("named_sink", "blocks_vector_sink_x", {"type": "float", "vlen": "1"}),
            ], [("source", "0", "demapper", "0"), ("demapper", "0", "sink", "0"),
                ("source", "0", "named", "0"), ("named", "0", "named_sink", "0")])
            res = grcc(out, write_grc(out, doc))
            self.assertEqual(res.returncode, 0, f"{res.stdout}\n{res.stderr}")
            with open(os.path.join(out, "demap_object.py")) as f:
                self.assertIn("gpuldpc.soft_demapper_cf(qpsk,", f.read())
            tb = import_generated(out, "demap_object").demap_object()
            # GNU Radio's QPSK object and the name "qpsk" (the same
            # constellation) give the same LLRs, on the GRC default N0
            points = [complex(p) for p in tb.qpsk.points()]
            self.assertEqual(len(points), 4)
            symbols = np.array(points * 4) * 0.9 + 0.1j
            tb.source.set_data(symbols.tolist(), [])
            tb.run()
            self.assertEqual(len(tb.sink.data()), 2 * len(symbols))
            self.assertEqual(tb.demapper.noise_var(), 1.0)
            np.testing.assert_allclose(tb.sink.data(), tb.named_sink.data(), rtol=1e-5,
                                       atol=1e-5)

    def test_examples_run(self):
        if not have_pyqt():
            self.skipTest("PyQt5 or gnuradio.qtgui missing: the QT examples are only "
                          "compiled (test_every_flowgraph_compiles)")
        names = ["ldpc_awgn_loopback", "transforms_demo", "ldpc_ber_curve"]
        with tempfile.TemporaryDirectory() as out:
            res = grcc(out, *[os.path.join(EXAMPLES_DIR, n + ".grc") for n in names])
            self.assertEqual(res.returncode, 0, f"{res.stdout}\n{res.stderr}")
            # the loopback counts frames against the ones sent: at its 2.5 dB
            # the decoder corrects them, and the readout says so
            frames, bit_errors, bits, readout = run_qt(
                out, "ldpc_awgn_loopback", 6,
                "(tb.errors.frames, tb.errors.bit_errors, tb.info_bits, tb.get_readout())")
            self.assertGreater(frames, 10, readout)
            self.assertLess(bit_errors, 1e-3 * frames * bits, readout)
            # the label shows the counters as of the last poll (2 Hz)
            m = re.match(r"(\d+) frames, FER \S+, BER \S+, \S+ iterations, \S+ Mbit/s "
                         r"decoded on \S+", readout)
            self.assertTrue(m, readout)
            self.assertTrue(0 < int(m.group(1)) <= frames, readout)
            # the GPU FFT transforms vectors for the spectrum and the waterfall
            fft_vectors, walsh_vectors = run_qt(
                out, "transforms_demo", 3,
                "(tb.spectrum.nitems_written(0), tb.walsh.nitems_written(0))")
            self.assertGreater(fft_vectors, 10)
            self.assertGreater(walsh_vectors, 10)
            # the BER curve: every Es/N0 point decodes; at -3 dB (Eb/N0 0 dB)
            # most frames fail, at 0 dB (Eb/N0 3 dB) none does, which needs
            # each point's own LLR scale
            frames, failed = run_qt(
                out, "ldpc_ber_curve", 10,
                "([d[0].frames() for d in tb.dec_sum_product + tb.dec_min_sum],"
                " [d[0].failed_frames() for d in tb.dec_sum_product + tb.dec_min_sum])")
            n = len(frames) // 2
            for curve in (0, 1):
                first, last = curve * n, curve * n + n - 1
                self.assertTrue(all(f > 0 for f in frames[first:last + 1]), frames)
                self.assertGreater(failed[first], frames[first] / 2, (frames, failed))
                self.assertLessEqual(failed[last], frames[last] / 100, (frames, failed))


if __name__ == '__main__':
    gr_unittest.run(qa_grc)
