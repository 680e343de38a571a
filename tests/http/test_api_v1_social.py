"""/api/v1 users, follow graph, posts, timelines, activity and clicks, through HTTP as the web UI
uses them (docs/api-v1.md)."""

import time

import requests

from conftest import assert_api_error, fresh_name, walk_pages


def test_profile_read_and_edit_only_ones_own(api, new_user):
    alice, bob = new_user(), new_user()
    r = requests.get(f"{api}/users/{alice.name}")
    assert r.status_code == 200, r.text
    assert r.json() == {"user": alice.name, "display_name": alice.name, "bio": "",
                        "following": 0, "followers": 0, "followed_by_me": False}
    r = alice.put(f"/users/{alice.name}", json={"display_name": "Alice A.", "bio": "hi\nthere"})
    assert r.status_code == 200, r.text
    assert r.json()["display_name"] == "Alice A." and r.json()["bio"] == "hi\nthere"
    # A field left out keeps its value.
    r = alice.put(f"/users/{alice.name}", json={"bio": "new"})
    assert r.json()["display_name"] == "Alice A." and r.json()["bio"] == "new"
    assert_api_error(bob.put(f"/users/{alice.name}", json={"bio": "hacked"}), 403, "forbidden")
    assert_api_error(requests.put(f"{api}/users/{alice.name}", json={"bio": "x"}), 401,
                     "unauthorized")
    assert requests.get(f"{api}/users/{alice.name}").json()["bio"] == "new"
    for body in ({"display_name": ""}, {"display_name": "x" * 65}, {"bio": "y" * 281},
                 {"bio": 5}, {"display_name": "a\x01b"}):
        assert_api_error(alice.put(f"/users/{alice.name}", json=body), 400, "bad_request")
    assert_api_error(requests.get(f"{api}/users/{fresh_name()}"), 404, "not_found")
    assert_api_error(requests.get(f"{api}/users/NotAName"), 400, "bad_request")


def test_follow_unfollow_and_counts(api, new_user):
    alice, bob, carol = new_user(), new_user(), new_user()
    assert alice.post(f"/users/{bob.name}/follow").status_code == 204
    assert alice.post(f"/users/{bob.name}/follow").status_code == 204  # idempotent
    assert carol.post(f"/users/{bob.name}/follow").status_code == 204
    bob_seen_by_alice = alice.get(f"/users/{bob.name}").json()
    assert bob_seen_by_alice["followers"] == 2 and bob_seen_by_alice["followed_by_me"] is True
    assert requests.get(f"{api}/users/{bob.name}").json()["followed_by_me"] is False
    assert alice.get(f"/users/{alice.name}").json()["following"] == 1
    assert alice.delete(f"/users/{bob.name}/follow").status_code == 204
    assert requests.get(f"{api}/users/{bob.name}").json()["followers"] == 1
    assert_api_error(alice.post(f"/users/{alice.name}/follow"), 400, "bad_request")
    assert_api_error(alice.post(f"/users/{fresh_name()}/follow"), 404, "not_found")
    assert_api_error(alice.delete(f"/users/{fresh_name()}/follow"), 404, "not_found")
    assert_api_error(requests.post(f"{api}/users/{bob.name}/follow"), 401, "unauthorized")


def test_following_and_followers_page_to_the_end(api, new_user):
    star = new_user()
    fans = [new_user() for _ in range(7)]
    for fan in fans:
        assert fan.post(f"/users/{star.name}/follow").status_code == 204
        assert fan.post(f"/users/{fans[0].name}/follow").status_code in (204, 400)
    items, pages = walk_pages(requests.get, f"{api}/users/{star.name}/followers", 3)
    assert sorted(items) == sorted(f.name for f in fans)
    assert [len(p) for p in pages][:2] == [3, 3]
    items, _ = walk_pages(requests.get, f"{api}/users/{fans[1].name}/following", 1)
    assert sorted(items) == sorted([star.name, fans[0].name])
    assert_api_error(requests.get(f"{api}/users/{fresh_name()}/followers"), 404, "not_found")
    for params in ({"limit": 0}, {"limit": 101}, {"limit": "x"}, {"cursor": "!!"},
                   {"cursor": "AAAA"}):
        r = requests.get(f"{api}/users/{star.name}/followers", params=params)
        assert_api_error(r, 400, "bad_request")


