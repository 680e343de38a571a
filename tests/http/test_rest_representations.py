"""REST in its three representations, and HBase's content negotiation between them.

HBase's REST server answers a request that names no type (no Accept, or */*) in the resource's
first type (text/plain for the resources it writes as text, raw bytes for a cell, XML for the
rest), JSON for application/json and its protobuf messages for application/x-protobuf (or
application/protobuf); anything else is 406. Bodies are read by Content-Type, in the same three, else 415.

Each resource is read here in XML (element and attribute names as HBase's JAXB models write
them) and in protobuf (decoded by hand below, so the field numbers and wire types are pinned),
and each body is sent in both.
"""

import os
import struct
import xml.etree.ElementTree as ET

import requests

from conftest import b64, unb64

XML = {"Accept": "text/xml"}
JSON = {"Accept": "application/json"}
PB = {"Accept": "application/x-protobuf"}
SEND_XML = {"Content-Type": "text/xml"}
SEND_PB = {"Content-Type": "application/x-protobuf"}

_counter = [0]


def fresh(prefix):
    _counter[0] += 1
    return f"{prefix}{_counter[0]}_{os.getpid()}"


# ---- protobuf, by hand ----

def varint(v):
    out = b""
    while v >= 0x80:
        out += bytes([(v & 0x7F) | 0x80])
        v >>= 7
    return out + bytes([v])


def f_bytes(field, payload):
    if isinstance(payload, str):
        payload = payload.encode()
    return varint(field << 3 | 2) + varint(len(payload)) + payload


def f_int(field, v):
    return varint(field << 3) + varint(v & ((1 << 64) - 1))


def pb_decode(data):
    """A message's fields: {number: [value]}; varints as int, 64-bit as bytes, others as
    bytes."""
    fields, i = {}, 0

    def read_varint():
        nonlocal i
        shift = value = 0
        while True:
            b = data[i]
            i += 1
            value |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return value

    while i < len(data):
        key = read_varint()
        number, wire = key >> 3, key & 7
        if wire == 0:
            value = read_varint()
        elif wire == 1:
            value = data[i:i + 8]
            i += 8
        elif wire == 2:
            n = read_varint()
            value = data[i:i + n]
            i += n
        else:
            raise AssertionError(f"unexpected wire type {wire}")
        fields.setdefault(number, []).append(value)
    return fields


def pb_cellset(data):
    """CellSet bytes -> {row: [(column, value, timestamp)]}."""
    out = {}
    for row in pb_decode(data).get(1, []):
        r = pb_decode(row)
        cells = []
        for c in r.get(2, []):
            cell = pb_decode(c)
            cells.append((cell[2][0], cell.get(4, [b""])[0], cell[3][0]))
        out[r[1][0]] = cells
    return out


def xml_cellset(text):
    """CellSet XML -> {row: [(column, value, timestamp)]}."""
    root = ET.fromstring(text)
    assert root.tag == "CellSet"
    return {unb64(row.get("key")): [(unb64(c.get("column")), unb64(c.text or ""),
                                     int(c.get("timestamp"))) for c in row.findall("Cell")]
            for row in root.findall("Row")}


def xml_body(root_tag, text):
    assert text.startswith('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'), text
    root = ET.fromstring(text)
    assert root.tag == root_tag, text
    return root


# ---- negotiation ----

def test_no_accept_or_a_wildcard_gets_the_resources_first_type_as_hbase(url, table):
    # text/plain where HBase's resource lists it first (tests/gateways/ compares the bytes).
    for headers in ({}, {"Accept": "*/*"}, {"Accept": "text/*"}):
        r = requests.get(f"{url}/version", headers=headers)
        assert r.status_code == 200, r.text
        assert r.headers["Content-Type"] == "text/plain", (headers, r.headers)
        assert r.text.startswith("rest 0.0.3 [JVM: ")
    # XML where it is a CellSet's first type; raw cells, where the route serves them.
    for headers in ({}, {"Accept": "*/*"}):
        r = requests.get(f"{url}/{table}/multiget?row=nothing", headers=headers)
        assert r.status_code == 404 and r.text == "No rows found.\r\n"
        r = requests.get(f"{url}/{table}/r1", headers=headers)
        assert r.status_code == 400 and r.text.startswith("Bad request: Default 'GET' method")
    r = requests.get(f"{url}/version", headers=XML)
    v = xml_body("Version", r.text)
    assert v.get("REST") == "0.0.3" and v.get("Server", "").startswith("basalt")
    assert set(v.keys()) == {"REST", "JVM", "OS", "Server", "Jersey", "Version"}


