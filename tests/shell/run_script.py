#!/usr/bin/env python3
"""Runs one shell script (tests/shell/NAME.hb) through the real `basalt shell` and compares
what it prints (stdout and stderr, interleaved) with NAME.out.

  run_script.py --basalt BIN NAME.hb            on an embedded store in a fresh directory
  run_script.py --basalt BIN NAME.hb --server   against a real `basalt serve` (fresh store,
                                                free ports) through `basalt shell --server`
  --thrift-url                                  with --server: `--data thrift://HOST:PORT`
  --file                                        pass the script as `basalt shell NAME.hb`
                                                instead of on stdin
  --update                                      rewrite NAME.out with the output instead

Timings (`Took 0.0123 seconds`), store-assigned timestamps (13 digits), and a snapshot's creation
time and shared bytes (list_snapshots) are masked. A script
line `# exit-status: N` gives the expected exit status (default 0). With --server, NAME.server.out
is used instead when it exists (for messages that differ between backends).
"""

import argparse
import difflib
import os
import re
import signal
import subprocess
import sys
import tempfile


def mask(text):
    text = re.sub(r"Took \d+\.\d{4} seconds", "Took <T> seconds", text)
    text = re.sub(r"^cluster id: \S+$", "cluster id: <id>", text, flags=re.M)
    text = re.sub(r"^\S+ \(auth:NONE\)$", "<user> (auth:NONE)", text, flags=re.M)
    text = re.sub(r"\(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000\), shared \d+ bytes",
                  "(<time>), shared <N> bytes", text)
    return re.sub(r"timestamp=\d{13}\b", "timestamp=<now>", text)


def start_server(binary, data_dir):
    proc = subprocess.Popen([binary, "serve", "--data", data_dir, "--port", "0",
                             "--thrift-port", "0", "--thrift1-port", "0", "--hbase-rpc-port", "0",
                             "--access-log", os.devnull],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # A line per protocol server (Thrift2 first), then the ready line, or EOF if it failed.
    thrift = re.search(r"thrift2 on ([0-9.]+):(\d+)", proc.stdout.readline())
    ready = proc.stdout.readline()
    while ready and "listening on" not in ready:
        ready = proc.stdout.readline()
    if not thrift or "listening on" not in ready:
        proc.kill()
        raise RuntimeError(f"basalt serve did not start: {proc.stderr.read()!r}")
    return proc, f"{thrift.group(1)}:{thrift.group(2)}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--basalt", required=True)
    parser.add_argument("--server", action="store_true")
    parser.add_argument("--thrift-url", action="store_true",
                        help="with --server: name it as --data thrift://HOST:PORT")
    parser.add_argument("--file", action="store_true")
    parser.add_argument("--update", action="store_true")
    parser.add_argument("script")
    args = parser.parse_args()

    with open(args.script, "rb") as f:
        script = f.read()
    m = re.search(rb"^# exit-status: (\d+)$", script, re.M)
    expected_status = int(m.group(1)) if m else 0
    expected_path = args.script[:-len(".hb")] + ".out"
    if args.server and os.path.exists(args.script[:-len(".hb")] + ".server.out"):
        expected_path = args.script[:-len(".hb")] + ".server.out"

    with tempfile.TemporaryDirectory(prefix="basalt-shell-") as tmp:
        data = os.path.join(tmp, "data")
        server = None
        if args.server:
            server, address = start_server(args.basalt, data)
            target = (["--data", f"thrift://{address}"] if args.thrift_url
                      else ["--server", address])
        else:
            target = ["--data", data]
        try:
            env = dict(os.environ, HOME=tmp)  # no history file is read or written anyway
            script_arg = [args.script] if args.file else []
            run = subprocess.run([args.basalt, "shell", *target, *script_arg],
                                 input=b"" if args.file else script,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                                 timeout=120)
        finally:
            if server:
                server.send_signal(signal.SIGTERM)
                server.wait(timeout=30)
    actual = mask(run.stdout.decode("utf-8", "backslashreplace"))

    if args.update:
        with open(expected_path, "w") as f:
            f.write(actual)
        print(f"wrote {expected_path} (exit status {run.returncode})")
        return 0
    with open(expected_path) as f:
        expected = f.read()
    ok = True
    if actual != expected:
        ok = False
        sys.stdout.writelines(difflib.unified_diff(expected.splitlines(True),
                                                   actual.splitlines(True),
                                                   expected_path, "actual"))
    if run.returncode != expected_status:
        ok = False
        print(f"exit status {run.returncode}, expected {expected_status}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
