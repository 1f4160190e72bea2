#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The bench's unit tests, every tests/bench/test_*.py (`make bench-unit`,
stage bench-unit of `make check`).  Ends with "N passed, N failed"."""
import os
import sys
import unittest

suite = unittest.defaultTestLoader.discover(os.path.dirname(os.path.abspath(__file__)), "test_*.py")
result = unittest.TextTestRunner(verbosity=2).run(suite)
failed = len(result.failures) + len(result.errors)
print(f"{result.testsRun - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
