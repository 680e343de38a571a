#!/usr/bin/env python3
"""Says whether one of HBase's gateways answers a real call (scripts/hbase.sh waits on it).

  probe.py rest PORT      GET /version/cluster (the gateway asks the master)
  probe.py thrift1 PORT   getTableNames (lists tables through the master)
  probe.py thrift2 PORT   listNamespaceDescriptors, which the master refuses until it has
                          finished initialising, and tableExists(hbase:namespace), the table it
                          creates last: a test that listed the tables before would take that one
                          for its own and drop it

Exit 0 when every answer is a normal reply, 1 otherwise (no answer, an exception, a refusal).
Thrift's binary protocol over a buffered socket (HBase's default wire) is written by hand here,
so the probe needs nothing but Python's standard library.
"""

import socket
import struct
import sys
import urllib.request

T_STOP, T_BOOL, T_STRUCT, T_STRING = 0, 2, 12, 11
REPLY = 2


def string_field(fid, value):
    return struct.pack(">bhi", T_STRING, fid, len(value)) + value


def thrift_call(port, name, args):
    """One strict TBinaryProtocol call. Returns (type, first byte) of the reply's field 0 (the
    result), or None when the reply is an exception or carries another field (a declared
    exception such as TIOError)."""
    name = name.encode()
    msg = (struct.pack(">Ii", 0x80010001, len(name)) + name + struct.pack(">i", 1) + args +
           bytes([T_STOP]))
    want = 4 + 4 + len(name) + 4 + 4  # header, then field 0's type, id and first byte
    data = b""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(msg)
        while len(data) < want:
            chunk = s.recv(4096)
            if not chunk:
                return None
            data += chunk
    if struct.unpack(">I", data[:4])[0] & 0xFF != REPLY:
        return None
    off = 12 + len(name)
    ftype, fid = data[off], struct.unpack(">h", data[off + 1:off + 3])[0]
    if ftype == T_STOP or fid != 0:
        return None
    return ftype, data[off + 3]


def ready(kind, port):
    if kind == "rest":
        req = urllib.request.Request(f"http://127.0.0.1:{port}/version/cluster",
                                     headers={"Accept": "text/plain"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status == 200 and r.read().strip() != b""
    if kind == "thrift1":
        return thrift_call(port, "getTableNames", b"") is not None
    if kind == "thrift2":
        if thrift_call(port, "listNamespaceDescriptors", b"") is None:
            return False
        table = string_field(1, b"hbase") + string_field(2, b"namespace") + bytes([T_STOP])
        args = struct.pack(">bh", T_STRUCT, 1) + table
        return thrift_call(port, "tableExists", args) == (T_BOOL, 1)
    raise SystemExit(f"unknown gateway {kind}")


def main():
    try:
        ok = ready(sys.argv[1], int(sys.argv[2]))
    except OSError:
        ok = False
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
