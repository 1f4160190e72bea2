#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Aggregate the "XNB-METRIC bench ..." lines of `make bench` lab runs.

    aggregate.py --info INFO.env --out PREFIX SERIAL.log...

Writes PREFIX.md (pasteable table: median [min-max] per configuration,
ours/stock ratio), PREFIX.csv and PREFIX.png (gnuplot; skipped with a
note when gnuplot is missing).  Never judges a figure beyond reporting
whether a target is met: the exit status is non-zero only when there is
nothing to aggregate or an output cannot be written.
"""
import argparse
import math
import os
import re
import shutil
import statistics
import subprocess
import sys

METRIC = re.compile(r"XNB-METRIC bench (b=\S+ c=\S+ r=\S+ m=\S+.*?v=\S+)")
INFO = re.compile(r"XNB-METRIC bench-info (.*)")

# (metric, n, label, unit, better, scale).  better: "hi" or "lo" (None: info).
ROWS = []
for d, dl in (("tx", "guest->dom0"), ("rx", "dom0->guest")):
    for n in (1, 2, 4):
        ROWS.append((f"tcp_{d}_gbps", n, f"TCP {dl}, {n} guest{'s' if n > 1 else ''}", "Gbit/s", "hi", 1))
for d, dl in (("tx", "guest->dom0"), ("rx", "dom0->guest")):
    for n in (1, 2, 4):
        ROWS.append((f"cpu_s_per_gb_{d}", n, f"dom0 CPU per GB, TCP {dl}, {n} guest{'s' if n > 1 else ''}", "CPU-s/GB", "lo", 1))
ROWS += [
    ("udp64_tx_pps", None, "UDP 64 B guest->dom0, received by dom0", "kpps", "hi", 1e-3),
    ("cpu_s_per_gb_udp", None, "dom0 CPU per GB, UDP 64 B", "CPU-s/GB", "lo", 1),
    ("ops_per_batch_tx", 4, "grant-copy ops/hypercall, TCP guest->dom0, 4 guests", "ops", "hi", 1),
    ("ops_per_batch_rx", 4, "grant-copy ops/hypercall, TCP dom0->guest, 4 guests", "ops", "hi", 1),
    ("ops_per_batch_all", None, "grant-copy ops/hypercall, median of all TCP loads", "ops", "hi", 1),
    ("ops_per_batch_udp", None, "grant-copy ops/hypercall, UDP 64 B", "ops", "hi", 1),
    ("threads_1vif", None, "backend threads, 1 vif", "threads", "lo", 1),
    ("threads_guests", 4, "backend threads, 4 guests of 1 vif", "threads", "lo", 1),
    ("threads_guests", 2, "backend threads, 2 guests of 1 vif", "threads", "lo", 1),
    ("threads_16vif", None, "backend threads, 16 vifs", "threads", "lo", 1),
    ("mem_1vif_kib", None, "dom0 Slab+VmallocUsed growth, 1 vif", "MiB", "lo", 1 / 1024),
    ("mem_16vif_kib", None, "dom0 Slab+VmallocUsed growth, 16 vifs", "MiB", "lo", 1 / 1024),
    ("connect16_s", None, "time to hot-attach 15 vifs one by one (16 in all)", "s", "lo", 1),
    ("boot1_s", None, "guest boot until its vif answers ping", "s", "lo", 1),
    ("fair_alone_gbps", None, "fairness: g2 TCP dom0->g2 alone", "Gbit/s", "hi", 1),
    ("fair_flood_gbps", None, "fairness: g2 TCP while g1 is flooded", "Gbit/s", "hi", 1),
    ("fair_tput_ratio", None, "fairness: g2 throughput flooded/alone", "ratio", "hi", 1),
    ("fair_ping_alone_ms", None, "fairness: g2 ping RTT alone", "ms", "lo", 1),
    ("fair_ping_flood_ms", None, "fairness: g2 ping RTT while g1 is flooded", "ms", "lo", 1),
    ("fair_ping_ratio", None, "fairness: g2 ping RTT flooded/alone", "ratio", "lo", 1),
    ("veth_gbps", None, "ceiling: TCP over veth between 2 netns in dom0", "Gbit/s", None, 1),
]


def fnum(s):
    try:
        v = float(s)
    except ValueError:
        return None
    return None if math.isnan(v) or math.isinf(v) else v


def parse(paths):
    """{(backend, cfg, metric, n): {rep: [values]}}, info dict, errors."""
    data, info, errors = {}, {}, []
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
                what = kv.get("what", "?")
                if what == "cycle":
                    what = "cycle timed out (per-cycle budget)" if kv.get("rc") == "124" else \
                        f"cycle ended early (rc {kv.get('rc', '?')})"
                else:
                    what += " failed"
                errors.append(f"{kv.get('b')} {kv.get('c')} rep {kv.get('r')}: {what}")
                continue
            v = fnum(kv.get("v", ""))
            if v is None:
                continue
            n = int(kv["n"]) if kv.get("n", "").isdigit() else None
            key = (kv["b"], kv["c"], kv["m"], n)
            data.setdefault(key, {}).setdefault(kv["r"], []).append(v)
    return data, info, errors


def samples(data, b, c, m, n):
    """One value per repetition (the median of that rep's values)."""
    if m == "ops_per_batch_all":
        vals = []
        for (kb, kc, km, _), reps in data.items():
            if kb == b and kc == c and km in ("ops_per_batch_tx", "ops_per_batch_rx"):
                vals += [x for r in reps.values() for x in r]
        return vals
    if c == "*":  # per-boot figure (veth): whatever config carried it
        reps = {}
        for (kb, kc, km, kn), r in data.items():
            if kb == b and km == m and kn == n:
                for rep, v in r.items():
                    reps.setdefault(rep, []).extend(v)
    else:
        reps = data.get((b, c, m, n), {})
    return [statistics.median(v) for v in reps.values() if v]


def stat(vals):
    if not vals:
        return None
    return statistics.median(vals), min(vals), max(vals), len(vals)


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--info", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("logs", nargs="+")
    a = ap.parse_args()

    host = {}
    for line in open(a.info):
        k, _, v = line.rstrip("\n").partition("=")
        if k:
            host[k] = v
    data, info, errors = parse(a.logs)
    if not data:
        print("bench: no XNB-METRIC bench lines in " + " ".join(a.logs), file=sys.stderr)
        return 1
    ncpu = info.get("dom0_vcpus", "2")
    ours = [f"g1-kthread", f"g1-tasklet", f"g{ncpu}-kthread", f"g{ncpu}-tasklet"]
    cols = [("ours", c) for c in ours] + [("stock", "stock")]
    default = ("ours", f"g{ncpu}-kthread")
    quick = host.get("QUICK", "0") == "1"

    table = []  # (row, {col: stat}, {col: ratio})
    for m, n, label, unit, better, scale in ROWS:
        cells, ratios = {}, {}
        for b, c in cols:
            cc = "*" if m.startswith("veth") else c
            s = stat([v * scale for v in samples(data, b, cc, m, n)])
            cells[(b, c)] = s
        st = cells[("stock", "stock")]
        for col in cols[:-1]:
            s = cells[col]
            if s and st and st[0]:
                ratios[col] = s[0] / st[0]
        table.append(((m, n, label, unit, better), cells, ratios))
    # Configurations and rows this run did not measure (QUICK runs two of
    # ours and two guests) would only add empty cells: leave them out.
    measured = [col for col in cols[:-1]
                if any(cells[col] for (m, *_), cells, _r in table if not m.startswith("veth"))]
    cols = measured + cols[-1:]
    if default not in cols and measured:
        default = measured[0]
    table = [t for t in table if any(t[1][col] for col in cols)]

    # --- CSV ---
    with open(a.out + ".csv", "w") as f:
        f.write("metric,guests,label,unit,better,backend,config,reps,median,min,max,ratio_vs_stock\n")
        for (m, n, label, unit, better), cells, ratios in table:
            for col in cols:
                s = cells[col]
                if not s:
                    continue
                r = ratios.get(col)
                f.write(f"{m},{n or ''},\"{label}\",{unit},{better or ''},{col[0]},{col[1]},{s[3]},"
                        f"{s[0]:.6g},{s[1]:.6g},{s[2]:.6g},{'' if r is None else f'{r:.4f}'}\n")

    # --- targets (reported, never asserted) ---
    def cell(m, n, col):
        for (rm, rn, *_), cells, ratios in table:
            if rm == m and rn == n:
                return cells[col], ratios.get(col)
        return None, None

    def yn(ok):
        return "n/a" if ok is None else ("yes" if ok else "**no**")

    targets = []
    worse = []
    for (m, n, label, unit, better), cells, ratios in table:
        r = ratios.get(default)
        if better and r is not None and (r < 1 if better == "hi" else r > 1):
            worse.append(label)
    have_ratio = any(t[2].get(default) is not None for t in table)
    targets.append(("ours >= stock on every row (default config)",
                    yn(not worse if have_ratio else None),
                    ("worse on: " + "; ".join(worse)) if worse else ""))
    rs = [cell(f"tcp_{d}_gbps", n, default)[1] for d in ("tx", "rx") for n in (2, 4)]
    rs = [r for r in rs if r is not None]
    targets.append((">= 1.2x stock TCP throughput with >= 2 guests",
                    yn(all(r >= 1.2 for r in rs) if rs else None),
                    ", ".join(f"{r:.2f}x" for r in rs)))
    rs = [cell(f"cpu_s_per_gb_{d}", n, default)[1] for d in ("tx", "rx") for n in (1, 2, 4)]
    rs = [r for r in rs if r is not None]
    targets.append(("dom0 CPU/GB <= 0.75x stock", yn(all(r <= 0.75 for r in rs) if rs else None),
                    ", ".join(f"{r:.2f}x" for r in rs)))
    for col in cols[:-1]:
        s, _ = cell("ops_per_batch_all", None, col)
        targets.append((f"median grant-copy ops/hypercall >= 32 under load ({col[1]})",
                        yn(s[0] >= 32 if s else None), fmt(s[0]) if s else ""))
    for col in cols[:-1]:
        g = int(re.match(r"g(\d+)", col[1]).group(1))
        want = 0 if col[1].endswith("tasklet") else g
        got = [cell(m, n, col)[0] for m, n in (("threads_1vif", None), ("threads_guests", 2),
                                               ("threads_guests", 4), ("threads_16vif", None))]
        got = [x[0] for x in got if x]
        targets.append((f"threads = groups ({col[1]}: want {want} kthreads)",
                        yn(all(x == want for x in got) if got else None),
                        ", ".join(fmt(x) for x in got)))

    # --- Markdown ---
    L = []
    title = "QUICK smoke run: 1 repetition, short runs, noisy" if quick else "full run"
    L.append(f"# xen-netback bench, {host.get('DATE', '?')} ({title})")
    L.append("")
    L.append(f"Ours (`{host.get('COMMIT', '?')}`) against Debian's stock `xen-netback.ko`, "
             f"in the QEMU TCG lab (`make bench{' QUICK=1' if quick else ''}`).  "
             "Cells: median [min-max] over the repetitions; ×R = ours/stock of the medians "
             "(↑ higher is better, ↓ lower is better).")
    if quick:
        L.append("")
        L.append(f"**QUICK**: one repetition of {info.get('t', '?')} s iperf runs on TCG guests; "
                 "the figures show the harness works, not how fast anything is.")
    L.append("")
    hdr = ["", "unit"] + [f"ours {c}" for _, c in cols[:-1]] + ["stock"]
    L.append("| " + " | ".join(hdr) + " |")
    L.append("|" + "---|" * len(hdr))
    for (m, n, label, unit, better), cells, ratios in table:
        arrow = {"hi": " ↑", "lo": " ↓"}.get(better, "")
        row = [label + arrow, unit]
        for col in cols:
            s = cells[col]
            if not s:
                row.append("-")
                continue
            t = fmt(s[0])
            if s[3] > 1:
                t += f" [{fmt(s[1])}-{fmt(s[2])}]"
            if col in ratios and better:
                t += f" ×{ratios[col]:.2f}"
            row.append(t)
        L.append("| " + " | ".join(row) + " |")
    L.append("")
    L.append(f"Targets (reported, not asserted; default config = ours {default[1]}, "
             "groups = dom0 vcpus, kthread):")
    L.append("")
    L.append("| target | met | figures |")
    L.append("|---|---|---|")
    for t, ok, fig in targets:
        L.append(f"| {t} | {ok} | {fig} |")
    L.append("")
    L.append("Machine and lab:")
    L.append("")
    L.append(f"- host: {host.get('NPROC', '?')} CPUs, {host.get('CPU', '?')}, Linux {host.get('HOST_KERNEL', '?')}, "
             f"{host.get('QEMU', '?')} (TCG)")
    L.append(f"- host load (1-min loadavg) at the start of the ours/stock boots: "
             f"{host.get('LOAD_ours', '?')} / {host.get('LOAD_stock', '?')}; other QEMU processes running: "
             f"{host.get('OTHERQEMU_ours', '?')} / {host.get('OTHERQEMU_stock', '?')}")
    L.append(f"- Xen {info.get('xen', '?')}, dom0 Linux {info.get('dom0_kernel', '?')}, "
             f"{info.get('dom0_vcpus', '?')} vcpus, {int(info.get('dom0_mem_kib', '0')) // 1024} MiB; "
             f"guests: 1 vcpu, {info.get('guest_mem', '?')} MiB, 1 queue per vif")
    L.append(f"- {info.get('reps', '?')} repetition(s), iperf3 {info.get('t', '?')} s per run; "
             
             f"1/16-vif phase: {'first configuration of each boot only' if info.get('vifs', 'first' if quick else 'all') == 'first' else 'every cycle'}; "
             f"lab runs: ours {host.get('RC_ours', '?')}, stock {host.get('RC_stock', '?')} "
             f"({host.get('SECS_ours', '?')} s + {host.get('SECS_stock', '?')} s)")
    L.append("- method: scenario `tests/lab/scenarios/bench-full.sh`; TCP with all guests at once, "
             "dom0 is the iperf3 client (`-R` for guest->dom0); CPU per GB = Domain-0 CPU time "
             "(`xl list`) over bytes through the vif netdevs; ops/hypercall from the debugfs group "
             "counters; memory = growth of Slab+VmallocUsed over the backend not loaded; "
             "fairness pins both guests to group 0 (ours); all guests are up during every TCP run; vifs are plugged by a minimal hotplug "
             "script (bridge port only), not vif-bridge")
    if errors:
        L.append("")
        L.append("Steps that failed (their figures are missing):")
        L.append("")
        for e in sorted(set(errors)):
            L.append(f"- {e}")
    png = os.path.basename(a.out) + ".png"
    L.append("")
    L.append(f"![throughput and dom0 CPU per GB against guests]({png})")
    md = "\n".join(L) + "\n"

    # --- plot ---
    os.makedirs(a.workdir, exist_ok=True)
    plotted = False
    if shutil.which("gnuplot"):
        series = []
        for col in cols:
            fn = os.path.join(a.workdir, f"plot-{col[1]}.dat")
            with open(fn, "w") as f:
                f.write("# guests tx txmin txmax rx rxmin rxmax cputx min max cpurx min max\n")
                for n in (1, 2, 4):
                    vals = []
                    for m in ("tcp_tx_gbps", "tcp_rx_gbps", "cpu_s_per_gb_tx", "cpu_s_per_gb_rx"):
                        s = stat(samples(data, col[0], col[1], m, n))
                        vals += list(s[:3]) if s else ["NaN"] * 3
                    f.write(f"{n} " + " ".join(str(v) for v in vals) + "\n")
            style = "lw 3 lc rgb 'black' dt 2" if col[0] == "stock" else "lw 2"
            series.append((fn, ("ours " if col[0] == "ours" else "") + col[1], style))

        def plot(colno, title, ylabel):
            return (f"set title '{title}'; set ylabel '{ylabel}'; plot " + ", ".join(
                f"'{fn}' using 1:{colno}:{colno + 1}:{colno + 2} with yerrorlines {st} title '{t}'"
                for fn, t, st in series) + "\n")
        gp = (f"set terminal pngcairo size 1200,900 font ',10'\nset output '{a.out}.png'\n"
              f"set multiplot layout 2,2 title 'xen-netback bench {host.get('DATE', '')}"
              f"{' (QUICK, noisy)' if quick else ''}'\n"
              "set xlabel 'guests'; set xtics (1,2,4); set xrange [0.5:4.5]; set yrange [0:*]; "
              "set key top left opaque; set grid\n"
              + plot(2, "TCP guest->dom0, aggregate", "Gbit/s")
              + plot(5, "TCP dom0->guest, aggregate", "Gbit/s")
              + plot(8, "dom0 CPU per GB, guest->dom0", "CPU-s/GB")
              + plot(11, "dom0 CPU per GB, dom0->guest", "CPU-s/GB")
              + "unset multiplot\n")
        gpf = os.path.join(a.workdir, "plot.gp")
        open(gpf, "w").write(gp)
        r = subprocess.run(["gnuplot", gpf], capture_output=True, text=True)
        plotted = r.returncode == 0 and os.path.exists(a.out + ".png")
        if not plotted:
            print("bench: gnuplot failed: " + r.stderr[-500:], file=sys.stderr)
    if not plotted:
        md = md.replace(f"![throughput and dom0 CPU per GB against guests]({png})",
                        "(no plot: gnuplot missing or failed)")
    open(a.out + ".md", "w").write(md)
    sys.stdout.write(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
