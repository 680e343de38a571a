"""`basalt serve --demo`: the demo data set is loaded on the store's first start only, and is
then reachable through REST with the admin token (the app's namespace is reserved)."""

import base64
import os
import tempfile
import time

import pytest
import requests

from conftest import Server, b64, rows_of

TOKEN = "demo-admin-token"
ADMIN = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json"}
# A small demo (4 users, 40 posts, 400 actions, 400 clicks) keeps the test quick. The token lets
# the test read the app's tables through REST.
DEMO = ["--demo", "--demo-scale", "0.02", "--admin-token", TOKEN]


@pytest.fixture
def data_dir():
    with tempfile.TemporaryDirectory(prefix="basalt-demo-") as tmp:
        yield os.path.join(tmp, "data")


def get_row(url, table, row):
    r = requests.get(f"{url}/{table}/{row}", headers=ADMIN)
    assert r.status_code == 200, (table, row, r.status_code, r.text)
    return {c: v for c, v, _ in rows_of(r.json())[row.encode()]}


def count_rows(url, table, start_row=None, end_row=None):
    spec = {"batch": 100000}
    if start_row is not None:
        spec["startRow"] = base64.b64encode(start_row).decode()
    if end_row is not None:
        spec["endRow"] = base64.b64encode(end_row).decode()
    r = requests.post(f"{url}/{table}/scanner", json=spec, headers=ADMIN)
    assert r.status_code == 201, r.text
    rows = set()
    for _ in range(1000):
        chunk = requests.get(r.headers["Location"], headers=ADMIN)
        if chunk.status_code == 204:
            return len(rows)
        assert chunk.status_code == 200, chunk.text
        rows.update(rows_of(chunk.json()))
    raise AssertionError("scanner never ended")


def stop(server):
    assert server.stop() == 0
    return server.proc.stderr.read()


def test_demo_is_loaded_on_first_start_only(binary, data_dir):
    s = Server(binary, data_dir, extra_args=DEMO)
    try:
        # Demo rows through REST: a user's profile, a post, the completion marker.
        user = get_row(s.url, "app:social_users", "user0001")
        assert user[b"p:name"] == b"Demo user 1"
        posts = count_rows(s.url, "app:feed_posts")
        assert posts >= 40  # posts, plus any fan-out job rows left
        marker = get_row(s.url, "app:basalt_demo", "loaded")
        assert b"4 users" in marker[b"d:summary"]
        # Demo clicks are by demo users: the most clicked item of the past week has visitors.
        now = int(time.time() * 1000)
        r = requests.get(f"{s.url}/api/v1/clicks/item1/visitors",
                         params={"from_ms": now - 7 * 24 * 3_600_000 + 60_000, "to_ms": now})
        assert r.status_code == 200, r.text
        assert 1 <= r.json()["visitors"] <= 4
        loaded_at = marker[b"d:at"]
    finally:
        err = stop(s)
    assert "basalt serve: demo data loaded: 4 users" in err

    s = Server(binary, data_dir, extra_args=DEMO)
    try:
        assert get_row(s.url, "app:basalt_demo", "loaded")[b"d:at"] == loaded_at
        assert count_rows(s.url, "app:feed_posts") == posts
    finally:
        err = stop(s)
    assert "basalt serve: demo data skipped: the demo data set was loaded before" in err


def test_a_store_with_users_is_not_loaded_into(binary, data_dir):
    # A user signs up through /api/v1 on a server started without --demo.
    s = Server(binary, data_dir, extra_args=["--insecure-fast-password-hash"])
    try:
        r = requests.post(f"{s.url}/api/v1/signup",
                          json={"user": "alice", "password": "correct-horse-77"})
        assert r.status_code == 201, r.text
    finally:
        stop(s)
    s = Server(binary, data_dir, extra_args=DEMO)
    try:
        assert count_rows(s.url, "app:social_users") == 2  # alice and the table's meta row
        # No post rows (the feed's rows of kind 1; the table also holds its meta row).
        assert count_rows(s.url, "app:feed_posts", b"\x01", b"\x02") == 0
    finally:
        err = stop(s)
    assert "demo data skipped: app:social_users holds users already" in err


def test_the_demo_tables_live_in_the_app_namespace(binary, data_dir):
    s = Server(binary, data_dir, extra_args=DEMO)
    try:
        r = requests.get(f"{s.url}/namespaces/app/tables", headers=ADMIN)
        assert r.status_code == 200, r.text
        assert "social_users" in r.text and "feed_posts" in r.text
        r = requests.get(f"{s.url}/namespaces/default/tables",
                         headers={"Accept": "application/json"})
        assert "social_users" not in r.text
    finally:
        stop(s)


def test_bad_demo_scale_fails_before_serving(binary, data_dir):
    with pytest.raises(RuntimeError, match="demo scale"):
        Server(binary, data_dir, extra_args=["--demo", "--demo-scale", "0"])


def test_every_demo_user_has_followees_and_posts_read_like_posts(binary, data_dir):
    """A demo log-in used to land on an empty feed (28 of 200 users followed nobody), and the
    posts were random words stamped within one second."""
    s = Server(binary, data_dir, extra_args=["--demo", "--demo-scale", "0.05"])
    try:
        api = s.url + "/api/v1"
        for i in range(1, 11):
            profile = requests.get(f"{api}/users/user{i:04d}").json()
            assert profile["following"] >= 3, profile
        session = requests.Session()
        r = session.post(f"{api}/login",
                         json={"user": "user0002", "password": "basalt-demo-password"})
        assert r.status_code == 200, r.text
        home = session.get(f"{api}/timeline", params={"limit": 100}).json()["items"]
        assert home, "a demo user's home timeline is empty"
        posts = requests.get(f"{api}/users/user0001/posts", params={"limit": 100}).json()["items"]
        times = [p["timestamp_ms"] for p in posts + home]
        assert max(times) - min(times) > 24 * 3600 * 1000, "posts are not spread over days"
        for post in posts + home:
            assert " " in post["text"] and post["text"][-1] in ".?", post["text"]
    finally:
        stop(s)
