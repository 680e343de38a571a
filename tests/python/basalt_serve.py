"""`basalt serve` for the Python client suites: a real server on free loopback ports, on a store
of its own, stopped with SIGTERM (which must exit 0)."""

import os
import re
import signal
import subprocess


class BasaltServe:
    """`basalt serve` on free loopback ports, its Thrift1 server as asked."""

    def __init__(self, binary, data_dir, transport, protocol):
        args = [binary, "serve", "--data", data_dir, "--bind", "127.0.0.1", "--port", "0",
                "--no-thrift", "--thrift1-port", "0", "--no-hbase-rpc", "--access-log", os.devnull]
        if transport == "framed":
            args.append("--thrift1-framed")
        if protocol == "compact":
            args.append("--thrift1-compact")
        self.stderr = open(os.path.join(os.path.dirname(data_dir), "stderr.log"), "w+")
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        self.port = None
        wanted = f"({transport}, {protocol})"
        while True:
            line = self.proc.stdout.readline()
            m = re.search(r"thrift1 on [0-9.]+:(\d+) (\(.*\))", line)
            if m:
                assert m.group(2) == wanted, line
                self.port = int(m.group(1))
            if not line or "listening on" in line:
                break
        if self.port is None or "listening on" not in line:
            self.proc.kill()
            self.proc.wait()
            self.stderr.seek(0)
            err = self.stderr.read()
            self.stderr.close()
            raise RuntimeError(f"basalt serve did not start: {line!r} {err!r}")

    def stop(self):
        """SIGTERM; the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise
        finally:
            self.stderr.close()
