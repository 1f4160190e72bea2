#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of bench/xentrace_count.py on synthetic xentrace files built
in memory (no Xen, no lab): `make bench-unit`, stage bench-unit of `make
check`.  Ends with "N passed, N failed".

Each case of CASES is (name, trace bytes, expected): the expected
hypercall counts {(domain, kind): (calls, ops)} must equal the decoder's
exactly; "lost", "truncated", "records", "span", "switch" are checked
when given.
"""
import os
import struct
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
import xentrace_count as xc  # noqa: E402

# --- building a trace -----------------------------------------------------------
ARG32, ARG64 = 1, 2
TSC = [1000]


def rec(event, words=(), tsc=True):
    """One record as Xen writes it: header, TSC (rising), extra words."""
    hdr = event | len(words) << 28 | (1 << 31 if tsc else 0)
    out = struct.pack("<I", hdr)
    if tsc:
        TSC[0] += 10
        out += struct.pack("<Q", TSC[0])
    return out + struct.pack(f"<{len(words)}I", *words)


def hc(op, *args, sub=False):
    """A hypercall record; args are (ARG32|ARG64, value)."""
    w0, words = op, []
    for i, (kind, v) in enumerate(args):
        w0 |= kind << (20 + 2 * i)
        words += [v & 0xffffffff] if kind == ARG32 else [v & 0xffffffff, v >> 32]
    return rec(xc.TRC_PV_HYPERCALL_SUBCALL if sub else xc.TRC_PV_HYPERCALL_V2, [w0] + words)


def gnttab(cmd, count, sub=False):
    return hc(20, (ARG32, cmd), (ARG32, count), sub=sub)


def switch(prev, nxt):
    return rec(xc.TRC_SCHED_SWITCH, [prev, 0, nxt, 0])


def runstate(dom, old, new):
    return rec(xc.TRC_SCHED_RUNSTATE_CHANGE | old << 8 | new << 4, [dom << 16])


def lost(n, dom):
    """n records lost since just after the previous record."""
    first = TSC[0] + 5
    return rec(xc.TRC_LOST_RECORDS, [n, dom, first & 0xffffffff, first >> 32])


def window(cpu, *records, size=None):
    """xentrace's cpu change record, then the pcpu's records."""
    body = b"".join(records)
    return struct.pack("<IiI", xc.TRC_TRACE_CPU_CHANGE | 2 << 28, cpu,
                       len(body) if size is None else size) + body


def on_dom0(*records):
    """records on pcpu 0, dom0 switched in first."""
    return window(0, switch(xc.DOMID_IDLE, 0), *records)


def marker():
    return hc(29, (ARG32, xc.MARKER_CMD))


RUNNING, RUNNABLE, BLOCKED = 0, 1, 2
WRAP = rec(xc.TRC_TRACE_WRAP_BUFFER, [0, 0, 0], tsc=False)
OTHER_PV = rec(0x00201004, [1, 2, 3])   # a PV page fault: counted as a record only

# --- the cases --------------------------------------------------------------------
CASES = [
    ("grant copy with its op count", on_dom0(gnttab(5, 8)),
     {("dom0", "grant_table_op.copy"): (1, 8)}),
    ("grant map, unmap, an unknown cmd", on_dom0(gnttab(0, 2), gnttab(1, 3), gnttab(99, 1)),
     {("dom0", "grant_table_op.map_grant_ref"): (1, 2),
      ("dom0", "grant_table_op.unmap_grant_ref"): (1, 3),
      ("dom0", "grant_table_op.99"): (1, 1)}),
    ("a grant copy continued", on_dom0(gnttab(5, 40), gnttab(5 | 3 << 12, 40)),
     {("dom0", "grant_table_op.copy"): (1, 40), ("dom0", "grant_table_op.copy.cont"): (1, 40)}),
    ("sched_op by cmd", on_dom0(hc(29, (ARG32, 1)), hc(29, (ARG32, 0)), hc(29, (ARG32, 3))),
     {("dom0", "sched_op.block"): (1, 0), ("dom0", "sched_op.yield"): (1, 0),
      ("dom0", "sched_op.poll"): (1, 0)}),
    ("vcpu_op by cmd", on_dom0(hc(24, (ARG32, 8), (ARG32, 1)), hc(24, (ARG32, 9), (ARG32, 0))),
     {("dom0", "vcpu_op.set_singleshot_timer"): (1, 0),
      ("dom0", "vcpu_op.stop_singleshot_timer"): (1, 0)}),
    ("mmuext_op and mmu_update counts, a preempted one",
     on_dom0(hc(26, (ARG32, 3)), hc(1, (ARG32, 2)), hc(1, (ARG32, 0x80000004))),
     {("dom0", "mmuext_op"): (1, 3), ("dom0", "mmu_update"): (2, 6)}),
    ("no argument: event channel, physdev, iret, an unknown op",
     on_dom0(hc(32), hc(32), hc(33), hc(23), hc(45)),
     {("dom0", "event_channel_op"): (2, 0), ("dom0", "physdev_op"): (1, 0),
      ("dom0", "iret"): (1, 0), ("dom0", "hc45"): (1, 0)}),
    ("a 64-bit argument before a 32-bit one", on_dom0(hc(20, (ARG64, 5), (ARG32, 7))),
     {("dom0", "grant_table_op.copy"): (1, 7)}),
    ("a multicall and its subcalls",
     on_dom0(hc(13, (ARG32, 3)), gnttab(5, 2, sub=True), hc(14, sub=True),
             hc(26, (ARG32, 1), sub=True)),
     {("dom0", "multicall"): (1, 3), ("dom0", "mc.grant_table_op.copy"): (1, 2),
      ("dom0", "mc.update_va_mapping"): (1, 0), ("dom0", "mc.mmuext_op"): (1, 1)}),
    ("a guest switched in, then dom0 again",
     on_dom0(hc(23), switch(0, 3), hc(32), hc(23), switch(3, 0), hc(32)),
     {("dom0", "iret"): (1, 0), ("dom0", "event_channel_op"): (1, 0),
      ("guest", "event_channel_op"): (1, 0), ("guest", "iret"): (1, 0)},
     {"switch": {"dom0": 2, "guest": 1}}),
    ("cpu change: each pcpu keeps its own domain across windows",
     window(0, switch(xc.DOMID_IDLE, 0), hc(23)) + window(1, switch(xc.DOMID_IDLE, 2), hc(23))
     + window(0, hc(32)) + window(1, hc(32), hc(32)),
     {("dom0", "iret"): (1, 0), ("dom0", "event_channel_op"): (1, 0),
      ("guest", "iret"): (1, 0), ("guest", "event_channel_op"): (2, 0)},
     {"cpus": 2}),
    ("held until the first switch names the previous domain",
     window(0, hc(23), hc(32), switch(0, 4), hc(23)),
     {("dom0", "iret"): (1, 0), ("dom0", "event_channel_op"): (1, 0), ("guest", "iret"): (1, 0)}),
    ("held until a runstate change from running",
     window(1, hc(29, (ARG32, 1)), runstate(5, RUNNING, BLOCKED), runstate(0, RUNNABLE, RUNNING),
            hc(23)),
     {("guest", "sched_op.block"): (1, 0), ("dom0", "iret"): (1, 0)}),
    ("a runstate change to running sets the domain",
     window(0, switch(xc.DOMID_IDLE, 0), hc(23), runstate(2, RUNNABLE, RUNNING), hc(23),
            runstate(1, BLOCKED, RUNNABLE), hc(23)),
     {("dom0", "iret"): (1, 0), ("guest", "iret"): (2, 0)}),
    ("continue-running names the domain",
     window(0, hc(23), rec(xc.TRC_SCHED_CONTINUE_RUNNING, [0 << 16 | 1]), hc(23)),
     {("dom0", "iret"): (2, 0)}),
    ("no scheduler record: unknown",
     window(1, hc(23), hc(20, (ARG32, 5), (ARG32, 1))),
     {("unknown", "iret"): (1, 0), ("unknown", "grant_table_op.copy"): (1, 1)}),
    ("lost records: counted, held ones unknown, then the domain Xen names",
     window(0, hc(23), lost(5, 3), hc(23), runstate(0, RUNNABLE, RUNNING), hc(23)),
     {("unknown", "iret"): (1, 0), ("guest", "iret"): (1, 0), ("dom0", "iret"): (1, 0)},
     {"lost": 5}),
    ("lost records of two pcpus add up",
     window(0, switch(xc.DOMID_IDLE, 0), lost(2, 0), hc(23)) + window(1, lost(7, 0)),
     {("dom0", "iret"): (1, 0)}, {"lost": 9}),
    ("wrap and other records are skipped, but counted",
     on_dom0(WRAP, OTHER_PV, hc(23), WRAP),
     {("dom0", "iret"): (1, 0)}, {"records": 5, "truncated": False}),
    ("a window longer than the file", on_dom0(hc(23))[:-2],
     {}, {"truncated": True}),
    ("a record running past its window",
     window(0, switch(xc.DOMID_IDLE, 0), hc(23), size=len(switch(0, 0)) + 4) + hc(23),
     {}, {"truncated": True}),
    ("not a trace", b"hello world!", {}, {"truncated": True, "records": 0}),
    ("the TSC span", window(0, rec(0x00201004, [], tsc=True), rec(0x00201004, [], tsc=False),
                            rec(0x00201004, [], tsc=True)),
     {}, {"span": 10}),
    # The window: the records are stamped in the order written here, so a
    # later window of another pcpu may hold records from before a marker.
    ("markers: only the window counts, on every pcpu, markers not counted",
     window(0, switch(xc.DOMID_IDLE, 0), hc(23), marker(), hc(32), gnttab(5, 4))
     + window(1, switch(xc.DOMID_IDLE, 2), hc(23), marker(), hc(23)) + window(0, hc(33)),
     {("dom0", "event_channel_op"): (1, 0), ("dom0", "grant_table_op.copy"): (1, 4),
      ("guest", "iret"): (1, 0)},
     {"markers": 2}),
    ("markers: a domain known before the window counts inside it",
     window(0, switch(xc.DOMID_IDLE, 3), hc(23), marker(), hc(32), hc(32), marker(), hc(23)),
     {("guest", "event_channel_op"): (2, 0)}, {"markers": 2}),
    ("markers: switches and lost records outside the window left out",
     window(0, switch(xc.DOMID_IDLE, 0), lost(4, 0), marker(), switch(0, 5), hc(23), lost(3, 5),
            marker(), switch(5, 0), lost(9, 0)),
     {("guest", "iret"): (1, 0)}, {"markers": 2, "lost": 3, "switch": {"guest": 1}}),
    ("one marker: the whole trace counts", on_dom0(hc(23), marker(), hc(23)),
     {("dom0", "iret"): (2, 0)}, {"markers": 1}),
    ("a marker's bytes inside another record are no marker",
     on_dom0(rec(0x00201004, [0, 0, 0x0010001d, xc.MARKER_CMD]), hc(23), marker()),
     {("dom0", "iret"): (1, 0)}, {"markers": 1}),
    ("nor is a whole marker record's bytes at an offset no record starts at",
     on_dom0(rec(0x00201004, struct.unpack("<6I", b"\0\0" + struct.pack("<IQ", xc.MARKER_HDR, 7)
                                          + xc.MARKER_WORDS + b"\0\0")), hc(23), marker()),
     {("dom0", "iret"): (1, 0)}, {"markers": 1}),
]


class TestCount(unittest.TestCase):
    pass


def _case(trace, want, extra):
    def test(self):
        c = xc.count(trace)
        got = {k: tuple(v) for k, v in c.hc.items()}
        self.assertEqual(got, want)
        for key, val in extra.items():
            have = {"lost": c.lost, "truncated": c.truncated, "records": c.records,
                    "cpus": len(c.cpus), "switch": c.switch, "markers": len(c.markers),
                    "span": (c.tsc_max - c.tsc_min) if c.tsc_min is not None else 0}[key]
            self.assertEqual(have, val, key)
    return test


for i, case in enumerate(CASES):
    name, trace, want = case[:3]
    setattr(TestCount, f"test_{i:02d}_" + "".join(ch if ch.isalnum() else "_" for ch in name),
            _case(trace, want, case[3] if len(case) > 3 else {}))


class TestMark(unittest.TestCase):
    """The marker: the privcmd request, ENOSYS taken as the answer."""

    def test_request(self):
        seen = []

        def ioctl(fd, req, buf):
            seen.append((req, struct.unpack("<6Q", buf)))
            raise OSError(38, "ENOSYS")
        with open("/dev/null", "rb") as f:
            xc.mark(f, ioctl)
        self.assertEqual(seen, [(0x305000, (29, xc.MARKER_CMD, 0, 0, 0, 0))])

    def test_other_errors_fail(self):
        def ioctl(fd, req, buf):
            raise OSError(1, "EPERM")
        with open("/dev/null", "rb") as f, self.assertRaises(OSError):
            xc.mark(f, ioctl)

    def test_no_device(self):
        self.assertIsNone(xc.privcmd(("/nonexistent/privcmd",)))

    def test_marker_record_is_what_find_markers_finds(self):
        self.assertEqual(len(xc.find_markers(window(0, marker(), hc(23), marker()))), 2)


# A dom0 as --counters reads it: two vifs (stock's -tx/-rx irqs and ours'
# plain one), /proc/stat, the threads' schedstat, ours' groups file.
FAKE = {
    "sys/class/net/vif1.0/statistics/rx_packets": "10\n",
    "sys/class/net/vif1.0/statistics/tx_packets": "20\n",
    "sys/class/net/vif2.0/statistics/rx_packets": "300\n",
    "sys/class/net/vif2.0/statistics/tx_packets": "4000\n",
    "sys/class/net/eth0/statistics/rx_packets": "99999\n",
    "proc/stat": "cpu  1 2 3\nintr 777 0 5 6\nctxt 888\nbtime 1\n",
    "proc/interrupts": "           CPU0       CPU1\n"
                       "  1:         10         20   xen-pirq  -ioapic-edge  i8042\n"
                       " 64:          5          7   xen-dyn   -edge   vif1.0-q0-tx\n"
                       " 65:          1          2   xen-dyn   -edge   vif1.0-q0-rx\n"
                       " 66:        100          0   xen-dyn   -edge   vif2.0-q1\n"
                       " 67:       1000          0   xen-dyn   -edge   vif-bogus\n"
                       "NMI:          0          0   Non-maskable interrupts\n",
    "proc/11/schedstat": "100 200 7\n",
    "proc/12/schedstat": "100 200 8\n",
    "proc/21/schedstat": "100 200 50\n",
    "sys/kernel/debug/xen-netback/groups": "group 0: passes 30 packets 300 batches 3\n"
                                           "  vif1.0-q0 queued 0\n"
                                           "group 1: passes 12 packets 120 batches 1\n",
}


class TestCounters(unittest.TestCase):
    def setUp(self):
        import tempfile
        self.tmp = tempfile.TemporaryDirectory()
        for path, text in FAKE.items():
            full = os.path.join(self.tmp.name, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)

    def tearDown(self):
        self.tmp.cleanup()

    def test_counters(self):
        # packets ctxt intr events backend-runs ksoftirqd-runs passes group-packets
        self.assertEqual(xc.counters([11, 12, 99], [21], self.tmp.name),
                         [4330, 888, 777, 115, 15, 50, 42, 420])

    def test_no_groups_file(self):
        os.remove(os.path.join(self.tmp.name, "sys/kernel/debug/xen-netback/groups"))
        self.assertEqual(xc.counters([], [], self.tmp.name)[-2:], [0, 0])

    def test_windows(self):
        import io
        out, slept, marks = io.StringIO(), [], []
        old = xc.mark
        xc.mark = lambda f: marks.append(f)
        try:
            xc.windows(io.StringIO("4\n"), out, [11], [], "privcmd", self.tmp.name, slept.append)
        finally:
            xc.mark = old
        lines = out.getvalue().splitlines()
        self.assertEqual(lines[0], "ready")
        self.assertEqual([x.split()[1:] for x in lines[1:]],
                         [["4330", "888", "777", "115", "7", "0", "42", "420"]] * 2)
        self.assertEqual((slept, marks), ([4.0], ["privcmd", "privcmd"]))

    def test_windows_without_privcmd(self):
        import io
        out = io.StringIO()
        xc.windows(io.StringIO("0\n"), out, [], [], None, self.tmp.name, lambda s: None)
        self.assertEqual(out.getvalue().splitlines()[0], "ready nomark")
        self.assertEqual(len(out.getvalue().splitlines()), 3)


class TestRender(unittest.TestCase):
    def test_lines(self):
        trace = on_dom0(gnttab(5, 8), gnttab(5, 4), hc(23)) + window(1, lost(3, 0))
        lines = xc.render(xc.count(trace)).splitlines()
        self.assertEqual(lines[0], f"records 5 bytes {len(trace)} cpus 2 truncated 0")
        self.assertIn("lost 3", lines)
        self.assertIn("hc dom0 grant_table_op.copy 2 12", lines)
        self.assertIn("hc dom0 iret 1 0", lines)
        self.assertIn("switch dom0 1", lines)
        # The most frequent kind of a domain first.
        self.assertLess(lines.index("hc dom0 grant_table_op.copy 2 12"), lines.index("hc dom0 iret 1 0"))

    def test_main_warns_of_lost_records(self):
        import io
        import tempfile
        with tempfile.NamedTemporaryFile() as f:
            f.write(window(0, lost(4, 0)))
            f.flush()
            out, err = io.StringIO(), io.StringIO()
            old = sys.stdout, sys.stderr
            sys.stdout, sys.stderr = out, err
            try:
                rc = xc.main(["xentrace_count.py", f.name])
            finally:
                sys.stdout, sys.stderr = old
        self.assertEqual(rc, 0)
        self.assertIn("lost 4", out.getvalue())
        self.assertIn("4 records lost", err.getvalue())


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    failed = len(result.failures) + len(result.errors)
    print(f"{result.testsRun - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
