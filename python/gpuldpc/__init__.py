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
from . import sim  # noqa: F401
from .link import (link_format, packet_link_rx, packet_link_tx,  # noqa: F401
                   burst_sync, burst_modulator, link_deframer, link_framer,
                   test_packet_source)
from .farm import farm_decoder, farm_worker  # noqa: F401


def codes_dir():
    """Directory of the parity-check matrices shipped with the module
    (GPULDPC_CODES_DIR overrides)."""
    from . import _paths
    d = os.environ.get("GPULDPC_CODES_DIR") or _paths.CODES_DIR
    if not os.path.isdir(d):
        raise RuntimeError(f"cannot find the shipped codes in {d}; set GPULDPC_CODES_DIR")
    return d


def codes():
    """Names of the codes shipped with the module, sorted: the files of
    codes_dir() less their .alist or .qc. Each loads by its name, with or
    without the extension, from any working directory
    (ldpc_code.load("regular_3_6_n1008_gf2")), as does every entry point
    that takes a code file (blocks, gpuldpc-sim, gpuldpc-link);
    `gpuldpc-sim --list-codes` shows their n, k and q."""
    d = codes_dir()
    names = set()
    for f in os.listdir(d):
        for ext in (".alist", ".qc"):
            if (f.endswith(ext) and len(f) > len(ext) and
                    os.path.isfile(os.path.join(d, f))):
                names.add(f[:-len(ext)])
    return sorted(names)
