"""The HTTP server itself: keep-alive, concurrency, metrics, access log, bind errors,
config file, graceful shutdown."""

import http.client
import json
import os
import signal
import socket
import subprocess
import tempfile
import threading
import time

import pytest
import requests

from conftest import API, Server, b64, rows_of

# REST answers XML unless asked for JSON (as HBase).
JSON = {"Accept": "application/json"}


def test_keep_alive_serves_several_requests_on_one_connection(server, table):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    ports = set()
    for i in range(5):
        body = json.dumps({"Row": [{"key": b64(f"k{i}"), "Cell": [
            {"column": b64("cf:a"), "$": b64(str(i))}]}]})
        conn.request("PUT", f"/{table}/k{i}", body=body,
                     headers={"Content-Type": "application/json"})
        r = conn.getresponse()
        r.read()
        assert r.status == 200
        ports.add(conn.sock.getsockname()[1])
        conn.request("GET", f"/{table}/k{i}", headers={"Accept": "application/json"})
        r = conn.getresponse()
        assert r.status == 200
        assert rows_of(json.loads(r.read()))[f"k{i}".encode()][0][1] == str(i).encode()
    assert len(ports) == 1  # one TCP connection throughout
    conn.close()


def test_concurrent_clients(url, table):
    errors = []

    def worker(t):
        try:
            with requests.Session() as s:
                for i in range(20):
                    key = f"c{t}_{i}"
                    body = {"Row": [{"key": b64(key), "Cell": [
                        {"column": b64("cf:a"), "$": b64(key)}]}]}
                    r = s.put(f"{url}/{table}/{key}", json=body)
                    assert r.status_code == 200, r.text
                    r = s.get(f"{url}/{table}/{key}", headers=JSON)
                    assert rows_of(r.json())[key.encode()][0][1] == key.encode()
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    assert errors == []
    r = requests.get(f"{url}/{table}/c*", headers=JSON)
    assert len(rows_of(r.json())) == 120


def test_metrics_by_route_template_and_status_class(url, table):
    requests.get(f"{url}/{table}/some-row-1")
    requests.get(f"{url}/{table}/some-row-2")
    text = requests.get(url + "/metrics").text
    assert 'basalt_http_requests_total{route="/{table}/{row}",method="GET",status="4xx"}' in text
    assert "some-row" not in text  # raw URLs never become labels
    assert "basalt_http_request_duration_seconds_bucket{" in text
    assert 'basalt_http_request_errors_total{route="/{table}/{row}"' in text
    assert "basalt_http_open_connections " in text
    assert "basalt_rest_open_scanners " in text


def test_access_log_has_one_json_line_per_request(server, url):
    requests.get(url + "/version?probe=accesslog")
    deadline = time.time() + 5
    while True:
        with open(server.log_path) as f:
            lines = [json.loads(line) for line in f if line.strip()]
        hits = [e for e in lines if e["target"] == "/version?probe=accesslog"]
        if hits or time.time() > deadline:
            break
        time.sleep(0.1)
    assert len(hits) == 1
    e = hits[0]
    assert (e["method"], e["status"], e["route"]) == ("GET", 200, "/version")
    assert e["bytes"] > 0 and e["duration_ms"] >= 0 and e["remote"].startswith("127.0.0.1:")
    assert "time" in e


def test_port_in_use_is_a_one_line_error_and_exit_1(binary, server):
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([binary, "serve", "--data", os.path.join(tmp, "d"),
                            "--port", str(server.port)],
                           capture_output=True, text=True, timeout=30)
    assert p.returncode == 1
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and str(server.port) in lines[0]


def test_bad_config_file_is_an_error(binary):
    with tempfile.TemporaryDirectory() as tmp:
        cfg = os.path.join(tmp, "c.json")
        with open(cfg, "w") as f:
            f.write('{"port": "eighty"}')
        p = subprocess.run([binary, "serve", "--data", os.path.join(tmp, "d"), "--config", cfg],
                           capture_output=True, text=True, timeout=30)
    assert p.returncode == 1 and "port" in p.stderr


