#!/usr/bin/env bash
# Runs clang-tidy (.clang-tidy's checks, as errors) over the tree's own sources, as a build tree
# compiles them: scripts/tidy.sh [TREE] (default build/check, which scripts/test.sh builds first,
# so its generated headers exist). In a unity tree each batch is checked once, as it is compiled:
# a batch parses the heavy headers once for its eight sources, which on 2 cores makes the pass
# a few minutes instead of one parse per source. Generated sources (protobuf, Thrift) are left
# out; .clang-tidy's HeaderFilterRegex keeps the reports to the tree's own files.
set -euo pipefail
cd "$(dirname "$0")/.."

tree="${1:-build/check}"
if [ ! -f "$tree/compile_commands.json" ]; then
  echo "tidy: no $tree/compile_commands.json (configure the tree with scripts/build.sh first)" >&2
  exit 2
fi
tidy="$(command -v clang-tidy-14 || command -v clang-tidy || true)"
if [ -z "$tidy" ]; then
  echo "tidy: clang-tidy not found (apt-get install clang-tidy-14)" >&2
  exit 2
fi

# The files a tree compiles that are the tree's own: unity batches and sources kept out of
# them, not what is generated into the build tree.
/usr/bin/python3 - "$tree" "$PWD" > "$tree/tidy-files.txt" <<'PY'
import json, os, sys
tree, root = sys.argv[1], os.path.realpath(sys.argv[2])
build = os.path.realpath(tree)
seen = set()
for entry in json.load(open(os.path.join(tree, "compile_commands.json"))):
    path = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
    own = path.startswith(root + "/") and not path.startswith(build + "/")
    unity = "/Unity/unity_" in path and path.startswith(build + "/")
    if (own or unity) and path not in seen:
        seen.add(path)
        print(path)
PY
count=$(wc -l < "$tree/tidy-files.txt")
echo "tidy: $count compilation units of $tree, $(nproc) at a time"
# GCC's warning flags (the check tree is GCC's) are not clang's: not errors for clang-tidy. Each
# unit's count of suppressed warnings (about the headers outside the tree) is left out of the log.
status=0
xargs -a "$tree/tidy-files.txt" -P "$(nproc)" -n 1 \
  "$tidy" -p "$tree" --quiet --extra-arg=-Wno-unknown-warning-option \
  --extra-arg=-Wno-ignored-optimization-argument --extra-arg=-Wno-unused-command-line-argument \
  2>&1 | { grep -v -E '^[0-9]+ warnings? generated\.$' || true; } || status=$?
if [ "$status" -ne 0 ]; then
  echo "tidy: findings above (.clang-tidy)" >&2
  exit 1
fi
echo "tidy: clean"
