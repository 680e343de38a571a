#!/usr/bin/env bash
# Installs the Debian 12 packages basalt needs, if any are missing:
#   scripts/install-deps.sh serve   what building and running `basalt` needs (scripts/run.sh)
#   scripts/install-deps.sh         that and what the tests need (scripts/test.sh): compilers for
#                                   the sanitizer builds, Chromium and Node.js for the browser
#                                   tests, pytest, wrk, the browser tests' npm modules, the
#                                   happybase tests' virtual environment (PyPI), a JDK 17 and Maven
#                                   with the jars of the tests' HBase (scripts/hbase.sh)
# Idempotent; needs root (or sudo) only when something is missing.
set -euo pipefail

mode="${1:-test}"
case "$mode" in
  serve|test) ;;
  *) echo "usage: $0 [serve|test]" >&2; exit 2 ;;
esac

packages=(
  build-essential cmake ninja-build pkg-config
  librocksdb-dev
  nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev libboost-dev
  libre2-dev libxxhash-dev
  libthrift-dev thrift-compiler
  protobuf-compiler libprotobuf-dev  # HBase's REST protobuf messages (src/server/rest/proto/)
  libpugixml-dev  # the REST XML codec's parser
  libsodium-dev
  libjemalloc-dev
  libedit-dev
)
if [ "$mode" = test ]; then
  packages+=(
    git libgflags-dev
    python3-pytest python3-requests
    python3-venv  # the happybase tests' virtual environment (tests/python/make_venv.sh)
    curl  # the README's REST examples (tests/cli/readme_test.py)
    libgtest-dev libgmock-dev googletest libbenchmark-dev
    libsqlite3-dev
    file  # CPack's DEB generator (tests/install/package_test.py) runs it
    clang-format
    clang-tidy-14  # scripts/tidy.sh
    clang libclang-rt-14-dev
    chromium
    wrk  # bench/http_bench.py only
    help2man dpkg-dev  # the man page and the .deb's dependencies (tests/install/package_test.py)
  )
  # Node.js for the browser tests; a machine may already have it from elsewhere (its npm too).
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
  # The tests' Apache HBase (scripts/hbase.sh) runs on JDK 17 (Debian 12's default JDK; not a
  # newer one a machine may have elsewhere) and resolves its jars with Maven.
  ls /usr/lib/jvm/java-17-openjdk-*/bin/java >/dev/null 2>&1 || packages+=(default-jdk-headless)
  command -v mvn >/dev/null 2>&1 || packages+=(maven)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

[ "$mode" = serve ] && exit 0

# HBase's jars into Maven's local repository, so that scripts/hbase.sh starts offline (a no-op once
# they are there).
"$(dirname "$0")/hbase.sh" fetch

# The browser tests' npm modules (playwright-core, the OpenAPI validator, node-hbase), exactly as
# locked in tests/browser/package-lock.json (optional dependencies left out: tests/browser/.npmrc),
# installed again when the lock is newer than the install.
# playwright-core drives Debian's chromium: no browser and no Node.js is downloaded. They run on
# the Node.js found here, which must be as new as the newest "engines" of the locked modules asks:
# check-node.cjs says so, and which module, rather than the tests failing later (Debian 12's own
# nodejs, 18.20, is enough: playwright-core is pinned to the last release that runs on 18).
browser_tests="$(dirname "$0")/../tests/browser"
node "$browser_tests/check-node.cjs" "$browser_tests/package-lock.json"
if [ ! -f "$browser_tests/node_modules/.package-lock.json" ] ||
   [ "$browser_tests/package-lock.json" -nt "$browser_tests/node_modules/.package-lock.json" ]; then
  (cd "$browser_tests" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
fi

# happybase and thriftpy2 from PyPI, exactly as pinned in tests/python/requirements-happybase.txt,
# in a cached virtual environment (a no-op once it is made; CTest's `python` tests make it too).
"$(dirname "$0")/../tests/python/make_venv.sh" >/dev/null
