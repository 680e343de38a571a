#!/usr/bin/env bash
# Configures and builds basalt in build/<mode>.
#   release   optimised, with debug info (the default; what `basalt` runs from)
#   check     the release build in unity batches, in build/check: what scripts/test.sh builds
#   debug     no optimisation
#   asan      AddressSanitizer + UndefinedBehaviorSanitizer, with clang, instrumented for libFuzzer
#             too: the same tree builds the tests and the fuzzers (scripts/fuzz.sh)
#   tsan      ThreadSanitizer
# Extra arguments go to `cmake --build` (e.g. --target basalt_unit_tests).
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-release}"
shift || true
# Tests and benchmarks are built unless the caller says otherwise (scripts/run.sh builds the
# binary alone). Switching them does not rebuild the library: its flags do not change.
flags=(-G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DBASALT_WERROR="${BASALT_WERROR:-ON}"
       -DBASALT_BUILD_TESTS="${BASALT_BUILD_TESTS:-ON}")
# The test suite's trees (check, asan, tsan) build in unity mode: each target's sources are
# compiled eight at a time, so the heavy headers (gtest's, Thrift's, Boost's, RocksDB's) are
# parsed once per batch. On 2 cores the ASan tree of scripts/test.sh builds in 418 s instead of
# 639, the TSan tree in 199 s instead of 355 (batches of 16 saved another 7% and brought more
# name clashes). The check tree (release flags, -Werror) took 440 s of a fresh-clone .ci/run of
# 1,674 s; compiled a file at a time, it was about 800 s of the 1,899 s run before it. The
# release tree, the one developers rebuild a file at a time and `basalt` runs from, compiles
# each source alone, so a missing include shows there (CI no longer builds it). Sources that
# cannot share a batch are marked SKIP_UNITY_BUILD_INCLUSION in their CMakeLists.
# Debug information is -g1 (line tables and function names: enough for backtraces, sanitizer
# reports and perf) in every mode but debug: full -g costs about a third more compile time,
# which CI's 30 minutes on 2 cores cannot spare.
case "$mode" in
  release) flags+=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
                   -DBASALT_BUILD_BENCH="${BASALT_BUILD_BENCH:-ON}") ;;
  check)   flags+=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
                   -DBASALT_BUILD_BENCH="${BASALT_BUILD_BENCH:-ON}" -DCMAKE_UNITY_BUILD=ON) ;;
  debug)   flags+=(-DCMAKE_BUILD_TYPE=Debug) ;;
  # clang's warnings are not GCC's: the release build is the -Werror gate, this one reports.
  asan)    flags+=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DBASALT_WERROR=OFF -DCMAKE_UNITY_BUILD=ON
                   -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only"
                   -DBASALT_FUZZ=ON -DBASALT_BUILD_BENCH=OFF)
           # A tree configured with another compiler (GCC, before) cannot switch: start afresh.
           if [ -f build/asan/CMakeCache.txt ] && ! grep -q '^CMAKE_CXX_COMPILER:.*clang' build/asan/CMakeCache.txt; then
             rm -rf build/asan
           fi ;;
  # -Werror off as for asan: GCC's -Warray-bounds misfires on std::thread inlined across a
  # unity batch.
  tsan)    flags+=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
                   -DBASALT_SANITIZE=thread -DBASALT_BUILD_BENCH=OFF -DBASALT_WERROR=OFF
                   -DCMAKE_UNITY_BUILD=ON) ;;
  *) echo "unknown mode '$mode' (release, check, debug, asan, tsan)" >&2; exit 2 ;;
esac

cmake -S . -B "build/$mode" "${flags[@]}" >/dev/null
cmake --build "build/$mode" -j "$(nproc)" "$@"
