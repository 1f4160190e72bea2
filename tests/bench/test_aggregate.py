#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of bench/aggregate.py's target arithmetic (no lab): stage
bench-unit of `make check`.  Ends with "N passed, N failed".

Each case of SPAN_CASES is (name, ours, stock, expected): a cell is
(median, min, max, reps) as aggregate.stat() makes it, or None.
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
import aggregate as ag  # noqa: E402

OURS = ("ours", "g2-kthread")

SPAN_CASES = (
    ("both ranges", (2, 1, 3, 5), (2, 1, 2, 5), " [0.50, 3.00]"),
    ("one repetition each", (1, 1, 1, 1), (2, 2, 2, 1), " [0.50, 0.50]"),
    ("ours below zero", (0, -1, 2, 5), (2, 1, 4, 5), " [-1.00, 2.00]"),
    ("stock's least zero", (1, 1, 1, 5), (1, 0, 2, 5), ""),
    ("no stock cell", (1, 1, 1, 5), None, ""),
    ("no ours cell", None, (1, 1, 1, 5), ""),
)


class RatioSpan(unittest.TestCase):
    def test_cases(self):
        for name, ours, stock, want in SPAN_CASES:
            cells = {k: v for k, v in ((OURS, ours), (ag.STOCK, stock)) if v}
            with self.subTest(name):
                self.assertEqual(ag.ratio_span(cells, OURS), want)


class Targets(unittest.TestCase):
    def test_every_cell_is_a_row(self):
        rows = {(r.metric, r.n) for r in ag.ROWS}
        for t in ag.TARGETS:
            for cell in t.cells:
                with self.subTest(t.label, cell=cell):
                    self.assertIn(cell, rows)


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    failed = len(result.failures) + len(result.errors)
    print(f"{result.testsRun - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
