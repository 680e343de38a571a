"""Stateful scanners: create (201 + Location), page to exhaustion (204), filters in HBase's
JSON form and in the filter language, delete, expiry."""

import json
import time

from conftest import b64, put_cells, rows_of, json_rest


def fill(url, table, n=10):
    body = {"Row": [{"key": b64(f"row{i:02d}"), "Cell": [
        {"column": b64("cf:a"), "$": b64(f"a{i}")},
        {"column": b64("cf:b"), "$": b64(f"b{i}")}]} for i in range(n)]}
    assert json_rest.put(f"{url}/{table}/x", json=body).status_code == 200


def open_scanner(url, table, model):
    r = json_rest.post(f"{url}/{table}/scanner", json=model)
    assert r.status_code == 201, r.text
    return r.headers["Location"]


def drain(location, max_calls=100):
    """Every chunk until 204; returns (list of chunks as {row: cells}, number of GETs)."""
    chunks = []
    for _ in range(max_calls):
        r = json_rest.get(location, headers={"Accept": "application/json"})
        if r.status_code == 204:
            return chunks
        assert r.status_code == 200, r.text
        chunks.append(rows_of(r.json()))
    raise AssertionError("scanner never reported exhaustion")


def test_scanner_pages_by_batch_cells_until_204(url, table):
    fill(url, table, 10)
    loc = open_scanner(url, table, {"batch": 3})
    assert loc.startswith("http://") and f"/{table}/scanner/" in loc
    chunks = drain(loc)
    assert [sum(len(c) for c in ch.values()) for ch in chunks] == [3] * 6 + [2]
    cells = [(row, c) for ch in chunks for row, cs in ch.items() for c in cs]
    assert len(cells) == 20
    assert sorted({row for row, _ in cells}) == [f"row{i:02d}".encode() for i in range(10)]
    # Exhausted stays exhausted; DELETE releases it, after which it is unknown.
    assert json_rest.get(loc).status_code == 204
    assert json_rest.delete(loc).status_code == 200
    assert json_rest.get(loc).status_code == 404
    assert json_rest.delete(loc).status_code == 404


def test_scanner_bounds_columns_and_row_limit(url, table):
    fill(url, table, 10)
    loc = open_scanner(url, table, {"startRow": b64("row03"), "endRow": b64("row07"),
                                    "column": [b64("cf:b")]})
    r = json_rest.get(loc + "?n=2")
    got = rows_of(r.json())
    assert list(got) == [b"row03", b"row04"]
    assert all(c == b"cf:b" for cells in got.values() for c, _, _ in cells)
    rest = drain(loc)
    assert [k for ch in rest for k in ch] == [b"row05", b"row06"]


def test_scanner_versions_and_time_range(url, table):
    for ts in (100, 200, 300):
        put_cells(url, table, "v", [("cf:a", str(ts), ts)])
    loc = open_scanner(url, table, {})  # REST scanners return every version by default
    assert [t for _, _, t in drain(loc)[0][b"v"]] == [300, 200, 100]
    loc = open_scanner(url, table, {"maxVersions": 1, "startTime": 100, "endTime": 300})
    assert [t for _, _, t in drain(loc)[0][b"v"]] == [200]


def test_scanner_octet_stream_returns_one_cell_per_get(url, table):
    put_cells(url, table, "o1", [("cf:a", "x"), ("cf:b", "y")])
    loc = open_scanner(url, table, {})
    r = json_rest.get(loc, headers={"Accept": "application/octet-stream"})
    assert r.status_code == 200 and r.content == b"x"
    assert r.headers["X-Row"] == b64("o1") and r.headers["X-Column"] == b64("cf:a")
    r = json_rest.get(loc, headers={"Accept": "application/octet-stream"})
    assert r.content == b"y"
    assert json_rest.get(loc, headers={"Accept": "application/octet-stream"}).status_code == 204


def scan_rows(url, table, filter_text, **model):
    loc = open_scanner(url, table, dict(model, filter=filter_text))
    return [k for ch in drain(loc) for k in ch]


