"""Rows and cells: GET/PUT/POST/DELETE /{table}/{row}[/{column}[/{ts}]], multiget, globs,
check-and-put, check-and-delete, application/octet-stream."""

import time
import urllib.parse

from conftest import b64, put_cells, rows_of, json_rest


def q(raw: bytes) -> str:
    return urllib.parse.quote(raw, safe="")


def test_put_then_get_row_round_trips_base64(url, table):
    put_cells(url, table, "r1", [("cf:a", "v1"), ("f2:b", "v2")])
    r = json_rest.get(f"{url}/{table}/r1", headers={"Accept": "application/json"})
    assert r.status_code == 200
    got = rows_of(r.json())
    assert [(c, v) for c, v, _ in got[b"r1"]] == [(b"cf:a", b"v1"), (b"f2:b", b"v2")]


def test_binary_row_and_value_round_trip(url, table):
    row = b"\x00\xff\x01/,*key"
    value = bytes(range(256))
    put_cells(url, table, row, [(b"cf:\x00q", value)])
    r = json_rest.get(f"{url}/{table}/{q(row)}")
    assert r.status_code == 200, r.text
    assert rows_of(r.json()) == {row: [(b"cf:\x00q", value, r.json()["Row"][0]["Cell"][0]["timestamp"])]}


def test_missing_row_is_404(url, table):
    r = json_rest.get(f"{url}/{table}/nope")
    assert r.status_code == 404


def test_column_selection_versions_and_timestamps(url, table):
    for ts in (10, 20, 30, 40):
        put_cells(url, table, "rv", [("cf:a", f"v{ts}", ts), ("f2:x", "x", ts)])
    # One column, newest version by default.
    got = rows_of(json_rest.get(f"{url}/{table}/rv/cf:a").json())
    assert got == {b"rv": [(b"cf:a", b"v40", 40)]}
    # ?v=N: up to the family's VERSIONS (3).
    got = rows_of(json_rest.get(f"{url}/{table}/rv/cf:a?v=10").json())
    assert [t for _, _, t in got[b"rv"]] == [40, 30, 20]
    # One timestamp: the versions before it, as HBase reads [0, TS).
    got = rows_of(json_rest.get(f"{url}/{table}/rv/cf:a/30").json())
    assert got == {b"rv": [(b"cf:a", b"v20", 20)]}
    got = rows_of(json_rest.get(f"{url}/{table}/rv/cf:a/31").json())
    assert got == {b"rv": [(b"cf:a", b"v30", 30)]}
    # Time range [start, end).
    got = rows_of(json_rest.get(f"{url}/{table}/rv/cf:a/20,40?v=5").json())
    assert [t for _, _, t in got[b"rv"]] == [30, 20]
    # A whole family and two columns.
    got = rows_of(json_rest.get(f"{url}/{table}/rv/f2").json())
    assert [c for c, _, _ in got[b"rv"]] == [b"f2:x"]
    got = rows_of(json_rest.get(f"{url}/{table}/rv/cf:a,f2:x").json())
    assert [c for c, _, _ in got[b"rv"]] == [b"cf:a", b"f2:x"]
    assert json_rest.get(f"{url}/{table}/rv/cf:a/10").status_code == 404


def test_bad_timestamps_are_400(url, table):
    put_cells(url, table, "rt", [("cf:a", "v")])
    for path in ("cf:a/abc", "cf:a/-5", "cf:a/9,3", "cf:a/1,2,3"):
        assert json_rest.get(f"{url}/{table}/rt/{path}").status_code == 400, path
    assert json_rest.get(f"{url}/{table}/rt?v=0").status_code == 400


