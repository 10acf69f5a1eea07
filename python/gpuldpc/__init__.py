#
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""
GPU batch LDPC decoding over GF(q) and spectral transforms for GNU Radio.

The engine objects (gf_field, ldpc_code, ...) work without a flowgraph and
take and return numpy arrays.
"""
import os

from .gpuldpc_python import *  # noqa: F401,F403


def codes_dir():
    """Directory of the parity-check matrices shipped with the module."""
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [
        os.environ.get("GPULDPC_CODES_DIR", ""),
        # installed: <prefix>/lib/python3/dist-packages/gnuradio/gpuldpc
        os.path.join(here, "..", "..", "..", "..", "..", "share", "gr-gpuldpc", "codes"),
        os.path.join(here, "..", "..", "..", "..", "share", "gr-gpuldpc", "codes"),
    ]
    src = os.environ.get("GPULDPC_SOURCE_DIR")
    if src:
        candidates.insert(1, os.path.join(src, "codes"))
    for c in candidates:
        if c and os.path.isdir(c):
            return os.path.normpath(c)
    raise RuntimeError("cannot find the shipped codes; set GPULDPC_CODES_DIR")
