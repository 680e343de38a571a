#!/usr/bin/env bash
# Runs basalt_feed_bench with its Redis side: starts a private redis-server on a free loopback
# port (durability as bench/served_bench.py sets it, matched to basalt's default: the AOF written
# before each reply, never fsynced; no RDB snapshots, no AOF rewrites), passes it as --redis, and
# stops it afterwards. Never a test. Arguments go to the bench; the binary is the release build's
# unless BASALT_FEED_BENCH names another.
#
#   bench/feed_bench.sh --scale 0.1 --reads 20000 [--shapes sparse,dense,celebrity] [--markdown F]
#
# Needs redis-server and a bench built with hiredis (libhiredis-dev, then
# scripts/build.sh release --target basalt_feed_bench).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bench="${BASALT_FEED_BENCH:-$root/build/release/bench/basalt_feed_bench}"
command -v redis-server >/dev/null || { echo "feed_bench.sh: needs redis-server" >&2; exit 1; }
[ -x "$bench" ] || { echo "feed_bench.sh: no $bench (build basalt_feed_bench)" >&2; exit 1; }

tmp="$(mktemp -d /tmp/feed-bench-redis.XXXXXX)"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
redis-server --bind 127.0.0.1 --port "$port" --save "" --appendonly yes --appendfsync no \
  --auto-aof-rewrite-percentage 0 --dir "$tmp" --logfile "$tmp/log" --daemonize no \
  >/dev/null 2>&1 &
redis_pid=$!
cleanup() {
  kill "$redis_pid" 2>/dev/null || true
  wait "$redis_pid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
for _ in $(seq 100); do
  if [ "$(redis-cli -h 127.0.0.1 -p "$port" PING 2>/dev/null)" = PONG ]; then break; fi
  kill -0 "$redis_pid" 2>/dev/null || { echo "feed_bench.sh: redis-server did not start" >&2; exit 1; }
  sleep 0.1
done
echo "redis-server $(redis-server --version | sed -n 's/.*v=\([^ ]*\).*/\1/p') on 127.0.0.1:$port"
"$bench" --redis "127.0.0.1:$port" "$@"
