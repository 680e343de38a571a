#!/usr/bin/env python3
"""Writes the seed corpora of the server fuzzers (valid requests) into tests/fuzz/corpus/:
rest_request/ (raw HTTP requests), rest_codecs/ (selector byte + text), rest_bodies/ (selector
byte + a REST body in XML, JSON or protobuf), thrift2_request/ and
thrift1_request/ (selector byte + Thrift messages, binary and compact). Run it again after
changing it:
    python3 tests/fuzz/make_seeds.py
"""

import base64
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

# ---- Thrift: a value is (type, payload); fields are {id: value}. ----
BOOL, BYTE, I32, I64, STRING, STRUCT, LIST = 2, 3, 8, 10, 11, 12, 15
CALL = 1


def s(v):
    return (STRING, v.encode() if isinstance(v, str) else v)


def i32(v):
    return (I32, v)


def i64(v):
    return (I64, v)


def boolean(v):
    return (BOOL, v)


def st(**fields):
    """A struct from f<ID>=value keyword arguments."""
    return (STRUCT, {int(k[1:]): v for k, v in fields.items()})


def lst(elem_type, items):
    return (LIST, (elem_type, items))


class Binary:
    def value(self, v):
        t, p = v
        if t == BOOL:
            return bytes([1 if p else 0])
        if t == BYTE:
            return struct.pack(">b", p)
        if t == I32:
            return struct.pack(">i", p)
        if t == I64:
            return struct.pack(">q", p)
        if t == STRING:
            return struct.pack(">i", len(p)) + p
        if t == STRUCT:
            out = b""
            for fid, fv in sorted(p.items()):
                out += struct.pack(">bh", fv[0], fid) + self.value(fv)
            return out + b"\x00"
        if t == LIST:
            et, items = p
            return struct.pack(">bi", et, len(items)) + b"".join(self.value(x) for x in items)
        raise ValueError(t)

    def message(self, name, args, seqid=1):
        return (struct.pack(">I", 0x80010000 | CALL) + struct.pack(">i", len(name)) +
                name.encode() + struct.pack(">i", seqid) + self.value((STRUCT, args)))


def varint(n):
    out = b""
    while True:
        if n < 0x80:
            return out + bytes([n])
        out += bytes([(n & 0x7F) | 0x80])
        n >>= 7


def zigzag(n, bits):
    return (n << 1) ^ (n >> (bits - 1))


class Compact:
    TYPES = {BYTE: 3, I32: 5, I64: 6, STRING: 8, LIST: 9, STRUCT: 12}

    def ctype(self, t, v=None):
        if t == BOOL:
            return 1 if v else 2
        return self.TYPES[t]

    def value(self, v):
        t, p = v
        if t == BOOL:
            return bytes([1 if p else 2])
        if t == BYTE:
            return struct.pack(">b", p)
        if t == I32:
            return varint(zigzag(p, 32) & 0xFFFFFFFF)
        if t == I64:
            return varint(zigzag(p, 64) & 0xFFFFFFFFFFFFFFFF)
        if t == STRING:
            return varint(len(p)) + p
        if t == STRUCT:
            out, last = b"", 0
            for fid, fv in sorted(p.items()):
                ct = self.ctype(fv[0], fv[1])
                if 0 < fid - last <= 15:
                    out += bytes([((fid - last) << 4) | ct])
                else:
                    out += bytes([ct]) + varint(zigzag(fid, 16))
                last = fid
                if fv[0] != BOOL:  # a bool field's value is in its type nibble
                    out += self.value(fv)
            return out + b"\x00"
        if t == LIST:
            et, items = p
            ct = 1 if et == BOOL else self.TYPES[et]
            head = bytes([(len(items) << 4) | ct]) if len(items) < 15 else bytes(
                [0xF0 | ct]) + varint(len(items))
            return head + b"".join(self.value(x) for x in items)
        raise ValueError(t)

    def message(self, name, args, seqid=1):
        return (bytes([0x82, (CALL << 5) | 1]) + varint(seqid) + varint(len(name)) +
                name.encode() + self.value((STRUCT, args)))


