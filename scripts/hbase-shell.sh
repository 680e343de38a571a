#!/usr/bin/env bash
# HBase's own shell (`hbase shell`, from Maven Central's jars: tests/java/hbase-shell/pom.xml)
# runs tests/java/hbase-shell/smoke.rb non-interactively, and its output, normalized, must be
# tests/java/hbase-shell/smoke.expected line for line, with no ERROR line anywhere.
#   scripts/hbase-shell.sh --basalt BINARY
#       against a `basalt serve` of its own (free loopback ports, HBase's RPC on one, a fresh
#       store); fails unless that also exits 0 on SIGTERM.
#   scripts/hbase-shell.sh --hbase
#       against the HBase scripts/hbase.sh started (its state directory: BASALT_HBASE_DIR, default
#       build/hbase), or the master at HBASE_HOST (default 127.0.0.1):HBASE_MASTER_PORT when set;
#       exits 77 (skipped) when neither.
# The shell is HBase 2.4.17's, on its own 2.4.17 client, which bootstraps with MasterRegistry
# from hbase.masters (the pom says why not the 2.6.1 client). Normalizing drops what differs
# from run to run or between the two servers without being what the script checks: timings,
# cell timestamps, and in `describe` the table's attributes (HBase's master adds its store file
# tracker's) and every family setting but NAME, VERSIONS, MIN_VERSIONS, TTL,
# KEEP_DELETED_CELLS, COMPRESSION, BLOOMFILTER and BLOCKSIZE (HBase 2.6's master fills in
# defaults the 2.4 client does not know, such as INDEX_BLOCK_ENCODING).
# BASALT_HBASE_SHELL_KEEP=1 keeps the work directory (the shell's raw output) and names it.
# Needs a JDK 17 (BASALT_JAVA, else Debian's openjdk-17) and Maven, which resolves the jars into
# ~/.m2 on the first run; the classpath is kept in build/hbase-shell, by the pom's checksum.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
project="$root/tests/java/hbase-shell"
cache="$root/build/hbase-shell"

say() { echo "hbase-shell.sh: $*" >&2; }
usage() { echo "usage: $0 --basalt BINARY | --hbase" >&2; exit 2; }

target="" binary=""
case "${1:-}" in
  --basalt) [ $# -eq 2 ] || usage; target=basalt binary="$2" ;;
  --hbase) [ $# -eq 1 ] || usage; target=hbase ;;
  *) usage ;;
esac

# shellcheck source=scripts/java17.sh
. "$root/scripts/java17.sh"

# The shell's runtime classpath, resolved once per version of the pom; Maven offline first.
classpath() {
  local sum cp="$cache/classpath.txt" stamp="$cache/classpath.sha256"
  mkdir -p "$cache"
  sum="$(sha256sum "$project/pom.xml" | cut -d' ' -f1)"
  if [ -f "$cp" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ] &&
     tr ':' '\n' <"$cp" | while read -r jar; do [ -f "$jar" ] || exit 1; done; then
    return 0
  fi
  command -v mvn >/dev/null 2>&1 || { say "mvn not found; install Debian's maven"; return 1; }
  local args=(-B -q -f "$project/pom.xml" dependency:build-classpath -Dmdep.includeScope=runtime
              "-Dmdep.outputFile=$cp.new")
  if ! mvn -o "${args[@]}" >"$cache/mvn.log" 2>&1; then
    say "resolving the shell's jars from Maven Central (the first run only)"
    if ! mvn "${args[@]}" >"$cache/mvn.log" 2>&1; then
      tail -n 30 "$cache/mvn.log" >&2
      say "Maven could not resolve $project/pom.xml"
      return 1
    fi
  fi
  mv "$cp.new" "$cp"
  echo "$sum" >"$stamp"
}

free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

accepts() {
  /usr/bin/python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1).close()' "$1" 2>/dev/null
}