def test_json_filters(url, table):
    fill(url, table, 10)
    prefix = json.dumps({"type": "PrefixFilter", "value": b64("row0")})
    assert len(scan_rows(url, table, prefix)) == 10
    row = json.dumps({"type": "RowFilter", "op": "GREATER_OR_EQUAL",
                      "comparator": {"type": "BinaryComparator", "value": b64("row08")}})
    assert scan_rows(url, table, row) == [b"row08", b"row09"]
    scvf = json.dumps({"type": "SingleColumnValueFilter", "family": b64("cf"),
                       "qualifier": b64("a"), "op": "EQUAL",
                       "comparator": {"type": "BinaryComparator", "value": b64("a4")},
                       "ifMissing": True})
    assert scan_rows(url, table, scvf) == [b"row04"]
    lst = json.dumps({"type": "FilterList", "op": "MUST_PASS_ONE", "filters": [
        {"type": "RowFilter", "op": "EQUAL",
         "comparator": {"type": "BinaryComparator", "value": b64("row01")}},
        {"type": "ValueFilter", "op": "EQUAL",
         "comparator": {"type": "SubstringComparator", "value": "B7"}}]})
    assert scan_rows(url, table, lst) == [b"row01", b"row07"]
    page = json.dumps({"type": "PageFilter", "value": "3"})
    assert scan_rows(url, table, page) == [b"row00", b"row01", b"row02"]
    regex = json.dumps({"type": "ValueFilter", "op": "EQUAL",
                        "comparator": {"type": "RegexStringComparator", "value": "^b[23]$"}})
    assert scan_rows(url, table, regex) == [b"row02", b"row03"]
    keys = json.dumps({"type": "FirstKeyOnlyFilter"})
    loc = open_scanner(url, table, {"filter": keys})
    assert all(len(cells) == 1 for ch in drain(loc) for cells in ch.values())
    fuzzy = json.dumps({"type": "FuzzyRowFilter", "fuzzyKeys": [
        {"key": b64("row?5"), "mask": b64(b"\x00\x00\x00\x01\x00")}]})
    assert scan_rows(url, table, fuzzy) == [b"row05"]


def test_filter_language_string(url, table):
    fill(url, table, 10)
    assert scan_rows(url, table, "PrefixFilter('row0') AND ValueFilter(=, 'binary:b3')") == [
        b"row03"]
    assert scan_rows(url, table, "RowFilter(<, 'binary:row02')") == [b"row00", b"row01"]


def test_unknown_or_bad_filters_are_400(url, table):
    for f in (json.dumps({"type": "RandomRowFilter", "chance": 0.5}),
              json.dumps({"type": "NoSuchFilter"}),
              json.dumps({"type": "RowFilter", "op": "EQUAL",
                          "comparator": {"type": "BitComparator", "value": b64("x")}}),
              json.dumps({"type": "PrefixFilter", "value": "not base64!"}),
              "{not json", "NoSuchFilter('x')", "PrefixFilter("):
        r = json_rest.post(f"{url}/{table}/scanner", json={"filter": f})
        assert r.status_code == 400, (f, r.status_code, r.text)


def test_scanner_errors(url, table):
    assert json_rest.post(url + "/nosuchtable/scanner", json={}).status_code == 404
    r = json_rest.post(f"{url}/{table}/scanner", data="{bad",
                      headers={"Content-Type": "application/json"})
    assert r.status_code == 400
    assert json_rest.get(f"{url}/{table}/scanner/12345").status_code == 404


def test_idle_scanner_expires(url, table):
    # The shared server drops scanners idle for 2 s.
    put_cells(url, table, "e", [("cf:a", "1")])
    loc = open_scanner(url, table, {})
    deadline = time.time() + 10
    while json_rest.get(url + "/metrics").text.find("basalt_rest_open_scanners 0") < 0:
        assert time.time() < deadline, "scanner never expired"
        time.sleep(0.5)
    assert json_rest.get(loc).status_code == 404
