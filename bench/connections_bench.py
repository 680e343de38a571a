#!/usr/bin/env python3
"""Connections held: basalt's Thrift2 server against a private Redis, each holding 10,000 idle
connections and 1,000 busy ones from many loopback source addresses.

Never a test (tests/thrift/thrift_connections_load_test.cc checks that the connections are held;
this measures what they cost). One command, in one run, the systems taking turns in --rounds
rounds:

  1. each turn, on a server started for it (so that memory an earlier turn freed does not hide
     what a connection costs): `basalt serve` (Thrift2 on a free loopback port, Thrift1 and
     HBase's RPC off, --thrift-max-connections 20000 so that the cap is not what is measured) on
     a fresh data directory, with table `t` (family `f`, one row `r`) created through
     `basalt shell` over thrift://; or a private redis-server (no persistence, maxclients
     15000) holding `r`;
  2. measures a fresh client's connect and first call (Thrift2 `exists`, Redis `EXISTS`),
     --fresh of them, with nothing held; then opens 5,000 idle connections that never call (what
     an attacker holds) and 5,000 that called once (what a pool holds), 250 per source address
     of 127.0.0.0/8 (under the per-address cap of 1,000); then 1,000 busy ones, each keeping one
     call in flight, driven by a child process (so that its loop never delays the measuring
     one); and, meanwhile, measures --fresh fresh clients again, one every 2 ms, each from a
     source address of its own;
  3. reads the server's VmRSS and threads (/proc/PID/status, /proc/PID/task) at each step, and
     prints a markdown table: fresh-call p50/p99/p99.9 unloaded and loaded, and basalt / Redis.

Both servers run on this machine's cores beside the client processes; the figures are loopback
round trips, connect included.

    bench/connections_bench.py [--rounds 2] [--fresh 500] [--idle 10000] [--busy 1000]
                               [--binary build/release/basalt]
"""

import argparse
import os
import resource
import selectors
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
IP_BIND_ADDRESS_NO_PORT = getattr(socket, "IP_BIND_ADDRESS_NO_PORT", 24)
PER_ADDRESS = 250


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def thrift2_exists(seqid=1):
    """THBaseService.exists("t", TGet{row: "r"}), TBinaryProtocol strict, buffered."""
    def string(b):
        return struct.pack(">i", len(b)) + b
    args = (b"\x0b" + struct.pack(">h", 1) + string(b"t") +  # 1: table
            b"\x0c" + struct.pack(">h", 2) +  # 2: tget
            b"\x0b" + struct.pack(">h", 1) + string(b"r") + b"\x00" +  # row; end of TGet
            b"\x00")  # end of args
    return struct.pack(">I", 0x80010001) + string(b"exists") + struct.pack(">i", seqid) + args


# The answer: version|REPLY, "exists", seqid, field 0 bool, stop.
THRIFT2_ANSWER_BYTES = 4 + 4 + 6 + 4 + 1 + 2 + 1 + 1
REDIS_EXISTS = b"*2\r\n$6\r\nEXISTS\r\n$1\r\nr\r\n"
REDIS_ANSWER_BYTES = len(b":1\r\n")


def source(block, i):
    """The source address of the i-th connection of a group: PER_ADDRESS an address."""
    n = i // PER_ADDRESS
    return f"127.{block}.{n // 250}.{1 + n % 250}"


def connect_from(src, port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, 1)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    s.bind((src, 0))
    s.connect(("127.0.0.1", port))
    return s


def recv_exactly(s, n):
    got = b""
    while len(got) < n:
        chunk = s.recv(n - len(got))
        if not chunk:
            raise ConnectionError("the server closed the connection")
        got += chunk
    return got


def call(s, request, answer_bytes):
    s.sendall(request)
    return recv_exactly(s, answer_bytes)


class System:
    def __init__(self, name, port, pid, request, answer_bytes):
        self.name, self.port, self.pid = name, port, pid
        self.request, self.answer_bytes = request, answer_bytes

    def rss_kib(self):
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return -1

    def threads(self):
        return len(os.listdir(f"/proc/{self.pid}/task"))


def start_basalt(binary, tmp):
    port = free_port()
    data = os.path.join(tmp, "data")
    log_file = open(os.path.join(tmp, "serve.log"), "w")
    proc = subprocess.Popen(
        [binary, "serve", "--data", data, "--port", str(free_port()), "--thrift-port", str(port),
         "--no-thrift1", "--no-hbase-rpc", "--access-log", "/dev/null",
         "--thrift-max-connections", "20000"],
        stdout=log_file, stderr=subprocess.STDOUT)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    else:
        sys.exit("basalt serve did not start: see " + log_file.name)
    script = "create 't', 'f'\nput 't', 'r', 'f:q', 'v'\n"
    subprocess.run([binary, "--data", f"thrift://127.0.0.1:{port}", "shell"], input=script,
                   text=True, check=True, capture_output=True)
    return proc, System("basalt Thrift2", port, proc.pid, thrift2_exists(), THRIFT2_ANSWER_BYTES)


def start_redis(tmp):
    port = free_port()
    proc = subprocess.Popen(
        ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "",
         "--appendonly", "no", "--protected-mode", "no", "--maxclients", "15000",
         "--dir", tmp], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                call(s, b"*3\r\n$3\r\nSET\r\n$1\r\nr\r\n$1\r\nv\r\n", len(b"+OK\r\n"))
            break
        except OSError:
            time.sleep(0.1)
    else:
        sys.exit("redis-server did not start")
    return proc, System("Redis", port, proc.pid, REDIS_EXISTS, REDIS_ANSWER_BYTES)


def percentile(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(p * len(v)))]


