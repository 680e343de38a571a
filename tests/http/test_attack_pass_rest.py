"""The REST side of the attack pass on `basalt serve` (docs/security.md, "Resource caps" and
"REST scanners"), each tried as the attacker did: a multi-get naming one large row many times,
another client's (or the admin's) scanner read by its id under any table, scanners taken by a
handful of addresses, and idle scanners holding their places."""

import http.client
import json
import re
import time

import requests

from conftest import API, ApiUser, serving, unb64

TOKEN = "attack-pass-admin-token"
JSON = {"Accept": "application/json"}
WITH_TOKEN = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json"}
MIB = 1 << 20


def rss_kib(proc, field="VmRSS"):
    """The server process's resident set (or its peak, VmHWM), KiB."""
    with open(f"/proc/{proc.pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise AssertionError(f"no {field} in /proc/{proc.pid}/status")


def create_table(url, name, headers=None):
    r = requests.put(f"{url}/{name}/schema", headers=headers,
                     json={"name": name, "ColumnSchema": [{"name": "f"}]})
    assert r.status_code == 201, r.text


def put_raw(url, table, row, value, headers=None):
    h = {"Content-Type": "application/octet-stream", **(headers or {})}
    r = requests.put(f"{url}/{table}/{row}/f:q", data=value, headers=h)
    assert r.status_code == 200, r.text


class Client:
    """A keep-alive HTTP connection from the local address `source` (all of 127.0.0.0/8 is
    loopback, so each address is a client of its own to the server)."""

    def __init__(self, port, source="127.0.0.1"):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                               source_address=(source, 0))

    def request(self, method, path, body=None, headers=None):
        """(status, headers, body bytes)."""
        h = {"Accept": "application/json", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body)
            h["Content-Type"] = "application/json"
        self.conn.request(method, path, body=data, headers=h)
        r = self.conn.getresponse()
        return r.status, dict(r.getheaders()), r.read()

    def open_scanner(self, table, headers=None):
        """(status, the scanner's path or the error text)."""
        status, headers, body = self.request("POST", f"/{table}/scanner", {"batch": 10}, headers)
        if status == 201:
            return status, "/" + headers["Location"].split("/", 3)[3]
        return status, body.decode()

    def close(self):
        self.conn.close()


def scanner_id(path):
    return path.rsplit("/", 1)[1]


# ---- Multi-row reads are bounded in bytes ----

def test_a_multiget_naming_one_large_row_many_times_is_refused_before_it_is_built(binary):
    """A multi-get built every row it named before answering, as often as it was named: one
    10 MiB cell named 200 times drove the server past 3 GiB until the kernel killed it."""
    with serving(binary, config={"max_body": 16 * MIB}) as s:
        create_table(s.url, "big")
        put_raw(s.url, "big", "r", b"x" * (6 * MIB))
        put_raw(s.url, "big", "small", b"s")
        before = rss_kib(s.proc)
        r = requests.get(f"{s.url}/big/multiget?" + "&".join(["row=r"] * 200), headers=JSON)
        assert r.status_code == 400, (r.status_code, r.text[:200])
        assert "take more than 16 MiB" in r.text and "a row named N times counts N times" in r.text
        grown_mib = (rss_kib(s.proc, "VmHWM") - before) / 1024
        print(f"peak RSS growth of the refused multi-get: {grown_mib:.0f} MiB")
        assert grown_mib < 200, grown_mib
        assert s.proc.poll() is None
        # Within the cap, every row named is answered in order, as often as named (as HBase's
        # MultiRowResource answers), and rows that are not there are left out.
        r = requests.get(f"{s.url}/big/multiget?row=small&row=r&row=none&row=small", headers=JSON)
        assert r.status_code == 200, r.text[:200]
        rows = [(unb64(row["key"]), len(unb64(row["Cell"][0]["$"]))) for row in r.json()["Row"]]
        assert rows == [(b"small", 1), (b"r", 6 * MIB), (b"small", 1)]
        # Two 6 MiB answers fit; three do not.
        assert requests.get(f"{s.url}/big/multiget?row=r&row=r", headers=JSON).status_code == 200
        r = requests.get(f"{s.url}/big/multiget?row=r&row=r&row=r", headers=JSON)
        assert r.status_code == 400, r.text[:200]


