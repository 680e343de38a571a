"""/{table}/schema, /{table}/regions, /{table}/exists."""

from conftest import json_rest


def family(schema, name):
    return next(c for c in schema["ColumnSchema"] if c["name"] == name)


def test_create_returns_201_and_schema_maps_family_attributes(url):
    body = {"name": "sch1", "ColumnSchema": [{
        "name": "cf", "VERSIONS": "5", "TTL": "86400", "MIN_VERSIONS": "1",
        "KEEP_DELETED_CELLS": "TRUE", "COMPRESSION": "SNAPPY", "BLOOMFILTER": "NONE",
        "BLOCKSIZE": "16384", "IN_MEMORY": "false"}]}
    r = json_rest.put(url + "/sch1/schema", json=body)
    assert r.status_code == 201, r.text
    j = json_rest.get(url + "/sch1/schema").json()
    assert j["name"] == "sch1"
    cf = family(j, "cf")
    assert (cf["VERSIONS"], cf["TTL"], cf["MIN_VERSIONS"]) == ("5", "86400", "1")
    assert (cf["KEEP_DELETED_CELLS"], cf["COMPRESSION"], cf["BLOOMFILTER"]) == (
        "TRUE", "SNAPPY", "NONE")
    assert cf["BLOCKSIZE"] == "16384"
    assert json_rest.get(url + "/sch1/exists").status_code == 200


def test_post_adds_or_modifies_listed_families_only(url):
    json_rest.put(url + "/sch2/schema", json={"ColumnSchema": [{"name": "a"}, {"name": "b"}]})
    r = json_rest.post(url + "/sch2/schema",
                      json={"ColumnSchema": [{"name": "b", "VERSIONS": 4}, {"name": "c"}]})
    assert r.status_code == 200, r.text
    j = json_rest.get(url + "/sch2/schema").json()
    assert sorted(c["name"] for c in j["ColumnSchema"]) == ["a", "b", "c"]
    assert family(j, "b")["VERSIONS"] == "4"


def test_put_on_existing_table_replaces_its_families(url):
    json_rest.put(url + "/sch3/schema", json={"ColumnSchema": [{"name": "a"}, {"name": "b"}]})
    r = json_rest.put(url + "/sch3/schema", json={"ColumnSchema": [{"name": "b", "TTL": "60"}]})
    assert r.status_code == 201, r.text  # as HBase answers a replacement
    j = json_rest.get(url + "/sch3/schema").json()
    assert [c["name"] for c in j["ColumnSchema"]] == ["b"]
    assert family(j, "b")["TTL"] == "60"


def test_delete_schema_drops_table(url):
    json_rest.put(url + "/sch4/schema", json={"ColumnSchema": [{"name": "a"}]})
    assert json_rest.delete(url + "/sch4/schema").status_code == 200
    assert json_rest.get(url + "/sch4/schema").status_code == 404
    assert json_rest.get(url + "/sch4/exists").status_code == 404
    assert json_rest.delete(url + "/sch4/schema").status_code == 404


def test_bad_schema_is_400_and_creates_nothing(url):
    for body in ('{"ColumnSchema": [', '{"ColumnSchema": [{"name": "a", "VERSIONS": "x"}]}',
                 '{"ColumnSchema": [{"name": "a", "COMPRESSION": "WHAT"}]}',
                 '{"ColumnSchema": []}', '{"nothing": 1}'):
        r = json_rest.put(url + "/sch5/schema", data=body,
                         headers={"Content-Type": "application/json"})
        assert r.status_code == 400, (body, r.status_code, r.text)
    assert json_rest.get(url + "/sch5/exists").status_code == 404


def test_regions_of_a_table(url, table):
    r = json_rest.get(f"{url}/{table}/regions")
    assert r.status_code == 200
    j = r.json()
    assert j["name"] == table
    assert len(j["Region"]) == 1
    assert j["Region"][0]["startKey"] == "" and j["Region"][0]["endKey"] == ""
    assert json_rest.get(url + "/nosuchtable/regions").status_code == 404
