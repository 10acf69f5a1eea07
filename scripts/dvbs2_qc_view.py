#!/usr/bin/env python3
# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""DVB-S2's codes seen as quasi-cyclic base matrices, for a layered kernel.

Information bit m of group g adds into the parity accumulators (x + m q) mod
(n - k) for each address x of row g of the standard's table (EN 302 307-1,
5.3.2.1; q = (n - k) / 360). With check c = j + i q written as (base row j,
row i of the block) and the parity bits permuted alike, the address x becomes
a 360 x 360 circulant in base row x mod q, column g, shift x div q, and the
parity staircase becomes circulants of shift 0 and, from base row 0 to the
last parity column, 359 (whose row 0 is one edge the code does not have:
p[-1]). Where two addresses of a row are congruent mod q, base row j holds
two circulants in one column (a block of weight 2): two checks of the layer
share a bit, and the layer is not one step of the layered schedule.

A split by d (a divisor of 360) turns each circulant of shift s into d
circulants of size 360 / d (row r = r' d + e goes to column sub-block
(e + s) mod d, shift floor((e + s) / d)); two circulants of one block land in
different sub-blocks where their shifts differ mod d. This prints, for each
code, the blocks of weight 2 or more at Z = 360 and the smallest d that
leaves none: the lifting size and base rows a layered quasi-cyclic kernel
would take. Reads lib/engine/dvbs2_tables.h of this source tree.

Usage: scripts/dvbs2_qc_view.py [--json FILE]
"""

import argparse
import json
import os
import re


def tables(path):
    src = open(path).read()
    arrays = {
        m.group(1): [int(x) for x in re.findall(r"\d+", m.group(2))]
        for m in re.finditer(r"inline constexpr uint16_t (\w+)\[\] = \{(.*?)\};", src, re.S)
    }
    for name, values in arrays.items():
        frame, rate = name.split("_", 1)
        rows, pos = [], 0
        while pos < len(values):
            count = values[pos]
            rows.append(values[pos + 1:pos + 1 + count])
            pos += 1 + count
        yield frame, rate.replace("_", "/"), rows


def view(frame, rows):
    n = 64800 if frame == "normal" else 16200
    k = len(rows) * 360
    q = (n - k) // 360
    # shift differences of circulants that share a block (row x mod q, column g)
    clashes = []
    heavy = set()
    for g, row in enumerate(rows):
        for a in range(len(row)):
            for b in range(a + 1, len(row)):
                if row[a] % q == row[b] % q:
                    clashes.append(row[a] // q - row[b] // q)
                    heavy.add((row[a] % q, g))
    split = next(d for d in range(1, 361) if 360 % d == 0 and all(c % d for c in clashes))
    return {
        "n": n,
        "k": k,
        "base_rows_at_360": q,
        "blocks_of_weight_2_or_more": len(heavy),
        "base_rows_with_them": len({j for j, _ in heavy}),
        "split": split,
        "z": 360 // split,
        "base_rows": q * split,
        "edges_per_layer": (sum(len(r) for r in rows) * 360 + 2 * (n - k) - 1) // (q * split),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="write the table as JSON")
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "lib", "engine", "dvbs2_tables.h")
    out = {}
    print(f"{'code':14s} {'rows at 360':>11s} {'weight-2 blocks (rows)':>23s} "
          f"{'split':>5s} {'Z':>4s} {'base rows':>9s} {'edges a layer':>13s}")
    for frame, rate, rows in tables(path):
        v = view(frame, rows)
        out[f"dvbs2:{rate}" + (":short" if frame == "short" else "")] = v
        print(f"{frame + ' ' + rate:14s} {v['base_rows_at_360']:11d} "
              f"{v['blocks_of_weight_2_or_more']:17d} ({v['base_rows_with_them']:3d}) "
              f"{v['split']:5d} {v['z']:4d} {v['base_rows']:9d} {v['edges_per_layer']:13d}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
