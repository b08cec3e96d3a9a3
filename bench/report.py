#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the raw output of one `make bench` run into a table, data and plots.

usage: report.py RESULTS_DIR OUT_DIR COMMAND

RESULTS_DIR is run-guests.sh's --out (a/results, b/results, see
bench/guest.sh). Writes OUT_DIR/runs.csv (one row per test run),
OUT_DIR/summary.json (medians, min, max, ratios), OUT_DIR/report.md and,
where gnuplot is installed, OUT_DIR/throughput.png, scaling.png, core.png.
"""
import csv
import json
import os
import re
import statistics
import subprocess
import sys

TESTS = {
    "tcp1": ("TCP 1 stream", "Mbit/s"),
    "tcp4": ("TCP 4 streams", "Mbit/s"),
    "udp1400": ("UDP 1400 B", "kpps"),
    "udp64": ("UDP 64 B", "kpps"),
    "lat_idle": ("RTT idle p50/p99", "ms"),
    "lat_load": ("RTT under TCP p50/p99", "ms"),
    "tx1400": ("one-sided tx 1400 B", "wire Mbit/s"),
    "rx1400": ("one-sided rx 1400 B", "Mbit/s delivered"),
}


def read(path):
    with open(path) as f:
        return f.read()


def iperf(path, test):
    """Mbit/s (TCP) or received kpps (UDP) of one iperf3 -J report."""
    rep = json.loads(read(path))
    end = rep.get("end", {})
    secs = end.get("sum", end.get("sum_received", {})).get("seconds") or 0
    if test.startswith("tcp") or test == "lat_load":
        return end["sum_received"]["bits_per_second"] / 1e6
    s = end["sum"]
    got = s["packets"] - s["lost_packets"]
    return got / s["seconds"] / 1e3 if s["seconds"] else 0.0


def one_sided(path):
    """Wire Mbit/s and kpps at the sender's eth0 of one one-sided test
    (bench/guest.sh, tx_test): its counters over udpload's own time; and
    each CPU's busy time per wire packet, in microseconds (/proc/stat
    jiffies, USER_HZ 100)."""
    text = read(path)
    f = dict(re.findall(r"(\w+) ([0-9.]+)", text))
    secs, packets = float(f["seconds"]), int(f["wire_packets"])
    us = {m[1]: int(m[2]) / 100 * 1e6 / packets if packets else float("nan")
          for m in re.finditer(r"^(cpu\d+) (\d+) (\d+)$", text, re.M)}
    return int(f["wire_bytes"]) * 8 / secs / 1e6, packets / secs / 1e3, us


def playback(path_b, path_a, size=1400):
    """The one-sided receive test (bench/guest.sh, rx_play and rx_receive):
    delivered Mbit/s (UDP payload) and kpps over the checker's first to last
    datagram, what b offered (kpps over its playback), datagrams lost,
    reordered, the checker's verdict, and a's busy CPUs over the span and
    busy time per delivered datagram in microseconds (all CPUs)."""
    b, a = read(path_b), read(path_a)
    fb, fa = dict(re.findall(r"(\w+) ([0-9.]+)", b)), dict(re.findall(r"(\w+) ([0-9.]+)", a))
    got, span = int(fa["received"]), float(fa["first_to_last_seconds"])
    played, play_s = int(fb["played"]), float(fb["seconds"])
    busy = sum(int(m[1]) for m in re.finditer(r"^cpu\d+ (\d+) (\d+)$", a, re.M)) / 100
    return dict(value=round(got * size * 8 / span / 1e6, 2), kpps=round(got / span / 1e3, 2),
                offered_kpps=round(played / play_s / 1e3, 2), lost=max(played - got, 0),
                reordered=int(fa["reordered"]), verdict=int(fa["verdict"]),
                cpus_a=round(busy / span, 2), us_total=round(busy * 1e6 / got, 2))


def bulk_mbit(path):
    """The bulk TCP flow's Mbit/s beside lat_load's ping; NaN without it,
    which leaves the ping's figures standing."""
    try:
        return round(iperf(path, "lat_load"), 1)
    except (OSError, KeyError, ValueError):
        return float("nan")


def rtts(path):
    return sorted(float(m) for m in re.findall(r"time=([0-9.]+) ms", read(path)))


def pct(values, p):
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def cpu_use(path):
    """{(mode, test, rep): (busy fraction, IPIs, context switches)} from one
    guest's cpu file (bench/guest.sh, cpu_now before and after)."""
    use = {}
    if not os.path.exists(path):
        return use
    for line in read(path).split("\n"):
        f = line.split()
        if len(f) != 11:
            continue
        b0, t0, i0, c0, b1, t1, i1, c1 = map(float, f[3:])
        use[(f[0], f[1], f[2])] = ((b1 - b0) / (t1 - t0) if t1 > t0 else 0.0, i1 - i0, c1 - c0)
    return use


