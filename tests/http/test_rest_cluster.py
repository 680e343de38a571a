"""/version, /version/cluster, /status/cluster, /, /namespaces."""

from conftest import b64, json_rest


def test_version_reports_rest_and_server(url):
    for path in ("/version", "/version/rest"):
        r = json_rest.get(url + path, headers={"Accept": "application/json"})
        assert r.status_code == 200
        assert r.headers["Content-Type"] == "application/json"
        j = r.json()
        assert j["REST"] == "0.0.3"
        assert set(j) >= {"REST", "JVM", "OS", "Server", "Jersey"}


def test_cluster_version_is_a_version_object(url):
    r = json_rest.get(url + "/version/cluster")
    assert r.status_code == 200
    assert "Version" in r.json()


def test_cluster_status_lists_one_live_node_with_regions(url, table):
    r = json_rest.get(url + "/status/cluster")
    assert r.status_code == 200
    j = r.json()
    assert len(j["LiveNodes"]) == 1 and j["DeadNodes"] == []
    assert j["regions"] == len(j["LiveNodes"][0]["Region"]) >= 1


def test_table_list_contains_created_table(url, table):
    r = json_rest.get(url + "/")
    assert r.status_code == 200
    assert {"name": table} in r.json()["table"]


def test_an_unserved_type_gets_406(url):
    # text/xml and text/plain are served (test_rest_representations.py, tests/gateways/).
    r = json_rest.get(url + "/", headers={"Accept": "image/png"})
    assert r.status_code == 406


def test_namespace_lifecycle(url):
    assert set(json_rest.get(url + "/namespaces").json()["Namespace"]) >= {"default", "hbase"}
    assert json_rest.get(url + "/namespaces/nsx").status_code == 404
    # PUT alters an existing namespace only; POST creates.
    assert json_rest.put(url + "/namespaces/nsx", json={}).status_code == 403
    assert json_rest.post(url + "/namespaces/nsx").status_code == 201
    assert json_rest.post(url + "/namespaces/nsx").status_code == 403
    assert json_rest.get(url + "/namespaces/nsx").json() == {"properties": None}  # as HBase
    assert "nsx" in json_rest.get(url + "/namespaces").json()["Namespace"]

    r = json_rest.put(url + "/nsx:tab/schema", json={"ColumnSchema": [{"name": "cf"}]})
    assert r.status_code == 201, r.text
    assert json_rest.get(url + "/namespaces/nsx/tables").json() == {"table": [{"name": "tab"}]}
    # A namespace holding a table cannot be dropped.
    assert json_rest.delete(url + "/namespaces/nsx").status_code == 409
    assert json_rest.delete(url + "/nsx:tab/schema").status_code == 200
    assert json_rest.delete(url + "/namespaces/nsx").status_code == 200
    assert json_rest.get(url + "/namespaces/nsx").status_code == 404
    assert json_rest.get(url + "/namespaces/nsx/tables").status_code == 404


def test_unknown_path_and_wrong_method(url, table):
    r = json_rest.delete(f"{url}/{table}/scanner")
    assert r.status_code == 405
    assert "POST" in r.headers["Allow"]
    assert json_rest.get(url + "/a/b/c/d/e").status_code == 404