def test_each_named_type_gets_its_representation(url):
    r = requests.get(f"{url}/version", headers={"Accept": "application/xml"})
    assert r.headers["Content-Type"] == "application/xml"
    xml_body("Version", r.text)
    r = requests.get(f"{url}/version", headers=JSON)
    assert r.headers["Content-Type"] == "application/json"
    assert r.json()["REST"] == "0.0.3"
    for accept in ("application/x-protobuf", "application/protobuf"):
        r = requests.get(f"{url}/version", headers={"Accept": accept})
        assert r.status_code == 200 and r.headers["Content-Type"] == accept
        fields = pb_decode(r.content)
        assert fields[1] == [b"0.0.3"] and fields[4][0].startswith(b"basalt")
        assert sorted(fields) == [1, 2, 3, 4, 5, 6]
    # Quality values and specificity decide between the types asked for.
    r = requests.get(f"{url}/version", headers={"Accept": "text/xml;q=0.2, application/json"})
    assert r.headers["Content-Type"] == "application/json"
    r = requests.get(f"{url}/version", headers={"Accept": "application/json, */*"})
    assert r.headers["Content-Type"] == "application/json"


def test_unserved_types_are_406(url, table):
    for path in ("/version", "/", "/status/cluster", "/namespaces", f"/{table}/schema",
                 f"/{table}/regions", f"/{table}/r1"):
        r = requests.get(url + path, headers={"Accept": "image/png"})
        assert r.status_code == 406, (path, r.status_code)
        assert r.text.startswith("Not acceptable: basalt serves text/xml, application/json")
    # Rows have no text/plain form (HBase's RowResource neither).
    assert requests.get(f"{url}/{table}/r1", headers={"Accept": "text/plain"}).status_code == 406
    # HBase has no protobuf message for the cluster version.
    assert requests.get(f"{url}/version/cluster", headers=PB).status_code == 406
    r = requests.get(f"{url}/version/cluster", headers=XML)
    assert xml_body("ClusterVersion", r.text).get("Version") == "basalt-0.1.0"
    assert requests.get(f"{url}/version/cluster", headers=JSON).json() == {
        "Version": "basalt-0.1.0"}
    assert requests.get(f"{url}/version/cluster").text == "basalt-0.1.0"


def test_bodies_of_other_types_are_415(url, table):
    for method, path in (("PUT", f"/{table}/schema"), ("PUT", f"/{table}/r1"),
                         ("POST", f"/{table}/scanner")):
        for headers in ({"Content-Type": "text/plain"}, {}):
            r = requests.request(method, url + path, data=b"x", headers=headers)
            assert r.status_code == 415, (method, path, headers, r.status_code)
            assert r.text.startswith("Unsupported media type: send text/xml, application/json")


# ---- cluster, tables, namespaces ----

def test_cluster_status(url, table):
    r = requests.get(f"{url}/status/cluster", headers=XML)
    root = xml_body("ClusterStatus", r.text)
    assert int(root.get("regions")) >= 1 and root.get("averageLoad").endswith(".0")
    nodes = root.findall("LiveNodes/Node")
    assert len(nodes) == 1 and ":" in nodes[0].get("name")
    names = [unb64(reg.get("name")) for reg in nodes[0].findall("Region")]
    assert f"{table},,0".encode() in names
    assert root.find("DeadNodes") is not None

    status = pb_decode(requests.get(f"{url}/status/cluster", headers=PB).content)
    assert status[3][0] == int(root.get("regions"))  # regions
    assert struct.unpack("<d", status[5][0])[0] == float(root.get("averageLoad"))
    node = pb_decode(status[1][0])
    assert node[1][0].decode() == nodes[0].get("name")
    assert f"{table},,0".encode() in [pb_decode(reg)[1][0] for reg in node[6]]


