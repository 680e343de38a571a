"""Request bodies against a real `basalt serve`: the server-wide request memory budget, requests
refused from their header before their body is read, and bodies that decode into more memory
than they weigh on the wire.

Memory is measured as the server's resident set (/proc/PID/status): VmRSS for what is held while
uploads stall, VmHWM (the peak) for what one request costs while it is decoded. The bounds are
generous; the attacks they stop cost several times more.
"""

import os
import select
import socket
import tempfile
import time

import pytest
import requests

from conftest import Server, b64

# Rows are read as JSON: a wildcard Accept (requests' */*) gets raw cells, as from HBase.
JSON = {"Accept": "application/json"}

MiB = 1 << 20
BUDGET = 64 * MiB
MAX_BODY = 8 * MiB
TOKEN = "bodies-admin-token"
AUTH = b"Authorization: Bearer %s\r\n" % TOKEN.encode()


def status_kb(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise AssertionError(f"no {key}")


def rss_mib(pid):
    return status_kb(pid, "VmRSS") / 1024


def peak_mib(pid):
    return status_kb(pid, "VmHWM") / 1024


def reset_peak(pid):
    """Starts VmHWM again from the current VmRSS (proc(5), clear_refs)."""
    with open(f"/proc/{pid}/clear_refs", "w") as f:
        f.write("5")


def connect(port):
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def upload_header(path, length=None, chunked=False, extra=b"", host=b"localhost"):
    head = (b"PUT " + path.encode() + b" HTTP/1.1\r\nHost: " + host + b"\r\n"
            b"Content-Type: application/octet-stream\r\n" + extra)
    if chunked:
        head += b"Transfer-Encoding: chunked\r\n"
    else:
        head += b"Content-Length: %d\r\n" % length
    return head + b"\r\n"


def send_quietly(sock, data):
    """Sends `data`; False when the server has closed the connection meanwhile."""
    try:
        sock.sendall(data)
        return True
    except (BrokenPipeError, ConnectionResetError):
        return False


def read_answer(sock, timeout):
    """(status, headers text, closed) of the response on `sock`, or (None, "", closed) if none
    came within `timeout`."""
    sock.settimeout(timeout)
    data = b""
    closed = False
    try:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                closed = True
                break
            data += chunk
    except socket.timeout:
        pass
    except ConnectionResetError:
        closed = True
    if not data.startswith(b"HTTP/"):
        return None, "", closed
    head = data.split(b"\r\n\r\n")[0].decode("latin-1")
    return int(head.split(" ")[1]), head.lower(), closed or "connection: close" in head.lower()


def answered(socks, wait):
    """The sockets of `socks` that have something to read (a response, or the end) within
    `wait` seconds of the last one that did."""
    ready = set()
    pending = list(socks)
    while pending:
        readable, _, _ = select.select(pending, [], [], wait)
        if not readable:
            break
        ready.update(readable)
        pending = [s for s in pending if s not in ready]
    return ready


def small_put(url, row="probe"):
    return requests.put(f"{url}/u/{row}", data=b"v", timeout=10,
                        headers={"Content-Type": "application/octet-stream", "X-Column": "cf:a",
                                 "Authorization": f"Bearer {TOKEN}"})


def wait_for(predicate, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return predicate()


@pytest.fixture
def budget_server(binary):
    with tempfile.TemporaryDirectory(prefix="basalt-bodies-") as tmp:
        s = Server(binary, os.path.join(tmp, "data"), config={
            "request_memory_budget": BUDGET, "max_body": MAX_BODY, "admin_token": TOKEN,
            "read_timeout_seconds": 120, "idle_timeout_seconds": 120, "thrift": False,
            "thrift1": False})
        r = requests.put(f"{s.url}/u/schema", json={"ColumnSchema": [{"name": "cf"}]},
                         headers={"Authorization": f"Bearer {TOKEN}"})
        assert r.status_code == 201, r.text
        yield s
        assert s.stop(timeout=60) == 0


def test_stalled_uploads_hold_no_more_than_the_memory_budget(budget_server):
    """300 uploads declare 8 MiB bodies, send half and stall: without a budget each held its
    body for the read timeout (300 x 4 MiB here; max_connections x max_body at worst). The
    budget takes 8 of them; the others get 503 before their body is read, a new client is
    served, and the budget comes back when the uploads go."""
    s = budget_server
    pid = s.proc.pid
    base = rss_mib(pid)
    socks = []
    try:
        for i in range(300):
            sock = connect(s.port)
            socks.append(sock)
            if send_quietly(sock, upload_header(f"/u/stalled{i}", MAX_BODY, extra=AUTH)):
                send_quietly(sock, b"x" * (MAX_BODY // 2))
        held = rss_mib(pid) - base
        refused = answered(socks, 1.0)
        statuses = [read_answer(sock, 1)[0] for sock in refused]
        assert set(statuses) == {503}, statuses
        assert len(socks) - len(refused) == BUDGET // MAX_BODY, len(refused)
        # Half of each of the 8 bodies taken, and nothing of the refused ones.
        assert held < BUDGET + 64, (base, held)
        # A request without a body needs none of the budget; one with a body waits its turn.
        assert requests.get(f"{s.url}/version/cluster", timeout=10).status_code == 200
        r = small_put(s.url)
        assert r.status_code == 503 and r.headers["Retry-After"] == "1", r.text
        assert "request_memory_budget" in r.text
    finally:
        for sock in socks:
            sock.close()
    assert wait_for(lambda: small_put(s.url).status_code == 200, 20)


def test_chunked_uploads_are_counted_as_their_chunks_arrive(budget_server):
    """Chunked bodies have no length to refuse them by: each chunk is counted as it comes, and
    the one that would go past the budget gets 503. 100 uploads of 4 MiB in 64 KiB chunks
    would hold 400 MiB or more."""
    s = budget_server
    pid = s.proc.pid
    chunk = b"%x\r\n" % (64 * 1024) + b"x" * (64 * 1024) + b"\r\n"
    base = rss_mib(pid)
    socks = []
    try:
        for i in range(100):
            sock = connect(s.port)
            socks.append(sock)
            if send_quietly(sock, upload_header(f"/u/chunked{i}", chunked=True, extra=AUTH)):
                send_quietly(sock, chunk * 64)
        held = rss_mib(pid) - base
        refused = answered(socks, 1.0)
        statuses = [read_answer(sock, 1)[0] for sock in refused]
        assert set(statuses) == {503}, statuses
        # 4 MiB each (the body's string grows by doubling, to exactly 4 MiB here).
        assert len(socks) - len(refused) == BUDGET // (4 * MiB), len(refused)
        assert held < BUDGET + 64, (base, held)
        assert requests.get(f"{s.url}/version/cluster", timeout=10).status_code == 200
    finally:
        for sock in socks:
            sock.close()
    assert wait_for(lambda: small_put(s.url).status_code == 200, 20)


@pytest.mark.parametrize("path, extra, host, status", [
    ("/u/row", b"", b"localhost", 401),  # a write without the admin token
    ("/u/row", b"Authorization: Bearer wrong\r\n", b"localhost", 401),
    ("/u/schema", b"", b"localhost", 401),
    ("/u/row", AUTH, b"evil.example", 403),  # a DNS-rebinding page's name
    ("/u/row", AUTH + b"Origin: http://evil.example\r\n", b"localhost", 403),
    ("/u/row?x=%zz", AUTH, b"localhost", 400),
    ("/a/b/c/d/e/f/g", AUTH, b"localhost", 404),
    ("/version", b"", b"localhost", 405),
    ("/api/v1/no-such-route", b"", b"localhost", 404),
])
def test_a_request_refused_by_its_header_is_answered_before_its_body(budget_server, path,
                                                                      extra, host, status):
    """The route, the method, the admin token, Host, Origin and the query string are all in the
    header: a request they refuse is answered at once, without waiting for (or holding) its
    declared 8 MiB body, and its connection closes (the body is unread)."""
    raw = upload_header(path, MAX_BODY, extra=extra, host=host)
    with connect(budget_server.port) as sock:
        sock.sendall(raw)
        got, head, closed = read_answer(sock, 5)
    assert got == status and closed, (got, head)


def test_fifty_uploads_without_the_token_are_refused_without_their_bodies(budget_server):
    """With a token, 50 bodies to a route that answers 401 were still read first: 400 MiB."""
    s = budget_server
    pid = s.proc.pid
    base = rss_mib(pid)
    socks = [connect(s.port) for _ in range(50)]
    try:
        for i, sock in enumerate(socks):
            sock.sendall(upload_header(f"/u/nokey{i}", MAX_BODY))
        answers = [read_answer(sock, 5) for sock in socks]
        assert all(a[0] == 401 and a[2] for a in answers), answers
        assert rss_mib(pid) - base < 32
    finally:
        for sock in socks:
            sock.close()
    assert requests.get(f"{s.url}/u/nokey0", headers=JSON, timeout=10).status_code == 404


def varint(n):
    out = b""
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out += bytes([byte | 0x80])
        else:
            return out + bytes([byte])


def empty_cells(representation, count):
    """(content type, body): one row of `count` cells with nothing in them."""
    if representation == "protobuf":  # CellSet{rows: [Row{key: "row", values: [Cell{}] * n}]}
        row = b"\x0a\x03row" + b"\x12\x00" * count
        return "application/x-protobuf", b"\x0a" + varint(len(row)) + row
    if representation == "json":
        return "application/json", b'{"Row":[{"key":"cm93","Cell":[' + b",".join(
            [b"{}"] * count) + b"]}]}"
    return "text/xml", b'<CellSet><Row key="cm93">' + b"<Cell/>" * count + b"</Row></CellSet>"


@pytest.mark.parametrize("representation, count", [
    ("protobuf", 3_000_000),  # 6 MB
    ("json", 2_500_000),  # 7.5 MB
    ("xml", 1_100_000),  # 7.7 MB
])
def test_a_body_of_many_empty_cells_costs_what_it_decodes_into(budget_server, representation,
                                                               count):
    """6 MB of protobuf holding 3 million empty cells cost +300 MiB to decode: the cells are
    counted as what they take in memory before they are decoded, and a body that would take
    more than one request may hold is refused with 413."""
    s = budget_server
    pid = s.proc.pid
    content_type, body = empty_cells(representation, count)
    assert len(body) < MAX_BODY
    reset_peak(pid)
    before = peak_mib(pid)
    r = requests.put(f"{s.url}/u/row", data=body, timeout=120,
                     headers={"Content-Type": content_type, "Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 413, (r.status_code, r.text[:200])
    assert "one request may hold" in r.text
    # The body itself, and little else.
    assert peak_mib(pid) - before < len(body) / MiB + 48, (before, peak_mib(pid))
    assert requests.get(f"{s.url}/u/row", headers=JSON, timeout=10).status_code == 404


def test_a_large_body_of_ordinary_cells_is_written(budget_server):
    """The estimate leaves room for real writes: 20,000 cells of 100 bytes in one JSON body."""
    s = budget_server
    cells = ",".join('{"column":"%s","$":"%s"}' % (b64(f"cf:q{i}"), b64("v" * 100))
                     for i in range(20_000))
    body = '{"Row":[{"key":"Ymlncm93","Cell":[%s]}]}' % cells
    r = requests.put(f"{s.url}/u/bigrow", data=body, timeout=120,
                     headers={"Content-Type": "application/json",
                              "Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 200, r.text[:200]
    assert requests.get(f"{s.url}/u/bigrow", headers=JSON, timeout=10).status_code == 200
