"""Fixtures for the HTTP tests: a real `basalt serve` process on a free loopback port.

The path of the `basalt` binary comes from --basalt (CTest passes it) or $BASALT_BINARY.
"""

import base64
import contextlib
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


class JsonRest:
    """requests' verbs for the REST calls that mean JSON. HBase's REST server (and basalt's, like
    it) answers XML to a request that names no type (no Accept, or requests' */*), so each call
    asks for application/json unless it sets its own Accept."""

    @staticmethod
    def request(method, url, **kw):
        headers = dict(kw.pop("headers", None) or {})
        if not any(k.lower() == "accept" for k in headers):
            headers["Accept"] = "application/json"
        return requests.request(method, url, headers=headers, **kw)

    def get(self, url, **kw):
        return self.request("GET", url, **kw)

    def head(self, url, **kw):
        kw.setdefault("allow_redirects", False)
        return self.request("HEAD", url, **kw)

    def put(self, url, **kw):
        return self.request("PUT", url, **kw)

    def post(self, url, **kw):
        return self.request("POST", url, **kw)

    def delete(self, url, **kw):
        return self.request("DELETE", url, **kw)


json_rest = JsonRest()


class Server:
    """One `basalt serve` process; `url` is its base URL."""

    def __init__(self, binary, data_dir, config=None, extra_args=(), log_dir=None):
        self.binary = binary
        self.data_dir = data_dir
        self.log_path = os.path.join(log_dir or os.path.dirname(data_dir), "access.log")
        args = [binary, "serve", "--data", data_dir, "--port", "0", "--thrift-port", "0",
                "--thrift1-port", "0", "--hbase-rpc-port", "0", "--access-log", self.log_path, *extra_args]
        if config is not None:
            path = os.path.join(log_dir or os.path.dirname(data_dir), "serve.json")
            with open(path, "w") as f:
                json.dump(config, f)
            args += ["--config", path]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        # The Thrift2, Thrift1 and HBase RPC lines (each unless turned off), then the ready line
        # (or EOF if it failed).
        self.thrift_port = self.thrift1_port = self.hbase_rpc_port = None
        line = self.proc.stdout.readline()
        while (t := re.search(r"(thrift[12]|hbase-rpc) on [0-9.]+:(\d+)", line)):
            port = int(t.group(2))
            if t.group(1) == "thrift2":
                self.thrift_port = port
            elif t.group(1) == "thrift1":
                self.thrift1_port = port
            else:
                self.hbase_rpc_port = port
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


# ---- /api/v1 (docs/api-v1.md) ----

API = "/api/v1"
# Tests only: the cheapest password hash, so that sign-ups and log-ins take microseconds.
FAST_HASH = "--insecure-fast-password-hash"
PASSWORD = "correct horse battery"


@pytest.fixture(scope="session")
def api_server(binary):
    """A server for the /api/v1 tests, with the test-only fast password hash."""
    with tempfile.TemporaryDirectory(prefix="basalt-api-") as tmp:
        # Its tests sign up hundreds of users from one address, past the default limit.
        s = Server(binary, os.path.join(tmp, "data"),
                   config={"max_body": 65536, "auth_attempts_per_minute": 1000000},
                   extra_args=[FAST_HASH])
        yield s
        assert s.stop() == 0


@pytest.fixture
def api(api_server):
    return api_server.url + API


_users = [0]


def fresh_name(prefix="u"):
    """A user name no other test uses (names are 3..32 of [a-z0-9_], starting with a letter)."""
    _users[0] += 1
    return f"{prefix}{os.getpid()}_{_users[0]}"


class ApiUser:
    """A signed-up user with its session: `s` sends the cookie and the CSRF header, `bearer`
    the Authorization header."""

    def __init__(self, api, name=None, password=PASSWORD):
        self.api = api
        self.name = name or fresh_name()
        self.s = requests.Session()
        r = self.s.post(f"{api}/signup", json={"user": self.name, "password": password})
        assert r.status_code == 201, r.text
        self.token = r.json()["token"]
        self.s.headers["X-Basalt-CSRF"] = "1"
        self.bearer = {"Authorization": f"Bearer {self.token}"}

    def get(self, path, **kw):
        return self.s.get(self.api + path, **kw)

    def post(self, path, **kw):
        return self.s.post(self.api + path, **kw)

    def put(self, path, **kw):
        return self.s.put(self.api + path, **kw)

    def delete(self, path, **kw):
        return self.s.delete(self.api + path, **kw)


@contextlib.contextmanager
def serving(binary, *args, config=None):
    """A server of its own with the fast password hash, `args` and `config`, stopped cleanly
    after."""
    with tempfile.TemporaryDirectory(prefix="basalt-own-") as tmp:
        s = Server(binary, os.path.join(tmp, "data"), config=config, extra_args=[FAST_HASH, *args])
        yield s
        assert s.stop() == 0


def cell_set(row, *pairs):
    """A CellSet body for one row: pairs of (column, value) as str."""
    return {"Row": [{"key": b64(row), "Cell": [{"column": b64(c), "$": b64(v)} for c, v in pairs]}]}


@pytest.fixture
def new_user(api):
    return lambda name=None: ApiUser(api, name)


def assert_api_error(r, status, code):
    """`r` is the contract's error: the status and {"error": {"code", "message"}}."""
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["Content-Type"].startswith("application/json"), r.headers
    body = r.json()
    assert set(body) == {"error"}, body
    assert body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"], body


def walk_pages(get, path, limit):
    """Every item of a paged list, following next_cursor to the end; also the pages."""
    items, pages, cursor = [], [], None
    while True:
        params = {"limit": limit}
        if cursor is not None:
            params["cursor"] = cursor
        r = get(path, params=params)
        assert r.status_code == 200, r.text
        page = r.json()
        assert set(page) == {"items", "next_cursor"}, page
        assert len(page["items"]) <= limit
        pages.append(page["items"])
        items += page["items"]
        cursor = page["next_cursor"]
        if cursor is None:
            return items, pages
        assert len(pages) < 1000, "paging does not end"
