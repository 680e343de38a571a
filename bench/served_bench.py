#!/usr/bin/env python3
"""Served: basalt over Thrift2 and REST against a private Redis and PostgreSQL.

Never a test. One command, on this machine, in one run:

  1. installs what is missing of Debian's redis-server, postgresql, libhiredis-dev, libpq-dev and
     wrk (apt-get; as root), and builds `basalt` and `basalt_served_bench` (--no-build skips it);
  2. starts a private redis-server on a free loopback port and a private PostgreSQL 15 (initdb
     into the temporary directory, run as the `postgres` user when we are root), both on
     127.0.0.1 TCP as basalt's Thrift2 is;
  3. `basalt_served_bench load`: generates the `action-log` workload's log (100,000 x scale users,
     5,000,000 x scale actions), the `home-feed` workload's microblog (20,000 x scale users, 100,000 x scale posts)
     and 100,000 x scale 100-byte point rows, and loads them into an embedded basalt store (in
     process, before any server runs), Redis and PostgreSQL;
  4. copies the store (the in-process side opens the copy: one store has one owner) and starts
     `basalt serve` on the original (Thrift2 and REST on free loopback ports, Thrift1 off, access
     log to /dev/null); with --second-server FLAGS, also a second `basalt serve` with those
     flags on another copy, measured as one more system (e.g. a server setting on and off in
     one run);
  5. `basalt_served_bench run`: every workload on every system at 1 client and at --clients
     clients (in process: 1 and 2 threads), the systems taking turns in --rounds rounds of
     --seconds; then REST's single-cell GET under wrk (1 connection, then --clients connections,
     bench/http_bench.lua's `cell` mode) for --rounds rounds; then counts the Thrift2 calls of
     each operation through a counting proxy (`basalt_served_bench calls`, one client);
  6. stops everything, removes the directory and prints a markdown table.

Durability, matched to basalt's default (every write in its WAL, handed to the OS, not fsynced):
Redis with appendonly yes + appendfsync no (the AOF is written before the reply, never fsynced;
no RDB snapshots, no AOF rewrites during the run); PostgreSQL with synchronous_commit=off (fsync
stays on for checkpoints).

    bench/served_bench.py [--scale 1.0] [--seconds 1] [--rounds 9] [--clients 16]
                          [--second-server "FLAGS"]
                          [--markdown FILE] [--no-build] [--keep]
"""

import argparse
import json
import select
import os
import platform
import pwd
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no bench/__pycache__ in the tree
import http_bench  # noqa: E402  (run_wrk: wrk with bench/http_bench.lua)

PACKAGES = ("redis-server", "postgresql", "libhiredis-dev", "libpq-dev", "wrk")
PG_BIN = "/usr/lib/postgresql/15/bin"
OPS = ("get", "latest", "home")
OP_NAMES = {
    "get": "point get (100-byte value)",
    "latest": "action-log: latest 10 after skipping 20",
    "home": "home-feed: home timeline, 20 hydrated posts",
}
SYSTEMS = ("basalt in process", "basalt Thrift2", "Redis", "PostgreSQL")


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def ensure_packages():
    missing = []
    for p in PACKAGES:
        r = subprocess.run(["dpkg-query", "-W", "-f=${Status}", p], capture_output=True,
                           text=True)
        if "install ok installed" not in r.stdout:
            missing.append(p)
    if not missing:
        return
    if os.geteuid() != 0:
        sys.exit(f"missing Debian packages: {' '.join(missing)} (apt-get install them as root)")
    log(f"installing {' '.join(missing)}")
    subprocess.run(["apt-get", "update"], check=True)
    subprocess.run(["apt-get", "install", "-y", "--no-install-recommends", *missing], check=True)


def build():
    env = dict(os.environ)
    env.setdefault("BASALT_BUILD_TESTS", "OFF")
    log("building basalt and basalt_served_bench")
    subprocess.run([os.path.join(ROOT, "scripts/build.sh"), "release", "--target", "basalt",
                    "basalt_served_bench"], check=True, env=env)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Redis:
    def __init__(self, tmp):
        self.dir = os.path.join(tmp, "redis")
        os.makedirs(self.dir)
        self.port = free_port()
        self.proc = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "yes", "--appendfsync", "no", "--auto-aof-rewrite-percentage", "0",
             "--dir", self.dir, "--logfile", os.path.join(self.dir, "log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if self.cli("PING") == "PONG":
                break
            time.sleep(0.1)
        else:
            sys.exit("redis-server did not start")
        self.address = f"127.0.0.1:{self.port}"

    def cli(self, *args):
        r = subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", str(self.port), *args],
                           capture_output=True, text=True)
        return r.stdout.strip()

    def memory(self):
        m = re.search(r"^used_memory:(\d+)", self.cli("INFO", "memory"), re.M)
        return int(m.group(1)) if m else 0

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=120)