def test_one_config_file_holds_the_servers_and_the_apps_keys(binary):
    with tempfile.TemporaryDirectory() as tmp:
        # max_body is the HTTP server's key, app_namespace the app's: both are read.
        s = Server(binary, os.path.join(tmp, "data"),
                   config={"max_body": 4096, "app-namespace": "social",
                           # Keys starting with // are comments, whatever their value.
                           "//": "a comment", "//max_body": 1, "// port": {"x": [1]}})
        try:
            assert requests.put(s.url + "/t/row", data=b"x" * 8192,
                                headers={"Content-Type": "application/octet-stream"}
                                ).status_code == 413
            # The app's namespace is reserved from the data plane: REST refuses it by name.
            tables = requests.get(s.url + "/namespaces/social/tables",
                                  headers={"Accept": "application/json"})
            assert tables.status_code == 403 and "'social' is reserved" in tables.text
            assert "social:social_users" in requests.get(
                s.url + "/", headers={"Accept": "application/json"}).text
        finally:
            s.stop()
        for bad, word in (('{"no_such_key": 1}', "no_such_key"),
                          ('{"/max_body": 1}', "/max_body"),  # one slash is no comment
                          ('{"session_ttl_seconds": 0}', "session_ttl_seconds"),
                          ('{"password_hash_cost": "none"}', "password_hash_cost"),
                          ('{"feed_inbox_cap": 0}', "feed_inbox_cap"),
                          ('{"feed_inbox_trim_every": -1}', "feed_inbox_trim_every"),
                          ('{"thrift_spin_us": 5000}', "thrift_spin_us"),
                          # A budget smaller than max_body could never take a body it accepts.
                          ('{"request_memory_budget": 1000}', "request_memory_budget")):
            cfg = os.path.join(tmp, "bad.json")
            with open(cfg, "w") as f:
                f.write(bad)
            p = subprocess.run([binary, "serve", "--data", os.path.join(tmp, "d2"), "--config",
                                cfg], capture_output=True, text=True, timeout=30)
            assert p.returncode == 1 and word in p.stderr, (bad, p.stderr)
        p = subprocess.run([binary, "serve", "--data", os.path.join(tmp, "d2"),
                            "--thrift-spin-us", "5000"], capture_output=True, text=True,
                           timeout=30)
        assert p.returncode != 0 and "--thrift-spin-us" in p.stderr, p.stderr


def test_sigterm_with_requests_in_flight_exits_0_and_keeps_data(binary):
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "data")
        s = Server(binary, data)
        assert requests.put(s.url + "/g/schema",
                            json={"ColumnSchema": [{"name": "cf"}]}).status_code == 201
        acked = []
        stop = threading.Event()

        def writer(t):
            with requests.Session() as sess:
                for i in range(10_000):
                    if stop.is_set():
                        return
                    key = f"w{t}_{i}"
                    body = {"Row": [{"key": b64(key), "Cell": [
                        {"column": b64("cf:a"), "$": b64(key)}]}]}
                    try:
                        r = sess.put(f"{s.url}/g/{key}", json=body, timeout=10)
                    except requests.RequestException:
                        return  # the server went away: expected after SIGTERM
                    if r.status_code == 200:
                        acked.append(key)

        threads = [threading.Thread(target=writer, args=(t,)) for t in range(4)]
        for th in threads:
            th.start()
        deadline = time.time() + 10
        while len(acked) < 50 and time.time() < deadline:
            time.sleep(0.01)
        assert len(acked) >= 50
        assert s.stop(timeout=30) == 0
        stop.set()
        for th in threads:
            th.join(timeout=30)
        out = s.proc.stdout.read()
        assert "stopped" in out

        # Reopen the same directory: every acknowledged write is there.
        s2 = Server(binary, data)
        try:
            r = requests.get(s2.url + "/g/w*", headers=JSON)
            assert r.status_code == 200
            found = {k.decode() for k in rows_of(r.json())}
            assert set(acked) <= found
        finally:
            assert s2.stop() == 0


def test_idle_and_slow_connections_are_closed_after_their_timeouts(binary):
    with tempfile.TemporaryDirectory() as tmp:
        s = Server(binary, os.path.join(tmp, "data"),
                   config={"idle_timeout_seconds": 1, "read_timeout_seconds": 1})
        try:
            idle = socket.create_connection(("127.0.0.1", s.port), timeout=10)
            slow = socket.create_connection(("127.0.0.1", s.port), timeout=10)
            slow.sendall(b"GET /version HTTP/1.1\r\nHost: x\r\n")  # never finishes its header
            start = time.time()
            assert idle.recv(1024) == b""  # closed by the server
            assert slow.recv(1024) == b""
            assert time.time() - start < 8
            idle.close()
            slow.close()
            # The server still serves new connections.
            assert requests.get(s.url + "/version").status_code == 200
        finally:
            assert s.stop() == 0


def test_thrift2_serves_the_same_store(binary):
    """`basalt serve` also speaks HBase's Thrift2: the CLI's thrift:// backend writes through it
    and the REST API reads the same cells."""
    with tempfile.TemporaryDirectory() as tmp:
        s = Server(binary, os.path.join(tmp, "data"))
        try:
            assert s.thrift_port
            target = f"thrift://127.0.0.1:{s.thrift_port}"

            def cli(*args):
                return subprocess.run([binary, "--data", target, *args], capture_output=True,
                                      text=True, timeout=30)

            assert cli("create", "tt", "f").returncode == 0
            p = cli("put", "tt", "r1", "f:q", "over-thrift")
            assert p.returncode == 0, p.stderr
            r = requests.get(s.url + "/tt/r1/f:q", headers={"Accept": "application/octet-stream"})
            assert r.status_code == 200 and r.content == b"over-thrift"
            p = subprocess.run([binary, "--server", f"127.0.0.1:{s.thrift_port}", "get", "tt",
                                "r1"], capture_output=True, text=True, timeout=30)
            assert p.returncode == 0 and "over-thrift" in p.stdout, p.stderr
            p = cli("get", "nope", "r1")
            assert p.returncode == 1 and p.stderr.startswith("error:")
        finally:
            assert s.stop() == 0


