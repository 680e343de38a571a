#!/usr/bin/env python3
"""Served: basalt over Thrift2, Thrift1 and REST against a private Redis, PostgreSQL and nginx.

Never a test. One command, on this machine, in one run:

  1. installs what is missing of Debian's redis-server, postgresql, libhiredis-dev, libpq-dev,
     wrk and nginx-light (apt-get; as root), and builds `basalt` and `basalt_served_bench`
     (--no-build skips it);
  2. starts a private redis-server on a free loopback port and a private PostgreSQL 15 (initdb
     into the temporary directory, run as the `postgres` user when we are root), both on
     127.0.0.1 TCP as basalt's Thrift servers are;
  3. `basalt_served_bench load`: generates the `action-log` workload's log (100,000 x scale users,
     5,000,000 x scale actions), the `home-feed` workload's microblog (20,000 x scale users,
     100,000 x scale posts) and 100,000 x scale 100-byte point rows, and loads them into an
     embedded basalt store (in process, before any server runs), Redis and PostgreSQL;
  4. copies the store (the in-process side opens the copy: one store has one owner) and starts
     `basalt serve` on the original (Thrift2, Thrift1 and REST on free loopback ports, access log
     to /dev/null); with --second-server FLAGS, also a second `basalt serve` with those flags on
     another copy, measured as one more system (e.g. a server setting on and off in one run);
  5. `basalt_served_bench run`: every workload (point get, latest page, home timeline, write) on
     every system at each of --clients (in process: 1 and 2 threads), the systems taking turns
     in --rounds rounds of --seconds; then, under wrk at the same counts of connections, REST's
     single-cell GET (bench/http_bench.lua's `cell` mode) and a private nginx serving a 100-byte
     static file (`static` mode: the HTTP limit of this machine), taking turns in --rounds
     rounds; then counts the Thrift2 calls of each operation through a counting proxy
     (`basalt_served_bench calls`, one client);
  6. stops everything, removes the directory and prints a markdown report.

Durability, matched to basalt's default (every write in its WAL, handed to the OS, not fsynced):
Redis with appendonly yes + appendfsync no (the AOF is written before the reply, never fsynced;
no RDB snapshots, no AOF rewrites during the run); PostgreSQL with synchronous_commit=off (fsync
stays on for checkpoints).

    bench/served_bench.py [--scale 1.0] [--seconds 1] [--rounds 9] [--clients 1,16,64,256]
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

PACKAGES = ("redis-server", "postgresql", "libhiredis-dev", "libpq-dev", "wrk", "nginx-light")
PG_BIN = "/usr/lib/postgresql/15/bin"
OPS = ("get", "latest", "home", "write")
OP_NAMES = {
    "get": "point get (100 bytes)",
    "latest": "latest 10 after 20",
    "home": "home timeline (20 posts)",
    "write": "write (100 bytes)",
}
REST = "basalt REST (wrk)"
NGINX = "nginx static file (wrk)"


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
                   "-c jit=off -c max_connections=300")
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
                 "--thrift1-port", "0", "--no-hbase-rpc", "--access-log", os.devnull, *flags],
                stdout=subprocess.PIPE, stderr=err, text=True)
        self.thrift = self.thrift1 = None
        for line in self.proc.stdout:
            m = re.search(r"(thrift[12]) on ([0-9.]+):(\d+)", line)
            if m:
                setattr(self, "thrift" if m.group(1) == "thrift2" else "thrift1",
                        f"127.0.0.1:{m.group(3)}")
            m = re.search(r"listening on http://([0-9.]+):(\d+)", line)
            if m:
                self.url = f"http://127.0.0.1:{m.group(2)}"
                break
        else:
            sys.exit(f"basalt serve did not start: {self.errors()}")
        if self.thrift is None or self.thrift1 is None:
            sys.exit("basalt serve did not announce its Thrift2 and Thrift1 ports")

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        if self.proc.wait(timeout=120) != 0:
            sys.exit(f"basalt serve failed: {self.errors()}")

    def errors(self):
        with open(self.log_path) as f:
            return f.read()


class Nginx:
    """A private nginx serving one 100-byte file, /value, on a free loopback port: one worker per
    core, keep-alive without a request cap, no access log."""

    def __init__(self, tmp):
        self.dir = os.path.join(tmp, "nginx")
        os.makedirs(os.path.join(self.dir, "www"))
        with open(os.path.join(self.dir, "www", "value"), "w") as f:
            f.write("v" * 100)
        self.port = free_port()
        conf = os.path.join(self.dir, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""daemon off;
worker_processes {os.cpu_count()};
pid {self.dir}/nginx.pid;
error_log {self.dir}/error.log;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  keepalive_requests 100000000;
  client_body_temp_path {self.dir}/body;
  proxy_temp_path {self.dir}/proxy;
  fastcgi_temp_path {self.dir}/fastcgi;
  uwsgi_temp_path {self.dir}/uwsgi;
  scgi_temp_path {self.dir}/scgi;
  server {{
    listen 127.0.0.1:{self.port};
    root {self.dir}/www;
    default_type application/octet-stream;
  }}
}}
""")
        log_path = os.path.join(self.dir, "error.log")
        self.proc = subprocess.Popen(["nginx", "-e", log_path, "-p", self.dir, "-c", conf],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.url = f"http://127.0.0.1:{self.port}"
        for _ in range(100):
            if self.proc.poll() is not None:
                with open(log_path) as f:
                    sys.exit(f"nginx did not start: {f.read()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            sys.exit("nginx did not start")

    def stop(self):
        self.proc.send_signal(signal.SIGQUIT)  # graceful: the workers finish, then the master
        self.proc.wait(timeout=60)


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


def tables(path):
    """The tables of a harness --json file by title, each row's cells as numbers where they are."""
    def number(v):
        try:
            return int(v)
        except ValueError:
            try:
                return float(v)
            except ValueError:
                return v
    with open(path) as f:
        doc = json.load(f)
    return {t["title"]: [{k: number(v) for k, v in row.items()} for row in t["rows"]]
            for t in doc["tables"]}


def http_gets(rest_url, nginx_url, rows, seconds, rounds, levels):
    """REST single-cell GETs and nginx's static file under wrk at each count of connections, the
    two taking turns (the first alternating) for `rounds` rounds: the median round of each, by
    throughput, with its latencies."""
    sides = ((REST, rest_url, "cell"), (NGINX, nginx_url, "static"))
    out = {}
    for c in levels:
        args = types.SimpleNamespace(wrk_threads=2, connections=c, rows=rows)
        runs = {name: [] for name, _, _ in sides}
        for _, url, mode in sides:
            http_bench.run_wrk(url, mode, args, 1, "")  # warm-up
        for r in range(rounds):
            for k in range(len(sides)):
                name, url, mode = sides[(r + k) % len(sides)]
                run = http_bench.run_wrk(url, mode, args, max(1, round(seconds)), "")
                log(f"{name} {c} connections: {run['ops_per_s']:.0f} req/s")
                runs[name].append(run)
        for name, rs in runs.items():
            out[(name, "get", c)] = sorted(rs, key=lambda x: x["ops_per_s"])[len(rs) // 2]
    return out


def fmt_us(x):
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}"


def second_name(args):
    return f"basalt Thrift2 ({args.second_server})"


def report(args, info, load, figures):
    """The markdown report. figures[(system, op, clients)] = {ops_per_s, p50_us, p99_us,
    p999_us, ...}; in process is keyed by its threads."""
    levels = args.clients
    top = levels[-1]

    def cell(fig):
        return (f"{fig['ops_per_s']:,.0f} · {fmt_us(fig['p50_us'])} / {fmt_us(fig['p99_us'])} / "
                f"{fmt_us(fig['p999_us'])}") if fig else ""

    def in_process(op, c):
        t = min(c, 2)
        first = next(level for level in levels if min(level, 2) == t)
        return figures.get(("basalt in process", op, t)) if c == first else None

    lines = [
        f"Scale {args.scale:g}: {load['point_rows']:,} point rows; {load['users']:,} users and "
        f"{load['actions']:,} actions (action-log); {load['feed_users']:,} users, "
        f"{load['follows']:,} follows, {load['posts']:,} posts, {load['inbox_entries']:,} inbox "
        f"entries (home-feed). {args.rounds} rounds of {args.seconds:g} s per system, workload "
        "and client count, the systems taking turns; a cell is the median round's ops/s · p50 / "
        "p99 / p99.9 µs over all rounds' calls (wrk's rows: the median round's). In process runs "
        "1 and 2 threads. Before measuring, 200 calls of each read returned the same items (by "
        f"time) on every system; items per call: latest "
        f"{figures[('Redis', 'latest', levels[0])]['items_per_op']:.2f}, home "
        f"{figures[('Redis', 'home', levels[0])]['items_per_op']:.2f}. Thrift2 calls per "
        "operation (one client, 500 operations, counted by a proxy after the measurements): "
        + ", ".join(f"{op} {info['calls'][op]:.2f}" for op in OPS) + ".",
        "",
        f"Machine: {info['cpus']} cores, {info['platform']}; {info['redis']}; {info['pg']}; "
        f"{info['nginx']}. Load average (1/5/15 min): {info['load_start']} at the start, "
        f"{info['load_run']} before the measurements, {info['load_end']} at the end.",
        "",
        "| workload | system | " + " | ".join(f"{c} client{'s' if c > 1 else ''}" for c in levels) + " |",
        "| --- | --- |" + " ---: |" * len(levels),
    ]
    thrift2 = ["basalt Thrift2"] + ([second_name(args)] if args.second_server else [])
    for op in OPS:
        systems = ["basalt in process"] + thrift2
        if op == "get":
            systems += ["basalt Thrift1", REST, NGINX]
        for system in systems + ["Redis", "PostgreSQL"]:
            if system == "basalt in process":
                cells = [cell(in_process(op, c)) for c in levels]
                system = "basalt in process (1, 2 threads)"
            else:
                cells = [cell(figures.get((system, op, c))) for c in levels]
            lines.append(f"| {OP_NAMES[op]} | {system} | " + " | ".join(cells) + " |")

    def ratio(a, b, key="ops_per_s"):
        return f"{a[key] / b[key]:.2f}x" if a and b and b[key] else ""

    lines += ["", "Ratios to Redis (ops/s: higher is better for basalt; p99: lower is):", "",
              "| workload | system | " + " | ".join(f"ops/s, {c}" for c in levels) +
              f" | p99, {top} |", "| --- | --- |" + " ---: |" * (len(levels) + 1)]
    for op in OPS:
        for system in thrift2 + (["basalt Thrift1", REST] if op == "get" else []):
            redis = [figures.get(("Redis", op, c)) for c in levels]
            mine = [figures.get((system, op, c)) for c in levels]
            lines.append(f"| {OP_NAMES[op]} | {system} | " +
                         " | ".join(ratio(m, r) for m, r in zip(mine, redis)) +
                         f" | {ratio(mine[-1], redis[-1], 'p99_us')} |")
    lines.append(f"| {OP_NAMES['get']} | {REST} / nginx | " +
                 " | ".join(ratio(figures.get((REST, "get", c)), figures.get((NGINX, "get", c)))
                            for c in levels) + " | |")

    targets = []
    for c in levels[1:]:
        for op in ("get", "latest", "home"):
            f = figures.get(("basalt Thrift2", op, c))
            r = figures.get(("Redis", op, c))
            targets.append((f"{c} clients: Thrift2 / Redis ops/s, {OP_NAMES[op]}", "≥ 1.0",
                            f["ops_per_s"] / r["ops_per_s"], 1.0, True))
    for c in (16, 64):
        if c in levels:
            targets.append((f"{c} connections: REST cell GET / nginx static file", "≥ 0.5",
                            figures[(REST, "get", c)]["ops_per_s"] /
                            figures[(NGINX, "get", c)]["ops_per_s"], 0.5, True))
    for op in ("get", "latest", "home"):
        targets.append((f"{top} clients: Thrift2 p99 / Redis p99, {OP_NAMES[op]}", "≤ 2.0",
                        figures[("basalt Thrift2", op, top)]["p99_us"] /
                        figures[("Redis", op, top)]["p99_us"], 2.0, False))
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
        parts = [load[f"{key} {p}"] for p in ("get", "latest", "home")]
        extra = load.get(f"{key} close", 0)
        lines.append(f"| {name} | {parts[0]:.1f} | {parts[1]:.1f} | {parts[2]:.1f} | "
                     f"{sum(parts) + extra:.1f} | {info['size_' + key] / 2**20:,.0f} MiB |")
    lines.append("")
    lines.append("basalt's total includes closing the store (a flush); its size is the data "
                 "directory, Redis's `used_memory`, PostgreSQL's `pg_database_size`.")
    return "\n".join(lines) + "\n"


def client_counts(text):
    counts = sorted({int(c) for c in text.split(",") if c.strip()})
    if not counts or counts[0] < 1:
        raise argparse.ArgumentTypeError("a list of positive counts, e.g. 1,16,64,256")
    return counts


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--clients", type=client_counts, default=[1, 16, 64, 256],
                   help="client counts, each measured (default 1,16,64,256)")
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
    info["nginx"] = subprocess.run(["nginx", "-v"], capture_output=True,
                                   text=True).stderr.strip().replace("nginx version: ", "")
    tmp = tempfile.mkdtemp(prefix="basalt-served-bench-", dir=args.workdir)
    os.chmod(tmp, 0o755)  # PostgreSQL's and nginx's users must reach their directories
    started = []
    try:
        redis = Redis(tmp)
        started.append(redis)
        pg = Postgres(tmp)
        started.append(pg)
        nginx = Nginx(tmp)
        started.append(nginx)
        store = os.path.join(tmp, "basalt")
        common = ["--redis", redis.address, "--pg", pg.conninfo, "--scale", str(args.scale)]
        log(f"loading at scale {args.scale:g} (load average {loadavg()})")
        subprocess.run([bench, "load", "--basalt", store, "--json",
                        os.path.join(tmp, "load.json"), *common], check=True,
                       stdout=subprocess.DEVNULL)
        load = tables(os.path.join(tmp, "load.json"))["load"][0]
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
        subprocess.run([bench, "run", "--thrift", server.thrift, "--thrift1", server.thrift1,
                        "--embedded", embedded, "--seconds", str(args.seconds), "--rounds",
                        str(args.rounds), "--clients", ",".join(map(str, args.clients)),
                        "--json", os.path.join(tmp, "run.json"), *second, *common], check=True,
                       stdout=subprocess.DEVNULL)
        figures = {(r["system"], r["workload"], r["clients"]): r
                   for r in tables(os.path.join(tmp, "run.json"))["served"]}
        figures.update(http_gets(server.url, nginx.url, load["point_rows"], args.seconds,
                                 args.rounds, args.clients))
        info["calls"] = count_calls(bench, server.thrift, args.scale)
        info["load_end"] = loadavg()
    finally:
        for s in reversed(started):
            s.stop()
        if args.keep:
            log(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)

    table = report(args, info, load, figures)
    print(table, end="")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table)


if __name__ == "__main__":
    main()