def test_a_scanner_chunk_holds_at_most_the_result_cap(binary):
    """A chunk was bounded by cells only: batch=100 over 1 MiB cells built 100 MiB answers."""
    with serving(binary, config={"max_body": 4 * MIB}) as s:
        create_table(s.url, "wide")
        for i in range(17):
            put_raw(s.url, "wide", f"r{i:02d}", bytes([65 + i]) * MIB)
        c = Client(s.port)
        status, headers, body = c.request("POST", "/wide/scanner", {"batch": 100})
        assert status == 201
        path = "/" + headers["Location"].split("/", 3)[3]
        chunks = []
        while True:
            status, _, body = c.request("GET", path)
            if status == 204:
                break
            assert status == 200, body[:200]
            chunks.append([unb64(row["key"]) for row in json.loads(body)["Row"]])
        c.close()
        assert len(chunks) == 2 and len(chunks[0]) == 15, [len(ch) for ch in chunks]
        assert [k for ch in chunks for k in ch] == [f"r{i:02d}".encode() for i in range(17)]


# ---- Scanners belong to their table and to who opened them ----

def test_a_scanner_is_read_only_by_who_opened_it_and_only_on_its_table(binary):
    """A scanner the admin opened on app:social_users was read without credentials as
    /any_table/scanner/{id}, password hashes and all; ids were a counter and 48 bits of a
    Mersenne Twister."""
    with serving(binary, "--admin-token", TOKEN) as s:
        user = ApiUser(s.url + API)
        create_table(s.url, "other", headers=WITH_TOKEN)
        admin = Client(s.port)
        status, admins = admin.open_scanner("app:social_users", WITH_TOKEN)
        assert status == 201, admins
        sid = scanner_id(admins)
        unknown = Client(s.port).request("GET", "/other/scanner/" + "0" * 32)
        assert unknown[0] == 404

        # Anyone else, under any table, finds no such scanner: the unknown id's answer.
        for source in ("127.0.0.1", "127.0.0.2"):
            anyone = Client(s.port, source)
            for path in (f"/other/scanner/{sid}", f"/default:other/scanner/{sid}",
                         f"/nosuchtable/scanner/{sid}"):
                for method in ("GET", "DELETE"):
                    status, _, body = anyone.request(method, path)
                    assert (status, body) == (unknown[0], unknown[2]), (method, path, status, body)
            status, _, body = anyone.request("GET", f"/app:social_users/scanner/{sid}")
            assert status == 403, body  # the reserved namespace, before any scanner is looked at
            anyone.close()
        assert re.fullmatch(r"[0-9a-f]{32}", sid), sid  # 128 bits
        # The token does not open it under another table either.
        status, _, _ = admin.request("GET", f"/other/scanner/{sid}", headers=WITH_TOKEN)
        assert status == 404
        # Its owner reads it, on its table, and it was never closed by the attempts above.
        status, _, body = admin.request("GET", admins, headers=WITH_TOKEN)
        assert status == 200, body[:200]
        hashes = [unb64(c["$"]) for row in json.loads(body)["Row"] for c in row["Cell"]
                  if unb64(row["key"]) == user.name.encode() and unb64(c["column"]) == b"a:pw"]
        assert hashes and hashes[0].startswith(b"$argon2id$")
        assert admin.request("DELETE", admins, headers=WITH_TOKEN)[0] == 200

        # An anonymous scanner is its address's.
        mine = Client(s.port, "127.0.0.2")
        status, path = mine.open_scanner("other")
        assert status == 201, path
        assert re.fullmatch(r"[0-9a-f]{32}", scanner_id(path))
        thief = Client(s.port, "127.0.0.3")
        assert thief.request("GET", path)[0] == 404
        assert thief.request("DELETE", path)[0] == 404
        assert mine.request("GET", path)[0] == 204  # the table is empty: exhausted, not unknown
        assert mine.request("DELETE", path)[0] == 200
        for c in (admin, mine, thief):
            c.close()

        ids = set()
        c = Client(s.port)
        for _ in range(20):
            status, path = c.open_scanner("other")
            assert status == 201
            ids.add(scanner_id(path))
            assert c.request("DELETE", path)[0] == 200
        c.close()
        assert len(ids) == 20


