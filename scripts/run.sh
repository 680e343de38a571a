#!/usr/bin/env bash
# The main job: installs what is missing, builds, and serves the store in ./data (or $BASALT_DATA)
# over HTTP: `basalt serve` with HBase's REST API on 127.0.0.1:8080 (stop it with Ctrl-C).
# With arguments, runs the basalt CLI on the same store instead (`scripts/run.sh list`,
# `scripts/run.sh serve --port 9090`, ...). `scripts/run.sh install [DIR]` copies the binary to DIR
# (default /usr/local/bin, on PATH) so that `basalt ...` works from anywhere; rerunning it updates it.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh serve
# The binary only: no tests or benchmarks, so nothing they need is installed or configured. Ninja
# prints a line per step ([done/total]); the first build takes several minutes.
if [ ! -x build/release/basalt ]; then echo "building basalt (the first build takes a few minutes)"; fi
BASALT_BUILD_TESTS=OFF BASALT_BUILD_BENCH=OFF scripts/build.sh release --target basalt |
  grep --line-buffered -v '^ninja: no work to do' || true

data="${BASALT_DATA:-$PWD/data}"
bin="build/release/basalt"
if [ "${1:-}" = install ]; then
  dir="${2:-/usr/local/bin}"
  SUDO=""
  if [ ! -w "$dir" ] && [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO install -D -m 0755 "$bin" "$dir/basalt"
  echo "installed $dir/basalt"
  exit 0
fi
if [ $# -gt 0 ]; then
  exec "$bin" --data "$data" "$@"
fi
exec "$bin" serve --data "$data"
