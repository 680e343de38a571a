"""REST: every resource basalt serves, in every representation HBase's REST server writes (JSON,
XML, protobuf, octet-stream for cells, text/plain where HBase serves it), the same requests to
both servers and the answers compared: status, media type and body, parsed by representation.

What varies between any two servers (timestamps the server's clock gave, region ids and names,
host:port, start codes, versions of the software) is normalised; everything else must be equal,
unless DIFFERENCES below says why not and what each side answers.
"""

import base64
import json
import re
import time

import pytest

import wire
from conftest import Difference, Differences, b64, normalise_times

JSON = {"Accept": "application/json"}
XML = {"Accept": "text/xml"}
PB = {"Accept": "application/x-protobuf"}
TEXT = {"Accept": "text/plain"}
OCTET = {"Accept": "application/octet-stream"}
SEND_JSON = {"Content-Type": "application/json"}
SEND_XML = {"Content-Type": "text/xml"}
SEND_PB = {"Content-Type": "application/x-protobuf"}
SEND_OCTET = {"Content-Type": "application/octet-stream"}


def status(code):
    return lambda a: a.status == code


def status_and_type(code, media_type):
    return lambda a: a.status == code and a.media_type == media_type


def basalt_error(code):
    """basalt's error answer: the status, and one text/plain line saying what was wrong."""
    return lambda a: (a.status == code and a.media_type == "text/plain" and
                      a.body.endswith(b"\r\n") and b"\n" not in a.body[:-1] and len(a.body) > 2)


# Where basalt answers otherwise on purpose. Each entry: why, and what each side answers.
DIFFERENCES = Differences({
    "error-bodies": Difference(
        "An error's body is one text/plain line naming the error class and what was wrong "
        "(\"NotFound: table 't' does not exist\"). HBase's is its status phrase and a Java stack "
        "trace (\"Not found\\r\\norg.apache.hadoop.hbase.TableNotFoundException: t\\n\\tat ...\"), "
        "an empty body (406, 405, 415), or Jetty's HTML or JSON error page; the status is the "
        "same, and is what clients act on. Where HBase writes a message of its own rather than "
        "an exception (\"Not found\", \"No rows found.\", the namespace and 'Default GET' "
        "messages), basalt writes the same bytes.",
        hbase=lambda a: a.status >= 400, basalt=lambda a: a.status >= 400),
    "application-xml": Difference(
        "basalt also serves XML as application/xml (the type most XML clients ask for), and "
        "answers it as it answers text/xml; HBase's REST server knows XML only as text/xml and "
        "answers application/xml 406.",
        hbase=status(406), basalt=lambda a: a.status != 406),
    "q-zero": Difference(
        "An Accept range with q=0 excludes its type (RFC 9110): basalt honours it; for "
        "\"text/xml;q=0, */*\" where XML is the resource's first type, HBase's Jersey still "
        "picks text/xml (multi-get) or fails with 500 (the table scan), and basalt answers the "
        "next type, JSON.",
        hbase=lambda a: a.status == 500 or a.media_type == "text/xml",
        basalt=status_and_type(200, "application/json")),
    "web-ui": Difference(
        "GET / from a browser (Accept: text/html) is basalt's web UI (docs/web-ui.md); HBase "
        "answers 406.",
        hbase=status(406), basalt=status_and_type(200, "text/html")),
    "table-scan-wildcard": Difference(
        "GET /{table}/{prefix}* with no Accept, */* or application/*: Jersey picks HBase's "
        "protobuf stream method and labels it with the Accept header itself (Content-Type: */*; "
        "application/x-protobuf without one); "
        "basalt answers the CellSet in XML (JSON for application/*), as for every other "
        "resource without text/plain or raw cells.",
        hbase=lambda a: a.status == 200 and a.content_type in ("*/*", "application/*",
                                                               "application/x-protobuf"),
        basalt=lambda a: a.status == 200 and a.media_type in ("text/xml", "application/json")),
    "missing-namespace": Difference(
        "A namespace that does not exist: basalt answers 404; HBase's NamespacesInstanceResource "
        "lets NamespaceNotFoundException through as 500 (GET, and GET of its tables).",
        hbase=status(500), basalt=basalt_error(404)),
    "missing-table-multiget": Difference(
        "A multi-get on a table that does not exist: basalt answers 404 as for a single row; "
        "HBase's MultiRowResource fails with 500.",
        hbase=status(500), basalt=basalt_error(404)),
    "malformed-body": Difference(
        "A body that does not parse (JSON, protobuf, bad base64) is a client error: basalt answers "
        "400 naming what is wrong; HBase answers 500 with no body (its readers throw), and 400 "
        "for malformed XML.",
        hbase=lambda a: a.status in (400, 500), basalt=basalt_error(400)),
    "malformed-number": Difference(
        "A path or query number that is not one (v=x, a timestamp 'x', a leading empty column): "
        "basalt answers 400; HBase fails with 500.",
        hbase=status(500), basalt=basalt_error(400)),
    "versions-below-one": Difference(
        "?v=0: basalt answers 400 (a bad argument); HBase answers 503 (its client's "
        "IOException 'versions must be positive' maps to Unavailable).",
        hbase=status(503), basalt=basalt_error(400)),
    "write-without-content-type": Difference(
        "A write without Content-Type: basalt refuses it (415), so that no cross-site form post "
        "is read as a body (docs/security.md); HBase reads it as raw bytes and writes the cell.",
        hbase=status(200), basalt=basalt_error(415)),
    "namespace-conflicts": Difference(
        "Dropping a namespace that still holds tables, or a reserved one (default, hbase): basalt "
        "answers 409 Conflict; HBase answers 503 (ConstraintException maps to Unavailable).",
        hbase=status(503), basalt=basalt_error(409)),
    "bad-namespace-name": Difference(
        "An invalid namespace name: basalt answers 400; HBase retries its master call, then "
        "answers 503.",
        hbase=status(503), basalt=basalt_error(400)),
    "namespace-alteration": Difference(
        "Changing a namespace's properties (PUT with other ones): basalt's Admin has no call for "
        "it yet, so basalt answers 501 and changes nothing; HBase alters them (200).",
        hbase=status(200), basalt=basalt_error(501)),
    "delete-row-range": Difference(
        "DELETE /{table}/{start},{end}: basalt refuses a range (400), since a delete names one "
        "row; HBase deletes the start row and ignores the end.",
        hbase=status(200), basalt=basalt_error(400)),
    "multi-row-write-atomic": Difference(
        "A CellSet of several rows, one of them naming a family the table lacks: both answer "
        "404, and basalt has written nothing (its batch is atomic); HBase has written the rows "
        "before the failing one.",
        hbase=status(200), basalt=status(404)),
    "return-result": Difference(
        "check=increment or check=append with returnResult=true: basalt answers the new values "
        "as a CellSet, as newer HBase releases do; HBase 2.6.1 ignores the parameter (200, no "
        "body). The values written are the same.",
        hbase=lambda a: a.status == 200 and not a.body,
        basalt=status_and_type(200, "application/json")),
    "octet-column-header-only": Difference(
        "An octet-stream write naming its column in X-Column only (no column in the path): "
        "basalt writes it; HBase's RowResource reads the path's first column before the header "
        "and fails (400, ArrayIndexOutOfBoundsException).",
        hbase=status(400), basalt=status(200)),
    "scanner-filter-language": Difference(
        "A scanner's filter may also be a filter-language string (\"PrefixFilter('r')\", "
        "docs/filters.md) in basalt; HBase's takes its JSON filter model only (400 otherwise).",
        hbase=status(400), basalt=status(201)),
    "scanner-bad-settings": Difference(
        "A scanner with batch or maxVersions below 1: basalt refuses it when it is created (400); "
        "HBase creates it (201) and then answers one cell per chunk (batch) or nothing "
        "(maxVersions).",
        hbase=status(201), basalt=basalt_error(400)),
    "scanner-missing-family": Difference(
        "A scanner naming a family the table lacks: basalt answers 404 at creation, as for a row "
        "read naming it; HBase creates it (201) and answers nothing.",
        hbase=status(201), basalt=basalt_error(404)),
    "scanner-missing-table": Difference(
        "A scanner on a table that does not exist: basalt answers 404 at creation; HBase answers "
        "201 and fails when it is read.",
        hbase=status(201), basalt=basalt_error(404)),
    "scanner-other-table": Difference(
        "A scanner id read under another table's path: basalt answers 404, as for an id never "
        "handed out (a scanner is its opener's, on its table: docs/rest.md); HBase finds the id "
        "under any table.",
        hbase=status(200), basalt=status(404)),
    "schema-attributes": Difference(
        "A family's schema: HBase lists every attribute it keeps, defaults included "
        "(INDEX_BLOCK_ENCODING, DATA_BLOCK_ENCODING, REPLICATION_SCOPE) and the table attribute "
        "hbase.store.file-tracker.impl; basalt lists the settings it has and what a schema set, "
        "and the table's DURABILITY (docs/data-model.md). Every attribute both list is equal. "
        "(HBase drops the table attribute when a PUT replaces the schema.)",
        hbase=lambda extra: {"INDEX_BLOCK_ENCODING", "DATA_BLOCK_ENCODING",
                             "REPLICATION_SCOPE"} <= extra <= {
            "INDEX_BLOCK_ENCODING", "DATA_BLOCK_ENCODING", "REPLICATION_SCOPE",
            "hbase.store.file-tracker.impl"},
        basalt=lambda extra: extra == {"DURABILITY"}),
    "version-revision": Difference(
        "/version: HBase reports its source revision (Revision); basalt has no such build "
        "figure and leaves the field out. The other fields are each server's own.",
        hbase=lambda keys: "Revision" in keys, basalt=lambda keys: "Revision" not in keys),
    "cluster-regions": Difference(
        "/status/cluster lists each server's own regions: HBase's include its catalog tables' "
        "(hbase:meta, hbase:namespace) and other clients' tables; basalt's, the app namespace's "
        "tables (docs/security.md). Both list this run's tables, region by region.",
        hbase=lambda names: any(n.startswith(b"hbase:meta,") for n in names),
        basalt=lambda names: not any(n.startswith(b"hbase:") for n in names)),
    "percent-bytes": Difference(
        "Percent escapes in a path or query are bytes in basalt, so any row key can be named "
        "(%FF is the byte 0xFF: docs/rest.md); HBase decodes them as UTF-8 text, so a key that "
        "is not UTF-8 cannot be named: Jetty refuses such a path (400 Bad Message), and a query "
        "value reads U+FFFD in its place (404).",
        hbase=lambda a: a.status in (400, 404), basalt=lambda a: a.status == 200),
    "foreign-origin": Difference(
        "A write from another site's page (an Origin that is not the server's) is refused, 403, "
        "so that a browser cannot be made to write (docs/security.md); HBase writes it.",
        hbase=status(200), basalt=basalt_error(403)),
    "foreign-host": Difference(
        "A Host that is not an IP literal, localhost, the bind address or an allowed name is "
        "refused, 403, against DNS rebinding (docs/security.md); HBase answers it.",
        hbase=lambda a: a.status == 200, basalt=basalt_error(403)),
    "app-namespace-refused": Difference(
        "Every route naming the `app` namespace or one of its tables is 403 without the admin "
        "token (docs/security.md); HBase has no such table (404).",
        hbase=status(404), basalt=basalt_error(403)),
    "app-namespace-listed": Difference(
        "basalt's own `app` namespace (the recipes' tables behind /api/v1) is listed, and every "
        "route naming it is 403 without the admin token (docs/security.md); HBase has no such "
        "namespace.",
        hbase=lambda names: "app" not in names, basalt=lambda names: "app" in names),
})


