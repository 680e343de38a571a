"""Where basalt's REST server was stricter than HBase's and real HBase REST clients broke on it
(node-hbase, the npm `hbase` package, ran its own suite against basalt serve). Each
case is what HBase's REST server accepts or answers."""

from conftest import b64, put_cells, rows_of, json_rest

JSON = {"Accept": "application/json"}


def test_a_timestamp_may_be_a_string_of_digits(url, table):
    """HBase's REST model parses "timestamp" into a long; node-hbase always sends a string."""
    body = {"Row": [{"key": b64("r"), "Cell": [
        {"column": b64("cf:a"), "timestamp": "1795557260798", "$": b64("v1")},
        {"column": b64("cf:b"), "timestamp": 42, "$": b64("v2")}]}]}
    r = json_rest.put(f"{url}/{table}/r", json=body)
    assert r.status_code == 200, r.text
    got = rows_of(json_rest.get(f"{url}/{table}/r", headers=JSON).json())
    assert sorted(got[b"r"]) == [(b"cf:a", b"v1", 1795557260798), (b"cf:b", b"v2", 42)]
    for bad in ("-5", "12x", "", "1.5"):
        body["Row"][0]["Cell"][0]["timestamp"] = bad
        r = json_rest.put(f"{url}/{table}/r", json=body)
        assert r.status_code == 400, (bad, r.text)
        assert "timestamp must be a non-negative integer" in r.text


def test_a_row_spec_may_name_several_columns_on_a_write(url, table):
    """PUT /t/row/f:a,f:b with a CellSet: the cells' own columns are written, and a cell
    without one takes the path's first column, as HBase's RowResource does."""
    body = {"Row": [{"key": b64("r"), "Cell": [
        {"column": b64("cf:x"), "$": b64("own")},
        {"$": b64("from-path")}]}]}
    r = json_rest.put(f"{url}/{table}/r/cf:a,cf:b", json=body)
    assert r.status_code == 200, r.text
    got = rows_of(json_rest.get(f"{url}/{table}/r", headers=JSON).json())
    values = {column: value for column, value, _ in got[b"r"]}
    assert values == {b"cf:x": b"own", b"cf:a": b"from-path"}


def test_reading_a_family_the_table_lacks_is_404(url, table):
    put_cells(url, table, "r", [("cf:a", "v")])
    for path in ("r/nofam", "r/nofam:q", "r/cf:a,nofam:q", "r*/nofam"):
        r = json_rest.get(f"{url}/{table}/{path}", headers=JSON)
        assert r.status_code == 404, (path, r.text)
        assert "column family 'nofam' does not exist" in r.text
    # The table's own families still read.
    assert json_rest.get(f"{url}/{table}/r/cf:a", headers=JSON).status_code == 200


def test_family_attributes_basalt_does_not_act_on_are_kept_not_dropped(url):
    """IN_MEMORY and REPLICATION_SCOPE were accepted and silently dropped: the schema read back
    IN_MEMORY "false"."""
    name = "attrs_kept"
    r = json_rest.put(f"{url}/{name}/schema", json={"name": name, "ColumnSchema": [
        {"name": "cf", "IN_MEMORY": "true", "REPLICATION_SCOPE": "1", "VERSIONS": "2",
         "DATA_BLOCK_ENCODING": "FAST_DIFF"},
        {"name": "plain"}]})
    assert r.status_code == 201, r.text
    families = {f["name"]: f for f in
                json_rest.get(f"{url}/{name}/schema", headers=JSON).json()["ColumnSchema"]}
    assert families["cf"]["IN_MEMORY"] == "true"
    assert families["cf"]["REPLICATION_SCOPE"] == "1"
    assert families["cf"]["DATA_BLOCK_ENCODING"] == "FAST_DIFF"
    assert families["cf"]["VERSIONS"] == "2"
    assert families["plain"]["IN_MEMORY"] == "false"  # HBase's default
    # Changing the family replaces its attributes with the new schema's.
    r = json_rest.post(f"{url}/{name}/schema", json={"name": name, "ColumnSchema": [
        {"name": "cf", "IN_MEMORY": "false", "VERSIONS": "2"}]})
    assert r.status_code == 200, r.text
    cf = next(f for f in json_rest.get(f"{url}/{name}/schema", headers=JSON).json()["ColumnSchema"]
              if f["name"] == "cf")
    assert cf["IN_MEMORY"] == "false" and "REPLICATION_SCOPE" not in cf
    r = json_rest.put(f"{url}/bad_attrs/schema", json={"name": "bad_attrs", "ColumnSchema": [
        {"name": "cf", "X" * 70: "1"}]})
    assert r.status_code == 400 and "attribute name" in r.text


def test_scanner_numbers_may_be_strings_of_digits(url, table):
    """HBase's Scanner model parses batch, maxVersions, startTime and endTime into ints and
    longs with Jackson, which takes "10" as well as 10; node-hbase passes them on as the
    application gives them (found by tests/browser/hbase_client.test.mjs)."""
    put_cells(url, table, "r", [("cf:a", "v1", 1000), ("cf:a", "v2", 2000), ("cf:a", "v3", 3000)])
    r = json_rest.post(f"{url}/{table}/scanner", json={
        "batch": "1", "maxVersions": "2", "startTime": "1500", "endTime": "3001"})
    assert r.status_code == 201, r.text
    got = []
    for _ in range(10):
        chunk = json_rest.get(r.headers["Location"], headers=JSON)
        if chunk.status_code == 204:
            break
        got.append(rows_of(chunk.json())[b"r"])
    assert got == [[(b"cf:a", b"v3", 3000)], [(b"cf:a", b"v2", 2000)]]
    for field, bad in (("batch", "ten"), ("batch", "1.5"), ("maxVersions", ""),
                       ("startTime", "12x"), ("endTime", True), ("startTime", "-5")):
        r = json_rest.post(f"{url}/{table}/scanner", json={field: bad})
        assert r.status_code == 400, (field, bad, r.text)
