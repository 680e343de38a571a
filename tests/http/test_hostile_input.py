"""Hostile input against a real `basalt serve`: broken HTTP framing, oversized and endless
requests, deeply nested JSON, bad encodings, wrong content types, slow and idle connections.

Each request gets a 4xx (or, when its framing is broken beyond answering, a closed connection),
nothing is written (checked with a read), and the server still answers afterwards. The server
runs with short timeouts and a small connection limit so the slow cases take seconds.
"""

import os
import socket
import tempfile
import time

import pytest
import requests

from conftest import Server, b64

# Rows are read as JSON: a wildcard Accept (requests' */*) gets raw cells, as from HBase.
JSON = {"Accept": "application/json"}

IDLE_TIMEOUT = 2
READ_TIMEOUT = 2
MAX_CONNECTIONS = 100
MAX_BODY = 1 << 20


@pytest.fixture(scope="module")
def hostile(binary):
    with tempfile.TemporaryDirectory(prefix="basalt-hostile-") as tmp:
        s = Server(binary, os.path.join(tmp, "data"), config={
            "max_body": MAX_BODY, "max_header": 8192,
            "idle_timeout_seconds": IDLE_TIMEOUT, "read_timeout_seconds": READ_TIMEOUT,
            "max_connections": MAX_CONNECTIONS, "thrift": False,
            "thrift1": False})
        r = requests.put(f"{s.url}/h/schema", json={"name": "h", "ColumnSchema": [{"name": "cf"}]})
        assert r.status_code == 201, r.text
        yield s
        assert s.stop() == 0


def connect(server, timeout=5.0):
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def read_response(sock, timeout=5.0):
    """(status or None, closed): the status line's code if a response came, and whether the
    server closed the connection (after the response, or without one)."""
    sock.settimeout(timeout)
    data = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
            head, sep, body = data.partition(b"\r\n\r\n")
            if sep:
                length = 0
                for line in head.split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip())
                if len(body) >= length and b"connection: close" not in head.lower():
                    return int(head.split(b" ")[1]), False
    except socket.timeout:
        return (int(data.split(b" ")[1]) if data.startswith(b"HTTP/") else None), False
    except ConnectionResetError:
        pass
    status = int(data.split(b" ")[1]) if data.startswith(b"HTTP/") else None
    return status, True


def exchange(server, raw, timeout=5.0):
    with connect(server) as sock:
        try:
            sock.sendall(raw)
        except (BrokenPipeError, ConnectionResetError):
            pass
        return read_response(sock, timeout)


def alive(server):
    r = requests.get(f"{server.url}/version/cluster", timeout=5)
    assert r.status_code == 200


def assert_not_written(server, row="victim"):
    r = requests.get(f"{server.url}/h/{row}", headers=JSON, timeout=5)
    assert r.status_code == 404, r.text


def cells_body(row="victim"):
    return ('{"Row":[{"key":"%s","Cell":[{"column":"%s","$":"%s"}]}]}'
            % (b64(row), b64("cf:a"), b64("v"))).encode()


def put_request(body, path="/h/victim", extra=b"", content_type=b"application/json"):
    return (b"PUT " + path.encode() + b" HTTP/1.1\r\nHost: localhost\r\nContent-Type: " +
            content_type + b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n" + extra +
            b"\r\n" + body)


# ---- Broken framing ----

@pytest.mark.parametrize("raw", [
    b"GARBAGE\r\n\r\n",
    b"GET\r\n\r\n",
    b"GET / HTTP/9.9\r\n\r\n",
    b"GET /h/victim HTTP/1.1\r\nHost: localhost\r\nno colon here\r\n\r\n",
    b"GET /h/victim HTTP/1.1\r\nHost: localhost\r\nBad Name: v\r\n\r\n",
    b"\x00\x01\x02\xff\xfe binary \r\n\r\n",
    b"PUT /h/victim HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nabcde",
    b"PUT /h/victim HTTP/1.1\r\nHost: localhost\r\nContent-Length: -1\r\n\r\n",
    b"PUT /h/victim HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nabc\r\n0\r\n\r\n",
])
def test_malformed_requests_get_400_or_a_closed_connection(hostile, raw):
    status, closed = exchange(hostile, raw)
    assert status == 400 or (status is None and closed), (raw, status, closed)
    assert_not_written(hostile)
    alive(hostile)