def received_mb(path):
    """MB the receiver got in one iperf3 -J report."""
    return json.loads(read(path))["end"]["sum_received"]["bytes"] / 1e6


def collect(res):
    a, b = os.path.join(res, "a", "results"), os.path.join(res, "b", "results")
    cpu_a, cpu_b = cpu_use(os.path.join(a, "cpu.a")), cpu_use(os.path.join(b, "cpu.b"))
    rows = []
    for key in sorted(cpu_b):
        mode, test, rep = key
        base = os.path.join(b, f"{mode}.{test}.{rep}")
        nan3 = (float("nan"),) * 3
        use_a, use_b = cpu_a.get(key, nan3), cpu_b[key]
        row = {"mode": mode, "test": test, "rep": int(rep),
               "kpps": float("nan"), "us_cpu0": float("nan"), "us_total": float("nan"),
               "cpu_a": round(use_a[0], 3), "cpu_b": round(use_b[0], 3),
               "ipi_per_mb_a": float("nan"), "ipi_per_mb_b": float("nan"),
               "ctxt_per_mb_a": float("nan"), "ctxt_per_mb_b": float("nan")}
        try:
            if test.startswith("lat"):
                r = rtts(base + ".ping")
                row.update(value=pct(r, 50), p99=pct(r, 99), samples=len(r))
                if test == "lat_load":
                    row.update(bulk_mbit=bulk_mbit(base + ".json"))
            elif test.startswith("rx"):
                row.update(playback(base + ".rx", os.path.join(a, f"{mode}.{test}.{rep}.rx")))
            elif test.startswith("tx"):
                mbit, kpps, us = one_sided(base + ".tx")
                row.update(value=round(mbit, 2), kpps=round(kpps, 2),
                           us_cpu0=round(us.get("cpu0", float("nan")), 2),
                           us_total=round(sum(us.values()), 2) if us else float("nan"))
            else:
                row.update(value=iperf(base + ".json", test))
            if test.startswith("tcp"):
                mb = received_mb(base + ".json")
                row.update(ipi_per_mb_a=round(use_a[1] / mb, 2), ipi_per_mb_b=round(use_b[1] / mb, 2),
                           ctxt_per_mb_a=round(use_a[2] / mb, 2), ctxt_per_mb_b=round(use_b[2] / mb, 2))
        except (OSError, KeyError, ValueError, ZeroDivisionError):
            row.update(value=float("nan"))
        rows.append(row)
    return rows


# Per row and, as medians, per cell: busy shares and wake-ups per MB.
WAKE_KEYS = ("cpu_a", "cpu_b", "ipi_per_mb_a", "ipi_per_mb_b", "ctxt_per_mb_a", "ctxt_per_mb_b")


def summarise(rows):
    cells = {}
    for r in rows:
        cells.setdefault((r["mode"], r["test"]), []).append(r)
    out = {}
    for (mode, test), rs in cells.items():
        v = [r["value"] for r in rs if r["value"] == r["value"]]
        cell = {"median": statistics.median(v) if v else float("nan"),
                "min": min(v) if v else float("nan"), "max": max(v) if v else float("nan"),
                "n": len(v),
                **{k: statistics.median(r[k] for r in rs) for k in WAKE_KEYS}}
        if test.startswith("lat"):
            cell["p99"] = statistics.median(r["p99"] for r in rs)
        if test == "lat_load":
            cell["bulk_mbit"] = statistics.median(r.get("bulk_mbit", float("nan")) for r in rs)
        if test.startswith("tx"):
            for k in ("kpps", "us_cpu0", "us_total"):
                cell[k] = statistics.median(r[k] for r in rs)
        if test.startswith("rx"):
            for k in ("kpps", "offered_kpps", "cpus_a", "us_total"):
                cell[k] = statistics.median(r.get(k, float("nan")) for r in rs)
            cell["lost"] = sum(r.get("lost", 0) for r in rs)
            cell["reordered"] = sum(r.get("reordered", 0) for r in rs)
            cell["verdicts_failed"] = sum(r.get("verdict", 1) != 0 for r in rs)
        out.setdefault(mode, {})[test] = cell
    return out


def ratio(summary, mode, other, test):
    try:
        x, y = summary[mode][test]["median"], summary[other][test]["median"]
        return x / y if y else float("nan")
    except KeyError:
        return float("nan")


def padtun_aead(mode):
    """The transform in a padtun mode's name, padtun-AEAD[-1cpu|-flow|-flowN]
    (bench/guest.sh), or None for another mode."""
    m = re.match(r"padtun-(.+?)(-1cpu|-flow\d*)?$", mode)
    return m[1] if m else None


def fmt(x, d=1):
    return "-" if x != x else f"{x:.{d}f}"