def test_table_list(url, table):
    root = xml_body("TableList", requests.get(f"{url}/", headers=XML).text)
    assert table in [t.get("name") for t in root.findall("table")]
    assert table.encode() in pb_decode(requests.get(f"{url}/", headers=PB).content)[1]


def test_namespaces_created_read_and_listed_in_xml_and_protobuf(url):
    a, b = fresh("nsx"), fresh("nsp")
    body = ('<NamespaceProperties><properties><entry><key>owner</key><value>ann</value>'
            '</entry></properties></NamespaceProperties>')
    r = requests.post(f"{url}/namespaces/{a}", data=body, headers=SEND_XML)
    assert r.status_code == 201, r.text
    pb_body = f_bytes(1, f_bytes(1, "owner") + f_bytes(2, "bob"))
    r = requests.post(f"{url}/namespaces/{b}", data=pb_body, headers=SEND_PB)
    assert r.status_code == 201, r.text

    root = xml_body("NamespaceProperties", requests.get(f"{url}/namespaces/{a}", headers=XML).text)
    entries = {e.findtext("key"): e.findtext("value") for e in root.findall("properties/entry")}
    assert entries == {"owner": "ann"}
    props = pb_decode(requests.get(f"{url}/namespaces/{b}", headers=PB).content)
    assert [(pb_decode(p)[1][0], pb_decode(p)[2][0]) for p in props[1]] == [(b"owner", b"bob")]
    assert requests.get(f"{url}/namespaces/{a}", headers=JSON).json() == {
        "properties": {"owner": "ann"}}

    root = xml_body("Namespaces", requests.get(f"{url}/namespaces", headers=XML).text)
    listed = [n.text for n in root.findall("Namespace")]
    assert a in listed and b in listed and "default" in listed
    listed = pb_decode(requests.get(f"{url}/namespaces", headers=PB).content)[1]
    assert a.encode() in listed and b.encode() in listed

    requests.put(f"{url}/{a}:t/schema", json={"ColumnSchema": [{"name": "cf"}]})
    root = xml_body("TableList", requests.get(f"{url}/namespaces/{a}/tables", headers=XML).text)
    assert [t.get("name") for t in root.findall("table")] == ["t"]
    assert pb_decode(requests.get(f"{url}/namespaces/{a}/tables", headers=PB).content) == {
        1: [b"t"]}


# ---- schema and regions ----

def test_schema_created_in_xml_and_read_in_each(url):
    name = fresh("sx")
    body = (f'<?xml version="1.0" encoding="UTF-8"?><TableSchema name="{name}">'
            '<ColumnSchema name="cf" VERSIONS="4" TTL="3600"/><ColumnSchema name="f2"/>'
            '</TableSchema>')
    r = requests.put(f"{url}/{name}/schema", data=body, headers=SEND_XML)
    assert r.status_code == 201, r.text

    root = xml_body("TableSchema", requests.get(f"{url}/{name}/schema", headers=XML).text)
    assert root.get("name") == name and root.get("IS_META") == "false"
    families = {c.get("name"): c for c in root.findall("ColumnSchema")}
    assert sorted(families) == ["cf", "f2"]
    assert families["cf"].get("VERSIONS") == "4" and families["cf"].get("TTL") == "3600"
    assert families["f2"].get("BLOCKCACHE") == "true"

    schema = pb_decode(requests.get(f"{url}/{name}/schema", headers=PB).content)
    assert schema[1] == [name.encode()]
    attrs = {pb_decode(a)[1][0]: pb_decode(a)[2][0] for a in schema[2]}
    assert attrs[b"IS_META"] == b"false"
    cf = next(pb_decode(c) for c in schema[3] if pb_decode(c)[1] == [b"cf"])
    assert cf[3] == [3600] and cf[4] == [4] and cf[5] == [b"NONE"]  # ttl, maxVersions, compression

    js = requests.get(f"{url}/{name}/schema", headers=JSON).json()
    assert [c["name"] for c in js["ColumnSchema"]] == ["cf", "f2"]