# ---- what is compared of an answer ----

def view(a, message="CellSet"):
    """An answer as compared: status, media type and the body parsed by its representation
    (`message`: the protobuf message it holds). A body-less 204 or 304 has no type that means
    anything (HBase labels its 304 text/plain), so only its status counts."""
    if a.status in (204, 304) and not a.body:
        return (a.status, None, None)
    if a.media_type == "application/json":
        body = a.json()
    elif a.media_type in ("text/xml", "application/xml"):
        body = wire.xml_tree(a.body)
    elif a.media_type in ("application/x-protobuf", "application/protobuf"):
        body = wire.pb_decode(message, a.body)
    elif a.media_type == "application/octet-stream":
        body = (a.body, {k: v for k, v in a.headers.items()
                         if k in ("x-timestamp", "x-row", "x-column")})
    elif a.media_type == "text/plain":
        body = a.text()
    else:
        body = a.body
    return normalise_times((a.status, a.media_type, body))


def same(pair, message="CellSet"):
    """HBase and basalt answered the same."""
    hbase, basalt = pair
    assert view(hbase, message) == view(basalt, message), (hbase, basalt)


def same_error(pair, code):
    """Both answered the error `code`, each in its own words (DIFFERENCES["error-bodies"])."""
    hbase, basalt = pair
    assert hbase.status == code, hbase
    assert basalt_error(code)(basalt), basalt
    DIFFERENCES.check("error-bodies", hbase, basalt)


def differs(key, pair):
    DIFFERENCES.check(key, *pair)


def cellset(rows):
    """A CellSet body: {row: [(column, value[, timestamp])]}."""
    out = []
    for row, cells in rows.items():
        cs = []
        for c in cells:
            cell = {"column": b64(c[0]), "$": b64(c[1])}
            if len(c) > 2:
                cell["timestamp"] = c[2]
            cs.append(cell)
        out.append({"key": b64(row), "Cell": cs})
    return json.dumps({"Row": out})


def location_path(a):
    """The path of a Location header (its host:port is each server's own)."""
    return re.sub(r"^http://[^/]+", "", a.headers["location"])


@pytest.fixture(scope="module")
def t(tables):
    return tables["read"]


@pytest.fixture(scope="module")
def w(tables):
    return tables["write"]


# ---- content negotiation: which representation each Accept gets, on every resource ----

ACCEPTS = [None, "*/*", "text/*", "application/*", "text/xml", "application/json",
           "application/x-protobuf", "application/protobuf", "application/octet-stream",
           "text/plain", "text/html", "image/png", "application/xml",
           "text/plain, application/json;q=0.5", "application/json;q=0.5, text/plain",
           "*/*;q=0.1, application/json", "application/x-protobuf;q=0.1, text/xml",
           "text/xml;q=0, */*"]