def info(res):
    lines = read(os.path.join(res, "b", "results", "info")).split("\n")
    kv = {}
    for line in lines:
        if line:
            k, _, v = line.partition(" ")
            kv.setdefault(k, []).append(v)
    return kv


def core(res):
    """One row per run of bench/padata_bench.c (rep, engine, work, CPUs)."""
    rows = []
    path = os.path.join(res, "a", "results", "core.txt")
    if os.path.exists(path):
        for m in re.finditer(r"rep=(\d+) engine=(\S+) work_us=(\d+) cpus=(\d+) objects=(\d+) ns=(\d+) "
                             r"objs_per_s=(\d+) misordered=(\d+)", read(path)):
            rows.append(dict(rep=int(m[1]), engine=m[2], work_us=int(m[3]), cpus=int(m[4]),
                             objs_per_s=int(m[7]), misordered=int(m[8])))
    return rows


def core_summary(rows):
    """Median, min, max objects/s and misordered objects per (engine, work, CPUs)."""
    runs = {}
    for r in rows:
        runs.setdefault((r["engine"], r["work_us"], r["cpus"]), []).append(r)
    return {k: dict(median=statistics.median(r["objs_per_s"] for r in v),
                    min=min(r["objs_per_s"] for r in v), max=max(r["objs_per_s"] for r in v),
                    misordered=sum(r["misordered"] for r in v), runs=len(v))
            for k, v in runs.items()}


def memory(res):
    out = {}
    for role in "ab":
        d = os.path.join(res, role, "results")
        try:
            before = dict(l.split(":") for l in read(os.path.join(d, f"memory.{role}.before")).split("\n") if l)
            after = dict(l.split(":") for l in read(os.path.join(d, f"memory.{role}.after")).split("\n") if l)
            slab = int(after["Slab"].split()[0]) - int(before["Slab"].split()[0])
            link = [read(os.path.join(d, f"memory.{role}.link.{w}")) for w in ("before", "after")]
            # ip -s link: the line after "RX:" / "TX:" holds bytes, packets.
            def pkts(text, which):
                ls = text.split("\n")
                i = next(i for i, l in enumerate(ls) if l.strip().startswith(which))
                return int(ls[i + 1].split()[1])
            packets = (pkts(link[1], "TX:") - pkts(link[0], "TX:")) + \
                      (pkts(link[1], "RX:") - pkts(link[0], "RX:"))
            ours = 0
            hits = 0
            for m in re.finditer(r"call_site: \[[0-9a-f]+\] (\S+).*?hitcount:\s*(\d+)\s+bytes_alloc:\s*(\d+)",
                                 read(os.path.join(d, f"memory.{role}.hist"))):
                if re.match(r"(padtun|padata|padnet)_", m[1]):
                    hits += int(m[2])
                    ours += int(m[3])
            out[role] = dict(slab_kib=slab, packets=packets, our_allocs=hits, our_bytes=ours,
                             bytes_per_packet=ours / packets if packets else float("nan"))
        except (OSError, KeyError, StopIteration, ValueError, IndexError):
            continue
    return out


def plots(out_dir, summary, modes, core_rows):
    def gp(script):
        subprocess.run(["gnuplot"], input=script, text=True, check=True)

    dat = os.path.join(out_dir, "throughput.dat")
    with open(dat, "w") as f:
        for m in modes:
            c = summary[m].get("tcp1", {})
            f.write(f'"{m}" {c.get("median", 0)} {c.get("min", 0)} {c.get("max", 0)}\n')
    gp(f"""set terminal pngcairo size 1100,500 font ",9"
set output "{out_dir}/throughput.png"
set title "iperf3 TCP, one stream: median, min-max (Mbit/s)"
set style data histogram; set style fill solid 0.6; set boxwidth 0.7
set xtics rotate by -35; set grid ytics; unset key
plot "{dat}" using 2:xtic(1) with boxes, "" using 0:2:3:4 with yerrorbars lc "black"
""")
    scal = os.path.join(out_dir, "scaling.dat")
    with open(scal, "w") as f:
        for m in ("padtun-chacha20poly1305-1cpu", "padtun-chacha20poly1305"):
            if m in summary:
                f.write(f'"{m}" ' + " ".join(str(summary[m].get(t, {}).get("median", 0))
                                             for t in ("tcp1", "tcp4")) + "\n")
    gp(f"""set terminal pngcairo size 700,450 font ",9"
set output "{out_dir}/scaling.png"
set title "padtun chacha20poly1305: one CPU vs every CPU (Mbit/s)"
set style data histogram; set style histogram cluster; set style fill solid 0.6
set grid ytics; set key top left
plot "{scal}" using 2:xtic(1) title "TCP 1 stream", "" using 3 title "TCP 4 streams"
""")
    if core_rows:
        cd = os.path.join(out_dir, "core.dat")
        with open(cd, "w") as f:
            for (e, us, n), c in sorted(core_summary(core_rows).items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][0])):
                f.write(f'"{e} {us}us {n}cpu" {c["median"]} {c["min"]} {c["max"]}\n')
        gp(f"""set terminal pngcairo size 1000,450 font ",9"
set output "{out_dir}/core.png"
set title "padata core alone: objects per second, median, min-max"
set style data histogram; set style fill solid 0.6; set logscale y
set xtics rotate by -35; set grid ytics; unset key
plot "{cd}" using 2:xtic(1) with boxes, "" using 0:2:3:4 with yerrorbars lc "black"
""")