def test_schema_created_and_altered_in_protobuf(url):
    name = fresh("sp")
    column = f_bytes(1, "cf") + f_int(4, 2) + f_bytes(2, f_bytes(1, "BLOCKCACHE") + f_bytes(2, "false"))
    r = requests.put(f"{url}/{name}/schema", data=f_bytes(1, name) + f_bytes(3, column),
                     headers=SEND_PB)
    assert r.status_code == 201, r.text
    js = requests.get(f"{url}/{name}/schema", headers=JSON).json()
    assert js["ColumnSchema"][0]["VERSIONS"] == "2"
    assert js["ColumnSchema"][0]["BLOCKCACHE"] == "false"
    # POST adds a family.
    r = requests.post(f"{url}/{name}/schema", data=f_bytes(3, f_bytes(1, "g")),
                      headers={"Content-Type": "application/protobuf"})
    assert r.status_code == 200, r.text
    js = requests.get(f"{url}/{name}/schema", headers=JSON).json()
    assert [c["name"] for c in js["ColumnSchema"]] == ["cf", "g"]


def test_regions(url, table):
    root = xml_body("TableInfo", requests.get(f"{url}/{table}/regions", headers=XML).text)
    assert root.get("name") == table
    regions = root.findall("Region")
    assert len(regions) == 1
    r = regions[0]
    assert r.get("id") == "0" and r.get("startKey") == "" and r.get("endKey") == ""
    assert r.get("name") == f"{table},,0" and ":" in r.get("location")
    info = pb_decode(requests.get(f"{url}/{table}/regions", headers=PB).content)
    assert info[1] == [table.encode()]
    region = pb_decode(info[2][0])
    assert region[1] == [f"{table},,0".encode()] and region[4] == [0]
    assert region[5] == [r.get("location").encode()]


# ---- rows and cells ----

def test_cells_put_in_xml_and_read_in_each(url, table):
    body = ('<CellSet><Row key="%s"><Cell column="%s" timestamp="1000">%s</Cell>'
            '<Cell column="%s">%s</Cell></Row></CellSet>'
            % (b64("r1"), b64("cf:a"), b64("one"), b64("cf:b"), b64(b"\x00\xff")))
    r = requests.put(f"{url}/{table}/r1", data=body, headers=SEND_XML)
    assert r.status_code == 200, r.text

    r = requests.get(f"{url}/{table}/r1", headers=XML)
    assert r.headers["Content-Type"] == "text/xml"
    got = xml_cellset(r.text)
    assert [(c, v) for c, v, _ in got[b"r1"]] == [(b"cf:a", b"one"), (b"cf:b", b"\x00\xff")]
    assert got[b"r1"][0][2] == 1000

    got_pb = pb_cellset(requests.get(f"{url}/{table}/r1", headers=PB).content)
    assert got_pb == got
    # A single cell is still raw bytes for application/octet-stream.
    r = requests.get(f"{url}/{table}/r1/cf:a", headers={"Accept": "application/octet-stream"})
    assert r.content == b"one" and r.headers["X-Timestamp"] == "1000"


def test_cells_put_in_protobuf_and_read_in_each(url, table):
    cell = f_bytes(2, "cf:q") + f_int(3, 77) + f_bytes(4, b"\x01\x02")
    rows = f_bytes(1, f_bytes(1, "p1") + f_bytes(2, cell)) + f_bytes(1, f_bytes(1, "p2") + f_bytes(2, cell))
    r = requests.put(f"{url}/{table}/ignored", data=f_bytes(1, b"")[:0] + rows, headers=SEND_PB)
    assert r.status_code == 200, r.text
    r = requests.get(f"{url}/{table}/p1", headers=PB)
    assert r.headers["Content-Type"] == "application/x-protobuf"
    assert pb_cellset(r.content) == {b"p1": [(b"cf:q", b"\x01\x02", 77)]}
    assert xml_cellset(requests.get(f"{url}/{table}/p2", headers=XML).text) == {
        b"p2": [(b"cf:q", b"\x01\x02", 77)]}