def test_people_are_found_by_name_prefix(api, new_user):
    stem = fresh_name("find")
    users = [new_user(f"{stem}_{suffix}") for suffix in ("a", "b", "c")]
    names = sorted(u.name for u in users)
    items, pages = walk_pages(requests.get, f"{api}/users?prefix={stem.upper()}", 2)
    assert items == names and len(pages) == 2  # any case; in name order; paged
    r = requests.get(f"{api}/users", params={"prefix": stem + "_b"})
    assert r.json() == {"items": [stem + "_b"], "next_cursor": None}
    r = requests.get(f"{api}/users", params={"prefix": "no-such-start!"})
    assert r.json() == {"items": [], "next_cursor": None}
    assert_api_error(requests.get(f"{api}/users", params={"limit": 0}), 400, "bad_request")


def test_suggestions_are_followees_of_followees_then_popular_accounts(api, new_user):
    me, friend1, friend2, target, other, star = (new_user() for _ in range(6))
    # target is followed by both of my followees, other by one.
    for friend in (friend1, friend2):
        assert me.post(f"/users/{friend.name}/follow").status_code == 204
        assert friend.post(f"/users/{target.name}/follow").status_code == 204
    assert friend1.post(f"/users/{other.name}/follow").status_code == 204
    assert friend1.post(f"/users/{me.name}/follow").status_code == 204  # never suggest myself
    r = me.get("/suggestions")
    assert r.status_code == 200, r.text
    items = r.json()["items"]
    assert items[:2] == [{"user": target.name, "followed_by_followees": 2},
                         {"user": other.name, "followed_by_followees": 1}]
    suggested = [i["user"] for i in items]
    assert me.name not in suggested
    assert friend1.name not in suggested and friend2.name not in suggested  # already followed
    # A new account follows nobody: it gets the most followed accounts.
    newcomer = new_user()
    for fan in (friend1, friend2, other):
        assert fan.post(f"/users/{star.name}/follow").status_code == 204
    r = newcomer.get("/suggestions", params={"limit": 100})
    assert r.status_code == 200
    popular = r.json()["items"]
    assert popular and all(i["followed_by_followees"] == 0 for i in popular)
    assert newcomer.name not in [i["user"] for i in popular]
    assert_api_error(requests.get(f"{api}/suggestions"), 401, "unauthorized")


def test_posts_create_read_delete_and_only_the_author_deletes(api, new_user):
    alice, bob = new_user(), new_user()
    r = alice.post("/posts", json={"text": "hello, world"})
    assert r.status_code == 201, r.text
    post = r.json()
    assert set(post) == {"id", "author", "timestamp_ms", "text"}
    assert post["author"] == alice.name and post["text"] == "hello, world"
    assert abs(post["timestamp_ms"] - time.time() * 1000) < 60_000
    assert requests.get(f"{api}/posts/{post['id']}").json() == post
    assert_api_error(bob.delete(f"/posts/{post['id']}"), 403, "forbidden")
    assert_api_error(requests.delete(f"{api}/posts/{post['id']}"), 401, "unauthorized")
    assert requests.get(f"{api}/posts/{post['id']}").status_code == 200
    assert alice.delete(f"/posts/{post['id']}").status_code == 204
    assert_api_error(requests.get(f"{api}/posts/{post['id']}"), 404, "not_found")
    assert_api_error(alice.delete(f"/posts/{post['id']}"), 404, "not_found")
    for body in ({"text": ""}, {"text": "x" * 1001}, {}, {"text": 3}):
        assert_api_error(alice.post("/posts", json=body), 400, "bad_request")
    assert_api_error(requests.get(f"{api}/posts/not*base64"), 400, "bad_request")
    assert_api_error(requests.get(f"{api}/posts/AAAA"), 400, "bad_request")