def one_sided_ratios(summary, m, test):
    """x 1 CPU, x ESP+pcrypt and x ESP of one one-sided row: padtun on every
    CPU over padtun with `cpus 0`, over ESP with the same AEAD, with and
    without pcrypt; for ESP+pcrypt, x 1 CPU is over ESP (pcrypt's speed-up)."""
    one = esp = pcr = float("nan")
    aead = padtun_aead(m)
    if aead and not m.endswith("-1cpu"):
        one = ratio(summary, m, f"padtun-{aead}-1cpu", test)
    if aead and aead != "none":
        esp = ratio(summary, m, f"esp-{aead}", test)
        pcr = ratio(summary, m, f"esp-pcrypt-{aead}", test)
    if m.startswith("esp-pcrypt-"):
        one = ratio(summary, m, "esp-" + m[len("esp-pcrypt-"):], test)
    return one, pcr, esp


def receive_table(summary, modes):
    """The one-sided receive test: the receiver alone, a playback its load."""
    md = ["One-sided receive (`rx1400`): guest b records what its mode sends for the test's time "
          "(seqcheck's numbered 1400-byte datagrams; guest a discarding them at its underlay), then "
          "plays the recording back to a at full speed with a packet socket; a decrypts and delivers "
          "it to seqcheck. Delivered Mbit/s (UDP payload) and kpps over seqcheck's first to last "
          "datagram, median (min-max); offered: b's playback rate; lost: offered but not delivered, "
          "all repetitions; reordered: seqcheck's count, all repetitions (verdicts that failed in "
          "brackets); CPUs a: a's busy CPUs over the span; x 1 CPU, x ESP+pcrypt, x ESP as for "
          "transmit. WireGuard plays back within its session too.", "",
          "| mode | Mbit/s | kpps | offered kpps | lost | reordered | CPUs a | x 1 CPU | "
          "x ESP+pcrypt | x ESP |",
          "|---|---|---|---|---|---|---|---|---|---|"]
    for m in modes:
        c = summary[m].get("rx1400")
        if not c:
            continue
        one, pcr, esp = one_sided_ratios(summary, m, "rx1400")
        failed = f" ({c['verdicts_failed']})" if c["verdicts_failed"] else ""
        md.append(f"| {m} | {fmt(c['median'])} ({fmt(c['min'])}-{fmt(c['max'])}) | {fmt(c['kpps'])} | "
                  f"{fmt(c['offered_kpps'])} | {c['lost']} | {c['reordered']}{failed} | "
                  f"{fmt(c['cpus_a'], 2)} | {fmt(one, 2)} | {fmt(pcr, 2)} | {fmt(esp, 2)} |")
    md.append("")
    return md


def one_sided_table(summary, modes, vcpus, host_cores, dmodes):
    """The one-sided transmit test: the sender alone, the peer discarding."""
    md = ["One-sided transmit (`tx1400`): guest b sends 1400-byte UDP datagrams into the mode "
          "(`udpload`, sendmmsg batches of 64) for the test's time, guest a discards every UDP "
          "datagram and ESP packet at its underlay's ingress. Wire Mbit/s and kpps at b's eth0, "
          "median (min-max); CPU b: b's busy share; x 1 CPU: padtun on every CPU over padtun with "
          "`cpus 0` (the load still has the other CPU); x ESP+pcrypt and x ESP: the same AEAD. "
          "plain: what the load alone reaches.", "",
          "| mode | wire Mbit/s | kpps | CPU b | x 1 CPU | x ESP+pcrypt | x ESP |",
          "|---|---|---|---|---|---|---|"]
    for m in modes:
        c = summary[m].get("tx1400")
        if not c:
            continue
        one, pcr, esp = one_sided_ratios(summary, m, "tx1400")
        md.append(f"| {m} | {fmt(c['median'])} ({fmt(c['min'])}-{fmt(c['max'])}) | {fmt(c['kpps'])} | "
                  f"{fmt(100 * c['cpu_b'], 0)}% | {fmt(one, 2)} | {fmt(pcr, 2)} | {fmt(esp, 2)} |")
    md.append("")
    md.append("x 1 CPU of an ESP+pcrypt row: over ESP with the same AEAD (pcrypt's speed-up).")
    md.append("")
    md.extend(scaling_model(summary, vcpus, host_cores, dmodes))
    return md