def fresh_calls(system, n, block):
    """Milliseconds of each fresh client's connect and first call."""
    ms = []
    for i in range(n):
        started = time.perf_counter()
        with connect_from(f"127.{block}.{i // 250}.{1 + i % 250}", system.port) as s:
            call(s, system.request, system.answer_bytes)
        ms.append((time.perf_counter() - started) * 1000)
        time.sleep(0.002)
    return ms


def busy_child(port, request, answer_bytes, n, out_fd):
    """The busy connections: each keeps one call in flight until SIGTERM; writes calls made."""
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    sel = selectors.DefaultSelector()
    conns = []
    for i in range(n):
        s = connect_from(source(60, i), port)
        s.setblocking(False)
        s.send(request)
        sel.register(s, selectors.EVENT_READ, [0])
        conns.append(s)
    os.write(out_fd, b"ready\n")
    calls = 0
    while not stop:
        for key, _ in sel.select(timeout=0.1):
            got = key.data
            chunk = key.fileobj.recv(65536)
            if not chunk:
                sys.exit("a busy connection was closed")
            got[0] += len(chunk)
            while got[0] >= answer_bytes:
                got[0] -= answer_bytes
                calls += 1
                key.fileobj.send(request)
    os.write(out_fd, f"{calls}\n".encode())
    os._exit(0)


def measure(system, args):
    row = {"system": system.name}
    row["unloaded"] = fresh_calls(system, args.fresh, 200)
    time.sleep(1)  # what the fresh clients left is freed
    row["rss_start"] = system.rss_kib()
    row["threads_start"] = system.threads()

    half = args.idle // 2
    never = [connect_from(source(2, i), system.port) for i in range(half)]
    time.sleep(1)  # the server takes them in
    row["rss_never"] = system.rss_kib()
    called = []
    for i in range(args.idle - half):
        s = connect_from(source(30, i), system.port)
        call(s, system.request, system.answer_bytes)
        called.append(s)
    time.sleep(0.5)
    row["rss_idle"] = system.rss_kib()
    row["threads_idle"] = system.threads()

    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        for s in never + called:
            s.close()
        busy_child(system.port, system.request, system.answer_bytes, args.busy, w)
    os.close(w)
    reader = os.fdopen(r)
    if reader.readline().strip() != "ready":
        sys.exit("the busy client did not start")
    time.sleep(0.5)
    started = time.perf_counter()
    row["loaded"] = fresh_calls(system, args.fresh, 210)
    row["rss_busy"] = system.rss_kib()
    row["threads_busy"] = system.threads()
    os.kill(pid, signal.SIGTERM)
    calls = int(reader.readline().strip() or 0)
    row["busy_calls_per_s"] = calls / (time.perf_counter() - started)
    os.waitpid(pid, 0)
    for s in never + called:
        s.close()
    time.sleep(1)  # the server closes them
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--fresh", type=int, default=500)
    parser.add_argument("--idle", type=int, default=10000)
    parser.add_argument("--busy", type=int, default=1000)
    parser.add_argument("--binary", default=os.path.join(ROOT, "build/release/basalt"))
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < args.idle + args.fresh + 1000:
        sys.exit(f"RLIMIT_NOFILE's hard limit {hard} is too low for {args.idle} connections")

    rows = []
    names = {}
    for rnd in range(args.rounds):
        for which in ("basalt", "redis") if rnd % 2 == 0 else ("redis", "basalt"):
            # A fresh server each turn: memory freed by an earlier turn's connections would be
            # reused and hide what a connection costs.
            with tempfile.TemporaryDirectory(prefix="basalt-conns-") as tmp:
                proc, system = start_basalt(args.binary, tmp) if which == "basalt" \
                    else start_redis(tmp)
                names[which] = system.name
                log(f"round {rnd + 1}: {system.name}")
                try:
                    rows.append(measure(system, args))
                finally:
                    proc.terminate()
                    proc.wait()

    half = args.idle // 2
    print(f"{args.idle} idle connections (half never called, half called once), "
          f"{args.busy} busy, {args.fresh} fresh clients per step; load average "
          f"{os.getloadavg()[0]:.1f}\n")
    print("| system | round | fresh call p50 / p99 / p99.9 ms, nothing held | the same, "
          "10,000 idle + 1,000 busy held | busy calls/s | KiB / idle conn (never called, "
          "called once) | RSS MiB start / all held | threads start / all held |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for i, row in enumerate(rows):
        u, l = row["unloaded"], row["loaded"]
        never_kib = (row["rss_never"] - row["rss_start"]) / half
        called_kib = (row["rss_idle"] - row["rss_never"]) / (args.idle - half)
        print(f"| {row['system']} | {i // 2 + 1} | "
              f"{percentile(u, .5):.2f} / {percentile(u, .99):.2f} / {percentile(u, .999):.2f} | "
              f"{percentile(l, .5):.2f} / {percentile(l, .99):.2f} / {percentile(l, .999):.2f} | "
              f"{row['busy_calls_per_s']:.0f} | {never_kib:.1f}, {called_kib:.1f} | "
              f"{row['rss_start'] / 1024:.0f} / {row['rss_busy'] / 1024:.0f} | "
              f"{row['threads_start']} / {row['threads_busy']} |")
    for key in ("loaded",):
        b = [percentile(r[key], .99) for r in rows if r["system"] == names["basalt"]]
        r = [percentile(r[key], .99) for r in rows if r["system"] == names["redis"]]
        print(f"\nfresh call p99 with everything held, basalt / Redis: "
              f"{sorted(b)[len(b) // 2] / sorted(r)[len(r) // 2]:.2f}x (medians of the rounds)")


if __name__ == "__main__":
    main()
