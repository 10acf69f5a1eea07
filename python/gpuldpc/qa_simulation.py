#!/usr/bin/env python3
#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The simulation engine from Python and gpuldpc-sim on it: frames that
depend on the seed and the frame index only, counts that do not depend on
how the frames are split (calls, strides, MPI ranks), the JSON's confidence
intervals."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from gnuradio import gr_unittest

from gnuradio import gpuldpc
from gnuradio.gpuldpc import sim


def sim_command():
    exe = os.environ.get("GPULDPC_SIM")
    return [exe] if exe else [sys.executable, "-c",
                              "import sys; from gnuradio.gpuldpc import sim; "
                              "sys.exit(sim.main())"]


def sim_interpreter():
    """The command of the Python that runs the simulator: GPULDPC_SIM's #!
    line (an env line included), or this one."""
    exe = os.environ.get("GPULDPC_SIM")
    if exe:
        with open(exe) as f:
            line = f.readline()
        if line.startswith("#!"):
            return line[2:].split()
    return [sys.executable]


def int8_decoder(code, iterations=10):
    return gpuldpc.batch_decoder(code, algorithm="min-sum", messages="int8",
                                 schedule="layered", max_iterations=iterations,
                                 threads=2, device="cpu")


class qa_simulation(gr_unittest.TestCase):

    def test_frames_and_counts(self):
        code = gpuldpc.ldpc_code.load("wifi:648:1/2")
        s = gpuldpc.simulation(int8_decoder(code))
        self.assertEqual(s.device, "cpu")
        info, cw, llr = s.frames(seed=4, ebn0=1.5, first=20, count=6)
        self.assertEqual(info.shape, (6, code.k))
        self.assertEqual(llr.shape, (6, 648))
        self.assertTrue(np.array_equal(code.encode(info), cw))
        _, _, llr3 = s.frames(seed=4, ebn0=1.5, first=23, count=1)
        self.assertTrue(np.array_equal(llr3[0], llr[3]))
        r = s.run(seed=4, ebn0=1.5, first=20, count=6)
        bits, status = int8_decoder(code).decode(llr)
        want = (bits != sim.symbols_to_bits(info, 1)).sum(axis=1)
        self.assertEqual(list(r["bit_errors"]), list(want))
        self.assertEqual(list(r["iterations"]), list(status["iterations"]))
        # a stride of 2 draws every other frame
        odd = s.run(seed=4, ebn0=1.5, first=21, count=3, stride=2)
        self.assertEqual(list(odd["bit_errors"]), list(r["bit_errors"][1::2]))
        for bad in (dict(stride=0), dict(count=-1), dict(first=-1)):
            args = dict(seed=1, ebn0=1.0, first=0, count=1)
            args.update(bad)
            with self.assertRaises(ValueError):
                s.run(**args)

    def test_sim_json_has_intervals(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = subprocess.run(
                sim_command() + ["--code", "wifi:648:1/2", "--ebn0", "1.0,3.0",
                                 "--frames", "200", "--max-frame-errors", "20",
                                 "--algorithm", "min-sum", "--messages", "int8",
                                 "--schedule", "layered", "--iterations", "10",
                                 "--threads", "2", "--device", "cpu", "--quiet",
                                 "--json", os.path.join(tmp, "r.json")],
                capture_output=True, text=True, timeout=300)
            self.assertEqual(out.returncode, 0, out.stderr)
            with open(os.path.join(tmp, "r.json")) as f:
                r = json.load(f)
        self.assertEqual((r["simulation"], r["ranks"]), ("device", 1))
        p0 = r["points"][0]
        self.assertEqual(p0["frame_errors"], 20)  # stops at the 20th frame error
        for p in r["points"]:
            lo, hi = p["fer_ci95"]
            self.assertLessEqual(lo, p["fer"])
            self.assertLessEqual(p["fer"], hi)
        # the Wilson interval of 20 errors in p0's frames
        lo, hi = sim.wilson_interval(20, p0["frames"])
        self.assertAlmostEqual(p0["fer_ci95"][0], lo)
        self.assertAlmostEqual(p0["fer_ci95"][1], hi)

    def test_points_in_pieces_add_up(self):
        """Disjoint frame ranges of one seed add up to one run of their
        frames; a time limit stops a point at the end of a round."""
        code = gpuldpc.ldpc_code.load("wifi:648:1/2")
        s = gpuldpc.simulation(int8_decoder(code))
        keys = ("frames", "frame_errors", "bit_errors")
        whole = sim.run_point(s, code, 1.2, 600, 10**6, 128, 7)
        self.assertEqual(whole["stopped_by"], "frames")
        a = sim.run_point(s, code, 1.2, 250, 10**6, 128, 7)
        b = sim.run_point(s, code, 1.2, 350, 10**6, 128, 7, first_frame=250)
        self.assertEqual(b["first_frame"], 250)
        self.assertEqual([whole[k] for k in keys], [a[k] + b[k] for k in keys])
        self.assertAlmostEqual(whole["avg_iterations"] * 600,
                               a["avg_iterations"] * 250 + b["avg_iterations"] * 350)
        # the first frames fail at 1.2 dB: a split that counts nothing proves nothing
        self.assertGreater(a["frame_errors"], 0)
        self.assertGreater(b["frame_errors"], 0)
        t = sim.run_point(s, code, 1.2, 600, 10**6, 128, 7, max_seconds=1e-9)
        self.assertEqual((t["stopped_by"], t["frames"]), ("seconds", 128))
        self.assertEqual(t["frame_errors"],
                         sim.run_point(s, code, 1.2, 128, 10**6, 128, 7)["frame_errors"])

    def test_wilson_interval(self):
        lo, hi = sim.wilson_interval(0, 100)
        self.assertEqual(lo, 0.0)
        self.assertAlmostEqual(hi, 0.0370, places=4)  # about 3.84 / 103.84
        lo, hi = sim.wilson_interval(50, 100)
        self.assertAlmostEqual(lo, 0.4038, places=4)
        self.assertAlmostEqual(hi, 0.5962, places=4)

    def run_sim(self, launcher, tmp, name):
        path = os.path.join(tmp, name + ".json")
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
                   OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1")
        out = subprocess.run(
            launcher + sim_command() +
            ["--code", "regular_3_6_n96_gf2", "--ebn0", "2.0,3.0", "--frames", "3000",
             "--max-frame-errors", "40", "--algorithm", "min-sum", "--messages", "int8",
             "--iterations", "10", "--threads", "1", "--batch", "250", "--seed", "11",
             "--device", "cpu", "--quiet", "--json", path],
            capture_output=True, text=True, timeout=600, env=env, stdin=subprocess.DEVNULL)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        with open(path) as f:
            return json.load(f)

    def test_mpi_ranks_count_as_one_process(self):
        """The same seed gives the same counts in one process and over 2 and 3
        MPI ranks (Open MPI and mpi4py from the README's set-up)."""
        mpirun = shutil.which("mpirun")
        if mpirun is None:
            self.skipTest("no mpirun (Debian openmpi-bin)")
        python = sim_interpreter()
        probe = subprocess.run(python + ["-c", "import mpi4py"], capture_output=True,
                               stdin=subprocess.DEVNULL)
        if probe.returncode != 0:
            # sim.py joins the ranks through mpi4py
            self.skipTest(f"mpirun but no mpi4py for {' '.join(python)} "
                          "(Debian python3-mpi4py)")
        keys = ("frames", "frame_errors", "bit_errors", "avg_iterations")
        with tempfile.TemporaryDirectory() as tmp:
            one = self.run_sim([], tmp, "one")
            # the first point stops at its 40th error
            self.assertEqual(one["points"][0]["frame_errors"], 40)
            self.assertLess(one["points"][0]["frames"], 3000)
            for ranks in (2, 3):
                r = self.run_sim([mpirun, "-np", str(ranks)], tmp, f"np{ranks}")
                self.assertEqual(r["ranks"], ranks)
                for a, b in zip(one["points"], r["points"]):
                    self.assertEqual([a[k] for k in keys], [b[k] for k in keys])


if __name__ == '__main__':
    gr_unittest.run(qa_simulation)