def thrift_seeds():
    cv = st(f1=s("cf"), f2=s("q"), f3=s("v"))
    tput = st(f1=s("r1"), f2=lst(STRUCT, [cv]))
    tname = st(f2=s("t"))
    calls = {
        "get": [("get", {1: s("t"), 2: st(f1=s("r1"))})],
        "get_filter": [("get", {1: s("t"), 2: st(f1=s("r1"), f5=i32(3),
                                                 f6=s("PrefixFilter('r')"))})],
        "put": [("put", {1: s("t"), 2: tput})],
        "put_then_get": [("put", {1: s("t"), 2: tput}), ("get", {1: s("t"), 2: st(f1=s("r1"))})],
        "put_multiple": [("putMultiple", {1: s("t"), 2: lst(STRUCT, [tput, tput])})],
        "exists": [("exists", {1: s("t"), 2: st(f1=s("r1"))})],
        "check_and_put": [("checkAndPut", {1: s("t"), 2: s("r1"), 3: s("cf"), 4: s("q"),
                                           5: s("v"), 6: tput})],
        "delete": [("deleteSingle", {1: s("t"), 2: st(f1=s("r1"), f2=lst(STRUCT, [
            st(f1=s("cf"), f2=s("q"))]))})],
        "increment": [("increment", {1: s("t"), 2: st(f1=s("c"), f2=lst(STRUCT, [
            st(f1=s("cf"), f2=s("n"), f3=i64(5))]))})],
        "append": [("append", {1: s("t"), 2: st(f1=s("r1"), f2=lst(STRUCT, [cv]))})],
        "mutate_row": [("mutateRow", {1: s("t"), 2: st(f1=s("r1"), f2=lst(STRUCT, [
            st(f1=tput), st(f2=st(f1=s("r1")))]))})],
        "check_and_mutate": [("checkAndMutate", {1: s("t"), 2: s("r1"), 3: s("cf"), 4: s("q"),
                                                 5: i32(2), 6: s("v"), 7: st(f1=s("r1"), f2=lst(
                                                     STRUCT, [st(f1=tput)]))})],
        "scanner": [("openScanner", {1: s("t"), 2: st(f1=s("a"), f2=s("z"), f4=i32(10))}),
                    ("getScannerRows", {1: i32(0), 2: i32(10)}),
                    ("closeScanner", {1: i32(0)})],
        "scanner_results": [("getScannerResults", {1: s("t"), 2: st(f11=boolean(True)),
                                                   3: i32(5)})],
        "create_table": [("createTable", {1: st(f1=st(f2=s("t2")), f2=lst(STRUCT, [
            st(f1=s("cf"), f10=i32(3))])), 2: lst(STRING, [s("m")])})],
        "table_descriptor": [("getTableDescriptor", {1: tname})],
        "table_names": [("getTableNamesByPattern", {1: s("t.*"), 2: boolean(False)})],
        "region_location": [("getRegionLocation", {1: s("t"), 2: s("r1"), 3: boolean(False)})],
        "namespaces": [("createNamespace", {1: st(f1=s("ns1"))}), ("listNamespaces", {})],
        "truncate": [("truncateTable", {1: tname, 2: boolean(True)})],
        "add_family": [("addColumnFamily", {1: tname, 2: st(f1=s("f3"))})],
        "server_type": [("getThriftServerType", {}), ("getClusterId", {})],
        # Admin methods, and the table name patterns (RE2, whole-name match): hostile ones must
        # come back as a TIOError or an answer, fast.
        "descriptors": [("getTableDescriptors", {1: lst(STRUCT, [tname])}),
                        ("tableExists", {1: tname}),
                        ("getTableDescriptorsByNamespace", {1: s("default")}),
                        ("getTableNamesByNamespace", {1: s("default")})],
        "descriptors_by_pattern": [("getTableDescriptorsByPattern", {1: s("t|ns:.*"),
                                                                     2: boolean(True)})],
        "pattern_backtracking": [("getTableNamesByPattern", {1: s("(a*)*b"), 2: boolean(True)})],
        "pattern_nested": [("getTableNamesByPattern", {1: s("(" * 3000 + ")" * 3000),
                                                       2: boolean(False)})],
        "pattern_back_reference": [("getTableNamesByPattern", {1: s("(t)\\1"),
                                                               2: boolean(False)})],
        "pattern_repetition": [("getTableDescriptorsByPattern", {1: s("((t{100}){100}){100}"),
                                                                 2: boolean(False)})],
        "enable_disable": [("disableTable", {1: tname}), ("isTableDisabled", {1: tname}),
                           ("enableTable", {1: tname}), ("isTableEnabled", {1: tname}),
                           ("isTableAvailable", {1: tname}),
                           ("isTableAvailableWithSplit", {1: tname, 2: lst(STRING, [s("m")])})],
        "families": [("modifyColumnFamily", {1: tname, 2: st(f1=s("cf"), f10=i32(2))}),
                     ("deleteColumnFamily", {1: tname, 2: s("f3")})],
        "modify_table": [("modifyTable", {1: st(f1=tname, f2=lst(STRUCT, [
            st(f1=s("cf"), f10=i32(5))]))})],
        "drop_table": [("disableTable", {1: st(f2=s("t2"))}), ("deleteTable", {1: st(f2=s("t2"))})],
        "namespace_admin": [("getNamespaceDescriptor", {1: s("default")}),
                            ("listNamespaceDescriptors", {}),
                            ("modifyNamespace", {1: st(f1=s("ns1"))}),
                            ("deleteNamespace", {1: s("ns1")})],
        "app_namespace": [("put", {1: s("app:social_sessions"), 2: tput}),
                          ("disableTable", {1: st(f1=s("app"), f2=s("social_sessions"))}),
                          ("getNamespaceDescriptor", {1: s("app")})],
    }
    for proto_byte, proto in ((0, Binary()), (1, Compact())):
        for name, msgs in calls.items():
            data = bytes([proto_byte]) + b"".join(
                proto.message(m, args, seqid=i + 1) for i, (m, args) in enumerate(msgs))
            kind = "binary" if proto_byte == 0 else "compact"
            yield f"{kind}_{name}", data


