#!/usr/bin/env python3
"""`cmake --install` into a temporary prefix, then a user's program built against it both ways:
find_package(basalt CONFIG) (the shared library, and the static one with COMPONENTS static) and
pkg-config. Checks the installed tree too: the binary, only include/basalt/ as headers (and none
of them includes an internal header), one static and one shared library, the CMake package and
basalt.pc, and nothing outside the prefix's usual folders (the service's files are the .deb's).

Usage: install_test.py --build BUILD_DIR --version X.Y.Z --cxx COMPILER [--cmake CMAKE] [--keep]"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED_OUTPUT = "name=Alice filter=PrefixFilter('al') AND KeyOnlyFilter() followers=1\n"


def run(args, **kw):
    p = subprocess.run(args, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise AssertionError(f"{' '.join(args)} exited {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p.stdout


def needed(binary):
    """The DT_NEEDED entries of an ELF file."""
    return re.findall(r"\(NEEDED\).*\[(.*)\]", run(["readelf", "-d", binary]))


def check_tree(prefix, version, build, source):
    files = set()
    for root, _, names in os.walk(prefix):
        for n in names:
            files.add(os.path.relpath(os.path.join(root, n), prefix))
    major_minor = ".".join(version.split(".")[:2])
    for f in ("bin/basalt", "include/basalt/basalt.h", "include/basalt/recipes/feed.h",
              "lib/libbasalt.a", "lib/libbasalt.so", f"lib/libbasalt.so.{major_minor}",
              f"lib/libbasalt.so.{version}", "lib/cmake/basalt/basaltConfig.cmake",
              "lib/cmake/basalt/basaltConfigVersion.cmake", "lib/cmake/basalt/basaltTargets.cmake",
              "lib/pkgconfig/basalt.pc", "share/man/man1/basalt.1.gz"):
        assert f in files, f"{f} not installed; installed: {sorted(files)}"
    for f in files:
        top = f.split("/")[0]
        assert top in ("bin", "include", "lib", "share"), f"{f}: outside the prefix's folders"
        if top == "include":
            assert f.startswith("include/basalt/") and f.endswith(".h"), f"{f}: not a public header"
        if top == "lib" and "/" not in f[4:]:
            assert re.fullmatch(r"lib/libbasalt\.(a|so(\.[0-9.]+)?)", f), f"{f}: not libbasalt"
    # Every public header, and nothing but them.
    public = {os.path.relpath(os.path.join(r, n), source)
              for r, _, ns in os.walk(os.path.join(source, "include", "basalt")) for n in ns
              if n.endswith(".h")}
    assert {f for f in files if f.startswith("include/")} == public

    # Installed headers include only other installed headers (and the standard library's).
    for f in sorted(public):
        with open(os.path.join(prefix, f)) as h:
            for line in h:
                m = re.match(r'\s*#\s*include\s*([<"])([^>"]+)', line)
                if not m:
                    continue
                if m.group(1) == '"':
                    assert m.group(2).startswith("basalt/") and \
                        os.path.exists(os.path.join(prefix, "include", m.group(2))), \
                        f"{f} includes {m.group(2)}, which is not installed"
                else:
                    assert "." not in m.group(2) and "/" not in m.group(2), \
                        f"{f} includes <{m.group(2)}>: only the standard library's headers"

    # Nothing installed points back into the build or source tree (the tree can move).
    for f in ("lib/pkgconfig/basalt.pc", *[g for g in files if g.startswith("lib/cmake/")]):
        text = open(os.path.join(prefix, f)).read()
        for tree in (build, source):
            assert tree not in text, f"{f} names {tree}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--cmake", default="cmake")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="basalt-install-")
    try:
        prefix = os.path.join(tmp, "prefix")
        run([a.cmake, "--install", a.build, "--prefix", prefix])
        check_tree(prefix, a.version, os.path.realpath(a.build), os.path.realpath(a.source))

        # Every header compiles with nothing but the installed tree on the include path.
        all_headers = os.path.join(tmp, "all_headers.cc")
        with open(all_headers, "w") as f:
            for r, _, ns in os.walk(os.path.join(prefix, "include")):
                for n in sorted(ns):
                    rel = os.path.relpath(os.path.join(r, n), os.path.join(prefix, "include"))
                    f.write(f'#include "{rel}"\n')
        run([a.cxx, "-std=c++20", "-fsyntax-only", "-I", os.path.join(prefix, "include"),
             all_headers])

        example = os.path.join(HERE, "example")
        # find_package: the shared library by default, the static one as a component.
        for kind in ("shared", "static"):
            out = os.path.join(tmp, f"cmake-{kind}")
            run([a.cmake, "-S", example, "-B", out, "-G", "Ninja",
                 f"-DCMAKE_CXX_COMPILER={a.cxx}", f"-DCMAKE_PREFIX_PATH={prefix}",
                 f"-DEXAMPLE_STATIC={'ON' if kind == 'static' else 'OFF'}"])
            run([a.cmake, "--build", out])
            binary = os.path.join(out, "example")
            libs = needed(binary)
            linked = any(lib.startswith("libbasalt.so") for lib in libs)
            assert linked == (kind == "shared"), f"{kind} example needs {libs}"
            got = run([binary, os.path.join(tmp, f"data-{kind}")])
            assert got == EXPECTED_OUTPUT, f"{kind} example printed {got!r}"
            print(f"find_package ({kind}): built, ran, linked {libs}")

        # pkg-config, as a Makefile would use it.
        env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(prefix, "lib", "pkgconfig"))
        assert run(["pkg-config", "--modversion", "basalt"], env=env).strip() == a.version
        flags = run(["pkg-config", "--cflags", "--libs", "basalt"], env=env).split()
        assert "-lbasalt" in flags, flags
        assert "-lrocksdb" in run(["pkg-config", "--static", "--libs", "basalt"], env=env).split()
        binary = os.path.join(tmp, "example-pkg-config")
        run([a.cxx, "-std=c++20", os.path.join(example, "main.cc"), "-o", binary, *flags])
        got = run([binary, os.path.join(tmp, "data-pkg-config")],
                  env=dict(os.environ, LD_LIBRARY_PATH=os.path.join(prefix, "lib")))
        assert got == EXPECTED_OUTPUT, f"pkg-config example printed {got!r}"
        print(f"pkg-config: {' '.join(flags)}: built and ran")

        # The installed binary runs.
        assert run([os.path.join(prefix, "bin", "basalt"), "--version"]).strip() == \
            f"basalt {a.version}"
    finally:
        if a.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print("install: OK")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print(f"FAILED: {e}", file=sys.stderr)
        sys.exit(1)
