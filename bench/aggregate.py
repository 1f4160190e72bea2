#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Aggregate the "XNB-METRIC bench ..." lines of `make bench` lab runs
(and of `make bench-host` on a real dom0: info.env's RUN=host).

    aggregate.py --info INFO.env --workdir DIR --out PREFIX [--readme README.md] SERIAL.log...
    aggregate.py --csv OLD.csv --out PREFIX [--info INFO.env]   (re-render)

Writes PREFIX.md (pasteable table: median [min-max] per configuration,
ours/stock ratio, the targets), PREFIX.csv and PREFIX.png (gnuplot;
skipped with a note when gnuplot is missing).  --readme replaces the text
between README's "bench:start" and "bench:end" markers by a few lines
pointing at PREFIX.md.  --csv re-renders from an earlier CSV instead of
logs (the failed steps and, without --info, the machine are then unknown).

Never judges a figure beyond reporting whether a target is met: the exit
status is non-zero only when there is nothing to aggregate or an output
cannot be written.

Reading order: the ROWS and TARGETS tables, then main(), which calls one
function per step: load, tabulate (median/range, ratios), targets, render.
"""
import argparse
import collections
import csv
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The configurations are defined once, in the library the scenarios use.
BENCH_LIB = os.path.join(TOP, "tests", "lab", "bench-lib.sh")

METRIC = re.compile(r"XNB-METRIC bench (b=\S+ c=\S+ r=\S+ m=\S+.*?v=\S+)")
INFO = re.compile(r"XNB-METRIC bench-info (.*)")

# One table row: metric (as the scenario prints it), n (guests, or None),
# label, unit, better ("hi", "lo", or None for information only) and the
# scale from the printed value to the unit.
Row = collections.namedtuple("Row", "metric n label unit better scale")
GUESTS = (1, 2, 4, 8)   # 8: the scale row's, 4 of them small
DIRS = (("tx", "guest->dom0"), ("rx", "dom0->guest"))


def _guests(n):
    return f"{n} guest{'s' if n > 1 else ''}"


def _flood_rows(n):
    """Issue 19's rows, the backend as the bottleneck: n guests flooding at
    once, each way; ops and notifications counted by kprobes in dom0, the
    same way for both backends."""
    g, others = _guests(n), _guests(n - 1)
    rows = []
    for d, way in (("tx", f"from {g} to dom0"), ("rx", f"from dom0 to {g}")):
        rows += [
            (f"flood{d}_pps", n, f"64 B UDP {way} at once, received in all", "kpps", "hi", 1e-3),
            (f"cpu_us_per_pkt_flood{d}", n, f"dom0 CPU per packet received, 64 B {way}", "us", "lo", 1),
            (f"kp_ops_per_call_flood{d}", n, f"grant-copy ops per copy hypercall, 64 B {way}",
             "ops", "hi", 1),
            (f"kp_notify_per_pkt_flood{d}", n, f"guest notifications per vif packet, 64 B {way}",
             "notif/pkt", "lo", 1),
            (f"ops_per_batch_flood{d}", n, f"grant-copy ops per copy hypercall (ours' counters), 64 B {way}",
             "ops", "hi", 1),
            (f"vif_kpps_flood{d}", n, f"packets through the vifs, 64 B {way} (received or not)",
             "kpps", "hi", 1),
            (f"irqs_per_pkt_flood{d}", n, f"guest events (vif irqs) per vif packet, 64 B {way}",
             "irq/pkt", "lo", 1),
        ]
    rows += [
        ("floodbulk_gbps", n, f"TCP guest->dom0 of g1 beside 64 B floods to dom0 from {others}",
         "Gbit/s", "hi", 1),
        ("floodbulk_pps", n, f"those 64 B floods from {others} beside g1's TCP, received in all",
         "kpps", "hi", 1e-3),
        ("floodping_alone_ms", n, f"ping RTT to guest {n + 1}, the other {n} idle", "ms", "lo", 1),
        ("floodping_tx_ms", n, f"ping RTT to guest {n + 1} while {g} flood dom0 (64 B)", "ms", "lo", 1),
        ("floodping_rx_ms", n, f"ping RTT to guest {n + 1} while dom0 floods {g} (64 B)", "ms", "lo", 1),
    ]
    return [Row(*r) for r in rows]


ROWS = (
    [Row(f"tcp_{d}_gbps", n, f"TCP {dl}, {_guests(n)}", "Gbit/s", "hi", 1)
     for d, dl in DIRS for n in GUESTS]
    + [Row(f"cpu_s_per_gb_{d}", n, f"dom0 CPU per GB, TCP {dl}, {_guests(n)}", "CPU-s/GB", "lo", 1)
       for d, dl in DIRS for n in GUESTS]
    + [Row(*r) for r in (
        ("udp64_tx_pps", None, "UDP 64 B guest->dom0, received by dom0", "kpps", "hi", 1e-3),
        ("udp64_rx_pps", None, "UDP 64 B dom0->guest, received by the guest", "kpps", "hi", 1e-3),
        ("cpu_s_per_gb_udp", None, "dom0 CPU per GB, UDP 64 B guest->dom0", "CPU-s/GB", "lo", 1),
        ("cpu_s_per_gb_udprx", None, "dom0 CPU per GB, UDP 64 B dom0->guest", "CPU-s/GB", "lo", 1),
        ("ops_per_batch_tx", 4, "grant-copy ops/hypercall, TCP guest->dom0, 4 guests", "ops", "hi", 1),
        ("ops_per_batch_rx", 4, "grant-copy ops/hypercall, TCP dom0->guest, 4 guests", "ops", "hi", 1),
        ("ops_per_batch_all", None, "grant-copy ops/hypercall, median of all TCP loads", "ops", "hi", 1),
        ("ops_per_batch_udp", None, "grant-copy ops/hypercall, UDP 64 B guest->dom0", "ops", "hi", 1),
        ("ops_per_batch_udprx", None, "grant-copy ops/hypercall, UDP 64 B dom0->guest", "ops", "hi", 1),
        ("threads_1vif", None, "backend threads, 1 vif", "threads", "lo", 1),
        ("threads_guests", 4, "backend threads, 4 guests of 1 vif", "threads", "lo", 1),
        ("threads_guests", 2, "backend threads, 2 guests of 1 vif", "threads", "lo", 1),
        ("threads_16vif", None, "backend threads, 16 vifs", "threads", "lo", 1),
        ("threads_64vif", None, "backend threads, 64 vifs (4 guests of 16)", "threads", "lo", 1),
        # The backend's own fixed cost (module, groups): no better side,
        # stock makes nothing before its first vif.
        ("mem_0vif_kib", None, "dom0 Slab+VmallocUsed growth, loaded, 0 vifs", "MiB", None, 1 / 1024),
        ("mem_1vif_kib", None, "dom0 Slab+VmallocUsed growth, 1 vif", "MiB", "lo", 1 / 1024),
        ("mem_16vif_kib", None, "dom0 Slab+VmallocUsed growth, 16 vifs", "MiB", "lo", 1 / 1024),
        ("mem_64vif_kib", None, "dom0 Slab+VmallocUsed growth, 64 vifs (4 guests of 16)", "MiB", "lo",
         1 / 1024),
        ("connect16_s", None, "time to hot-attach 15 vifs one by one (16 in all)", "s", "lo", 1),
        ("connect64_s", None, "time to boot 3 guests and hot-attach 45 vifs (64 in all)", "s", "lo", 1),
        ("boot1_s", None, "guest boot until its vif answers ping", "s", "lo", 1),
        ("fair_alone_gbps", None, "fairness: g2 TCP dom0->g2 alone", "Gbit/s", "hi", 1),
        ("fair_flood_gbps", None, "fairness: g2 TCP while g1 is flooded", "Gbit/s", "hi", 1),
        ("fair_tput_ratio", None, "fairness: g2 throughput flooded/alone", "ratio", "hi", 1),
        ("fair_ping_alone_ms", None, "fairness: g2 ping RTT alone", "ms", "lo", 1),
        ("fair_ping_flood_ms", None, "fairness: g2 ping RTT while g1 is flooded", "ms", "lo", 1),
        ("fair_ping_ratio", None, "fairness: g2 ping RTT flooded/alone", "ratio", "lo", 1),
        ("veth_gbps", None, "ceiling: TCP over veth between 2 netns in dom0", "Gbit/s", None, 1),
        ("mq_tx_gbps", None, "2-queue guest (2 vcpus), 4 TCP streams guest->dom0", "Gbit/s", "hi", 1),
        ("mq_rx_gbps", None, "2-queue guest (2 vcpus), 4 TCP streams dom0->guest", "Gbit/s", "hi", 1),
        ("cpu_s_per_gb_mqtx", None, "dom0 CPU per GB, 2-queue guest, guest->dom0", "CPU-s/GB", "lo", 1),
        ("cpu_s_per_gb_mqrx", None, "dom0 CPU per GB, 2-queue guest, dom0->guest", "CPU-s/GB", "lo", 1),
    )]
    + [r for n in (4, 2) for r in _flood_rows(n)]
    + [Row(*r) for n in (4, 2) for r in (
        ("rebal_rx_gbps", n, f"rebalance: TCP dom0->guest, {_guests(n)} started on group 0, after 5 s",
         "Gbit/s", "hi", 1),
        ("rebal_vs_spread", n, f"rebalance: rebalanced / spread, TCP dom0->guest, {_guests(n)}",
         "ratio", "hi", 1),
        ("rebal_moves", n, f"rebalance: queues moved by the balancer, {_guests(n)}", "moves", None, 1),
        ("rebal_g0_start", n, f"rebalance: queues in group 0 as the load starts, {_guests(n)}",
         "queues", None, 1),
        ("rebal_g0_end", n, f"rebalance: queues in group 0 as the load ends, {_guests(n)}",
         "queues", None, 1),
    )]
    + [Row(*r) for r in (
        ("guests_up_s", 4, "4 guests started at once until all answer ping", "s", None, 1),
        ("guests_up_s", 2, "2 guests started at once until all answer ping", "s", None, 1),
        ("cycle_s", None, "wall time of one cycle (the bench's own cost)", "s", None, 1),
    )])

# The targets, reported and never asserted.  kind:
#   "every_row"  the default configuration's ratio is on the good side of 1
#                on every row that has a better direction;
#   "ratio"      the default configuration's ours/stock ratio on each of
#                the cells passes ok(ratio);
#   "each"       per configuration of ours, each cell's median passes
#                ok(value, want), want = the backend threads it should run.
#   "ceiling"    the default configuration's median of each cell over the
#                veth ceiling passes ok(fraction), for the best cell.
# Issue 9 lists them, issue 19 the floods'.
Target = collections.namedtuple("Target", "label kind cells ok")
TARGETS = (
    Target("ours >= stock on every row (default config)", "every_row", (), None),
    Target("UDP 64 B packet rate >= stock, both directions", "ratio",
           [("udp64_tx_pps", None), ("udp64_rx_pps", None)], lambda r: r >= 1),
    Target("ping RTT <= stock, alone and while a neighbour is flooded", "ratio",
           [("fair_ping_alone_ms", None), ("fair_ping_flood_ms", None)], lambda r: r <= 1),
    Target(">= 1.2x stock TCP throughput with 2 and 4 guests, both directions", "ratio",
           [(f"tcp_{d}_gbps", n) for d, _ in DIRS for n in (2, 4)], lambda r: r >= 1.2),
    Target("dom0 CPU/GB <= 0.75x stock", "ratio",
           [(f"cpu_s_per_gb_{d}", n) for d, _ in DIRS for n in GUESTS], lambda r: r <= 0.75),
    Target("guest RX (TCP dom0->guest, best of 1/2/4 guests) >= 0.5x the veth ceiling", "ceiling",
           [("tcp_rx_gbps", n) for n in GUESTS], lambda f: f >= 0.5),
    Target("rebalanced >= 0.9x spread ({cfg})", "each",
           [("rebal_vs_spread", 4), ("rebal_vs_spread", 2)], lambda v, want: v >= 0.9),
    Target("median grant-copy ops/hypercall >= 32 under load ({cfg})", "each",
           [("ops_per_batch_all", None)], lambda v, want: v >= 32),
    # A group's thread starts with its first queue (docs/design.md,
    # "Memory"): one vif runs group 0's alone.
    Target("threads <= groups, at least 1, flat in vifs ({cfg}: at most {want} kthreads)", "each",
           [("threads_1vif", None), ("threads_guests", 2), ("threads_guests", 4),
            ("threads_16vif", None), ("threads_64vif", None)],
           lambda v, want: min(want, 1) <= v <= want),
    # Issue 19's.
    Target("dom0 memory at 1 vif <= stock", "ratio",
           [("mem_1vif_kib", None)], lambda r: r <= 1),
    Target("dom0 memory at 16 and 64 vifs <= 0.5x stock", "ratio",
           [("mem_16vif_kib", None), ("mem_64vif_kib", None)], lambda r: r <= 0.5),
    Target("one guest 64 B UDP >= 1.1x stock, both directions", "ratio",
           [("udp64_tx_pps", None), ("udp64_rx_pps", None)], lambda r: r >= 1.1),
    Target("TCP dom0->guest >= 1.3x stock at 2 and 4 guests", "ratio",
           [("tcp_rx_gbps", 2), ("tcp_rx_gbps", 4)], lambda r: r >= 1.3),
    Target("dom0 CPU/GB <= 0.7x stock, both directions, 1 to 8 guests", "ratio",
           [(f"cpu_s_per_gb_{d}", n) for d, _ in DIRS for n in GUESTS], lambda r: r <= 0.7),
    Target("2-queue guest, 4 streams: >= 1.2x stock, both directions", "ratio",
           [("mq_tx_gbps", None), ("mq_rx_gbps", None)], lambda r: r >= 1.2),
    # Issue 19's, for the floods of 4 guests at once.
    Target("4-guest 64 B floods: >= 1.5x stock packets/s, both directions", "ratio",
           [("floodtx_pps", 4), ("floodrx_pps", 4)], lambda r: r >= 1.5),
    Target("4-guest 64 B floods: dom0 CPU per packet <= 0.7x stock, both directions", "ratio",
           [("cpu_us_per_pkt_floodtx", 4), ("cpu_us_per_pkt_floodrx", 4)], lambda r: r <= 0.7),
    Target("4-guest 64 B floods: >= 8 grant-copy ops per hypercall, both directions ({cfg})", "each",
           [("kp_ops_per_call_floodtx", 4), ("kp_ops_per_call_floodrx", 4)], lambda v, want: v >= 8),
    # The same from ours' own counters, for a run without the kprobes.
    Target("4-guest 64 B floods: >= 8 ops per hypercall by ours' counters, both directions ({cfg})",
           "each", [("ops_per_batch_floodtx", 4), ("ops_per_batch_floodrx", 4)],
           lambda v, want: v >= 8),
    Target("ping RTT to a 5th guest <= stock while 4 flood, both directions", "ratio",
           [("floodping_tx_ms", 4), ("floodping_rx_ms", 4)], lambda r: r <= 1),
    # Issue 28's: first no row below stock, then the goal.
    Target("4-guest 64 B floods: >= 1.0x stock packets/s, both directions", "ratio",
           [("floodtx_pps", 4), ("floodrx_pps", 4)], lambda r: r >= 1),
    Target("4-guest 64 B floods: dom0 CPU per packet <= 1.0x stock, both directions", "ratio",
           [("cpu_us_per_pkt_floodtx", 4), ("cpu_us_per_pkt_floodrx", 4)], lambda r: r <= 1),
    Target("TCP dom0->guest >= 1.2x stock at 2 and 4 guests", "ratio",
           [("tcp_rx_gbps", 2), ("tcp_rx_gbps", 4)], lambda r: r >= 1.2),
    Target("dom0 CPU/GB <= 0.9x stock, TCP dom0->guest at 2 and 4 guests", "ratio",
           [("cpu_s_per_gb_rx", 2), ("cpu_s_per_gb_rx", 4)], lambda r: r <= 0.9),
    Target("TCP with 8 guests >= 1.0x stock, both directions", "ratio",
           [("tcp_tx_gbps", 8), ("tcp_rx_gbps", 8)], lambda r: r >= 1),
    Target("dom0 CPU/GB with 8 guests <= 1.0x stock, both directions", "ratio",
           [("cpu_s_per_gb_tx", 8), ("cpu_s_per_gb_rx", 8)], lambda r: r <= 1),
    Target("first ping: a guest's boot, and 4 guests' at once, until ping answers <= stock",
           "ratio", [("boot1_s", None), ("guests_up_s", 4)], lambda r: r <= 1),
    Target("TCP guest->dom0 >= 2x stock at 4 guests", "ratio",
           [("tcp_tx_gbps", 4)], lambda r: r >= 2),
    Target("TCP >= 2x stock, both directions, 4 and 8 guests", "ratio",
           [(f"tcp_{d}_gbps", n) for d, _ in DIRS for n in (4, 8)], lambda r: r >= 2),
    Target("dom0 CPU/GB <= 0.5x stock, both directions, 4 and 8 guests", "ratio",
           [(f"cpu_s_per_gb_{d}", n) for d, _ in DIRS for n in (4, 8)], lambda r: r <= 0.5),
)

# The count rows (row group "count"): cnt_<what>_<load> metrics, made
# into rows as they come (the hypercall kinds are whatever Xen's trace
# showed), in a section of their own: figures to compare, never targets.
COUNT_LOADS = (("floodtx", "64 B UDP floods from {g} to dom0 (as the flood rows)"),
               ("floodrx", "64 B UDP floods from dom0 to {g} (as the flood rows)"),
               ("tcprx", "TCP from dom0 to {g} (as the TCP rows)"))
# (pattern of <what>, label, unit), in the order of the table; {0} is the
# pattern's group.
COUNT_WHAT = (
    (r"vif_kpps", "packets through the vifs during the counted window", "kpps"),
    (r"hc_pp", "dom0 hypercalls, all kinds (multicall subcalls not counted apart)", "/pkt"),
    (r"hc_(.+)_pp", "dom0 hypercalls: {0}", "/pkt"),
    (r"gntcopy_ops_per_call", "dom0 grant-copy ops per GNTTABOP_copy (Xen's trace)", "ops"),
    (r"ghc_pp", "guests' hypercalls, all kinds", "/pkt"),
    (r"ghc_(.+)_pp", "guests' hypercalls: {0}", "/pkt"),
    (r"xsw_dom0_pp", "Xen: dom0 vcpus switched in", "/pkt"),
    (r"xsw_guest_pp", "Xen: guest vcpus switched in", "/pkt"),
    (r"xsw_(.+)_pp", "Xen: {0} vcpus switched in", "/pkt"),
    (r"ctxt_pp", "dom0 context switches (/proc/stat ctxt)", "/pkt"),
    (r"intr_pp", "dom0 interrupts (/proc/stat intr)", "/pkt"),
    (r"wake_backend_pp", "runs of the backend's threads (ours napi/xnb-g*, stock vif*-q*; schedstat)",
     "/pkt"),
    (r"wake_ksoftirqd_pp", "runs of ksoftirqd (schedstat)", "/pkt"),
    (r"gevents_pp", "guest events (vif queue irqs)", "/pkt"),
    (r"sirq_squeeze_pp", "net_rx_action runs that left work (softnet_stat time_squeeze)", "/pkt"),
    (r"sirq_(.+)_pp", "dom0 softirq runs: {0} (/proc/softirqs)", "/pkt"),
    (r"passes_pp", "ours: group passes", "/pkt"),
    (r"pkts_per_pass", "ours: packets per pass (the groups' counters)", "pkts"),
    (r"trace_window_ratio", "time between the trace's markers over the counters' window "
     "(1 unless a read and its marker were preempted apart)", "ratio"),
    (r"trace_lost", "trace records Xen lost (every hypercall count low when > 0)", "records"),
    (r"hc_unattributed", "hypercalls attributed to no domain", "calls"),
    (r"trace_truncated", "trace file truncated (its counts low)", "flag"),
)

STOCK = ("stock", "stock")
PLOT_ALT = "throughput and dom0 CPU per GB against guests, and ours over stock"


# --- configurations -----------------------------------------------------------

def load_configs(ncpu, lib=BENCH_LIB):
    """[(backend, name)] from bench-lib.sh's BENCH_CONFIGS, in run order."""
    text = open(lib).read()
    m = re.search(r"^BENCH_CONFIGS='\n(.*?)^'", text, re.M | re.S)
    if not m:
        sys.exit(f"bench: no BENCH_CONFIGS table in {lib}")
    out = []
    for line in m.group(1).splitlines():
        f = line.split()
        if f and not f[0].startswith("#"):
            out.append((f[1], f[0].replace("{N}", str(ncpu))))
    return out


def row_names(lib=BENCH_LIB):
    """bench-lib.sh's BENCH_ROW_NAMES: the groups of rows a cycle can run."""
    m = re.search(r'^BENCH_ROW_NAMES="([^"]*)"', open(lib).read(), re.M)
    return m.group(1).split() if m else []


def columns(ncpu):
    """Table columns (ours by group count, then stock) and the default one."""
    configs = load_configs(ncpu)
    ours = [c for c in configs if c[0] == "ours"]
    default = ours[0]
    ours.sort(key=lambda c: (groups_of(c[1]), c[1]))
    return ours + [STOCK], default


def groups_of(name):
    m = re.match(r"g(\d+)", name)
    return int(m.group(1)) if m else 0


def want_threads(name):
    """Backend threads a configuration should run: one kthread per group."""
    return 0 if name.endswith("tasklet") else groups_of(name)


# --- input ----------------------------------------------------------------------

def read_env(path):
    """KEY=value lines (bench/bench.sh's info.env) as a dict."""
    env = {}
    if path:
        for line in open(path):
            k, _, v = line.rstrip("\n").partition("=")
            if k:
                env[k] = v
    return env


def fnum(s):
    try:
        v = float(s)
    except ValueError:
        return None
    return None if math.isnan(v) or math.isinf(v) else v


def error_text(kv):
    what = kv.get("what", "?")
    if what == "cycle":
        what = "cycle timed out (per-cycle budget)" if kv.get("rc") == "124" else \
            f"cycle ended early (rc {kv.get('rc', '?')})"
    else:
        what += " failed"
    return f"{kv.get('b')} {kv.get('c')} rep {kv.get('r')}: {what}"


def parse_logs(paths):
    """{(backend, cfg, metric, n): {rep: [values]}}, bench-info dict,
    errors, skipped rows."""
    data, info, errors, skips = {}, {}, [], []
    for p in paths:
        try:
            text = open(p, "rb").read().decode("utf-8", "replace").replace("\r", "")
        except OSError as e:
            errors.append(f"{p}: {e}")
            continue
        for line in text.splitlines():
            m = INFO.search(line)
            if m:
                for kv in m.group(1).split():
                    k, _, v = kv.partition("=")
                    info.setdefault(k, v)
                continue
            m = METRIC.search(line)
            if not m:
                continue
            kv = dict(x.partition("=")[::2] for x in m.group(1).split() if "=" in x)
            if kv.get("m") == "error":
                errors.append(error_text(kv))
                continue
            if kv.get("m") == "skip":
                skips.append(f"{kv.get('b')} {kv.get('c')}: {kv.get('what')}: "
                             + kv.get("why", "?").replace("+", " "))
                continue
            v = fnum(kv.get("v", ""))
            if v is None:
                continue
            n = int(kv["n"]) if kv.get("n", "").isdigit() else None
            data.setdefault((kv["b"], kv["c"], kv["m"], n), {}).setdefault(kv["r"], []).append(v)
    return data, info, errors, skips


# --- statistics -------------------------------------------------------------------

def samples(data, b, c, m, n):
    """One value per repetition (the median of that rep's values)."""
    if m == "ops_per_batch_all":
        vals = []
        for (kb, kc, km, _), reps in data.items():
            if kb == b and kc == c and km in ("ops_per_batch_tx", "ops_per_batch_rx"):
                vals += [x for r in reps.values() for x in r]
        return vals
    if m == "rebal_vs_spread":  # per repetition, over that cycle's spread run
        reb, spread = data.get((b, c, "rebal_rx_gbps", n), {}), data.get((b, c, "tcp_rx_gbps", n), {})
        return [statistics.median(v) / statistics.median(spread[r]) for r, v in reb.items()
                if v and spread.get(r) and statistics.median(spread[r]) > 0]
    if m.startswith("veth"):  # the lab's, not a backend's: every column shows it
        reps = {}
        for (_, _, km, kn), r in data.items():
            if km == m and kn == n:
                for rep, v in r.items():
                    reps.setdefault(rep, []).extend(v)
    else:
        reps = data.get((b, c, m, n), {})
    return [statistics.median(v) for v in reps.values() if v]


def stat(vals):
    """(median, min, max, count), or None without values."""
    if not vals:
        return None
    return statistics.median(vals), min(vals), max(vals), len(vals)


def tabulate(data, cols):
    """[(row, {col: stat})] for every row of ROWS, in the row's unit."""
    return [(row, {col: stat([v * row.scale for v in samples(data, col[0], col[1], row.metric, row.n)])
                   for col in cols})
            for row in ROWS]


def add_ratios(table, cols):
    """[(row, cells, {col: ours/stock of the medians})]."""
    out = []
    for row, cells in table:
        st = cells.get(STOCK)
        ratios = {col: cells[col][0] / st[0] for col in cols
                  if col != STOCK and cells.get(col) and st and st[0]}
        out.append((row, cells, ratios))
    return out


def drop_unmeasured(table, cols, default):
    """Leave out configurations and rows the run did not measure (QUICK
    runs two of ours and two guests): they would only add empty cells."""
    measured = [col for col in cols if col != STOCK
                and any(cells.get(col) for row, cells, _ in table
                        if not row.metric.startswith("veth"))]
    cols = measured + [STOCK]
    if default not in cols and measured:
        default = measured[0]
    table = [t for t in table if any(t[1].get(col) for col in cols)]
    return table, cols, default


def count_row(metric, n):
    """(load, order, Row) of a cnt_<what>_<load> metric; None if it is not one."""
    for li, (load, _) in enumerate(COUNT_LOADS):
        if metric.startswith("cnt_") and metric.endswith("_" + load):
            what = metric[4:-len(load) - 1]
            break
    else:
        return None
    for wi, (pat, label, unit) in enumerate(COUNT_WHAT):
        m = re.fullmatch(pat, what)
        if m:
            return load, (li, wi), Row(metric, n, label.format(*m.groups()), unit, None, 1)
    return load, (li, len(COUNT_WHAT)), Row(metric, n, what, "", None, 1)


def count_table(cells_of, keys):
    """[(load, row, {col: stat})] of the count metrics among keys ((metric,
    n) pairs), cells_of(row) giving a row's cells: in COUNT_WHAT's order
    within a load, the hypercall kinds of a pattern by their largest
    median, most frequent first."""
    rows = []
    for metric, n in set(keys):
        c = count_row(metric, n)
        if c:
            load, order, row = c
            cells = cells_of(row)
            top = max([s[0] for s in cells.values() if s] or [0])
            rows.append((order, -top, row.label, load, row, cells))
    rows.sort(key=lambda r: r[:3])
    return [(load, row, cells) for _, _, _, load, row, cells in rows]


def count_stats(data, cols):
    """count_table of the logs' figures."""
    return count_table(lambda row: {col: stat(samples(data, col[0], col[1], row.metric, row.n))
                                    for col in cols},
                       [(m, n) for (_, _, m, n) in data])


def load_csv(path):
    """An earlier PREFIX.csv as (table without ratios, columns seen, the
    count table)."""
    by_key = {(r.metric, r.n): r for r in ROWS}
    cells, cols = {}, []
    for rec in csv.DictReader(open(path)):
        key = (rec["metric"], int(rec["guests"]) if rec["guests"] else None)
        col = (rec["backend"], rec["config"])
        if key not in by_key and not count_row(*key):
            continue
        if col not in cols:
            cols.append(col)
        cells.setdefault(key, {})[col] = (float(rec["median"]), float(rec["min"]),
                                          float(rec["max"]), int(rec["reps"]))
    cols = [c for c in cols if c != STOCK] + [STOCK]
    counts = count_table(lambda row: cells.get((row.metric, row.n), {}),
                         [k for k in cells if k not in by_key])
    return [(row, cells.get((row.metric, row.n), {})) for row in ROWS], cols, counts


# --- targets ------------------------------------------------------------------------

def yn(ok):
    return "n/a" if ok is None else ("yes" if ok else "**no**")


def find(table, metric, n):
    for row, cells, ratios in table:
        if row.metric == metric and row.n == n:
            return cells, ratios
    return {}, {}


def ratio_span(cells, default):
    """" [lo, hi]": the least and most of ours' extremes over stock's, the
    ratio's bounds from both sides' ranges; "" when unknown."""
    ours, stock = cells.get(default), cells.get(STOCK)
    if not ours or not stock or stock[1] <= 0:
        return ""
    q = [o / s for o in ours[1:3] for s in stock[1:3]]
    return f" [{min(q):.2f}, {max(q):.2f}]"


def evaluate_targets(table, cols, default):
    """[(target text, met, figures)] for every entry of TARGETS."""
    out = []
    for t in TARGETS:
        if t.kind == "every_row":
            worse = [row.label for row, _, ratios in table
                     if row.better and default in ratios
                     and (ratios[default] < 1 if row.better == "hi" else ratios[default] > 1)]
            have = any(default in ratios for _, _, ratios in table)
            out.append((t.label, yn(not worse if have else None),
                        ("worse on: " + "; ".join(worse)) if worse else ""))
        elif t.kind == "ceiling":
            ceil = find(table, "veth_gbps", None)[0].get(default)
            got = [find(table, m, n)[0].get(default) for m, n in t.cells]
            fr = [s[0] / ceil[0] for s in got if s and ceil and ceil[0] > 0]
            out.append((t.label, yn(t.ok(max(fr)) if fr else None),
                        ", ".join(f"{f:.2f}x" for f in fr)))
        elif t.kind == "ratio":
            got = [find(table, m, n) for m, n in t.cells]
            got = [(ratios[default], cells) for cells, ratios in got if default in ratios]
            out.append((t.label, yn(all(t.ok(r) for r, _ in got) if got else None),
                        ", ".join(f"{r:.2f}x{ratio_span(cells, default)}" for r, cells in got)))
        else:
            for col in cols:
                if col == STOCK:
                    continue
                want = want_threads(col[1])
                got = [find(table, m, n)[0].get(col) for m, n in t.cells]
                got = [s[0] for s in got if s]
                out.append((t.label.format(cfg=col[1], want=want),
                            yn(all(t.ok(v, want) for v in got) if got else None),
                            ", ".join(fmt(v) for v in got)))
    return out


# --- output ---------------------------------------------------------------------------

def fmt(x):
    if x is None:
        return "-"
    a = abs(x)
    if x == int(x) and a < 1e6:
        return str(int(x))
    if a >= 100:
        return f"{x:.0f}"
    if a >= 10:
        return f"{x:.1f}"
    if a >= 1:
        return f"{x:.2f}"
    return f"{x:.3g}"


def write_csv(path, table, cols):
    with open(path, "w") as f:
        f.write("metric,guests,label,unit,better,backend,config,reps,median,min,max,ratio_vs_stock\n")
        for row, cells, ratios in table:
            for col in cols:
                s = cells.get(col)
                if not s:
                    continue
                r = ratios.get(col)
                f.write(f"{row.metric},{row.n or ''},\"{row.label}\",{row.unit},{row.better or ''},"
                        f"{col[0]},{col[1]},{s[3]},{s[0]:.6g},{s[1]:.6g},{s[2]:.6g},"
                        f"{'' if r is None else f'{r:.4f}'}\n")


def md_counts(counts, cols, n_label):
    """The section of the count rows: a table per load, ×R on every row
    (no better side: what one packet costs, not a target), and a warning
    where Xen lost trace records."""
    if not counts:
        return []
    rated = add_ratios([(row, cells) for _, row, cells in counts], cols)
    L, lost = [], []
    for load, title in COUNT_LOADS:
        rows = [r for (ld, _, _), r in zip(counts, rated) if ld == load]
        if not rows:
            continue
        hdr = ["", "unit"] + [f"ours {c}" for _, c in cols[:-1]] + ["stock"]
        g = n_label(rows[0][0].n) if rows[0][0].n else "the guests"
        L += [f"### {title.format(g=g)}", "",
              "| " + " | ".join(hdr) + " |", "|" + "---|" * len(hdr)]
        for row, cells, ratios in rows:
            L.append("| " + " | ".join([row.label, row.unit] + [
                md_cell(cells.get(col), ratios.get(col), True) for col in cols]) + " |")
            if row.metric.startswith(("cnt_trace_lost_", "cnt_trace_truncated_")):
                lost += [f"{load}, {col[1]}: {row.label}, up to {fmt(cells[col][2])}"
                         for col in cols if cells.get(col) and cells[col][2] > 0]
        L.append("")
    head = ["## Per-packet counts, ours vs stock", "",
            "Row group `count` (tests/lab/bench-rows.sh, bench_count): with Xen's trace on "
            "(`xentrace`, PV and SCHED classes, decoded by bench/xentrace_count.py), each load "
            "runs 2 s before a counted window and ends after it; per packet through the vif "
            "netdevs (both directions) in the window: dom0's and the guests' hypercalls by kind "
            "(a hypercall's records carry no domain: the scheduler's records on the same pcpu "
            "tell; event_channel_op and physdev_op carry no sub-op in Xen's records), Xen's vcpu "
            "switches, dom0's context switches and interrupts, the backend threads' and "
            "ksoftirqd's runs, the guests' events and ours' passes.  One process reads dom0's "
            "counters and marks the trace with a hypercall at each end, so both cover the same "
            "time.  Tracing slows every hypercall: these loads are not the throughput rows' "
            "(compare the packets per second with theirs).  Kinds under 0.0005 per packet are "
            "left out (the serial log has every count).  ×R = ours/stock of the medians; not "
            "targets.", ""]
    if lost:
        head += ["**The hypercall counts are low** where Xen lost trace records or the trace "
                 "was cut: " + "; ".join(lost) + ".", ""]
    return head + L


def md_cell(s, ratio, better):
    """median [min-max] xR"""
    if not s:
        return "-"
    t = fmt(s[0])
    if s[3] > 1:
        t += f" [{fmt(s[1])}-{fmt(s[2])}]"
    if ratio is not None and better:
        t += f" ×{ratio:.2f}"
    return t


def md_table(table, cols):
    hdr = ["", "unit"] + [f"ours {c}" for _, c in cols[:-1]] + ["stock"]
    lines = ["| " + " | ".join(hdr) + " |", "|" + "---|" * len(hdr)]
    for row, cells, ratios in table:
        arrow = {"hi": " ↑", "lo": " ↓"}.get(row.better, "")
        lines.append("| " + " | ".join([row.label + arrow, row.unit] + [
            md_cell(cells.get(col), ratios.get(col), row.better) for col in cols]) + " |")
    return lines


def md_real_host(host):
    """bench/bench-host.sh: the machine is the dom0 measured."""
    return [
        f"- host: {host.get('CPU', '?')}, {host.get('HOST_CPUS', '?')} CPUs under Xen "
        f"({host.get('HOST_TOPOLOGY', '?')}), {host.get('HOST_MEM_MIB', '?')} MiB; {host.get('DISTRO', '?')}",
        f"- Xen's {host.get('XEN_SCHED', '?')} scheduler, command line "
        f"`{host.get('XEN_CMDLINE', '')}`; dom0 command line `{host.get('DOM0_CMDLINE', '')}`",
        f"- compared: ours {host.get('OURS', '?')}; stock {host.get('STOCK', '?')}; "
        f"backend loaded before the run, and after it again: {host.get('BEFORE', '?')}; "
        f"{host.get('IPERF3', 'iperf3 ?')}",
        f"- host load (loadavg 1/5/15 min) before / after the run: {host.get('LOAD_start', '?')} / "
        f"{host.get('LOAD_end', '?')}; no other domain ran (bench-host refuses otherwise)",
    ]


def md_machine(host, info, quick):
    vifs = info.get("vifs", "first" if quick else "all")
    real = host.get("RUN") == "host"
    if real:
        load = None
        runs = f"bench-host run {host.get('RC', '?')} in {host.get('SECS', '?')} s"
    elif "LOAD_start" in host:  # bench/bench.sh: one boot, backends alternating
        load = (f"- host load (loadavg 1/5/15 min) before / after the run: {host.get('LOAD_start', '?')} / "
                f"{host.get('LOAD_end', '?')}; other QEMU processes running: "
                f"{host.get('OTHERQEMU_start', '?')} / {host.get('OTHERQEMU_end', '?')}")
        runs = f"lab run {host.get('RC', '?')} in {host.get('SECS', '?')} s"
        if host.get("SCENARIO", "bench-full") != "bench-full":
            runs += f" (scenario {host['SCENARIO']})"
    else:  # make check: one boot per backend
        load = (f"- host load (1-min loadavg) at the start of the ours/stock boots: "
                f"{host.get('LOAD_ours', '?')} / {host.get('LOAD_stock', '?')}; other QEMU processes running: "
                f"{host.get('OTHERQEMU_ours', '?')} / {host.get('OTHERQEMU_stock', '?')}")
        runs = (f"lab runs: ours {host.get('RC_ours', '?')}, stock {host.get('RC_stock', '?')} "
                f"({host.get('SECS_ours', '?')} s + {host.get('SECS_stock', '?')} s)")
    order = ("ours and stock alternate in one boot (the module switched per cycle, the order "
             "reversed every other repetition)" if info.get("mode") == "alt"
             else "one boot per backend")
    machine = md_real_host(host) if real else [
        f"- host: {host.get('NPROC', '?')} CPUs, {host.get('CPU', '?')}, Linux {host.get('HOST_KERNEL', '?')}, "
        f"{host.get('QEMU', '?')} (TCG)",
        load,
    ]
    return machine + [
        f"- Xen {info.get('xen', '?')}, dom0 Linux {info.get('dom0_kernel', '?')}, "
        f"{info.get('dom0_vcpus', '?')} vcpus, {int(info.get('dom0_mem_kib', '0')) // 1024} MiB; "
        f"guests: 1 vcpu, {info.get('guest_mem', '?')} MiB, 1 queue per vif",
        f"- {info.get('reps', '?')} repetition(s), iperf3 {info.get('t', '?')} s per run; {order}; "
        f"1/16-vif phase: {'once per backend' if vifs == 'first' else 'every cycle'}; "
        + runs,
        "- method: `tests/lab/bench-lib.sh`; TCP with all guests at once, "
        "dom0 is the iperf3 client (`-R` for guest->dom0); CPU per GB = Domain-0 CPU time "
        "(`xl list`) over bytes through the vif netdevs; ops/hypercall of the TCP and one-guest UDP "
        "rows from the debugfs group counters (ours only); memory = growth of Slab+VmallocUsed over "
        "the backend not loaded; "
        "fairness pins both guests to group 0 (ours); all guests are up during every TCP run; "
        "vifs are plugged by a minimal hotplug script (bridge port only), not vif-bridge; "
        f"ours is loaded with rebalance_ms={info.get('rebalance_ms', '?')} when the module has that "
        "parameter (the whole cycle, not only the rebalance rows); "
        "floods: every guest's own iperf3 pair at once (`-u -l 64 -b 1G`), packets received summed, "
        "dom0 CPU per packet received, copy hypercalls (with their ops) and notifications to vif "
        "queues counted by kprobes in dom0 (gnttab_batch_copy, ours' xnb_copy_issue, "
        "notify_remote_via_irq) for both backends alike, notifications over the packets through "
        "the vif netdevs",
    ] + rows_left_out(info)


def rows_left_out(info):
    """The machine section's line on the groups of rows a run left out
    (BENCH_ROWS, or the quick set's floods without the ping guest)."""
    run = info.get("rows", "").split(",")
    out = [r for r in row_names() if r not in run]
    return [f"- groups of rows not run (BENCH_ROWS): {' '.join(out)}"] if info.get("rows") and out else []


def render_md(table, cols, default, targets, host, info, errors, skips, quick, plot, counts=()):
    """The results page; plot is the PNG's file name, or None; counts the
    count table (count_table)."""
    title = "QUICK smoke run: 1 repetition, short runs, noisy" if quick else "full run"
    if host.get("RUN") == "host":
        where = (f"on a real Xen host, in its dom0 with guests of the bench's own "
                 f"(`make bench-host{' QUICK=1' if quick else ''}`)")
    else:
        where = f"in the QEMU TCG lab (`make bench{' QUICK=1' if quick else ''}`)"
    L = [f"# xen-netback bench, {host.get('DATE', '?')} ({title})", "",
         f"Ours (`{host.get('COMMIT', '?')}`) against Debian's stock `xen-netback.ko`, "
         f"{where}.  "
         "Cells: median [min-max] over the repetitions; ×R = ours/stock of the medians "
         "(↑ higher is better, ↓ lower is better)."]
    if quick:
        L += ["", f"**QUICK**: one repetition of {info.get('t', '?')} s iperf runs"
              f"{'' if host.get('RUN') == 'host' else ' on TCG guests'}; "
              "the figures show the harness works, not how fast anything is."]
    L += [""] + md_table(table, cols) + [""]
    L += [f"Targets (reported, not asserted; default config = ours {default[1]}, "
          "groups = dom0 vcpus, kthread; in brackets, a ratio's bounds from both sides' ranges):",
          "",
          "| target | met | figures |", "|---|---|---|"]
    L += [f"| {t} | {ok} | {fig} |" for t, ok, fig in targets]
    L += [""] + md_counts(counts, cols, _guests)
    L += ["Machine:" if host.get("RUN") == "host" else "Machine and lab:", ""]
    L += md_machine(host, info, quick)
    if errors:
        L += ["", "Steps that failed (their figures are missing):", ""]
        L += [f"- {e}" for e in sorted(set(errors))]
    if skips:
        L += ["", "Rows not measured (not failures):", ""]
        L += [f"- {e} ({skips.count(e)} cycle{'s' if skips.count(e) > 1 else ''})"
              for e in sorted(set(skips))]
    L += ["", f"![{PLOT_ALT}]({plot})" if plot
          else "(no plot: no TCP rows, or gnuplot missing or failed)"]
    return "\n".join(L) + "\n"


def write_plot(out, workdir, table, cols, title):
    """PREFIX.png: TCP throughput and dom0 CPU per GB against guests,
    one line per configuration.  False when gnuplot is missing or failed."""
    if not shutil.which("gnuplot"):
        return False
    if not any(find(table, m, n)[0] for m in ("tcp_tx_gbps", "tcp_rx_gbps") for n in GUESTS):
        return False  # a run without the TCP rows (BENCH_ROWS): nothing to draw
    os.makedirs(workdir, exist_ok=True)
    metrics = ("tcp_tx_gbps", "tcp_rx_gbps", "cpu_s_per_gb_tx", "cpu_s_per_gb_rx")
    series, ratios = [], []
    for col in cols:
        fn = os.path.join(workdir, f"plot-{col[1]}.dat")
        with open(fn, "w") as f:
            f.write("# guests tx txmin txmax rx rxmin rxmax cputx min max cpurx min max"
                    " and the medians over stock's: tx rx cputx cpurx\n")
            for n in GUESTS:
                vals, rat = [], []
                for m in metrics:
                    cells = find(table, m, n)[0]
                    s, ref = cells.get(col), cells.get(STOCK)
                    vals += list(s[:3]) if s else ["NaN"] * 3
                    rat.append(s[0] / ref[0] if s and ref and ref[0] else "NaN")
                f.write(f"{n} " + " ".join(str(v) for v in vals + rat) + "\n")
        style = "lw 3 lc rgb 'black' dt 2" if col == STOCK else "lw 2"
        name = ("ours " if col[0] == "ours" else "") + col[1]
        series.append((fn, name, style))
        if col != STOCK:
            ratios.append((fn, name))

    def plot(colno, what, ylabel):
        return (f"set title '{what}'; set ylabel '{ylabel}'; plot " + ", ".join(
            f"'{fn}' using 1:{colno}:{colno + 1}:{colno + 2} with yerrorlines {st} title '{t}'"
            for fn, t, st in series) + "\n")

    def plot_ratio(c_tx, what):
        return (f"set title '{what}'; set ylabel 'ours / stock'; plot 1 with lines lc rgb 'black' "
                "dt 2 notitle, " + ", ".join(
                    f"'{fn}' using 1:{c} with linespoints lw 2 title '{t} {d}'"
                    for fn, t in ratios for c, d in ((c_tx, "guest->dom0"), (c_tx + 1, "dom0->guest")))
                + "\n")
    gp = (f"set terminal pngcairo size 1200,1300 font ',10'\nset output '{out}.png'\n"
          f"set multiplot layout 3,2 title '{title}'\n"
          "set xlabel 'guests'; set logscale x 2; set xtics (1,2,4,8); set xrange [0.8:10]; "
          "set yrange [0:*]; set key top left opaque; set grid\n"
          + plot(2, "TCP guest->dom0, aggregate", "Gbit/s")
          + plot(5, "TCP dom0->guest, aggregate", "Gbit/s")
          + plot(8, "dom0 CPU per GB, guest->dom0", "CPU-s/GB")
          + plot(11, "dom0 CPU per GB, dom0->guest", "CPU-s/GB")
          + plot_ratio(14, "throughput, ours over stock (medians)")
          + plot_ratio(16, "dom0 CPU per GB, ours over stock (medians)")
          + "unset multiplot\n")
    gpf = os.path.join(workdir, "plot.gp")
    open(gpf, "w").write(gp)
    r = subprocess.run(["gnuplot", gpf], capture_output=True, text=True)
    if r.returncode == 0 and os.path.exists(out + ".png"):
        return True
    print("bench: gnuplot failed: " + r.stderr[-500:], file=sys.stderr)
    return False


def readme_summary(readme, out, host, info, quick, cols, targets):
    """A few lines for the README: where the latest results are, how they
    were run, which targets were (not) met.  Never the table itself."""
    link = os.path.relpath(out + ".md", os.path.dirname(os.path.abspath(readme)))
    ours = ", ".join(c for b, c in cols if b == "ours")
    met = [t for t, ok, _ in targets if ok == "yes"]
    missed = [t for t, ok, _ in targets if ok == "**no**"]
    lines = [
        f"Latest run: [`{link}`]({link}) (CSV and plot beside it), {host.get('DATE', '?')}, "
        f"commit `{host.get('COMMIT', '?')}`{', QUICK' if quick else ''}:",
        f"{info.get('reps', '?')} repetition(s) of {info.get('t', '?')} s iperf3 runs, "
        f"ours ({ours}) against Debian's stock module in the QEMU TCG lab.",
        f"Targets (reported, not asserted): {len(met)} of {len(targets)} met"
        + (f"; not met: {'; '.join(missed)}." if missed else "."),
    ]
    if os.path.exists(out + ".png"):
        png = os.path.relpath(out + ".png", os.path.dirname(os.path.abspath(readme)))
        lines += ["", f"![{PLOT_ALT}]({png})"]
    return lines


def update_readme(readme, lines):
    """Replace what is between the bench markers; False if there are none."""
    text = open(readme).read()
    m = re.search(r"(<!-- bench:start -->\n).*?(<!-- bench:end -->)", text, re.S)
    if not m:
        return False
    new = text[:m.end(1)] + "\n".join(lines) + "\n" + text[m.start(2):]
    with open(readme, "w") as f:
        f.write(new)
    return True


# --- main -------------------------------------------------------------------------------

def load(a):
    """(table of stats without ratios, columns, default column, bench-info,
    errors, skipped rows, count table) from the logs or, with --csv, from
    an earlier CSV."""
    if a.csv:
        table, cols, counts = load_csv(a.csv)
        ncpu = max([groups_of(c) for _, c in cols] + [1])
        _, default = columns(ncpu)
        return table, cols, default, {}, [], [], counts
    data, info, errors, skips = parse_logs(a.logs)
    if not data:
        sys.exit("bench: no XNB-METRIC bench lines in " + " ".join(a.logs))
    cols, default = columns(info.get("dom0_vcpus", "2"))
    return tabulate(data, cols), cols, default, info, errors, skips, count_stats(data, cols)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--info", help="info.env written by bench/bench.sh")
    ap.add_argument("--out", required=True, help="output prefix")
    ap.add_argument("--workdir", help="scratch files (plot data); default: a temporary one")
    ap.add_argument("--readme", help="README.md whose bench section gets the summary")
    ap.add_argument("--csv", help="re-render from this CSV instead of logs")
    ap.add_argument("logs", nargs="*")
    a = ap.parse_args()
    if not a.csv and not (a.logs and a.info):
        ap.error("give --info and serial logs, or --csv")

    host = read_env(a.info)
    quick = host.get("QUICK", "0") == "1"
    table, cols, default, info, errors, skips, counts = load(a)
    table = add_ratios(table, cols)
    table, cols, default = drop_unmeasured(table, cols, default)
    targets = evaluate_targets(table, cols, default)

    write_csv(a.out + ".csv", table + add_ratios([(row, cells) for _, row, cells in counts], cols),
              cols)
    with tempfile.TemporaryDirectory() as tmp:
        plotted = write_plot(a.out, a.workdir or tmp, table, cols,
                             f"xen-netback bench {host.get('DATE', '')}{' (QUICK, noisy)' if quick else ''}")
    md = render_md(table, cols, default, targets, host, info, errors, skips, quick,
                   os.path.basename(a.out) + ".png" if plotted else None, counts)
    open(a.out + ".md", "w").write(md)
    sys.stdout.write(md)
    if a.readme and not update_readme(a.readme, readme_summary(a.readme, a.out, host, info, quick,
                                                                 cols, targets)):
        print(f"bench: no bench markers in {a.readme}; left alone", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
