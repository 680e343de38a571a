"""Fixtures for the HTTP tests: a real `basalt serve` process on a free loopback port.

The path of the `basalt` binary comes from --basalt (CTest passes it) or $BASALT_BINARY.
"""

import base64
import json
import os
import re
import signal
import subprocess
import tempfile
import time

import pytest
import requests


def pytest_addoption(parser):
    parser.addoption("--basalt", default=os.environ.get("BASALT_BINARY", ""),
                     help="path of the basalt binary")


def b64(data):
    if isinstance(data, str):
        data = data.encode()
    return base64.b64encode(data).decode()


def unb64(text):
    return base64.b64decode(text)


class Server:
    """One `basalt serve` process; `url` is its base URL."""

    def __init__(self, binary, data_dir, config=None, extra_args=()):
        self.binary = binary
        self.data_dir = data_dir
        self.log_path = os.path.join(os.path.dirname(data_dir), "access.log")
        args = [binary, "serve", "--data", data_dir, "--port", "0", "--thrift-port", "0",
                "--access-log", self.log_path, *extra_args]
        if config is not None:
            path = os.path.join(os.path.dirname(data_dir), "serve.json")
            with open(path, "w") as f:
                json.dump(config, f)
            args += ["--config", path]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        # The Thrift2 line, then the ready line (or EOF if it failed).
        line = self.proc.stdout.readline()
        self.thrift_port = None
        t = re.search(r"thrift2 on [0-9.]+:(\d+)", line)
        if t:
            self.thrift_port = int(t.group(1))
            line = self.proc.stdout.readline()
        m = re.search(r"listening on http://([0-9.]+):(\d+)", line)
        if not m:
            err = self.proc.stderr.read()
            raise RuntimeError(f"basalt serve did not start: {line!r} {err!r}")
        self.port = int(m.group(2))
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self, timeout=20):
        """SIGTERM, then the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise


@pytest.fixture(scope="session")
def binary(request):
    path = request.config.getoption("--basalt")
    if not path or not os.access(path, os.X_OK):
        pytest.fail("pass --basalt PATH (the basalt binary) or set BASALT_BINARY")
    return path


@pytest.fixture(scope="session")
def server(binary):
    """A server shared by the tests that do not stop it: 64 KiB bodies, 2 s scanner TTL."""
    with tempfile.TemporaryDirectory(prefix="basalt-http-") as tmp:
        s = Server(binary, os.path.join(tmp, "data"),
                   config={"max_body": 65536, "scanner_ttl_seconds": 2})
        yield s
        assert s.stop() == 0


@pytest.fixture
def url(server):
    return server.url


_counter = [0]


@pytest.fixture
def table(url):
    """A fresh table with families 'cf' (3 versions) and 'f2'."""
    _counter[0] += 1
    name = f"t{_counter[0]}_{os.getpid()}"
    r = requests.put(f"{url}/{name}/schema", json={
        "name": name, "ColumnSchema": [{"name": "cf", "VERSIONS": "3"}, {"name": "f2"}]})
    assert r.status_code == 201, r.text
    return name


def put_cells(url, table, row, cells, path_row=None):
    """cells: list of (column, value[, timestamp]) as bytes or str."""
    body = {"Row": [{"key": b64(row), "Cell": [
        dict({"column": b64(c[0]), "$": b64(c[1])}, **({"timestamp": c[2]} if len(c) > 2 else {}))
        for c in cells]}]}
    r = requests.put(f"{url}/{table}/{path_row or 'fakerow'}", json=body)
    assert r.status_code == 200, r.text
    return r


def rows_of(cellset):
    """CellSet JSON -> {row: [(column, value, timestamp)]}, bytes decoded."""
    out = {}
    for row in cellset["Row"]:
        out[unb64(row["key"])] = [(unb64(c["column"]), unb64(c["$"]), c["timestamp"])
                                  for c in row["Cell"]]
    return out