class Postgres:
    def __init__(self, tmp):
        self.dir = os.path.join(tmp, "pg")
        os.makedirs(self.dir)
        self.port = free_port()
        # PostgreSQL refuses to run as root: then it runs as Debian's `postgres` user.
        self.prefix = []
        if os.geteuid() == 0:
            user = "postgres"
            pwd.getpwnam(user)  # KeyError when the package did not create it
            shutil.chown(self.dir, user)
            self.prefix = ["runuser", "-u", user, "--"]
        self.data = os.path.join(self.dir, "data")
        subprocess.run([*self.prefix, f"{PG_BIN}/initdb", "-D", self.data, "-U", "bench", "-A",
                        "trust", "-E", "UTF8", "--no-sync"], check=True,
                       stdout=subprocess.DEVNULL)
        options = (f"-k {self.dir} -p {self.port} -h 127.0.0.1 -c synchronous_commit=off "
                   "-c shared_buffers=1GB -c max_wal_size=8GB -c checkpoint_timeout=30min "
                   "-c jit=off")
        subprocess.run([*self.prefix, f"{PG_BIN}/pg_ctl", "-D", self.data, "-l",
                        os.path.join(self.dir, "log"), "-w", "-o", options, "start"],
                       check=True, stdout=subprocess.DEVNULL)
        self.conninfo = f"host=127.0.0.1 port={self.port} user=bench dbname=postgres"

    def size(self):
        r = subprocess.run(["psql", self.conninfo, "-Atc",
                            "SELECT pg_database_size('postgres')"], capture_output=True,
                           text=True)
        return int(r.stdout.strip() or 0)

    def stop(self):
        subprocess.run([*self.prefix, f"{PG_BIN}/pg_ctl", "-D", self.data, "-m", "fast", "-w",
                        "stop"], check=True, stdout=subprocess.DEVNULL)


class BasaltServer:
    def __init__(self, binary, data, log_path, flags=()):
        # stderr to a file: a pipe nobody reads would stall the server once full.
        self.log_path = log_path
        with open(log_path, "w") as err:
            self.proc = subprocess.Popen(
                [binary, "serve", "--data", data, "--port", "0", "--thrift-port", "0",
                 "--no-thrift1", "--no-hbase-rpc", "--access-log", os.devnull, *flags],
                stdout=subprocess.PIPE, stderr=err, text=True)
        self.thrift = None
        for line in self.proc.stdout:
            m = re.search(r"thrift2 on ([0-9.]+):(\d+)", line)
            if m:
                self.thrift = f"127.0.0.1:{m.group(2)}"
            m = re.search(r"listening on http://([0-9.]+):(\d+)", line)
            if m:
                self.url = f"http://127.0.0.1:{m.group(2)}"
                break
        else:
            sys.exit(f"basalt serve did not start: {self.errors()}")
        if self.thrift is None:
            sys.exit("basalt serve did not announce its Thrift2 port")

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        if self.proc.wait(timeout=120) != 0:
            sys.exit(f"basalt serve failed: {self.errors()}")

    def errors(self):
        with open(self.log_path) as f:
            return f.read()


class CallCounter:
    """A loopback TCP proxy to the Thrift2 port that counts calls: a client waits for each reply
    before its next call, so on each connection a call starts whenever the client sends after
    the server has answered (or first)."""

    def __init__(self, target_port):
        self.target_port = target_port
        self.calls = 0
        self.lock = threading.Lock()
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target_port))
            for s in (client, server):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    def _pump(self, client, server):
        answered = True  # the server spoke last (or nobody has)
        with client, server:
            while True:
                readable, _, _ = select.select([client, server], [], [])
                for s in readable:
                    data = s.recv(1 << 16)
                    if not data:
                        return
                    if s is client:
                        if answered:
                            with self.lock:
                                self.calls += 1
                        answered = False
                        server.sendall(data)
                    else:
                        answered = True
                        client.sendall(data)

    def close(self):
        self.listener.close()


