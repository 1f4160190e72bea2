#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the hand-built seeds for tests/fuzz/fuzz_ctrl.c.

Usage: mkcorpus_ctrl.py DIR.  The layout is the one fuzz_ctrl.c
documents: queue count, hash type, then records (flags, request,
grant contents).  Output is deterministic.
"""
import os
import struct
import sys

COPIED, RAW = 1, 2
ALG, GET_FLAGS, SET_FLAGS, KEY, GET_SIZE, SET_SIZE, MAPPING = 7, 1, 2, 3, 4, 5, 6
MS_KEY = bytes.fromhex('6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b4'
                       '77cb2da38030f20c6a42b73bbeac01fa')


def rec(rtype, d0=0, d1=0, d2=0, flags=COPIED, rid=0, grant=b''):
    return struct.pack('<BHHIII', flags, rid, rtype, d0, d1, d2) + grant


def table(entries):
    return b''.join(struct.pack('<I', e) for e in entries)


SEEDS = {
    # The conversation of a Windows PV frontend with 4 queues.
    'rss-4q': bytes([3, 40]) + rec(ALG, 1) + rec(GET_FLAGS) +
    rec(SET_FLAGS, 15) + rec(KEY, 9, 40, grant=MS_KEY) + rec(GET_SIZE) +
    rec(SET_SIZE, 128) +
    rec(MAPPING, 9, 64, 0, grant=table(i % 4 for i in range(64))) +
    rec(MAPPING, 9, 64, 64, grant=table(3 - i % 4 for i in range(64))),
    # Hostile: a key too long, a table too big, entries past the queues,
    # offsets that wrap, a copy that fails, unknown types.
    'hostile': bytes([1, 17]) + rec(KEY, 9, 41) + rec(KEY, 9, 0xffffffff) +
    rec(SET_SIZE, 129) + rec(SET_SIZE, 8) +
    rec(MAPPING, 9, 2, 0xffffffff) + rec(MAPPING, 9, 0xffffffff, 2) +
    rec(MAPPING, 9, 4, 0, grant=table([0, 1, 2, 3])) +
    rec(MAPPING, 9, 4, 0, flags=0) + rec(KEY, 9, 8, flags=0) +
    rec(0xffff, 1, 2, 3, flags=RAW) + rec(9, 1, 40, flags=RAW) +
    rec(SET_FLAGS, 0x10) + rec(ALG, 2),
    'key-clear': bytes([0, 40]) + rec(KEY, 9, 40, grant=MS_KEY) +
    rec(KEY, 9, 0) + rec(ALG, 0) + rec(SET_FLAGS, 1),
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)


if __name__ == '__main__':
    main()
