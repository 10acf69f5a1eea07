#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#

import glob
import os
import subprocess
import sys
import tempfile

from gnuradio import gr, gr_unittest

SOURCE_DIR = os.environ.get(
    "GPULDPC_SOURCE_DIR",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
GRC_DIR = os.path.join(SOURCE_DIR, "grc")


def grc_env():
    env = dict(os.environ)
    env["GRC_BLOCKS_PATH"] = GRC_DIR
    return env


class qa_grc(gr_unittest.TestCase):

    def test_block_definitions_load(self):
        from gnuradio.grc.core.platform import Platform
        platform = Platform(name="qa", prefs=gr.prefs(), version=gr.version(),
                            version_parts=(gr.major_version(), gr.api_version(),
                                           gr.minor_version()))
        platform.build_library([GRC_DIR] + platform.config.block_paths)
        files = sorted(glob.glob(os.path.join(GRC_DIR, "*.block.yml")))
        self.assertGreaterEqual(len(files), 4)
        for path in files:
            key = os.path.basename(path)[:-len(".block.yml")]
            self.assertIn(key, platform.blocks, f"{path} did not load")

    def test_every_flowgraph_compiles(self):
        files = sorted(glob.glob(os.path.join(SOURCE_DIR, "**", "*.grc"), recursive=True))
        files = [f for f in files if "/build" not in f]
        self.assertGreaterEqual(len(files), 1)
        with tempfile.TemporaryDirectory() as out:
            for path in files:
                res = subprocess.run(["grcc", "-o", out, path], env=grc_env(),
                                     capture_output=True, text=True, timeout=120)
                self.assertEqual(res.returncode, 0, f"{path}:\n{res.stdout}\n{res.stderr}")
            # the generated examples also run
            res = subprocess.run([sys.executable, os.path.join(out, "ldpc_awgn_loopback.py"),
                                  "--frames", "50"], capture_output=True, text=True,
                                 timeout=120)
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertIn("50 frames decoded", res.stdout + res.stderr)
            res = subprocess.run([sys.executable, os.path.join(out, "transforms_demo.py"),
                                  "--vectors", "20"], capture_output=True, text=True,
                                 timeout=120)
            self.assertEqual(res.returncode, 0, res.stderr)


if __name__ == '__main__':
    gr_unittest.run(qa_grc)
