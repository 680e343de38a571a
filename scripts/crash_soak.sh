#!/usr/bin/env bash
# The crash-loop soak (docs/reliability.md, "Soak"): RUNS invocations of basalt_crash_loop with
# CYCLES kill -9 cycles each (default 10 x 100 = 1,000 cycles), each with its own seed, and the
# sums of their figures. Not in CI: about 45 min on a 2-core machine shared with builds.
#
#   scripts/crash_soak.sh [RUNS] [CYCLES] [SECONDS_PER_CYCLE]
#
# SECONDS_PER_CYCLE (default 1.5) is each cycle's share of --seconds: the loop writes for 20-60 %
# of it, then kills; restart and verification come on top (about 1-2 s a cycle, mostly the
# fan-out drain). Several shorter invocations rather than one long one keep each verification
# short: the linked list and the timelines are checked whole every cycle and grow with the run.
#
# Environment: BASALT_SOAK_SEED (run i uses SEED + i; default random, printed),
# BASALT_SOAK_DIR (the runs' output; default a new temporary directory), BASALT_BUILD (default
# build/release). Stops at the first run that loses something or fails; that run's data
# directory is kept (its path is in the run's output) and the exit status is 1.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${1:-10}"
cycles="${2:-100}"
per_cycle="${3:-1.5}"
build="${BASALT_BUILD:-build/release}"
loop="$build/tests/crash/basalt_crash_loop"
seed="${BASALT_SOAK_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
out="${BASALT_SOAK_DIR:-$(mktemp -d /tmp/basalt-soak.XXXXXX)}"
mkdir -p "$out"
[ -x "$loop" ] && [ -x "$build/basalt" ] ||
  { echo "no $loop or $build/basalt: scripts/build.sh release --target basalt basalt_crash_loop" >&2; exit 2; }

seconds=$(awk -v c="$cycles" -v s="$per_cycle" 'BEGIN { printf "%.0f", c * s }')
echo "crash soak: $runs runs x $cycles cycles (--seconds $seconds), seeds $seed..$((seed + runs - 1)), output in $out"
total_cycles=0 acked=0 unknown=0 checks=0 losses=0
started=$(date +%s)
for ((i = 0; i < runs; i++)); do
  s=$((seed + i))
  run_start=$(date +%s)
  status=0
  "$loop" --cycles "$cycles" --seconds "$seconds" --seed "$s" --basalt "$build/basalt" \
    >"$out/run-$i.out" 2>"$out/run-$i.err" || status=$?
  # crash loop: N cycles in X s; A operations acknowledged, U unknown, C checks ..., L losses; ...
  summary=$(grep '^crash loop: .* cycles in' "$out/run-$i.out" || true)
  if [ -z "$summary" ]; then
    echo "run $i (seed $s): no summary, exit status $status; see $out/run-$i.out and .err" >&2
    grep -m 20 -E 'LOSS|crash loop:' "$out/run-$i.err" >&2 || true
    exit 1
  fi
  read -r c a u k l < <(sed -E 's/^crash loop: ([0-9]+) cycles in [0-9.]+ s; ([0-9]+) operations acknowledged, ([0-9]+) unknown, ([0-9]+) checks of acknowledged operations, ([0-9]+) losses.*/\1 \2 \3 \4 \5/' <<<"$summary")
  total_cycles=$((total_cycles + c)) acked=$((acked + a)) unknown=$((unknown + u))
  checks=$((checks + k)) losses=$((losses + l))
  echo "run $i (seed $s): $c cycles in $(($(date +%s) - run_start)) s, acknowledged $a, unknown $u, checks $k, losses $l, exit $status"
  if [ "$status" -ne 0 ] || [ "$l" -ne 0 ]; then
    echo "run $i (seed $s) lost something or failed; its data is kept:" >&2
    head -1 "$out/run-$i.out" >&2
    grep -m 20 LOSS "$out/run-$i.err" >&2 || true
    break
  fi
done
elapsed=$(($(date +%s) - started))
echo "crash soak: $total_cycles kill -9 cycles in $elapsed s ($((elapsed / 60)) min); acknowledged $acked, unknown $unknown, checks $checks, losses $losses; seeds $seed..$((seed + runs - 1))"
[ "$losses" -eq 0 ] && [ "$total_cycles" -ge $((runs * cycles)) ]
