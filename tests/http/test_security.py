"""The attacks docs/security.md closes, each tried against a real `basalt serve` as an attacker
would: the data plane (HBase REST) against the app's accounts and sessions, in each
configuration. (Thrift2's side is tests/thrift/thrift2_server_test.cc.)"""

import os
import subprocess
import tempfile
from urllib.parse import quote

import pytest
import requests

from conftest import API, ApiUser, Server, cell_set, rows_of, serving

TOKEN = "security-admin-token"
JSON = {"Accept": "application/json"}
WITH_TOKEN = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json"}


@pytest.fixture(scope="module")
def open_server(binary):
    """The default configuration: no admin token."""
    with serving(binary) as s:
        yield s


@pytest.fixture(scope="module")
def guarded(binary):
    """With --admin-token."""
    with serving(binary, "--admin-token", TOKEN) as s:
        yield s


def takeover_attempts(url, user, headers):
    """Every way the data plane reached the app's tables, as (what, response)."""
    users, sessions = "app:social_users", "app:social_sessions"
    forged = cell_set("forged-token-hash", ("s:user", user), ("s:exp", "\xff" * 8))
    yield "read a password hash", requests.get(f"{url}/{users}/{user}/a:pw", headers=headers)
    yield "read a user row", requests.get(f"{url}/{users}/{user}", headers=headers)
    yield "read, the name percent-encoded", requests.get(
        f"{url}/{quote(users, safe='')}/{user}", headers=headers)
    yield "multiget", requests.get(f"{url}/{users}/multiget?row={user}", headers=headers)
    yield "open a scanner", requests.post(f"{url}/{users}/scanner", json={"batch": 10},
                                          headers=headers)
    yield "write a session row", requests.put(f"{url}/{sessions}/forged-token-hash", json=forged,
                                              headers=headers)
    yield "overwrite a password hash", requests.put(
        f"{url}/{users}/{user}", json=cell_set(user, ("a:pw", "$argon2id$mine")), headers=headers)
    yield "delete the password family", requests.delete(f"{url}/{users}/{user}/a", headers=headers)
    yield "read the schema", requests.get(f"{url}/{sessions}/schema", headers=headers)
    yield "change the schema (TTL=1 empties it)", requests.post(
        f"{url}/{sessions}/schema",
        json={"name": sessions, "ColumnSchema": [{"name": "s", "TTL": "1"}]}, headers=headers)
    yield "drop the sessions table", requests.delete(f"{url}/{sessions}/schema", headers=headers)
    yield "regions", requests.get(f"{url}/{sessions}/regions", headers=headers)
    yield "exists", requests.get(f"{url}/{sessions}/exists", headers=headers)
    yield "create a table there", requests.put(
        f"{url}/app:mine/schema", json={"name": "app:mine", "ColumnSchema": [{"name": "f"}]},
        headers=headers)
    yield "read the namespace", requests.get(f"{url}/namespaces/app", headers=headers)
    yield "list the namespace's tables", requests.get(f"{url}/namespaces/app/tables",
                                                      headers=headers)
    yield "drop the namespace", requests.delete(f"{url}/namespaces/app", headers=headers)


def assert_app_still_works(server, user):
    r = requests.post(f"{server.url}{API}/login",
                      json={"user": user.name, "password": "correct horse battery"})
    assert r.status_code == 200, r.text
    assert requests.get(f"{server.url}{API}/me", headers=user.bearer).json()["user"] == user.name


@pytest.mark.parametrize("config", ["open", "token"])
def test_the_app_namespace_is_refused_without_the_admin_token(config, open_server, guarded):
    server = open_server if config == "open" else guarded
    user = ApiUser(server.url + API)
    for what, r in takeover_attempts(server.url, user.name, JSON):
        # With a token, REST writes are 401 before the namespace is looked at; reads are 403.
        expected = (403, 401) if config == "token" else (403,)
        assert r.status_code in expected, (what, r.status_code, r.text)
        if r.status_code == 403:
            assert r.headers["Content-Type"] == "text/plain", what
            assert "'app' is reserved" in r.text, (what, r.text)
    # Nothing changed: the user logs in with the same password, the sessions table is there.
    assert_app_still_works(server, user)