RESOURCES = ["/", "/version", "/version/rest", "/version/cluster", "/status/cluster",
             "/namespaces", "/namespaces/default", "/namespaces/default/tables",
             "/{t}/schema", "/{t}/regions", "/{t}/exists", "/{t}/r1", "/{t}/r1/cf:a",
             "/{t}/r1/cf", "/{t}/r1/cf:a,cf:b", "/{t}/r1,r3", "/{t}/r*/cf:a",
             "/{t}/multiget?row=r1&row=r2", "/{t}/r*", "/{t}/nothing/cf:a"]


@pytest.mark.parametrize("resource", RESOURCES)
def test_each_accept_gets_the_same_representation(rest, t, resource):
    path = resource.format(t=t)
    for accept in ACCEPTS:
        pair = rest.both("GET", path, {"Accept": accept} if accept else {})
        hbase, basalt = pair
        if accept == "application/xml":
            differs("application-xml", pair)
            continue
        if accept == "text/xml;q=0, */*" and resource in ("/{t}/multiget?row=r1&row=r2",
                                                           "/{t}/r*"):
            differs("q-zero", pair)
            continue
        if accept == "text/html" and resource == "/":
            differs("web-ui", pair)
            continue
        if resource == "/{t}/r*" and accept in (None, "*/*", "application/*"):
            differs("table-scan-wildcard", pair)
            continue
        if hbase.status >= 400:
            same_error(pair, hbase.status)
        else:
            assert (hbase.status, hbase.media_type) == (basalt.status, basalt.media_type), \
                (path, accept, hbase, basalt)


# ---- the cluster, the table list, versions ----

def mine(names, prefix):
    return [n for n in names if n.split(":")[-1].startswith(prefix)]


def table_names(a):
    """The table list in any representation, as a list of names."""
    if a.media_type == "text/plain":
        return a.text().splitlines()
    if a.media_type == "application/json":
        return [t["name"] for t in a.json()["table"]]
    if a.media_type == "text/xml":
        return [c[1]["name"] for c in wire.xml_tree(a.body)[3]]
    return wire.pb_decode("TableList", a.body).get("name", [])


@pytest.mark.parametrize("accept", [TEXT, JSON, XML, PB])
def test_table_list(rest, tables, prefix, accept):
    hbase, basalt = rest.both("GET", "/", accept)
    assert (hbase.status, hbase.media_type) == (basalt.status, basalt.media_type) == \
        (200, accept["Accept"])
    assert mine(table_names(hbase), prefix) == mine(table_names(basalt), prefix) == \
        sorted(tables.values())
    if accept is TEXT:
        assert hbase.text().endswith("\n") and basalt.text().endswith("\n")


VERSION_TEXT = re.compile(r"rest (?P<REST>[^ ]+) \[JVM: (?P<JVM>[^\]]*)\] \[OS: (?P<OS>[^\]]*)\] "
                          r"\[Server: (?P<Server>[^\]]*)\] \[Jersey: (?P<Jersey>[^\]]*)\] "
                          r"\[Version: (?P<Version>[^\]]*)\]( \[Revision: (?P<Revision>[^\]]*)\])?\n")


def version_fields(a):
    if a.media_type == "text/plain":
        m = VERSION_TEXT.fullmatch(a.text())
        assert m, a.text()
        return {k: v for k, v in m.groupdict().items() if v is not None}
    if a.media_type == "application/json":
        return a.json()
    if a.media_type == "text/xml":
        tag, attrs, _, children = wire.xml_tree(a.body)
        assert tag == "Version" and not children
        return attrs
    fields = wire.pb_decode("Version", a.body)
    return {{"restVersion": "REST", "jvmVersion": "JVM", "osVersion": "OS",
             "serverVersion": "Server", "jerseyVersion": "Jersey", "version": "Version",
             "revision": "Revision"}[k]: v for k, v in fields.items()}


@pytest.mark.parametrize("path", ["/version", "/version/rest"])
@pytest.mark.parametrize("accept", [TEXT, JSON, XML, PB])
def test_version(rest, path, accept):
    hbase, basalt = rest.both("GET", path, accept)
    assert (hbase.status, hbase.media_type) == (basalt.status, basalt.media_type) == \
        (200, accept["Accept"])
    h, b = version_fields(hbase), version_fields(basalt)
    assert h["REST"] == b["REST"] == "0.0.3"
    DIFFERENCES.check("version-revision", set(h), set(b))
    assert set(h) - {"Revision"} == set(b) == {"REST", "JVM", "OS", "Server", "Jersey", "Version"}


@pytest.mark.parametrize("accept", [TEXT, JSON, XML])
def test_cluster_version(rest, accept):
    hbase, basalt = rest.both("GET", "/version/cluster", accept)
    assert (hbase.status, hbase.media_type) == (basalt.status, basalt.media_type) == \
        (200, accept["Accept"])
    # Each server's own release; the shape is the same.
    def release(a):
        if a.media_type == "text/plain":
            return a.text()
        if a.media_type == "application/json":
            assert set(a.json()) == {"Version"}
            return a.json()["Version"]
        tag, attrs, text, children = wire.xml_tree(a.body)
        assert (tag, set(attrs), text, children) == ("ClusterVersion", {"Version"}, "", [])
        return attrs["Version"]
    assert release(hbase).startswith("2.6") and release(basalt).startswith("basalt-")


def status_model(a):
    """/status/cluster as (top-level figures' names, [node field names], {region names: fields})
    in any representation, values normalised: each server's nodes, load and figures are its own."""
    if a.media_type == "application/json":
        j = a.json()
        nodes = j["LiveNodes"]
        top = set(j) - {"LiveNodes", "DeadNodes"}
        node_fields = [set(n) - {"Region"} for n in nodes]
        regions = {base64.b64decode(r["name"]): set(r) - {"name"}
                   for n in nodes for r in n["Region"]}
        assert j["DeadNodes"] == []
    elif a.media_type == "text/xml":
        tag, attrs, _, children = wire.xml_tree(a.body)
        assert tag == "ClusterStatus"
        top = set(attrs)
        sections = {c[0]: c for c in children}
        assert sections["DeadNodes"][3] == []
        nodes = sections["LiveNodes"][3]
        node_fields = [set(n[1]) for n in nodes]
        regions = {base64.b64decode(r[1]["name"]): set(r[1]) - {"name"}
                   for n in nodes for r in n[3]}
    elif a.media_type == "application/x-protobuf":
        m = wire.pb_decode("StorageClusterStatus", a.body)
        top = set(m) - {"liveNodes", "deadNodes"}
        node_fields = [set(n) - {"regions"} for n in m["liveNodes"]]
        regions = {r["name"]: set(r) - {"name"} for n in m["liveNodes"] for r in n["regions"]}
    else:
        text = a.text()
        m = re.match(r"1 live servers, 0 dead servers, \d+\.\d{4} average load\n\n1 live servers\n"
                     r"    \S+ \d+\n        requests=\d+, regions=\d+\n        heapSizeMB=\d+\n"
                     r"        maxHeapSizeMB=\d+\n\n", text)
        assert m, text
        top, node_fields = {"text"}, [{"text"}]
        regions = {}
        for block in re.findall(r"        (\S[^\n]*)((?:\n            \w+=\d+)+)\n",
                                text[m.end():]):
            regions[block[0].encode()] = [line.strip().split("=")[0] for line in
                                          block[1].strip().split("\n")]
        assert text.endswith("\n\n")
    return top, node_fields, regions