def test_post_text_is_counted_in_characters_and_blank_text_is_refused(api, new_user):
    alice = new_user()
    for text in ("", " ", "  \n\t ", "\u00a0\u3000", "\ufeff"):
        r = alice.post("/posts", json={"text": text})
        assert_api_error(r, 400, "bad_request")
        assert "white space" in r.json()["error"]["message"], r.text
    # 1000 characters are accepted whatever their width in bytes (up to 4000 bytes), 1001 are
    # not, and the error says the limit in characters.
    for ch in ("x", "\u00e9", "\U0001f600"):
        r = alice.post("/posts", json={"text": ch * 1000})
        assert r.status_code == 201, r.text[:200]
        assert r.json()["text"] == ch * 1000
        r = alice.post("/posts", json={"text": ch * 1001})
        assert_api_error(r, 400, "bad_request")
        assert "1000 characters" in r.json()["error"]["message"], r.text
    # The OpenAPI description states the same rules.
    schema = requests.get(f"{api}/openapi.json").json()["paths"]["/api/v1/posts"]["post"]
    text = schema["requestBody"]["content"]["application/json"]["schema"]["properties"]["text"]
    assert text["minLength"] == 1 and text["maxLength"] == 1000
    assert "characters" in text["description"] and "4000 bytes" in text["description"]


def test_user_posts_page_newest_first_to_the_end(api, new_user):
    alice = new_user()
    texts = [f"post {i}" for i in range(11)]
    for text in texts:
        assert alice.post("/posts", json={"text": text}).status_code == 201
    items, pages = walk_pages(requests.get, f"{api}/users/{alice.name}/posts", 4)
    assert [p["text"] for p in items] == list(reversed(texts))
    assert [len(p) for p in pages][:3] == [4, 4, 3]
    assert_api_error(requests.get(f"{api}/users/{fresh_name()}/posts"), 404, "not_found")


def test_home_timeline_gets_followed_posts_after_fanout(api, new_user):
    alice, bob = new_user(), new_user()
    assert alice.post(f"/users/{bob.name}/follow").status_code == 204
    texts = [f"bob says {i}" for i in range(5)]
    for text in texts:
        assert bob.post("/posts", json={"text": text}).status_code == 201
    deadline = time.time() + 20
    while True:
        items, _ = walk_pages(alice.get, "/timeline", 2)
        if len(items) == len(texts) or time.time() > deadline:
            break
        time.sleep(0.05)
    assert [p["text"] for p in items] == list(reversed(texts))
    assert all(p["author"] == bob.name for p in items)
    assert_api_error(requests.get(f"{api}/timeline"), 401, "unauthorized")
    # Unfollowing drops bob's posts from alice's timeline at once.
    assert alice.delete(f"/users/{bob.name}/follow").status_code == 204
    assert alice.get("/timeline").json() == {"items": [], "next_cursor": None}


def test_home_timeline_holds_ones_own_posts_at_once(new_user):
    alice, bob = new_user(), new_user()
    assert alice.post(f"/users/{bob.name}/follow").status_code == 204
    mine = alice.post("/posts", json={"text": "my own"}).json()
    # At once: one's own posts are merged when the timeline is read, not fanned out.
    assert alice.get("/timeline").json() == {"items": [mine], "next_cursor": None}
    assert bob.get("/timeline").json() == {"items": [], "next_cursor": None}
    assert alice.delete(f"/posts/{mine['id']}").status_code == 204
    assert alice.get("/timeline").json() == {"items": [], "next_cursor": None}


def test_activity_is_recorded_and_read_only_by_its_user(api, new_user):
    alice, bob = new_user(), new_user()
    r = alice.post("/activity", json={"name": "login", "payload": '{"ip":"x"}'})
    assert r.status_code == 201, r.text
    event = r.json()
    assert set(event) == {"user", "time_ms", "seq", "name", "payload"}
    assert event["user"] == alice.name and event["seq"] >= 1
    for i in range(6):
        assert alice.post("/activity", json={"name": f"view{i}"}).status_code == 201
    items, _ = walk_pages(alice.get, f"/users/{alice.name}/activity", 4)
    assert [e["name"] for e in items] == [f"view{i}" for i in reversed(range(6))] + ["login"]
    assert items[-1] == event
    assert items[0]["payload"] == ""
    assert_api_error(bob.get(f"/users/{alice.name}/activity"), 403, "forbidden")
    assert_api_error(requests.get(f"{api}/users/{alice.name}/activity"), 401, "unauthorized")
    for body in ({}, {"name": ""}, {"name": "a\nb"}, {"name": "x", "payload": 1},
                 {"name": "x", "payload": "p" * 4097}):
        assert_api_error(alice.post("/activity", json=body), 400, "bad_request")


