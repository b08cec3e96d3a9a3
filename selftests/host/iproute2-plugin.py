#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Test link_padtun.so against the stock /usr/bin/ip without the padtun module.

  iproute2-plugin.py PLUGIN_DIR      (PLUGIN_DIR holds link_padtun.so; run as root)

- help texts: `ip link help padtun`, `ip link add X type padtun help`;
- encoding: `ip link add/set ... type padtun ...` run under strace in a fresh
  network namespace (unshare -n; the kernel answers "Unknown device type"),
  the IFLA_INFO_DATA of the RTM_NEWLINK request decoded and compared;
- client-side errors (duplicate, bad address, mixed families, bad key...);
- printing: `ip [-j] -d link show` in a fresh network namespace, with an
  LD_PRELOAD shim (compiled here, FAKELINK_C below) that puts a hand-made
  RTM_NEWLINK message of a padtun link in front of the kernel's link dump.

Prints TAP; exits 0 only if every check passed.
"""
import json
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile

# net/include/uapi/linux/padtun.h
(LOCAL, REMOTE, LOCAL_PORT, REMOTE_PORT, KEY, KEY_SET, TRANSFORM, CPUS,
 CB_CPU, MAX_INFLIGHT, RX_CB_CPU, ORDER, DOMAINS) = range(1, 14)

IFLA_IFNAME, IFLA_MTU, IFLA_TXQLEN, IFLA_LINKINFO = 3, 4, 13, 18
IFLA_INFO_KIND, IFLA_INFO_DATA = 1, 2
RTM_NEWLINK = 16

results = []

FAKELINK_C = r"""/*
 * LD_PRELOAD shim for the plugin test: puts the RTM_NEWLINK message read
 * from $FAKELINK_MSG in front of the first link dump reply ip receives, with that
 * reply's nlmsg_seq and nlmsg_pid, so `ip -d link show` prints a padtun link
 * without the module. Touches nothing but ip's own receive buffer.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

static int injected;

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	static ssize_t (*real)(int, struct msghdr *, int);
	static char fake[4096];
	static size_t fakelen;
	struct nlmsghdr *h, *f;
	ssize_t n;

	if (!real) {
		const char *path = getenv("FAKELINK_MSG");
		FILE *fp = path ? fopen(path, "rb") : NULL;

		real = (ssize_t (*)(int, struct msghdr *, int))dlsym(RTLD_NEXT, "recvmsg");
		if (fp) {
			fakelen = fread(fake, 1, sizeof(fake), fp);
			fclose(fp);
		}
	}
	n = real(fd, msg, flags);
	if (n < (ssize_t)sizeof(*h) || injected || !fakelen ||
	    msg->msg_iovlen != 1)
		return n;
	if (flags & MSG_PEEK)		/* size probe: make room */
		return n + fakelen;
	h = msg->msg_iov[0].iov_base;
	if (h->nlmsg_type != RTM_NEWLINK || !(h->nlmsg_flags & NLM_F_MULTI) ||
	    msg->msg_iov[0].iov_len < n + fakelen)
		return n;
	memmove((char *)h + fakelen, h, n);
	f = h;
	h = (struct nlmsghdr *)((char *)h + fakelen);
	memcpy(f, fake, fakelen);
	f->nlmsg_seq = h->nlmsg_seq;
	f->nlmsg_pid = h->nlmsg_pid;
	f->nlmsg_flags = h->nlmsg_flags;
	injected = 1;
	return n + fakelen;
}
"""


def check(ok, name, detail=""):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} - {name}")
    if not ok and detail:
        for line in str(detail).splitlines():
            print(f"# {line}")


def ip(args, libdir, netns=False, trace=False, env=None):
    cmd = ["ip"] + args
    if trace:
        cmd = ["strace", "-f", "-e", "trace=sendmsg", "-s", "4096", "-xx"] + cmd
    if netns:
        cmd = ["unshare", "-n"] + cmd
    env = dict(os.environ, IP_LIB_DIR=libdir, LC_ALL="C", **(env or {}))
    return subprocess.run(cmd, env=env, capture_output=True, text=True)


def attrs(buf):
    """Parse a netlink attribute stream into {type: payload}."""
    out, off = {}, 0
    while off + 4 <= len(buf):
        nla_len, nla_type = struct.unpack_from("<HH", buf, off)
        if nla_len < 4:
            break
        out[nla_type & 0x3fff] = buf[off + 4:off + nla_len]
        off += (nla_len + 3) & ~3
    return out


def sent_info_data(stderr):
    """The IFLA_INFO_DATA bytes of the RTM_NEWLINK request in strace output."""
    for line in stderr.splitlines():
        if "RTM_NEWLINK" not in line:
            continue
        m = re.search(r'nla_type=IFLA_INFO_DATA\}, "((?:\\x[0-9a-f]{2})*)"', line)
        if m:
            return bytes.fromhex(m.group(1).replace("\\x", ""))
        if "IFLA_LINKINFO" in line:
            return b""      # kind given, but no data attributes
    return None


def expect_encoding(name, libdir, args, expected):
    r = ip(args, libdir, netns=True, trace=True)
    data = sent_info_data(r.stderr)
    got = attrs(data) if data is not None else None
    check(got == expected, name,
          f"expected {expected}\ngot      {got}\n{r.stderr[-2000:]}")


def expect_error(name, libdir, args, pattern):
    r = ip(args, libdir, netns=True, trace=True)
    sent = sent_info_data(r.stderr) is not None
    check(r.returncode != 0 and not sent and re.search(pattern, r.stderr),
          name, f"rc={r.returncode} sent={sent}\n{r.stderr[-1500:]}")


def nla(t, payload):
    n = 4 + len(payload)
    return struct.pack("<HH", n, t) + payload + b"\0" * ((4 - n % 4) % 4)


def newlink_dump(info_data):
    body = struct.pack("<BxHiII", 0, 0xfffe, 42, 0x1 | 0x40 | 0x80, 0)
    body += nla(IFLA_IFNAME, b"padtun0\0") + nla(IFLA_MTU, struct.pack("<I", 1400))
    body += nla(IFLA_TXQLEN, struct.pack("<I", 1000))
    linkinfo = nla(IFLA_INFO_KIND, b"padtun\0")
    if info_data is not None:
        linkinfo += nla(IFLA_INFO_DATA, info_data)
    body += nla(IFLA_LINKINFO, linkinfo)
    return struct.pack("<IHHII", 16 + len(body), RTM_NEWLINK, 0, 1, 0) + body


def show(libdir, info_data, js):
    """`ip [-j] -d link show` with a padtun link; the output of padtun0 only."""
    msg = os.path.join(TMP, "link.nl")
    with open(msg, "wb") as f:
        f.write(newlink_dump(info_data))
    args = (["-j"] if js else []) + ["-d", "link", "show"]
    r = ip(args, libdir, netns=True, env={
        "FAKELINK_MSG": msg, "LD_PRELOAD": os.path.join(TMP, "fakelink.so")})
    if js:
        try:
            links = [l for l in json.loads(r.stdout) if l["ifname"] == "padtun0"]
            r.stdout = json.dumps(links[0]) + "\n"
        except (ValueError, KeyError, IndexError, TypeError):
            pass
    return r


TMP = None


def main():
    global TMP
    libdir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/iproute2")
    with tempfile.TemporaryDirectory() as TMP:
        with open(os.path.join(TMP, "fakelink.c"), "w") as f:
            f.write(FAKELINK_C)
        subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-fPIC",
                        "-shared", "-o", os.path.join(TMP, "fakelink.so"),
                        os.path.join(TMP, "fakelink.c"), "-ldl"], check=True)
        return run_tests(libdir)


def run_tests(libdir):
    print("TAP version 13")

    # --- help ---------------------------------------------------------------
    r = ip(["link", "help", "padtun"], libdir)
    check(r.returncode == 0 and r.stdout.startswith("Usage: ... padtun")
          and "Where:" in r.stdout and "chacha20poly1305" in r.stdout,
          "ip link help padtun prints the usage on stdout", r.stdout + r.stderr)
    r = ip(["link", "add", "padtun0", "type", "padtun", "help"], libdir)
    check(r.returncode != 0 and r.stderr.startswith("Usage: ... padtun"),
          "ip link add X type padtun help prints the usage", r.stdout + r.stderr)

    # --- encoding -----------------------------------------------------------
    key = bytes(range(32))
    expect_encoding(
        "add: every option, IPv4", libdir,
        ["link", "add", "padtun0", "type", "padtun", "local", "10.0.0.1",
         "remote", "10.0.0.2", "port", "4789", "key", key.hex(),
         "transform", "chacha20poly1305", "cpus", "0-3", "cbcpu", "2",
         "rxcbcpu", "3", "maxinflight", "512"],
        {LOCAL: socket.inet_aton("10.0.0.1"),
         REMOTE: socket.inet_aton("10.0.0.2"),
         LOCAL_PORT: struct.pack(">H", 4789), REMOTE_PORT: struct.pack(">H", 4789),
         KEY: key, TRANSFORM: b"chacha20poly1305\0", CPUS: b"0-3\0",
         CB_CPU: struct.pack("=I", 2), RX_CB_CPU: struct.pack("=I", 3),
         MAX_INFLIGHT: struct.pack("=I", 512)})
    expect_encoding(
        "add: IPv6, localport/remoteport, gcm-aes, 0x key", libdir,
        ["link", "add", "padtun0", "type", "padtun", "local", "fd00::1",
         "remote", "fd00::2", "localport", "5000", "remoteport", "0x1389",
         "key", "0x" + key[:16].hex(), "transform", "gcm-aes"],
        {LOCAL: socket.inet_pton(socket.AF_INET6, "fd00::1"),
         REMOTE: socket.inet_pton(socket.AF_INET6, "fd00::2"),
         LOCAL_PORT: struct.pack(">H", 5000), REMOTE_PORT: struct.pack(">H", 5001),
         KEY: key[:16], TRANSFORM: b"gcm-aes\0"})
    expect_encoding(
        "set: only the given attribute (cpus 1)", libdir,
        ["link", "set", "lo", "type", "padtun", "cpus", "1"],
        {CPUS: b"1\0"})
    expect_encoding(
        "set: transform none, maxinflight", libdir,
        ["link", "set", "lo", "type", "padtun", "transform", "none",
         "maxinflight", "64"],
        {TRANSFORM: b"none\0", MAX_INFLIGHT: struct.pack("=I", 64)})
    expect_encoding(
        "set: order flow, domains", libdir,
        ["link", "set", "lo", "type", "padtun", "order", "flow",
         "domains", "4"],
        {ORDER: b"\1", DOMAINS: struct.pack("=I", 4)})
    expect_encoding(
        "set: order link alone", libdir,
        ["link", "set", "lo", "type", "padtun", "order", "link"],
        {ORDER: b"\0"})

    # --- client-side errors -------------------------------------------------
    base = ["link", "add", "padtun0", "type", "padtun"]
    expect_error("mixed families rejected", libdir,
                 base + ["local", "10.0.0.1", "remote", "fd00::2"],
                 r"same address family")
    expect_error("mixed families rejected (remote first)", libdir,
                 base + ["remote", "fd00::2", "local", "10.0.0.1"],
                 r"same address family")
    expect_error("bad address rejected", libdir,
                 base + ["local", "10.0.0.300"], r"address is expected")
    expect_error("'any' rejected as an address", libdir,
                 base + ["remote", "any"], r"invalid remote address")
    expect_error("duplicate local rejected", libdir,
                 base + ["local", "10.0.0.1", "local", "10.0.0.3"], r"duplicate")
    expect_error("port then localport rejected", libdir,
                 base + ["port", "1", "localport", "2"], r"duplicate")
    expect_error("port 0 rejected", libdir, base + ["port", "0"], r"invalid port")
    expect_error("port 65536 rejected", libdir, base + ["port", "65536"],
                 r"invalid port")
    expect_error("odd-length key rejected", libdir, base + ["key", "abc"],
                 r"key must be")
    expect_error("non-hex key rejected", libdir, base + ["key", "zz"],
                 r"key must be")
    expect_error("65-byte key rejected", libdir, base + ["key", "00" * 65],
                 r"key must be")
    r = ip(base + ["key", "zz"], libdir, netns=True)
    check("zz" not in r.stderr, "a rejected key is not echoed", r.stderr)
    expect_error("bad cbcpu rejected", libdir, base + ["cbcpu", "x"],
                 r"invalid cbcpu")
    expect_error("bad rxcbcpu rejected", libdir, base + ["rxcbcpu", "x"],
                 r"invalid rxcbcpu")
    expect_error("duplicate rxcbcpu rejected", libdir,
                 base + ["rxcbcpu", "1", "rxcbcpu", "2"], r"duplicate")
    expect_error("bad order rejected", libdir, base + ["order", "packet"],
                 r"order must be link or flow")
    expect_error("bad domains rejected", libdir, base + ["domains", "x"],
                 r"invalid domains")
    expect_error("duplicate order rejected", libdir,
                 base + ["order", "flow", "order", "link"], r"duplicate")
    expect_error("missing argument rejected", libdir, base + ["cpus"],
                 r"[Cc]ommand line is not complete")
    expect_error("unknown option rejected", libdir, base + ["frob"],
                 r'unknown option "frob"')

    # --- printing -----------------------------------------------------------
    full = (nla(LOCAL, socket.inet_aton("192.0.2.1")) +
            nla(REMOTE, socket.inet_aton("192.0.2.2")) +
            nla(LOCAL_PORT, struct.pack(">H", 4789)) +
            nla(REMOTE_PORT, struct.pack(">H", 4790)) +
            nla(KEY_SET, b"\1") + nla(TRANSFORM, b"gcm-aes\0") +
            nla(CPUS, b"0-3\0") + nla(CB_CPU, struct.pack("=I", 1)) +
            nla(MAX_INFLIGHT, struct.pack("=I", 256)) +
            nla(RX_CB_CPU, struct.pack("=I", 2)) + nla(ORDER, b"\1") +
            nla(DOMAINS, struct.pack("=I", 4)))
    r = show(libdir, full, False)
    want = ("padtun local 192.0.2.1 remote 192.0.2.2 localport 4789 "
            "remoteport 4790 transform gcm-aes cpus 0-3 cbcpu 1 rxcbcpu 2 "
            "maxinflight 256 order flow domains 4 key set ")
    check(r.returncode == 0 and want in r.stdout, "ip -d shows the options",
          r.stdout + r.stderr)
    r = show(libdir, full, True)
    try:
        data = json.loads(r.stdout)["linkinfo"]["info_data"]
    except (ValueError, KeyError, IndexError, TypeError) as e:
        data = f"{e}: {r.stdout} {r.stderr}"
    check(data == {"local": "192.0.2.1", "remote": "192.0.2.2",
                   "local_port": 4789, "remote_port": 4790,
                   "transform": "gcm-aes", "cpus": "0-3", "cb_cpu": 1,
                   "rx_cb_cpu": 2, "max_inflight": 256, "order": "flow",
                   "domains": 4, "key_set": True},
          "ip -j -d gives the JSON keys", data)

    v6 = (nla(LOCAL, socket.inet_pton(socket.AF_INET6, "fd00::1")) +
          nla(REMOTE, socket.inet_pton(socket.AF_INET6, "fd00::2")) +
          nla(KEY_SET, b"\0") + nla(CPUS, b"0-1" * 200))  # unterminated, long
    r = show(libdir, v6, False)
    check(r.returncode == 0 and "local fd00::1 remote fd00::2 cpus 0-10-1" in r.stdout
          and "nokey" in r.stdout, "IPv6, no key, unterminated cpus string",
          r.stdout + r.stderr)
    r = show(libdir, v6, True)
    try:
        data = json.loads(r.stdout.splitlines()[0])["linkinfo"]["info_data"]
        ok = data["key_set"] is False and data["local"] == "fd00::1"
    except (ValueError, KeyError, IndexError, TypeError):
        ok = False
    check(ok, "JSON key_set false", r.stdout + r.stderr)

    r = show(libdir, b"", False)
    check(r.returncode == 0 and "padtun \n" in r.stdout, "empty info data",
          r.stdout + r.stderr)
    r = show(libdir, None, True)
    try:
        ok = json.loads(r.stdout)["linkinfo"]["info_kind"] == "padtun"
    except (ValueError, KeyError, TypeError):
        ok = False
    check(ok, "no info data at all (tb == NULL)", r.stdout + r.stderr)

    print(f"1..{len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