@pytest.mark.parametrize("accept", [TEXT, JSON, XML, PB])
def test_cluster_status(rest, tables, prefix, accept):
    # HBase's figures come from its region server's reports, a few seconds behind a new table.
    deadline = time.monotonic() + 15
    while True:
        hbase, basalt = rest.both("GET", "/status/cluster", accept)
        reported = [n.split(b",")[0] for n in status_model(hbase)[2]]
        if all(t.encode() in reported for t in tables.values()) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert (hbase.status, hbase.media_type) == (basalt.status, basalt.media_type) == \
        (200, accept["Accept"])
    h_top, h_nodes, h_regions = status_model(hbase)
    b_top, b_nodes, b_regions = status_model(basalt)
    assert h_top == b_top and len(h_nodes) == len(b_nodes) == 1 and h_nodes == b_nodes
    DIFFERENCES.check("cluster-regions", list(h_regions), list(b_regions))
    # This run's tables: one region each, with the same figures (2 stores: 2 families).
    def of_run(regions):
        return {name.split(b",")[0]: fields for name, fields in regions.items()
                if name.split(b",")[0].decode().startswith(prefix)}
    assert of_run(h_regions) == of_run(b_regions)
    assert sorted(of_run(b_regions)) == sorted(t.encode() for t in tables.values())


# ---- namespaces ----

@pytest.fixture(scope="module")
def ns(rest, prefix):
    """A namespace with one property and one table, on both servers."""
    name = f"{prefix}ns"
    for a in rest.both("POST", f"/namespaces/{name}", SEND_JSON,
                       json.dumps({"properties": {"owner": "gw"}})):
        assert a.status == 201, a
    schema = json.dumps({"name": f"{name}:inner", "ColumnSchema": [{"name": "cf"}]})
    for a in rest.both("PUT", f"/{name}:inner/schema", SEND_JSON, schema):
        assert a.status == 201, a
    return name


def namespace_names(a):
    if a.media_type == "text/plain":
        return a.text().splitlines()
    if a.media_type == "application/json":
        return a.json()["Namespace"]
    if a.media_type == "text/xml":
        return [c[2] for c in wire.xml_tree(a.body)[3]]
    return wire.pb_decode("Namespaces", a.body).get("namespace", [])


@pytest.mark.parametrize("accept", [TEXT, JSON, XML, PB])
def test_namespace_list(rest, ns, prefix, accept):
    hbase, basalt = rest.both("GET", "/namespaces", accept)
    assert (hbase.status, hbase.media_type) == (basalt.status, basalt.media_type) == \
        (200, accept["Accept"])
    h, b = namespace_names(hbase), namespace_names(basalt)
    DIFFERENCES.check("app-namespace-listed", h, b)
    keep = lambda names: [n for n in names if n in ("default", "hbase") or n.startswith(prefix)]
    assert keep(h) == keep(b) == ["default", ns, "hbase"]


@pytest.mark.parametrize("accept", [TEXT, JSON, XML, PB])
@pytest.mark.parametrize("which", ["default", "created"])
def test_namespace_properties(rest, ns, which, accept):
    name = "default" if which == "default" else ns
    same(rest.both("GET", f"/namespaces/{name}", accept), "NamespaceProperties")


@pytest.mark.parametrize("accept", [TEXT, JSON, XML, PB])
def test_namespace_tables(rest, ns, accept):
    same(rest.both("GET", f"/namespaces/{ns}/tables", accept), "TableList")


def test_namespace_lifecycle(rest, prefix):
    name = f"{prefix}life"
    same(rest.both("POST", f"/namespaces/{name}"))  # no body: no properties
    same(rest.both("GET", f"/namespaces/{name}", JSON), "NamespaceProperties")
    # HBase's own messages, byte for byte.
    same(rest.both("POST", f"/namespaces/{name}", SEND_JSON, "{}"))
    same(rest.both("PUT", f"/namespaces/{prefix}never", SEND_JSON, "{}"))
    # An alteration that changes nothing: HBase answers the namespace's URL as text.
    hbase, basalt = rest.both("PUT", f"/namespaces/{name}", SEND_JSON, '{"properties":{}}')
    assert (hbase.status, hbase.media_type) == (basalt.status, basalt.media_type) == \
        (200, "text/plain")
    strip = lambda a: re.sub(r"^http://[^/]+", "", a.text())
    assert strip(hbase) == strip(basalt) == f"/namespaces/{name}"
    differs("namespace-alteration", rest.both("PUT", f"/namespaces/{name}", SEND_JSON,
                                              '{"properties":{"k":"v"}}'))
    for a in rest.both("PUT", f"/{name}:t/schema", SEND_JSON,
                       json.dumps({"name": f"{name}:t", "ColumnSchema": [{"name": "cf"}]})):
        assert a.status == 201, a
    differs("namespace-conflicts", rest.both("DELETE", f"/namespaces/{name}"))
    same(rest.both("DELETE", f"/{name}:t/schema"))
    same(rest.both("DELETE", f"/namespaces/{name}"))
    same(rest.both("DELETE", f"/namespaces/{name}"))  # "... does not exists.  Cannot drop ..."
    differs("missing-namespace", rest.both("GET", f"/namespaces/{name}", JSON))
    differs("missing-namespace", rest.both("GET", f"/namespaces/{name}/tables", JSON))
    differs("namespace-conflicts", rest.both("DELETE", "/namespaces/default"))
    differs("bad-namespace-name", rest.both("POST", f"/namespaces/{prefix}bad-name!", SEND_JSON,
                                            "{}"))


@pytest.mark.parametrize("send", ["xml", "protobuf"])
def test_namespace_created_from_each_representation(rest, prefix, send):
    name = f"{prefix}from{send}"
    if send == "xml":
        body, headers = ("<NamespaceProperties><properties><entry><key>k</key><value>v</value>"
                         "</entry></properties></NamespaceProperties>"), SEND_XML
    else:
        body = wire.pb_encode("NamespaceProperties", {"props": [{"key": "k", "value": "v"}]})
        headers = SEND_PB
    same(rest.both("POST", f"/namespaces/{name}", headers, body))
    for accept in (JSON, XML, PB, TEXT):
        same(rest.both("GET", f"/namespaces/{name}", accept), "NamespaceProperties")
    same(rest.both("DELETE", f"/namespaces/{name}"))
    same_error(rest.both("POST", f"/namespaces/{name}", {"Content-Type": "text/plain"}, "k=v"),
               415)


# ---- schemas and regions ----

def schema_model(a):
    """A TableSchema in any representation as ({table attributes}, {family: {attributes}}),
    the name included as NAME."""
    if a.media_type == "application/json":
        j = dict(a.json())
        families = {c["name"]: {k: v for k, v in c.items() if k != "name"}
                    for c in j.pop("ColumnSchema")}
        return j, families
    if a.media_type == "text/xml":
        tag, attrs, _, children = wire.xml_tree(a.body)
        assert tag == "TableSchema"
        return attrs, {c[1]["name"]: {k: v for k, v in c[1].items() if k != "name"}
                       for c in children}
    if a.media_type == "application/x-protobuf":
        m = wire.pb_decode("TableSchema", a.body)
        table = {x["name"]: x["value"] for x in m.get("attrs", [])}
        table["name"] = m["name"]
        families = {}
        for c in m.get("columns", []):
            f = {x["name"]: x["value"] for x in c.get("attrs", [])}
            for field in ("ttl", "maxVersions", "compression"):
                if field in c:
                    f["." + field] = str(c[field])
            families[c["name"]] = f
        return table, families
    text = a.text()
    m = re.fullmatch(r"\{ NAME=> '([^']*)'((?:, [^=]+ => '[^']*')*), COLUMNS => \[ (.*)\] \}", text)
    assert m, text
    pairs = lambda s: dict(re.findall(r", ([^=]+) => '([^']*)'", s))
    table = pairs(m.group(2))
    table["name"] = m.group(1)
    families = {}
    for col in re.findall(r"\{ NAME => '([^']*)'((?:, [^=]+ => '[^']*')*) \}(?:, )? ?",
                          m.group(3)):
        families[col[0]] = pairs(col[1])
    return table, families