def test_post_with_path_column_and_timestamp(url, table):
    # The path's column is a cell's without one; its timestamp is not read (HBase writes at the
    # server's clock), the cell's own is.
    body = {"Row": [{"key": b64("rp"), "Cell": [{"$": b64("pv")}, {"$": b64("pw"),
                                                                   "timestamp": 99}]}]}
    before = int(time.time() * 1000)
    r = json_rest.post(f"{url}/{table}/rp/cf:q/1234", json=body)
    assert r.status_code == 200, r.text
    got = rows_of(json_rest.get(f"{url}/{table}/rp/cf:q?v=3").json())[b"rp"]
    assert got[0][:2] == (b"cf:q", b"pv") and got[0][2] >= before
    assert got[1] == (b"cf:q", b"pw", 99)


def test_batch_put_of_several_rows(url, table):
    body = {"Row": [{"key": b64(f"b{i}"), "Cell": [{"column": b64("cf:a"), "$": b64(str(i))}]}
                    for i in range(5)]}
    assert json_rest.put(f"{url}/{table}/fakerow", json=body).status_code == 200
    got = rows_of(json_rest.get(f"{url}/{table}/b*").json())
    assert sorted(got) == [f"b{i}".encode() for i in range(5)]


def test_octet_stream_put_and_get_of_one_cell(url, table):
    r = json_rest.put(f"{url}/{table}/ro/cf:raw", data=b"\x00raw\xff",
                     headers={"Content-Type": "application/octet-stream"})
    assert r.status_code == 200, r.text
    r = json_rest.get(f"{url}/{table}/ro/cf:raw", headers={"Accept": "application/octet-stream"})
    assert r.status_code == 200
    assert r.content == b"\x00raw\xff"
    assert int(r.headers["X-Timestamp"]) > 0
    # Without exactly one column, octet-stream is a bad request.
    r = json_rest.get(f"{url}/{table}/ro", headers={"Accept": "application/octet-stream"})
    assert r.status_code == 400


def test_delete_row_column_and_family(url, table):
    put_cells(url, table, "rd", [("cf:a", "1", 10), ("cf:b", "2", 10), ("f2:c", "3", 10)])
    put_cells(url, table, "rd", [("cf:a", "1b", 20)])
    # Column versions at or before ts.
    assert json_rest.delete(f"{url}/{table}/rd/cf:a/10").status_code == 200
    got = rows_of(json_rest.get(f"{url}/{table}/rd/cf:a?v=3").json())
    assert got == {b"rd": [(b"cf:a", b"1b", 20)]}
    # A family.
    assert json_rest.delete(f"{url}/{table}/rd/f2").status_code == 200
    assert json_rest.get(f"{url}/{table}/rd/f2").status_code == 404
    # The whole row.
    assert json_rest.delete(f"{url}/{table}/rd").status_code == 200
    assert json_rest.get(f"{url}/{table}/rd").status_code == 404


def test_multiget_returns_found_rows_or_404(url, table):
    put_cells(url, table, "m1", [("cf:a", "1")])
    put_cells(url, table, "m2", [("cf:a", "2"), ("f2:b", "x")])
    r = json_rest.get(f"{url}/{table}/multiget?row=m1&row=missing&row=m2")
    assert r.status_code == 200
    assert sorted(rows_of(r.json())) == [b"m1", b"m2"]
    r = json_rest.get(f"{url}/{table}/multiget/f2?row=m1&row=m2")
    assert sorted(rows_of(r.json())) == [b"m2"]
    r = json_rest.get(f"{url}/{table}/multiget?row=nope")
    assert r.status_code == 404


def test_prefix_glob_and_row_range(url, table):
    for k in ("pa1", "pa2", "pb1", "q"):
        put_cells(url, table, k, [("cf:a", k)])
    # Stateless scan: the CellSet of the matching rows, with limit and reversed.
    got = rows_of(json_rest.get(f"{url}/{table}/pa*").json())
    assert sorted(got) == [b"pa1", b"pa2"]
    r = json_rest.get(f"{url}/{table}/p*?limit=2&reversed=true")
    assert list(rows_of(r.json())) == [b"pb1", b"pa2"]
    r = json_rest.get(f"{url}/{table}/p*", params={"filter": "ValueFilter(=, 'binary:pa2')"})
    assert list(rows_of(r.json())) == [b"pa2"]
    # Row-spec glob with a column, and a range START,END (END exclusive).
    got = rows_of(json_rest.get(f"{url}/{table}/p*/cf:a").json())
    assert sorted(got) == [b"pa1", b"pa2", b"pb1"]
    got = rows_of(json_rest.get(f"{url}/{table}/pa2,q/cf").json())
    assert sorted(got) == [b"pa2", b"pb1"]


