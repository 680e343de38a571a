#!/usr/bin/env bash
# YCSB's core workloads A-F on basalt against raw RocksDB (bench/ycsb_bench.cc), in one command:
#   1. builds `basalt` and `basalt_ycsb_bench` (release; --no-build skips it);
#   2. runs the bench with basalt embedded;
#   3. starts a private `basalt serve` on a temporary data directory, HTTP and Thrift2 on free
#      loopback ports (loopback needs no credentials: docs/security.md), Thrift1 off, access log
#      off, and runs the bench again with basalt over thrift:// (raw RocksDB still in process);
#   4. stops the server and writes both markdown tables to --markdown FILE (default
#      /tmp/ycsb.md), and prints them.
# Every other argument goes to both runs of the bench (e.g. --records 200000 --operations 50000).
#
#   scripts/ycsb.sh [--no-build] [--markdown FILE] [BENCH_ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
markdown=/tmp/ycsb.md
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=0 ;;
    --markdown) markdown="$2"; shift ;;
    *) args+=("$1") ;;
  esac
  shift
done

if [ "$build" = 1 ]; then
  BASALT_BUILD_TESTS="${BASALT_BUILD_TESTS:-OFF}" scripts/build.sh release \
    --target basalt basalt_ycsb_bench
fi
bin=build/release/basalt
bench=build/release/bench/basalt_ycsb_bench

tmp="$(mktemp -d /tmp/basalt-ycsb.XXXXXX)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

echo "== embedded ($(date -u +%H:%M:%S) UTC, load average $(cut -d' ' -f1-3 /proc/loadavg))"
"$bench" --label embedded --dir "$tmp/bench" --markdown "$tmp/embedded.md" "${args[@]}"

# The server announces "thrift2 on HOST:PORT" and then "listening on http://..." once it accepts.
"$bin" serve --data "$tmp/server" --port 0 --thrift-port 0 --no-thrift1 --no-hbase-rpc \
  --access-log /dev/null >"$tmp/serve.out" 2>"$tmp/serve.err" &
server_pid=$!
for _ in $(seq 300); do
  grep -q "listening on" "$tmp/serve.out" && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$tmp/serve.err" >&2; exit 1; }
  sleep 0.1
done
port="$(sed -n 's/.*thrift2 on [0-9.]*:\([0-9]*\).*/\1/p' "$tmp/serve.out")"
[ -n "$port" ] || { echo "basalt serve did not announce its Thrift2 port" >&2; exit 1; }

echo "== thrift://127.0.0.1:$port ($(date -u +%H:%M:%S) UTC, load average $(cut -d' ' -f1-3 /proc/loadavg))"
"$bench" --label thrift:// --url "thrift://127.0.0.1:$port" --dir "$tmp/bench" \
  --markdown "$tmp/thrift.md" "${args[@]}"

kill -TERM "$server_pid"
wait "$server_pid" || { echo "basalt serve failed:" >&2; cat "$tmp/serve.err" >&2; exit 1; }
server_pid=""

{
  echo "basalt embedded against raw RocksDB:"
  echo
  cat "$tmp/embedded.md"
  echo
  echo "basalt over thrift:// (a local \`basalt serve\`) against raw RocksDB in process:"
  echo
  cat "$tmp/thrift.md"
} >"$markdown"
echo "== done ($(date -u +%H:%M:%S) UTC); tables in $markdown"
cat "$markdown"