# Framing two parsers could read differently (RFC 9112): each is 400 and the connection closes.
# What follows the header is a whole request that writes the row "victim": a server that takes
# the header as having no body reads it as the next request (request smuggling).
@pytest.mark.parametrize("framing", [
    # "chunked, identity" was read as no body.
    b"Transfer-Encoding: chunked, identity\r\n",
    b"Transfer-Encoding: identity\r\n",
    b"Transfer-Encoding: gzip, chunked\r\n",
    b"Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n",
    b"Transfer-Encoding: \r\n",
    # An unknown coding with a length was read by the length.
    b"Transfer-Encoding: xchunked\r\nContent-Length: 0\r\n",
    b"Content-Length: 0\r\nTransfer-Encoding: xchunked\r\n",
    b"Transfer-Encoding: chunked\r\nContent-Length: 0\r\n",
    b"Content-Length: 0\r\nTransfer-Encoding: chunked\r\n",
])
def test_transfer_encoding_other_than_chunked_alone_is_400(hostile, framing):
    raw = b"GET /version/cluster HTTP/1.1\r\nHost: localhost\r\n" + framing + b"\r\n"
    status, closed = exchange(hostile, raw + put_request(cells_body()))
    assert status == 400 and closed, (framing, status, closed)
    assert_not_written(hostile)
    alive(hostile)


def test_transfer_encoding_in_http_1_0_is_400(hostile):
    raw = (b"PUT /h/victim HTTP/1.0\r\nHost: localhost\r\nContent-Type: application/json\r\n"
           b"Transfer-Encoding: chunked\r\n\r\n" + b"%x\r\n" % len(cells_body()) + cells_body() +
           b"\r\n0\r\n\r\n")
    status, closed = exchange(hostile, raw)
    assert status == 400 and closed
    assert_not_written(hostile)


@pytest.mark.parametrize("fold", [b" folded", b"\tfolded"])
def test_a_header_line_folded_onto_the_next_is_400(hostile, fold):
    raw = (b"GET /version/cluster HTTP/1.1\r\nHost: localhost\r\nX-Note: first\r\n" + fold +
           b"\r\n\r\n")
    status, closed = exchange(hostile, raw)
    assert status == 400 and closed, status
    # The same with the fold on a header that matters: Transfer-Encoding continued onto a line.
    raw = (b"PUT /h/victim HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
           b"Content-Length: %d\r\nX-A: b\r\n" % len(cells_body()) + fold + b"\r\n\r\n" +
           cells_body())
    status, closed = exchange(hostile, raw)
    assert status == 400 and closed, status
    assert_not_written(hostile)
    alive(hostile)