# ---- Scanner caps: shares, the admin's reserve, idle expiry ----

def fill_scanners(port, source, table, limit):
    """Opens scanners from `source` until refused; (how many were opened, the refusal)."""
    c = Client(port, source)
    try:
        for n in range(limit + 1):
            status, text = c.open_scanner(table)
            if status != 201:
                assert status == 503, (status, text)
                return n, text
        raise AssertionError(f"{source} opened more than {limit} scanners")
    finally:
        c.close()


def test_a_handful_of_addresses_cannot_take_every_rest_scanner(binary):
    """Ten addresses, 1,000 scanners each, took all 10,000: every client, the admin included,
    got 503 "too many open scanners" until the scanners expired an hour later. (The default
    caps.)"""
    with serving(binary, "--admin-token", TOKEN) as s:
        create_table(s.url, "scanned", headers=WITH_TOKEN)
        for i in range(2, 12):
            opened, refusal = fill_scanners(s.port, f"127.0.0.{i}", "scanned", 1000)
            assert opened == 100, (i, opened, refusal)
            assert f"too many open scanners for client 127.0.0.{i} (at most 100 per client)" in \
                refusal, refusal
        # Another address, and the admin, still get scanners.
        assert Client(s.port, "127.0.0.12").open_scanner("scanned")[0] == 201
        assert Client(s.port, "127.0.0.12").open_scanner("scanned", WITH_TOKEN)[0] == 201


def test_the_admin_token_is_never_locked_out_of_scanners(binary):
    """With every place taken by anonymous clients the admin got 503 too."""
    with serving(binary, "--admin-token", TOKEN,
                 config={"max_scanners": 20, "max_scanners_per_client": 20}) as s:
        create_table(s.url, "scanned", headers=WITH_TOKEN)
        opened, refusal = fill_scanners(s.port, "127.0.0.2", "scanned", 20)
        assert opened == 18, refusal
        assert "too many open scanners on this server (at most 20, 2 of them kept for the " \
               "admin token)" in refusal, refusal
        assert Client(s.port, "127.0.0.3").open_scanner("scanned")[0] == 503
        admin = Client(s.port, "127.0.0.2")
        for _ in range(2):
            status, path = admin.open_scanner("scanned", WITH_TOKEN)
            assert status == 201, path
        status, text = admin.open_scanner("scanned", WITH_TOKEN)
        assert status == 503 and "on this server (at most 20)" in text, text
        admin.close()


def test_an_idle_rest_scanner_expires_and_frees_its_place(binary):
    with serving(binary, config={"scanner_ttl_seconds": 1, "max_scanners_per_client": 2}) as s:
        create_table(s.url, "scanned")
        c = Client(s.port, "127.0.0.2")
        paths = []
        for _ in range(2):
            status, path = c.open_scanner("scanned")
            assert status == 201, path
            paths.append(path)
        assert c.open_scanner("scanned")[0] == 503
        # Used, a scanner stays: each read refreshes its idle clock.
        for _ in range(4):
            time.sleep(0.5)
            assert c.request("GET", paths[0])[0] == 204
        # Left idle, the other is dropped (the server sweeps every second) and its place freed.
        deadline = time.monotonic() + 10
        while (status := c.open_scanner("scanned")[0]) != 201:
            assert status == 503
            assert time.monotonic() < deadline, "an idle scanner kept its place"
            time.sleep(0.2)
        assert c.request("GET", paths[1])[0] == 404
        c.close()
