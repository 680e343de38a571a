#!/usr/bin/env bash
# HBase's Java client API, unchanged, against basalt and against a real HBase: runs the JUnit 5
# suite of tests/java/thrift-client (a Java HBase application's Connection, Admin, Table, Scan and
# filters made a Thrift2 client by configuration through hbase-thrift's ThriftConnection, HBase's
# generated Thrift2 client, and HBase's REST client in the protobuf representation).
#   scripts/java-suite.sh --basalt BINARY [--transport T] [--suite S]
#       against a `basalt serve` of the suite's own (BINARY serve, free loopback ports, a fresh
#       store; --thrift-framed when T is framed). Fails unless it also exits 0 on SIGTERM.
#   scripts/java-suite.sh --hbase [--transport T] [--suite S]
#       against the HBase scripts/hbase.sh started (its state directory: BASALT_HBASE_DIR, default
#       build/hbase), or, when HBASE_THRIFT2_PORT and HBASE_REST_PORT are set, against the gateways
#       they name at HBASE_HOST (default 127.0.0.1; not with framed, whose gateway this script starts
#       on scripts/hbase.sh's HBase); exits 77 (skipped) when neither. Its Thrift2 gateway is buffered; for
#       framed this script starts a framed Thrift2 gateway of its own on HBase's classpath and
#       configuration for the run, and stops it after.
#   T is buffered (the default) or framed; S is thrift (ThriftConnection and the generated
#   client), rest (the REST client) or all (the default).
#   scripts/java-suite.sh --basalt BINARY --client native
#   scripts/java-suite.sh --hbase --client native
#       HBase's own Java client instead (blocking and asynchronous Connection over HBase's RPC,
#       bootstrapped with RpcConnectionRegistry alone): the Connection tests that apply to it
#       (Admin, Table, Scan, Filter) and the native ones (AsyncClient, NativeAdmin). Against basalt
#       its serve also gets --hbase-rpc-port on a free port; against HBase the client bootstraps
#       from HBASE_HOST:HBASE_MASTER_PORT (set, or from scripts/hbase.sh's ports.env; exit 77 when
#       neither). Takes neither --transport nor --suite. --client thrift is the default above.
#   ... --client native --hbase-client 3
#       the same native-mode tests compiled and run on HBase 3.0's client (the pom's hbase3
#       profile) instead of 2.6's (--hbase-client 2, the default); native mode only.
# Needs a JDK 17 (BASALT_JAVA, else Debian's openjdk-17) and Maven, which resolves the jars from
# Maven Central into ~/.m2 on the first run and works offline after it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
project="$root/tests/java/thrift-client"

say() { echo "java-suite.sh: $*" >&2; }
usage() {
  echo "usage: $0 --basalt BINARY | --hbase  [--transport buffered|framed] [--suite thrift|rest|all]" >&2
  echo "       $0 --basalt BINARY | --hbase  --client native [--hbase-client 2|3]" >&2
  exit 2
}

target="" binary="" transport="" suite="" client=thrift hbase_client=2
while [ $# -gt 0 ]; do
  case "$1" in
    --basalt) [ $# -ge 2 ] || usage; target=basalt binary="$2"; shift 2 ;;
    --hbase) target=hbase; shift ;;
    --transport) [ $# -ge 2 ] || usage; transport="$2"; shift 2 ;;
    --suite) [ $# -ge 2 ] || usage; suite="$2"; shift 2 ;;
    --client) [ $# -ge 2 ] || usage; client="$2"; shift 2 ;;
    --hbase-client) [ $# -ge 2 ] || usage; hbase_client="$2"; shift 2 ;;
    *) usage ;;
  esac
done
[ -n "$target" ] || usage
case "$hbase_client" in
  2) profile=() ;;
  # HBase 3's client has no Thrift2 or REST gateway client to pair with.
  3) [ "$client" = native ] || usage; profile=(-Phbase3) ;;
  *) usage ;;
esac
case "$client" in
  thrift)
    transport="${transport:-buffered}" suite="${suite:-all}"
    case "$transport" in buffered|framed) ;; *) usage ;; esac
    case "$suite" in
      thrift) tests='AdminTest,TableTest,ScanTest,FilterTest,Thrift2IdlTest,DocExampleTest' ;;
      rest) tests='RestClientTest' ;;
      all) tests='AdminTest,TableTest,ScanTest,FilterTest,Thrift2IdlTest,DocExampleTest,RestClientTest' ;;
      *) usage ;;
    esac
    ;;
  native)
    # The Thrift2 IDL, REST and documented Thrift example tests are not of this client.
    [ -z "$transport" ] && [ -z "$suite" ] || usage
    transport=buffered suite=native
    tests='AdminTest,TableTest,ScanTest,FilterTest,AsyncClientTest,NativeAdminTest'
    ;;
  *) usage ;;
esac

# shellcheck source=scripts/java17.sh
. "$root/scripts/java17.sh"