def count_calls(bench, thrift, scale, ops=500):
    """Thrift2 calls per operation of each workload, one client, through CallCounter."""
    counter = CallCounter(int(thrift.rsplit(":", 1)[1]))
    out = {}
    try:
        def run(op, n):
            before = counter.calls
            subprocess.run([bench, "calls", "--thrift", f"127.0.0.1:{counter.port}", "--scale",
                            str(scale), "--op", op, "--ops", str(n)], check=True)
            time.sleep(0.2)  # the proxy's last bytes
            return counter.calls - before
        for op in OPS:
            base = run(op, 0)
            out[op] = (run(op, ops) - base) / ops
            log(f"Thrift2 calls per {op}: {out[op]:.2f} (opening: {base})")
    finally:
        counter.close()
    return out


def dir_size(path):
    total = 0
    for base, _, files in os.walk(path):
        for f in files:
            total += os.path.getsize(os.path.join(base, f))
    return total


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def rest_cell_gets(url, rows, seconds, rounds, clients):
    """REST single-cell GETs under wrk at 1 and `clients` connections: the median of rounds."""
    out = {}
    for level, (threads, connections) in enumerate(((1, 1), (2, clients))):
        args = types.SimpleNamespace(wrk_threads=threads, connections=connections, rows=rows)
        http_bench.run_wrk(url, "cell", args, 1, "")  # warm-up
        runs = [http_bench.run_wrk(url, "cell", args, max(1, round(seconds)), "")
                for _ in range(rounds)]
        for r in runs:
            log(f"REST cell GET {connections} connections: {r['ops_per_s']:.0f} req/s")
        out[level] = {k: median([r[k] for r in runs]) for k in ("ops_per_s", "p50_us", "p99_us")}
        out[level]["clients"] = connections
    return out


def fmt_rate(x):
    return f"{x:,.0f}"


def fmt_us(x):
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}"


def second_name(args):
    return f"basalt Thrift2 ({args.second_server})"


