#!/usr/bin/env python3
"""The HTTP server under wrk against the same operations in process. Never a test.

Starts `basalt serve --demo` on a fresh store in a temporary directory (the demo data set at
--demo-scale: 200 x scale users with follows, posts and activity, in namespace `app`), loads ROWS
one-cell rows ("row%08d", f:q = 100 bytes) over REST, restarts the server (so the rows are in
files, as the in-process side finds them), logs every demo user in through /api/v1, and runs wrk
(bench/http_bench.lua) for: single-row GETs, single-cell GETs (octet-stream) and single-cell
PUTs of random rows, a scan of 10 rows by REST's prefix globbing, a random user's home timeline
(20 posts) and latest 10 actions through /api/v1. Then it stops the server and runs the same
calls in process with basalt_rows_bench (Table::Get / GetInto / Put / Scan, Feed::HomeTimeline,
ActivityLog::Page) on the same store. Prints requests/s and latency percentiles of both sides and
the ratio HTTP / in-process (higher is better).

    scripts/build.sh release --target basalt basalt_rows_bench
    bench/http_bench.py [--rows 100000] [--seconds 10] [--connections 16] [--wrk-threads 2]
                        [--threads 2] [--demo-scale 0.1] [--ops get,put,...] [--markdown FILE]

--connections takes a list (1,16): each operation is measured at each. --baseline OLD_BINARY
compares two servers side by side on the same store: --rounds rounds, each starting the
baseline then the measured binary in turn and running every operation against each; the table
gives the median round of each (and every round on stderr).

wrk is Debian's `wrk` package (scripts/install-deps.sh installs it).
"""

import argparse
import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def request(method, url, body=None, content_type="application/json"):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": content_type,
                                          "Accept": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return r.status


OPS = ("get", "cell", "put", "scan10", "timeline", "activity10")
NAMES = {
    "get": "single-row GET / Table::Get",
    "cell": "single-cell GET (octet-stream) / Table::GetInto",
    "put": "single-cell PUT / Table::Put",
    "scan10": "GET /bench/PREFIX* (10 rows) / Scan",
    "timeline": "GET /api/v1/timeline (20 posts) / Feed::HomeTimeline",
    "activity10": "GET /api/v1/users/U/activity (10) / ActivityLog::Page",
}


