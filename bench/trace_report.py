#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Stage by stage, where the pings of bench/trace-guest.sh waited.

usage: trace_report.py GUESTS_DIR MODES REPS

b sends each echo request and receives its reply; a receives the request
and sends the reply. An event is matched to a ping as the first of its
kind at or after the stage before (the ping's length is the test's
only one of its size). The guests' clocks are not compared: b's stages
are per ping, a's per request, and the wire (both guests' rings, QEMU's
socket) is what is left of b's round trip beside a's, on average.

  tx: padtun's ndo_start_xmit -> parallel() -> serial() -> the
      underlay's ndo_start_xmit
  rx: the underlay's receive -> padtun's encap hook -> parallel() ->
      serial() -> GRO on padtun
  ping - device: busybox ping's own figure over b's device-level round
      trip: the ping process's sendto() and its wake-up
"""

import bisect
import collections
import re
import statistics
import sys

EVENT = re.compile(r'\s(\d+\.\d+): (\w+): (?:dev=(\S+))?')
TX = ['net_dev_start_xmit@tun', 'pt_txc', 'pt_txf', 'net_dev_start_xmit@eth0']
RX = ['netif_receive_skb@eth0', 'pt_rcv', 'pt_rxc', 'pt_rxf',
      'napi_gro_receive_entry@tun']
TX_NAMES = ['to parallel()', 'parallel() to serial()', 'to the underlay']
RX_NAMES = ['to the encap hook', 'hook to parallel()',
            'parallel() to serial()', 'to GRO']


def load(path):
    events = collections.defaultdict(list)
    with open(path, errors='replace') as f:
        for line in f:
            m = EVENT.search(line)
            if not m:
                continue
            kind = m.group(2)
            if m.group(3):
                kind += '@' + ('eth0' if m.group(3) == 'eth0' else 'tun')
            events[kind].append(float(m.group(1)) * 1000)  # ms
    return events


def after(events, kind, t):
    times = events.get(kind, [])
    i = bisect.bisect_left(times, t)
    return times[i] if i < len(times) else None


def chain(events, kinds, t0):
    """The times of kinds, each the first at or after the one before."""
    times = [t0]
    for kind in kinds[1:]:
        t = after(events, kind, times[-1])
        if t is None:
            return None
        times.append(t)
    return times


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def on_b(b, t0, rows):
    """The request's way out of b and the reply's in, from t0."""
    tx = chain(b, TX, t0)
    if not tx:
        return None
    rx_end = after(b, RX[-1], tx[-1])
    if rx_end is None:
        return None
    # The reply's stages: the last underlay receive before its delivery.
    times = b.get(RX[0], [])
    i = bisect.bisect_right(times, rx_end) - 1
    rx = chain(b, RX, times[i]) if i >= 0 and times[i] > tx[-1] else None
    if not rx or rx[-1] != rx_end:
        return None
    for name, x, y in zip(TX_NAMES, tx, tx[1:]):
        rows['b tx ' + name].append(y - x)
    for name, x, y in zip(RX_NAMES, rx, rx[1:]):
        rows['b rx ' + name].append(y - x)
    rtt = rx[-1] - tx[0]
    rows['b device round trip'].append(rtt)
    rows['b a and the wire'].append(rtt - (tx[-1] - tx[0]) - (rx[-1] - rx[0]))
    return rtt


def on_a(a, t0, rows):
    """The request's way into a and the reply's out, from t0."""
    rx = chain(a, RX, t0)
    reply = after(a, TX[0], rx[-1]) if rx else None
    tx = chain(a, TX, reply) if reply is not None else None
    if not tx:
        return
    for name, x, y in zip(RX_NAMES, rx, rx[1:]):
        rows['a rx ' + name].append(y - x)
    rows['a the stack, to the reply'].append(tx[0] - rx[-1])
    for name, x, y in zip(TX_NAMES, tx, tx[1:]):
        rows['a tx ' + name].append(y - x)
    rows['a total'].append(tx[-1] - rx[0])


def print_rows(rows):
    print(f'  {"stage (ms)":36s} {"n":>4s} {"mean":>7s} {"p50":>7s} {"p90":>7s} {"p99":>7s}')
    for name, v in rows.items():
        print(f'  {name:36s} {len(v):4d} {statistics.mean(v):7.2f} '
              f'{statistics.median(v):7.2f} {pct(v, .9):7.2f} {pct(v, .99):7.2f}')
    if rows.get('b a and the wire') and rows.get('a total'):
        wire = (statistics.mean(rows['b a and the wire']) -
                statistics.mean(rows['a total']))
        print(f'  {"the wire, both ways (mean)":36s} {"":4s} {wire:7.2f}')


def main():
    base, modes, reps = sys.argv[1], sys.argv[2].split(','), int(sys.argv[3])
    for mode in modes:
        rows = collections.defaultdict(list)
        for r in range(1, reps + 1):
            a = load(f'{base}/a/results/{mode}.{r}.trace.a')
            b = load(f'{base}/b/results/{mode}.{r}.trace.b')
            with open(f'{base}/b/results/{mode}.{r}.ping') as f:
                rtts = [float(x) for x in re.findall(r'time=([0-9.]+)', f.read())]
            # The first three pings come before the bulk flow.
            for i, t0 in enumerate(b.get(TX[0], [])[3:len(rtts)]):
                rtt = on_b(b, t0, rows)
                if rtt is not None:
                    rows['ping (busybox)'].append(rtts[i + 3])
                    rows['ping - device'].append(rtts[i + 3] - rtt)
            for t0 in a.get(RX[0], [])[3:]:
                on_a(a, t0, rows)
        print(f'{mode}:')
        print_rows(rows)


if __name__ == '__main__':
    main()
