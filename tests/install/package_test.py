#!/usr/bin/env python3
"""The Debian package: builds it with CPack from the built tree, checks its control fields,
conffiles and maintainer scripts (run against stubs: what they would do to a system), unpacks it
into a temporary root and checks the files (the binary, the systemd unit,
/etc/basalt/basalt.json, the man page; no headers or libraries), that the unit says what it
should (and `systemd-analyze verify` accepts it, where available), and that the unpacked binary
runs: --version, --help, and `serve` on the packaged config, stopped by SIGTERM as systemd stops
it.

Usage: package_test.py --build BUILD_DIR --version X.Y.Z [--cpack CPACK] [--keep]"""

import argparse
import glob
import gzip
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.request

EXEC_START = "/usr/bin/basalt serve --data /var/lib/basalt/data --config /etc/basalt/basalt.json"


def run(args, **kw):
    p = subprocess.run(args, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise AssertionError(f"{' '.join(args)} exited {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p.stdout


def check_control(deb, tmp, version):
    fields = dict(re.findall(r"^ ?([A-Za-z-]+): (.*)$", run(["dpkg-deb", "-I", deb]), re.M))
    assert fields.get("Package") == "basalt", fields
    assert fields.get("Version") == version, fields
    assert fields.get("Architecture") == run(["dpkg", "--print-architecture"]).strip(), fields
    assert fields.get("Maintainer"), fields
    # dpkg-shlibdeps found the runtime libraries; adduser is for postinst.
    depends = [d.strip().split()[0] for d in fields.get("Depends", "").split(",")]
    for lib in ("adduser", "libc6", "libstdc++6", "libthrift-0.17.0", "libsodium23", "libre2-9",
                "libjemalloc2", "libprotobuf32", "libpugixml1v5"):  # the last two: REST's codecs
        assert lib in depends, f"Depends lacks {lib}: {fields.get('Depends')}"
    # RocksDB is linked from its archive (CMakeLists.txt, BASALT_STATIC_ROCKSDB): the package
    # depends on its compression libraries instead.
    for lib in ("libsnappy1v5", "liblz4-1", "libzstd1"):
        assert lib in depends, f"Depends lacks {lib}: {fields.get('Depends')}"

    control = os.path.join(tmp, "control")
    run(["dpkg-deb", "-e", deb, control])
    assert open(os.path.join(control, "conffiles")).read().split() == ["/etc/basalt/basalt.json"]
    for script in ("postinst", "prerm", "postrm"):
        path = os.path.join(control, script)
        assert os.access(path, os.X_OK), f"{script} is not executable"
        run(["sh", "-n", path])
    check_maintainer_scripts(control, tmp)
    print(f"control: {fields['Package']} {fields['Version']}, Depends: {fields['Depends']}")


def run_script(control, tmp, script, arg, user_exists):
    """Runs a maintainer script with a PATH of stubs only, which log their arguments: what it
    would do to a system, without doing it (a command without a stub fails the script rather than
    reaching this machine's). Returns the logged commands."""
    stubs = os.path.join(tmp, "stubs")
    log = os.path.join(tmp, "stubs.log")
    os.makedirs(stubs, exist_ok=True)
    for name in ("adduser", "getent", "install", "chown", "chmod", "systemctl", "rm"):
        with open(os.path.join(stubs, name), "w") as f:
            # Builtins only: PATH holds nothing else.
            f.write('#!/bin/sh\necho "${0##*/} $*" >> "$STUB_LOG"\n'
                    'if [ "${0##*/}" = getent ]; then exit "$STUB_GETENT"; fi\n')
        os.chmod(os.path.join(stubs, name), 0o755)
    if os.path.exists(log):
        os.remove(log)
    p = subprocess.run(["/bin/sh", os.path.join(control, script), arg], capture_output=True,
                       text=True, env={"PATH": stubs, "STUB_LOG": log,
                                       "STUB_GETENT": "0" if user_exists else "2"})
    assert p.returncode == 0, f"{script} {arg}: {p.returncode}\n{p.stdout}{p.stderr}"
    return open(log).read().splitlines() if os.path.exists(log) else []


def check_maintainer_scripts(control, tmp):
    calls = run_script(control, tmp, "postinst", "configure", user_exists=False)
    for want in ("getent passwd basalt",
                 "adduser --quiet --system --group --home /var/lib/basalt --no-create-home "
                 "--shell /usr/sbin/nologin --gecos basalt store basalt",
                 "install -d -o basalt -g basalt -m 0750 /var/lib/basalt",
                 "chown root:basalt /etc/basalt/basalt.json", "chmod 0640 /etc/basalt/basalt.json"):
        assert want in calls, f"postinst configure: no '{want}' in {calls}"
    # An upgrade keeps the user: no second adduser.
    calls = run_script(control, tmp, "postinst", "configure", user_exists=True)
    assert not any(c.startswith("adduser") for c in calls), calls
    # Removal disables the unit and keeps the data; purge deletes the data.
    calls = run_script(control, tmp, "prerm", "remove", True)
    assert "systemctl disable basalt.service" in calls, f"prerm remove: {calls}"
    calls = run_script(control, tmp, "postrm", "remove", True)
    assert not any(c.startswith("rm") for c in calls), f"postrm remove: {calls}"
    calls = run_script(control, tmp, "postrm", "purge", True)
    assert "rm -rf /var/lib/basalt" in calls, f"postrm purge: {calls}"


def check_files(deb, root):
    listing = run(["dpkg-deb", "-c", deb]).splitlines()
    for line in listing:
        assert line.split()[1] == "root/root", f"not owned by root: {line}"
    run(["dpkg-deb", "-x", deb, root])
    files = set()
    for r, _, names in os.walk(root):
        for n in names:
            files.add("/" + os.path.relpath(os.path.join(r, n), root))
    for f in ("/usr/bin/basalt", "/lib/systemd/system/basalt.service", "/etc/basalt/basalt.json",
              "/usr/share/man/man1/basalt.1.gz", "/usr/share/doc/basalt/rest.md"):
        assert f in files, f"{f} not in the package: {sorted(files)}"
    for f in files:
        assert not f.startswith("/usr/include") and "libbasalt" not in f, \
            f"{f}: the library is not the service package's"
    man = gzip.open(os.path.join(root, "usr/share/man/man1/basalt.1.gz"), "rt").read()
    assert re.search(r"^\.TH BASALT", man, re.M) and "serve" in man, man[:500]
    print(f"files: {len(files)}, man page of {len(man.splitlines())} lines")


def check_unit(root):
    path = os.path.join(root, "lib/systemd/system/basalt.service")
    settings = {}
    for line in open(path):
        m = re.match(r"^([A-Za-z]+)=(.*)$", line.strip())
        if m:
            settings[m.group(1)] = m.group(2)
    for key, want in (("User", "basalt"), ("ExecStart", EXEC_START), ("KillSignal", "SIGTERM"),
                      ("Restart", "on-failure"), ("ReadWritePaths", "/var/lib/basalt"),
                      ("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"),
                      ("PrivateTmp", "yes"), ("WantedBy", "multi-user.target")):
        assert settings.get(key) == want, f"{key}={settings.get(key)}, want {want}"
    analyze = shutil.which("systemd-analyze")
    if not analyze:
        print("systemd-analyze verify: skipped (no systemd-analyze on this machine)")
        return
    # verify wants ExecStart's program to exist: a copy of the unit runs the unpacked one (the
    # original's ExecStart is checked above). --root would not do: it wants the whole of systemd's
    # units under the root. --man=no: Documentation's man page is not installed here.
    unit_dir = os.path.join(os.path.dirname(root), "unit")
    os.makedirs(unit_dir)
    unit = os.path.join(unit_dir, "basalt.service")
    with open(unit, "w") as f:
        f.write(open(path).read().replace("ExecStart=/usr/bin/basalt",
                                          f"ExecStart={root}/usr/bin/basalt"))
    p = subprocess.run([analyze, "verify", "--man=no", unit], capture_output=True, text=True)
    # Unknown keys and bad values are warnings (exit 0) naming the file.
    assert p.returncode == 0 and "basalt.service" not in p.stderr, \
        f"systemd-analyze verify: {p.returncode}\n{p.stdout}{p.stderr}"
    print("systemd-analyze verify: OK")


def check_binary(root, tmp, version):
    basalt = os.path.join(root, "usr/bin/basalt")
    assert run([basalt, "--version"]).strip() == f"basalt {version}"
    assert "serve" in run([basalt, "--help"])
    # The packaged config as the unit passes it (its // comments included), on free ports.
    proc = subprocess.Popen([basalt, "serve", "--data", os.path.join(tmp, "data"), "--config",
                             os.path.join(root, "etc/basalt/basalt.json"), "--port", "0",
                             "--thrift-port", "0", "--thrift1-port", "0", "--hbase-rpc-port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = None
        for line in proc.stdout:
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
            if m:
                port = int(m.group(1))
                break
        assert port, f"basalt serve did not start: {proc.stderr.read()}"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
            assert r.status == 200
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0, proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    print("binary: --version, --help, and serve on the packaged config (SIGTERM: exit 0)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("--cpack", default="cpack")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="basalt-package-")
    try:
        out = os.path.join(tmp, "out")
        run([a.cpack, "--config", os.path.join(a.build, "CPackConfig.cmake"), "-B", out])
        debs = glob.glob(os.path.join(out, "*.deb"))
        assert len(debs) == 1, f"cpack made {debs}"
        print(f"package: {os.path.basename(debs[0])}, {os.path.getsize(debs[0]) // 1024} KiB")
        check_control(debs[0], tmp, a.version)
        root = os.path.join(tmp, "root")
        check_files(debs[0], root)
        check_unit(root)
        check_binary(root, tmp, a.version)
    finally:
        if a.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print("package: OK")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print(f"FAILED: {e}", file=sys.stderr)
        sys.exit(1)