def thrift1_seeds():
    """Calls of HBase's Thrift1 service (Hbase), as happybase and the older bindings make them."""
    mput = st(f1=boolean(False), f2=s("cf:q"), f3=s("v"), f4=boolean(True))
    mdel = st(f1=boolean(True), f2=s("f2"))
    cols = lst(STRING, [s("cf:q"), s("f2")])
    rows = lst(STRING, [s("r1"), s("r2")])
    inc = st(f1=s("t"), f2=s("c"), f3=s("cf:n"), f4=i64(2))
    tscan = st(f1=s("a"), f2=s("z"), f3=i64(1 << 40), f4=lst(STRING, [s("cf")]), f5=i32(10),
               f6=s("PrefixFilter('r') AND KeyOnlyFilter()"), f7=i32(1), f8=boolean(True),
               f9=boolean(False), f10=boolean(True))
    calls = {
        "tables": [("getTableNames", {}), ("getTableNamesWithIsTableEnabled", {}),
                   ("getColumnDescriptors", {1: s("t")}), ("getTableRegions", {1: s("t")})],
        "create_table": [("createTable", {1: s("t2"), 2: lst(STRUCT, [
            st(f1=s("cf:"), f2=i32(3), f3=s("NONE"), f5=s("ROW"), f9=i32(3600))])})],
        "enable_disable": [("disableTable", {1: s("t")}), ("isTableEnabled", {1: s("t")}),
                           ("enableTable", {1: s("t")})],
        "drop_table": [("disableTable", {1: s("t2")}), ("deleteTable", {1: s("t2")})],
        "compact": [("compact", {1: s("t")}), ("majorCompact", {1: s("t,,0")})],
        "mutate_row": [("mutateRow", {1: s("t"), 2: s("r1"), 3: lst(STRUCT, [mput, mdel])})],
        "mutate_row_ts": [("mutateRowTs", {1: s("t"), 2: s("r1"), 3: lst(STRUCT, [mput]),
                                           4: i64(5)})],
        "mutate_rows": [("mutateRows", {1: s("t"), 2: lst(STRUCT, [
            st(f1=s("r1"), f2=lst(STRUCT, [mput])), st(f1=s("r2"), f2=lst(STRUCT, [mdel]))])})],
        "mutate_rows_ts": [("mutateRowsTs", {1: s("t"), 2: lst(STRUCT, [
            st(f1=s("r1"), f2=lst(STRUCT, [mput]))]), 3: i64(7)})],
        "put_then_row": [("mutateRow", {1: s("t"), 2: s("r1"), 3: lst(STRUCT, [mput])}),
                         ("getRowWithColumns", {1: s("t"), 2: s("r1"), 3: cols})],
        "rows": [("getRow", {1: s("t"), 2: s("r1")}), ("getRowTs", {1: s("t"), 2: s("r1"),
                                                                   3: i64(10)}),
                 ("getRowWithColumnsTs", {1: s("t"), 2: s("r1"), 3: cols, 4: i64(10)}),
                 ("getRows", {1: s("t"), 2: rows}),
                 ("getRowsWithColumns", {1: s("t"), 2: rows, 3: cols}),
                 ("getRowsTs", {1: s("t"), 2: rows, 3: i64(10)}),
                 ("getRowsWithColumnsTs", {1: s("t"), 2: rows, 3: cols, 4: i64(10)})],
        "cells": [("get", {1: s("t"), 2: s("r1"), 3: s("cf:q")}),
                  ("getVer", {1: s("t"), 2: s("r1"), 3: s("cf"), 4: i32(3)}),
                  ("getVerTs", {1: s("t"), 2: s("r1"), 3: s("cf:q"), 4: i64(10), 5: i32(3)})],
        "counters": [("atomicIncrement", {1: s("t"), 2: s("c"), 3: s("cf:n"), 4: i64(5)}),
                     ("increment", {1: inc}), ("incrementRows", {1: lst(STRUCT, [inc, inc])})],
        "append": [("append", {1: st(f1=s("t"), f2=s("r1"), f3=lst(STRING, [s("cf:a")]),
                                     f4=lst(STRING, [s("x")]))})],
        "check_and_put": [("checkAndPut", {1: s("t"), 2: s("r1"), 3: s("cf:q"), 5: s("v"),
                                           6: mput})],
        "deletes": [("deleteAll", {1: s("t"), 2: s("r1"), 3: s("cf:q")}),
                    ("deleteAllTs", {1: s("t"), 2: s("r1"), 3: s("f2"), 4: i64(3)}),
                    ("deleteAllRowTs", {1: s("t"), 2: s("r1"), 3: i64(3)}),
                    ("deleteAllRow", {1: s("t"), 2: s("r2")})],
        "scanner": [("scannerOpenWithScan", {1: s("t"), 2: tscan}),
                    ("scannerGetList", {1: i32(0), 2: i32(10)}),
                    ("scannerGet", {1: i32(0)}), ("scannerClose", {1: i32(0)})],
        "scanner_reversed": [("scannerOpenWithScan", {1: s("t"), 2: st(f1=s("z"),
                                                                       f9=boolean(True))}),
                             ("scannerGetList", {1: i32(1), 2: i32(3)})],
        "scanner_opens": [("scannerOpen", {1: s("t"), 2: s(""), 3: lst(STRING, [])}),
                          ("scannerOpenWithStop", {1: s("t"), 2: s("a"), 3: s("z"), 4: cols}),
                          ("scannerOpenWithPrefix", {1: s("t"), 2: s("r"), 3: cols}),
                          ("scannerOpenTs", {1: s("t"), 2: s("a"), 3: cols, 4: i64(10)}),
                          ("scannerOpenWithStopTs", {1: s("t"), 2: s("a"), 3: s("z"), 4: cols,
                                                     5: i64(10)})],
        "region_info": [("getRegionInfo", {1: s("t,r1,99999")})],
        "server": [("getThriftServerType", {}), ("getClusterId", {}),
                   ("grant", {1: st(f1=s("bob"), f2=i32(0), f4=s("R"), f5=s("t"))})],
        "app_namespace": [("getRow", {1: s("app:social_users"), 2: s("alice")}),
                          ("mutateRow", {1: s("app:social_sessions"), 2: s("x"),
                                         3: lst(STRUCT, [mput])}),
                          ("disableTable", {1: s("app:social_users")})],
    }
    for proto_byte, proto in ((0, Binary()), (1, Compact())):
        for name, msgs in calls.items():
            data = bytes([proto_byte]) + b"".join(
                proto.message(m, args, seqid=i + 1) for i, (m, args) in enumerate(msgs))
            kind = "binary" if proto_byte == 0 else "compact"
            yield f"{kind}_{name}", data