def test_a_chunked_body_is_still_read(hostile):
    body = cells_body("chunked-row")
    raw = (b"PUT /h/chunked-row HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
           b"Transfer-Encoding: Chunked\r\n\r\n" + b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n")
    status, _ = exchange(hostile, raw)
    assert status == 200
    assert requests.get(f"{hostile.url}/h/chunked-row", headers=JSON, timeout=5).status_code == 200


def test_oversized_header_is_431(hostile):
    raw = b"GET /h/victim HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n"
    status, _ = exchange(hostile, raw)
    assert status == 431
    many = b"".join(b"X-H%d: v\r\n" % i for i in range(2000))
    status, _ = exchange(hostile, b"GET /h/victim HTTP/1.1\r\nHost: localhost\r\n" + many + b"\r\n")
    assert status == 431
    alive(hostile)


def test_oversized_body_is_413_and_writes_nothing(hostile):
    body = cells_body()[:-3] + b" " * MAX_BODY + b"]}"
    status, closed = exchange(hostile, put_request(body))
    assert status == 413 and closed
    assert_not_written(hostile)


def test_huge_content_length_is_413_without_reading_the_body(hostile):
    raw = b"PUT /h/victim HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" \
          b"Content-Length: 99999999999999\r\n\r\n" + cells_body()
    status, closed = exchange(hostile, raw)
    assert status == 413 and closed
    assert_not_written(hostile)
    alive(hostile)


def test_content_length_longer_than_the_body_times_out_and_writes_nothing(hostile):
    body = cells_body()
    raw = put_request(body)[:-len(body)].replace(
        b"Content-Length: %d" % len(body), b"Content-Length: %d" % (len(body) + 100)) + body
    start = time.monotonic()
    status, closed = exchange(hostile, raw, timeout=READ_TIMEOUT + 5)
    assert status is None and closed
    assert time.monotonic() - start < READ_TIMEOUT + 4
    assert_not_written(hostile)
    alive(hostile)


def test_chunked_body_that_never_ends_is_cut_off_and_writes_nothing(hostile):
    body = cells_body()
    raw = (b"PUT /h/victim HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
           b"Transfer-Encoding: chunked\r\n\r\n" + b"%x\r\n" % len(body) + body + b"\r\n")
    with connect(hostile) as sock:
        sock.sendall(raw)
        # Keeps sending a chunk now and then, never the last one.
        deadline = time.monotonic() + READ_TIMEOUT + 4
        closed = False
        while time.monotonic() < deadline:
            try:
                sock.sendall(b"1\r\n \r\n")
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            sock.settimeout(0.5)
            try:
                if sock.recv(4096) == b"":
                    closed = True
                    break
            except socket.timeout:
                pass
            except ConnectionResetError:
                closed = True
                break
        assert closed, "an endless chunked body must be cut off by the read timeout"
    assert_not_written(hostile)
    alive(hostile)


def test_chunked_body_larger_than_max_body_is_413(hostile):
    chunk = b"x" * 65536
    raw = (b"PUT /h/victim HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
           b"Transfer-Encoding: chunked\r\n\r\n" +
           (b"%x\r\n" % len(chunk) + chunk + b"\r\n") * (MAX_BODY // len(chunk) + 2) + b"0\r\n\r\n")
    status, closed = exchange(hostile, raw)
    assert status == 413 and closed
    assert_not_written(hostile)


# ---- Bodies and URLs with bad content ----

def test_deeply_nested_json_is_400_and_writes_nothing(hostile):
    for body in (b"[" * 100000, b'{"Row":' + b"[" * 100000, b'{"a":' * 50000):
        status, _ = exchange(hostile, put_request(body))
        assert status == 400, status
    # Also as a scanner's JSON filter, and as a schema.
    nested_filter = '{"type":"FilterList","op":"MUST_PASS_ALL","filters":[' * 2000
    r = requests.post(f"{hostile.url}/h/scanner", json={"filter": nested_filter}, timeout=10)
    assert r.status_code == 400, r.text
    status, _ = exchange(hostile, put_request(b"[" * 100000, path="/h2/schema"))
    assert status == 400
    assert requests.get(f"{hostile.url}/h2/schema").status_code == 404
    assert_not_written(hostile)
    alive(hostile)


def test_invalid_utf8_in_json_bodies_is_400_and_writes_nothing(hostile):
    body = cells_body().replace(b'"Row"', b'"R\xff\xfeow"')
    status, _ = exchange(hostile, put_request(body))
    assert status == 400
    body = b'{"Row":[{"key":"\xc3\x28","Cell":[{"column":"' + b64("cf:a").encode() + b'","$":"dg=="}]}]}'
    status, _ = exchange(hostile, put_request(body))
    assert status == 400
    status, _ = exchange(hostile, put_request(b'{"name":"h3\xff","ColumnSchema":[{"name":"cf"}]}',
                                              path="/h3/schema"))
    assert status == 400
    assert requests.get(f"{hostile.url}/h3/schema").status_code == 404
    assert_not_written(hostile)


def test_invalid_utf8_and_bad_percent_encoding_in_urls(hostile):
    cases = [
        (b"GET /h/%zz HTTP/1.1\r\nHost: localhost\r\n\r\n", {400}),
        (b"GET /h/victim%4 HTTP/1.1\r\nHost: localhost\r\n\r\n", {400}),
        (b"GET /h/victim?v=%G1 HTTP/1.1\r\nHost: localhost\r\n\r\n", {400}),
        (b"GET /h/victim?v=99999999999999999999 HTTP/1.1\r\nHost: localhost\r\n\r\n", {400}),
        (b"GET /%ff%fe/schema HTTP/1.1\r\nHost: localhost\r\n\r\n", {400, 404}),
        (b"GET /h/\xff\xfe HTTP/1.1\r\nHost: localhost\r\n\r\n", {400, 404}),
    ]
    for raw, expected in cases:
        status, closed = exchange(hostile, raw)
        assert status in expected or (status is None and closed), (raw, status)
    # A write through a bad path writes nothing.
    status, _ = exchange(hostile, put_request(cells_body(), path="/h/victim%zz"))
    assert status == 400
    status, _ = exchange(hostile, put_request(cells_body(), path="/%ff%00/schema"))
    assert status == 400
    assert_not_written(hostile)
    alive(hostile)


def test_bad_base64_and_bad_values_write_nothing(hostile):
    for body in (b'{"Row":[{"key":"%%%%","Cell":[{"column":"Y2Y6YQ==","$":"dg=="}]}]}',
                 b'{"Row":[{"key":"dmljdGlt","Cell":[{"column":"Y2Y6YQ","$":"dg=="}]}]}',
                 b'{"Row":[{"key":"dmljdGlt","Cell":[{"column":"Y2Y6YQ==","$":"d"}]}]}',
                 b'{"Row":[{"key":"dmljdGlt","Cell":[{"column":"Y2Y6YQ==","$":"dg==",'
                 b'"timestamp":"soon"}]}]}',
                 b'{"Row":"not a list"}', b'{"Row":[{"key":5,"Cell":[]}]}', b"null", b"",
                 b"\xff\xfe\xfd"):
        status, _ = exchange(hostile, put_request(body))
        assert status == 400, (body, status)
    assert_not_written(hostile)


def test_wrong_content_types(hostile):
    status, _ = exchange(hostile, put_request(cells_body(), content_type=b"text/plain"))
    assert status == 415
    # Control bytes in a header value are broken framing, not a content type.
    status, _ = exchange(hostile, put_request(cells_body(), content_type=b"\x01\x02"))
    assert status == 400
    # XML and protobuf are read now: a JSON body labelled as either is a bad body, not a write.
    status, _ = exchange(hostile, put_request(cells_body(), content_type=b"text/xml"))
    assert status == 400
    status, _ = exchange(hostile, put_request(cells_body(), content_type=b"application/x-protobuf"))
    assert status == 400
    r = requests.get(f"{hostile.url}/h/schema", headers={"Accept": "text/html"})
    assert r.status_code == 406
    assert_not_written(hostile)
    alive(hostile)


# ---- Slow and idle clients ----

def fd_count(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def wait_until(predicate, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def test_slowloris_headers_are_cut_off_by_the_header_timeout(hostile):
    socks = [connect(hostile) for _ in range(5)]
    for s in socks:
        s.sendall(b"GET /h/victim HTTP/1.1\r\n")
    start = time.monotonic()
    open_socks = list(socks)
    # One header byte per socket every 0.3 s: each socket alone never sends a whole header.
    while open_socks and time.monotonic() - start < IDLE_TIMEOUT + 4:
        for s in list(open_socks):
            try:
                s.sendall(b"X")
                s.settimeout(0.01)
                if s.recv(4096) == b"":
                    open_socks.remove(s)
            except socket.timeout:
                pass
            except (BrokenPipeError, ConnectionResetError):
                open_socks.remove(s)
        alive(hostile)  # a normal client is served all along
        time.sleep(0.3)
    elapsed = time.monotonic() - start
    for s in socks:
        s.close()
    assert not open_socks, "trickled headers must be cut off"
    assert elapsed < IDLE_TIMEOUT + 3


def test_many_idle_connections_are_bounded_then_closed(hostile):
    pid = hostile.proc.pid
    alive(hostile)
    fds_before, rss_before = fd_count(pid), rss_kb(pid)
    socks = []
    for _ in range(500):
        try:
            socks.append(connect(hostile))
        except OSError:
            break
    assert len(socks) == 500
    time.sleep(0.5)
    fds_during, rss_during = fd_count(pid), rss_kb(pid)
    # At most max_connections are kept (plus one being refused); the others got 503 and closed.
    assert fds_during <= fds_before + MAX_CONNECTIONS + 5, (fds_before, fds_during)
    assert rss_during - rss_before < 64 * 1024, (rss_before, rss_during)
    refused = 0
    for s in socks[MAX_CONNECTIONS + 10:]:
        status, closed = read_response(s, timeout=2)
        if status == 503 and closed:
            refused += 1
    assert refused >= 500 - MAX_CONNECTIONS - 10 - 5
    # The kept ones are closed by the idle timeout; then the server takes new clients again.
    assert wait_until(lambda: fd_count(pid) <= fds_before + 2, IDLE_TIMEOUT + 5), fd_count(pid)
    for s in socks:
        s.close()
    alive(hostile)
    metrics = requests.get(f"{hostile.url}/metrics").text
    assert "basalt_http_refused_connections_total" in metrics
    assert rss_kb(pid) - rss_before < 64 * 1024
