"""/api/v1 distinct visitors and approximate top items of the click counters, through a real
`basalt serve` (docs/api-v1.md, "Clicks")."""

import time

import requests

from conftest import assert_api_error, fresh_name

HOUR_MS = 3_600_000


def test_distinct_visitors_are_the_users_who_clicked(api, new_user):
    alice, bob, carol = new_user(), new_user(), new_user()
    item = f"item-{fresh_name()}"
    alone = f"item-{fresh_name()}"
    for user, n in ((alice, 1), (alice, 3), (bob, 2), (carol, 1), (bob, 1)):
        assert user.post(f"/clicks/{item}", json={"n": n}).status_code == 204
    assert alice.post(f"/clicks/{alone}", json={"n": 7}).status_code == 204
    r = requests.get(f"{api}/clicks/{item}/visitors")
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body) == {"item", "visitors", "from_ms", "to_ms", "relative_standard_error"}
    assert body["item"] == item and body["visitors"] == 3
    assert abs(body["relative_standard_error"] - 1.04 / 64) < 1e-12
    # The default window is the last hour, read as the whole hours it overlaps.
    now = int(time.time() * 1000)
    assert body["from_ms"] % HOUR_MS == 0 and body["to_ms"] % HOUR_MS == 0
    assert body["from_ms"] <= now - HOUR_MS + 60_000 and body["to_ms"] >= now
    assert body["to_ms"] - body["from_ms"] in (HOUR_MS, 2 * HOUR_MS)
    assert requests.get(f"{api}/clicks/{alone}/visitors").json()["visitors"] == 1
    assert requests.get(f"{api}/clicks/{fresh_name()}/visitors").json()["visitors"] == 0
    # An hour with no clicks has no visitors.
    r = requests.get(f"{api}/clicks/{item}/visitors",
                     params={"from_ms": now - 30 * HOUR_MS, "to_ms": now - 28 * HOUR_MS})
    assert r.json()["visitors"] == 0
    # Windows over 7 days, bad windows and bad items are 400s.
    for params in ({"from_ms": now - 7 * 24 * HOUR_MS - 1, "to_ms": now},
                   {"from_ms": 10, "to_ms": 5}, {"to_ms": "soon"}):
        assert_api_error(requests.get(f"{api}/clicks/{item}/visitors", params=params), 400,
                         "bad_request")
    assert requests.get(f"{api}/clicks/{item}/visitors",
                        params={"from_ms": now - 7 * 24 * HOUR_MS, "to_ms": now}).status_code == 200
    assert_api_error(requests.get(f"{api}/clicks/%0A/visitors"), 400, "bad_request")


def test_approximate_top_items_bound_the_true_counts(api, new_user):
    user = new_user()
    big, mid, small = (f"item-{fresh_name()}" for _ in range(3))
    for item, n in ((big, 900_000), (big, 100_000), (mid, 600_000), (small, 3)):
        assert user.post(f"/clicks/{item}", json={"n": n}).status_code == 204
    now = int(time.time() * 1000)
    r = requests.get(f"{api}/clicks/top/approx", params={"k": 100, "to_ms": now + 60_000})
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body) == {"items", "clicks", "error_bound", "from_ms", "to_ms"}
    assert body["clicks"] >= 1_600_003
    assert body["error_bound"] >= 1
    counts = {e["item"]: e["count"] for e in body["items"]}
    for item, truth in ((big, 1_000_000), (mid, 600_000)):
        assert truth <= counts[item] <= truth + body["error_bound"], (item, counts[item], body)
    order = [e["item"] for e in body["items"]]
    assert order.index(big) < order.index(mid)
    r = requests.get(f"{api}/clicks/top/approx", params={"k": 1, "to_ms": now + 60_000})
    assert len(r.json()["items"]) == 1
    # The exact top-K agrees on the items this test clicked most.
    exact = {e["item"]: e["count"] for e in
             requests.get(f"{api}/clicks/top", params={"k": 100, "to_ms": now + 60_000})
             .json()["items"]}
    assert exact[big] == 1_000_000 and exact[mid] == 600_000
    for params in ({"k": 0}, {"k": 101}, {"k": "x"}, {"from_ms": 0, "to_ms": now}):
        assert_api_error(requests.get(f"{api}/clicks/top/approx", params=params), 400,
                         "bad_request")
