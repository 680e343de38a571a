"""/api/v1 admin token (on the REST API's writes and /api/v1/admin), stats and metrics, the
OpenAPI document, and the contract's error shapes for unknown routes, methods and big bodies."""

import os
import re
import tempfile

import pytest
import requests

from conftest import API, FAST_HASH, ApiUser, Server, assert_api_error, b64

TOKEN = "admin-s3cret-token"


@pytest.fixture(scope="module")
def guarded(binary):
    """A server with an admin token."""
    with tempfile.TemporaryDirectory(prefix="basalt-admin-") as tmp:
        s = Server(binary, os.path.join(tmp, "data"), extra_args=[FAST_HASH, "--admin-token", TOKEN])
        yield s
        assert s.stop() == 0


def schema(name):
    return {"name": name, "ColumnSchema": [{"name": "cf"}]}


def test_admin_token_guards_rest_writes_but_not_reads(guarded):
    url = guarded.url
    r = requests.put(f"{url}/guarded_t/schema", json=schema("guarded_t"))
    assert r.status_code == 401, r.text
    assert "X-Basalt-Admin" in r.text and r.headers["WWW-Authenticate"] == "Bearer"
    assert requests.get(f"{url}/guarded_t/schema").status_code == 404, "nothing was created"
    r = requests.put(f"{url}/guarded_t/schema", json=schema("guarded_t"),
                     headers={"Authorization": "Bearer wrong"})
    assert r.status_code == 401
    r = requests.put(f"{url}/guarded_t/schema", json=schema("guarded_t"),
                     headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 201, r.text
    cells = {"Row": [{"key": b64("r1"), "Cell": [{"column": b64("cf:a"), "$": b64("v")}]}]}
    assert requests.put(f"{url}/guarded_t/r1", json=cells).status_code == 401
    assert requests.post(f"{url}/guarded_t/r1", json=cells).status_code == 401
    r = requests.put(f"{url}/guarded_t/r1", json=cells, headers={"X-Basalt-Admin": TOKEN})
    assert r.status_code == 200, r.text
    # Reads stay open: rows, schema, table list, and scanners (reads made with PUT).
    assert requests.get(f"{url}/guarded_t/r1", headers={"Accept": "application/json"}).status_code == 200
    assert requests.get(f"{url}/guarded_t/schema").status_code == 200
    assert requests.get(f"{url}/", headers={"Accept": "application/json"}).status_code == 200
    r = requests.put(f"{url}/guarded_t/scanner", json={"batch": 10})
    assert r.status_code == 201, r.text
    assert requests.delete(f"{url}/guarded_t/r1").status_code == 401
    assert requests.delete(f"{url}/guarded_t/schema").status_code == 401
    assert requests.post(f"{url}/namespaces/ns1").status_code == 401
    assert requests.delete(f"{url}/guarded_t/r1", headers={"X-Basalt-Admin": TOKEN}).status_code == 200


def test_admin_stats_need_the_token_when_one_is_set(guarded):
    api = guarded.url + API
    assert_api_error(requests.get(f"{api}/admin/stats"), 401, "unauthorized")
    user = ApiUser(api)
    # A user's session is not the admin token.
    assert_api_error(requests.get(f"{api}/admin/stats", headers=user.bearer), 401, "unauthorized")
    r = requests.get(f"{api}/admin/stats", headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 200, r.text
    # The user API needs no admin token.
    assert user.post("/posts", json={"text": "hi"}).status_code == 201


def test_admin_stats_and_metrics_show_the_fanout(api, api_server, new_user):
    alice, bob = new_user(), new_user()
    assert bob.post(f"/users/{alice.name}/follow").status_code == 204
    assert alice.post("/posts", json={"text": "to my follower"}).status_code == 201
    # Without an admin token the admin endpoints are open (a development set-up).
    r = requests.get(f"{api}/admin/stats")
    assert r.status_code == 200, r.text
    stats = r.json()
    assert set(stats["fanout"]) == {"pending_jobs", "jobs_finished", "inbox_writes", "last_error"}
    assert stats["fanout"]["pending_jobs"] >= 0
    assert stats["gauges"]["basalt_fanout_pending_jobs"] >= 0
    assert "basalt_fanout_jobs_finished_total" in stats["counters"]
    assert any(s["route"] == f"{API}/posts" for s in stats["http"]["requests"])
    metrics = requests.get(f"{api_server.url}/metrics").text
    assert "# TYPE basalt_fanout_pending_jobs gauge" in metrics
    lag = re.search(r"^basalt_fanout_lag_milliseconds (-?\d+)$", metrics, re.M)
    assert lag and int(lag.group(1)) >= 0, metrics
    assert "# TYPE basalt_fanout_jobs_finished_total counter" in metrics
    assert "basalt_fanout_inbox_writes_total " in metrics
    assert f'route="{API}/posts"' in metrics


def test_openapi_describes_every_route(api):
    r = requests.get(f"{api}/openapi.json")
    assert r.status_code == 200 and r.headers["Content-Type"] == "application/json"
    doc = r.json()
    assert doc["openapi"].startswith("3.0")
    expected = {
        ("post", "/signup"), ("post", "/login"), ("post", "/logout"), ("get", "/me"),
        ("get", "/users/{user}"), ("put", "/users/{user}"),
        ("post", "/users/{user}/follow"), ("delete", "/users/{user}/follow"),
        ("get", "/users/{user}/following"), ("get", "/users/{user}/followers"),
        ("post", "/posts"), ("get", "/posts/{id}"), ("delete", "/posts/{id}"),
        ("get", "/users/{user}/posts"), ("get", "/timeline"),
        ("post", "/activity"), ("get", "/users/{user}/activity"),
        ("post", "/clicks/{item}"), ("get", "/clicks/{item}"),
        ("get", "/clicks/{item}/series"), ("get", "/clicks/top"),
        ("get", "/clicks/{item}/visitors"), ("get", "/clicks/top/approx"),
        ("get", "/admin/stats"), ("get", "/openapi.json")}
    for method, path in expected:
        assert method in doc["paths"][API + path], (method, path)


def test_unknown_routes_and_methods_get_the_contract_errors(api, api_server):
    # Under /api/v1 the REST API's catch-all row routes never answer.
    assert_api_error(requests.get(f"{api}/nothing"), 404, "not_found")
    assert_api_error(requests.get(f"{api}/users/a/b/c/d"), 404, "not_found")
    assert_api_error(requests.get(f"{api_server.url}/api/v1"), 404, "not_found")
    r = requests.post(f"{api}/me")
    assert_api_error(r, 405, "method_not_allowed")
    assert r.headers["Allow"] == "GET"
    r = requests.delete(f"{api}/users/someone")
    assert_api_error(r, 405, "method_not_allowed")
    assert set(r.headers["Allow"].split(", ")) == {"GET", "PUT"}


def test_body_over_the_limit_is_413_too_large(api):
    r = requests.post(f"{api}/signup", data="x" * 70000, headers={"Content-Type": "application/json"})
    assert_api_error(r, 413, "too_large")


def test_malformed_query_string_is_a_json_400(api):
    r = requests.get(f"{api}/clicks/top?k=%zz")
    assert_api_error(r, 400, "bad_request")