def same_schema(pair):
    """Both schemas equal but for the attributes each lists alone (DIFFERENCES)."""
    hbase, basalt = pair
    assert (hbase.status, hbase.media_type) == (basalt.status, basalt.media_type), pair
    (h_table, h_families), (b_table, b_families) = schema_model(hbase), schema_model(basalt)
    assert sorted(h_families) == sorted(b_families), pair
    h_extra = set(h_table) - set(b_table)
    b_extra = set(b_table) - set(h_table)
    for f in h_families:
        h_extra |= set(h_families[f]) - set(b_families[f])
        b_extra |= set(b_families[f]) - set(h_families[f])
        for k in set(h_families[f]) & set(b_families[f]):
            assert h_families[f][k] == b_families[f][k], (f, k, pair)
    for k in set(h_table) & set(b_table):
        assert h_table[k] == b_table[k], (k, pair)
    DIFFERENCES.check("schema-attributes", h_extra, b_extra)


@pytest.mark.parametrize("accept", [TEXT, JSON, XML, PB])
def test_schema(rest, t, accept):
    same_schema(rest.both("GET", f"/{t}/schema", accept))


def test_schema_lifecycle(rest, prefix):
    name = f"{prefix}schema"
    path = f"/{name}/schema"
    created = rest.both("PUT", path, SEND_JSON, json.dumps(
        {"name": name, "ColumnSchema": [{"name": "a", "VERSIONS": "2", "TTL": "86400"},
                                        {"name": "b", "BLOOMFILTER": "NONE"}]}))
    same(created)
    assert [location_path(a) for a in created] == [path, path]
    same_schema(rest.both("GET", path, JSON))
    # POST adds or changes the families it names and keeps the others.
    same(rest.both("POST", path, SEND_XML,
                   f'<TableSchema name="{name}"><ColumnSchema name="c" VERSIONS="5"/>'
                   f'<ColumnSchema name="a" VERSIONS="4"/></TableSchema>'))
    same_schema(rest.both("GET", path, XML))
    # PUT of an existing table replaces its families.
    body = wire.pb_encode("TableSchema", {"name": name, "columns": [
        {"name": "c", "attrs": [{"name": "VERSIONS", "value": "6"}]},
        {"name": "d", "attrs": [{"name": "IN_MEMORY", "value": "true"}]}]})
    same(rest.both("PUT", path, SEND_PB, body))
    same_schema(rest.both("GET", path, PB))
    same_schema(rest.both("GET", path, TEXT))
    same(rest.both("DELETE", path))
    same_error(rest.both("GET", path, JSON), 404)
    same_error(rest.both("DELETE", path), 404)
    same_error(rest.both("PUT", path, {"Content-Type": "text/plain"}, "x"), 415)
    differs("malformed-body", rest.both("PUT", path, SEND_JSON, "{not json"))


def regions_model(a):
    """A table's regions in any representation: [(start, end)], with the table's name; ids,
    region names and locations are each server's own."""
    if a.media_type == "application/json":
        j = a.json()
        assert set(j) == {"name", "Region"}
        regions = [(r["startKey"], r["endKey"], sorted(r)) for r in j["Region"]]
        return j["name"], regions
    if a.media_type == "text/xml":
        tag, attrs, _, children = wire.xml_tree(a.body)
        return attrs["name"], [(c[1]["startKey"], c[1]["endKey"], sorted(c[1])) for c in children]
    if a.media_type == "application/x-protobuf":
        m = wire.pb_decode("TableInfo", a.body)
        return m["name"], [(r.get("startKey"), r.get("endKey"), sorted(r)) for r in m["regions"]]
    text = a.text()
    regions = re.findall(r"(\S+) \[\n  id=\d+\n  startKey='([^']*)'\n  endKey='([^']*)'\n"
                         r"  location='[^']+'\n\]\n\n", text)
    assert "".join(f"{n} [" for n, _, _ in regions) and text.endswith("]\n\n"), text
    return regions[0][0].split(",")[0], [(s, e, "text") for _, s, e in regions]


@pytest.mark.parametrize("accept", [TEXT, JSON, XML, PB])
def test_regions(rest, t, accept):
    hbase, basalt = rest.both("GET", f"/{t}/regions", accept)
    assert (hbase.status, hbase.media_type) == (basalt.status, basalt.media_type) == \
        (200, accept["Accept"])
    assert regions_model(hbase) == regions_model(basalt)


def test_exists(rest, t):
    same(rest.both("GET", f"/{t}/exists"))
    same_error(rest.both("GET", "/no_such_table_gw/exists"), 404)
    same_error(rest.both("GET", "/no_such_table_gw/regions", JSON), 404)


# ---- reading rows and cells ----

READS = [
    "r1", "r1/cf", "r1/cf:a", "r1/cf:", "r1/f2", "r1?v=2", "r1/cf:a?v=3", "r1/cf?v=5",
    # One timestamp: the versions before it ([0, TS)); a range: [START, END).
    "r1/cf:a/20", "r1/cf:a/21", "r1/cf:a/10", "r1/cf:a/0", "r1/cf:a/10,30?v=3",
    "r1/cf:a/0,100?v=3", "r1/cf:a,cf:b/11", "r1/cf/10,31?v=5",
    "r1/cf:b,cf:a", "r1/cf:a,cf:a", "r1/cf:a,", "r2/cf:a,f2:x",
    # Ranges: START,END split at the first comma; globs.
    "r1,r3", "r1,r3/cf:a", "r1,r2,r3", "r,s/cf", "r*/cf", "r*/cf:a/0,100?v=3", "s*/cf:a",
    "nothing", "nothing/cf:a", "r1/cf:zz", "r3/cf:a", "r1/f2:x/30",
]


@pytest.mark.parametrize("path", READS)
@pytest.mark.parametrize("accept", [JSON, XML, PB, OCTET, {}], ids=["json", "xml", "pb",
                                                                    "octet", "none"])
def test_row_read(rest, t, path, accept):
    same(rest.both("GET", f"/{t}/{path}", accept))


def test_binary_row_keys(rest, t):
    for path, accept in (("bin%00%FF", JSON), ("bin%00%FF", XML), ("bin%00%FF", PB),
                         ("bin%00%FF/cf:a", OCTET)):
        differs("percent-bytes", rest.both("GET", f"/{t}/{path}", accept))
    # Both write and read the key in bodies, where bytes are base64 or raw.
    same(rest.both("GET", f"/{t}/b*", JSON))
    same(rest.both("GET", f"/{t}/b*", PB))


BAD_READS = {
    "r1/nofam": 404, "r1/cf:a,nofam:q": 404, "r*/nofam": 404,  # a family the table lacks
    "r1/cf:a/20,10": 400, "r1/cf:a/-5": 400,                   # a time range backwards
}