def b64(text):
    return base64.b64encode(text.encode()).decode()


def http(method, target, body=b"", content_type="application/json", accept="application/json"):
    if isinstance(body, str):
        body = body.encode()
    head = f"{method} {target} HTTP/1.1\r\nHost: localhost\r\nAccept: {accept}\r\n"
    if body:
        head += f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
    return head.encode() + b"\r\n" + body


def rest_seeds():
    cells = json.dumps({"Row": [{"key": b64("r1"), "Cell": [
        {"column": b64("cf:q"), "$": b64("v"), "timestamp": 5}]}]})
    scanner = json.dumps({"startRow": b64("a"), "endRow": b64("z"), "batch": 10,
                          "filter": json.dumps({"type": "PrefixFilter", "value": b64("r")})})
    yield "list_tables", http("GET", "/")
    yield "version", http("GET", "/version/cluster")
    yield "status", http("GET", "/status/cluster")
    yield "namespaces", http("GET", "/namespaces")
    yield "create_namespace", http("POST", "/namespaces/ns1", '{"properties":{"a":"b"}}')
    yield "schema_get", http("GET", "/t/schema")
    yield "schema_put", http("PUT", "/t2/schema", json.dumps(
        {"name": "t2", "ColumnSchema": [{"name": "cf", "VERSIONS": "3"}]}))
    yield "regions", http("GET", "/t/regions")
    yield "exists", http("GET", "/t/exists")
    yield "put_cells", http("PUT", "/t/fakerow", cells)
    yield "put_octet", http("PUT", "/t/r2/cf:q", "raw", content_type="application/octet-stream")
    yield "get_row", http("GET", "/t/r1")
    yield "get_cell_octet", http("GET", "/t/r1/cf:q", accept="application/octet-stream")
    yield "get_versions", http("GET", "/t/r1/cf:q/0,100?v=3")
    yield "get_prefix", http("GET", "/t/r*")
    yield "get_range", http("GET", "/t/a,z/cf")
    yield "multiget", http("GET", "/t/multiget?row=r1&row=r%32&v=2")
    yield "check_and_put", http("PUT", "/t/r1/?check=put", json.dumps({"Row": [{"key": b64("r1"),
        "Cell": [{"column": b64("cf:q"), "$": b64("w")}, {"column": b64("cf:q"), "$": b64("v")}]}]}))
    yield "delete_row", http("DELETE", "/t/r1/cf:q")
    yield "scanner", http("POST", "/t/scanner", scanner)
    yield "scanner_next", http("GET", "/t/scanner/1?n=5")
    yield "scanner_delete", http("DELETE", "/t/scanner/1")
    yield "metrics_percent", http("GET", "/t/%72%31/cf%3Aq")


