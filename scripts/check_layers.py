#!/usr/bin/env python3
"""Fails when a file under src/ includes a header of a layer it may not use.

The build already hides a layer's headers from the layers that do not link it
(cmake/basalt_layer.cmake); this check holds the rules the link graph cannot say:
  - the public API (include/basalt/) is everyone's, but basalt/recipes/ belongs above the recipes;
  - a layer may include the internal headers ("layer/x.h") of the layers named below only;
  - third-party headers belong to the layer that wraps them (RocksDB to the engine, libsodium to
    the recipes, Boost to the HTTP layers, ...).

  scripts/check_layers.py [ROOT]     check ROOT/src (ROOT: the repository), exit 1 on a violation
  scripts/check_layers.py --self-test   show that a wrong include fails the check

docs/architecture.md has the same table in prose; keep the two together.
"""

import os
import re
import sys
import tempfile

# layer -> the layers whose internal headers it may include (its own always).
INTERNAL = {
    "util": [],
    "api": ["util"],
    "keys": ["util"],
    "filter": ["util"],
    "paging": ["util", "keys"],
    "engine": ["util", "filter"],
    "hbase_proto": ["util"],
    "hbase_rpc": ["util", "hbase_proto"],
    "thrift2": ["util", "hbase_proto"],
    "thrift1": ["util"],
    "client": ["util", "engine", "thrift2"],
    "copy": [],  # the public API only, so it copies between any two backends
    "recipes": [],  # the public API only, so the recipes run unchanged on every backend
    "server/net": ["util"],  # protocol-neutral: no Thrift, no HBase RPC
    "server": ["util", "thrift2", "thrift1", "hbase_proto", "hbase_rpc", "server/net"],
    "shell": ["util"],
    "app": ["util", "server", "server/net"],
    "cli": ["util", "app", "shell", "copy"],
}

# Internal headers every layer may include: header-only, with no behaviour of a backend or a
# protocol, so that each layer states its locking in terms clang checks (CONTRIBUTING.md,
# "Locking"). The recipes, on the public API otherwise, use them too.
FOR_ALL = {"util/thread_annotations.h", "util/mutex.h"}

# The tests' shared helpers (tests/support/): for unit tests beside the code (*_test.cc) only.
TEST_SUPPORT = "support"

# Layers that may include the recipes' public headers (basalt/recipes/...).
RECIPE_USERS = {"recipes", "app", "cli"}

# Third-party header prefixes -> the layers that may include them. Headers not listed (the
# standard library, nlohmann/json, gtest in *_test.cc) are free for all.
THIRD_PARTY = {
    "rocksdb/": {"engine"},
    "thrift/": {"thrift2", "thrift1", "client", "server"},
    "sodium": {"recipes"},
    "boost/": {"server", "app"},
    "spdlog/": {"server", "server/net"},
    "google/protobuf/": {"server", "hbase_proto", "hbase_rpc"},
    "pugixml": {"server"},
    "re2/": {"filter", "server"},
    "xxhash": {"keys", "paging", "engine", "copy"},
    "CLI/": {"cli"},
    "histedit": {"shell"},
    "editline/": {"shell"},
}

# Folders below a layer's that are layers of their own (their own CMake target), named by their path.
SUBLAYERS = sorted((name for name in INTERNAL if "/" in name), key=len, reverse=True)


def layer_of(relpath):
    """The layer owning `relpath` (a path below src/, or a quoted include): the longest sub-layer
    it is in, else its first folder; None for a bare file name."""
    for sub in SUBLAYERS:
        if relpath.startswith(sub + "/"):
            return sub
    return relpath.split("/", 1)[0] if "/" in relpath else None


INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def violations_in(path, layer, text):
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        m = INCLUDE.match(line)
        if not m:
            continue
        quoted, header = m.group(1) == '"', m.group(2)
        close = '"' if quoted else ">"
        where = f"{path}:{number}: layer '{layer}' includes {m.group(1)}{header}{close}"
        if not quoted:
            for prefix, allowed in THIRD_PARTY.items():
                if header.startswith(prefix) and layer not in allowed:
                    found.append(f"{where}: {prefix} belongs to {', '.join(sorted(allowed))}")
            continue
        if header.startswith("basalt/recipes/"):
            if layer not in RECIPE_USERS:
                found.append(f"{where}: the recipes sit above this layer")
            continue
        if header.startswith("basalt/"):
            continue
        if header in FOR_ALL:
            continue
        owner = layer_of(header)
        if owner == layer or owner in INTERNAL[layer]:
            continue
        if owner == TEST_SUPPORT and path.endswith("_test.cc"):
            continue
        if owner is None:
            found.append(f'{where}: name headers from their layer ("{layer}/...")')
        elif owner in INTERNAL:
            found.append(f"{where}: '{owner}' internals are not this layer's to use")
        else:
            found.append(f"{where}: unknown header root '{owner}'")
    return found


def check(root):
    src = os.path.join(root, "src")
    problems = []
    for layer in sorted(os.listdir(src)):
        folder = os.path.join(src, layer)
        if not os.path.isdir(folder):
            continue
        if layer not in INTERNAL:
            problems.append(f"src/{layer}: a folder that is no layer (add it to scripts/check_layers.py)")
            continue
        for dirpath, _, files in os.walk(folder):
            for name in sorted(files):
                if not name.endswith((".h", ".cc")):
                    continue
                path = os.path.join(dirpath, name)
                owner = layer_of(os.path.relpath(path, src))
                with open(path, encoding="utf-8") as f:
                    problems += violations_in(os.path.relpath(path, root), owner, f.read())
    return problems


def self_test():
    with tempfile.TemporaryDirectory() as root:
        def write(rel, text):
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)

        write("src/engine/ok.cc", '#include "engine/ok.h"\n#include <rocksdb/db.h>\n#include "util/coding.h"\n')
        write("src/app/ok.cc", '#include "server/http/router.h"\n#include "basalt/recipes/feed.h"\n')
        write("src/engine/ok_test.cc", '#include "support/protobuf_wire.h"\n')
        write("src/server/thrift/ok.cc", '#include "server/net/event_server.h"\n')
        if check(root):
            print("self-test: a correct tree was refused:", *check(root), sep="\n  ")
            return 1
        bad = {
            "src/recipes/bad.cc": '#include "util/coding.h"\n',  # recipes: public API only
            "src/server/bad.cc": '#include "basalt/recipes/feed.h"\n',  # server below recipes
            "src/cli/bad.cc": '#include "engine/engine.h"\n',  # engine is the client's
            "src/shell/bad.cc": "#include <rocksdb/db.h>\n",  # RocksDB is the engine's
            "src/server/bad2.cc": "#include <sodium.h>\n",  # libsodium is the recipes'
            "src/client/bad.cc": '#include "embedded.h"\n',  # unqualified
            "src/engine/bad.cc": '#include "support/protobuf_wire.h"\n',  # test helpers: tests only
            "src/server/net/bad.cc": '#include "server/thrift/thrift_server.h"\n',  # net below thrift
            "src/server/net/bad2.cc": "#include <thrift/TProcessor.h>\n",  # net knows no protocol
        }
        for rel, text in bad.items():
            write(rel, text)
        problems = check(root)
        for rel in bad:
            if not any(p.startswith(rel + ":") for p in problems):
                print(f"self-test: {rel} was not refused")
                return 1
        print("self-test: the check refuses each wrong include:", *problems, sep="\n  ")
        return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    problems = check(os.path.abspath(root))
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} include(s) cross the layers; see docs/architecture.md")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