def test_check_and_put(url, table):
    put_cells(url, table, "c1", [("cf:s", "old")])
    def body(new, expected):
        return {"Row": [{"key": b64("c1"), "Cell": [
            {"column": b64("cf:s"), "$": b64(new)},
            {"column": b64("cf:s"), "$": b64(expected)}]}]}
    r = json_rest.put(f"{url}/{table}/c1?check=put", json=body("new", "wrong"))
    assert r.status_code == 304
    assert rows_of(json_rest.get(f"{url}/{table}/c1/cf:s").json())[b"c1"][0][1] == b"old"
    r = json_rest.put(f"{url}/{table}/c1?check=put", json=body("new", "old"))
    assert r.status_code == 200, r.text
    assert rows_of(json_rest.get(f"{url}/{table}/c1/cf:s").json())[b"c1"][0][1] == b"new"
    # The put and the check must name the same column.
    bad = {"Row": [{"key": b64("c1"), "Cell": [{"column": b64("cf:other"), "$": b64("x")},
                                               {"column": b64("cf:s"), "$": b64("new")}]}]}
    assert json_rest.put(f"{url}/{table}/c1?check=put", json=bad).status_code == 400
    assert json_rest.get(f"{url}/{table}/c1/cf:other").status_code == 404


def test_check_and_delete(url, table):
    put_cells(url, table, "c2", [("cf:s", "on"), ("cf:t", "keep")])
    check = {"Row": [{"key": b64("c2"), "Cell": [{"column": b64("cf:s"), "$": b64("off")}]}]}
    assert json_rest.post(f"{url}/{table}/c2?check=delete", json=check).status_code == 304
    assert json_rest.get(f"{url}/{table}/c2/cf:s").status_code == 200
    check["Row"][0]["Cell"][0]["$"] = b64("on")
    assert json_rest.post(f"{url}/{table}/c2?check=delete", json=check).status_code == 200
    assert json_rest.get(f"{url}/{table}/c2/cf:s").status_code == 404
    assert json_rest.get(f"{url}/{table}/c2/cf:t").status_code == 200


def test_increment_and_append(url, table):
    def body(col, value):
        return {"Row": [{"key": b64("ctr"), "Cell": [{"column": b64(col), "$": b64(value)}]}]}
    r = json_rest.post(f"{url}/{table}/ctr?check=increment&returnResult=true",
                      json=body("cf:n", "5"))
    assert r.status_code == 200, r.text
    assert rows_of(r.json())[b"ctr"][0][1] == (5).to_bytes(8, "big")
    assert json_rest.post(f"{url}/{table}/ctr?check=increment", json=body("cf:n", "-2")).status_code == 200
    got = rows_of(json_rest.get(f"{url}/{table}/ctr/cf:n").json())
    assert got[b"ctr"][0][1] == (3).to_bytes(8, "big")
    # A non-numeric amount writes nothing.
    r = json_rest.post(f"{url}/{table}/ctr?check=increment", json=body("cf:n", "lots"))
    assert r.status_code == 400
    got = rows_of(json_rest.get(f"{url}/{table}/ctr/cf:n").json())
    assert got[b"ctr"][0][1] == (3).to_bytes(8, "big")
    json_rest.post(f"{url}/{table}/ctr?check=append", json=body("cf:s", "ab"))
    r = json_rest.post(f"{url}/{table}/ctr?check=append&returnResult=true", json=body("cf:s", "cd"))
    assert r.status_code == 200
    assert rows_of(r.json())[b"ctr"][0][1] == b"abcd"
    assert json_rest.post(f"{url}/{table}/ctr?check=bogus", json=body("cf:s", "x")).status_code == 400