def codec_seeds():
    yield "url", b"\x00a%20b%2Fc"
    yield "url_plus", b"\x01a+b%2B"
    yield "query", b"\x02row=r1&row=r%32&v=3&flag"
    yield "base64", b"\x03" + base64.b64encode(b"\x00\xffrow")
    yield "filter_language", b"\x04PrefixFilter('r') AND KeyOnlyFilter()"
    filters = [
        {"type": "PrefixFilter", "value": b64("r")},
        {"type": "SingleColumnValueFilter", "family": b64("cf"), "qualifier": b64("q"),
         "op": "EQUAL", "comparator": {"type": "BinaryComparator", "value": b64("v")},
         "ifMissing": True},
        {"type": "FilterList", "op": "MUST_PASS_ONE", "filters": [
            {"type": "PageFilter", "value": "10"},
            {"type": "RowFilter", "op": "LESS", "comparator": {
                "type": "RegexStringComparator", "value": "r.*"}}]},
        {"type": "FuzzyRowFilter", "fuzzyKeys": [{"key": b64("ab"), "mask": base64.b64encode(
            b"\x00\x01").decode()}]},
        {"type": "ColumnRangeFilter", "minColumn": b64("a"), "minColumnInclusive": True,
         "maxColumn": b64("z"), "maxColumnInclusive": False},
    ]
    for i, f in enumerate(filters):
        yield f"filter_json_{i}", b"\x04" + json.dumps(f).encode()


# ---- REST bodies: selector byte (model = byte % 4, representation = byte // 4 % 3) + body ----
CELLSET, SCHEMA, SCANNER, NS_PROPS = 0, 1, 2, 3
XML_BODY, JSON_BODY, PB_BODY = 0, 1, 2


def pb_varint(v):
    out = b""
    while v >= 0x80:
        out += bytes([(v & 0x7F) | 0x80])
        v >>= 7
    return out + bytes([v])


