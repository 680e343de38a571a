#!/usr/bin/env bash
# Configures and builds basalt in build/<mode>.
#   release   optimised, with debug info (the default; what `basalt` runs from)
#   debug     no optimisation
#   asan      AddressSanitizer + UndefinedBehaviorSanitizer
#   tsan      ThreadSanitizer
# Extra arguments go to `cmake --build` (e.g. --target basalt_unit_tests).
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-release}"
shift || true
flags=(-G Ninja -DBASALT_WERROR="${BASALT_WERROR:-ON}")
case "$mode" in
  release) flags+=(-DCMAKE_BUILD_TYPE=RelWithDebInfo) ;;
  debug)   flags+=(-DCMAKE_BUILD_TYPE=Debug) ;;
  asan)    flags+=(-DCMAKE_BUILD_TYPE=Debug -DBASALT_SANITIZE=address,undefined -DBASALT_BUILD_BENCH=OFF) ;;
  tsan)    flags+=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DBASALT_SANITIZE=thread -DBASALT_BUILD_BENCH=OFF) ;;
  *) echo "unknown mode '$mode' (release, debug, asan, tsan)" >&2; exit 2 ;;
esac

cmake -S . -B "build/$mode" "${flags[@]}" >/dev/null
cmake --build "build/$mode" -j "$(nproc)" "$@"
