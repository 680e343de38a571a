"""happybase, as installed from PyPI (tests/python/requirements-happybase.txt), against a Thrift1
server, used as an application uses it.

Which server:
  HAPPYBASE_HOST, HAPPYBASE_PORT   a running Thrift1 server (basalt's, or HBase's `hbase thrift`
                                   gateway). Unset: the suite starts its own `basalt serve` (the
                                   binary: --basalt PATH or $BASALT_BINARY, which CTest sets) on
                                   free loopback ports, on a store of its own, and stops it at the
                                   end.
  HAPPYBASE_TRANSPORT              buffered (default) or framed: happybase's `transport`, and the
                                   suite's own server's --thrift1-framed.
  HAPPYBASE_PROTOCOL               binary (default) or compact: happybase's `protocol`, and the
                                   suite's own server's --thrift1-compact.
  HAPPYBASE_SERVER                 basalt or hbase: whose answer to expect where basalt differs
                                   from HBase on purpose (docs/hbase.md). Default: basalt for the
                                   suite's own server, hbase for one named by HAPPYBASE_HOST.

Every assertion is HBase's answer (from HBase's Thrift1 handler, ThriftHBaseServiceHandler and
ThriftUtilities), except where `target.is_basalt` picks basalt's documented difference. Tables are
made through a connection whose `table_prefix` is this run's own, one per test, and deleted after
it; whatever a failed run leaves under the prefix is deleted at the end of the session.
"""

import dataclasses
import itertools
import os
import re
import secrets
import sys
import tempfile

import happybase
import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from basalt_serve import BasaltServe  # noqa: E402

# The Thrift structs and exceptions of the IDL happybase ships (loaded by `import happybase`).
import Hbase_thrift  # noqa: E402

IOError_ = Hbase_thrift.IOError
IllegalArgument = Hbase_thrift.IllegalArgument
AlreadyExists = Hbase_thrift.AlreadyExists

# HConstants.FOREVER: a family's time to live when it has none.
FOREVER = 2147483647


def pytest_addoption(parser):
    parser.addoption("--basalt", default=os.environ.get("BASALT_BINARY", ""),
                     help="the basalt binary, for a server of the suite's own (no HAPPYBASE_HOST)")


@dataclasses.dataclass
class Target:
    host: str
    port: int
    transport: str
    protocol: str
    server: str  # "basalt" or "hbase"
    prefix: str  # this run's table prefix

    @property
    def is_basalt(self):
        return self.server == "basalt"

    def connect(self, **kwargs):
        """A happybase Connection to the target, with this run's table prefix unless told."""
        kwargs.setdefault("table_prefix", self.prefix)
        return happybase.Connection(self.host, port=self.port, transport=self.transport,
                                    protocol=self.protocol, timeout=60000, **kwargs)

    def pool(self, size, **kwargs):
        kwargs.setdefault("table_prefix", self.prefix)
        return happybase.ConnectionPool(size, host=self.host, port=self.port,
                                        transport=self.transport, protocol=self.protocol,
                                        timeout=60000, **kwargs)


def _choice(name, allowed):
    value = os.environ.get(name) or allowed[0]
    if value not in allowed:
        raise pytest.UsageError(f"{name}={value!r}: expected one of {', '.join(allowed)}")
    return value


@pytest.fixture(scope="session")
def target(request):
    transport = _choice("HAPPYBASE_TRANSPORT", ["buffered", "framed"])
    protocol = _choice("HAPPYBASE_PROTOCOL", ["binary", "compact"])
    # Letters and digits only: a valid table name on both servers, with happybase's '_' after it.
    prefix = f"hb{os.getpid()}{secrets.token_hex(3)}"
    host = os.environ.get("HAPPYBASE_HOST")
    if host:
        server = _choice("HAPPYBASE_SERVER", ["hbase", "basalt"])
        port = int(os.environ.get("HAPPYBASE_PORT") or 9090)
        t = Target(host, port, transport, protocol, server, prefix)
        yield t
        _drop_leftovers(t)
        return
    binary = request.config.getoption("--basalt")
    if not binary or not os.access(binary, os.X_OK):
        pytest.fail("set HAPPYBASE_HOST and HAPPYBASE_PORT, or pass --basalt PATH (or set "
                    "BASALT_BINARY) for a `basalt serve` of the suite's own")
    server = _choice("HAPPYBASE_SERVER", ["basalt", "hbase"])
    with tempfile.TemporaryDirectory(prefix="basalt-happybase-") as tmp:
        serve = BasaltServe(binary, os.path.join(tmp, "data"), transport, protocol)
        t = Target("127.0.0.1", serve.port, transport, protocol, server, prefix)
        try:
            yield t
            _drop_leftovers(t)
        finally:
            assert serve.stop() == 0


def _drop_leftovers(target):
    conn = target.connect()
    try:
        for name in conn.tables():
            conn.delete_table(name, disable=True)
    finally:
        conn.close()


@pytest.fixture
def connection(target):
    conn = target.connect()
    yield conn
    conn.close()


_table_numbers = itertools.count(1)


@pytest.fixture
def make_table(request, connection):
    """make_table(families) creates a table named after the test (under the run's prefix) and
    returns its happybase Table; each is deleted after the test."""
    made = []
    stem = re.sub(r"[^A-Za-z0-9]", "", request.node.originalname.removeprefix("test_"))[:32]

    def make(families):
        name = f"{stem}{next(_table_numbers)}"
        connection.create_table(name, families)
        made.append(name)
        return connection.table(name)

    yield make
    left = set(connection.tables())
    for name in made:
        if name.encode() in left:
            connection.delete_table(name, disable=True)


def short_name(target, table):
    """A Table's name without the run's prefix (what Connection.tables() lists)."""
    return table.name[len(target.prefix) + 1:]
