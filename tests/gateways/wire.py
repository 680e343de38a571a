"""The REST side of the equivalence suite: one HTTP exchange with full control of the headers
(http.client, which adds nothing but Host and, for a body, Content-Length), and the answer read
into a form two servers' answers can be compared in: the status, the media type, and the body
parsed by its representation (JSON, XML, HBase's REST protobuf messages, text, raw bytes).
"""

import dataclasses
import http.client
import json
import os
import re
import struct
import xml.etree.ElementTree as ET

PROTO_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "server",
                         "rest", "proto")


@dataclasses.dataclass
class Answer:
    status: int
    media_type: str  # the Content-Type without parameters, lower case; "" when none
    content_type: str  # the Content-Type as sent
    headers: dict  # lower-case names
    body: bytes

    def text(self):
        return self.body.decode("utf-8", "replace")

    def json(self):
        return json.loads(self.body)


def call(port, method, path, headers=None, body=None, timeout=30):
    """One request on a fresh connection; `headers` exactly as given (a None value leaves the
    header out; a Host given replaces http.client's)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        names = {k.lower() for k, v in (headers or {}).items() if v is not None}
        conn.putrequest(method, path, skip_host="host" in names, skip_accept_encoding=True)
        for name, value in (headers or {}).items():
            if value is not None:
                conn.putheader(name, value)
        if body is not None:
            if isinstance(body, str):
                body = body.encode()
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        r = conn.getresponse()
        data = r.read()
        hdrs = {k.lower(): v for k, v in r.getheaders()}
        ctype = hdrs.get("content-type", "")
        return Answer(r.status, ctype.split(";")[0].strip().lower(), ctype, hdrs, data)
    finally:
        conn.close()


# ---- protobuf: HBase's REST messages, decoded by the field numbers of their .proto files ----

_SCALARS = {"bytes", "string", "int32", "int64", "bool", "double", "uint32", "uint64", "sint32",
            "sint64", "float"}


def _load_schemas():
    """{message name: {field number: (name, type, repeated)}} from src/server/rest/proto, whose
    field numbers scripts/compare_hbase_protos.py checks against HBase's own files. Nested
    messages are named by their own name (Row, Region, ...) and by Outer.Inner."""
    schemas = {}
    field_re = re.compile(r"(optional|required|repeated)\s+([\w.]+)\s+(\w+)\s*=\s*(\d+)")
    for name in sorted(os.listdir(PROTO_DIR)):
        if not name.endswith(".proto"):
            continue
        stack = []
        with open(os.path.join(PROTO_DIR, name)) as f:
            for line in f:
                line = line.split("//")[0].strip()
                m = re.match(r"message\s+(\w+)\s*\{", line)
                if m:
                    stack.append(m.group(1))
                    schemas.setdefault(".".join(stack), {})
                    continue
                m = field_re.match(line)
                if m and stack:
                    schemas[".".join(stack)][int(m.group(4))] = (
                        m.group(3), m.group(2), m.group(1) == "repeated")
                if line.startswith("}") and stack:
                    stack.pop()
    return schemas


SCHEMAS = _load_schemas()


def _resolve(type_name, scope):
    """The schema key of a message type named inside message `scope`."""
    parts = scope.split(".")
    while parts:
        candidate = ".".join(parts + [type_name])
        if candidate in SCHEMAS:
            return candidate
        parts.pop()
    if type_name in SCHEMAS:
        return type_name
    raise KeyError(f"unknown message type {type_name} in {scope}")


def _varint(data, i):
    shift = value = 0
    while True:
        b = data[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return value, i


def pb_decode(message, data):
    """`data` as HBase's message `message`: a dict of field name to value (a list for repeated
    fields); an unknown field number is kept as "#N"."""
    schema = SCHEMAS[message]
    out = {}
    i = 0
    while i < len(data):
        key, i = _varint(data, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            raw, i = _varint(data, i)
        elif wire == 1:
            raw = data[i:i + 8]
            i += 8
        elif wire == 2:
            n, i = _varint(data, i)
            raw = data[i:i + n]
            i += n
        elif wire == 5:
            raw = data[i:i + 4]
            i += 4
        else:
            raise ValueError(f"wire type {wire} in {message}")
        if number not in schema:
            out.setdefault(f"#{number}", []).append(raw)
            continue
        name, ftype, repeated = schema[number]
        if ftype == "bytes":
            value = bytes(raw)
        elif ftype == "string":
            value = bytes(raw).decode()
        elif ftype == "bool":
            value = bool(raw)
        elif ftype in ("int32", "int64"):
            value = raw - (1 << 64) if raw >= 1 << 63 else raw
        elif ftype == "double":
            value = struct.unpack("<d", raw)[0]
        elif ftype in _SCALARS:
            value = raw
        else:
            value = pb_decode(_resolve(ftype, message), bytes(raw))
        if repeated:
            out.setdefault(name, []).append(value)
        else:
            out[name] = value
    return out


def _enc_varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def pb_encode(message, fields):
    """The inverse of pb_decode, for request bodies: `fields` maps field names to values (lists
    for repeated fields, dicts for messages)."""
    schema = SCHEMAS[message]
    by_name = {name: (number, ftype, repeated) for number, (name, ftype, repeated) in
               schema.items()}
    out = bytearray()
    for name, value in fields.items():
        number, ftype, repeated = by_name[name]
        for v in (value if repeated else [value]):
            if ftype in ("bytes", "string"):
                payload = v.encode() if isinstance(v, str) else bytes(v)
                out += _enc_varint(number << 3 | 2) + _enc_varint(len(payload)) + payload
            elif ftype in ("int32", "int64", "bool", "uint32", "uint64"):
                out += _enc_varint(number << 3) + _enc_varint(int(v))
            elif ftype == "double":
                out += _enc_varint(number << 3 | 1) + struct.pack("<d", v)
            else:
                payload = pb_encode(_resolve(ftype, message), v)
                out += _enc_varint(number << 3 | 2) + _enc_varint(len(payload)) + payload
    return bytes(out)


# ---- XML ----

def xml_tree(data):
    """An XML document as nested (tag, {attributes}, text, [children]) tuples, whitespace-only
    text dropped: attribute order and formatting do not count."""
    def walk(e):
        text = (e.text or "").strip()
        return (e.tag, dict(e.attrib), text, [walk(c) for c in e])
    return walk(ET.fromstring(data))