def domain_modes(summary, kv):
    """{domains: mode} of the padtun rows that differ by ordering domains
    alone (guest b's info: "domains MODE N", as ip showed the link)."""
    out = {}
    for line in kv.get("domains", []):
        mode, _, n = line.partition(" ")
        if n.strip().isdigit() and mode in summary:
            out[int(n)] = mode
    return out


def cell_of(summary, mode, test, key="median"):
    return summary.get(mode, {}).get(test, {}).get(key, float("nan"))


def domains_table(summary, dmodes):
    """order link against order flow with 2 and 4 domains, and WireGuard:
    the small flow's latency beside bulk TCP, TCP 4 streams, the one-sided
    tests."""
    one = dmodes.get(1)
    md = ["Ordering domains: padtun with order link (1 domain) and order flow (the inner flow's "
          "hash picks one of N domains, each its own order). `lat_load`: ping every 20 ms beside "
          "one bulk TCP flow through the same mode, p50 / p99 of its RTT (medians over the "
          "repetitions of each one's percentiles), and the bulk flow's Mbit/s; the one-sided "
          "tests send 8 flows. x 1 domain: over the order link row; p99 x WG: over WireGuard's.",
          "",
          "| mode | domains | lat_load p50 / p99 (ms) | p99 x 1 domain | p99 x WG | bulk TCP (Mbit/s) | "
          "TCP 4 streams (Mbit/s) | x 1 domain | tx1400 (wire Mbit/s) | x 1 domain | "
          "rx1400 (Mbit/s) | x 1 domain |",
          "|---" * 12 + "|"]
    rows = [(n, dmodes[n]) for n in sorted(dmodes)]
    if "wireguard" in summary:
        rows.append(("-", "wireguard"))
    for n, m in rows:
        p99 = cell_of(summary, m, "lat_load", "p99")

        def x1(test, key="median"):
            if not one or m == one or n == "-":
                return float("nan")
            base = cell_of(summary, one, test, key)
            return cell_of(summary, m, test, key) / base if base else float("nan")
        wg = cell_of(summary, "wireguard", "lat_load", "p99")
        md.append(f"| {m} | {n} | {fmt(cell_of(summary, m, 'lat_load'), 2)} / {fmt(p99, 2)} | "
                  f"{fmt(x1('lat_load', 'p99'), 2)} | "
                  f"{fmt(p99 / wg if wg and m != 'wireguard' else float('nan'), 2)} | "
                  f"{fmt(cell_of(summary, m, 'lat_load', 'bulk_mbit'))} | "
                  f"{fmt(cell_of(summary, m, 'tcp4'))} | {fmt(x1('tcp4'), 2)} | "
                  f"{fmt(cell_of(summary, m, 'tx1400'))} | {fmt(x1('tx1400'), 2)} | "
                  f"{fmt(cell_of(summary, m, 'rx1400'))} | {fmt(x1('rx1400'), 2)} |")
    md.append("")
    return md


def goals(summary, dmodes):
    """Issue 29's goals for ordering per flow, from this run's medians: a
    list of (goal, figures, verdict), the verdict "holds", "no", or "-"
    where the run lacks a row."""
    one, two = dmodes.get(1), dmodes.get(2)
    most = max(dmodes, default=1)
    flow = dmodes[most] if most > 1 else None
    out = []

    def judge(goal, x, y, unit, ok, as_ratio=True):
        if x != x or y != y or not y:
            out.append((goal, "-", "-"))
            return
        d = 2 if unit == "ms" else 1
        fig = f"{fmt(x, d)} / {fmt(y, d)} {unit}" + (f" = {fmt(x / y, 2)}x" if as_ratio else "")
        out.append((goal, fig, "holds" if ok(x, y) else "no"))

    def get(mode, test, key="median"):
        return cell_of(summary, mode, test, key) if mode else float("nan")

    lat = f"lat_load p99, order flow ({most} domains)"
    judge(f"{lat} <= 0.5x order link", get(flow, "lat_load", "p99"), get(one, "lat_load", "p99"),
          "ms", lambda x, y: x <= 0.5 * y)
    judge(f"{lat} <= WireGuard", get(flow, "lat_load", "p99"), get("wireguard", "lat_load", "p99"),
          "ms", lambda x, y: x <= y, as_ratio=False)
    judge(f"TCP 4 streams, order flow ({most} domains) >= order link", get(flow, "tcp4"),
          get(one, "tcp4"), "Mbit/s", lambda x, y: x >= y)
    for test in ("tx1400", "rx1400"):
        judge(f"{test}, 2 domains >= 1 domain", get(two, test), get(one, test), "Mbit/s",
              lambda x, y: x >= y)
    return out