@pytest.mark.parametrize("path", sorted(BAD_READS))
def test_row_read_errors(rest, t, path):
    same_error(rest.both("GET", f"/{t}/{path}", JSON), BAD_READS[path])


def test_row_read_malformed(rest, t):
    for path in ("r1/cf:a?v=x", "r1/cf:a/x", "r1/,cf:a"):
        differs("malformed-number", rest.both("GET", f"/{t}/{path}", JSON))
    differs("versions-below-one", rest.both("GET", f"/{t}/r1/cf:a?v=0", JSON))
    same_error(rest.both("GET", "/no_such_table_gw/r1", JSON), 404)
    # HBase's sub-resources with more segments than they have are no row.
    for path in ("schema/x", "regions/x", "exists/x"):
        same_error(rest.both("GET", f"/{t}/{path}", JSON), 404)


MULTIGETS = [
    "multiget?row=r1&row=r2", "multiget?row=r2&row=r1&row=r2", "multiget?row=r1&row=nothing",
    "multiget?row=r1&v=3", "multiget/cf:a?row=r1&row=r2", "multiget/cf:a,f2?row=r1&row=r2&v=2",
    "multiget?row=nothing", "multiget", "multiget?row=bin%00%FF",
]


@pytest.mark.parametrize("path", MULTIGETS)
@pytest.mark.parametrize("accept", [JSON, XML, PB])
def test_multiget(rest, t, path, accept):
    pair = rest.both("GET", f"/{t}/{path}", accept)
    if "%FF" in path:
        differs("percent-bytes", pair)
    else:
        same(pair)


def test_multiget_on_a_missing_table(rest):
    differs("missing-table-multiget", rest.both("GET", "/no_such_table_gw/multiget?row=a", JSON))


TABLE_SCANS = [
    "*", "r*", "r*?limit=1", "r*?limit=0", "*?limit=2", "*?limit=15", "*?startrow=r2",
    "*?startrow=r1&endrow=r3", "*?column=cf:a", "*?column=cf:a&column=f2", "*?column=f2",
    "r*?maxversions=3", "*?starttime=11&endtime=21&maxversions=3", "*?reversed=true",
    "*?filter=PrefixFilter('r2')", "*?filter=KeyOnlyFilter()&limit=2", "zz*", "zz*?limit=3",
    "r*?batchsize=1",
]


@pytest.mark.parametrize("path", TABLE_SCANS)
@pytest.mark.parametrize("accept", [JSON, XML, PB])
def test_table_scan(rest, t, path, accept):
    hbase, basalt = rest.both("GET", f"/{t}/{path}", accept)
    if accept is not PB:
        same((hbase, basalt))
        return
    # A stream of CellSets, each behind its length in 2 bytes (HBase's ProtobufStreamingOutput).
    def chunks(a):
        assert (a.status, a.media_type) == (200, "application/x-protobuf"), a
        out, data = [], a.body
        while data:
            n = int.from_bytes(data[:2], "big")
            out.append(wire.pb_decode("CellSet", data[2:2 + n]))
            data = data[2 + n:]
        return out
    assert chunks(hbase) == chunks(basalt), (hbase, basalt)
    assert hbase.body == basalt.body


# ---- writes ----

def read_back(rest, table, row):
    """The row as each server holds it, every version, in JSON."""
    same(rest.both("GET", f"/{table}/{row}?v=5", JSON))


@pytest.fixture
def row(request, prefix):
    """A row of the write table of this test's own."""
    return f"{prefix}_{re.sub(r'[^A-Za-z0-9]+', '_', request.node.name)}"


WRITES = {
    # name: (method, path suffix, headers, body(row))
    "json": ("PUT", "", SEND_JSON,
             lambda r: cellset({r: [("cf:a", "v1", 5), ("cf:b", "v2", 6), ("f2:x", "v3", 7)]})),
    "json-post": ("POST", "", SEND_JSON, lambda r: cellset({r: [("cf:a", "v1", 5)]})),
    "json-now": ("PUT", "", SEND_JSON, lambda r: cellset({r: [("cf:a", "at-now")]})),
    "json-string-timestamp": ("PUT", "", SEND_JSON, lambda r: json.dumps(
        {"Row": [{"key": b64(r), "Cell": [{"column": b64("cf:a"), "timestamp": "42",
                                           "$": b64("v")}]}]})),
    "json-empty-qualifier": ("PUT", "", SEND_JSON, lambda r: cellset({r: [("cf:", "v", 3)]})),
    "json-several-rows": ("PUT", "", SEND_JSON, lambda r: cellset(
        {r: [("cf:a", "v", 3)], r + "_2": [("cf:a", "w", 4)]})),
    "json-no-rows": ("PUT", "", SEND_JSON, lambda r: '{"Row":[]}'),
    "xml": ("PUT", "", SEND_XML, lambda r:
            f'<CellSet><Row key="{b64(r)}"><Cell column="{b64("cf:a")}" timestamp="5">'
            f'{b64("x")}</Cell><Cell column="{b64("f2:y")}">{b64("y")}</Cell></Row></CellSet>'),
    "protobuf": ("PUT", "", SEND_PB, lambda r: wire.pb_encode("CellSet", {"rows": [
        {"key": r.encode(), "values": [{"column": b"cf:a", "timestamp": 5, "data": b"p"},
                                       {"column": b"cf:b", "data": b"q"}]}]})),
    # A cell without a column takes the path's first column (HBase's columns are sorted).
    "path-column": ("PUT", "/cf:b,cf:a", SEND_JSON, lambda r: json.dumps(
        {"Row": [{"key": b64(r), "Cell": [{"$": b64("from-path"), "timestamp": 9}]}]})),
    # A timestamp in the path is not read on writes: the cells get the server's clock.
    "path-timestamp": ("PUT", "/cf:a/77", SEND_JSON, lambda r: json.dumps(
        {"Row": [{"key": b64(r), "Cell": [{"column": b64("cf:a"), "$": b64("v")}]}]})),
    # The body's row key wins over the path's.
    "body-row": ("PUT", "", SEND_JSON, lambda r: cellset({r + "_other": [("cf:a", "v", 3)]})),
    "octet": ("PUT", "/cf:a", SEND_OCTET, lambda r: b"raw\x00bytes"),
    "octet-post": ("POST", "/cf:a", SEND_OCTET, lambda r: b"raw"),
    "octet-timestamp-header": ("PUT", "/cf:a", {**SEND_OCTET, "X-Timestamp": "8"},
                               lambda r: b"at 8"),
    "octet-path-timestamp": ("PUT", "/cf:a/7", SEND_OCTET, lambda r: b"not at 7"),
    "octet-headers": ("PUT", "/cf:a", {**SEND_OCTET, "X-Row": "{row}_x", "X-Column": "cf:b",
                                       "X-Timestamp": "9"}, lambda r: b"by headers"),
}


@pytest.mark.parametrize("name", sorted(WRITES))
def test_write(rest, w, row, name):
    method, suffix, headers, body = WRITES[name]
    headers = {k: v.format(row=row) for k, v in headers.items()}
    same(rest.both(method, f"/{w}/{row}{suffix}", headers, body(row)))
    read_back(rest, w, row)
    for other in (row + "_2", row + "_other", row + "_x"):
        read_back(rest, w, other)