work="$(mktemp -d "${TMPDIR:-/tmp}/basalt-hbase-shell.XXXXXX")"
serve_pid=""
cleanup() {
  if [ -n "$serve_pid" ] && kill -0 "$serve_pid" 2>/dev/null; then kill -KILL "$serve_pid" 2>/dev/null || true; fi
  if [ "${BASALT_HBASE_SHELL_KEEP:-}" = 1 ]; then say "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

if [ "$target" = basalt ]; then
  [ -x "$binary" ] || { say "$binary is not an executable basalt binary"; exit 1; }
  host=127.0.0.1 port="$(free_port)"
  "$binary" serve --data "$work/data" --bind 127.0.0.1 --port 0 --thrift-port 0 --no-thrift1 \
    --hbase-rpc-port "$port" </dev/null >"$work/serve.out" 2>"$work/serve.log" &
  serve_pid=$!
  for _ in $(seq 1 100); do
    accepts "$port" && break
    kill -0 "$serve_pid" 2>/dev/null || break
    sleep 0.1
  done
  if ! accepts "$port"; then
    tail -n 20 "$work/serve.log" >&2
    say "basalt serve did not open HBase's RPC port $port"
    exit 1
  fi
else
  state="${BASALT_HBASE_DIR:-$root/build/hbase}"
  if [ -z "${HBASE_MASTER_PORT:-}" ]; then
    if ! "$root/scripts/hbase.sh" status >/dev/null 2>&1 || [ ! -f "$state/ports.env" ]; then
      echo "no HBase runs (scripts/hbase.sh start first, or set HBASE_MASTER_PORT; docs/hbase.md): skipped"
      exit 77
    fi
    # shellcheck disable=SC1091
    . "$state/ports.env"
  fi
  [ -n "${HBASE_MASTER_PORT:-}" ] || { say "$state/ports.env names no HBASE_MASTER_PORT (restart that HBase)"; exit 1; }
  host="${HBASE_HOST:-127.0.0.1}" port="$HBASE_MASTER_PORT"
fi

java="$(find_java)"
classpath
started=$(date +%s)
status=0
# -n: non-interactive, the shell exits non-zero on the first command that fails. Short retries, so
# that a call the server cannot answer fails the run in seconds rather than minutes.
timeout 300 "$java" -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.net.preferIPv4Stack=true \
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.io=ALL-UNNAMED \
  "-Dlog4j.configuration=file:$project/log4j.properties" \
  -cp "$(cat "$cache/classpath.txt")" org.jruby.JarBootstrapMain -n \
  -Dhbase.client.registry.impl=org.apache.hadoop.hbase.client.MasterRegistry \
  "-Dhbase.masters=$host:$port" -Dhbase.client.retries.number=3 -Dhbase.client.pause=100 \
  -Dhbase.rpc.timeout=20000 -Dhbase.client.operation.timeout=60000 \
  "$project/smoke.rb" </dev/null >"$work/shell.out" 2>"$work/shell.err" || status=$?
echo "hbase-shell.sh: $target: the shell ran smoke.rb in $(($(date +%s) - started)) s, exit $status"

# The normalization the header describes.
sed -E -e '/^Took [0-9.]+ seconds$/d' -e 's/ timestamp=[^,]*, / /' \
  -e 's/^(basalt_shell), \{TABLE_ATTRIBUTES => .*\}$/\1/' "$work/shell.out" |
  /usr/bin/python3 -c '
import re, sys
keep = ["NAME", "VERSIONS", "MIN_VERSIONS", "TTL", "KEEP_DELETED_CELLS", "COMPRESSION",
        "BLOOMFILTER", "BLOCKSIZE"]
for line in sys.stdin:
    line = line.rstrip("\n")
    if line.startswith("{NAME => "):
        found = dict(re.findall(r"([A-Z_]+) => (\x27[^\x27]*\x27)", line))
        line = "{" + ", ".join(k + " => " + found[k] for k in keep if k in found) + "}"
    print(line)
' >"$work/shell.normalized"

failed=0
if grep -n -E '(^|[^A-Za-z_])ERROR([^A-Za-z_]|$)' "$work/shell.out" "$work/shell.err" >&2; then
  say "the shell printed ERROR lines (above)"
  failed=1
fi
if [ "$status" != 0 ]; then
  tail -n 20 "$work/shell.err" >&2
  say "the shell exited $status"
  failed=1
fi
if ! diff -u "$project/smoke.expected" "$work/shell.normalized" >&2; then
  say "the shell's output differs from smoke.expected (above: - expected, + this run)"
  failed=1
fi
if [ -n "$serve_pid" ]; then
  kill -TERM "$serve_pid"
  serve_status=0
  wait "$serve_pid" || serve_status=$?
  serve_pid=""
  if [ "$serve_status" != 0 ]; then
    tail -n 20 "$work/serve.log" >&2
    say "basalt serve did not exit 0 on SIGTERM: $serve_status"
    failed=1
  fi
fi
[ "$failed" = 0 ] || { [ -f "$work/serve.log" ] && { echo "---- end of basalt serve's log" >&2; tail -n 20 "$work/serve.log" >&2; }; exit 1; }
echo "hbase-shell.sh: $target: the output matches smoke.expected"