def test_clicks_counts_series_and_top(api, new_user):
    user = new_user()
    item = f"item-{fresh_name()}"
    other = f"item-{fresh_name()}"
    assert user.post(f"/clicks/{item}").status_code == 204
    assert user.post(f"/clicks/{item}", json={"n": 4}).status_code == 204
    assert user.post(f"/clicks/{other}", json={"n": 2}).status_code == 204
    assert_api_error(requests.post(f"{api}/clicks/{item}"), 401, "unauthorized")
    r = requests.get(f"{api}/clicks/{item}")
    assert r.status_code == 200, r.text
    counts = r.json()
    assert counts["item"] == item and counts["total"] == 5 and counts["count"] == 5
    assert counts["to_ms"] - counts["from_ms"] == 3_600_000
    assert "week" in counts
    now = int(time.time() * 1000)
    r = requests.get(f"{api}/clicks/{item}/series",
                     params={"from_ms": now - 600_000, "to_ms": now + 60_000, "step_ms": 60_000})
    assert r.status_code == 200, r.text
    series = r.json()
    assert series["item"] == item and len(series["points"]) == 11
    assert sum(p["count"] for p in series["points"]) == 5
    r = requests.get(f"{api}/clicks/top", params={"k": 100, "to_ms": now + 60_000})
    top = {e["item"]: e["count"] for e in r.json()["items"]}
    assert top[item] == 5 and top[other] == 2
    r = requests.get(f"{api}/clicks/top", params={"k": 1, "to_ms": now + 60_000})
    assert len(r.json()["items"]) == 1
    # Items are percent-decoded path segments.
    assert user.post("/clicks/caf%C3%A9%20au%20lait").status_code == 204
    assert requests.get(f"{api}/clicks/caf%C3%A9%20au%20lait").json()["item"] == "café au lait"
    for params in ({"from_ms": 10, "to_ms": 5}, {"from_ms": -1}, {"to_ms": "soon"}):
        assert_api_error(requests.get(f"{api}/clicks/{item}", params=params), 400, "bad_request")
    assert_api_error(requests.get(f"{api}/clicks/{item}/series",
                                  params={"from_ms": 0, "to_ms": now, "step_ms": 60_000}),
                     400, "bad_request")
    assert_api_error(requests.get(f"{api}/clicks/top", params={"k": 0}), 400, "bad_request")
    for body in ({"n": 0}, {"n": "1"}, {"n": 1.5}, {"n": 10**7}):
        assert_api_error(user.post(f"/clicks/{item}", json=body), 400, "bad_request")
    assert_api_error(user.post("/clicks/%0A"), 400, "bad_request")
    assert requests.get(f"{api}/clicks/{item}").json()["total"] == 5


def test_everything_survives_a_restart_and_sessions_stay_valid(binary):
    import os
    import tempfile

    from conftest import API, FAST_HASH, ApiUser, Server
    with tempfile.TemporaryDirectory(prefix="basalt-api-restart-") as tmp:
        data = os.path.join(tmp, "data")
        s = Server(binary, data, extra_args=[FAST_HASH])
        api = s.url + API
        alice, bob = ApiUser(api), ApiUser(api)
        assert bob.post(f"/users/{alice.name}/follow").status_code == 204
        posted = [alice.post("/posts", json={"text": f"t{i}"}).json() for i in range(20)]
        # SIGTERM right away: fan-out jobs not yet run are drained, or stay queued for the
        # next start.
        assert s.stop() == 0
        s = Server(binary, data, extra_args=[FAST_HASH])
        try:
            api = s.url + API
            headers = {"Authorization": f"Bearer {bob.token}"}
            deadline = time.time() + 20
            while True:
                r = requests.get(f"{api}/timeline", params={"limit": 100}, headers=headers)
                assert r.status_code == 200, r.text
                if len(r.json()["items"]) == len(posted) or time.time() > deadline:
                    break
                time.sleep(0.05)
            assert [p["id"] for p in r.json()["items"]] == [p["id"] for p in reversed(posted)]
            assert requests.get(f"{api}/users/{alice.name}").json()["followers"] == 1
        finally:
            assert s.stop() == 0
