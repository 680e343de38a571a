"""Gateway equivalence: the same requests to `basalt serve` and to Apache HBase's own gateways
(REST, Thrift1, Thrift2), the answers compared field by field.

HBase's gateways are named by the variables `scripts/hbase.sh start` prints: HBASE_REST_PORT,
HBASE_THRIFT1_PORT, HBASE_THRIFT2_PORT (on 127.0.0.1). Without them every test fails: the suite is
the comparison, and there is nothing to compare with. basalt's server is started here, on free
loopback ports and a store of its own (the binary: --basalt PATH or $BASALT_BINARY).

Everything the suite creates on HBase is named with this run's prefix (`gw` and random hex) and
dropped at the end; the tables of other runs and other suites are left alone, and lists of
tables and namespaces are compared on the prefix's names only.

Where basalt answers otherwise on purpose, each test file's DIFFERENCES table says why and what
each side answers; `check` asserts both, and the file's last test that every entry was met.
"""

import base64
import dataclasses
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wire  # noqa: E402

HBASE_VARIABLES = ("HBASE_REST_PORT", "HBASE_THRIFT1_PORT", "HBASE_THRIFT2_PORT")


def pytest_addoption(parser):
    parser.addoption("--basalt", default=os.environ.get("BASALT_BINARY", ""),
                     help="path of the basalt binary")


def b64(data):
    if isinstance(data, str):
        data = data.encode()
    return base64.b64encode(data).decode()


@dataclasses.dataclass
class Ports:
    rest: int
    thrift1: int
    thrift2: int


class BasaltServe:
    """`basalt serve` with REST, Thrift2 and Thrift1 (buffered, binary: HBase's defaults) on free
    loopback ports."""

    def __init__(self, binary, tmp):
        self.stderr = open(os.path.join(tmp, "stderr.log"), "w+")
        self.proc = subprocess.Popen(
            [binary, "serve", "--data", os.path.join(tmp, "data"), "--port", "0",
             "--thrift-port", "0", "--thrift1-port", "0", "--hbase-rpc-port", "0", "--access-log", os.devnull],
            stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        found = {}
        while True:
            line = self.proc.stdout.readline()
            m = re.search(r"(thrift[12]) on [0-9.]+:(\d+)", line)
            if m:
                found[m.group(1)] = int(m.group(2))
            m = re.search(r"listening on http://[0-9.]+:(\d+)", line)
            if m:
                found["rest"] = int(m.group(1))
            if not line or m:
                break
        if set(found) != {"rest", "thrift1", "thrift2"}:
            self.proc.kill()
            self.proc.wait()
            self.stderr.seek(0)
            raise RuntimeError(f"basalt serve did not start: {found} {self.stderr.read()!r}")
        self.ports = Ports(found["rest"], found["thrift1"], found["thrift2"])

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=30)
        finally:
            self.stderr.close()


@pytest.fixture(scope="session")
def hbase_ports():
    missing = [v for v in HBASE_VARIABLES if not os.environ.get(v)]
    if missing:
        pytest.fail(f"{', '.join(missing)} not set: start HBase with "
                    f"`eval \"$(scripts/hbase.sh start)\"` and pass its ports (docs/hbase.md)")
    return Ports(*(int(os.environ[v]) for v in HBASE_VARIABLES))


@pytest.fixture(scope="session")
def basalt_ports(request):
    binary = request.config.getoption("--basalt")
    if not binary or not os.access(binary, os.X_OK):
        pytest.fail("pass --basalt PATH (the basalt binary) or set BASALT_BINARY")
    with tempfile.TemporaryDirectory(prefix="basalt-gateways-") as tmp:
        server = BasaltServe(binary, tmp)
        yield server.ports
        assert server.stop() == 0


@pytest.fixture(scope="session")
def prefix():
    """This run's names: tables, namespaces, rows of shared tables."""
    return "gw" + secrets.token_hex(3)


class Rest:
    """The same REST request to HBase's gateway and to basalt's server."""

    def __init__(self, hbase_port, basalt_port):
        self.hbase_port = hbase_port
        self.basalt_port = basalt_port

    def both(self, method, path, headers=None, body=None):
        return (wire.call(self.hbase_port, method, path, headers, body),
                wire.call(self.basalt_port, method, path, headers, body))

    def hbase(self, method, path, headers=None, body=None):
        return wire.call(self.hbase_port, method, path, headers, body)

    def basalt(self, method, path, headers=None, body=None):
        return wire.call(self.basalt_port, method, path, headers, body)


