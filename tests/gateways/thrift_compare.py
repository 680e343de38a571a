"""The Thrift side of the equivalence suite: thriftpy2 clients built from HBase's IDLs (basalt's
copies, src/thrift1/Hbase.thrift and src/thrift2/hbase.thrift, whose ids and types are HBase's),
one call made on both servers, and its outcome (a value or an exception) as plain data that two
servers' outcomes can be compared in.
"""

import dataclasses
import os

import thriftpy2
from thriftpy2.protocol import TBinaryProtocolFactory
from thriftpy2.rpc import make_client
from thriftpy2.thrift import TApplicationException, TException, TPayload
from thriftpy2.transport import TBufferedTransportFactory

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
HBASE1 = thriftpy2.load(os.path.join(ROOT, "src", "thrift1", "Hbase.thrift"),
                        module_name="gw_Hbase_thrift")
HBASE2 = thriftpy2.load(os.path.join(ROOT, "src", "thrift2", "hbase.thrift"),
                        module_name="gw_hbase2_thrift")


def client(service, port):
    """A client over HBase's default wire: buffered transport, binary protocol."""
    return make_client(service, "127.0.0.1", port, proto_factory=TBinaryProtocolFactory(),
                       trans_factory=TBufferedTransportFactory(), timeout=60000)


def plain(value):
    """Thrift structs, exceptions and containers as dicts, lists and scalars."""
    if isinstance(value, (TPayload, TException)) and hasattr(value, "thrift_spec"):
        return {spec[1]: plain(getattr(value, spec[1], None))
                for spec in value.thrift_spec.values()}
    if isinstance(value, TApplicationException):
        return {"type": value.type, "message": value.message}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(plain(v) for v in value)
    if isinstance(value, dict):
        return {plain(k): plain(v) for k, v in value.items()}
    return value


@dataclasses.dataclass
class Outcome:
    """What a call gave: a value, or an exception (its class and fields)."""
    value: object = None
    error: str = None  # the exception's class name, None when the call returned
    fields: dict = None  # the exception's fields

    @property
    def message(self):
        return (self.fields or {}).get("message") or ""

    def __repr__(self):
        if self.error is None:
            return f"returned {self.value!r}"[:2000]
        return f"raised {self.error}{self.fields!r}"[:2000]


def outcome(fn, *args):
    try:
        return Outcome(value=plain(fn(*args)))
    except TApplicationException as e:
        return Outcome(error="TApplicationException", fields=plain(e))
    except TException as e:
        return Outcome(error=type(e).__name__, fields=plain(e))


class Pair:
    """The same service on HBase's gateway and on basalt's server: `call` makes a call on both."""

    def __init__(self, service, hbase_port, basalt_port):
        self.service = service
        self.ports = (hbase_port, basalt_port)
        self.clients = (client(service, hbase_port), client(service, basalt_port))

    def call(self, method, *args):
        return tuple(outcome(getattr(c, method), *args) for c in self.clients)

    def hbase(self, method, *args):
        return outcome(getattr(self.clients[0], method), *args)

    def basalt(self, method, *args):
        return outcome(getattr(self.clients[1], method), *args)

    def close(self):
        for c in self.clients:
            c.close()
