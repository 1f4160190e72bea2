#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the hand-built seeds for tests/fuzz/fuzz_proto.c.

Usage: mkcorpus.py DIR.  The layout is the one fuzz_proto.c documents:
ring order, cons, avail, fatal_slots, GSO flags, ring entries, then the
credit part.  Output is deterministic, so the corpus is reproducible.
"""
import os
import struct
import sys

MORE_DATA = 1 << 2   # NETTXF_more_data
EXTRA_INFO = 1 << 3  # NETTXF_extra_info
CSUM_BLANK = 1 << 0


def req(gref, offset, flags, rid, size):
    return struct.pack('<IHHHH', gref, offset, flags, rid, size)


def extra(etype, more, payload=b''):
    body = bytes([etype, 1 if more else 0]) + payload
    return body.ljust(12, b'\0')


def gso(gtype, size, more=False):
    return extra(1, more, struct.pack('<HBBH', size, gtype, 0, 0))


def chain(nr_data, total, rid=0):
    """A packet of nr_data slots: first slot carries the remainder."""
    later = [] if nr_data == 1 else [64] * (nr_data - 1)
    first = total - sum(later)
    assert first >= 0
    slots = [req(100, 0, MORE_DATA if nr_data > 1 else 0, rid, total)]
    for i, size in enumerate(later):
        flags = MORE_DATA if i + 1 < len(later) else 0
        slots.append(req(101 + i, 128, flags, rid + 1 + i, size))
    return slots


def ring_input(order, cons, avail, fatal, gsoflags, slots, credit=b''):
    size = 1 << order
    body = b''.join(slots)
    assert len(body) <= size * 12
    body = body.ljust(size * 12, b'\0')
    head = struct.pack('<BIBBB', order, cons, avail, fatal, gsoflags)
    return head + body + credit


def credit_part(start, nbytes, usec, ops):
    out = struct.pack('<QQI', start, nbytes, usec)
    for step, length in ops:
        out += struct.pack('<III', step, length, 0)
    return out


def seeds():
    s = {}
    one = chain(1, 60)
    s['single-60'] = ring_input(5, 0, 1, 20, 3, one)
    s['gso-tcpv4'] = ring_input(
        5, 7, 4, 20, 1,
        [req(1, 0, MORE_DATA | EXTRA_INFO | CSUM_BLANK, 9, 3000),
         gso(1, 1448),
         req(2, 0, MORE_DATA, 10, 1500),
         req(3, 0, 0, 11, 1400)])
    s['gso-tcpv6-not-negotiated'] = ring_input(
        5, 0, 3, 20, 1,
        [req(1, 0, MORE_DATA | EXTRA_INFO, 1, 2000), gso(2, 1440),
         req(2, 0, 0, 2, 1000)])
    # GSO segment sizes at and beyond their bounds (8..65481), on a
    # 65535-byte packet: 4095 bytes, the extra, 15 full pages.
    for name, size in (('gso-size-1', 1), ('gso-size-7', 7),
                       ('gso-size-8', 8), ('gso-size-65481', 65481),
                       ('gso-size-65482', 65482), ('gso-size-ffff', 0xffff)):
        s[name] = ring_input(
            5, 0, 17, 20, 3,
            [req(1, 0, MORE_DATA | EXTRA_INFO | CSUM_BLANK, 1, 65535),
             gso(1, size)] +
            [req(2 + i, 0, MORE_DATA if i < 14 else 0, 2 + i, 4096)
             for i in range(15)])
    s['gso-size-1-then-1448'] = ring_input(
        5, 0, 4, 20, 1,
        [req(1, 0, MORE_DATA | EXTRA_INFO, 1, 3000), gso(1, 1, True),
         gso(1, 1448), req(2, 0, 0, 2, 1500)])
    s['extras-hash-mcast'] = ring_input(
        5, 0, 4, 20, 3,
        [req(1, 0, EXTRA_INFO, 1, 100), extra(4, True, b'\1\0\1\2\3\4'),
         extra(2, True, b'\1\2\3\4\5\6'), extra(1, False,
                                               struct.pack('<HBBH', 0, 1, 0, 0))])
    s['eight-extras'] = ring_input(
        5, 0, 9, 20, 3,
        [req(1, 0, EXTRA_INFO, 1, 100)] +
        [extra(4, i < 7) for i in range(8)])
    s['nine-extras'] = ring_input(
        5, 0, 10, 20, 3,
        [req(1, 0, EXTRA_INFO, 1, 100)] +
        [extra(4, i < 8) for i in range(9)])
    s['data-17'] = ring_input(5, 0, 17, 20, 0, chain(17, 2000))
    s['data-18'] = ring_input(5, 0, 18, 20, 0, chain(18, 2000))
    s['data-19'] = ring_input(5, 0, 19, 20, 0, chain(19, 2000))
    s['data-21-fatal'] = ring_input(5, 0, 21, 20, 0, chain(21, 2000))
    s['data-40-fatal-64'] = ring_input(6, 0, 40, 64, 0, chain(40, 4000))
    s['past-prod'] = ring_input(5, 0, 3, 20, 0, chain(5, 1000))
    s['wrap'] = ring_input(
        3, 0xfffffffe, 8, 20, 0,
        chain(3, 500, 1) + chain(1, 60, 4) + chain(4, 700, 5))
    s['three-packets'] = ring_input(
        4, 0, 11, 20, 3,
        chain(1, 60) + chain(5, 3000, 1) +
        [req(1, 0, MORE_DATA | EXTRA_INFO, 6, 5000), gso(1, 1448),
         req(2, 0, MORE_DATA, 7, 4000), req(3, 0, 0, 8, 900)] +
        chain(1, 13, 9))
    s['oversize-later'] = ring_input(
        5, 0, 3, 20, 0,
        [req(1, 0, MORE_DATA, 1, 100), req(2, 0, MORE_DATA, 2, 4000),
         req(3, 0, 0, 3, 10)])
    s['cross-page'] = ring_input(
        5, 0, 2, 20, 0,
        [req(1, 0, MORE_DATA, 1, 200), req(2, 4000, 0, 2, 100)])
    s['zero-middle'] = ring_input(
        5, 0, 4, 20, 0,
        [req(1, 0, MORE_DATA, 1, 100), req(2, 0, MORE_DATA, 2, 0),
         req(3, 0, MORE_DATA, 3, 40), req(4, 0, 0, 4, 0)])
    s['overflow-avail'] = ring_input(0, 5, 2, 20, 0, chain(1, 60))
    s['ring-256'] = ring_input(8, 0xffffff00, 255, 20, 3,
                               chain(18, 60000) * 14)
    s['credit-rate'] = ring_input(
        0, 0, 1, 20, 0, one,
        credit_part(2 ** 64 - 100, 100000, 50000,
                    [(0, 1500), (10, 99000), (10, 1500), (50000, 64000),
                     (1, 200000), (60000, 200000), (60000, 200000)]))
    s['credit-huge-period'] = ring_input(
        0, 0, 1, 20, 0, one,
        credit_part(5, 2 ** 64 - 1, 2 ** 32 - 1,
                    [(1, 4294967295), (4294967295, 1)]))
    s['credit-zero-period'] = ring_input(
        0, 0, 1, 20, 0, one,
        credit_part(0, 1000, 0, [(0, 2000), (999, 2000)]))
    # 1 byte per 71 minutes and a 4 GB debt: a wait past the cap.
    s['credit-absurd-wait'] = ring_input(
        0, 0, 1, 20, 0, one,
        credit_part(5, 1, 4260000000, [(0, 2 ** 32 - 1), (1, 1500)]))
    return s


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else 'corpus'
    os.makedirs(out, exist_ok=True)
    for name, data in sorted(seeds().items()):
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)


if __name__ == '__main__':
    main()
