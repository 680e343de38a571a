#!/usr/bin/env bash
# Makes (once) the virtual environment of a requirements file and prints its directory:
#   tests/python/make_venv.sh [REQUIREMENTS]     (default: requirements-happybase.txt beside it)
# The environment is Debian's /usr/bin/python3 -m venv with exactly the pinned packages, in
#   ${BASALT_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/basalt}/venv-NAME-HASH
# where HASH is that of the requirements file and the Python version, so a changed pin or Python
# makes a new one and a second run (or a fresh clone on the same machine) finds it made: no pip,
# no network. The wheels are kept in wheels-NAME beside it and installed from there with
# --no-index; only wheels missing from it are downloaded (pip's own cache is used for that).
# Concurrent runs (ctest -j) wait for each other on a lock; an environment counts as made only
# once its last step has marked it, so one left half-made by a killed run is made again.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
requirements="${1:-$here/requirements-happybase.txt}"
python=/usr/bin/python3
[ -f "$requirements" ] || { echo "make_venv.sh: no such file: $requirements" >&2; exit 2; }

name="$(basename "$requirements" .txt)"
name="${name#requirements-}"
home=~  # the user's home even where $HOME is unset
cache="${BASALT_CACHE_DIR:-${XDG_CACHE_HOME:-$home/.cache}/basalt}"
hash="$( { cat "$requirements"; "$python" -c 'import sys; print(sys.version)'; } |
         sha256sum | cut -c1-12)"
venv="$cache/venv-$name-$hash"
wheels="$cache/wheels-$name"

if [ -f "$venv/.complete" ]; then
  echo "$venv"
  exit 0
fi

mkdir -p "$cache"
exec 9>"$cache/.venv-$name.lock"
flock 9
if [ ! -f "$venv/.complete" ]; then
  {
    # Made in place (a venv's scripts name their directory, so it cannot be moved).
    tmp="$venv"
    rm -rf "$tmp"
    "$python" -m venv "$tmp"
    pip=("$tmp/bin/python" -m pip --disable-pip-version-check --no-input)
    # Offline from the wheels kept here; on the first run, or after a pin changed, fetch the
    # missing ones first.
    if ! "${pip[@]}" install --quiet --no-index --find-links "$wheels" -r "$requirements" \
         2>/dev/null; then
      echo "make_venv.sh: downloading the wheels of $requirements into $wheels"
      "${pip[@]}" download --quiet --dest "$wheels" -r "$requirements"
      "${pip[@]}" install --quiet --no-index --find-links "$wheels" -r "$requirements"
    fi
    "${pip[@]}" check
    # thriftpy2's C extensions (its Cython binary protocol and transports, which happybase's
    # binary protocol is): a build without them would test the pure-Python ones instead.
    "$tmp/bin/python" -c 'import thriftpy2.protocol.cybin, thriftpy2.transport.cybase'
    # The pins must be the whole environment: anything unpinned that came in is a missing pin.
    "$tmp/bin/python" - "$requirements" <<'PY'
import re, sys
from importlib import metadata
pinned = set()
for line in open(sys.argv[1]):
    m = re.match(r"\s*([A-Za-z0-9_.-]+)\s*==", line)
    if m:
        pinned.add(re.sub(r"[-_.]+", "-", m.group(1)).lower())
installed = {re.sub(r"[-_.]+", "-", d.metadata["Name"]).lower() for d in metadata.distributions()}
extra = installed - pinned - {"pip", "setuptools", "wheel"}
if extra:
    sys.exit("make_venv.sh: installed but not pinned: " + ", ".join(sorted(extra)))
PY
    touch "$tmp/.complete"
  } >&2
fi
echo "$venv"
