#!/usr/bin/env bash
# The recipe benchmarks with basalt over thrift:// as well as embedded, in one command:
#   1. builds `basalt`, `basalt_feed_bench` and `basalt_w1_bench` (release; --no-build skips it);
#   2. for each bench, starts a private `basalt serve` on a fresh temporary data directory, HTTP
#      and Thrift2 on free loopback ports (loopback needs no credentials: docs/security.md),
#      Thrift1 off, access log off, and runs the bench with `--url thrift://127.0.0.1:PORT
#      --metrics http://127.0.0.1:HTTP_PORT`: the bench runs basalt embedded, then over thrift://
#      (reading the server's Thrift2 call count from /metrics around each phase), then its raw
#      RocksDB (and, for w1, SQLite) side in process; then stops the server;
#   3. writes both markdown tables to --markdown FILE (default /tmp/recipes_over_thrift.md), and
#      prints them.
#
#   scripts/recipes_over_thrift.sh [--no-build] [--markdown FILE] [--only feed|w1]
#       [--target thrift://HOST:PORT] [--feed "FEED_BENCH_ARGS"] [--w1 "W1_BENCH_ARGS"]
#
# --target runs the thrift:// side against that Thrift2 server instead of a private basalt serve,
# e.g. an Apache HBase's Thrift2 gateway (docs/benchmarks.md, "The recipes on Apache HBase"):
#   eval "$(scripts/hbase.sh start)"
#   scripts/recipes_over_thrift.sh --target "$BASALT_TEST_THRIFT_TARGET" --feed "..." --w1 "..."
# It has no /metrics, so the tables give no calls per operation (they are the client's, the same
# as against basalt serve). The benches need their tables fresh: the target must hold no tables
# at all (a scratch cluster; refused otherwise), and every table a bench creates there is dropped
# after it (and when the script stops early).
#
# The defaults are a modest scale (a few minutes a bench on 2 cores):
#   --feed "--scale 0.05 --follows 250 --reads 1000"   --w1 "--scale 0.05 --seconds 2 --rounds 3"
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
markdown=/tmp/recipes_over_thrift.md
only=""
target=""
feed_args="--scale 0.05 --follows 250 --reads 1000"
w1_args="--scale 0.05 --seconds 2 --rounds 3"
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=0 ;;
    --markdown) markdown="$2"; shift ;;
    --only) only="$2"; shift ;;
    --target) target="$2"; shift ;;
    --feed) feed_args="$2"; shift ;;
    --w1) w1_args="$2"; shift ;;
    *) echo "unknown argument $1 (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
  shift
done
case "$only" in
  "" | feed | w1) ;;
  *) echo "--only feed or --only w1" >&2; exit 2 ;;
esac
case "$target" in
  "" | thrift://*) ;;
  *) echo "--target takes thrift://HOST:PORT" >&2; exit 2 ;;
esac

if [ "$build" = 1 ]; then
  BASALT_BUILD_TESTS="${BASALT_BUILD_TESTS:-OFF}" scripts/build.sh release \
    --target basalt basalt_feed_bench basalt_w1_bench
fi
bin=build/release/basalt

tmp="$(mktemp -d /tmp/basalt-recipes-thrift.XXXXXX)"
server_pid=""
stop_server() {
  if [ -n "$server_pid" ]; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" || true
    server_pid=""
  fi
}
# With --target: the target's tables, one a line (the CLI's `list` between its header and its
# count).
target_tables() {
  "$bin" --data "$target" list | sed '1d;$d'
}
# Drops every table of the target not in $tmp/tables-before (what the last bench created).
drop_new_tables() {
  [ -n "$target" ] && [ -f "$tmp/tables-before" ] || return 0
  local t
  target_tables | while read -r t; do
    grep -qxF -- "$t" "$tmp/tables-before" || "$bin" --data "$target" drop "$t" >/dev/null
  done
  rm -f "$tmp/tables-before"
}
cleanup() {
  stop_server
  drop_new_tables || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# Starts a fresh server on $tmp/server-$1; sets thrift_port and http_port.
start_server() {
  local dir="$tmp/server-$1"
  # The server announces "thrift2 on HOST:PORT" and then "listening on http://..." once it
  # accepts.
  "$bin" serve --data "$dir" --port 0 --thrift-port 0 --no-thrift1 --no-hbase-rpc \
    --access-log /dev/null >"$tmp/serve-$1.out" 2>"$tmp/serve-$1.err" &
  server_pid=$!
  for _ in $(seq 300); do
    grep -q "listening on" "$tmp/serve-$1.out" && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$tmp/serve-$1.err" >&2; exit 1; }
    sleep 0.1
  done
  thrift_port="$(sed -n 's/.*thrift2 on [0-9.]*:\([0-9]*\).*/\1/p' "$tmp/serve-$1.out")"
  http_port="$(sed -n 's|.*listening on http://[0-9.]*:\([0-9]*\).*|\1|p' "$tmp/serve-$1.out")"
  if [ -z "$thrift_port" ] || [ -z "$http_port" ]; then
    echo "basalt serve did not announce its ports:" >&2
    cat "$tmp/serve-$1.out" >&2
    exit 1
  fi
}

# run NAME BENCH ARGS...: the bench against a fresh server of its own, or against --target.
run() {
  local name="$1" bench="$2"
  shift 2
  if [ -n "$target" ]; then
    target_tables >"$tmp/tables-before"
    if [ -s "$tmp/tables-before" ]; then
      echo "$target holds tables; the benches need a scratch cluster without any:" >&2
      cat "$tmp/tables-before" >&2
      rm -f "$tmp/tables-before"
      exit 1
    fi
    echo "== $name: $target ($(date -u +%H:%M:%S) UTC, load average $(cut -d' ' -f1-3 /proc/loadavg))"
    echo "   $bench $* --url $target"
    "$bench" --dir "$tmp/bench-$name" --markdown "$tmp/$name.md" "$@" --url "$target"
    drop_new_tables
    return
  fi
  start_server "$name"
  echo "== $name: thrift://127.0.0.1:$thrift_port, /metrics on $http_port" \
    "($(date -u +%H:%M:%S) UTC, load average $(cut -d' ' -f1-3 /proc/loadavg))"
  echo "   $bench $* --url thrift://127.0.0.1:PORT --metrics http://127.0.0.1:HTTP_PORT"
  "$bench" --dir "$tmp/bench-$name" --markdown "$tmp/$name.md" "$@" \
    --url "thrift://127.0.0.1:$thrift_port" --metrics "http://127.0.0.1:$http_port"
  stop_server
}

: >"$markdown"
side=""
[ -z "$target" ] || side=" (thrift:// against $target)"
if [ -z "$only" ] || [ "$only" = feed ]; then
  # shellcheck disable=SC2086  # the bench's arguments, split on purpose
  run feed build/release/bench/basalt_feed_bench $feed_args
  { echo "feed_bench $feed_args$side:"; echo; cat "$tmp/feed.md"; echo; } >>"$markdown"
fi
if [ -z "$only" ] || [ "$only" = w1 ]; then
  # shellcheck disable=SC2086
  run w1 build/release/bench/basalt_w1_bench $w1_args
  { echo "w1_bench $w1_args$side:"; echo; cat "$tmp/w1.md"; echo; } >>"$markdown"
fi
echo "== done ($(date -u +%H:%M:%S) UTC); tables in $markdown"
cat "$markdown"
