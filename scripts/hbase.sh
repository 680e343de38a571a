#!/usr/bin/env bash
# A real Apache HBase on this machine, for basalt's tests against it:
#   scripts/hbase.sh start    resolves HBase's jars with Maven from tests/hbase/pom.xml (into
#                             Maven's local repository: every start after the first is offline),
#                             starts a standalone HBase (master, region server and ZooKeeper in
#                             one JVM, data in a fresh temporary directory) and its Thrift1,
#                             Thrift2 and REST gateways (one JVM each), all on free loopback
#                             ports (the master's and region server's RPC ports too, advertised
#                             as 127.0.0.1, so that HBase's own Java client can bootstrap from
#                             them: hbase.client.bootstrap.servers=127.0.0.1:$HBASE_MASTER_PORT),
#                             waits until each answers a real call, and prints the ports as
#                             shell assignments (also in build/hbase/ports.env):
#                               eval "$(scripts/hbase.sh start)"
#                               BASALT_TEST_THRIFT_TARGET=thrift://127.0.0.1:$HBASE_THRIFT2_PORT ...
#   scripts/hbase.sh stop     stops every JVM that start started and removes the data directory
#   scripts/hbase.sh status   says what runs (exit 0 when all four JVMs run, else 1)
#   scripts/hbase.sh fetch    only resolves the jars (scripts/install-deps.sh calls it)
# A start that fails (a JVM exits, or a gateway does not answer within BASALT_HBASE_TIMEOUT
# seconds, default 240) stops whatever it started and prints the end of the logs.
# Environment: BASALT_HBASE_DIR (state, logs; default build/hbase), BASALT_HBASE_JAVA (a JDK 17
# `java`; default Debian's), BASALT_HBASE_HEAP (the cluster JVM's -Xmx, default 512m),
# BASALT_HBASE_GATEWAY_HEAP (each gateway's, default 192m).
# Progress goes to stderr, the assignments alone to stdout.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
state="${BASALT_HBASE_DIR:-$root/build/hbase}"
pom="$root/tests/hbase/pom.xml"
jvms=(cluster thrift1 thrift2 rest)

say() { echo "hbase.sh: $*" >&2; }

# find_java: a JDK 17, BASALT_HBASE_JAVA's if set (HBase's Hadoop code fails on JDK 23 and later).
BASALT_JAVA="${BASALT_HBASE_JAVA:-${BASALT_JAVA:-}}"
# shellcheck source=scripts/java17.sh
. "$root/scripts/java17.sh"

# The runtime classpath, resolved once per version of the pom and kept in the state directory.
# Maven runs offline first: after one online resolution the local repository has every jar.
classpath() {
  local sum cp="$state/classpath.txt" stamp="$state/classpath.sha256"
  sum="$(sha256sum "$pom" | cut -d' ' -f1)"
  if [ -f "$cp" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ] &&
     tr ':' '\n' <"$cp" | while read -r jar; do [ -f "$jar" ] || exit 1; done; then
    return 0
  fi
  command -v mvn >/dev/null 2>&1 || { say "mvn not found; install Debian's maven"; return 1; }
  local args=(-B -q -f "$pom" dependency:build-classpath -Dmdep.includeScope=runtime
              "-Dmdep.outputFile=$cp.new")
  if ! mvn -o "${args[@]}" >"$state/mvn.log" 2>&1; then
    say "resolving HBase's jars from Maven Central (the first start only)"
    if ! mvn "${args[@]}" >"$state/mvn.log" 2>&1; then
      say "Maven could not resolve tests/hbase/pom.xml:"
      tail -n 30 "$state/mvn.log" >&2
      return 1
    fi
  fi
  mv "$cp.new" "$cp"
  echo "$sum" >"$stamp"
}

free_ports() {
  /usr/bin/python3 - "$1" <<'EOF'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
}

# One real call per gateway (tests/hbase/probe.py says which): exit 0 once it answers.
probe() { /usr/bin/python3 "$root/tests/hbase/probe.py" "$@"; }

rss_kib() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$1/status" 2>/dev/null || true; }

