#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs the basalt CLI on the embedded store in
# ./data (or $BASALT_DATA). Arguments are passed to `basalt`; with none, a short tour runs.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
scripts/build.sh release --target basalt >/dev/null

data="${BASALT_DATA:-$PWD/data}"
bin="build/release/basalt"
if [ $# -gt 0 ]; then
  exec "$bin" --data "$data" "$@"
fi

echo "basalt: embedded store in $data"
"$bin" --data "$data" list
echo
echo "Try:"
echo "  scripts/run.sh create users info:versions=3 follows"
echo "  scripts/run.sh put users alice info:name Alice"
echo "  scripts/run.sh get users alice"
echo "  scripts/run.sh scan users --limit 10"
echo "  scripts/run.sh --help"
