#!/usr/bin/env bash
# The whole test suite: installs what is missing, then
#   1. builds everything with the release flags (warnings are errors; in unity batches, in
#      build/check) and runs the tests with CTest, all labels but the four that step 2 runs
#      (concurrency, recipes, crash, cli, http, shell, browser, python, install, package);
#   1b. starts two real Apache HBases (scripts/hbase.sh), runs the conformance suite, the
#      recipes' tests, HBase's Java clients and the gateway equivalence suite on them in two
#      lanes (CTest label hbase, build/check's binaries) and the tests that need Java against
#      basalt (label java), and stops them; fails if an HBase cannot start;
#   2. builds the unit, api, model and thrift tests and the fuzzers with clang, ASan+UBSan, and
#      runs them (there only: under the sanitizers they check more, and running them in
#      step 1's tree too cost about 40 of .ci/run's 1,750 s on 2 cores);
#   3. builds the concurrency tests with TSan and runs them;
#   4. runs each libFuzzer target (built in step 2's tree) for 10 seconds;
#   5. checks the tree with clang-tidy (.clang-tidy's checks, over step 1's tree: scripts/tidy.sh)
#      and that it is clang-formatted.
# Fails on the first failing step.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh

# Each step's header says how long the suite has run, so a slow step shows in CI's log.
step() { echo; echo "==== $* (at ${SECONDS} s) ===="; }

step "build (release flags, -Werror)"
scripts/build.sh check
step "tests (release flags)"
ctest --test-dir build/check --output-on-failure -j "$(nproc)" --timeout 600 \
  -LE '^(unit|api|model|thrift|hbase|java)$'

step "on Apache HBase (scripts/hbase.sh, two of them)"
# Two standalone HBases (four JVMs and about 1 GB of RSS each), only for this step. The tests on
# HBase wait on it far more than they compute (its table creates and drops take a second each;
# the machine is two-thirds idle through them), so they run in two lanes, one HBase each, which
# halves the step. In a lane they take turns (RESOURCE_LOCK hbase: they share its tables); lane b
# also runs the Java tests against basalt's own servers (label java), and every hbase-labelled
# test lane a does not name. A start that fails fails the suite with the reason (the logs' ends);
# the trap stops both however the step ends.
hbase_started=${SECONDS}
hbase_b_dir="$PWD/build/hbase-b"
trap 'scripts/hbase.sh stop; BASALT_HBASE_DIR="$hbase_b_dir" scripts/hbase.sh stop' EXIT
hbase_a_ports="$(scripts/hbase.sh start)"
hbase_b_ports="$(BASALT_HBASE_DIR="$hbase_b_dir" scripts/hbase.sh start)"
lane_a='^(hbase_conformance|hbase_diff|gateway_equivalence|hbase_shell_hbase|hbase_happybase_buffered_binary|java_native_client_v3_hbase)$'
# Runs ctest in build/check with one HBase's ports (scripts/hbase.sh's assignments) in the
# environment, each line of its output prefixed with the lane's name.
run_lane() {
  local name="$1" ports="$2"
  shift 2
  (
    set -o pipefail
    eval "$ports"
    : "${BASALT_TEST_THRIFT_TARGET:?scripts/hbase.sh start printed no Thrift2 target}"
    export BASALT_TEST_THRIFT_TARGET HBASE_REST_PORT HBASE_THRIFT1_PORT HBASE_THRIFT2_PORT \
      HBASE_MASTER_PORT
    ctest --test-dir build/check --output-on-failure --timeout 600 "$@" 2>&1 |
      sed -u "s/^/[lane $name] /"
  )
}
run_lane a "$hbase_a_ports" -j 1 -R "$lane_a" &
lane_a_pid=$!
lane_b_status=0
run_lane b "$hbase_b_ports" -j 2 -L '^(hbase|java)$' -E "$lane_a" || lane_b_status=$?
lane_a_status=0
wait "$lane_a_pid" || lane_a_status=$?
# Each stop waits for its JVMs to end: side by side.
scripts/hbase.sh stop &
BASALT_HBASE_DIR="$hbase_b_dir" scripts/hbase.sh stop
wait
trap - EXIT
echo "the HBase step took $((SECONDS - hbase_started)) s"
if [ "$lane_a_status" != 0 ] || [ "$lane_b_status" != 0 ]; then
  echo "tests on HBase failed (lane a: exit $lane_a_status, lane b: exit $lane_b_status)"
  exit 1
fi

step "build (asan+ubsan)"
# One clang tree for the sanitizer tests and the fuzzers (step 4 only runs them).
scripts/build.sh asan --target basalt_unit_tests basalt_api_tests basalt_backup_tests basalt_snapshot_tests basalt_copy_tests basalt_hbase_diff_test basalt_model_tests basalt_server_tests basalt_thrift_tests basalt basalt_fuzzers
step "tests (asan+ubsan)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build/asan --output-on-failure -j "$(nproc)" --timeout 900 -L "unit|api|model|thrift"

step "build (tsan)"
scripts/build.sh tsan --target basalt_concurrency_tests
step "concurrency tests (tsan)"
TSAN_OPTIONS="halt_on_error=1 ignore_noninstrumented_modules=1 suppressions=$PWD/tests/tsan.supp" \
  ctest --test-dir build/tsan --output-on-failure --timeout 900 -L concurrency

step "fuzz (bounded)"
scripts/fuzz.sh 10

step "clang-tidy"
scripts/tidy.sh build/check

step "format"
scripts/check-format.sh

echo
echo "all tests passed in ${SECONDS} s"
