#!/usr/bin/env bash
# Installs the Debian 12 packages basalt needs to build and test, if any are missing.
# Idempotent; needs root (or sudo) only when something is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  librocksdb-dev libgflags-dev
  nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev libboost-dev
  python3-pytest python3-requests libre2-dev
  libthrift-dev thrift-compiler
  libgtest-dev libgmock-dev googletest libbenchmark-dev
  libsqlite3-dev libxxhash-dev
  libsodium-dev
  clang-format
  clang libclang-rt-14-dev
  wrk  # bench/http_bench.py only
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "installing: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
