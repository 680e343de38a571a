"""Browsers cannot be used against the server (docs/security.md): REST parses JSON only with a
JSON content type, cross-origin writes are refused on every surface, the Host header is checked
(DNS rebinding), and every response carries nosniff. Each test is a request a page on another
site could make a visitor's browser send."""

import json
import os
import tempfile

import pytest
import requests

from conftest import API, Server, cell_set, serving

JSON = {"Accept": "application/json"}


@pytest.fixture(scope="module")
def open_server(binary):
    with serving(binary) as s:
        yield s

EVIL = "http://evil.example"


def json_text(value):
    return json.dumps(value)


def raw_put(url, path, body, headers):
    return requests.put(f"{url}{path}", data=body, headers=headers)


@pytest.mark.parametrize("content_type", [None, "text/plain;charset=json",
                                          "multipart/form-data; boundary=json",
                                          "application/x-www-form-urlencoded", "text/json-ish"])
def test_rest_parses_json_only_with_a_json_content_type(open_server, content_type):
    url = open_server.url
    table = f"ct{abs(hash(content_type))}"
    requests.put(f"{url}/{table}/schema", json={"name": table, "ColumnSchema": [{"name": "f"}]})
    body = json_text(cell_set("victim", ("f:a", "x")))
    headers = {} if content_type is None else {"Content-Type": content_type}
    for path in [f"/{table}/victim", f"/{table}/schema", f"/{table}/scanner"]:
        r = requests.post(f"{url}{path}", data=body, headers=headers)
        assert r.status_code == 415, (path, content_type, r.status_code, r.text)
    r = requests.get(f"{url}/{table}/victim", headers=JSON)
    assert r.status_code == 404, "nothing written"


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8",
                                          "Application/JSON", "application/vnd.basalt+json"])
def test_rest_json_content_types_are_still_accepted(open_server, content_type):
    url = open_server.url
    requests.put(f"{url}/ct2/schema", json={"name": "ct2", "ColumnSchema": [{"name": "f"}]})
    r = raw_put(url, "/ct2/r", json_text(cell_set("r", ("f:a", "x"))), {"Content-Type": content_type})
    assert r.status_code == 200, r.text
    r = raw_put(url, "/ct2/r2/f:a", b"raw", {"Content-Type": "application/octet-stream"})
    assert r.status_code == 200, r.text


def test_cross_origin_writes_are_refused_on_rest_and_api(open_server):
    url = open_server.url
    requests.put(f"{url}/xo/schema", json={"name": "xo", "ColumnSchema": [{"name": "f"}]})
    r = requests.put(f"{url}/xo/victim", json=cell_set("victim", ("f:a", "x")),
                     headers={"Origin": EVIL})
    assert r.status_code == 403, r.text
    assert "cross-origin" in r.text and r.headers["Content-Type"] == "text/plain"
    r = requests.delete(f"{url}/xo/schema", headers={"Origin": "null"})
    assert r.status_code == 403, r.text
    r = requests.post(f"{url}{API}/signup", json={"user": "xo_user", "password": "correct horse b"},
                      headers={"Origin": EVIL})
    assert r.status_code == 403, r.text
    assert r.json()["error"]["code"] == "forbidden"
    assert requests.get(f"{url}/xo/victim", headers=JSON).status_code == 404, "nothing written"
    # The server's own origin (the web UI) and reads from anywhere are served.
    own = f"http://127.0.0.1:{open_server.port}"
    r = requests.put(f"{url}/xo/victim", json=cell_set("victim", ("f:a", "x")), headers={"Origin": own})
    assert r.status_code == 200, r.text
    assert requests.get(f"{url}/xo/victim", headers={"Origin": EVIL, **JSON}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8080", "127.0.0.1.nip.io"])
def test_foreign_host_names_are_refused(open_server, host):
    r = requests.get(f"{open_server.url}/version", headers={"Host": host, **JSON})
    assert r.status_code == 403, r.text
    assert "allowed-host" in r.text
    r = requests.get(f"{open_server.url}{API}/me", headers={"Host": host})
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"


@pytest.mark.parametrize("host", ["localhost", "LOCALHOST:1234", "127.0.0.1", "[::1]:80",
                                  "10.1.2.3:8080"])
def test_loopback_names_and_ip_literals_are_served(open_server, host):
    r = requests.get(f"{open_server.url}/version", headers={"Host": host, **JSON})
    assert r.status_code == 200, (host, r.text)


def test_configured_host_names_are_served(binary):
    with serving(binary, "--allowed-host", "basalt.internal", "--allowed-host", "db.example") as s:
        for host in ["basalt.internal", "db.example:8080", "localhost"]:
            r = requests.get(f"{s.url}/version", headers={"Host": host, **JSON})
            assert r.status_code == 200, (host, r.text)
        r = requests.get(f"{s.url}/version", headers={"Host": "other.example", **JSON})
        assert r.status_code == 403


def test_every_response_says_nosniff(open_server):
    url = open_server.url
    responses = [
        requests.get(f"{url}/version", headers=JSON),
        requests.get(f"{url}/no_such_table/schema"),
        requests.get(f"{url}/metrics"),
        requests.get(f"{url}/", headers={"Accept": "text/html"}),
        requests.get(f"{url}{API}/me"),
        requests.post(f"{url}{API}/signup", data="x" * 70000,
                      headers={"Content-Type": "application/json"}),
        requests.get(f"{url}/version", headers={"Host": "evil.example"}),
    ]
    for r in responses:
        assert r.headers.get("X-Content-Type-Options") == "nosniff", (r.url, r.status_code)


def test_allowed_hosts_in_the_config_file(binary):
    with tempfile.TemporaryDirectory(prefix="basalt-sec-hosts-") as tmp:
        s = Server(binary, os.path.join(tmp, "data"), config={"allowed_hosts": ["cfg.example"]})
        try:
            r = requests.get(f"{s.url}/version", headers={"Host": "cfg.example", **JSON})
            assert r.status_code == 200, r.text
        finally:
            assert s.stop() == 0
        with pytest.raises(RuntimeError, match="allowed_hosts"):
            Server(binary, os.path.join(tmp, "data2"), config={"allowed_hosts": "cfg.example"})
