#!/usr/bin/env bash
# HBase's stock Java clients against basalt and a real HBase, on the same data: the native
# Connection (HBase's RPC), ThriftConnection (Thrift2) and RemoteHTable (REST), each doing a point
# Get and a 10-row scan (one thread: p50, p99) and point Gets from 16 threads (ops/s).
# bench/java-clients/ is the program (JavaClientsBench); this script builds it with Maven (offline
# after the first run, ~/.m2), starts what it measures, runs it and prints a table.
#   bench/java_clients_bench.sh --basalt BINARY [--hbase] [--results FILE] [-- PROGRAM ARGS]
#     --basalt BINARY  a `BINARY serve` of its own: fresh temporary store, free loopback ports,
#                      --hbase-rpc-port on a free port, --no-thrift1; stopped (SIGTERM) at the end
#     --hbase          scripts/hbase.sh's HBase (BASALT_HBASE_DIR, default build/hbase): the one
#                      that runs, else one started for the run and stopped after it
#     --results FILE   keep the program's result lines
#     PROGRAM ARGS     passed on: --rounds N, --rows N, --gets N, --scans N, --seconds S,
#                      --threads N, --clients native,thrift,rest, --ops get,scan10,get16, ...
# With both targets the program alternates them within each round; the table gives per target
# the median of the rounds (and their range) and the ratio basalt / HBase.
# BASALT_JAVA names a JDK 17 `java` (default Debian's openjdk-17). The basalt server's pid is
# printed on stderr, for `perf record -p`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
project="$root/bench/java-clients"

say() { echo "java_clients_bench.sh: $*" >&2; }
usage() {
  echo "usage: $0 [--basalt BINARY] [--hbase] [--results FILE] [-- PROGRAM ARGS]" >&2
  exit 2
}

binary="" hbase=0 results=""
while [ $# -gt 0 ]; do
  case "$1" in
    --basalt) [ $# -ge 2 ] || usage; binary="$2"; shift 2 ;;
    --hbase) hbase=1; shift ;;
    --results) [ $# -ge 2 ] || usage; results="$2"; shift 2 ;;
    --) shift; break ;;
    *) usage ;;
  esac
done
[ -n "$binary" ] || [ "$hbase" = 1 ] || usage

# shellcheck source=scripts/java17.sh
. "$root/scripts/java17.sh"

free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