def test_multiget_and_stateless_scan(url, table):
    body = "<CellSet>" + "".join(
        f'<Row key="{b64(k)}"><Cell column="{b64("cf:a")}">{b64(k.upper())}</Cell></Row>'
        for k in ("m1", "m2", "m3")) + "</CellSet>"
    assert requests.put(f"{url}/{table}/x", data=body, headers=SEND_XML).status_code == 200
    got = xml_cellset(requests.get(f"{url}/{table}/multiget?row=m1&row=m3", headers=XML).text)
    assert {k: [v for _, v, _ in cs] for k, cs in got.items()} == {b"m1": [b"M1"], b"m3": [b"M3"]}
    got = pb_cellset(requests.get(f"{url}/{table}/multiget?row=m2", headers=PB).content)
    assert list(got) == [b"m2"]
    got = xml_cellset(requests.get(f"{url}/{table}/m*", headers=XML).text)
    assert list(got) == [b"m1", b"m2", b"m3"]
    # The stateless scan streams CellSets, each behind its length in 2 bytes (as HBase's).
    stream = requests.get(f"{url}/{table}/m*?limit=2", headers=PB).content
    assert int.from_bytes(stream[:2], "big") == len(stream) - 2
    got = pb_cellset(stream[2:])
    assert list(got) == [b"m1", b"m2"]


def test_check_and_put_in_xml(url, table):
    def cellset(*cells):
        return "<CellSet><Row key=\"%s\">%s</Row></CellSet>" % (b64("c1"), "".join(
            f'<Cell column="{b64(c)}">{b64(v)}</Cell>' for c, v in cells))
    assert requests.put(f"{url}/{table}/c1", data=cellset(("cf:a", "1")),
                        headers=SEND_XML).status_code == 200
    r = requests.put(f"{url}/{table}/c1?check=put", data=cellset(("cf:a", "2"), ("cf:a", "1")),
                     headers=SEND_XML)
    assert r.status_code == 200, r.text
    r = requests.put(f"{url}/{table}/c1?check=put", data=cellset(("cf:a", "3"), ("cf:a", "1")),
                     headers=SEND_XML)
    assert r.status_code == 304
    got = xml_cellset(requests.get(f"{url}/{table}/c1/cf:a", headers=XML).text)
    assert got[b"c1"][0][1] == b"2"


# ---- scanners ----

def fill(url, table, n):
    body = "<CellSet>" + "".join(
        f'<Row key="{b64(f"s{i:02d}")}"><Cell column="{b64("cf:a")}">{b64(str(i))}</Cell>'
        f'<Cell column="{b64("f2:b")}">{b64("b")}</Cell></Row>' for i in range(n)) + "</CellSet>"
    assert requests.put(f"{url}/{table}/x", data=body, headers=SEND_XML).status_code == 200


def test_scanner_created_in_xml_pages_in_xml(url, table):
    fill(url, table, 6)
    body = (f'<Scanner startRow="{b64("s01")}" endRow="{b64("s05")}" batch="3">'
            f'<column>{b64("cf:a")}</column></Scanner>')
    r = requests.put(f"{url}/{table}/scanner", data=body, headers=SEND_XML)
    assert r.status_code == 201, r.text
    loc = r.headers["Location"]
    chunks = []
    while True:
        r = requests.get(loc, headers=XML)
        if r.status_code == 204:
            break
        assert r.status_code == 200 and r.headers["Content-Type"] == "text/xml", r.text
        chunks.append(xml_cellset(r.text))
    assert [sum(len(cs) for cs in ch.values()) for ch in chunks] == [3, 1]
    rows = [k for ch in chunks for k in ch]
    assert rows == [b"s01", b"s02", b"s03", b"s04"]
    assert requests.delete(loc).status_code == 200


def test_scanner_with_a_filter_in_xml(url, table):
    fill(url, table, 4)
    body = ('<Scanner batch="100"><filter>{"type":"PrefixFilter","value":"%s"}</filter>'
            '</Scanner>' % b64("s02"))
    r = requests.post(f"{url}/{table}/scanner", data=body, headers=SEND_XML)
    assert r.status_code == 201, r.text
    got = xml_cellset(requests.get(r.headers["Location"], headers=XML).text)
    assert list(got) == [b"s02"]