@pytest.fixture(scope="session")
def rest(hbase_ports, basalt_ports, prefix):
    """The REST pair. Every test that creates anything uses it (the Thrift tests through their
    clients' fixtures), so that whatever the run created under its prefix, on both servers, is
    dropped at the end, however it ends."""
    pair = Rest(hbase_ports.rest, basalt_ports.rest)
    yield pair
    drop_everything(pair, prefix)


# The seeded table every read test reads (nothing writes to it): rows and cells with explicit
# timestamps, so that both servers hold exactly the same versions.
SEED = {
    "r1": [("cf:a", 10, "a10"), ("cf:a", 20, "a20"), ("cf:a", 30, "a30"), ("cf:b", 10, "b10"),
           ("cf:", 10, "empty-qualifier"), ("f2:x", 30, "x30")],
    "r2": [("cf:a", 15, "r2a"), ("f2:x", 15, "r2x")],
    "r3": [("cf:b", 5, "r3b")],
    "s1": [("cf:a", 15, "s1a")],
    "bin\x00\xff": [("cf:a", 7, "binary-row")],
}


def seed_cellset(rows):
    return json.dumps({"Row": [
        {"key": b64(row.encode("latin-1")),
         "Cell": [{"column": b64(c), "timestamp": ts, "$": b64(v)} for c, ts, v in cells]}
        for row, cells in rows.items()]})


@pytest.fixture(scope="session")
def tables(rest, prefix):
    """{"read": a seeded table, "write": an empty table for writes} on both servers (families cf
    with 3 versions and f2)."""
    names = {"read": f"{prefix}_read", "write": f"{prefix}_write"}
    send = {"Content-Type": "application/json", "Accept": "application/json"}
    for name in names.values():
        schema = json.dumps({"name": name, "ColumnSchema": [{"name": "cf", "VERSIONS": "3"},
                                                            {"name": "f2"}]})
        for answer in rest.both("PUT", f"/{name}/schema", send, schema):
            assert answer.status == 201, (name, answer)
    for answer in rest.both("PUT", f"/{names['read']}/r1", send, seed_cellset(SEED)):
        assert answer.status == 200, answer
    return names


def drop_everything(rest, prefix):
    """Drops the run's tables and namespaces on both servers."""
    for port in (rest.hbase_port, rest.basalt_port):
        listed = wire.call(port, "GET", "/", {"Accept": "application/json"}).json()["table"]
        for t in listed:
            if t["name"].split(":")[-1].startswith(prefix):
                wire.call(port, "DELETE", f"/{t['name']}/schema")
        namespaces = wire.call(port, "GET", "/namespaces", {"Accept": "application/json"})
        for ns in namespaces.json()["Namespace"]:
            if ns.startswith(prefix):
                for t in wire.call(port, "GET", f"/namespaces/{ns}/tables",
                                   {"Accept": "application/json"}).json()["table"]:
                    wire.call(port, "DELETE", f"/{ns}:{t['name']}/schema")
                wire.call(port, "DELETE", f"/namespaces/{ns}")


NOW = "<server clock>"


def normalise_times(obj):
    """Timestamps from a server's clock (milliseconds since 1970, 13 digits) become NOW: they
    differ between any two servers. The suite writes explicit small timestamps wherever it
    compares them."""
    if isinstance(obj, dict):
        return {k: normalise_times(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(normalise_times(v) for v in obj)
    if isinstance(obj, int) and not isinstance(obj, bool) and 10**12 <= obj < 10**14:
        return NOW
    if isinstance(obj, str) and re.fullmatch(r"1\d{12}", obj):
        return NOW
    return obj


# ---- expected differences ----

@dataclasses.dataclass
class Difference:
    """Where basalt answers otherwise on purpose: why, and what each side answers (a predicate on
    that side's answer)."""
    reason: str
    hbase: object
    basalt: object


class Differences:
    """A test file's table of expected differences, and which entries its tests met."""

    def __init__(self, table):
        for key, d in table.items():
            assert d.reason.strip(), key
        self.table = table
        self.met = set()

    def check(self, key, hbase_answer, basalt_answer):
        """Asserts that HBase and basalt answer as the entry `key` says."""
        d = self.table[key]
        assert d.hbase(hbase_answer), (key, "HBase", hbase_answer)
        assert d.basalt(basalt_answer), (key, "basalt", basalt_answer)
        self.met.add(key)

    def unmet(self):
        return sorted(set(self.table) - self.met)
