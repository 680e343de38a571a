#!/usr/bin/env bash
# Fails when a tracked C++ file is not clang-formatted. With --fix, formats them.
set -euo pipefail
cd "$(dirname "$0")/.."
# The tracked files in a git checkout; in a tree without git (an unpacked release archive) every
# C++ file outside build/ and node_modules/.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files=$(git ls-files '*.cc' '*.h')
else
  files=$(find . \( -path ./build -o -path '*/node_modules' -o -path ./data \) -prune -o \
            -type f \( -name '*.cc' -o -name '*.h' \) -print | sed 's|^\./||' | sort)
fi
if [ "${1:-}" = "--fix" ]; then
  clang-format -i $files
  exit 0
fi
bad=()
for f in $files; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  echo "not clang-formatted (run scripts/check-format.sh --fix):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "format ok"
