#!/usr/bin/env bash
# Builds the libFuzzer targets in the clang ASan+UBSan tree build/asan (`scripts/build.sh asan`:
# BASALT_FUZZ=ON, everything instrumented with -fsanitize=fuzzer-no-link,address,undefined) and
# runs every tests/fuzz/*_fuzzer.cc for SECONDS each (default 30), one per core at a time, over a
# temporary copy of its seed corpus tests/fuzz/corpus/<name without _fuzzer>/ (the committed
# corpus never grows by itself), with tests/fuzz/<name without _fuzzer>.dict as its dictionary
# when there is one.
# Fails when a fuzzer finds a crash, a leak or a broken property; the input that did it is kept
# in build/asan/artifacts/.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-30}"
build=build/asan

scripts/build.sh asan --target basalt_fuzzers

mkdir -p "$build/artifacts"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

shopt -s nullglob
fuzzers=(tests/fuzz/*_fuzzer.cc)
if [ ${#fuzzers[@]} -eq 0 ]; then
  echo "no fuzzers in tests/fuzz" >&2
  exit 1
fi
# Runs one fuzzer over a copy of its seeds; its output goes to $work/<name>.log and its exit
# status to $work/<name>.status.
run_fuzzer() {
  local src=$1 name corpus seeds log status=0
  name=$(basename "$src" .cc)
  corpus="$work/${name%_fuzzer}"
  mkdir -p "$corpus"
  seeds="tests/fuzz/corpus/${name%_fuzzer}"
  if [ -d "$seeds" ]; then cp -r "$seeds/." "$corpus/"; fi
  log="$work/$name.log"
  echo "==== $name: ${seconds}s over $(ls "$corpus" | wc -l) seeds ====" >"$log"
  # A dictionary of the input's tokens, when the fuzzer has one: tests/fuzz/<name>.dict.
  local dict=()
  if [ -f "tests/fuzz/${name%_fuzzer}.dict" ]; then dict=(-dict="tests/fuzz/${name%_fuzzer}.dict"); fi
  # One input may take at most 10 s; -error_exitcode makes every finding fail this script.
  "$build/tests/fuzz/$name" "$corpus" "${dict[@]}" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -error_exitcode=77 \
    -artifact_prefix="$build/artifacts/$name-" >>"$log" 2>&1 || status=$?
  echo "$status" >"$work/$name.status"
}

# Each fuzzer is one process on one core: as many run at once as there are cores, so the bounded
# run in CI takes half the time on two cores and every fuzzer still gets its seconds of a core.
jobs_max=$(nproc)
for src in "${fuzzers[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  run_fuzzer "$src" &
done
wait

failed=0
for src in "${fuzzers[@]}"; do
  name=$(basename "$src" .cc)
  log="$work/$name.log"
  status=$(cat "$work/$name.status" 2>/dev/null || echo 1)
  if [ "$status" -ne 0 ]; then
    tail -n 80 "$log"
    echo "$name failed (exit $status); the input is in $build/artifacts/; reproduce with" \
      "$build/tests/fuzz/$name <input>" >&2
    failed=1
    continue
  fi
  head -n 1 "$log"
  grep -E '^(#[0-9]+[[:space:]]+(INITED|DONE) |stat::number_of_executed_units|Done [0-9]+ runs)' \
    "$log" || true
done
if [ "$failed" -ne 0 ]; then exit 1; fi
echo "fuzzers passed"