def test_scanner_created_in_protobuf_pages_in_protobuf(url, table):
    fill(url, table, 5)
    body = f_bytes(1, "s02") + f_bytes(3, "f2") + f_int(4, 2) + f_int(7, 1)
    r = requests.post(f"{url}/{table}/scanner", data=body, headers=SEND_PB)
    assert r.status_code == 201, r.text
    loc = r.headers["Location"]
    seen = []
    while (r := requests.get(loc, headers=PB)).status_code == 200:
        assert r.headers["Content-Type"] == "application/x-protobuf"
        for row, cells in pb_cellset(r.content).items():
            seen += [(row, c) for c, _, _ in cells]
    assert r.status_code == 204
    assert seen == [(f"s{i:02d}".encode(), b"f2:b") for i in range(2, 5)]


# ---- bad bodies ----

def test_bad_xml_and_protobuf_bodies_are_400(url, table):
    cases = [
        (f"/{table}/r1", SEND_XML, b"<CellSet><Row>", "malformed XML in the request body"),
        (f"/{table}/r1", SEND_XML, b"<Other/>", "must be a <CellSet>"),
        (f"/{table}/r1", SEND_XML, b'<CellSet><Row key="%%%"/></CellSet>', "row key"),
        (f"/{table}/r1", SEND_PB, b"\xff\xff\xff\xff", "malformed protobuf"),
        (f"/{table}/schema", SEND_XML, b"<TableSchema><ColumnSchema/></TableSchema>",
         "needs a \"name\""),
        (f"/{table}/schema", SEND_PB, b"\x1a\x02\x12\x00", "malformed protobuf"),
        (f"/{table}/scanner", SEND_XML, b'<Scanner batch="many"/>', "batch"),
        (f"/{table}/scanner", SEND_PB, b"\x20\x00", "batch must be at least 1"),
    ]
    for path, headers, body, words in cases:
        r = requests.put(url + path, data=body, headers=headers)
        assert r.status_code == 400, (path, body, r.status_code, r.text)
        assert r.headers["Content-Type"] == "text/plain"
        assert words in r.text, (path, body, r.text)


def test_xml_entities_and_deep_nesting_are_harmless(url, table):
    # An external entity pointing at a local file, and an entity bomb: nothing is expanded, so
    # the body's references are just text (here: not base64, so 400).
    xxe = (f'<?xml version="1.0"?><!DOCTYPE CellSet [<!ENTITY x SYSTEM "file:///etc/passwd">'
           '<!ENTITY a "aaaaaaaaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
           f'<CellSet><Row key="{b64("e1")}"><Cell column="{b64("cf:a")}">&x;&b;</Cell></Row>'
           '</CellSet>')
    r = requests.put(f"{url}/{table}/e1", data=xxe, headers=SEND_XML)
    assert r.status_code == 400 and "root:" not in r.text, r.text
    ns = fresh("nse")
    xxe_ns = ('<?xml version="1.0"?><!DOCTYPE NamespaceProperties [<!ENTITY x SYSTEM '
              '"file:///etc/passwd">]><NamespaceProperties><properties><entry><key>k</key>'
              '<value>&x;</value></entry></properties></NamespaceProperties>')
    assert requests.post(f"{url}/namespaces/{ns}", data=xxe_ns,
                         headers=SEND_XML).status_code == 201
    assert requests.get(f"{url}/namespaces/{ns}", headers=JSON).json() == {
        "properties": {"k": "&x;"}}

    deep = b"<CellSet>" + b"<Row>" * 4000 + b"</Row>" * 4000 + b"</CellSet>"  # within max_body
    r = requests.put(f"{url}/{table}/d1", data=deep, headers=SEND_XML)
    assert r.status_code == 400 and "nested" in r.text, r.text
    # The server is fine afterwards.
    assert requests.get(f"{url}/version").status_code == 200