class Server:
    def __init__(self, binary, data_dir, extra_args=()):
        self.proc = subprocess.Popen(
            [binary, "serve", "--data", data_dir, "--port", "0", "--no-thrift", "--no-thrift1", "--no-hbase-rpc",
             "--access-log", os.devnull, *extra_args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r"listening on http://([0-9.]+):(\d+)", line)
        if not m:
            sys.exit(f"basalt serve did not start: {line!r} {self.proc.stderr.read()!r}")
        self.url = f"http://127.0.0.1:{m.group(2)}"

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        if self.proc.wait(timeout=60) != 0:
            sys.exit(f"basalt serve failed: {self.proc.stderr.read()}")


def b64(text):
    return base64.b64encode(text.encode()).decode()


def load(url, rows):
    assert request("PUT", f"{url}/bench/schema", {"ColumnSchema": [{"name": "f"}]}) == 201
    column, value = b64("f:q"), b64("v" * 100)
    for start in range(0, rows, 1000):
        cells = {"Row": [{"key": b64(f"row{i:08d}"), "Cell": [{"column": column, "$": value}]}
                         for i in range(start, min(rows, start + 1000))]}
        assert request("PUT", f"{url}/bench/fakerow", cells) == 200


def demo_users(scale):
    # As src/app/demo_data.cc scales the demo's 200 users (at least 2).
    return max(2, round(200 * scale))


def log_in_all(url, users):
    """Logs every demo user in; returns "user=token,..." for the wrk script."""
    pairs = []
    for i in range(users):
        name = f"user{i + 1:04d}"
        req = urllib.request.Request(
            f"{url}/api/v1/login", method="POST",
            data=json.dumps({"user": name, "password": "basalt-demo-password"}).encode(),
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            pairs.append(f"{name}={json.load(r)['token']}")
    return ",".join(pairs)


def run_wrk(url, op, args, seconds, tokens, connections=None):
    if connections is None:
        connections = args.connections
    r = subprocess.run(
        ["wrk", "-t", str(min(args.wrk_threads, connections)), "-c", str(connections), "-d",
         f"{seconds}s", "-s", os.path.join(HERE, "http_bench.lua"), url, "--", op,
         str(args.rows), tokens], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"wrk failed: {r.stdout}{r.stderr}")
    out = r.stdout
    m = re.search(r"^WRKJSON (.*)$", out, re.M)
    if not m:
        sys.exit(f"no summary from wrk:\n{out}")
    r = json.loads(m.group(1))
    if r["non_2xx"] or r["socket_errors"]:
        sys.exit(f"wrk {op}: {r['non_2xx']} non-2xx responses, {r['socket_errors']} socket "
                 f"errors:\n{out}")
    return {"ops_per_s": r["requests"] / (r["duration_us"] / 1e6), "p50_us": r["p50_us"],
            "p90_us": r["p90_us"], "p99_us": r["p99_us"], "p999_us": r["p999_us"]}


def run_in_process(binary, data_dir, op, args, seconds):
    r = subprocess.run(
        [binary, "--data", data_dir, "--op", op, "--rows", str(args.rows),
         "--users", str(demo_users(args.demo_scale)), "--namespace", "app",
         "--threads", str(args.threads), "--seconds", str(seconds)],
        capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"basalt_rows_bench failed: {r.stdout}{r.stderr}")
    return json.loads(r.stdout)


def median_round(runs):
    """The run of median throughput (its latencies with it)."""
    return sorted(runs, key=lambda r: r["ops_per_s"])[len(runs) // 2]


def measure_server(binary, data, ops, levels, args, tokens, out, label):
    """Starts `binary` on `data`, runs every operation at every level into out[(op, c)]."""
    server = Server(binary, data)
    for op in ops:
        for c in levels:
            run_wrk(server.url, op, args, args.warmup, tokens, c)
            r = run_wrk(server.url, op, args, args.seconds, tokens, c)
            out.setdefault((op, c), []).append(r)
            print(f"{label} {op} {c} connections: {r['ops_per_s']:.0f} req/s, p50 "
                  f"{r['p50_us']} µs, p99 {r['p99_us']} µs", file=sys.stderr)
    server.stop()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--basalt", default=os.path.join(ROOT, "build/release/basalt"))
    p.add_argument("--rows-bench",
                   default=os.path.join(ROOT, "build/release/bench/basalt_rows_bench"))
    p.add_argument("--rows", type=int, default=100000)
    p.add_argument("--seconds", type=int, default=10)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--connections", default="16", help="wrk connections, a comma list (1,16)")
    p.add_argument("--wrk-threads", type=int, default=2)
    p.add_argument("--threads", type=int, default=2, help="in-process calling threads")
    p.add_argument("--demo-scale", type=float, default=0.1,
                   help="size of the demo data set (serve --demo-scale)")
    p.add_argument("--ops", default=",".join(OPS), help="comma-separated, of " + ", ".join(OPS))
    p.add_argument("--baseline", help="another basalt binary to measure side by side")
    p.add_argument("--rounds", type=int, default=3, help="rounds of each binary (--baseline)")
    p.add_argument("--markdown", help="also write the table to this file")
    args = p.parse_args()
    ops = args.ops.split(",")
    if not ops or any(op not in OPS for op in ops):
        sys.exit(f"--ops: each of {', '.join(OPS)}")
    levels = [int(c) for c in args.connections.split(",")]
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed (apt-get install wrk, or scripts/install-deps.sh)")
    binaries = [args.basalt, args.rows_bench] + ([args.baseline] if args.baseline else [])
    for binary in binaries:
        if not os.access(binary, os.X_OK):
            sys.exit(f"{binary} is missing: scripts/build.sh release --target basalt "
                     "basalt_rows_bench")

    served = {"new": {}, "old": {}}
    inproc = {}
    with tempfile.TemporaryDirectory(prefix="basalt-http-bench-") as tmp:
        data = os.path.join(tmp, "data")
        print("loading the demo data set...", file=sys.stderr)
        server = Server(args.basalt, data,
                        ["--demo", "--demo-scale", str(args.demo_scale)])
        print(f"loading {args.rows} rows over REST...", file=sys.stderr)
        load(server.url, args.rows)
        server.stop()  # a clean stop flushes: both sides then read the rows from files
        server = Server(args.basalt, data)
        print("logging the demo users in...", file=sys.stderr)
        tokens = log_in_all(server.url, demo_users(args.demo_scale))
        server.stop()  # sessions are rows of the store: they outlive the server
        for rnd in range(args.rounds if args.baseline else 1):
            if args.baseline:
                measure_server(args.baseline, data, ops, levels, args, tokens, served["old"],
                               f"round {rnd + 1} baseline")
            measure_server(args.basalt, data, ops, levels, args, tokens, served["new"],
                           f"round {rnd + 1} basalt" if args.baseline else "HTTP")
        for op in ops:
            run_in_process(args.rows_bench, data, op, args, args.warmup)
            inproc[op] = run_in_process(args.rows_bench, data, op, args, args.seconds)
            print(f"in-process {op}: {inproc[op]}", file=sys.stderr)

    def lat(r):
        return " / ".join(f"{r[k]:.0f}" for k in ("p50_us", "p90_us", "p99_us")) + " µs"

    lines = []
    if args.baseline:
        lines += [
            f"| operation | connections | baseline req/s | p50 / p90 / p99 | basalt req/s | "
            f"p50 / p90 / p99 | after / before | in process ({args.threads} threads) | "
            f"ratio after / in process |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for op in ops:
            for c in levels:
                old = median_round(served["old"][(op, c)])
                new = median_round(served["new"][(op, c)])
                lines.append(
                    f"| {NAMES[op]} | {c} | {old['ops_per_s']:.0f} | {lat(old)} | "
                    f"{new['ops_per_s']:.0f} | {lat(new)} | "
                    f"{new['ops_per_s'] / old['ops_per_s']:.2f}x | "
                    f"{inproc[op]['ops_per_s']:.0f} ops/s | "
                    f"{new['ops_per_s'] / inproc[op]['ops_per_s']:.2f}x |")
    else:
        lines += [
            f"| operation | HTTP (wrk) connections | req/s | p50 / p90 / p99 | "
            f"in process ({args.threads} threads) | p50 / p90 / p99 | ratio |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for op in ops:
            for c in levels:
                rest, inproc_r = served["new"][(op, c)][0], inproc[op]
                lines.append(f"| {NAMES[op]} | {c} | {rest['ops_per_s']:.0f} req/s | "
                             f"{lat(rest)} | {inproc_r['ops_per_s']:.0f} ops/s | "
                             f"{lat(inproc_r)} | "
                             f"{rest['ops_per_s'] / inproc_r['ops_per_s']:.2f}x |")
    table = "\n".join(lines) + "\n"
    print(table, end="")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table)


if __name__ == "__main__":
    main()
