#!/usr/bin/env bash
# Runs the happybase virtual environment's Python (made first if need be, by make_venv.sh) with
# the arguments given: what CTest's `python` tests run, e.g.
#   tests/python/run_with_venv.sh -m pytest -q tests/python/happybase
set -euo pipefail
venv="$("$(dirname "$0")/make_venv.sh")"
exec "$venv/bin/python" "$@"