java="$(find_java)"
export JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$java")")")"
command -v mvn >/dev/null 2>&1 || { say "mvn not found; install Debian's maven"; exit 1; }
work="$(mktemp -d "${TMPDIR:-/tmp}/basalt-java-suite.XXXXXX")"
gateway_pid=""
cleanup() {
  if [ -n "$gateway_pid" ] && kill -0 "$gateway_pid" 2>/dev/null; then
    kill -TERM "$gateway_pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$gateway_pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$gateway_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

export JAVA_SUITE_TARGET="$target" JAVA_SUITE_TRANSPORT="$transport" JAVA_SUITE_WORK_DIR="$work"
export JAVA_SUITE_CLIENT="$client"
if [ "$target" = basalt ]; then
  [ -x "$binary" ] || { say "$binary is not an executable basalt binary"; exit 1; }
  export BASALT_BINARY="$(readlink -f "$binary")"
else
  state="${BASALT_HBASE_DIR:-$root/build/hbase}"
  if [ "$client" = native ] && [ -n "${HBASE_MASTER_PORT:-}" ]; then
    say "against the HBase the native client bootstraps from at ${HBASE_HOST:-127.0.0.1}:$HBASE_MASTER_PORT"
  elif [ "$client" = thrift ] && [ "$transport" != framed ] && [ -n "${HBASE_THRIFT2_PORT:-}" ] &&
       [ -n "${HBASE_REST_PORT:-}" ]; then
    # An HBase this script did not start (a remote one: HBASE_HOST, default 127.0.0.1).
    say "against the HBase gateways at ${HBASE_HOST:-127.0.0.1} (Thrift2 $HBASE_THRIFT2_PORT, REST $HBASE_REST_PORT)"
  elif ! "$root/scripts/hbase.sh" status >/dev/null 2>&1 || [ ! -f "$state/ports.env" ]; then
    echo "no HBase runs (scripts/hbase.sh start first, or set HBASE_THRIFT2_PORT and HBASE_REST_PORT, or for --client native HBASE_MASTER_PORT; docs/hbase.md): skipped"
    exit 77
  else
    # shellcheck disable=SC1091
    . "$state/ports.env"
  fi
  if [ "$client" = native ] && [ -z "${HBASE_MASTER_PORT:-}" ]; then
    say "$state/ports.env names no HBASE_MASTER_PORT (an HBase an older scripts/hbase.sh started: restart it)"
    exit 1
  fi
  export HBASE_HOST="${HBASE_HOST:-127.0.0.1}" HBASE_THRIFT2_PORT HBASE_REST_PORT HBASE_MASTER_PORT
  if [ "$transport" = framed ]; then
    port="$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    say "starting a framed Thrift2 gateway of HBase's on port $port"
    setsid "$java" -Xmx192m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.net.preferIPv4Stack=true \
      --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED \
      --add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
      -Dlog4j2.configurationFile="$state/conf/log4j2.properties" -Dhbase.root.logger=INFO,console \
      "-Dhbase.log.dir=$work" -Dhbase.log.file=thrift2-framed.log \
      -cp "$state/conf:$(cat "$state/classpath.txt")" \
      org.apache.hadoop.hbase.thrift2.ThriftServer -b 127.0.0.1 -p "$port" -f start \
      </dev/null >"$work/thrift2-framed.log" 2>&1 &
    gateway_pid=$!
    # Ready once a framed listNamespaceDescriptors gets a reply (the gateway asks the master).
    ready=0
    for _ in $(seq 1 240); do
      kill -0 "$gateway_pid" 2>/dev/null || break
      if /usr/bin/python3 - "$port" <<'EOF'
import socket, struct, sys
name = b"listNamespaceDescriptors"
msg = struct.pack(">Ii", 0x80010001, len(name)) + name + struct.pack(">i", 1) + b"\x00"
try:
    with socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10) as s:
        s.sendall(struct.pack(">i", len(msg)) + msg)
        head = s.recv(8)
        # A reply message (type 2) whose result is field 0, a list.
        sys.exit(0 if len(head) == 8 and head[4:8] == b"\x80\x01\x00\x02" else 1)
except OSError:
    sys.exit(1)
EOF
      then ready=1; break; fi
      sleep 0.5
    done
    if [ "$ready" != 1 ]; then
      tail -n 30 "$work/thrift2-framed.log" >&2
      say "HBase's framed Thrift2 gateway did not start"
      exit 1
    fi
    HBASE_THRIFT2_PORT="$port"
  fi
fi

# Maven offline first, so that a run after the first needs no network.
args=(-B -f "$project/pom.xml" "${profile[@]}" test "-Dtest=$tests"
      -Dsurefire.failIfNoSpecifiedTests=false "-Dsuite.build.directory=$work/target")
log="$work/mvn.log"
status=0
mvn -o "${args[@]}" >"$log" 2>&1 || status=$?
if [ $status -ne 0 ] && grep -q "offline mode" "$log"; then
  say "resolving the suite's jars from Maven Central (the first run only)"
  status=0
  mvn "${args[@]}" >"$log" 2>&1 || status=$?
fi

if [ "$client" = native ]; then
  echo "java-suite.sh: $target, native client (HBase $hbase_client)"
else
  echo "java-suite.sh: $target, $transport, suite $suite"
fi
grep -a -E '^\[(INFO|ERROR|WARNING)\] Tests run:' "$log" | sed 's/^\[[A-Z]*\] //' || true
if [ $status -ne 0 ]; then
  if ls "$work/target/surefire-reports/"*.txt >/dev/null 2>&1; then
    grep -a -h -A 25 '<<< \(FAILURE\|ERROR\)!' "$work/target/surefire-reports/"*.txt |
      grep -a -v '^[[:space:]]*at \(org\.junit\|java\.base\|org\.apache\.maven\)' >&2 || true
  else
    tail -n 40 "$log" >&2
  fi
  [ -f "$work/basalt-serve.log" ] && { echo "---- end of basalt serve's log" >&2; tail -n 20 "$work/basalt-serve.log" >&2; }
  say "the suite failed"
  exit 1
fi
if [ "$target" = basalt ]; then
  exit_status="$(cat "$work/basalt-serve.exit" 2>/dev/null || echo "no exit status recorded")"
  if [ "$exit_status" != 0 ]; then
    tail -n 20 "$work/basalt-serve.log" >&2 || true
    say "basalt serve did not exit 0 on SIGTERM: $exit_status"
    exit 1
  fi
fi