# A pid file names one of our JVMs only while that process still runs with our configuration
# directory on its command line (a reused pid is someone else's).
our_pid() {
  local f="$state/$1.pid" pid
  [ -f "$f" ] || return 1
  pid="$(cat "$f")"
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$state/conf" || return 1
  echo "$pid"
}

stop_all() {
  local name pid pids=()
  for name in "${jvms[@]}"; do
    if pid="$(our_pid "$name")"; then
      kill -TERM "$pid" 2>/dev/null || true
      pids+=("$pid")
    fi
  done
  # The JVMs' shutdown hooks close the region and ZooKeeper; past 30 s they are killed.
  local deadline=$((SECONDS + 30))
  for pid in "${pids[@]}"; do
    while kill -0 "$pid" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then
      say "pid $pid did not stop on SIGTERM; killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  for name in "${jvms[@]}"; do rm -f "$state/$name.pid"; done
  if [ -f "$state/run_dir" ]; then
    rm -rf "$(cat "$state/run_dir")"
    rm -f "$state/run_dir"
  fi
  rm -f "$state/ports.env"
  [ ${#pids[@]} -eq 0 ] || say "stopped ${#pids[@]} JVM(s)"
}

fail_start() {
  say "HBase did not start: $1"
  local name
  for name in "${jvms[@]}"; do
    if [ -s "$state/logs/$name.log" ]; then
      echo "---- last lines of $state/logs/$name.log" >&2
      tail -n 25 "$state/logs/$name.log" >&2
    fi
  done
  stop_all
  exit 1
}

start() {
  local name
  for name in "${jvms[@]}"; do
    if our_pid "$name" >/dev/null; then
      say "already running (scripts/hbase.sh stop first)"
      cat "$state/ports.env"
      return 0
    fi
  done
  stop_all 2>/dev/null  # leftovers of a start that died
  mkdir -p "$state/logs" "$state/conf"
  local java
  java="$(find_java)"
  classpath

  local run_dir zk t1 t2 rest master rs
  run_dir="$(mktemp -d "${TMPDIR:-/tmp}/basalt-hbase.XXXXXX")"
  echo "$run_dir" >"$state/run_dir"
  read -r zk t1 t2 rest master rs <<<"$(free_ports 6)"
  sed -e "s|@RUN_DIR@|$run_dir|g" -e "s|@ZK_PORT@|$zk|g" -e "s|@REST_PORT@|$rest|g" \
    -e "s|@MASTER_PORT@|$master|g" -e "s|@REGIONSERVER_PORT@|$rs|g" \
    "$root/tests/hbase/conf/hbase-site.xml.in" >"$state/conf/hbase-site.xml"
  cp "$root/tests/hbase/conf/log4j2.properties" "$state/conf/"

  # bin/hbase's flags for JDK 11 and later (add_jdk11_jvm_flags), its logging setup, and a
  # bounded heap. The serial collector and the client compiler alone keep four JVMs' threads and
  # start-up work small on a shared 2-core machine; nothing here measures HBase's speed.
  local flags=(
    -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss512k "-XX:OnOutOfMemoryError=kill -9 %p"
    -Djava.net.preferIPv4Stack=true
    -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true
    --add-modules jdk.unsupported
    --add-opens java.base/java.io=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED
    --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED
    --add-opens java.base/jdk.internal.ref=ALL-UNNAMED
    --add-opens java.base/java.lang.reflect=ALL-UNNAMED
    --add-opens java.base/java.util=ALL-UNNAMED
    --add-opens java.base/java.util.concurrent=ALL-UNNAMED
    --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
    --add-exports java.security.jgss/sun.security.krb5=ALL-UNNAMED
    --add-exports java.base/sun.net.dns=ALL-UNNAMED --add-exports java.base/sun.net.util=ALL-UNNAMED
    -Djava.util.logging.config.class=org.apache.hadoop.hbase.logging.JulToSlf4jInitializer
    -Dlog4j2.configurationFile="$state/conf/log4j2.properties"
    -Dhbase.root.logger=INFO,console "-Dhbase.log.dir=$state/logs"
    -Dhbase.home.dir="$run_dir"
    -cp "$state/conf:$(cat "$state/classpath.txt")"
  )
  local heap="${BASALT_HBASE_HEAP:-512m}" gw_heap="${BASALT_HBASE_GATEWAY_HEAP:-192m}"
  # Each JVM in its own session, so that only `stop` (or a failed start) ends it.
  launch() {
    local name="$1"
    shift
    setsid "$java" "$@" </dev/null >"$state/logs/$name.log" 2>&1 &
    echo $! >"$state/$name.pid"
  }
  trap 'fail_start "interrupted"' INT TERM
  local t0=$SECONDS
  local jdk
  jdk="$(basename "$(dirname "$(dirname "$(readlink -f "$java")")")")"
  say "starting HBase on $jdk, data in $run_dir"
  launch cluster "-Xmx$heap" "${flags[@]}" -Dproc_master -Dhbase.log.file=cluster.log \
    org.apache.hadoop.hbase.master.HMaster start
  launch thrift1 "-Xmx$gw_heap" "${flags[@]}" -Dproc_thrift -Dhbase.log.file=thrift1.log \
    org.apache.hadoop.hbase.thrift.ThriftServer -b 127.0.0.1 -p "$t1" start
  launch thrift2 "-Xmx$gw_heap" "${flags[@]}" -Dproc_thrift2 -Dhbase.log.file=thrift2.log \
    org.apache.hadoop.hbase.thrift2.ThriftServer -b 127.0.0.1 -p "$t2" start
  launch rest "-Xmx$gw_heap" "${flags[@]}" -Dproc_rest -Dhbase.log.file=rest.log \
    org.apache.hadoop.hbase.rest.RESTServer -p "$rest" start

  local timeout="${BASALT_HBASE_TIMEOUT:-240}" pending=(thrift2 thrift1 rest) next port
  declare -A ports=([thrift1]=$t1 [thrift2]=$t2 [rest]=$rest)
  declare -A ready_at=()
  while [ ${#pending[@]} -gt 0 ]; do
    for name in "${jvms[@]}"; do
      our_pid "$name" >/dev/null || fail_start "the $name JVM exited"
    done
    [ $((SECONDS - t0)) -lt "$timeout" ] ||
      fail_start "no answer from ${pending[*]} within ${timeout} s"
    next=()
    for name in "${pending[@]}"; do
      if probe "$name" "${ports[$name]}"; then
        ready_at[$name]=$((SECONDS - t0))
      else
        next+=("$name")
      fi
    done
    pending=("${next[@]}")
    [ ${#pending[@]} -eq 0 ] || sleep 1
  done
  trap - INT TERM

  {
    echo "HBASE_ZK_PORT=$zk"
    echo "HBASE_THRIFT1_PORT=$t1"
    echo "HBASE_THRIFT2_PORT=$t2"
    echo "HBASE_REST_PORT=$rest"
    echo "HBASE_MASTER_PORT=$master"
    echo "HBASE_REGIONSERVER_PORT=$rs"
    echo "BASALT_TEST_THRIFT_TARGET=thrift://127.0.0.1:$t2"
  } >"$state/ports.env"
  local rss=""
  for name in "${jvms[@]}"; do
    rss+=" $name $(($(rss_kib "$(our_pid "$name")") / 1024)) MiB;"
  done
  say "ready in $((SECONDS - t0)) s (thrift2 ${ready_at[thrift2]} s, thrift1 ${ready_at[thrift1]} s, rest ${ready_at[rest]} s); RSS:${rss%;}"
  say "heap: cluster -Xmx$heap, gateways -Xmx$gw_heap each; logs in $state/logs"
  cat "$state/ports.env"
}

status() {
  local name pid running=0
  for name in "${jvms[@]}"; do
    if pid="$(our_pid "$name")"; then
      echo "$name: running, pid $pid, RSS $(($(rss_kib "$pid") / 1024)) MiB"
      running=$((running + 1))
    else
      echo "$name: not running"
    fi
  done
  [ -f "$state/ports.env" ] && cat "$state/ports.env"
  [ $running -eq ${#jvms[@]} ]
}

case "${1:-}" in
  start) start ;;
  stop) stop_all ;;
  status) status ;;
  fetch) mkdir -p "$state" && classpath ;;
  *) echo "usage: $0 start|stop|status|fetch" >&2; exit 2 ;;
esac