java="$(find_java)"
export JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$java")")")"
command -v mvn >/dev/null 2>&1 || { say "mvn not found; install Debian's maven"; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/basalt-java-clients-bench.XXXXXX")"
serve_pid="" started_hbase=0
state="${BASALT_HBASE_DIR:-$root/build/hbase}"
cleanup() {
  if [ -n "$serve_pid" ] && kill -0 "$serve_pid" 2>/dev/null; then
    kill -TERM "$serve_pid" 2>/dev/null || true
    for _ in $(seq 1 150); do kill -0 "$serve_pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$serve_pid" 2>/dev/null || true
  fi
  if [ "$started_hbase" = 1 ]; then
    BASALT_HBASE_DIR="$state" "$root/scripts/hbase.sh" stop >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# The program and its classpath; Maven offline first, so that a run after the first needs no
# network.
mvn_args=(-B -q -f "$project/pom.xml" compile dependency:build-classpath
          -Dmdep.includeScope=runtime "-Dmdep.outputFile=$work/classpath.txt")
if ! mvn -o "${mvn_args[@]}" >"$work/mvn.log" 2>&1; then
  say "resolving the program's jars from Maven Central (the first run only)"
  mvn "${mvn_args[@]}" >"$work/mvn.log" 2>&1 || { tail -n 30 "$work/mvn.log" >&2; exit 1; }
fi

targets=()
if [ -n "$binary" ]; then
  [ -x "$binary" ] || { say "$binary is not an executable basalt binary"; exit 1; }
  rpc_port="$(free_port)"
  mkdir -p "$work/data"
  "$binary" serve --data "$work/data" --bind 127.0.0.1 --port 0 --thrift-port 0 --no-thrift1 \
    --hbase-rpc-port "$rpc_port" </dev/null >"$work/serve.out" 2>"$work/serve.log" &
  serve_pid=$!
  thrift2_port="" http_port=""
  for _ in $(seq 1 300); do
    kill -0 "$serve_pid" 2>/dev/null || break
    thrift2_port="$(sed -n 's/.*thrift2 on [0-9.]*:\([0-9]*\).*/\1/p' "$work/serve.out" | head -n 1)"
    http_port="$(sed -n 's|.*listening on http://[0-9.]*:\([0-9]*\).*|\1|p' "$work/serve.out" | head -n 1)"
    if [ -n "$thrift2_port" ] && [ -n "$http_port" ] &&
       /usr/bin/python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()' \
         "$rpc_port" 2>/dev/null; then
      break
    fi
    thrift2_port="" http_port=""
    sleep 0.1
  done
  if [ -z "$http_port" ]; then
    cat "$work/serve.out" >&2; tail -n 20 "$work/serve.log" >&2
    say "basalt serve did not start"
    exit 1
  fi
  say "basalt serve pid $serve_pid: HBase RPC $rpc_port, Thrift2 $thrift2_port, REST $http_port"
  targets+=(--target "basalt,127.0.0.1,$rpc_port,$thrift2_port,$http_port")
fi
if [ "$hbase" = 1 ]; then
  if ! BASALT_HBASE_DIR="$state" "$root/scripts/hbase.sh" status >/dev/null 2>&1 ||
     [ ! -f "$state/ports.env" ]; then
    say "starting scripts/hbase.sh's HBase for the run"
    started_hbase=1
    BASALT_HBASE_DIR="$state" "$root/scripts/hbase.sh" start >/dev/null
  fi
  # shellcheck disable=SC1091
  . "$state/ports.env"
  say "HBase: master RPC $HBASE_MASTER_PORT, Thrift2 $HBASE_THRIFT2_PORT, REST $HBASE_REST_PORT"
  targets+=(--target "hbase,127.0.0.1,$HBASE_MASTER_PORT,$HBASE_THRIFT2_PORT,$HBASE_REST_PORT")
fi

# The JDK 17 openings HBase's bin/hbase gives its client JVMs.
"$java" -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED \
  --add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/java.util.concurrent=ALL-UNNAMED \
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
  -cp "$project/target/classes:$(cat "$work/classpath.txt")" org.basalt.bench.JavaClientsBench \
  "${targets[@]}" "$@" | tee "$work/results.txt"
status=${PIPESTATUS[0]}
[ -n "$results" ] && cp "$work/results.txt" "$results"
if [ "$status" != 0 ]; then
  [ -n "$serve_pid" ] && { say "end of basalt serve's log:"; tail -n 20 "$work/serve.log" >&2; }
  say "the benchmark failed ($status)"
  exit 1
fi

# The table: per (client, operation) the median over rounds for each target, its range, and
# basalt / HBase when both ran.
/usr/bin/python3 - "$work/results.txt" <<'EOF'
import collections, statistics, sys
rows = collections.defaultdict(list)
order = []
for line in open(sys.argv[1]):
    if not line.startswith("result "):
        continue
    f = dict(kv.split("=", 1) for kv in line.split()[1:])
    key = (f["client"], f["op"])
    if key not in order:
        order.append(key)
    rows[key + (f["target"],)].append(f)
targets = sorted({k[2] for k in rows}, key=lambda t: (t != "basalt", t))
def fig(fs, name):
    vals = [float(f[name]) for f in fs]
    return statistics.median(vals), min(vals), max(vals)
print()
print("| client | operation | figure | " + " | ".join(f"{t} (median, range)" for t in targets)
      + (" | basalt / hbase |" if targets == ["basalt", "hbase"] else " |"))
print("| --- | --- | --- | " + " | ".join("---:" for _ in targets)
      + (" | ---: |" if targets == ["basalt", "hbase"] else " |"))
for client, op in order:
    names = ["ops_s"] if op == "get16" else ["p50_us", "p99_us"]
    for name in names:
        cells, meds = [], {}
        for t in targets:
            fs = rows.get((client, op, t))
            if not fs:
                cells.append("-")
                continue
            m, lo, hi = fig(fs, name)
            meds[t] = m
            cells.append(f"{m:,.0f} ({lo:,.0f}-{hi:,.0f})" if name == "ops_s"
                         else f"{m:,.1f} ({lo:,.1f}-{hi:,.1f})")
        ratio = ""
        if targets == ["basalt", "hbase"]:
            ratio = (" | %.2fx" % (meds["basalt"] / meds["hbase"])
                     if "basalt" in meds and "hbase" in meds and meds["hbase"] else " | -")
        unit = "ops/s" if name == "ops_s" else name.replace("_us", " µs")
        print(f"| {client} | {op} | {unit} | " + " | ".join(cells) + ratio + " |")
EOF
