#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Count the hypercalls in a xentrace file, by domain and kind.

    xentrace_count.py TRACE     the counts (below)
    xentrace_count.py --counters BPIDS KPIDS
                                "ready"; then for each line read (SECONDS),
                                dom0's counters and a marker, SECONDS of
                                sleep, the same again (windows())

The bench's `count` rows (tests/lab/bench-rows.sh) run `xentrace -e
0x0022f000` (the PV and SCHED classes) in dom0, then --counters, then
the load, and ask --counters for a window: it reads dom0's counters and
makes a marker hypercall right after, at both ends, so that the trace
and the counters cover the same time (in a loaded TCG dom0 a process
waits seconds for a cpu: the shell's reads and another process's
markers would not line up).  The marker is a sched_op with a cmd Xen
does not know (MARKER_CMD: it fails with ENOSYS, but Xen records it
first), issued through /dev/xen/privcmd.  Only what lies between the
first and the last marker (by TSC, on every pcpu) is counted; a trace
without two markers is counted whole.  Only python3's core is used
(sys, os, struct, time, errno, fcntl): in the lab it runs on dom0's
python3 with a handful of its modules staged by bench/bench.sh.

The file (tools/xentrace/xentrace.c) is a sequence of windows, each a
TRC_TRACE_CPU_CHANGE record written by xentrace (cpu, window size in
bytes) followed by that many bytes of the pcpu's records as Xen wrote
them (xen/include/public/trace.h): a header word (event id in bits 0-27,
extra words in 28-30, bit 31 when a 64-bit TSC follows), the TSC, the
extra words.

Hypercalls: TRC_PV_HYPERCALL_V2 on entry, TRC_PV_HYPERCALL_SUBCALL for
each call of a multicall; extra word 0 is the hypercall number with two
bits per argument above it (bits 20-31: none, 32-bit or 64-bit), the
arguments follow.  Xen 4.17 records grant_table_op's cmd and count,
vcpu_op's cmd, sched_op's cmd, and the counts of mmu_update, mmuext_op
and multicall; event_channel_op and physdev_op carry no argument, so
they are counted without a sub-op.  A hypercall Xen preempts and the
guest re-enters is recorded again (grant_table_op's continuations are
counted as `.cont`).

Records carry no domain: the scheduler's records on the same pcpu say
which vcpu runs there (TRC_SCHED_SWITCH: previous and next domain;
runstate changes from and to running; continue-running; the domain in a
TRC_LOST_RECORDS record).  A pcpu's hypercalls before the first such
record are held and given to the domain its first record shows was
running; those still unknown at the end, or held across lost records,
are counted under "unknown" (and any given to the idle domain, which
makes none, under "idle": a sign that the attribution went wrong).

Output, one fact per line (lost, hc and switch of the window):

    records N bytes N cpus N truncated 0|1
    markers N window_cycles N   markers found; TSC from the first to the last
    lost N                   records Xen dropped (the counts are then low)
    span_cycles N            TSC of the last record minus the first's
    hc DOMAIN KIND CALLS OPS DOMAIN: dom0, guest, unknown or idle; OPS the
                             summed count argument (0 where none)
    switch DOMAIN N          vcpus of DOMAIN switched in by Xen
"""
import errno
import os
import struct
import sys
import time

# Event ids (xen/include/public/trace.h).
TRC_LOST_RECORDS = 0x0001f001
TRC_TRACE_WRAP_BUFFER = 0x0001f002
TRC_TRACE_CPU_CHANGE = 0x0001f003
TRC_SCHED_RUNSTATE_CHANGE = 0x00021001
TRC_SCHED_CONTINUE_RUNNING = 0x00021002
TRC_SCHED_SWITCH = 0x0002800a
TRC_SCHED_SWITCH_INFPREV = 0x0002800e
TRC_SCHED_SWITCH_INFCONT = 0x00028011
TRC_PV_HYPERCALL_V2 = 0x0020100d
TRC_PV_HYPERCALL_SUBCALL = 0x0020200e
TRC_64_FLAG = 0x100
DOMID_IDLE = 0x7fff
RUNSTATE_RUNNING = 0

HYPERCALLS = {
    0: "set_trap_table", 1: "mmu_update", 2: "set_gdt", 3: "stack_switch",
    4: "set_callbacks", 5: "fpu_taskswitch", 6: "sched_op_compat", 7: "platform_op",
    8: "set_debugreg", 9: "get_debugreg", 10: "update_descriptor", 12: "memory_op",
    13: "multicall", 14: "update_va_mapping", 15: "set_timer_op",
    16: "event_channel_op_compat", 17: "xen_version", 18: "console_io",
    19: "physdev_op_compat", 20: "grant_table_op", 21: "vm_assist",
    22: "update_va_mapping_otherdomain", 23: "iret", 24: "vcpu_op",
    25: "set_segment_base", 26: "mmuext_op", 27: "xsm_op", 28: "nmi_op",
    29: "sched_op", 30: "callback_op", 31: "xenoprof_op", 32: "event_channel_op",
    33: "physdev_op", 34: "hvm_op", 35: "sysctl", 36: "domctl", 37: "kexec_op",
    38: "tmem_op", 39: "argo_op", 40: "xenpmu_op", 41: "dm_op", 42: "hypfs_op",
    48: "mca", 49: "paging_domctl_cont",
}
HC_MMU_UPDATE, HC_MULTICALL, HC_GRANT_TABLE_OP = 1, 13, 20
HC_VCPU_OP, HC_MMUEXT_OP, HC_SCHED_OP = 24, 26, 29
SUBOPS = {
    HC_GRANT_TABLE_OP: ("map_grant_ref", "unmap_grant_ref", "setup_table", "dump_table",
                        "transfer", "copy", "query_size", "unmap_and_replace", "set_version",
                        "get_status_frames", "get_version", "swap_grant_ref", "cache_flush"),
    HC_SCHED_OP: ("yield", "block", "shutdown", "poll", "remote_shutdown", "shutdown_code",
                  "watchdog", "pin_override"),
    HC_VCPU_OP: ("initialise", "up", "down", "is_up", "get_runstate_info",
                 "register_runstate_memory_area", "set_periodic_timer",
                 "stop_periodic_timer", "set_singleshot_timer", "stop_singleshot_timer",
                 "register_vcpu_info", "send_nmi", "get_physid",
                 "register_vcpu_time_memory_area"),
}
# The argument that is a count of operations, per hypercall (its index
# among the arguments Xen records).
COUNT_ARG = {HC_MMU_UPDATE: 0, HC_MULTICALL: 0, HC_MMUEXT_OP: 0, HC_GRANT_TABLE_OP: 1}
# grant_table_op keeps a continuation's progress above bit 12 of cmd.
GNTTAB_CMD_MASK = 0xfff
# mmu_update and mmuext_op mark a continuation's count with the top bit.
COUNT_PREEMPTED = 0x80000000
# The window marker: sched_op (recorded with its cmd) with a cmd no Xen
# has ("xnb"), as its record's words: header with 2 extra words and a
# TSC, the TSC, the op with its one 32-bit argument, the cmd.
MARKER_CMD = 0x00786e62
MARKER_HDR = TRC_PV_HYPERCALL_V2 | 2 << 28 | 1 << 31
MARKER_WORDS = struct.pack("<II", HC_SCHED_OP | 1 << 20, MARKER_CMD)
# linux/include/uapi/xen/privcmd.h: IOCTL_PRIVCMD_HYPERCALL, _IOC(_IOC_NONE,
# 'P', 0, sizeof(struct privcmd_hypercall { __u64 op, arg[5]; })).
PRIVCMD_HYPERCALL = 0 << 30 | 48 << 16 | ord("P") << 8 | 0
PRIVCMD_DEVS = ("/dev/xen/privcmd", "/proc/xen/privcmd")
GROUPS_DEBUGFS = "/sys/kernel/debug/xen-netback/groups"


def hc_args(words):
    """(op, [args]) of a TRC_PV_HYPERCALL_V2/_SUBCALL record's extra
    words: two bits per argument above the op say what follows."""
    op = words[0] & 0x000fffff
    args, i = [], 1
    for a in range(6):
        kind = (words[0] >> (20 + 2 * a)) & 3
        if kind == 1 and i < len(words):
            args.append(words[i])
            i += 1
        elif kind == 2 and i + 1 < len(words):
            args.append(words[i] | words[i + 1] << 32)
            i += 2
    return op, args


def hc_kind(op, args):
    """(name with its sub-op where Xen records one, ops)."""
    name = HYPERCALLS.get(op, f"hc{op}")
    ops = 0
    if op in COUNT_ARG and len(args) > COUNT_ARG[op]:
        ops = args[COUNT_ARG[op]] & ~COUNT_PREEMPTED & 0xffffffff
    if op in SUBOPS and args:
        cmd = args[0] & 0xffffffff
        cont = op == HC_GRANT_TABLE_OP and cmd > GNTTAB_CMD_MASK
        if op == HC_GRANT_TABLE_OP:
            cmd &= GNTTAB_CMD_MASK
        subs = SUBOPS[op]
        name += "." + (subs[cmd] if cmd < len(subs) else str(cmd)) + (".cont" if cont else "")
    return name, ops


def dom_class(domid):
    if domid == DOMID_IDLE:
        return "idle"
    return "dom0" if domid == 0 else "guest"


class Counts:
    """What one trace holds, counted."""

    def __init__(self):
        self.records = self.bytes = self.lost = 0
        self.truncated = False
        self.cpus = set()
        self.tsc_min = self.tsc_max = None
        self.hc = {}          # (domain class, kind) -> [calls, ops]
        self.switch = {}      # domain class -> vcpus switched in
        self.cur = {}         # pcpu -> domain running there, when known
        self.held = {}        # pcpu -> {kind: [calls, ops]} before it is known
        self.markers = []     # TSCs of the window markers
        self.win = None       # (first TSC, last TSC) counted; None: all

    def inside(self, tsc):
        return self.win is None or (tsc is not None and self.win[0] <= tsc <= self.win[1])

    def add_hc(self, dom, kind, ops):
        c = self.hc.setdefault((dom, kind), [0, 0])
        c[0] += 1
        c[1] += ops

    def hypercall(self, cpu, kind, ops):
        if cpu in self.cur:
            self.add_hc(dom_class(self.cur[cpu]), kind, ops)
            return
        c = self.held.setdefault(cpu, {}).setdefault(kind, [0, 0])
        c[0] += 1
        c[1] += ops

    def release(self, cpu, dom):
        """The held hypercalls of cpu go to dom class (or "unknown")."""
        for kind, (calls, ops) in self.held.pop(cpu, {}).items():
            c = self.hc.setdefault((dom, kind), [0, 0])
            c[0] += calls
            c[1] += ops

    def running(self, cpu, domid):
        """domid was running on cpu up to this record."""
        if cpu not in self.cur:
            self.release(cpu, dom_class(domid))
            self.cur[cpu] = domid

    def runs(self, cpu, domid):
        """domid runs on cpu from this record on."""
        self.cur[cpu] = domid

    def finish(self):
        for cpu in list(self.held):
            self.release(cpu, "unknown")
        return self


def record(c, cpu, event, words, tsc):
    """Count one record of pcpu cpu, stamped tsc (None if not): what
    runs where from every record, the rest inside the window only."""
    ev = event & ~TRC_64_FLAG
    if ev in (TRC_PV_HYPERCALL_V2, TRC_PV_HYPERCALL_SUBCALL) and words:
        op, args = hc_args(words)
        if not c.inside(tsc) or (op == HC_SCHED_OP and args and args[0] == MARKER_CMD):
            return
        kind, ops = hc_kind(op, args)
        c.hypercall(cpu, ("mc." if ev == TRC_PV_HYPERCALL_SUBCALL else "") + kind, ops)
    elif event == TRC_SCHED_SWITCH and len(words) >= 4:
        c.running(cpu, words[0])
        c.runs(cpu, words[2])
        if words[2] != DOMID_IDLE and c.inside(tsc):
            d = dom_class(words[2])
            c.switch[d] = c.switch.get(d, 0) + 1
    elif event & ~0x330 == TRC_SCHED_RUNSTATE_CHANGE and words:
        old, new, domid = (event >> 8) & 3, (event >> 4) & 3, words[0] >> 16
        if old == RUNSTATE_RUNNING and new != RUNSTATE_RUNNING:
            c.running(cpu, domid)
        elif new == RUNSTATE_RUNNING and old != RUNSTATE_RUNNING:
            c.runs(cpu, domid)
    elif event == TRC_SCHED_CONTINUE_RUNNING and words:
        c.running(cpu, words[0] >> 16)
    elif event in (TRC_SCHED_SWITCH_INFPREV, TRC_SCHED_SWITCH_INFCONT) and words:
        c.running(cpu, words[0])
    elif event == TRC_LOST_RECORDS and len(words) >= 2:
        # Lost from the first loss (its TSC in words 2-3) to this record.
        first = words[2] | words[3] << 32 if len(words) >= 4 else tsc
        if c.win is None or (tsc is not None and tsc >= c.win[0] and first <= c.win[1]):
            c.lost += words[0]
        # Whoever ran during the loss is unknown; the record names the
        # domain running when Xen could write again.
        c.release(cpu, "unknown")
        c.runs(cpu, words[1] & 0xffff)


# The events record() looks at; the others are only counted and skipped,
# and so are hypercalls outside the window.
HC_EVENTS = {TRC_PV_HYPERCALL_V2, TRC_PV_HYPERCALL_SUBCALL, TRC_PV_HYPERCALL_V2 | TRC_64_FLAG,
             TRC_PV_HYPERCALL_SUBCALL | TRC_64_FLAG}
WANTED = HC_EVENTS | {
    TRC_SCHED_SWITCH, TRC_SCHED_CONTINUE_RUNNING, TRC_SCHED_SWITCH_INFPREV,
    TRC_SCHED_SWITCH_INFCONT, TRC_LOST_RECORDS} | {
        TRC_SCHED_RUNSTATE_CHANGE | old << 8 | new << 4 for old in range(4) for new in range(4)}


def window(c, cpu, w, pos, end):
    """Count the records of one window, words w[pos:end]; False if the
    last record runs past the end."""
    tmin, tmax = c.tsc_min, c.tsc_max
    n_rec = 0
    while pos < end:
        hdr = w[pos]
        event, n, tsc = hdr & 0x0fffffff, (hdr >> 28) & 7, hdr >> 31
        size = 1 + 2 * tsc + n
        if pos + size > end:
            break
        t = None
        if tsc:
            t = w[pos + 1] | w[pos + 2] << 32
            if tmin is None or t < tmin:
                tmin = t
            if tmax is None or t > tmax:
                tmax = t
        n_rec += 1
        if event in WANTED and (event not in HC_EVENTS or c.inside(t)):
            record(c, cpu, event, list(w[pos + 1 + 2 * tsc:pos + size]), t)
        pos += size
    c.records += n_rec
    c.tsc_min, c.tsc_max = tmin, tmax
    return pos == end


def words_of(data):
    """The file as 32-bit little-endian words (a partial last word dropped)."""
    data = data[:len(data) // 4 * 4]
    if sys.byteorder == "little":
        return memoryview(data).cast("I")
    return struct.unpack(f"<{len(data) // 4}I", data)


def find_markers(data):
    """The TSCs of the window markers in a trace, in order: found by their
    bytes (a record starts at a multiple of 4, its header tells it)."""
    out, pos = [], data.find(MARKER_WORDS)
    while pos >= 0:
        h = pos - 12
        if h >= 0 and h % 4 == 0 and struct.unpack_from("<I", data, h)[0] == MARKER_HDR:
            out.append(struct.unpack_from("<Q", data, h + 4)[0])
        pos = data.find(MARKER_WORDS, pos + 1)
    return sorted(out)


def count(data):
    """Counts of a whole trace file's bytes (between its markers)."""
    c = Counts()
    c.bytes = len(data)
    c.markers = find_markers(data)
    if len(c.markers) >= 2:
        c.win = (c.markers[0], c.markers[-1])
    c.truncated = len(data) % 4 != 0
    w = words_of(data)
    pos, cpu_change = 0, TRC_TRACE_CPU_CHANGE | 2 << 28
    while pos < len(w):
        # A window: xentrace's record (cpu, size in bytes), then the records.
        if pos + 3 > len(w) or w[pos] != cpu_change or w[pos + 2] % 4:
            # The file ends here, or is not xentrace's, or is damaged.
            c.truncated = True
            break
        cpu, size = w[pos + 1], w[pos + 2] // 4
        c.cpus.add(cpu)
        pos += 3
        end = min(pos + size, len(w))
        if not window(c, cpu, w, pos, end) or end < pos + size:
            c.truncated = True
            break
        pos = end
    return c.finish()


def render(c):
    span = c.tsc_max - c.tsc_min if c.tsc_min is not None else 0
    out = [f"records {c.records} bytes {c.bytes} cpus {len(c.cpus)} truncated {int(c.truncated)}",
           f"markers {len(c.markers)} window_cycles {c.win[1] - c.win[0] if c.win else span}",
           f"lost {c.lost}", f"span_cycles {span}"]
    for (dom, kind), (calls, ops) in sorted(c.hc.items(), key=lambda x: (x[0][0], -x[1][0], x[0][1])):
        out.append(f"hc {dom} {kind} {calls} {ops}")
    out += [f"switch {d} {n}" for d, n in sorted(c.switch.items())]
    return "\n".join(out) + "\n"


def privcmd(devs=PRIVCMD_DEVS):
    """The privcmd device, open; None without one."""
    for dev in devs:
        try:
            return open(dev, "rb", buffering=0)
        except OSError:
            pass
    return None


def mark(f, ioctl=None):
    """Make the marker hypercall through privcmd f."""
    if ioctl is None:
        import fcntl
        ioctl = fcntl.ioctl
    try:
        ioctl(f.fileno(), PRIVCMD_HYPERCALL, struct.pack("<6Q", HC_SCHED_OP, MARKER_CMD, 0, 0, 0, 0))
    except OSError as e:
        if e.errno != errno.ENOSYS:  # Xen's answer, as it must be
            raise


# --- dom0's counters at the markers ---------------------------------------------------

def read_words(path):
    try:
        with open(path) as f:
            return f.read().split()
    except OSError:
        return []


def vif_queue(name):
    """A vif queue's irq name: vifD.K-qN, stock adding -tx or -rx."""
    head, q, rest = name.partition("-q")
    dom, dot, k = head[3:].partition(".")
    return name.startswith("vif") and q and dot and dom.isdigit() and k.isdigit() and rest[:1].isdigit()


def counters(bpids, kpids, root=""):
    """dom0's counters now: packets through the vif netdevs (both ways),
    /proc/stat's ctxt and intr, the vif queues' interrupts, the runs of
    the threads bpids and kpids (schedstat's third field), and the
    groups' passes and packets (ours' debugfs file, when there is one)."""
    net = root + "/sys/class/net"
    try:
        vifs = [d for d in os.listdir(net) if d.startswith("vif")]
    except OSError:
        vifs = []
    pkts = sum(int((read_words(f"{net}/{d}/statistics/{w}_packets") or [0])[0])
               for d in vifs for w in ("rx", "tx"))
    ctxt = intr = events = 0
    with open(root + "/proc/stat") as f:
        for line in f:
            if line.startswith("ctxt "):
                ctxt = int(line.split()[1])
            elif line.startswith("intr "):
                intr = int(line.split(None, 2)[1])
    with open(root + "/proc/interrupts") as f:
        for line in f:
            w = line.split()
            if len(w) > 2 and w[0].endswith(":") and vif_queue(w[-1]):
                for x in w[1:]:
                    if not x.isdigit():
                        break
                    events += int(x)
    runs = [sum(int((read_words(f"{root}/proc/{p}/schedstat") + [0, 0, 0])[2]) for p in pids)
            for pids in (bpids, kpids)]
    passes = gpkts = 0
    try:
        with open(root + GROUPS_DEBUGFS) as f:
            for line in f:
                w = line.split()
                if w[:1] == ["group"]:
                    for k, v in zip(w, w[1:]):
                        passes += int(v) if k == "passes" else 0
                        gpkts += int(v) if k == "packets" else 0
    except OSError:
        pass
    return [pkts, ctxt, intr, events] + runs + [passes, gpkts]


def snapshot(f, bpids, kpids, root=""):
    """A line of dom0's counters and a marker hypercall right after them
    (when f, the privcmd device, is not None), as close as one process can."""
    c = counters(bpids, kpids, root)
    t = time.time()
    if f is not None:
        mark(f)
    return f"{t:.6f} " + " ".join(str(x) for x in c)


def windows(inp, out, bpids, kpids, f, root="", sleep=time.sleep):
    """"ready" ("ready nomark" without f) on out; then for each line of inp
    (SECONDS) a snapshot, SECONDS of sleep, a snapshot."""
    out.write("ready\n" if f is not None else "ready nomark\n")
    out.flush()
    while True:
        line = inp.readline()
        if not line:
            return
        for i in (0, 1):
            out.write(snapshot(f, bpids, kpids, root) + "\n")
            out.flush()
            if i == 0:
                sleep(float(line))


def pid_list(arg):
    return [int(p) for p in arg.split(",") if p]


def main(argv):
    if argv[1:2] == ["--counters"] and len(argv) == 4:
        f = privcmd()
        windows(sys.stdin, sys.stdout, pid_list(argv[2]), pid_list(argv[3]), f)
        return 0
    if len(argv) != 2:
        sys.stderr.write("usage: xentrace_count.py TRACE | --counters BPIDS KPIDS\n")
        return 2
    with open(argv[1], "rb") as f:
        c = count(f.read())
    sys.stdout.write(render(c))
    if c.lost:
        sys.stderr.write(f"xentrace_count: {c.lost} records lost: every count is low\n")
    if c.truncated:
        sys.stderr.write("xentrace_count: the file ends inside a record or is not xentrace's\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