def report(args, info, load, figures, rest):
    """The markdown report."""
    n = args.clients
    lines = [
        f"Scale {args.scale:g}: {load['point_rows']:,} point rows; {load['users']:,} users and "
        f"{load['actions']:,} actions (action-log); {load['feed_users']:,} users, "
        f"{load['follows']:,} follows, {load['posts']:,} posts, {load['inbox_entries']:,} inbox "
        f"entries (home-feed). {args.rounds} rounds of {args.seconds:g} s per system, workload "
        f"and client count; throughput is the median round, p50 / p99 are over all rounds' "
        "calls. Before measuring, 200 calls of each workload returned the same items (by time) "
        f"on every system; items per call: latest {figures[('Redis', 'latest', 0)]['items_per_op']:.2f}, "
        f"home {figures[('Redis', 'home', 0)]['items_per_op']:.2f}. Thrift2 calls per operation "
        "(one client, 500 operations, counted by a proxy after the measurements): "
        + ", ".join(f"{op} {info['calls'][op]:.2f}" for op in OPS) + ".",
        "",
        f"Machine: {info['cpus']} cores, {info['platform']}; {info['redis']}; {info['pg']}. "
        f"Load average (1/5/15 min): {info['load_start']} at the start, {info['load_run']} "
        f"before the measurements, {info['load_end']} at the end.",
        "",
        f"| workload | system | 1 client ops/s | p50 µs | p99 µs | {n} clients ops/s | p50 µs "
        "| p99 µs |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    systems = list(SYSTEMS)
    if args.second_server:
        systems.insert(2, second_name(args))
    for op in OPS:
        for system in systems:
            one, many = figures[(system, op, 0)], figures[(system, op, 1)]
            label = system if system != "basalt in process" else \
                f"basalt in process (1 / {many['clients']} threads)"
            lines.append(
                f"| {OP_NAMES[op]} | {label} | {fmt_rate(one['ops_per_s'])} | "
                f"{fmt_us(one['p50_us'])} | {fmt_us(one['p99_us'])} | "
                f"{fmt_rate(many['ops_per_s'])} | {fmt_us(many['p50_us'])} | "
                f"{fmt_us(many['p99_us'])} |")
        if op == "get":
            one, many = rest[0], rest[1]
            lines.append(
                f"| {OP_NAMES[op]} | basalt REST (wrk, GET /bench/ROW/f:q) | "
                f"{fmt_rate(one['ops_per_s'])} | {fmt_us(one['p50_us'])} | "
                f"{fmt_us(one['p99_us'])} | {fmt_rate(many['ops_per_s'])} | "
                f"{fmt_us(many['p50_us'])} | {fmt_us(many['p99_us'])} |")

    def f(system, op, level, key):
        return figures[(system, op, level)][key]

    lines += ["", "Ratios (basalt over Thrift2 against each; for p50 lower is better for basalt, "
              "for throughput higher):", "",
              f"| workload | p50 / Redis, 1 client | p50 / PostgreSQL, 1 client | ops/s / Redis, "
              f"{n} clients | ops/s / PostgreSQL, {n} clients | ops/s {n} clients / in process "
              "2 threads |",
              "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for op in OPS:
        for t in ["basalt Thrift2"] + ([second_name(args)] if args.second_server else []):
            label = op if t == "basalt Thrift2" else f"{op}, {t}"
            lines.append(
                f"| {label} | {f(t, op, 0, 'p50_us') / f('Redis', op, 0, 'p50_us'):.2f}x | "
                f"{f(t, op, 0, 'p50_us') / f('PostgreSQL', op, 0, 'p50_us'):.2f}x | "
                f"{f(t, op, 1, 'ops_per_s') / f('Redis', op, 1, 'ops_per_s'):.2f}x | "
                f"{f(t, op, 1, 'ops_per_s') / f('PostgreSQL', op, 1, 'ops_per_s'):.2f}x | "
                f"{f(t, op, 1, 'ops_per_s') / f('basalt in process', op, 1, 'ops_per_s'):.2f}x |")
    lines.append(
        f"| get over REST (wrk) | {rest[0]['p50_us'] / f('Redis', 'get', 0, 'p50_us'):.2f}x | "
        f"{rest[0]['p50_us'] / f('PostgreSQL', 'get', 0, 'p50_us'):.2f}x | "
        f"{rest[1]['ops_per_s'] / f('Redis', 'get', 1, 'ops_per_s'):.2f}x | "
        f"{rest[1]['ops_per_s'] / f('PostgreSQL', 'get', 1, 'ops_per_s'):.2f}x | "
        f"{rest[1]['ops_per_s'] / f('basalt in process', 'get', 1, 'ops_per_s'):.2f}x |")

    targets = [
        ("one client: Thrift2 p50 / Redis p50, latest page", "≤ 1.0",
         f("basalt Thrift2", "latest", 0, "p50_us") / f("Redis", "latest", 0, "p50_us"), 1.0,
         False),
        ("one client: Thrift2 p50 / Redis p50, home timeline", "≤ 1.0",
         f("basalt Thrift2", "home", 0, "p50_us") / f("Redis", "home", 0, "p50_us"), 1.0, False),
        ("one client: Thrift2 p50 / Redis GET p50, point get", "≤ 1.2",
         f("basalt Thrift2", "get", 0, "p50_us") / f("Redis", "get", 0, "p50_us"), 1.2, False),
    ]
    for op in OPS:
        targets.append((f"{n} clients: Thrift2 ops/s / in process with 2 threads, {op}", "≥ 0.5",
                        f("basalt Thrift2", op, 1, "ops_per_s") /
                        f("basalt in process", op, 1, "ops_per_s"), 0.5, True))
    targets.append((f"{n} clients: Thrift2 ops/s / Redis ops/s, latest page", "≥ 1.0",
                    f("basalt Thrift2", "latest", 1, "ops_per_s") /
                    f("Redis", "latest", 1, "ops_per_s"), 1.0, True))
    targets.append((f"REST cell GET under wrk ({n} connections) / in process with 2 threads",
                    "≥ 0.6",
                    rest[1]["ops_per_s"] / f("basalt in process", "get", 1, "ops_per_s"), 0.6,
                    True))
    lines += ["", "| target | goal | measured | met |", "| --- | ---: | ---: | --- |"]
    for name, goal, value, bound, higher in targets:
        met = value >= bound if higher else value <= bound
        lines.append(f"| {name} | {goal} | {value:.2f}x | {'yes' if met else 'no'} |")

    lines += ["", "Loads (seconds; basalt in process through the recipes, one call per action, "
              "post and follow; Redis pipelined 1,000 commands at a time; PostgreSQL COPY, then "
              "the indexes and VACUUM ANALYZE):", "",
              "| system | point rows | action-log | home-feed | total | size |",
              "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for key, name in (("basalt", "basalt"), ("redis", "Redis"), ("postgres", "PostgreSQL")):
        parts = [load[f"{key} {p}"] for p in OPS]
        extra = load.get(f"{key} close", 0)
        lines.append(f"| {name} | {parts[0]:.1f} | {parts[1]:.1f} | {parts[2]:.1f} | "
                     f"{sum(parts) + extra:.1f} | {info['size_' + key] / 2**20:,.0f} MiB |")
    lines.append("")
    lines.append("basalt's total includes closing the store (a flush); its size is the data "
                 "directory, Redis's `used_memory`, PostgreSQL's `pg_database_size`.")
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--clients", type=int, default=16)
    p.add_argument("--markdown", help="also write the report to this file")
    p.add_argument("--no-build", action="store_true")
    p.add_argument("--keep", action="store_true", help="keep the temporary directory")
    p.add_argument("--second-server", metavar="FLAGS", default="",
                   help="also measure a second `basalt serve` of a copy of the store, started "
                        "with these extra flags (e.g. \"--thrift-spin-us 0\")")
    p.add_argument("--workdir", default=None, help="parent of the temporary directory")
    args = p.parse_args()
    basalt = os.path.join(ROOT, "build/release/basalt")
    bench = os.path.join(ROOT, "build/release/bench/basalt_served_bench")

    ensure_packages()
    if not args.no_build:
        build()
    for binary in (basalt, bench):
        if not os.access(binary, os.X_OK):
            sys.exit(f"{binary} is missing: scripts/build.sh release --target basalt "
                     "basalt_served_bench")

    info = {"cpus": os.cpu_count(), "platform": platform.platform(), "load_start": loadavg()}
    info["redis"] = subprocess.run(["redis-server", "--version"], capture_output=True,
                                   text=True).stdout.split(" sha=")[0]
    info["pg"] = subprocess.run([f"{PG_BIN}/postgres", "--version"], capture_output=True,
                                text=True).stdout.strip()
    tmp = tempfile.mkdtemp(prefix="basalt-served-bench-", dir=args.workdir)
    os.chmod(tmp, 0o755)  # PostgreSQL's user must reach its directory
    started = []
    try:
        redis = Redis(tmp)
        started.append(redis)
        pg = Postgres(tmp)
        started.append(pg)
        store = os.path.join(tmp, "basalt")
        common = ["--redis", redis.address, "--pg", pg.conninfo, "--scale", str(args.scale)]
        log(f"loading at scale {args.scale:g} (load average {loadavg()})")
        subprocess.run([bench, "load", "--basalt", store, "--json",
                        os.path.join(tmp, "load.json"), *common], check=True)
        with open(os.path.join(tmp, "load.json")) as f:
            load = json.load(f)
        info["size_basalt"] = dir_size(store)
        info["size_redis"] = redis.memory()
        info["size_postgres"] = pg.size()
        embedded = os.path.join(tmp, "basalt-in-process")
        shutil.copytree(store, embedded)
        second = []
        if args.second_server:
            second_store = os.path.join(tmp, "basalt-second")
            shutil.copytree(store, second_store)
        server = BasaltServer(basalt, store, os.path.join(tmp, "serve.log"))
        started.append(server)
        if args.second_server:
            other = BasaltServer(basalt, second_store, os.path.join(tmp, "serve-second.log"),
                                 shlex.split(args.second_server))
            started.append(other)
            second = ["--second-thrift", other.thrift, "--second-name", second_name(args)]
        info["load_run"] = loadavg()
        log(f"measuring (load average {info['load_run']})")
        subprocess.run([bench, "run", "--thrift", server.thrift, "--embedded", embedded,
                        "--seconds", str(args.seconds), "--rounds", str(args.rounds),
                        "--clients", str(args.clients), "--json", os.path.join(tmp, "run.json"),
                        *second, *common], check=True)
        with open(os.path.join(tmp, "run.json")) as f:
            figures = {}
            for r in json.load(f):
                level = 0 if r["clients"] == 1 else 1
                figures[(r["system"], r["op"], level)] = r
        rest = rest_cell_gets(server.url, load["point_rows"], args.seconds, args.rounds,
                              args.clients)
        info["calls"] = count_calls(bench, server.thrift, args.scale)
        info["load_end"] = loadavg()
    finally:
        for s in reversed(started):
            s.stop()
        if args.keep:
            log(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)

    table = report(args, info, load, figures, rest)
    print(table, end="")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table)


if __name__ == "__main__":
    main()