def goals_table(rows, reps):
    md = ["Goals (issue 29, ordering per flow), from this run's medians: " +
          f"{reps} alternating repetitions" +
          ("." if reps >= 5 else "; the goals ask for at least 5, so these say little."), "",
          "| goal | figures | verdict |", "|---|---|---|"]
    md.extend(f"| {g} | {f} | {v} |" for g, f, v in rows)
    md.append("")
    return md


MODEL_CPUS = (1, 2, 4, 8, 16, 32, 64)
MODEL_DOMAINS = (1, 2, 4, 8)


def scaling_model(summary, vcpus, host_cores, dmodes):
    """padtun's one-sided transmit for N CPUs and D ordering domains, from
    per-packet CPU costs measured in this run (the tx1400 cells' busy time
    per wire packet): G, the load (udpload and the inner stack up to
    padtun), what the -1cpu rows leave on CPUs other than 0; S, what must
    run on a serial CPU, taken as all of padtun-none-1cpu's CPU 0
    (serial() and a parallel stage that does no crypto: an upper bound);
    P, the AEAD's parallel work, X-1cpu's CPU 0 less S. Each domain has a
    serial CPU of its own, round the CPU list, so with the flows spread
    evenly the serial stage carries min(D, N)/S. With the load on CPUs of
    its own (one thread), kpps(N, D) = min(1/G, min(D, N)/S, N/(P+S)); in
    this guest of V vCPUs sharing everything, min(1/G, min(D, C)/S,
    C/(G+P+S)) with C = min(V, H): a guest has no more CPU than the host's
    H cores, whatever its V. The parallel line N/(P+S) meets the serial
    ceiling at N = D(P+S)/S and the load's at N = (P+S)/G: the first is
    the stage that saturates first, the other the one next; from D = S/G
    domains on, the serial stage is no longer the limit."""
    def cell(m):
        return summary.get(m, {}).get("tx1400")

    none = cell("padtun-none-1cpu")
    if not none:
        return []
    s_us = none["us_cpu0"]
    c = min(vcpus, host_cores)
    md = ["Scaling model, one-sided transmit (per wire packet, microseconds of CPU; "
          "see bench/report.py, scaling_model()): G the load, S a serial CPU's share "
          "(padtun-none-1cpu's CPU 0), P the AEAD's parallel work, D ordering domains, each "
          "with a serial CPU of its own; kpps(N) = min(1/G, min(D, N)/S, N/(P+S)) with the "
          "load on CPUs of its own. Predicted against measured for this guest's rows (the "
          "order link row is D = 1, order flow rows their D), every CPU as "
          f"min(1/G, min(D, C)/S, C/(G+P+S)) with C = min({vcpus} vCPUs, {host_cores} host "
          f"cores) = {c}; hand-off: CPU per packet on every CPU less on one. Saturates: where "
          "N/(P+S) meets the first ceiling, then the next.", "",
          "| transform | D | G | S | P | 1 CPU: predicted / measured kpps | every CPU: predicted / "
          "measured | hand-off | " + " | ".join(f"N={n}" for n in MODEL_CPUS) + " | saturates |",
          "|---" * (8 + len(MODEL_CPUS)) + "|"]
    lifted = []
    for aead in ("none", "chacha20poly1305", "gcm-aes"):
        one = cell(f"padtun-{aead}-1cpu")
        if not one or not cell(f"padtun-{aead}"):
            continue
        g_us = one["us_total"] - one["us_cpu0"]
        p_us = max(one["us_cpu0"] - s_us, 0.0)
        lifted.append(f"{aead} {fmt(s_us / g_us, 1)}")
        for d in MODEL_DOMAINS:
            every = cell(f"padtun-{aead}") if d == 1 else next(
                (cell(m) for n, m in dmodes.items() if n == d and padtun_aead(m) == aead), None)

            def kpps(n, load_own):
                return min(1e3 / g_us, min(d, n) * 1e3 / s_us,
                           n * 1e3 / (p_us + s_us) if load_own else n * 1e3 / (g_us + p_us + s_us))

            pred_one = f"{fmt(min(1e3 / g_us, 1e3 / (p_us + s_us)))} / {fmt(one['kpps'])}" if d == 1 else "-"
            measured = every["kpps"] if every else float("nan")
            handoff = every["us_total"] - one["us_total"] if every else float("nan")
            # N/(P+S) meets D/S or 1/G: beyond the first, more CPUs add nothing
            # until its ceiling is lifted; the other is the next.
            meet = sorted([(d * (p_us + s_us) / s_us, "serial"), ((p_us + s_us) / g_us, "load")])
            sat = f"{meet[0][1]} at N={fmt(meet[0][0], 1)}, then {meet[1][1]} at N={fmt(meet[1][0], 1)}"
            md.append(f"| {aead} | {d} | {fmt(g_us, 1)} | {fmt(s_us, 1)} | {fmt(p_us, 1)} | "
                      f"{pred_one} | {fmt(kpps(c, False))} / {fmt(measured)} | {fmt(handoff, 1)} | " +
                      " | ".join(fmt(kpps(n, True)) for n in MODEL_CPUS) + f" | {sat} |")
    md.append("")
    if lifted:
        md.append("Up to the CPU count, D domains lift the serial ceiling D-fold (past it they "
                  "share CPUs; the model takes the flows as spread evenly over the domains). The "
                  "serial stage stops being the limit from D = S/G on, where its ceiling D/S passes "
                  "the load's 1/G, which saturates next: " + ", ".join(lifted) + " domains.")
        md.append("")
    return md