BAD_WRITES = {
    # name: (path suffix, headers, body(row), status)
    "row-without-cells": ("", SEND_JSON, lambda r: json.dumps(
        {"Row": [{"key": b64(r), "Cell": []}]}), 400),
    "family-only-column": ("", SEND_JSON, lambda r: cellset({r: [("cf", "v", 3)]}), 400),
    "octet-family-only-path": ("/cf", SEND_OCTET, lambda r: b"v", 400),
    "negative-timestamp": ("", SEND_JSON, lambda r: cellset({r: [("cf:a", "v", -3)]}), 400),
    "unknown-family": ("", SEND_JSON, lambda r: cellset({r: [("nofam:a", "v", 3)]}), 404),
    "malformed-xml": ("", SEND_XML, lambda r: "<CellSet><Row", 400),
    "text-plain": ("/cf:a", {"Content-Type": "text/plain"}, lambda r: "v", 415),
    "check-put-without-check-cell": ("?check=put", SEND_JSON, lambda r: cellset(
        {r: [("cf:a", "v")]}), 400),
    "check-put-other-column": ("?check=put", SEND_JSON, lambda r: cellset(
        {r: [("cf:b", "v"), ("cf:a", "")]}), 400),
    "check-unknown": ("?check=bogus", SEND_JSON, lambda r: cellset({r: [("cf:a", "v")]}), 400),
    "check-increment-not-a-number": ("?check=increment", SEND_JSON, lambda r: cellset(
        {r: [("cf:a", "v")]}), 400),
    "check-put-unknown-family": ("?check=put", SEND_JSON, lambda r: cellset(
        {r: [("nofam:a", "v"), ("nofam:a", "")]}), 404),
}


@pytest.mark.parametrize("name", sorted(BAD_WRITES))
def test_write_refused(rest, w, row, name):
    suffix, headers, body, code = BAD_WRITES[name]
    same_error(rest.both("PUT", f"/{w}/{row}{suffix}", headers, body(row)), code)
    read_back(rest, w, row)  # nothing written: 404 on both
    read_back(rest, w, row + "_2")


def test_write_of_several_rows_is_all_or_nothing(rest, w, row):
    body = cellset({row: [("cf:a", "v", 3)], row + "_2": [("nofam:a", "v", 3)]})
    same_error(rest.both("PUT", f"/{w}/{row}", SEND_JSON, body), 404)
    differs("multi-row-write-atomic", rest.both("GET", f"/{w}/{row}", JSON))


def test_write_differences(rest, w, row):
    differs("malformed-body", rest.both("PUT", f"/{w}/{row}", SEND_JSON, "{not json"))
    differs("malformed-body", rest.both("PUT", f"/{w}/{row}", SEND_PB, b"\xff\xff\xff"))
    differs("malformed-body", rest.both("PUT", f"/{w}/{row}", SEND_JSON, json.dumps(
        {"Row": [{"key": "!!!", "Cell": [{"column": b64("cf:a"), "$": b64("v")}]}]})))
    differs("write-without-content-type", rest.both("PUT", f"/{w}/{row}/cf:a", {}, "v"))
    differs("octet-column-header-only", rest.both("PUT", f"/{w}/{row}_h",
                                                  {**SEND_OCTET, "X-Column": "cf:a"}, "v"))
    same_error(rest.both("PUT", f"/no_such_table_gw/{row}", SEND_JSON,
                         cellset({row: [("cf:a", "v", 1)]})), 404)
    same_error(rest.both("PUT", f"/{w}/{row}*", SEND_JSON, cellset({row: [("cf:a", "v", 1)]})),
               405)
    same_error(rest.both("PUT", f"/{w}/schema/cf:a", SEND_JSON, '{"Row":[]}'), 404)


# ---- deletes ----

DELETE_SEED = [("cf:a", "a10", 10), ("cf:a", "a20", 20), ("cf:a", "a30", 30), ("cf:b", "b10", 10),
               ("cf:", "e10", 10), ("f2:x", "x10", 10), ("f2:y", "y20", 20)]

DELETES = ["", "/cf:a", "/cf", "/cf:a/20", "/cf/20", "/20", "/cf:a,f2", "/cf:a/0,20", "/cf:a/15,40",
           "/cf:", "/cf:zz"]


@pytest.mark.parametrize("suffix", DELETES)
def test_delete(rest, w, row, suffix):
    for a in rest.both("PUT", f"/{w}/{row}", SEND_JSON, cellset({row: DELETE_SEED})):
        assert a.status == 200, a
    pair = rest.both("DELETE", f"/{w}/{row}{suffix}")
    if pair[0].status >= 400:
        same_error(pair, 404)  # "/20" names a family '20'
    else:
        same(pair)
    read_back(rest, w, row)


def test_delete_errors(rest, w, row):
    same_error(rest.both("DELETE", f"/{w}/{row}/nofam:a"), 404)
    same_error(rest.both("DELETE", f"/no_such_table_gw/{row}"), 404)
    same_error(rest.both("DELETE", f"/{w}/{row}*"), 405)
    differs("delete-row-range", rest.both("DELETE", f"/{w}/{row},{row}z"))


# ---- check-and-put, check-and-delete ----

def test_check_and_put_and_delete(rest, w, row):
    def check(kind, cells, method="PUT"):
        body = json.dumps({"Row": [{"key": b64(row), "Cell": [
            {"column": b64(c), "$": b64(v)} for c, v in cells]}]})
        same(rest.both(method, f"/{w}/{row}?check={kind}", SEND_JSON, body))
        read_back(rest, w, row)

    check("put", [("cf:a", "first"), ("cf:a", "")])        # absent: applied (200)
    check("put", [("cf:a", "second"), ("cf:a", "")])       # present now: 304
    check("put", [("cf:a", "third"), ("cf:a", "first")])   # matches: 200
    check("put", [("cf:a", "x"), ("cf:b", "y"), ("cf:a", "nope")])  # no match: 304
    check("put", [("cf:a", "post"), ("cf:a", "third")], method="POST")
    check("delete", [("cf:a", "nope")])                    # no match: 304
    check("delete", [("cf:a", "post")])                    # the checked column goes
    # A row of its own: on HBase the delete above masks later puts with older timestamps
    # (docs/data-model.md).
    row += "_b"
    for a in rest.both("PUT", f"/{w}/{row}", SEND_JSON,
                       cellset({row: [("cf:a", "v", 5), ("cf:b", "w", 5)]})):
        assert a.status == 200
    check("delete", [("cf:b", ""), ("cf:a", "v")])         # deletes the cells listed
    check("delete", [("cf:a", "v")], method="DELETE")      # a DELETE with a body: the same


def test_increment_and_append(rest, w, row):
    for kind, value in (("increment", "5"), ("increment", "-2"), ("append", "ab"),
                        ("append", "cd")):
        column = "cf:n" if kind == "increment" else "cf:s"
        body = cellset({row: [(column, value)]})
        same(rest.both("PUT", f"/{w}/{row}?check={kind}", SEND_JSON, body))
        read_back(rest, w, row)
        differs("return-result", rest.both("PUT", f"/{w}/{row}?check={kind}&returnResult=true",
                                           {**SEND_JSON, **JSON}, body))
        read_back(rest, w, row)


# ---- scanners ----