def test_the_admin_token_opens_the_app_namespace(guarded):
    url = guarded.url
    user = ApiUser(url + API)
    r = requests.get(f"{url}/app:social_users/{user.name}/a:pw", headers=WITH_TOKEN)
    assert r.status_code == 200, r.text
    assert rows_of(r.json())[user.name.encode()][0][1].startswith(b"$argon2id$")
    assert requests.get(f"{url}/app:social_sessions/schema", headers=WITH_TOKEN).status_code == 200
    assert requests.get(f"{url}/namespaces/app/tables", headers=WITH_TOKEN).status_code == 200
    r = requests.put(f"{url}/app:social_users/{user.name}",
                     json=cell_set(user.name, ("p:bio", "set by the operator")), headers=WITH_TOKEN)
    assert r.status_code == 200, r.text
    assert requests.get(f"{url}{API}/users/{user.name}").json()["bio"] == "set by the operator"


def test_listings_show_the_app_namespace(open_server):
    r = requests.get(f"{open_server.url}/", headers=JSON)
    assert "app:social_users" in r.text
    assert "app" in requests.get(f"{open_server.url}/namespaces", headers=JSON).json()["Namespace"]


def test_user_tables_work_as_before(open_server):
    url = open_server.url
    r = requests.put(f"{url}/mine/schema", json={"name": "mine", "ColumnSchema": [{"name": "f"}]})
    assert r.status_code == 201, r.text
    assert requests.put(f"{url}/mine/r", json=cell_set("r", ("f:a", "1"))).status_code == 200
    r = requests.get(f"{url}/mine/r", headers=JSON)
    assert rows_of(r.json()) == {b"r": [(b"f:a", b"1", rows_of(r.json())[b"r"][0][2])]}
    # A user namespace whose name starts like the app's is not the app's.
    assert requests.post(f"{url}/namespaces/apps").status_code == 201
    r = requests.put(f"{url}/apps:t/schema", json={"name": "apps:t", "ColumnSchema": [{"name": "f"}]})
    assert r.status_code == 201, r.text



# ---- Binding beyond loopback ----

def refused_at_start(binary, tmp, *args):
    p = subprocess.run([binary, "serve", "--data", os.path.join(tmp, "data"), "--port", "0",
                        "--thrift-port", "0", "--thrift1-port", "0", "--hbase-rpc-port", "0",
                        *args], capture_output=True,
                       text=True, timeout=30)
    assert p.returncode == 1, (args, p.stdout, p.stderr)
    assert "listening on" not in p.stdout
    return p.stderr


def test_binding_beyond_loopback_without_credentials_is_refused(binary):
    with tempfile.TemporaryDirectory(prefix="basalt-sec-bind-") as tmp:
        err = refused_at_start(binary, tmp, "--bind", "0.0.0.0")
        assert "without an admin token" in err and "--insecure-no-auth" in err, err
        # The token covers REST, not Thrift2, which has no credentials.
        err = refused_at_start(binary, tmp, "--bind", "0.0.0.0", "--admin-token", TOKEN)
        assert "Thrift2 has no credentials" in err and "--no-thrift" in err, err
        # Thrift1 neither.
        err = refused_at_start(binary, tmp, "--bind", "0.0.0.0", "--admin-token", TOKEN,
                               "--no-thrift")
        assert "Thrift1 has no credentials" in err and "--no-thrift1" in err, err
        # HBase's native RPC neither (SIMPLE authentication is a name the client states).
        err = refused_at_start(binary, tmp, "--bind", "0.0.0.0", "--admin-token", TOKEN,
                               "--no-thrift", "--no-thrift1")
        assert "native RPC has no credentials" in err and "--no-hbase-rpc" in err, err


@pytest.mark.parametrize("args", [
    ["--bind", "0.0.0.0", "--admin-token", TOKEN, "--no-thrift", "--no-thrift1", "--no-hbase-rpc"],
    ["--bind", "0.0.0.0", "--insecure-no-auth"],
    ["--bind", "127.0.0.2"],  # loopback: all of 127.0.0.0/8
])
def test_binding_beyond_loopback_with_credentials_or_the_flag_starts(binary, args):
    with serving(binary, *args) as s:
        pass
    err = s.proc.stderr.read()
    assert ("--insecure-no-auth" in err) == ("--insecure-no-auth" in args), err


def test_insecure_no_auth_in_the_config_file(binary):
    with tempfile.TemporaryDirectory(prefix="basalt-sec-bind-") as tmp:
        s = Server(binary, os.path.join(tmp, "data"),
                   config={"bind": "0.0.0.0", "insecure_no_auth": True})
        assert s.stop() == 0
