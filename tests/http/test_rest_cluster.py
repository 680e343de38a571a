"""/version, /version/cluster, /status/cluster, /, /namespaces."""

import requests

from conftest import b64


def test_version_reports_rest_and_server(url):
    for path in ("/version", "/version/rest"):
        r = requests.get(url + path, headers={"Accept": "application/json"})
        assert r.status_code == 200
        assert r.headers["Content-Type"] == "application/json"
        j = r.json()
        assert j["REST"] == "0.0.3"
        assert set(j) >= {"REST", "JVM", "OS", "Server", "Jersey"}


def test_cluster_version_is_a_version_object(url):
    r = requests.get(url + "/version/cluster")
    assert r.status_code == 200
    assert "Version" in r.json()


def test_cluster_status_lists_one_live_node_with_regions(url, table):
    r = requests.get(url + "/status/cluster")
    assert r.status_code == 200
    j = r.json()
    assert len(j["LiveNodes"]) == 1 and j["DeadNodes"] == []
    assert j["regions"] == len(j["LiveNodes"][0]["Region"]) >= 1


def test_table_list_contains_created_table(url, table):
    r = requests.get(url + "/")
    assert r.status_code == 200
    assert {"name": table} in r.json()["table"]


def test_xml_only_accept_gets_406(url):
    r = requests.get(url + "/", headers={"Accept": "text/xml"})
    assert r.status_code == 406


def test_namespace_lifecycle(url):
    assert set(requests.get(url + "/namespaces").json()["Namespace"]) >= {"default", "hbase"}
    assert requests.get(url + "/namespaces/nsx").status_code == 404
    # PUT alters an existing namespace only; POST creates.
    assert requests.put(url + "/namespaces/nsx", json={}).status_code == 403
    assert requests.post(url + "/namespaces/nsx").status_code == 201
    assert requests.post(url + "/namespaces/nsx").status_code == 403
    assert requests.get(url + "/namespaces/nsx").json() == {"properties": {}}
    assert "nsx" in requests.get(url + "/namespaces").json()["Namespace"]

    r = requests.put(url + "/nsx:tab/schema", json={"ColumnSchema": [{"name": "cf"}]})
    assert r.status_code == 201, r.text
    assert requests.get(url + "/namespaces/nsx/tables").json() == {"table": [{"name": "tab"}]}
    # A namespace holding a table cannot be dropped.
    assert requests.delete(url + "/namespaces/nsx").status_code == 409
    assert requests.delete(url + "/nsx:tab/schema").status_code == 200
    assert requests.delete(url + "/namespaces/nsx").status_code == 200
    assert requests.get(url + "/namespaces/nsx").status_code == 404
    assert requests.get(url + "/namespaces/nsx/tables").status_code == 404


def test_unknown_path_and_wrong_method(url, table):
    r = requests.delete(f"{url}/{table}/scanner")
    assert r.status_code == 405
    assert "POST" in r.headers["Allow"]
    assert requests.get(url + "/a/b/c/d/e").status_code == 404
