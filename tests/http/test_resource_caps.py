"""What one client may take of `basalt serve` over HTTP is capped (docs/security.md, "Resource
caps"), each cap tried as a flooding client would: REST scanners per client, multi-row reads
built in memory, sign-ups and log-ins per address, failed log-ins per user and address, and
password hashes in flight. (Thrift2's caps are in tests/thrift/thrift2_server_test.cc.)"""

import base64
import concurrent.futures
import http.client
import json

import requests

from conftest import API, PASSWORD, Server, fresh_name, serving

JSON = {"Accept": "application/json"}


def create_table(url, name):
    r = requests.put(f"{url}/{name}/schema", json={"name": name, "ColumnSchema": [{"name": "f"}]})
    assert r.status_code == 201, r.text


def test_one_client_cannot_take_every_rest_scanner(binary):
    """10,000 scanners of one client shut every other client out of scanners for an hour."""
    with serving(binary, config={"max_scanners": 10, "max_scanners_per_client": 3}) as s:
        create_table(s.url, "scanned")
        locations = []
        for _ in range(3):
            r = requests.post(f"{s.url}/scanned/scanner", json={"batch": 10})
            assert r.status_code == 201, r.text
            locations.append(r.headers["Location"])
        r = requests.post(f"{s.url}/scanned/scanner", json={"batch": 10})
        assert r.status_code == 503, r.text
        assert "too many open scanners for client 127.0.0.1 (at most 3 per client)" in r.text
        # Deleting one makes room for that client again.
        path = locations[0].split("/", 3)[3]
        assert requests.delete(f"{s.url}/{path}").status_code == 200
        r = requests.post(f"{s.url}/scanned/scanner", json={"batch": 10})
        assert r.status_code == 201, r.text


def put_mib_rows(url, table, n):
    value = base64.b64encode(b"x" * (1 << 20)).decode()
    for i in range(n):
        row = base64.b64encode(f"r{i:02d}".encode()).decode()
        body = {"Row": [{"key": row, "Cell": [{"column": base64.b64encode(b"f:q").decode(),
                                                 "$": value}]}]}
        r = requests.put(f"{url}/{table}/fakerow", json=body)
        assert r.status_code == 200, r.text


def test_a_stateless_scan_is_bounded(binary):
    """A stateless scan built its whole answer in memory: a 140 MB body, +420 MiB of RSS."""
    with serving(binary, config={"max_body": 4 << 20}) as s:
        create_table(s.url, "big")
        put_mib_rows(s.url, "big", 17)
        for path in ("big/*", "big/r*"):
            r = requests.get(f"{s.url}/{path}", headers=JSON)
            assert r.status_code == 400, r.text[:200]
            assert "take more than 16 MiB" in r.text and "scanner" in r.text
        r = requests.get(f"{s.url}/big/*?limit=3", headers=JSON)
        assert r.status_code == 200
        assert len(r.json()["Row"]) == 3
        # A scanner pages through all of it.
        r = requests.post(f"{s.url}/big/scanner", json={"batch": 4})
        assert r.status_code == 201
        path = r.headers["Location"].split("/", 3)[3]
        rows = set()
        while True:
            r = requests.get(f"{s.url}/{path}", headers=JSON)
            if r.status_code == 204:
                break
            assert r.status_code == 200
            rows.update(row["key"] for row in r.json()["Row"])
        assert len(rows) == 17


def test_sign_ups_and_log_ins_are_limited_per_address(binary):
    """Each sign-up and log-in costs a password hash; they were not limited at all."""
    with serving(binary, config={"auth_attempts_per_minute": 6}) as s:
        api = s.url + API
        name = fresh_name("rate")
        r = requests.post(f"{api}/signup", json={"user": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        for _ in range(5):  # successful log-ins count too
            r = requests.post(f"{api}/login", json={"user": name, "password": PASSWORD})
            assert r.status_code == 200, r.text
        for path, user in (("login", name), ("signup", fresh_name("rate"))):
            r = requests.post(f"{api}/{path}", json={"user": user, "password": PASSWORD})
            assert r.status_code == 429, r.text
            assert r.json()["error"]["code"] == "rate_limited"
            assert "too many sign-ups and log-ins from this address" in r.json()["error"]["message"]
            assert int(r.headers["Retry-After"]) >= 1
        # Another address is not affected (all of 127.0.0.0/8 is loopback).
        status, _ = post_from("127.0.0.2", s.port, f"{API}/login",
                              {"user": name, "password": PASSWORD})
        assert status == 200


def post_from(source, port, path, body):
    """POST `body` as JSON from the local address `source`; (status, parsed body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        conn.request("POST", path, body=json.dumps(body),
                     headers={"Content-Type": "application/json"})
        r = conn.getresponse()
        return r.status, json.loads(r.read() or b"null")
    finally:
        conn.close()


def test_failing_log_ins_from_one_address_do_not_lock_the_user_out_elsewhere(binary):
    """Five wrong passwords for a user name locked that user out from every address."""
    with serving(binary) as s:
        api = s.url + API
        name = fresh_name("lock")
        r = requests.post(f"{api}/signup", json={"user": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        for _ in range(5):
            status, _ = post_from("127.0.0.3", s.port, f"{API}/login",
                                  {"user": name, "password": "wrong password 123"})
            assert status == 401
        status, body = post_from("127.0.0.3", s.port, f"{API}/login",
                                 {"user": name, "password": PASSWORD})
        assert status == 429, body  # the guessing address is locked out, even with the password
        r = requests.post(f"{api}/login", json={"user": name, "password": PASSWORD})
        assert r.status_code == 200, r.text  # the user, elsewhere, is not


def test_password_hashes_in_flight_are_bounded(binary, tmp_path):
    """32 threads signing up at once, each hash 64 MiB, pushed /version to 3.6 s. With one
    hash at a time and the real (interactive) cost, a burst of sign-ups gets some 429s that say
    why, and no error of any other kind."""
    s = Server(binary, str(tmp_path / "data"),
               config={"max_concurrent_password_hashes": 1, "auth_attempts_per_minute": 1000})
    try:
        api = s.url + API

        def sign_up(i):
            return requests.post(f"{api}/signup", timeout=120,
                                 json={"user": fresh_name(f"burst{i}_"), "password": PASSWORD})

        with concurrent.futures.ThreadPoolExecutor(max_workers=24) as pool:
            answers = list(pool.map(sign_up, range(24)))
        statuses = sorted(r.status_code for r in answers)
        assert set(statuses) <= {201, 429}, statuses
        assert 201 in statuses
        busy = [r for r in answers if r.status_code == 429]
        assert busy, "24 sign-ups at the interactive cost all got a hash slot within 250 ms"
        for r in busy:
            assert "too many sign-ups and log-ins in progress" in r.json()["error"]["message"]
            assert r.headers["Retry-After"] == "1"
    finally:
        assert s.stop() == 0


def test_post_text_refuses_control_characters(binary):
    with serving(binary) as s:
        api = s.url + API
        session = requests.Session()
        r = session.post(f"{api}/signup", json={"user": fresh_name("ctl"), "password": PASSWORD})
        assert r.status_code == 201
        session.headers["X-Basalt-CSRF"] = "1"
        for text in ("nul\x00here", "\x1b[31mred"):
            r = session.post(f"{api}/posts", json={"text": text})
            assert r.status_code == 400, r.text
            assert "control characters" in r.json()["error"]["message"]
        r = session.post(f"{api}/posts", json={"text": "two\nlines\tand a tab"})
        assert r.status_code == 201, r.text