def thrift_calls(url, server_name):
    for line in requests.get(url + "/metrics").text.splitlines():
        if line.startswith(f"basalt_{server_name}_calls_total "):
            return float(line.split()[1])
    raise AssertionError(f"no basalt_{server_name}_calls_total on /metrics")


def test_metrics_count_the_calls_of_each_thrift_server(server, binary):
    before = thrift_calls(server.url, "thrift2")
    # basalt's own thrift:// client: one call to check the server at open, one to list tables.
    out = subprocess.run([binary, "--data", f"thrift://127.0.0.1:{server.thrift_port}", "list"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert thrift_calls(server.url, "thrift2") == before + 2
    assert thrift_calls(server.url, "thrift1") >= 0


def test_a_blocked_loop_delays_neither_new_connections_nor_sigterm(binary):
    """Handlers that block their event loop (here sign-ups, each a password hash at the real
    cost, queued one after another on one loop) held up the acceptor and the SIGTERM handler,
    which ran on loop 0 too: a new connection was not even accepted, and SIGTERM not acted on,
    until every queued handler was done.

    What makes it deterministic: with two loops, connections are dealt to loops 0, 1, 0, 1... in
    the order they are accepted. The test opens its connections one after another, each answered
    before the next is opened, so connection i is on loop i % 2; the sign-ups go to loop 0's
    connections only, and the probe, the next connection, is loop 1's, which has nothing to do.
    The assertions are on order (how many sign-ups were answered when the probe was, or when the
    listening socket closed), not on durations."""
    signups = 10
    with tempfile.TemporaryDirectory() as tmp:
        s = Server(binary, os.path.join(tmp, "data"), config={
            "threads": 2, "auth_attempts_per_minute": 1000,
            "max_concurrent_password_hashes": 8, "shutdown_timeout_seconds": 300,
            "thrift": False, "thrift1": False})
        stopped = False
        try:
            conns = []
            for _ in range(2 * signups - 1):  # loop 0 gets `signups` of them, loop 1 one fewer
                c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=300)
                c.request("GET", "/version/cluster")
                r = c.getresponse()
                r.read()
                assert r.status == 200
                conns.append(c)
            on_loop0 = conns[0::2]
            answers = []

            def sign_up_all(batch):
                """Sends a sign-up on each of loop 0's connections, then collects the answers
                in threads; returns the threads."""
                for i, c in enumerate(on_loop0):
                    c.request("POST", f"{API}/signup", headers={"Content-Type": "application/json"},
                              body=json.dumps({"user": f"blocked{batch}x{i}",
                                               "password": "correct horse battery"}))

                def collect(c):
                    r = c.getresponse()
                    r.read()
                    answers.append((batch, r.status))

                threads = [threading.Thread(target=collect, args=(c,)) for c in on_loop0]
                for th in threads:
                    th.start()
                return threads

            def answered(batch):
                return sum(1 for b, _ in answers if b == batch)

            # A new connection while loop 0 hashes: answered on loop 1 at once.
            threads = sign_up_all(1)
            time.sleep(0.05)  # loop 0 is in its first hash (each takes a tenth of a second or more)
            probe = requests.get(s.url + "/version/cluster", timeout=300)
            assert probe.status_code == 200
            assert answered(1) <= signups // 2, answers
            for th in threads:
                th.join(timeout=300)
            assert answers == [(1, 201)] * signups

            # SIGTERM while loop 0 hashes: the listening socket closes at once, and the sign-ups
            # in flight still finish and get their answer.
            threads = sign_up_all(2)
            time.sleep(0.05)
            s.proc.send_signal(signal.SIGTERM)
            stopped = True
            while True:
                try:
                    socket.create_connection(("127.0.0.1", s.port), timeout=300).close()
                except ConnectionRefusedError:
                    break
                time.sleep(0.02)
            assert answered(2) <= signups // 2, answers
            for th in threads:
                th.join(timeout=300)
            assert sorted(answers) == [(1, 201)] * signups + [(2, 201)] * signups
            assert s.proc.wait(timeout=300) == 0
        finally:
            if not stopped:
                s.stop()
            elif s.proc.poll() is None:
                s.proc.kill()
