#!/usr/bin/env python3
"""Checks basalt's transcriptions of HBase's .proto files against HBase's own.

  scripts/compare_hbase_protos.py BASALT_PROTO_DIR HBASE_PROTOCOL_SHADED_JAR

For each file of BASALT_PROTO_DIR (src/hbase_proto/proto/), the file of the same name in the jar
(HBase ships its .proto files in hbase-protocol-shaded): every message and enum basalt declares
must be HBase's, field for field (names, numbers, labels, types, enum values, field options), in
package hbase.pb, proto2; and every file but HBase.proto and Master.proto (of which basalt keeps
only what it uses) must hold all of HBase's. Both sides are compiled by protoc into descriptors, so
comments and layout do not count. Exits 1 on a difference, naming it.
"""

import os
import subprocess
import sys
import tempfile
import zipfile

# Files of which basalt transcribes only the definitions it uses.
PARTIAL = {"HBase.proto", "Master.proto"}


def descriptor_proto():
    for root in ("/usr/include", "/usr/local/include"):
        if os.path.exists(os.path.join(root, "google/protobuf/descriptor.proto")):
            return root
    sys.exit("compare_hbase_protos.py: google/protobuf/descriptor.proto not found (libprotobuf-dev)")


def descriptors_text(proto_dir, names, include):
    with tempfile.NamedTemporaryFile(suffix=".desc") as desc:
        subprocess.run(["protoc", "-I", proto_dir, "--include_imports",
                        "--descriptor_set_out=" + desc.name] + names, check=True)
        with open(desc.name, "rb") as f:
            return subprocess.run(["protoc", "-I", include,
                                   "--decode=google.protobuf.FileDescriptorSet",
                                   "google/protobuf/descriptor.proto"],
                                  input=f.read(), capture_output=True, check=True).stdout.decode()


def tree(text):
    """protoc's text format as nested [name, children] lists and 'key: value' strings."""
    stack = [[]]
    for line in text.splitlines():
        s = line.strip()
        if s.endswith("{"):
            node = [s[:-1].strip(), []]
            stack[-1].append(node)
            stack.append(node[1])
        elif s == "}":
            stack.pop()
        elif s:
            stack[-1].append(s)
    return stack[0]


def norm(node):
    return node if isinstance(node, str) else (node[0], tuple(norm(k) for k in node[1]))


def files(text):
    """file name -> (package, syntax, {definition name: definition})."""
    out = {}
    for f in tree(text):
        if not isinstance(f, list) or f[0] != "file":
            continue
        fields = {k.split(":", 1)[0]: k.split(":", 1)[1].strip() for k in f[1] if isinstance(k, str)}
        defs = {}
        for k in f[1]:
            if isinstance(k, list) and k[0] in ("message_type", "enum_type"):
                name = next(x for x in k[1] if isinstance(x, str) and x.startswith("name:"))
                defs[k[0] + " " + name.split(":", 1)[1].strip()] = norm(k)
        out[fields["name"].strip('"')] = (fields.get("package"), fields.get("syntax"), defs)
    return out


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    basalt_dir, jar = argv[1], argv[2]
    names = sorted(n for n in os.listdir(basalt_dir) if n.endswith(".proto"))
    include = descriptor_proto()
    with tempfile.TemporaryDirectory() as hbase_dir:
        with zipfile.ZipFile(jar) as z:
            for name in names:
                if name not in z.namelist():
                    sys.exit(f"compare_hbase_protos.py: {name} is not in {jar}")
            # Every file of the jar: HBase's files import others (Master.proto imports ten)
            # that basalt transcribes in part or not at all.
            for name in z.namelist():
                if name.endswith(".proto") and "/" not in name:
                    z.extract(name, hbase_dir)
        # Procedure.proto imports protobuf's Any under HBase's shaded path.
        shaded = os.path.join(hbase_dir, "org/apache/hbase/thirdparty/google/protobuf")
        os.makedirs(shaded)
        with open(os.path.join(include, "google/protobuf/any.proto")) as src, \
                open(os.path.join(shaded, "any.proto"), "w") as dst:
            dst.write(src.read())
        basalt = files(descriptors_text(basalt_dir, names, include))
        hbase = files(descriptors_text(hbase_dir, names, include))
    problems = []
    for name in names:
        b_package, b_syntax, b_defs = basalt[name]
        h_package, h_syntax, h_defs = hbase[name]
        if (b_package, b_syntax) != (h_package, h_syntax):
            problems.append(f"{name}: package {b_package} syntax {b_syntax}, HBase's "
                            f"{h_package} {h_syntax}")
        for key, definition in sorted(b_defs.items()):
            if key not in h_defs:
                problems.append(f"{name}: {key} is not in HBase's file")
            elif h_defs[key] != definition:
                problems.append(f"{name}: {key} differs from HBase's:\n  HBase:  {h_defs[key]}"
                                f"\n  basalt: {definition}")
        if name not in PARTIAL:
            for key in sorted(set(h_defs) - set(b_defs)):
                problems.append(f"{name}: HBase's {key} is missing")
    for p in problems:
        print("compare_hbase_protos.py:", p, file=sys.stderr)
    if problems:
        return 1
    count = sum(len(basalt[n][2]) for n in names)
    print(f"{count} messages and enums of {', '.join(names)} are HBase's ({os.path.basename(jar)})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