def pb_len(field, payload):
    payload = payload.encode() if isinstance(payload, str) else payload
    return pb_varint(field << 3 | 2) + pb_varint(len(payload)) + payload


def pb_int(field, v):
    return pb_varint(field << 3) + pb_varint(v)


def body_seeds():
    def sel(model, representation):
        return bytes([representation * 4 + model])

    cells = {"Row": [{"key": b64("r1"), "Cell": [
        {"column": b64("cf:a"), "timestamp": 5, "$": b64("v")}, {"$": b64("w")}]}]}
    yield "cellset_json", sel(CELLSET, JSON_BODY) + json.dumps(cells).encode()
    yield "cellset_xml", sel(CELLSET, XML_BODY) + (
        f'<?xml version="1.0"?><CellSet><Row key="{b64("r1")}"><Cell column="{b64("cf:a")}" '
        f'timestamp="5">{b64("v")}</Cell><Cell><![CDATA[{b64("w")}]]></Cell></Row></CellSet>'
    ).encode()
    yield "cellset_pb", sel(CELLSET, PB_BODY) + pb_len(1, pb_len(1, "r1") + pb_len(
        2, pb_len(2, "cf:a") + pb_int(3, 5) + pb_len(4, "v")))
    schema = {"name": "t", "IS_META": "false",
              "ColumnSchema": [{"name": "cf", "VERSIONS": "3", "TTL": 60, "IN_MEMORY": True}]}
    yield "schema_json", sel(SCHEMA, JSON_BODY) + json.dumps(schema).encode()
    yield "schema_xml", sel(SCHEMA, XML_BODY) + (
        b'<TableSchema name="t" IS_META="false"><ColumnSchema name="cf" VERSIONS="3" '
        b'TTL="FOREVER"/><ColumnSchema name="f2"/></TableSchema>')
    yield "schema_pb", sel(SCHEMA, PB_BODY) + pb_len(1, "t") + pb_len(
        2, pb_len(1, "IS_META") + pb_len(2, "false")) + pb_len(
        3, pb_len(1, "cf") + pb_int(3, 60) + pb_int(4, 3) + pb_len(5, "NONE")) + pb_int(4, 1)
    scanner = {"startRow": b64("a"), "endRow": b64("z"), "column": [b64("cf:a")], "batch": 10,
               "filter": json.dumps({"type": "PrefixFilter", "value": b64("r")})}
    yield "scanner_json", sel(SCANNER, JSON_BODY) + json.dumps(scanner).encode()
    yield "scanner_xml", sel(SCANNER, XML_BODY) + (
        f'<Scanner startRow="{b64("a")}" endRow="{b64("z")}" batch="10" maxVersions="2" '
        f'includeStopRow="true"><column>{b64("cf:a")}</column>'
        '<filter>{"type":"KeyOnlyFilter"}</filter></Scanner>').encode()
    yield "scanner_pb", sel(SCANNER, PB_BODY) + pb_len(1, "a") + pb_len(2, "z") + pb_len(
        3, "cf") + pb_int(4, 10) + pb_len(8, '{"type":"KeyOnlyFilter"}') + pb_int(12, 5)
    yield "ns_props_json", sel(NS_PROPS, JSON_BODY) + b'{"properties":{"k":"v"}}'
    yield "ns_props_xml", sel(NS_PROPS, XML_BODY) + (
        b"<NamespaceProperties><properties><entry><key>k</key><value>v</value></entry>"
        b"</properties></NamespaceProperties>")
    yield "ns_props_pb", sel(NS_PROPS, PB_BODY) + pb_len(1, pb_len(1, "k") + pb_len(2, "v"))
    yield "xml_doctype", sel(NS_PROPS, XML_BODY) + (
        b'<!DOCTYPE NamespaceProperties [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>'
        b"<NamespaceProperties><properties><entry><key>&b;</key><value>&#65;</value></entry>"
        b"</properties></NamespaceProperties>")


def write(folder, seeds):
    path = os.path.join(HERE, "corpus", folder)
    os.makedirs(path, exist_ok=True)
    for name, data in seeds:
        with open(os.path.join(path, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    write("rest_request", rest_seeds())
    write("rest_codecs", codec_seeds())
    write("rest_bodies", body_seeds())
    write("thrift2_request", thrift_seeds())
    write("thrift1_request", thrift1_seeds())
