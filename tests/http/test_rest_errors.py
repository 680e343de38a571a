"""REST's error responses, to the byte: status, Content-Type and body.

A failed Status is answered by the router through the one mapping (status_mapping.h); the
responses no Status says (406, 415, 403, HBase's own messages) are the handlers' own. Either way
these are what HBase clients see, so they are pinned here: `{table}` and `{ns}` stand for the
names the test made.
"""

import os

import pytest

from conftest import b64, json_rest

JSON = {"Content-Type": "application/json"}
MISSING_TABLE = "NotFound: table '{table}_missing' does not exist\r\n"
NOT_FOUND = "Not found\r\n"  # HBase's words, no Status behind them


def cells(*pairs):
    """A CellSet of row r1 with (column, value) cells."""
    return {"json": {"Row": [{"key": b64("r1"), "Cell": [
        {"column": b64(column), "$": b64(value)} for column, value in pairs]}]}}


# (name, method, path, request keywords, status, body: None where the engine's words are not
# pinned). Every error body is text/plain.
CASES = [
    ("table list not acceptable", "GET", "/", {"headers": {"Accept": "image/png"}}, 406,
     "Not acceptable: basalt serves text/xml, application/json and application/x-protobuf (and "
     "application/octet-stream for single cells, text/plain for the resources HBase writes as "
     "text)\r\n"),
    ("schema of a missing table", "GET", "/{table}_missing/schema", {}, 404, MISSING_TABLE),
    ("exists of a missing table", "GET", "/{table}_missing/exists", {}, 404, MISSING_TABLE),
    ("delete of a missing table", "DELETE", "/{table}_missing/schema", {}, 404, MISSING_TABLE),
    ("regions of a missing table", "GET", "/{table}_missing/regions", {}, 404, MISSING_TABLE),
    ("schema of a bad table name", "PUT", "/bad%21/schema", {"json": {"ColumnSchema": []}}, 400,
     "InvalidArgument: illegal character in table name 'bad!': only [A-Za-z0-9_.-] are "
     "allowed\r\n"),
    ("schema with malformed JSON", "PUT", "/{table}/schema",
     {"data": "{", "headers": JSON}, 400,
     "InvalidArgument: malformed JSON in the request body\r\n"),
    ("schema of another type", "PUT", "/{table}/schema",
     {"data": "x", "headers": {"Content-Type": "text/plain"}}, 415,
     "Unsupported media type: send text/xml, application/json or application/x-protobuf\r\n"),
    ("schema with a bad family", "POST", "/{table}/schema",
     {"json": {"ColumnSchema": [{"name": "cf", "VERSIONS": "x"}]}}, 400,
     "InvalidArgument: VERSIONS must be an integer, not 'x'\r\n"),
    ("missing row", "GET", "/{table}/nosuchrow", {}, 404, NOT_FOUND),
    ("row of a missing table", "GET", "/{table}_missing/r1", {}, 404, MISSING_TABLE),
    ("octet get of a whole row", "GET", "/{table}/r1",
     {"headers": {"Accept": "application/octet-stream"}}, 400,
     "Bad request: Default 'GET' method only works if there is exactly 1 column in the row. "
     "Using the 'Accept' header with one of these formats lets you retrieve the entire row if it "
     "has multiple columns: text/xml, application/json, application/x-protobuf, "
     "application/protobuf\r\n"),
    ("bad version count", "GET", "/{table}/r1?v=0", {}, 400,
     "InvalidArgument: v must be at least 1\r\n"),
    ("put to a missing family", "PUT", "/{table}/r1", cells(("nofam:q", "v")), 404,
     None),
    ("put of another type", "PUT", "/{table}/r1",
     {"data": "x", "headers": {"Content-Type": "text/plain"}}, 415,
     "Unsupported media type: send text/xml, application/json, application/x-protobuf or "
     "application/octet-stream\r\n"),
    ("put to a row range", "PUT", "/{table}/a,b", cells(("cf:q", "v")), 400,
     "InvalidArgument: writes need a single row in the path\r\n"),
    ("put of a row without cells", "PUT", "/{table}/r1",
     {"json": {"Row": [{"key": b64("r1"), "Cell": []}]}}, 400,
     "InvalidArgument: No columns to insert\r\n"),
    ("check=put of another column", "PUT", "/{table}/r1?check=put",
     cells(("cf:a", "1"), ("cf:b", "2")), 400,
     "InvalidArgument: The column to put and check do not match.\r\n"),
    ("check=put to a missing family", "PUT", "/{table}/r1?check=put",
     cells(("nofam:a", "1"), ("nofam:a", "")), 404, None),
    ("unknown check", "PUT", "/{table}/r1?check=swap", cells(("cf:q", "v")), 400,
     "InvalidArgument: unsupported check 'swap' (put, delete, increment or append)\r\n"),
    ("increment of a missing family", "PUT", "/{table}/r1?check=increment",
     cells(("nofam:n", "1")), 404, None),
    ("increment by a non-number", "PUT", "/{table}/r1?check=increment",
     cells(("cf:n", "one")), 400,
     "InvalidArgument: increment amount must be an integer, not 'one'\r\n"),
    ("delete in a missing family", "DELETE", "/{table}/r1/nofam:q", {}, 404, None),
    ("delete of a row range", "DELETE", "/{table}/a,b", {}, 400,
     "InvalidArgument: deletes need a single row in the path\r\n"),
    ("multiget without rows", "GET", "/{table}/multiget", {}, 404, "No rows found.\r\n"),
    ("multiget of missing rows", "GET", "/{table}/multiget?row=x&row=y", {}, 404,
     "No rows found.\r\n"),
    ("scanner on a missing table", "PUT", "/{table}_missing/scanner", {"json": {}}, 404,
     MISSING_TABLE),
    ("scanner with a bad batch", "PUT", "/{table}/scanner", {"json": {"batch": 0}}, 400,
     "InvalidArgument: batch must be at least 1\r\n"),
    ("chunk of a missing scanner", "GET", "/{table}/scanner/nosuch", {}, 404, NOT_FOUND),
    ("delete of a missing scanner", "DELETE", "/{table}/scanner/nosuch", {}, 404, NOT_FOUND),
    ("missing namespace", "GET", "/namespaces/{ns}_missing", {}, 404, None),
    ("tables of a missing namespace", "GET", "/namespaces/{ns}_missing/tables", {}, 404,
     None),
    ("namespace created twice", "POST", "/namespaces/{ns}", {}, 403,
     "Namespace '{ns}' already exists.  Use REST PUT to alter the existing namespace."),
    ("missing namespace altered", "PUT", "/namespaces/{ns}_missing", {"json": {}}, 403,
     "Namespace '{ns}_missing' does not exist. Use REST POST to create the namespace."),
    ("namespace properties changed", "PUT", "/namespaces/{ns}",
     {"json": {"properties": {"k": "v"}}}, 501,
     "NotSupported: basalt cannot change a namespace's properties yet\r\n"),
    ("namespace with bad properties", "POST", "/namespaces/{ns}_new",
     {"json": {"properties": []}}, 400,
     "InvalidArgument: properties must be an object\r\n"),
    ("missing namespace dropped", "DELETE", "/namespaces/{ns}_missing", {}, 404,
     "Namespace '{ns}_missing' does not exists.  Cannot drop namespace."),
]


@pytest.fixture
def ns(url):
    name = f"errns{os.getpid()}"
    r = json_rest.post(f"{url}/namespaces/{name}")
    assert r.status_code in (201, 403), r.text
    return name


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_error_response(url, table, ns, case):
    _, method, path, kwargs, status, body = case
    r = json_rest.request(method, url + path.format(table=table, ns=ns), **kwargs)
    assert r.status_code == status, r.text
    assert r.headers["Content-Type"] == "text/plain"
    if body is not None:
        assert r.text == body.format(table=table, ns=ns)
    else:
        # The engine's own words: one line in the mapping's format.
        code = {400: "InvalidArgument", 404: "NotFound"}[status]
        assert r.text.startswith(code + ": ") and r.text.endswith("\r\n"), r.text
        assert "\n" not in r.text[:-1]