def main():
    res, out_dir, command = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(out_dir, exist_ok=True)
    rows = collect(res)
    with open(os.path.join(out_dir, "runs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["mode", "test", "rep", "value", "p99", "samples", "bulk_mbit", "kpps",
                                          "us_cpu0", "us_total", "offered_kpps", "lost", "reordered",
                                          "verdict", "cpus_a", *WAKE_KEYS])
        w.writeheader()
        for r in rows:
            w.writerow(r)
    summary = summarise(rows)
    modes = [m for m in dict.fromkeys(r["mode"] for r in rows)]
    kv = info(res)
    core_rows = core(res)
    mem = memory(res)
    tests = [t for t in TESTS if any(t in summary[m] for m in modes)]
    reps = max((r["rep"] for r in rows), default=0)

    md = []
    md.append(f"Command: `{command}`  ")
    md.append(f"Kernel: {kv.get('kernel', ['?'])[0]}; guest CPU: {kv.get('cpu', ['?'])[0]}, "
              f"{kv.get('vcpus', ['?'])[0]} vCPUs per guest; padtun CPUs: {kv.get('padtun_cpus', ['all'])[0]}; "
              f"{reps} alternating repetitions; host: {os.cpu_count()} cores, QEMU TCG.")
    md.append("")
    md.append("Median (min-max) per cell; RTT cells are p50 / p99 in ms; CPU is the median busy share "
              "of guest a (receiver) / guest b (sender) during the TCP 1-stream test.")
    md.append("")
    md.append("| mode | " + " | ".join(TESTS[t][0] + f" ({TESTS[t][1]})" for t in tests) +
              " | CPU a/b | x plain | x WG | x ESP | x ESP+pcrypt | x VXLAN |")
    md.append("|---" * (len(tests) + 7) + "|")
    for m in modes:
        cells = []
        for t in tests:
            c = summary[m].get(t)
            if not c:
                cells.append("-")
            elif t.startswith("lat"):
                cells.append(f"{fmt(c['median'], 2)} / {fmt(c['p99'], 2)}")
            else:
                cells.append(f"{fmt(c['median'])} ({fmt(c['min'])}-{fmt(c['max'])})")
        c1 = summary[m].get("tcp1", {})
        cpu = f"{fmt(100 * c1.get('cpu_a', float('nan')), 0)}% / {fmt(100 * c1.get('cpu_b', float('nan')), 0)}%"
        wg = esp = pcr = vx = float("nan")
        if m.startswith("padtun-none"):
            vx = ratio(summary, m, "vxlan", "tcp1")
        elif m.startswith("padtun-"):
            wg = ratio(summary, m, "wireguard", "tcp1")
            aead = padtun_aead(m)
            esp = ratio(summary, m, f"esp-{aead}", "tcp1")
            pcr = ratio(summary, m, f"esp-pcrypt-{aead}", "tcp1")
        md.append(f"| {m} | " + " | ".join(cells) +
                  f" | {cpu} | {fmt(ratio(summary, m, 'plain', 'tcp1'), 2)} | {fmt(wg, 2)} | "
                  f"{fmt(esp, 2)} | {fmt(pcr, 2)} | {fmt(vx, 2)} |")
    md.append("")
    md.append("Ratios are of TCP 1-stream medians: x plain for every mode; x WG, x ESP (same AEAD) and "
              "x ESP+pcrypt (same AEAD) for padtun with a cipher; x VXLAN for padtun without one.")
    md.append("")
    if any("tcp1" in summary[m] for m in modes):
        md.append("Wake-ups during the TCP 1-stream test, per MB received (medians): IPIs that woke or "
                  "interrupted a CPU (function call and rescheduling) and context switches, guest a "
                  "(receiver) / guest b (sender). Under TCG every IPI is an exit to QEMU; a mode "
                  "that hands work between CPUs pays for it here.")
        md.append("")
        md.append("| mode | IPIs per MB a / b | context switches per MB a / b |")
        md.append("|---|---|---|")
        for m in modes:
            c = summary[m].get("tcp1")
            if c:
                md.append(f"| {m} | {fmt(c['ipi_per_mb_a'])} / {fmt(c['ipi_per_mb_b'])} | "
                          f"{fmt(c['ctxt_per_mb_a'])} / {fmt(c['ctxt_per_mb_b'])} |")
        md.append("")
    dmodes = domain_modes(summary, kv)
    goal_rows = goals(summary, dmodes)
    # order link alone (a subset without the order flow rows) compares nothing
    if len(dmodes) > 1:
        md.extend(domains_table(summary, dmodes))
        md.extend(goals_table(goal_rows, reps))
    if any("tx1400" in summary[m] for m in modes):
        md.extend(one_sided_table(summary, modes, int(kv.get("vcpus", ["2"])[0]), os.cpu_count(),
                                  dmodes))
    if any("rx1400" in summary[m] for m in modes):
        md.extend(receive_table(summary, modes))
    md.append("Crypto drivers: " + "; ".join(kv.get("crypto", [])) + ".")
    pcrypt = os.path.join(res, "b", "results", "pcrypt")
    if os.path.exists(pcrypt):
        md.append("")
        md.append("pcrypt carried the ESP+pcrypt SAs: its instance's reference count in "
                  "`/proc/crypto` before and after adding the SA pair: " +
                  "; ".join(line.split(" ", 1)[1] for line in read(pcrypt).split("\n") if line) + ".")
    md.append("")
    if core_rows:
        cs = core_summary(core_rows)
        nreps = max(r["rep"] for r in core_rows)
        engines = ("padnet", "kernel", "unordered")
        md.append("The padata core alone (`bench/padata_bench.c`, guest a, link idle, one submitter): "
                  "objects per second from the first submission to the last completion "
                  "(an instance's setup and teardown not counted), "
                  f"median (min-max) of {nreps} alternating repetitions; "
                  "x 1 CPU is the median on every CPU over the median on one.")
        md.append("")
        md.append("| work per object | CPUs | padnet | kernel padata | unordered work items | "
                  "padnet / unordered | padnet / kernel |")
        md.append("|---|---|---|---|---|---|---|")
        for (_, us, n) in sorted(k for k in cs if k[0] == "padnet"):
            c = {e: cs.get((e, us, n), {}) for e in engines}
            med = {e: c[e].get("median", float("nan")) for e in engines}
            cells = " | ".join(f"{fmt(med[e])} ({fmt(c[e].get('min', float('nan')))}-"
                               f"{fmt(c[e].get('max', float('nan')))})" for e in engines)
            bad = c["padnet"].get("misordered", 0) + c["kernel"].get("misordered", 0)
            md.append(f"| {us} us | {n} | {cells} | {fmt(med['padnet'] / med['unordered'], 2)} | "
                      f"{fmt(med['padnet'] / med['kernel'], 2)} |" + (f" misordered {bad}" if bad else ""))
        md.append("")
        md.append("| work per object | padnet x 1 CPU | kernel padata x 1 CPU | unordered x 1 CPU |")
        md.append("|---|---|---|---|")
        ncpus = max(k[2] for k in cs)
        for us in sorted({k[1] for k in cs}):
            sp = [cs.get((e, us, ncpus), {}).get("median", float("nan")) /
                  cs.get((e, us, 1), {}).get("median", float("nan")) for e in engines]
            md.append(f"| {us} us | " + " | ".join(f"{fmt(x, 2)}" for x in sp) + " |")
        md.append("")
        md.append("The kernel's padata runs `parallel()` on an unbound workqueue, so its one-CPU "
                  "rows are not bound to one CPU.")
        md.append("")
    if mem:
        md.append("Memory over the memory run (64-byte UDP datagrams through padtun chacha20poly1305):")
        md.append("")
        md.append("| guest | packets through padtun | allocations by padtun/padata | bytes | bytes per packet | slab growth |")
        md.append("|---|---|---|---|---|---|")
        for role, m in mem.items():
            md.append(f"| {role} | {m['packets']} | {m['our_allocs']} | {m['our_bytes']} | "
                      f"{fmt(m['bytes_per_packet'], 1)} | {m['slab_kib']} KiB |")
        md.append("")
    with open(os.path.join(out_dir, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(out_dir, "summary.json"), "w") as f:
        json.dump({"info": kv, "summary": summary, "core": core_rows,
                   "goals": [dict(goal=g, figures=f, verdict=v) for g, f, v in goal_rows],
                   "core_summary": [dict(engine=k[0], work_us=k[1], cpus=k[2], **v)
                                    for k, v in sorted(core_summary(core_rows).items())],
                   "memory": mem}, f, indent=1)
    try:
        plots(out_dir, summary, modes, core_rows)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"bench: no plots ({e})", file=sys.stderr)
    print("\n".join(md))


if __name__ == "__main__":
    main()