def open_scanners(rest, table, headers, body):
    """Creates the same scanner on both servers; its path on each."""
    hbase, basalt = rest.both("POST", f"/{table}/scanner", headers, body)
    assert (hbase.status, basalt.status) == (201, 201), (hbase, basalt)
    paths = location_path(hbase), location_path(basalt)
    for p in paths:
        assert re.fullmatch(rf"/{table}/scanner/\w+", p), p
    return paths


def drain(rest, paths, accept, query=""):
    """Reads both scanners chunk by chunk until 204, comparing each chunk."""
    for _ in range(50):
        pair = (rest.hbase("GET", paths[0] + query, accept),
                rest.basalt("GET", paths[1] + query, accept))
        same(pair)
        if pair[0].status == 204:
            return
    raise AssertionError("no end of the scan after 50 chunks")


SCANNERS = {
    # name: (headers, body)
    "json-batch": (SEND_JSON, json.dumps({"batch": 2})),
    "json-rows": (SEND_JSON, json.dumps({"batch": 10, "startRow": b64("r1"),
                                         "endRow": b64("s")})),
    "json-columns": (SEND_JSON, json.dumps({"batch": 10, "column": [b64("cf:a"), b64("f2")]})),
    "json-versions": (SEND_JSON, json.dumps({"batch": 3, "maxVersions": 3})),
    "json-time": (SEND_JSON, json.dumps({"batch": 10, "startTime": 11, "endTime": 21,
                                         "maxVersions": 5})),
    "json-filter": (SEND_JSON, json.dumps({"batch": 10, "filter": json.dumps(
        {"type": "PrefixFilter", "value": b64("r")})})),
    "json-filter-value": (SEND_JSON, json.dumps({"batch": 10, "filter": json.dumps(
        {"type": "ValueFilter", "op": "EQUAL",
         "comparator": {"type": "BinaryComparator", "value": b64("a20")}})})),
    "json-strings": (SEND_JSON, json.dumps({"batch": "2", "maxVersions": "2"})),
    "xml": (SEND_XML, f'<Scanner batch="3" startRow="{b64("r")}"><column>{b64("cf")}</column>'
                      f'</Scanner>'),
    "protobuf": (SEND_PB, wire.pb_encode("Scanner", {"batch": 4, "startRow": b"r1",
                                                     "endRow": b"r3", "maxVersions": 2})),
    "no-batch": (SEND_JSON, "{}"),
}


@pytest.mark.parametrize("accept", [JSON, XML, PB], ids=["json", "xml", "pb"])
@pytest.mark.parametrize("name", sorted(SCANNERS))
def test_scanner(rest, t, name, accept):
    paths = open_scanners(rest, t, *SCANNERS[name])
    drain(rest, paths, accept)
    same((rest.hbase("DELETE", paths[0]), rest.basalt("DELETE", paths[1])))


def test_scanner_cells_one_at_a_time(rest, t):
    """Raw cells (octet-stream, and a wildcard Accept, which picks them as HBase does), each
    with its row, column and timestamp in headers."""
    paths = open_scanners(rest, t, SEND_JSON, json.dumps({"batch": 100, "maxVersions": 2}))
    drain(rest, paths, OCTET)
    paths = open_scanners(rest, t, SEND_JSON, json.dumps({"startRow": b64("r2")}))
    drain(rest, paths, {})


def test_scanner_lifecycle_and_errors(rest, t, w):
    paths = open_scanners(rest, t, SEND_JSON, json.dumps({"batch": 1}))
    same((rest.hbase("DELETE", paths[0]), rest.basalt("DELETE", paths[1])))
    same_error((rest.hbase("GET", paths[0], JSON), rest.basalt("GET", paths[1], JSON)), 404)
    same_error((rest.hbase("DELETE", paths[0]), rest.basalt("DELETE", paths[1])), 404)
    same_error(rest.both("GET", f"/{t}/scanner/12345", JSON), 404)
    same_error(rest.both("DELETE", f"/{t}/scanner/12345"), 404)
    paths = open_scanners(rest, t, SEND_JSON, json.dumps({"batch": 1}))
    differs("scanner-other-table", (rest.hbase("GET", paths[0].replace(t, w, 1), JSON),
                                    rest.basalt("GET", paths[1].replace(t, w, 1), JSON)))
    same_error((rest.hbase("GET", paths[0], TEXT), rest.basalt("GET", paths[1], TEXT)), 406)
    for p, port in zip(paths, (rest.hbase, rest.basalt)):
        port("DELETE", p)
    same_error(rest.both("POST", f"/{t}/scanner", {"Content-Type": "text/plain"}, "x"), 415)
    same_error(rest.both("POST", f"/{t}/scanner", SEND_JSON,
                         json.dumps({"filter": "{not json"})), 400)
    same_error(rest.both("POST", f"/{t}/scanner", SEND_JSON,
                         json.dumps({"startTime": 20, "endTime": 10})), 400)
    same_error(rest.both("POST", f"/{t}/scanner", SEND_XML, "<Scanner"), 400)
    differs("malformed-body", rest.both("POST", f"/{t}/scanner", SEND_JSON, "{not json"))
    differs("scanner-filter-language", rest.both("POST", f"/{t}/scanner", SEND_JSON,
                                                 json.dumps({"filter": "PrefixFilter('r')"})))
    for body in ({"batch": 0}, {"batch": -1}, {"maxVersions": 0}):
        differs("scanner-bad-settings", rest.both("POST", f"/{t}/scanner", SEND_JSON,
                                                  json.dumps(body)))
    differs("scanner-missing-family", rest.both("POST", f"/{t}/scanner", SEND_JSON,
                                                json.dumps({"column": [b64("nofam:a")]})))
    differs("scanner-missing-table", rest.both("POST", "/no_such_table_gw/scanner", SEND_JSON,
                                               "{}"))


# ---- basalt's security checks, which HBase has not ----

def test_security_checks_hbase_lacks(rest, w, row):
    body = cellset({row: [("cf:a", "v", 1)]})
    differs("foreign-origin", rest.both("PUT", f"/{w}/{row}",
                                        {**SEND_JSON, "Origin": "http://evil.example"}, body))
    differs("foreign-host", rest.both("GET", "/version", {**JSON, "Host": "evil.example"}))
    for path in ("/app:social_users/schema", "/app:social_users/r1"):
        differs("app-namespace-refused", rest.both("GET", path, JSON))


# ---- methods a resource does not serve ----

@pytest.mark.parametrize("method, path", [
    ("GET", "/{t}/scanner"), ("DELETE", "/{t}/scanner"), ("DELETE", "/"), ("PUT", "/version"),
    ("POST", "/status/cluster"), ("POST", "/{t}/exists"), ("PUT", "/{t}/regions"),
    ("DELETE", "/{t}/multiget"), ("PATCH", "/{t}/r1"), ("POST", "/{t}/r*"),
])
def test_method_not_allowed(rest, t, method, path):
    same_error(rest.both(method, path.format(t=t), SEND_JSON, "{}"), 405)


def test_no_such_resource(rest, t):
    for path in ("/status/cluster/x", f"/{t}/schema/x", f"/{t}/regions/x"):
        same_error(rest.both("GET", path, JSON), 404)


def test_every_expected_difference_was_met():
    """Each entry of DIFFERENCES is asserted by some test above: a difference that has been
    fixed, or that no test reaches any more, must leave the table."""
    assert DIFFERENCES.unmet() == []
